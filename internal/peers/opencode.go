package peers

import "github.com/loopguard/loopguard"

// opencodeDoomLoop is opencode's DOOM_LOOP_THRESHOLD.
const opencodeDoomLoop = 3

// Opencode is opencode's doom-loop check (packages/opencode/src/session/processor.ts, read at
// commit 31e22f6 of sst/opencode): when a tool call arrives, the last 3 parts of the current
// assistant message must all be tool parts of the same tool with the same input
// (JSON.stringify, so member order counts); then the "doom_loop" permission is asked (ask by
// default). Any other part (text, reasoning) among the last 3 breaks it, and a new assistant
// message starts over.
//
// Approximation: a transcript does not mark where one assistant message (one model step)
// ends and the next begins when no text lies between their calls. Calls here belong to one
// message until model text or a user turn comes between them. One-call-per-step formats
// (SWE-agent, mini-swe-agent), whose calls come with a thought, never reach 3; for Claude Code,
// consecutive single-call messages without text are merged, so the rule fires at least as
// often as opencode would: an upper bound.
func Opencode(events []loopguard.Event) []int {
	var fired []int
	call := -1
	var parts []string // tool parts of the current message, as keys; "" is another part
	for i := range events {
		ev := &events[i]
		switch {
		case ev.Type == loopguard.EventUser:
			parts = parts[:0]
		case isModelText(ev):
			parts = keepLast(append(parts, ""), opencodeDoomLoop)
		case ev.Type == loopguard.EventCall:
			call++
			k := orderedKey(ev)
			parts = keepLast(append(parts, k), opencodeDoomLoop)
			if n := len(parts); n >= opencodeDoomLoop {
				same := true
				for _, p := range parts[n-opencodeDoomLoop:] {
					same = same && p == k
				}
				if same {
					fired = append(fired, call)
				}
			}
		}
	}
	return fired
}

// keepLast keeps the last n elements of xs, in place.
func keepLast[T any](xs []T, n int) []T {
	if len(xs) <= n {
		return xs
	}
	copy(xs, xs[len(xs)-n:])
	return xs[:n]
}
