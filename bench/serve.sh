#!/usr/bin/env bash
# Throughput of `loopguard serve` (default preset, in-memory state) on loopback, driven by
# bench/servebench from the same machine (so the two share its 2 cores).
#   bash bench/serve.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
mkdir -p .bench
go build -o .bench/loopguard ./cmd/loopguard
go build -o .bench/servebench ./bench/servebench
port=18417
.bench/loopguard serve --addr 127.0.0.1:$port --preset default 2> .bench/serve.log &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for _ in $(seq 50); do curl -sf http://127.0.0.1:$port/healthz >/dev/null 2>&1 && break; sleep 0.1; done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
.bench/servebench -url http://127.0.0.1:$port/hook/claude-code -c 8 -d "${secs}s"
