package transcript

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/loopguard/loopguard"
)

// loopguard's own events JSONL (docs/events.md), one engine event a line:
//
//	{"type":"call","agent":"a1","tool":"probe","args":{...},"result":{"error":false,"text":"..."}}
//	{"type":"user","agent":"a1"}
//	{"type":"text","agent":"a1","id":"m1","source":"s","text":"...","ts":1700000000000}
//	{"type":"end","agent":"a1"}
//
// This reader follows the contract that `loopguard replay` implements (internal/replay), so
// that scan and replay see the same events: args are the value's bytes as written, or the
// content of a JSON string (raw arguments); an event without ts takes the previous event's;
// user, text and end events without an agent are ignored; a result that is not an object is
// no result, and an "error" that is not a boolean is false. A malformed line (not an object,
// no or an unknown type, a call without a string tool, a non-string agent, id, source, text or
// result.text, a non-numeric ts) fails the file with its line. Agents are keyed by the agent
// field (calls with no agent go to an agent with an empty id); an "end" stays in its agent's
// list, as the engine expects it.

type evLine struct {
	typ, agent, tool, id, source, text string
	haveType, haveTool, haveTS         bool
	ts                                 float64
	args                               []byte
	result                             *evResult
}

type evResult struct {
	failed bool
	text   string
}

func (l *evLine) member(w *walker) memberFunc {
	str := func(field string, v int, dst *string) (int, error) {
		if w.data[v] != '"' {
			return v, fmt.Errorf("%q must be a string", field)
		}
		return w.str(v, dst)
	}
	return func(key []byte, v int) (int, error) {
		switch k := string(key); k {
		case "type":
			l.haveType = true
			return str(k, v, &l.typ)
		case "agent":
			return str(k, v, &l.agent)
		case "id":
			return str(k, v, &l.id)
		case "source":
			return str(k, v, &l.source)
		case "text":
			return str(k, v, &l.text)
		case "tool":
			if w.data[v] != '"' {
				return w.skip(v) // checked below: a call needs a string tool
			}
			l.haveTool = true
			return w.str(v, &l.tool)
		case "ts":
			end, err := w.skip(v)
			if err != nil {
				return v, err
			}
			c := w.data[v]
			if c != '-' && (c < '0' || c > '9') {
				return v, errors.New(`"ts" must be a number`)
			}
			f, err := strconv.ParseFloat(string(w.data[v:end]), 64)
			if (err != nil && !errors.Is(err, strconv.ErrRange)) || math.IsInf(f, 0) || math.Abs(f) > 1<<62 {
				return v, errors.New(`"ts" is out of range`)
			}
			l.ts, l.haveTS = f, true
			return end, nil
		case "args":
			if w.data[v] == '"' {
				var s string
				end, err := w.str(v, &s)
				l.args = []byte(s)
				return end, err
			}
			end, err := w.skip(v)
			l.args = append([]byte(nil), w.data[v:end]...)
			return end, err
		case "result":
			if w.data[v] != '{' {
				l.result = nil
				return w.skip(v)
			}
			r := &evResult{}
			l.result = r
			return w.object(v, func(key []byte, v int) (int, error) {
				switch string(key) {
				case "text":
					if w.data[v] != '"' {
						return v, errors.New(`"result.text" must be a string`)
					}
					return w.str(v, &r.text)
				case "error":
					r.failed = w.data[v] == 't'
				}
				return w.skip(v)
			})
		}
		return w.skip(v)
	}
}

func readEvents(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatEvents)
	var last int64
	err := eachLine(name, br, func(line []byte) error {
		var l evLine
		if line[0] != '{' {
			return errors.New("an event must be a JSON object")
		}
		w := &walker{data: line}
		end, err := w.object(0, l.member(w))
		if err == nil {
			err = w.end(end)
		}
		if err != nil {
			return err
		}
		if !l.haveType {
			return errors.New(`missing "type"`)
		}
		if l.haveTS {
			last = int64(l.ts)
		}
		e := loopguard.Event{Time: last}
		switch l.typ {
		case "call":
			if !l.haveTool {
				return errors.New(`a call needs a string "tool"`)
			}
			e.Type, e.Tool, e.Source = loopguard.EventCall, l.tool, l.source
			if len(l.args) > 0 {
				e.Args = l.args
			}
			if l.result != nil {
				e = e.WithResult(l.result.text, l.result.failed)
			}
		case "user":
			e.Type, e.Source, e.Text = loopguard.EventUser, l.source, l.text
		case "text":
			e.Type, e.ID, e.Source, e.Text = loopguard.EventText, l.id, l.source, l.text
		case "end":
			e.Type = loopguard.EventEnd
		default:
			return fmt.Errorf(`unknown "type" %q (want call, user, text or end)`, l.typ)
		}
		if l.agent == "" && e.Type != loopguard.EventCall {
			return nil // ignored, as replay does
		}
		b.agent(l.agent).add(e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b.done(), nil
}
