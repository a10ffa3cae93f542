#!/usr/bin/env bash
# Detection quality: loopguard's presets and the peers' published loop rules, on the same
# hand-labelled transcripts, scored by the same code as `loopguard scan --labels`
# (bench/detection). Prints one Markdown table per labelled set: the shared development set,
# the same set with our supplementary labels of its unlabelled runs (testdata/shared-extra),
# then our own corpus (testdata/labels) and the other agents' runs (testdata/labels-agents)
# when they are there.
#   bash bench/detection.sh
# SHARED=dir and OWN_LABELS=file OWN_DIR=dir change where the sets are looked for.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED:-../shared/data/trajectories}
own_labels=${OWN_LABELS:-testdata/labels/labels.jsonl}
own_dir=${OWN_DIR:-testdata/labels}
mkdir -p .bench
go build -o .bench/detection ./bench/detection
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(go version | cut -d' ' -f3)"
echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (with uncommitted changes)')"
ran=0
if [ -f "$shared/labels.jsonl" ]; then
  echo
  echo "### Shared set ($shared)"
  echo
  .bench/detection --labels "$shared/labels.jsonl" "$shared"
  ran=1
  if [ -f testdata/shared-extra/labels.jsonl ]; then
    echo
    echo "### Shared set with our supplementary labels (testdata/shared-extra)"
    echo
    .bench/detection --labels "$shared/labels.jsonl,testdata/shared-extra/labels.jsonl" "$shared"
  fi
else
  echo "detection.sh: $shared/labels.jsonl not found: skipping the shared set" >&2
fi
if [ -f "$own_labels" ]; then
  echo
  echo "### Our labelled corpus ($own_dir)"
  echo
  .bench/detection --labels "$own_labels" "$own_dir"
  ran=1
else
  echo "detection.sh: $own_labels not found: skipping our corpus" >&2
fi
if [ -f testdata/labels-agents/labels.jsonl ]; then
  echo
  echo "### Other agents' runs (testdata/labels-agents)"
  echo
  .bench/detection --labels testdata/labels-agents/labels.jsonl testdata/labels-agents
fi
if [ "$ran" = 0 ]; then
  echo "detection.sh: no labelled set found" >&2
  exit 1
fi
