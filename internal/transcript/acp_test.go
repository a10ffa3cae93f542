package transcript

import "testing"

// BenchFlow's ACP trajectory: the user's turn, the model's thoughts and words, and calls whose
// result is merged into them; a call's later status updates it; a command stands by its
// command, not its caption.
func TestACPTrajectory(t *testing.T) {
	file := `{"type": "user_message", "text": "What is in /root?"}
{"type": "agent_thought", "text": "Let me look."}
{"type": "tool_call", "tool_call_id": "c1", "kind": "read", "title": "List files: Reading /root", "status": "completed", "content": [{"type": "content", "content": {"type": "text", "text": "Tool: file_editor\nResult:\n/root/data.xlsx"}}]}
{"type": "tool_call", "tool_call_id": "c2", "kind": "execute", "title": "Install the reader: $ pip install openpyxl", "status": "pending", "content": []}
{"type": "tool_call", "tool_call_id": "c2", "kind": "execute", "title": "Install the reader: $ pip install openpyxl", "status": "completed", "content": [{"type": "content", "content": {"type": "text", "text": "Tool: terminal\nResult:\nerror: externally-managed-environment\n❌ Exit code: 1"}}]}
{"type": "tool_call", "tool_call_id": "c3", "kind": "execute", "title": "Try again: $ pip install openpyxl", "status": "failed", "content": [{"type": "content", "content": {"type": "text", "text": "Tool: terminal\nResult:\nerror: externally-managed-environment"}}]}
{"type": "tool_call", "tool_call_id": "c4", "kind": "other", "title": "Plan the work", "status": "pending", "content": []}
{"type": "agent_message", "text": "The file is data.xlsx."}
`
	expectEvents(t, "acp_trajectory.jsonl", file, FormatACP, []string{
		`user "What is in /root?"`,
		`text[thinking] "Let me look."`,
		`call file_editor "List files: Reading /root" => "/root/data.xlsx"`,
		`call terminal "pip install openpyxl" => "error: externally-managed-enviro…"`,
		`call terminal "pip install openpyxl" => "error: externally-managed-enviro…" FAILED`,
		`call other "Plan the work" => -`,
		`text[model] "The file is data.xlsx."`,
	})
}
