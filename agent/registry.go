package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Tool is a function the model may call.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON Schema of the arguments. Nil means any object.
	Parameters json.RawMessage
	// Run does the work. A returned error becomes a failed result reading "Error: " and the
	// error's text; the model sees it, and post-execute hooks see it like any result.
	Run func(ctx context.Context, ex *Execution) (Result, error)
}

// ToolSpec is what a model is told about a tool.
type ToolSpec struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// Execution is one tool call on its way through the registry. Hooks must not modify it.
type Execution struct {
	// Agent is the agent that made the call, or nil: a call with no agent (a program calling
	// Registry.Execute directly) is legal, and agent-scoped plugins leave it alone.
	Agent *Agent
	// Call is the call as the model made it.
	Call ToolCall
	// Time is when the call started, by the loop's clock; zero when the caller did not say.
	Time time.Time
}

// Permission is a pre-execute hook's answer: allow the call, deny it with a reason, or ask
// someone (see Asker).
type Permission struct {
	verdict verdict
	text    string
}

type verdict uint8

const (
	allow verdict = iota
	deny
	ask
)

// Allow lets the call go on to the next pre-execute hook, the guards and the tool.
func Allow() Permission { return Permission{} }

// Deny refuses the call: its tool does not run and the model reads "Error: " and reason.
func Deny(reason string) Permission { return Permission{verdict: deny, text: reason} }

// Ask puts question to the registry's Asker, which allows or denies the call.
func Ask(question string) Permission { return Permission{verdict: ask, text: question} }

// PreExecuteHook decides, before anything else, whether a call may run.
type PreExecuteHook func(ctx context.Context, ex *Execution) Permission

// Asker answers the questions of pre-execute hooks that return Ask: usually by asking a human.
// A nil error allows the call; an error denies it and its text is the reason.
type Asker interface {
	Ask(ctx context.Context, ex *Execution, question string) error
}

// AskerFunc adapts a function to Asker.
type AskerFunc func(ctx context.Context, ex *Execution, question string) error

// Ask calls f.
func (f AskerFunc) Ask(ctx context.Context, ex *Execution, question string) error {
	return f(ctx, ex, question)
}

// Guard may refuse a call after the pre-execute hooks allowed it, by returning a reason and
// true. Guards are where policies that watch the whole run live (dsh-brake's deny mode), as
// opposed to pre-execute hooks, which usually judge one call on its own.
type Guard func(ctx context.Context, ex *Execution) (reason string, refuse bool)

// PostExecuteHook sees every result, refused calls included, and decides what the model gets.
// It may call next and return (or amend) the downstream decision, or return its own without
// calling next. Hooks run in the order they were added: the first added is the outermost, so
// it sees the decision of every hook added after it.
type PostExecuteHook func(ctx context.Context, ex *Execution, res Result, next func() Decision) Decision

// Outcome is what one execution gives: the result as the model is shown it, and the
// additional contexts the post-execute hooks attached, in order.
type Outcome struct {
	Result   Result
	Contexts []Message
}

// Registry holds the tools and tool hooks of a process. All agents share it, subagents too:
// a policy installed once sees every call.
//
// A Registry is safe for concurrent use. Register tools and hooks before agents run: a call
// uses the hooks present when it starts.
type Registry struct {
	mu    sync.RWMutex
	tools map[string]Tool
	pre   []PreExecuteHook
	guard []Guard
	post  []PostExecuteHook
	asker Asker
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{tools: make(map[string]Tool)}
}

// Register adds tools. It fails, and adds none, if a tool has no name or no Run, or if its
// name is already taken.
func (r *Registry) Register(tools ...Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := map[string]bool{}
	for _, t := range tools {
		switch {
		case t.Name == "":
			return errors.New("agent: a tool needs a name")
		case t.Run == nil:
			return fmt.Errorf("agent: tool %s has no Run", t.Name)
		case seen[t.Name] || r.tools[t.Name].Run != nil:
			return fmt.Errorf("agent: tool %s is already registered", t.Name)
		}
		seen[t.Name] = true
	}
	for _, t := range tools {
		r.tools[t.Name] = t
	}
	return nil
}

// Specs describes the registered tools for a model, sorted by name so that requests are
// stable.
func (r *Registry) Specs() []ToolSpec {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]ToolSpec, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, ToolSpec{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	slices.SortFunc(out, func(a, b ToolSpec) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// UsePreExecute adds pre-execute hooks. They run in order; the first that denies stops the
// call.
func (r *Registry) UsePreExecute(hooks ...PreExecuteHook) {
	r.mu.Lock()
	r.pre = append(r.pre, hooks...)
	r.mu.Unlock()
}

// UseGuard adds guards. They run in order after the pre-execute hooks; the first refusal
// stops the call.
func (r *Registry) UseGuard(guards ...Guard) {
	r.mu.Lock()
	r.guard = append(r.guard, guards...)
	r.mu.Unlock()
}

// UsePostExecute adds post-execute hooks, outermost first.
func (r *Registry) UsePostExecute(hooks ...PostExecuteHook) {
	r.mu.Lock()
	r.post = append(r.post, hooks...)
	r.mu.Unlock()
}

// SetAsker sets who answers Ask. With none, an Ask is a denial: an agent running unattended
// must not hang waiting for a person who is not there, and must not do what a hook wanted
// a person to approve. The model reads "Error: approval required and no one to ask: " and the
// question.
func (r *Registry) SetAsker(a Asker) {
	r.mu.Lock()
	r.asker = a
	r.mu.Unlock()
}

// Execute runs one call through the whole pipeline: pre-execute hooks, guards, the tool, then
// the post-execute waterfall. A call refused on the way (denied, refused by a guard, an unknown
// tool, a cancelled context) does not run its tool, and still flows through post-execute as a
// failed result "Error: <reason>": plugins that count calls must see the refused ones too.
//
// The error is for misuse by a hook (see ErrMisuse); every failure of the call itself is in
// the result.
func (r *Registry) Execute(ctx context.Context, ex *Execution) (Outcome, error) {
	return r.finish(ctx, ex, r.run(ctx, ex))
}

// run is the first half of Execute, up to the tool's result. The loop runs it for several
// calls at once and then finishes them one by one, in the model's order.
func (r *Registry) run(ctx context.Context, ex *Execution) Result {
	r.mu.RLock()
	pre, guards, asker := r.pre, r.guard, r.asker
	tool, known := r.tools[ex.Call.Name]
	r.mu.RUnlock()

	for _, h := range pre {
		p := h(ctx, ex)
		switch p.verdict {
		case deny:
			return errorResult(p.text)
		case ask:
			if asker == nil {
				return errorResult("approval required and no one to ask: " + p.text)
			}
			if err := asker.Ask(ctx, ex, p.text); err != nil {
				return errorResult(err.Error())
			}
		}
	}
	for _, g := range guards {
		if reason, refuse := g(ctx, ex); refuse {
			return errorResult(reason)
		}
	}
	if !known {
		return errorResult("unknown tool " + ex.Call.Name)
	}
	if err := ctx.Err(); err != nil {
		return errorResult(err.Error())
	}
	res, err := tool.Run(ctx, ex)
	if err != nil {
		return errorResult(err.Error())
	}
	return res
}

// finish runs the post-execute waterfall on a result.
func (r *Registry) finish(ctx context.Context, ex *Execution, res Result) (Outcome, error) {
	r.mu.RLock()
	hooks := r.post
	r.mu.RUnlock()

	var next func(i int) Decision
	next = func(i int) Decision {
		if i == len(hooks) {
			return Accept()
		}
		return hooks[i](ctx, ex, res, func() Decision { return next(i + 1) })
	}
	d := next(0)
	final, err := d.Apply(res)
	if err != nil {
		return Outcome{Result: errorResult(err.Error())}, fmt.Errorf("tool %s: post-execute: %w", ex.Call.Name, err)
	}
	for _, m := range d.contexts {
		if err := m.Validate(); err != nil {
			return Outcome{Result: final}, fmt.Errorf("%w: tool %s: post-execute context: %w", ErrMisuse, ex.Call.Name, err)
		}
		if k := m.Source.Kind; k != FromPlugin && k != FromUser {
			return Outcome{Result: final}, fmt.Errorf("%w: tool %s: an additional context comes from a plugin or the user, not %s", ErrMisuse, ex.Call.Name, k)
		}
	}
	return Outcome{Result: final, Contexts: d.contexts}, nil
}
