package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// A log that keeps each call and its result as records of their own, one a line, is read as
// one run: each result answers its call by id, else by the tool's name, else in order.
func TestCallsAndResultsLoggedApart(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"results answer their calls by id, whatever their order",
			`{"type": "tool_call", "tool_name": "read_file", "args": {"path": "a.py"}, "tool_call_id": "tc_1"}
{"type": "tool_call", "tool_name": "read_file", "args": {"path": "b.py"}, "tool_call_id": "tc_2"}
{"type": "tool_result", "tool_name": "read_file", "tool_call_id": "tc_2", "result": "B"}
{"type": "tool_result", "tool_name": "read_file", "tool_call_id": "tc_1", "result": "Error: no such file", "is_error": true}
`,
			[]string{`call read_file "{\"path\":\"a.py\"}" => "Error: no such file" FAILED`, `call read_file "{\"path\":\"b.py\"}" => "B"`}},
		{"without ids, by the tool's name; the stream's other events passed over",
			`{"event": "start", "ts": "2026-01-01T00:00:00Z"}
{"event": "tool_call", "tool": "web_search", "arguments": {"q": "AAPL price"}}
{"event": "tool_call", "tool": "fetch_url", "arguments": {"url": "https://example.com"}}
{"event": "token", "text": "Look"}
{"event": "tool_result", "tool": "fetch_url", "output": "<html>"}
{"event": "tool_result", "tool": "web_search", "output": "timeout", "success": false}
{"event": "done"}
`,
			[]string{`call web_search "{\"q\":\"AAPL price\"}" => "timeout" FAILED`, `call fetch_url "{\"url\":\"https://example.com\"}" => "<html>"`}},
		{"without ids or names, in order; a call never answered has no result; the model's words kept",
			`{"type": "tool_use", "name": "bash", "input": {"command": "ls"}}
{"type": "tool_result", "content": "a.py"}
{"type": "message", "role": "assistant", "content": "I will look at a.py."}
{"type": "tool_use", "name": "bash", "input": {"command": "cat a.py"}}
{"type": "message", "role": "user", "content": "stop"}
`,
			[]string{`call bash "{\"command\":\"ls\"}" => "a.py"`, `text[model] "I will look at a.py."`, `call bash "{\"command\":\"cat a.py\"}" => -`}},
		{"an error given in place of an output is the failure's text",
			`{"type": "tool_call", "tool_name": "query_db", "tool_input": {"sql": "SELECT 1"}}
{"type": "tool_result", "tool_name": "query_db", "error": "connection refused"}
{"type": "tool_call", "tool_name": "query_db", "tool_input": {"sql": "SELECT 1"}}
{"type": "tool_result", "tool_name": "query_db", "status": "failed", "error": "connection refused"}
`,
			[]string{`call query_db "{\"sql\":\"SELECT 1\"}" => "connection refused" FAILED`, `call query_db "{\"sql\":\"SELECT 1\"}" => "connection refused" FAILED`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { readsAsOneAgent(t, "run.jsonl", tc.doc, tc.want) })
	}
	// One call is no run: a log line of another program may name a tool once.
	doc := "{\"event\": \"tool_call\", \"tool\": \"x\"}\n{\"event\": \"tool_result\", \"tool\": \"x\", \"output\": \"y\"}\n"
	if _, err := ReadFrom("x.jsonl", strings.NewReader(doc)); err == nil || !strings.Contains(err.Error(), "unknown transcript format") {
		t.Errorf("one call: error %v, want unknown transcript format", err)
	}
}

// A ReAct agent's log that keeps each step's action apart from what it observed is read so
// too, with the step's thought and the user's message.
func TestReActStepsLoggedApartFromObservations(t *testing.T) {
	doc := `{"event": "user_message", "text": "I am a 65 year old artist", "session": "s1"}
{"event": "agent_step", "step": 1, "thought": "Searching schemes.", "action": "search_schemes", "action_input": {"query": "artist"}, "session": "s1"}
{"event": "observation", "tool": "search_schemes", "observation": "{\"matches\": []}", "session": "s1"}
{"event": "agent_step", "step": 2, "thought": "Asking for the age.", "action": "ask_user", "action_input": {"question": "Age?"}, "session": "s1"}
`
	tr, err := ReadFrom("trace.jsonl", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`user "I am a 65 year old artist"`, `text[model] "Searching schemes."`, `call search_schemes "{\"query\":\"artist\"}" => "{\"matches\": []}"`,
		`text[model] "Asking for the age."`, `call ask_user "{\"question\":\"Age?\"}" => -`}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %q\nwant %q", got, want)
	}
}
