package peers

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// The tests build agents' event lists from these helpers; each call has the result "ok"
// unless given another.

func call(tool, args string) loopguard.Event {
	return loopguard.Event{Type: loopguard.EventCall, Tool: tool, Args: []byte(args), Result: "ok", HasResult: true}
}

func callResult(tool, args, result string) loopguard.Event {
	ev := call(tool, args)
	ev.Result = result
	return ev
}

func failed(tool, args, result string) loopguard.Event {
	ev := callResult(tool, args, result)
	ev.Failed = true
	return ev
}

func text(s string) loopguard.Event {
	return loopguard.Event{Type: loopguard.EventText, Source: "model", Text: s}
}

func user() loopguard.Event { return loopguard.Event{Type: loopguard.EventUser, Text: "go on"} }

// times repeats a sequence of events n times.
func times(n int, evs ...loopguard.Event) []loopguard.Event {
	var out []loopguard.Event
	for range n {
		out = append(out, evs...)
	}
	return out
}

// seq concatenates event lists and single events.
func seq(parts ...any) []loopguard.Event {
	var out []loopguard.Event
	for _, p := range parts {
		switch v := p.(type) {
		case loopguard.Event:
			out = append(out, v)
		case []loopguard.Event:
			out = append(out, v...)
		default:
			panic(fmt.Sprintf("seq: %T", p))
		}
	}
	return out
}

// numbered returns n calls of tool whose arguments (or, with distinctResults, results) differ.
func numbered(n int, tool string, distinctArgs, distinctResults bool) []loopguard.Event {
	var out []loopguard.Event
	for i := range n {
		args, res := `{"path":"a.go"}`, "same"
		if distinctArgs {
			args = fmt.Sprintf(`{"path":"f%d.go"}`, i)
		}
		if distinctResults {
			res = fmt.Sprintf("result %d", i)
		}
		out = append(out, callResult(tool, args, res))
	}
	return out
}

type ruleCase struct {
	name   string
	events []loopguard.Event
	want   []int
}

func runCases(t *testing.T, rule func([]loopguard.Event) []int, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := rule(c.events)
			if !slices.Equal(got, c.want) {
				t.Errorf("fires at %v, want %v", got, c.want)
			}
			checkIndices(t, c.events, got)
		})
	}
}

// checkIndices checks what every rule promises: ascending call indices, each -1 or a call.
func checkIndices(t *testing.T, events []loopguard.Event, got []int) {
	t.Helper()
	calls := 0
	for _, ev := range events {
		if ev.Type == loopguard.EventCall {
			calls++
		}
	}
	if !slices.IsSorted(got) {
		t.Errorf("indices not ascending: %v", got)
	}
	for _, i := range got {
		if i < -1 || i >= calls {
			t.Errorf("index %d out of range (%d calls)", i, calls)
		}
	}
}

// words returns n distinct words, deterministic, for text that does not repeat.
func words(n int) string {
	var b strings.Builder
	x := uint32(2463534242)
	for i := range n {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		fmt.Fprintf(&b, "w%d%c%d ", i, 'a'+rune(x%26), x%997)
	}
	return b.String()
}
