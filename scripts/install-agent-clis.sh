#!/usr/bin/env bash
# Installs the real agent CLIs that the end-to-end tests in internal/e2e drive
# (Claude Code, Codex CLI, Gemini CLI, opencode, Qwen Code, pi, Copilot CLI, Continue's cn,
# Cline CLI) into a project-local npm prefix,
# <repo>/.agent-clis/, so nothing is installed globally.
#
# The versions are pinned (newest patch of the required minor line when this
# was written). Re-running is cheap: when the pinned versions are already
# installed and runnable the script does nothing. It prints nothing on
# success; on failure it prints npm's log and exits non-zero.
#
# Native binaries: Claude Code and Codex ship their native executables inside
# per-platform registry packages that are optionalDependencies
# (@anthropic-ai/claude-code-linux-x64, @openai/codex@<v>-linux-x64); Gemini
# CLI's optional node-pty prebuilds come the same way. Nothing is downloaded
# from outside the npm registry. Claude Code's postinstall (install.cjs) only
# copies/hard-links the native binary from its platform package over the
# bin/claude.exe placeholder; if install scripts are disabled (npm
# ignore-scripts / allowScripts) this script runs that step itself.
#
# Usage: scripts/install-agent-clis.sh            (installs into <repo>/.agent-clis)
#        AGENT_CLIS_PREFIX=/some/dir scripts/...  (installs elsewhere)
set -euo pipefail

CLAUDE_CODE_VERSION=2.1.332
CODEX_VERSION=0.171.0
GEMINI_CLI_VERSION=0.61.0
# opencode (the proxy's Chat Completions end-to-end test): a native binary in the optional
# opencode-linux-x64 package; its postinstall copies it over bin/opencode.exe.
OPENCODE_VERSION=1.18.33
# Qwen Code (the qwen-code transcript reader's end-to-end test): a Node bundle. It asks for
# Node >= 22 in its engines field but runs on 20, which the tests use.
QWEN_CODE_VERSION=0.24.4
# pi, the agent OpenClaw runs (the pi reader's end-to-end test): a Node bundle.
PI_VERSION=0.73.1
# GitHub Copilot CLI (the copilot reader's end-to-end test), run in its BYOK mode: no GitHub
# sign-in. Its npm package carries the platform build it unpacks under ~/.cache/copilot.
COPILOT_VERSION=1.0.102
# Continue's CLI, cn (the continue reader's end-to-end test).
CONTINUE_CLI_VERSION=1.5.47
# Cline CLI 3 (its session files' end-to-end test): a Bun-compiled binary in the npm package.
CLINE_CLI_VERSION=3.0.65

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="${AGENT_CLIS_PREFIX:-$repo_root/.agent-clis}"
bin="$prefix/node_modules/.bin"

die() {
	echo "install-agent-clis: $*" >&2
	exit 1
}

command -v npm >/dev/null 2>&1 || die "npm not found (install Node.js >= 20 and npm)"
command -v node >/dev/null 2>&1 || die "node not found (install Node.js >= 20)"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 20 ] || die "Node.js >= 20 required (Gemini CLI), found $(node --version)"

# installed_version PKG prints the version in the prefix's node_modules, or nothing.
installed_version() {
	local pj="$prefix/node_modules/$1/package.json"
	[ -f "$pj" ] || return 0
	node -e 'try{process.stdout.write(require(process.argv[1]).version||"")}catch(e){}' "$pj"
}

# A throwaway HOME for the --version checks (the CLIs write state there).
check_home="$(mktemp -d "${TMPDIR:-/tmp}/install-agent-clis-home.XXXXXX")"
log=""
trap 'rm -rf "$check_home" ${log:+"$log"}' EXIT

# runs_ok CMD EXPECT: CMD --version works and mentions EXPECT.
runs_ok() {
	local out
	[ -x "$bin/$1" ] || return 1
	# (pi prints its version on stderr)
	out="$(HOME="$check_home" TMPDIR="$check_home" "$bin/$1" --version 2>&1 </dev/null)" || return 1
	case "$out" in *"$2"*) return 0 ;; *) return 1 ;; esac
}

# all_ok: the pinned versions are installed and the native CLIs run. (Gemini
# CLI is only checked for its bundle: starting node on it takes seconds.)
all_ok() {
	[ "$(installed_version @anthropic-ai/claude-code)" = "$CLAUDE_CODE_VERSION" ] &&
		[ "$(installed_version @openai/codex)" = "$CODEX_VERSION" ] &&
		[ "$(installed_version @google/gemini-cli)" = "$GEMINI_CLI_VERSION" ] &&
		[ -x "$bin/gemini" ] && [ -f "$prefix/node_modules/@google/gemini-cli/bundle/gemini.js" ] &&
		runs_ok claude "$CLAUDE_CODE_VERSION" &&
		runs_ok codex "$CODEX_VERSION" &&
		[ "$(installed_version opencode-ai)" = "$OPENCODE_VERSION" ] &&
		runs_ok opencode "$OPENCODE_VERSION" &&
		[ "$(installed_version @qwen-code/qwen-code)" = "$QWEN_CODE_VERSION" ] && [ -x "$bin/qwen" ] &&
		[ "$(installed_version @mariozechner/pi-coding-agent)" = "$PI_VERSION" ] && [ -x "$bin/pi" ] &&
		[ "$(installed_version @github/copilot)" = "$COPILOT_VERSION" ] && [ -x "$bin/copilot" ] &&
		[ "$(installed_version @continuedev/cli)" = "$CONTINUE_CLI_VERSION" ] && [ -x "$bin/cn" ] &&
		[ "$(installed_version cline)" = "$CLINE_CLI_VERSION" ] && [ -x "$bin/cline" ]
}

if all_ok; then
	exit 0
fi

mkdir -p "$prefix"
log="$(mktemp "${TMPDIR:-/tmp}/install-agent-clis.XXXXXX.log")"

# npm_install installs the pinned CLIs. include=optional: the native binaries live in optional
# dependencies, so make sure a user/CI config with omit=optional cannot drop them.
npm_install() {
	npm install \
		--prefix "$prefix" \
		--save-exact \
		--include=optional \
		--no-audit --no-fund --no-update-notifier \
		--loglevel=error \
		"@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" \
		"@openai/codex@$CODEX_VERSION" \
		"@google/gemini-cli@$GEMINI_CLI_VERSION" \
		"opencode-ai@$OPENCODE_VERSION" \
		"@qwen-code/qwen-code@$QWEN_CODE_VERSION" \
		"@mariozechner/pi-coding-agent@$PI_VERSION" \
		"@github/copilot@$COPILOT_VERSION" \
		"@continuedev/cli@$CONTINUE_CLI_VERSION" \
		"cline@$CLINE_CLI_VERSION" \
		</dev/null >"$log" 2>&1
}
# The registry now and then answers, for a minute, a version its package metadata lists with
# ETARGET ("No matching version found": a CI run failed so, and the same install passed
# minutes later): a failure of the registry is tried again after a pause, three tries in all.
for attempt in 1 2 3; do
	if npm_install; then
		break
	fi
	if [ "$attempt" = 3 ] || ! grep -qE "ETARGET|ECONNRESET|ETIMEDOUT|EAI_AGAIN|E5[0-9][0-9]" "$log"; then
		cat "$log" >&2
		die "npm install failed"
	fi
	sleep $((attempt * 20))
done

# Claude Code: if its postinstall did not run (scripts disabled), put the
# native binary in place ourselves; install.cjs only copies it from the
# optional platform package that npm already installed.
if ! runs_ok claude "$CLAUDE_CODE_VERSION"; then
	if ! (cd "$prefix/node_modules/@anthropic-ai/claude-code" && node install.cjs) >>"$log" 2>&1; then
		cat "$log" >&2
		die "Claude Code native binary setup (install.cjs) failed"
	fi
fi

# opencode likewise (postinstall.mjs copies the native binary from opencode-linux-x64).
if ! runs_ok opencode "$OPENCODE_VERSION"; then
	if ! (cd "$prefix/node_modules/opencode-ai" && node postinstall.mjs) >>"$log" 2>&1; then
		cat "$log" >&2
		die "opencode native binary setup (postinstall.mjs) failed"
	fi
fi

for c in "claude:$CLAUDE_CODE_VERSION" "codex:$CODEX_VERSION" "gemini:$GEMINI_CLI_VERSION" "opencode:$OPENCODE_VERSION" "qwen:$QWEN_CODE_VERSION" "pi:$PI_VERSION" "copilot:$COPILOT_VERSION" "cn:$CONTINUE_CLI_VERSION" "cline:$CLINE_CLI_VERSION"; do
	if ! runs_ok "${c%%:*}" "${c#*:}"; then
		cat "$log" >&2
		die "${c%%:*} ${c#*:} is installed but '$bin/${c%%:*} --version' does not work"
	fi
done
