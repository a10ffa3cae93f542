package peers

import (
	"strings"
	"testing"
)

func TestGoose(t *testing.T) {
	denied := failed("shell", `{"command":"cat x"}`, "Permission denied")
	long := strings.Repeat("e", 100)
	runCases(t, Goose, []ruleCase{
		{"two identical errors are allowed", seq(times(2, denied), call("shell", `{"command":"id"}`)), nil},
		{"three identical errors deny the tool's next call, whatever its arguments", seq(times(3, denied), call("shell", `{"command":"id"}`)), []int{3}},
		{"the tool keeps being denied while it fails the same way", times(5, denied), []int{3, 4}},
		{"different error texts do not count", seq(failed("shell", "{}", "a"), failed("shell", "{}", "b"), failed("shell", "{}", "c"), call("shell", "{}")), nil},
		{"only the first 100 characters of the error are compared", seq(failed("shell", "{}", long+"1"), failed("shell", "{}", long+"2"),
			failed("shell", "{}", long+"3"), call("shell", "{}")), []int{3}},
		{"a success breaks the run", seq(times(2, denied), call("shell", `{"command":"ls"}`), denied, call("shell", "{}")), nil},
		{"another tool's call is not denied", seq(times(3, denied), call("read_file", `{"path":"x"}`)), nil},
		{"the same error from another tool does not continue the run", seq(times(2, denied), failed("write", "{}", "Permission denied"), call("write", "{}")), nil},
	})
}
