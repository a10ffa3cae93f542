// Package loopguardgenkit guards agents built on Genkit for Go (github.com/firebase/genkit/go):
// a model middleware sees the conversation's tool requests and responses before each model
// call, feeds every call with its result (and the model's own text) to loopguard, and adds the
// notices due as a user message; Tool wraps a tool function so that, in deny mode, a confirmed
// repeat interrupts the generation instead of running.
//
// One Guard stands for one agent: one conversation, whose history Genkit sends on every model
// call. Genkit has no agent or session id that reaches a middleware, so the agent identity is
// the string given to New. Guards for different agents may share one Engine and run at once.
package loopguardgenkit

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/firebase/genkit/go/ai"
	"github.com/loopguard/loopguard"
)

// Guard guards one agent.
type Guard struct {
	eng   *loopguard.Engine
	agent string

	mu      sync.Mutex
	fed     int      // messages of the history already fed to the engine
	inserts []insert // notices given so far, put back at the same place on every call
}

// insert is a notice message shown after the first at messages of the history.
type insert struct {
	at  int
	msg *ai.Message
}

// New returns a guard for agent on eng. An empty agent is never counted or refused.
func New(eng *loopguard.Engine, agent string) *Guard { return &Guard{eng: eng, agent: agent} }

// Agent returns the agent identity the guard feeds the engine.
func (g *Guard) Agent() string { return g.agent }

// End tells the engine the agent is gone and frees its state.
func (g *Guard) End() {
	g.mu.Lock()
	g.fed, g.inserts = 0, nil
	g.mu.Unlock()
	g.eng.Forget(g.agent)
}

// Middleware returns the model middleware to pass with ai.WithMiddleware.
//
// Notices are put back at the place they were first given on every later call of the same
// conversation, so the history the model reads only ever grows (and prompt caches hold). A
// history shorter than the one seen before is a new conversation: the guard starts afresh.
func (g *Guard) Middleware() ai.ModelMiddleware {
	return func(next ai.ModelFunc) ai.ModelFunc {
		return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			if req == nil {
				return next(ctx, req, cb)
			}
			out := *req // the caller's request is left as it was
			out.Messages = g.prepare(req.Messages)
			return next(ctx, &out, cb)
		}
	}
}

// prepare feeds the messages not yet seen and returns the history with every notice in place.
func (g *Guard) prepare(msgs []*ai.Message) []*ai.Message {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(msgs) < g.fed {
		g.eng.Observe(loopguard.Event{Type: loopguard.EventUser, Agent: g.agent, Time: now()})
		g.fed, g.inserts = 0, nil
	}
	var notices []loopguard.Notice
	for i := g.fed; i < len(msgs); i++ {
		notices = append(notices, g.feed(msgs, i)...)
	}
	g.fed = len(msgs)
	if len(notices) > 0 {
		g.inserts = append(g.inserts, insert{len(msgs), ai.NewUserTextMessage(Text(notices))})
	}
	if len(g.inserts) == 0 {
		return msgs
	}
	out := make([]*ai.Message, 0, len(msgs)+len(g.inserts))
	k := 0
	for i := 0; i <= len(msgs); i++ {
		for ; k < len(g.inserts) && g.inserts[k].at == i; k++ {
			out = append(out, g.inserts[k].msg)
		}
		if i < len(msgs) {
			out = append(out, msgs[i])
		}
	}
	return out
}

// feed gives the engine message i: the model's text, or the tool responses with their calls.
// A user message in the middle of the history (not the first) resets the counters.
func (g *Guard) feed(msgs []*ai.Message, i int) []loopguard.Notice {
	m := msgs[i]
	if m == nil {
		return nil
	}
	var notices []loopguard.Notice
	switch m.Role {
	case ai.RoleUser:
		if i > 0 {
			g.eng.Observe(loopguard.Event{Type: loopguard.EventUser, Agent: g.agent, Time: now()})
		}
	case ai.RoleModel:
		var text strings.Builder
		for _, p := range m.Content {
			if p != nil && p.IsText() {
				text.WriteString(p.Text)
			}
		}
		if strings.TrimSpace(text.String()) != "" {
			notices = g.eng.Observe(loopguard.Event{Type: loopguard.EventText, Agent: g.agent, Source: "model", Text: text.String(), Time: now()})
		}
	case ai.RoleTool:
		for _, p := range m.Content {
			if p == nil || !p.IsToolResponse() || p.ToolResponse == nil {
				continue
			}
			r := p.ToolResponse
			args := []byte("{}")
			req, from := findRequest(msgs[:i], r.Name, r.Ref)
			if req != nil {
				args, _ = json.Marshal(req.Input)
			}
			ev := loopguard.Call(g.agent, r.Name, args).WithResult(outputText(r.Output), false)
			ev.Time = now()
			if req != nil {
				ev.Turn = "model message " + strconv.Itoa(from) // the requests of one message are one reply
			}
			notices = append(notices, g.eng.Observe(ev)...)
		}
	}
	return notices
}

// findRequest finds the tool request a response answers, in the newest model message before it.
// It returns the message's index too.
func findRequest(msgs []*ai.Message, name, ref string) (*ai.ToolRequest, int) {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i] == nil || msgs[i].Role != ai.RoleModel {
			continue
		}
		for _, p := range msgs[i].Content {
			if p != nil && p.IsToolRequest() && p.ToolRequest != nil && p.ToolRequest.Name == name && p.ToolRequest.Ref == ref {
				return p.ToolRequest, i
			}
		}
		return nil, i
	}
	return nil, -1
}

func outputText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// Tool wraps the function of the tool name for deny mode: a call the guard refuses is not run;
// it interrupts the generation the Genkit way (ai.ToolContext.Interrupt), with the reason in
// the interrupt's metadata under "loopguard". Generate then returns with finish reason
// "interrupted"; answer the interrupt with the reason (ai.WithToolResponses) to let the model
// read it, or stop. Outside deny mode the function runs as it is.
func Tool[In, Out any](g *Guard, name string, fn ai.ToolFunc[In, Out]) ai.ToolFunc[In, Out] {
	return func(tc *ai.ToolContext, input In) (Out, error) {
		var zero Out
		if err := tc.Err(); err != nil {
			return zero, err
		}
		args, err := json.Marshal(input)
		if err == nil {
			if d, refused := g.eng.Check(loopguard.Call(g.agent, name, args)); refused {
				return zero, tc.Interrupt(&ai.InterruptOptions{Metadata: map[string]any{"loopguard": "Error: " + d.Reason}})
			}
		}
		return fn(tc, input)
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
