#!/usr/bin/env bash
# Hook latency: one `loopguard-hook hook claude-code` process per event (and the same with the
# full loopguard binary) (a PostToolUse, default preset, the embedded bbolt store, the model's
# text read from the tail of a 1 MB transcript), process start to exit, against a minimal Node hook that
# only parses stdin and prints {}, and against a Go program that does nothing (the floor of any
# Go program's start on this machine). All run alternately in one run.   bash bench/hook.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-200}
mkdir -p .bench
# Built as the README installs them: static (CGO_ENABLED=0), which starts about 1 ms faster.
# `loopguard install` writes loopguard-hook, the hook-only binary, when it sits beside loopguard.
CGO_ENABLED=0 go build -o .bench/loopguard ./cmd/loopguard
CGO_ENABLED=0 go build -o .bench/loopguard-hook ./cmd/loopguard-hook
CGO_ENABLED=0 go build -o .bench/emptyprog ./bench/emptyprog
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
# A transcript of about 1 MB whose last lines hold the call's message, as Claude Code writes
# it: the hook reads its tail for the model's words beside the call.
transcript=.bench/transcript.jsonl
{
  for i in $(seq 2000); do
    printf '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_f%d","content":"%0480d"}]}}\n' "$i" 0
  done
  cat internal/transcript/testdata/claude-code/s1.jsonl
} > "$transcript"
cat > .bench/post-tool-use.json <<JSON
{"session_id":"bench-session","transcript_path":"$PWD/$transcript","cwd":"/tmp","permission_mode":"default","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"grep -rn \"get_legend_data\" /testbed/seaborn --include=*.py","description":"Search for legend data usage"},"tool_response":{"stdout":"","stderr":"","interrupted":false,"isImage":false},"tool_use_id":"toolu_01"}
JSON
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), node $(node --version)"
XDG_STATE_HOME=$state go run ./bench/hookbench -n "$n" -stdin .bench/post-tool-use.json -- \
  ".bench/loopguard-hook hook claude-code --preset default" \
  ".bench/loopguard hook claude-code --preset default" \
  "node bench/minimal-hook.js" \
  ".bench/emptyprog"
