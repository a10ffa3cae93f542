package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

const ohDir = "testdata/openhands/llm_completions/django__django-1"

func ohDumps(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(ohDir, "*.json"))
	if err != nil || len(files) != 3 {
		t.Fatalf("fixture dumps: %v %v", files, err)
	}
	sort.Strings(files)
	return files
}

func TestOpenHandsDumpPrefersStructuredCalls(t *testing.T) {
	last := ohDumps(t)[2]
	tr, err := Read(last)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatOpenHandsCompletion {
		t.Fatalf("format %q", tr.Format)
	}
	if !strings.Contains(tr.Note, "fncall_messages") {
		t.Errorf("note %q does not say the structured form was read", tr.Note)
	}
	got := describe(tr.Agents[0].Events)
	want := []string{
		`text[system] "You are OpenHands agent, a helpf…"`,
		`user "<uploaded_files>/workspace/djang…"`,
		`text[model] "Let me look around."`,
		`call execute_bash "{\"command\": \"ls /workspace/djang…" => "AUTHORS\ndjango\ntests"`,
		`text[model] "Run the test."`,
		`call execute_bash "{\"command\": \"python -m pytest te…" => "1 failed"`,
		`text[model] "Read the file."`,
		`call str_replace_editor "{\"command\": \"view\", \"path\": \"/wo…" => -`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	u := tr.Usage
	if u.InputTokens != 500 || u.CacheReadTokens != 400 || u.CacheWriteTokens != 100 || u.OutputTokens != 50 || u.CostUSD != 0.01 {
		t.Errorf("usage %+v", u)
	}
}

func TestOpenHandsDumpWithOnlyTextCallsIsParsed(t *testing.T) {
	tr, err := Read("testdata/openhands/text-only-dump.json")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatOpenHandsCompletion || !strings.Contains(tr.Note, "text") {
		t.Fatalf("format %q, note %q", tr.Format, tr.Note)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 3 {
		t.Fatalf("%d calls, want 3", len(calls))
	}
	if string(calls[2].Args) != `{"command":"view","path":"/workspace/django/a.py"}` {
		t.Errorf("text-encoded arguments read as %s", calls[2].Args)
	}
	if !calls[1].HasResult || calls[1].Result != "1 failed" {
		t.Errorf("the EXECUTION RESULT message is not the call's result: %+v", calls[1])
	}
	for _, e := range tr.Agents[0].Events {
		if strings.HasPrefix(e.Text, "EXECUTION RESULT") {
			t.Errorf("a tool result read as text: %+v", e)
		}
	}
}

func TestTextCallsCutAtTheStopWordStillCount(t *testing.T) {
	m := textCalls(msg{Role: "assistant", Content: "Check.\n<function=execute_bash>\n<parameter=command>\nls -la\n</parameter>\n"})
	if len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Name != "execute_bash" ||
		string(rawArgs(m.ToolCalls[0].Function.Arguments)) != `{"command":"ls -la"}` || m.Content != "Check." {
		t.Errorf("got %+v", m)
	}
}

func TestTextCallBlockWithoutAFunctionNameIsAnAttemptThatCallsNothing(t *testing.T) {
	content := "Let me run the script:<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>execute_bash\n" +
		"<parameter=cmd>python reproduce_issue.py</parameter>\n</function><｜tool▁call▁end｜><｜tool▁calls▁end｜>\n<function=>\n</function>"
	m := textCalls(msg{Role: "assistant", Content: content})
	if len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Name != noActionTool {
		t.Errorf("calls %+v, want one named %q", m.ToolCalls, noActionTool)
	}
	if !strings.HasPrefix(contentText(m.Content), "Let me run the script:") {
		t.Errorf("content %q lost the reply's words", m.Content)
	}
}

func TestDumpsOfOneConversationMergeIntoOneSession(t *testing.T) {
	files := ohDumps(t)
	var parts []*CompletionPart
	for _, i := range []int{2, 0, 1} { // out of order: merged in time order
		tr, err := Read(files[i])
		if err != nil {
			t.Fatal(err)
		}
		if i != 0 {
			tr.Completion.Trim() // only the earliest dump's history is needed
		}
		parts = append(parts, tr.Completion)
	}
	m := MergeCompletions(ohDir, parts)
	if m.Sessions != 1 || len(m.Agents) != 1 {
		t.Fatalf("%d sessions, %d agents", m.Sessions, len(m.Agents))
	}
	last, _ := Read(files[2])
	if got, want := describe(m.Agents[0].Events), describe(last.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("merged:\n%s\nthe last dump alone:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if m.Usage.CostUSD < 0.0299 || m.Usage.CostUSD > 0.0301 {
		t.Errorf("cost %v, want the three dumps' 0.03", m.Usage.CostUSD)
	}
}

func TestOpenHandsDumpDamaged(t *testing.T) {
	data, err := os.ReadFile(ohDumps(t)[1])
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "cut.json")
	os.WriteFile(p, data[:len(data)/2], 0o644)
	if _, err := Read(p); err == nil || !strings.HasPrefix(err.Error(), p+":") {
		t.Errorf("a truncated dump: %v", err)
	}
}

// The OpenHands SDK logs completions in the dump's shape; with function calling mocked,
// messages holds the calls as text and raw_messages the same history with tool_calls, while
// response is already structured. A real log (testdata/real, OpenHands/software-agent-sdk's
// own test data): the history's calls were missed when messages was read.
func TestOpenHandsSDKDumpReadsRawMessages(t *testing.T) {
	tr := mustRead(t, "testdata/real/openhands-completion/sdk-nonfncall/litellm_proxy__deepseek__deepseek-chat-1757015076.651.json.gz")
	if tr.Format != FormatOpenHandsCompletion || !strings.Contains(tr.Note, "raw_messages") {
		t.Fatalf("format %q, note %q", tr.Format, tr.Note)
	}
	got := describe(tr.Agents[0].Events)
	want := []string{
		`text[system] "You are OpenHands agent, a helpf…"`,
		`user "Hello! Can you create a new Pyth…"`,
		`text[model] "I'll create a new Python file na…"`,
		`call terminal "{\"command\": \"pwd && ls -la\", \"se…" => "/Users/xingyaow/Projects/OpenHan…"`,
		`text[model] "I can see there's already a hell…"`,
		`call str_replace_editor "{\"command\": \"view\", \"path\": \"/Us…" => "Here's the result of running ` + "`" + `ca…"`,
		`text[model] "Perfect! The hello.py file alrea…"`,
		`call terminal "{\"command\": \"python hello.py\", \"…" => "Hello, World!\n[The command compl…"`,
		`call finish "{\"message\": \"The hello.py file a…" => -`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if u := tr.Usage; u.OutputTokens != 79 || u.CacheReadTokens != 9024 || u.CostUSD != 0.00076718 {
		t.Errorf("usage %+v", u)
	}
}

// OpenHands' releases of 2024 (OpenDevin) kept the history as [action, observation] pairs, in
// evaluation output and saved trajectories alike; an observation that names no cause answers
// the action of its pair.
func TestOpenHandsHistoryOfPairs(t *testing.T) {
	pair := func(id int, cmd, out string, cause bool, code int) string {
		c := ""
		if cause {
			c = fmt.Sprintf(`"cause": %d, `, id)
		}
		return fmt.Sprintf(`[{"id": %d, "source": "agent", "action": "run", "args": {"command": %q, "thought": "look"}}, {"id": %d, %s"source": "agent", "observation": "run", "content": %q, "extras": {"exit_code": %d}}]`,
			id, cmd, id+1, c, out, code)
	}
	// exit code -1: the command has not exited (a server still running), not a failure
	history := "[" + pair(1, "grep -rn foo .", "no matches", true, 1) + ", " + pair(3, "grep -rn foo .", "no matches", false, 1) + ", " +
		pair(5, "python3 -m http.server", "Serving HTTP on 0.0.0.0 port 8000", false, -1) + "]"
	want := []string{`text[model] "look"`, `call run "{\"command\":\"grep -rn foo .\"}" => "no matches" FAILED`,
		`text[model] "look"`, `call run "{\"command\":\"grep -rn foo .\"}" => "no matches" FAILED`,
		`text[model] "look"`, `call run "{\"command\":\"python3 -m http.serv…" => "Serving HTTP on 0.0.0.0 port 800…"`}
	for _, f := range []struct{ name, doc string }{
		{"output.jsonl", `{"instance_id": "x__y-1", "instruction": "fix", "history": ` + history + "}\n"},
		{"trajectory.json", history},
	} {
		tr, err := ReadFrom(f.name, strings.NewReader(f.doc))
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if got := describe(tr.Agents[0].Events); tr.Format != FormatOpenHands || !reflect.DeepEqual(got, want) {
			t.Errorf("%s read as %s:\n got %q\nwant %q", f.name, tr.Format, got, want)
		}
	}
}

// OpenHands' GitHub issue resolver (mid-2024) saved each record's history with the events'
// fields at their top level: no args, no extras, no id, cause or source. The first message
// is the task; an action's arguments are its fields; an observation answers the latest call of
// its kind, its exit code at the top level too.
func TestOpenHandsResolverOutputWithFlatEvents(t *testing.T) {
	const record = `{"issue": {"owner": "o", "repo": "r", "number": 1, "title": "Add dark mode"}, "instruction": "Please fix the issue.", "success": false, "error": null, "history": [
 {"content": "Please fix the issue.", "images_urls": null, "wait_for_response": false, "action": "message", "action_risk": null},
 {"command": "ls /workspace", "thought": "Look around first.", "keep_prompt": true, "action": "run", "is_confirmed": "confirmed", "action_risk": null},
 {"content": "src\r\n", "command_id": -1, "command": "ls /workspace", "exit_code": 0, "observation": "run"},
 {"code": "open_file('/workspace/src/App.tsx')", "thought": "", "action": "run_ipython", "is_confirmed": "confirmed", "action_risk": null, "kernel_init_code": "from agentskills import *"},
 {"content": "[File: /workspace/src/App.tsx (14 lines total)]", "code": "open_file('/workspace/src/App.tsx')", "observation": "run_ipython"},
 {"command": "npm test", "thought": "", "keep_prompt": true, "action": "run", "is_confirmed": "confirmed", "action_risk": null},
 {"content": "1 failed", "command_id": -1, "command": "npm test", "exit_code": 1, "observation": "run"}
]}
`
	tr, err := ReadFrom("output.jsonl", strings.NewReader(record))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatOpenHands || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want openhands with one", tr.Format, len(tr.Agents))
	}
	want := []string{
		`user "Please fix the issue."`,
		`text[model] "Look around first."`,
		`call run "{\"command\":\"ls /workspace\"}" => "src\r\n"`,
		`call run_ipython "{\"code\":\"open_file('/workspace/s…" => "[File: /workspace/src/App.tsx (1…"`,
		`call run "{\"command\":\"npm test\"}" => "1 failed" FAILED`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("got %s\nwant %s", strings.Join(got, "\n    "), strings.Join(want, "\n     "))
	}
}

// In a flat history a browse_interactive action is answered by an observation of kind
// "browse" (review r41).
func TestOpenHandsFlatBrowseGetsItsObservation(t *testing.T) {
	const record = `{"issue": {"owner": "o", "repo": "r", "number": 1, "title": "Fix the docs link"}, "instruction": "Please fix the issue.", "success": false, "error": null, "history": [
 {"content": "Please fix the issue.", "images_urls": null, "wait_for_response": false, "action": "message", "action_risk": null},
 {"browser_actions": "goto(\"http://localhost:3000/docs\")", "thought": "Open the page.", "browsergym_send_msg_to_user": "", "action": "browse_interactive", "is_confirmed": "confirmed", "action_risk": null},
 {"content": "404 Not Found", "url": "http://localhost:3000/docs", "status_code": 404, "error": false, "observation": "browse"},
 {"content": "", "agent_state": "finished", "observation": "agent_state_changed"}
]}
`
	tr, err := ReadFrom("output.jsonl", strings.NewReader(record))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || !calls[0].HasResult || calls[0].Result != "404 Not Found" {
		t.Errorf("calls %+v, want browse_interactive answered \"404 Not Found\"", calls)
	}
}

// OpenHands reports a call it refused before it ran (a required parameter missing) in a user
// message ending "[Error occurred in processing last action]", and its dump keeps that message
// alone: each stands for a failed attempt at the tool it names, not a person's turn; an error
// that names no tool is the harness speaking (validation round r56c M1).
func TestOpenHandsRefusedCallsAreFailedAttempts(t *testing.T) {
	refusal := `"\n\nMissing required parameters for function 'str_replace_editor': {'security_risk'}\n[Error occurred in processing last action]"`
	doc := `{"messages": [
	  {"role": "system", "content": "You are OpenHands agent."},
	  {"role": "user", "content": "Fix the bug in query.py"},
	  {"role": "assistant", "content": "Let me look.", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "execute_bash", "arguments": "{\"command\": \"ls\"}"}}]},
	  {"role": "tool", "tool_call_id": "c1", "content": "query.py"},
	  {"role": "user", "content": ` + refusal + `},
	  {"role": "user", "content": ` + refusal + `},
	  {"role": "user", "content": "Tool browse_web is not registered. Please check the tool name.\n[Error occurred in processing last action]"},
	  {"role": "user", "content": "The runtime restarted.\n[Error occurred in processing last action]"},
	  {"role": "assistant", "content": "Editing again.", "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "str_replace_editor", "arguments": "{\"command\": \"view\"}"}}]},
	  {"role": "user", "content": ` + refusal + `}
	], "response": {"choices": [{"message": {"role": "assistant", "content": "Done."}}]}, "timestamp": 1767715183.29}`
	expectEvents(t, "dump.json", doc, FormatOpenHandsCompletion, []string{
		`text[system] "You are OpenHands agent."`,
		`user "Fix the bug in query.py"`,
		`text[model] "Let me look."`,
		`call execute_bash "{\"command\": \"ls\"}" => "query.py"`,
		`call str_replace_editor "{\"refused_attempt\":1}" => "Missing required parameters for …" FAILED`,
		`call str_replace_editor "{\"refused_attempt\":2}" => "Missing required parameters for …" FAILED`,
		`call browse_web "{\"refused_attempt\":3}" => "Tool browse_web is not registere…" FAILED`,
		`user[harness] "The runtime restarted.\n[Error oc…"`,
		`text[model] "Editing again."`,
		`call str_replace_editor "{\"command\": \"view\"}" => "Missing required parameters for …" FAILED`,
		`text[model] "Done."`,
	})
}

func TestRefusedCallTool(t *testing.T) {
	tests := []struct{ body, want string }{
		{"Missing required parameters for function 'str_replace_editor': {'security_risk'}", "str_replace_editor"},
		{`Missing required argument "command" in tool call execute_bash`, "execute_bash"},
		{"Tool think is not registered. (arguments: {}). Please check the tool name.", "think"},
		{"Missing required parameters for function 'bad name': {}", ""},
		{"The runtime restarted.", ""},
		{"Tool  is not registered", ""},
	}
	for _, tt := range tests {
		if got := refusedCallTool(tt.body); got != tt.want {
			t.Errorf("refusedCallTool(%q) = %q, want %q", tt.body, got, tt.want)
		}
	}
}

// A refusal answers only the call it stands for: not an older call still unanswered, nor a
// call of another tool the reply before it made (review r20 L1).
func TestOpenHandsRefusalAnswersOnlyItsOwnCall(t *testing.T) {
	refusal := `"Missing required parameters for function 'str_replace_editor': {'security_risk'}\n[Error occurred in processing last action]"`
	doc := `{"messages": [
	  {"role": "user", "content": "Fix the bug"},
	  {"role": "assistant", "content": "Start the server.", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "execute_bash", "arguments": "{\"command\": \"serve\"}"}}]},
	  {"role": "user", "content": ` + refusal + `},
	  {"role": "tool", "tool_call_id": "c1", "content": "listening on :8000"}
	], "response": {"choices": [{"message": {"role": "assistant", "content": "Done."}}]}, "timestamp": 1767715183.29}`
	expectEvents(t, "dump.json", doc, FormatOpenHandsCompletion, []string{
		`user "Fix the bug"`,
		`text[model] "Start the server."`,
		`call execute_bash "{\"command\": \"serve\"}" => "listening on :8000"`,
		`call str_replace_editor "{\"refused_attempt\":1}" => "Missing required parameters for …" FAILED`,
		`text[model] "Done."`,
	})
}

// The resolver of 2025 keeps a flat observation's exit code in its metadata, and writes
// OpenHands' own "Please continue working on the task…" as a message like the model's
// (validation round r102b U1, U2): the command failed, and the reprompt is the harness's.
func TestOpenHandsFlatEventsOf2025(t *testing.T) {
	const record = `{"issue": {"owner": "o", "repo": "r", "number": 2, "title": "Hello world in Go"}, "instruction": "Please fix the issue.", "success": true, "error": null, "history": [
 {"content": "Please fix the issue.", "image_urls": null, "wait_for_response": false, "action": "message", "security_risk": null},
 {"command": "go test ./...", "is_input": false, "thought": "", "blocking": false, "is_static": false, "cwd": null, "hidden": false, "action": "run", "confirmation_state": "confirmed", "security_risk": null},
 {"content": "directory . outside main module", "command": "go test ./...", "observation": "run", "metadata": {"exit_code": 1, "pid": -1, "working_dir": "/workspace", "suffix": "\n[The command completed with exit code 1.]"}, "hidden": false},
 {"content": "I created the program.", "image_urls": null, "wait_for_response": true, "action": "message", "security_risk": null},
 {"content": "Please continue working on the task on whatever approach you think is suitable.\nIf you think you have solved the task, please first send your answer to user through message and then finish the interaction.\nIMPORTANT: YOU SHOULD NEVER ASK FOR HUMAN HELP.\n", "image_urls": null, "wait_for_response": false, "action": "message", "security_risk": null}
]}
`
	tr, err := ReadFrom("output.jsonl", strings.NewReader(record))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`user "Please fix the issue."`,
		`call run "{\"command\":\"go test ./...\",\"cwd\"…" => "directory . outside main module" FAILED`,
		`text[model] "I created the program."`,
		`user[harness] "Please continue working on the t…"`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("got %s\nwant %s", strings.Join(got, "\n    "), strings.Join(want, "\n    "))
	}
}

// An instance run once more writes a second conversation's dumps into the same folder: each
// conversation is a session of its own, not the second attempt's calls made again in the first
// (validation round r199b).
func TestAConversationBegunAgainInTheFolderIsAnotherSession(t *testing.T) {
	files := ohDumps(t)
	var parts []*CompletionPart
	for attempt := range 2 {
		for i := range files {
			tr, err := Read(files[i])
			if err != nil {
				t.Fatal(err)
			}
			tr.Completion.time += float64(attempt) * 1000 // the second attempt came after the first
			if i != 0 {
				tr.Completion.Trim()
			}
			parts = append(parts, tr.Completion)
		}
	}
	m := MergeCompletions(ohDir, parts)
	if m.Sessions != 2 || len(m.Agents) != 2 {
		t.Fatalf("%d sessions, %d agents, want 2 and 2", m.Sessions, len(m.Agents))
	}
	last, _ := Read(files[2])
	for k, a := range m.Agents {
		if a.Session != k {
			t.Errorf("agent %d in session %d", k, a.Session)
		}
		if got, want := describe(a.Events), describe(last.Agents[0].Events); !reflect.DeepEqual(got, want) {
			t.Errorf("conversation %d:\n%s\nthe last dump alone:\n%s", k, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if m.Usage.CostUSD < 0.0599 || m.Usage.CostUSD > 0.0601 {
		t.Errorf("cost %v, want the six dumps' 0.06", m.Usage.CostUSD)
	}
}
