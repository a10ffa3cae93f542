package transcript

import "testing"

// A tool's answer that is a JSON object reporting its command's exit code other than 0 failed,
// as a shell tool wraps a run ({"stdout", "stderr", "exitCode": 1}) with no flag of its own
// (validation round r148b U3); 0, no code, or a code inside the output's text is no failure.
func TestToolAnswerWithAnExitCodeFails(t *testing.T) {
	const chat = `[{"role": "user", "content": "lint it"},
{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "run", "arguments": "{\"cmd\": \"prettier --check .\"}"}}]},
{"role": "tool", "tool_call_id": "c1", "content": "{\"stdout\":\"Checking formatting...\\n\",\"stderr\":\"[warn] README.md\\n\",\"exitCode\":1}"},
{"role": "assistant", "content": null, "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "run", "arguments": "{\"cmd\": \"prettier --write .\"}"}}]},
{"role": "tool", "tool_call_id": "c2", "content": "{\"stdout\":\"README.md 40ms\",\"stderr\":\"\",\"exitCode\":0}"}]`
	expectEvents(t, "chat.json", chat, FormatMessages, []string{
		`user "lint it"`,
		`call run "{\"cmd\": \"prettier --check .\"}" => "{\"stdout\":\"Checking formatting..…" FAILED`,
		`call run "{\"cmd\": \"prettier --write .\"}" => "{\"stdout\":\"README.md 40ms\",\"stde…"`,
	})
	for _, tc := range []struct {
		answer string
		failed bool
	}{
		{`{"returncode": 2, "output": "x"}`, true},
		{`{"exit_code": 0}`, false},
		{`{"output": "exitCode: 1"}`, false},
		{`exitCode 1`, false},
	} {
		if got := answerObjectFailed(tc.answer); got != tc.failed {
			t.Errorf("%s: failed %v, want %v", tc.answer, got, tc.failed)
		}
	}
}
