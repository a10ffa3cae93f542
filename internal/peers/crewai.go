package peers

import "github.com/loopguard/loopguard"

// CrewAI refuses a tool call that repeats the agent's last tool use (ToolUsage
// ._check_tool_repeated_usage in crewai/tools/tool_usage.py): same tool name and equal
// arguments (dicts, so member order does not matter). The repeated call is not run; the
// model gets a canned "I tried reusing the same input" message. The last tool use is not
// updated by a refused call, so every identical call in a row after the first is refused:
// the rule speaks at the 2nd, 3rd, ... call. Nothing resets it but a different call.
//
// Approximation: CrewAI records the last use when a tool has run; here every call is a use,
// failed or not, since a transcript does not say whether a failed call reached the tool.
func CrewAI(events []loopguard.Event) []int {
	var fired []int
	call := -1
	var last sameArgs
	have := false
	for i := range events {
		ev := &events[i]
		if ev.Type != loopguard.EventCall {
			continue
		}
		call++
		k := valueKey(ev)
		if have && k == last {
			fired = append(fired, call)
			continue
		}
		last, have = k, true
	}
	return fired
}
