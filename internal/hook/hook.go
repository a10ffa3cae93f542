// Package hook turns one hook event of a coding-agent CLI (Claude Code, Codex, Gemini CLI)
// into engine events, and the engine's answer back into that CLI's JSON.
//
// A hook runs as one process per event, so the agent's engine state is loaded from a store,
// updated and saved within one atomic store update. Everything here fails open: any error is
// returned to the caller, which prints one line and lets the agent carry on.
package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/canon"
)

// Host is an agent CLI whose hook protocol we speak.
type Host string

const (
	ClaudeCode Host = "claude-code"
	Codex      Host = "codex"
	GeminiCLI  Host = "gemini-cli"
)

// Hosts lists the supported hosts.
func Hosts() []Host { return []Host{ClaudeCode, Codex, GeminiCLI} }

// ParseHost checks a host name.
func ParseHost(s string) (Host, error) {
	for _, h := range Hosts() {
		if string(h) == s {
			return h, nil
		}
	}
	return "", fmt.Errorf("unknown host %q (want claude-code, codex or gemini-cli)", s)
}

// action is what one hook event asks of loopguard.
type action int

const (
	actNone      action = iota // an event we do not need (Stop, PreCompact...)
	actCheck                   // before a tool runs: refuse it? (deny mode only)
	actObserve                 // after a tool ran: count it, give notices
	actUserSpoke               // the user spoke
	actForget                  // the session or subagent is over
	actBatch                   // a batch of calls is over: count those no per-tool event reported
)

// input holds the fields of a hook event that loopguard reads. The three hosts share these
// names (see docs/hosts/).
type input struct {
	SessionID    string          `json:"session_id"`
	AgentID      string          `json:"agent_id"`
	Event        string          `json:"hook_event_name"`
	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
	ToolUseID    string          `json:"tool_use_id"`
	Error        json.RawMessage `json:"error"`
	Timestamp    string          `json:"timestamp"`
	// TranscriptPath is where the host keeps the session's transcript: its tail holds the
	// model's words beside the call (see modelText).
	TranscriptPath string `json:"transcript_path"`
	// ToolCalls are the calls of a finished batch (Claude Code's PostToolBatch).
	ToolCalls []batchCall `json:"tool_calls"`
	// Prompt is what the user sent (UserPromptSubmit, Gemini CLI's BeforeAgent).
	Prompt string `json:"prompt"`
}

// batchCall is one call of a PostToolBatch event.
type batchCall struct {
	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
	ToolUseID    string          `json:"tool_use_id"`
}

// request is a parsed hook event.
type request struct {
	host   Host
	in     input
	act    action
	agent  string // the engine's agent id: host, session and subagent
	callID string // identifies one call across its pre and post events
}

// maxInput bounds what a hook reads from its host; a larger event is refused (fail open).
const maxInput = 64 << 20

// parse reads a hook event. Every error names what was wrong with the input.
func parse(host Host, data []byte) (*request, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty hook input (expected one JSON object on stdin)")
	}
	r := &request{host: host}
	if err := json.Unmarshal(data, &r.in); err != nil {
		return nil, fmt.Errorf("hook input is not a %s hook event: %v", host, describeJSONError(data, err))
	}
	if r.in.Event == "" {
		return nil, errors.New(`hook input has no "hook_event_name"`)
	}
	act, ok := actions[host][r.in.Event]
	if !ok {
		return nil, fmt.Errorf("unknown %s hook event %q", host, r.in.Event)
	}
	r.act = act
	if act == actNone {
		return r, nil
	}
	if r.in.SessionID == "" {
		return nil, fmt.Errorf(`%s event has no "session_id"`, r.in.Event)
	}
	// A subagent is its own agent: its loop must never trip its parent's guard.
	r.agent = string(host) + ":" + r.in.SessionID
	if r.in.AgentID != "" {
		r.agent += "/" + r.in.AgentID
	}
	if act == actCheck || act == actObserve {
		if r.in.ToolName == "" {
			return nil, fmt.Errorf(`%s event has no "tool_name"`, r.in.Event)
		}
		r.callID = r.in.ToolUseID
		if r.callID == "" { // Gemini CLI gives no call id: the call's identity stands in for it
			r.callID = fmt.Sprintf("%s/%016x", r.in.ToolName, canon.Fingerprint(r.in.ToolInput))
		}
	}
	return r, nil
}

// describeJSONError says where JSON went wrong, as line:column.
func describeJSONError(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		before := data[:min(int(se.Offset), len(data))]
		line := 1 + bytes.Count(before, []byte("\n"))
		col := len(before) - bytes.LastIndexByte(before, '\n') // 1-based: the next character's column
		return fmt.Sprintf("line %d, column %d: %v", line, col, err)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %q: expected %v, got JSON %s", te.Field, te.Type, te.Value)
	}
	return err.Error()
}

// actions maps each host's event names to what loopguard does with them. Events not listed
// are unknown; listed events with actNone are known and need nothing.
var actions = map[Host]map[string]action{
	ClaudeCode: {
		"PreToolUse": actCheck, "PostToolUse": actObserve, "PostToolUseFailure": actObserve,
		"UserPromptSubmit": actUserSpoke, "SessionEnd": actForget, "SubagentStop": actForget,
		"SessionStart": actNone, "Stop": actNone, "SubagentStart": actNone, "PreCompact": actNone,
		"PostCompact": actNone, "Notification": actNone, "PostToolBatch": actBatch, "PermissionRequest": actNone,
	},
	Codex: {
		"PreToolUse": actCheck, "PostToolUse": actObserve, "UserPromptSubmit": actUserSpoke,
		"SessionEnd": actForget, "SubagentStop": actForget,
		"SessionStart": actNone, "Stop": actNone, "SubagentStart": actNone, "PreCompact": actNone,
		"PostCompact": actNone, "PermissionRequest": actNone, "Interrupt": actNone,
	},
	GeminiCLI: {
		"BeforeTool": actCheck, "AfterTool": actObserve, "BeforeAgent": actUserSpoke, "SessionEnd": actForget,
		"SessionStart": actNone, "AfterAgent": actNone, "BeforeModel": actNone, "AfterModel": actNone,
		"BeforeToolSelection": actNone, "PreCompress": actNone, "Notification": actNone,
	},
}

// event builds the engine's call event.
func (r *request) event(now time.Time) loopguard.Event {
	ev := loopguard.Call(r.agent, r.in.ToolName, r.in.ToolInput)
	ev.Time = now.UnixMilli()
	if t, err := time.Parse(time.RFC3339Nano, r.in.Timestamp); err == nil {
		ev.Time = t.UnixMilli()
	}
	if r.act == actObserve && r.hasResult() {
		text, failed := r.result()
		ev = ev.WithResult(text, failed)
	}
	return ev
}

// hasResult says whether the event carries the call's outcome: its tool_response, or for a
// failure its error. Without one the result is unknown, which the progress detector takes as
// new, rather than empty, which every other call without one would repeat: a host or a
// collector that names the field otherwise must not make advancing output look stuck.
func (r *request) hasResult() bool {
	present := func(v json.RawMessage) bool { return len(v) > 0 && string(v) != "null" }
	if r.in.Event == "PostToolUseFailure" {
		return present(r.in.Error)
	}
	return present(r.in.ToolResponse)
}

// result extracts the text the model saw and whether the call failed, per host.
func (r *request) result() (text string, failed bool) {
	if r.in.Event == "PostToolUseFailure" { // Claude Code: the error text is what the model saw
		var s string
		_ = json.Unmarshal(r.in.Error, &s)
		return s, true
	}
	resp := r.in.ToolResponse
	var s string
	if json.Unmarshal(resp, &s) == nil { // Codex: the raw output
		return s, false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(resp, &obj) != nil {
		return string(resp), false
	}
	str := func(k string) string {
		var v string
		_ = json.Unmarshal(obj[k], &v)
		return v
	}
	switch r.host {
	case GeminiCLI: // {llmContent, returnDisplay, error}
		if e := obj["error"]; len(e) > 0 && string(e) != "null" {
			failed = true
		}
		if t := str("llmContent"); t != "" {
			return t, failed
		}
		return string(obj["llmContent"]), failed
	default: // Claude Code: Bash gives {stdout, stderr, interrupted}; other tools their own shape
		if _, ok := obj["stdout"]; ok {
			out, errOut := str("stdout"), str("stderr")
			if errOut != "" {
				out = strings.TrimRight(out, "\n") + "\n" + errOut
			}
			return out, false
		}
		return string(resp), false
	}
}
