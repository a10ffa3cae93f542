// Package loopguardanthropic guards agents built on the Anthropic Go SDK
// (github.com/anthropics/anthropic-sdk-go/v2): the beta tool runner, through Tools, which
// wraps its tools; and hand-written loops over the Messages API, through Guard.ToolResults.
//
// One Guard stands for one agent: one conversation, whose history goes back to the model on
// every turn (one tool runner, or one hand-written loop). The SDK has no session id of its
// own, so the agent identity is the string given to New. Guards for different agents may
// share one Engine and run at once; the tool runner's parallel tool calls are safe.
//
// Notices reach the model inside the user turn that carries the tool results, as a text block
// after the results (Messages) or after the result's own blocks (tool runner): the only place
// both loops let a guard speak without a message of its own, and never inside the assistant's
// turn.
package loopguardanthropic

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/loopguard/loopguard"
)

// Guard guards one agent.
type Guard struct {
	eng   *loopguard.Engine
	agent string
	mu    sync.Mutex // keeps one call's check and observation together
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

// ErrRefused wraps a deny-mode refusal; its text is the reason, which starts "dsh-brake:".
var ErrRefused = errors.New("refused by loopguard")

type refusal struct{ reason string }

func (r refusal) Error() string { return r.reason }
func (r refusal) Unwrap() error { return ErrRefused }

// call runs one tool call through the guard. A refused call is not run: run is never called
// and the error is a refusal.
func (g *Guard) call(ctx context.Context, turn, name string, input []byte, run func() (string, error)) (string, []loopguard.Notice, error) {
	if err := ctx.Err(); err != nil {
		return "", nil, err
	}
	ev := loopguard.Call(g.agent, name, input)
	ev.Turn = turn // the assistant message that made the call, when known
	g.mu.Lock()
	if d, refused := g.eng.Check(ev); refused {
		ev.Time = now()
		out := g.eng.Step(ev) // observed as a failed call, as the replay format defines
		g.mu.Unlock()
		return "", out.Notices, refusal{d.Reason}
	}
	g.mu.Unlock()
	text, err := run()
	failed := err != nil
	if failed {
		text = "Error: " + err.Error()
	}
	ev = ev.WithResult(text, failed)
	ev.Time = now()
	g.mu.Lock()
	notices := g.eng.Observe(ev)
	g.mu.Unlock()
	return text, notices, err
}

// ModelText feeds text the model wrote (source "model"): a model repeating its own words is
// looping too. It returns the notices due.
func (g *Guard) ModelText(id, text string) []loopguard.Notice {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return g.eng.Observe(loopguard.Event{Type: loopguard.EventText, Agent: g.agent, ID: id, Source: "model", Text: text, Time: now()})
}

// Reminder is the text block the model reads for notices, in the <system-reminder> form
// Claude models are trained to read as context rather than as the user's words.
func Reminder(notices []loopguard.Notice) string {
	var b strings.Builder
	b.WriteString("<system-reminder>\n")
	for i, n := range notices {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(tagged(n))
	}
	b.WriteString("\n</system-reminder>")
	return b.String()
}

// ToolFunc runs one tool_use block of a hand-written loop: the tool's name and its JSON input.
type ToolFunc func(ctx context.Context, name string, input json.RawMessage) (string, error)

// ToolResults runs the tool_use blocks of one assistant message through the guard, in order,
// and returns the user message to send next: one tool_result per call (a refused call's reads
// "Error: dsh-brake: …" and is marked as an error), then a text block with the notices, if
// any. The message's own text is fed as model text. A cancelled ctx stops before the next
// tool runs and returns ctx's error.
func (g *Guard) ToolResults(ctx context.Context, msg *anthropic.Message, run ToolFunc) (anthropic.MessageParam, error) {
	var blocks []anthropic.ContentBlockParamUnion
	var notices []loopguard.Notice
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			notices = append(notices, g.ModelText(msg.ID, b.Text)...)
		case "tool_use":
			text, ns, err := g.call(ctx, msg.ID, b.Name, b.Input, func() (string, error) { return run(ctx, b.Name, b.Input) })
			var r refusal
			switch {
			case errors.As(err, &r):
				text = "Error: " + r.reason
			case err != nil && ctx.Err() != nil:
				return anthropic.NewUserMessage(blocks...), ctx.Err()
			}
			blocks = append(blocks, anthropic.NewToolResultBlock(b.ID, text, err != nil))
			notices = append(notices, ns...)
		}
	}
	if len(notices) > 0 {
		blocks = append(blocks, anthropic.NewTextBlock(Reminder(notices)))
	}
	return anthropic.NewUserMessage(blocks...), nil
}

// Tools wraps the tool runner's tools: each call goes through the guard; a refused call is not
// executed and the runner reports the refusal ("Error: dsh-brake: …") as the tool's error
// result; notices are added to the result as a text block after the tool's own blocks.
func (g *Guard) Tools(tools ...anthropic.BetaTool) []anthropic.BetaTool {
	out := make([]anthropic.BetaTool, len(tools))
	for i, t := range tools {
		out[i] = guardedTool{t, g}
	}
	return out
}

type guardedTool struct {
	anthropic.BetaTool
	g *Guard
}

func (t guardedTool) Execute(ctx context.Context, input json.RawMessage) ([]anthropic.BetaToolResultBlockParamContentUnion, error) {
	var content []anthropic.BetaToolResultBlockParamContentUnion
	_, notices, err := t.g.call(ctx, "", t.Name(), input, func() (string, error) {
		var err error
		content, err = t.BetaTool.Execute(ctx, input)
		return resultText(content), err
	})
	if err != nil {
		// The runner shows an error alone, so the notices ride along in its text.
		if len(notices) > 0 {
			return nil, errors.Join(err, errors.New(Reminder(notices)))
		}
		return nil, err
	}
	if len(notices) > 0 {
		content = append(content, anthropic.BetaToolResultBlockParamContentUnion{OfText: &anthropic.BetaTextBlockParam{Text: Reminder(notices)}})
	}
	return content, nil
}

// resultText is the text of a tool's result blocks, for duplicate-text detection.
func resultText(content []anthropic.BetaToolResultBlockParamContentUnion) string {
	var parts []string
	for _, c := range content {
		if c.OfText != nil {
			parts = append(parts, c.OfText.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func now() int64 { return time.Now().UnixMilli() }

// tagged is a notice's text tagged with its plugin, unless the text already starts with the tag.
func tagged(n loopguard.Notice) string {
	if tag := "[" + n.Plugin + "]"; !strings.HasPrefix(n.Text, tag) && !strings.HasPrefix(n.Text, "[loopguard]") {
		return tag + " " + n.Text
	}
	return n.Text
}
