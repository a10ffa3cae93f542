package loopguard

// What a result's text says of a call's outcome, on the cases validation round r37a found
// read wrongly: Gemini CLI's empty error field, and failure marks inside a file's text.

import (
	"fmt"
	"testing"
)

// Gemini CLI ends every shell result with its fields, "Error: (none)" among them when the
// command wrote no error: such a field is no failure mark.
func TestLooksFailedTakesAnEmptyErrorFieldForNone(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"Command: ls\nDirectory: (root)\nOutput: a.go b.go\nError: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 4242", false},
		{"Output: ok\nError: (none)\nExit Code: 1\nSignal: (none)", true}, // the exit code says it failed
		{"Output: Traceback (most recent call last):\n  File \"t.py\"\nValueError: bad\nError: (none)\nExit Code: 0", true},
		{"Output: (empty)\nError: none\n", false},
		{"error: null", false},
		{"Error: (none) of the inputs could be parsed", true}, // the field goes on: it says something
		{"Error:\n  cannot open x", true},                     // a header whose message follows
	}
	for _, tt := range tests {
		if got := looksFailed(tt.text); got != tt.want {
			t.Errorf("looksFailed(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// A Gemini CLI session that runs its tests after each edit, every run passing: each result
// ends "Error: (none)", which once read as the same failure line every time, and the run was
// told as a command failing the same way across changes.
func TestPassingGeminiShellRunsAfterEditsAreNotAnErrorLoop(t *testing.T) {
	var steps []step
	for i := range 6 {
		steps = append(steps,
			ok("replace", fmt.Sprintf(`{"file_path":"/w/app.py","old_string":"v%d","new_string":"v%d"}`, i, i+1), "Successfully modified file: /w/app.py (1 replacements)."),
			ok("run_shell_command", `{"command":"python -m pytest -q"}`,
				"Command: python -m pytest -q\nDirectory: (root)\nOutput: ....\n4 passed in 0.31s\nError: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 917"))
	}
	if got := progressRun(t, defaultProgress(nil), steps); len(got) != 0 {
		t.Errorf("six passing test runs, an edit before each: got %q, want no notice", got)
	}
	// The same runs failing alike are the loop the rule is for.
	steps = steps[:0]
	for i := range 6 {
		steps = append(steps,
			ok("replace", fmt.Sprintf(`{"file_path":"/w/app.py","old_string":"v%d","new_string":"v%d"}`, i, i+1), "Successfully modified file: /w/app.py (1 replacements)."),
			ok("run_shell_command", `{"command":"python -m pytest -q"}`,
				"Command: python -m pytest -q\nDirectory: (root)\nOutput: F...\nFAILED test_app.py::test_total - AssertionError: 3 != 4\n1 failed, 3 passed in 0.31s\nError: (none)\nExit Code: 1\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 917"))
	}
	if got := progressRun(t, defaultProgress(nil), steps); len(got) == 0 {
		t.Error("six test runs failing the same way, an edit before each: no notice")
	}
}

// A tool that shows a file answers with the file's text: a source file that holds a failure
// mark (an error message it formats) read again after each edit is not a command failing
// alike. Its own failure is in its flag or its answer's opening.
func TestReadsOfAFileHoldingAnErrorMessageAreNotFailures(t *testing.T) {
	source := "  40\tfunc load(path string) error {\n  41\t\tif _, err := os.Stat(path); err != nil {\n" +
		"  42\t\t\treturn fmt.Errorf(\"Error: cannot load %s: %w\", path, err)\n  43\t\t}\n  44\t\treturn nil\n  45\t}\n"
	for _, tool := range []string{"Read", "read_file", "view_file", "str_replace_editor"} {
		args := `{"file_path":"/w/load.go"}`
		if tool == "str_replace_editor" {
			args = `{"command":"view","path":"/w/load.go"}`
		}
		var steps []step
		for i := range 5 {
			steps = append(steps,
				ok("Edit", fmt.Sprintf(`{"file_path":"/w/main.go","old_string":"a%d","new_string":"a%d"}`, i, i+1), "The file /w/main.go has been updated."),
				ok(tool, args, source))
		}
		if got := progressRun(t, defaultProgress(nil), steps); len(got) != 0 {
			t.Errorf("%s: five reads of a file that formats an error, an edit before each: got %q, want no notice", tool, got)
		}
	}
}

func TestShowsByNameReadsTheToolsWords(t *testing.T) {
	tests := []struct {
		tool string
		want bool
	}{
		{"Read", true}, {"read_file", true}, {"read_many_files", true}, {"ReadFile", true}, {"readFile", true},
		{"view", true}, {"view_file", true}, {"open", true}, {"goto", true}, {"scroll_down", true}, {"cat", true},
		{"mcp__fs__read_text_file", true},
		{"thread_reply", false}, {"spreadsheet", false}, {"openapi_call", false}, {"reviewer", false},
		{"Bash", false}, {"concatenate", false}, {"", false},
	}
	for _, tt := range tests {
		if got := showsByName(tt.tool); got != tt.want {
			t.Errorf("showsByName(%q) = %v, want %v", tt.tool, got, tt.want)
		}
	}
}
