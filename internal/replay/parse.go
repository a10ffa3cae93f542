// Package replay reads and writes loopguard's event format: JSON lines in, JSON lines out.
// The format is a public contract, described in docs/events.md.
//
// The reader is written by hand over the bytes, because replaying a long history from
// scratch must be cheap (the proxy will do it on every request): a line is scanned once,
// strings that repeat (agent ids, tool names) are interned, and the arguments are handed to
// the engine as a slice of the line, never decoded into maps.
package replay

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/loopguard/loopguard"
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

// Parse reads one line into ev. A blank line gives ok=false and no error. The event's Args
// may point into line: use ev before reusing the line's buffer.
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
		typ, tool              []byte
		haveType, haveTool     bool
		toolNotString          bool
		haveTime               bool
		ts                     float64
		argsStart, argsEnd     = -1, -1
		argsIsString           bool
		resultStart, resultEnd = -1, -1
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
		vstart := i
		vend, err := skipValue(line, i)
		if err != nil {
			return false, errors.New("not JSON: " + err.Error())
		}
		switch string(key) {
		case "type":
			s, ok, err := p.stringValue(line, vstart)
			if err != nil || !ok {
				return false, errors.New(`"type" must be a string`)
			}
			typ, haveType = s, true
		case "agent", "id", "source", "text":
			s, ok, err := p.stringValue(line, vstart)
			if err != nil || !ok {
				return false, fmt.Errorf("%q must be a string", key)
			}
			switch string(key) {
			case "agent":
				ev.Agent = p.internBytes(s)
			case "id":
				ev.ID = string(s)
			case "source":
				ev.Source = p.internBytes(s)
			case "text":
				ev.Text = string(s)
			}
		case "tool":
			s, ok, err := p.stringValue(line, vstart)
			if err != nil || !ok {
				toolNotString = true
				break
			}
			tool, haveTool = s, true
			ev.Tool = p.internBytes(tool)
		case "ts":
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
			argsStart, argsEnd, argsIsString = vstart, vend, line[vstart] == '"'
		case "result":
			resultStart, resultEnd = vstart, vend
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
	if argsStart >= 0 {
		if argsIsString {
			// A string stands for the raw, unparsed arguments a model sent.
			s, _, err := p.stringValue(line, argsStart)
			if err != nil {
				return false, err
			}
			ev.Args = s
		} else {
			ev.Args = line[argsStart:argsEnd]
		}
	} else {
		ev.Args = nil // missing args are {}
	}
	if resultStart >= 0 && line[resultStart] == '{' {
		if err := p.result(line[resultStart:resultEnd], ev); err != nil {
			return false, err
		}
	}
	return true, nil
}

// result reads {"error": bool, "text": string}. Other fields are ignored, as on events.
func (p *Parser) result(b []byte, ev *loopguard.Event) error {
	ev.HasResult = true
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == '}' {
		return nil
	}
	for {
		i = skipSpace(b, i)
		key, _, end, err := scanString(b, i)
		if err != nil {
			return err
		}
		i = skipSpace(b, end) + 1 // the ':' was checked by skipValue
		i = skipSpace(b, i)
		vend, _ := skipValue(b, i)
		switch string(key) {
		case "error":
			ev.Failed = string(b[i:vend]) == "true"
		case "text":
			s, ok, err := p.stringValue(b, i)
			if err != nil || !ok {
				return errors.New(`"result.text" must be a string`)
			}
			ev.Result = string(s)
		}
		i = skipSpace(b, vend)
		if b[i] == '}' {
			return nil
		}
		i++ // ','
	}
}

// stringValue returns the unescaped contents of the string at b[i], or ok=false when the value
// there is not a string. The slice may alias b or the parser's scratch buffer.
func (p *Parser) stringValue(b []byte, i int) ([]byte, bool, error) {
	if b[i] != '"' {
		return nil, false, nil
	}
	raw, escaped, _, err := scanString(b, i)
	if err != nil {
		return nil, false, err
	}
	if !escaped && utf8.Valid(raw) {
		return raw, true, nil
	}
	p.scratch = appendUnescaped(p.scratch[:0], raw)
	out := make([]byte, len(p.scratch))
	copy(out, p.scratch)
	return out, true, nil
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

// scanString checks the string starting at b[i] (a quote) and returns its raw contents
// (between the quotes), whether it holds escapes, and the index after the closing quote.
func scanString(b []byte, i int) (raw []byte, escaped bool, end int, err error) {
	if i >= len(b) || b[i] != '"' {
		return nil, false, 0, errors.New("expected a string")
	}
	start := i + 1
	for j := start; j < len(b); j++ {
		c := b[j]
		switch {
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
			case 'u':
				if j+4 >= len(b) || !isHex(b[j+1]) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) {
					return nil, false, 0, errors.New("bad \\u escape in a string")
				}
				j += 4
			default:
				return nil, false, 0, errors.New("bad escape in a string")
			}
		case c < 0x20:
			return nil, false, 0, errors.New("control character in a string")
		}
	}
	return nil, false, 0, errors.New("unterminated string")
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

func hexVal(c byte) rune {
	switch {
	case c <= '9':
		return rune(c - '0')
	case c >= 'a':
		return rune(c - 'a' + 10)
	}
	return rune(c - 'A' + 10)
}

// appendUnescaped decodes a checked string body. Lone surrogates and each byte of invalid
// UTF-8 become U+FFFD, as in encoding/json.
func appendUnescaped(dst, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, raw[i:i+size]...)
			}
			i += size - 1
			continue
		}
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hexVal(raw[i+1])<<12 | hexVal(raw[i+2])<<8 | hexVal(raw[i+3])<<4 | hexVal(raw[i+4])
			i += 4
			if utf16.IsSurrogate(r) {
				if i+6 < len(raw)+0 && raw[i+1] == '\\' && raw[i+2] == 'u' {
					r2 := hexVal(raw[i+3])<<12 | hexVal(raw[i+4])<<8 | hexVal(raw[i+5])<<4 | hexVal(raw[i+6])
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						dst = utf8.AppendRune(dst, dec)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, raw[i])
		}
	}
	return dst
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
