package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// The fixture was written for this test from the sessions the real Continue CLI (cn 1.5.47)
// writes (internal/e2e checks the reader on one): calls in an assistant message's toolCalls,
// outcomes in the item's toolCallStates, or a tool message.
func TestContinueSessionFixture(t *testing.T) {
	tr, err := Read("testdata/continue/session.json")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatContinue || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want continue with one", tr.Format, len(tr.Agents))
	}
	want := []string{
		`text[system] "You are an agent in the Continue…"`,
		`user "The parser test fails, please fi…"`,
		`text[model] "I'll run the tests."`,
		`call Bash "{\"command\":\"go test ./parser\"}" => "--- FAIL: TestParse (0.00s)\nFAIL…"`,
		`call Read "{\"filepath\":\"parser/parse.go\"}" => "Error: File parser/parse.go does…" FAILED`,
		`call List "{\"dirpath\":\"pkg\"}" => "parser/"`,
		`text[model] "The parser lives in pkg/parser."`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// A damaged session is an error that names its line.
func TestContinueDamagedSessionNamesItsLine(t *testing.T) {
	_, err := ReadFrom("s.json", strings.NewReader("{\"sessionId\": \"x\", \"title\": \"t\",\n\"history\": [\n{\"message\": {\"role\": \"user\", \"content\": \"hi\"}},\n{oops}]}"))
	if err == nil || !strings.HasPrefix(err.Error(), "s.json:4:") {
		t.Errorf("error %v, want one at s.json:4", err)
	}
}

// Cline CLI 3's session messages ({"sessionId", "messages"}, as a Gemini CLI session is) are
// chat messages: read as a message list, a command list's failed command fails the call.
func TestClineCLISessionMessages(t *testing.T) {
	doc := `{"version": 1, "sessionId": "s1", "agent": "lead", "messages": [
  {"id": "u1", "role": "user", "content": [{"type": "text", "text": "run the tests"}]},
  {"id": "a1", "role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "run_commands", "input": {"commands": ["pytest -q"]}}]},
  {"id": "u2", "role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "name": "run_commands",
    "content": [{"query": "pytest -q", "result": "1 failed", "success": false}]}]}
]}`
	tr, err := ReadFrom("s1.messages.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`user "run the tests"`, `call run_commands "{\"commands\":[\"pytest -q\"]}" => "1 failed" FAILED`}
	if got := describe(tr.Agents[0].Events); tr.Format != FormatMessages || !reflect.DeepEqual(got, want) {
		t.Errorf("read as %s: %q, want messages: %q", tr.Format, got, want)
	}
}

// Continue's IDE extension keeps a call's result twice, in the item's toolCallStates and as a
// tool message, and says a terminal command failed only in its output's own status (the
// state is "done"). The tool message is the result, read once, and that status fails it
// (validation round r91b U1: three failing PowerShell commands read as successes, and every
// result read a second time as the model's words).
func TestContinueOutputStatusFailsTheCallAndTheResultIsReadOnce(t *testing.T) {
	doc := `{"sessionId": "s", "title": "t", "workspaceDirectory": "/w", "history": [
  {"message": {"role": "user", "content": "clean up"}},
  {"message": {"role": "assistant", "content": "", "toolCalls": [
      {"id": "c1", "type": "function", "function": {"name": "run_terminal_command", "arguments": "{\"command\":\"git diff --stat\"}"}},
      {"id": "c2", "type": "function", "function": {"name": "run_terminal_command", "arguments": "{\"command\":\"$x = ; ls\"}"}}]},
   "toolCallStates": [
      {"toolCallId": "c1", "status": "done", "output": [{"name": "Terminal", "status": "Command completed", "content": "2 files changed"}]},
      {"toolCallId": "c2", "status": "done", "output": [{"name": "Terminal", "status": "Command failed with exit code 1", "content": "At line:1 char:6"}]}]},
  {"message": {"role": "tool", "toolCallId": "c1", "content": "2 files changed"}},
  {"message": {"role": "tool", "toolCallId": "c2", "content": "At line:1 char:6"}},
  {"message": {"role": "assistant", "content": "The second command failed."}}
]}`
	tr, err := ReadFrom("s.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`user "clean up"`,
		`call run_terminal_command "{\"command\":\"git diff --stat\"}" => "2 files changed"`,
		`call run_terminal_command "{\"command\":\"$x = ; ls\"}" => "At line:1 char:6" FAILED`,
		`text[model] "The second command failed."`,
	}
	if got := describe(tr.Agents[0].Events); tr.Format != FormatContinue || !reflect.DeepEqual(got, want) {
		t.Errorf("read as %s:\n got %s\nwant %s", tr.Format, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// A Continue chat without tools is a chat: the shell code a reply shows its user is not a
// call, and the user's next question is the user's turn, not the code's output.
func TestContinueChatCodeIsNoCall(t *testing.T) {
	doc := `{"sessionId": "s", "title": "t", "workspaceDirectory": "/w", "history": [
  {"message": {"role": "user", "content": [{"type": "text", "text": "keep 10 backups, not 5"}]}, "contextItems": []},
  {"message": {"role": "assistant", "content": "Change the script:\n\n` + "```bash" + `\nls -t backups | tail -n +11 | xargs rm\n` + "```" + `"}, "contextItems": []},
  {"message": {"role": "user", "content": [{"type": "text", "text": "what does tail -n +11 do?"}]}, "contextItems": []},
  {"message": {"role": "assistant", "content": "It prints from the 11th line on. Your devcontainer could run it:\n\n` + "```json" + `\n{\"commands\": [{\"name\": \"Prune\", \"shell\": \"bash\", \"args\": [\"-c\", \"ls -t backups | tail -n +11 | xargs rm\"]}]}\n` + "```" + `"}, "contextItems": []},
  {"message": {"role": "user", "content": [{"type": "text", "text": "thanks"}]}, "contextItems": []}
]}`
	tr, err := ReadFrom("s.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`user "keep 10 backups, not 5"`,
		"text[model] \"Change the script:\\n\\n```bash\\nls -…\"",
		`user "what does tail -n +11 do?"`,
		`text[model] "It prints from the 11th line on.…"`,
		`user "thanks"`,
	}
	if got := describe(tr.Agents[0].Events); tr.Format != FormatContinue || !reflect.DeepEqual(got, want) {
		t.Errorf("read as %s:\n got %s\nwant %s", tr.Format, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}
