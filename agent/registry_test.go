package agent_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/loopguard/loopguard/agent"
)

func TestDecisionApply(t *testing.T) {
	ok := agent.Result{Content: "raw", Value: 7}
	failed := agent.Result{Content: "Error: boom", IsError: true}
	tests := []struct {
		name     string
		d        agent.Decision
		in       agent.Result
		wantText string
		wantErr  bool // an error result
		misuse   bool
	}{
		{"the zero decision accepts unchanged", agent.Decision{}, ok, "raw", false, false},
		{"accept with contexts keeps the result", agent.Accept(agent.User("x")), ok, "raw", false, false},
		{"a content replacement is what the model reads", agent.Accept().WithContent("short"), ok, "short", false, false},
		{"a value replacement is rendered for the model", agent.Accept().WithValue(map[string]int{"n": 1}), ok, `{"n":1}`, false, false},
		{"a block turns the result into an error with the feedback", agent.Block("not now"), ok, "not now", true, false},
		{"a failed result's content may be replaced", agent.Accept().WithContent("Error: shorter"), failed, "Error: shorter", true, false},
		{"replacing both content and value is misuse", agent.Accept().WithContent("a").WithValue(1), ok, "", false, true},
		{"replacing the value of a failed result is misuse", agent.Accept().WithValue(1), failed, "", false, true},
		{"a block that also replaces is misuse", agent.Block("no").WithContent("x"), ok, "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.d.Apply(tt.in)
			if tt.misuse {
				if !errors.Is(err, agent.ErrMisuse) {
					t.Fatalf("Apply: %v, want ErrMisuse", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Text() != tt.wantText || got.IsError != tt.wantErr {
				t.Errorf("got %q (error %v), want %q (error %v)", got.Text(), got.IsError, tt.wantText, tt.wantErr)
			}
		})
	}
}

func TestDecisionsAreValues(t *testing.T) {
	base := agent.Accept(agent.User("a"))
	_ = base.WithContexts(agent.User("b"))
	_ = base.PrependContexts(agent.User("c"))
	if n := len(base.Contexts()); n != 1 {
		t.Errorf("amending a decision changed the original: %d contexts", n)
	}
	got := base.WithContexts(agent.User("b")).PrependContexts(agent.User("c")).Contexts()
	var texts []string
	for _, m := range got {
		texts = append(texts, m.Text)
	}
	if strings.Join(texts, ",") != "c,a,b" {
		t.Errorf("contexts in order %v, want c,a,b", texts)
	}
}

// pipeline builds a registry that writes what runs into trace.
func pipeline(t *testing.T, trace *[]string) *agent.Registry {
	t.Helper()
	reg := agent.NewRegistry()
	err := reg.Register(agent.Tool{Name: "work", Run: func(_ context.Context, ex *agent.Execution) (agent.Result, error) {
		*trace = append(*trace, "tool")
		if ex.Call.Args == `"fail"` {
			return agent.Result{}, errors.New("it broke")
		}
		return agent.Result{Content: "done"}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	reg.UsePostExecute(func(_ context.Context, _ *agent.Execution, res agent.Result, next func() agent.Decision) agent.Decision {
		*trace = append(*trace, "post:"+res.Text())
		return next()
	})
	return reg
}

func TestExecutePipeline(t *testing.T) {
	allowAll := func(context.Context, *agent.Execution) agent.Permission { return agent.Allow() }
	denyAll := func(context.Context, *agent.Execution) agent.Permission { return agent.Deny("not today") }
	askAll := func(context.Context, *agent.Execution) agent.Permission { return agent.Ask("may I?") }
	refuse := func(context.Context, *agent.Execution) (string, bool) { return "guard says no", true }
	pass := func(context.Context, *agent.Execution) (string, bool) { return "", false }
	yes := agent.AskerFunc(func(context.Context, *agent.Execution, string) error { return nil })
	no := agent.AskerFunc(func(_ context.Context, _ *agent.Execution, q string) error {
		return errors.New("the user said no to: " + q)
	})

	tests := []struct {
		name  string
		tool  string
		args  string
		pre   []agent.PreExecuteHook
		guard []agent.Guard
		asker agent.Asker
		want  []string
		text  string
	}{
		{"allowed calls run, then post-execute", "work", "{}", []agent.PreExecuteHook{allowAll}, []agent.Guard{pass}, nil,
			[]string{"tool", "post:done"}, "done"},
		{"a denied call skips guard and tool but reaches post-execute", "work", "{}", []agent.PreExecuteHook{allowAll, denyAll}, []agent.Guard{refuse}, nil,
			[]string{"post:Error: not today"}, "Error: not today"},
		{"a guard refusal skips the tool but reaches post-execute", "work", "{}", nil, []agent.Guard{pass, refuse}, nil,
			[]string{"post:Error: guard says no"}, "Error: guard says no"},
		{"ask with no one to ask is a denial", "work", "{}", []agent.PreExecuteHook{askAll}, nil, nil,
			[]string{"post:Error: approval required and no one to ask: may I?"}, "Error: approval required and no one to ask: may I?"},
		{"ask approved runs the call", "work", "{}", []agent.PreExecuteHook{askAll}, nil, yes,
			[]string{"tool", "post:done"}, "done"},
		{"ask refused is a denial with the asker's reason", "work", "{}", []agent.PreExecuteHook{askAll}, nil, no,
			[]string{"post:Error: the user said no to: may I?"}, "Error: the user said no to: may I?"},
		{"a tool error is an error result", "work", `"fail"`, nil, nil, nil,
			[]string{"tool", "post:Error: it broke"}, "Error: it broke"},
		{"an unknown tool is an error result", "nope", "{}", nil, nil, nil,
			[]string{"post:Error: unknown tool nope"}, "Error: unknown tool nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var trace []string
			reg := pipeline(t, &trace)
			reg.UsePreExecute(tt.pre...)
			reg.UseGuard(tt.guard...)
			if tt.asker != nil {
				reg.SetAsker(tt.asker)
			}
			out, err := reg.Execute(context.Background(), &agent.Execution{Call: agent.ToolCall{Name: tt.tool, Args: tt.args}})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(trace, tt.want) {
				t.Errorf("ran %q, want %q", trace, tt.want)
			}
			if out.Result.Text() != tt.text || out.Result.IsError != strings.HasPrefix(tt.text, "Error: ") {
				t.Errorf("result %+v, want %q", out.Result, tt.text)
			}
		})
	}
}

func TestExecuteInACancelledContextDoesNotRunTheTool(t *testing.T) {
	var trace []string
	reg := pipeline(t, &trace)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := reg.Execute(ctx, &agent.Execution{Call: agent.ToolCall{Name: "work"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(trace, []string{"post:Error: context canceled"}) || !out.Result.IsError {
		t.Errorf("ran %q, result %+v", trace, out.Result)
	}
}

func TestExecuteMisuseIsAnError(t *testing.T) {
	hooks := map[string]agent.PostExecuteHook{
		"content and value": func(context.Context, *agent.Execution, agent.Result, func() agent.Decision) agent.Decision {
			return agent.Accept().WithContent("x").WithValue(1)
		},
		"value of a failed result": func(_ context.Context, _ *agent.Execution, _ agent.Result, next func() agent.Decision) agent.Decision {
			return next().WithValue(1)
		},
		"a context from the model": func(context.Context, *agent.Execution, agent.Result, func() agent.Decision) agent.Decision {
			return agent.Accept(agent.Reply("I am the model"))
		},
		"an invalid context": func(context.Context, *agent.Execution, agent.Result, func() agent.Decision) agent.Decision {
			return agent.Accept(agent.PluginMessage("p", agent.FormNotice, "no summary"))
		},
	}
	for name, h := range hooks {
		t.Run(name, func(t *testing.T) {
			reg := agent.NewRegistry()
			reg.UsePostExecute(h)
			args := "{}"
			if name == "value of a failed result" {
				args = "" // the tool is unknown: a failed result
			}
			_, err := reg.Execute(context.Background(), &agent.Execution{Call: agent.ToolCall{Name: "missing", Args: args}})
			if !errors.Is(err, agent.ErrMisuse) {
				t.Errorf("Execute: %v, want ErrMisuse", err)
			}
		})
	}
}

func TestRegisterRejects(t *testing.T) {
	run := func(context.Context, *agent.Execution) (agent.Result, error) { return agent.Result{}, nil }
	reg := agent.NewRegistry()
	if err := reg.Register(agent.Tool{Name: "a", Run: run}); err != nil {
		t.Fatal(err)
	}
	for name, tools := range map[string][]agent.Tool{
		"a taken name":        {{Name: "a", Run: run}},
		"a name twice":        {{Name: "b", Run: run}, {Name: "b", Run: run}},
		"no name":             {{Run: run}},
		"no Run":              {{Name: "c"}},
		"one bad of two":      {{Name: "d", Run: run}, {Name: "", Run: run}},
		"taken among two new": {{Name: "e", Run: run}, {Name: "a", Run: run}},
	} {
		if err := reg.Register(tools...); err == nil {
			t.Errorf("%s: Register accepted it", name)
		}
	}
	var names []string
	for _, s := range reg.Specs() {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"a"}) {
		t.Errorf("a failed Register added tools: %v", names)
	}
}
