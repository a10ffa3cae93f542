#!/usr/bin/env bash
# Instructions per call of canon.Fingerprint on the engine issue's 294-byte arguments, and of
# the encoding/json anchor, counted by valgrind (callgrind). Unlike a timing, the count does not
# depend on what else the machine is doing, so it is the number to compare between changes.
#   bash bench/instructions.sh        (needs valgrind: apt-get install valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
mkdir -p .bench
go test -c -o .bench/canon.test ./internal/canon
calls=20000
count() { # count FUNCTION BENCHMARK: instructions per call inside FUNCTION (and what it calls)
  local out=.bench/callgrind.out
  rm -f "$out"
  # Go's asynchronous preemption signals upset callgrind; one P keeps the run simple.
  GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
    --toggle-collect="$1" .bench/canon.test -test.run x -test.bench "$2" -test.benchtime ${calls}x \
    >/dev/null 2>.bench/callgrind.err || { cat .bench/callgrind.err >&2; exit 1; }
  local ir
  ir=$(grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}')
  # The benchmark runs the body once to warm up, then $calls times.
  echo $((ir / (calls + 1)))
}
fp=$(count 'github.com/loopguard/loopguard/internal/canon.Fingerprint' 'Fingerprint$')
anchor=$(count 'github.com/loopguard/loopguard/internal/canon.BenchmarkEncodingJSONAnchor' 'EncodingJSONAnchor')
echo "canon.Fingerprint: $fp instructions per call"
echo "encoding/json anchor: $anchor instructions per call"
echo "ratio: $(echo "scale=1; $anchor / $fp" | bc)x fewer instructions"
