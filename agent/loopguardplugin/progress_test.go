package loopguardplugin_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/agent"
)

// The calls of one model reply were made together, before the model saw any result: six
// searches in one reply that find nothing alike are a batch, while six replies each searching
// again and finding nothing alike are argument churn.
func TestParallelCallsOfOneReplyAreOneStep(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	searches := make([]agent.ToolCall, 6)
	for i := range searches {
		searches[i] = call("find", "handler_"+strconv.Itoa(i)) // answered "No matches found for handler_N": the same non-answer, the pattern echoed
	}
	t.Run("one reply", func(t *testing.T) {
		h := newHarness(t, cfg, []agent.Message{agent.Reply("", searches...), agent.Reply("done")})
		h.send(h.loop.NewAgent("s1"), "find the handler")
		sameLines(t, h.notices(), nil)
	})
	t.Run("six replies", func(t *testing.T) {
		h := newHarness(t, cfg, turn(searches...))
		h.send(h.loop.NewAgent("s1"), "find the handler")
		got := h.notices()
		if len(got) != 1 || !strings.HasPrefix(got[0], "progress find") {
			t.Errorf("notices %q, want one for find", got)
		}
	})
}

// The user's messages reach the engine with their text: the same search after a repeated
// "continue" is the same step again, while a new request starts the count afresh.
func TestRepeatedUserMessageIsNoNewTurn(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	search := call("grep", "parseConfig")
	for _, tc := range []struct {
		third string
		want  int
	}{{"continue", 1}, {"now check the tests", 0}} {
		h := newHarness(t, cfg, turns([]agent.ToolCall{search}, []agent.ToolCall{search}, []agent.ToolCall{search}))
		a := h.loop.NewAgent("s1")
		h.send(a, "continue")
		h.send(a, "continue")
		h.send(a, tc.third)
		if got := h.notices(); len(got) != tc.want {
			t.Errorf("third message %q: notices %q, want %d", tc.third, got, tc.want)
		}
	}
}
