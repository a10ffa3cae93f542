package transcript

import (
	"reflect"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

func TestClineXMLToolUse(t *testing.T) {
	tr := mustRead(t, "testdata/cline/xml-task.json")
	if tr.Format != FormatCline {
		t.Fatalf("format %q", tr.Format)
	}
	want := []string{
		`user "Fix the failing test in src/sum.…"`,
		`text[context] "<environment_details>\n# VSCode V…"`,
		`text[model] "<thinking>\nLet me run the tests …"`,
		`call execute_command "{\"command\":\"npm test\",\"requires_…" => "Command executed.\nOutput:\n1 fail…"`,
		`text[context] "<environment_details>\n# VSCode V…"`,
		`call read_file "{\"path\":\"src/sum.ts\"}" => "The tool execution failed with t…" FAILED`,
		`text[model] "The file has another name."`,
		`call write_to_file "{\"path\":\"src/sum.ts\",\"content\":\"…" => "The user denied this operation.\n…" FAILED`,
		// the feedback the user typed with the denial is the user's turn (r138b U1)
		`user "no, look in lib/"`,
		`text[model] "I will answer without a tool."`,
		`text[harness] "[ERROR] You did not use a tool i…"`,
		`call attempt_completion "{\"result\":\"Done\"}" => -`,
		`user "Thanks, but also update the READ…"`,
	}
	got := describe(tr.Agents[0].Events)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	calls := tr.Agents[0].Calls()
	if string(calls[2].Args) != `{"path":"src/sum.ts","content":"export const tag = \"</content>\";"}` {
		t.Errorf("a content holding its own closing tag: %s", calls[2].Args)
	}
	if tr.Agents[0].Events[0].Time != 1730000000000 {
		t.Errorf("ts not read: %d", tr.Agents[0].Events[0].Time)
	}
}

// execute_command reports its exit status at the head of its result: a nonzero one failed.
func TestClineFailedCommand(t *testing.T) {
	for _, tt := range []struct {
		result string
		failed bool
	}{
		{"Command failed with exit code 1.\nOutput:\nError: read ECONNRESET", true},
		{"Command executed successfully (exit code 0).\nOutput:\nok", false},
		{"The tool execution failed with the following error: no such file", true},
		// Roo Code and its forks (IBM Bob): the exit code on the line after
		{"Command executed in terminal  within working directory 'c:/p'. Command execution was not successful, inspect the cause and adjust as needed.\nExit code: 1\nOutput:\nAt line:1 char:13", true},
		{"Command executed in terminal  within working directory 'd:/p'. Exit code: 0\nOutput:\nTarget: bob", false},
		// Roo Code's reads: every file an error is a failed read (validation round r89b U1)
		{"<file><path>docs/a.md</path><error>Error reading file: File not found: /w/docs/a.md</error></file>", true},
		{"<files>\n<file><path>a.md</path><error>File not found</error></file>\n<file><path>b.md</path><error>File not found</error></file>\n</files>", true},
		{"<files>\n<file><path>a.md</path><error>File not found</error></file>\n<file><path>b.md</path>\n<content lines=\"1-2\">\n1 | # B\n</content>\n</file>\n</files>", false},
		{"<file><path>src/err.ts</path>\n<content lines=\"1-3\">\n1 | const e = '<error>'\n</content>\n</file>", false},
	} {
		if got := clineFailed(tt.result); got != tt.failed {
			t.Errorf("clineFailed(%q) = %v, want %v", tt.result, got, tt.failed)
		}
	}
}

// Cline writes "Failure: I did not provide a response." into the history for a reply the model
// left empty: the extension's words, not the model's.
func TestClineStandInForAnEmptyReplyIsTheHarnesss(t *testing.T) {
	list := `[{"role":"user","content":[{"type":"text","text":"<task>add the test</task>"}]},
{"role":"assistant","content":[{"type":"text","text":"Failure: I did not provide a response."}]},
{"role":"user","content":[{"type":"text","text":"[ERROR] You did not use a tool in your previous response! Please retry with a tool use."}]},
{"role":"assistant","content":[{"type":"text","text":"I will read the file.\n<read_file>\n<path>a.ts</path>\n</read_file>"}]}]`
	tr, err := ReadFrom("api_conversation_history.json", strings.NewReader(list))
	if err != nil {
		t.Fatal(err)
	}
	var model, harness []string
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventText && e.Source == "model" {
			model = append(model, e.Text)
		}
		if e.Type == loopguard.EventText && e.Source == "harness" && strings.HasPrefix(e.Text, "Failure:") {
			harness = append(harness, e.Text)
		}
	}
	if !reflect.DeepEqual(model, []string{"I will read the file."}) || len(harness) != 1 {
		t.Errorf("model texts %q, harness stand-ins %q; want only the model's sentence, and the stand-in as the harness's", model, harness)
	}
}

// Cline runs one tool a message: it answers the first call and says of each other one that it
// "was not executed". Those calls failed, refused by the harness for the reply's form (as
// mini-swe-agent refuses a reply with two actions), and the notes are not the user speaking.
func TestClineCallsNotExecutedFailAndAreNotUserTurns(t *testing.T) {
	const task = `[
{"role":"user","content":[{"type":"text","text":"<task>\nreview the actions\n</task>"}]},
{"role":"assistant","content":[{"type":"text","text":"Let me read the key files."},
 {"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"ActionSystem.cs"}},
 {"type":"tool_use","id":"toolu_2","name":"read_file","input":{"path":"GameAction.cs"}}]},
{"role":"user","content":[{"type":"text","text":"[read_file for 'ActionSystem.cs'] Result:\nusing System;"},
 {"type":"text","text":"Tool [read_file] was not executed because a tool has already been used in this message. Only one tool may be used per message."},
 {"type":"text","text":"<environment_details>\n# Visible Files\n</environment_details>"}]}
]`
	tr, err := ReadFrom("api_conversation_history.json", strings.NewReader(task))
	if err != nil {
		t.Fatal(err)
	}
	got := describe(tr.Agents[0].Events)
	want := []string{
		`user "review the actions"`,
		`text[model] "Let me read the key files."`,
		`call read_file "{\"path\":\"ActionSystem.cs\"}" => "using System;"`,
		`call[harness] read_file "{\"path\":\"GameAction.cs\"}" => "Tool [read_file] was not execute…" FAILED`,
		`text[context] "<environment_details>\n# Visible …"`,
	}
	if tr.Format != FormatCline || !reflect.DeepEqual(got, want) {
		t.Errorf("read as %q:\n%s\nwant:\n%s", tr.Format, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Cline (2024) sends a result as two blocks, its heading and then the output: an output that
// opens with '#' (a Markdown file, a script's "#!", a commented .env) is the answer, not the
// extension's context (validation round r96c U1: 46 such answers were read as empty). A call
// after one the user declined is skipped, and Cline says so for each: those calls did not run
// (U3).
func TestClineOutputOpeningWithAHashAndSkippedCalls(t *testing.T) {
	const task = `[
{"role":"user","content":[{"type":"text","text":"<task>\nread the design\n</task>"}]},
{"role":"assistant","content":[{"type":"text","text":"<read_file>\n<path>design.md</path>\n</read_file>"}]},
{"role":"user","content":[{"type":"text","text":"[read_file for 'design.md'] Result:"},
 {"type":"text","text":"# Design\n\n## Overview\nThe BFF sits in front of the API."},
 {"type":"text","text":"<environment_details>\n# VSCode Visible Files\n</environment_details>"}]},
{"role":"assistant","content":[{"type":"text","text":"<write_to_file>\n<path>a.ts</path>\n<content>\n</content>\n</write_to_file>\n<write_to_file>\n<path>b.ts</path>\n<content>\n</content>\n</write_to_file>\n<write_to_file>\n<path>c.ts</path>\n<content>\n</content>\n</write_to_file>"}]},
{"role":"user","content":[{"type":"text","text":"[write_to_file for 'a.ts'] Result:"},
 {"type":"text","text":"The user denied this operation and provided the following feedback:\n<feedback>\nnot yet\n</feedback>"},
 {"type":"text","text":"Skipping tool [write_to_file for 'b.ts'] due to user rejecting a previous tool."},
 {"type":"text","text":"Tool [write_to_file for 'c.ts'] was interrupted and not executed due to user rejecting a previous tool."},
 {"type":"text","text":"# VSCode Visible Files\na.ts"}]}
]`
	tr, err := ReadFrom("api_conversation_history.json", strings.NewReader(task))
	if err != nil {
		t.Fatal(err)
	}
	got := describe(tr.Agents[0].Events)
	want := []string{
		`user "read the design"`,
		`call read_file "{\"path\":\"design.md\"}" => "# Design\n\n## Overview\nThe BFF si…"`,
		`text[context] "<environment_details>\n# VSCode V…"`,
		`call write_to_file "{\"path\":\"a.ts\",\"content\":\"\"}" => "The user denied this operation a…" FAILED`,
		`call[harness] write_to_file "{\"path\":\"b.ts\",\"content\":\"\"}" => "Skipping tool [write_to_file for…" FAILED`,
		`call[harness] write_to_file "{\"path\":\"c.ts\",\"content\":\"\"}" => "Tool [write_to_file for 'c.ts'] …" FAILED`,
		`user "not yet"`,
		`text[context] "# VSCode Visible Files\na.ts"`,
	}
	if tr.Format != FormatCline || !reflect.DeepEqual(got, want) {
		t.Errorf("read as %q:\n%s\nwant:\n%s", tr.Format, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
