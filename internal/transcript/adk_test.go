package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// An ADK session is read agent by agent: each author's calls, their answers matched by id
// however late they come, and the user's words a turn of the agents seen so far.
func TestADKSession(t *testing.T) {
	const session = `{"id": "s1", "appName": "hello_agent", "userId": "user", "state": {}, "events": [
 {"author": "user", "invocationId": "e-1", "id": "u1", "content": {"role": "user", "parts": [{"text": "fix the text"}]}},
 {"author": "hello_agent", "invocationId": "e-1", "id": "m1", "content": {"role": "model", "parts": [{"text": "Handing it over."}, {"functionCall": {"id": "call_1", "name": "middle_b", "args": {"text": "fix"}}}]}},
 {"author": "middle_b", "invocationId": "e-1", "id": "m2", "content": {"role": "model", "parts": [{"functionCall": {"id": "call_2", "name": "lookup", "args": {"q": "x"}}}, {"functionCall": {"id": "call_3", "name": "lookup", "args": {"q": "y"}}}]}},
 {"author": "middle_b", "invocationId": "e-1", "id": "r2", "content": {"role": "user", "parts": [{"functionResponse": {"id": "call_2", "name": "lookup", "response": {"result": "found x"}}}, {"functionResponse": {"id": "call_3", "name": "lookup", "response": {"error": "quota exceeded"}}}]}},
 {"author": "middle_b", "invocationId": "e-1", "id": "x1", "errorCode": "_ResourceExhaustedError", "errorMessage": "429"},
 {"author": "hello_agent", "invocationId": "e-1", "id": "r1", "content": {"role": "user", "parts": [{"functionResponse": {"id": "call_1", "name": "middle_b", "response": {"result": "done"}}}]}},
 {"author": "user", "invocationId": "e-2", "id": "u2", "content": {"role": "user", "parts": [{"text": "again"}]}}
]}`
	tr, err := ReadFrom("session.json", strings.NewReader(session))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatADK || len(tr.Agents) != 2 {
		t.Fatalf("read as %s with %d agents; want adk with 2", tr.Format, len(tr.Agents))
	}
	want := map[string][]string{
		"hello_agent": {`text[model] "Handing it over."`, `call middle_b "{\"text\":\"fix\"}" => "done"`, `user "again"`},
		"middle_b":    {`call lookup "{\"q\":\"x\"}" => "found x"`, `call lookup "{\"q\":\"y\"}" => "{\"error\":\"quota exceeded\"}" FAILED`, `user "again"`},
	}
	for _, a := range tr.Agents {
		if got := describe(a.Events); !reflect.DeepEqual(got, want[a.ID]) {
			t.Errorf("%s:\n got %q\nwant %q", a.ID, got, want[a.ID])
		}
	}
	if a := tr.Agents[1]; a.Events[0].Turn != a.Events[1].Turn {
		t.Errorf("the calls of one event are one reply: turns %q and %q", a.Events[0].Turn, a.Events[1].Turn)
	}
}

// The events alone are read as the session's: one a line, in snake case as ADK's Python
// models dump them without their aliases, or saved as a list.
func TestADKEventsOutsideASession(t *testing.T) {
	tests := []struct{ name, file, doc, want string }{
		{"one a line, in snake case", "events.jsonl",
			`{"author": "agent", "invocation_id": "e-1", "id": "a", "content": {"role": "model", "parts": [{"function_call": {"id": "c1", "name": "transfer_to_agent", "args": {"agent_name": "b"}}}]}}
{"author": "agent", "invocation_id": "e-1", "id": "b", "content": {"role": "user", "parts": [{"function_response": {"id": "c1", "name": "transfer_to_agent", "response": {"result": null}}}]}}
`, `call transfer_to_agent "{\"agent_name\":\"b\"}" => ""`},
		{"as a list", "events.json",
			`[{"author": "agent", "invocationId": "e-1", "id": "a", "content": {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "lookup", "args": {"q": "x"}}}]}},
 {"author": "agent", "invocationId": "e-1", "id": "b", "content": {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "lookup", "response": {"result": "found"}}}]}}]`,
			`call lookup "{\"q\":\"x\"}" => "found"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := ReadFrom(tc.file, strings.NewReader(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatADK {
				t.Fatalf("read as %s, want adk", tr.Format)
			}
			readsAsOneAgent(t, tc.file, tc.doc, []string{tc.want})
		})
	}
}

// Each event keeps its time, seconds since the epoch as ADK writes it (validation round r148c
// U1: every event of a real session read at time 0).
func TestADKEventsKeepTheirTime(t *testing.T) {
	const events = `[{"author": "user", "invocationId": "e-1", "id": "u", "timestamp": 1740000000.25, "content": {"role": "user", "parts": [{"text": "go"}]}},
 {"author": "agent", "invocationId": "e-1", "id": "a", "timestamp": 1740000001.5, "content": {"role": "model", "parts": [{"text": "Looking."}, {"functionCall": {"id": "c1", "name": "lookup", "args": {}}}]}},
 {"author": "agent", "invocationId": "e-1", "id": "b", "timestamp": 1740000002, "content": {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "lookup", "response": {"result": "x"}}}]}}]`
	tr, err := ReadFrom("events.json", strings.NewReader(events))
	if err != nil {
		t.Fatal(err)
	}
	var times []int64
	for _, e := range tr.Agents[0].Events {
		times = append(times, e.Time)
	}
	if want := []int64{1740000001500, 1740000001500}; !reflect.DeepEqual(times, want) {
		t.Errorf("times %v, want %v (the words and the call of the model's event)", times, want)
	}
}
