// Package replay reads and writes loopguard's event format: JSON lines in, JSON lines out.
// The format is a public contract, described in docs/events.md.
//
// The reader is written by hand over the bytes, because replaying a long history from
// scratch must be cheap (the proxy will do it on every request): a line is scanned once,
// strings that repeat (agent ids, tool names) are interned, and the arguments are handed to
// the engine as a slice of the line, never decoded into maps.
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
	"github.com/loopguard/loopguard/internal/canon"
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
	i := skipSpace(line, 0)
	if i == len(line) {
		return false, nil
	}
	if line[i] != '{' {
		if _, err := skipValue(line, i); err != nil {
			return false, errors.New("not JSON: " + err.Error())
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
	i++
	for first := true; ; first = false {
		i = skipSpace(line, i)
		if i < len(line) && line[i] == '}' && first {
			i++
			break
		}
		if i >= len(line) || line[i] != '"' {
			return false, errors.New("not JSON: expected a field name")
		}
		key, _, end, err := scanString(line, i)
		if err != nil {
			return false, errors.New("not JSON: " + err.Error())
		}
		i = skipSpace(line, end)
		if i >= len(line) || line[i] != ':' {
			return false, errors.New("not JSON: expected ':' after a field name")
		}
		i = skipSpace(line, i+1)
		if i >= len(line) {
			return false, errors.New("not JSON: unexpected end of line")
		}
		vstart := i
		var vend int
		switch string(key) {
		case "type", "agent", "id", "source", "text", "tool":
			if line[vstart] != '"' {
				if string(key) == "tool" {
					toolNotString = true
				} else {
					return false, fmt.Errorf("%q must be a string", key)
				}
				if vend, err = skipValue(line, vstart); err != nil {
					return false, errors.New("not JSON: " + err.Error())
				}
				break
			}
			s, end, err := p.stringAt(line, vstart)
			if err != nil {
				return false, errors.New("not JSON: " + err.Error())
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
			}
		case "ts":
			if vend, err = skipValue(line, vstart); err != nil {
				return false, errors.New("not JSON: " + err.Error())
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
					return false, errors.New("not JSON: " + err.Error())
				}
				// A string stands for the raw, unparsed arguments a model sent.
				args, haveArgs, vend = s, true, end
				break
			}
			if vend, err = skipValue(line, vstart); err != nil {
				return false, errors.New("not JSON: " + err.Error())
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
			if vend, err = skipValue(line, vstart); err != nil {
				return false, errors.New("not JSON: " + err.Error())
			}
		default:
			if vend, err = skipValue(line, vstart); err != nil {
				return false, errors.New("not JSON: " + err.Error())
			}
		}
		i = skipSpace(line, vend)
		if i < len(line) && line[i] == ',' {
			i++
			continue
		}
		if i < len(line) && line[i] == '}' {
			i++
			break
		}
		return false, errors.New("not JSON: expected ',' or '}'")
	}
	if j := skipSpace(line, i); j != len(line) {
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
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		key, _, end, err := scanString(b, i)
		if err != nil {
			return 0, errors.New("not JSON: " + err.Error())
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return 0, errors.New("not JSON: expected ':' after a field name")
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return 0, errors.New("not JSON: unexpected end of line")
		}
		var vend int
		if string(key) == "text" {
			if b[i] != '"' {
				return 0, errors.New(`"result.text" must be a string`)
			}
			s, end, err := p.stringAt(b, i)
			if err != nil {
				return 0, errors.New("not JSON: " + err.Error())
			}
			r.text, vend = s, end
		} else {
			if vend, err = skipValue(b, i); err != nil {
				return 0, errors.New("not JSON: " + err.Error())
			}
			if string(key) == "error" {
				r.failed = string(b[i:vend]) == "true"
			}
		}
		i = skipSpace(b, vend)
		if i < len(b) && b[i] == '}' {
			return i + 1, nil
		}
		if i >= len(b) || b[i] != ',' {
			return 0, errors.New("not JSON: expected ',' or '}'")
		}
		i = skipSpace(b, i+1)
	}
}

// stringAt returns the unescaped contents of the string at b[i] and the index after it. The
// slice aliases b when the string needs no decoding, else it is a fresh copy.
func (p *Parser) stringAt(b []byte, i int) ([]byte, int, error) {
	raw, escaped, end, err := scanString(b, i)
	if err != nil {
		return nil, 0, err
	}
	if !escaped && utf8.Valid(raw) {
		return raw, end, nil
	}
	p.scratch = canon.AppendUnescaped(p.scratch[:0], raw)
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

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// stringStop marks the bytes that end a run of plain string content: the quote, the
// backslash and control characters.
var stringStop = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// scanString checks the string starting at b[i] (a quote) and returns its raw contents
// (between the quotes), whether it holds escapes, and the index after the closing quote.
func scanString(b []byte, i int) (raw []byte, escaped bool, end int, err error) {
	if i >= len(b) || b[i] != '"' {
		return nil, false, 0, errors.New("expected a string")
	}
	start := i + 1
	j := start
	for {
		for j < len(b) && !stringStop[b[j]] {
			j++
		}
		if j >= len(b) {
			return nil, false, 0, errors.New("unterminated string")
		}
		switch c := b[j]; {
		case c == '"':
			return b[start:j], escaped, j + 1, nil
		case c == '\\':
			escaped = true
			j++
			if j >= len(b) {
				return nil, false, 0, errors.New("unterminated string")
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j++
			case 'u':
				if j+4 >= len(b) || !isHex(b[j+1]) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) {
					return nil, false, 0, errors.New("bad \\u escape in a string")
				}
				j += 5
			default:
				return nil, false, 0, errors.New("bad escape in a string")
			}
		default:
			return nil, false, 0, errors.New("control character in a string")
		}
	}
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

// skipValue checks the JSON value starting at b[i] and returns the index after it. Nesting is
// tracked with a counter per level kind on an explicit stack, so deep input cannot overflow
// the goroutine stack.
func skipValue(b []byte, i int) (int, error) {
	var stack []byte // '{' or '[' per open level
	var small [32]byte
	stack = small[:0]
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, errors.New("unexpected end of line")
		}
		// A value.
		switch c := b[i]; {
		case c == '{':
			stack = append(stack, '{')
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == '}' {
				i++
				stack = stack[:len(stack)-1]
				break
			}
			// Expect a key then ':'.
			_, _, end, err := scanString(b, i)
			if err != nil {
				return 0, errors.New("expected a field name")
			}
			i = skipSpace(b, end)
			if i >= len(b) || b[i] != ':' {
				return 0, errors.New("expected ':'")
			}
			i++
			continue
		case c == '[':
			stack = append(stack, '[')
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == ']' {
				i++
				stack = stack[:len(stack)-1]
				break
			}
			continue
		case c == '"':
			_, _, end, err := scanString(b, i)
			if err != nil {
				return 0, err
			}
			i = end
		case c == 't':
			if !hasWord(b, i, "true") {
				return 0, errors.New("invalid literal")
			}
			i += 4
		case c == 'f':
			if !hasWord(b, i, "false") {
				return 0, errors.New("invalid literal")
			}
			i += 5
		case c == 'n':
			if !hasWord(b, i, "null") {
				return 0, errors.New("invalid literal")
			}
			i += 4
		case c == '-' || ('0' <= c && c <= '9'):
			end, err := scanNumber(b, i)
			if err != nil {
				return 0, err
			}
			i = end
		default:
			return 0, fmt.Errorf("unexpected character %q", c)
		}
		// After a value: close containers or move to the next element.
		for {
			if len(stack) == 0 {
				return i, nil
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return 0, errors.New("unexpected end of line")
			}
			top := stack[len(stack)-1]
			if b[i] == ',' {
				i = skipSpace(b, i+1)
				if top == '{' {
					_, _, end, err := scanString(b, i)
					if err != nil {
						return 0, errors.New("expected a field name")
					}
					i = skipSpace(b, end)
					if i >= len(b) || b[i] != ':' {
						return 0, errors.New("expected ':'")
					}
					i++
				}
				break
			}
			if (top == '{' && b[i] == '}') || (top == '[' && b[i] == ']') {
				i++
				stack = stack[:len(stack)-1]
				continue
			}
			return 0, errors.New("expected ',' or a closing bracket")
		}
	}
}

func hasWord(b []byte, i int, w string) bool {
	return len(b)-i >= len(w) && string(b[i:i+len(w)]) == w
}

func scanNumber(b []byte, i int) (int, error) {
	start := i
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	default:
		return 0, errors.New("invalid number")
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		if i == d {
			return 0, errors.New("invalid number")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		if i == d {
			return 0, errors.New("invalid number")
		}
	}
	_ = start
	return i, nil
}
