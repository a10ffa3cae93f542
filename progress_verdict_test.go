package loopguard

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A verdict the model's own command line prints after the program ran (`; echo Done`) is not
// the program's: four identical tracebacks across edits are an errors loop (review r43).
func TestEchoedVerdictHidesAFailureLoop(t *testing.T) {
	const tb = "Traceback (most recent call last):\n  File \"/repo/repro.py\", line 3, in <module>\n    main()\nValueError: bad input\nDone\n"
	if !looksFailed(tb) {
		t.Errorf("looksFailed(traceback + the model's `echo Done`) = false, want true")
	}
	var steps []step
	for i := range 5 {
		steps = append(steps,
			ok("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"/repo/a.py","old_str":"x%d","new_str":"y%d"}`, i, i), "The file /repo/a.py has been edited."),
			ok("bash", `{"command":"python repro.py; echo Done"}`, tb))
	}
	got := progressRun(t, defaultProgress(nil), steps)
	if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, ":errors:") }) {
		t.Errorf("five identical tracebacks across edits, each followed by the command's own `echo Done`: got %q, want an errors notice", got)
	}
}

// The verdict is read from the whole last line, not from a window of its end: a long pytest
// FAILED line whose last 256 bytes begin with " OK (" is no verdict of success (review r43).
func TestLongLastLineIsJudgedByAFragment(t *testing.T) {
	tail := " OK (200), got 500 Internal Server Error from /health"
	for len(tail) < exitWindow {
		tail += "."
	}
	text := "collected 1 item\n\nFAILED tests/test_api.py::test_health - AssertionError: " + strings.Repeat("a", 80) + " expected" + tail
	if !looksFailed(text) {
		t.Errorf("looksFailed(%q) = false: a pytest FAILED line read as a verdict of success", text)
	}
}

// The stuck-across-turns rule speaks at the third identical failure however its chain
// began, also when the chain's first failures matched only by their failing line (review r43).
func TestThirdIdenticalFailureAfterAWeakStartIsStuck(t *testing.T) {
	same := "Compiling app v0.1.0 (/repo)\nerror: could not compile `app` due to previous error\n"
	var long strings.Builder
	for _, w := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa"} {
		long.WriteString("Compiling " + w + " crate with features " + w + "-std " + w + "-alloc\n")
	}
	// the first failure: a long build log ending with the same failing line (a weak match)
	first := long.String() + "error: could not compile `app` due to previous error\n"
	steps := []step{fail("bash", `{"command":"cargo build"}`, first)}
	// (looks between the runs, which change nothing: a commit would be a change of the
	// workspace, and the failures after it the errors rule's, see
	// TestAChangeBeforeTheUsersMessageIsNotForgotten)
	for i := range 4 {
		steps = append(steps, userSays("2"),
			ok("bash", `{"command":"git status --short"}`, " M .codex/history.jsonl"),
			ok("bash", fmt.Sprintf(`{"command":"git log -%d --oneline"}`, i+1), "000 chore: logs"),
			userSays("OK"),
			fail("bash", `{"command":"cargo build"}`, same))
	}
	got := progressRun(t, defaultProgress(nil), steps)
	t.Logf("notices: %q", got)
	// failures at steps 0, 5, 10, 15, 20: the third identical one is step 15
	if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "15:stuck:") }) {
		t.Errorf("got %q, want stuck at the third identical failure (step 15)", got)
	}
}
