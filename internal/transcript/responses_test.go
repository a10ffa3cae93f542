package transcript

import "testing"

// Written for this test in the layout of NeMo Gym's rollouts: the Responses API request's
// input items, then the response's output items (a call, its output by call_id, the answer),
// one run a line; a run whose input is a bare prompt.
const responsesRollouts = `{"responses_create_params": {"input": [{"role": "system", "content": "You fix bugs."}, {"role": "user", "content": "fix separable.py"}]}, "response": {"output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Reading it."}]}, {"type": "function_call", "call_id": "f1", "name": "Read", "arguments": "{\"file_path\": \"separable.py\"}"}, {"type": "function_call_output", "call_id": "f1", "output": "def _separable(): ..."}]}, "reward": 0.0}
{"responses_create_params": {"input": "count the lines"}, "response": {"output": [{"type": "function_call", "call_id": "f9", "name": "bash", "arguments": "{\"cmd\": \"wc -l a.txt\"}"}, {"type": "function_call_output", "call_id": "f9", "output": "3 a.txt"}]}, "reward": 1.0}
`

func TestResponsesRolloutsReadOneRunALine(t *testing.T) {
	tr := expectEvents(t, "example_rollouts.jsonl", responsesRollouts, FormatMessages, []string{
		`text[system] "You fix bugs."`,
		`user "fix separable.py"`,
		`text[model] "Reading it."`,
		`call Read "{\"file_path\": \"separable.py\"}" => "def _separable(): ..."`,
	})
	if tr.Sessions != 2 || len(tr.Agents) != 2 {
		t.Fatalf("%d sessions, %d agents; want a session and an agent per line", tr.Sessions, len(tr.Agents))
	}
	if got := describe(tr.Agents[1].Events); len(got) != 2 || got[0] != `user "count the lines"` || got[1] != `call bash "{\"cmd\": \"wc -l a.txt\"}" => "3 a.txt"` {
		t.Errorf("the second run: %q", got)
	}
}
