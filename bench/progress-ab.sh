#!/usr/bin/env bash
# Replay and scan throughput of the progress-aware default against the code before it (the
# default was then both seed plugins), built from git and run in turn on the same inputs, so
# that the machine's load falls on both alike. Prints the median CPU seconds (user + system) of
# each and the ratio; CPU time moves less with other work on the machine than wall time does.
#   bash bench/progress-ab.sh [BASE_COMMIT] [RUNS]   (default 9e18d9d, 7 runs)
set -euo pipefail
[ -x /usr/bin/time ] || { echo "progress-ab.sh needs GNU time (apt-get install time)" >&2; exit 2; }
cd "$(dirname "$0")/.."
base=${1:-9e18d9d}
runs=${2:-7}
mkdir -p .bench
go build -o .bench/loopguard ./cmd/loopguard
rm -rf .bench/base-src
git worktree add -f --detach .bench/base-src "$base" >/dev/null 2>&1
(cd .bench/base-src && go build -o ../loopguard-base ./cmd/loopguard)
git worktree remove --force .bench/base-src
events=.bench/events-1000000.jsonl
[ -s "$events" ] || go run ./bench/genevents -n 1000000 > "$events"
shared=../shared/data/trajectories
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(go version | cut -d' ' -f3); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "base: $base ($(git log -1 --format=%s "$base" | cut -c1-60))"

cpu() { # CPU seconds of one run of "$@"
  /usr/bin/time -f '%U %S' -o .bench/time.out "$@" > /dev/null 2>&1 || true
  awk '{print $1 + $2}' .bench/time.out
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
compare() { # compare NAME CMD-WITH-@BIN@
  local name=$1 cmd=$2 new=() old=()
  for _ in $(seq "$runs"); do
    new+=("$(cpu sh -c "${cmd//@BIN@/.bench/loopguard}")")
    old+=("$(cpu sh -c "${cmd//@BIN@/.bench/loopguard-base}")")
  done
  local n o
  n=$(printf '%s\n' "${new[@]}" | median)
  o=$(printf '%s\n' "${old[@]}" | median)
  printf '%-28s new %6.2f s   base %6.2f s   new/base %.2f\n' "$name" "$n" "$o" "$(echo "$n / $o" | bc -l)"
}
compare "replay, 1M events" "@BIN@ replay < $events"
compare "scan, shared set" "@BIN@ scan --format jsonl $shared"
