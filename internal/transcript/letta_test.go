package transcript

import (
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// Letta (MemGPT) answers a call that asks for control back with a heartbeat in the user's
// role, a JSON object of its own: the harness speaking, not a person's turn (validation round
// r93c U7). A real user message, packed the same way, stays the user's.
func TestLettaHeartbeatIsTheHarnessNotAUserTurn(t *testing.T) {
	heartbeat := `{\n  \"type\": \"heartbeat\",\n  \"reason\": \"[This is an automated system message hidden from the user] Function called using request_heartbeat=true, returning control\"\n}`
	var b strings.Builder
	b.WriteString(`{"agents": [{"name": "outreach", "messages": [`)
	b.WriteString(`{"role": "user", "content": [{"type": "text", "text": "{\n  \"type\": \"user_message\",\n  \"message\": \"charles packer\"\n}"}]}`)
	for i := 0; i < 2; i++ {
		b.WriteString(`,{"role": "assistant", "content": [{"type": "text", "text": "Look him up."}], "tool_calls": [{"id": "c` + string(rune('0'+i)) + `", "type": "function", "function": {"name": "retrieve_candidate", "arguments": "{\"name\": \"charles packer\"}"}}]}`)
		b.WriteString(`,{"role": "tool", "tool_call_id": "c` + string(rune('0'+i)) + `", "content": [{"type": "text", "text": "{\"status\": \"OK\", \"message\": \"A software engineer\"}"}]}`)
		b.WriteString(`,{"role": "user", "content": [{"type": "text", "text": "` + heartbeat + `"}]}`)
	}
	b.WriteString(`]}]}`)
	tr, err := ReadFrom("agent.af", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventUser {
			users = append(users, e.Source)
		}
	}
	if len(users) != 3 || users[0] != "" || users[1] != loopguard.SourceHarness || users[2] != loopguard.SourceHarness {
		t.Errorf("user messages' sources %q, want the person's, then two heartbeats of the harness", users)
	}
}
