package loopguardplugin_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/agent"
	"github.com/loopguard/loopguard/agent/loopguardplugin"
)

// harness is a real loop with the plugin installed, a scripted model, a session log in
// memory and tools that count how often their body ran.
type harness struct {
	t      *testing.T
	loop   *agent.Loop
	reg    *agent.Registry
	plugin *loopguardplugin.Plugin
	model  *agent.Script
	log    *bytes.Buffer

	mu   sync.Mutex
	runs map[string]int // tool name -> bodies run
}

// toolNames are registered in every harness; each returns "ok <name> <args>", but find,
// which finds nothing: "No matches found for <args>".
var toolNames = []string{"probe", "other", "grep", "find", "A", "B", "C", "todo_write"}

// newHarness builds the loop; downstream post-execute hooks are added after the plugin, so the
// plugin folds its notices onto what they decide.
func newHarness(t *testing.T, cfg loopguard.Config, replies []agent.Message, downstream ...agent.PostExecuteHook) *harness {
	t.Helper()
	h := &harness{t: t, reg: agent.NewRegistry(), model: agent.NewScript(replies...), log: &bytes.Buffer{}, runs: map[string]int{}}
	for _, name := range toolNames {
		err := h.reg.Register(agent.Tool{Name: name, Description: "test tool " + name,
			Run: func(_ context.Context, ex *agent.Execution) (agent.Result, error) {
				h.mu.Lock()
				h.runs[name]++
				h.mu.Unlock()
				if name == "find" {
					return agent.Result{Content: "No matches found for " + ex.Call.Args}, nil
				}
				return agent.Result{Content: "ok " + name + " " + ex.Call.Args}, nil
			}})
		if err != nil {
			t.Fatal(err)
		}
	}
	p, err := loopguardplugin.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	h.plugin = p
	h.loop = &agent.Loop{Model: h.model, Tools: h.reg, Log: h.log, Clock: agent.SteppingClock(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))}
	h.loop.Use(p)
	h.reg.UsePostExecute(downstream...)
	return h
}

func (h *harness) ran(tool string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.runs[tool]
}

// send sends a user message and expects the run to end with the model's final text.
func (h *harness) send(a *agent.Agent, text string) {
	h.t.Helper()
	if _, err := a.Send(context.Background(), agent.User(text)); err != nil {
		h.t.Fatalf("Send(%q): %v", text, err)
	}
}

func (h *harness) records() []agent.Record {
	h.t.Helper()
	recs, err := agent.ReadLog(bytes.NewReader(h.log.Bytes()))
	if err != nil {
		h.t.Fatalf("ReadLog: %v", err)
	}
	return recs
}

// notices lists the notices in the session log as "plugin summary @N", N being how many tool
// results the log held before the notice: the call it follows.
func (h *harness) notices() []string {
	var out []string
	results := 0
	for _, r := range h.records() {
		switch {
		case r.Source.Kind == agent.FromTool:
			results++
		case r.Source.Form == agent.FormNotice:
			out = append(out, fmt.Sprintf("%s %s @%d", r.Source.Plugin, r.Source.Summary, results))
		}
	}
	return out
}

// noticeTexts returns the text of every notice in the log, in order.
func (h *harness) noticeTexts() []string {
	var out []string
	for _, r := range h.records() {
		if r.Source.Form == agent.FormNotice {
			out = append(out, r.Text)
		}
	}
	return out
}

func call(name, args string) agent.ToolCall { return agent.ToolCall{Name: name, Args: args} }

func times(n int, c agent.ToolCall) []agent.ToolCall {
	out := make([]agent.ToolCall, n)
	for i := range out {
		out[i] = c
	}
	return out
}

func seq(parts ...[]agent.ToolCall) []agent.ToolCall {
	var out []agent.ToolCall
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// turn is the model's side of one Send: one step per call, then a final answer.
func turn(calls ...agent.ToolCall) []agent.Message {
	out := make([]agent.Message, 0, len(calls)+1)
	for _, c := range calls {
		out = append(out, agent.Reply("", c))
	}
	return append(out, agent.Reply("done"))
}

func turns(ts ...[]agent.ToolCall) []agent.Message {
	var out []agent.Message
	for _, t := range ts {
		out = append(out, turn(t...)...)
	}
	return out
}

func sameLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("notices differ\n got: %q\nwant: %q", got, want)
	}
}

func repeatOnly(mod func(*loopguard.RepeatToolReminderConfig)) loopguard.Config {
	c := loopguard.DefaultRepeatToolReminder()
	if mod != nil {
		mod(c)
	}
	return loopguard.Config{RepeatToolReminder: c}
}

func brakeOnly(mod func(*loopguard.DSHBrakeConfig)) loopguard.Config {
	c := loopguard.DefaultDSHBrake()
	if mod != nil {
		mod(c)
	}
	return loopguard.Config{DSHBrake: c}
}

// lastToolMessage returns the last tool result the model was shown.
func lastToolMessage(t *testing.T, conv []agent.Message) agent.Message {
	t.Helper()
	for i := len(conv) - 1; i >= 0; i-- {
		if conv[i].Source.Kind == agent.FromTool {
			return conv[i]
		}
	}
	t.Fatal("the model was shown no tool result")
	return agent.Message{}
}
