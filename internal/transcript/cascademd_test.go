package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// A Windsurf Cascade conversation exported as Markdown, written for this test in the layout
// of real exports: calls are one italic sentence each, with no answer kept; a command may run
// over lines, or be cut short by the export; the model may act with no words after the
// user's input; a call may have the model's next words glued to it; a fence a paste left open
// does not hide the calls after it; italic prose is the model's words.
func TestCascadeMarkdownCallsAndWords(t *testing.T) {
	const export = "# Cascade Chat Conversation\n\n" +
		"  Note: _This is purely the output of the chat conversation and does not contain any raw data, codebase snippets, etc. used to generate the output._\n\n" +
		"### User Input\n\nfix the tests @[backend/go.mod]\n\n" +
		"### Planner Response\n\nI'll read the module first.\n\n" +
		"*Viewed [go.mod](file:///repo/backend/go.mod) *\n\n" +
		"*User accepted the command `cd /repo/backend && go test ./...`*\n\n" +
		"*User accepted the command `julia --project=. -e '\nusing Inferno\n\nprintln(1)'`*\n\n" +
		"*Edited relevant file*\n\n" +
		"*Seriously,* this is prose.\n\n" +
		"### User Input\n\ncontinue\n\n" +
		"*User accepted the command `go vet ./... 2>&1 | head -5\n\n" +
		"*Checked command status*\n" +
		"## Results\n\n```\nError: session in use\n\n" +
		"*Grep searched codebase*\n\n" +
		"*Proposed code*\n\n*Listed resources from supabase-mcp*\n\n" +
		"### Planner Response\n\nDone.\n"
	tr, err := ReadFrom("Fixing Tests.md", strings.NewReader(export))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCascadeMarkdown || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want %s with one", tr.Format, len(tr.Agents), FormatCascadeMarkdown)
	}
	want := []string{
		`user "fix the tests @[backend/go.mod]"`,
		`text[model] "I'll read the module first."`,
		`call view_file "{\"path\":\"/repo/backend/go.mod\"}" => -`,
		`call run_command "{\"command\":\"cd /repo/backend && …" => -`,
		`call run_command "{\"command\":\"julia --project=. -e…" => -`,
		`call edit_file "" => -`,
		`text[model] "*Seriously,* this is prose."`,
		`user "continue"`,
		`call run_command "{\"command\":\"go vet ./... 2>&1 | …" => -`,
		`call command_status "" => -`,
		"text[model] \"## Results\\n\\n```\\nError: session i…\"",
		`call grep_search "" => -`,
		`call propose_code "" => -`,
		`call list_resources "{\"query\":\"supabase-mcp\"}" => -`,
		`text[model] "Done."`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Antigravity's export of the same layout
	anti := "# Chat Conversation\n\nNote: _This is purely the output of the chat conversation and does not contain any raw data._\n\n### User Input\n\nplan\n\n*Searched web for julia oneAPI*\n\n*Semantic searched codebase*\n"
	tr, err = ReadFrom("Fixing Model Output.md", strings.NewReader(anti))
	if err != nil {
		t.Fatal(err)
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, []string{`user "plan"`, `call search_web "{\"query\":\"julia oneAPI\"}" => -`, `call codebase_search "" => -`}) {
		t.Errorf("Antigravity's export: %q", got)
	}
}
