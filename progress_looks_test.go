package loopguard

// What a result's text says of a call's outcome, on the cases validation rounds r37a and r38
// found read wrongly: Gemini CLI's empty error field, failure marks inside a file's text, a
// harness's shell hook failing after every command, an editor's rejection that opens a long
// answer.

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
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

// SWE-agent's own searches answer with the lines they found, each headed "Line N:", or the
// files that hold them: a failure mark in a match (an error message the source formats) is
// the file's text, sent as the tool's action or through a shell tool as exports keep them
// (validation round r192b W2).
func TestSWEAgentSearchesFindingAnErrorMessageAreNotFailures(t *testing.T) {
	found := "Found 2 matches for \"calendar\" in /khal/khal/controllers.py:\nLine 401:        [event], calendar=calendar_name, locale=conf['locale'])\n" +
		"Line 407:            f'ERROR: Cannot modify calendar \"{calendar_name}\" as it is read-only'\nEnd of matches for \"calendar\" in /khal/khal/controllers.py\n"
	for _, tool := range []string{"search_file", "bash"} {
		var steps []step
		for i := range 5 {
			steps = append(steps,
				ok("scroll_down", "scroll_down", fmt.Sprintf("[File: /khal/khal/controllers.py (600 lines total)]\n(%d more lines above)\n%d:    page %d", 100*i, 100*i+1, i)),
				ok(tool, `search_file "calendar" khal/controllers.py`, found))
		}
		for _, n := range progressRun(t, defaultProgress(nil), steps) {
			if strings.Contains(n, ":errors:") {
				t.Errorf("%s: a search whose match formats an error read as failing: %q", tool, n)
			}
		}
		// A search whose place to look is not there never searched: it failed, and a model
		// sending its searches into one invented directory after another is told.
		steps = nil
		for _, dir := range []string{"local", "flux", "pbs", "slurm", "fields", "fixtures"} {
			steps = append(steps, ok(tool, `search_dir "def filter" reframe/core/`+dir, "Directory reframe/core/"+dir+" not found\n"))
		}
		if got := progressRun(t, defaultProgress(nil), steps); !slices.ContainsFunc(got, func(n string) bool { return strings.Contains(n, ":errors:") }) {
			t.Errorf("%s: six searches into directories that are not there: got %q, want them told as failing", tool, got)
		}
	}
}

// A command that only prints a file (cat, head, sed -n) answers with the file's text as a Read
// does, when its host keeps no exit status (Codex's code mode, a proxy): a source that
// formats an error, printed again after each edit elsewhere, is no command failing alike.
// The printing program's own complaint is still its failure.
func TestPrintsOfAFileHoldingAnErrorMessageAreNotFailures(t *testing.T) {
	source := "use std::error::Error;\n\npub fn load(p: &Path) -> Result<(), Box<dyn std::error::Error>> {\n    Err(\"Error: cannot load\".into())\n}\n"
	for _, cmd := range []string{"sed -n '1,80p' src/replay.rs", "cat src/replay.rs", "cd /w && head -n 80 src/replay.rs"} {
		args := `{"cmd":"` + cmd + `"}`
		var steps []step
		for i := range 5 {
			steps = append(steps,
				ok("apply_patch", fmt.Sprintf("*** Begin Patch\n*** Update File: src/main.rs\n@@\n-a%d\n+a%d\n*** End Patch", i, i+1), "Success. Updated the following files:\nM src/main.rs"),
				ok("exec_command", args, source))
		}
		if got := progressRun(t, defaultProgress(nil), steps); len(got) != 0 {
			t.Errorf("%s: five prints of a file that formats an error, an edit before each: got %q, want no notice", cmd, got)
		}
	}
}

func TestPrintsFilesKnowsAPrintFromOtherCommands(t *testing.T) {
	tests := []struct {
		args, prog string
	}{
		{`{"cmd":"cat src/a.rs"}`, "cat"},
		{`{"command":"sed -n '1,80p' src/a.rs"}`, "sed"},
		{`{"command":"cd /testbed && tail -n 20 log.txt 2>&1"}`, "tail"},
		{`head -50 setup.py`, "head"},
		{`{"cmd":"sed -i 's/a/b/' -n src/a.rs"}`, ""}, // sed -i writes
		{`{"cmd":"sed 's/a/b/' src/a.rs"}`, ""},       // sed without -n prints an edited text
		{`{"cmd":"cat a.rs | grep Error"}`, ""},       // a pipe: grep's answer
		{`{"cmd":"cat a.rs > b.rs"}`, ""},             // writes a file
		{`{"cmd":"cat a.rs; cargo build"}`, ""},       // a sequence: cargo's answer too
		{`{"cmd":"cargo test"}`, ""},
		{`{"cmd":"cat"}`, ""}, // no file
		{`{"cmd":"cd /w && python repro.py"}`, ""},
	}
	for _, tt := range tests {
		prog, ok := printsFiles([]byte(tt.args))
		if ok != (tt.prog != "") || prog != tt.prog {
			t.Errorf("printsFiles(%s) = %q, %v; want %q", tt.args, prog, ok, tt.prog)
		}
	}
}

// A print whose program complains first ("cat: x: No such file or directory") failed.
func TestAPrintOfAMissingFileFails(t *testing.T) {
	var steps []step
	for range 4 {
		steps = append(steps, ok("exec_command", `{"cmd":"cat src/missing.rs"}`, "cat: src/missing.rs: No such file or directory"))
	}
	got := progressRun(t, defaultProgress(nil), steps)
	if len(got) == 0 {
		t.Fatal("four prints of a missing file: no notice, want one")
	}
	if ok, _ := callOutcome(&observedCall{tool: "exec_command", args: []byte(`{"cmd":"cat src/missing.rs"}`), result: "cat: src/missing.rs: No such file or directory"}, classEntry{}, false); !ok {
		t.Error("callOutcome: a print of a missing file read as succeeded")
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

func TestNotFoundCommandReadsEachShellsWording(t *testing.T) {
	tests := []struct{ line, want string }{
		{"zsh:1: command not found: dump_zsh_state\n", "dump_zsh_state"},
		{"zsh: command not found: pytest", "pytest"},
		{"bash: applypatch: command not found", "applypatch"},
		{"/bin/sh: 1: rg: command not found", "rg"},
		{"bash: line 3: 'jq': command not found\r\n", "jq"},
		{"(eval):1: command not found: timeout", "timeout"},
		{"command not found", ""},
		{"the command not found page", ""},
		{"all tests passed", ""},
	}
	for _, tt := range tests {
		if got := notFoundCommand(tt.line); got != tt.want {
			t.Errorf("notFoundCommand(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestWithoutForeignNotFoundKeepsTheCallsOwnFailure(t *testing.T) {
	const noise = "zsh:1: command not found: dump_zsh_state"
	tests := []struct {
		name, result, args, want string
	}{
		{"a harness's hook line goes", "Everything up-to-date\n" + noise, `{"command":"git push"}`, "Everything up-to-date\n"},
		{"only as the output's last line", "a\n" + noise + "\nb", `{"command":"ls"}`, "a\n" + noise + "\nb"},
		{"a script's own missing command stays", "run_tests.sh: line 4: pytest: command not found\n", `{"command":"bash run_tests.sh"}`, "run_tests.sh: line 4: pytest: command not found\n"},
		{"npm's script's stays", "> jest\n\nsh: jest: command not found\n", `{"command":"npm test"}`, "> jest\n\nsh: jest: command not found\n"},
		{"the command's own stays", "bash: applypatch: command not found\n", `{"command":"applypatch < fix.diff"}`, "bash: applypatch: command not found\n"},
		{"nothing to drop", "ok\n", `{"command":"ls"}`, "ok\n"},
		{"a bash hook's lines go, all of them at the end (r156a U1)",
			"activate\nipython\n--: line 20: cannot create temp file for here-document: Permission denied\n--: line 1: dump_bash_state: command not found",
			`{"command":"ls venv/bin | head -20"}`, "activate\nipython\n"},
		{"a bash hook's other complaint alone stays", "ok\n--: line 20: cannot create temp file for here-document: Permission denied",
			`{"command":"ls"}`, "ok\n--: line 20: cannot create temp file for here-document: Permission denied"},
	}
	for _, tt := range tests {
		if got := withoutForeignNotFound(tt.result, []byte(tt.args)); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// Cursor's terminal ends every command's output with its shell hook failing ("zsh:1: command
// not found: dump_zsh_state"). Commands that went through, an edit between each, are no
// command failing alike; a command that fails on its own, with the line after it, is.
func TestAShellHooksNotFoundLineIsNotTheCommandsFailure(t *testing.T) {
	for _, noise := range []string{"\nzsh:1: command not found: dump_zsh_state",
		"\n--: line 20: cannot create temp file for here-document: Permission denied\n--: line 1: dump_bash_state: command not found"} {
		shellHookNoise(t, noise)
	}
}

func shellHookNoise(t *testing.T, noise string) {
	t.Helper()
	var steps []step
	for i := range 6 {
		steps = append(steps,
			ok("edit_file", fmt.Sprintf(`{"target_file":"src/app.ts","code_edit":"v%d"}`, i), "The edit was applied."),
			ok("run_terminal_cmd", `{"command":"npm test"}`, "> app@1.0.0 test\n> vitest run\n\n Test Files  3 passed (3)\n      Tests  12 passed (12)"+noise))
	}
	if got := progressRun(t, defaultProgress(nil), steps); len(got) != 0 {
		t.Errorf("six passing test runs, an edit before each, each ending with the hook's line: got %q, want no notice", got)
	}
	steps = steps[:0]
	for i := range 6 {
		steps = append(steps,
			ok("edit_file", fmt.Sprintf(`{"target_file":"src/app.ts","code_edit":"v%d"}`, i), "The edit was applied."),
			ok("run_terminal_cmd", `{"command":"npm test"}`, "> app@1.0.0 test\n> vitest run\n\n FAIL  src/app.test.ts > total\nAssertionError: expected 3 to be 4\n Test Files  1 failed | 2 passed (3)"+noise))
	}
	if got := progressRun(t, defaultProgress(nil), steps); len(got) == 0 {
		t.Error("six test runs failing the same way, an edit before each, each ending with the hook's line: no notice")
	}
}

// A command mangled by the shell is still the call's own: `echo -e` where -e is not understood
// leaves "\n" as "n", and the shell looks for "bashndocker".
func TestWithoutForeignNotFoundReadsTheArgumentsWithoutTheirEscapes(t *testing.T) {
	result := "zsh:1: command not found: bashndocker\n"
	args := `{"command":"echo -e \"# Build\\n\\n` + "```" + `bash\\ndocker build .\\n` + "```" + `\" > README.md"}`
	if got := withoutForeignNotFound(result, []byte(args)); got != result {
		t.Errorf("the call's own mangled command was dropped: %q", got)
	}
}

// The editors of SWE-agent and OpenHands (agentskills) reject an edit that breaks the file's
// syntax with a line that opens their answer, then show how the file would have looked: the
// listing may run past the 2 KB in which failure marks are looked for.
func TestLooksFailedReadsARejectedEditsOpening(t *testing.T) {
	listing := strings.Repeat("12|    const [dark, setDark] = useState(false);\n", 80)
	for _, text := range []string{
		"[Your proposed edit has introduced new syntax error(s). Please understand the errors and retry your edit command.]\n/workspace/src/App.tsx:22\n[This is how your edit would have looked if applied]\n" + listing,
		"Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit commmand.\n\nERRORS:\n- E999 IndentationError: unexpected indent\n" + listing,
	} {
		if !looksFailed(text) {
			t.Errorf("looksFailed(%.60q...) = false", text)
		}
	}
	if looksFailed("[File: /workspace/src/App.tsx (20 lines total after edit)]\n" + listing) {
		t.Error("an edit that landed, its listing shown, reads as failed")
	}
}

// A computer-use action answers with an acknowledgement; what it did is on the screen, in an
// image the text does not hold. Clicking a date picker's "previous month" three times, each
// answered "Clicked at (500, 414)", is three months back. A page read as text still tells.
func TestComputerUseActionsAreNotComparedByTheirAcknowledgement(t *testing.T) {
	const tab = "\n\n\nTab Context:\n- Executed on tabId: 1593283066\n- Available tabs:\n  • tabId 1593283066: \"Flights | Google\""
	click := ok("mcp__claude-in-chrome__computer", `{"action": "left_click", "coordinate": [500, 414], "tabId": 1593283066}`, "Clicked at (500, 414)"+tab)
	shot := ok("mcp__claude-in-chrome__computer", `{"action": "screenshot", "tabId": 1593283066}`, "Successfully captured screenshot (1512x771, jpeg) - ID: ss_4160ytnat"+tab)
	if got := progressRun(t, defaultProgress(nil), []step{shot, click, click, click, click, shot, shot}); len(got) != 0 {
		t.Errorf("clicks and screenshots answered alike: got %q, want no notice", got)
	}
	read := ok("mcp__claude-in-chrome__get_page_text", `{"tabId": 1593283066}`, "January 2026\nSu Mo Tu We Th Fr Sa\n 1  2  3  4  5  6  7"+tab)
	if got := progressRun(t, defaultProgress(nil), []step{click, read, click, read, click, read}); len(got) == 0 {
		t.Error("clicks after which the page's text stays the same: no notice")
	}
	// Cline's browser_action answers every step alike; the page is in the screenshot
	// (validation round r249a: three scrolls down an issue's page told "stuck").
	const executed = "The browser action has been executed. The console logs and screenshot have been captured for your analysis.\n\nConsole logs:\n(No new logs)"
	scroll := ok("browser_action", `{"action":"scroll_down"}`, executed)
	launch := ok("browser_action", `{"action":"launch","url":"https://github.com/cline/cline/issues/6767"}`, executed)
	if got := progressRun(t, defaultProgress(nil), []step{launch, scroll, scroll, scroll, scroll}); len(got) != 0 {
		t.Errorf("a page scrolled down, each step answered alike: got %q, want no notice", got)
	}
	for args, want := range map[string]bool{
		`{"action":"left_click","coordinate":[1,2]}`: true, `{"action": "screenshot"}`: true, `{"action":"type","text":"kale"}`: true,
		`{"action":"wait","duration":2}`: false, `{"action":"view","path":"/x"}`: false, `{"command":"left_click"}`: false,
		`{"action":"scroll_down"}`: true, `{"action":"launch","url":"http://localhost:3000"}`: true, `{"action":"close"}`: false,
	} {
		if got := readArgKeys([]byte(args)).onScreen; got != want {
			t.Errorf("readArgKeys(%s).onScreen = %v, want %v", args, got, want)
		}
	}
}

// A command missing inside what the call ran is the call's failure: the same script failing
// the same way after each of four edits is told (review r41).
func TestAScriptsOwnMissingCommandIsItsFailure(t *testing.T) {
	const out = "Running the test suite...\nrun_tests.sh: line 4: pytest: command not found\n"
	var steps []step
	for i := range 5 {
		steps = append(steps,
			ok("bash", `bash run_tests.sh`, out),
			ok("edit", fmt.Sprintf(`{"path":"/w/src/m.py","old_str":"x%d","new_str":"y%d"}`, i, i), "The file /w/src/m.py has been edited."))
	}
	got := progressRun(t, defaultProgress(nil), steps)
	if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, ":errors:") }) {
		t.Errorf("the same script failing the same way after each of four edits: got %q, want an errors notice", got)
	}
	for _, c := range []struct{ result, args string }{
		{"/bin/sh: pytest: command not found\nmake: *** [Makefile:3: test] Error 127\n", `{"command":"make test"}`},
		{"\n> app@1.0.0 test\n> jest\n\nsh: jest: command not found\n", `{"command":"npm test"}`},
	} {
		if said := withoutForeignNotFound(c.result, []byte(c.args)); !looksFailed(said) {
			t.Errorf("%s answered %q: kept %q, which no longer reads as failed", c.args, c.result, said)
		}
	}
}

// Every output of a Cursor session ends with the shell hook's line: taking it off allocates
// nothing (review r41).
func TestObserveAllocatesNothingOnCursorOutputs(t *testing.T) {
	cfg, _ := Preset(PresetDefault)
	eng, _ := New(cfg)
	const distinct = 8192
	events := make([]Event, distinct)
	for i := range events {
		events[i] = Call("agent-1", "run_terminal_cmd", fmt.Appendf(nil, `{"command":"ls /w/d_%d","is_background":false,"explanation":"see \"d\""}`, i)).
			WithResult(fmt.Sprintf("file_%d.go\nfile_%d_test.go\nzsh:1: command not found: dump_zsh_state\n", i, i), false)
	}
	for i := 0; i < 2*distinct; i++ {
		eng.Observe(events[i%distinct])
	}
	i := 0
	if n := testing.AllocsPerRun(1000, func() { eng.Observe(events[i%distinct]); i++ }); n != 0 {
		t.Errorf("%.2f allocations per call, want 0", n)
	}
}

// A tool whose name says "read" but whose arguments name no file (an SQL server's read_query)
// answers with more than a file's text: its failures are read as any tool's (review r41).
func TestReadQueryFailuresAreFailures(t *testing.T) {
	var steps []step
	for i := range 5 {
		steps = append(steps, ok("read_query", fmt.Sprintf(`{"query":"SELECT total FROM orders LIMIT %d"}`, i+1),
			"Database error: no such column: total"))
	}
	got := progressRun(t, defaultProgress(nil), steps)
	if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, ":errors:") }) {
		t.Errorf("four SQL queries failing the same way: got %q, want an errors notice", got)
	}
}

// A program that logs an error it gets over and ends with its own verdict of success
// ("Done.") did not fail: EF Core's design-time host prints a fatal HostAbortedException and
// its stack on every `dotnet ef database update`, then "Done." (validation rounds r37a, r40a).
func TestASuccessVerdictLastIsNoFailure(t *testing.T) {
	const ef = efMigration
	tests := []struct {
		text, args string
		want       bool
	}{
		{ef, "dotnet ef database update", true},
		{"Error: connection refused\n✨  Done in 3.21s.", "yarn build", true},
		{"Ran 4 tests in 0.01s\n\nOK", "python -m unittest", true},
		{"FAILED (failures=1)", "python -m unittest", false},
		{"Error: 1 failed\nDone with errors", "make", false},                                         // not a verdict of success
		{"Done.\nError: migration failed", "make", false},                                            // the failure comes last
		{"Traceback (most recent call last):\nValueError: x\nDone", "python x.py; echo Done", false}, // echoed by the call
		{"FAILED test_api.py::test_health - AssertionError: expected " + strings.Repeat("x", 300) + " OK (200), got 500", "pytest", false},
	}
	for _, tt := range tests {
		if got := endsWithSuccess(tt.text, []byte(tt.args)); got != tt.want {
			t.Errorf("endsWithSuccess(%q, %q) = %v, want %v", tt.text, tt.args, got, tt.want)
		}
	}
	if got := progressRun(t, defaultProgress(nil), migrationsAfterEdits(ef)); len(got) != 0 {
		t.Errorf("five migrations applied, each ending Done.: got %q, want no notice", got)
	}
}

// efMigration is what `dotnet ef database update` prints when it applies its migrations: its
// design-time host's fatal log and stack, then "Done.".
const efMigration = "Build started...\nBuild succeeded.\n[14:02:11 FTL] Application terminated unexpectedly\n" +
	"Microsoft.Extensions.Hosting.HostAbortedException: The host was aborted.\n   at Program.<Main>$(String[] args) in Program.cs:line 98\nDone.\n"

// migrationsAfterEdits is five runs of `dotnet ef database update` answered out, an edit of a
// migration before each.
func migrationsAfterEdits(out string) []step {
	var steps []step
	for i := range 5 {
		steps = append(steps,
			ok("edit_file", fmt.Sprintf(`{"target_file":"Migrations/M%d.cs","code_edit":"x"}`, i), "The edit was applied."),
			ok("run_terminal_cmd", `{"command":"dotnet ef database update"}`, out))
	}
	return steps
}

// The same command failing exactly alike, the user answering between the runs, is told at the
// third identical failure even when the chain began with a slightly different one (another file
// listed as dirty): a real Codex run switched branch six times, its own session log under
// .codex/ dirtying the tree each time (validation round r42b). The commits between the runs
// are changes of the workspace, so the failures are the errors rule's, failing alike however
// the workspace changed (they were told as stuck, "nothing changed in between", while a
// user's message made the engine forget a change: validation round r117b F1).
func TestTheSameFailureAfterASlightlyDifferentOneIsStuck(t *testing.T) {
	dirty := func(file string) string {
		return "error: Your local changes to the following files would be overwritten by checkout:\n\t" + file +
			"\n\t.codex/sessions/2025/12/25/rollout-2025-12-25T22-45-23.jsonl\nPlease commit your changes or stash them before you switch branches.\nAborting\n"
	}
	steps := []step{fail("shell_command", `{"command":"git switch main"}`, dirty(".codex/rules/default.rules"))}
	for i := range 5 {
		steps = append(steps, userSays("2"),
			ok("shell_command", `{"command":"git add .codex"}`, ""),
			ok("shell_command", fmt.Sprintf(`{"command":"git commit -m \"chore: logs %d\""}`, i), "[codex 000] chore: logs\n 2 files changed"),
			userSays("OK"),
			fail("shell_command", `{"command":"git switch main"}`, dirty(".codex/history.jsonl")))
	}
	got := progressRun(t, defaultProgress(nil), steps)
	// the failures are steps 0, 5, 10, 15, ...: the third identical one (after the first) is 15
	if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "15:errors:") }) {
		t.Errorf("got %q, want the failures told at the third identical one (step 15)", got)
	}
}

// Codex's shell tool ran its patches before apply_patch was a tool of its own
// (["apply_patch", "*** Begin Patch..."]): rejections of one file are an edit loop as the
// tool's are, however each is worded (validation round r43a).
func TestPatchesSentThroughTheShellAreEdits(t *testing.T) {
	var steps []step
	for i := range 6 {
		args := fmt.Sprintf(`{"command": ["apply_patch", "*** Begin Patch\n*** Update File: gen/gen.py\n@@\n-    old %d\n+    new %d\n*** End Patch"]}`, i, i)
		steps = append(steps, ok("shell", args, fmt.Sprintf("error: Failed to find expected lines [\"    old %d\"] in /w/gen/gen.py", i)))
	}
	got := progressRun(t, defaultProgress(nil), steps)
	if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, ":errors:") }) {
		t.Errorf("six patches of one file rejected through the shell: got %q, want an errors notice", got)
	}
}

func TestStartupFileErrorsAreTheEnvironmentsNotTheCommands(t *testing.T) {
	tests := []struct {
		name, result, args, want string
	}{
		{"a profile's typo before a program's output goes", "/home/unitree/.bash_profile: line 1: souce: command not found\n[sudo] password for unitree: ",
			`{"cmd":"sudo ./example_walk"}`, "[sudo] password for unitree: "},
		{"a bashrc sourcing a missing file, in the middle", "building\n/root/.bashrc: line 9: /opt/ros/setup.bash: No such file or directory\ndone\n",
			`{"command":"make"}`, "building\ndone\n"},
		{"zsh's form", "~/.zshrc:12: command not found: nvm\nv20.1.0\n", `{"command":"node --version"}`, "v20.1.0\n"},
		{"a system file", "/etc/profile: line 3: x: unbound variable\nok", `{"command":"ls"}`, "ok"},
		{"the call that sources the file keeps its errors", "/root/.bashrc: line 9: /opt/ros/setup.bash: No such file or directory\n",
			`{"command":"source ~/.bashrc"}`, "/root/.bashrc: line 9: /opt/ros/setup.bash: No such file or directory\n"},
		{"a script's own line stays", "run_tests.sh: line 4: pytest: command not found\n", `{"command":"bash run_tests.sh"}`, "run_tests.sh: line 4: pytest: command not found\n"},
		{"a file named like one, not a report", "/home/u/.bashrc is 2 KB\n", `{"command":"ls -l ~/.bashrc"}`, "/home/u/.bashrc is 2 KB\n"},
		{"a file ending in the name is not it", "/home/u/my.profile: line 2: x: command not found\n", `{"command":"sh my.profile"}`, "/home/u/my.profile: line 2: x: command not found\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := withoutStartupFileErrors(tt.result, []byte(tt.args)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// A user profile's typo is reported before every command the shell runs: four runs of a
// program, an edit before each, are no command failing the same way (r54b N1). (The program
// waits for sudo's password at every run, so its answer never moves across the edits: that
// is told, from the fourth run, as a check the edits do not reach, not as a failure.)
func TestAProfilesTypoIsNoFailureOfEveryCommand(t *testing.T) {
	var steps []step
	for i := range 5 {
		steps = append(steps,
			ok("apply_patch", fmt.Sprintf("*** Begin Patch\n*** Update File: walk.cpp\n@@\n-v%d\n+v%d\n*** End Patch", i, i+1), "Success. Updated the following files:\nM walk.cpp"),
			ok("exec_command", `{"cmd":"sudo ./example_walk"}`, "Process running with session ID 26120\nOutput:\n/home/unitree/.bash_profile: line 1: souce: command not found\n[sudo] password for unitree: "))
	}
	if got := progressRun(t, defaultProgress(nil), steps); !slices.Equal(got, []string{"7:thought:exec_command unchanged across edits × 3"}) {
		t.Errorf("got %q, want only the check unchanged across the edits", got)
	}
}

// A shell tool that stopped a command for running out of time says so as the answer's
// opening; the host may record the call as a success (Qwen Code, r54b F1), and ten attempts
// with changing arguments, each timing out, were no failure at all.
func TestAnAnswerOpeningWithATimeoutFailed(t *testing.T) {
	tests := []struct {
		result string
		failed bool
	}{
		{"Command timed out after 30000ms before it could complete. Below is the output before it timed out:\nroot@10.93.25.49's password:", true},
		{"command timed out after 10000 milliseconds", true},
		{"Tests passed.\nNote: one test's command timed out after 5s and was retried.", false},
	}
	for _, tt := range tests {
		if got := looksFailed(tt.result); got != tt.failed {
			t.Errorf("looksFailed(%q) = %v, want %v", tt.result, got, tt.failed)
		}
	}
	var steps []step
	for i := range 6 {
		steps = append(steps, ok("run_shell_command", fmt.Sprintf(`{"command":"ssh -o ConnectTimeout=%d root@10.93.25.49 uptime"}`, 5+i),
			"Command timed out after 30000ms before it could complete. Below is the output before it timed out:\nroot@10.93.25.49's password:"))
	}
	got := progressRun(t, defaultProgress(nil), steps)
	if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, "3:errors:") }) {
		t.Errorf("six ssh attempts, each timing out at the password prompt: %q, want errors at the 4th", got)
	}
}

// A search tool of its own (not a shell's grep, whose exit status 1 means it found nothing)
// that its host says failed did fail, unless its answer is that nothing was found (r54b F2: a
// grep tool's "Path is not within workspace" was read as a search that found nothing).
func TestAHostFlaggedSearchToolFailedUnlessItFoundNothing(t *testing.T) {
	run := func(result string) []string {
		var steps []step
		for i := range 5 {
			steps = append(steps, fail("grep_search", fmt.Sprintf(`{"pattern":"rule%d","path":"C:\\Users\\x\\docs"}`, i), result))
		}
		return progressRun(t, defaultProgress(nil), steps)
	}
	if got := run("Path is not within workspace: C:\\Users\\x\\docs"); !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, ":errors:") }) {
		t.Errorf("five searches its host says failed, each refused the same way: %q, want an errors notice", got)
	}
	if got := run("No matches found for pattern in C:\\Users\\x\\docs"); slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, ":errors:") }) {
		t.Errorf("five searches that found nothing: %q, want no errors notice", got)
	}
	if got := run(""); slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, ":errors:") }) {
		t.Errorf("five searches answered with nothing: %q, want no errors notice", got)
	}
}

// One lookup tried under four names, each failing with a traceback that quotes the call's own
// code, is one tool failing alike (validation round r88c M1: seven guesses at an API's name,
// untold): the quoted code and the name it could not find are the call's echo.
func TestGuessesAtANameFailingAlikeAreErrors(t *testing.T) {
	var steps []step
	for _, name := range []string{"main_user", "email", "MainUser", "profile"} {
		expr := "apis.supervisor." + name + ".email"
		code := `{"code":"creds = next(c for c in apis.supervisor.show_account_passwords() if c['account_name'] == 'gmail')\nif creds:\n    email = ` + expr + `\n    print(email)"}`
		steps = append(steps, fail("python", code, "Execution failed. Traceback:\n  File \"<python-input>\", line 3, in <module>\n    email = "+expr+
			"\n            "+strings.Repeat("^", len(expr))+"\nException: No API named '"+name+"' found in the supervisor app."))
	}
	got := progressRun(t, defaultProgress(nil), steps)
	if len(got) != 1 || !strings.Contains(got[0], "errors:python failed × 4") {
		t.Errorf("four guesses failing alike: got %q, want one errors notice", got)
	}
}

// A call that stops a process whose answer says there is nothing left to stop did what it was
// for (validation round r103a F1).
func TestTargetAlreadyGone(t *testing.T) {
	tests := []struct {
		name, tool, args, result string
		want                     bool
	}{
		{"Claude Code's KillShell of a shell that ended", "KillShell", `{"shell_id":"622570"}`,
			"Shell 622570 is not running, so cannot be killed (status: killed)", true},
		{"bash's kill of a process that exited", "Bash", `{"command":"kill 4242"}`, "bash: line 1: kill: (4242) - No such process", true},
		{"killall with nothing to kill", "bash", `{"command":"killall vite"}`, "vite: no process found", true},
		{"taskkill of a process that is gone", "run_shell_command", `{"command":"taskkill /F /IM node.exe"}`, `ERROR: The process "node.exe" not found.`, true},
		{"PowerShell's Stop-Process", "run_shell_command", `{"command":"Stop-Process -Id 4242"}`, "Stop-Process : Cannot find a process with the process identifier 4242.", true},
		{"a kill refused for want of permission did fail", "Bash", `{"command":"kill 1"}`, "bash: kill: (1) - Operation not permitted", false},
		{"another program saying not found is no kill", "Bash", `{"command":"npm run dev"}`, "sh: vite: not found", false},
		{"a kill tool's other error", "KillShell", `{"shell_id":"x"}`, "Error: permission denied", false},
		{"the words past the answer's opening", "KillShell", `{"shell_id":"x"}`, strings.Repeat("log line\n", 80) + "is not running", false},
		{"a killall the shell could not find stopped nothing", "executeCommand", `{"command":"killall node"}`,
			"/bin/bash: line 1: killall: command not found\nCommand exited with code 127", false},
		{"nor one dash could not find", "bash", `{"command":"pkill -f vite"}`, "sh: 1: pkill: not found", false},
	}
	for _, tt := range tests {
		if got := targetAlreadyGone(tt.tool, []byte(tt.args), tt.result); got != tt.want {
			t.Errorf("%s: targetAlreadyGone = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A command that stops processes and is answered only with a signal's exit status stopped its
// own shell with them (r124b F1).
func TestStoppedItsOwnShell(t *testing.T) {
	tests := []struct {
		name, tool, args, result string
		want                     bool
	}{
		{"pkill -f stopping its own shell with the servers", "Bash", `{"command":"pkill -f \"netlify\"; pkill -f \"vite\"; echo \"Servers killed\""}`, "Exit code 144", true},
		{"kill answered with SIGTERM's status", "bash", `{"command":"pkill -f 'node server.js'"}`, "Process exited with code 143", true},
		{"a kill whose status is no signal's", "Bash", `{"command":"pkill -f netlify"}`, "Exit code 2", false},
		{"a signal's status with a message besides", "Bash", `{"command":"kill -9 1"}`, "bash: kill: (1) - Operation not permitted\nExit code 143", false},
		{"another program stopped by a signal", "Bash", `{"command":"npm test"}`, "Exit code 143", false},
		{"a kill tool answered with a signal's status", "KillShell", `{"shell_id":"3"}`, "Exit code 137", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stoppedItsOwnShell(tt.tool, []byte(tt.args), tt.result); got != tt.want {
				t.Errorf("stoppedItsOwnShell = %v, want %v", got, tt.want)
			}
		})
	}
}

// A browser tool lists what the page logged to its console; the page's errors are not the
// tool's (r110a U1, F1: a page logging "OTS parsing error:" on every load made four
// navigations that worked one navigation failing four times). The tool's own failure, outside
// that list, still fails the call.
func TestAPagesConsoleErrorsAreNotTheBrowserToolsFailure(t *testing.T) {
	const page = "### Ran Playwright code\n```js\nawait page.goto('https://example.cn');\n```\n### Page\n- Page URL: https://example.cn/index/\n- Console: 0 errors, 2 warnings\n"
	const events = "### Events\n- New console entries: .playwright-mcp/console-2026-03-02T02-35-45-064Z.log#L1-L2\n- [WARNING] OTS parsing error: invalid sfntVersion: -272908484 @ https://example.cn/index/:1650\n- [ERROR] Failed to load resource: net::ERR_FAILED @ https://example.cn/health:0"
	tests := []struct {
		name, result string
		failed       bool
	}{
		{"a navigation that worked, the page's console listed", page + events, false},
		{"the console listed before the snapshot", page + events + "\n### Snapshot\n```yaml\n- generic [ref=e2]\n```", false},
		{"the tool's own failure beside the console", "### Result\nTimeoutError: locator.click: Timeout 5000ms exceeded.\n" + events, true},
		{"an error line of a tool that lists no console", "- [WARNING] OTS parsing error: invalid sfntVersion", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCall(&Event{Tool: "browser_navigate", Args: []byte(`{"url":"https://example.cn"}`), Result: tt.result, HasResult: true})
			if got, _ := callOutcome(&c, classEntry{name: "browser_navigate"}, false); got != tt.failed {
				t.Errorf("failed = %v, want %v", got, tt.failed)
			}
		})
	}
	var steps []step
	for i := range 4 {
		steps = append(steps, ok("browser_navigate", fmt.Sprintf(`{"url":"https://example.cn/p%d"}`, i),
			strings.Replace(page, "/index/", fmt.Sprintf("/p%d/", i), 1)+events))
	}
	if got := progressRun(t, defaultProgress(nil), steps); len(got) != 0 {
		t.Errorf("four navigations that worked: %q, want no notice", got)
	}
}

func TestLooksFailedReadsMoreHostsRefusals(t *testing.T) {
	tests := []struct {
		name, result string
		want         bool
	}{
		{"dash's word for a command it could not find", "sh: 1: cmake: not found", true},
		{"in a script dash runs", "Building...\n./run.sh: 3: java: not found\n", true},
		{"a sentence saying something was not found is no shell's report", "Result: key: not found", false},
		{"nor a line that goes on after the words", "sh: 1: cmake: not found in cache, building", false},
		{"pydantic refusing a call's arguments", "1 validation error for execute_bashArguments\ncommand\n  Field required [type=missing, input_value={}, input_type=dict]", true},
		{"or a tool's output", "2 validation errors for find_orthonormal_basisOutput\nresult\n  Input should be a valid list", true},
		{"a count of validation errors a program printed is no refusal", "12 validation errors found in 3 files", false},
		{"Docker's CLI reporting its daemon's refusal", "Error response from daemon: No such container: app", true},
		{"Claude Code's permissions refusing a call", "Permission for this tool use was denied. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). Try a different approach or report the limitation to complete your task.", true},
		{"Claude Code refusing to read a file too big", "File content (82402 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters to read specific portions of the file.", true},
		{"a file's text that begins so is no refusal", "File content (see below) is generated.", false},
		{"bash refusing prose for an unmatched parenthesis", "/bin/bash: line 1: syntax error near unexpected token `('\n/bin/bash: line 1: `search_file builtin_str(method)'", true},
		{"Node printing a module whose exports name an error class", "[Function: Database] { SqliteError: [class SqliteError extends Error] }", false},
		{"nor among other keys", "{ Database: [Function: Database], SqliteError: [class SqliteError extends Error] }", false},
		{"an object's error field still reports one", "{ error: 'ENOENT: no such file or directory' }", true},
		{"an exception's line after a word is one", "Uncaught TypeError: x is not a function", true},
		{"curl's report that it could not connect", "curl: (7) Failed to connect to localhost port 8000 after 0 ms: Couldn't connect to server", true},
		{"under its progress meter", "  % Total    % Received % Xferd\n  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0\ncurl: (6) Could not resolve host: api.example", true},
		{"a page that names curl is no transfer failing", "<p>Install it with curl: see the docs</p>", false},
		{"a program's output under the shell's complaint is the program's", "/bin/bash: line 1: warning: here-document delimited by end-of-file\nall 12 tests passed", false},
		{"Roo Code's apply_diff applying only some parts", "Changes successfully applied to PRD.md:\n\n\nBut unable to apply all diff parts to file: /w/PRD.md, silently use <read_file> tool to check newest file version and re-apply diffs", true},
		{"and applying them all", "Changes successfully applied to PRD.md:", false},
		{"a harness's return code over the output", "rc=1\n[ERROR] Failed to execute goal on project izgw-hub", true},
		{"and alone", "rc=2", true},
		{"a return code of 0 over an error the program printed", "rc=0\nwarning: error.log rotated", false},
		{"rc= inside a line is no header", "job finished rc=1 in a log line", false},
		{"apt's error opening a line", "Reading package lists...\nBuilding dependency tree...\nE: Unable to locate package default-jdk", true},
		{"apt's error as the whole answer", "E: Could not get lock /var/lib/dpkg/lock-frontend", true},
		{"apt's warning is no failure", "Hit:1 http://archive.ubuntu.com/ubuntu jammy InRelease\nW: Some index files failed to download", false},
		{"pytest's lines of an assertion are not apt's", "    def test_x():\nE       assert 1 == 2", false},
		{"an E: inside a line is no apt error", "Section E: the appendix", false},
		{"a check's script reporting the error it provoked", "DEBUG: vrange=[0.e+00 1.e+20]\nCaught expected error: Invalid vmin or vmax", false},
		{"in other words", "Got expected error: division by zero\nall checks done", false},
		{"an unexpected error is one", "Caught unexpected error: Invalid vmin or vmax", true},
		{"a failing check's expectation, opening its line", "Expected error: ValueError\nGot: None", true},
		{"another mark in the answer still counts", "Caught expected error: x\nTraceback (most recent call last):\n  File \"a.py\", line 3", true},
	}
	for _, tt := range tests {
		if got := looksFailed(tt.result); got != tt.want {
			t.Errorf("%s: looksFailed(%q) = %v, want %v", tt.name, tt.result, got, tt.want)
		}
	}
}

// A look at a file answered by its tool's JSON envelope, whose error field says the file could
// not be read, failed: the file's text would be the envelope's content.
func TestALookAnsweredByAnErrorEnvelopeFailed(t *testing.T) {
	cfg, _ := Preset(PresetDefault)
	eng, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for result, want := range map[string]bool{
		`{"error":"ENOENT: no such file or directory, open '/home/user/app/x.ts'"}`:       true,
		`{"content":"export class ErrorResponse extends Error {}\n","isTruncated":false}`: false,
		`{"content":"{\"error\": \"not found\"}","isTruncated":false}`:                    false,
	} {
		ev := Call("a", "readFile", []byte(`{"path":"/home/user/app/x.ts","startLine":1,"endLine":200}`)).WithResult(result, false)
		if got := eng.CallFailed(ev); got != want {
			t.Errorf("CallFailed(readFile answered %s) = %v, want %v", result, got, want)
		}
	}
}

func TestCallOutcomeReadsWhatIsTheFilesText(t *testing.T) {
	cfg, _ := Preset(PresetDefault)
	eng, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	npmInit := "Wrote to /home/user/app/package.json:\r\n\r\n{\r\n  \"name\": \"app\",\r\n  \"scripts\": {\r\n    \"test\": \"echo \\\"Error: no test specified\\\" && exit 1\"\r\n  }\r\n}\r\n\r\n"
	tests := []struct {
		name, tool, args, result string
		want                     bool
	}{
		{"a grep of files whose matches hold failure marks found them", "Bash", `{"command":"grep -rn 'Error:' src"}`,
			"src/app.go:12:\treturn fmt.Errorf(\"Error: bad input\")\nsrc/db.go:40:\tlog.Println(\"Error: retry\")", false},
		{"so did a search tool's", "Grep", `{"pattern":"panic:","path":"/w/src","output_mode":"content"}`,
			"/w/src/main.go:88:\t// panic: only in tests\n/w/src/run.go:12:\tlog.Fatal(\"panic: x\")", false},
		{"and one file's lines by number", "exec", `{"command":"rg -n 'FAILED' ci.yml"}`, "14:      - run: echo FAILED\n20:      - run: exit 1 # FAILED", false},
		{"a grep's own complaint is a failure", "Bash", `{"command":"grep -rn Error /w/missing"}`, "grep: /w/missing: No such file or directory", true},
		{"a grep fed a build's output finds the build's failures", "Bash", `{"command":"make 2>&1 | grep error"}`,
			"main.c:12:5: error: expected ';' before '}' token", true},
		{"npm's word that it wrote package.json, and the file, is no failure", "executeCommand", `{"command":"npm init -y"}`, npmInit, false},
		{"what follows the file still counts", "executeCommand", `{"command":"npm init -y && npm i nope"}`,
			npmInit + "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/nope\nnpm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log", true},
		{"a search tool whose arguments did not validate never searched", "search__web_search", `{"query":"x","limit":"5"}`,
			"1 validation error for web_searchArguments\nlimit\n  Input should be a valid integer [type=int_parsing, input_value='5', input_type=str]", true},
		{"a search tool whose program is missing failed", "grep_search", `{"Query":"TODO","SearchPath":"C:\\src"}`,
			`exec: "grep": executable file not found in %PATH%`, true},
		{"npm's closing line says it failed", "executeCommand", `{"command":"npm run dev"}`,
			"npm error Missing script: \"dev\"\nnpm error\nnpm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log", true},
	}
	for _, tt := range tests {
		ev := Call("a", tt.tool, []byte(tt.args)).WithResult(tt.result, false)
		if got := eng.CallFailed(ev); got != tt.want {
			t.Errorf("%s: CallFailed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// FuzzCallFailed feeds the failure reading arbitrary calls: it must not panic, and must read
// the same call alike twice (it keeps no state).
func FuzzCallFailed(f *testing.F) {
	f.Add("Bash", `{"command":"grep -rn Error src"}`, "src/a.go:12: Error: x\ngrep: b: No such file or directory", false)
	f.Add("executeCommand", `{"command":"npm init -y"}`, "Wrote to /a/package.json:\n\n{\"scripts\": {\"test\": \"Error: x\"}}\nnpm error A complete log of this run can be found in: x", false)
	f.Add("bash", "sh -c x", "sh: 1: x: not found\ncurl: (7) Failed", true)
	f.Add("readFile", `{"path":"/a"}`, `{"error":"ENOENT"}`, false)
	f.Add("Bash", `{"command":"killall node"}`, "1 validation error for x\nThe command 'x' was cancelled because it took more than 3 seconds", false)
	f.Add("bash", `{"command":"gh pr diff | awk '{x}'"}`, "awk: syntax error at source line 7\n context is\nawk: illegal statement", false)
	f.Add("exec", `{"command":"make"}`, "make[1]: *** [all] Error 2\nsrc/a.ts(1,2): error TS2322: x", false)
	f.Add("search", `{"q":"x"}`, "Request failed with status code 503", false)
	cfg, _ := Preset(PresetDefault)
	eng, err := New(cfg)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, tool, args, result string, flagged bool) {
		ev := Call("a", tool, []byte(args)).WithResult(result, flagged)
		if a, b := eng.CallFailed(ev), eng.CallFailed(ev); a != b {
			t.Fatalf("CallFailed read the same call as %v, then %v", a, b)
		}
	})
}

func TestCallFailedReadsProgramsOwnDiagnostics(t *testing.T) {
	cfg, _ := Preset(PresetDefault)
	eng, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, tool, args, result string
		flagged, want            bool
	}{
		{"a search the shell could not parse never searched, whatever its host's flag", "execute_bash",
			`{"command":"find . -name \"*.py\" -exec grep -l \"x\" {} \\; | head"}`, "bash: syntax error near unexpected token `|'", true, true},
		{"nor without the flag", "execute_bash",
			`{"command":"find . -name \"*.py\" -exec grep -l \"x\" {} \\; | head"}`, "bash: syntax error near unexpected token `|'", false, true},
		{"a search that found nothing did not fail", "execute_bash", `{"command":"grep -rn nope src"}`, "", true, false},
		{"make's word that it stopped", "exec", `{"command":"make -C docs linkcheck 2>&1 | tail"}`,
			"Running Sphinx v7.1\nbroken    https://x.org/a - 404\nmake: *** [Makefile:20: linkcheck] Error 1", false, true},
		{"GNU make under its other names, in a recursion", "exec", `{"command":"gmake test-nested"}`,
			"gmake[1]: Entering directory '/app'\ngmake[1]: *** No rule to make target 'test-nested'.  Stop.", false, true},
		{"make's other lines are no failure", "exec", `{"command":"make"}`, "make: Nothing to be done for 'all'.", false, false},
		{"a line of stars after another word is not make's", "exec", `{"command":"./report"}`, "summary: *** 3 items ***\nremake: *** x", false, false},
		{"tsc's errors, piped through head", "executeCommand", `{"command":"npx tsc --noEmit 2>&1 | head -20"}`,
			"src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.", false, true},
		{"tsc's pretty errors", "executeCommand", `{"command":"npx tsc --noEmit --pretty"}`,
			"src/app.ts:12:5 - error TS2339: Property 'x' does not exist on type 'Y'.\n\n12     y.x = 1\n       ~", false, true},
		{"a type check that passed", "executeCommand", `{"command":"npx tsc --noEmit && echo ok"}`, "ok", false, false},
		{"awk's complaint that it could not parse its program, the text shown below", "Bash", `{"command":"gh pr diff 177 2>/dev/null | awk '/^diff/ { if (\\!skip) print }'"}`,
			"awk: syntax error at source line 7\n context is\n\t    if >>>  (\\ <<< !skip) print\nawk: illegal statement at source line 7", false, true},
		{"jq's", "bash", `{"command":"curl -s localhost:8080/api | jq .items[0].name"}`, `jq: error (at <stdin>:0): Cannot index string with "items"`, false, true},
		{"sed's", "bash", `{"command":"sed -i 's/foo/bar' a.txt"}`, "sed: -e expression #1, char 9: unterminated `s' command", false, true},
		{"mkdir's", "bash", `{"command":"mkdir build"}`, "mkdir: cannot create directory 'build': File exists", false, true},
		{"a program's warning is no complaint", "bash", `{"command":"grep -c x a.txt"}`, "grep: warning: GREP_COLOR='1;32' is deprecated; use GREP_COLORS='mt=1;32'\n3", false, false},
		{"a line the command prints is not a program's complaint", "bash", `{"command":"python report.py"}`, "note: invalid rows are skipped\n12 rows read", false, false},
		{"a complaint followed by another program's output is a command that went on", "bash", `{"command":"mkdir out; cd out && cmake .."}`,
			"mkdir: cannot create directory 'out': File exists\n-- Configuring done\n-- Generating done", false, false},
		{"a program's words without one of an error", "bash", `{"command":"file a.bin"}`, "a.bin: ELF 64-bit LSB executable, x86-64", false, false},
		{"pytest's closing summary of a run that passed is its verdict, whatever the tests printed above it", "pytest", `pytest -s reproduce.py`,
			"============================= test session starts ==============================\nreproduce.py <ExceptionInfo LookupError tblen=2>\n/w/reproduce.py:20: LookupError: A\n.\n\n=========================== 1 passed in 0.01 seconds ===========================", false, false},
		{"also under SWE-agent's status lines", "bash", `pytest -s reproduce.py`,
			"reproduce.py LookupError: A\n.\n============================== 1 passed, 1 warning in 0.02s ===============================\n\n(Open file: n/a)\n(Current directory: /w)\nbash-$", false, false},
		{"a summary with a failure is no pass", "bash", `pytest -q`,
			"E   AssertionError: assert 1 == 2\n========================= 1 failed, 3 passed in 0.10s =========================", false, true},
		{"nor is a run that only skipped", "bash", `pytest -q`, "ERROR: x\n========================= 2 skipped in 0.10s =========================", false, true},
		{"SWE-agent's open of a file that is not there", "bash", `open dvc/url_info.py`,
			"File dvc/url_info.py not found\n\n(Open file: /dvc/dvc/path_info.py)\n(Current directory: /dvc)\nbash-$", false, true},
		{"and by its own tool, no flag kept", "open", `open dvc/url_info.py`, "File dvc/url_info.py not found", false, true},
		{"SWE-agent's viewer sent through a shell shows the file, whatever its text holds", "bash", `open dvc/lock.py`,
			"[File: /dvc/dvc/lock.py (100 lines total)]\n1:import os\n7:    raise LockError(\"Error: unable to acquire lock\")\n", false, false},
		{"but not a viewer's refusal of its arguments, its usage then its error", "bash", `open dask_geopandas.io`,
			"Usage: open <file> [<line_number>]\nError: <line_number> must be a number\n\n(Open file: /w/core.py)\n(Current directory: /w)\nbash-$", false, true},
		{"a usage printed on request is no refusal", "bash", `open`, "Usage: open <file> [<line_number>]\n", false, false},
		{"as does a move of its window", "bash", `goto 50`, "[File: /dvc/dvc/lock.py (100 lines total)]\n(40 more lines above)\n50:        raise LockError(\"Error: lock held\")", false, false},
		{"a search whose directory is not there never searched, whatever its host's flag says", "search_dir", `search_dir "UNWRAP" src/main/java`,
			"Directory src/main/java not found", true, true},
		{"a search that found nothing did not fail", "search_dir", `search_dir "UNWRAP" src`, "No matches found for \"UNWRAP\" in /w/src", true, false},
		{"a file not found that the call does not name is another story", "bash", `python check.py`, "File config.yaml not found, using defaults\nok", false, false},
		{"zsh's word that the program to run is not there", "Bash", `{"command":"./mvnw -q test"}`, "zsh: no such file or directory: ./mvnw", false, true},
		{"and to a redirection into a folder that is not there", "Bash", `{"command":"nohup python x.py > logs/x.log 2>&1 &"}`, "Started: x\n(eval):1: no such file or directory: logs/x.log", false, true},
		{"Go's error logged by a program that goes on is not zsh's", "bash", `{"command":"go test -v ./pkg/x"}`,
			"=== RUN   TestX\n2026/12/06 DEBUG path error=\"lstat /tmp/x: no such file or directory\"\n--- PASS: TestX (0.00s)\nPASS\nok  \tx/pkg/x\t0.01s", false, false},
		{"gh's word that it could not reach GitHub", "bash", `{"command":"gh pr view 12"}`,
			"error connecting to api.github.com\ncheck your internet connection or https://githubstatus.com", false, true},
		{"an API's wrapper that could not reach it", "nasa__get_gst", `{"startDate":"2024-01-01"}`, "Could not retrieve GST data due to a connection error.", false, true},
		{"curl's verbose lines when a pipe cut its error off", "Bash", `{"command":"curl -v http://localhost:8000/health 2>&1 | head -10"}`,
			"*   Trying [::1]:8000...\n* connect to ::1 port 8000 from ::1 port 34792 failed: Connection refused\n* Failed to connect to localhost port 8000 after 1 ms: Couldn't connect to server", false, true},
		{"zsh's kill of a process already gone stopped what it was for", "run_terminal_cmd", `kill -9 2471 39594`, "kill: kill 2471 failed: no such process", false, false},
		{"a web API's wrapper saying its request failed with a client's error status", "DEX_Paprika__search", `{"query":"ethereum ETH mainnet"}`,
			"API request failed with status 400", false, true},
		{"Axios's words for a server's", "fetch_page", `{"url":"https://x.org/a"}`, "Request failed with status code 503", false, true},
		{"a request that failed with a status of success is some other story", "fetch_page", `{"url":"https://x.org/a"}`, "Request failed with status 200 after retry", false, false},
		{"a service asking to be tried again later", "search__web_search", `{"query":"earliest landscape paintings"}`,
			"Google search Timeout/Error, return None, Please try again later.", false, true},
		{"a document that quotes such words is not a refusal", "fetch_page", `{"url":"https://x.org/errors"}`,
			"# Errors\n\nWhen the quota is spent the API answers: Rate limit exceeded. Please try again later.\n\nWait a minute and retry.", false, false},
	}
	for _, tt := range tests {
		ev := Call("a", tt.tool, []byte(tt.args)).WithResult(tt.result, tt.flagged)
		if got := eng.CallFailed(ev); got != tt.want {
			t.Errorf("%s: CallFailed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Reading pytest's closing summary allocates nothing: it runs for answers that read as failed,
// which a steady state of failing test runs makes every call.
func TestPytestSummaryAllocatesNothing(t *testing.T) {
	answer := "E   AssertionError\n==== 3 passed, 1 skipped, 2 warnings in 0.12s ====\n(Open file: n/a)\nbash-$"
	if allocs := testing.AllocsPerRun(100, func() { pytestPassed(answer) }); allocs != 0 {
		t.Errorf("pytestPassed allocates %.0f times, want 0", allocs)
	}
	if !pytestPassed(answer) {
		t.Errorf("pytestPassed(%q) = false, want true", answer)
	}
}

func TestSWEAgentStatusLinesAreNotTheAnswer(t *testing.T) {
	tests := []struct{ name, result, want string }{
		{"the block and its prompt", "File a.py not found\n\n(Open file: /w/b.py)\n(Current directory: /w)\nbash-$", "File a.py not found\n\n"},
		{"the block without a prompt", "done\n(Open file: n/a)\n(Current directory: /w)\n", "done\n"},
		{"an interactive session's line", "ok\n(Interactive session: gdb)\nbash-$", "ok\n"},
		{"an answer that is nothing else is left whole", "(Open file: n/a)\n(Current directory: /w)\nbash-$", "(Open file: n/a)\n(Current directory: /w)\nbash-$"},
		{"a bracketed line of the answer's own stays", "total (3 files)", "total (3 files)"},
		{"status words inside the answer stay", "(Open file: x) was printed\nthen more", "(Open file: x) was printed\nthen more"},
		{"a line after the block keeps it", "ok\n(Current directory: /w)\nmore output", "ok\n(Current directory: /w)\nmore output"},
		{"a shell prompt alone goes", "listing\nbash-$", "listing\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := withoutStatusLines(tt.result); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCommandPlacesTellFilesOfOneNameApart(t *testing.T) {
	tests := []struct {
		name, a, b string
		apart      bool
	}{
		{"two relative paths to one name", "open dandi/fields.py", "open fields.py", true},
		{"one path with and without ./", "python ./repro.py", "python repro.py", false},
		{"options aside", `{"command":"pytest -x tests/test_a.py"}`, `{"command":"pytest tests/test_a.py"}`, false},
		{"an absolute path may be the relative one", "python3 /workspace/repro.py", "python3 repro.py", false},
		{"a cd step moves the command", "cd src && python x.py", "python x.py", false},
		{"quoted paths", `cat "docs/a.md"`, `cat "a.md"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, pa, _ := commandKey("bash", []byte(tt.a))
			_, pb, _ := commandKey("bash", []byte(tt.b))
			if apart := pa != 0 && pb != 0 && pa != pb; apart != tt.apart {
				t.Errorf("places of %s = %x, of %s = %x: apart %v, want %v", tt.a, pa, tt.b, pb, apart, tt.apart)
			}
		})
	}
}

func TestEchoedFailureSiteIsWhereTheCallsOwnNameFailed(t *testing.T) {
	trace := func(file string, line int, msg string) string {
		return fmt.Sprintf("Traceback (most recent call last):\n  File \"/w/%s\", line %d, in <module>\n    x = f()\n  File \"/usr/lib/python3/site.py\", line 12, in f\n    raise E\n%s", file, line, msg)
	}
	args := []byte("Python(file_path=\"./stats.py\"):\nx = df['beak_depth']")
	tests := []struct {
		name, said string
		args       []byte
		want       bool
	}{
		{"a key the call wrote, raised in its script", trace("stats.py", 9, "KeyError: 'beak_depth'"), args, true},
		{"a name the call wrote, double-quoted", trace("stats.py", 9, `NameError: name "beak_depth" is not defined`), args, true},
		{"a name the call did not write", trace("stats.py", 9, "KeyError: 'species'"), args, false},
		{"raised in no file the call names", trace("other.py", 9, "KeyError: 'beak_depth'"), args, false},
		{"a message that quotes nothing", trace("stats.py", 9, "ZeroDivisionError: division by zero"), args, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, _ := failureLine(tt.said)
			if got := echoedFailureSite(line, tt.said, tt.args) != 0; got != tt.want {
				t.Errorf("echoedFailureSite(%q) found a site: %v, want %v", line, got, tt.want)
			}
		})
	}
	line, _ := failureLine(trace("stats.py", 9, "KeyError: 'beak_depth'"))
	other, _ := failureLine(trace("stats.py", 9, "KeyError: 'Beak Depth'"))
	a := echoedFailureSite(line, trace("stats.py", 9, "KeyError: 'beak_depth'"), args)
	b := echoedFailureSite(other, trace("stats.py", 9, "KeyError: 'Beak Depth'"), []byte("Python(file_path=\"./stats.py\"):\nx = df['Beak Depth']"))
	c := echoedFailureSite(line, trace("stats.py", 11, "KeyError: 'beak_depth'"), args)
	if a != b || a == c {
		t.Errorf("sites: same line, other guess %x vs %x (want equal); another line %x (want different)", a, b, c)
	}
}

func TestRanNothingIsTheShellDecliningTheWholeCommand(t *testing.T) {
	tests := []struct {
		name, said, args string
		want             bool
	}{
		{"the shell could not parse it", "/bin/bash: line 2: unexpected EOF while looking for matching `''\n/bin/bash: line 4: syntax error: unexpected end of file", "DISCUSSION\nLet's go", true},
		{"every line a program of the call's not found", "/bin/bash: line 9: DISCUSSION: command not found\n/bin/bash: line 10: It: command not found", "DISCUSSION\nIt seems wrong", true},
		{"under SWE-agent's status lines", "bash: rg: command not found\n\n(Open file: n/a)\n(Current directory: /w)\nbash-$", "rg TODO src", true},
		{"a script's own missing program ran the script", "run_tests.sh: line 4: pytest: command not found", "bash run_tests.sh", false},
		{"a program that printed before a missing one ran", "building\nbash: cmake: command not found", "make && cmake .", false},
		{"a failure of another kind", "Traceback (most recent call last):\nValueError: x", "python a.py", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ranNothing(tt.said, []byte(tt.args)); got != tt.want {
				t.Errorf("ranNothing(%q) = %v, want %v", tt.said, got, tt.want)
			}
		})
	}
}

// FuzzFailureReaders: the readers of a failed answer take any text without panicking, and the
// status lines and the prompt taken off an answer leave a prefix of it, never an empty one.
func FuzzFailureReaders(f *testing.F) {
	for _, s := range []string{
		"File a.py not found\n\n(Open file: /w/b.py)\n(Current directory: /w)\nbash-$",
		"Traceback (most recent call last):\n  File \"/w/./x.py\", line 9, in <module>\nKeyError: 'beak'",
		"/bin/bash: line 9: DISCUSSION: command not found\n/bin/bash: line 10: It: command not found",
		"bash-$", "(Open file: ", "File \"", `KeyError: '`, "",
		"Your proposed edit has introduced new syntax error(s).\nERRORS:\n- E999 IndentationError: unexpected indent\n\n[File: /w/a.py (9 lines total)]",
		"\nERRORS:\n- ", "\nERRORS:\n- x\n[File:  (",
		"Tests  1 failed\n\n╭─\ue0b2 ~/app \ue0b1 main ?4 \ue0b4····\ue0b6 1 ✘ \ue0b3 22:41:41 \ue0b0\n╰─", "\ue0b0\n❯ ", "\xee\x82", "x\n\xee",
		"--- FAIL: TestX (0.00s)\nFAIL\nFAIL\tpkg\t0.01s", " FAIL  src/a.test.ts", "FAIL", "--- FAIL", "--- FAIL:",
		"Requirement already satisfied: pandas in /usr/lib (2.2)", "0 upgraded, 0 newly installed, 0 to remove", "ünïcödé ünïcödé ünïcödé",
	} {
		f.Add(s, "Python(file_path=\"x.py\"):\ndf['beak']")
	}
	f.Add("Requirement already satisfied: pandas in /usr/lib (2.2)", `{"command":"sudo python3 -m pip install pandas"}`)
	f.Fuzz(func(t *testing.T, said, args string) {
		if got := withoutStatusLines(said); !strings.HasPrefix(said, got) {
			t.Errorf("withoutStatusLines(%q) = %q, not a prefix", said, got)
		}
		if got := withoutPromptLines(said); !strings.HasPrefix(said, got) || strings.TrimSpace(got) == "" && strings.TrimSpace(said) != "" {
			t.Errorf("withoutPromptLines(%q) = %q, not a prefix with something in it", said, got)
		}
		if testRunnerFailLine(said) && !strings.Contains(said, "FAIL") {
			t.Errorf("testRunnerFailLine(%q) without the word", said)
		}
		ranNothing(said, []byte(args))
		line, _ := failureLine(said)
		echoedFailureSite(line, said, []byte(args))
		quotesFromArgs(said, []byte(args))
		if errs, file, _ := lintRejection(said); errs == 0 && file != 0 {
			t.Errorf("lintRejection(%q) names a file without listing errors", said)
		}
		if installedNothing([]byte(args), said) && !installedNone(said) {
			t.Errorf("installedNothing(%q, %q) with an answer that does not say so", args, said)
		}
		if clipped := clipLine(said, 16); len(clipped) > 16+len("…") || utf8.ValidString(said) && !utf8.ValidString(clipped) {
			t.Errorf("clipLine(%q, 16) = %q", said, clipped)
		}
	})
}

// Roo Code's apply_diff that applied only some of its parts did not go as sent: a failure, and
// no change, so the same file read again between such answers, unchanged, is read again with
// nothing changed (validation round r248a L1).
func TestAnEditAppliedInPartIsNoChange(t *testing.T) {
	partly := "Changes successfully applied to PRD.md:\n\n\nBut unable to apply all diff parts to file: /w/PRD.md, silently use <read_file> tool to check newest file version and re-apply diffs"
	read := ok("read_file", `{"path":"PRD.md"}`, "<file><path>PRD.md</path>\n<content lines=\"1-191\">\n  1 | # Prompt management\n  2 | The plan as it stands.\n</content>\n</file>")
	apply := func(i int, answer string) step {
		return ok("apply_diff", fmt.Sprintf(`{"path":"PRD.md","diff":"<<<<<<< SEARCH\n:start_line:24\n-------\nold %d\n=======\nnew\n>>>>>>> REPLACE"}`, i), answer)
	}
	var loop, landed, inARow []step
	for i := range 4 {
		loop = append(loop, apply(i, partly), read)
		landed = append(landed, apply(i, "Changes successfully applied to PRD.md:"), read)
		inARow = append(inARow, apply(i, partly))
	}
	runProgressCases(t, []progressCase{
		{"applied in part, the file read after each unchanged", loop, []string{"5:stuck:read_file × 3"}},
		{"applied whole: a read after each edit is news", landed, nil},
		{"applied in part four times in a row: the edits failing", inARow, []string{"3:errors:apply_diff failed × 4"}},
	})
}
