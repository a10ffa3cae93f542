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
			errsA, fileA := lintRejection(tt.a)
			errsB, fileB := lintRejection(tt.b)
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
