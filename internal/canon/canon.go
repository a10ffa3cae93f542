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
// hashes each scalar as it is read; an object is the sum of its members'
// hashes, which does not depend on their order, so nothing is sorted. The
// members of open objects are kept as (key hash, member hash) pairs in a
// fixed stack buffer, only to find a repeated key and replace its term. For
// typical arguments there are no heap allocations at all. The fingerprint is a pure
// function of the bytes (no random seeds), stable across processes and
// machines, because it is persisted.
//
// What is JSON, and what a string decodes to, is decided by internal/jsonscan under its
// Strict policy (encoding/json's reading), the scanner replay, transcript and the proxy share.
package canon

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf8"

	"github.com/loopguard/loopguard/internal/jsonscan"
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

// frame is one open container while fingerprinting.
type frame struct {
	// h is the running hash of an array, or the sum of the member hashes of
	// an object (see hashMember).
	h uint64
	// keys is, in an object, a one-word Bloom filter of its key hashes: a
	// key whose bit is not set yet cannot be a repeat, which spares most
	// members the look through the earlier ones.
	keys uint64
	// tag is 2*count for an array (elements so far) and 2*start+1 for an
	// object, where start is the index in the member list at which the
	// object's members begin. The low bit tells the two apart.
	tag int
}

// member is one object member, reduced to hashes: its key's and its own
// (hashMember of key and value), kept to find and replace repeated keys.
// While the value is being read, the member is the last in the list and
// its hash is not set yet.
type member struct{ key, hash uint64 }

// linearMembers is how many members an object may have before repeated keys
// are no longer looked for member by member (quadratic) but by sorting, once,
// when the object closes.
const linearMembers = 32

// fingerprintJSON hashes s if it is exactly one JSON value (with optional
// surrounding whitespace). ok is false if s is not valid JSON.
//
// It is an iterative parser written as one function, a small state machine
// (value, after, key) joined by gotos, so that numbers, literals and
// punctuation are handled without a call. Open containers live on an
// explicit stack, and the members of all open objects share one list, each
// object owning its tail. Both start in fixed-size stack buffers and move to
// the heap only for unusually deep or wide input (at most maxDepth frames).
// Strings are the one call (hashPlainString, then hashStringRest if need
// be): they are where the bytes are, and a function of their own gets the
// registers to itself.
func fingerprintJSON(s []byte) (uint64, bool) {
	// Container bookkeeping is touched once per value, so it lives in
	// memory (st), leaving the registers to the scanning.
	var st struct {
		stack     []frame
		members   []member
		frameBuf  [8]frame
		memberBuf [16]member
	}
	st.stack = st.frameBuf[:0]
	st.members = st.memberBuf[:0]
	var (
		v  uint64 // the value (or key) just completed
		ok bool
		c  byte
		j  int
	)
	i := jsonscan.SkipSpace(s, 0)

value: // A value starts at s[i].
	if i >= len(s) {
		return 0, false
	}
	switch c = s[i]; {
	case c == '"':
		if v, j, ok = hashPlainString(s, i+1); !ok {
			if v, j = hashStringRest(s, i+1, j, v); j < 0 {
				return 0, false
			}
		}
		i = j
	case c == '-' || c-'0' <= 9:
		// Fast path: an integer of at most 15 digits is exact as a double.
		j = i
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
		if i = jsonscan.SkipSpace(s, i+1); i < len(s) && s[i] == '}' {
			i++
			v = emptyObjectHash()
			break
		}
		st.stack = append(st.stack, frame{h: seedObject, tag: len(st.members)<<1 | 1})
		goto key
	case c == '[':
		if len(st.stack) >= maxDepth {
			return 0, false
		}
		if i = jsonscan.SkipSpace(s, i+1); i < len(s) && s[i] == ']' {
			i++
			v = hashArrayEnd(seedArray, 0)
			break
		}
		st.stack = append(st.stack, frame{h: seedArray})
		goto value
	case c == 't' && jsonscan.HasLiteral(s, i, "true"):
		i += 4
		v = hashTrue
	case c == 'f' && jsonscan.HasLiteral(s, i, "false"):
		i += 5
		v = hashFalse
	case c == 'n' && jsonscan.HasLiteral(s, i, "null"):
		i += 4
		v = hashNull
	default:
		return 0, false
	}

after: // v is complete: hand it to the enclosing container.
	i = jsonscan.SkipSpace(s, i)
	if len(st.stack) == 0 {
		return v, i == len(s)
	}
	if i >= len(s) {
		return 0, false
	}
	c = s[i]
	if top := &st.stack[len(st.stack)-1]; top.tag&1 != 0 { // object
		last := len(st.members) - 1
		key := st.members[last].key
		mh := hashMember(key, v)
		start := top.tag >> 1
		if bit := uint64(1) << (key >> 58); top.keys&bit == 0 {
			top.keys |= bit // a key not seen in this object
		} else if earlier := st.members[start:last]; len(earlier) < linearMembers {
			for j := range earlier {
				if earlier[j].key == key { // the last one wins
					top.h -= earlier[j].hash
					earlier[j].hash = mh
					st.members = st.members[:last]
					goto added
				}
			}
		}
		st.members[last].hash = mh
	added:
		top.h += mh
		if c == ',' {
			i = jsonscan.SkipSpace(s, i+1)
			goto key
		}
		if c != '}' {
			return 0, false
		}
		if n := len(st.members) - start; n <= linearMembers {
			v = hashObjectEnd(top.h, n)
		} else {
			v = hashWideObject(st.members[start:])
		}
		st.members = st.members[:start]
	} else {
		top.h = hashArrayStep(top.h, v)
		top.tag += 2
		if c == ',' {
			i = jsonscan.SkipSpace(s, i+1)
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
	if v, j, ok = hashPlainString(s, i+1); !ok {
		if v, j = hashStringRest(s, i+1, j, v); j < 0 {
			return 0, false
		}
	}
	i = j
	if i < len(s) && s[i] == ':' {
		i++
	} else if i = jsonscan.SkipSpace(s, i); i < len(s) && s[i] == ':' {
		i++
	} else {
		return 0, false
	}
	st.members = append(st.members, member{key: v})
	i = jsonscan.SkipSpace(s, i)
	goto value
}

// hashPlainString hashes the JSON string whose content starts at s[i], just
// after the opening quote, in the common case: printable ASCII with no
// escapes, ending at least 16 bytes before the end of s. It checks and
// absorbs the content 16 bytes at a time, computing exactly what hashBytes
// computes, and returns the hash and the index after the closing quote.
//
// At the first block it cannot finish (one with an escape or a non-ASCII
// byte, or one too near the end of s) it stops with done = false, returning
// the hash of the blocks before it and where that block starts; the caller
// hands both to hashStringRest. It is a leaf (it calls nothing), so it runs
// without a stack frame: it is called for every key and string value.
func hashPlainString(s []byte, i int) (h uint64, next int, done bool) {
	h = seedString
	start := i
	for len(s)-i >= 16 {
		w0, w1 := word(s, i), word(s, i+8)
		var r int
		if m := jsonscan.SpecialBytes(w0); m != 0 {
			r = bits.TrailingZeros64(m) >> 3
			w0 &= 1<<(8*uint(r)&63) - 1
			w1 = 0
		} else if m := jsonscan.SpecialBytes(w1); m != 0 {
			r = 8 + bits.TrailingZeros64(m)>>3
			w1 &= 1<<(8*uint(r-8)&63) - 1
		} else {
			h = absorb(h, w0, w1)
			i += 16
			continue
		}
		end := i + r
		if s[end] != '"' {
			return h, i, false
		}
		if n := end - start; n < 16 {
			return hashShort(seedString, w0, w1, n), end + 1, true
		} else if r > 0 {
			h = absorb(h, w0, w1)
		}
		return finish(h, end-start), end + 1, true
	}
	return h, i, false
}

// hashStringRest finishes the hash of a JSON string whose content starts at
// s[start], given h, the hash state after the whole 16-byte blocks
// s[start:i]. It decodes what follows (escapes, UTF-8, invalid UTF-8 as
// U+FFFD) and returns the hash of the decoded content, exactly as hashBytes
// would compute it, and the index after the closing quote; next is -1 if the
// string is not valid JSON.
//
// Decoded content gathers in buf as in a pieces accumulator, 16 bytes per
// whole-word store (the excess past the content is overwritten by the next
// store or ignored), whole blocks absorbed once 64 bytes are there; but the
// state lives in locals rather than in a pieces value, so the loop touches
// memory only for the input and buf (the pieces methods cost 5% more
// instructions per fingerprint here).
func hashStringRest(s []byte, start, i int, h uint64) (uint64, int) {
	var buf pieceBuf
	k := 0         // bytes in buf, < 64 at the top of the loop
	n := i - start // bytes absorbed into h, a multiple of 16
	for {
		var x0, x1 uint64
		if len(s)-i >= 16 {
			x0, x1 = word(s, i), word(s, i+8)
		} else {
			x0, x1 = tail16(s, i) // zero padding stops the scan
		}
		// l plain bytes, then (if l < 16) a byte that needs attention. The
		// same cut as in hashPlainString, written out in both: as one
		// helper (a count, then a mask) it cost 7% more instructions per
		// fingerprint (bench/instructions.sh).
		l := 16
		if m0 := jsonscan.SpecialBytes(x0); m0 != 0 {
			l = bits.TrailingZeros64(m0) >> 3
			x0 &= 1<<(8*uint(l)&63) - 1
			x1 = 0
		} else if m1 := jsonscan.SpecialBytes(x1); m1 != 0 {
			l = 8 + bits.TrailingZeros64(m1)>>3
			x1 &= 1<<(8*uint(l-8)&63) - 1
		}
		k &= 63 // k < 64 holds; this lets the compiler drop the bounds checks
		binary.LittleEndian.PutUint64(buf[k:], x0)
		binary.LittleEndian.PutUint64(buf[k+8:], x1)
		i += l
		if k += l; k >= 64 {
			h = flushPieces(h, &buf)
			n += 64
			k -= 64
		}
		if l == 16 {
			continue
		}
		if i >= len(s) {
			return 0, -1 // unterminated
		}
		c := s[i]
		if c == '"' {
			break
		}
		if c < 0x20 {
			return 0, -1
		}
		// An escape or non-ASCII. The common two-byte escapes are
		// decoded here; jsonscan.DecodeAt handles the rest.
		if c == '\\' && i+1 < len(s) && jsonscan.ShortEscape[s[i+1]] != 0 {
			buf[k&63] = jsonscan.ShortEscape[s[i+1]]
			k++
			i += 2
		} else {
			r, next, ok := jsonscan.DecodeAt(s, i)
			if !ok {
				return 0, -1
			}
			k += utf8.EncodeRune(buf[k&63:], r)
			i = next
		}
		if k >= 64 {
			h = flushPieces(h, &buf)
			n += 64
			k -= 64
		}
	}
	// The closing quote is s[i]; buf holds the last k decoded bytes.
	return sumPieces(h, n, &buf, k), i + 1
}

// hashNumber hashes the number literal at s[i].
func hashNumber(s []byte, i int) (h uint64, next int, ok bool) {
	f, overflow, next, ok := parseNumber(s, i)
	if overflow {
		return hashBytes(seedBigNum, s[i:next]), next, ok
	}
	return hashFloat(f), next, ok
}

// tail16 returns the fewer than 16 bytes at s[i:] (to the end of s) as two
// little-endian words, zero padded. When s is long enough it reads whole
// words ending at len(s) and shifts the bytes before s[i] out, so there is
// no loop and no call.
func tail16(s []byte, i int) (w0, w1 uint64) {
	n := len(s) - i
	switch {
	case n >= 8:
		return word(s, i), word(s, len(s)-8) >> (8 * uint(16-n))
	case len(s) >= 8:
		return word(s, len(s)-8) >> (8 * uint(8-n)), 0
	}
	for k := len(s) - 1; k >= i; k-- {
		w0 = w0<<8 | uint64(s[k])
	}
	return w0, 0
}

func emptyObjectHash() uint64 { return hashObjectEnd(seedObject, 0) }

// hashWideObject hashes an object with more than linearMembers members,
// given in input order, where repeated keys have not all been merged yet. It
// sorts m in place by key hash, stably, so that the last of each run of equal
// keys is the one that counts, and adds up the survivors.
func hashWideObject(m []member) uint64 {
	slices.SortStableFunc(m, func(a, b member) int { return cmp.Compare(a.key, b.key) })
	sum := uint64(seedObject)
	n := 0
	for j, e := range m {
		if j+1 < len(m) && m[j+1].key == e.key {
			continue // overwritten by a later member
		}
		sum += e.hash
		n++
	}
	return hashObjectEnd(sum, n)
}
