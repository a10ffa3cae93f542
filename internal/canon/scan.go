package canon

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Lexical helpers shared by the fingerprint and canonical-text parsers, so
// both accept exactly the same grammar (the one encoding/json accepts) and
// decode strings and numbers identically.

// maxDepth is the deepest container nesting accepted as JSON. It is the
// same limit encoding/json enforces (its maxNestingDepth), so anything
// encoding/json refuses for depth is refused here too. Input nested deeper
// is not JSON for this package and is handled like any other invalid input:
// as raw text.
const maxDepth = 10000

// skipSpace returns the index of the first non-whitespace byte at or after i
// (JSON whitespace: space, tab, LF, CR), or len(s).
func skipSpace(s []byte, i int) int {
	if i < len(s) && s[i] > ' ' {
		return i // the common case, kept small enough to inline
	}
	return skipSpaceSlow(s, i)
}

func skipSpaceSlow(s []byte, i int) int {
	for i < len(s) {
		c := s[i]
		if c > ' ' || (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			return i
		}
		i++
	}
	return i
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plainEnd returns the index of the first byte at or after i that needs
// attention inside a JSON string: '"', '\\', a control byte (< 0x20) or a
// non-ASCII byte (>= 0x80). It returns len(s) if there is none.
//
// Eight bytes at a time: for each class a word is built whose high bit is
// set in a byte that belongs to the class. Borrows can set spurious bits,
// but only in bytes above a genuine match, so the lowest set bit is exact.
func plainEnd(s []byte, i int) int {
	for i+8 <= len(s) {
		if m := specialBytes(binary.LittleEndian.Uint64(s[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			return i
		}
	}
	return i
}

// specialBytes returns a word with the high bit set in the lowest byte of w
// that is '"', '\\', < 0x20 or >= 0x80 (and possibly in bytes above it),
// with no bit set below it; zero if there is no such byte.
//
// Per byte b < 0x80, with no borrow coming in: x = b^0x02 maps 0x00..0x1F
// onto itself and '"' (0x22) to 0x20, while every other byte stays >= 0x21,
// so x-0x21 wraps (sets the high bit) exactly for controls and '"'.
// (b^'\\')-1 wraps exactly for '\\'. Bytes >= 0x80 are flagged by b itself
// and never wrap. A subtraction only borrows out of a byte that wrapped,
// that is, one that matched, so borrows cannot disturb the lowest match.
func specialBytes(w uint64) uint64 {
	return (((w ^ (ones * 0x02)) - ones*0x21) | ((w ^ (ones * '\\')) - ones) | w) & highs
}

// readString decodes the JSON string whose opening quote is s[i-1],
// appending its content to buf. It returns the extended buf, the index
// after the closing quote and whether the string is valid JSON. Fingerprint
// has its own loops (hashPlainString, hashString, hashStringSlow);
// all use decodeAt for everything but plain ASCII.
func readString(s []byte, i int, buf []byte) (out []byte, next int, ok bool) {
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			return buf, i + 1, true
		case c < 0x20:
			return buf, i, false
		case c == '\\' || c >= utf8.RuneSelf:
			var r rune
			if r, i, ok = decodeAt(s, i); !ok {
				return buf, i, false
			}
			buf = utf8.AppendRune(buf, r)
		default:
			j := plainEnd(s, i+1)
			buf = append(buf, s[i:j]...)
			i = j
		}
	}
	return buf, i, false
}

// AppendUnescaped appends the decoded content of a JSON string whose body
// (between the quotes) is raw, already checked: its escapes are valid and it
// holds no quote or control character unescaped. Strings decode as in
// encoding/json (see decodeAt): a lone surrogate escape and each byte of
// invalid UTF-8 become U+FFFD.
func AppendUnescaped(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		if c := raw[i]; c != '\\' && c < utf8.RuneSelf {
			j := plainEnd(raw, i+1)
			dst = append(dst, raw[i:j]...)
			i = j
			continue
		}
		r, next, ok := decodeAt(raw, i)
		if !ok { // an escape the caller should have refused: keep it as it is
			dst = append(dst, raw[i])
			i++
			continue
		}
		dst = utf8.AppendRune(dst, r)
		i = next
	}
	return dst
}

// decodeAt decodes the escape sequence (s[i] == '\\') or the non-ASCII
// UTF-8 sequence (s[i] >= 0x80) at s[i] inside a JSON string. It returns the
// code point it stands for and the index after it; ok is false for an
// invalid escape.
//
// This is where strings are made to match encoding/json: a \uXXXX high
// surrogate immediately followed by a \uXXXX low surrogate is one code
// point; any other surrogate escape is U+FFFD (and what follows it is read
// on its own); each byte of invalid UTF-8 is one U+FFFD (utf8.DecodeRune
// reports (RuneError, 1) for it). Valid UTF-8 decodes to a rune whose
// encoding is the same bytes, since Go only accepts the shortest form.
func decodeAt(s []byte, i int) (r rune, next int, ok bool) {
	if s[i] != '\\' {
		r, size := utf8.DecodeRune(s[i:])
		return r, i + size, true
	}
	if i+1 >= len(s) {
		return 0, i, false
	}
	switch s[i+1] {
	case '"':
		return '"', i + 2, true
	case '\\':
		return '\\', i + 2, true
	case '/':
		return '/', i + 2, true
	case 'b':
		return '\b', i + 2, true
	case 'f':
		return '\f', i + 2, true
	case 'n':
		return '\n', i + 2, true
	case 'r':
		return '\r', i + 2, true
	case 't':
		return '\t', i + 2, true
	case 'u':
		if r = hex4(s, i+2); r < 0 {
			return 0, i, false
		}
		i += 6
		if !utf16.IsSurrogate(r) {
			return r, i, true
		}
		if i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
			if r2 := hex4(s, i+2); r2 >= 0 {
				if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
					return pair, i + 6, true
				}
			}
		}
		return utf8.RuneError, i, true
	}
	return 0, i, false
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

// hex4 decodes the four hex digits at s[i:i+4], or returns -1.
func hex4(s []byte, i int) rune {
	if i+4 > len(s) {
		return -1
	}
	var r rune
	for _, c := range s[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
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
	neg := false
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	if i >= len(s) {
		return 0, false, i, false
	}
	var v uint64
	digits := 0
	switch c := s[i]; {
	case c == '0':
		i++
	case '1' <= c && c <= '9':
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			v = v*10 + uint64(s[i]-'0') // wraps for long literals; only used when digits <= 15
			digits++
			i++
		}
	default:
		return 0, false, i, false
	}
	plain := true
	if i < len(s) && s[i] == '.' {
		plain = false
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return 0, false, i, false
		}
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		plain = false
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return 0, false, i, false
		}
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
	}
	if plain && digits <= 15 {
		// Below 10^15 < 2^53: the integer is exactly representable.
		f = float64(v)
		if neg {
			f = -f
		}
		return f, false, i, true
	}
	// The literal is known to be well formed, so the only possible error
	// is ErrRange: overflow (±Inf) or underflow (0, which is simply 0).
	// The string view of s is not retained by ParseFloat (its errors copy
	// their input).
	f, _ = strconv.ParseFloat(unsafe.String(&s[start], i-start), 64)
	if math.IsInf(f, 0) {
		return 0, true, i, true
	}
	return f, false, i, true
}

// literalAt reports whether the bytes at s[i:] start with lit.
func literalAt(s []byte, i int, lit string) bool {
	return len(s)-i >= len(lit) && string(s[i:i+len(lit)]) == lit
}

// bytesOf views s as a byte slice without copying. Nothing in this package
// writes through such a view.
func bytesOf(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
