package transcript

import "testing"

// Claude Code relays a hook's answer in a user message of its own: the harness speaking, not
// the user (validation round r90a M2: a stop hook's feedback, eleven times).
func TestClaudeCodeHookFeedbackIsTheHarness(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"Stop hook feedback:\n- [uv run .claude/hooks/stop.py --chat]: error: Failed to spawn", true},
		{"SubagentStop hook feedback:\n- [./check.sh]: tests still fail", true},
		{"Bash operation feedback:\n- [uv run .claude/hooks/post_tool_use.py]: error", true},
		{"mcp__github__create_issue operation feedback:\n- [./audit.sh]: logged", true},
		{"Please stop the server operation feedback:\nit is too slow", false},
		{"Stop hook feedback is what I want to discuss:", false},
		{"Give me feedback:\n- on this", false},
	}
	for _, tt := range tests {
		if got := ccHookFeedback(tt.text); got != tt.want {
			t.Errorf("ccHookFeedback(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
	expectEvents(t, "s.jsonl",
		`{"type":"user","sessionId":"s","uuid":"u1","message":{"role":"user","content":"finish the task"}}`+"\n"+
			`{"type":"user","sessionId":"s","uuid":"u2","message":{"role":"user","content":[{"type":"text","text":"Stop hook feedback:\n- [./stop.sh]: tests fail"}]}}`+"\n",
		FormatClaudeCode, []string{`user "finish the task"`, `user[harness] "Stop hook feedback:\n- [./stop.sh…"`})
}
