package loopguardplugin_test

import (
	"context"
	"fmt"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/agent"
	"github.com/loopguard/loopguard/agent/loopguardplugin"
)

// Adding loopguard to a loop takes one line, loop.Use(p). Here a scripted model runs the same
// failing test three times; the third result is followed by repeat-tool-reminder's notice.
func Example() {
	reg := agent.NewRegistry()
	reg.Register(agent.Tool{
		Name: "run_tests",
		Run: func(context.Context, *agent.Execution) (agent.Result, error) {
			return agent.Result{}, fmt.Errorf("FAIL TestParse")
		},
	})
	same := agent.ToolCall{Name: "run_tests", Args: `{"pkg":"./parser"}`}
	model := agent.NewScript(
		agent.Reply("", same), agent.Reply("", same), agent.Reply("", same),
		agent.Reply("Rerunning does not help; reading the test instead."),
	)
	loop := &agent.Loop{Model: model, Tools: reg}

	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	p, err := loopguardplugin.New(cfg)
	if err != nil {
		panic(err)
	}
	loop.Use(p)

	a := loop.NewAgent("example")
	defer a.Dispose()
	if _, err := a.Send(context.Background(), agent.User("Fix the parser tests.")); err != nil {
		panic(err)
	}
	for _, m := range a.History() {
		switch {
		case m.Source.Form == agent.FormNotice:
			fmt.Printf("NOTICE %s: %s\n", m.Source.Plugin, m.Source.Summary)
		case len(m.ToolCalls) > 0:
			fmt.Printf("%s → %s\n", m.Source.Kind, m.ToolCalls[0].Name)
		default:
			fmt.Printf("%s: %s\n", m.Source.Kind, m.Text)
		}
	}
	// Output:
	// user: Fix the parser tests.
	// model → run_tests
	// tool: Error: FAIL TestParse
	// model → run_tests
	// tool: Error: FAIL TestParse
	// model → run_tests
	// tool: Error: FAIL TestParse
	// NOTICE progress: run_tests × 3
	// model: Rerunning does not help; reading the test instead.
}
