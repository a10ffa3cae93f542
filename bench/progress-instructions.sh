#!/usr/bin/env bash
# Instructions per call of the progress detector on a 4 KB result (Engine.Observe through the
# default preset, and the normalise-and-hash pass alone), against the anchor: the seed's
# duplicate-text hash of the same bytes; and of a short call (many distinct calls, short results).
# Counted by valgrind (callgrind), so the numbers do not move with the machine's load; timings
# are in BENCHMARKS.md.
#   bash bench/progress-instructions.sh        (needs valgrind: apt-get install valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
mkdir -p .bench
go test -c -o .bench/loopguard.test .
calls=5000
total() { # total FUNCTION BENCHMARK N: instructions inside FUNCTION (and what it calls) in a run of N calls
  local out=.bench/callgrind-progress.out try
  # Valgrind 3.19 does not know RDTSCP, which the Go runtime's lock spinning may reach when the
  # machine is busy (SIGILL in runtime.cputicks): such a run is tried again, up to ten times
  # (three were too few while other jobs ran).
  for try in $(seq 10); do
    rm -f "$out"
    # No garbage collection (GOGC=off) and no test before the benchmark (-test.run '^$'): a
    # collection that overlaps the measured calls turns on the write barrier inside them, and
    # moved a short call's count by 6% from one run to the next.
    if GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
      --toggle-collect="$1" .bench/loopguard.test -test.run '^$' -test.bench "$2" -test.benchtime "$3x" \
      >/dev/null 2>.bench/callgrind-progress.err; then
      break
    fi
    if [ "$try" = 10 ] || ! grep -q "runtime.cputicks" .bench/callgrind-progress.err; then
      cat .bench/callgrind-progress.err >&2
      exit 1
    fi
  done
  grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}'
}
count() { # count FUNCTION BENCHMARK: instructions per call inside FUNCTION, warm-up left out
  # The collection counts every call of FUNCTION the benchmark makes: its warm-up before
  # ResetTimer too, done once for the one-call run the testing package starts with and again
  # for the measured run (2 x 512 calls of 4 KB; 2 x 24,576 short calls, which made the short
  # call's count until session 55 about 3.5 times what one call costs). Two runs, of N and 2N
  # calls, have the same warm-up: their difference is N calls' worth.
  local one two
  one=$(total "$1" "$2" "$calls")
  two=$(total "$1" "$2" $((2 * calls)))
  echo $(((two - one) / calls))
}
observe=$(count 'github.com/loopguard/loopguard.(*Engine).ObserveAppend' 'ObserveProgress4KB$')
spoke=$(count 'github.com/loopguard/loopguard.(*Engine).ObserveAppend' 'ObserveProgress4KBAfterText$')
digest=$(count 'github.com/loopguard/loopguard.(*digester).digest' 'Digest4KB$')
anchor=$(count 'github.com/loopguard/loopguard.textFingerprint' 'SeedTextHash4KB$')
short=$(count 'github.com/loopguard/loopguard.(*Engine).ObserveAppend' 'ObserveSteadyStateProgress$')
echo "Engine.Observe, 4 KB result, default preset: $observe instructions per call"
echo "the same after the model spoke (lines kept): $spoke instructions per call"
echo "digest (normalise and hash) of 4 KB:          $digest instructions per call"
echo "anchor, the seed's text hash of 4 KB:         $anchor instructions per call"
echo "a short call (ObserveSteadyStateProgress):    $short instructions per call"
echo "ratio observe/anchor: $(echo "scale=2; $observe / $anchor" | bc), after the model spoke $(echo "scale=2; $spoke / $anchor" | bc)"
