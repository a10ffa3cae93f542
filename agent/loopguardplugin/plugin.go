// Package loopguardplugin puts loopguard's detectors on the seams of an agent loop: the
// upstream plugins repeat-tool-reminder and dsh-brake, driven by one loopguard.Engine.
//
//	p, err := loopguardplugin.New(cfg)
//	if err != nil { ... }
//	loop.Use(p)
//
// What it hooks, and why there:
//   - post-execute (on the loop's registry): every call is observed after it ran, with the
//     result the model will read, so refused calls count too (hammering a refused call is the
//     loop to break) and duplicate results are seen. Notices are folded onto whatever the hooks
//     after it decided, before their contexts: a block keeps its feedback, a replacement stays.
//   - guard (dsh-brake deny mode only): refuses a confirmed repeat before it runs.
//   - pre-step (on the loop): a user message resets the agent's counters; plugin messages
//     about to be shown are observed as injected text, for dsh-brake's duplicate-text check.
//   - end: a disposed agent's state is dropped, so a new agent with its session id starts fresh.
//
// Install it before hooks whose decisions it should fold onto: post-execute hooks run
// outermost first, and a hook that does not call next hides the call from the hooks after it.
package loopguardplugin

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/agent"
)

// Plugin is loopguard on an agent loop. Install it with Loop.Use. One Plugin may serve several
// loops (a subagent's loop with another model, say); it installs its tool hooks once per
// registry.
type Plugin struct {
	eng  *loopguard.Engine
	deny bool

	mu    sync.Mutex
	keys  map[*agent.Agent]string // engine agent ids, one per live agent object
	seq   int
	regs  map[*agent.Registry]bool
	loops map[*agent.Loop]bool
	said  map[string]string // engine agent id → id of the last model reply observed
}

// New returns a plugin running cfg, or the first problem in cfg.
func New(cfg loopguard.Config) (*Plugin, error) {
	eng, err := loopguard.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Plugin{
		eng:   eng,
		deny:  cfg.Denies(),
		keys:  make(map[*agent.Agent]string),
		regs:  make(map[*agent.Registry]bool),
		loops: make(map[*agent.Loop]bool),
		said:  make(map[string]string),
	}, nil
}

// Engine returns the engine behind the plugin.
func (p *Plugin) Engine() *loopguard.Engine { return p.eng }

// Install puts the plugin's hooks on l and on l's registry. Installing twice changes nothing.
func (p *Plugin) Install(l *agent.Loop) {
	reg := l.Registry()
	p.mu.Lock()
	newReg, newLoop := !p.regs[reg], !p.loops[l]
	p.regs[reg], p.loops[l] = true, true
	p.mu.Unlock()
	if newReg {
		if p.deny {
			reg.UseGuard(p.guard)
		}
		reg.UsePostExecute(p.postExecute)
	}
	if newLoop {
		l.UsePreStep(p.preStep)
		l.OnEnd(p.end)
	}
}

// key names an agent in the engine. Keys are per agent object, not per session id: upstream
// keeps its chains per live agent, so a replacement with a reused session id starts fresh
// even while the old one is still around. Calls with no agent, and a disposed agent, get ""
// and are ignored.
func (p *Plugin) key(a *agent.Agent) string {
	if a == nil || a.Disposed() {
		return ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	k, ok := p.keys[a]
	if !ok {
		p.seq++
		k = a.Session() + "#" + strconv.Itoa(p.seq)
		p.keys[a] = k
	}
	return k
}

// firstSight says whether the model message id is new for agent k, and remembers it.
func (p *Plugin) firstSight(k, id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.said[k] == id {
		return false
	}
	p.said[k] = id
	return true
}

func (p *Plugin) end(a *agent.Agent) {
	p.mu.Lock()
	k, ok := p.keys[a]
	delete(p.keys, a)
	delete(p.said, k)
	p.mu.Unlock()
	if ok {
		p.eng.Observe(loopguard.Event{Type: loopguard.EventEnd, Agent: k})
	}
}

func (p *Plugin) guard(_ context.Context, ex *agent.Execution) (string, bool) {
	k := p.key(ex.Agent)
	if k == "" {
		return "", false
	}
	d, refuse := p.eng.Check(loopguard.Call(k, ex.Call.Name, []byte(ex.Call.Args)))
	return d.Reason, refuse
}

func (p *Plugin) postExecute(_ context.Context, ex *agent.Execution, res agent.Result, next func() agent.Decision) agent.Decision {
	d := next()
	k := p.key(ex.Agent)
	if k == "" {
		return d
	}
	// Observe the result the model will read, after the downstream hooks. A decision that
	// cannot be applied is the loop's to report; count what the tool gave.
	final, err := d.Apply(res)
	if err != nil {
		final = res
	}
	// The model's words beside its calls come first, once per reply: the progress detector
	// reads a thought repeated turn after turn.
	var notices []loopguard.Notice
	m, replied := ex.Agent.LastReply()
	if replied && strings.TrimSpace(m.Text) != "" && p.firstSight(k, m.ID) {
		notices = p.eng.ObserveAppend(notices, loopguard.Event{Type: loopguard.EventText, Agent: k, ID: m.ID,
			Source: "model", Text: m.Text, Time: millis(m.Time)})
	}
	ev := loopguard.Call(k, ex.Call.Name, []byte(ex.Call.Args)).WithResult(final.Text(), final.IsError)
	ev.Time = millis(ex.Time)
	if replied {
		ev.Turn = m.ID // the calls of one reply were made together
	}
	notices = p.eng.ObserveAppend(notices, ev)
	if len(notices) == 0 {
		return d
	}
	return d.PrependContexts(messages(notices)...)
}

func (p *Plugin) preStep(_ context.Context, st *agent.Step, next func() agent.StepDecision) agent.StepDecision {
	d := next()
	if _, rejected := d.Rejected(); rejected {
		return d // nothing is shown, so nothing is observed
	}
	k := p.key(st.Agent)
	if k == "" {
		return d
	}
	var notices []loopguard.Notice
	for _, m := range d.Messages() {
		switch {
		case m.Source.Kind == agent.FromUser:
			// With its text: a message repeating the last one ("continue") is no new turn.
			p.eng.Observe(loopguard.Event{Type: loopguard.EventUser, Agent: k, Text: m.Text, Time: millis(m.Time)})
		case m.Source.Kind == agent.FromPlugin && !own(m.Source.Plugin):
			// Tool results were observed with their calls; our own notices are not news.
			notices = p.eng.ObserveAppend(notices, loopguard.Event{
				Type:   loopguard.EventText,
				Agent:  k,
				ID:     m.ID,
				Source: m.Source.Plugin,
				Text:   m.Text,
				Time:   millis(m.Time),
			})
		}
	}
	return d.WithMessages(messages(notices)...)
}

func own(plugin string) bool {
	return plugin == loopguard.PluginRepeatToolReminder || plugin == loopguard.PluginDSHBrake ||
		plugin == loopguard.PluginProgress
}

func messages(notices []loopguard.Notice) []agent.Message {
	out := make([]agent.Message, len(notices))
	for i, n := range notices {
		out[i] = agent.Notice(n.Plugin, n.Summary, n.Text)
	}
	return out
}

// millis converts a loop timestamp for the engine. An execution started outside a loop may
// carry no time; it gets the wall clock's.
func millis(t time.Time) int64 {
	if t.IsZero() {
		t = time.Now()
	}
	return t.UnixMilli()
}
