package transcript

import (
	"bufio"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// Anthropic's managed agent sessions stream events (`sevt_...` ids) with a type named
// <who>.<what>: session.status_running, span.model_request_start and span.model_request_end
// around each model call, agent.message and agent.thinking (the model's words),
// agent.tool_use ({"id", "name", "input"}; agent.mcp_tool_use and agent.custom_tool_use too),
// agent.tool_result ({"tool_use_id", "content": [parts], "is_error"}), user.message and
// user.interrupt (the user speaking), session.thread_status_idle, ... A log keeps them one a
// line, either as they are or wrapped as {"role", "kind", "time", "raw": <event>} (a harness's
// transcript.jsonl).
//
//   - the calls between two model requests are one reply (made together);
//   - a user's message or interrupt is a user turn; the outcome a run was asked for
//     (user.define_outcome's description) is its task;
//   - a thread names its agent in agent_name; one agent is read, `main`;
//   - each model request's end (span.model_request_end) carries what it used (model_usage, in
//     Anthropic's fields: input_tokens apart from the cache's reads and writes), summed once
//     per event id. The session.usage events are no total of them (one run's said 11,883
//     output tokens where its requests' added up to 103,592; validation round r120b U1,
//     r100a U3), and are passed over.

type sessionEvent struct {
	Type        string          `json:"type"`
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Input       json.RawMessage `json:"input"`
	ToolUseID   string          `json:"tool_use_id"`
	Content     any             `json:"content"`
	IsError     bool            `json:"is_error"`
	Description string          `json:"description"`
	ProcessedAt string          `json:"processed_at"`
	ModelUsage  *struct {
		Input      int64 `json:"input_tokens"`
		Output     int64 `json:"output_tokens"`
		CacheRead  int64 `json:"cache_read_input_tokens"`
		CacheWrite int64 `json:"cache_creation_input_tokens"`
	} `json:"model_usage"`
}

// sessionEventLine is a log line: an event, or a harness's wrapper around one.
type sessionEventLine struct {
	sessionEvent
	Kind string        `json:"kind"`
	Raw  *sessionEvent `json:"raw"`
}

// isSessionEventHead says whether a JSONL line's top-level keys are those of a managed agent
// session's event, bare or wrapped.
func isSessionEventHead(typ string, has func(string) bool, head []byte) bool {
	if has("raw") && has("kind") && has("role") {
		return strings.Contains(string(head[:min(len(head), 4096)]), `"sevt_`)
	}
	return has("id") && has("processed_at") && strings.Contains(typ, ".") &&
		(strings.HasPrefix(typ, "session.") || strings.HasPrefix(typ, "agent.") || strings.HasPrefix(typ, "span.") || strings.HasPrefix(typ, "user."))
}

func readSessionEvents(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatSessionEvents)
	a := b.agent(MainAgent)
	calls := map[string]int{}
	counted := map[string]bool{} // the model requests whose usage is in a.usage, by event id
	replies := 0
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var l sessionEventLine
		if err := json.Unmarshal(line, &l); err != nil && !tolerable(err) {
			return err
		}
		e := &l.sessionEvent
		if l.Raw != nil {
			e = l.Raw
		}
		ms := parseTime(e.ProcessedAt)
		switch e.Type {
		case "span.model_request_start":
			replies++
		case "span.model_request_end":
			if u := e.ModelUsage; u != nil && !counted[e.ID] {
				counted[e.ID] = e.ID != ""
				a.usage.add(Usage{InputTokens: u.Input, OutputTokens: u.Output, CacheReadTokens: u.CacheRead, CacheWriteTokens: u.CacheWrite})
			}
		case "agent.message", "agent.thinking":
			a.text("model", contentText(e.Content), e.ID, ms)
		case "agent.tool_use", "agent.mcp_tool_use", "agent.custom_tool_use":
			call := loopguard.Call("", e.Name, rawArgs(e.Input))
			call.Time, call.Turn = ms, "request "+strconv.Itoa(replies)
			calls[e.ID] = a.add(call)
		case "agent.tool_result", "agent.mcp_tool_result", "agent.custom_tool_result":
			if idx, ok := calls[e.ToolUseID]; ok {
				ev := &a.events[idx]
				ev.Result, ev.HasResult, ev.Failed = contentText(e.Content), true, e.IsError
			}
		case "user.message":
			a.user(contentText(e.Content), ms)
		case "user.define_outcome":
			a.user(e.Description, ms)
		case "user.interrupt":
			a.user("", ms)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return withDamaged(b.done(), damaged), nil
}
