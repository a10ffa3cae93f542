package loopguard

import (
	"fmt"
	"strings"
	"testing"
)

// copyRounds is a model editing the files edits names in turn and running its script after
// each edit, the script failing with a traceback through the frames frame(i) gives.
func copyRounds(rounds int, edits []string, frame func(i int) string) []step {
	var steps []step
	for i := range rounds {
		path := edits[i%len(edits)]
		steps = append(steps, ok("str_replace_editor",
			fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":"attempt %d","new_str":"attempt %d"}`, path, i, i+1),
			"The file "+path+" has been edited."),
			fail("execute_bash", `{"command":"cd /workspace && python reproduce.py"}`, "Traceback (most recent call last):\n"+
				"  File \"/workspace/reproduce.py\", line 5, in <module>\n    print(p1 + p2 * 2)\n"+frame(i)+
				fmt.Sprintf("TypeError: unsupported operand type(s) for +: 'Point2D' and 'Mul' (run %d)\n", i)))
	}
	return steps
}

func TestTracebackThroughAnotherCopyOfTheEditedFileIsTold(t *testing.T) {
	const edited = "/workspace/sympy__sympy__1.5/sympy/geometry/point.py"
	through := func(path string) func(int) string {
		return func(int) string {
			return "  File \"" + path + "\", line 217, in __add__\n    raise GeometryError(\"Don't know how to add\")\n"
		}
	}
	runProgressCases(t, []progressCase{
		{"each run after an edit fails through the harness's other copy: told at the second",
			copyRounds(4, []string{edited}, through("/testbed/sympy/geometry/point.py")),
			[]string{"3:thought:execute_bash runs another copy of an edited file × 2"}},
		{"edits going on through the other copy are told again as the count doubles (the 4th run falls in the quiet calls after the 2nd's notice)",
			copyRounds(9, []string{"/workspace/sympy__sympy__1.5/sympy/geometry/point.py"}, through("/testbed/sympy/geometry/point.py")),
			[]string{"3:thought:execute_bash runs another copy of an edited file × 2", "15:thought:execute_bash runs another copy of an edited file × 8"}},
		{"the same through an installed package",
			copyRounds(4, []string{edited}, through("/usr/lib/python3/site-packages/sympy/geometry/point.py")),
			[]string{"3:thought:execute_bash runs another copy of an edited file × 2"}},
		{"a traceback through the file edited is the edits running",
			copyRounds(4, []string{edited}, through(edited)), nil},
		{"the copy that runs was edited too",
			copyRounds(4, []string{edited, "/testbed/sympy/geometry/point.py"}, through("/testbed/sympy/geometry/point.py")), nil},
		{"a file of a name many packages share is another copy only when its package is the same",
			copyRounds(4, []string{"/workspace/proj/sympy/core/__init__.py"}, through("/usr/lib/python3/site-packages/numpy/core/__init__.py")), nil},
		{"a file in a folder of a name many packages share is another copy only when its package is the same",
			copyRounds(4, []string{"/workspace/proj/mylib/utils/io.py"}, through("/usr/lib/python3/site-packages/pandas/utils/io.py")), nil},
		{"a frame named by a relative path says nothing of where the code is",
			copyRounds(4, []string{edited}, through("geometry/point.py")), nil},
	})
}

func TestRunsWithoutAnEditBetweenCountOnceForTheOtherCopy(t *testing.T) {
	steps := copyRounds(1, []string{"/workspace/sympy__sympy__1.5/sympy/geometry/point.py"},
		func(int) string { return "  File \"/testbed/sympy/geometry/point.py\", line 217, in __add__\n" })
	for range 3 {
		steps = append(steps, steps[1]) // the script again, nothing edited
	}
	for _, n := range progressRun(t, defaultProgress(nil), steps) {
		if strings.Contains(n, "another copy") {
			t.Fatalf("told %q: one edit, however many runs after it, is one run after a change", n)
		}
	}
}

// A hook restores the agent's snapshot for every call: the edited files must be in it.
func TestTheOtherCopyIsToldByARestoredEngine(t *testing.T) {
	steps := copyRounds(4, []string{"/workspace/sympy__sympy__1.5/sympy/geometry/point.py", "/workspace/reproduce.py"},
		func(int) string { return "  File \"/testbed/sympy/geometry/point.py\", line 217, in __add__\n" })
	live := progressRun(t, defaultProgress(nil), steps)
	restored := progressRunVia(t, defaultProgress(nil), steps, true)
	if fmt.Sprint(live) != fmt.Sprint(restored) || !strings.Contains(fmt.Sprint(live), "another copy") {
		t.Fatalf("live %q, restored %q: want the same notices, the other copy's among them", live, restored)
	}
}

func TestTheOtherCopyIsToldBeforeTheFailureItCauses(t *testing.T) {
	const point = "/workspace/sympy__sympy__1.5/sympy/geometry/point.py"
	// The edited file changed before the first and the fourth run, the script between: the
	// fourth run is both the failure's fourth and the second through the other copy.
	steps := copyRounds(4, []string{point, "/workspace/reproduce.py", "/workspace/reproduce.py", point},
		func(int) string { return "  File \"/testbed/sympy/geometry/point.py\", line 217, in __add__\n" })
	for i := range steps {
		if k := strings.Index(steps[i].result, " (run "); k >= 0 {
			steps[i].result = steps[i].result[:k] + "\n" // the same failure every time: the errors rule's 4th at the 4th run
		}
	}
	got := progressRun(t, defaultProgress(nil), steps)
	if want := []string{"7:thought:execute_bash runs another copy of an edited file × 2"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	e, _ := New(defaultProgress(nil))
	var text string
	for _, st := range steps {
		for _, n := range e.Observe(Call("a", st.tool, []byte(st.args)).WithResult(st.result, st.failed)) {
			text = n.Text
		}
	}
	if !strings.Contains(text, "/testbed/sympy/geometry/point.py") {
		t.Errorf("notice %q does not name the copy that runs", text)
	}
}
