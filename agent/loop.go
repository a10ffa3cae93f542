package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Model is what the loop needs of a language model: given the conversation so far and the
// tools it may call, the model's next message, with text, tool calls or both. The loop marks
// the returned message as the model's, whatever its Source says.
type Model interface {
	Generate(ctx context.Context, conv []Message, tools []ToolSpec) (Message, error)
}

// ModelFunc adapts a function to Model.
type ModelFunc func(ctx context.Context, conv []Message, tools []ToolSpec) (Message, error)

// Generate calls f.
func (f ModelFunc) Generate(ctx context.Context, conv []Message, tools []ToolSpec) (Message, error) {
	return f(ctx, conv, tools)
}

// Plugin installs its hooks on a loop (and on the loop's registry). Installing is all a
// plugin does; there is no lifecycle beyond the hooks themselves.
type Plugin interface {
	Install(l *Loop)
}

// Step is one model call about to happen. Inbox is what it will carry: the previous step's
// tool results, then the additional contexts of those calls, then what was sent since (a
// user message). Every message in it already has its ID and Time.
type Step struct {
	Agent  *Agent
	Number int // the agent's steps are numbered from 1
	Inbox  []Message
}

// StepDecision is what a pre-step hook decides: enter the step with these messages, or
// reject it.
type StepDecision struct {
	reject bool
	reason string
	msgs   []Message
}

// Enter enters the step carrying exactly msgs.
func Enter(msgs ...Message) StepDecision { return StepDecision{msgs: slices.Clone(msgs)} }

// Reject stops the step before the model is called: Send returns a *RejectedError, and the
// inbox stays pending for the next Send (tool results must reach the model eventually).
func Reject(reason string) StepDecision { return StepDecision{reject: true, reason: reason} }

// WithMessages returns the decision with msgs added at the end. A rejection stays a rejection.
func (d StepDecision) WithMessages(msgs ...Message) StepDecision {
	if !d.reject {
		d.msgs = slices.Concat(d.msgs, msgs)
	}
	return d
}

// Rejected reports whether the decision rejects the step, and why.
func (d StepDecision) Rejected() (reason string, ok bool) { return d.reason, d.reject }

// Messages returns what the step enters with.
func (d StepDecision) Messages() []Message { return slices.Clone(d.msgs) }

// PreStepHook sees every step before the model is called. It may change st.Inbox and then
// call next (the hooks after it see the change), change what next decided, or decide without
// calling next. The messages a hook gets back from next already have their IDs and Times.
// The step must keep the previous step's tool results first and in order; the loop checks.
type PreStepHook func(ctx context.Context, st *Step, next func() StepDecision) StepDecision

// RejectedError is returned by Send when a pre-step hook rejected a step.
type RejectedError struct {
	Step   int
	Reason string
}

func (e *RejectedError) Error() string {
	return "agent: step " + strconv.Itoa(e.Step) + " rejected: " + e.Reason
}

// Errors of Send.
var (
	ErrStepLimit     = errors.New("agent: step limit reached")
	ErrDisposed      = errors.New("agent: agent disposed")
	ErrNothingToSend = errors.New("agent: nothing to send")
)

// DefaultMaxSteps is the step limit of a Loop whose MaxSteps is zero.
const DefaultMaxSteps = 50

// Loop runs agents: it asks the model, runs the tools it calls through the registry, and
// records everything the model is shown. Set its fields before the first agent runs; add
// hooks with its methods.
type Loop struct {
	// Model answers every step. Required.
	Model Model
	// Tools is the registry the agents call. Nil means an empty one, created on first use.
	Tools *Registry
	// Log receives the session log: one JSON line per message shown to the model (see
	// Record). Nil discards it; the agent still keeps its history.
	Log io.Writer
	// Clock stamps messages and executions. Nil means time.Now. Tests inject a fake one,
	// such as SteppingClock.
	Clock func() time.Time
	// MaxSteps limits the model calls of one Send; zero means DefaultMaxSteps.
	MaxSteps int
	// Concurrency is how many tool calls of one step may run at once; zero or one runs them
	// one after the other, each call's whole pipeline before the next call starts. Above one,
	// the pre-execute hooks, guards and tools of a step's calls run concurrently, and so all
	// before the first post-execute hook. Post-execute hooks always run one at a time, in the
	// model's order, so plugins see calls in the order the model made them.
	Concurrency int

	mu    sync.Mutex
	pre   []PreStepHook
	end   []func(*Agent)
	logMu sync.Mutex
}

// Use installs plugins, in order.
// SteppingClock returns a clock for reproducible runs (tests, golden session logs): each
// reading is one second after the previous one, the first one second after start. It is safe
// for concurrent use.
func SteppingClock(start time.Time) func() time.Time {
	var ticks atomic.Int64
	return func() time.Time { return start.Add(time.Duration(ticks.Add(1)) * time.Second) }
}

func (l *Loop) Use(plugins ...Plugin) {
	for _, p := range plugins {
		p.Install(l)
	}
}

// UsePreStep adds pre-step hooks. The first added is the outermost.
func (l *Loop) UsePreStep(hooks ...PreStepHook) {
	l.mu.Lock()
	l.pre = append(l.pre, hooks...)
	l.mu.Unlock()
}

// OnEnd adds a function called once when an agent of this loop is disposed, after its last
// Send has returned. Plugins drop the agent's state there.
func (l *Loop) OnEnd(fn func(*Agent)) {
	l.mu.Lock()
	l.end = append(l.end, fn)
	l.mu.Unlock()
}

// Registry returns the loop's registry, creating an empty one if Tools is nil.
func (l *Loop) Registry() *Registry {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Tools == nil {
		l.Tools = NewRegistry()
	}
	return l.Tools
}

// NewAgent returns a new agent for a session. It is a new agent even when an agent with the
// same session id existed before: plugins keep state per agent, not per session id.
func (l *Loop) NewAgent(session string) *Agent {
	l.Registry()
	return &Agent{loop: l, session: session}
}

func (l *Loop) now() time.Time {
	if l.Clock != nil {
		return l.Clock().UTC()
	}
	return time.Now().UTC()
}

func (l *Loop) hooks() ([]PreStepHook, []func(*Agent)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pre, l.end
}

func (l *Loop) writeLog(b []byte) error {
	if l.Log == nil {
		return nil
	}
	l.logMu.Lock()
	defer l.logMu.Unlock()
	_, err := l.Log.Write(b)
	return err
}

// Agent is one conversation with the model. Create it with Loop.NewAgent; end it with Dispose.
// Send may be called from several goroutines; the calls run one at a time.
type Agent struct {
	loop    *Loop
	session string

	run      sync.Mutex // held by Send; guards the fields below
	inbox    []Message  // what the next step carries
	pending  []string   // ids of the tool calls whose results the next step must carry first
	steps    int
	ids      int
	callIDs  int
	disposed atomic.Bool
	endOnce  sync.Once

	hmu     sync.RWMutex
	history []Message // every message recorded, in order: exactly what the model is shown
}

// Session returns the agent's session id.
func (a *Agent) Session() string { return a.session }

// Loop returns the loop that runs the agent: a tool starts a subagent with
// ex.Agent.Loop().NewAgent(...), sharing the registry.
func (a *Agent) Loop() *Loop { return a.loop }

// Disposed reports whether Dispose was called.
func (a *Agent) Disposed() bool { return a.disposed.Load() }

// History returns every message recorded for the agent, in order. It is the model's view:
// each step the model is given this history and nothing else.
func (a *Agent) History() []Message {
	a.hmu.RLock()
	defer a.hmu.RUnlock()
	return slices.Clone(a.history)
}

// LastReply returns the model's newest message, or false before the model has spoken. Hooks
// use it to see the text a model wrote beside its tool calls without copying the history.
func (a *Agent) LastReply() (Message, bool) {
	a.hmu.RLock()
	defer a.hmu.RUnlock()
	for i := len(a.history) - 1; i >= 0; i-- {
		if a.history[i].Source.Kind == FromModel {
			return a.history[i], true
		}
	}
	return Message{}, false
}

// Dispose ends the agent. A Send in progress stops before its next step with ErrDisposed;
// the loop's end functions run once nothing of the agent is running any more. Later Sends
// return ErrDisposed. A new agent with the same session id is a new agent. Dispose may be
// called from the agent's own tools and more than once.
func (a *Agent) Dispose() {
	a.disposed.Store(true)
	if a.run.TryLock() {
		a.run.Unlock()
		a.finish()
	}
	// Otherwise the running Send calls finish as it returns.
}

func (a *Agent) finish() {
	a.endOnce.Do(func() {
		_, end := a.loop.hooks()
		for _, fn := range end {
			fn(a)
		}
	})
}

// Send adds messages (from the user, or from a plugin) to the agent's inbox and runs steps
// until the model answers without calling a tool; it returns that answer. Send with no
// messages carries on with what is pending, after a step limit, a rejection or a cancellation.
//
// Every step records what it shows the model before calling it. The tool calls of a step are
// executed, their results and additional contexts wait in the inbox, and the next step carries
// them: a step with tool calls always leads to another model call, so contexts are never left
// unsaid.
func (a *Agent) Send(ctx context.Context, msgs ...Message) (Message, error) {
	a.run.Lock()
	defer func() {
		a.run.Unlock()
		if a.disposed.Load() {
			a.finish()
		}
	}()
	if a.disposed.Load() {
		return Message{}, ErrDisposed
	}
	if a.loop.Model == nil {
		return Message{}, errors.New("agent: the loop has no Model")
	}
	for _, m := range msgs {
		if err := m.Validate(); err != nil {
			return Message{}, err
		}
		if k := m.Source.Kind; k != FromUser && k != FromPlugin {
			return Message{}, fmt.Errorf("%w: Send takes user and plugin messages, not %s messages", ErrInvalidMessage, k)
		}
	}
	for _, m := range msgs {
		a.inbox = append(a.inbox, a.stamp(m))
	}
	if len(a.inbox) == 0 {
		return Message{}, ErrNothingToSend
	}
	limit := a.loop.MaxSteps
	if limit <= 0 {
		limit = DefaultMaxSteps
	}
	for n := 0; ; n++ {
		if a.disposed.Load() {
			return Message{}, ErrDisposed
		}
		if err := ctx.Err(); err != nil {
			return Message{}, err
		}
		if n == limit {
			return Message{}, ErrStepLimit
		}
		reply, done, err := a.step(ctx)
		if err != nil || done {
			return reply, err
		}
	}
}

// step runs one step: pre-step, record, model call, record, tools. done means the model
// answered without tool calls.
func (a *Agent) step(ctx context.Context) (reply Message, done bool, err error) {
	a.steps++
	st := &Step{Agent: a, Number: a.steps, Inbox: slices.Clone(a.inbox)}
	d := a.preStep(ctx, st)
	if d.reject {
		return Message{}, false, &RejectedError{Step: st.Number, Reason: d.reason}
	}
	if err := a.checkEntered(d.msgs); err != nil {
		return Message{}, false, err
	}
	if err := a.record(st.Number, d.msgs...); err != nil {
		return Message{}, false, err
	}
	a.inbox, a.pending = nil, nil

	// The model is given the recorded history and nothing else: what it sees is what the log
	// holds, by construction.
	reply, err = a.loop.Model.Generate(ctx, a.History(), a.loop.Registry().Specs())
	if err != nil {
		return Message{}, false, fmt.Errorf("agent: model: %w", err)
	}
	if reply, err = a.normalizeReply(reply); err != nil {
		return Message{}, false, err
	}
	if err := a.record(st.Number, reply); err != nil {
		return Message{}, false, err
	}
	if len(reply.ToolCalls) == 0 {
		return reply, true, nil
	}
	return reply, false, a.execute(ctx, reply.ToolCalls)
}

// preStep runs the pre-step waterfall. Messages are stamped at every boundary, so that each
// hook sees IDs and Times on what it is given and on what next returns.
func (a *Agent) preStep(ctx context.Context, st *Step) StepDecision {
	hooks, _ := a.loop.hooks()
	var call func(i int) StepDecision
	call = func(i int) StepDecision {
		a.stampAll(st.Inbox)
		var d StepDecision
		if i == len(hooks) {
			d = Enter(st.Inbox...)
		} else {
			d = hooks[i](ctx, st, func() StepDecision { return call(i + 1) })
		}
		a.stampAll(d.msgs)
		return d
	}
	return call(0)
}

// checkEntered keeps the conversation well formed whatever the hooks did: the previous step's
// tool results come first, each once, in order; no other tool message and no model message.
func (a *Agent) checkEntered(msgs []Message) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: pre-step: %s", ErrMisuse, fmt.Sprintf(format, args...))
	}
	if len(msgs) < len(a.pending) {
		return bad("the step must carry the results of all %d tool calls", len(a.pending))
	}
	for i, m := range msgs {
		if err := m.Validate(); err != nil {
			return fmt.Errorf("%w: pre-step: %w", ErrMisuse, err)
		}
		switch {
		case m.Source.Kind == FromModel:
			return bad("a step cannot carry a model message")
		case i < len(a.pending) && (m.Source.Kind != FromTool || m.ToolCallID != a.pending[i]):
			return bad("message %d must be the result of tool call %s", i+1, a.pending[i])
		case i >= len(a.pending) && m.Source.Kind == FromTool:
			return bad("unexpected tool result for call %s", m.ToolCallID)
		}
	}
	return nil
}

func (a *Agent) normalizeReply(m Message) (Message, error) {
	m.Source = Source{Kind: FromModel}
	m.ToolCallID, m.Tool, m.IsError = "", "", false
	m.ID, m.Time = "", time.Time{}
	m.ToolCalls = slices.Clone(m.ToolCalls)
	seen := make(map[string]bool, len(m.ToolCalls))
	for i := range m.ToolCalls {
		c := &m.ToolCalls[i]
		if c.ID == "" {
			a.callIDs++
			c.ID = "call_" + strconv.Itoa(a.callIDs)
		}
		if seen[c.ID] {
			return m, fmt.Errorf("agent: model: tool call id %s used twice in one message", c.ID)
		}
		seen[c.ID] = true
	}
	return a.stamp(m), nil
}

// execute runs the calls of one step and leaves their results, then their contexts, in the
// inbox. Calls may run concurrently; post-execute runs in the model's order.
func (a *Agent) execute(ctx context.Context, calls []ToolCall) error {
	reg := a.loop.Registry()
	exs := make([]*Execution, len(calls))
	for i, c := range calls {
		exs[i] = &Execution{Agent: a, Call: c, Time: a.loop.now()}
	}
	var results, contexts []Message
	var firstErr error
	commit := func(i int, res Result) {
		out, err := reg.finish(ctx, exs[i], res)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		c := calls[i]
		results = append(results, a.stamp(Message{
			Source:     Source{Kind: FromTool},
			ToolCallID: c.ID,
			Tool:       c.Name,
			Text:       out.Result.Text(),
			IsError:    out.Result.IsError,
		}))
		for _, m := range out.Contexts {
			contexts = append(contexts, a.stamp(m))
		}
	}
	if a.loop.Concurrency <= 1 || len(calls) == 1 {
		for i := range calls {
			commit(i, reg.run(ctx, exs[i]))
		}
	} else {
		res := make([]Result, len(calls))
		done := make([]chan struct{}, len(calls))
		sem := make(chan struct{}, a.loop.Concurrency)
		for i := range calls {
			done[i] = make(chan struct{})
			go func() {
				defer close(done[i])
				sem <- struct{}{}
				defer func() { <-sem }()
				res[i] = reg.run(ctx, exs[i])
			}()
		}
		for i := range calls {
			<-done[i]
			commit(i, res[i])
		}
	}
	a.inbox = append(results, contexts...)
	a.pending = make([]string, len(calls))
	for i, c := range calls {
		a.pending[i] = c.ID
	}
	return firstErr
}

func (a *Agent) stamp(m Message) Message {
	if m.ID == "" {
		a.ids++
		m.ID = "m" + strconv.Itoa(a.ids)
	}
	if m.Time.IsZero() {
		m.Time = a.loop.now()
	}
	return m
}

func (a *Agent) stampAll(msgs []Message) {
	for i := range msgs {
		msgs[i] = a.stamp(msgs[i])
	}
}
