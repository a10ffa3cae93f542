package transcript

import (
	"slices"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
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

// A chat recording whose metadata line is missing (Gemini CLI went on appending message
// records to a new file after the session's folder was moved: r54b R1) is read from its
// records as the same recording with the line is.
func TestAGeminiRecordingWithoutItsMetadataLineIsRead(t *testing.T) {
	const (
		meta  = `{"sessionId": "s1", "projectHash": "p", "startTime": "2026-06-11T03:50:00.000Z", "lastUpdated": "2026-06-11T04:31:43.685Z", "kind": "main"}`
		user  = `{"id":"u1","timestamp":"2026-06-11T04:30:00.000Z","type":"user","content":[{"text":"move the repo"}]}`
		model = `{"id":"g1","timestamp":"2026-06-11T04:31:43.685Z","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"git mv a b"},"status":"success","result":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"output":"ok"}}}]}]}`
	)
	for _, lines := range [][]string{{model}, {user, model}} {
		with := mustRead(t, writeTemp(t, "with.jsonl", strings.Join(append([]string{meta}, lines...), "\n")+"\n"))
		without := mustRead(t, writeTemp(t, "without.jsonl", strings.Join(lines, "\n")+"\n"))
		if without.Format != FormatGeminiCLI || !slices.Equal(describe(without.Agents[0].Events), describe(with.Agents[0].Events)) {
			t.Errorf("without its metadata line: %s %q; with it: %q", without.Format, describe(without.Agents[0].Events), describe(with.Agents[0].Events))
		}
	}
}

// Gemini CLI sends "System: Please continue." itself when the model's reply stops without
// handing the turn back: the harness's reprompt, not the person's turn (validation round r72a
// U3), while the person's words stay theirs.
func TestGeminiPleaseContinueIsTheHarnesss(t *testing.T) {
	doc := `{"sessionId": "s1", "projectHash": "p", "startTime": "2026-01-26T15:45:00.000Z", "lastUpdated": "2026-01-26T16:00:00.000Z", "messages": [
{"id": "u1", "timestamp": "2026-01-26T15:45:27.706Z", "type": "user", "content": "make the cards collapse together"},
{"id": "g1", "timestamp": "2026-01-26T15:45:40.000Z", "type": "gemini", "content": "I will read Card.jsx.", "toolCalls": [{"id": "c1", "name": "read_file", "args": {"file_path": "Card.jsx"}, "result": [{"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": "export default Card"}}}], "status": "success"}]},
{"id": "u2", "timestamp": "2026-01-26T15:45:52.000Z", "type": "user", "content": "System: Please continue."},
{"id": "u3", "timestamp": "2026-01-26T15:47:00.000Z", "type": "user", "content": "Please continue."}
]}`
	tr, err := ReadFrom("session-2026-01-26T15-45-1359fca9.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, e := range tr.Agent(MainAgent).Events {
		if e.Type == loopguard.EventUser {
			users = append(users, e.Source+": "+e.Text)
		}
	}
	want := []string{": make the cards collapse together", "harness: System: Please continue.", ": Please continue."}
	if !slices.Equal(users, want) {
		t.Errorf("user turns %q, want %q", users, want)
	}
}

// The report Gemini CLI writes when a request fails holds the chat so far as API contents under
// "context", with the error beside it: read as the checkpoint it is (validation round r85c U2),
// an entry that is no content (a bare string) passed over.
func TestAGeminiErrorReportIsReadAsItsChat(t *testing.T) {
	doc := `{"error": {"message": "got status: UNAVAILABLE. The model is overloaded.", "stack": "ApiError: ..."}, "context": [
{"role": "user", "parts": [{"text": "This is the Gemini CLI. We are setting up the context for our chat."}]},
{"role": "user", "parts": [{"text": "add validation to the form"}]},
{"role": "model", "parts": [{"text": "I will read the form."}, {"functionCall": {"name": "read_file", "args": {"absolute_path": "/w/form.ts"}}}]},
{"role": "user", "parts": [{"functionResponse": {"name": "read_file", "response": {"output": "export const form = {}"}}}]},
{"role": "model", "parts": [{"functionCall": {"name": "replace", "args": {"file_path": "/w/form.ts", "old_string": "{}", "new_string": "{ valid: true }"}}}]},
{"role": "user", "parts": [{"functionResponse": {"name": "replace", "response": {"output": "Successfully modified file: /w/form.ts (1 replacements)."}}}]},
"Please continue."
]}`
	tr, err := ReadFrom("gemini-client-error-Turn.run-sendMessageStream-2025-07-21T10-00-00-000Z.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatGeminiCLI {
		t.Fatalf("read as %s, want %s", tr.Format, FormatGeminiCLI)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 2 || calls[0].Tool != "read_file" || calls[0].Result != "export const form = {}" || calls[1].Tool != "replace" || !calls[1].HasResult {
		t.Errorf("calls %q, want read_file and replace with their answers", describe(calls))
	}
}

// A session may keep a parallel batch's responses under each of its calls: a call's answer is
// its own response, found by its id, not the batch's joined (validation round r88b: every
// call of the batch would have answered alike).
func TestGeminiCallsOfABatchKeepTheirOwnAnswers(t *testing.T) {
	batch := `[{"functionResponse":{"id":"c1","name":"read_file","response":{"output":"alpha"}}},{"functionResponse":{"id":"c2","name":"read_file","response":{"output":"beta"}}}]`
	doc := `{"sessionId": "s1", "projectHash": "p", "startTime": "2026-01-26T15:45:00.000Z", "lastUpdated": "2026-01-26T16:00:00.000Z", "messages": [
{"id": "u1", "timestamp": "2026-01-26T15:45:27.706Z", "type": "user", "content": "read both"},
{"id": "g1", "timestamp": "2026-01-26T15:45:40.000Z", "type": "gemini", "content": "", "toolCalls": [
 {"id": "c1", "name": "read_file", "args": {"file_path": "a.txt"}, "result": ` + batch + `, "status": "success"},
 {"id": "c2", "name": "read_file", "args": {"file_path": "b.txt"}, "result": ` + batch + `, "status": "success"},
 {"id": "c3", "name": "read_file", "args": {"file_path": "c.txt"}, "result": [{"functionResponse":{"name":"read_file","response":{"output":"gamma"}}}], "status": "success"}]}
]}`
	tr, err := ReadFrom("session-2026-01-26T15-45-1359fca9.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var results []string
	for _, c := range tr.Agent(MainAgent).Calls() {
		results = append(results, c.Result)
	}
	if want := []string{"alpha", "beta", "gamma"}; !slices.Equal(results, want) {
		t.Errorf("results %q, want %q", results, want)
	}
}

// Gemini CLI's shell tool answers as a success whatever the command did, and says the
// command's exit code in its output: a checkpoint's call whose code is not 0 failed, as a chat
// recording's does (validation round r136b U1: failing builds read as successes).
func TestGeminiCheckpointShellExitCodeFails(t *testing.T) {
	doc := `[
 {"role": "user", "parts": [{"text": "run the tests"}]},
 {"role": "model", "parts": [{"functionCall": {"id": "run_shell_command-1763392123905-a", "name": "run_shell_command", "args": {"command": "pytest"}}}]},
 {"role": "user", "parts": [{"functionResponse": {"id": "run_shell_command-1763392123905-a", "name": "run_shell_command", "response": {"output": "Command: pytest\nDirectory: (root)\nOutput: bash: line 1: pytest: command not found\nError: (none)\nExit Code: 127\nSignal: 0"}}}]},
 {"role": "model", "parts": [{"functionCall": {"id": "run_shell_command-1763392124000-b", "name": "run_shell_command", "args": {"command": "ls"}}}]},
 {"role": "user", "parts": [{"functionResponse": {"id": "run_shell_command-1763392124000-b", "name": "run_shell_command", "response": {"output": "Command: ls\nDirectory: (root)\nOutput: a.py\nError: (none)\nExit Code: 0\nSignal: 0"}}}]}
]`
	tr := mustRead(t, writeTemp(t, "checkpoint-tests.json", doc))
	calls := tr.Agents[0].Calls()
	if len(calls) != 2 || !calls[0].Failed || calls[1].Failed {
		t.Fatalf("calls %q: want the exit code 127 failed and the 0 not", describe(calls))
	}
}

// Gemini CLI names a call "<tool>-<Unix milliseconds>-<random>": a checkpoint, which keeps no
// other time, has its calls' times from their ids (validation round r136b U2).
func TestGeminiCallIDTime(t *testing.T) {
	tests := []struct {
		id   string
		want int64
	}{
		{"run_shell_command-1763392123905-e6d130253e7b5", 1763392123905},
		{"read_file-1768093682440-e91f688c3263c", 1768093682440},
		{"mcp-server-tool-1768093682440-abc", 1768093682440},
		{"glob", 0},
		{"read_file-123-abc", 0},
		{"", 0},
		{"-1763392123905", 0},
	}
	for _, tt := range tests {
		if got := gemCallIDTime(tt.id); got != tt.want {
			t.Errorf("gemCallIDTime(%q) = %d, want %d", tt.id, got, tt.want)
		}
	}
	doc := `[{"role": "user", "parts": [{"text": "run it"}]},
 {"role": "model", "parts": [{"functionCall": {"id": "run_shell_command-1763392123905-a", "name": "run_shell_command", "args": {"command": "ls"}}}]},
 {"role": "user", "parts": [{"functionResponse": {"id": "run_shell_command-1763392123905-a", "name": "run_shell_command", "response": {"output": "a.py"}}}]}]`
	if calls := mustRead(t, writeTemp(t, "checkpoint-t.json", doc)).Agents[0].Calls(); len(calls) != 1 || calls[0].Time != 1763392123905 {
		t.Errorf("calls %+v: want the call at its id's time", calls)
	}
	// A checkpoint may keep the id on the answer alone.
	doc = strings.Replace(doc, `"id": "run_shell_command-1763392123905-a", "name": "run_shell_command", "args"`, `"name": "run_shell_command", "args"`, 1)
	if calls := mustRead(t, writeTemp(t, "checkpoint-t.json", doc)).Agents[0].Calls(); len(calls) != 1 || calls[0].Time != 1763392123905 {
		t.Errorf("calls %+v: want the call at its answer's id's time", calls)
	}
}
