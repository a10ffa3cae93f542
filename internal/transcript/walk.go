package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/loopguard/loopguard/internal/jsonscan"
)

// walker reads a JSON text held in memory, decoding only what the readers ask for. Values
// that are not needed are skipped by jsonscan.Skip, which checks their structure (brackets,
// colons, commas, literals, numbers) but, under the AsWritten policy used here, only checks
// strings to be closed: several times faster than encoding/json, whose state machine looks
// at every byte of every value, twice, which matters because the big parts of transcripts
// are the ones not needed (SWE-agent 1.x repeats the whole chat in every step; Claude Code
// repeats tool output in toolUseResult). Strings read are decoded with all JSON escapes,
// and what is not a valid escape (a Windows path written with single backslashes, a stray
// \x in a hand-edited file) is kept as written rather than losing the session; composite
// values the readers want whole go through encoding/json. Nesting is not limited here:
// what encoding/json decodes is refused there, past its own limit.
//
// Errors carry the byte offset; lineError turns it into a line number.
type walker struct {
	data   []byte
	pooled bool // data came from documentBuffers (see release)
	// lazyContent: string message contents are checked but not decoded (msg.contentAt);
	// set while SWE-agent's history is read.
	lazyContent bool
}

// memberFunc handles one member of an object: it gets the key and the value's offset and
// returns the offset past the value.
type memberFunc = func(key []byte, v int) (int, error)

// walkError is a walker error at a byte offset: jsonscan's for the JSON itself, the
// walker's own for values it reads.
type walkError = jsonscan.SyntaxError

// truncated is the message for data that ends inside a value.
const truncated = "unexpected end of data (truncated file?)"

func (w *walker) errAt(off int, format string, args ...any) error {
	if off >= len(w.data) {
		return &walkError{Offset: len(w.data), Msg: truncated}
	}
	return &walkError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// fail passes on an error, in the walker's words when the data ended inside a value: the
// messages of JSONL lines do not go through lineError.
func (w *walker) fail(end int, err error) (int, error) {
	var we *walkError
	if errors.As(err, &we) && we.Offset >= len(w.data) {
		we.Msg = truncated
	}
	return end, err
}

// lineError turns a walker error into an *Error with the line it happened on. An error at
// the end of the data means the file ended inside a value.
func (w *walker) lineError(name string, err error) error {
	var we *walkError
	if errors.As(err, &we) {
		msg := we.Msg
		if we.Offset >= len(w.data) {
			msg = truncated
		}
		return &Error{Path: name, Line: lineOf(w.data, min(we.Offset, len(w.data))), Err: errors.New(msg)}
	}
	return &Error{Path: name, Err: err}
}

func (w *walker) ws(i int) int { return jsonscan.SkipSpace(w.data, i) }

// skip returns the offset just past the value at i, checking its structure.
func (w *walker) skip(i int) (int, error) {
	end, err := jsonscan.Skip(w.data, i, jsonscan.AsWritten, 0)
	if err != nil {
		return w.fail(end, err)
	}
	return end, nil
}

// object calls fn for every member of the object at i (white space before it allowed); fn
// gets the decoded key and the value's offset and returns the offset past the value (w.skip
// if it does not want it). It returns the offset past the object. A value at i that is not
// an object is skipped, and fn is not called.
func (w *walker) object(i int, fn memberFunc) (int, error) {
	i = w.ws(i)
	if i >= len(w.data) || w.data[i] != '{' {
		return w.skip(i)
	}
	end, err := jsonscan.Object(w.data, i, jsonscan.AsWritten, func(key []byte, f jsonscan.Flags, v int) (int, error) {
		if f&jsonscan.Escaped != 0 {
			key, _ = jsonscan.AppendUnescaped(nil, key, jsonscan.AsWritten)
		}
		return fn(key, v)
	})
	if err != nil {
		return w.fail(end, err)
	}
	return end, nil
}

// array calls fn for every element of the array at i, like object.
func (w *walker) array(i int, fn func(v int) (int, error)) (int, error) {
	i = w.ws(i)
	if i >= len(w.data) || w.data[i] != '[' {
		return w.skip(i)
	}
	end, err := jsonscan.Array(w.data, i, fn)
	if err != nil {
		return w.fail(end, err)
	}
	return end, nil
}

// str reads the string at i into *dst; a value of another type is skipped and leaves *dst.
func (w *walker) str(i int, dst *string) (int, error) {
	if w.data[i] != '"' {
		return w.skip(i)
	}
	end, f, err := jsonscan.String(w.data, i, jsonscan.AsWritten)
	if err != nil {
		return w.fail(i, err)
	}
	body := w.data[i+1 : end-1]
	if f&jsonscan.Escaped == 0 {
		*dst = string(body)
		return end, nil
	}
	out, _ := jsonscan.AppendUnescaped(make([]byte, 0, len(body)), body, jsonscan.AsWritten)
	// out is new and goes nowhere else: the string may have its bytes rather than a copy.
	*dst = unsafe.String(unsafe.SliceData(out), len(out))
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
	case 'f':
		*dst = false
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

// stdMember is a member of an object found by stdMembers.
type stdMember struct {
	name string // one of the names asked for
	v    int    // the offset of its value
}

// errNotPlain stops stdMembers at a key it leaves to encoding/json.
var errNotPlain = errors.New("key left to encoding/json")

// stdMembers serves readers that want a few members of an object that std would decode
// into a struct: it checks the object at i as encoding/json would (jsonscan's Strict policy
// is encoding/json's grammar, MaxDepth its nesting limit) and returns the offset past it and
// the members named in names, in order, duplicates included. Decoding each of those as std
// would then gives what std gives for the whole object, without encoding/json reading the
// members nobody wants (an info block's patch and edited files). ok is false when std must
// decide: the value is not an object or not valid JSON (std has the error), or a key is
// escaped, not ASCII, or a case variant of a name (encoding/json matches keys regardless of
// case).
func (w *walker) stdMembers(i int, names ...string) (end int, found []stdMember, ok bool) {
	if w.data[i] != '{' {
		return i, nil, false
	}
	end, err := jsonscan.Object(w.data, i, jsonscan.Strict, func(key []byte, f jsonscan.Flags, v int) (int, error) {
		if f != 0 {
			return v, errNotPlain
		}
		for _, n := range names {
			if string(key) == n {
				found = append(found, stdMember{n, v})
				break
			}
			if strings.EqualFold(string(key), n) {
				return v, errNotPlain
			}
		}
		return jsonscan.Skip(w.data, v, jsonscan.Strict, jsonscan.MaxDepth-1)
	})
	if err != nil {
		return i, nil, false
	}
	return end, found, true
}

// stdInt is std for an int64: a number is parsed here (a number out of range leaves *dst,
// as encoding/json's type error does), anything else goes to std.
func (w *walker) stdInt(i int, dst *int64) (int, error) {
	if !isNumberStart(w.data[i]) {
		return w.std(i, dst)
	}
	end, err := w.skip(i)
	if err != nil {
		return i, err
	}
	if n, err := strconv.ParseInt(string(w.data[i:end]), 10, 64); err == nil {
		*dst = n
	}
	return end, nil
}

// stdFloat is std for a float64, as stdInt is for an int64.
func (w *walker) stdFloat(i int, dst *float64) (int, error) {
	if !isNumberStart(w.data[i]) {
		return w.std(i, dst)
	}
	end, err := w.skip(i)
	if err != nil {
		return i, err
	}
	if f, err := strconv.ParseFloat(string(w.data[i:end]), 64); err == nil {
		*dst = f
	}
	return end, nil
}

func isNumberStart(c byte) bool { return c == '-' || '0' <= c && c <= '9' }

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

// end checks that only white space follows the value ending at i.
func (w *walker) end(i int) error {
	i = w.ws(i)
	if i < len(w.data) {
		return w.errAt(i, "unexpected data after the JSON document")
	}
	return nil
}
