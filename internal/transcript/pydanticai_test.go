package transcript

import "testing"

// Written for this test in the layout Pydantic AI's ModelMessagesTypeAdapter writes: requests
// and responses of parts; a call whose arguments did not validate, answered by a retry-prompt,
// then the same call with good arguments; a structured return; and a retry-prompt for the
// output with no tool, which asks for another reply.
const pydanticHistory = `[
 {"kind": "request", "parts": [
   {"part_kind": "system-prompt", "content": "You answer with SPARQL.", "timestamp": "2026-01-19T21:41:00Z"},
   {"part_kind": "user-prompt", "content": "How many pumps are there?", "timestamp": "2026-01-19T21:41:01Z"}]},
 {"kind": "response", "model_name": "gpt-oss-120b", "timestamp": "2026-01-19T21:41:05Z", "parts": [
   {"part_kind": "thinking", "content": "Count the pumps."},
   {"part_kind": "text", "content": "Let me query."},
   {"part_kind": "tool-call", "tool_name": "run_sparql", "args": "{\"query\": 7}", "tool_call_id": "call_0"}]},
 {"kind": "request", "parts": [
   {"part_kind": "retry-prompt", "tool_name": "run_sparql", "tool_call_id": "call_0",
    "content": [{"type": "string_type", "loc": ["query"], "msg": "Input should be a valid string"}]}]},
 {"kind": "response", "parts": [
   {"part_kind": "tool-call", "tool_name": "run_sparql", "args": {"query": "SELECT (COUNT(?p) AS ?n) WHERE {?p a :Pump}"}, "tool_call_id": "call_1"}]},
 {"kind": "request", "parts": [
   {"part_kind": "tool-return", "tool_name": "run_sparql", "tool_call_id": "call_1", "content": {"rows": [{"n": 4}]}}]},
 {"kind": "response", "parts": [{"part_kind": "text", "content": "There are pumps."}]},
 {"kind": "request", "parts": [{"part_kind": "retry-prompt", "content": "Please return the count as an integer."}]}
]`

// A Pydantic AI history reads as its turns and calls: a retry-prompt for a call fails it, a
// structured return is its JSON, and a retry-prompt with no tool is the harness's (validation
// round r93c U1: such a history was an unknown format).
func TestPydanticAIHistory(t *testing.T) {
	expectEvents(t, "history.json", pydanticHistory, FormatPydanticAI, []string{
		`text[system] "You answer with SPARQL."`,
		`user "How many pumps are there?"`,
		`text[model] "Count the pumps."`,
		`text[model] "Let me query."`,
		`call run_sparql "{\"query\": 7}" => "[{\"loc\":[\"query\"],\"msg\":\"Input s…" FAILED`,
		`call run_sparql "{\"query\":\"SELECT (COUNT(?p) AS ?…" => "{\"rows\":[{\"n\":4}]}"`,
		`text[model] "There are pumps."`,
		`user[harness] "Please return the count as an in…"`,
	})
}
