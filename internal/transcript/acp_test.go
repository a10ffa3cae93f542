package transcript

import "testing"

// BenchFlow's ACP trajectory: the user's turn, the model's thoughts and words, and calls whose
// result is merged into them; a call's later status updates it; a command or a read stands by
// what it runs or reads, not its caption; an exit code under a completed command's output
// fails it; an edit stands by its change; a title that names no argument makes a call of its
// own.
func TestACPTrajectory(t *testing.T) {
	file := `{"type": "user_message", "text": "What is in /root?"}
{"type": "agent_thought", "text": "Let me look."}
{"type": "tool_call", "tool_call_id": "c1", "kind": "read", "title": "List files: Reading /root", "status": "completed", "content": [{"type": "content", "content": {"type": "text", "text": "Tool: file_editor\nResult:\n/root/data.xlsx"}}]}
{"type": "tool_call", "tool_call_id": "c2", "kind": "execute", "title": "Install the reader: $ pip install openpyxl", "status": "pending", "content": []}
{"type": "tool_call", "tool_call_id": "c2", "kind": "execute", "title": "Install the reader: $ pip install openpyxl", "status": "completed", "content": [{"type": "content", "content": {"type": "text", "text": "Tool: terminal\nResult:\nerror: externally-managed-environment\n❌ Exit code: 1"}}]}
{"type": "tool_call", "tool_call_id": "c3", "kind": "execute", "title": "Try again: $ pip install openpyxl", "status": "failed", "content": [{"type": "content", "content": {"type": "text", "text": "Tool: terminal\nResult:\nerror: externally-managed-environment"}}]}
{"type": "tool_call", "tool_call_id": "c4", "kind": "other", "title": "Plan the work", "status": "pending", "content": []}
{"type": "tool_call", "tool_call_id": "c5", "kind": "fetch", "title": "Web search", "status": "completed", "content": [{"type": "content", "content": {"type": "text", "text": "no results"}}]}
{"type": "tool_call", "tool_call_id": "c6", "kind": "edit", "title": "Write", "status": "completed", "content": [{"type": "diff", "path": "/root/answer.json", "oldText": null, "newText": "{}"}]}
{"type": "agent_message", "text": "The file is data.xlsx."}
`
	expectEvents(t, "acp_trajectory.jsonl", file, FormatACP, []string{
		`user "What is in /root?"`,
		`text[thinking] "Let me look."`,
		`call file_editor "Reading /root" => "/root/data.xlsx"`,
		`call terminal "pip install openpyxl" => "error: externally-managed-enviro…" FAILED`,
		`call terminal "pip install openpyxl" => "error: externally-managed-enviro…" FAILED`,
		`call other "Plan the work #c4" => -`,
		`call fetch "Web search #c5" => "no results"`,
		`call edit "[{\"newText\":\"{}\",\"path\":\"/root/a…" => ""`,
		`text[model] "The file is data.xlsx."`,
	})
}

// A call's content of an unexpected shape loses only what it cannot say, and a later update
// that brings the change an edit makes gives the call its arguments.
func TestACPTrajectoryLenientContentAndLateDiff(t *testing.T) {
	file := `{"type": "tool_call", "tool_call_id": "c1", "kind": "execute", "title": "List: $ ls", "status": "completed", "content": "a.py"}
{"type": "tool_call", "tool_call_id": "c2", "kind": "edit", "title": "Write", "status": "pending", "content": [7, {"type": "content", "content": {"type": "text", "text": 3}}]}
{"type": "tool_call", "tool_call_id": "c2", "kind": "edit", "title": "Write", "status": "completed", "content": [{"type": "diff", "path": "/root/a.json", "oldText": null, "newText": "{}"}]}
`
	expectEvents(t, "acp_trajectory.jsonl", file, FormatACP, []string{
		`call execute "ls" => ""`,
		`call edit "[{\"newText\":\"{}\",\"path\":\"/root/a…" => ""`,
	})
}
