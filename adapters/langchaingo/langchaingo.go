// Package loopguardlangchaingo guards agents built on langchaingo (github.com/tmc/langchaingo):
// Tools wraps an agent's tools.Tool values so that every call goes through loopguard, notices
// are added to the tool's result (the observation the model reads next), and in deny mode a
// confirmed repeat is refused without calling the tool.
//
// One Guard stands for one agent: one executor run, or one conversation whose memory goes back
// to the model. langchaingo has no agent or session id that reaches a tool, so the agent
// identity is the string given to New. Guards for different agents may share one Engine and
// run at once.
package loopguardlangchaingo

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/tmc/langchaingo/callbacks"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"
)

// Guard guards one agent.
type Guard struct {
	eng   *loopguard.Engine
	agent string

	mu      sync.Mutex // keeps one call's check and observation together; guards pending
	pending []loopguard.Notice
}

// New returns a guard for agent on eng. An empty agent is never counted or refused.
func New(eng *loopguard.Engine, agent string) *Guard { return &Guard{eng: eng, agent: agent} }

// Agent returns the agent identity the guard feeds the engine.
func (g *Guard) Agent() string { return g.agent }

// User tells the engine the user spoke: every counter of the agent starts again.
func (g *Guard) User() {
	g.eng.Observe(loopguard.Event{Type: loopguard.EventUser, Agent: g.agent, Time: now()})
}

// End tells the engine the agent is gone and frees its state.
func (g *Guard) End() { g.eng.Forget(g.agent) }

// Tools wraps tools so that each call goes through the guard.
func (g *Guard) Tools(ts ...tools.Tool) []tools.Tool {
	out := make([]tools.Tool, len(ts))
	for i, t := range ts {
		out[i] = guardedTool{t, g}
	}
	return out
}

type guardedTool struct {
	tools.Tool
	g *Guard
}

// Call runs the tool unless deny mode refuses it. A refusal is returned as the observation,
// not as an error: langchaingo's executor stops the whole run on a tool error, and the point
// is that the model reads why and changes course.
func (t guardedTool) Call(ctx context.Context, input string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	g := t.g
	ev := loopguard.Call(g.agent, t.Name(), []byte(input))
	g.mu.Lock()
	if d, refused := g.eng.Check(ev); refused {
		ev.Time = now()
		out := g.eng.Step(ev) // observed as a failed call, as the replay format defines
		notices := g.take(out.Notices)
		g.mu.Unlock()
		return withNotices("Error: "+d.Reason, notices), nil
	}
	g.mu.Unlock()
	result, err := t.Tool.Call(ctx, input)
	text := result
	if err != nil {
		text = "Error: " + err.Error()
	}
	ev = ev.WithResult(text, err != nil)
	ev.Time = now()
	g.mu.Lock()
	notices := g.take(g.eng.Observe(ev))
	g.mu.Unlock()
	if err != nil {
		return result, err // the executor ends the run; nothing more to tell the model
	}
	return withNotices(result, notices), nil
}

// take returns the notices waiting from model text, then these. Call with g.mu held.
func (g *Guard) take(ns []loopguard.Notice) []loopguard.Notice {
	all := append(g.pending, ns...)
	g.pending = nil
	return all
}

// ModelText feeds text the model wrote (source "model"). Its notices wait for the next tool
// result, the only place a tool wrapper can speak to the model.
func (g *Guard) ModelText(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	ns := g.eng.Observe(loopguard.Event{Type: loopguard.EventText, Agent: g.agent, Source: "model", Text: text, Time: now()})
	if len(ns) > 0 {
		g.mu.Lock()
		g.pending = append(g.pending, ns...)
		g.mu.Unlock()
	}
}

// Callbacks returns a callbacks.Handler that feeds the model's answers to the guard as model
// text; pass it with agents.WithCallbacksHandler (or chain it with yours).
func (g *Guard) Callbacks() callbacks.Handler { return modelText{g: g} }

type modelText struct {
	callbacks.SimpleHandler
	g *Guard
}

func (h modelText) HandleLLMGenerateContentEnd(_ context.Context, res *llms.ContentResponse) {
	if res == nil {
		return
	}
	for _, c := range res.Choices {
		if c != nil {
			h.g.ModelText(c.Content)
		}
	}
}

// withNotices appends the notices to a tool's result, each tagged with its plugin.
func withNotices(result string, notices []loopguard.Notice) string {
	var b strings.Builder
	b.WriteString(result)
	for _, n := range notices {
		b.WriteString("\n\n")
		if tag := "[" + n.Plugin + "]"; !strings.HasPrefix(n.Text, tag) && !strings.HasPrefix(n.Text, "[loopguard]") {
			b.WriteString(tag + " ")
		}
		b.WriteString(n.Text)
	}
	return b.String()
}

func now() int64 { return time.Now().UnixMilli() }
