package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
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
// absolute path of the hooks.json (or config.toml) that declares the hook;
// event_label is the snake_case event name (pre_tool_use, post_tool_use,
// user_prompt_submit, ...); the indexes are 0-based positions of the matcher
// group within the event and of the handler within the group.
//
// The hash is Codex's "normalized hook identity": the JSON object
//
//	{"event_name": <event_label>,
//	 "hooks": [{"async": <bool>, "command": <command>, "statusMessage": <s>,
//	            "timeout": <seconds>, "type": "command"}],
//	 "matcher": <matcher>}
//
// with exactly the one handler, "timeout" defaulted to 600 and raised to at
// least 1, "matcher" and "statusMessage" present only when set (an explicit
// empty matcher "" counts as set), and no matcher at all for the events that
// take none (UserPromptSubmit, Stop), serialized compactly with object keys
// sorted and strings escaped as serde_json does (only '"', '\\' and control
// characters; everything else raw UTF-8), then SHA-256, hex, "sha256:" prefix.
// Checked against the hashes `codex app-server` reports (hooks/list
// currentHash) for Codex 0.171.0; see codextrust_test.go.

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
// (it drops it for UserPromptSubmit and Stop, and Interrupt).
func codexEventTakesMatcher(event string) bool {
	switch event {
	case "UserPromptSubmit", "Stop", "Interrupt":
		return false
	}
	return true
}

// CodexHookKey returns the [hooks.state] key of a handler: sourcePath is the
// absolute path of the hooks.json (or config.toml) declaring it.
func CodexHookKey(sourcePath, event string, group, handler int) string {
	return sourcePath + ":" + CodexHookEventLabel(event) + ":" + strconv.Itoa(group) + ":" + strconv.Itoa(handler)
}

// CodexTrustedHash returns the trusted_hash Codex expects for a command
// handler declared under event (hooks.json name, e.g. "PreToolUse") in a
// matcher group with the given matcher (nil: no matcher key).
// h.Timeout is in seconds; 0 means unset (Codex's default, 600).
func CodexTrustedHash(event string, matcher *string, h HookHandler) string {
	timeout := 600
	if h.Timeout != 0 {
		timeout = max(h.Timeout, 1)
	}
	var b strings.Builder
	b.WriteString(`{"event_name":`)
	writeSerdeString(&b, CodexHookEventLabel(event))
	b.WriteString(`,"hooks":[{"async":false,"command":`)
	writeSerdeString(&b, h.Command)
	if h.StatusMessage != "" {
		b.WriteString(`,"statusMessage":`)
		writeSerdeString(&b, h.StatusMessage)
	}
	b.WriteString(`,"timeout":`)
	b.WriteString(strconv.Itoa(timeout))
	b.WriteString(`,"type":"command"}]`)
	if matcher != nil && codexEventTakesMatcher(event) {
		b.WriteString(`,"matcher":`)
		writeSerdeString(&b, *matcher)
	}
	b.WriteString("}")
	sum := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// CodexTrustState returns config.toml text that marks every handler of cfg,
// declared in the hooks.json at hooksPath, as trusted. A HookGroup's empty
// Matcher is treated as absent, as HooksFileJSON writes it.
func CodexTrustState(hooksPath string, cfg HooksConfig) string {
	events := make([]string, 0, len(cfg))
	for ev := range cfg {
		events = append(events, ev)
	}
	sort.Strings(events)
	var b strings.Builder
	for _, ev := range events {
		for gi, g := range cfg[ev] {
			var matcher *string
			if g.Matcher != "" {
				m := g.Matcher
				matcher = &m
			}
			for hi, h := range g.Hooks {
				fmt.Fprintf(&b, "\n[hooks.state.%s]\ntrusted_hash = %s\n",
					tomlString(CodexHookKey(hooksPath, ev, gi, hi)), tomlString(CodexTrustedHash(ev, matcher, h)))
			}
		}
	}
	return b.String()
}

// writeSerdeString writes s as a JSON string the way serde_json does.
func writeSerdeString(b *strings.Builder, s string) {
	const hexDigits = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case utf8.RuneError:
			// Invalid UTF-8 cannot occur in a Rust String; keep the replacement rune.
			b.WriteRune(r)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[r>>4])
				b.WriteByte(hexDigits[r&0xf])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
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
