package jsonscan

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is encoding/json's nesting limit (its maxNestingDepth). A caller that must agree
// with encoding/json on what is JSON passes it to Skip.
const MaxDepth = 10000

// IsSpace reports JSON white space: space, tab, LF, CR.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the index of the first byte at or after i that is not JSON white space,
// or len(b).
func SkipSpace(b []byte, i int) int {
	if i < len(b) && b[i] > ' ' {
		return i // no white space at all, the common case: small enough to inline
	}
	return skipSpaceSlow(b, i)
}

func skipSpaceSlow(b []byte, i int) int {
	for i < len(b) {
		c := b[i]
		if c > ' ' || !IsSpace(c) {
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

// PlainEnd returns the index of the first byte at or after i that a string reader must
// look at: '"', '\\', a control byte (< 0x20) or a non-ASCII byte (>= 0x80); len(b) if
// there is none. It looks at eight bytes per step (see SpecialBytes).
func PlainEnd(b []byte, i int) int {
	for i+8 <= len(b) {
		if m := SpecialBytes(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			return i
		}
	}
	return i
}

// SpecialBytes takes eight string bytes as a little-endian word and returns a word with the
// high bit set in the lowest byte that is '"', '\\', < 0x20 or >= 0x80, no bit below it
// (bits above it may be set too); zero if no byte is special. The lowest special byte is
// bits.TrailingZeros64(m) >> 3.
//
// Why it works, per byte b < 0x80 with no borrow coming in: b^0x02 maps 0x00..0x1F onto
// themselves and '"' (0x22) to 0x20, and every other byte to 0x21 or more, so subtracting
// 0x21 wraps (sets the high bit) exactly for control bytes and '"'. (b^'\\')-1 wraps only
// for '\\'. A byte >= 0x80 carries its own high bit and never wraps. A borrow only leaves a
// byte that wrapped, that is, a special byte, so it cannot disturb the lowest one.
func SpecialBytes(w uint64) uint64 {
	return (((w ^ (ones * 0x02)) - ones*0x21) | ((w ^ (ones * '\\')) - ones) | w) & highs
}

// Hex4 decodes the four hex digits at b[i:i+4]; -1 if there are not four.
func Hex4(b []byte, i int) rune {
	if i < 0 || len(b)-i < 4 {
		return -1
	}
	var r rune
	for _, c := range b[i : i+4] {
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

// ShortEscape maps the byte after a backslash to the byte the two-character escape stands
// for; 0 for 'u' and for every byte that does not make a valid escape.
var ShortEscape = [256]byte{
	'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t',
}

// DecodeAt decodes the escape (b[i] == '\\') or the non-ASCII UTF-8 sequence (b[i] >= 0x80)
// at b[i] inside a string body, the same way under both policies. It returns the code point
// and the index after it; ok is false, with next == i, for an invalid escape (what to do
// with it is the policy's business).
//
// A \uXXXX high surrogate directly followed by a \uXXXX low surrogate is one code point;
// any other surrogate escape is U+FFFD, and what follows it is read on its own. A byte of
// invalid UTF-8 is U+FFFD of length 1 (utf8.DecodeRune's answer); AsWritten readers copy the
// byte instead of using r.
func DecodeAt(b []byte, i int) (r rune, next int, ok bool) {
	if b[i] != '\\' {
		r, size := utf8.DecodeRune(b[i:])
		return r, i + size, true
	}
	if i+1 >= len(b) {
		return 0, i, false
	}
	c := b[i+1]
	if c != 'u' {
		if e := ShortEscape[c]; e != 0 {
			return rune(e), i + 2, true
		}
		return 0, i, false
	}
	if r = Hex4(b, i+2); r < 0 {
		return 0, i, false
	}
	next = i + 6
	if !utf16.IsSurrogate(r) {
		return r, next, true
	}
	if next+1 < len(b) && b[next] == '\\' && b[next+1] == 'u' {
		if r2 := Hex4(b, next+2); r2 >= 0 {
			if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
				return pair, next + 6, true
			}
		}
	}
	return utf8.RuneError, next, true
}

// Number returns the index after the number literal starting at b[i], and whether one
// starts there: an optional '-', then 0 or a digit run not starting with 0, then optionally
// '.' and digits, then optionally 'e' or 'E', a sign and digits. It checks the grammar only;
// the value is the caller's (strconv.ParseFloat accepts every literal this accepts).
func Number(b []byte, i int) (end int, ok bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return i, false
	case b[i] == '0':
		i++
	case '1' <= b[i] && b[i] <= '9':
		i = digits(b, i+1)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i]-'0' <= 9 {
		i++
	}
	return i
}

// HasLiteral reports whether b[i:] starts with lit (true, false or null).
func HasLiteral(b []byte, i int, lit string) bool {
	return len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit
}
