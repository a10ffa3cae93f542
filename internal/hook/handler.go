package hook

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/store"
)

// Handler answers hook events. One Handler may serve many events (loopguard serve) or one
// (loopguard hook); it holds no state of its own beyond the store.
type Handler struct {
	Config loopguard.Config
	Store  store.Store
	// Now is the clock for events whose host gives no timestamp; nil means time.Now.
	Now func() time.Time
	// Warn receives a line whenever stored state cannot be read and the agent starts afresh
	// (until the state is next written, each event that reads it says so); nil means say
	// nothing.
	Warn func(line string)
}

// Handle answers one hook event of host. It returns what to print on stdout (nothing for "no
// decision") or an error, after which the caller fails open.
func (h *Handler) Handle(ctx context.Context, host Host, stdin []byte) ([]byte, error) {
	if len(stdin) > maxInput {
		return nil, fmt.Errorf("hook input is %d bytes, more than the %d loopguard reads", len(stdin), maxInput)
	}
	r, err := parse(host, stdin)
	if err != nil {
		return nil, err
	}
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	switch r.act {
	case actCheck:
		return h.check(ctx, r, now())
	case actObserve:
		return h.observe(ctx, r, now())
	case actBatch:
		return h.batch(ctx, r, now())
	case actUserSpoke:
		return nil, h.userSpoke(ctx, r, now())
	case actForget:
		// The agent is gone: its state goes with it.
		return nil, h.Store.Delete(ctx, r.agent)
	}
	return nil, nil
}

func (h *Handler) denyMode() bool {
	return h.Config.Denies()
}

// check puts a call to the guard before it runs. Only deny mode can refuse, so in remind mode
// it returns at once without touching the store.
func (h *Handler) check(ctx context.Context, r *request, now time.Time) ([]byte, error) {
	if !h.denyMode() {
		return nil, nil
	}
	ev := r.event(now)
	// Read first: most calls are allowed, and a read needs no write lock.
	old, err := h.Store.Get(ctx, r.agent)
	if err != nil {
		return nil, err
	}
	_, eng, err := h.load(r.agent, old)
	if err != nil {
		return nil, err
	}
	if _, refused := eng.Check(ev); !refused {
		return nil, nil
	}
	// Refused: record the refusal as the call's outcome, as the reference harness does, so
	// that hammering a refused call keeps counting. The host may or may not report the refused
	// call again after the tool step; the call id lets observe skip it if it does.
	var out loopguard.Outcome
	err = h.Store.Update(ctx, r.agent, func(old []byte) ([]byte, error) {
		st, eng, err := h.load(r.agent, old)
		if err != nil {
			return nil, err
		}
		out = eng.Step(ev)
		if out.Denied {
			st.refused = appendBounded(st.refused, r.callID)
		}
		st.snapshot = eng.Snapshot(r.agent)
		return st.encode(), nil
	})
	if err != nil || !out.Denied {
		return nil, err
	}
	return denyOutput(r, out.Denial, out.Notices), nil
}

// observe counts a call after it ran and returns the notices due. The model's words beside the
// call, read from the transcript's tail where the host gives one, are observed first.
func (h *Handler) observe(ctx context.Context, r *request, now time.Time) ([]byte, error) {
	ev := r.event(now)
	var said loopguard.Event
	if h.Config.Progress != nil {
		text, id := modelText(r.host, r.in.TranscriptPath, r.in.ToolUseID)
		if text != "" {
			said = loopguard.Event{Type: loopguard.EventText, Agent: r.agent, Source: "model", ID: id, Text: text, Time: ev.Time}
		}
		// The id names the model message that made the call, the same for every call of it:
		// its parallel calls are one reply.
		ev.Turn = id
	}
	step := ranCall{id: r.callID, events: []loopguard.Event{ev}}
	if said.Type != 0 {
		step.events = []loopguard.Event{said, ev}
	}
	notices, err := h.record(ctx, r.agent, []ranCall{step})
	if err != nil {
		return nil, err
	}
	return contextOutput(r, notices), nil
}

// userSpoke hands the user's message to the engine, as every other host does: the seeds
// start again from nothing, the progress detector keeps its chains of calls failing the same
// way (a build that fails alike after "try again" is still a loop) and takes a prompt that
// repeats the last one ("continue", "continue") as no new turn.
func (h *Handler) userSpoke(ctx context.Context, r *request, now time.Time) error {
	ev := loopguard.Event{Type: loopguard.EventUser, Agent: r.agent, Text: r.in.Prompt, Time: now.UnixMilli()}
	_, err := h.record(ctx, r.agent, []ranCall{{events: []loopguard.Event{ev}}})
	return err
}

// ranCall is a call that ran (or was rejected), with the events that tell it: the model's
// words before it, if any, and the call with its result.
type ranCall struct {
	id     string
	events []loopguard.Event
}

// record observes calls that ran, in one update of the agent's state, and returns the notices
// due. A call refused before it ran (deny mode) was counted then, and is skipped once.
func (h *Handler) record(ctx context.Context, agent string, calls []ranCall) ([]loopguard.Notice, error) {
	var notices []loopguard.Notice
	err := h.Store.Update(ctx, agent, func(old []byte) ([]byte, error) {
		notices = nil // Update may run this more than once
		st, eng, err := h.load(agent, old)
		if err != nil {
			return nil, err
		}
		for _, c := range calls {
			if i := indexOf(st.refused, c.id); i >= 0 {
				st.refused = append(st.refused[:i], st.refused[i+1:]...)
				continue
			}
			for _, ev := range c.events {
				notices = eng.ObserveAppend(notices, ev)
			}
		}
		st.snapshot = eng.Snapshot(agent)
		return st.encode(), nil
	})
	return notices, err
}

// batch counts the calls of a finished batch that no per-tool event reported. Claude Code
// rejects a call whose input fails the tool's own checks (an edit whose old text is not in the
// file, a file not read first) without PreToolUse, PostToolUse or PostToolUseFailure, and
// reports it only here, its result wrapped in <tool_use_error>. Those rejections are the edit
// loops that matter most; the calls a per-tool event reported were counted then.
func (h *Handler) batch(ctx context.Context, r *request, now time.Time) ([]byte, error) {
	var calls []ranCall
	for _, c := range r.in.ToolCalls {
		text, ok := rejectedCall(c.ToolResponse)
		if !ok || c.ToolName == "" {
			continue
		}
		ev := loopguard.Call(r.agent, c.ToolName, c.ToolInput).WithResult(text, true)
		ev.Time = now.UnixMilli()
		calls = append(calls, ranCall{id: c.ToolUseID, events: []loopguard.Event{ev}})
	}
	if len(calls) == 0 {
		return nil, nil // the common batch: every call was reported on its own
	}
	notices, err := h.record(ctx, r.agent, calls)
	if err != nil {
		return nil, err
	}
	return contextOutput(r, notices), nil
}

// rejectedCall returns the text of a batch call's result when the host rejected the call
// before it ran (Claude Code: a string wrapped in <tool_use_error>), and whether it did.
func rejectedCall(response json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(response, &s) != nil {
		return "", false
	}
	const openTag, closeTag = "<tool_use_error>", "</tool_use_error>"
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, openTag) {
		return "", false
	}
	return strings.TrimSuffix(strings.TrimPrefix(t, openTag), closeTag), true
}

// load reads an agent's stored state into a new engine. State this build cannot read (written
// by another version of loopguard, or damaged) is dropped with a warning and the agent starts
// afresh: a few lost counts are better than a guard that fails on every call until the user
// next speaks.
func (h *Handler) load(agent string, stored []byte) (agentState, *loopguard.Engine, error) {
	eng, err := loopguard.New(h.Config)
	if err != nil {
		return agentState{}, nil, err
	}
	st, err := decodeState(stored)
	if err == nil {
		err = eng.Restore(agent, st.snapshot)
	}
	if err == nil {
		return st, eng, nil
	}
	if !errors.Is(err, errBadState) && !errors.Is(err, loopguard.ErrBadSnapshot) {
		return agentState{}, nil, err
	}
	if h.Warn != nil {
		h.Warn(fmt.Sprintf("loopguard: %v; agent %q starts again from nothing", err, agent))
	}
	return agentState{}, eng, nil // a failed Restore leaves the engine as it was: empty
}

// agentState is what the store keeps per agent: the engine's snapshot and the ids of calls
// refused before they ran (so that their post-tool event, if the host sends one, is not
// counted twice).
//
//	version(1) count(uvarint) {len(uvarint) id}... snapshot
type agentState struct {
	refused  []string
	snapshot []byte
}

const stateVersion = 1
const maxRefused = 32

var errBadState = errors.New("stored hook state is damaged")

func decodeState(b []byte) (agentState, error) {
	var st agentState
	if len(b) == 0 {
		return st, nil
	}
	if b[0] != stateVersion {
		return st, fmt.Errorf("%w: version %d", errBadState, b[0])
	}
	b = b[1:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > maxRefused {
		return st, errBadState
	}
	b = b[k:]
	for i := uint64(0); i < n; i++ {
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return st, errBadState
		}
		st.refused = append(st.refused, string(b[k:k+int(l)]))
		b = b[k+int(l):]
	}
	st.snapshot = b
	return st, nil
}

func (st agentState) encode() []byte {
	b := []byte{stateVersion}
	b = binary.AppendUvarint(b, uint64(len(st.refused)))
	for _, id := range st.refused {
		b = binary.AppendUvarint(b, uint64(len(id)))
		b = append(b, id...)
	}
	return append(b, st.snapshot...)
}

func appendBounded(list []string, id string) []string {
	if indexOf(list, id) >= 0 {
		return list
	}
	list = append(list, id)
	if len(list) > maxRefused {
		list = list[len(list)-maxRefused:]
	}
	return list
}

func indexOf(list []string, id string) int {
	for i, x := range list {
		if x == id {
			return i
		}
	}
	return -1
}

// Inspect loads the stored state of one agent key (as hooks store it: "host:session" or
// "host:session/subagent") and describes it. ok is false when nothing is stored.
func Inspect(ctx context.Context, st store.Store, cfg loopguard.Config, agent string) (s loopguard.AgentStats, ok bool, err error) {
	raw, err := st.Get(ctx, agent)
	if err != nil || raw == nil {
		return s, false, err
	}
	state, err := decodeState(raw)
	if err != nil {
		return s, false, err
	}
	eng, err := loopguard.New(cfg)
	if err != nil {
		return s, false, err
	}
	if err := eng.Restore(agent, state.snapshot); err != nil {
		return s, false, err
	}
	s, ok = eng.Stats(agent)
	return s, ok, nil
}
