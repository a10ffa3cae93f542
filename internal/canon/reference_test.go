package canon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
)

// referenceCanonical is the slow, obviously-correct definition of "the
// same": it decodes with encoding/json (UseNumber, so number literals
// survive) and writes RFC 8785 text. Two inputs are the same exactly when
// their reference texts are equal.
//
// It relies on encoding/json v1 behaviour (the default build): Valid
// accepts invalid UTF-8 inside strings and caps nesting at 10000, and
// decoding coerces bad UTF-8 and unpaired surrogates to U+FFFD.
func referenceCanonical(x []byte) string {
	if len(x) == 0 {
		return "{}"
	}
	if !json.Valid(x) {
		var b strings.Builder
		refString(&b, string(x))
		return b.String()
	}
	dec := json.NewDecoder(bytes.NewReader(x))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		panic(fmt.Sprintf("json.Valid accepted %q but Decode failed: %v", x, err))
	}
	var b strings.Builder
	refValue(&b, v)
	return b.String()
}

func refValue(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case string:
		refString(b, v)
	case json.Number:
		f, _ := strconv.ParseFloat(string(v), 64)
		if math.IsInf(f, 0) {
			b.WriteString(string(v)) // too big for a double: the literal itself
			return
		}
		if f == 0 {
			f = 0 // -0 prints as 0
		}
		// encoding/json formats floats "as if by ES6 number to string
		// conversion", which is what RFC 8785 asks for.
		out, err := json.Marshal(f)
		if err != nil {
			panic(err)
		}
		b.Write(out)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			refValue(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			return slices.Compare(utf16.Encode([]rune(keys[i])), utf16.Encode([]rune(keys[j]))) < 0
		})
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			refString(b, k)
			b.WriteByte(':')
			refValue(b, v[k])
		}
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("unexpected %T", v))
	}
}

// refString writes s as JSON.stringify would. Ranging over a string yields
// U+FFFD for each invalid byte, matching encoding/json's coercion.
func refString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}
