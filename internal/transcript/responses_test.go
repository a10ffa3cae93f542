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

// An environment that takes the model's words as its action answers each reply with a user
// item inside the response's output, the model's own turn: the reply is a call of "act" (its
// <action> tag, or all of it), the environment's message its answer, the reply's other words
// the model's (validation round r146a U1: Sokoban and text-game rollouts read no call). A user
// message in the request's input is still the user's.
func TestResponsesRolloutsTextActionsAreCalls(t *testing.T) {
	const run = `{"responses_create_params": {"input": [{"role": "system", "content": "Reply with one move: <action>Up</action>, ..."}, {"role": "user", "content": "Board:\n#P_#"}]}, "response": {"output": [` +
		`{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "<action>Left</action>"}]},` +
		`{"type": "message", "role": "user", "content": "Board:\n#P_#"},` +
		`{"type": "reasoning", "summary": []},` +
		`{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "A wall. <action>Right</action>"}]},` +
		`{"type": "message", "role": "user", "content": "Board:\n#_P#"},` +
		`{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "look around"}]},` +
		`{"type": "message", "role": "user", "content": "Nothing happens."}]}, "reward": -1.0}
`
	expectEvents(t, "sokoban_rollouts.jsonl", run, FormatMessages, []string{
		`text[system] "Reply with one move: <action>Up<…"`,
		`user "Board:\n#P_#"`,
		`call act "{\"action\":\"Left\"}" => "Board:\n#P_#"`,
		`text[model] "A wall."`,
		`call act "{\"action\":\"Right\"}" => "Board:\n#_P#"`,
		`call act "{\"action\":\"look around\"}" => "Nothing happens."`,
	})
}

// The reply after the environment's last message is the episode's last action, its answer
// kept outside the output (r149c U4). A rollout whose model was given tools, or calls one,
// talks in words: tau2-bench's simulated customer answers inside the output too, and the
// agent's words to it are no action.
func TestResponsesRolloutsTextActionsOnlyWithoutTools(t *testing.T) {
	const game = `{"responses_create_params": {"input": [{"role": "user", "content": "Board 1"}], "tools": []}, "response": {"output": [` +
		`{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "<action>Down</action>"}]},` +
		`{"type": "message", "role": "user", "content": "Board 2"},` +
		`{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "<action>Sleep</action>"}]}]}, "terminated": true}
`
	expectEvents(t, "game.jsonl", game, FormatMessages, []string{
		`user "Board 1"`,
		`call act "{\"action\":\"Down\"}" => "Board 2"`,
		`call sleep "{\"action\":\"Sleep\"}" => -`, // a move that lets time pass is a wait
	})
	const support = `{"responses_create_params": {"input": [{"role": "user", "content": "my order is late"}], "tools": [{"type": "function", "name": "get_order"}]}, "response": {"output": [` +
		`{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Which order?"}]},` +
		`{"type": "message", "role": "user", "content": "Order 42."}]}}
`
	expectEvents(t, "tau2.jsonl", support, FormatMessages, []string{
		`user "my order is late"`,
		`text[model] "Which order?"`,
		`user "Order 42."`,
	})
}

// A reasoning item's summary is the model's words between its calls (validation round r150b
// U2: 33 reasoning items of one file were unread).
func TestResponsesRolloutsReasoningSummaryIsModelText(t *testing.T) {
	const run = `{"responses_create_params": {"input": "find the law"}, "response": {"output": [` +
		`{"type": "reasoning", "summary": [{"type": "summary_text", "text": "Vary the mass first."}], "encrypted_content": null},` +
		`{"type": "function_call", "call_id": "f1", "name": "run_experiment", "arguments": "{\"m1\": 2}"},` +
		`{"type": "function_call_output", "call_id": "f1", "output": "F = 4.0"}]}}
`
	expectEvents(t, "newton_bench.jsonl", run, FormatMessages, []string{
		`user "find the law"`,
		`text[model] "Vary the mass first."`,
		`call run_experiment "{\"m1\": 2}" => "F = 4.0"`,
	})
}
