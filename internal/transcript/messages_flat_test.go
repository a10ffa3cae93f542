package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// Exports that write a line per content block, with their own spelling of the block's fields
// (tool_name, tool_id, output), read as the message list they flatten.
func TestMessagesFlattenedToOneBlockALine(t *testing.T) {
	file := `{"timestamp":"2026-02-25T04:48:20Z","role":"user","content":{"type":"text","text":"clone the repo"}}
{"timestamp":"2026-02-25T04:48:22Z","role":"assistant","content":{"type":"thinking","text":"Run git clone."}}
{"timestamp":"2026-02-25T04:48:23Z","role":"assistant","content":{"type":"tool_use","tool_name":"Bash","tool_id":"toolu_1","input":{"command":"git clone git@github.com:o/r.git"}}}
{"timestamp":"2026-02-25T04:48:26Z","role":"tool","content":{"type":"tool_result","tool_id":"toolu_1","output":"Permission denied (publickey).","is_error":true}}
{"timestamp":"2026-02-25T04:48:32Z","role":"assistant","content":{"type":"text","text":"The clone failed."}}
`
	tr, err := ReadFrom("transcript.jsonl", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	got := describe(tr.Agents[0].Events)
	want := []string{
		`user "clone the repo"`,
		`text[model] "Run git clone."`,
		`call Bash "{\"command\":\"git clone git@github…" => "Permission denied (publickey)." FAILED`,
		`text[model] "The clone failed."`,
	}
	if tr.Format != FormatMessages || !reflect.DeepEqual(got, want) {
		t.Errorf("read as %q:\n%s\nwant:\n%s", tr.Format, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// An export that keeps a subagent's messages in the session's list, under roles
// "assistant-subagent-<id>", reads them as an agent of their own: its task, its calls and their
// results (the same role with a tool_call_id), none of them lost.
func TestMessagesWithASubagentInTheList(t *testing.T) {
	file := `{"messages":[
{"role":"user","content":[{"type":"text","text":"fix the audit issues"}]},
{"role":"assistant","tool_calls":[{"id":"toolu_1","type":"function","function":{"name":"Agent","arguments":"{\"prompt\":\"explore the repo\"}"}}]},
{"role":"assistant-subagent-a0b5","content":[{"type":"text","text":"explore the repo"}],"_metadata":{"source":"subagent","original_role":"user"}},
{"role":"assistant-subagent-a0b5","content":[{"type":"text","text":"Listing files."}],"_metadata":{"source":"subagent","original_role":"assistant"}},
{"role":"assistant-subagent-a0b5","tool_calls":[{"id":"toolu_2","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"ls\"}"}}],"_metadata":{"source":"subagent","original_role":"assistant"}},
{"role":"assistant-subagent-a0b5","tool_call_id":"toolu_2","content":[{"type":"tool_output","text":"src\ntests"}],"_metadata":{"source":"subagent","original_role":"tool"}},
{"role":"tool","tool_call_id":"toolu_1","content":[{"type":"tool_output","text":"The repo has src and tests."}]}],
"meta":{"session_meta":{"session_id":"bfff8ff8","version":"2.1.85"}}}`
	tr, err := ReadFrom("bugfix-1.json", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range tr.Agents {
		got = append(got, a.ID+": "+strings.Join(describe(a.Events), " | "))
	}
	want := []string{
		`main: user "fix the audit issues" | call Agent "{\"prompt\":\"explore the repo\"}" => "The repo has src and tests."`,
		`agent-a0b5: user "explore the repo" | text[model] "Listing files." | call Bash "{\"command\":\"ls\"}" => "src\ntests"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("agents:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Exports of opencode sessions list each call twice in its message (a tool_use block with
// tool_call_id and arguments, and tool_calls): it is one call. A result whose text is a list
// of parts is that text. A subagent whose calls are the main agent's (Claude Code's compaction
// agent replaying the session) is a copy, not an agent.
func TestMessagesExportsReadEachCallOnce(t *testing.T) {
	file := `{"messages":[
{"role":"user","content":[{"type":"text","text":"build it"}]},
{"role":"assistant","content":[{"type":"reasoning","text":"[REDACTED]"},{"type":"tool_use","tool_call_id":"call_1","name":"read","arguments":"{\"filePath\": \"a.py\"}"}],"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"filePath\": \"a.py\"}"}}]},
{"role":"tool","tool_call_id":"call_1","content":[{"type":"tool_output","text":[{"type":"text","text":"print(1)"}]}]},
{"role":"assistant-subagent-acompact-66b3","content":[{"type":"text","text":"summarise"}],"_metadata":{"original_role":"user"}},
{"role":"assistant-subagent-acompact-66b3","tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"filePath\": \"a.py\"}"}}],"_metadata":{"original_role":"assistant"}},
{"role":"assistant-subagent-acompact-66b3","tool_call_id":"call_1","content":[{"type":"tool_output","text":"print(1)"}],"_metadata":{"original_role":"tool"}}]}`
	tr, err := ReadFrom("develop-1.json", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range tr.Agents {
		got = append(got, a.ID+": "+strings.Join(describe(a.Events), " | "))
	}
	want := []string{`main: user "build it" | text[model] "[REDACTED]" | call read "{\"filePath\": \"a.py\"}" => "print(1)"`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("agents:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A tool message may say itself that the tool failed: tau2-bench writes "error": true beside
// the text, AutoGen "is_error". Both a message list read line by line and one found inside a
// results document (tau2's simulations) honour the flag; a false flag, or an error given as
// text by some other format, fails nothing.
func TestMessagesToolErrorFlagFailsTheCall(t *testing.T) {
	const chat = `[{"role":"user","content":"cancel reservation IFOYFZ"},
{"role":"assistant","content":null,"tool_calls":[{"id":"c1","name":"get_reservation_details","arguments":{"reservation_id":"IFOYFZ"}}]},
{"id":"c1","role":"tool","content":"Reservation IFOYFZ not found","requestor":"assistant","error":true},
{"role":"assistant","content":null,"tool_calls":[{"id":"c2","name":"get_user_details","arguments":{"user_id":"emma_kim_9957"}}]},
{"id":"c2","role":"tool","content":"{\"user_id\": \"emma_kim_9957\"}","requestor":"assistant","error":false}]`
	want := []string{
		`user "cancel reservation IFOYFZ"`,
		`call get_reservation_details "{\"reservation_id\":\"IFOYFZ\"}" => "Reservation IFOYFZ not found" FAILED`,
		`call get_user_details "{\"user_id\":\"emma_kim_9957\"}" => "{\"user_id\": \"emma_kim_9957\"}"`,
	}
	lines := strings.ReplaceAll(strings.Trim(chat, "[]"), "},\n{", "}\n{") + "\n"
	for name, doc := range map[string]string{
		"one message a line":        lines,
		"inside a results document": `{"info":{"domain":"airline"},"simulations":[{"id":"s0","messages":` + chat + `}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			tr, err := ReadFrom("run.json", strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
				t.Errorf("read as %q:\n%s\nwant:\n%s", tr.Format, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// An answer kept as the MCP server returned it, a CallToolResult, perhaps inside the content
// item that carried it (MCPMark's logs), is the text of its content, failed when the server
// said isError; any other answer is as written.
func TestMCPCallToolResultsAreReadForTheirTextAndFlag(t *testing.T) {
	inner := `{"meta": null, "content": [{"type": "text", "text": "{\"error\":{\"message\":\"HTTP status 500\"}}"}], "structuredContent": null, "isError": true}`
	wrapped, _ := json.Marshal(map[string]any{"type": "text", "text": inner, "annotations": nil})
	ok := `{"content": [{"type": "text", "text": "3 rows"}], "isError": false}`
	tests := []struct{ name, output, want string }{
		{"wrapped in its content item, failed", string(wrapped), `call execute_sql "{\"query\":\"SELECT 1\"}" => "{\"error\":{\"message\":\"HTTP status…" FAILED`},
		{"bare, succeeded", ok, `call execute_sql "{\"query\":\"SELECT 1\"}" => "3 rows"`},
		{"any other JSON as written", `{"isError_count": 2}`, `call execute_sql "{\"query\":\"SELECT 1\"}" => "{\"isError_count\": 2}"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _ := json.Marshal(tt.output)
			doc := `[{"type":"message","role":"user","content":"count the rows"},` +
				`{"type":"function_call","name":"execute_sql","arguments":"{\"query\":\"SELECT 1\"}","call_id":"c1"},` +
				`{"type":"function_call_output","call_id":"c1","output":` + string(out) + `}]`
			tr, err := ReadFrom("messages.json", strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			var calls []string
			for _, d := range describe(tr.Agents[0].Events) {
				if strings.HasPrefix(d, "call ") {
					calls = append(calls, d)
				}
			}
			if len(calls) != 1 || calls[0] != tt.want {
				t.Errorf("calls %q, want %q", calls, tt.want)
			}
		})
	}
}

// A run that made no message (a simulation tau2-bench's infrastructure failed, "messages": [];
// a BFCL entry whose inference failed, kept as its error and traceback or with "inference_log":
// null) is still a session: the runs
// after it keep their places, as session_index numbers them. A document whose runs are all
// empty is no transcript.
func TestAnEmptyRunKeepsItsPlaceInTheList(t *testing.T) {
	tau2Run := func(id, res string) string {
		return `{"id":"` + id + `","messages":[{"role":"user","content":"look up ` + res + `"},` +
			`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","name":"get_reservation_details","arguments":{"reservation_id":"` + res + `"}}]},` +
			`{"id":"c1","role":"tool","content":"Reservation ` + res + ` found"}]}`
	}
	bfclRun := func(id, folder string) string {
		return `{"id":"` + id + `","result":[[[{"cd":"{}"}]]],"inference_log":[[{"role":"state_info","content":{}}],` +
			`{"begin_of_turn_query":[{"role":"user","content":"go to ` + folder + `"}],` +
			`"step_0":[{"role":"assistant","content":[{"cd":"{\"folder\": \"` + folder + `\"}"}]},{"role":"tool","content":"{}"}]}]}`
	}
	tests := []struct{ name, file, doc, allEmpty string }{
		{"tau2-bench: a simulation with an empty list of messages", "results.json",
			`{"info":{"domain":"airline"},"simulations":[` + tau2Run("s0", "A1") + `,{"id":"s1","termination_reason":"infrastructure_error","messages":[]},` + tau2Run("s2", "C3") + `]}`,
			`{"simulations":[{"id":"s1","messages":[]}]}`},
		{"BFCL: an entry whose inference failed, its error and traceback kept instead of a log", "BFCL_v4_multi_turn_base_result.json",
			bfclRun("multi_turn_base_0", "docs") + "\n" +
				`{"id":"multi_turn_base_1","result":"Error during inference: Error code: 500 - {'error': {'message': 'unexpected tokens'}}","traceback":"Traceback (most recent call last):\n  File \"x.py\""}` + "\n" +
				bfclRun("multi_turn_base_2", "src") + "\n",
			`{"id":"multi_turn_base_1","result":"Error during inference: Error code: 500","traceback":"Traceback"}` + "\n"},
		{"BFCL: an entry whose inference log is null", "BFCL_v4_multi_turn_base_result.json",
			bfclRun("multi_turn_base_0", "docs") + "\n" +
				`{"id":"multi_turn_base_1","result":"Error during inference: Error code: 500","traceback":"Traceback ...","inference_log":null}` + "\n" +
				bfclRun("multi_turn_base_2", "src") + "\n",
			`{"id":"multi_turn_base_1","result":"Error during inference","inference_log":null}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom(tt.file, strings.NewReader(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			var sessions []int
			for _, a := range tr.Agents {
				sessions = append(sessions, a.Session)
			}
			if tr.Sessions != 3 || !reflect.DeepEqual(sessions, []int{0, 2}) {
				t.Errorf("%d sessions, agents in sessions %v; want 3 sessions, agents in 0 and 2", tr.Sessions, sessions)
			}
			if _, err := ReadFrom(tt.file, strings.NewReader(tt.allEmpty)); !errors.Is(err, ErrUnknownFormat) {
				t.Errorf("a document of empty runs: err %v, want ErrUnknownFormat", err)
			}
		})
	}
}

// More ways of logging a chat one message a line, written for this test in their layouts:
// the role as the record's type (Grok CLI's chat_history.jsonl, results as "tool_result"
// records by tool_call_id), OpenAI messages after a version line (Kimi CLI's print mode,
// `--output-format stream-json`; validation round r72c U1), OpenAI messages after a metadata
// record (nanobot's session files) and the message wrapped in a record under a session header
// (Factory's Droid session store).
func TestMessagesLoggedAsTypedOrWrappedRecords(t *testing.T) {
	tests := []struct{ name, log string }{
		{"the role as the record's type", `{"type":"system","content":"You are a CLI coding agent."}
{"type":"user","content":[{"type":"text","text":"run the tests"}],"prompt_index":0}
{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Run them."}]}
{"type":"assistant","content":"Running them.","tool_calls":[{"id":"call-1","name":"run_terminal_cmd","arguments":"{\"command\":\"go test ./...\"}"}]}
{"type":"tool_result","tool_call_id":"call-1","content":"FAIL ./parser"}
`},
		{"Kimi CLI's print mode, its version first", `{"role":"meta","type":"system.version","version":"0.41.0"}
{"role":"user","content":"run the tests"}
{"role":"assistant","content":"Running them.","tool_calls":[{"type":"function","id":"tool_1","function":{"name":"run_terminal_cmd","arguments":"{\"command\":\"go test ./...\"}"}}]}
{"role":"tool","tool_call_id":"tool_1","content":"FAIL ./parser"}
`},
		{"nanobot's session, its metadata record first (validation round r88a U1)", `{"_type": "metadata", "key": "session", "created_at": "2026-05-27T15:49:31.362388", "metadata": {}, "last_consolidated": 0}
{"role": "user", "content": "run the tests", "timestamp": "2026-05-27T15:51:44.360339"}
{"role": "assistant", "content": "Running them.", "timestamp": "2026-05-27T15:51:44.360364", "tool_calls": [{"name": "run_terminal_cmd", "args": {"command": "go test ./..."}, "id": "call_1"}]}
{"role": "tool", "content": "FAIL ./parser", "tool_call_id": "call_1", "timestamp": "2026-05-27T15:51:44.360375", "name": "run_terminal_cmd"}
`},
		{"the message wrapped under a session header", `{"type":"session_start","id":"s1","title":"tests","cwd":"/tmp/p","version":"0.81.0"}
{"type":"message","id":"m1","parentId":"s1","message":{"role":"user","content":[{"type":"text","text":"run the tests"}]}}
{"type":"message","id":"m2","parentId":"m1","message":{"role":"assistant","content":[{"type":"text","text":"Running them."},{"type":"tool_use","id":"tu1","name":"run_terminal_cmd","input":{"command":"go test ./..."}}]}}
{"type":"message","id":"m3","parentId":"m2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":"FAIL ./parser"}]}}
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("session.jsonl", strings.NewReader(tt.log))
			if err != nil {
				t.Fatal(err)
			}
			var calls []string
			users := 0
			for _, e := range tr.Agents[0].Events {
				switch e.Type {
				case loopguard.EventCall:
					calls = append(calls, e.Tool+" "+string(e.Args)+" => "+e.Result)
				case loopguard.EventUser:
					users++
				}
			}
			want := []string{`run_terminal_cmd {"command":"go test ./..."} => FAIL ./parser`}
			if tr.Format != FormatMessages || !reflect.DeepEqual(calls, want) || users != 1 {
				t.Errorf("read as %q: calls %q, %d user turns; want %q and 1", tr.Format, calls, users, want)
			}
		})
	}
}

// A request log that keeps the chat as plain messages (litellm's debug log of a Terminus run)
// holds its calls in the model's answers: a tool-call syntax is read as calls, answered by the
// next message. Code blocks alone are not: a plain chat shows code without running it.
func TestPlainMessagesWithWrittenCalls(t *testing.T) {
	answer := func(keys string) string {
		b, _ := json.Marshal(`{"state_analysis": "At the prompt.", "commands": [{"keystrokes": "` + keys + `\n", "is_blocking": false, "timeout_sec": 3}], "is_task_complete": false}`)
		return string(b)
	}
	terminus := `{"model": "m", "messages": [{"role": "user", "content": "solve the maze"},
{"role": "assistant", "content": ` + answer("./maze_game.sh") + `}, {"role": "user", "content": "> "},
{"role": "assistant", "content": ` + answer("move N") + `}, {"role": "user", "content": "hit wall\n> "}]}`
	tr, err := ReadFrom("debug.json", strings.NewReader(terminus))
	if err != nil {
		t.Fatal(err)
	}
	if calls := tr.Agents[0].Calls(); len(calls) != 2 || calls[1].Tool != "bash_command" || strings.TrimSpace(calls[1].Result) != "hit wall\n>" {
		t.Errorf("Terminus answers in a plain chat: %d calls %+v, want 2 bash_command calls", len(calls), describe(calls))
	}
	chat := `{"messages": [{"role": "user", "content": "how do I list files?"},
{"role": "assistant", "content": "Run:\n` + "```" + `bash\nls -la\n` + "```" + `"}, {"role": "user", "content": "and hidden ones?"},
{"role": "assistant", "content": "Those too:\n` + "```" + `bash\nls -a\n` + "```" + `"}, {"role": "user", "content": "thanks"}]}`
	tr, err = ReadFrom("chat.json", strings.NewReader(chat))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tr.Agents[0].Calls()); n != 0 {
		t.Errorf("a plain chat showing code read as %d calls, want 0", n)
	}
	// mini-swe-agent's early trajectories: a bare message list whose harness answers each
	// command block with its exit status.
	mini := `[{"role": "user", "content": "fix missing_colon.py"},
{"role": "assistant", "content": "Look first.\n` + "```" + `bash\ncat missing_colon.py\n` + "```" + `"},
{"role": "user", "content": "<returncode>1</returncode>\n<output>\ncat: missing_colon.py: No such file or directory\n</output>"},
{"role": "assistant", "content": "List.\n` + "```" + `bash\nls\n` + "```" + `"},
{"role": "user", "content": "<returncode>0</returncode>\n<output>\ntests\n</output>"}]`
	tr, err = ReadFrom("github_issue.traj.json", strings.NewReader(mini))
	if err != nil {
		t.Fatal(err)
	}
	if c := tr.Agents[0].Calls(); len(c) != 2 || !c[0].Failed || c[1].Failed {
		t.Errorf("mini-swe-agent's answered command blocks: %q, want 2 calls, the first failed", describe(c))
	}
}

// An export that writes each tool's answer twice, as the model's message and then as the user
// message that carries it (Harbor's episode exports of OpenClaw runs), holds one answer to
// each written call (validation round r161b U1: such files read with no call).
func TestWrittenCallsAnsweredTwiceAreAnsweredOnce(t *testing.T) {
	doc := `{"task_name": "t", "agent": "openclaw", "conversations": [{"role": "user", "content": "fix the reconciler"},
{"role": "assistant", "content": "<think>Look for Go files.</think>\n<tool_call>\n{\"name\": \"exec\", \"arguments\": {\"command\": \"find . -name '*.go'\"}}\n</tool_call>"},
{"role": "assistant", "content": "(no output)"}, {"role": "user", "content": "(no output)"},
{"role": "assistant", "content": "<tool_call>\n{\"name\": \"exec\", \"arguments\": {\"command\": \"ls -la\"}}\n</tool_call>"},
{"role": "assistant", "content": "total 36\nAGENTS.md"}, {"role": "user", "content": "total 36\nAGENTS.md"},
{"role": "assistant", "content": "<tool_call>\n{\"name\": \"read\", \"arguments\": {\"path\": \"AGENTS.md\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"exec\", \"arguments\": {\"command\": \"pwd\"}}\n</tool_call>"},
{"role": "assistant", "content": "# Agents"}, {"role": "user", "content": "# Agents"},
{"role": "assistant", "content": "/workspace"}, {"role": "user", "content": "/workspace"},
{"role": "assistant", "content": "The workspace holds no Go code. I can clone it with:\n` + "```" + `\ngit clone https://example.com/r.git\n` + "```" + `\nShall I?"}]}`
	tr, err := ReadFrom("episode-057.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`exec {"command":"find . -name '*.go'"} => "(no output)"`, `exec {"command":"ls -la"} => "total 36\nAGENTS.md"`,
		`read {"path":"AGENTS.md"} => "# Agents"`, `exec {"command":"pwd"} => "/workspace"`} // a reply's two calls, answered one a message (r162a U1); the last answer's code block shown, not run (r162a U2)
	var got []string
	for _, c := range tr.Agents[0].Calls() {
		got = append(got, fmt.Sprintf("%s %s => %q", c.Tool, c.Args, c.Result))
	}
	if !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventText && strings.Contains(e.Text, "AGENTS.md") {
			t.Errorf("the answer's copy read as words of %s: %q", e.Source, e.Text)
		}
	}
}

// A tool's answer kept as the JSON of its content items, in a string (Toolathlon's MCP tools),
// reads as its text: line breaks, not the two characters \n.
func TestToolAnswerKeptAsEncodedContentReadsAsItsText(t *testing.T) {
	content, _ := json.Marshal(`{"type":"text","text":"Query executed successfully.\nExecution time: 593ms\nRow 1: 7"}`)
	doc := `{"messages": [{"role": "user", "content": "count the games"},
{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "run_query", "arguments": "{\"query\": \"SELECT 1\"}"}}]},
{"role": "tool", "tool_call_id": "c1", "content": ` + string(content) + `}]}`
	tr, err := ReadFrom("run.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if c := tr.Agents[0].Calls(); len(c) != 1 || c[0].Result != "Query executed successfully.\nExecution time: 593ms\nRow 1: 7" {
		t.Errorf("calls %v, want one answered with the decoded text", describe(c))
	}
}

// OpenHands' evaluation harness answers a reply without a call with a canned message in the
// user's role: it is read as the harness's (Source "harness"), not as a person's turn, so the
// engine can see the model restating itself across it. A person's message stays a plain turn.
func TestHarnessRepromptIsMarkedAsTheHarnesss(t *testing.T) {
	file := `[{"role":"user","content":"Fix the failing test."},
{"role":"assistant","content":"The task is complete."},
{"role":"user","content":"Please continue working on the task on whatever approach you think is suitable.\nIf you think you have solved the task, please first send your answer to user through message and then finish the interaction."},
{"role":"assistant","content":"The task is complete."},
{"role":"user","content":"Which test was it?"}]`
	expectEvents(t, "run.json", file, FormatMessages, []string{
		`user "Fix the failing test."`,
		`text[model] "The task is complete."`,
		`user[harness] "Please continue working on the t…"`,
		`text[model] "The task is complete."`,
		`user "Which test was it?"`,
	})
}

// A Claude Code session exported as a message list keeps what Claude Code injected (a
// background task's notification, a system reminder) in user messages: that is not a
// person's turn.
func TestInjectedTextsInAMessageListAreNotUserTurns(t *testing.T) {
	file := `[{"role":"user","content":"run the build"},
{"role":"assistant","content":"Starting it in the background."},
{"role":"user","content":"<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>"},
{"role":"user","content":"<system-reminder>The todo list is empty.</system-reminder>"},
{"role":"assistant","content":"The build finished."}]`
	expectEvents(t, "develop-1.json", file, FormatMessages, []string{
		`user "run the build"`,
		`text[model] "Starting it in the background."`,
		`text[task-notification] "<task-notification>\n<task-id>b1<…"`,
		`text[system-reminder] "<system-reminder>The todo list i…"`,
		`text[model] "The build finished."`,
	})
}

// A system reminder is only itself: a person's words after its closing tag are the user's
// turn (a memory agent handed each new slice of conversation under a system reminder). A
// task's notification is a whole message of Claude Code's, the line after it its own.
func TestWordsAfterAnInjectedBlockAreTheUsersTurn(t *testing.T) {
	file := `[{"role":"user","content":"<system-reminder>\nYou are a sleeptime agent. Update memory.\n</system-reminder>\n\nMessages:\nassistant: PR #282 merged"},
{"role":"assistant","content":"Noted."},
{"role":"user","content":"<system-reminder>Only a reminder.</system-reminder>\n  \n"},
{"role":"user","content":"<system-reminder>a</system-reminder><system-reminder>b</system-reminder>next task"},
{"role":"user","content":"<task-notification>\n<status>completed</status>\n</task-notification>\nFull transcript available at: /tmp/tasks/ac27727.output"}]`
	expectEvents(t, "develop-1.json", file, FormatMessages, []string{
		`text[system-reminder] "<system-reminder>\nYou are a slee…"`,
		`user "Messages:\nassistant: PR #282 mer…"`,
		`text[model] "Noted."`,
		`text[system-reminder] "<system-reminder>Only a reminder…"`,
		`text[system-reminder] "<system-reminder>a</system-remin…"`,
		`text[system-reminder] "<system-reminder>b</system-remin…"`,
		`user "next task"`,
		`text[task-notification] "<task-notification>\n<status>comp…"`,
	})
}

// An export that writes each of a reply's parallel calls as a message of its own, the results
// after them all: the calls were made together, before the model saw any result, and share
// their reply's Turn. A call after the results is a new reply.
func TestParallelCallsWrittenAsMessagesShareATurn(t *testing.T) {
	call := func(id, cmd string) string {
		return `{"role":"assistant","content":[],"tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"shell","arguments":"{\"command\":\"` + cmd + `\"}"}}]}`
	}
	result := func(id string) string {
		return `{"role":"tool","tool_call_id":"` + id + `","content":"Exit code: 1\nnpm : running scripts is disabled on this system"}`
	}
	file := "[" + strings.Join([]string{`{"role":"user","content":"build it"}`,
		call("a", "npm run test"), call("b", "npm run build"), call("c", "npm run lint"),
		result("a"), result("b"), result("c"), call("d", "npm.cmd run test"), result("d")}, ",") + "]"
	tr, err := ReadFrom("trajectory-2.json", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var turns []string
	for _, c := range tr.Agents[0].Calls() {
		turns = append(turns, c.Turn)
	}
	if len(turns) != 4 || turns[0] == "" || turns[1] != turns[0] || turns[2] != turns[0] || turns[3] == turns[0] {
		t.Errorf("turns %q: want the first three calls in one reply, the fourth in another", turns)
	}
}

// Entire's compact transcripts keep each call's result in the call's own block, with its
// status, and no tool_result follows (validation round r96b U2). A first message longer than
// the window the format is sniffed from (a pasted screenshot) does not change how the file
// is read (U1: it was taken for loopguard's own events and refused).
func TestEntireCompactTranscriptKeepsResultsInTheCall(t *testing.T) {
	doc := `{"v":1,"agent":"claude-code","cli_version":"0.9.0","type":"user","ts":"2026-07-29T14:57:29.446Z","content":[{"id":"u1","text":"why is the build red?"},{"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"IMAGE"}}]}
{"v":1,"agent":"claude-code","cli_version":"0.9.0","type":"assistant","ts":"2026-07-29T14:57:35.000Z","id":"msg_1","content":[{"type":"text","text":"Let me run the build."},{"id":"toolu_1","name":"Bash","input":{"command":"npm run build"},"type":"tool_use","result":{"output":"Error: Cannot find module 'next'","status":"error"}}]}
{"v":1,"agent":"claude-code","cli_version":"0.9.0","type":"assistant","ts":"2026-07-29T14:57:40.000Z","id":"msg_2","content":[{"id":"toolu_2","name":"Read","input":{"file_path":"package.json"},"type":"tool_use","result":{"output":"1\t{\"name\": \"web\"}","status":"success","file":{"filePath":"package.json"}}}]}
`
	want := []string{
		`user "why is the build red?\n[image]"`,
		`text[model] "Let me run the build."`,
		`call Bash "{\"command\":\"npm run build\"}" => "Error: Cannot find module 'next'" FAILED`,
		`call Read "{\"file_path\":\"package.json\"}" => "1\t{\"name\": \"web\"}"`,
	}
	expectEvents(t, "transcript.jsonl", doc, FormatMessages, want)
	long := strings.Replace(doc, "IMAGE", strings.Repeat("/9j/4AAQ", sniffSize/8+1), 1)
	expectEvents(t, "transcript.jsonl", long, FormatMessages, want)
}

// An export that keeps each message's time under "_metadata" gives its events that time; a
// time of another kind there is passed over (r129a U4).
func TestMessagesTimeUnderMetadata(t *testing.T) {
	file := `{"messages":[
{"role":"user","content":[{"type":"text","text":"run the tests"}],"_metadata":{"timestamp":"2026-04-08T12:46:54.669Z"}},
{"role":"assistant","tool_calls":[{"id":"toolu_1","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"npm test\"}"}}],"_metadata":{"timestamp":"2026-04-08T12:46:59.872Z"}},
{"role":"tool","tool_call_id":"toolu_1","content":"ok","_metadata":{"timestamp":1775652420000}}
]}`
	tr, err := ReadFrom("develop-1.json", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || calls[0].Time != 1775652419872 || !calls[0].HasResult {
		t.Errorf("calls %+v: want the call at 1775652419872 ms, answered", calls)
	}
}

// tau-bench's ReAct and Act agents write each call in their text, "Action:" and a JSON
// object {"name", "arguments"}, and the environment answers "API output: ..."; the action
// "respond" speaks to the user, whose reply is no tool's answer (validation round r164a U2:
// such runs read with no call).
func TestTauBenchReActCallsAreReadFromTheText(t *testing.T) {
	doc := `[{"task_id": 7, "reward": 0.0, "info": {}, "trial": 0, "traj": [
{"role": "system", "content": "# Airline Agent Policy"},
{"role": "user", "content": "I want to downgrade my flights."},
{"role": "assistant", "content": "Thought: look the user up first.\nAction:\n{\"name\": \"get_user_details\", \"arguments\": {\"user_id\": \"omar_3817\"}}"},
{"role": "user", "content": "API output: {\"name\": \"Omar\"}"},
{"role": "assistant", "content": "Thought: book it.\nAction:\n{\"name\": \"book_reservation\", \"arguments\": {\"user_id\": \"omar_3817\"}}"},
{"role": "user", "content": "API output: Error: payment amount does not add up"},
{"role": "assistant", "content": "Thought: tell the user.\nAction:\n{\"name\": \"respond\", \"arguments\": {\"content\": \"The payment does not add up.\"}}"},
{"role": "user", "content": "Then cancel it. ###STOP###"}]}]`
	tr, err := ReadFrom("results.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range tr.Agents[0].Calls() {
		got = append(got, fmt.Sprintf("%s %s => %q", c.Tool, c.Args, c.Result))
	}
	want := []string{`get_user_details {"user_id":"omar_3817"} => "{\"name\": \"Omar\"}"`,
		`book_reservation {"user_id":"omar_3817"} => "Error: payment amount does not add up"`}
	if tr.Format != FormatTauBench || !slices.Equal(got, want) {
		t.Errorf("%s: calls %q, want %q", tr.Format, got, want)
	}
	// The simulated user's reply is a user turn, as the task is; the answers are no turns.
	var users []string
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventUser {
			users = append(users, e.Text)
		}
	}
	if want := []string{"I want to downgrade my flights.", "Then cancel it. ###STOP###"}; !slices.Equal(users, want) {
		t.Errorf("user turns %q, want %q", users, want)
	}
}

// A list sorted by time may put a result before its call when the result's stamp is the
// earlier: it is that call's result, not the oldest waiting call's (validation round r253b).
// Where results carry no ids of the calls' kind, they are paired in order as before.
func TestMessagesResultBeforeItsCallIsThatCallsResult(t *testing.T) {
	call := func(id, cmd string) string {
		return fmt.Sprintf(`{"role":"assistant","content":"","tool_calls":[{"id":%q,"type":"function","function":{"name":"Bash","arguments":%q}}]}`, id, `{"command":"`+cmd+`"}`)
	}
	result := func(id, text string) string {
		return fmt.Sprintf(`{"role":"tool","tool_call_id":%q,"content":%q}`, id, text)
	}
	tests := []struct {
		name string
		msgs []string
		want []string
	}{
		{"a result before its call, another call waiting", []string{
			`{"role":"user","content":"build it"}`,
			call("t1", "ls"), result("t1", "src"),
			call("t2", "make"),
			result("t3", "v1.2"), call("t3", "cat VERSION"),
			result("t2", "built"),
		}, []string{
			`user "build it"`,
			`call Bash "{\"command\":\"ls\"}" => "src"`,
			`call Bash "{\"command\":\"make\"}" => "built"`,
			`call Bash "{\"command\":\"cat VERSION\"}" => "v1.2"`,
		}},
		{"a result whose call never comes is the tool's words", []string{
			`{"role":"user","content":"build it"}`,
			call("t1", "ls"), result("t1", "src"),
			result("t9", "stray"),
		}, []string{
			`user "build it"`,
			`call Bash "{\"command\":\"ls\"}" => "src"`,
			`text[tool] "stray"`,
		}},
		{"results with ids of another kind are paired in order", []string{
			`{"role":"user","content":"build it"}`,
			call("t1", "ls"), result("r1", "src"),
			call("t2", "make"), result("r2", "built"),
		}, []string{
			`user "build it"`,
			`call Bash "{\"command\":\"ls\"}" => "src"`,
			`call Bash "{\"command\":\"make\"}" => "built"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := `{"messages":[` + strings.Join(tt.msgs, ",") + `]}`
			tr, err := ReadFrom("session.json", strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
