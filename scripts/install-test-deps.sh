#!/usr/bin/env bash
# Installs what the test suite needs beyond Go: redis-server (the shared store's tests start
# their own), Chromium (the HTML report is rendered in it), and the agent CLIs from npm (the
# end-to-end hook tests drive the real binaries). Idempotent; quiet when all is there.
#
# Without root or apt-get it installs nothing and says what is missing: the tests that need a
# missing tool then skip, saying so, except under CI=true, where they fail.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v chromium >/dev/null || need+=(chromium)
command -v python3 >/dev/null || need+=(python3) # the HTTP API's Python example
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "install-test-deps: installing ${need[*]} from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "install-test-deps: missing ${need[*]}; install them (apt-get install ${need[*]}) or the tests that need them skip" >&2
  fi
fi

if [ -f scripts/install-agent-clis.sh ]; then
  if command -v npm >/dev/null; then
    bash scripts/install-agent-clis.sh
  else
    echo "install-test-deps: npm not found; the end-to-end tests with the real agent CLIs skip" >&2
  fi
fi
