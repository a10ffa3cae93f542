package peers

import "testing"

func TestCrewAI(t *testing.T) {
	a, b := call("search", `{"query":"go"}`), call("search", `{"query":"rust"}`)
	runCases(t, CrewAI, []ruleCase{
		{"one call is fine", seq(a), nil},
		{"the second identical call in a row is refused", times(2, a), []int{1}},
		{"a refused call leaves the last use unchanged, so the third is refused too", times(3, a), []int{1, 2}},
		{"a different call between them is fine", seq(a, b, a, b), nil},
		{"member order of the arguments does not matter", seq(call("x", `{"a":1,"b":2}`), call("x", `{"b":2,"a":1}`)), []int{1}},
		{"a user turn does not reset the last use", seq(a, user(), a), []int{1}},
	})
}
