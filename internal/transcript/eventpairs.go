package transcript

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// An agent's own log, or the events its server streams, often keeps a call and its result as
// two records, one a line: {"type": "tool_call", "tool_name", "args", "tool_call_id"} and
// later {"type": "tool_result", "tool_name", "tool_call_id", "result"} (or "event" for
// "type", "tool" or "name" for the tool, "arguments" or "input" for its arguments, "output"
// or "content" for what came back). No one harness writes these; many home-made ones do, and
// only the names vary. A result answers the call of its id; without ids, the earliest call of
// the same tool not answered yet; without a tool's name, the earliest call not answered yet.
// A ReAct agent's log may keep its steps so too: {"event": "agent_step", "thought", "action",
// "action_input"}, then {"event": "observation", "tool", "observation"}. The stream's other
// events (text deltas, usage, its start and end) are passed over, except the user's message
// ("user_message") and the model's words when an event gives them whole with the assistant's
// role, or as a step's thought.

var (
	// eventCallKinds and eventResultKinds are the "type" (or "event") values of a call's
	// record and a result's.
	eventCallKinds   = []string{"tool_call", "tool_use", "tool_start", "tool_call_start", "function_call", "tool_invocation"}
	eventResultKinds = []string{"tool_result", "tool_output", "tool_end", "tool_call_end", "tool_response", "function_call_output", "function_result"}

	eventNameKeys   = []string{"tool_name", "tool", "name", "function"}
	eventArgsKeys   = []string{"args", "arguments", "tool_args", "tool_input", "input", "parameters", "params", "action_input"}
	eventIDKeys     = []string{"tool_call_id", "tool_use_id", "tool_id", "call_id", "id"}
	eventOutputKeys = []string{"result", "output", "content", "tool_output", "observation", "response"}
)

// eventKind is a record's kind: its "type", or else its "event", in lower case.
func eventKind(keys map[string]string) string {
	k := keys["type"]
	if k == "" {
		k = keys["event"]
	}
	return strings.ToLower(k)
}

// What a record of such a log is.
const (
	eventOther  = iota // passed over: a text delta, usage, the stream's start or end
	eventCall          // a call's record, or a ReAct step's
	eventResult        // a result's record, or an observation's
	eventUser          // the user's message
	eventWords         // the model's words, whole
)

// eventRole says what a record is, from its top-level keys (as scanTopObject reads them):
// isEventPairLog and decodeEventPairs judge a record alike.
func eventRole(keys map[string]string) int {
	kind := eventKind(keys)
	switch {
	case isReActStep(keys) || slices.Contains(eventCallKinds, kind):
		return eventCall
	case isEventResult(kind, keys):
		return eventResult
	case kind == "user_message" || kind == "user_input":
		return eventUser
	case kind == "message" || kind == "text" || kind == "assistant":
		return eventWords
	}
	return eventOther
}

// isEventPairLog says whether records (their top-level keys, as scanTopObject reads them)
// log calls and results apart: at least two calls that name their tool, and a result.
func isEventPairLog(records []map[string]string) bool {
	calls, results := 0, 0
	for _, keys := range records {
		if _, role := keys["role"]; role {
			continue // a chat message, which the chat readers read
		}
		switch eventRole(keys) {
		case eventCall:
			if isReActStep(keys) || keys[firstKey(keys, eventNameKeys)] != "" {
				calls++
			}
		case eventResult:
			results++
		}
	}
	return calls >= 2 && results >= 1
}

// isReActStep says whether a record is a ReAct agent's step logged apart from what it
// observed: the action, named as a string, and its action_input, as LangChain names them
// ({"event": "agent_step", "thought", "action": "search", "action_input": {...}}).
func isReActStep(keys map[string]string) bool {
	_, input := keys["action_input"]
	_, observed := keys["observation"]
	return input && keys["action"] != "" && !observed
}

// isEventResult says whether a record of the given kind is a result's: of a result kind, or
// an observation ({"event": "observation", "tool", "observation"}).
func isEventResult(kind string, keys map[string]string) bool {
	_, observation := keys["observation"]
	return slices.Contains(eventResultKinds, kind) || kind == "observation" && observation
}

// decodeEventPairs reads records, each one JSON object, as the messages of one run; keys are
// their top-level keys, as scanTopObject read them, which say what each record is (eventRole).
func decodeEventPairs(records [][]byte, keys []map[string]string) []msg {
	var list []msg
	type pending struct {
		id, name, ref string // the record's id, the tool's name, the call's id in list
		answered      bool
	}
	var calls []pending
	for k, raw := range records {
		role := eventRole(keys[k])
		if role == eventOther {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal(raw, &rec); err != nil && !tolerable(err) || rec == nil {
			continue
		}
		switch role {
		case eventCall:
			name := stringAt(rec, eventNameKeys)
			if isReActStep(keys[k]) {
				name = stringAt(rec, []string{"action"})
			}
			if name == "" {
				continue
			}
			if thought := stringAt(rec, []string{"thought", "reasoning"}); thought != "" {
				list = append(list, msg{Role: "assistant", Content: thought})
			}
			var args json.RawMessage
			if key := firstPresent(rec, eventArgsKeys); key != "" {
				args = stepArgs(rec[key])
			}
			ref := fmt.Sprintf("ev%d", k)
			calls = append(calls, pending{id: stringAt(rec, eventIDKeys), name: name, ref: ref})
			list = append(list, msg{Role: "assistant", ToolCalls: []oaToolCall{{ID: ref, Name: name, Arguments: args}}})
		case eventResult:
			id, name := stringAt(rec, eventIDKeys), stringAt(rec, eventNameKeys)
			at := -1
			for i := range calls {
				c := &calls[i]
				if c.answered {
					continue
				}
				if id != "" && c.id != "" {
					if c.id == id {
						at = i
						break
					}
					continue
				}
				if name == "" || c.name == name {
					at = i
					break
				}
			}
			if at < 0 {
				continue // a result of no call this log holds
			}
			calls[at].answered = true
			m := msg{Role: "tool", ToolCallID: calls[at].ref}
			if key := firstPresent(rec, eventOutputKeys); key != "" {
				m.Content = stepText(rec[key])
			}
			if eventFailed(rec) {
				m.Status = "error"
				if s, _ := m.Content.(string); s == "" {
					if e, ok := rec["error"]; ok && e != true {
						m.Content = stepText(e)
					}
				}
			}
			list = append(list, m)
		case eventUser:
			if text := stringAt(rec, []string{"text", "content", "message"}); text != "" {
				list = append(list, msg{Role: "user", Content: text})
			}
		case eventWords:
			if role, _ := rec["role"].(string); role != "assistant" && eventKind(keys[k]) != "assistant" {
				continue
			}
			if text := stringAt(rec, []string{"content", "text"}); text != "" {
				list = append(list, msg{Role: "assistant", Content: text})
			}
		}
	}
	return list
}

// eventFailed says whether a result's record says its call failed: "is_error": true, an
// "error" that is not empty, a "status" of failure, or "success": false.
func eventFailed(rec map[string]any) bool {
	if b, _ := rec["is_error"].(bool); b {
		return true
	}
	switch e := rec["error"].(type) {
	case bool:
		if e {
			return true
		}
	case string:
		if e != "" {
			return true
		}
	case map[string]any:
		return true
	}
	if s, _ := rec["status"].(string); slices.Contains([]string{"error", "failed", "failure"}, strings.ToLower(s)) {
		return true
	}
	ok, isBool := rec["success"].(bool)
	return isBool && !ok
}

// firstKey is the first of names that keys holds, or "".
func firstKey(keys map[string]string, names []string) string {
	for _, n := range names {
		if _, ok := keys[n]; ok {
			return n
		}
	}
	return ""
}

// firstPresent is the first of names that rec holds with a value that is not null, or "".
func firstPresent(rec map[string]any, names []string) string {
	for _, n := range names {
		if v, ok := rec[n]; ok && v != nil {
			return n
		}
	}
	return ""
}

// stringAt is the first string value, not empty, of names in rec.
func stringAt(rec map[string]any, names []string) string {
	for _, n := range names {
		if s, ok := rec[n].(string); ok && s != "" {
			return s
		}
	}
	return ""
}
