package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loopguard/loopguard/agent"
)

// echo is a tool that returns its arguments.
var echo = agent.Tool{Name: "echo", Run: func(_ context.Context, ex *agent.Execution) (agent.Result, error) {
	return agent.Result{Content: "echo " + ex.Call.Args}, nil
}}

func newLoop(t *testing.T, model agent.Model, tools ...agent.Tool) (*agent.Loop, *bytes.Buffer) {
	t.Helper()
	reg := agent.NewRegistry()
	if err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	return &agent.Loop{Model: model, Tools: reg, Log: &log, Clock: agent.SteppingClock(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))}, &log
}

func echoCall(args string) agent.ToolCall { return agent.ToolCall{Name: "echo", Args: args} }

// describe renders messages as "source: text" lines, tool calls as "model → name args".
func describe(msgs []agent.Message) []string {
	var out []string
	for _, m := range msgs {
		switch {
		case len(m.ToolCalls) > 0:
			for _, c := range m.ToolCalls {
				out = append(out, "model → "+c.Name+" "+c.Args)
			}
		case m.Source.Kind == agent.FromPlugin:
			out = append(out, m.Source.Plugin+": "+m.Text)
		default:
			out = append(out, string(m.Source.Kind)+": "+m.Text)
		}
	}
	return out
}

func sameLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("lines differ\n got: %q\nwant: %q", got, want)
	}
}

func TestContextsFollowAllToolResultsOfTheStep(t *testing.T) {
	model := agent.NewScript(agent.Reply("", echoCall(`1`), echoCall(`2`)), agent.Reply("done"))
	loop, _ := newLoop(t, model, echo)
	loop.Registry().UsePostExecute(func(_ context.Context, ex *agent.Execution, _ agent.Result, next func() agent.Decision) agent.Decision {
		return next().WithContexts(agent.PluginMessage("p", agent.FormRelay, "context of "+ex.Call.Args))
	})
	reply, err := loop.NewAgent("s").Send(context.Background(), agent.User("go"))
	if err != nil || reply.Text != "done" {
		t.Fatalf("Send: %v, %+v", err, reply)
	}
	sameLines(t, describe(model.Last()), []string{
		"user: go",
		"model → echo 1",
		"model → echo 2",
		"tool: echo 1",
		"tool: echo 2",
		"p: context of 1",
		"p: context of 2",
	})
}

func TestParallelCallsCommitInTheModelsOrder(t *testing.T) {
	// Each call's body waits for the next one's to finish, so the bodies end in reverse order,
	// and they only end at all if they run at the same time.
	const n = 4
	finished := make([]chan struct{}, n+1)
	for i := range finished {
		finished[i] = make(chan struct{})
	}
	close(finished[n])
	var bodies []string
	var mu sync.Mutex
	wait := agent.Tool{Name: "wait", Run: func(ctx context.Context, ex *agent.Execution) (agent.Result, error) {
		var i int
		if err := ex.Call.Decode(&i); err != nil {
			return agent.Result{}, err
		}
		select {
		case <-finished[i+1]:
		case <-ctx.Done():
			return agent.Result{}, ctx.Err()
		}
		mu.Lock()
		bodies = append(bodies, fmt.Sprint(i))
		mu.Unlock()
		close(finished[i])
		return agent.Result{Value: i}, nil
	}}
	var calls []agent.ToolCall
	for i := range n {
		calls = append(calls, agent.ToolCall{Name: "wait", Args: fmt.Sprint(i)})
	}
	model := agent.NewScript(agent.Reply("", calls...), agent.Reply("done"))
	loop, _ := newLoop(t, model, wait)
	loop.Concurrency = n
	var post []string
	loop.Registry().UsePostExecute(func(_ context.Context, ex *agent.Execution, _ agent.Result, next func() agent.Decision) agent.Decision {
		post = append(post, ex.Call.Args) // not locked: post-execute runs one call at a time
		return next()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := loop.NewAgent("s").Send(ctx, agent.User("go")); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(bodies, []string{"3", "2", "1", "0"}) {
		t.Errorf("bodies finished in order %v; they did not run concurrently", bodies)
	}
	if !slices.Equal(post, []string{"0", "1", "2", "3"}) {
		t.Errorf("post-execute ran in order %v, want the model's", post)
	}
	sameLines(t, describe(model.Last())[5:], []string{"tool: 0", "tool: 1", "tool: 2", "tool: 3"})
}

func TestStepLimitLeavesResultsPendingForTheNextSend(t *testing.T) {
	model := agent.NewScript(agent.Reply("", echoCall("1")), agent.Reply("", echoCall("2")), agent.Reply("done"))
	loop, _ := newLoop(t, model, echo)
	loop.MaxSteps = 2
	a := loop.NewAgent("s")
	if _, err := a.Send(context.Background(), agent.User("go")); !errors.Is(err, agent.ErrStepLimit) {
		t.Fatalf("Send: %v, want ErrStepLimit", err)
	}
	if n := len(model.Inputs()); n != 2 {
		t.Fatalf("the model was called %d times under a limit of 2", n)
	}
	reply, err := a.Send(context.Background())
	if err != nil || reply.Text != "done" {
		t.Fatalf("continuing: %v %+v", err, reply)
	}
	sameLines(t, describe(model.Last()), []string{"user: go", "model → echo 1", "tool: echo 1", "model → echo 2", "tool: echo 2"})
}

func TestCancellationStopsTheRunAndKeepsTheConversationWhole(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ran atomic.Int32
	stop := agent.Tool{Name: "stop", Run: func(context.Context, *agent.Execution) (agent.Result, error) {
		ran.Add(1)
		cancel()
		return agent.Result{Content: "stopped"}, nil
	}}
	model := agent.NewScript(agent.Reply("", agent.ToolCall{Name: "stop"}, agent.ToolCall{Name: "stop"}), agent.Reply("done"))
	loop, _ := newLoop(t, model, stop)
	a := loop.NewAgent("s")
	if _, err := a.Send(ctx, agent.User("go")); !errors.Is(err, context.Canceled) {
		t.Fatalf("Send: %v, want context.Canceled", err)
	}
	if ran.Load() != 1 {
		t.Errorf("%d bodies ran; the second call came after the cancellation", ran.Load())
	}
	reply, err := a.Send(context.Background())
	if err != nil || reply.Text != "done" {
		t.Fatalf("continuing: %v %+v", err, reply)
	}
	sameLines(t, describe(model.Last())[3:], []string{"tool: stopped", "tool: Error: context canceled"})
}

func TestDispose(t *testing.T) {
	var ends []string
	var a *agent.Agent
	selfDispose := agent.Tool{Name: "quit", Run: func(_ context.Context, ex *agent.Execution) (agent.Result, error) {
		ex.Agent.Dispose() // from inside its own run: must not deadlock
		if len(ends) != 0 {
			t.Error("end functions ran while the agent was still running")
		}
		return agent.Result{Content: "bye"}, nil
	}}
	model := agent.NewScript(agent.Reply("", agent.ToolCall{Name: "quit"}), agent.Reply("unreachable"))
	loop, _ := newLoop(t, model, selfDispose)
	loop.OnEnd(func(x *agent.Agent) { ends = append(ends, x.Session()) })
	a = loop.NewAgent("s")
	if _, err := a.Send(context.Background(), agent.User("go")); !errors.Is(err, agent.ErrDisposed) {
		t.Fatalf("Send: %v, want ErrDisposed", err)
	}
	a.Dispose()
	if !slices.Equal(ends, []string{"s"}) {
		t.Errorf("end functions ran for %v, want once for s", ends)
	}
	if len(model.Inputs()) != 1 {
		t.Errorf("the model was called %d times; a disposed agent takes no more steps", len(model.Inputs()))
	}
	if _, err := a.Send(context.Background(), agent.User("again")); !errors.Is(err, agent.ErrDisposed) {
		t.Errorf("Send after Dispose: %v", err)
	}
}

func TestPreStepRejectKeepsTheInbox(t *testing.T) {
	model := agent.NewScript(agent.Reply("done"))
	loop, log := newLoop(t, model)
	rejectOnce := true
	loop.UsePreStep(func(_ context.Context, _ *agent.Step, next func() agent.StepDecision) agent.StepDecision {
		if rejectOnce {
			rejectOnce = false
			return agent.Reject("budget exhausted")
		}
		return next()
	})
	a := loop.NewAgent("s")
	_, err := a.Send(context.Background(), agent.User("first"))
	var rej *agent.RejectedError
	if !errors.As(err, &rej) || rej.Reason != "budget exhausted" {
		t.Fatalf("Send: %v, want a RejectedError", err)
	}
	if log.Len() != 0 || len(model.Inputs()) != 0 {
		t.Fatal("a rejected step recorded or showed something")
	}
	if _, err := a.Send(context.Background(), agent.User("second")); err != nil {
		t.Fatal(err)
	}
	sameLines(t, describe(model.Last()), []string{"user: first", "user: second"})
}

func TestPreStepSeesTheInboxStamped(t *testing.T) {
	model := agent.NewScript(agent.Reply("", echoCall("1")), agent.Reply("done"))
	loop, _ := newLoop(t, model, echo)
	var seen [][]string
	loop.UsePreStep(func(_ context.Context, st *agent.Step, next func() agent.StepDecision) agent.StepDecision {
		st.Inbox = append(st.Inbox, agent.PluginMessage("clock", agent.FormSnapshot, fmt.Sprintf("step %d", st.Number)))
		d := next()
		var line []string
		for _, m := range d.Messages() {
			if m.ID == "" || m.Time.IsZero() {
				t.Errorf("step %d: unstamped message %+v", st.Number, m)
			}
			line = append(line, string(m.Source.Kind)+":"+m.Text)
		}
		seen = append(seen, line)
		return d
	})
	if _, err := loop.NewAgent("s").Send(context.Background(), agent.User("go")); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"user:go", "plugin:step 1"}, {"tool:echo 1", "plugin:step 2"}}
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("pre-step saw %v, want %v", seen, want)
	}
}

func TestPreStepMustKeepTheToolResults(t *testing.T) {
	drop := func(_ context.Context, st *agent.Step, next func() agent.StepDecision) agent.StepDecision {
		var keep []agent.Message
		for _, m := range next().Messages() {
			if m.Source.Kind != agent.FromTool {
				keep = append(keep, m)
			}
		}
		return agent.Enter(keep...)
	}
	model := agent.NewScript(agent.Reply("", echoCall("1")), agent.Reply("done"))
	loop, _ := newLoop(t, model, echo)
	loop.UsePreStep(drop)
	_, err := loop.NewAgent("s").Send(context.Background(), agent.User("go"))
	if !errors.Is(err, agent.ErrMisuse) {
		t.Fatalf("Send: %v, want ErrMisuse", err)
	}
}

// The model is given exactly what the log holds at that moment, at every step, and nothing
// that is not in it.
func TestTheModelSeesExactlyWhatIsRecorded(t *testing.T) {
	model := agent.NewScript(
		agent.Reply("", echoCall("1"), echoCall("2")),
		agent.Reply("thinking", echoCall("3")),
		agent.Reply("done"),
	)
	loop, log := newLoop(t, model, echo)
	loop.Registry().UsePostExecute(func(_ context.Context, ex *agent.Execution, _ agent.Result, next func() agent.Decision) agent.Decision {
		return next().WithContexts(agent.Notice("p", "after "+ex.Call.Args, "note"))
	})
	loop.UsePreStep(func(_ context.Context, st *agent.Step, next func() agent.StepDecision) agent.StepDecision {
		return next().WithMessages(agent.PluginMessage("memory", agent.FormRecall, "remember"))
	})
	a := loop.NewAgent("s")
	if _, err := a.Send(context.Background(), agent.User("go")); err != nil {
		t.Fatal(err)
	}
	recs, err := agent.ReadLog(bytes.NewReader(log.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	logged := make([]agent.Message, len(recs))
	for i, r := range recs {
		logged[i] = r.Message
	}
	asJSON := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	modelCalls := 0
	for i, m := range logged {
		if m.Source.Kind != agent.FromModel {
			continue
		}
		// Before the model's k-th message, it was shown exactly the log up to there.
		if got, want := asJSON(model.Inputs()[modelCalls]), asJSON(logged[:i]); got != want {
			t.Errorf("model call %d was shown\n%s\nbut the log held\n%s", modelCalls+1, got, want)
		}
		modelCalls++
	}
	if modelCalls != 3 {
		t.Errorf("%d model messages in the log, want 3", modelCalls)
	}
	if asJSON(a.History()) != asJSON(logged) {
		t.Error("the agent's history and the log differ")
	}
	for _, r := range recs {
		if r.Session != "s" || r.Step < 1 || r.ID == "" {
			t.Errorf("incomplete record %+v", r)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestNothingIsShownThatTheLogCouldNotTake(t *testing.T) {
	model := agent.NewScript(agent.Reply("done"))
	loop, _ := newLoop(t, model)
	loop.Log = failingWriter{}
	a := loop.NewAgent("s")
	if _, err := a.Send(context.Background(), agent.User("go")); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Send: %v, want the log's error", err)
	}
	if len(model.Inputs()) != 0 || len(a.History()) != 0 {
		t.Error("a message the log refused was shown to the model")
	}
}

func TestSubagentsShareTheRegistry(t *testing.T) {
	var model *agent.Script
	delegate := agent.Tool{Name: "delegate", Run: func(ctx context.Context, ex *agent.Execution) (agent.Result, error) {
		sub := ex.Agent.Loop().NewAgent(ex.Agent.Session() + "/sub")
		defer sub.Dispose()
		reply, err := sub.Send(ctx, agent.PluginMessage(ex.Agent.Session(), agent.FormRelay, "look it up"))
		if err != nil {
			return agent.Result{}, err
		}
		return agent.Result{Content: reply.Text}, nil
	}}
	model = agent.NewScript(
		agent.Reply("", agent.ToolCall{Name: "delegate"}), // parent
		agent.Reply("", echoCall(`"x"`)),                  // subagent
		agent.Reply("found x"),                            // subagent
		agent.Reply("done"),                               // parent
	)
	loop, _ := newLoop(t, model, delegate, echo)
	var seen []string
	loop.Registry().UsePostExecute(func(_ context.Context, ex *agent.Execution, _ agent.Result, next func() agent.Decision) agent.Decision {
		seen = append(seen, ex.Agent.Session()+" "+ex.Call.Name)
		return next()
	})
	if _, err := loop.NewAgent("main").Send(context.Background(), agent.User("go")); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seen, []string{"main/sub echo", "main delegate"}) {
		t.Errorf("the registry's hooks saw %v", seen)
	}
	sameLines(t, describe(model.Last())[2:], []string{"tool: found x"})
}

func TestModelReplies(t *testing.T) {
	t.Run("missing call ids are given", func(t *testing.T) {
		model := agent.NewScript(agent.Reply("", echoCall("1"), echoCall("2")), agent.Reply("done"))
		loop, _ := newLoop(t, model, echo)
		a := loop.NewAgent("s")
		if _, err := a.Send(context.Background(), agent.User("go")); err != nil {
			t.Fatal(err)
		}
		h := a.History()
		if h[1].ToolCalls[0].ID != "call_1" || h[1].ToolCalls[1].ID != "call_2" || h[2].ToolCallID != "call_1" || h[3].ToolCallID != "call_2" {
			t.Errorf("ids not given or not matched: %+v", h[1:4])
		}
	})
	t.Run("a repeated call id is the model's error", func(t *testing.T) {
		c := agent.ToolCall{ID: "x", Name: "echo"}
		loop, _ := newLoop(t, agent.NewScript(agent.Reply("", c, c)), echo)
		if _, err := loop.NewAgent("s").Send(context.Background(), agent.User("go")); err == nil {
			t.Error("Send accepted two calls with one id")
		}
	})
	t.Run("a model error stops the run", func(t *testing.T) {
		loop, _ := newLoop(t, agent.NewScript())
		if _, err := loop.NewAgent("s").Send(context.Background(), agent.User("go")); !errors.Is(err, agent.ErrScriptEnded) {
			t.Errorf("Send: %v", err)
		}
	})
}

func TestSendTakesUserAndPluginMessagesOnly(t *testing.T) {
	loop, _ := newLoop(t, agent.NewScript(agent.Reply("done")))
	a := loop.NewAgent("s")
	if _, err := a.Send(context.Background(), agent.Reply("I am the model")); !errors.Is(err, agent.ErrInvalidMessage) {
		t.Errorf("Send(model message): %v", err)
	}
	if _, err := a.Send(context.Background()); !errors.Is(err, agent.ErrNothingToSend) {
		t.Errorf("Send(): %v", err)
	}
	if _, err := a.Send(context.Background(), agent.PluginMessage("sys", agent.FormInstructions, "be brief"), agent.User("hi")); err != nil {
		t.Errorf("Send(instructions, user): %v", err)
	}
}

func TestReadLogNamesTheBadLine(t *testing.T) {
	good := `{"session":"s","step":1,"role":"user","id":"m1","source":{"kind":"user"},"text":"hi"}`
	tests := map[string]string{
		good + "\n\n{not json\n": "line 3",
		good + "\n" + `{"session":"s","step":1,"role":"assistant","id":"m2","source":{"kind":"user"},"text":"x"}`: `line 2: role "assistant"`,
		`{"session":"s","step":1,"role":"user","source":{"kind":"plugin","plugin":"p","form":"notice"}}`:          "line 1: agent: invalid message",
	}
	for in, want := range tests {
		_, err := agent.ReadLog(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadLog: %v, want %q", err, want)
		}
	}
	recs, err := agent.ReadLog(strings.NewReader(good)) // no final newline
	if err != nil || len(recs) != 1 || recs[0].Text != "hi" {
		t.Errorf("ReadLog: %v %+v", err, recs)
	}
}

func TestMisuseInAHookStopsTheRunAndKeepsTheConversationWhole(t *testing.T) {
	model := agent.NewScript(agent.Reply("", echoCall("1"), echoCall("2")), agent.Reply("done"))
	loop, _ := newLoop(t, model, echo)
	loop.Registry().UsePostExecute(func(_ context.Context, ex *agent.Execution, _ agent.Result, next func() agent.Decision) agent.Decision {
		if ex.Call.Args == "1" {
			return next().WithContent("x").WithValue("y")
		}
		return next()
	})
	a := loop.NewAgent("s")
	if _, err := a.Send(context.Background(), agent.User("go")); !errors.Is(err, agent.ErrMisuse) {
		t.Fatalf("Send: %v, want ErrMisuse", err)
	}
	// Every call still has a result, so the conversation can go on once the hook is fixed.
	if _, err := a.Send(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := describe(model.Last())[3:]
	if len(got) != 2 || !strings.HasPrefix(got[0], "tool: Error: agent: misuse") || got[1] != "tool: echo 2" {
		t.Errorf("results after misuse: %q", got)
	}
}

func TestInvalidUTF8IsShownAsTheLogRecordsIt(t *testing.T) {
	model := agent.NewScript(agent.Reply("done"))
	loop, log := newLoop(t, model)
	if _, err := loop.NewAgent("s").Send(context.Background(), agent.User("bad \xff byte")); err != nil {
		t.Fatal(err)
	}
	recs, err := agent.ReadLog(bytes.NewReader(log.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if shown := model.Last()[0].Text; shown != recs[0].Text || shown != "bad \uFFFD byte" {
		t.Errorf("the model was shown %q, the log says %q", shown, recs[0].Text)
	}
}
