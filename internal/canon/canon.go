// Package canon decides whether two tool calls carry the same arguments.
//
// A model's tool-call arguments arrive as a raw string. Two calls are "the
// same" when their arguments denote the same JSON value, however they were
// written:
//
//   - Empty arguments ("") mean the empty object {}.
//   - If the text is exactly one JSON value (surrounding JSON whitespace
//     allowed) it stands for that value. Anything else, including valid JSON
//     followed by garbage, is raw text and stands for the JSON string with
//     that text as content: `grep x` is the same as "grep x".
//   - Object member order never matters, at any depth. When a key repeats,
//     the last occurrence wins and earlier ones are ignored entirely.
//   - Numbers are compared as IEEE-754 doubles, as JavaScript and RFC 8785
//     do: 1, 1.0, 1e0 and 10e-1 are equal, -0 equals 0, and integers beyond
//     2^53 are equal when they round to the same double. A literal too large
//     for a double (it would overflow to ±Inf) is compared by its text.
//   - Strings are compared after unescaping. Invalid UTF-8 bytes and
//     unpaired surrogate escapes become U+FFFD, exactly as encoding/json
//     decodes them.
//   - Arrays compare element by element; true, false and null are
//     themselves; values of different types are never equal.
//   - Containers nested deeper than 10000 levels (encoding/json's own
//     limit, so the two agree) make the text invalid JSON, so it is
//     handled as raw text. Below the limit, "same value, same fingerprint"
//     holds at every depth.
//
// Deep input: Fingerprint parses with an explicit stack of at most 10000
// small frames (no recursion) and gives up at the limit, so even 100,000
// nested brackets cost a bounded amount of memory before falling back to
// raw text. Canonical recurses, but never deeper than the same limit.
//
// Equivalently: two arguments are the same exactly when their Canonical
// texts (RFC 8785, the JSON Canonicalization Scheme) are equal, and
// Fingerprint is a 64-bit hash with that equality.
//
// Why hand-written: Fingerprint runs for every tool call an agent makes.
// The obvious implementation (encoding/json into any, re-marshal, hash)
// allocates a map per object, a string per key and value, and a new buffer
// for the output. Here a single pass over the bytes validates the JSON and
// hashes each scalar as it is read; an object's members are collected as
// (key hash, value hash) pairs in a fixed stack buffer, sorted by key hash,
// stripped of overwritten duplicates and folded in that order. For typical
// arguments there are no heap allocations at all. The fingerprint is a pure
// function of the bytes (no random seeds), stable across processes and
// machines, because it is persisted.
package canon

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf8"
)

// Fingerprint returns the identity of raw tool-call arguments: a 64-bit hash
// of their canonical form. Arguments that are the same (see the package
// documentation) get the same fingerprint; different arguments get
// different fingerprints except with probability about 2^-64 per pair.
func Fingerprint(args []byte) uint64 {
	if len(args) == 0 {
		return emptyObjectHash()
	}
	if h, ok := fingerprintJSON(args); ok {
		return h
	}
	return rawTextHash(args)
}

// FingerprintString returns Fingerprint([]byte(args)) without copying args.
func FingerprintString(args string) uint64 {
	return Fingerprint(bytesOf(args))
}

// rawTextHash hashes text that is not JSON as the JSON string with that
// content.
func rawTextHash(p []byte) uint64 {
	if utf8.Valid(p) {
		return hashBytes(seedString, p)
	}
	acc := pieces{h: seedString}
	for len(p) > 0 {
		n := validPrefix(p)
		acc.putBytes(p[:n])
		if n < len(p) {
			acc.putRune(utf8.RuneError)
			n++
		}
		p = p[n:]
	}
	return acc.sum()
}

func emptyObjectHash() uint64 { return foldObject(nil) }

// frame is one open container while fingerprinting.
type frame struct {
	// h is the running hash of an array, or the hash of the key whose
	// value is being read in an object.
	h uint64
	// tag is 2*count for an array (elements so far) and 2*start+1 for an
	// object, where start is the index in the member list at which the
	// object's members begin. The low bit tells the two apart.
	tag int
}

// member is one object member, reduced to hashes.
type member struct{ key, val uint64 }

// fingerprintJSON hashes s if it is exactly one JSON value (with optional
// surrounding whitespace). ok is false if s is not valid JSON.
//
// It is an iterative parser written as one function, a small state machine
// (value, after, key, str) joined by gotos: Go keeps no registers across
// calls, so strings, small integers, literals and punctuation are handled
// without any call. Open containers live on an explicit stack, and
// members of all open objects share one list, each object owning its tail.
// Both start in fixed-size stack buffers and move to the heap only for
// unusually deep or wide input (at most maxDepth frames).
//
// Strings: printable ASCII without escapes is checked and absorbed 16 bytes
// at a time in one pass, computing exactly what hashBytes computes. At the
// first byte that needs decoding (an escape, non-ASCII) the hash state is
// handed to hashStringSlow, which decodes the rest.
func fingerprintJSON(s []byte) (uint64, bool) {
	// Container bookkeeping is touched once per value, so it lives in
	// memory (st), leaving the registers to the scanning loops.
	var st struct {
		stack     []frame
		members   []member
		inKey     bool // the string being read is an object key
		frameBuf  [16]frame
		memberBuf [24]member
	}
	st.stack = st.frameBuf[:0]
	st.members = st.memberBuf[:0]
	var (
		v      uint64 // the value (or key) just completed
		ok     bool
		c      byte
		p      []byte
		w0, w1 uint64 // a 16-byte block of string content
		m0, m1 uint64 // its special bytes
		r      int
	)
	i := skipSpace(s, 0)

value: // A value starts at s[i].
	if i >= len(s) {
		return 0, false
	}
	switch c = s[i]; {
	case c == '"':
		st.inKey = false
		goto str
	case c == '-' || c-'0' <= 9:
		// Fast path: an integer of at most 15 digits is exact as a double.
		j := i
		if c == '-' {
			j++
		}
		d := j
		var n uint64
		for j < len(s) && s[j]-'0' <= 9 {
			n = n*10 + uint64(s[j]-'0')
			j++
		}
		if nd := j - d; nd == 0 || nd > 15 || (s[d] == '0' && nd > 1) ||
			(j < len(s) && (s[j] == '.' || s[j]|0x20 == 'e')) {
			if v, i, ok = hashNumber(s, i); !ok {
				return 0, false
			}
			break
		}
		f := float64(n)
		if c == '-' {
			f = -f
		}
		v = hashFloat(f)
		i = j
	case c == '{':
		if len(st.stack) >= maxDepth {
			return 0, false
		}
		if i = skipSpace(s, i+1); i < len(s) && s[i] == '}' {
			i++
			v = emptyObjectHash()
			break
		}
		st.stack = append(st.stack, frame{tag: len(st.members)<<1 | 1})
		goto key
	case c == '[':
		if len(st.stack) >= maxDepth {
			return 0, false
		}
		if i = skipSpace(s, i+1); i < len(s) && s[i] == ']' {
			i++
			v = hashArrayEnd(seedArray, 0)
			break
		}
		st.stack = append(st.stack, frame{h: seedArray})
		goto value
	case c == 't' && literalAt(s, i, "true"):
		i += 4
		v = hashTrue
	case c == 'f' && literalAt(s, i, "false"):
		i += 5
		v = hashFalse
	case c == 'n' && literalAt(s, i, "null"):
		i += 4
		v = hashNull
	default:
		return 0, false
	}

after: // v is complete: hand it to the enclosing container.
	i = skipSpace(s, i)
	if len(st.stack) == 0 {
		return v, i == len(s)
	}
	if i >= len(s) {
		return 0, false
	}
	c = s[i]
	if top := &st.stack[len(st.stack)-1]; top.tag&1 != 0 { // object
		st.members = append(st.members, member{top.h, v})
		if c == ',' {
			i = skipSpace(s, i+1)
			goto key
		}
		if c != '}' {
			return 0, false
		}
		start := top.tag >> 1
		v = foldObject(st.members[start:])
		st.members = st.members[:start]
	} else {
		top.h = hashArrayStep(top.h, v)
		top.tag += 2
		if c == ',' {
			i = skipSpace(s, i+1)
			goto value
		}
		if c != ']' {
			return 0, false
		}
		v = hashArrayEnd(top.h, top.tag>>1)
	}
	i++
	st.stack = st.stack[:len(st.stack)-1]
	goto after

key: // An object member starts at s[i]: "key" : value
	if i >= len(s) || s[i] != '"' {
		return 0, false
	}
	st.inKey = true
	goto str

keyDone:
	if i < len(s) && s[i] == ':' {
		i++
	} else if i = skipSpace(s, i); i < len(s) && s[i] == ':' {
		i++
	} else {
		return 0, false
	}
	st.stack[len(st.stack)-1].h = v
	i = skipSpace(s, i)
	goto value

str: // A string starts at s[i] (the opening quote).
	i++
	p = s[i:]
	v = seedString
	for len(p) >= 16 {
		w0 = binary.LittleEndian.Uint64(p)
		if m0 = specialBytes(w0); m0 != 0 {
			goto strEnd0
		}
		w1 = binary.LittleEndian.Uint64(p[8:])
		if m1 = specialBytes(w1); m1 != 0 {
			goto strEnd1
		}
		v = absorb(v, w0, w1)
		p = p[16:]
	}
	// Fewer than 16 bytes of input left: zero pad them. Zero bytes count
	// as special (control) bytes, so the scan stops there at the latest.
	w0, w1 = loadPadded16(p)
	if m0 = specialBytes(w0); m0 == 0 {
		m1 = specialBytes(w1)
		goto strEnd1
	}

	// The block (w0, w1) holds the closing quote or a byte that needs
	// decoding, preceded by r plain bytes.
strEnd0:
	r = bits.TrailingZeros64(m0) >> 3
	w0 &= 1<<(8*uint(r)) - 1
	w1 = 0
	goto strEnd
strEnd1:
	r = 8 + bits.TrailingZeros64(m1)>>3
	w1 &= 1<<(8*uint(r-8)) - 1
strEnd:
	if r >= len(p) {
		return 0, false // unterminated
	}
	if p[r] == '"' {
		if r > 0 {
			v = absorb(v, w0, w1)
		}
		done := len(s) - len(p) + r // index of the closing quote
		v = finish(v, done-i)
		i = done + 1
	} else {
		// Decode from the start of this block on; v covers the
		// blocks before it.
		done := len(s) - len(p)
		if v, i, ok = hashStringSlow(s, done, v, done-i); !ok {
			return 0, false
		}
	}
	if st.inKey {
		goto keyDone
	}
	goto after
}

// hashNumber hashes the number literal at s[i].
func hashNumber(s []byte, i int) (h uint64, next int, ok bool) {
	f, overflow, next, ok := parseNumber(s, i)
	if overflow {
		return hashBytes(seedBigNum, s[i:next]), next, ok
	}
	return hashFloat(f), next, ok
}

// hashStringSlow continues the hash h of a string's first n content bytes
// (n a multiple of 16) with the content from s[i] on, decoding escapes and
// invalid UTF-8, and returns the index after the closing quote.
//
// It scans like the fast path, 16 bytes at a time, but feeds the plain runs
// and the decoded characters between them to a pieces accumulator, so the
// result is exactly hashBytes of the decoded content.
func hashStringSlow(s []byte, i int, h uint64, n int) (uint64, int, bool) {
	acc := pieces{h: h, n: n}
	for {
		var x0, x1 uint64
		if len(s)-i >= 16 {
			x0, x1 = binary.LittleEndian.Uint64(s[i:]), binary.LittleEndian.Uint64(s[i+8:])
		} else {
			x0, x1 = loadPadded16(s[i:]) // zero padding stops the scan
		}
		// l plain bytes, then (if l < 16) a byte that needs attention.
		l := 16
		if m0 := specialBytes(x0); m0 != 0 {
			l = bits.TrailingZeros64(m0) >> 3
			x0 &= 1<<(8*uint(l)) - 1
			x1 = 0
		} else if m1 := specialBytes(x1); m1 != 0 {
			l = 8 + bits.TrailingZeros64(m1)>>3
			x1 &= 1<<(8*uint(l-8)) - 1
		}
		// acc.put16(x0, x1, l), written out: this loop is its main user.
		k := acc.k & 63
		binary.LittleEndian.PutUint64(acc.buf[k:], x0)
		binary.LittleEndian.PutUint64(acc.buf[k+8:], x1)
		if acc.k += l; acc.k >= 64 {
			acc.flush()
		}
		i += l
		if l == 16 {
			continue
		}
		if i >= len(s) {
			return 0, i, false // unterminated
		}
		c := s[i]
		if c == '"' {
			return acc.sum(), i + 1, true
		}
		if c < 0x20 {
			return 0, i, false
		}
		// An escape or non-ASCII. The common two-byte escapes are
		// decoded here; decodeAt handles the rest.
		if c == '\\' && i+1 < len(s) {
			if d := shortEscape[s[i+1]]; d != 0 {
				acc.put16(uint64(d), 0, 1)
				i += 2
				continue
			}
		}
		r, next, ok := decodeAt(s, i)
		if !ok {
			return 0, next, false
		}
		acc.putRune(r)
		i = next
	}
}

// shortEscape maps the letter after a backslash to the byte it stands for,
// for the two-byte escapes; 0 for \u and for invalid escapes.
var shortEscape = [256]byte{
	'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t',
}

// foldObject hashes an object from its members in input order. It sorts m
// in place by key hash (stably, so equal keys stay in input order), keeps
// only the last member of each run of equal keys, and folds the survivors.
func foldObject(m []member) uint64 {
	if len(m) == 0 {
		return hashObjectEnd(seedObject, 0)
	}
	if len(m) > 24 {
		sortMembersLarge(m)
	} else {
		// Insertion sort: fast for the handful of members tool calls have.
		for j := 1; j < len(m); j++ {
			x := m[j]
			k := j
			for ; k > 0; k-- {
				y := m[k-1]
				if y.key <= x.key {
					break
				}
				m[k] = y
			}
			m[k] = x
		}
	}
	h := uint64(seedObject)
	n := 1
	last := m[0]
	for _, e := range m[1:] {
		if e.key != last.key { // else e overwrites last
			h = hashMember(h, last.key, last.val)
			n++
		}
		last = e
	}
	return hashObjectEnd(hashMember(h, last.key, last.val), n)
}

// sortMembersLarge is the path for objects with many members, where
// insertion sort would be quadratic. slices.SortStableFunc works in place.
func sortMembersLarge(m []member) {
	slices.SortStableFunc(m, func(a, b member) int { return cmp.Compare(a.key, b.key) })
}
