package peers

import (
	"bytes"
	"encoding/json"

	"github.com/loopguard/loopguard"
)

// rooLimit is Roo Code's default consecutiveIdenticalToolCallLimit (a setting from 0 to 10;
// 0 means unlimited).
const rooLimit = 3

// RooCode is Roo Code's ToolRepetitionDetector (src/core/tools/ToolRepetitionDetector.ts,
// read at commit 3747946 of RooCodeInc/Roo-Code). A call is its tool name and its parameters
// with keys sorted; the count starts at 0 on a new call and goes up by one for each identical
// call right after it. When it reaches the limit (3), that call, the 4th identical one in a
// row, is blocked and the user is asked; the detector then forgets the previous call, so the
// next block comes 4 identical calls later. Browser scroll actions (browser_action with
// scroll_down or scroll_up) are never counted and do not break a run. The detector lives for
// the task: user turns do not reset it.
func RooCode(events []loopguard.Event) []int { return rooCode(events, rooLimit) }

// RooCodeLimit is RooCode with another limit, as Roo Code's setting allows: 0 (and, as Roo
// Code clamps it, a negative limit) means unlimited.
func RooCodeLimit(limit int) func(events []loopguard.Event) []int {
	return func(events []loopguard.Event) []int { return rooCode(events, max(limit, 0)) }
}

func rooCode(events []loopguard.Event, limit int) []int {
	var fired []int
	call := -1
	var prev sameArgs
	havePrev := false
	count := 0
	for i := range events {
		ev := &events[i]
		if ev.Type != loopguard.EventCall {
			continue
		}
		call++
		if rooBrowserScroll(ev) {
			continue
		}
		k := valueKey(ev)
		if havePrev && k == prev {
			count++
		} else {
			count, prev, havePrev = 0, k, true
		}
		if limit > 0 && count >= limit {
			fired = append(fired, call)
			count, havePrev = 0, false
		}
	}
	return fired
}

func rooBrowserScroll(ev *loopguard.Event) bool {
	if ev.Tool != "browser_action" {
		return false
	}
	var p struct{ Action string }
	if err := json.Unmarshal(ev.Args, &p); err != nil {
		return bytes.Contains(ev.Args, []byte("scroll_down")) || bytes.Contains(ev.Args, []byte("scroll_up"))
	}
	return p.Action == "scroll_down" || p.Action == "scroll_up"
}
