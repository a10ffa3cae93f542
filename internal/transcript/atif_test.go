package transcript

import (
	"reflect"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// Harbor's conversion of a Claude Code session keeps Claude Code's fields in each step's extra:
// a subagent's steps (is_sidechain) are an agent of their own, and a tool result Claude Code
// marked as an error fails its call. The message the conversion writes for a step that only
// made a call ("Executed Bash toolu_2") is not the model's.
func TestATIFOfAClaudeCodeSessionKeepsSubagentsAndErrors(t *testing.T) {
	doc := `{"schema_version": "ATIF-v1.2", "session_id": "s", "agent": {"name": "claude-code", "model_name": "m"}, "steps": [
  {"step_id": 1, "source": "user", "message": "fix the race"},
  {"step_id": 2, "source": "agent", "message": "Executed Read toolu_1",
   "tool_calls": [{"tool_call_id": "toolu_1", "function_name": "Read", "arguments": {"file_path": "/workspace"}}],
   "observation": {"results": [{"source_call_id": "toolu_1", "content": "EISDIR: illegal operation on a directory, read\n\n[error] tool reported failure"}]},
   "extra": {"is_sidechain": true, "tool_result_is_error": true}},
  {"step_id": 3, "source": "agent", "message": "Executed Bash toolu_2",
   "tool_calls": [{"tool_call_id": "toolu_2", "function_name": "Bash", "arguments": {"command": "pytest -q"}}],
   "observation": {"results": [{"source_call_id": "toolu_2", "content": "Exit code 1\n2 failed"}]},
   "extra": {"is_sidechain": false, "tool_result_metadata": {"is_error": true}}},
  {"step_id": 4, "source": "agent", "message": "Done.",
   "tool_calls": [{"tool_call_id": "toolu_3", "function_name": "Bash", "arguments": {"command": "ls"}}],
   "observation": {"results": [{"source_call_id": "toolu_3", "content": "a.py"}]},
   "extra": {"is_sidechain": false}}
]}`
	tr, err := ReadFrom("trajectory.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, a := range tr.Agents {
		got[a.ID] = describe(a.Events)
	}
	want := map[string][]string{
		"main": {`user "fix the race"`, `call Bash "{\"command\":\"pytest -q\"}" => "Exit code 1\n2 failed" FAILED`,
			`text[model] "Done."`, `call Bash "{\"command\":\"ls\"}" => "a.py"`},
		"sidechain": {`call Read "{\"file_path\":\"/workspace\"}" => "EISDIR: illegal operation on a d…" FAILED`},
	}
	if tr.Format != FormatATIF || len(got) != 2 || strings.Join(got["main"], "\n") != strings.Join(want["main"], "\n") ||
		strings.Join(got["sidechain"], "\n") != strings.Join(want["sidechain"], "\n") {
		t.Errorf("read as %s:\n%q\nwant:\n%q", tr.Format, got, want)
	}
}

// Harbor's conversion of a Claude Code session leaves out the observation of a command that
// printed nothing, and keeps Claude Code's own tool_result block in the step's extra: the call
// was answered, empty, and a sleep sent again is a wait that came back, not a call never answered.
func TestATIFEmptyAnswerKeptOnlyInExtraIsAnAnswer(t *testing.T) {
	doc := `{"schema_version": "ATIF-v1.2", "session_id": "s", "agent": {"name": "claude-code", "model_name": "m"}, "steps": [
  {"step_id": 1, "source": "agent", "message": "Executed Bash toolu_1",
   "tool_calls": [{"tool_call_id": "toolu_1", "function_name": "Bash", "arguments": {"command": "sleep 3"}}],
   "extra": {"is_sidechain": false, "tool_result_is_error": false, "tool_result_metadata": {"tool_use_result": {"stdout": "", "stderr": ""},
     "raw_tool_result": {"tool_use_id": "toolu_1", "type": "tool_result", "content": "", "is_error": false}}}},
  {"step_id": 2, "source": "agent", "message": "Executed Bash toolu_2",
   "tool_calls": [{"tool_call_id": "toolu_2", "function_name": "Bash", "arguments": {"command": "false"}}],
   "extra": {"tool_result_is_error": true, "tool_result_metadata": {"raw_tool_result": {"type": "tool_result", "content": "", "is_error": true}}}},
  {"step_id": 3, "source": "agent", "message": "Executed Bash toolu_3",
   "tool_calls": [{"tool_call_id": "toolu_3", "function_name": "Bash", "arguments": {"command": "make"}}]}
]}`
	tr, err := ReadFrom("trajectory.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`call Bash "{\"command\":\"sleep 3\"}" => ""`, `call Bash "{\"command\":\"false\"}" => "" FAILED`,
		`call Bash "{\"command\":\"make\"}" => -`}
	if len(tr.Agents) != 1 {
		t.Fatalf("read %d agents, want 1", len(tr.Agents))
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("read as %q, want %q", got, want)
	}
}

// Harbor's conversion of an OpenClaw session writes each tool result as a step of its own,
// naming its call in extra.tool_call_id, with the command's exit code: the result belongs to
// its call, and is not the model's words.
func TestATIFOfAnOpenClawSessionAnswersCallsFromLaterSteps(t *testing.T) {
	doc := `{"schema_version": "ATIF-v1.6", "session_id": "s", "agent": {"name": "openclaw"}, "steps": [
  {"step_id": 1, "source": "user", "message": "fix the DHCP options"},
  {"step_id": 2, "source": "agent", "message": "Looking around.", "tool_calls": [
    {"tool_call_id": "t1", "function_name": "exec", "arguments": {"command": "ls /workspace"}},
    {"tool_call_id": "t2", "function_name": "exec", "arguments": {"command": "go build ./..."}}],
   "extra": {"openclaw_role": "assistant"}},
  {"step_id": 3, "source": "agent", "message": "AGENTS.md", "observation": {"results": [{"content": "AGENTS.md"}]},
   "extra": {"openclaw_role": "toolResult", "tool_call_id": "t1", "exec_exit_code": 0, "exec_status": "completed"}},
  {"step_id": 4, "source": "agent", "message": "no Go files", "extra": {"openclaw_role": "toolResult", "tool_call_id": "t2", "exec_exit_code": 1, "exec_status": "completed"}},
  {"step_id": 5, "source": "agent", "message": "", "tool_calls": [{"tool_call_id": "t3", "function_name": "read", "arguments": {}}], "extra": {"openclaw_role": "assistant"}},
  {"step_id": 6, "source": "agent", "message": "Validation failed for tool read: path is required", "extra": {"openclaw_role": "toolResult", "tool_call_id": "t3", "is_error": true}}
]}`
	tr := expectEvents(t, "trajectory.json", doc, FormatATIF, []string{
		`user "fix the DHCP options"`,
		`text[model] "Looking around."`,
		`call exec "{\"command\":\"ls /workspace\"}" => "AGENTS.md"`,
		`call exec "{\"command\":\"go build ./...\"}" => "no Go files" FAILED`,
		`call read "{}" => "Validation failed for tool read:…" FAILED`,
	})
	// The calls of one step were made together: one reply.
	calls := tr.Agents[0].Calls()
	if calls[0].Turn == "" || calls[1].Turn != calls[0].Turn || calls[2].Turn == calls[0].Turn {
		t.Errorf("turns %q %q %q: want the first two calls in one reply, the third in another", calls[0].Turn, calls[1].Turn, calls[2].Turn)
	}
}

// A step marked as a subagent's that answers a call of the main agent answers that call: it is
// not looked up among the subagent's calls (where its index means another call, or none).
func TestATIFAnswerStepOfAnotherAgent(t *testing.T) {
	doc := `{"schema_version": "ATIF-v1.6", "steps": [
  {"step_id": 1, "source": "agent", "message": "", "tool_calls": [{"tool_call_id": "t1", "function_name": "exec", "arguments": {"command": "ls"}}]},
  {"step_id": 2, "source": "agent", "message": "a.py", "extra": {"is_sidechain": true, "tool_call_id": "t1", "exec_exit_code": 0}}
]}`
	expectEvents(t, "trajectory.json", doc, FormatATIF, []string{`call exec "{\"command\":\"ls\"}" => "a.py"`})
}

// A trajectory joined from a checkpoint and its session holds its steps twice: the same call
// ids, the same prompt at the same time, the answers cut short the second time. The copies
// are not calls made again, and the first answer of a call stands (validation round r59d U1:
// a run of 79 calls read as 140).
func TestATIFStepsCopiedFromACheckpointAreReadOnce(t *testing.T) {
	doc := `{"schema_version": "ATIF-v1.6", "steps": [
  {"step_id": 1, "source": "user", "timestamp": "2026-04-11T11:17:00Z", "message": "fix the registry"},
  {"step_id": 2, "source": "agent", "timestamp": "2026-04-11T11:17:33Z", "message": "Looking.", "tool_calls": [{"tool_call_id": "t1", "function_name": "exec", "arguments": {"command": "ls"}}]},
  {"step_id": 3, "source": "agent", "timestamp": "2026-04-11T11:17:47Z", "message": "a.go\nb.go", "extra": {"tool_call_id": "t1", "exec_exit_code": 0}},
  {"step_id": 4, "source": "user", "timestamp": "2026-04-11T11:17:00Z", "message": "fix the registry"},
  {"step_id": 5, "source": "agent", "timestamp": "2026-04-11T11:17:33Z", "message": "Looking.", "tool_calls": [{"tool_call_id": "t1", "function_name": "exec", "arguments": {"command": "ls"}}]},
  {"step_id": 6, "source": "agent", "timestamp": "2026-04-11T11:17:47Z", "message": "a.go [... 4 more characters truncated]", "extra": {"tool_call_id": "t1", "exec_exit_code": 0}},
  {"step_id": 7, "source": "agent", "timestamp": "2026-04-11T11:18:02Z", "message": "", "tool_calls": [{"tool_call_id": "t2", "function_name": "exec", "arguments": {"command": "ls"}}]},
  {"step_id": 8, "source": "agent", "timestamp": "2026-04-11T11:18:03Z", "message": "a.go\nb.go", "extra": {"tool_call_id": "t2", "exec_exit_code": 0}},
  {"step_id": 9, "source": "user", "timestamp": "2026-04-11T11:19:00Z", "message": "fix the registry"}
]}`
	expectEvents(t, "trajectory.json", doc, FormatATIF, []string{
		`user "fix the registry"`,
		`text[model] "Looking."`,
		`call exec "{\"command\":\"ls\"}" => "a.go\nb.go"`,
		`call exec "{\"command\":\"ls\"}" => "a.go\nb.go"`, // a new call: the same command, its own id
		`user "fix the registry"`,                          // the same words at another time: said again
	})
}

// A Terminus turn kept only as the model's text (its JSON answer), the screen after it as the
// user's step, is the one call its answer makes, answered by that screen, as in a chat
// transcript; and a JSON list of such trajectories (a dataset's rows dumped together) is one
// session each (validation round r60a U2, U3: five Terminus-2 runs, 34 turns, read as none).
func TestATIFTerminusTurnsInTheModelsTextAndAListOfTrajectories(t *testing.T) {
	run := func(id, cmd string) string {
		return `{"schema_version": "ATIF-v1.4", "session_id": "` + id + `", "agent": {"name": "terminus-2", "model_name": "GLM-4.6"}, "steps": [
  {"step_id": 1, "source": "user", "message": "Count the files in /data."},
  {"step_id": 2, "source": "agent", "message": "{\"analysis\": \"Nothing done yet.\", \"plan\": \"List it.\", \"commands\": [{\"keystrokes\": \"` + cmd + `\\n\", \"duration\": 0.1}], \"task_complete\": false}"},
  {"step_id": 3, "source": "user", "message": "New Terminal Output:\nroot@box:/data# ` + cmd + `\n3\n"},
  {"step_id": 4, "source": "agent", "message": "{\"analysis\": \"Three files.\", \"plan\": \"Done.\", \"commands\": [], \"task_complete\": true}"}
]}`
	}
	tr, err := ReadFrom("sample-trajectories.json", strings.NewReader("["+run("a", "ls | wc -l")+",\n"+run("b", "find . -type f | wc -l")+"]"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatATIF || len(tr.Agents) != 2 {
		t.Fatalf("read as %q with %d agents, want atif with one agent in each of 2 sessions", tr.Format, len(tr.Agents))
	}
	want := []string{
		`user "Count the files in /data."`,
		`text[model] "{\"analysis\": \"Nothing done yet.\"…"`,
		`call bash_command "[{\"keystrokes\":\"ls | wc -l\\n\",\"d…" => "New Terminal Output:\nroot@box:/d…"`,
		`text[model] "{\"analysis\": \"Three files.\", \"pl…"`,
		`call mark_task_complete "{}" => -`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// A writer that names its calls as a chat API does ({"id", "name", "arguments"}) names them
// all the same (validation round r60a U1).
func TestATIFCallsNamedAsInAChatAPI(t *testing.T) {
	doc := `{"schema_version": "1.4", "steps": [
  {"step_id": 1, "source": "agent", "message": "", "tool_calls": [{"id": "toolu_1", "name": "Bash", "arguments": {"command": "mkdir /app"}}],
   "observation": {"results": [{"source_call_id": "toolu_1", "content": "mkdir: cannot create directory '/app': Permission denied", "is_error": true}]}}
]}`
	expectEvents(t, "trajectory.json", doc, FormatATIF, []string{
		`call Bash "{\"command\":\"mkdir /app\"}" => "mkdir: cannot create directory '…" FAILED`,
	})
}

// A document with a schema_version, an "agent" that is a name and a list of messages is a
// conversation of another schema, not ATIF (mini-swe-agent's canonical_conversation_v1
// exports; validation round r104b U1), and a "<returncode>" the command's output opens with
// says whether it failed (U2).
func TestACanonicalConversationIsNoATIF(t *testing.T) {
	const doc = `{"schema_version": "1.0", "trajectory_format": "canonical_conversation_v1", "session_id": "695e", "agent": "mini_swe_agent",
 "system": [{"type": "text", "text": "You are a helpful assistant"}],
 "messages": [
  {"role": "user", "content": [{"type": "text", "text": "fix the sort"}]},
  {"role": "assistant", "content": [{"type": "tool_use", "id": "bash_0", "name": "bash", "input": {"command": "sed -i 's/a/b' x.c"}}]},
  {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "bash_0", "content": [{"type": "text", "text": "<returncode>1</returncode>\n<output>\nsed: -e expression #1, char 5: unterminated s command\n</output>"}]}]},
  {"role": "assistant", "content": [{"type": "tool_use", "id": "bash_1", "name": "bash", "input": {"command": "make"}}]},
  {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "bash_1", "content": [{"type": "text", "text": "<returncode>0</returncode>\n<output>\nok\n</output>"}]}]}
 ]}`
	tr, err := ReadFrom("run.canonical.jsonl", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format == FormatATIF || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want a conversation of messages", tr.Format, len(tr.Agents))
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 2 || calls[0].Tool != "bash" || !calls[0].HasResult {
		t.Fatalf("calls %s, want the two bash calls with their results", strings.Join(describe(tr.Agents[0].Events), "\n"))
	}
	cfg, err := loopguard.Preset("default")
	if err != nil {
		t.Fatal(err)
	}
	e, err := loopguard.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !e.CallFailed(calls[0]) || e.CallFailed(calls[1]) {
		t.Errorf("failed %v, %v; want the sed that returned 1 failed and the make that returned 0 not", e.CallFailed(calls[0]), e.CallFailed(calls[1]))
	}
}

// A Terminus turn whose keystrokes end with mark_task_complete is one batch answered by the
// screen, then the completion as a call of its own (validation round r108a U1).
func TestATIFBatchEndingWithATaskCompletion(t *testing.T) {
	const doc = `{"schema_version": "ATIF-v1.2", "agent": {"name": "terminus-2"}, "steps": [
 {"step_id": 1, "source": "user", "message": "build it"},
 {"step_id": 2, "source": "agent", "message": "",
  "tool_calls": [
   {"tool_call_id": "a", "function_name": "bash_command", "arguments": {"keystrokes": "mkdir -p pkg\n"}},
   {"tool_call_id": "b", "function_name": "bash_command", "arguments": {"keystrokes": "ls\n"}},
   {"tool_call_id": "c", "function_name": "mark_task_complete", "arguments": {}}],
  "observation": {"results": [{"content": "root@box:/app# ls\npkg"}]}},
 {"step_id": 3, "source": "agent", "message": "",
  "tool_calls": [
   {"tool_call_id": "d", "function_name": "bash_command", "arguments": {"keystrokes": "ls\n"}},
   {"tool_call_id": "e", "function_name": "mark_task_complete", "arguments": {}}],
  "observation": {"results": [{"content": "root@box:/app# ls\npkg"}]}}]}`
	tr, err := ReadFrom("trajectory.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	got := describe(tr.Agents[0].Events)
	want := []string{`user "build it"`,
		`call bash_command "[{\"keystrokes\": \"mkdir -p pkg\\n\"…" => "root@box:/app# ls\npkg"`,
		`call mark_task_complete "{}" => -`,
		`call bash_command "{\"keystrokes\":\"ls\\n\"}" => "root@box:/app# ls\npkg"`,
		`call mark_task_complete "{}" => -`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A step that lists one call twice under its id is one call, answered once (validation round
// r183a R1: metacode's trajectories list every call so).
func TestATIFCallListedTwiceInAStepIsOneCall(t *testing.T) {
	doc := `{"schema_version": "ATIF-v1.4", "session_id": "s", "agent": {"name": "metacode", "model_name": "m"}, "steps": [
  {"step_id": 1, "source": "user", "message": "fix it"},
  {"step_id": 2, "source": "agent", "message": "Reading.",
   "tool_calls": [{"tool_call_id": "c1", "function_name": "read_file", "arguments": {"path": "a.py"}},
                  {"tool_call_id": "c1", "function_name": "read_file", "arguments": {"path": "a.py"}}],
   "observation": {"results": [{"source_call_id": "c1", "content": "print(1)"}]}}
]}`
	tr, err := ReadFrom("trajectory.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`user "fix it"`, `text[model] "Reading."`, `call read_file "{\"path\":\"a.py\"}" => "print(1)"`}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events\n%q\nwant\n%q", got, want)
	}
}
