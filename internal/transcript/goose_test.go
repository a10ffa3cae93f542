package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// Goose's three shapes, each fixture written for this test from Goose's message and tool
// result types (crates/goose/src/conversation): a session file of its JSONL store, what
// `goose run --output-format stream-json` prints, and an exported session.
func TestGooseFixtures(t *testing.T) {
	tests := []struct {
		file   string
		events []string
	}{
		{"goose/session.jsonl", []string{
			`user "The parser test fails, please fi…"`,
			`text[model] "I'll run the tests first."`,
			// the legacy result: a content list, whose second, user-only copy is left out
			`call developer__shell "{\"command\":\"go test ./parser\"}" => "--- FAIL: TestParse (0.00s)\nFAIL…"`,
			`text[model] "The test names an off-by-one in …"`,
			`call developer__text_editor "{\"command\":\"view\",\"path\":\"/work/…" => "package parser\n\nfunc Parse(s str…"`,
			// a tool that failed: status "error"
			`call developer__text_editor "{\"command\":\"str_replace\",\"new_st…" => "Execution failed: 'old_str' must…" FAILED`,
			// a call Goose could not read: no call, its error as harness text
			`text[harness] "Could not interpret tool use par…"`,
			// an MCP result with isError
			`call developer__shell "{\"command\":\"sed -n 1,20p parser/…" => "sed: can't read parser/parse.go:…" FAILED`,
			`user "It lives in /work/proj/parser."`,
		}},
		{"goose/stream.jsonl", []string{
			`user "The parser test fails, please fi…"`,
			`text[model] "I'll run the tests first."`,
			`call developer__shell "{\"command\":\"go test ./parser\"}" => "--- FAIL: TestParse (0.00s)\nFAIL"`,
			`text[model] "The test fails in Parse."`,
		}},
		{"goose/export.json", []string{
			`user "List the parser files."`,
			`call developer__shell "{\"command\":\"ls parser\"}" => "parse.go\nparse_test.go"`,
			`text[model] "Two files: parse.go and its test…"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			tr, err := Read("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatGoose || len(tr.Agents) != 1 || tr.Agents[0].ID != MainAgent {
				t.Fatalf("read as %s with %d agents, want goose with one, %q", tr.Format, len(tr.Agents), MainAgent)
			}
			if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, tt.events) {
				t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(tt.events, "\n     "))
			}
		})
	}
}

// A document with Goose's session keys is an exported session, not the head of a session
// file, and a line of other JSON after a Goose stream line is damage, reported with its line.
func TestGooseIsToldApart(t *testing.T) {
	tests := []struct {
		name, content, format, errPrefix string
	}{
		{"a session file's metadata line alone is not a transcript",
			`{"working_dir":"/w","description":"x","message_count":0}`, "", "only.jsonl"},
		{"a chat logged one message a line without Goose's blocks stays a message list",
			"{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"assistant\",\"content\":\"hello\"}\n", FormatMessages, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("only.jsonl", strings.NewReader(tt.content))
			if tt.errPrefix != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.errPrefix) {
					t.Fatalf("error %v, want one starting %q", err, tt.errPrefix)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != tt.format {
				t.Errorf("format %q, want %q", tr.Format, tt.format)
			}
		})
	}
}

// A broken line in a Goose stream is passed over and named with its line; the rest is read.
func TestGooseBrokenLineIsPassedOver(t *testing.T) {
	tr, err := ReadFrom("only.jsonl", strings.NewReader("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}}\n{\"type\":\"message\",\"message\":{\"role\":\n"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatGoose || len(tr.Damaged) != 1 || !strings.HasPrefix(tr.Damaged[0].Error(), "only.jsonl:2:") {
		t.Errorf("read as %q, damaged %v; want goose with line 2 passed over", tr.Format, tr.Damaged)
	}
}
