package peers

import (
	"slices"
	"testing"
)

func TestRooCode(t *testing.T) {
	a, b := call("read_file", `{"path":"a.go"}`), call("read_file", `{"path":"b.go"}`)
	scroll := call("browser_action", `{"action":"scroll_down"}`)
	runCases(t, RooCode, []ruleCase{
		{"three identical calls are allowed", times(3, a), nil},
		{"the fourth identical call is blocked", times(4, a), []int{3}},
		{"different calls are allowed", numbered(8, "read_file", true, false), nil},
		{"a different call resets the count", seq(times(3, a), b, times(3, a)), nil},
		{"after a block the count starts over", times(9, a), []int{3, 7}},
		{"parameter order does not matter", times(2, call("x", `{"a":1,"b":2}`), call("x", `{"b":2,"a":1}`)), []int{3}},
		{"the same arguments under another tool name differ", times(4, call("read_file", "{}"), call("list_files", "{}")), nil},
		{"browser scrolling is never counted", times(8, scroll), nil},
		{"browser scrolling does not break a run", seq(a, scroll, a, scroll, a, a), []int{5}},
		{"different read offsets are different calls", seq(call("read_file", `{"path":"a","offset":1}`), call("read_file", `{"path":"a","offset":2}`),
			call("read_file", `{"path":"a","offset":3}`), call("read_file", `{"path":"a","offset":4}`)), nil},
		{"a user turn does not reset the count", seq(times(2, a), user(), times(2, a)), []int{3}},
	})
}

func TestRooCodeLimit(t *testing.T) {
	a := call("read_file", `{"path":"a.go"}`)
	for _, c := range []struct {
		name  string
		limit int
		want  []int
	}{
		{"a limit of one blocks the second identical call", 1, []int{1, 3, 5, 7}},
		{"a limit of five blocks the sixth", 5, []int{5}},
		{"a limit of zero is unlimited", 0, nil},
		{"a negative limit is taken as zero", -2, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := RooCodeLimit(c.limit)(times(8, a)); !slices.Equal(got, c.want) {
				t.Errorf("fires at %v, want %v", got, c.want)
			}
		})
	}
}
