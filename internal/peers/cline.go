package peers

import (
	"bytes"
	"encoding/json"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/canon"
)

// Cline's loop check defaults: warn at 3, hard stop at 5.
const (
	clineSoft = 3
	clineHard = 5
)

// clineVolatile are parameters that Cline strips before comparing calls: the progress
// checklist the model restates with every call, which would make every call look new.
var clineVolatile = []string{"task_progress"}

// Cline is the Cline SDK's repeated-call check, as its published description has it (the
// stored Cline source is an older variant that stops at the 3rd identical call): consecutive
// identical calls (tool name and parameters, key order ignored, volatile progress parameters removed)
// are counted; the 3rd gives a warning to the model, the 5th aborts the run. A different tool
// or different parameters reset the count, and so does the start of a run (a user turn).
// After the hard limit the count starts over (the check is re-armed), so a run of 10
// identical calls speaks at the 3rd, 5th, 8th and 10th.
func Cline(events []loopguard.Event) []int {
	var fired []int
	call := -1
	var prev sameArgs
	count := 0
	for i := range events {
		ev := &events[i]
		switch ev.Type {
		case loopguard.EventUser:
			count = 0
		case loopguard.EventCall:
			call++
			k := sameArgs{ev.Tool, canon.Fingerprint(clineStrip(ev.Args))}
			if count > 0 && k == prev {
				count++
			} else {
				prev, count = k, 1
			}
			switch {
			case count >= clineHard:
				fired = append(fired, call)
				count = 0
			case count == clineSoft:
				fired = append(fired, call)
			}
		}
	}
	return fired
}

// clineStrip removes the volatile top-level parameters from JSON object arguments.
func clineStrip(args []byte) []byte {
	found := false
	for _, k := range clineVolatile {
		found = found || bytes.Contains(args, []byte(k))
	}
	if !found {
		return args
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil {
		return args
	}
	for _, k := range clineVolatile {
		delete(obj, k)
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return args
	}
	return out
}
