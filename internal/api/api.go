// Package api is loopguard's language-neutral HTTP API, mounted by `loopguard serve`:
//
//   - POST /v1/events takes events in the replay format (docs/events.md), one JSON object per
//     line, one event or a batch, for any number of agents, and answers with the notices and
//     denials due, in the replay output format;
//   - POST /v1/check answers the deny-mode guard question for one call before it runs;
//   - GET /openapi.json describes both (OpenAPI 3.1).
//
// Each agent's engine state lives in a store.Store under "api:" + the agent id, read and
// written with one atomic Store.Update per agent and request, so any number of serve
// processes sharing one Redis agree on every count.
//
// A whole body is parsed before anything is stored: a malformed line answers 400 naming the
// line and leaves every agent's state as it was.
package api

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/replay"
	"github.com/loopguard/loopguard/internal/store"
)

// OpenAPI is the OpenAPI 3.1 document of this API, served at /openapi.json. docs/openapi.json
// is the same file (a test keeps them equal).
//
//go:embed openapi.json
var OpenAPI []byte

// MaxBody is the largest request body read, in bytes: far above any batch a client sends
// between model turns, small enough that a stray upload cannot exhaust memory.
const MaxBody = 64 << 20

// KeyPrefix namespaces the API's agents in the store, apart from the hooks' "host:session"
// keys, whose values have another layout.
const KeyPrefix = "api:"

// Server answers the API's requests. Its fields must not change once it serves.
type Server struct {
	Config loopguard.Config
	Store  store.Store
	// Now is the clock that gives events without "ts" their time; nil means time.Now.
	Now func() time.Time
	// Warn receives a line when an agent's stored state cannot be read and the agent starts
	// afresh; nil means say nothing.
	Warn func(line string)
}

// Handler returns the API's routes. Wrap it in RequireToken to ask for a bearer token.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.Mount(mux)
	return mux
}

// Mount adds the API's routes to mux.
func (s *Server) Mount(mux *http.ServeMux) {
	mux.HandleFunc("POST /v1/events", s.events)
	mux.HandleFunc("POST /v1/check", s.check)
	mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(OpenAPI)
	})
}

// parsed is one event of a request body with its 0-based line number.
type parsed struct {
	line int
	ev   loopguard.Event
}

// output is one line of the answer; seq keeps the engine's order within one event.
type output struct {
	line   int
	seq    int
	deny   *loopguard.Denial
	notice loopguard.Notice
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// readBody reads the whole body, or writes the error answer and returns false.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		fail(w, http.StatusBadRequest, fmt.Sprintf("body: reading: %v", err))
		return nil, false
	}
	if len(body) > MaxBody {
		fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("body: more than %d bytes", MaxBody))
		return nil, false
	}
	return body, true
}

// parseBody parses every line of body, stopping at the first malformed one.
func (s *Server) parseBody(body []byte) ([]parsed, error) {
	p := replay.NewParserAt(s.now().UnixMilli())
	var evs []parsed
	for n := 0; len(body) > 0; n++ {
		line := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		var ev loopguard.Event
		ok, err := p.Parse(line, &ev)
		if err != nil {
			return nil, &replay.LineError{Name: "body", Line: n + 1, Err: err}
		}
		if ok {
			evs = append(evs, parsed{n, ev})
		}
	}
	if len(evs) == 0 {
		return nil, errors.New("body: no events (send one JSON object per line, as in docs/events.md)")
	}
	return evs, nil
}

func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	evs, err := s.parseBody(body)
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	// Group by agent, keeping each agent's order: each agent is then one atomic update.
	// Events without an agent are legal and never counted, so they need no state.
	byAgent := map[string][]parsed{}
	var agents []string
	for _, e := range evs {
		if e.ev.Agent == "" {
			continue
		}
		if _, seen := byAgent[e.ev.Agent]; !seen {
			agents = append(agents, e.ev.Agent)
		}
		byAgent[e.ev.Agent] = append(byAgent[e.ev.Agent], e)
	}
	eng, err := loopguard.New(s.Config)
	if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	var outs []output
	for _, agent := range agents {
		got, err := s.stepAgent(r, eng, agent, byAgent[agent])
		if err != nil {
			storeFailed(w, agent, err)
			return
		}
		outs = append(outs, got...)
	}
	slices.SortStableFunc(outs, func(a, b output) int {
		if a.line != b.line {
			return a.line - b.line
		}
		return a.seq - b.seq
	})
	w.Header().Set("Content-Type", "application/x-ndjson")
	rw := replay.NewWriter(w)
	for _, o := range outs {
		if o.deny != nil {
			rw.Deny(o.line, *o.deny)
		} else {
			rw.Notice(o.line, o.notice)
		}
	}
	rw.Flush()
}

// stepAgent loads one agent's state, steps its events through eng, and stores the new state,
// atomically with every other request for the same agent in any process sharing the store.
func (s *Server) stepAgent(r *http.Request, eng *loopguard.Engine, agent string, evs []parsed) ([]output, error) {
	var outs []output
	err := s.Store.Update(r.Context(), KeyPrefix+agent, func(old []byte) ([]byte, error) {
		outs = outs[:0] // Update may call this more than once
		s.restore(eng, agent, old)
		for _, e := range evs {
			o := eng.Step(e.ev)
			seq := 0
			if o.Denied {
				d := o.Denial
				outs = append(outs, output{line: e.line, seq: seq, deny: &d})
				seq++
			}
			for _, n := range o.Notices {
				outs = append(outs, output{line: e.line, seq: seq, notice: n})
				seq++
			}
		}
		return eng.Snapshot(agent), nil // nil after an "end" event: the key is deleted
	})
	return outs, err
}

// restore loads stored state into eng. State this build cannot read (another version's
// snapshot, damaged bytes) is dropped with a warning: a few lost counts are better than an
// agent that gets an error on every request.
func (s *Server) restore(eng *loopguard.Engine, agent string, old []byte) {
	if err := eng.Restore(agent, old); err != nil {
		eng.Forget(agent)
		if s.Warn != nil {
			s.Warn(fmt.Sprintf("loopguard api: stored state of agent %q: %v; it starts again from nothing", agent, err))
		}
	}
}

// CheckAnswer is the body of a /v1/check answer.
type CheckAnswer struct {
	Deny   bool   `json:"deny"`
	Agent  string `json:"agent,omitempty"`
	Plugin string `json:"plugin,omitempty"`
	Reason string `json:"reason,omitempty"`
}

func (s *Server) check(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	evs, err := s.parseBody(body)
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	if len(evs) != 1 {
		fail(w, http.StatusBadRequest, fmt.Sprintf("body: /v1/check takes one call event, got %d events", len(evs)))
		return
	}
	ev := evs[0].ev
	if ev.Type != loopguard.EventCall {
		fail(w, http.StatusBadRequest, fmt.Sprintf("body:%d: /v1/check takes a \"call\" event, got %q", evs[0].line+1, ev.Type))
		return
	}
	answer := CheckAnswer{}
	// Only deny mode refuses, and a call with no agent is never refused: no state to read.
	if s.Config.DSHBrake != nil && s.Config.DSHBrake.Mode == loopguard.ModeDeny && ev.Agent != "" {
		old, err := s.Store.Get(r.Context(), KeyPrefix+ev.Agent)
		if err != nil {
			storeFailed(w, ev.Agent, err)
			return
		}
		eng, err := loopguard.New(s.Config)
		if err != nil {
			fail(w, http.StatusInternalServerError, err.Error())
			return
		}
		s.restore(eng, ev.Agent, old)
		if d, refused := eng.Check(ev); refused {
			answer = CheckAnswer{Deny: true, Agent: d.Agent, Plugin: d.Plugin, Reason: d.Reason}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(answer)
}

// ErrorAnswer is the body of every error answer.
type ErrorAnswer struct {
	Error string `json:"error"`
}

func fail(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(ErrorAnswer{msg})
}

// storeFailed answers a store error: 503 when the state cannot be had right now (the client
// may retry, or go on unguarded), 500 otherwise.
func storeFailed(w http.ResponseWriter, agent string, err error) {
	code := http.StatusInternalServerError
	if errors.Is(err, store.ErrUnavailable) {
		code = http.StatusServiceUnavailable
	}
	fail(w, code, fmt.Sprintf("state of agent %q: %v", agent, err))
}
