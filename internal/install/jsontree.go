package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A settings file is edited as an ordered tree: objects keep their members in
// file order (duplicates too), and every scalar and every key keeps its exact
// source text (escapes, number spelling). Only whitespace changes when the tree
// is written back, with 2-space indentation.

type jkind byte

const (
	jScalar jkind = iota // string, number, true, false, null: raw holds the token
	jObject
	jArray
)

type jvalue struct {
	kind    jkind
	raw     []byte    // jScalar
	members []jmember // jObject
	items   []*jvalue // jArray
}

type jmember struct {
	rawKey []byte // the key token as written, quotes included
	key    string // decoded
	val    *jvalue
}

// parseJSON parses a settings document. name is used in errors, which give the
// line and column. An empty (or all-whitespace) document is an empty object.
func parseJSON(name string, data []byte) (*jvalue, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return &jvalue{kind: jObject}, nil
	}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		data = data[3:] // a UTF-8 byte order mark: dropped, as JSON.parse hosts would choke on it anyway
	}
	if !json.Valid(data) {
		var probe any
		err := json.Unmarshal(data, &probe) // checks the syntax first: a SyntaxError with its offset
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, jsonError(name, data, err)
	}
	p := &jparser{data: data}
	v := p.value()
	return v, nil
}

// jsonError names the file, line and column of a syntax error.
func jsonError(name string, data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// encoding/json's offset is just past the offending byte, or the
		// length of the input when it ended too early.
		at := int(se.Offset) - 1
		if se.Offset >= int64(len(data)) && strings.Contains(se.Error(), "end of JSON input") {
			at = len(data)
		}
		line, col := lineCol(data, at)
		hint := ""
		if bytes.Contains(data, []byte("//")) || bytes.Contains(data, []byte("/*")) {
			hint = " (comments and trailing commas are not JSON; loopguard does not rewrite such files: remove them, or add the hooks by hand)"
		}
		return fmt.Errorf("%s:%d:%d: not valid JSON: %v%s", name, line, col, se, hint)
	}
	return fmt.Errorf("%s: not valid JSON: %v", name, err)
}

// lineCol turns the offset of a byte into a 1-based line and column.
func lineCol(data []byte, offset int) (line, col int) {
	offset = min(max(offset, 0), len(data))
	before := data[:offset]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = offset - bytes.LastIndexByte(before, '\n')
	return line, col
}

// jparser parses JSON already known to be valid.
type jparser struct {
	data []byte
	pos  int
}

func (p *jparser) ws() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jparser) value() *jvalue {
	p.ws()
	switch p.data[p.pos] {
	case '{':
		p.pos++
		v := &jvalue{kind: jObject}
		for {
			p.ws()
			if p.data[p.pos] == '}' {
				p.pos++
				return v
			}
			if p.data[p.pos] == ',' {
				p.pos++
				continue
			}
			raw := p.str()
			var key string
			_ = json.Unmarshal(raw, &key)
			p.ws()
			p.pos++ // ':'
			v.members = append(v.members, jmember{rawKey: raw, key: key, val: p.value()})
		}
	case '[':
		p.pos++
		v := &jvalue{kind: jArray}
		for {
			p.ws()
			if p.data[p.pos] == ']' {
				p.pos++
				return v
			}
			if p.data[p.pos] == ',' {
				p.pos++
				continue
			}
			v.items = append(v.items, p.value())
		}
	case '"':
		return &jvalue{kind: jScalar, raw: p.str()}
	default:
		start := p.pos
		for p.pos < len(p.data) {
			switch p.data[p.pos] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return &jvalue{kind: jScalar, raw: p.data[start:p.pos]}
			}
			p.pos++
		}
		return &jvalue{kind: jScalar, raw: p.data[start:p.pos]}
	}
}

// str returns a string token, quotes included.
func (p *jparser) str() []byte {
	start := p.pos
	p.pos++
	for p.data[p.pos] != '"' {
		if p.data[p.pos] == '\\' {
			p.pos++
		}
		p.pos++
	}
	p.pos++
	return p.data[start:p.pos]
}

// compact writes v without whitespace.
func (v *jvalue) compact(b *bytes.Buffer) {
	switch v.kind {
	case jScalar:
		b.Write(v.raw)
	case jObject:
		b.WriteByte('{')
		for i, m := range v.members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(m.rawKey)
			b.WriteByte(':')
			m.val.compact(b)
		}
		b.WriteByte('}')
	case jArray:
		b.WriteByte('[')
		for i, it := range v.items {
			if i > 0 {
				b.WriteByte(',')
			}
			it.compact(b)
		}
		b.WriteByte(']')
	}
}

func (v *jvalue) compactString() string {
	var b bytes.Buffer
	v.compact(&b)
	return b.String()
}

// format returns the document with 2-space indentation and a final newline.
func (v *jvalue) format() []byte {
	var c, out bytes.Buffer
	v.compact(&c)
	if err := json.Indent(&out, c.Bytes(), "", "  "); err != nil {
		panic(err) // built from valid JSON
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// get returns the value of the first member named key, or nil.
func (v *jvalue) get(key string) *jvalue {
	if v == nil || v.kind != jObject {
		return nil
	}
	for _, m := range v.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// count returns how many members are named key.
func (v *jvalue) count(key string) int {
	n := 0
	for _, m := range v.members {
		if m.key == key {
			n++
		}
	}
	return n
}

// set replaces the first member named key, or appends one.
func (v *jvalue) set(key string, val *jvalue) {
	for i, m := range v.members {
		if m.key == key {
			v.members[i].val = val
			return
		}
	}
	v.members = append(v.members, jmember{rawKey: jsonString(key), key: key, val: val})
}

// del removes every member named key.
func (v *jvalue) del(key string) {
	out := v.members[:0]
	for _, m := range v.members {
		if m.key != key {
			out = append(out, m)
		}
	}
	v.members = out
}

// str returns the decoded string value, ok=false when v is not a string.
func (v *jvalue) str() (string, bool) {
	if v == nil || v.kind != jScalar || len(v.raw) == 0 || v.raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(v.raw, &s) != nil {
		return "", false
	}
	return s, true
}

// jsonString encodes s as a JSON string token, without HTML escaping.
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func jstr(s string) *jvalue { return &jvalue{kind: jScalar, raw: jsonString(s)} }

func jint(n int) *jvalue { return &jvalue{kind: jScalar, raw: fmt.Appendf(nil, "%d", n)} }
