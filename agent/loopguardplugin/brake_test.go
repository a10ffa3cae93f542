package loopguardplugin_test

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/agent"
	"github.com/loopguard/loopguard/agent/loopguardplugin"
	"github.com/loopguard/loopguard/config"
)

var longText = "The configuration file lists every service with its port, its owner and the date of its last review. "

// The upstream tests of dsh-brake, through the real loop.
func TestDSHBrakeThroughTheLoop(t *testing.T) {
	abc := []agent.ToolCall{call("A", "{}"), call("B", "{}"), call("C", "{}")}
	distinct := make([]agent.ToolCall, 7)
	for i := range distinct {
		distinct[i] = call("probe", `{"n":`+strconv.Itoa(i)+`}`)
	}
	tests := []struct {
		name  string
		cfg   loopguard.Config
		turns [][]agent.ToolCall
		want  []string
	}{
		{"warns once at the threshold", brakeOnly(nil),
			[][]agent.ToolCall{times(7, call("probe", same))},
			// Identical calls also form a repeated sequence (four in a row, three times).
			[]string{"dsh-brake probe × 6 @6", "dsh-brake sequence loop × 3 @6"}},
		{"distinct arguments never warn", brakeOnly(nil),
			[][]agent.ToolCall{distinct},
			nil},
		{"re-warns every callReWarnEvery more: warn 2, re-warn 5, ten calls",
			brakeOnly(func(c *loopguard.DSHBrakeConfig) { c.CallWarnCount = 2; c.CallReWarnEvery = 5; c.SequenceLength = 16 }),
			[][]agent.ToolCall{times(10, call("probe", same))},
			[]string{"dsh-brake probe × 2 @2", "dsh-brake probe × 7 @7"}},
		{"a repeated sequence: length 3, count 2, A B C four times",
			brakeOnly(func(c *loopguard.DSHBrakeConfig) { c.SequenceLength = 3; c.SequenceCount = 2 }),
			[][]agent.ToolCall{seq(abc, abc, abc, abc)},
			[]string{"dsh-brake sequence loop × 2 @6", "dsh-brake sequence loop × 2 @7", "dsh-brake sequence loop × 2 @8"}},
		{"a user message resets every counter",
			brakeOnly(func(c *loopguard.DSHBrakeConfig) { c.CallWarnCount = 3; c.SequenceLength = 8 }),
			[][]agent.ToolCall{times(2, call("probe", same)), times(2, call("probe", same))},
			nil},
		{"the count is cumulative since the user spoke, not consecutive",
			brakeOnly(func(c *loopguard.DSHBrakeConfig) { c.CallWarnCount = 3; c.SequenceLength = 8 }),
			[][]agent.ToolCall{{call("probe", same), call("other", "{}"), call("probe", same), call("other", "{}"), call("probe", same)}},
			[]string{"dsh-brake probe × 3 @5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.cfg, turns(tt.turns...))
			a := h.loop.NewAgent("s1")
			for i := range tt.turns {
				h.send(a, "turn "+strconv.Itoa(i+1))
			}
			sameLines(t, h.notices(), tt.want)
		})
	}
}

func TestDSHBrakeNoticeDoesNotStopTheCall(t *testing.T) {
	var downstream atomic.Int32
	count := func(_ context.Context, _ *agent.Execution, _ agent.Result, next func() agent.Decision) agent.Decision {
		downstream.Add(1)
		return next()
	}
	h := newHarness(t, brakeOnly(nil), turn(times(7, call("probe", same))...), count)
	h.send(h.loop.NewAgent("s1"), "go")
	if h.ran("probe") != 7 || downstream.Load() != 7 {
		t.Errorf("ran %d bodies, downstream saw %d calls; want 7 and 7: a notice is advice, not a stop", h.ran("probe"), downstream.Load())
	}
	recs := h.records()
	var found bool
	for _, r := range recs {
		if r.Source.Form == agent.FormNotice && r.Source.Summary == "probe × 6" {
			found = true
			if r.Role != agent.RoleUser || r.Source.Plugin != loopguard.PluginDSHBrake {
				t.Errorf("the notice is logged as %s from %q, want a user-role dsh-brake notice", r.Role, r.Source.Plugin)
			}
			if !strings.Contains(r.Text, "6 times (probe)") {
				t.Errorf("notice text: %q", r.Text)
			}
		}
	}
	if !found {
		t.Error("no probe × 6 notice in the session log")
	}
}

// denyFromThird is dsh-brake alone in deny mode, warning at the 2nd identical call and
// refusing from the 3rd, with sequences long enough to stay out of the way.
func denyFromThird() loopguard.Config {
	return brakeOnly(func(c *loopguard.DSHBrakeConfig) {
		c.Mode = loopguard.ModeDeny
		c.CallWarnCount = 2
		c.CallDenyCount = 3
		c.SequenceLength = 16
	})
}

func TestDSHBrakeDenyModeThroughTheLoop(t *testing.T) {
	cfg := denyFromThird()
	probe := call("probe", same)
	h := newHarness(t, cfg, turn(seq(times(5, probe), times(1, call("probe", `{"q":"other"}`)))...))
	a := h.loop.NewAgent("s1")
	h.send(a, "go")

	if n := h.ran("probe"); n != 4 {
		t.Errorf("probe's body ran %d times, want 4: the 4th and 5th identical calls are refused, other arguments run", n)
	}
	var results []agent.Message
	for _, m := range a.History() {
		if m.Source.Kind == agent.FromTool {
			results = append(results, m)
		}
	}
	if len(results) != 6 {
		t.Fatalf("want 6 tool results, got %d", len(results))
	}
	for i, r := range results {
		refused := i == 3 || i == 4
		if refused != (r.IsError && strings.HasPrefix(r.Text, "Error: dsh-brake: ")) {
			t.Errorf("result %d: %+v (refused: %v)", i+1, r, refused)
		}
	}
	if !strings.Contains(results[3].Text, "repeated 3 times") {
		t.Errorf("the refusal says how often the call repeated: %q", results[3].Text)
	}
	// The model was shown the refusal as a failed tool result.
	conv := h.model.Inputs()[4] // the 5th model call follows the 4th tool result
	if got := lastToolMessage(t, conv); got.ID != results[3].ID || !got.IsError {
		t.Errorf("the model was shown %+v, want the refusal", got)
	}

	// Calls with no agent are never refused.
	out, err := h.reg.Execute(context.Background(), &agent.Execution{Call: probe})
	if err != nil || out.Result.IsError {
		t.Errorf("a call with no agent was refused: %+v, %v", out.Result, err)
	}
	if n := h.ran("probe"); n != 5 {
		t.Errorf("probe ran %d times, want 5 after the call with no agent", n)
	}
}

func TestDSHBrakeDenyModeStaysUntilTheUserSpeaks(t *testing.T) {
	cfg := denyFromThird()
	probe := call("probe", same)
	h := newHarness(t, cfg, turns(times(4, probe), times(4, probe)))
	a := h.loop.NewAgent("s1")
	h.send(a, "go")
	h.send(a, "try again")
	if n := h.ran("probe"); n != 6 {
		t.Errorf("probe ran %d times, want 3 per turn", n)
	}
}

// injector is a pre-step hook that adds, on each step, the next of a list of plugin messages.
func injector(msgs ...agent.Message) agent.PreStepHook {
	i := 0
	return func(_ context.Context, st *agent.Step, next func() agent.StepDecision) agent.StepDecision {
		d := next()
		if i < len(msgs) {
			d = d.WithMessages(msgs[i])
			i++
		}
		return d
	}
}

func TestDSHBrakeDuplicateTextAcrossInjectedMessages(t *testing.T) {
	h := newHarness(t, brakeOnly(nil), turn(call("probe", `{"n":1}`), call("probe", `{"n":2}`)))
	h.loop.UsePreStep(injector(
		agent.PluginMessage("kb", agent.FormRecall, longText),
		agent.PluginMessage("kb", agent.FormRecall, longText+"  \r\n"),
		agent.PluginMessage("search", agent.FormRecall, "\n"+longText),
	))
	h.send(h.loop.NewAgent("s1"), "go")
	sameLines(t, h.notices(), []string{"dsh-brake duplicate text × 3 @2"})
	texts := h.noticeTexts()
	if !strings.Contains(texts[0], "(sources: kb, search)") {
		t.Errorf("the notice names where the text came from: %q", texts[0])
	}
	// It follows the third injection, in the same step.
	recs := h.records()
	last := recs[len(recs)-2]
	if last.Source.Form != agent.FormNotice || recs[len(recs)-3].Source.Plugin != "search" {
		t.Errorf("want the notice right after the third injected text, got %+v then %+v", recs[len(recs)-3].Source, last.Source)
	}
}

func TestDSHBrakeTheSameMessageIDCountsOnce(t *testing.T) {
	again := agent.PluginMessage("kb", agent.FormRecall, longText)
	again.ID = "kb-1"
	other := again
	other.ID = "kb-2"
	h := newHarness(t, brakeOnly(nil), turn(call("probe", `{"n":1}`), call("probe", `{"n":2}`), call("probe", `{"n":3}`)))
	h.loop.UsePreStep(injector(again, again, again, other))
	h.send(h.loop.NewAgent("s1"), "go")
	sameLines(t, h.notices(), nil)
}

func TestDSHBrakeDuplicateToolResults(t *testing.T) {
	h := newHarness(t, brakeOnly(nil), turn(call("probe", `{"n":1}`), call("grep", `{"n":2}`), call("probe", `{"n":3}`)))
	h.reg.UsePostExecute(func(_ context.Context, _ *agent.Execution, _ agent.Result, next func() agent.Decision) agent.Decision {
		return next().WithContent(longText)
	})
	h.send(h.loop.NewAgent("s1"), "go")
	sameLines(t, h.notices(), []string{"dsh-brake duplicate text × 3 @3"})
}

func TestDSHBrakeFoldsOntoADownstreamBlock(t *testing.T) {
	block := func(_ context.Context, _ *agent.Execution, _ agent.Result, _ func() agent.Decision) agent.Decision {
		return agent.Block("blocked by policy", agent.PluginMessage("policy", agent.FormRelay, "policy context"))
	}
	cfg := brakeOnly(func(c *loopguard.DSHBrakeConfig) { c.CallWarnCount = 2; c.SequenceLength = 16 })
	h := newHarness(t, cfg, turn(times(2, call("probe", same))...), block)
	h.send(h.loop.NewAgent("s1"), "go")
	conv := h.model.Last()
	tail := conv[len(conv)-3:]
	if tail[0].Text != "blocked by policy" || !tail[0].IsError {
		t.Errorf("the block's feedback was lost: %+v", tail[0])
	}
	if tail[1].Source.Plugin != loopguard.PluginDSHBrake || tail[1].Source.Summary != "probe × 2" {
		t.Errorf("want the brake notice next, got %+v", tail[1].Source)
	}
	if tail[2].Text != "policy context" {
		t.Errorf("want the downstream context last, got %+v", tail[2])
	}
}

func TestDSHBrakeRejectsBadConfig(t *testing.T) {
	tests := []struct {
		doc, want string
	}{
		{"dsh-brake: {callWarnCount: 6, callDenyCount: 6}", "callDenyCount (6) must be greater than callWarnCount (6)"},
		{"dsh-brake: {mode: block}", "mode must be 'remind' or 'deny', got block"},
		{"dsh-brake: {callWarnCount: 1.5}", "dsh-brake: callWarnCount must be an integer >= 2, got 1.5"},
		{"dsh-brake: {duplicateTextWindowMs: 10}", "dsh-brake: duplicateTextWindowMs must be an integer >= 1000, got 10"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) { rejects(t, tt.doc, tt.want) })
	}
	t.Run("an empty section is valid", func(t *testing.T) {
		cfg, _, err := config.Parse("loopguard.yaml", []byte("dsh-brake: {}"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := loopguardplugin.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if p.Engine().Config().DSHBrake.CallWarnCount != 6 {
			t.Error("an empty section does not get the defaults")
		}
	})
}
