package loopguard

import (
	"strconv"
	"sync"

	"github.com/loopguard/loopguard/internal/canon"
)

// Notice is advice for the model: a separate message, never a rewrite of a tool's result.
type Notice struct {
	Agent   string // the agent it is for
	Plugin  string // PluginRepeatToolReminder or PluginDSHBrake
	Kind    string // "repeat"; or dsh-brake's "call", "sequence", "text"
	Summary string // short label: "probe × 3", "sequence loop × 3", "duplicate text × 3"
	Text    string // what the model reads
}

// Denial is a refusal of a call before it runs (deny mode only).
type Denial struct {
	Agent  string
	Plugin string
	Reason string // starts with "dsh-brake:" in every locale
}

// Notice kinds.
const (
	KindRepeat   = "repeat"
	KindCall     = "call"
	KindSequence = "sequence"
	KindText     = "text"
)

// Engine turns events into notices and answers the deny-mode guard question. It is a pure
// function of the events it has been given: it reads no clock and does no I/O.
//
// An Engine is safe for concurrent use. Events of one agent must be given in order; events of
// different agents may come from any number of goroutines at once.
type Engine struct {
	cat       *catalogue
	detectors []detector
	cfg       Config

	mu     sync.Mutex
	agents map[string]*agentState
}

// detector is one loop detector. Detectors are a list, so that new ones (progress-aware
// detection, cycles) plug in without touching hosts or the engine's loop.
type detector interface {
	plugin() string
	id() byte // stable tag in snapshots
	newState() detectorState
}

// detectorState is one detector's memory of one agent.
type detectorState interface {
	observeCall(c *observedCall, out []Notice) []Notice
	observeText(t *textEvent, out []Notice) []Notice
	// refuse answers the guard question; detectors that never refuse return false.
	refuse(c *observedCall) (reason string, ok bool)
	// observeUser takes a user message: the seeds reset on every one, the progress detector
	// on every one but a harness's reprompt (see userEvent).
	observeUser(u *userEvent)
	appendSnapshot(b []byte) []byte
	restore(r *snapReader) error
}

type agentState struct {
	mu     sync.Mutex
	states []detectorState
	// scratch holds the call being observed. It lives here, guarded by mu, because a call
	// handed to detectors through an interface would otherwise escape to the heap on every
	// event.
	scratch observedCall
}

// call is a call event with its fingerprints worked out once for every detector.
type observedCall struct {
	agent  string
	tool   string
	args   []byte
	argsID uint64 // fingerprint of the canonical arguments
	id     uint64 // fingerprint of (tool, canonical arguments)
	result string
	hasRes bool
	failed bool
	time   int64
	turn   uint64 // hash of Event.Turn; 0 when it is empty
	// the harness refused the reply for its form and ran nothing (Event.Source "harness")
	refusedForm bool

	canonical     string
	haveCanonical bool
	search        bool // whether the call searches (searches), once haveSearch
	haveSearch    bool

	// The answer as the progress detector digested it (digestResult), and the arguments whose
	// echo it masked: kept to sketch it again in another mode (likeness). Once that is done,
	// progressState.resketch holds the sketch and resketched says so.
	answer     string
	answerArgs []byte
	resketched bool
}

// searches says whether the call searches (see searches), worked out on first use: the rules
// that ask (a failing search, an empty answer, churn) may all ask of one call.
func (c *observedCall) searches() bool {
	if !c.haveSearch {
		c.search, c.haveSearch = searches(c.tool, c.args), true
	}
	return c.search
}

// canonicalArgs returns the RFC 8785 text of the arguments, computed on first use: only
// notices need it, so the hot path never pays for it.
func (c *observedCall) canonicalArgs() string {
	if !c.haveCanonical {
		c.canonical, c.haveCanonical = canon.Canonical(c.args), true
	}
	return c.canonical
}

// userEvent is a user message. Text and source are optional: hosts that pass no text get a
// plain reset.
type userEvent struct {
	text   string
	source string
	time   int64 // Unix milliseconds, 0 when not known
}

type textEvent struct {
	agent  string
	id     string
	source string
	text   string
	time   int64
	turn   uint64 // the reply that wrote it (Event.Turn) hashed; 0 when the host does not say
}

// New returns an engine for cfg, or the first problem in cfg.
func New(cfg Config) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e := &Engine{cat: catalogueFor(cfg.Locale), cfg: cfg, agents: make(map[string]*agentState)}
	if cfg.RepeatToolReminder != nil {
		e.detectors = append(e.detectors, newRepeatDetector(*cfg.RepeatToolReminder, e.cat))
	}
	if cfg.DSHBrake != nil {
		e.detectors = append(e.detectors, newBrakeDetector(*cfg.DSHBrake, e.cat))
	}
	if cfg.Progress != nil {
		e.detectors = append(e.detectors, newProgressDetector(*cfg.Progress, e.cat))
	}
	return e, nil
}

// Config returns the configuration the engine runs.
func (e *Engine) Config() Config { return e.cfg }

func newCall(ev *Event) observedCall {
	argsID := canon.Fingerprint(ev.Args)
	return observedCall{
		agent:  ev.Agent,
		tool:   ev.Tool,
		args:   ev.Args,
		argsID: argsID,
		id:     combine(hashString(ev.Tool), argsID),
		result: ev.Result,
		hasRes: ev.HasResult,
		failed: ev.Failed,
		time:   ev.Time,
		turn:   turnHash(ev.Turn),

		refusedForm: ev.Source == SourceHarness,
	}
}

// turnHash is the hash of a call's turn, 0 for none.
func turnHash(turn string) uint64 {
	if turn == "" {
		return 0
	}
	return hashString(turn) | 1
}

// Observe feeds one event to the engine and returns the notices it gives, in order:
// repeat-tool-reminder's, then dsh-brake's call, sequence and text notices. Most events give
// none, and then Observe allocates nothing.
//
// Calls are observed after they ran, refused calls included (as failed calls whose result is
// "Error: " and the reason): hammering a refused call is exactly the loop to break.
func (e *Engine) Observe(ev Event) []Notice {
	return e.ObserveAppend(nil, ev)
}

// ObserveAppend is Observe appending to dst, for hosts that reuse a buffer.
func (e *Engine) ObserveAppend(dst []Notice, ev Event) []Notice {
	if ev.Agent == "" {
		// Calls with no agent have no model to remind and no chain to key: ignored, as upstream.
		return dst
	}
	switch ev.Type {
	case EventCall:
		a := e.agent(ev.Agent, true)
		a.mu.Lock()
		a.scratch = newCall(&ev)
		for _, s := range a.states {
			dst = s.observeCall(&a.scratch, dst)
		}
		a.scratch = observedCall{} // drop references to the caller's buffers
		a.mu.Unlock()
	case EventText:
		t := textEvent{agent: ev.Agent, id: ev.ID, source: ev.Source, text: ev.Text, time: ev.Time, turn: turnHash(ev.Turn)}
		a := e.agent(ev.Agent, true)
		a.mu.Lock()
		for _, s := range a.states {
			dst = s.observeText(&t, dst)
		}
		a.mu.Unlock()
	case EventUser:
		// A message with text opens the agent: the progress detector remembers it, to know
		// a reprompt repeating it. Without text there is nothing to remember.
		if a := e.agent(ev.Agent, ev.Text != ""); a != nil {
			u := userEvent{text: ev.Text, source: ev.Source, time: ev.Time}
			a.mu.Lock()
			for _, s := range a.states {
				s.observeUser(&u)
			}
			a.mu.Unlock()
		}
	case EventEnd:
		e.Forget(ev.Agent)
	}
	return dst
}

// Check asks the deny-mode guard whether this call would be refused now, before it runs. It
// changes nothing: a host that refuses the call then observes it as a failed call.
// Calls with no agent are never refused.
func (e *Engine) Check(ev Event) (Denial, bool) {
	if ev.Agent == "" || ev.Type != EventCall {
		return Denial{}, false
	}
	a := e.agent(ev.Agent, false)
	if a == nil {
		return Denial{}, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.scratch = newCall(&ev)
	d, ok := e.refusal(a, &a.scratch)
	a.scratch = observedCall{}
	return d, ok
}

// refusal asks the agent's detectors, in order, whether c is refused. The caller holds a.mu.
func (e *Engine) refusal(a *agentState, c *observedCall) (Denial, bool) {
	for i, s := range a.states {
		if reason, refused := s.refuse(c); refused {
			return Denial{Agent: c.agent, Plugin: e.detectors[i].plugin(), Reason: reason}, true
		}
	}
	return Denial{}, false
}

// Forget drops an agent's state. The same id then names a new agent that starts from nothing.
func (e *Engine) Forget(agent string) {
	e.mu.Lock()
	delete(e.agents, agent)
	e.mu.Unlock()
}

// Agents returns how many agents the engine holds state for.
func (e *Engine) Agents() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.agents)
}

func (e *Engine) agent(id string, create bool) *agentState {
	e.mu.Lock()
	defer e.mu.Unlock()
	a := e.agents[id]
	if a == nil && create {
		a = &agentState{states: make([]detectorState, len(e.detectors))}
		for i, d := range e.detectors {
			a.states[i] = d.newState()
		}
		e.agents[id] = a
	}
	return a
}

func itoa(n int) string { return strconv.Itoa(n) }

// Outcome is what one event gave: a refusal (for a call, in deny mode) and notices.
type Outcome struct {
	Denied  bool
	Denial  Denial
	Notices []Notice
}

// Step handles one event the way a host with a pre-execution guard does, and the way the
// replay format defines: a call is first put to the guard; a refused call is then observed as a
// failed call whose result is "Error: <reason>" (its real result, if any, is replaced, since it
// never ran). Every other event is simply observed.
//
// It is Check followed by Observe, with the call's fingerprints worked out once.
func (e *Engine) Step(ev Event) Outcome {
	if ev.Type != EventCall || ev.Agent == "" {
		return Outcome{Notices: e.Observe(ev)}
	}
	var out Outcome
	a := e.agent(ev.Agent, true)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.scratch = newCall(&ev)
	c := &a.scratch
	if d, refused := e.refusal(a, c); refused {
		out.Denied, out.Denial = true, d
		c.result, c.hasRes, c.failed = "Error: "+d.Reason, true, true
	}
	for _, s := range a.states {
		out.Notices = s.observeCall(c, out.Notices)
	}
	a.scratch = observedCall{}
	return out
}

// CallFailed says whether the engine reads the call ev, with its result, as failed: its host
// said so (ev.Failed), or its result reads as a failure the way the progress detector reads
// results (a traceback, "Error:", a nonzero exit code in the text, a JSON answer's error
// field; a look at a file only by its opening; not when the program's own last word is
// success, nor a search that found nothing: docs/detection.md). A host that shows calls
// (the scan's HTML report) marks them as the guard judged them. Without the progress
// detector (the seed presets) it is ev.Failed. It keeps no state and may be called at any
// time.
func (e *Engine) CallFailed(ev Event) bool {
	for _, d := range e.detectors {
		p, ok := d.(*progressDetector)
		if !ok {
			continue
		}
		c := newCall(&ev)
		cls := classEntry{p.classify(ev.Tool), ev.Tool}
		if cls.ignored {
			return ev.Failed
		}
		keys := readArgKeys(c.args)
		_, args, _ := callID(&c, keys.caption, false, nil)
		failed, _ := callOutcome(&c, cls, cls.writes(c.tool, args, keys))
		return failed
	}
	return ev.Failed
}
