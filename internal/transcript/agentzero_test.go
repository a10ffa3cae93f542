package transcript

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// azChatDoc writes an Agent Zero chat.json as its framework does: each agent's history a JSON
// document in a string, its messages in bulks, topics and the current topic.
func azChatDoc(t *testing.T, histories ...[]any) string {
	t.Helper()
	type agent struct {
		Number  int            `json:"number"`
		Data    map[string]any `json:"data"`
		History string         `json:"history"`
	}
	var agents []agent
	for n, msgs := range histories {
		var topic []map[string]any
		for _, m := range msgs {
			_, ai := m.(string)
			topic = append(topic, map[string]any{"_cls": "Message", "ai": ai, "content": m, "summary": ""})
		}
		half := len(topic) / 2
		h, _ := json.Marshal(map[string]any{"_cls": "History",
			"bulks":   []any{map[string]any{"_cls": "Bulk", "summary": "", "records": []any{map[string]any{"_cls": "Topic", "summary": "", "messages": topic[:half]}}}},
			"topics":  []any{},
			"current": map[string]any{"_cls": "Topic", "summary": "", "messages": topic[half:]}})
		agents = append(agents, agent{Number: n, Data: map[string]any{}, History: string(h)})
	}
	doc, _ := json.Marshal(map[string]any{"id": "nYHQGot7", "agents": agents, "streaming_agent": 0, "log": map[string]any{"logs": []any{}}})
	// Python's json.dumps writes ", " and ": " between items (the sniffer looks for the agents
	// so written); Go writes none.
	return strings.Replace(string(doc), `"agents":[{"number":0,`, `"agents": [{"number": 0, `, 1)
}

// An Agent Zero chat: each reply naming a tool is a call answered by the tool's result; its
// thoughts are the model's words; the framework's refusal of a reply (its repeat check, a
// reply with no tool request) fails it as the harness's; a nudge is the host's; "response" is
// the answer, no call; a subordinate is an agent of its own.
func TestAgentZeroChatIsReadAsItsAgentsCalls(t *testing.T) {
	reply := `~~~json
{
    "thoughts": ["Run the script to see the error."],
    "headline": "Running the script",
    "tool_name": "code_execution_tool",
    "tool_args": {"runtime": "terminal", "code": "python fetch.py"}
}
~~~`
	doc := azChatDoc(t, []any{
		map[string]any{"user_message": "fetch the transcript"},
		reply,
		map[string]any{"tool_name": "code_execution_tool", "tool_result": "IndentationError: expected an indented block"},
		reply,
		map[string]any{"system_warning": "You have sent the same message again. You have to do something else!"},
		"",
		map[string]any{"system_warning": "You have misformatted your message. Follow system prompt instructions on JSON message formatting precisely."},
		map[string]any{"user_message": "{\n  \"system_message\": \"Nudged - continue\",\n}\n"},
		`{ "thoughts": [ "It says "blocked" again" ], "tool_name": "call_subordinate", "tool_args": { "message": "fix fetch.py", "reset": "true" } }`,
		map[string]any{"tool_name": "call_subordinate", "tool_result": "Fixed the indentation."},
		map[string]any{"user_intervention": "Just STOP what you are doing!"},
		`{"thoughts": ["Stopping."], "tool_name": "response", "tool_args": {"text": "Stopped."}}`,
	}, []any{
		map[string]any{"user_message": "fix fetch.py"},
		`{"thoughts": ["Done."], "tool_name": "response", "tool_args": {"text": "Fixed the indentation."}}`,
	})
	tr := mustRead(t, writeTemp(t, "chat.json", doc))
	if tr.Format != FormatAgentZero || len(tr.Agents) != 2 {
		t.Fatalf("read as %s with %d agents, want agent-zero with 2", tr.Format, len(tr.Agents))
	}
	want := []string{
		`user "fetch the transcript"`,
		`text[model] "Run the script to see the error.…"`,
		`call code_execution_tool "{\"runtime\": \"terminal\", \"code\": …" => "IndentationError: expected an in…"`,
		`text[model] "Run the script to see the error.…"`,
		`call[harness] code_execution_tool "{\"runtime\": \"terminal\", \"code\": …" => "You have sent the same message a…" FAILED`,
		`call[harness] (no action) "" => "You have misformatted your messa…" FAILED`,
		`user[harness] "{\n  \"system_message\": \"Nudged - …"`,
		`text[model] "{ \"thoughts\": [ \"It says \"blocke…"`,
		`call call_subordinate "{ \"message\": \"fix fetch.py\", \"re…" => "Fixed the indentation."`,
		`user "Just STOP what you are doing!"`,
		`text[model] "Stopping."`,
		`text[model] "Stopped."`,
	}
	if got := describe(tr.Agents[0].Events); !slices.Equal(got, want) {
		t.Errorf("agent 0:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := describe(tr.Agents[1].Events); tr.Agents[1].ID != "subordinate-1" || !slices.Equal(got, []string{`user "fix fetch.py"`, `text[model] "Done."`, `text[model] "Fixed the indentation."`}) {
		t.Errorf("the subordinate %q: %q", tr.Agents[1].ID, got)
	}
}
