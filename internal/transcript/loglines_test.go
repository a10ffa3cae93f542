package transcript

import "testing"

// Written for this test in the layout of claude-code-transcripts' sessions: Claude Code's
// lines, pretty-printed, under "loglines", with no uuids.
const loglinesSession = `{
  "loglines": [
    {"type": "user", "timestamp": "2025-12-24T10:00:00.000Z",
     "message": {"role": "user", "content": "add a test for add()"}},
    {"type": "assistant", "timestamp": "2025-12-24T10:00:05.000Z",
     "message": {"role": "assistant", "content": [
       {"type": "text", "text": "Running the tests first."},
       {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "pytest -q"}}]}},
    {"type": "user", "timestamp": "2025-12-24T10:00:09.000Z",
     "message": {"role": "user", "content": [
       {"type": "tool_result", "tool_use_id": "toolu_1", "content": "1 failed", "is_error": true}]}}
  ]
}`

func TestLoglinesReadAsAClaudeCodeSession(t *testing.T) {
	expectEvents(t, "session_01.json", loglinesSession, FormatClaudeCode, []string{
		`user "add a test for add()"`,
		`text[model] "Running the tests first."`,
		`call Bash "{\"command\":\"pytest -q\"}" => "1 failed" FAILED`,
	})
}
