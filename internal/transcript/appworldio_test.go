package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// AppWorld's log of the cells an agent ran, written for this test in the layout of real logs:
// a section a cell, the code a call of the code tool, the output its answer, failed when it
// says so; code that quotes a fence of its own stays whole.
func TestAppWorldIOCellsAreCalls(t *testing.T) {
	rule := strings.Repeat("-", 76)
	const fence = "```"
	log := "\n### Environment Interaction 1\n" + rule + "\n" + fence + "python\nprint('Task ID: 0d01c76_1')\n" + fence + "\n\n" + fence + "\nTask ID: 0d01c76_1\n" + fence + "\n\n\n" +
		"### Environment Interaction 2\n" + rule + "\n" + fence + "python\ndoc = \"\"\"\n" + fence + "\nnot the end\n\"\"\"\nprint(apis.supervisor.complete_task())\n" + fence + "\n\n" +
		fence + "\nExecution failed. Traceback:\nPermissionError: os.putenv is not allowed\n" + fence + "\n"
	tr, err := ReadFrom("environment_io.md", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatAppWorldIO {
		t.Fatalf("read as %s, want %s", tr.Format, FormatAppWorldIO)
	}
	want := []string{
		`call python "{\"code\":\"print('Task ID: 0d01c76…" => "Task ID: 0d01c76_1"`,
		`call python "{\"code\":\"doc = \\\"\\\"\\\"\\n` + "```" + `\\nnot …" => "Execution failed. Traceback:\nPer…" FAILED`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if code := string(tr.Agents[0].Events[1].Args); !strings.Contains(code, "complete_task()") {
		t.Errorf("the second cell's code %q lost its end", code)
	}
}
