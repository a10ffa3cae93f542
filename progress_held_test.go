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
