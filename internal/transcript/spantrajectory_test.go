package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// A harness's spans exported as one list (written for this test in the layout of Vorflux's
// SWE-bench submissions): the calls are the tool spans, a command's exit status fails it, a
// span answers the turn that asked for it even under another tool's name, and a command no
// turn asked for is the harness's own (validation round r98c).
func TestSpanTrajectoryCallsAreTheSpansTheModelAskedFor(t *testing.T) {
	const doc = `{"instance_id": "django__django-13023", "session_id": "s1", "total_spans": 9, "trajectory_entries": 8, "trajectory": [
{"type": "llm_call", "task_prompt": [{"role": "system", "content": "You fix bugs."}, {"role": "user", "content": "Fix DecimalField.to_python"}],
 "output": {"content": "Let me look at the field and run the test.", "tool_calls": [
  {"id": "toolu_1", "type": "function", "function": {"name": "read", "arguments": "{\"file_path\": \"fields.py\"}"}},
  {"id": "toolu_2", "type": "function", "function": {"name": "bash_execute", "arguments": "{\"command\": \"python -m pytest t.py\"}"}}]}},
{"type": "tool_call", "tool": "read_text_file", "arguments": {"filePath": "fields.py"}, "result": "1\tclass DecimalField:"},
{"type": "llm_call", "output": {"content": "", "tool_calls": []}},
{"type": "tool_call", "tool": "bash_execute", "arguments": {"command": "python -m pytest t.py"}, "result": {"stdout": "1 failed", "stderr": "", "exitCode": 1, "outputExceededThreshold": false}},
{"type": "tool_call", "tool": "bash_execute", "arguments": {"command": "test -w /memory && mkdir -p /memory/sessions"}, "result": {"stdout": "", "stderr": "", "exitCode": 1}},
{"type": "judge_call", "model": "gpt-5.5", "input_messages": [{"role": "user", "content": "grade"}]},
{"type": "llm_call", "output": {"content": "Done.", "tool_calls": []}}
]}`
	tr, err := ReadFrom("django__django-13023.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`user "Fix DecimalField.to_python"`,
		`text[model] "Let me look at the field and run…"`,
		`call read_text_file "{\"filePath\": \"fields.py\"}" => "1\tclass DecimalField:"`,
		`call bash_execute "{\"command\": \"python -m pytest t.…" => "1 failed" FAILED`,
		`text[model] "Done."`,
	}
	got := describe(tr.Agents[0].Events)
	if tr.Format != FormatSpanTrajectory || !reflect.DeepEqual(got, want) {
		t.Fatalf("read as %q:\n%s\nwant:\n%s", tr.Format, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	calls := tr.Agents[0].Calls()
	if calls[0].Turn == "" || calls[0].Turn != calls[1].Turn {
		t.Errorf("the two calls one turn asked for: turns %q and %q, want one", calls[0].Turn, calls[1].Turn)
	}
}
