package loopguard

import (
	"fmt"
	"strings"
	"testing"
)

// lintRejected is SWE-agent's answer to an edit its linter refused: the errors listed, then
// the edited file as the edit would have left it.
func lintRejected(file string, errors ...string) string {
	var b strings.Builder
	b.WriteString("Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\n\nERRORS:\n")
	for _, e := range errors {
		b.WriteString("- " + e + "\n")
	}
	b.WriteString("\nThis is how your edit would have looked if applied\n-------------------------------------------------\n")
	fmt.Fprintf(&b, "[File: %s (18 lines total)]\n(3 more lines above)\n4:\n5:def test_reproduce():\n6:    k = sp.symbols('k')\n", file)
	b.WriteString("-------------------------------------------------\n\nThis is the original code before your edit\n")
	return b.String()
}

func TestLintRejectionReadsTheErrorsAndTheFile(t *testing.T) {
	indent := lintRejected("/repo/reproduce.py", "E999 IndentationError: unexpected indent")
	undefined := lintRejected("/repo/reproduce.py", "F821 undefined name 'f2'")
	tests := []struct {
		name        string
		a, b        string
		sameErrors  bool
		sameFile    bool
		wantErrs    bool // a lists errors
		wantFileOfA bool // a names its file
	}{
		{"the same errors in the same file", indent, indent, true, true, true, true},
		{"other errors, the same file", indent, undefined, false, true, true, true},
		{"the same errors in another file", indent, lintRejected("/repo/src/trig.py", "E999 IndentationError: unexpected indent"), true, false, true, true},
		{"an error found on another line is the same error",
			lintRejected("/repo/a.py", "line 24 col 5: E999 IndentationError: unexpected indent at line 24"),
			lintRejected("/repo/a.py", "line 25 col 5: E999 IndentationError: unexpected indent at line 25"), true, true, true, true},
		{"one error more is other errors",
			lintRejected("/repo/a.py", "F821 undefined name 'sp'"),
			lintRejected("/repo/a.py", "F821 undefined name 'sp'", "F821 undefined name 'f1'"), false, true, true, true},
		{"errors without a listing name no file",
			"Your proposed edit has introduced new syntax error(s).\nERRORS:\n- E999 SyntaxError: invalid syntax\n",
			"Your proposed edit has introduced new syntax error(s).\nERRORS:\n- E999 SyntaxError: invalid syntax\n", true, true, true, false},
		{"no error list: not a linter's rejection", "No replacement was performed, old_str `x` did not appear verbatim in /repo/a.py.",
			"[File: /repo/a.py (18 lines total)]\n1:import os", true, true, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errsA, fileA, _ := lintRejection(tt.a)
			errsB, fileB, _ := lintRejection(tt.b)
			if (errsA != 0) != tt.wantErrs || (fileA != 0) != tt.wantFileOfA {
				t.Fatalf("lintRejection(a) = %x, %x; want errors %v, file %v", errsA, fileA, tt.wantErrs, tt.wantFileOfA)
			}
			if (errsA == errsB) != tt.sameErrors {
				t.Errorf("errors alike = %v, want %v (%x, %x)", errsA == errsB, tt.sameErrors, errsA, errsB)
			}
			if (fileA == fileB) != tt.sameFile {
				t.Errorf("files alike = %v, want %v (%x, %x)", fileA == fileB, tt.sameFile, fileA, fileB)
			}
		})
	}
}

// Edits the linter refused, one after another, are told as the edit failing alike when they
// are of one file, whatever each refusal listed, or list the same errors, whatever the file;
// not when each went to another file with other errors: the model fixed what one listed, and
// moved on (testdata/labels: sympy-11870, whose fifth edit landed).
func TestLintRejectionsAreOneFailureByFileOrByErrors(t *testing.T) {
	type try struct{ file, err string }
	tests := []struct {
		name  string
		tries []try
		want  bool // an errors notice by the fourth
	}{
		{"one file, the errors changing", []try{
			{"/repo/reproduce.py", "E999 IndentationError: unexpected indent"},
			{"/repo/reproduce.py", "F821 undefined name 'f2'"},
			{"/repo/reproduce.py", "E999 IndentationError: expected an indented block"},
			{"/repo/reproduce.py", "F821 undefined name 'f1'"}}, true},
		{"two files, the same error", []try{
			{"/repo/src/trig.py", "E999 IndentationError: unexpected indent"},
			{"/repo/reproduce.py", "E999 IndentationError: unexpected indent"},
			{"/repo/src/trig.py", "E999 IndentationError: unexpected indent"},
			{"/repo/reproduce.py", "E999 IndentationError: unexpected indent"}}, true},
		{"another file with other errors, then three tries of one file", []try{
			{"/repo/src/trig.py", "F821 undefined name 'sp'"},
			{"/repo/reproduce.py", "E999 IndentationError: unexpected indent"},
			{"/repo/reproduce.py", "F821 undefined name 'f2'"},
			{"/repo/reproduce.py", "F821 undefined name 'f2'"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := New(defaultProgress(nil))
			told := false
			for i, tr := range tt.tries {
				ev := Call("a", "edit", []byte(fmt.Sprintf("edit %d:%d\n    result = sp.trigsimp(f%d)\nend_of_edit", 10+i, 10+i, i))).
					WithResult(lintRejected(tr.file, tr.err), false)
				for _, n := range e.Observe(ev) {
					told = told || n.Kind == KindErrors
				}
			}
			if told != tt.want {
				t.Errorf("errors notice = %v, want %v", told, tt.want)
			}
		})
	}
}

// An edit the linter refused again is the same failure, unless the linter listed fewer errors
// than at any try before it: the model is fixing them one by one, as in a run whose three
// undefined names went down to one and whose next edit landed (django-13448, Tester). A list
// that says the file did not parse (E999) counts no errors: the linter read nothing else. The
// rule is followed by an engine restored from its snapshot before every event too, and holds
// for the edit sent as an editor's call and as SWE-agent's shell command.
func TestLintRejectionsThatLeaveFewerErrorsAreProgress(t *testing.T) {
	const (
		a      = "F821 undefined name 'settings'"
		b      = "F821 undefined name 'django'"
		c      = "F821 undefined name 'call_command'"
		d      = "F821 undefined name 'test_reproduce'"
		syntax = "E999 IndentationError: unexpected indent"
	)
	tests := []struct {
		name  string
		tries [][]string
		want  int // the try told as the edit failing alike (from 1), 0 for none
	}{
		{"fewer errors at every try", [][]string{{a, b, c, d}, {a, b, c}, {c, d}, {b}}, 0},
		{"fewer once, then as many", [][]string{{a, b}, {c}, {a}, {b}, {c}, {a}}, 5},
		{"as many errors at every try", [][]string{{a, b}, {c, d}, {a, c}, {b, d}}, 4},
		{"more errors, then as many as the fewest", [][]string{{a}, {a, b}, {b}, {c}}, 4},
		{"a file that does not parse lists no fewer errors", [][]string{{a, b}, {a, b}, {syntax}, {syntax}}, 4},
		{"fewer than before the syntax error", [][]string{{a, b}, {syntax}, {syntax}, {a}, {b}, {c}, {d}}, 7},
		{"a syntax error first, then fewer", [][]string{{syntax}, {a, b}, {a}, {b}, {c}, {d}}, 6},
		{"two lists in turn: the shorter one comes back", [][]string{{a}, {a, b, c}, {a}, {a, b, c}, {a}, {a, b, c}}, 4},
	}
	for _, tool := range []string{"edit", "bash"} {
		for _, tt := range tests {
			t.Run(tool+"/"+tt.name, func(t *testing.T) {
				testFewerLintErrors(t, tool, tt.tries, tt.want)
			})
		}
	}
}

func testFewerLintErrors(t *testing.T, tool string, tries [][]string, want int) {
	var evs []Event
	for i, errs := range tries {
		evs = append(evs, Call("a", tool, []byte(fmt.Sprintf("edit %d:%d\n    call_command('migrate', '%d')\nend_of_edit", 10+i, 12+i, i))).
			WithResult(lintRejected("/django__django/reproduce.py", errs...), false))
	}
	// firstTold is the try (from 1) the first errors notice came at, 0 for none.
	firstTold := func(observe func(Event) []Notice) int {
		for i, ev := range evs {
			for _, n := range observe(ev) {
				if n.Kind == KindErrors {
					return i + 1
				}
			}
		}
		return 0
	}
	live, _ := New(defaultProgress(nil))
	told := firstTold(live.Observe)
	if told != want {
		t.Errorf("told at try %d, want %d", told, want)
	}
	if restored := firstTold(restoredEachEvent(t, defaultProgress(nil))); restored != told {
		t.Errorf("restored before every event: told at try %d; live: %d", restored, told)
	}
}

// Only a linter's coded errors count toward how many an edit left: Python's warnings about
// the file's untouched lines and the lines of the linter's own crash are none of them.
func TestLintRejectionCountsTheCodedErrors(t *testing.T) {
	tests := []struct {
		name   string
		errors []string
		want   int
	}{
		{"undefined names", []string{"F821 undefined name 'x'", "F821 undefined name 'y'"}, 2},
		{"with the place before the code", []string{"line 24 col 5: E111 indentation is not a multiple of 4"}, 1},
		{"a file that did not parse counts none", []string{"F821 undefined name 'x'", "E999 SyntaxError: invalid syntax"}, 0},
		{"warnings about untouched lines are no errors", []string{"SyntaxWarning: invalid escape sequence '\\.'", "F821 undefined name 'x'", "SyntaxWarning: invalid escape sequence '\\d'"}, 1},
		{"the linter's own traceback counts none", []string{"(most recent call last):", `"/opt/conda/envs/x/bin/flake8", line 8, in <module>`, "= plugin.entry_point.load()"}, 0},
		{"a word in capitals is no code", []string{"ERROR something failed", "W605 invalid escape sequence"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, got := lintRejection(lintRejected("/repo/a.py", tt.errors...)); got != tt.want {
				t.Errorf("counted %d errors, want %d", got, tt.want)
			}
		})
	}
}
