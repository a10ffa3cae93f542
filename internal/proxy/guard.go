package proxy

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/loopguard/loopguard"
)

// Guard rebuilds a request's conversation, runs it through the engine from a clean state and
// splices the notices that fell due into the request body. It is safe for concurrent use: each
// request gets an engine agent of its own, forgotten when the request is done.
//
// A prefix cache (see prefixcache.go) lets a request resume from the state a previous request
// of the same conversation reached, instead of replaying the whole history; the upstream body
// is the same bytes either way.
type Guard struct {
	eng   *loopguard.Engine
	seq   atomic.Uint64
	cache *prefixCache // nil: off
}

// NewGuard returns a Guard running cfg, with a prefix cache of DefaultCacheLimits.
func NewGuard(cfg loopguard.Config) (*Guard, error) {
	return NewGuardCache(cfg, DefaultCacheLimits)
}

// NewGuardCache returns a Guard running cfg whose prefix cache has the limits lim
// (lim.Entries 0: no cache).
func NewGuardCache(cfg loopguard.Config, lim CacheLimits) (*Guard, error) {
	eng, err := loopguard.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Guard{eng: eng, cache: newPrefixCache(lim)}, nil
}

// Rewritten is one request after the guard saw it.
type Rewritten struct {
	Notices []loopguard.Notice // the notices inserted, in order

	body []byte      // the client's
	ins  []insertion // the notices' bytes, by offset

	conv  *conversation
	agent string // the engine agent holding this conversation's state until Done
	g     *Guard
}

// Rewrite returns body with the notices due in its conversation inserted. prev is the state
// kept for the response named by the body's previous_response_id (Responses; nil otherwise or
// when unknown). On error (a body that is not a JSON object, a bad snapshot) the caller
// forwards the body untouched. The caller must call Done on the result.
func (g *Guard) Rewrite(api API, body []byte, prev *State) (*Rewritten, error) {
	var known map[string]call
	if prev != nil {
		known = prev.Calls
	}
	conv, err := parse(api, body, known)
	if err != nil {
		return nil, err
	}
	r := &Rewritten{body: body, conv: conv, agent: fmt.Sprintf("proxy-%d", g.seq.Add(1)), g: g}
	defer func() {
		if p := recover(); p != nil {
			g.eng.Forget(r.agent) // nobody will call Done
			panic(p)
		}
	}()
	var dues []due
	if prev != nil {
		// A continued server-side history starts from the kept state, not a clean one: the
		// prefix cache, keyed from a clean state, does not apply.
		if err := g.eng.Restore(r.agent, prev.Snapshot); err != nil {
			return nil, err
		}
		dues = run(g.eng, r.agent, body, conv.steps)
	} else if dues, err = g.cached(api, r.agent, body, conv.steps); err != nil {
		return nil, err
	}
	for _, d := range dues {
		r.Notices = append(r.Notices, d.notices...)
	}
	r.ins = insertions(dues)
	slices.SortStableFunc(r.ins, func(a, b insertion) int { return a.offset - b.offset })
	conv.release() // the sites are rendered: the tree is no longer read
	return r, nil
}

// cached runs steps as run does, from the longest prefix of them the cache holds, and keeps
// the state after the last step for the conversation's next request.
func (g *Guard) cached(api API, agent string, body []byte, steps []step) ([]due, error) {
	if g.cache == nil || len(steps) == 0 {
		return run(g.eng, agent, body, steps), nil
	}
	keys := g.cache.keys(api, body, steps)
	p, from := g.cache.longest(keys)
	var (
		out     []due
		pending []loopguard.Notice
	)
	if p != nil {
		if err := g.eng.Restore(agent, p.snap); err != nil {
			return nil, err // a snapshot this engine wrote itself: not expected
		}
		// Copies: resume appends to both, and the cached plan is shared.
		out = make([]due, len(p.dues), len(p.dues)+4)
		for i, d := range p.dues {
			out[i] = due{site: steps[d.step].site, step: d.step, notices: withAgent(d.notices, agent)}
		}
		pending = withAgent(p.pending, agent)
	}
	if from == len(steps) {
		return out, nil
	}
	out, pending = resume(g.eng, agent, body, steps, from, out, pending)
	next := &plan{snap: g.eng.Snapshot(agent), dues: make([]plannedDue, len(out)), pending: slices.Clone(pending)}
	for i, d := range out {
		next.dues[i] = plannedDue{step: d.step, notices: slices.Clone(d.notices)}
	}
	g.cache.put(keys[len(keys)-1], next)
	return out, nil
}

// withAgent returns a copy of cached notices addressed to agent, the request's own engine agent,
// as a replay would have addressed them.
func withAgent(ns []loopguard.Notice, agent string) []loopguard.Notice {
	if len(ns) == 0 {
		return nil
	}
	out := make([]loopguard.Notice, len(ns))
	for i, n := range ns {
		n.Agent = agent
		out[i] = n
	}
	return out
}

// Body returns the body to send upstream: the client's, with the notices spliced in.
func (r *Rewritten) Body() []byte { return splice(r.body, r.ins) }

// Segments returns the same bytes as Body, as pieces of the client's body and the inserted
// notices, without copying the client's body: a proxy holding many large requests at once
// keeps one copy of each, not two.
func (r *Rewritten) Segments() [][]byte {
	segs := make([][]byte, 0, 2*len(r.ins)+1)
	last := 0
	for _, in := range r.ins {
		segs = append(segs, r.body[last:in.offset], in.data)
		last = in.offset
	}
	return append(segs, r.body[last:])
}

// PreviousID is the previous_response_id of a Responses request, or "".
func (r *Rewritten) PreviousID() string { return r.conv.previousID }

// Keeps reports whether the state after this request's response should be kept: a Responses
// request the provider stores, so that a later request may continue it by id.
func (r *Rewritten) Keeps() bool { return r.conv.store && r.conv.open != nil }

// Done forgets the request's engine state.
func (r *Rewritten) Done() { r.g.eng.Forget(r.agent) }

// State is what the proxy keeps per response id for Responses requests that continue a
// server-side history with previous_response_id: the engine's state after the response, and
// the calls the response made, whose results the next request brings.
type State struct {
	Snapshot []byte          `json:"snapshot"`
	Calls    map[string]call `json:"calls,omitempty"`
}

// After feeds a Responses response body (JSON or the SSE stream) to the request's engine state
// and returns the response id with the state to keep under it. ok is false when the body holds
// no response id (an error, a cut stream).
func (r *Rewritten) After(resp []byte) (id string, st *State, ok bool) {
	id, items := responsesOutput(resp)
	if id == "" {
		return "", nil, false
	}
	calls := map[string]call{}
	for k, v := range r.conv.open {
		calls[k] = v
	}
	for _, it := range items {
		var item struct {
			Type      string `json:"type"`
			Role      string `json:"role"`
			CallID    string `json:"call_id"`
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
			Input     string `json:"input"`
			Content   []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if json.Unmarshal(it, &item) != nil {
			continue
		}
		switch item.Type {
		case "message":
			for _, c := range item.Content {
				r.g.eng.Observe(loopguard.Event{Type: loopguard.EventText, Agent: r.agent, Source: "model", Text: c.Text})
			}
		case "function_call":
			calls[item.CallID] = call{Name: item.Name, Args: []byte(item.Arguments)}
		case "custom_tool_call":
			calls[item.CallID] = customCall(item.Name, item.Input, "")
		}
	}
	return id, &State{Snapshot: r.g.eng.Snapshot(r.agent), Calls: calls}, true
}
