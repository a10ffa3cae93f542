#!/usr/bin/env bash
# The whole test suite: installs what it needs, then checks formatting, vets, runs staticcheck,
# and runs every test with the race detector.   bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-test-deps.sh

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.agent-clis/*'))
if [ -n "$unformatted" ]; then
  echo "gofmt: these files need formatting:" >&2
  echo "$unformatted" >&2
  exit 1
fi
# staticcheck, pinned: a newer release may find new things, which is a change to make on purpose.
staticcheck=honnef.co/go/tools/cmd/staticcheck@v0.8.2
# The root module, then each adapter module (they live in their own modules so that the core
# keeps a short dependency list).
for mod in . $(git ls-files '*/go.mod' 2>/dev/null | xargs -r -n1 dirname); do
  echo "== module $mod"
  (cd "$mod" && go vet ./... && go run "$staticcheck" ./... && go test -race -count=1 -timeout 45m ./...)
done
# The engine's portable code, which machines without the assembly run (bytemap_other.go): the
# same tests with the assembly left out.
echo "== module . (purego)"
go vet -tags purego . && go test -tags purego -count=1 .
