package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// The fixture was written for this test from the events GitHub Copilot CLI records
// (session-state/<id>/events.jsonl, as parsers of it read them): a tool request and its
// execution are one call, a streamed piece (ephemeral) is skipped, a failed execution is a
// failure with its error's message.
func TestCopilotEventsFixture(t *testing.T) {
	tr, err := Read("testdata/copilot/events.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCopilot || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want copilot with one", tr.Format, len(tr.Agents))
	}
	want := []string{
		`user "The parser test fails, please fi…"`,
		`text[reasoning] "Run the failing test first."`,
		`text[model] "I'll run the tests."`,
		`call bash "{\"command\":\"go test ./parser\",\"d…" => "--- FAIL: TestParse (0.00s)\nFAIL…"`,
		`call view "{\"path\":\"parser/parse.go\"}" => "Path does not exist: parser/pars…" FAILED`,
		`user "It is in pkg/parser."`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	if tr.Agents[0].Usage.Model != "claude-sonnet-4.5" {
		t.Errorf("model %q", tr.Agents[0].Usage.Model)
	}
}

// An execution whose request was not recorded (older logs) is still a call, named by the
// execution.
func TestCopilotExecutionWithoutRequest(t *testing.T) {
	tr, err := ReadFrom("events.jsonl", strings.NewReader(
		`{"type":"user.message","data":{"content":"go"}}`+"\n"+
			`{"type":"tool.execution_start","data":{"toolCallId":"c1","toolName":"view","arguments":{"path":"README.md"}}}`+"\n"+
			`{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":true,"result":{"content":"# Readme"}}}`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := describe(tr.Agents[0].Events)
	if want := []string{`user "go"`, `call view "{\"path\":\"README.md\"}" => "# Readme"`}; !reflect.DeepEqual(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
}
