package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Host names an agent CLI.
type Host string

const (
	HostClaudeCode Host = "claude-code"
	HostCodex      Host = "codex"
	HostGeminiCLI  Host = "gemini-cli"
)

// PreToolEvent and PostToolEvent return the host's names of the events
// around a tool call.
func (h Host) PreToolEvent() string {
	if h == HostGeminiCLI {
		return "BeforeTool"
	}
	return "PreToolUse"
}

func (h Host) PostToolEvent() string {
	if h == HostGeminiCLI {
		return "AfterTool"
	}
	return "PostToolUse"
}

// HooksConfig is the "hooks" object that all three hosts share in shape:
// event name -> matcher groups. Claude Code puts it in settings.json, Codex
// in hooks.json (or config.toml), Gemini CLI in .gemini/settings.json.
type HooksConfig map[string][]HookGroup

// HookGroup is one matcher group. An empty Matcher is left out of the JSON.
type HookGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []HookHandler `json:"hooks"`
}

// HookHandler is one command hook. Timeout is in seconds for Claude Code
// and Codex, in milliseconds for Gemini CLI; 0 leaves it out (host default).
type HookHandler struct {
	Type          string `json:"type"`
	Command       string `json:"command"`
	Timeout       int    `json:"timeout,omitempty"`
	StatusMessage string `json:"statusMessage,omitempty"`
}

// HooksFileJSON returns {"hooks": cfg} as indented JSON.
func HooksFileJSON(cfg HooksConfig) []byte {
	b, err := json.MarshalIndent(map[string]any{"hooks": cfg}, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// Marker texts the test hook script uses.
const (
	// MarkerPrefix + n is the additionalContext the post-tool hook returns on
	// its n-th run (1-based).
	MarkerPrefix = "E2E-MARKER-"
	// DenyReason is the reason the pre-tool hook gives when it denies.
	DenyReason = "E2E-DENY-REASON: loop detected by the e2e hook"
)

// HookScript is a small shell script that stands in for `loopguard hook`:
// it saves the JSON it gets on stdin for every event; after a tool it
// returns additionalContext MarkerPrefix+n; before a tool it denies with
// DenyReason while the deny file exists.
type HookScript struct {
	Host Host
	// Path is the script; run it as `Path EVENT` (see Command).
	Path string
	// CaptureDir receives EVENT.N.json for the N-th stdin of each event.
	CaptureDir string
	// DenyFile: while it exists, the pre-tool hook denies.
	DenyFile string
}

// WriteHookScript writes the hook script for host into dir.
func WriteHookScript(t testing.TB, dir string, host Host) *HookScript {
	t.Helper()
	h := &HookScript{
		Host:       host,
		Path:       filepath.Join(dir, "e2e-hook.sh"),
		CaptureDir: filepath.Join(dir, "hook-stdin"),
		DenyFile:   filepath.Join(dir, "deny"),
	}
	if err := os.MkdirAll(h.CaptureDir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The post-tool output, split around the sequence number.
	post := mustJSON(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": host.PostToolEvent(), "additionalContext": MarkerPrefix + "\x00"}})
	postHead, postTail, _ := strings.Cut(post, "\\u0000")
	var deny string
	switch host {
	case HostGeminiCLI:
		deny = mustJSON(map[string]any{"decision": "deny", "reason": DenyReason})
	default:
		deny = mustJSON(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": DenyReason}})
	}
	script := fmt.Sprintf(`#!/bin/sh
# e2e test hook for %[1]s; usage: e2e-hook.sh EVENT
ev="$1"
dir=%[2]s
# Claim the next sequence number for this event atomically (mkdir).
n=1
while ! mkdir "$dir/$ev.$n.lock" 2>/dev/null; do n=$((n+1)); done
cat > "$dir/$ev.$n.json"
case "$ev" in
%[3]s)
	printf '%%s%%s%%s\n' %[4]s "$n" %[8]s
	;;
%[5]s)
	if [ -e %[6]s ]; then
		printf '%%s\n' %[7]s
	fi
	;;
esac
exit 0
`, host, shellQuote(h.CaptureDir), host.PostToolEvent(), shellQuote(postHead),
		host.PreToolEvent(), shellQuote(h.DenyFile), shellQuote(deny), shellQuote(postTail))
	if err := os.WriteFile(h.Path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return h
}

// Command returns the shell command a host runs for event.
func (h *HookScript) Command(event string) string {
	return shellQuote(h.Path) + " " + event
}

// Config returns a HooksConfig that runs the script for every event given
// (matcher "*" for tool events is left to the caller: pass matchers).
func (h *HookScript) Config(timeout int, events map[string]string) HooksConfig {
	cfg := HooksConfig{}
	for ev, matcher := range events {
		cfg[ev] = []HookGroup{{Matcher: matcher, Hooks: []HookHandler{{Type: "command", Command: h.Command(ev), Timeout: timeout}}}}
	}
	return cfg
}

// SetDeny makes the pre-tool hook deny (true) or allow (false).
func (h *HookScript) SetDeny(t testing.TB, deny bool) {
	t.Helper()
	if deny {
		if err := os.WriteFile(h.DenyFile, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := os.Remove(h.DenyFile); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

// Captured returns the stdin documents the hook got for event, in order.
func (h *HookScript) Captured(t testing.TB, event string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, raw := range h.CapturedRaw(t, event) {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Errorf("hook stdin for %s is not a JSON object: %v\n%s", event, err, raw)
			continue
		}
		out = append(out, m)
	}
	return out
}

// CapturedRaw returns the raw stdin bytes the hook got for event, in order.
func (h *HookScript) CapturedRaw(t testing.TB, event string) [][]byte {
	t.Helper()
	var out [][]byte
	for n := 1; ; n++ {
		b, err := os.ReadFile(filepath.Join(h.CaptureDir, event+"."+strconv.Itoa(n)+".json"))
		if os.IsNotExist(err) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
}

// CapturedEvents lists the events the hook ran for.
func (h *HookScript) CapturedEvents(t testing.TB) []string {
	t.Helper()
	entries, err := os.ReadDir(h.CaptureDir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".1.json")
		if ok {
			seen[name] = true
		}
	}
	var evs []string
	for ev := range seen {
		evs = append(evs, ev)
	}
	sort.Strings(evs)
	return evs
}

// shellQuote quotes s for POSIX sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
