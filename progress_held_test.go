package loopguard

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A held same-call reminder is owed no more once any notice is told, a reply that repeats
// itself (the thought rule's one-reply notice, told from a text) included.
func TestAHeldReminderIsOwedNoMoreOnceAnyNoticeIsTold(t *testing.T) {
	grep := ok("grep", `{"pattern":"foo"}`, "a.go:12: foo()")
	lookup := ok("companies_for_kargom_nerede", `{}`, `{"error":"","response":"[]"}`)
	other := func(i int) step {
		return ok("cat", fmt.Sprintf(`{"path":"n%d"}`, i), fmt.Sprintf("note %d of the plan", i))
	}
	loop := thought(strings.Repeat("Wait, I am confused. Is it msubsup or msubsup here?\n", 12))
	steps := []step{grep, grep, grep, lookup, lookup, lookup, other(0), other(1), loop,
		other(2), other(3), other(4), other(5), lookup}
	got := progressRun(t, defaultProgress(nil), steps)
	// lookup's 3rd (5) falls in the quiet calls and is held; at 8 the model is told of its
	// reply going round in a loop: the held reminder is owed no more, and lookup's 4th (13)
	// is told nothing.
	for _, g := range got {
		if strings.HasPrefix(g, "13:") {
			t.Errorf("got %q: the held reminder spoke after another notice was told", got)
		}
	}
	if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, "8:thought") }) {
		t.Fatalf("setup: no one-reply notice at 8: %q", got)
	}
}

// A repeat in a cycle in the making is the cycle rule's to tell; when the cycle breaks before
// its third round, the call's first reminder is held for its next repeat instead of lost: a
// failing query sent again between two refusals of the model's form (A B A B A A) was never
// told. A cycle that comes round is told once, as a cycle.
func TestAReminderDeferredToACycleThatBreaksIsToldAtTheNextRepeat(t *testing.T) {
	query := fail("action", "SELECT count(*) FROM flights WHERE departure_airport = 'Aberdeen'", "Error executing query: Unknown column 'departure_airport' in 'where clause'")
	refused := fail("action", "SELECT count(*) FROM flights\nMySQL Database Output:", "No SQL code was found in your last response.")
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"the cycle breaks: the query's fourth run is told", []step{query, refused, query, refused, query, query}, []string{"5:stuck:action × 4"}},
		{"the cycle comes round: told once, as a cycle", []step{query, refused, query, refused, query, refused}, []string{"5:cycle:cycle of 2 × 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := progressRun(t, defaultProgress(nil), tt.steps); !slices.Equal(got, tt.want) {
				t.Errorf("notices %q, want %q", got, tt.want)
			}
		})
	}
}

// A cycle's first reminder that falls in the quiet calls after another notice on the loop is
// held, and told at the cycle's next round if the model goes round once more: told of its
// thought, it did not change course. A cycle that breaks off after the quiet calls is owed
// nothing (validation round r207a: loops of five calls going on for 14 to 20 calls after
// their one notice, the cycle's reminder lost to the quiet calls).
func TestACycleReminderInTheQuietCallsIsToldAtItsNextRound(t *testing.T) {
	cycleOf := func(period, calls int) []step {
		steps := thoughtCycle(period, calls)
		for i := range 6 { // then something else
			steps = append(steps, thought(fmt.Sprintf("Now the handlers, part %c of them.", 'a'+i)),
				ok("ls", fmt.Sprintf(`{"path":"/w/handlers/%c"}`, 'a'+i), fmt.Sprintf("h%c.py", 'a'+i)))
		}
		return steps
	}
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{
		// The thought is told at step 11 (call 5); the cycle's third round ends at call 8,
		// in the quiet calls.
		{"the cycle goes round once more after the quiet calls: told then", cycleOf(3, 12),
			[]string{"11:thought:same thought × 6", "23:cycle:cycle of 3 × 4"}},
		{"the cycle breaks off after its third round: nothing more", cycleOf(3, 9),
			[]string{"11:thought:same thought × 6"}},
		// A cycle of two calls held at its 5th round has its 6th two calls on: told then alone.
		{"the cycle's next reminder due within the quiet calls: it speaks alone", cycleOf(2, 12),
			[]string{"9:thought:same thought × 5", "23:cycle:cycle of 2 × 6"}},
	}
	for _, tt := range tests {
		for _, restored := range []bool{false, true} { // a hook's engine, restored at every call, holds it too
			t.Run(fmt.Sprintf("%s/restored=%v", tt.name, restored), func(t *testing.T) {
				if got := progressRunVia(t, defaultProgress(nil), tt.steps, restored); !slices.Equal(got, tt.want) {
					t.Errorf("notices %q, want %q", got, tt.want)
				}
			})
		}
	}
}

// thoughtCycle is a model going round a cycle of period (2 or 3) looks for a setting, calls
// calls in all, saying the same thing before each: every answer the same.
func thoughtCycle(period, calls int) []step {
	var steps []step
	for i := range calls {
		steps = append(steps, thought("The search did not find it. Let me look at the config module again."))
		switch i % period {
		case 0:
			steps = append(steps, ok("search_dir", `{"term":"DEFAULT_PORT"}`, "No matches found for \"DEFAULT_PORT\" in /w"))
		case 1:
			steps = append(steps, ok("open", `{"path":"/w/config.py"}`, "[File: /w/config.py (40 lines total)]\n1:PORT = 80"))
		default:
			steps = append(steps, ok("search_file", `{"term":"PORT","file":"/w/main.py"}`, "No matches found for \"PORT\" in /w/main.py"))
		}
	}
	return steps
}
