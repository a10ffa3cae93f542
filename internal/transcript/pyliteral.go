package transcript

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Python's printed values. Many frameworks print what they hold the way Python shows it: a
// tool's arguments as a dict (AutoGPT, LangChain's AgentExecutor, CrewAI, Haystack), the
// messages of a run as the reprs of its objects (AutoGen's TaskResult, DSPy's history), a
// result as a list of dicts (CAMEL). One reader reads them all, in one of two grammars:
//
//   - pyLiteral reads what ast.literal_eval accepts: strings, numbers, True, False, None,
//     lists, tuples and dicts with string keys. It is used where the value must be data, a
//     tool's arguments above all: a text that only looks like a dict ("{'a': f(x)}") is not
//     arguments and is kept as the text it is.
//   - pyRepr reads a repr, which is a literal that may also hold constructor calls
//     (FunctionCall(id='c1', arguments='{}')), read as the object of their keyword fields;
//     names (datetime.timezone.utc, an enum member) and <...> object reprs, read as null; and
//     dict keys of any kind.
//
// Both return the value as the JSON value it stands for, with the text after it.

// pyLiteral reads the Python literal s opens with (after blanks).
func pyLiteral(s string) (any, string, bool) { return pyRead(s, false, 0) }

// pyRepr reads the Python repr s opens with (after blanks).
func pyRepr(s string) (any, string, bool) { return pyRead(s, true, 0) }

// pyMaxDepth bounds the nesting, so that no input can run the stack out.
const pyMaxDepth = 64

func pyRead(s string, reprs bool, depth int) (any, string, bool) {
	s = strings.TrimLeft(s, " \t\r\n")
	if s == "" || depth > pyMaxDepth {
		return nil, s, false
	}
	switch c := s[0]; {
	case c == '\'' || c == '"':
		str, n, ok := pyString(s)
		if !ok {
			return nil, s, false
		}
		// Adjacent literals are one string, as Python reads them; pprint splits a long string
		// so across lines ('first part '\n 'second part').
		for rest := s[n:]; ; {
			next := strings.TrimLeft(rest, " \t\r\n")
			more, m, ok := pyString(next)
			if !ok {
				return str, rest, true
			}
			str += more
			rest = next[m:]
		}
	case c == '[' || c == '(':
		closing := byte(']')
		if c == '(' {
			closing = ')'
		}
		out := []any{}
		s = s[1:]
		for {
			s = strings.TrimLeft(s, " \t\r\n")
			if s != "" && s[0] == closing {
				return out, s[1:], true
			}
			v, rest, ok := pyRead(s, reprs, depth+1)
			if !ok {
				return nil, rest, false
			}
			out = append(out, v)
			if s, ok = pyAfterItem(rest, closing); !ok {
				return nil, s, false
			}
		}
	case c == '{':
		out := map[string]any{}
		s = s[1:]
		for {
			s = strings.TrimLeft(s, " \t\r\n")
			if rest, ok := strings.CutPrefix(s, "}"); ok {
				return out, rest, true
			}
			key, rest, ok := pyRead(s, reprs, depth+1)
			name, isString := key.(string)
			if !ok || !isString && !reprs {
				return nil, rest, false
			}
			if !isString {
				name = fmt.Sprint(key) // {1: 'a'}, a repr's other keys: as JSON names them
			}
			rest = strings.TrimLeft(rest, " \t\r\n")
			if !strings.HasPrefix(rest, ":") {
				return nil, rest, false
			}
			v, rest, ok := pyRead(rest[1:], reprs, depth+1)
			if !ok {
				return nil, rest, false
			}
			out[name] = v
			if s, ok = pyAfterItem(rest, '}'); !ok {
				return nil, s, false
			}
		}
	case c == '<' && reprs:
		// an object without a repr of its own (<autogen_core._image.Image at 0x7f70>)
		end := strings.IndexByte(s, '>')
		if end < 0 {
			return nil, "", false
		}
		return nil, s[end+1:], true
	}
	end := 0
	for end < len(s) && (isPyNameByte(s[end]) || s[end] == '.' || s[end] == '-' || s[end] == '+') {
		end++
	}
	word := s[:end]
	if word == "" {
		return nil, s, false
	}
	switch word {
	case "True":
		return true, s[end:], true
	case "False":
		return false, s[end:], true
	case "None":
		return nil, s[end:], true
	}
	var num json.Number
	if json.Unmarshal([]byte(word), &num) == nil {
		return num, s[end:], true
	}
	if !reprs {
		return nil, s, false
	}
	if rest, ok := strings.CutPrefix(s[end:], "("); ok {
		fields, rest, ok := pyCall(word, rest, depth)
		if !ok {
			return nil, rest, false
		}
		return fields, rest, true
	}
	switch word {
	case "inf", "-inf", "nan":
		return nil, s[end:], true // a float JSON cannot hold
	}
	if word[0] == '-' || word[0] == '+' || '0' <= word[0] && word[0] <= '9' {
		return nil, s, false // no number JSON can hold, nor a name
	}
	return nil, s[end:], true // a name: an enum member, a constant (datetime.timezone.utc)
}

// pyCall reads the arguments of a constructor call, s just after its '(', as the object of its
// keyword fields; a positional argument (the datetime a newer AutoGen message holds) is passed
// over. The class's name is the object's "type" when it has no type field. When the call is
// cut short, the fields read before the cut are returned, with false.
func pyCall(class, s string, depth int) (map[string]any, string, bool) {
	fields := map[string]any{}
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if rest, ok := strings.CutPrefix(s, ")"); ok {
			if _, typed := fields["type"]; !typed {
				fields["type"] = class[strings.LastIndexByte(class, '.')+1:]
			}
			return fields, rest, true
		}
		key := ""
		if eq := pyKeyword(s); eq > 0 {
			key, s = s[:eq], s[eq+1:]
		}
		v, rest, ok := pyRead(s, true, depth+1)
		if !ok {
			return fields, rest, false
		}
		if key != "" {
			fields[key] = v
		}
		if s, ok = pyAfterItem(rest, ')'); !ok {
			return fields, s, false
		}
	}
}

// pyCalls reads the reprs of the objects of class in text ("FunctionCall(id='x', arguments='{}',
// name='f')"), wherever they stand: each object's keyword fields. A repr cut short (the text
// ends inside it) gives the fields read before the cut and ends the search.
func pyCalls(text, class string) []map[string]any {
	var out []map[string]any
	for {
		k := strings.Index(text, class+"(")
		if k < 0 {
			return out
		}
		if k > 0 && isPyNameByte(text[k-1]) { // another class whose name ends so
			text = text[k+len(class):]
			continue
		}
		fields, rest, ok := pyCall(class, text[k+len(class)+1:], 0)
		out = append(out, fields)
		if !ok {
			return out
		}
		text = rest
	}
}

// pyText is a field read from a repr as text: a string as it is, another value as JSON.
func pyText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// pyKeyword is where the '=' of a keyword argument at the start of s is, or 0 when s opens
// with a positional one.
func pyKeyword(s string) int {
	i := 0
	for i < len(s) && isPyNameByte(s[i]) {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != '=' || i+1 < len(s) && s[i+1] == '=' {
		return 0
	}
	return i
}

// pyAfterItem skips the comma after an item of a list, dict or call; without one, the item
// must be the last, closing next.
func pyAfterItem(s string, closing byte) (string, bool) {
	s = strings.TrimLeft(s, " \t\r\n")
	if rest, ok := strings.CutPrefix(s, ","); ok {
		return rest, true
	}
	return s, s != "" && s[0] == closing
}

// pyNextItem skips the comma after an item of a list, dict or call, if there is one.
func pyNextItem(s string) string {
	return strings.TrimPrefix(strings.TrimLeft(s, " \t\r\n"), ",")
}

func isPyNameByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// pyString decodes the Python string literal that s opens with (quoted with ' or ", as repr
// writes it) and says how many bytes it took.
func pyString(s string) (string, int, bool) {
	if len(s) < 2 || s[0] != '\'' && s[0] != '"' {
		return "", 0, false
	}
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1, true
		case c != '\\':
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			return "", 0, false
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'x', 'u', 'U':
			size := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+size >= len(s) {
				return "", 0, false
			}
			r, err := strconv.ParseUint(s[i+1:i+1+size], 16, 32)
			if err != nil {
				return "", 0, false
			}
			b.WriteRune(rune(r))
			i += size
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return "", 0, false
}
