package jsonscan

import (
	"errors"
	"fmt"
)

// SyntaxError is a scanning error at a byte offset of the input. Offset == len(input) means
// the input ended early.
type SyntaxError struct {
	Offset int
	Msg    string
	Err    error // ErrDepth for nesting past the limit, else nil
}

func (e *SyntaxError) Error() string { return e.Msg }

func (e *SyntaxError) Unwrap() error { return e.Err }

// ErrDepth is what a SyntaxError for a value nested past Skip's limit wraps.
var ErrDepth = errors.New("JSON nested too deeply")

// errAt builds the error for offset off of b; past the end, the message says the input
// ended, whatever msg was.
func errAt(b []byte, off int, msg string) *SyntaxError {
	if off >= len(b) {
		return &SyntaxError{Offset: len(b), Msg: "unexpected end of input"}
	}
	return &SyntaxError{Offset: off, Msg: msg}
}

// Truncated reports whether err is a SyntaxError for input that ended early.
func Truncated(err error, input []byte) bool {
	var se *SyntaxError
	return errors.As(err, &se) && se.Offset >= len(input)
}

// Skip checks the value starting at b[i] (white space before it is not skipped) and returns
// the index after it. Strings are checked as policy p has it. Containers nested more than
// maxDepth deep are an error; maxDepth <= 0 means no limit. There is no recursion: open
// containers are kept as one byte each on a stack that lives on the goroutine stack up to
// 64 levels.
func Skip(b []byte, i int, p Policy, maxDepth int) (int, error) {
	var local [64]byte
	stack := local[:0] // the closing bracket of each open container
	var err error
	for {
		// A value starts at b[i].
		if i >= len(b) {
			return i, errAt(b, i, "")
		}
		switch c := b[i]; c {
		case '{', '[':
			if maxDepth > 0 && len(stack) >= maxDepth {
				return i, &SyntaxError{Offset: i, Msg: ErrDepth.Error(), Err: ErrDepth}
			}
			closer := c + 2 // '{'+2 == '}', '['+2 == ']'
			if i = SkipSpace(b, i+1); i < len(b) && b[i] == closer {
				i++
				break // an empty container is a complete value
			}
			stack = append(stack, closer)
			if closer == '}' {
				if i, err = memberValue(b, i, p); err != nil {
					return i, err
				}
			}
			continue
		case '"':
			if i, err = skipString(b, i, p); err != nil {
				return i, err
			}
		default:
			if i, err = Scalar(b, i); err != nil {
				return i, err
			}
		}
		// After a value: close containers, or a comma and the next value.
		for {
			if len(stack) == 0 {
				return i, nil
			}
			i = SkipSpace(b, i)
			if i >= len(b) {
				return i, errAt(b, i, "")
			}
			top := stack[len(stack)-1]
			if b[i] == top {
				i++
				stack = stack[:len(stack)-1]
				continue
			}
			if b[i] != ',' {
				return i, errAt(b, i, fmt.Sprintf("invalid character %q after a value", b[i]))
			}
			i = SkipSpace(b, i+1)
			if top == '}' {
				if i, err = memberValue(b, i, p); err != nil {
					return i, err
				}
			}
			break
		}
	}
}

// skipString is String without the flags, with the AsWritten case kept to one call.
func skipString(b []byte, i int, p Policy) (int, error) {
	if p == AsWritten {
		if end := looseEnd(b, i); end >= 0 {
			return end, nil
		}
		return len(b), errAt(b, len(b), "")
	}
	end, _, err := String(b, i, p)
	return end, err
}

// Scalar checks the number or literal at b[i] and returns the index after it.
func Scalar(b []byte, i int) (int, error) {
	if i >= len(b) {
		return i, errAt(b, i, "")
	}
	var lit string
	switch c := b[i]; c {
	case 't':
		lit = "true"
	case 'f':
		lit = "false"
	case 'n':
		lit = "null"
	default:
		if c != '-' && (c < '0' || c > '9') {
			return i, errAt(b, i, fmt.Sprintf("invalid character %q looking for a JSON value", c))
		}
		end, ok := Number(b, i)
		if !ok {
			return end, errAt(b, end, "invalid number")
		}
		return end, nil
	}
	if HasLiteral(b, i, lit) {
		return i + len(lit), nil
	}
	if len(b)-i < len(lit) && lit[:len(b)-i] == string(b[i:]) {
		return len(b), errAt(b, len(b), "") // a literal cut short
	}
	return i, errAt(b, i, "invalid literal, expected "+lit)
}

// memberValue reads an object member's key and colon at b[i] and returns the index of its
// value.
func memberValue(b []byte, i int, p Policy) (int, error) {
	if i >= len(b) {
		return i, errAt(b, i, "")
	}
	if b[i] != '"' {
		return i, errAt(b, i, fmt.Sprintf("invalid character %q looking for an object key", b[i]))
	}
	i, err := skipString(b, i, p)
	if err != nil {
		return i, err
	}
	return colon(b, i)
}

// colon expects optional white space and ':' at b[i], and returns the index of what follows
// it, white space skipped.
func colon(b []byte, i int) (int, error) {
	i = SkipSpace(b, i)
	if i >= len(b) {
		return i, errAt(b, i, "")
	}
	if b[i] != ':' {
		return i, errAt(b, i, fmt.Sprintf("invalid character %q after object key", b[i]))
	}
	i = SkipSpace(b, i+1)
	if i >= len(b) {
		return i, errAt(b, i, "")
	}
	return i, nil
}

// Key reads an object member's key at b[i] (a quote) and the colon after it. It returns the
// key's raw body (still escaped when f has Escaped), its flags, and the index of the value.
func Key(b []byte, i int, p Policy) (key []byte, f Flags, v int, err error) {
	if i >= len(b) {
		return nil, 0, i, errAt(b, i, "")
	}
	if b[i] != '"' {
		return nil, 0, i, errAt(b, i, fmt.Sprintf("invalid character %q looking for an object key", b[i]))
	}
	end, f, err := String(b, i, p)
	if err != nil {
		return nil, 0, end, err
	}
	v, err = colon(b, end)
	return b[i+1 : end-1], f, v, err
}

// Open starts reading the container at b[i] ('{' or '['). It returns the index of its first
// member or element, white space skipped, or, for an empty container, the index after it
// with more false.
func Open(b []byte, i int) (next int, more bool, err error) {
	closer := b[i] + 2
	i = SkipSpace(b, i+1)
	if i >= len(b) {
		return i, false, errAt(b, i, "")
	}
	if b[i] == closer {
		return i + 1, false, nil
	}
	return i, true, nil
}

// Next reads what follows a member or element ending at b[i], in a container closed by
// closer ('}' or ']'): a comma (more is true and next is the index of the next member or
// element, white space skipped) or the closer (next is the index after it).
func Next(b []byte, i int, closer byte) (next int, more bool, err error) {
	i = SkipSpace(b, i)
	if i >= len(b) {
		return i, false, errAt(b, i, "")
	}
	switch b[i] {
	case ',':
		i = SkipSpace(b, i+1)
		if i >= len(b) {
			return i, false, errAt(b, i, "")
		}
		return i, true, nil
	case closer:
		return i + 1, false, nil
	}
	return i, false, errAt(b, i, fmt.Sprintf("invalid character %q after a value", b[i]))
}

// Object calls fn for each member of the object at b[i]: fn gets the raw key body, its
// flags and the index of the value, and returns the index after the value (Skip it if it
// is not wanted). Object returns the index after the object. Errors from fn are returned
// as they are.
func Object(b []byte, i int, p Policy, fn func(key []byte, f Flags, v int) (int, error)) (int, error) {
	i, more, err := Open(b, i)
	for more && err == nil {
		var key []byte
		var f Flags
		if key, f, i, err = Key(b, i, p); err != nil {
			return i, err
		}
		if i, err = fn(key, f, i); err != nil {
			return i, err
		}
		i, more, err = Next(b, i, '}')
	}
	return i, err
}

// Array calls fn for each element of the array at b[i], as Object does for members.
func Array(b []byte, i int, fn func(v int) (int, error)) (int, error) {
	i, more, err := Open(b, i)
	for more && err == nil {
		if i, err = fn(i); err != nil {
			return i, err
		}
		i, more, err = Next(b, i, ']')
	}
	return i, err
}
