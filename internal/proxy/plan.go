package proxy

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unsafe"

	"github.com/loopguard/loopguard"
)

// A request body is turned into steps: the conversation's events in order, each with the place
// in the body where a notice falling due after it is inserted. The engine is run over the steps
// from a clean state, and every notice becomes one insertion at its step's site. Everything is
// a function of the body alone (event times are all zero, since a request carries no clock),
// so the same history always gives the same insertions: that is what keeps the provider's
// prompt cache valid from one turn of a conversation to the next.

// step is one rebuilt event and where its notices go (nil: the next step with a site).
type step struct {
	ev   loopguard.Event
	site *site
	// result, when set, is the call's result text, decoded only when the step is run, into a
	// buffer reused from step to step (the engine keeps nothing of an event once Observe
	// returns): a 500 KB request is mostly results, and decoding them all up front would
	// allocate them all at once.
	result *lazyText
}

type lazyText struct {
	n    *node
	keep func(*node) bool
}

// callStep is a call with its result, to be decoded when run.
func callStep(cl call, res *node, keep func(*node) bool, failed bool, s *site) step {
	ev := loopguard.Call("", cl.Name, cl.Args)
	ev.HasResult, ev.Failed, ev.Turn = true, failed, cl.Turn
	return step{ev: ev, site: s, result: &lazyText{n: res, keep: keep}}
}

// siteMode says how notice text is put at a site.
type siteMode uint8

const (
	// appendString: the text is appended inside a JSON string, before its closing quote.
	appendString siteMode = iota + 1
	// addElement: a new element is added to a JSON array at offset (after the element that
	// ends there, or first in an empty array); elem renders it.
	addElement
)

type site struct {
	offset int
	mode   siteMode
	first  bool                     // addElement: the array is empty (no leading comma)
	elem   func(text string) []byte // addElement: the element's JSON

	firstStep int // the prefix cache's note of the first step with this site, plus one
}

// insertion is bytes to put at an offset of the original body.
type insertion struct {
	offset int
	data   []byte
}

// reminder wraps notice text the way agent harnesses mark text that is not the user's or the
// tool's own words. Every API gets the same wrapper so that a model reads one convention.
func reminder(notices []loopguard.Notice) string {
	var b strings.Builder
	b.WriteString("<system-reminder>\n")
	for i, n := range notices {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(n.Text)
	}
	b.WriteString("\n</system-reminder>")
	return b.String()
}

// jsonString encodes s as a JSON string without HTML escaping (the APIs read it either way;
// the plain form is what a person reading a dump expects).
func jsonString(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// due is the notices that fell due at one site.
type due struct {
	site    *site
	step    int // the first step with that site that carried notices (for the prefix cache)
	notices []loopguard.Notice
}

// run feeds the steps to eng as agent and returns the notices due at each site, in step order.
// Notices due after a step without a site wait for the next step that has one; notices after
// the last site are dropped, since there is no tool result left to carry them (the model only
// reads notices next to tool results: after a user turn the counters reset anyway).
func run(eng *loopguard.Engine, agent string, data []byte, steps []step) []due {
	out, _ := resume(eng, agent, data, steps, 0, nil, nil)
	return out
}

// resume is run from steps[from], with the agent's engine state and the notices planned and
// pending as a run of steps[:from] left them. It returns the notices planned and those still
// pending after the last step.
func resume(eng *loopguard.Engine, agent string, data []byte, steps []step, from int, out []due, pending []loopguard.Notice) ([]due, []loopguard.Notice) {
	var scratch []byte
	for i := from; i < len(steps); i++ {
		ev := steps[i].ev
		ev.Agent = agent
		if r := steps[i].result; r != nil {
			scratch = appendText(scratch[:0], data, r.n, r.keep)
			ev.Result = unsafe.String(unsafe.SliceData(scratch), len(scratch))
		}
		pending = eng.ObserveAppend(pending, ev)
		if steps[i].site == nil || len(pending) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].site == steps[i].site {
			out[n-1].notices = append(out[n-1].notices, pending...)
		} else {
			out = append(out, due{site: steps[i].site, step: i, notices: slices.Clone(pending)})
		}
		pending = pending[:0]
	}
	return out, pending
}

// insertions renders what is due into byte insertions, one per site.
func insertions(dues []due) []insertion {
	var ins []insertion
	for _, d := range dues {
		text := reminder(d.notices)
		switch d.site.mode {
		case appendString:
			enc := jsonString("\n\n" + text)
			ins = append(ins, insertion{offset: d.site.offset, data: enc[1 : len(enc)-1]})
		case addElement:
			el := d.site.elem(text)
			if !d.site.first {
				el = append([]byte{','}, el...)
			}
			ins = append(ins, insertion{offset: d.site.offset, data: el})
		}
	}
	return ins
}

// splice returns body with the insertions made; body itself is not modified. Insertions at the
// same offset keep their order.
func splice(body []byte, ins []insertion) []byte {
	if len(ins) == 0 {
		return body
	}
	slices.SortStableFunc(ins, func(a, b insertion) int { return a.offset - b.offset })
	n := len(body)
	for _, in := range ins {
		n += len(in.data)
	}
	out := make([]byte, 0, n)
	last := 0
	for _, in := range ins {
		out = append(out, body[last:in.offset]...)
		out = append(out, in.data...)
		last = in.offset
	}
	return append(out, body[last:]...)
}

// elementAfter is a site that adds an array element after the last of elems (or first in arr).
func elementAfter(arr *node, render func(string) []byte) *site {
	if len(arr.elems) == 0 {
		return &site{offset: arr.start + 1, mode: addElement, first: true, elem: render}
	}
	return &site{offset: arr.elems[len(arr.elems)-1].end, mode: addElement, elem: render}
}

// stringEnd is a site that appends to the string value n.
func stringEnd(n *node) *site { return &site{offset: n.end - 1, mode: appendString} }

// contentEnd is the site after a tool result's content n: the end of its text when it is a
// string, a new element rendered by render after its last part when it is a list, else none.
func contentEnd(n *node, render func(string) []byte) *site {
	switch {
	case n.isString():
		return stringEnd(n)
	case n.isArray():
		return elementAfter(n, render)
	}
	return nil
}

// appendText appends the text of a content value (as textOf gives it) to dst.
func appendText(dst, data []byte, n *node, keep func(part *node) bool) []byte {
	switch {
	case n.isString():
		return appendStringValue(dst, data, n)
	case n.isArray():
		first := true
		for _, p := range n.elems {
			if keep != nil && !keep(p) {
				continue
			}
			if t := p.get("text"); t.isString() {
				if !first {
					dst = append(dst, '\n')
				}
				first = false
				dst = appendStringValue(dst, data, t)
			}
		}
	}
	return dst
}

// textOf joins the text of a content value: a string, or an array of parts whose text lives in
// the member named by key (type filtering is left to the caller's keep, nil = all).
func textOf(data []byte, n *node, keep func(part *node) bool) string {
	switch {
	case n.isString():
		return stringValue(data, n)
	case n.isArray():
		var parts []string
		for _, p := range n.elems {
			if keep != nil && !keep(p) {
				continue
			}
			if t := p.get("text"); t.isString() {
				parts = append(parts, stringValue(data, t))
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

func modelText(text string) loopguard.Event {
	return loopguard.Event{Type: loopguard.EventText, Source: "model", Text: text}
}

func userTurn(text string) loopguard.Event {
	return loopguard.Event{Type: loopguard.EventUser, Text: text}
}

// call is a tool call waiting for its result.
type call struct {
	Name string `json:"name"`
	Args []byte `json:"args"`
	// Turn names the model message that made the call (its first call's id), the same for
	// its parallel calls (loopguard.Event.Turn).
	Turn string `json:"turn,omitempty"`
}
