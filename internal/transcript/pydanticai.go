package transcript

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"
)

// Pydantic AI keeps a run's messages (result.all_messages(), persisted with
// ModelMessagesTypeAdapter.dump_json, the documented way to store a history) as a JSON list of
// requests and responses, each a list of parts told apart by their part_kind:
//
//	[{"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "..."}]},
//	 {"kind": "response", "parts": [{"part_kind": "tool-call", "tool_name": "run_sparql",
//	   "args": "{\"query\": ...}", "tool_call_id": "call_0"}], "model_name": "..."},
//	 {"kind": "request", "parts": [{"part_kind": "tool-return", "tool_name": "run_sparql",
//	   "content": "...", "tool_call_id": "call_0"}]}]
//
//   - a response's text and thinking parts are the model's words; its tool-call (and
//     builtin-tool-call) parts are calls, their args a JSON text or an object;
//   - a request's user-prompt is the user's turn, its system-prompt the harness's;
//   - a tool-return (builtin-tool-return) answers the call of its tool_call_id;
//   - a retry-prompt answers its call as a failure: Pydantic AI tells the model so when the
//     call's arguments did not validate or the tool asked for a retry (its content is the
//     errors); one with no tool_name asks for another reply (the output was invalid) and is
//     the harness's.
//
// They are read as the message list they are (FormatMessages' reading), one session.

type pydMessage struct {
	Kind      string    `json:"kind"`
	Parts     []pydPart `json:"parts"`
	ModelName string    `json:"model_name"`
	Timestamp string    `json:"timestamp"`
}

type pydPart struct {
	PartKind   string          `json:"part_kind"`
	Content    any             `json:"content"`
	ToolName   string          `json:"tool_name"`
	Args       json.RawMessage `json:"args"`
	ToolCallID string          `json:"tool_call_id"`
	Timestamp  string          `json:"timestamp"`
}

// isPydanticAIHead says whether the first element of a JSON list is a Pydantic AI message.
func isPydanticAIHead(keys map[string]string) bool {
	_, parts := keys["parts"]
	kind := keys["kind"]
	return parts && (kind == `"request"` || kind == `"response"` || kind == "request" || kind == "response")
}

func readPydanticAI(name string, data []byte) (*built, error) {
	var history []pydMessage
	if err := json.Unmarshal(data, &history); err != nil {
		return nil, &Error{Path: name, Line: max(jsonErrorLine(data, err), 1), Err: fmt.Errorf("message history of Pydantic AI: %w", err)}
	}
	var list []msg
	for _, m := range history {
		switch m.Kind {
		case "response":
			reply := msg{Role: "assistant", Timestamp: m.Timestamp}
			var text []string
			for _, p := range m.Parts {
				switch p.PartKind {
				case "text":
					text = append(text, contentText(p.Content))
				case "thinking":
					reply.ReasoningContent += contentText(p.Content)
				case "tool-call", "builtin-tool-call":
					reply.ToolCalls = append(reply.ToolCalls, oaToolCall{ID: p.ToolCallID, Function: oaFunction{Name: p.ToolName, Arguments: p.Args}})
				}
			}
			reply.Content = strings.Join(text, "\n")
			list = append(list, reply)
		case "request":
			for _, p := range m.Parts {
				at := cmp.Or(p.Timestamp, m.Timestamp)
				switch p.PartKind {
				case "system-prompt":
					list = append(list, msg{Role: "system", Content: p.Content, Timestamp: at})
				case "user-prompt":
					list = append(list, msg{Role: "user", Content: p.Content, Timestamp: at})
				case "tool-return", "builtin-tool-return":
					list = append(list, msg{Role: "tool", ToolCallID: p.ToolCallID, Content: pydText(p.Content), Timestamp: at})
				case "retry-prompt":
					if p.ToolName == "" {
						list = append(list, msg{Role: "user", Content: pydText(p.Content), Timestamp: at, FromHarness: true})
						continue
					}
					list = append(list, msg{Role: "tool", ToolCallID: p.ToolCallID, Content: pydText(p.Content), Status: "error", Timestamp: at})
				}
			}
		}
	}
	return buildMessages(FormatPydanticAI, list), nil
}

// pydText is a part's content as text: a string as it is, anything else (a tool's structured
// return, a retry's list of validation errors) as its JSON.
func pydText(content any) string {
	if s, ok := content.(string); ok {
		return s
	}
	if content == nil {
		return ""
	}
	if b := marshalArgs(content); b != nil {
		return string(b)
	}
	return fmt.Sprint(content)
}
