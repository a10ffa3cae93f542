package canon

import (
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/loopguard/loopguard/internal/jsonscan"
)

// Canonical returns the canonical text of args (RFC 8785 / JCS), used only
// for previews shown to a model. Raw text that is not JSON comes back as a
// JSON string literal; empty args come back as {}.
//
// Canonical is not on the hot path: it builds a small tree and allocates
// freely. It accepts exactly the inputs Fingerprint accepts as JSON (same
// lexical helpers, same depth limit), and two arguments have equal
// Canonical texts exactly when they are the same (see the package
// documentation).
func Canonical(args []byte) string {
	if len(args) == 0 {
		return "{}"
	}
	p := treeParser{s: args}
	if n, ok := p.document(); ok {
		return string(n.appendTo(nil))
	}
	return string(appendQuotedText(nil, args))
}

// CanonicalString returns Canonical([]byte(args)) without copying args first.
func CanonicalString(args string) string {
	return Canonical(bytesOf(args))
}

// node is a parsed JSON value reduced to what its canonical text needs.
type node struct {
	// kind is '"' for a string, '[' for an array, '{' for an object, and
	// 0 for anything printed verbatim from text (numbers, true, false,
	// null).
	kind byte
	// text is the decoded content of a string, or the canonical text of
	// a verbatim value.
	text []byte
	// keys holds an object's member keys (decoded), sorted in UTF-16
	// order with duplicates removed; kids holds the matching values, or
	// an array's elements.
	keys [][]byte
	kids []node
}

// treeParser is a recursive-descent parser. Recursion is bounded by
// maxDepth, which keeps the goroutine stack to a few megabytes at worst.
type treeParser struct {
	s     []byte
	i     int
	depth int
}

func (p *treeParser) document() (node, bool) {
	p.i = jsonscan.SkipSpace(p.s, 0)
	n, ok := p.value()
	if !ok {
		return node{}, false
	}
	return n, jsonscan.SkipSpace(p.s, p.i) == len(p.s)
}

func (p *treeParser) value() (node, bool) {
	s := p.s
	if p.i >= len(s) {
		return node{}, false
	}
	switch c := s[p.i]; {
	case c == '"':
		content, ok := p.str()
		return node{kind: '"', text: content}, ok
	case c == '[':
		return p.array()
	case c == '{':
		return p.object()
	case c == '-' || ('0' <= c && c <= '9'):
		start := p.i
		f, overflow, next, ok := parseNumber(s, p.i)
		p.i = next
		if !ok {
			return node{}, false
		}
		if overflow {
			return node{text: s[start:next]}, true
		}
		return node{text: appendNumber(nil, f)}, true
	case c == 't' && jsonscan.HasLiteral(s, p.i, "true"):
		p.i += 4
		return node{text: []byte("true")}, true
	case c == 'f' && jsonscan.HasLiteral(s, p.i, "false"):
		p.i += 5
		return node{text: []byte("false")}, true
	case c == 'n' && jsonscan.HasLiteral(s, p.i, "null"):
		p.i += 4
		return node{text: []byte("null")}, true
	}
	return node{}, false
}

// str decodes the string whose opening quote is at p.i.
func (p *treeParser) str() ([]byte, bool) {
	out, next, err := jsonscan.AppendString([]byte{}, p.s, p.i, jsonscan.Strict)
	p.i = next
	return out, err == nil
}

func (p *treeParser) array() (node, bool) {
	if p.depth >= maxDepth {
		return node{}, false
	}
	p.depth++
	defer func() { p.depth-- }()
	n := node{kind: '['}
	p.i = jsonscan.SkipSpace(p.s, p.i+1)
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return n, true
	}
	for {
		kid, ok := p.value()
		if !ok {
			return node{}, false
		}
		n.kids = append(n.kids, kid)
		p.i = jsonscan.SkipSpace(p.s, p.i)
		if p.i >= len(p.s) {
			return node{}, false
		}
		switch p.s[p.i] {
		case ',':
			p.i = jsonscan.SkipSpace(p.s, p.i+1)
		case ']':
			p.i++
			return n, true
		default:
			return node{}, false
		}
	}
}

func (p *treeParser) object() (node, bool) {
	if p.depth >= maxDepth {
		return node{}, false
	}
	p.depth++
	defer func() { p.depth-- }()
	n := node{kind: '{'}
	p.i = jsonscan.SkipSpace(p.s, p.i+1)
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return n, true
	}
	type pair struct {
		key []byte
		val node
	}
	var members []pair
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return node{}, false
		}
		key, ok := p.str()
		if !ok {
			return node{}, false
		}
		p.i = jsonscan.SkipSpace(p.s, p.i)
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return node{}, false
		}
		p.i = jsonscan.SkipSpace(p.s, p.i+1)
		val, ok := p.value()
		if !ok {
			return node{}, false
		}
		members = append(members, pair{key, val})
		p.i = jsonscan.SkipSpace(p.s, p.i)
		if p.i >= len(p.s) {
			return node{}, false
		}
		if p.s[p.i] == '}' {
			p.i++
			break
		}
		if p.s[p.i] != ',' {
			return node{}, false
		}
		p.i = jsonscan.SkipSpace(p.s, p.i+1)
	}
	// Stable, so members with equal keys keep input order and the last
	// one of each run is the one that counts.
	slices.SortStableFunc(members, func(a, b pair) int { return compareUTF16(a.key, b.key) })
	for j, m := range members {
		if j+1 < len(members) && compareUTF16(members[j+1].key, m.key) == 0 {
			continue
		}
		n.keys = append(n.keys, m.key)
		n.kids = append(n.kids, m.val)
	}
	return n, true
}

// appendTo appends the canonical text of n to b.
func (n *node) appendTo(b []byte) []byte {
	switch n.kind {
	case '"':
		return appendQuoted(b, n.text)
	case '[':
		b = append(b, '[')
		for j := range n.kids {
			if j > 0 {
				b = append(b, ',')
			}
			b = n.kids[j].appendTo(b)
		}
		return append(b, ']')
	case '{':
		b = append(b, '{')
		for j := range n.kids {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendQuoted(b, n.keys[j])
			b = append(b, ':')
			b = n.kids[j].appendTo(b)
		}
		return append(b, '}')
	}
	return append(b, n.text...)
}

// compareUTF16 orders valid UTF-8 strings by their UTF-16 code units, as
// RFC 8785 requires for object keys. This is code point order except that
// supplementary characters (U+10000 and up, encoded as surrogates
// D800-DBFF) sort before U+E000-U+FFFF.
func compareUTF16(a, b []byte) int {
	for len(a) > 0 && len(b) > 0 {
		ra, na := utf8.DecodeRune(a)
		rb, nb := utf8.DecodeRune(b)
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua != ub {
				return int(ua) - int(ub)
			}
			// Same high surrogate: the low surrogates order like the
			// code points.
			return int(ra) - int(rb)
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

// firstUnit is the first UTF-16 code unit of r.
func firstUnit(r rune) rune {
	if r < 0x10000 {
		return r
	}
	return 0xD800 + (r-0x10000)>>10
}

// AppendQuoted appends s as a JSON string literal, escaped as RFC 8785 has it
// (and as JSON.stringify and Rust's serde_json write strings): \" \\ \b \f \n
// \r \t, other control characters as \u00xx in lowercase hex, everything
// else as it is. Each byte of invalid UTF-8 becomes U+FFFD, as when Go ranges
// over a string.
func AppendQuoted(b []byte, s string) []byte { return appendQuotedText(b, bytesOf(s)) }

// appendQuotedText is appendQuoted for text that may not be valid UTF-8.
func appendQuotedText(b, p []byte) []byte {
	if !utf8.Valid(p) {
		p = appendValidUTF8(nil, p)
	}
	return appendQuoted(b, p)
}

// appendQuoted appends s (valid UTF-8) as a JSON string literal escaped the
// way ECMAScript's JSON.stringify does: \" \\ \b \f \n \r \t, other control
// characters as \u00xx with lowercase hex, everything else verbatim.
func appendQuoted(b, s []byte) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for j, c := range s {
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:j]...)
		start = j + 1
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		}
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendNumber appends finite f in the form of ECMAScript's
// Number::toString (ECMA-262, Number::toString with radix 10), which
// RFC 8785 adopts: the shortest digits that round-trip, in plain notation
// when the decimal exponent is in [-7, 21) and exponent notation otherwise.
func appendNumber(b []byte, f float64) []byte {
	if f == 0 {
		return append(b, '0') // also -0
	}
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	// Shortest round-trip digits from strconv, as d.ddde±XX.
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64)
	mark := len(e) - 1
	for e[mark] != 'e' {
		mark--
	}
	exp, _ := strconv.Atoi(string(e[mark+1:]))
	var digitBuf [24]byte
	digits := append(digitBuf[:0], e[0])
	if mark > 1 {
		digits = append(digits, e[2:mark]...) // skip the '.'
	}
	// In ECMA-262 terms: value = 0.d1d2...dk × 10^n.
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		b = append(b, digits...)
		for range n - k {
			b = append(b, '0')
		}
	case 0 < n && n <= 21:
		b = append(b, digits[:n]...)
		b = append(b, '.')
		b = append(b, digits[n:]...)
	case -6 < n && n <= 0:
		b = append(b, '0', '.')
		for range -n {
			b = append(b, '0')
		}
		b = append(b, digits...)
	default:
		b = append(b, digits[0])
		if k > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'e')
		if n-1 >= 0 {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, int64(n-1), 10)
	}
	return b
}
