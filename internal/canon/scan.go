package canon

import (
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/loopguard/loopguard/internal/jsonscan"
)

// The JSON grammar, string decoding and depth limit are jsonscan's, under its Strict
// policy: canon's "same value" is encoding/json's, so it must read exactly what
// encoding/json reads. What stays here is what only canon needs: the value of a number
// (for hashing), and raw text that is not JSON.

// maxDepth is the deepest container nesting accepted as JSON, encoding/json's own limit
// (jsonscan.MaxDepth), so anything encoding/json refuses for depth is refused here too.
// Input nested deeper is not JSON for this package and is handled like any other invalid
// input: as raw text.
const maxDepth = jsonscan.MaxDepth

// plainEnd and specialBytes keep the names canon's tests of the word-at-a-time string scan
// use. The parsers here call jsonscan directly: through inlined forwarders like these,
// Fingerprint ran about 2% more instructions (callgrind put them on the forwarders' lines).
func plainEnd(s []byte, i int) int { return jsonscan.PlainEnd(s, i) }
func specialBytes(w uint64) uint64 { return jsonscan.SpecialBytes(w) }

// AppendUnescaped appends the decoded content of a JSON string whose body
// (between the quotes) is raw, already checked: its escapes are valid and it
// holds no quote or control character unescaped. Strings decode as in
// encoding/json (jsonscan's Strict policy): a lone surrogate escape and each
// byte of invalid UTF-8 become U+FFFD. Decoding stops at an invalid escape,
// which a checked body does not have.
//
// Deprecated: nothing outside this package's tests calls it any more; use
// jsonscan.AppendUnescaped with jsonscan.Strict.
func AppendUnescaped(dst, raw []byte) []byte {
	dst, _ = jsonscan.AppendUnescaped(dst, raw, jsonscan.Strict)
	return dst
}

// appendValidUTF8 appends p to buf with every byte of invalid UTF-8
// replaced by U+FFFD, the way encoding/json coerces strings. Used for raw
// text.
func appendValidUTF8(buf, p []byte) []byte {
	for len(p) > 0 {
		n := validPrefix(p)
		buf = append(buf, p[:n]...)
		if n < len(p) {
			buf = utf8.AppendRune(buf, utf8.RuneError)
			n++
		}
		p = p[n:]
	}
	return buf
}

// validPrefix returns the length of the longest valid UTF-8 prefix of p.
func validPrefix(p []byte) int {
	n := 0
	for n < len(p) {
		if p[n] < utf8.RuneSelf {
			n++
			continue
		}
		r, size := utf8.DecodeRune(p[n:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		n += size
	}
	return n
}

// parseNumber parses the JSON number starting at s[i]. It returns the
// number's float64 value, whether the literal overflows float64 (then f is
// meaningless and the number is identified by its literal text
// s[i:next]), the index after the literal, and whether a valid number
// literal starts at i.
//
// The literal ends where the number grammar ends; whether the next byte may
// follow a value is the caller's business ("01" is the number 0 followed by
// a stray 1).
func parseNumber(s []byte, i int) (f float64, overflow bool, next int, ok bool) {
	start := i
	if next, ok = jsonscan.Number(s, i); !ok {
		return 0, false, next, false
	}
	// A plain integer below 10^15 < 2^53 is exactly representable: add up its digits
	// rather than going through ParseFloat (Canonical sees mostly such numbers).
	neg := s[i] == '-'
	if neg {
		i++
	}
	if n := next - i; n <= 15 {
		var v uint64
		for _, c := range s[i:next] {
			if c-'0' > 9 { // '.', 'e', 'E', '+', '-': not a plain integer
				goto general
			}
			v = v*10 + uint64(c-'0')
		}
		f = float64(v)
		if neg {
			f = -f
		}
		return f, false, next, true
	}
general:
	// The literal is known to be well formed, so the only possible error
	// is ErrRange: overflow (±Inf) or underflow (0, which is simply 0).
	// The string view of s is not retained by ParseFloat (its errors copy
	// their input).
	f, _ = strconv.ParseFloat(unsafe.String(&s[start], next-start), 64)
	if math.IsInf(f, 0) {
		return 0, true, next, true
	}
	return f, false, next, true
}

// bytesOf views s as a byte slice without copying. Nothing in this package
// writes through such a view.
func bytesOf(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
