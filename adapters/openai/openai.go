// Package loopguardopenai guards hand-written tool loops over the OpenAI Go SDK
// (github.com/openai/openai-go/v3), for Chat Completions and for Responses.
//
// A Guard stands for one agent: one conversation whose history the loop sends back to the
// model. Give it each model answer and the function that runs a tool; it feeds every tool call
// and result (and the model's own text) to the loopguard engine, refuses confirmed repeats in
// deny mode without running the tool, and returns the items to append to the conversation:
// the tool results, then one message with the notices, if any.
//
// The SDK has no agent loop of its own, so the agent identity is yours to choose: the Guard's
// Agent string (a conversation or session id). Guards for different agents may share one
// Engine and run at once.
package loopguardopenai

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// ToolFunc runs one tool call: name and the raw JSON arguments the model sent. A returned
// error is shown to the model as the call's (failed) result.
type ToolFunc func(ctx context.Context, name, args string) (string, error)

// Guard guards one agent's tool loop. Its methods may be called from several goroutines; the
// events of one call (check, run, observe) reach the engine together, in order.
type Guard struct {
	eng   *loopguard.Engine
	agent string
	mu    sync.Mutex
	now   func() time.Time
}

// New returns a guard for agent on eng. An empty agent is never counted or refused.
func New(eng *loopguard.Engine, agent string) *Guard {
	return &Guard{eng: eng, agent: agent, now: time.Now}
}

// Agent returns the agent identity the guard feeds the engine.
func (g *Guard) Agent() string { return g.agent }

// User tells the engine the user spoke: every counter of the agent starts again.
func (g *Guard) User() {
	g.eng.Observe(loopguard.Event{Type: loopguard.EventUser, Agent: g.agent, Time: g.now().UnixMilli()})
}

// End tells the engine the agent is gone and frees its state.
func (g *Guard) End() { g.eng.Forget(g.agent) }

// Call puts one tool call through the guard: in deny mode a refused call is not run and its
// result is "Error: <reason>"; otherwise run runs it. The result the model should read is
// returned with the notices due after it. A cancelled ctx stops before the tool runs.
func (g *Guard) Call(ctx context.Context, name, args string, run ToolFunc) (result string, notices []loopguard.Notice, err error) {
	return g.call(ctx, "", name, args, run)
}

// call is Call for a call of the model answer turn (loopguard.Event.Turn): the calls of one
// answer were made together, before the model saw any of their results.
func (g *Guard) call(ctx context.Context, turn, name, args string, run ToolFunc) (result string, notices []loopguard.Notice, err error) {
	if err := ctx.Err(); err != nil {
		return "", nil, err
	}
	ev := loopguard.Call(g.agent, name, []byte(args))
	ev.Turn = turn
	g.mu.Lock()
	if d, refused := g.eng.Check(ev); refused {
		ev.Time = g.now().UnixMilli()
		out := g.eng.Step(ev) // observes the refusal as a failed call, as the replay format does
		g.mu.Unlock()
		return "Error: " + d.Reason, out.Notices, nil
	}
	g.mu.Unlock()
	text, runErr := run(ctx, name, args)
	failed := runErr != nil
	if failed {
		text = "Error: " + runErr.Error()
	}
	ev = ev.WithResult(text, failed)
	ev.Time = g.now().UnixMilli()
	g.mu.Lock()
	notices = g.eng.Observe(ev)
	g.mu.Unlock()
	return text, notices, nil
}

// ModelText feeds text the model wrote (source "model"): a model that repeats its own words
// is looping too.
func (g *Guard) ModelText(id, text string) []loopguard.Notice {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return g.eng.Observe(loopguard.Event{Type: loopguard.EventText, Agent: g.agent, ID: id, Source: "model", Text: text, Time: g.now().UnixMilli()})
}

// NoticeText is what the model reads for notices: each notice's text, tagged with its plugin.
func NoticeText(notices []loopguard.Notice) string {
	var b strings.Builder
	for i, n := range notices {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(tagged(n))
	}
	return b.String()
}

// ChatTools runs the tool calls of one Chat Completions answer through the guard, in the
// model's order, and returns the messages to append after msg: one tool message per call, then
// (when any notice is due) one user message with the notices. Nothing may sit between an
// assistant's tool calls and their tool messages, so the notices come last.
func (g *Guard) ChatTools(ctx context.Context, msg openai.ChatCompletionMessage, run ToolFunc) ([]openai.ChatCompletionMessageParamUnion, error) {
	notices := g.ModelText("", msg.Content)
	var out []openai.ChatCompletionMessageParamUnion
	turn := "" // the answer has no id of its own: its first call's names it
	if len(msg.ToolCalls) > 0 {
		turn = msg.ToolCalls[0].ID
	}
	for _, call := range msg.ToolCalls {
		name, args := call.Function.Name, call.Function.Arguments
		if call.Type == "custom" {
			name, args = call.Custom.Name, call.Custom.Input
		}
		result, ns, err := g.call(ctx, turn, name, args, run)
		if err != nil {
			return out, err
		}
		out = append(out, openai.ToolMessage(result, call.ID))
		notices = append(notices, ns...)
	}
	if len(notices) > 0 {
		out = append(out, openai.UserMessage(NoticeText(notices)))
	}
	return out, nil
}

// ResponsesTools runs the function calls of one Responses answer through the guard, in the
// model's order, and returns the input items to send next: one function_call_output per call,
// then (when any notice is due) one developer message with the notices. When the loop resends
// the whole history rather than previous_response_id, append resp's output items first.
func (g *Guard) ResponsesTools(ctx context.Context, resp *responses.Response, run ToolFunc) ([]responses.ResponseInputItemUnionParam, error) {
	var notices []loopguard.Notice
	var out []responses.ResponseInputItemUnionParam
	for _, item := range resp.Output {
		switch item.Type {
		case "message":
			var text strings.Builder
			for _, c := range item.Content {
				text.WriteString(c.Text)
			}
			notices = append(notices, g.ModelText(item.ID, text.String())...)
		case "function_call":
			result, ns, err := g.call(ctx, resp.ID, item.Name, item.Arguments.OfString, run)
			if err != nil {
				return out, err
			}
			o := responses.ResponseInputItemParamOfFunctionCallOutput(result)
			o.OfFunctionCallOutput.CallID = openai.String(item.CallID)
			out = append(out, o)
			notices = append(notices, ns...)
		}
	}
	if len(notices) > 0 {
		out = append(out, responses.ResponseInputItemParamOfMessage(NoticeText(notices), responses.EasyInputMessageRoleDeveloper))
	}
	return out, nil
}

// tagged is a notice's text tagged with its plugin, unless the text already starts with the tag.
func tagged(n loopguard.Notice) string {
	if tag := "[" + n.Plugin + "]"; !strings.HasPrefix(n.Text, tag) && !strings.HasPrefix(n.Text, "[loopguard]") {
		return tag + " " + n.Text
	}
	return n.Text
}
