package peers

import (
	"github.com/loopguard/loopguard"
)

// goose's REP-002 defaults.
const (
	gooseRepeats     = 3   // the same error this many times in a row ...
	gooseErrorPrefix = 100 // ... compared on its first 100 characters
)

// Goose is goose's REP-002 rule, as its published description has it (the stored goose
// source does not have it): when one tool returned the same error text (its first 100 characters) on 3 calls
// in a row, that tool's next call is denied, whatever its arguments. "In a row" is taken as
// the agent's last 3 calls: a call of another tool, or a success, breaks the run. The denial
// is where the rule speaks; if the next call is of another tool nothing is denied, and the
// run is broken by it. In the transcripts the denied call did run: its real result counts in
// the next run, so a fourth identical failure makes the following call of the tool denied too.
//
// A failed call (Failed) is an error and its result text the error text. The older goose
// repetition limit (deny at max+1 identical calls) is off by default and not reproduced.
func Goose(events []loopguard.Event) []int {
	var fired []int
	call := -1
	var tool, errText string
	run := 0 // calls in a row of tool that failed with errText
	for i := range events {
		ev := &events[i]
		if ev.Type != loopguard.EventCall {
			continue
		}
		call++
		if run >= gooseRepeats && ev.Tool == tool {
			fired = append(fired, call)
		}
		if !ev.Failed {
			run = 0
			continue
		}
		e := firstRunes(ev.Result, gooseErrorPrefix)
		if run > 0 && ev.Tool == tool && e == errText {
			run++
		} else {
			tool, errText, run = ev.Tool, e, 1
		}
	}
	return fired
}

// firstRunes returns the first n characters of s.
func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
