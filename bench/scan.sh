#!/usr/bin/env bash
# Scan throughput: `loopguard scan --format jsonl` against a straightforward Python reader of
# the same files (bench/scan_python.py), in one run on this machine. Prints MB/s of
# uncompressed transcript for each (median wall time of 9 runs, taken in turn; RUNS=n to
# change), the CPU time each used, and the ratios.
#   bash bench/scan.sh [FOLDER]   (default ../shared/data/trajectories)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/data/trajectories}
if [ ! -d "$dir" ]; then
  echo "scan.sh: $dir not found: give the folder of transcripts to scan" >&2
  exit 1
fi
if ! command -v python3 > /dev/null; then
  echo "scan.sh: python3 not found: the Python anchor cannot run, skipping the comparison" >&2
  exit 0
fi
mkdir -p .bench
go build -o .bench/loopguard ./cmd/loopguard

# The uncompressed size of what both read: every *.gz file under the folder.
bytes=$(find "$dir" -name '*.gz' -type f -print0 | xargs -0 cat | gzip -dc | wc -c)
files=$(find "$dir" -name '*.gz' -type f | wc -l)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(go version | cut -d' ' -f3), $(python3 --version)"
echo "input: $dir, $files gzip files, $bytes bytes uncompressed ($(echo "$bytes / 1000000" | bc) MB)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# One run of "$@", output discarded: prints "wall cpu" in seconds (cpu = user + system).
run() {
  local TIMEFORMAT='%R %U %S' t
  t=$( { time "$@" > /dev/null 2>&1; } 2>&1 ) || true
  echo "$t" | awk '{printf "%s %.3f\n", $1, $2 + $3}'
}
# One untimed run of each, to warm the page cache.
.bench/loopguard scan --format jsonl "$dir" > /dev/null 2>&1 || true
python3 bench/scan_python.py "$dir" > /dev/null 2>&1
runs=${RUNS:-9}
lg=(); py=()
for i in $(seq "$runs"); do # taken in turn, so that both see the same machine
  lg+=("$(run .bench/loopguard scan --format jsonl "$dir")")
  py+=("$(run python3 bench/scan_python.py "$dir")")
done
lgw=$(printf '%s\n' "${lg[@]}" | cut -d' ' -f1 | median); lgc=$(printf '%s\n' "${lg[@]}" | cut -d' ' -f2 | median)
pyw=$(printf '%s\n' "${py[@]}" | cut -d' ' -f1 | median); pyc=$(printf '%s\n' "${py[@]}" | cut -d' ' -f2 | median)
mb=$(echo "$bytes / 1000000" | bc -l)
printf 'loopguard scan --format jsonl: median wall %.3f s = %.1f MB/s; median CPU %.3f s (runs, wall: %s)\n' "$lgw" "$(echo "$mb / $lgw" | bc -l)" "$lgc" "$(printf '%s\n' "${lg[@]}" | cut -d' ' -f1 | xargs)"
printf 'python3 bench/scan_python.py: median wall %.3f s = %.1f MB/s; median CPU %.3f s (runs, wall: %s)\n' "$pyw" "$(echo "$mb / $pyw" | bc -l)" "$pyc" "$(printf '%s\n' "${py[@]}" | cut -d' ' -f1 | xargs)"
printf 'ratio (MB/s, wall): loopguard is %.2fx the Python reader; CPU time ratio %.2fx\n' "$(echo "$pyw / $lgw" | bc -l)" "$(echo "$pyc / $lgc" | bc -l)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
