package peers

import (
	"testing"

	"github.com/loopguard/loopguard"
)

func TestCline(t *testing.T) {
	a, b := call("execute_command", `{"command":"ls"}`), call("execute_command", `{"command":"pwd"}`)
	progress := func(p string) []byte { return []byte(`{"command":"ls","task_progress":"` + p + `"}`) }
	withProgress := func(p string) loopguard.Event { ev := a; ev.Args = progress(p); return ev }
	runCases(t, Cline, []ruleCase{
		{"two identical calls are fine", times(2, a), nil},
		{"the third identical call warns", times(3, a), []int{2}},
		{"the fifth identical call is the hard stop", times(5, a), []int{2, 4}},
		{"after the hard stop the check re-arms", times(10, a), []int{2, 4, 7, 9}},
		{"key order does not matter", times(2, call("x", `{"a":1,"b":2}`), call("x", `{"b":2,"a":1}`)), []int{2}},
		{"a change of parameters resets the count", seq(times(2, a), b, times(2, a)), nil},
		{"a change of tool resets the count", seq(times(2, a), call("read_file", `{"command":"ls"}`), times(2, a)), nil},
		{"the volatile progress parameter is not compared", seq(withProgress("1/3"), withProgress("2/3"), withProgress("3/3")), []int{2}},
		{"a new run (user turn) resets the count", seq(times(2, a), user(), times(2, a)), nil},
	})
}
