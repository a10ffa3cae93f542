package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Written for this test in the layout of AutoGen AgentChat's TaskResult.model_dump(): typed
// messages with their source and no role; one request event holding two calls of one reply,
// their results in one execution event (one an error), the summary that repeats them.
const autogenTaskResult = `{"messages": [
 {"source": "user", "models_usage": null, "metadata": {}, "content": "What is the weather in Zurich and Bern?", "type": "TextMessage"},
 {"source": "assistant", "models_usage": null, "metadata": {}, "content": "Look both up.", "type": "ThoughtEvent"},
 {"source": "assistant", "models_usage": {"prompt_tokens": 90, "completion_tokens": 17}, "metadata": {}, "type": "ToolCallRequestEvent",
  "content": [{"id": "call_0", "arguments": "{\"city\": \"Zurich\"}", "name": "get_weather"},
              {"id": "call_1", "arguments": "{\"city\": \"Bern\"}", "name": "get_weather"}]},
 {"source": "assistant", "models_usage": null, "metadata": {}, "type": "ToolCallExecutionEvent",
  "content": [{"content": "Error: weather service unavailable", "name": "get_weather", "call_id": "call_0", "is_error": true},
              {"content": "Bern: 12 C", "name": "get_weather", "call_id": "call_1", "is_error": false}]},
 {"source": "assistant", "models_usage": null, "metadata": {}, "content": "Error: weather service unavailable\nBern: 12 C", "type": "ToolCallSummaryMessage"},
 {"source": "assistant", "models_usage": null, "metadata": {}, "content": "Bern is at 12 C; Zurich is unknown.", "type": "TextMessage"}
], "stop_reason": null}`

// An AutoGen AgentChat run reads as its user turn, thinking, calls and results: the calls of
// one request event are one reply, an execution result with is_error failed, and the summary
// message is not read a second time (validation round r93c U2: such a run was read with no
// calls).
func TestAutoGenAgentChatTaskResult(t *testing.T) {
	tr := expectEvents(t, "task_result.json", autogenTaskResult, FormatMessages, []string{
		`user "What is the weather in Zurich an…"`,
		`text[model] "Look both up."`,
		`call get_weather "{\"city\": \"Zurich\"}" => "Error: weather service unavailab…" FAILED`,
		`call get_weather "{\"city\": \"Bern\"}" => "Bern: 12 C"`,
		`text[model] "Bern is at 12 C; Zurich is unkno…"`,
	})
	if c := tr.Agents[0].Calls(); c[0].Turn == "" || c[0].Turn != c[1].Turn {
		t.Errorf("turns %q %q: the calls of one request event are one reply", c[0].Turn, c[1].Turn)
	}
}

// The same messages saved as they are, a bare list ([m.model_dump() for m in result.messages])
// or one a line, read as the TaskResult does: both were "not a transcript" (validation round
// r114b U1).
func TestAutoGenAgentChatMessagesSavedBareOrOneALine(t *testing.T) {
	want := []string{
		`user "What is the weather in Zurich an…"`,
		`text[model] "Look both up."`,
		`call get_weather "{\"city\": \"Zurich\"}" => "Error: weather service unavailab…" FAILED`,
		`call get_weather "{\"city\": \"Bern\"}" => "Bern: 12 C"`,
		`text[model] "Bern is at 12 C; Zurich is unkno…"`,
	}
	list := strings.TrimSuffix(strings.TrimPrefix(autogenTaskResult, `{"messages": `), `, "stop_reason": null}`)
	expectEvents(t, "team_history.json", list, FormatMessages, want)
	var lines []string
	var msgs []json.RawMessage
	if err := json.Unmarshal([]byte(list), &msgs); err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		var compact bytes.Buffer
		if err := json.Compact(&compact, m); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, compact.String())
	}
	expectEvents(t, "messages.jsonl", strings.Join(lines, "\n")+"\n", FormatMessages, want)
}
