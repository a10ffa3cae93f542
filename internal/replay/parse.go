// Package replay reads and writes loopguard's event format: JSON lines in, JSON lines out.
// The format is a public contract, described in docs/events.md.
//
// The reader is written by hand over the bytes, because replaying a long history from
// scratch must be cheap (the proxy will do it on every request): a line is scanned once,
// strings that repeat (agent ids, tool names) are interned, and the arguments are handed to
// the engine as a slice of the line, never decoded into maps. The scanning is jsonscan's,
// under its Strict policy (a line is JSON exactly when encoding/json says so), and without a
// depth limit: arguments nested deeper than encoding/json allows are still one event, whose
// arguments canon then compares as raw text.
package replay

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/jsonscan"
)

// Parser turns event lines into engine events. It keeps the last timestamp (an event without
// "ts" takes the previous event's) and a table of interned strings. Not safe for concurrent use.
type Parser struct {
	lastTime int64
	intern   map[string]string
	scratch  []byte
}

// NewParser returns a parser at the start of a stream.
func NewParser() *Parser { return &Parser{intern: make(map[string]string)} }

// Parse reads one line into ev. A blank line gives ok=false and no error.
//
// The event's Args, ID, Text and Result may share memory with line: use the event before the
// line's buffer is reused, or copy them. (The engine keeps none of them, so replay hands each
// event to it directly and saves an allocation per field.)
func (p *Parser) Parse(line []byte, ev *loopguard.Event) (ok bool, err error) {
	*ev = loopguard.Event{}
	i := jsonscan.SkipSpace(line, 0)
	if i == len(line) {
		return false, nil
	}
	if line[i] != '{' {
		if _, err := jsonscan.Skip(line, i, jsonscan.Strict, 0); err != nil {
			return false, notJSON(err)
		}
		return false, errors.New("an event must be a JSON object")
	}
	var (
		typ, tool, args    []byte
		haveType, haveTool bool
		toolNotString      bool
		haveTime, haveArgs bool
		ts                 float64
		res                resultFields
		haveResult         bool
	)
	i, more, err := jsonscan.Open(line, i)
	for ; more; i, more, err = jsonscan.Next(line, i, '}') {
		// Keys are compared as written: a key spelled with escapes is not one of ours.
		key, _, vstart, err := jsonscan.Key(line, i, jsonscan.Strict)
		if err != nil {
			return false, notJSON(err)
		}
		var vend int
		switch string(key) {
		case "type", "agent", "id", "source", "text", "tool", "turn":
			if line[vstart] != '"' {
				if string(key) == "tool" {
					toolNotString = true
				} else {
					return false, fmt.Errorf("%q must be a string", key)
				}
				if vend, err = jsonscan.Skip(line, vstart, jsonscan.Strict, 0); err != nil {
					return false, notJSON(err)
				}
				break
			}
			s, end, err := p.stringAt(line, vstart)
			if err != nil {
				return false, notJSON(err)
			}
			vend = end
			switch string(key) {
			case "type":
				typ, haveType = s, true
			case "agent":
				ev.Agent = p.internBytes(s)
			case "id":
				ev.ID = alias(s)
			case "source":
				ev.Source = p.internBytes(s)
			case "text":
				ev.Text = alias(s)
			case "tool":
				tool, haveTool, toolNotString = s, true, false
				ev.Tool = p.internBytes(tool)
			case "turn":
				ev.Turn = alias(s)
			}
		case "ts":
			if vend, err = jsonscan.Skip(line, vstart, jsonscan.Strict, 0); err != nil {
				return false, notJSON(err)
			}
			if line[vstart] != '-' && (line[vstart] < '0' || line[vstart] > '9') {
				return false, errors.New(`"ts" must be a number`)
			}
			f, err := strconv.ParseFloat(string(line[vstart:vend]), 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return false, errors.New(`"ts" must be a number`)
			}
			if math.IsInf(f, 0) || math.Abs(f) > 1<<62 {
				return false, errors.New(`"ts" is out of range`)
			}
			ts, haveTime = f, true
		case "args":
			if line[vstart] == '"' {
				s, end, err := p.stringAt(line, vstart)
				if err != nil {
					return false, notJSON(err)
				}
				// A string stands for the raw, unparsed arguments a model sent.
				args, haveArgs, vend = s, true, end
				break
			}
			if vend, err = jsonscan.Skip(line, vstart, jsonscan.Strict, 0); err != nil {
				return false, notJSON(err)
			}
			args, haveArgs = line[vstart:vend], true
		case "result":
			if line[vstart] == '{' {
				if vend, err = p.result(line, vstart, &res); err != nil {
					return false, err
				}
				haveResult = true
				break
			}
			haveResult = false
			if vend, err = jsonscan.Skip(line, vstart, jsonscan.Strict, 0); err != nil {
				return false, notJSON(err)
			}
		default:
			if vend, err = jsonscan.Skip(line, vstart, jsonscan.Strict, 0); err != nil {
				return false, notJSON(err)
			}
		}
		i = vend
	}
	if err != nil {
		return false, notJSON(err)
	}
	if j := jsonscan.SkipSpace(line, i); j != len(line) {
		return false, errors.New("not JSON: text after the event object")
	}
	if !haveType {
		return false, errors.New(`missing "type"`)
	}
	switch string(typ) {
	case "call":
		ev.Type = loopguard.EventCall
		if !haveTool || toolNotString {
			return false, errors.New(`a call needs a string "tool"`)
		}
	case "user":
		ev.Type = loopguard.EventUser
	case "text":
		ev.Type = loopguard.EventText
	case "end":
		ev.Type = loopguard.EventEnd
	default:
		return false, fmt.Errorf(`unknown "type" %q (want call, user, text or end)`, typ)
	}
	if haveTime {
		p.lastTime = int64(ts)
	}
	ev.Time = p.lastTime
	if ev.Type != loopguard.EventCall {
		ev.Tool = ""
		return true, nil
	}
	if haveArgs {
		ev.Args = args
	}
	if haveResult {
		ev.HasResult, ev.Failed = true, res.failed
		ev.Result = alias(res.text)
	}
	return true, nil
}

type resultFields struct {
	failed bool
	text   []byte
}

// result reads {"error": bool, "text": string} starting at b[i] and returns the index after
// it. Other fields are ignored, as on events; an "error" that is not a boolean counts as false.
func (p *Parser) result(b []byte, i int, r *resultFields) (int, error) {
	*r = resultFields{}
	i, more, err := jsonscan.Open(b, i)
	for ; more; i, more, err = jsonscan.Next(b, i, '}') {
		key, _, v, err := jsonscan.Key(b, i, jsonscan.Strict)
		if err != nil {
			return 0, notJSON(err)
		}
		if string(key) == "text" {
			if b[v] != '"' {
				return 0, errors.New(`"result.text" must be a string`)
			}
			if r.text, i, err = p.stringAt(b, v); err != nil {
				return 0, notJSON(err)
			}
			continue
		}
		if i, err = jsonscan.Skip(b, v, jsonscan.Strict, 0); err != nil {
			return 0, notJSON(err)
		}
		if string(key) == "error" {
			r.failed = string(b[v:i]) == "true"
		}
	}
	if err != nil {
		return 0, notJSON(err)
	}
	return i, nil
}

// notJSON is the error for a line that is not JSON, as the replay command reports it.
func notJSON(err error) error { return errors.New("not JSON: " + err.Error()) }

// stringAt returns the unescaped contents of the string at b[i] and the index after it. The
// slice aliases b when the string needs no decoding, else it is a fresh copy.
func (p *Parser) stringAt(b []byte, i int) ([]byte, int, error) {
	end, f, err := jsonscan.String(b, i, jsonscan.Strict)
	if err != nil {
		return nil, 0, err
	}
	raw := b[i+1 : end-1]
	if f&jsonscan.Escaped == 0 && (f&jsonscan.NonASCII == 0 || utf8.Valid(raw)) {
		return raw, end, nil
	}
	p.scratch, _ = jsonscan.AppendUnescaped(p.scratch[:0], raw, jsonscan.Strict)
	return bytes.Clone(p.scratch), end, nil
}

// alias returns b as a string without copying. The caller promises not to change b while the
// string is in use; see Parse.
func alias(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// internBytes returns a string equal to b, shared with earlier equal strings: agent ids and
// tool names repeat on almost every line, and this saves an allocation per field.
func (p *Parser) internBytes(b []byte) string {
	if s, ok := p.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(p.intern) < 1<<16 {
		p.intern[s] = s
	}
	return s
}
