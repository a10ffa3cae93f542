package proxy

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/loopguard/loopguard/internal/jsonscan"
)

// The request parsers need two things encoding/json does not give: the byte offsets of values in
// the client's body (notices are spliced into those bytes, never re-encoded, so that the body
// stays byte-identical from turn to turn and the provider's prompt cache keeps working), and a
// hard bound on nesting for hostile input. node is a parsed JSON value that remembers where it
// lies in the original bytes; strings are decoded only when a parser asks for them. The tree is
// the proxy's; the lexical work (strings, numbers, literals, skipping unread members) is
// jsonscan's, under its AsWritten policy: a body is forwarded as the client wrote it, so its text
// is read as written too.

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

func (p *jparser) ws() { p.i = jsonscan.SkipSpace(p.data, p.i) }

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
	if !jsonscan.HasLiteral(p.data, p.i, lit) {
		return nil, p.errf("invalid literal")
	}
	n := p.newNode(k, p.i)
	n.end = p.i + len(lit)
	p.i += len(lit)
	return n, nil
}

func (p *jparser) number() (*node, error) {
	start := p.i
	end, ok := jsonscan.Number(p.data, p.i)
	p.i = end
	if !ok {
		return nil, p.errf("invalid number")
	}
	n := p.newNode(kNumber, start)
	n.end = end
	return n, nil
}

// str reads a string under jsonscan's AsWritten policy: it ends at the first unescaped
// quote, and control characters, bad escapes and invalid UTF-8 are not refused. A body with
// them goes upstream as the client sent it, to be refused there if at all; the proxy reads
// its text as written (see appendStringValue).
func (p *jparser) str() (*node, error) {
	n := p.newNode(kString, p.i)
	end, f, err := jsonscan.String(p.data, p.i, jsonscan.AsWritten)
	if err != nil {
		p.i = len(p.data)
		return nil, p.errf("unterminated string")
	}
	p.i, n.end, n.escaped = end, end, f&jsonscan.Escaped != 0
	return n, nil
}

// skip passes over one value, keeping only its kind and place. Its structure is checked by
// jsonscan.Skip (strings only for being closed, as everywhere here), without a depth limit:
// the value is never read, so its depth is not this proxy's concern.
func (p *jparser) skip() (*node, error) {
	if p.i >= len(p.data) {
		return nil, p.errf("unexpected end of input")
	}
	k := kNull
	switch p.data[p.i] {
	case '{':
		k = kObject
	case '[':
		k = kArray
	default:
		return p.value(0)
	}
	n := p.newNode(k, p.i)
	end, err := jsonscan.Skip(p.data, p.i, jsonscan.AsWritten, 0)
	if err != nil {
		var se *jsonscan.SyntaxError
		if errors.As(err, &se) {
			p.i = se.Offset
		}
		return nil, p.errf("%v", err)
	}
	p.i, n.end = end, end
	return n, nil
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

// decodeString returns a string node's value (see stringValue).
func (p *jparser) decodeString(n *node) string { return stringValue(p.data, n) }

// stringValue returns a string node's value. An unescaped string shares the body's memory
// (the body is never written to while a request is handled); an escaped one is decoded in one
// pass under jsonscan's AsWritten policy: escapes mean what they mean in encoding/json (a lone
// surrogate becomes U+FFFD), and an invalid escape or invalid UTF-8 stays as the client wrote
// it, since such a body is forwarded as sent. (encoding/json's Unmarshal per string would scan
// each tool result twice and allocate more.)
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
	out, _ := jsonscan.AppendUnescaped(make([]byte, 0, len(body)), body, jsonscan.AsWritten)
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
	dst, _ = jsonscan.AppendUnescaped(dst, body, jsonscan.AsWritten)
	return dst
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
