package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// The fixture was written for this test from the sessions the real Continue CLI (cn 1.5.47)
// writes (internal/e2e checks the reader on one): calls in an assistant message's toolCalls,
// outcomes in the item's toolCallStates, or a tool message.
func TestContinueSessionFixture(t *testing.T) {
	tr, err := Read("testdata/continue/session.json")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatContinue || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want continue with one", tr.Format, len(tr.Agents))
	}
	want := []string{
		`text[system] "You are an agent in the Continue…"`,
		`user "The parser test fails, please fi…"`,
		`text[model] "I'll run the tests."`,
		`call Bash "{\"command\":\"go test ./parser\"}" => "--- FAIL: TestParse (0.00s)\nFAIL…"`,
		`call Read "{\"filepath\":\"parser/parse.go\"}" => "Error: File parser/parse.go does…" FAILED`,
		`call List "{\"dirpath\":\"pkg\"}" => "parser/"`,
		`text[model] "The parser lives in pkg/parser."`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// A damaged session is an error that names its line.
func TestContinueDamagedSessionNamesItsLine(t *testing.T) {
	_, err := ReadFrom("s.json", strings.NewReader("{\"sessionId\": \"x\", \"title\": \"t\",\n\"history\": [\n{\"message\": {\"role\": \"user\", \"content\": \"hi\"}},\n{oops}]}"))
	if err == nil || !strings.HasPrefix(err.Error(), "s.json:4:") {
		t.Errorf("error %v, want one at s.json:4", err)
	}
}
