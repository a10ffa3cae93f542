package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// A LangSmith run tree saved whole: the root run's input is the person's turn, model runs are
// the model's words, tool runs are calls, read in the order they started.
func TestLangSmithRunTree(t *testing.T) {
	const doc = `{"id": "root", "name": "AgentExecutor", "run_type": "chain", "start_time": "2026-01-01T00:00:00Z",
 "inputs": {"input": "fix the failing test"}, "outputs": {"output": "done"},
 "child_runs": [
  {"id": "t1", "name": "terminal", "run_type": "tool", "start_time": "2026-01-01T00:00:05Z",
   "inputs": {"input": "pytest -q"}, "outputs": {"output": "1 failed"}, "error": null},
  {"id": "l1", "name": "ChatOpenAI", "run_type": "llm", "start_time": "2026-01-01T00:00:01Z",
   "outputs": {"generations": [[{"text": "Let me run the tests."}]]}},
  {"id": "t2", "name": "read_file", "run_type": "tool", "start_time": "2026-01-01T00:00:09Z",
   "inputs": {"path": "a.py"}, "outputs": null, "error": "FileNotFoundError: a.py"},
  {"id": "l2", "name": "ChatAnthropic", "run_type": "llm", "start_time": "2026-01-01T00:00:08Z",
   "outputs": {"generations": [[{"text": "", "message": {"kwargs": {"content": [{"type": "text", "text": "Now the file."}]}}}]]}},
  {"id": "t3", "name": "search", "run_type": "tool", "start_time": "2026-01-01T00:00:12Z",
   "inputs": {"query": "pytest"}, "outputs": {"output": {"content": "3 results", "type": "tool"}}}
 ]}`
	tr, err := ReadFrom("run.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`user "fix the failing test"`,
		`text[model] "Let me run the tests."`,
		`call terminal "pytest -q" => "1 failed"`,
		`text[model] "Now the file."`,
		`call read_file "{\"path\":\"a.py\"}" => "FileNotFoundError: a.py" FAILED`,
		`call search "{\"query\":\"pytest\"}" => "3 results"`,
	}
	if got := describe(tr.Agents[0].Events); tr.Format != FormatLangSmith || !reflect.DeepEqual(got, want) {
		t.Errorf("read as %q:\n%s\nwant:\n%s", tr.Format, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Runs one a line, as the SDK lists them, each naming its trace: a trace is a session, and
// runs are read by their dotted order, whatever order the file lists them in.
func TestLangSmithRunLinesByTrace(t *testing.T) {
	const lines = `{"id": "b2", "trace_id": "B", "parent_run_id": "b0", "dotted_order": "20260101T000002Zb0.20260101T000003Zb2", "name": "ls", "run_type": "tool", "inputs": {"input": "ls"}, "outputs": {"output": "a.py"}}
{"id": "a0", "trace_id": "A", "dotted_order": "20260101T000000Za0", "name": "graph", "run_type": "chain", "inputs": {"messages": [{"type": "human", "content": "list files"}]}}
{"id": "a1", "trace_id": "A", "parent_run_id": "a0", "dotted_order": "20260101T000000Za0.20260101T000001Za1", "name": "ls", "run_type": "tool", "inputs": {"input": "ls"}, "outputs": {"output": "b.py"}}
{"id": "b0", "trace_id": "B", "dotted_order": "20260101T000002Zb0", "name": "graph", "run_type": "chain", "inputs": {"question": "list them again"}}
`
	tr, err := ReadFrom("runs.jsonl", strings.NewReader(lines))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatLangSmith || tr.Sessions != 2 || len(tr.Agents) != 2 {
		t.Fatalf("read as %q with %d sessions and %d agents, want langsmith with 2 and 2", tr.Format, tr.Sessions, len(tr.Agents))
	}
	got := [][]string{describe(tr.Agents[0].Events), describe(tr.Agents[1].Events)}
	want := [][]string{
		{`user "list files"`, `call ls "ls" => "b.py"`},
		{`user "list them again"`, `call ls "ls" => "a.py"`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sessions %q, want %q", got, want)
	}
}

// A list of run trees is read as the runs of them all, bare or as the API answers a query.
func TestLangSmithRunList(t *testing.T) {
	const list = `[{"id": "r", "name": "agent", "run_type": "chain", "inputs": {"task": "count"}, "child_runs": [
  {"id": "t", "name": "wc", "run_type": "tool", "inputs": {"input": "wc -l a"}, "outputs": {"output": "3 a"}}]}]`
	for _, doc := range []string{list, `{"runs": ` + strings.Replace(list, `"id": "r",`, `"id": "r", "trace_id": "r",`, 1) + `, "cursors": {"next": null}}`} {
		tr, err := ReadFrom("runs.json", strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{`user "count"`, `call wc "wc -l a" => "3 a"`}
		if got := describe(tr.Agents[0].Events); tr.Format != FormatLangSmith || !reflect.DeepEqual(got, want) {
			t.Errorf("read as %q: %q, want %q", tr.Format, got, want)
		}
	}
}
