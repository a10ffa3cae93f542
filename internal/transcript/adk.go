package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"slices"

	"github.com/loopguard/loopguard"
)

// Google's Agent Development Kit (ADK) keeps a session as its events, and `adk web` exports it
// so ({"id", "appName", "userId", "state", "events": [...]}; the events alone, as a list or
// one a line, are read too); the Python models dumped without
// their aliases write the same in snake case (app_name, invocation_id, function_call). Each
// event has its author, the user or an agent, and its content's parts: text, a functionCall
// {"id", "name", "args"} or a functionResponse {"id", "name", "response"}. An agent that hands
// work to another (a sub-agent as a tool, transfer_to_agent) calls it like any tool, and the
// called agent's own events follow under its name; a sub-agent's answer may come long after
// the call, once the agents under it are done, so answers are matched to calls by id.
//
// Each agent (author) is an agent of the session; the user's words are a turn of every agent
// seen so far. Calls of one event are one reply. An event that reports the model's failure
// (errorCode, errorMessage) holds no call.

type adkEvent struct {
	Author  string      `json:"author"`
	ID      string      `json:"id"`
	Content *adkContent `json:"content"`
	// Timestamp is when the event happened, in seconds since the epoch (ADK's float).
	Timestamp float64 `json:"timestamp"`
}

// millis is the event's time in Unix milliseconds, 0 when it has none.
func (e *adkEvent) millis() int64 {
	if e.Timestamp <= 0 || e.Timestamp > 1e11 {
		return 0 // none, or not in seconds
	}
	return int64(e.Timestamp * 1000)
}

type adkContent struct {
	Role  string    `json:"role"`
	Parts []adkPart `json:"parts"`
}

type adkPart struct {
	Text           string       `json:"text"`
	Thought        bool         `json:"thought"`
	FunctionCall   *adkFunction `json:"functionCall"`
	FunctionCallSC *adkFunction `json:"function_call"`
	FunctionResp   *adkFunction `json:"functionResponse"`
	FunctionRespSC *adkFunction `json:"function_response"`
}

type adkFunction struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Args     json.RawMessage `json:"args"`
	Response json.RawMessage `json:"response"`
}

func (p *adkPart) call() *adkFunction {
	if p.FunctionCall != nil {
		return p.FunctionCall
	}
	return p.FunctionCallSC
}

func (p *adkPart) answer() *adkFunction {
	if p.FunctionResp != nil {
		return p.FunctionResp
	}
	return p.FunctionRespSC
}

// isADKSessionHead says whether a JSON document's top-level keys are an ADK session's.
func isADKSessionHead(has func(string) bool) bool {
	return has("events") && (has("appName") || has("app_name")) && (has("userId") || has("user_id"))
}

// isADKEventHead says whether a JSON line's keys are an ADK event's, as a log of them one a
// line keeps them.
func isADKEventHead(has func(string) bool) bool {
	return has("author") && (has("invocationId") || has("invocation_id")) && (has("content") || has("actions"))
}

func readADK(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	var events []adkEvent
	trimmed := bytes.TrimSpace(data)
	var session struct {
		Events []adkEvent `json:"events"`
	}
	if len(trimmed) > 0 && trimmed[0] == '[' {
		// the events saved as a list
		if err := json.Unmarshal(trimmed, &events); err != nil && !tolerable(err) {
			return nil, &Error{Path: name, Line: 1, Err: err}
		}
	} else if err := json.Unmarshal(trimmed, &session); err == nil && session.Events != nil {
		events = session.Events
	} else {
		// one event a line
		for n, line := range bytes.Split(trimmed, []byte("\n")) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var e adkEvent
			if err := json.Unmarshal(line, &e); err != nil && !tolerable(err) {
				return nil, &Error{Path: name, Line: n + 1, Err: err}
			}
			events = append(events, e)
		}
	}
	// The answers, by call id: a sub-agent's may come after calls of other agents.
	type answer struct {
		text   string
		failed bool
	}
	answers := map[string]answer{}
	for _, e := range events {
		if e.Content == nil {
			continue
		}
		for _, p := range e.Content.Parts {
			if f := p.answer(); f != nil && f.ID != "" {
				answers[f.ID] = answer{text: adkResponseText(f.Response), failed: adkResponseFailed(f.Response)}
			}
		}
	}
	b := newBuilder(FormatADK)
	var order []string // the agents, as they first speak
	for _, e := range events {
		if e.Content == nil {
			continue
		}
		if e.Author == "user" || e.Content.Role == "user" && e.Author == "" {
			text := ""
			for _, p := range e.Content.Parts {
				if p.answer() == nil {
					text += p.Text
				}
			}
			if text != "" {
				for _, id := range order {
					b.agent(id).user(text, e.millis())
				}
			}
			continue
		}
		agent := e.Author
		if agent == "" {
			agent = MainAgent
		}
		a := b.agent(agent)
		if !slices.Contains(order, agent) {
			order = append(order, agent)
		}
		for _, p := range e.Content.Parts {
			switch f := p.call(); {
			case f != nil && f.Name != "":
				call := loopguard.Event{Type: loopguard.EventCall, Tool: f.Name, Args: rawArgs(f.Args), Turn: "e" + e.ID, Time: e.millis()}
				if ans, ok := answers[f.ID]; ok && f.ID != "" {
					call = call.WithResult(ans.text, ans.failed)
				}
				a.add(call)
			case p.answer() == nil && p.Text != "":
				a.text("model", p.Text, "", e.millis())
			}
		}
	}
	return b.done(), nil
}

// adkResponseText is what a function's response says: its "result" when that is all it
// holds, as ADK wraps a tool's plain return value ({"result": "..."}), else the response.
func adkResponseText(raw json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil && len(m) == 1 {
		if r, ok := m["result"]; ok {
			var s string
			if json.Unmarshal(r, &s) == nil {
				return s
			}
			return string(rawArgs(r))
		}
	}
	return string(rawArgs(raw))
}

// adkResponseFailed says whether a response reports its call's failure in a field of its own,
// {"error": "..."}, as ADK's tools return one; a failure said in words is read as any text is.
func adkResponseFailed(raw json.RawMessage) bool {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	e, ok := m["error"]
	return ok && e != nil && e != "" && e != false
}
