package proxy

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// The request parsers need two things encoding/json does not give: the byte offsets of values in
// the client's body (notices are spliced into those bytes, never re-encoded, so that the body
// stays byte-identical from turn to turn and the provider's prompt cache keeps working), and a
// hard bound on nesting for hostile input. node is a parsed JSON value that remembers where it
// lies in the original bytes; strings are decoded only when a parser asks for them.

type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

// node is one JSON value: data[start:end] is its text in the original body.
type node struct {
	kind       kind
	start, end int
	members    []member // kObject, in document order
	elems      []*node  // kArray
	escaped    bool     // kString: holds a backslash escape (decode needed)
}

type member struct {
	key string
	val *node
}

// maxDepth bounds nesting: real requests nest a dozen levels; a body nested deeper is not a
// request this proxy understands, and is forwarded untouched.
const maxDepth = 256

var errDepth = errors.New("JSON nested too deeply")

// parseJSON parses a whole JSON document. Errors carry the byte offset of the problem.
func parseJSON(data []byte) (*node, error) { return parseJSONKeeping(data, nil) }

// parseJSONKeeping parses a document whose top-level members other than those keep accepts
// are only skipped over (their node has its place but no children): a request's tool list and
// system prompt, often most of its bytes, are never read.
func parseJSONKeeping(data []byte, keep func(key string) bool) (*node, error) {
	return parseInto(data, keep, &nodeArena{})
}

// parseInto is parseJSONKeeping with the nodes taken from a.
func parseInto(data []byte, keep func(key string) bool, a *nodeArena) (*node, error) {
	p := jparser{data: data, keep: keep, arena: a}
	p.ws()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.data) {
		return nil, p.errf("data after the top-level value")
	}
	return n, nil
}

type jparser struct {
	data  []byte
	i     int
	arena *nodeArena
	keep  func(key string) bool
}

func (p *jparser) newNode(k kind, start int) *node {
	n := p.arena.next()
	n.kind, n.start = k, start
	return n
}

// nodeArena hands out nodes carved from blocks, one allocation per block rather than per value.
// A request's tree is garbage as soon as its steps have run, and the next request's tree has
// much the same shape, so arenas are pooled and reused whole: their nodes keep the capacity of
// their member and element lists, which a 500 KB request would otherwise grow again, value by
// value.
//
// A node is reset when it is handed out again, not when its arena is released: clearing every
// list at release costs a pass of write barriers over the whole tree, and the stale entries are
// never read (a reused list starts empty). Until then they may keep the last request's body
// from being collected; bodies over maxPooledBody are not parsed into pooled arenas (see
// parse), so what a pooled arena can pin is at most one body of that size.
type nodeArena struct {
	blocks [][]node
	block  int // the block next() takes from
	used   int // nodes taken from blocks[block]
}

const arenaBlock = 256

func (a *nodeArena) next() *node {
	if a.block == len(a.blocks) {
		a.blocks = append(a.blocks, make([]node, arenaBlock))
	}
	n := &a.blocks[a.block][a.used]
	if a.used++; a.used == arenaBlock {
		a.block, a.used = a.block+1, 0
	}
	n.end, n.escaped = 0, false
	if len(n.members) > 0 {
		n.members = n.members[:0]
	}
	if len(n.elems) > 0 {
		n.elems = n.elems[:0]
	}
	return n
}

// arenas recycles nodeArenas between requests.
var arenas = sync.Pool{New: func() any { return &nodeArena{} }}

// maxPooledNodes: an arena that grew past this is left to the garbage collector rather than
// kept for requests that rarely need that much.
const maxPooledNodes = 1 << 16

// release returns the arena to the pool. Nothing of its tree may be used afterwards.
func (a *nodeArena) release() {
	if len(a.blocks)*arenaBlock > maxPooledNodes {
		return
	}
	a.reset()
	arenas.Put(a)
}

// reset makes every node available again.
func (a *nodeArena) reset() { a.block, a.used = 0, 0 }

func (p *jparser) errf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *jparser) ws() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jparser) value(depth int) (*node, error) {
	if depth > maxDepth {
		return nil, errDepth
	}
	if p.i >= len(p.data) {
		return nil, p.errf("unexpected end of input")
	}
	switch c := p.data[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == 't':
		return p.literal("true", kBool)
	case c == 'f':
		return p.literal("false", kBool)
	case c == 'n':
		return p.literal("null", kNull)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		return nil, p.errf("unexpected character %q", c)
	}
}

func (p *jparser) literal(lit string, k kind) (*node, error) {
	if len(p.data)-p.i < len(lit) || string(p.data[p.i:p.i+len(lit)]) != lit {
		return nil, p.errf("invalid literal")
	}
	n := p.newNode(k, p.i)
	n.end = p.i + len(lit)
	p.i += len(lit)
	return n, nil
}

func (p *jparser) number() (*node, error) {
	start := p.i
	if p.data[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		s := p.i
		for p.i < len(p.data) && p.data[p.i] >= '0' && p.data[p.i] <= '9' {
			p.i++
		}
		return p.i - s
	}
	if p.i < len(p.data) && p.data[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, p.errf("invalid number")
	}
	if p.i < len(p.data) && p.data[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, p.errf("invalid number")
		}
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		p.i++
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.errf("invalid number")
		}
	}
	n := p.newNode(kNumber, start)
	n.end = p.i
	return n, nil
}

func (p *jparser) str() (*node, error) {
	// The closing quote is found with bytes.IndexByte (vectorised); a quote is escaped when an
	// odd number of backslashes runs right before it. Whether the string needs decoding at all
	// is one more IndexByte, which stops at the first backslash: tool results escape a newline
	// every line, and looking at each escape in turn cost a call per line. Control characters
	// and invalid UTF-8 are not refused: encoding/json decodes the latter, and a body with the
	// former goes upstream as the client sent it, to be refused there if at all.
	start := p.i
	n := p.newNode(kString, start)
	i := start + 1
	for {
		q := bytes.IndexByte(p.data[i:], '"')
		if q < 0 {
			p.i = len(p.data)
			return nil, p.errf("unterminated string")
		}
		q += i
		k := q
		for k > start+1 && p.data[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 1 {
			i = q + 1 // an escaped quote: look for the next one
			continue
		}
		n.escaped = bytes.IndexByte(p.data[start+1:q], '\\') >= 0
		p.i = q + 1
		n.end = p.i
		return n, nil
	}
}

// skip passes over one value, keeping only its kind and place. Brackets are counted, not
// checked for nesting: a body that is not JSON there goes upstream as it came anyway.
func (p *jparser) skip() (*node, error) {
	if p.i >= len(p.data) {
		return nil, p.errf("unexpected end of input")
	}
	switch p.data[p.i] {
	case '{', '[':
	default:
		return p.value(0)
	}
	k := kArray
	if p.data[p.i] == '{' {
		k = kObject
	}
	n := p.newNode(k, p.i)
	open := 0
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case '"':
			if _, err := p.str(); err != nil {
				return nil, err
			}
			continue
		case '{', '[':
			open++
		case '}', ']':
			open--
			if open == 0 {
				p.i++
				n.end = p.i
				return n, nil
			}
		}
		p.i++
	}
	return nil, p.errf("unterminated value")
}

func (p *jparser) array(depth int) (*node, error) {
	n := p.newNode(kArray, p.i)
	p.i++
	p.ws()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		n.end = p.i
		return n, nil
	}
	for {
		p.ws()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		p.ws()
		if p.i >= len(p.data) {
			return nil, p.errf("unterminated array")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			n.end = p.i
			return n, nil
		default:
			return nil, p.errf("expected , or ] in array")
		}
	}
}

func (p *jparser) object(depth int) (*node, error) {
	n := p.newNode(kObject, p.i)
	p.i++
	p.ws()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		n.end = p.i
		return n, nil
	}
	for {
		p.ws()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, p.errf("expected a string key")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		key := p.decodeString(k)
		p.ws()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, p.errf("expected : after key")
		}
		p.i++
		p.ws()
		var v *node
		if depth == 0 && p.keep != nil && !p.keep(key) {
			v, err = p.skip()
		} else {
			v, err = p.value(depth + 1)
		}
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, member{key: key, val: v})
		p.ws()
		if p.i >= len(p.data) {
			return nil, p.errf("unterminated object")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			n.end = p.i
			return n, nil
		default:
			return nil, p.errf("expected , or } in object")
		}
	}
}

// decodeString returns a string node's value. Unescaped strings are copied straight out;
// escaped ones go through encoding/json so that escapes mean exactly what they mean there.
func (p *jparser) decodeString(n *node) string { return stringValue(p.data, n) }

// stringValue returns a string node's value. An unescaped string shares the body's memory
// (the body is never written to while a request is handled); an escaped one is decoded.
func stringValue(data []byte, n *node) string {
	if n == nil || n.kind != kString {
		return ""
	}
	body := data[n.start+1 : n.end-1]
	if !n.escaped {
		if len(body) == 0 {
			return ""
		}
		return unsafe.String(&body[0], len(body))
	}
	out := appendUnescaped(make([]byte, 0, len(body)), body)
	if len(out) == 0 {
		return ""
	}
	return unsafe.String(&out[0], len(out)) // out is never written again
}

// appendStringValue appends a string node's decoded value to dst.
func appendStringValue(dst, data []byte, n *node) []byte {
	body := data[n.start+1 : n.end-1]
	if !n.escaped {
		return append(dst, body...)
	}
	return appendUnescaped(dst, body)
}

// appendUnescaped decodes the body of a JSON string as encoding/json does (a lone surrogate
// becomes U+FFFD), in one pass: tool results are mostly lines of text, with an escape every
// line, and encoding/json's Unmarshal would scan each of them twice and allocate more. An
// invalid escape is kept as it stands; such a body is not valid JSON and is forwarded as the
// client sent it.
func appendUnescaped(out, b []byte) []byte {
	for len(b) > 0 {
		k := bytes.IndexByte(b, '\\')
		if k < 0 {
			out = append(out, b...)
			break
		}
		out = append(out, b[:k]...)
		b = b[k:]
		if len(b) < 2 {
			out = append(out, b...)
			break
		}
		switch c := b[1]; c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(b[2:])
			if !ok {
				out = append(out, b[:2]...)
				b = b[2:]
				continue
			}
			b = b[6:]
			if utf16.IsSurrogate(r) {
				if len(b) >= 6 && b[0] == '\\' && b[1] == 'u' {
					if r2, ok := hex4(b[2:]); ok {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							out = utf8.AppendRune(out, dec)
							b = b[6:]
							continue
						}
					}
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			out = append(out, b[:2]...)
		}
		b = b[2:]
	}
	return out
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// get returns an object's member value by key (the last one, as encoding/json does), or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kObject {
		return nil
	}
	var v *node
	for _, m := range n.members {
		if m.key == key {
			v = m.val
		}
	}
	return v
}

// raw returns the node's original bytes.
func (n *node) raw(data []byte) []byte {
	if n == nil {
		return nil
	}
	return data[n.start:n.end]
}

// str returns the member's string value, or "" when it is absent or not a string.
func (n *node) str(data []byte, key string) string { return stringValue(data, n.get(key)) }

func (n *node) isString() bool { return n != nil && n.kind == kString }
func (n *node) isArray() bool  { return n != nil && n.kind == kArray }
func (n *node) isObject() bool { return n != nil && n.kind == kObject }
