package transcript

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// miniRun is a mini-swe-agent trajectory of replies, each answered by the harness: a reply
// without a ```bash block gets the format error.
func miniRun(replies ...string) string {
	const formatError = "Please always provide EXACTLY ONE action in triple backticks, found 0 actions."
	msgs := []map[string]string{
		{"role": "system", "content": "You are a helpful assistant."},
		{"role": "user", "content": "Fix the session cookies."},
	}
	for _, r := range replies {
		msgs = append(msgs, map[string]string{"role": "assistant", "content": r})
		out := "<returncode>1</returncode>\n<output>\nFFF\n</output>"
		if !strings.Contains(r, "```bash") {
			out = formatError
		}
		msgs = append(msgs, map[string]string{"role": "user", "content": out})
	}
	b, _ := json.Marshal(map[string]any{"info": map[string]any{"mini_version": "1.15.0"}, "messages": msgs, "trajectory_format": "mini-swe-agent-1"})
	return string(b)
}

// A reply with no action attempted nothing, whatever it said: every such reply is the same
// call, "(no action)" with no arguments, answered by the harness's one format error, and its
// words are the model's text. Replies that keep attempting nothing are the model stuck at the
// form (validation rounds r132a, r139a M1, r143c M1: runs of such replies untold, because
// each reply's prose, taken for its arguments, masked the one answer apart).
func TestMiniSWEAgentRepliesWithoutAnAction(t *testing.T) {
	tests := []struct {
		name    string
		replies []string
		want    []string
	}{
		{"two replies without an action, a command between, are no loop",
			[]string{"THOUGHT: patch the cookie domain.", "```bash\npytest -q tests\n```", "THOUGHT: first suppress the warning.",
				"```bash\nnl -ba src/flask/testing.py\n```"},
			nil},
		{"a third reply attempting nothing, nothing changed since, is the same nothing again",
			[]string{"THOUGHT: patch the cookie domain.", "```bash\npytest -q tests\n```", "THOUGHT: first suppress the warning.",
				"THOUGHT: then normalise Set-Cookie.", "```bash\nnl -ba src/flask/testing.py\n```"},
			[]string{"call 4: stuck (no action) × 3"}},
		{"replies without an action in a row are told at the third",
			[]string{"THOUGHT: robustly replace get_backend. A", "THOUGHT: robustly replace get_backend. B",
				"THOUGHT: robustly replace get_backend. C", "THOUGHT: robustly replace get_backend. D"},
			[]string{"call 3: stuck (no action) × 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("run.traj.json", strings.NewReader(miniRun(tt.replies...)))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatMiniSWEAgent {
				t.Fatalf("read as %q", tr.Format)
			}
			for i, c := range tr.Agents[0].Calls() {
				refused := !strings.Contains(tt.replies[i], "```bash")
				if refused && (c.Tool != "(no action)" || len(c.Args) != 0) {
					t.Errorf("call %d: %s %q, want (no action) with no arguments", i+1, c.Tool, c.Args)
				}
				// A reply the harness refused for its form ran nothing: the call says so.
				if got := c.Source == loopguard.SourceHarness; got != refused {
					t.Errorf("call %d: source %q, want the harness's: %v", i+1, c.Source, refused)
				}
			}
			_, got := defaultNotices(t, tr.Agents[0])
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("notices %q, want %q", got, tt.want)
			}
		})
	}
}

// A SWE-agent step without an action (a reply it could not parse, or its own "Exit due to
// context window" step, which 0.x records as an action of its own, exit_cost) stays one step,
// as the run counts them, named "(no action)" and known by what the reply said.
func TestSWEAgentStepsWithoutAnAction(t *testing.T) {
	for _, tt := range []struct {
		name string
		end  map[string]string
		want string
	}{
		{"1.x", map[string]string{"action": "", "thought": "Exit due to context window", "observation": "Exited (autosubmitted)"}, "(no action) Exit due to context window [harness]"},
		{"0.x", map[string]string{"action": "exit_cost", "thought": "Exit due to cost limit", "observation": "Exited"}, "(no action) Exit due to cost limit [harness]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			steps := []map[string]string{
				{"action": "ls -la", "thought": "Look around.", "observation": "README.md"},
				{"action": "", "thought": "Now I understand the issue.", "observation": ""},
				{"action": "exit_criteria.py", "thought": "Run the script named so.", "observation": "ok"},
				tt.end,
			}
			tr := readSWEAgentRun(t, steps, []any{}, "submitted (exit_context)")
			var got []string
			for _, c := range tr.Agents[0].Calls() {
				got = append(got, c.Tool+" "+string(c.Args)+" ["+c.Source+"]")
			}
			// A step without an action was answered by SWE-agent itself, which ran nothing.
			want := []string{"ls ls -la []", "(no action) Now I understand the issue. [harness]", "exit_criteria.py exit_criteria.py []", tt.want}
			if tr.Format != FormatSWEAgent || !reflect.DeepEqual(got, want) {
				t.Errorf("read as %s: %q, want %q", tr.Format, got, want)
			}
		})
	}
}

// sweToolCallMessage is a SWE-agent 1.x chat's assistant message calling one tool by name with
// a command, and recording the command as its action when withAction is true.
func sweToolCallMessage(id, name, command string, withAction bool) map[string]any {
	m := map[string]any{"role": "assistant", "content": "", "agent": "main", "tool_calls": []any{
		map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": `{"command": "` + command + `"}`}}}}
	if withAction {
		m["action"] = command
	}
	return m
}

// readSWEAgentRun reads a SWE-agent .traj of the given trajectory steps and chat history.
func readSWEAgentRun(t *testing.T, steps []map[string]string, hist []any, exitStatus string) *Transcript {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"trajectory": steps, "history": hist, "info": map[string]any{"exit_status": exitStatus}})
	tr, err := ReadFrom("run.traj", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// sweChatOpening is a SWE-agent 1.x chat's system prompt and task.
func sweChatOpening() []any {
	return []any{
		map[string]any{"role": "system", "content": "You are a helpful assistant.", "agent": "main"},
		map[string]any{"role": "user", "content": "Fix the unit error.", "agent": "main"},
	}
}

// SWE-agent 1.x with function calling writes a bash call's action as the command alone: the
// tool is the one the model called by name, not the command's first word (validation round
// r136a U3: every command of a run was read as a call of "cd").
func TestSWEAgentFunctionCallingStepsKeepTheToolsName(t *testing.T) {
	call := func(id, name, command string) map[string]any { return sweToolCallMessage(id, name, command, false) }
	hist := append(sweChatOpening(),
		call("c1", "bash", "cd /testbed && grep -n Unit core.py"),
		map[string]any{"role": "tool", "content": "12: class Unit", "tool_call_ids": []string{"c1"}, "agent": "main"},
		call("c2", "str_replace_editor", "view"),
		map[string]any{"role": "tool", "content": "Here's the result", "tool_call_ids": []string{"c2"}, "agent": "main"},
	)
	steps := []map[string]string{
		{"action": "cd /testbed && grep -n Unit core.py", "thought": "Find the class.", "observation": "12: class Unit"},
		{"action": "str_replace_editor view /testbed/core.py", "thought": "Look at it.", "observation": "Here's the result"},
	}
	tr := readSWEAgentRun(t, steps, hist, "submitted")
	var got []string
	for _, c := range tr.Agents[0].Calls() {
		got = append(got, c.Tool+" "+string(c.Args))
	}
	want := []string{"bash cd /testbed && grep -n Unit core.py", "str_replace_editor str_replace_editor view /testbed/core.py"}
	if tr.Format != FormatSWEAgent || !reflect.DeepEqual(got, want) {
		t.Errorf("read as %s: %q, want %q", tr.Format, got, want)
	}
}

// SWE-agent 1.x records a reply that ran nothing as a step with an empty action, and keeps in
// its chat only the replies it could run: such steps, between the others and after the last,
// leave the rest paired with their messages, and each tool is still the one the model called
// by name (validation round r189b: a Claude run's commands read as calls of "cd").
func TestSWEAgentStepsThatRanNothingKeepThePairing(t *testing.T) {
	call := func(id, name, command string) map[string]any { return sweToolCallMessage(id, name, command, true) }
	hist := append(sweChatOpening(),
		call("c1", "bash", "cd /testbed && grep -n Unit core.py"),
		map[string]any{"role": "tool", "content": "12: class Unit", "tool_call_ids": []string{"c1"}, "agent": "main"},
		call("c2", "bash", "cd /testbed && python -m pytest -q"),
		map[string]any{"role": "tool", "content": "1 failed", "tool_call_ids": []string{"c2"}, "agent": "main"},
	)
	steps := []map[string]string{
		{"action": "cd /testbed && grep -n Unit core.py", "thought": "Find the class.", "observation": "12: class Unit"},
		{"action": "", "thought": "Plan: run the tests next.", "observation": ""},
		{"action": "cd /testbed && python -m pytest -q", "thought": "Run them.", "observation": "1 failed"},
		{"action": "", "thought": "I fixed it.", "observation": ""},
	}
	tr := readSWEAgentRun(t, steps, hist, "submitted")
	var got []string
	for _, c := range tr.Agents[0].Calls() {
		got = append(got, c.Tool)
	}
	want := []string{"bash", noActionTool, "bash", noActionTool}
	if tr.Format != FormatSWEAgent || !reflect.DeepEqual(got, want) {
		t.Errorf("read as %s: tools %q, want %q", tr.Format, got, want)
	}
}

// An observation template may write the command's outcome as the Python dict it is, on one
// line: the result is its output, escapes decoded, failed when its return code is not 0.
func TestMiniSWEAgentPythonDictObservations(t *testing.T) {
	msgs := []map[string]string{
		{"role": "system", "content": "You are a helpful assistant."},
		{"role": "user", "content": "Write the Dockerfile."},
		{"role": "assistant", "content": "```bash\nls\n```"},
		{"role": "user", "content": `Observation: {'output': "Dockerfile\npackage.json\n", 'returncode': 0}`},
		{"role": "assistant", "content": "```bash\nnpm tset\n```"},
		{"role": "user", "content": `Observation: {'returncode': 1, 'output': 'npm error Unknown command: "tset"\n\tDid you mean \'test\'? \xe9\u00e9'}`},
		{"role": "assistant", "content": "```bash\necho {'output': 1}\n```"},
		{"role": "user", "content": `Observation: {'output': 1}`},
	}
	b, _ := json.Marshal(map[string]any{"info": map[string]any{"mini_version": "1.9.0"}, "messages": msgs, "trajectory_format": "mini-swe-agent-1"})
	tr, err := ReadFrom("run.traj.json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 3 {
		t.Fatalf("%d calls, want 3", len(calls))
	}
	if calls[0].Result != "Dockerfile\npackage.json\n" || calls[0].Failed {
		t.Errorf("call 1: result %q failed %v, want the output and not failed", calls[0].Result, calls[0].Failed)
	}
	if want := "npm error Unknown command: \"tset\"\n\tDid you mean 'test'? éé"; calls[1].Result != want || !calls[1].Failed {
		t.Errorf("call 2: result %q failed %v, want %q and failed", calls[1].Result, calls[1].Failed, want)
	}
	if calls[2].Result != "Observation: {'output': 1}" {
		t.Errorf("call 3: a dict without a return code was decoded: %q", calls[2].Result)
	}
}

// mini-swe-agent 2 keeps its calls as tool calls, each answered as 1.x answers an action: a
// non-zero <returncode> is the call failing (validation round r75b: a harness's "[policy
// error]" refusals, each with return code 1, were read as successes, nine in ten calls untold).
func TestMiniSWEAgentToolCallsFailOnTheirReturnCode(t *testing.T) {
	msgs := []map[string]any{
		{"role": "system", "content": "You are a helpful assistant."},
		{"role": "user", "content": "Fix the model checks."},
	}
	answers := []string{
		"<returncode>0</returncode>\n<output>\n12:    db_table_models = defaultdict(list)\n</output>",
		"<returncode>1</returncode>\n<output>\n[policy error] The direct error-emitting location has already been found.\n</output>",
		"<returncode>2</returncode>\n<output>\ngrep: django/db/x.py: No such file or directory\n</output>",
	}
	for i, ans := range answers {
		id := "call_" + string(rune('a'+i))
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": id, "type": "function",
				"function": map[string]any{"name": "bash", "arguments": `{"command": "grep -rn allow_migrate django/db"}`}}}},
			map[string]any{"role": "tool", "tool_call_id": id, "content": ans})
	}
	b, _ := json.Marshal(map[string]any{"info": map[string]any{"mini_version": "2.2.8"}, "messages": msgs, "trajectory_format": "mini-swe-agent-1.1"})
	tr, err := ReadFrom("django__django-11630.traj.json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	var failed []bool
	for _, c := range tr.Agents[0].Calls() {
		failed = append(failed, c.Failed)
	}
	if want := []bool{false, true, true}; tr.Format != FormatMiniSWEAgent || !reflect.DeepEqual(failed, want) {
		t.Errorf("read as %q, failed %v, want %v", tr.Format, failed, want)
	}
}

// A harness of mini-swe-agent's trajectory format that asks for calls in a textual protocol
// (----BEGIN_FUNCTION_CALL---- name, ----ARG---- / ----VALUE---- pairs): each reply is a call of
// that tool with those arguments and the text before the block is the model's thought; the
// answer, a tool's or a user's message, is read without the harness's echo of the call
// (validation round r93b U1: every reply was a refused "bash" whose arguments were the whole
// reply, and 38 finish calls at a step limit went untold).
func TestMiniSWEAgentTextualCallProtocol(t *testing.T) {
	call := func(thought, name string, kv ...string) string {
		var b strings.Builder
		b.WriteString(thought + "\n----BEGIN_FUNCTION_CALL----\n" + name + "\n")
		for i := 0; i+1 < len(kv); i += 2 {
			b.WriteString("----ARG----\n" + kv[i] + "\n----VALUE----\n" + kv[i+1] + "\n")
		}
		b.WriteString("----END_FUNCTION_CALL----")
		return b.String()
	}
	msgs := []map[string]string{
		{"role": "system", "content": "Every assistant message MUST end with EXACTLY ONE function call."},
		{"role": "user", "content": "Fix the literal parser."},
		{"role": "assistant", "content": call("I will look at the file.", "show_file", "file_path", "cpp.py", "start_line", "1")},
		{"role": "user", "content": "Tool 'show_file' returned:\n     1\timport re\n"},
		{"role": "assistant", "content": call("I will run the tests.", "run_bash_cmd", "command", "pytest -q\ntests/test_cpp.py")},
		{"role": "tool", "content": "run_bash_cmd(args={'command': 'pytest -q'})\n----TOOL RESULT BEGIN----\n1 failed\n----TOOL RESULT END----"},
		{"role": "assistant", "content": call("", "finish", "result", "Fixed the parser.")},
		{"role": "tool", "content": "finish(args={'result': 'Fixed the parser.'})\n----RESULT----\nFixed the parser."},
		{"role": "assistant", "content": "I am done."},
		{"role": "user", "content": "Error: No function call detected in your response."},
	}
	b, _ := json.Marshal(map[string]any{"info": map[string]any{}, "messages": msgs, "trajectory_format": "mini-swe-agent-1"})
	expectEvents(t, "run.traj.json", string(b), FormatMiniSWEAgent, []string{
		`text[system] "Every assistant message MUST end…"`,
		`user "Fix the literal parser."`,
		`text[model] "I will look at the file."`,
		`call show_file "{\"file_path\":\"cpp.py\",\"start_lin…" => "     1\timport re\n"`,
		`text[model] "I will run the tests."`,
		`call run_bash_cmd "{\"command\":\"pytest -q\\ntests/tes…" => "1 failed"`,
		`call finish "{\"result\":\"Fixed the parser.\"}" => "Fixed the parser."`,
		`text[model] "I am done."`,
		`call[harness] (no action) "" => "Error: No function call detected…" FAILED`,
	})
}

// A reply that makes its call in the textual protocol counts its usage as any reply does.
func TestMiniSWEAgentTextualCallProtocolCountsUsage(t *testing.T) {
	reply := map[string]any{"role": "assistant",
		"content": "Look.\n----BEGIN_FUNCTION_CALL----\nshow_file\n----ARG----\nfile_path\n----VALUE----\na.py\n----END_FUNCTION_CALL----",
		"extra":   map[string]any{"response": map[string]any{"model": "gpt-5-mini", "usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 7}}}}
	msgs := []any{map[string]any{"role": "user", "content": "fix it"}, reply, map[string]any{"role": "user", "content": "Tool 'show_file' returned:\nx"}}
	b, _ := json.Marshal(map[string]any{"info": map[string]any{}, "messages": msgs, "trajectory_format": "mini-swe-agent-1"})
	tr, err := ReadFrom("run.traj.json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if u := tr.Usage; u.InputTokens != 100 || u.OutputTokens != 7 || u.Model != "gpt-5-mini" || len(tr.Agents[0].Calls()) != 1 {
		t.Errorf("usage %+v, calls %d; want 100 in, 7 out, gpt-5-mini, one call", u, len(tr.Agents[0].Calls()))
	}
}

// SWE-agent's own commands answer a path that is not there, or a file command with no file
// open, with words of their own and nothing else: those answers are failures (validation
// round r116c U2); an output that only holds such a line among others is not.
func TestSWEAgentCommandsOwnRefusals(t *testing.T) {
	for obs, want := range map[string]bool{
		"File src/main/java/com/google/gson/Gson.java not found":     true,
		"Directory lib not found\n":                                  true,
		"No file open. Use the open command first.":                  true,
		"Usage: goto <line>\nError: <line> must be a number":         true,
		"[File: /repo/a.py (12 lines total)]\n1:import os":           false,
		"Found 2 matches for \"x\":\nFile a.py not found in cache\n": false,
		"File a.txt not found, created it":                           false,
	} {
		if got := sweRefused(obs); got != want {
			t.Errorf("sweRefused(%q) = %v, want %v", obs, got, want)
		}
	}
}

// A fork whose harness runs the reply itself (CaM: the reply is Python calling exec_bash_cmd)
// answers it with a return code: the reply is a call that ran, failed by its return code, not a
// reply refused for its form (validation round r122b U1: every call of such runs read as
// refused and failed, and six edits that went through were told as "bash failed × 4").
func TestMiniSWEAgentHarnessRunningTheReplyItself(t *testing.T) {
	msgs := []map[string]string{{"role": "system", "content": "You write Python."}, {"role": "user", "content": "Fix the alias docstrings."}}
	for i := range 6 {
		msgs = append(msgs,
			map[string]string{"role": "assistant", "content": "# Thoughts: edit block " + string(rune('a'+i)) + ".\n@bug_fix\ndef edit():\n    return replace_code(\"sphinx/ext/autodoc/__init__.py\", " + string(rune('0'+i)) + ")\n"},
			map[string]string{"role": "user", "content": "<returncode>0</returncode>\n<output>\nEdited sphinx/ext/autodoc/__init__.py\n</output>"})
	}
	msgs = append(msgs,
		map[string]string{"role": "assistant", "content": "# Thoughts: run it.\ndef run():\n    return exec_bash_cmd(\"python -m pytest -q\")\n"},
		map[string]string{"role": "user", "content": "<returncode>1</returncode>\n<output>\n1 failed\n</output>"})
	b, _ := json.Marshal(map[string]any{"info": map[string]any{"mini_version": "1.15.0"}, "messages": msgs, "trajectory_format": "mini-swe-agent-1"})
	tr, err := ReadFrom("cam.traj.json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 7 {
		t.Fatalf("%d calls, want 7", len(calls))
	}
	for i, c := range calls {
		if c.Source == loopguard.SourceHarness || c.Tool != "python" || c.Failed != (i == 6) {
			t.Errorf("call %d: %s source %q failed %v, want a python call that ran, failed only by its return code", i, c.Tool, c.Source, c.Failed)
		}
	}
	if _, notices := defaultNotices(t, tr.Agents[0]); len(notices) != 0 {
		t.Errorf("notices %q on six edits that went through and a failing test", notices)
	}
}
