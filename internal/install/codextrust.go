package install

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard/internal/canon"
)

// Codex hook trust.
//
// `codex exec` skips a user hook (silently) unless config.toml records it as
// trusted:
//
//	[hooks.state."<source path>:<event_label>:<group index>:<handler index>"]
//	trusted_hash = "sha256:<hex>"
//
// (or the run passes --dangerously-bypass-hook-trust). The source path is the
// absolute path of the hooks.json (or config.toml) that declares the hook, with
// symbolic links in $CODEX_HOME resolved; event_label is the snake_case event
// name (pre_tool_use, post_tool_use, user_prompt_submit, ...); the indexes are
// 0-based positions of the matcher group within the event and of the handler
// within the group. Codex itself writes these entries (when a user trusts a
// hook in its TUI) in exactly this form.
//
// The hash is Codex's "normalized hook identity": the JSON object
//
//	{"event_name": <event_label>,
//	 "hooks": [{"async": <bool>, "command": <command>, "statusMessage": <s>,
//	            "timeout": <seconds>, "type": "command"}],
//	 "matcher": <matcher>}
//
// with exactly the one handler; "timeout" is the effective timeout (600 when
// unset, raised to at least 1; for SessionEnd and Interrupt 1 when unset and
// at most 3); "matcher" and "statusMessage" present only when set (an
// explicit empty matcher "" counts as set), and no matcher at all for the
// events that take none (UserPromptSubmit, Stop, Interrupt); serialized
// compactly with object keys sorted and strings escaped as serde_json does
// (only '"', '\\' and control characters; everything else raw UTF-8: the
// same rules as RFC 8785, so canon.AppendQuoted writes them), then
// SHA-256, hex, "sha256:" prefix. Checked against the hashes `codex
// app-server` reports (hooks/list currentHash) for Codex 0.171.0: see
// codextrust_test.go here and TestCodexTrustedHashMatchesCodex in
// internal/e2e.

// CodexHandler is a command hook handler of a Codex hooks.json, as far as its
// trust hash goes.
type CodexHandler struct {
	Command string
	// Timeout is in seconds; 0 means unset (Codex's default for the event).
	Timeout       int
	StatusMessage string
}

// CodexHookEventLabel returns the snake_case label Codex uses for a hooks.json
// event name in trust keys and hashes ("PreToolUse" -> "pre_tool_use").
func CodexHookEventLabel(event string) string {
	var b strings.Builder
	for i, r := range event {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// codexEventTakesMatcher reports whether Codex keeps the matcher of an event
// (it drops it for UserPromptSubmit, Stop and Interrupt).
func codexEventTakesMatcher(event string) bool {
	switch event {
	case "UserPromptSubmit", "Stop", "Interrupt":
		return false
	}
	return true
}

// CodexEffectiveTimeout returns the timeout in seconds Codex gives a handler
// of event whose hooks.json "timeout" is t (0: unset). Codex warns
// ("clamping SessionEnd hook timeout to 3s") when it lowers one.
func CodexEffectiveTimeout(event string, t int) int {
	switch event {
	case "SessionEnd", "Interrupt":
		if t == 0 {
			return 1
		}
		return min(max(t, 1), 3)
	}
	if t == 0 {
		return 600
	}
	return max(t, 1)
}

// CodexHookKey returns the [hooks.state] key of a handler: sourcePath is the
// absolute path of the hooks.json (or config.toml) declaring it.
func CodexHookKey(sourcePath, event string, group, handler int) string {
	return sourcePath + ":" + CodexHookEventLabel(event) + ":" + strconv.Itoa(group) + ":" + strconv.Itoa(handler)
}

// CodexTrustedHash returns the trusted_hash Codex expects for a command
// handler declared under event (hooks.json name, e.g. "PreToolUse") in a
// matcher group with the given matcher (nil: no matcher key).
func CodexTrustedHash(event string, matcher *string, h CodexHandler) string {
	b := []byte(`{"event_name":`)
	b = canon.AppendQuoted(b, CodexHookEventLabel(event))
	b = append(b, `,"hooks":[{"async":false,"command":`...)
	b = canon.AppendQuoted(b, h.Command)
	if h.StatusMessage != "" {
		b = append(b, `,"statusMessage":`...)
		b = canon.AppendQuoted(b, h.StatusMessage)
	}
	b = append(b, `,"timeout":`...)
	b = strconv.AppendInt(b, int64(CodexEffectiveTimeout(event, h.Timeout)), 10)
	b = append(b, `,"type":"command"}]`...)
	if matcher != nil && codexEventTakesMatcher(event) {
		b = append(b, `,"matcher":`...)
		b = canon.AppendQuoted(b, *matcher)
	}
	b = append(b, '}')
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// CodexTrustTable returns the config.toml table that records the handler at
// key as trusted with hash, the way Codex writes it:
//
//	[hooks.state."<key>"]
//	trusted_hash = "<hash>"
func CodexTrustTable(key, hash string) string {
	return "[hooks.state." + tomlString(key) + "]\ntrusted_hash = " + tomlString(hash) + "\n"
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
