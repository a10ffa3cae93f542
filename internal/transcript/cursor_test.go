package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// The fixture was written for this test from the events Cursor's CLI prints with `-p
// --output-format stream-json` (its documentation and harnesses' parsers of it): an init line,
// pieces of thinking and text, tool calls started and completed, a closing result.
func TestCursorStreamFixture(t *testing.T) {
	tr, err := Read("testdata/cursor/stream.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCursor || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want cursor with one", tr.Format, len(tr.Agents))
	}
	want := []string{
		`user "The parser test fails, please fi…"`,
		`text[reasoning] "Run the failing test first."`,
		`text[model] "I'll run the tests."`,
		// a command that exits 1 failed, though its result is a "success"
		`call shell "{\"command\":\"go test ./parser\",\"w…" => "--- FAIL: TestParse (0.00s)\nFAIL…" FAILED`,
		`call read "{\"path\":\"parser/parse.go\"}" => "package parser\n\nfunc Parse(s str…"`,
		`call edit "{\"path\":\"parser/parse.go\",\"strea…" => "Could not apply the edit: old te…" FAILED`,
		// an MCP call is named for its tool and takes the arguments it passes on
		`call search "{\"q\":\"Parse\"}" => "Parse returns the length."`,
		`text[model] "The edit did not apply."`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	if tr.Agents[0].Usage.Model != "Claude 4.5 Sonnet" {
		t.Errorf("model %q, want the init line's", tr.Agents[0].Usage.Model)
	}
}

// Claude Code's stream-json opens with a system init line too: without Cursor's tool_call
// lines it stays Claude Code's.
func TestCursorIsToldFromClaudeStream(t *testing.T) {
	tr, err := Read("testdata/claude-stream/claude-code.txt")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatClaudeCode {
		t.Errorf("Claude Code's stream-json read as %s", tr.Format)
	}
	for _, head := range []string{
		`{"type":"system","subtype":"init","session_id":"s"}` + "\n" + `{"type":"user","message":{"content":"run {\"type\":\"tool_call\",\"subtype\":\"x\"}"}}`,
		`{"type":"system","subtype":"init","session_id":"s"}` + "\n" + `  {"type":"tool_call","subtype":"started"}`,
	} {
		if isCursorHead([]byte(head)) {
			t.Errorf("isCursorHead(%q) = true: a tool_call event counts only at the start of a line", head)
		}
	}
}
