package transcript

import (
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// Claude Code writes the news that a background command finished as a user line
// (<bash-notification>, in versions before <task-notification>): the harness speaking, not
// the user, so it does not start the detectors' counts afresh.
func TestClaudeCodeBashNotificationIsNotTheUser(t *testing.T) {
	line := func(typ, uuid, content string) string {
		return `{"type":"` + typ + `","uuid":"` + uuid + `","sessionId":"s","timestamp":"2025-10-02T09:00:00.000Z","message":{"role":"` + typ + `","content":` + content + `}}` + "\n"
	}
	file := line("user", "u1", `"Start the dev server"`) +
		line("assistant", "a1", `[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"npm run dev","run_in_background":true}}]`) +
		line("user", "u2", `[{"type":"tool_result","tool_use_id":"t1","content":"Command running in background with ID: b5bea74"}]`) +
		line("user", "u3", `"<bash-notification>\n<shell-id>b5bea74</shell-id>\n<status>completed</status>\n<summary>Background command completed</summary>\n</bash-notification>"`)
	tr, err := ReadFrom("s.jsonl", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var users, notes int
	for _, e := range tr.Agents[0].Events {
		switch {
		case e.Type == loopguard.EventUser:
			users++
		case e.Type == loopguard.EventText && e.Source == "task-notification":
			notes++
		}
	}
	if tr.Format != FormatClaudeCode || users != 1 || notes != 1 {
		t.Errorf("read as %s with %d user turns and %d notifications, want claude-code, 1 and 1", tr.Format, users, notes)
	}
}
