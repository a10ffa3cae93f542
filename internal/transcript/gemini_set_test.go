package transcript

import (
	"strings"
	"testing"
)

// Gemini CLI 0.61 starts a JSONL session with a header, then a $set of the message list
// (the session context), then appends each message; a record whose id was seen replaces it.
// The $set must not hide the messages that follow it.
func TestGeminiJSONLSetThenAppend(t *testing.T) {
	lines := []string{
		`{"sessionId":"s1","projectHash":"p","startTime":"2026-11-30T03:26:24.115Z","lastUpdated":"2026-11-30T03:26:24.115Z","kind":"main"}`,
		`{"$set":{"messages":[{"id":"ctx","timestamp":"2026-11-30T03:26:24.116Z","type":"user","content":[{"text":"<session_context>…</session_context>"}]}],"lastUpdated":"2026-11-30T03:26:24.116Z"}}`,
		`{"id":"u1","timestamp":"2026-11-30T03:26:24.142Z","type":"user","content":[{"text":"Run the command."}]}`,
		`{"id":"g1","timestamp":"2026-11-30T03:26:24.305Z","type":"gemini","content":"","model":"gemini-2.5-flash"}`,
		`{"id":"g1","timestamp":"2026-11-30T03:26:24.305Z","type":"gemini","content":"","model":"gemini-2.5-flash","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"ls"},"result":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"output":"a.txt"}}}],"status":"success"}]}`,
		`{"$set":{"lastUpdated":"2026-11-30T03:26:24.433Z"}}`,
	}
	tr, err := ReadFrom("session.jsonl", strings.NewReader(strings.Join(lines, "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	main := tr.Agent(MainAgent)
	if tr.Format != FormatGeminiCLI || main == nil || len(main.Calls()) != 1 {
		t.Fatalf("format %q, agents %+v", tr.Format, tr.Agents)
	}
	if c := main.Calls()[0]; c.Tool != "run_shell_command" || c.Result != "a.txt" {
		t.Errorf("call %s → %q", c.Tool, c.Result)
	}
}
