package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
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

// A session resumed or forked is written into its file again from the start, new line uuids
// over the same message and tool_use ids: the copy is read once, and what follows it is read.
func TestClaudeCodeResumedSessionsCopyIsReadOnce(t *testing.T) {
	conv := func(u string) string {
		return `{"type":"user","uuid":"` + u + `1","sessionId":"s","message":{"role":"user","content":"look at the last commit"}}
{"type":"assistant","uuid":"` + u + `2","parentUuid":"` + u + `1","sessionId":"s","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"I'll read it."}]}}
{"type":"assistant","uuid":"` + u + `3","parentUuid":"` + u + `2","sessionId":"s","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"git show"}}]}}
{"type":"user","uuid":"` + u + `4","parentUuid":"` + u + `3","sessionId":"s","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"commit 5f6641a"}]}}
`
	}
	doc := conv("a") + conv("b") + `{"type":"assistant","uuid":"c1","parentUuid":"b4","sessionId":"s","message":{"id":"msg_2","role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"Bash","input":{"command":"git show"}}]}}
{"type":"user","uuid":"c2","parentUuid":"c1","sessionId":"s","message":{"role":"user","content":[{"tool_use_id":"toolu_2","type":"tool_result","content":"commit 5f6641a"}]}}
`
	tr, err := ReadFrom("s.jsonl", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`user "look at the last commit"`,
		`text[model] "I'll read it."`,
		`call Bash "{\"command\":\"git show\"}" => "commit 5f6641a"`,
		`user "look at the last commit"`, // the person's words: a prompt typed again is news
		`call Bash "{\"command\":\"git show\"}" => "commit 5f6641a"`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// Claude Code 2.1 may write a result's line ahead of the call it answers (its parentUuid and
// its time put it after): the result is the call's all the same (validation round r132b U1:
// an Edit's result was lost, and five calls of a labelled session had none).
func TestClaudeCodeResultWrittenBeforeItsCallIsTheCalls(t *testing.T) {
	doc := `{"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"fix the typo"}}
{"type":"user","uuid":"u3","parentUuid":"u2","sessionId":"s","timestamp":"2026-05-04T14:32:55.487Z","message":{"role":"user","content":[{"tool_use_id":"toolu_9","type":"tool_result","content":"No match for x.","is_error":true}]}}
{"type":"assistant","uuid":"u2","parentUuid":"u1","sessionId":"s","timestamp":"2026-05-04T14:32:55.474Z","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_9","name":"Edit","input":{"file_path":"a.md","old":"x"}}]}}
{"type":"assistant","uuid":"u4","parentUuid":"u3","sessionId":"s","message":{"id":"msg_2","role":"assistant","content":[{"type":"tool_use","id":"toolu_10","name":"Read","input":{"file_path":"a.md"}}]}}
{"type":"user","uuid":"u5","parentUuid":"u4","sessionId":"s","message":{"role":"user","content":[{"tool_use_id":"toolu_10","type":"tool_result","content":"the end"}]}}
`
	tr, err := ReadFrom("s.jsonl", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`user "fix the typo"`,
		`call Edit "{\"file_path\":\"a.md\",\"old\":\"x\"}" => "No match for x." FAILED`,
		`call Read "{\"file_path\":\"a.md\"}" => "the end"`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// Claude Code 2.1 copies each message of a subagent into its parent's file as a progress line.
// Without the subagent's own file beside the session, those lines are the subagent's calls
// (validation round r132b U2: three subagents' calls went unread); with it, the file is read
// for them and the copies are passed over, so no call counts twice.
func TestClaudeCodeSubagentProgressLines(t *testing.T) {
	progress := func(uuid, msg string) string {
		return `{"parentUuid":"p","isSidechain":false,"sessionId":"s","type":"progress","data":{"message":` + msg + `,"normalizedMessages":[],"type":"agent_progress","prompt":"Read the profile","agentId":"a1d20e2"},"toolUseID":"agent_msg_1","parentToolUseID":"toolu_task","uuid":"` + uuid + `","timestamp":"2026-01-17T05:05:46.193Z"}` + "\n"
	}
	call := `{"type":"assistant","timestamp":"2026-01-17T05:05:46.182Z","message":{"id":"msg_s1","role":"assistant","content":[{"type":"tool_use","id":"toolu_r1","name":"Read","input":{"file_path":"/u/.zshrc"}}]},"uuid":"m2"}`
	result := `{"type":"user","timestamp":"2026-01-17T05:05:46.300Z","message":{"role":"user","content":[{"tool_use_id":"toolu_r1","type":"tool_result","content":"<tool_use_error>File does not exist.</tool_use_error>","is_error":true}]},"uuid":"m3"}`
	doc := `{"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"set up my statusline"}}
{"type":"assistant","uuid":"u2","parentUuid":"u1","sessionId":"s","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_task","name":"Task","input":{"description":"Read the profile","prompt":"Read the profile","subagent_type":"general-purpose"}}]}}
` + progress("o1", `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"Read the profile"}]},"uuid":"m1","timestamp":"2026-01-17T05:05:43.606Z"}`) +
		progress("o2", call) + progress("o3", call) + progress("o4", result) +
		`{"type":"user","uuid":"u3","parentUuid":"u2","sessionId":"s","message":{"role":"user","content":[{"tool_use_id":"toolu_task","type":"tool_result","content":"No profile found."}]}}
`
	dir := t.TempDir()
	session := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(session, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := mustRead(t, session)
	sub := tr.Agent("agent-a1d20e2")
	if sub == nil || len(tr.Agents) != 2 {
		t.Fatalf("agents %d, subagent %v: want main and agent-a1d20e2", len(tr.Agents), sub)
	}
	want := []string{
		`user "Read the profile"`,
		`call Read "{\"file_path\":\"/u/.zshrc\"}" => "<tool_use_error>File does not ex…" FAILED`,
	}
	if got := describe(sub.Events); !reflect.DeepEqual(got, want) {
		t.Errorf("subagent events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	if n := len(tr.Agent(MainAgent).Calls()); n != 1 {
		t.Errorf("main agent has %d calls, want its Task call alone", n)
	}

	// The subagent's own file beside the session: it is read for the subagent, not the copies.
	if err := os.MkdirAll(filepath.Join(dir, "s", "subagents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "s", "subagents", "agent-a1d20e2.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if tr := mustRead(t, session); len(tr.Agents) != 1 {
		t.Errorf("with the subagent's file beside the session, %d agents read from the parent's file, want main alone", len(tr.Agents))
	}
}

// A line is dropped as written twice only when its uuid and its bytes are both those of a line
// read before: `claude -p --output-format stream-json` 2.0 printed a message's text and each of
// its calls on lines of their own, all under one uuid (validation round r56a U1); and a call
// is a resumed session's copy only when its id, tool and input are the copy's, not when a log
// whose ids were redacted gives every call the same placeholder (r56a U2).
func TestClaudeCodeLinesSharingAUUIDAreEachRead(t *testing.T) {
	line := func(uuid, typ, content string) string {
		return `{"type":"` + typ + `","uuid":"` + uuid + `","sessionId":"s1","message":{"id":"msg_1","role":"` + typ + `","content":` + content + `}}` + "\n"
	}
	call := func(id, pattern string) string {
		return `[{"type":"tool_use","id":"` + id + `","name":"Glob","input":{"pattern":"` + pattern + `"}}]`
	}
	result := func(id, text string) string {
		return `[{"type":"tool_result","tool_use_id":"` + id + `","content":"` + text + `"}]`
	}
	doc := line("u0", "user", `"Find the test files"`) +
		line("u1", "assistant", `[{"type":"text","text":"Let me look for them."}]`) +
		line("u1", "assistant", call("toolu_1", "**/*_test.go")) +
		line("u1", "assistant", call("toolu_2", "**/*.spec.ts")) +
		line("u1", "assistant", call("toolu_2", "**/*.spec.ts")) + // written twice
		line("u2", "user", result("toolu_1", "a_test.go")) +
		line("u3", "user", result("toolu_2", "b.spec.ts")) +
		line("u4", "assistant", call("[REDACTED_TOKEN]", "docs/**")) +
		line("u5", "user", result("[REDACTED_TOKEN]", "docs/a.md")) +
		line("u6", "assistant", call("[REDACTED_TOKEN]", "src/**")) +
		line("u7", "user", result("[REDACTED_TOKEN]", "src/a.go")) +
		// the same call made again in replies of their own, under the placeholder
		strings.ReplaceAll(line("u8", "assistant", call("[REDACTED_TOKEN]", "src/**")), "msg_1", "msg_2") +
		line("u9", "user", result("[REDACTED_TOKEN]", "src/a.go")) +
		strings.ReplaceAll(line("u10", "assistant", call("[REDACTED_TOKEN]", "src/**")), "msg_1", "msg_3") +
		line("u11", "user", result("[REDACTED_TOKEN]", "src/a.go")) +
		// two calls of one reply under the placeholder, answered in order
		strings.ReplaceAll(line("u12", "assistant", call("[REDACTED_TOKEN]", "lib/**")), "msg_1", "msg_4") +
		strings.ReplaceAll(line("u13", "assistant", call("[REDACTED_TOKEN]", "bin/**")), "msg_1", "msg_4") +
		line("u14", "user", result("[REDACTED_TOKEN]", "lib/x.go")) +
		line("u15", "user", result("[REDACTED_TOKEN]", "bin/run"))
	expectEvents(t, "session.jsonl", doc, FormatClaudeCode, []string{
		`user "Find the test files"`,
		`text[model] "Let me look for them."`,
		`call Glob "{\"pattern\":\"**/*_test.go\"}" => "a_test.go"`,
		`call Glob "{\"pattern\":\"**/*.spec.ts\"}" => "b.spec.ts"`,
		`call Glob "{\"pattern\":\"docs/**\"}" => "docs/a.md"`,
		`call Glob "{\"pattern\":\"src/**\"}" => "src/a.go"`,
		`call Glob "{\"pattern\":\"src/**\"}" => "src/a.go"`,
		`call Glob "{\"pattern\":\"src/**\"}" => "src/a.go"`,
		`call Glob "{\"pattern\":\"lib/**\"}" => "lib/x.go"`,
		`call Glob "{\"pattern\":\"bin/**\"}" => "bin/run"`,
	})
}

// ToolSearch answers with references to the tools it loaded, not with text: searches that
// load different tools are different answers, so six of them in a row are no churn.
func TestClaudeCodeToolSearchAnswersNameTheToolsLoaded(t *testing.T) {
	line := func(typ, uuid, content string) string {
		return `{"type":"` + typ + `","uuid":"` + uuid + `","sessionId":"s","timestamp":"2026-05-11T09:00:00.000Z","message":{"role":"` + typ + `","content":` + content + `}}` + "\n"
	}
	file := line("user", "u0", `"Plan the change, then fetch the docs"`)
	tools := []string{"WebFetch", "TodoWrite", "ExitPlanMode", "NotebookEdit", "WebSearch", "mcp__github__get_issue"}
	for i, tool := range tools {
		id := string(rune('a' + i))
		file += line("assistant", "a"+id, `[{"type":"tool_use","id":"t`+id+`","name":"ToolSearch","input":{"query":"select:`+tool+`","max_results":1}}]`) +
			line("user", "u"+id, `[{"type":"tool_result","tool_use_id":"t`+id+`","content":[{"type":"tool_reference","tool_name":"`+tool+`"}]}]`)
	}
	tr, err := ReadFrom("s.jsonl", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != len(tools) {
		t.Fatalf("%d calls, want %d", len(calls), len(tools))
	}
	for i, c := range calls {
		if !strings.Contains(c.Result, tools[i]) {
			t.Errorf("ToolSearch %d answered %q, want the tool it loaded, %s", i, c.Result, tools[i])
		}
	}
	if _, notices := defaultNotices(t, tr.Agents[0]); len(notices) != 0 {
		t.Errorf("notices on six searches loading six tools: %q", notices)
	}
}

// A script that runs `claude -p --output-format stream-json` in a loop appends every run to
// one file: each run with its own session id is a session of its own, a resumed run (the same
// session id) goes on with its session.
func TestClaudeCodeStreamJSONRunsAppendedToOneFile(t *testing.T) {
	run := func(session, prompt, tool string) string {
		return `{"type":"system","subtype":"init","cwd":"/w","session_id":"` + session + `","tools":["Bash"],"model":"claude-opus-4-5"}` + "\n" +
			`{"type":"user","message":{"role":"user","content":"` + prompt + `"},"parent_tool_use_id":null,"session_id":"` + session + `"}` + "\n" +
			`{"type":"assistant","message":{"id":"msg_` + tool + `","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"toolu_` + tool + `","name":"Bash","input":{"command":"cat .agent/status.md"}}]},"parent_tool_use_id":null,"session_id":"` + session + `"}` + "\n" +
			`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_` + tool + `","content":"status: working"}]},"parent_tool_use_id":null,"session_id":"` + session + `"}` + "\n" +
			`{"type":"result","subtype":"success","is_error":false,"session_id":"` + session + `","total_cost_usd":0.01}` + "\n"
	}
	file := run("fe5b2ac9", "next task", "a") + run("2a5fa841", "next task", "b") + run("2a5fa841", "go on", "c") + run("0dc9ee5b", "next task", "d")
	tr, err := ReadFrom("claude_output.jsonl", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range tr.Agents {
		got = append(got, fmt.Sprintf("%s@%d:%d", a.ID, a.Session, len(a.Calls())))
	}
	if want := []string{"main@0:1", "main@1:2", "main@2:1"}; tr.Sessions != 3 || !reflect.DeepEqual(got, want) {
		t.Errorf("%d sessions, agents %q; want 3 sessions, %q", tr.Sessions, got, want)
	}
}

// claude-code-action keeps a run's stream-json lines as one JSON list
// (claude-execution-output.json): read as the lines are, calls, results and all.
func TestClaudeCodeStreamJSONKeptAsOneList(t *testing.T) {
	doc := `[
  {"type": "system", "subtype": "init", "cwd": "/home/runner/work/app", "session_id": "9d2c", "tools": ["Bash", "Write"], "model": "claude-sonnet-4-5"},
  {"type": "assistant", "message": {"id": "msg_1", "role": "assistant", "model": "claude-sonnet-4-5", "content": [
    {"type": "tool_use", "id": "toolu_1", "name": "Write", "input": {"file_path": "/home/runner/work/app/.agent/status.md", "content": "done"}}]},
   "parent_tool_use_id": null, "session_id": "9d2c", "caller": {"type": "direct"}},
  {"type": "user", "message": {"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": true, "content": "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>"}]},
   "parent_tool_use_id": null, "session_id": "9d2c"},
  {"type": "result", "subtype": "success", "is_error": false, "num_turns": 2, "session_id": "9d2c", "total_cost_usd": 0.05}
]`
	tr, err := ReadFrom("claude-execution-output.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatClaudeCode || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want claude-code with 1", tr.Format, len(tr.Agents))
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || calls[0].Tool != "Write" || !calls[0].Failed || !strings.Contains(calls[0].Result, "has not been read yet") {
		t.Errorf("calls %+v, want the one failed Write", calls)
	}
}

// A hook that saves the session at every stop (claude-code-hooks-mastery's logs/chat.json)
// writes its records as one JSON list, opening with any of them: a summary, a file checkpoint,
// a system line, a message. Read as the session's lines are (validation round r90a U1: 16
// sessions, 904 calls, were message lists with no call).
func TestClaudeCodeSessionRecordsKeptAsOneList(t *testing.T) {
	records := []string{
		`{"parentUuid": "u1", "isSidechain": false, "cwd": "/w", "sessionId": "fafb", "version": "1.0.69", "type": "assistant", "uuid": "u2", "timestamp": "2025-08-06T09:39:00.000Z",
  "message": {"id": "msg_1", "role": "assistant", "model": "claude-sonnet-4", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "npm test"}}]}}`,
		`{"parentUuid": "u2", "isSidechain": false, "cwd": "/w", "sessionId": "fafb", "version": "1.0.69", "type": "user", "uuid": "u3", "timestamp": "2025-08-06T09:39:05.000Z",
  "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": true, "content": "1 failing"}]}}`,
	}
	for _, opening := range []string{
		`{"type": "summary", "summary": "Fix the tests", "leafUuid": "u3"}`,
		`{"type": "file-history-snapshot", "messageId": "m1", "snapshot": {"messageId": "m1", "trackedFileBackups": {}}, "isSnapshotUpdate": false}`,
		`{"parentUuid": null, "sessionId": "fafb", "type": "system", "content": "SessionStart:clear completed", "uuid": "u0", "timestamp": "2025-08-06T09:38:33.687Z", "level": "info"}`,
		`{"parentUuid": null, "sessionId": "fafb", "type": "user", "uuid": "u1", "timestamp": "2025-08-06T09:38:40.000Z", "message": {"role": "user", "content": "run the tests"}}`,
	} {
		doc := "[\n  " + strings.Join(append([]string{opening}, records...), ",\n  ") + "\n]"
		tr, err := ReadFrom("chat.json", strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if tr.Format != FormatClaudeCode {
			t.Errorf("opening with %.40s: read as %s, want claude-code", opening, tr.Format)
			continue
		}
		calls := tr.Agents[0].Calls()
		if len(calls) != 1 || calls[0].Tool != "Bash" || !calls[0].Failed || calls[0].Result != "1 failing" {
			t.Errorf("opening with %.40s: calls %q, want the failed npm test", opening, describe(calls))
		}
	}
}

// stream-json's assistant lines carry each message's usage as the message began (a handful of
// output tokens); the run's closing "result" line counts all its tokens, and the run's usage
// is that line's (validation round r114d U2: 33 output tokens read for 22,123).
func TestClaudeCodeStreamJSONRunTokensAreTheResultLines(t *testing.T) {
	file := `{"type":"system","subtype":"init","cwd":"/app","session_id":"s1","tools":["Bash"],"model":"claude-opus-4-5"}` + "\n" +
		`{"type":"assistant","message":{"id":"msg_1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":3,"output_tokens":8,"cache_read_input_tokens":100,"cache_creation_input_tokens":50}},"parent_tool_use_id":null,"session_id":"s1"}` + "\n" +
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"a.txt"}]},"parent_tool_use_id":null,"session_id":"s1"}` + "\n" +
		`{"type":"result","subtype":"success","is_error":false,"session_id":"s1","total_cost_usd":1.08,"usage":{"input_tokens":41,"output_tokens":22123,"cache_read_input_tokens":900000,"cache_creation_input_tokens":60000}}` + "\n"
	tr, err := ReadFrom("claude-code.txt", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	want := Usage{InputTokens: 41, OutputTokens: 22123, CacheReadTokens: 900000, CacheWriteTokens: 60000, CostUSD: 1.08, Model: "claude-opus-4-5"}
	if tr.Usage != want {
		t.Errorf("run usage %+v, want %+v", tr.Usage, want)
	}
}

// A server tool's result comes back in the model's own message, in a block named for the tool,
// and answers the server_tool_use of its id.
func TestClaudeCodeServerToolResultInTheModelsMessage(t *testing.T) {
	line := func(typ, uuid, id, content string) string {
		return `{"type":"` + typ + `","uuid":"` + uuid + `","sessionId":"s","timestamp":"2026-04-14T22:49:18.683Z","message":{"id":"` + id + `","role":"` + typ + `","content":` + content + `}}` + "\n"
	}
	file := line("user", "u1", "", `"Review the PR"`) +
		line("assistant", "a1", "m1", `[{"type":"server_tool_use","id":"srvtoolu_1","name":"advisor","input":{}}]`) +
		line("assistant", "a2", "m1", `[{"type":"advisor_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"advisor_result","text":"Read the event bus tests first."}}]`)
	tr, err := ReadFrom("s.jsonl", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || !calls[0].HasResult || calls[0].Result != "Read the event bus tests first." {
		t.Errorf("calls %+v: want the advisor answered by its result", calls)
	}
}
