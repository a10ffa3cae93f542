package loopguard

import (
	"fmt"
	"testing"
)

func TestPrintedTextIsWhatAChangeAddsAPrintOf(t *testing.T) {
	tests := []struct {
		name, args, want string
	}{
		{"an f-string's words before its first value, escaped in JSON",
			`{"command":"str_replace","path":"q.py","old_str":"x = 1","new_str":"print(f\"DEBUG: value = {value}\")\nx = 1"}`, "DEBUG: value ="},
		{"SWE-agent's edit, written as it is",
			"edit 91:92\n            print(\"Debug:\", path, self.store)\n            raise FileNotFoundError(path)\nend_of_edit", "Debug:"},
		{"Java's println", `edit 178:178\n    System.out.println("Entering vanillaDeserialize");\nend_of_edit`, "Entering vanillaDeserial"},
		{"console.log with single quotes", `{"path":"a.js","new_str":"console.log('state of the queue', q)"}`, "state of the queue"},
		{"the last print when there are several", "print(\"first probe\")\nprint(\"second probe\")", "second probe"},
		{"a long text is cut to what finding it needs", `print("the value of the configuration object is now", cfg)`, "the value of the configu"},
		{"a print of a value alone has no text", "print(value)", ""},
		{"a text that opens with a value has none before it", `print(f"{x=}")`, ""},
		{"a text too short to find", `print("ok")`, ""},
		{"a word that ends in print is no call", `fingerprint = "abcdef"`, ""},
		{"a replacement keeping a print in its old and new text adds none",
			`{"old_str":"print(\"Debug: store\")\nreturn x","new_str":"print(\"Debug: store\")\nreturn y"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(printedText([]byte(tt.args))); got != tt.want {
				t.Errorf("printedText(%q) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
}

func TestPrintedInFindsPrintedTextNotItsSource(t *testing.T) {
	tests := []struct {
		name, result, text string
		want               bool
	}{
		{"at a line's start", "DEBUG: value = 3\nTraceback (most recent call last):", "DEBUG: value =", true},
		{"after other printed words", "      Debug:  {}\n    raise FileNotFoundError(path)", "Debug:", true},
		{"only in the print's own line that a traceback quotes",
			"    def f(x):\n        print(\"DEBUG: value =\", x)\n>       raise ValueError(x)\nE   ValueError: 3", "DEBUG: value =", false},
		{"inside another word", "ModuleNotFoundError: No module named 'studio_client_utils'", "Error:", false},
		{"not there", "TypeError: unhashable type", "DEBUG: value =", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := printedIn(tt.result, tt.text); got != tt.want {
				t.Errorf("printedIn(%q, %q) = %v, want %v", tt.result, tt.text, got, tt.want)
			}
		})
	}
}

// probeLoop is a model editing /w/query.py and running its script after each edit, the
// script failing the same way every time; edit(i) is the new text of the i-th edit, and
// printed(i) what the run after it prints above the traceback.
func probeLoop(n int, edit, printed func(i int) string) []step {
	var steps []step
	for i := range n {
		steps = append(steps, ok("str_replace_editor",
			fmt.Sprintf(`{"command":"str_replace","path":"/w/query.py","old_str":"attempt %d","new_str":%q}`, i, edit(i)),
			"The file /w/query.py has been edited."),
			fail("bash", `{"command":"python reproduce.py"}`, printed(i)+"Traceback (most recent call last):\n"+
				"  File \"/w/reproduce.py\", line 7, in <module>\n    rows = run(query)\n"+
				"  File \"/w/query.py\", line 31, in run\n    return cursor.execute(sql, params)\n"+
				"sqlite3.InterfaceError: Error binding parameter 0 - probably unsupported type.\n"))
	}
	return steps
}

func TestPrintsAnsweredByAFailingRunMakeItSpeakOneRepeatLater(t *testing.T) {
	fix := func(i int) string { return fmt.Sprintf("attempt %d", i+1) }
	probe := func(i int) string {
		return fmt.Sprintf("print(f\"DEBUG: probe number %d: {value}\")\nattempt %d", i, i+1)
	}
	answered := func(i int) string { return fmt.Sprintf("DEBUG: probe number %d: <LazyObject>\n", i) }
	nothing := func(int) string { return "" }
	kept := func(i int) string { return fmt.Sprintf("print(f\"DEBUG: probe number 0: {value}\")\nattempt %d", i+1) }
	keptAnswered := func(i int) string { return fmt.Sprintf("DEBUG: probe number 0: <LazyObject at %d>\n", 3*i+1) }
	once := func(i int) string {
		if i == 0 {
			return kept(i)
		}
		return fix(i)
	}
	runProgressCases(t, []progressCase{
		{"edits that leave the failure as it was are told at its fourth run",
			probeLoop(6, fix, nothing), []string{"7:errors:bash failed × 4"}},
		{"a print added before each run, its answer shown above the same failure, is told one run later",
			probeLoop(6, probe, answered), []string{"9:errors:bash failed × 5"}},
		{"prints added to code that never runs answer nothing, and are told as edits",
			probeLoop(6, probe, nothing), []string{"7:errors:bash failed × 4"}},
		{"one print carried along every edit asked its question once",
			probeLoop(6, kept, keptAnswered), []string{"7:errors:bash failed × 4"}},
		{"a print added before the failures began is no question the edits since asked",
			probeLoop(6, once, keptAnswered), []string{"7:errors:bash failed × 4"}},
	})
}

// A hook restores the agent's snapshot for every call: the print's text must be in it.
func TestPrintsAnsweredAreKeptByARestoredEngine(t *testing.T) {
	steps := probeLoop(6, func(i int) string { return fmt.Sprintf("print(f\"DEBUG: probe number %d: {value}\")", i) },
		func(i int) string { return fmt.Sprintf("DEBUG: probe number %d: <LazyObject>\n", i) })
	live := progressRun(t, defaultProgress(nil), steps)
	restored := progressRunVia(t, defaultProgress(nil), steps, true)
	if len(live) != 1 || fmt.Sprint(live) != fmt.Sprint(restored) {
		t.Fatalf("live %q, restored %q: want the same one notice", live, restored)
	}
}
