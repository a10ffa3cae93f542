package loopguard

import (
	"fmt"
	"slices"
	"testing"
)

// fixLoop is a model editing one line of /w/location.py and running its script after each
// edit, the script failing as raised lists: each an error's line and the line of
// location.py it was raised at, 0 for a run that worked. Every edit is another one.
func fixLoop(raised ...struct {
	line string
	at   int
}) []step {
	var steps []step
	for i, r := range raised {
		steps = append(steps, ok("str_replace_editor",
			fmt.Sprintf(`{"command":"str_replace","path":"/w/location.py","old_str":"attempt %d","new_str":"attempt %d"}`, i, i+1),
			"The file /w/location.py has been edited."))
		run := `{"command":"python reproduce.py"}`
		if r.at == 0 {
			steps = append(steps, ok("bash", run, "AvoidPattern[4-1624]\nlocalized: ok"))
			continue
		}
		steps = append(steps, fail("bash", run, fmt.Sprintf("Traceback (most recent call last):\n"+
			"  File \"/w/reproduce.py\", line 7, in <module>\n    new = cst.localized(location)\n"+
			"  File \"/w/location.py\", line %d, in localized\n    location = Location(attempt_%d)\n%s\n", r.at, i, r.line)))
	}
	return steps
}

// runsOnly is steps without their edits: the script run again and again.
func runsOnly(steps []step) []step {
	return slices.DeleteFunc(steps, func(s step) bool { return s.tool == "str_replace_editor" })
}

// raisedAt is one run of fixLoop.
func raisedAt(line string, at int) struct {
	line string
	at   int
} {
	return struct {
		line string
		at   int
	}{line, at}
}

func TestFailuresComingBackAcrossEditsAreALoop(t *testing.T) {
	var (
		subscript = "TypeError: 'int' object is not subscriptable"
		start     = "AttributeError: 'int' object has no attribute 'start'"
		end       = "TypeError: __init__() missing 1 required positional argument: 'end'"
		none      = "AttributeError: 'NoneType' object has no attribute 'location'"
		strand    = "AttributeError: 'NoneType' object has no attribute 'strand'"
		worked    = raisedAt("", 0)
		round     = slices.Repeat([]struct {
			line string
			at   int
		}{raisedAt(subscript, 89), raisedAt(start, 89), raisedAt(end, 89)}, 4)
	)
	runProgressCases(t, []progressCase{
		{"edits going round three known failures are told at the third that came back, once",
			fixLoop(round...), []string{"11:errors:bash failed × 6, 3 came back"}},
		{"two that came back are a model that may yet find its way",
			fixLoop(round[:5]...), nil},
		{"known failures coming back among new ones: only the known ones count",
			fixLoop(raisedAt(subscript, 89), raisedAt(start, 89), raisedAt(subscript, 89), raisedAt(none, 89), raisedAt(start, 89), raisedAt(strand, 89), raisedAt(subscript, 89)),
			[]string{"13:errors:bash failed × 7, 3 came back"}},
		{"known failures coming back with nothing changed between are no edits going round",
			runsOnly(fixLoop(round...)), nil},
		{"one failure coming back between new ones is a failure that persists, not a round of known ones",
			fixLoop(raisedAt(subscript, 89), raisedAt(start, 89), raisedAt(subscript, 89), raisedAt(end, 89), raisedAt(subscript, 89), raisedAt(none, 89), raisedAt(subscript, 89)),
			nil},
		{"the same messages raised further on each time are sites fixed one after another",
			fixLoop(raisedAt(subscript, 20), raisedAt(start, 22), raisedAt(end, 24), raisedAt(subscript, 28), raisedAt(start, 30), raisedAt(end, 32)),
			nil},
		{"a run that worked between ends the round",
			fixLoop(raisedAt(subscript, 89), raisedAt(start, 89), raisedAt(end, 89), worked, raisedAt(subscript, 89), raisedAt(start, 89), raisedAt(end, 89)),
			nil},
		{"each failure met three times running, then left for the next, is no round of known ones",
			fixLoop(raisedAt(subscript, 89), raisedAt(subscript, 89), raisedAt(subscript, 89), raisedAt(start, 89), raisedAt(start, 89), raisedAt(start, 89),
				raisedAt(end, 89), raisedAt(end, 89), raisedAt(end, 89)),
			nil},
		{"every failure new is debugging that moves on",
			fixLoop(raisedAt(subscript, 89), raisedAt(start, 89), raisedAt(end, 89), raisedAt(none, 89), raisedAt(strand, 93)),
			nil},
	})
}

// A hook restores the agent's snapshot for every call: the failures' identities the ring
// holds must be in it.
func TestFailuresComingBackAreToldByARestoredEngine(t *testing.T) {
	steps := fixLoop(slices.Repeat([]struct {
		line string
		at   int
	}{raisedAt("TypeError: 'int' object is not subscriptable", 89), raisedAt("AttributeError: 'int' object has no attribute 'start'", 89)}, 3)...)
	live := progressRun(t, defaultProgress(nil), steps)
	restored := progressRunVia(t, defaultProgress(nil), steps, true)
	if want := []string{"9:errors:bash failed × 5, 3 came back"}; !slices.Equal(live, want) || !slices.Equal(restored, want) {
		t.Errorf("live engine: %q, restored for every call: %q; want %q", live, restored, want)
	}
}

func TestRaiseSiteIsWhereTheFailureWasRaised(t *testing.T) {
	tests := []struct{ name, said, line, want string }{
		{"a Python traceback's innermost frame, above the failure",
			"Traceback (most recent call last):\n  File \"/w/run.py\", line 7, in <module>\n    main()\n  File \"/w/lib.py\", line 89, in main\n    x[0]\nTypeError: 'int' object is not subscriptable\n",
			"TypeError: 'int' object is not subscriptable", `File "/w/lib.py", line 89, in main`},
		{"a Java stack's first frame, below the failure",
			"Exception in thread \"main\" java.lang.NullPointerException: name\n\tat com.example.Parser.parse(Parser.java:42)\n\tat com.example.Main.main(Main.java:9)\n",
			"Exception in thread \"main\" java.lang.NullPointerException: name", "at com.example.Parser.parse(Parser.java:42)"},
		{"a Node stack's first frame",
			"TypeError: Cannot read properties of undefined (reading 'id')\n    at render (/w/app.js:12:5)\n    at main (/w/app.js:30:1)\n",
			"TypeError: Cannot read properties of undefined (reading 'id')", "at render (/w/app.js:12:5)"},
		{"a failure with no stack", "make: *** [build] Error 2\n", "make: *** [build] Error 2", ""},
		{"no failure's line", "all good\n", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := raiseSite(tt.said, tt.line); got != tt.want {
				t.Errorf("raiseSite = %q, want %q", got, tt.want)
			}
		})
	}
}
