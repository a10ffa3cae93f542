package agent_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/loopguard/loopguard/agent"
)

// A post-execute hook that keeps long outputs out of the model's context: it replaces the
// content the model reads and adds a notice, on top of whatever the hooks after it decided.
func ExampleRegistry_UsePostExecute() {
	reg := agent.NewRegistry()
	reg.Register(agent.Tool{
		Name: "cat",
		Run: func(context.Context, *agent.Execution) (agent.Result, error) {
			return agent.Result{Content: strings.Repeat("line\n", 1000)}, nil
		},
	})
	const limit = 20
	reg.UsePostExecute(func(ctx context.Context, ex *agent.Execution, res agent.Result, next func() agent.Decision) agent.Decision {
		d := next()
		if _, blocked := d.Blocked(); blocked || res.IsError || len(res.Text()) <= limit {
			return d
		}
		return d.WithContent(res.Text()[:limit]).WithContexts(agent.Notice("trim",
			fmt.Sprintf("%s output cut to %d bytes", ex.Call.Name, limit),
			"The output was cut. Read a smaller part of the file."))
	})

	out, err := reg.Execute(context.Background(), &agent.Execution{Call: agent.ToolCall{Name: "cat", Args: `{"path":"big.txt"}`}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", out.Result.Text())
	for _, m := range out.Contexts {
		fmt.Println(m.Source, "-", m.Text)
	}
	// Output:
	// "line\nline\nline\nline\n"
	// plugin trim notice (cat output cut to 20 bytes) - The output was cut. Read a smaller part of the file.
}

// A whole loop with a scripted model: the model calls a tool, reads the result and answers.
func ExampleLoop() {
	reg := agent.NewRegistry()
	reg.Register(agent.Tool{
		Name:        "add",
		Description: "adds two numbers",
		Run: func(_ context.Context, ex *agent.Execution) (agent.Result, error) {
			var in struct{ A, B int }
			if err := ex.Call.Decode(&in); err != nil {
				return agent.Result{}, err
			}
			return agent.Result{Value: in.A + in.B}, nil
		},
	})
	model := agent.NewScript(
		agent.Reply("", agent.ToolCall{Name: "add", Args: `{"A":2,"B":3}`}),
		agent.Reply("2 + 3 = 5"),
	)
	loop := &agent.Loop{Model: model, Tools: reg}
	a := loop.NewAgent("example")
	defer a.Dispose()

	reply, err := a.Send(context.Background(), agent.User("What is 2 + 3?"))
	if err != nil {
		panic(err)
	}
	for _, m := range a.History() {
		fmt.Printf("%-9s %s%s\n", m.Role(), m.Text, calls(m))
	}
	fmt.Println("reply:", reply.Text)
	// Output:
	// user      What is 2 + 3?
	// assistant → add {"A":2,"B":3}
	// tool      5
	// assistant 2 + 3 = 5
	// reply: 2 + 3 = 5
}

func calls(m agent.Message) string {
	var b strings.Builder
	for _, c := range m.ToolCalls {
		fmt.Fprintf(&b, "→ %s %s", c.Name, c.Args)
	}
	return b.String()
}
