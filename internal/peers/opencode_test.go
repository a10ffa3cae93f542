package peers

import "testing"

func TestOpencode(t *testing.T) {
	a := call("read", `{"filePath":"a.ts"}`)
	runCases(t, Opencode, []ruleCase{
		{"two identical calls are fine", times(2, a), nil},
		{"the third identical call in a message asks for permission", times(3, a), []int{2}},
		{"so does every later one", times(5, a), []int{2, 3, 4}},
		{"text between the calls breaks the pattern", times(4, text("reading"), a), nil},
		{"member order of the input matters", seq(call("x", `{"a":1,"b":2}`), call("x", `{"b":2,"a":1}`), call("x", `{"a":1,"b":2}`)), nil},
		{"a new user message starts a new assistant message", seq(times(2, a), user(), a), nil},
		{"a different call breaks the pattern", seq(times(2, a), call("read", `{"filePath":"b.ts"}`), times(2, a)), nil},
	})
}
