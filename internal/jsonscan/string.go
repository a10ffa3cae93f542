package jsonscan

import (
	"bytes"
	"unicode/utf8"
)

// Policy is what a reader does with a string that is not valid JSON; see the package
// documentation for the full table.
type Policy uint8

const (
	// Strict refuses bad escapes and control bytes, and decodes as encoding/json does.
	Strict Policy = iota
	// AsWritten keeps whatever is not a valid escape as written and only requires a string
	// to be closed.
	AsWritten
)

// Flags describe a string body found by String.
type Flags uint8

const (
	// Escaped: the body holds a backslash, so it differs from its decoded value.
	Escaped Flags = 1 << iota
	// NonASCII: the body holds a byte >= 0x80 (Strict only; AsWritten does not look). Under
	// Strict, a body with neither flag is its own decoded value.
	NonASCII
)

// String scans the string whose opening quote is b[i] and returns the index after its
// closing quote, and flags for its body b[i+1:end-1]. Under Strict the body is checked as
// encoding/json checks it; under AsWritten the string ends at the first quote not escaped by
// a backslash, and only Escaped is reported.
func String(b []byte, i int, p Policy) (end int, f Flags, err error) {
	if i >= len(b) || b[i] != '"' {
		return i, 0, errAt(b, i, "expected a string")
	}
	if p == AsWritten {
		return looseString(b, i)
	}
	j := i + 1
	for {
		j = PlainEnd(b, j)
		if j >= len(b) {
			return j, f, errAt(b, j, "")
		}
		switch c := b[j]; {
		case c == '"':
			return j + 1, f, nil
		case c == '\\':
			f |= Escaped
			if j+1 >= len(b) {
				return j + 1, f, errAt(b, j+1, "")
			}
			if ShortEscape[b[j+1]] != 0 {
				j += 2
				continue
			}
			if b[j+1] == 'u' && Hex4(b, j+2) >= 0 {
				j += 6
				continue
			}
			return badEscape(b, j, f)
		case c < 0x20:
			return j, f, errAt(b, j, "control character in a string")
		default: // non-ASCII: accepted as it is (invalid UTF-8 decodes to U+FFFD)
			f |= NonASCII
			j++
			for j < len(b) && b[j] >= utf8.RuneSelf {
				j++
			}
		}
	}
}

// badEscape reports the invalid escape at b[j]: as the end of the input when the input
// stops inside what could still have been a valid \uXXXX escape (a truncated line), else as
// a bad escape at j.
func badEscape(b []byte, j int, f Flags) (int, Flags, error) {
	if j+1 >= len(b) {
		return len(b), f, errAt(b, len(b), "")
	}
	if b[j+1] == 'u' {
		k := j + 2
		for k < len(b) && k < j+6 && isHex(b[k]) {
			k++
		}
		if k == len(b) {
			return k, f, errAt(b, k, "")
		}
	}
	return j, f, errAt(b, j, "invalid escape in a string")
}

// looseEnd returns the index after the string whose opening quote is b[i] under AsWritten:
// the first quote not escaped by an odd run of backslashes; -1 if there is none. The quote
// is found with bytes.IndexByte, which is vectorised: long tool outputs make this the loop
// transcripts spend their time in, and the skipper uses it without looking for escapes.
func looseEnd(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// looseString is String under AsWritten.
func looseString(b []byte, i int) (int, Flags, error) {
	end := looseEnd(b, i)
	if end < 0 {
		return len(b), 0, errAt(b, len(b), "")
	}
	if bytes.IndexByte(b[i+1:end-1], '\\') >= 0 {
		return end, Escaped, nil
	}
	return end, 0, nil
}

// AppendUnescaped appends the decoded value of the string body raw (the bytes between the
// quotes) to dst. ok is false only under Strict, at the first bad escape, with dst holding
// what was decoded before it; the body of a string String accepted under Strict never
// fails. Control bytes are copied under both policies (String is where Strict refuses
// them).
func AppendUnescaped(dst, raw []byte, p Policy) (out []byte, ok bool) {
	if p == AsWritten {
		return appendAsWritten(dst, raw), true
	}
	for i := 0; i < len(raw); {
		if c := raw[i]; c != '\\' && c < utf8.RuneSelf {
			j := PlainEnd(raw, i+1)
			dst = append(dst, raw[i:j]...)
			i = j
			continue
		}
		r, next, ok := DecodeAt(raw, i)
		if !ok {
			return dst, false
		}
		dst = utf8.AppendRune(dst, r)
		i = next
	}
	return dst, true
}

// appendAsWritten is AppendUnescaped under AsWritten. Only backslashes need attention (bytes
// are kept as they are), so the runs between them are found with bytes.IndexByte: tool
// output is long and its escapes are sparse (a \n per line).
func appendAsWritten(dst, raw []byte) []byte {
	for {
		k := bytes.IndexByte(raw, '\\')
		if k < 0 {
			return append(dst, raw...)
		}
		dst = append(dst, raw[:k]...)
		raw = raw[k:]
		if len(raw) > 1 && ShortEscape[raw[1]] != 0 { // \n and the like, the usual escapes
			dst = append(dst, ShortEscape[raw[1]])
			raw = raw[2:]
			continue
		}
		r, next, ok := DecodeAt(raw, 0)
		if !ok {
			// Keep the backslash; what follows it is read as ordinary text, which copies
			// \x as \x and \u12G4 as \u12G4.
			dst = append(dst, '\\')
			raw = raw[1:]
			continue
		}
		dst = utf8.AppendRune(dst, r)
		raw = raw[next:]
	}
}

// AppendString decodes the string whose opening quote is b[i] onto dst, in one pass, and
// returns the index after its closing quote. Under Strict this is String and
// AppendUnescaped at once; under AsWritten it is the same as calling them in turn.
func AppendString(dst, b []byte, i int, p Policy) (out []byte, end int, err error) {
	if i >= len(b) || b[i] != '"' {
		return dst, i, errAt(b, i, "expected a string")
	}
	if p == AsWritten {
		end, _, err := looseString(b, i)
		if err != nil {
			return dst, end, err
		}
		return appendAsWritten(dst, b[i+1:end-1]), end, nil
	}
	j := i + 1
	for j < len(b) {
		switch c := b[j]; {
		case c == '"':
			return dst, j + 1, nil
		case c < 0x20:
			return dst, j, errAt(b, j, "control character in a string")
		case c == '\\' || c >= utf8.RuneSelf:
			r, next, ok := DecodeAt(b, j)
			if !ok {
				end, _, err := badEscape(b, j, 0)
				return dst, end, err
			}
			dst = utf8.AppendRune(dst, r)
			j = next
		default:
			k := PlainEnd(b, j+1)
			dst = append(dst, b[j:k]...)
			j = k
		}
	}
	return dst, j, errAt(b, j, "")
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
