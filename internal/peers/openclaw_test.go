package peers

import (
	"fmt"
	"testing"

	"github.com/loopguard/loopguard"
)

func TestOpenClaw(t *testing.T) {
	same := func(n int) []loopguard.Event {
		return times(n, callResult("exec", `{"command":"make"}`, "make: *** [all] Error 2"))
	}
	stamped := func(n int) []loopguard.Event {
		var out []loopguard.Event
		for i := range n {
			out = append(out, callResult("exec", `{"command":"status"}`, fmt.Sprintf("not ready at 2026-12-01T10:%02d:00Z (took %dms, pid %d)", i, 10+i, 4000+i)))
		}
		return out
	}
	pingPong := func(n int, progress bool) []loopguard.Event {
		var out []loopguard.Event
		for i := range n {
			res := "same"
			if progress {
				res = fmt.Sprint("step ", i)
			}
			if i%2 == 0 {
				out = append(out, callResult("read", `{"path":"a"}`, res))
			} else {
				out = append(out, callResult("edit", `{"path":"a"}`, res))
			}
		}
		return out
	}
	unknown := func(n int) []loopguard.Event {
		var out []loopguard.Event
		for i := range n {
			out = append(out, failed("browse", fmt.Sprintf(`{"url":"u%d"}`, i), "Unknown tool: browse"))
		}
		return out
	}
	churn := func(n int) []loopguard.Event {
		var out []loopguard.Event
		for i := range n {
			out = append(out, callResult("grep", fmt.Sprintf(`{"pattern":"p%d"}`, i), "no matches"))
		}
		return out
	}
	poll := func(n int, progress bool) []loopguard.Event {
		var out []loopguard.Event
		for i := range n {
			res := "running"
			if progress {
				res = fmt.Sprint("line ", i)
			}
			out = append(out, callResult("process", `{"action":"poll","id":"p1"}`, res))
		}
		return out
	}
	runCases(t, OpenClaw, []ruleCase{
		{"ten identical calls are not yet a warning", numbered(10, "exec", false, true), nil},
		{"the same call after ten identical ones warns", numbered(11, "exec", false, true), []int{10}},
		{"the warning comes again at twenty, not at every call", numbered(25, "exec", false, true), []int{10, 20}},
		{"identical outcomes block from twenty on", same(23), []int{10, 20, 21, 22}},
		{"timestamps, durations and pids are not progress", stamped(21), []int{10, 20}},
		{"a ping-pong with unchanged outcomes warns at ten and blocks at twenty", pingPong(22, false), []int{9, 19, 20, 21}},
		{"a ping-pong whose outcomes progress warns but is never blocked", pingPong(22, true), []int{9, 19}},
		{"a broken alternation is not a ping-pong", times(5, call("read", `{"path":"a"}`), call("edit", "{}"), call("read", `{"path":"a"}`), call("ls", "{}")), nil},
		{"a batch over distinct arguments is never blocked", numbered(40, "read", true, true), nil},
		{"a two-pass batch is legitimate", seq(numbered(15, "read", true, true), numbered(15, "read", true, true)), nil},
		{"an unknown tool is blocked after ten failures, even with changing arguments", unknown(12), []int{10, 11}},
		{"the same result across changing arguments warns at ten", churn(11), []int{10}},
		{"a polling tool whose output progresses is left alone", poll(25, true), nil},
		{"a polling tool whose output stands still warns at ten and blocks at twenty", poll(21, false), []int{10, 20}},
		{"a user turn starts a new run", seq(numbered(9, "exec", false, true), user(), numbered(9, "exec", false, true)), nil},
	})
}

func TestOpenClawCanonical(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"done at 2026-12-01T10:00:00Z", "done at 2026-11-30 09:59:59.123+01:00"},
		{"took 12ms", "took 1.5 s"},
		{"pid 1234 exited", "pid 99 exited"},
		{"attempt 2/5 failed", "attempt 3/5 failed"},
		{"id 0f8fad5b-d9cb-469f-a165-70867728950e", "id 7c9e6679-7425-40de-944b-e07fc1f90ae7"},
		{"sent msg_01HABCDEF123", "sent msg_01HXYZXYZ999"},
	} {
		if clawCanonical(c.a) != clawCanonical(c.b) {
			t.Errorf("%q and %q differ after canonicalisation: %q, %q", c.a, c.b, clawCanonical(c.a), clawCanonical(c.b))
		}
	}
	if clawCanonical("exit 1: file a.go") == clawCanonical("exit 1: file b.go") {
		t.Error("different file names must stay different")
	}
}
