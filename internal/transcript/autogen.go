package transcript

import "encoding/json"

// AutoGen AgentChat (0.4 and later) keeps a run's messages and events (TaskResult.messages,
// what a team's run_stream yields, saved with model_dump) as objects told apart by their
// "type", each with the "source" that sent it, and no role:
//
//   - TextMessage (and MultiModalMessage, StopMessage, HandoffMessage): a user's turn when its
//     source is "user", else the model's words;
//   - ThoughtEvent: the model's thinking;
//   - ToolCallRequestEvent: content is the reply's calls, [{id, name, arguments}];
//   - ToolCallExecutionEvent: content is their results, [{call_id, name, content, is_error}];
//   - ToolCallSummaryMessage repeats the results as text, and is passed over, as are the
//     other events (memory queries, streaming chunks, code execution reports).
//
// autogenMessages turns such a list into the chat messages it stands for, for addChat; any
// other list is returned as it is. The agents of a team share the one conversation.

// autogenTypes are the message types AutoGen AgentChat writes, and what each becomes.
var autogenTypes = map[string]string{
	"TextMessage": "text", "MultiModalMessage": "text", "StopMessage": "text", "HandoffMessage": "text",
	"ThoughtEvent": "thought", "ToolCallRequestEvent": "calls", "ToolCallExecutionEvent": "results",
	"ToolCallSummaryMessage": "", "MemoryQueryEvent": "", "ModelClientStreamingChunkEvent": "",
	"UserInputRequestedEvent": "", "CodeGenerationEvent": "", "CodeExecutionEvent": "", "SelectSpeakerEvent": "",
	"SelectorEvent": "", "StructuredMessage": "text",
}

func autogenMessages(list []msg) []msg {
	calls := false
	for i := range list {
		if list[i].Role == "" && list[i].Type == "ToolCallRequestEvent" && list[i].Source != "" {
			calls = true
			break
		}
	}
	if !calls {
		return list
	}
	out := make([]msg, 0, len(list))
	for _, m := range list {
		kind, known := autogenTypes[m.Type]
		if m.Role != "" || !known {
			out = append(out, m)
			continue
		}
		switch kind {
		case "text":
			role := "assistant"
			if m.Source == "user" {
				role = "user"
			}
			out = append(out, msg{Role: role, Content: m.Content, Timestamp: m.Timestamp})
		case "thought":
			out = append(out, msg{Role: "assistant", ReasoningContent: contentText(m.Content), Timestamp: m.Timestamp})
		case "calls":
			reply := msg{Role: "assistant", Timestamp: m.Timestamp}
			items, _ := m.Content.([]any)
			for _, it := range items {
				c, _ := it.(map[string]any)
				name, _ := c["name"].(string)
				id, _ := c["id"].(string)
				reply.ToolCalls = append(reply.ToolCalls, oaToolCall{ID: id, Function: oaFunction{Name: name, Arguments: autogenArgs(c["arguments"])}})
			}
			out = append(out, reply)
		case "results":
			items, _ := m.Content.([]any)
			for _, it := range items {
				r, _ := it.(map[string]any)
				id, _ := r["call_id"].(string)
				failed, _ := r["is_error"].(bool)
				out = append(out, msg{Role: "tool", ToolCallID: id, Content: contentText(r["content"]), Failed: failed, Timestamp: m.Timestamp})
			}
		}
	}
	return out
}

// autogenArgs is a call's arguments as JSON: AutoGen keeps them as the model's JSON text.
func autogenArgs(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	return marshalArgs(v) // a string stays one, which rawArgs reads as the JSON it holds
}
