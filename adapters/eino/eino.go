// Package loopguardeino guards agents built on eino (github.com/cloudwego/eino): a tool
// middleware for compose.ToolsNodeConfig observes every tool call (eino runs a turn's calls in
// parallel by default), refuses confirmed repeats in deny mode without calling the tool, and
// adds notices to what the model sees; a ReAct message modifier carries the notices as separate
// messages instead, for users who prefer not to touch tool output.
//
// One Guard stands for one agent: one ReAct agent run, or one conversation whose history goes
// back to the model. eino passes no agent or session id to tools, so the agent identity is the
// string given to New. Guards for different agents may share one Engine and run at once.
package loopguardeino

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"
	"github.com/loopguard/loopguard"
)

// Delivery says where notices reach the model.
type Delivery int

const (
	// InToolResults appends notices to the result of the call that caused them.
	InToolResults Delivery = iota
	// AsMessages holds them for MessageModifier, which adds them as one user message before
	// the next model call; tool results are left as the tools wrote them.
	AsMessages
)

// Guard guards one agent.
type Guard struct {
	eng      *loopguard.Engine
	agent    string
	delivery Delivery

	mu      sync.Mutex // keeps one call's check and observation together; guards the fields below
	pending []loopguard.Notice
	seen    int // messages of the history already fed as model text
}

// New returns a guard for agent on eng that delivers notices as d says. An empty agent is
// never counted or refused.
func New(eng *loopguard.Engine, agent string, d Delivery) *Guard {
	return &Guard{eng: eng, agent: agent, delivery: d}
}

// Agent returns the agent identity the guard feeds the engine.
func (g *Guard) Agent() string { return g.agent }

// User tells the engine the user spoke: every counter of the agent starts again. Call it
// before a new run of the same conversation.
func (g *Guard) User() {
	g.eng.Observe(loopguard.Event{Type: loopguard.EventUser, Agent: g.agent, Time: now()})
}

// End tells the engine the agent is gone and frees its state.
func (g *Guard) End() { g.eng.Forget(g.agent) }

// ToolMiddleware returns the middleware to add to compose.ToolsNodeConfig.ToolCallMiddlewares.
// It wraps invokable tools (streaming tools pass through unguarded).
func (g *Guard) ToolMiddleware() compose.ToolMiddleware {
	return compose.ToolMiddleware{Invokable: func(next compose.InvokableToolEndpoint) compose.InvokableToolEndpoint {
		return func(ctx context.Context, in *compose.ToolInput) (*compose.ToolOutput, error) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			ev := loopguard.Call(g.agent, in.Name, []byte(in.Arguments))
			g.mu.Lock()
			if d, refused := g.eng.Check(ev); refused {
				ev.Time = now()
				out := g.eng.Step(ev) // observed as a failed call, as the replay format defines
				text := g.deliver("Error: "+d.Reason, out.Notices)
				g.mu.Unlock()
				return &compose.ToolOutput{Result: text}, nil
			}
			g.mu.Unlock()
			out, err := next(ctx, in)
			if err != nil {
				// The tool node ends the run on an error; count the failure all the same.
				ev = ev.WithResult("Error: "+err.Error(), true)
				ev.Time = now()
				g.mu.Lock()
				g.eng.Observe(ev)
				g.mu.Unlock()
				return out, err
			}
			ev = ev.WithResult(out.Result, false)
			ev.Time = now()
			g.mu.Lock()
			text := g.deliver(out.Result, g.eng.Observe(ev))
			g.mu.Unlock()
			return &compose.ToolOutput{Result: text}, nil
		}
	}}
}

// deliver appends notices to result, or holds them for MessageModifier. Call with g.mu held.
func (g *Guard) deliver(result string, notices []loopguard.Notice) string {
	if len(notices) == 0 {
		return result
	}
	if g.delivery == AsMessages {
		g.pending = append(g.pending, notices...)
		return result
	}
	return result + "\n\n" + Text(notices)
}

// MessageModifier returns a react.MessageModifier that feeds the model's new text to the engine
// (source "model") and adds the notices due as one user message at the end of the history.
// Set it as react.AgentConfig.MessageRewriter, so that the notice stays in the history where
// the model first read it; as MessageModifier it is shown to the next model call only.
// Notices of model text are delivered this way whatever the Delivery.
func (g *Guard) MessageModifier() react.MessageModifier {
	return func(ctx context.Context, input []*schema.Message) []*schema.Message {
		g.mu.Lock()
		from := g.seen
		if from > len(input) {
			from = 0 // a new, shorter history: a new run
		}
		g.seen = len(input)
		g.mu.Unlock()
		for _, m := range input[from:] {
			if m != nil && m.Role == schema.Assistant && strings.TrimSpace(m.Content) != "" {
				ns := g.eng.Observe(loopguard.Event{Type: loopguard.EventText, Agent: g.agent, Source: "model", Text: m.Content, Time: now()})
				g.mu.Lock()
				g.pending = append(g.pending, ns...)
				g.mu.Unlock()
			}
		}
		g.mu.Lock()
		notices := g.pending
		g.pending = nil
		g.mu.Unlock()
		if len(notices) == 0 {
			return input
		}
		out := append(input[:len(input):len(input)], schema.UserMessage(Text(notices)))
		g.mu.Lock()
		g.seen = len(out)
		g.mu.Unlock()
		return out
	}
}

// Text is what the model reads for notices: each notice's text, tagged with its plugin.
func Text(notices []loopguard.Notice) string {
	parts := make([]string, len(notices))
	for i, n := range notices {
		parts[i] = n.Text
		if tag := "[" + n.Plugin + "]"; !strings.HasPrefix(n.Text, tag) && !strings.HasPrefix(n.Text, "[loopguard]") {
			parts[i] = tag + " " + n.Text
		}
	}
	return strings.Join(parts, "\n\n")
}

func now() int64 { return time.Now().UnixMilli() }
