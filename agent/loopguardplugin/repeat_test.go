package loopguardplugin_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/agent"
	"github.com/loopguard/loopguard/agent/loopguardplugin"
	"github.com/loopguard/loopguard/config"
)

const same = `{"q":"same"}`

// The upstream tests of repeat-tool-reminder, through the real loop: a scripted model makes
// the calls, the registry runs them, the plugin sees them on its seams, and the notices are
// read back from the session log.
func TestRepeatToolReminderThroughTheLoop(t *testing.T) {
	probe := call("probe", same)
	tests := []struct {
		name  string
		cfg   loopguard.Config
		turns [][]agent.ToolCall // one Send (a user message) per turn
		want  []string
	}{
		{"gentle at the first threshold and detailed at the second", repeatOnly(nil),
			[][]agent.ToolCall{times(5, probe)},
			[]string{"repeat-tool-reminder probe × 3 @3", "repeat-tool-reminder probe × 5 @5"}},
		{"thresholds are sorted: [4, 2] is gentle at 2 and detailed at 4",
			repeatOnly(func(c *loopguard.RepeatToolReminderConfig) { c.Thresholds = []int{4, 2} }),
			[][]agent.ToolCall{times(4, probe)},
			[]string{"repeat-tool-reminder probe × 2 @2", "repeat-tool-reminder probe × 4 @4"}},
		{"a different tracked call restarts the chain", repeatOnly(nil),
			[][]agent.ToolCall{seq(times(2, probe), times(1, call("other", "{}")), times(3, probe))},
			[]string{"repeat-tool-reminder probe × 3 @6"}},
		{"excluded calls are transparent",
			repeatOnly(func(c *loopguard.RepeatToolReminderConfig) { c.Exclude = []string{"other"} }),
			[][]agent.ToolCall{{probe, call("other", "{}"), probe, call("other", "{}"), probe}},
			[]string{"repeat-tool-reminder probe × 3 @5"}},
		{"include pro* tracks probe and nothing else",
			repeatOnly(func(c *loopguard.RepeatToolReminderConfig) { c.Include = []string{"pro*"} }),
			[][]agent.ToolCall{seq(times(3, probe), times(3, call("grep", "{}")))},
			[]string{"repeat-tool-reminder probe × 3 @3"}},
		{"pr.be is literal and matches no probe",
			repeatOnly(func(c *loopguard.RepeatToolReminderConfig) { c.Include = []string{"pr.be"} }),
			[][]agent.ToolCall{times(3, probe)},
			nil},
		{"property order never matters, at any depth", repeatOnly(nil),
			[][]agent.ToolCall{{
				call("probe", `{"a":1,"nested":{"x":[1,{"k":1,"j":2}],"y":null}}`),
				call("probe", `{"nested":{"y":null,"x":[1,{"j":2,"k":1}]},"a":1}`),
				call("probe", ` { "nested" : { "x" : [1, {"j":2,"k":1}], "y" : null }, "a" : 1 } `),
			}},
			[]string{"repeat-tool-reminder probe × 3 @3"}},
		{"a new user prompt resets the chain", repeatOnly(nil),
			[][]agent.ToolCall{times(2, probe), times(2, probe), times(1, probe)},
			nil},
		{"after a reset the chain counts from 1 again", repeatOnly(nil),
			[][]agent.ToolCall{times(2, probe), times(3, probe)},
			[]string{"repeat-tool-reminder probe × 3 @5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.cfg, turns(tt.turns...))
			a := h.loop.NewAgent("s1")
			for i := range tt.turns {
				h.send(a, "turn "+string(rune('1'+i)))
			}
			sameLines(t, h.notices(), tt.want)
		})
	}
}

func TestRepeatToolReminderTextsThroughTheLoop(t *testing.T) {
	h := newHarness(t, repeatOnly(nil), turn(times(5, call("probe", same))...))
	h.send(h.loop.NewAgent("s1"), "go")
	texts := h.noticeTexts()
	if len(texts) != 2 {
		t.Fatalf("want 2 notices, got %d", len(texts))
	}
	if !strings.HasPrefix(texts[0], "You are repeating the exact same tool call") {
		t.Errorf("the first threshold gets the gentle text, got %q", texts[0])
	}
	for _, want := range []string{"Repeated tool call detected:", "- tool: probe", "- consecutive_calls: 5", `- arguments: {"q":"same"}`} {
		if !strings.Contains(texts[1], want) {
			t.Errorf("detailed text lacks %q:\n%s", want, texts[1])
		}
	}
}

func TestRepeatToolReminderPreviewCapThroughTheLoop(t *testing.T) {
	payload := strings.Repeat("x", 400)
	cfg := repeatOnly(func(c *loopguard.RepeatToolReminderConfig) {
		c.Thresholds = []int{2, 3}
		c.ArgumentsPreviewChars = 24
	})
	h := newHarness(t, cfg, turn(times(3, call("probe", `{"data":"`+payload+`"}`))...))
	h.send(h.loop.NewAgent("s1"), "go")
	texts := h.noticeTexts()
	if len(texts) != 2 {
		t.Fatalf("want 2 notices, got %d", len(texts))
	}
	detailed := texts[1]
	// 24 code points of {"data":"xxx…"} (411 in all), then the count of the rest.
	if !strings.Contains(detailed, `- arguments: {"data":"`+strings.Repeat("x", 24-len(`{"data":"`))+"… (+387 more chars)\n") {
		t.Errorf("arguments not cut to 24 characters:\n%s", detailed)
	}
	if strings.Contains(detailed, payload) {
		t.Error("the notice quotes the whole payload")
	}
}

func TestRepeatToolReminderChainsArePerAgent(t *testing.T) {
	probe := call("probe", same)
	h := newHarness(t, repeatOnly(nil), turns(times(2, probe), times(3, probe)))
	a, b := h.loop.NewAgent("A"), h.loop.NewAgent("B")
	h.send(a, "go")
	h.send(b, "go")
	recs := h.records()
	for _, r := range recs {
		if r.Source.Form == agent.FormNotice && r.Session != "B" {
			t.Errorf("agent %s got a notice (%s); only B made three calls", r.Session, r.Source.Summary)
		}
	}
	sameLines(t, h.notices(), []string{"repeat-tool-reminder probe × 3 @5"})
}

func TestRepeatToolReminderDisposedAgentsReplacementStartsAtOne(t *testing.T) {
	// The turns are started by a relayed task, not a user prompt: a prompt would reset the
	// chain by itself and prove nothing about disposal.
	task := agent.PluginMessage("orchestrator", agent.FormRelay, "keep probing")
	probe := call("probe", same)
	for _, dispose := range []bool{true, false} {
		name := map[bool]string{true: "disposed and replaced", false: "kept (control)"}[dispose]
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, repeatOnly(nil), turns(times(2, probe), times(2, probe)))
			first := h.loop.NewAgent("s1")
			if _, err := first.Send(context.Background(), task); err != nil {
				t.Fatal(err)
			}
			second := first
			if dispose {
				first.Dispose()
				if n := h.plugin.Engine().Agents(); n != 0 {
					t.Fatalf("the engine still holds %d agents after Dispose", n)
				}
				if _, err := first.Send(context.Background(), task); err != agent.ErrDisposed {
					t.Fatalf("Send after Dispose: %v, want ErrDisposed", err)
				}
				second = h.loop.NewAgent("s1")
			}
			if _, err := second.Send(context.Background(), task); err != nil {
				t.Fatal(err)
			}
			want := []string{"repeat-tool-reminder probe × 3 @3"} // 2 + 2 calls of one agent
			if dispose {
				want = nil // 2, then a new agent's 1, 2
			}
			sameLines(t, h.notices(), want)
		})
	}
}

func TestRepeatToolReminderDeniedCallsCount(t *testing.T) {
	h := newHarness(t, repeatOnly(nil), turn(times(3, call("probe", same))...))
	h.reg.UsePreExecute(func(_ context.Context, ex *agent.Execution) agent.Permission {
		return agent.Deny("probe is not allowed here")
	})
	h.send(h.loop.NewAgent("s1"), "go")
	sameLines(t, h.notices(), []string{"repeat-tool-reminder probe × 3 @3"})
	if n := h.ran("probe"); n != 0 {
		t.Errorf("a denied call ran its body %d times", n)
	}
	got := lastToolMessage(t, h.model.Last())
	if !got.IsError || got.Text != "Error: probe is not allowed here" {
		t.Errorf("the model was shown %+v, want the error Error: probe is not allowed here", got)
	}
}

func TestCallsWithNoAgentNeitherCrashNorCount(t *testing.T) {
	h := newHarness(t, loopguard.Config{RepeatToolReminder: loopguard.DefaultRepeatToolReminder(), DSHBrake: loopguard.DefaultDSHBrake()}, nil)
	for range 12 {
		out, err := h.reg.Execute(context.Background(), &agent.Execution{Call: call("probe", same)})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Contexts) != 0 {
			t.Fatalf("a call with no agent got contexts: %+v", out.Contexts)
		}
		if out.Result.Text() != "ok probe "+same {
			t.Fatalf("result %q", out.Result.Text())
		}
	}
	if n := h.plugin.Engine().Agents(); n != 0 {
		t.Errorf("calls with no agent created %d engine agents", n)
	}
}

func TestRepeatToolReminderFoldsOntoADownstreamBlock(t *testing.T) {
	policy := agent.PluginMessage("policy", agent.FormRelay, "policy context")
	block := func(_ context.Context, _ *agent.Execution, _ agent.Result, _ func() agent.Decision) agent.Decision {
		return agent.Block("blocked by policy", policy)
	}
	h := newHarness(t, repeatOnly(nil), turn(times(3, call("probe", same))...), block)
	h.send(h.loop.NewAgent("s1"), "go")
	// The model's last input ends with: the blocked result, our notice, the downstream context.
	conv := h.model.Last()
	tail := conv[len(conv)-3:]
	if r := tail[0]; r.Source.Kind != agent.FromTool || !r.IsError || r.Text != "blocked by policy" {
		t.Errorf("the block's feedback was lost: %+v", r)
	}
	if n := tail[1]; n.Source.Plugin != loopguard.PluginRepeatToolReminder || n.Source.Summary != "probe × 3" {
		t.Errorf("want the reminder right after the result, got %+v", n)
	}
	if c := tail[2]; c.Source.Plugin != "policy" || c.Text != "policy context" {
		t.Errorf("want the downstream context after the reminder, got %+v", c)
	}
}

func TestRepeatToolReminderKeepsADownstreamValueReplacement(t *testing.T) {
	replace := func(_ context.Context, _ *agent.Execution, _ agent.Result, next func() agent.Decision) agent.Decision {
		return next().WithValue(map[string]bool{"redacted": true})
	}
	h := newHarness(t, repeatOnly(nil), turn(times(3, call("probe", same))...), replace)
	h.send(h.loop.NewAgent("s1"), "go")
	conv := h.model.Last()
	tail := conv[len(conv)-2:]
	if r := tail[0]; r.IsError || r.Text != `{"redacted":true}` {
		t.Errorf("the replacement value was lost: %+v", r)
	}
	if n := tail[1]; n.Source.Summary != "probe × 3" {
		t.Errorf("want the reminder after the replaced result, got %+v", n)
	}
}

func TestRepeatToolReminderRejectsBadConfig(t *testing.T) {
	tests := []struct {
		doc, want string
	}{
		{"repeat-tool-reminder: {thresholds: []}", "`thresholds` must not be empty"},
		{"repeat-tool-reminder: {thresholds: [1]}", "invalid threshold 1 — every threshold must be an integer >= 2"},
		{"repeat-tool-reminder: {thresholds: [2.5]}", "invalid threshold 2.5 — every threshold must be an integer >= 2"},
		{"repeat-tool-reminder: {thresholds: [3, 3]}", "`thresholds` must not contain duplicates"},
		{"repeat-tool-reminder: {argumentsPreviewChars: 0}", "invalid argumentsPreviewChars 0 — must be an integer >= 1"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) { rejects(t, tt.doc, tt.want) })
	}
	// The same rules hold for a Config built in Go, which never passes through the parser.
	for _, mod := range []func(*loopguard.RepeatToolReminderConfig){
		func(c *loopguard.RepeatToolReminderConfig) { c.Thresholds = nil },
		func(c *loopguard.RepeatToolReminderConfig) { c.Thresholds = []int{1} },
		func(c *loopguard.RepeatToolReminderConfig) { c.Thresholds = []int{3, 3} },
		func(c *loopguard.RepeatToolReminderConfig) { c.ArgumentsPreviewChars = 0 },
	} {
		if _, err := loopguardplugin.New(repeatOnly(mod)); err == nil {
			t.Errorf("New accepted %+v", repeatOnly(mod).RepeatToolReminder)
		}
	}
}

// rejects checks that a configuration document fails loud, with want in the error, and never
// reaches a plugin.
func rejects(t *testing.T, doc, want string) {
	t.Helper()
	cfg, _, err := config.Parse("loopguard.yaml", []byte(doc))
	if err == nil {
		_, err = loopguardplugin.New(cfg)
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("%s: got error %v, want one saying %q", doc, err, want)
	}
}

// Two agents run at the same time on one loop and one registry, with tools running in
// parallel: each has its own chain. The model reacts to the conversation it is given, so the
// agents do not depend on each other's timing.
func TestConcurrentAgentsKeepTheirOwnChains(t *testing.T) {
	calls := map[string]int{"A": 3, "B": 2}
	model := agent.ModelFunc(func(_ context.Context, conv []agent.Message, _ []agent.ToolSpec) (agent.Message, error) {
		results := 0
		for _, m := range conv {
			if m.Source.Kind == agent.FromTool {
				results++
			}
		}
		if results < calls[conv[0].Text] {
			return agent.Reply("", call("probe", same)), nil
		}
		return agent.Reply("done"), nil
	})
	h := newHarness(t, repeatOnly(func(c *loopguard.RepeatToolReminderConfig) { c.Thresholds = []int{3} }), nil)
	h.loop.Model = model
	h.loop.Concurrency = 4

	var wg sync.WaitGroup
	agents := map[string]*agent.Agent{}
	for name := range calls {
		agents[name] = h.loop.NewAgent(name)
	}
	for name, a := range agents {
		wg.Go(func() {
			if _, err := a.Send(context.Background(), agent.User(name)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for name, a := range agents {
		var got []string
		for _, m := range a.History() {
			if m.Source.Form == agent.FormNotice {
				got = append(got, m.Source.Summary)
			}
		}
		want := map[string]string{"A": "probe × 3", "B": ""}[name]
		if strings.Join(got, ",") != want {
			t.Errorf("agent %s got notices %q, want %q", name, got, want)
		}
	}
}
