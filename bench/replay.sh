#!/usr/bin/env bash
# Replay throughput: `loopguard replay` against the DSH path in Node over the same file, in
# one run on this machine. Prints events per second for each and the ratio.
#   bash bench/replay.sh [EVENTS]   (default 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
mkdir -p .bench
go build -o .bench/loopguard ./cmd/loopguard
file=.bench/events-$n.jsonl
[ -s "$file" ] || go run ./bench/genevents -n "$n" > "$file"
bytes=$(stat -c %s "$file")
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(go version | cut -d' ' -f3), node $(node --version)"
echo "input: $file, $n events, $((bytes / 1024 / 1024)) MiB"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_of() { # seconds for one run of "$@", output discarded
  local s e
  s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N)
  echo "$e - $s" | bc -l
}
lg=(); js=()
for i in 1 2 3 4 5; do
  lg+=("$(time_of sh -c ".bench/loopguard replay --preset default < $file")")
  js+=("$(time_of node bench/dsh-path.mjs "$file")")
done
lgm=$(printf '%s\n' "${lg[@]}" | median)
jsm=$(printf '%s\n' "${js[@]}" | median)
printf 'loopguard replay (default preset): median %.3f s, %.0f events/s\n' "$lgm" "$(echo "$n / $lgm" | bc -l)"
printf 'node DSH path (repeat chain only): median %.3f s, %.0f events/s\n' "$jsm" "$(echo "$n / $jsm" | bc -l)"
printf 'ratio: loopguard is %.2fx faster\n' "$(echo "$jsm / $lgm" | bc -l)"
