package peers

import "testing"

func TestOpenHandsV0(t *testing.T) {
	a, b := call("str_replace_editor", `{"command":"view","path":"a.py"}`), call("str_replace_editor", `{"command":"view","path":"b.py"}`)
	boom := failed("python", `"python x.py"`, "Traceback: boom")
	runCases(t, OpenHandsV0, []ruleCase{
		{"a history too short is never stuck", times(2, a), nil},
		{"three identical steps are not yet stuck", times(3, a), nil},
		{"four identical actions with identical observations are stuck", times(4, a), []int{3}},
		{"it stays stuck while the repetition goes on", times(6, a), []int{3, 4, 5}},
		{"identical actions whose observations change are not stuck", numbered(6, "grep", false, true), nil},
		{"the same action failing three times is stuck", times(3, boom), []int{2}},
		{"the thought is part of the action", seq(text("one"), a, text("two"), a, text("three"), a, text("four"), a), nil},
		{"the same thought makes the same action", times(4, text("let me look"), a), []int{3}},
		{"an alternating pattern over six steps is stuck", times(3, a, b), []int{5}},
		{"a command's output is not compared, only its exit code", seq(
			callResult("Bash", `{"command":"date"}`, "Mon"), callResult("Bash", `{"command":"date"}`, "Tue"),
			callResult("Bash", `{"command":"date"}`, "Wed"), callResult("Bash", `{"command":"date"}`, "Thu")), []int{3}},
		{"three identical agent messages with nothing between are a monologue", seq(a, text("I am done."), text("I am done."), text("I am done."), user()), []int{0}},
		{"identical messages with calls between are thoughts, not a monologue", seq(text("Let me check."), a, text("Let me check."), b, text("Let me check."), call("ls", "{}")), nil},
		{"a user message starts the history over", seq(times(3, a), user(), a), nil},
		{"an agent message among the actions breaks the repetition", seq(times(2, a), text("hmm"), user(), times(2, a)), nil},
	})
}

func TestOpenHandsSDK(t *testing.T) {
	a, b := call("file_editor", `{"command":"view","path":"a.py"}`), call("file_editor", `{"command":"view","path":"b.py"}`)
	runCases(t, OpenHandsSDK, []ruleCase{
		{"three identical steps are not yet stuck", times(3, a), nil},
		{"four identical actions with identical observations are stuck", times(4, a), []int{3}},
		{"identical actions whose observations change are not stuck", numbered(6, "grep", false, true), nil},
		{"three errors after the same action are stuck, whatever the errors say", seq(
			failed("terminal", `{"command":"make"}`, "error 1"), failed("terminal", `{"command":"make"}`, "error 2"),
			failed("terminal", `{"command":"make"}`, "error 3")), []int{2}},
		{"a command's output is compared", seq(
			callResult("terminal", `{"command":"date"}`, "Mon"), callResult("terminal", `{"command":"date"}`, "Tue"),
			callResult("terminal", `{"command":"date"}`, "Wed"), callResult("terminal", `{"command":"date"}`, "Thu")), nil},
		{"the thought is part of the action", seq(text("one"), a, text("two"), a, text("three"), a, text("four"), a), nil},
		{"three agent messages in a row are a monologue, equal or not", seq(a, text("first"), text("second"), text("third"), user()), []int{0}},
		{"two agent messages are not", seq(a, text("first"), text("second"), user()), nil},
		{"an alternating pattern over six steps is stuck", times(3, a, b), []int{5}},
		{"a user message starts the history over", seq(times(3, a), user(), a), nil},
	})
}
