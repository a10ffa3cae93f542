package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// walker reads a JSON text held in memory, decoding only what the readers ask for. Values
// that are not needed are skipped by a byte loop that checks their structure (brackets,
// colons, commas, literals, numbers; strings are only checked to be closed): several times
// faster than encoding/json, whose state machine looks at every byte of every value, twice,
// which matters because the big parts of transcripts are the ones not needed (SWE-agent 1.x
// repeats the whole chat in every step; Claude Code repeats tool output in toolUseResult).
// Values read are decoded exactly (strings with all JSON escapes); composite values the
// readers want whole go through encoding/json.
//
// Errors carry the byte offset; lineError turns it into a line number.
type walker struct {
	data []byte
}

// memberFunc handles one member of an object: it gets the key and the value's offset and
// returns the offset past the value.
type memberFunc = func(key []byte, v int) (int, error)

type walkError struct {
	off int
	msg string
}

func (e *walkError) Error() string { return e.msg }

func (w *walker) errAt(off int, format string, args ...any) error {
	if off >= len(w.data) {
		return &walkError{off: len(w.data), msg: "unexpected end of data (truncated file?)"}
	}
	return &walkError{off: off, msg: fmt.Sprintf(format, args...)}
}

// lineError turns a walker error into an *Error with the line it happened on.
func (w *walker) lineError(name string, err error) error {
	var we *walkError
	if errors.As(err, &we) {
		return &Error{Path: name, Line: lineOf(w.data, min(we.off, len(w.data))), Err: errors.New(we.msg)}
	}
	return &Error{Path: name, Err: err}
}

func (w *walker) ws(i int) int {
	for i < len(w.data) {
		switch w.data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skip returns the offset just past the value at i, checking its structure: brackets,
// colons, commas, literals and numbers. Strings are only checked to be closed (their escapes
// and control characters are not checked: that would cost a look at every byte).
func (w *walker) skip(i int) (int, error) {
	if i >= len(w.data) {
		return i, w.errAt(i, "")
	}
	switch w.data[i] {
	case '"':
		return w.skipString(i)
	case '{', '[':
		return w.skipNested(i)
	}
	return w.skipScalar(i)
}

// skipScalar skips a literal or a number.
func (w *walker) skipScalar(i int) (int, error) {
	d := w.data
	switch c := d[i]; c {
	case 't':
		return w.literal(i, "true")
	case 'f':
		return w.literal(i, "false")
	case 'n':
		return w.literal(i, "null")
	default:
		if c != '-' && (c < '0' || c > '9') {
			return i, w.errAt(i, "invalid character %q looking for a JSON value", c)
		}
	}
	j := i
	if d[j] == '-' {
		j++
	}
	digits := func() bool {
		k := j
		for j < len(d) && d[j] >= '0' && d[j] <= '9' {
			j++
		}
		return j > k
	}
	if j < len(d) && d[j] == '0' {
		j++
	} else if !digits() {
		return i, w.errAt(j, "invalid number")
	}
	if j < len(d) && d[j] == '.' {
		j++
		if !digits() {
			return i, w.errAt(j, "invalid number")
		}
	}
	if j < len(d) && (d[j] == 'e' || d[j] == 'E') {
		j++
		if j < len(d) && (d[j] == '+' || d[j] == '-') {
			j++
		}
		if !digits() {
			return i, w.errAt(j, "invalid number")
		}
	}
	return j, nil
}

func (w *walker) literal(i int, lit string) (int, error) {
	if !bytes.HasPrefix(w.data[i:], []byte(lit)) {
		if len(w.data)-i < len(lit) && bytes.HasPrefix([]byte(lit), w.data[i:]) {
			return i, w.errAt(len(w.data), "")
		}
		return i, w.errAt(i, "invalid literal, expected %s", lit)
	}
	return i + len(lit), nil
}

// skipString returns the offset past the string starting at i (a quote).
func (w *walker) skipString(i int) (int, error) {
	j := i + 1
	for {
		k := bytes.IndexByte(w.data[j:], '"')
		if k < 0 {
			return i, w.errAt(len(w.data), "")
		}
		q := j + k
		bs := 0
		for p := q - 1; p > i && w.data[p] == '\\'; p-- {
			bs++
		}
		if bs%2 == 0 {
			return q + 1, nil
		}
		j = q + 1
	}
}

// skipKey skips an object key and its colon, returning the offset of the value.
func (w *walker) skipKey(j int) (int, error) {
	if j >= len(w.data) {
		return j, w.errAt(j, "")
	}
	if w.data[j] != '"' {
		return j, w.errAt(j, "invalid character %q looking for an object key", w.data[j])
	}
	j, err := w.skipString(j)
	if err != nil {
		return j, err
	}
	j = w.ws(j)
	if j >= len(w.data) {
		return j, w.errAt(j, "")
	}
	if w.data[j] != ':' {
		return j, w.errAt(j, "invalid character %q after object key", w.data[j])
	}
	return w.ws(j + 1), nil
}

// skipNested skips an object or array, iteratively (no recursion, whatever the depth).
func (w *walker) skipNested(i int) (int, error) {
	d := w.data
	var local [64]byte
	stack := local[:0] // the closing bracket of each open container
	j := i
	var err error
	for {
		// A value starts at j.
		if j >= len(d) {
			return i, w.errAt(j, "")
		}
		switch d[j] {
		case '{', '[':
			closer := byte('}')
			if d[j] == '[' {
				closer = ']'
			}
			stack = append(stack, closer)
			j = w.ws(j + 1)
			if j < len(d) && d[j] == closer {
				j++
				stack = stack[:len(stack)-1]
				break
			}
			if closer == '}' {
				if j, err = w.skipKey(j); err != nil {
					return i, err
				}
			}
			continue // the container's first value
		case '"':
			if j, err = w.skipString(j); err != nil {
				return i, err
			}
		default:
			if j, err = w.skipScalar(j); err != nil {
				return i, err
			}
		}
		// After a value: a comma and the next value, or closing brackets.
		for {
			if len(stack) == 0 {
				return j, nil
			}
			j = w.ws(j)
			if j >= len(d) {
				return i, w.errAt(j, "")
			}
			top := stack[len(stack)-1]
			if d[j] == top {
				j++
				stack = stack[:len(stack)-1]
				continue
			}
			if d[j] != ',' {
				return i, w.errAt(j, "invalid character %q after a value", d[j])
			}
			j = w.ws(j + 1)
			if top == '}' {
				if j, err = w.skipKey(j); err != nil {
					return i, err
				}
			}
			break
		}
	}
}

// object calls fn for every member of the object at i; fn gets the key and the value's offset
// and returns the offset past the value (w.skip if it does not want it). It returns the offset
// past the object. A value at i that is not an object is skipped, and fn is not called.
func (w *walker) object(i int, fn func(key []byte, v int) (int, error)) (int, error) {
	i = w.ws(i)
	if i >= len(w.data) {
		return i, w.errAt(i, "")
	}
	if w.data[i] != '{' {
		return w.skip(i)
	}
	i = w.ws(i + 1)
	if i < len(w.data) && w.data[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(w.data) {
			return i, w.errAt(i, "")
		}
		if w.data[i] != '"' {
			return i, w.errAt(i, "invalid character %q looking for an object key", w.data[i])
		}
		kEnd, err := w.skipString(i)
		if err != nil {
			return i, err
		}
		key := w.data[i+1 : kEnd-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			key = []byte(w.unquote(i, kEnd))
		}
		i = w.ws(kEnd)
		if i >= len(w.data) || w.data[i] != ':' {
			return i, w.errAt(i, "expected ':' after object key")
		}
		i = w.ws(i + 1)
		if i >= len(w.data) {
			return i, w.errAt(i, "")
		}
		if i, err = fn(key, i); err != nil {
			return i, err
		}
		i = w.ws(i)
		if i >= len(w.data) {
			return i, w.errAt(i, "")
		}
		switch w.data[i] {
		case ',':
			i = w.ws(i + 1)
		case '}':
			return i + 1, nil
		default:
			return i, w.errAt(i, "invalid character %q after object value", w.data[i])
		}
	}
}

// array calls fn for every element of the array at i, like object.
func (w *walker) array(i int, fn func(v int) (int, error)) (int, error) {
	i = w.ws(i)
	if i >= len(w.data) {
		return i, w.errAt(i, "")
	}
	if w.data[i] != '[' {
		return w.skip(i)
	}
	i = w.ws(i + 1)
	if i < len(w.data) && w.data[i] == ']' {
		return i + 1, nil
	}
	for {
		if i >= len(w.data) {
			return i, w.errAt(i, "")
		}
		var err error
		if i, err = fn(i); err != nil {
			return i, err
		}
		i = w.ws(i)
		if i >= len(w.data) {
			return i, w.errAt(i, "")
		}
		switch w.data[i] {
		case ',':
			i = w.ws(i + 1)
		case ']':
			return i + 1, nil
		default:
			return i, w.errAt(i, "invalid character %q after array element", w.data[i])
		}
	}
}

// str reads the string at i into *dst; a value of another type is skipped and leaves *dst.
func (w *walker) str(i int, dst *string) (int, error) {
	if w.data[i] != '"' {
		return w.skip(i)
	}
	end, err := w.skipString(i)
	if err != nil {
		return i, err
	}
	*dst = w.unquote(i, end)
	return end, nil
}

// strPtr reads a string into a new *string (nil for other types).
func (w *walker) strPtr(i int, dst **string) (int, error) {
	if w.data[i] != '"' {
		return w.skip(i)
	}
	var s string
	end, err := w.str(i, &s)
	*dst = &s
	return end, err
}

func (w *walker) boolean(i int, dst *bool) (int, error) {
	switch w.data[i] {
	case 't':
		*dst = true
		return w.literal(i, "true")
	case 'f':
		*dst = false
		return w.literal(i, "false")
	}
	return w.skip(i)
}

// std decodes the value at i with encoding/json into dst. Values of an unexpected type are
// left zero, as encoding/json does.
func (w *walker) std(i int, dst any) (int, error) {
	end, err := w.skip(i)
	if err != nil {
		return i, err
	}
	if err := json.Unmarshal(w.data[i:end], dst); err != nil && !tolerable(err) {
		return i, w.errAt(i, "invalid JSON value: %v", err)
	}
	return end, nil
}

// raw returns a copy of the bytes of the value at i.
func (w *walker) raw(i int, dst *json.RawMessage) (int, error) {
	end, err := w.skip(i)
	if err != nil {
		return i, err
	}
	*dst = append(json.RawMessage(nil), w.data[i:end]...)
	return end, nil
}

// anyValue decodes the value at i as encoding/json would into an `any`, reading strings
// directly.
func (w *walker) anyValue(i int, dst *any) (int, error) {
	if w.data[i] == '"' {
		var s string
		end, err := w.str(i, &s)
		*dst = s
		return end, err
	}
	return w.std(i, dst)
}

// unquote decodes the string literal data[i:end] (quotes included).
func (w *walker) unquote(i, end int) string {
	s := w.data[i+1 : end-1]
	if bytes.IndexByte(s, '\\') < 0 {
		return string(s)
	}
	out := make([]byte, 0, len(s))
	for k := 0; k < len(s); k++ {
		if s[k] != '\\' {
			// Copy the whole run up to the next escape at once: tool output is long and
			// escapes are sparse.
			n := bytes.IndexByte(s[k:], '\\')
			if n < 0 {
				out = append(out, s[k:]...)
				break
			}
			out = append(out, s[k:k+n]...)
			k += n
		}
		k++
		if k >= len(s) {
			break
		}
		switch s[k] {
		case '"', '\\', '/':
			out = append(out, s[k])
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
			r, ok := hex4(s[k+1:])
			if !ok {
				out = append(out, '\\', 'u')
				continue
			}
			k += 4
			if utf16.IsSurrogate(r) {
				if k+6 < len(s) && s[k+1] == '\\' && s[k+2] == 'u' {
					if r2, ok := hex4(s[k+3:]); ok {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							out = utf8.AppendRune(out, dec)
							k += 6
							continue
						}
					}
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
		default:
			out = append(out, '\\', s[k])
		}
	}
	return string(out)
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// end checks that only white space follows the value ending at i.
func (w *walker) end(i int) error {
	i = w.ws(i)
	if i < len(w.data) {
		return w.errAt(i, "unexpected data after the JSON document")
	}
	return nil
}
