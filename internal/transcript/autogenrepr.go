package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// A notebook that runs an AutoGen AgentChat team often shows the run only as the Python repr
// of what the run returned: the cell's value (`await team.run(task=...)`) or a print of it
// (`print(result)`, `print(result.messages)`):
//
//	TaskResult(messages=[TextMessage(source='user', models_usage=None, content='Find TSLA news', type='TextMessage'),
//	 ToolCallRequestEvent(source='planner', models_usage=RequestUsage(prompt_tokens=1, completion_tokens=2),
//	  content=[FunctionCall(id='c1', arguments='{}', name='transfer_to_analyst')], type='ToolCallRequestEvent'),
//	 ToolCallExecutionEvent(source='planner', content=[FunctionExecutionResult(content='Transferred', call_id='c1', is_error=False)], ...),
//	 HandoffMessage(...)], stop_reason='...')
//
// These are the messages autogenMessages reads as JSON, written as constructor calls: each
// call becomes the object of its keyword fields (a positional argument, as datetime's in the
// created_at newer releases add, says nothing the reader needs and is left out), and a message
// whose repr has no type field (AgentChat 0.4.0's) takes its class's name as its type. Each
// TaskResult, or printed message list, is one run: a session of its own, as a notebook runs a
// team's task again from cell to cell (validation round r187b G3: swarm, selector-group-chat,
// teams and termination notebooks).

// readAutoGenReprs reads the AgentChat runs shown as Python reprs in outputs, each output the
// text a cell printed or showed as its value.
func readAutoGenReprs(name string, outputs []string) (*Transcript, error) {
	var runs []*built
	for _, text := range outputs {
		for _, messages := range autogenReprRuns(text) {
			data, err := json.Marshal(messages)
			if err != nil {
				continue
			}
			t, err := readJSONArray(name, bufio.NewReader(bytes.NewReader(data)), int64(len(data)))
			if err != nil || t == nil || len(t.Agents) == 0 {
				continue
			}
			runs = append(runs, t)
		}
	}
	if len(runs) == 0 {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no AutoGen TaskResult repr", ErrUnknownFormat)}
	}
	return finish(name, joinSessions(runs)), nil
}

// autogenReprRuns finds the runs in a printed text: each TaskResult repr's messages, or, in a
// text holding none, the message list it opens with (print(result.messages)).
func autogenReprRuns(text string) [][]any {
	var runs [][]any
	const ctor = "TaskResult("
	for rest := text; ; {
		k := strings.Index(rest, ctor)
		if k < 0 {
			break
		}
		if k > 0 && isPyNameByte(rest[k-1]) {
			rest = rest[k+len(ctor):]
			continue
		}
		v, after, ok := pyReprLiteral(rest[k:], 0)
		rest = after
		if !ok {
			rest = strings.TrimPrefix(rest, ctor) // a repr cut short: look past it
			continue
		}
		fields, _ := v.(map[string]any)
		if messages, _ := fields["messages"].([]any); isAutoGenReprMessages(messages) {
			runs = append(runs, messages)
		}
	}
	if len(runs) > 0 {
		return runs
	}
	if trimmed := strings.TrimLeft(text, " \t\r\n"); strings.HasPrefix(trimmed, "[") {
		if v, _, ok := pyReprLiteral(trimmed, 0); ok {
			if messages, _ := v.([]any); isAutoGenReprMessages(messages) {
				runs = append(runs, messages)
			}
		}
	}
	return runs
}

// isAutoGenReprMessages says whether a list read from a repr is AgentChat's messages: objects
// that each name their source. A list of autogen_core's model messages (SystemMessage has no
// source) or of anything else is not.
func isAutoGenReprMessages(list []any) bool {
	if len(list) == 0 {
		return false
	}
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := m["source"].(string); !ok {
			return false
		}
	}
	return true
}

// pyReprLiteral reads the Python repr at the start of s as the JSON value it stands for and
// returns it with what follows: strings, numbers, True, False and None; lists and tuples as
// arrays, dicts as objects; a constructor call (FunctionCall(id='c1', ...)) as the object of its
// keyword fields, with its class's name as "type" when it has no type field; other names
// (datetime.timezone.utc) and <...> object reprs as null. It is not pyValue (autogpt.go),
// which reads a literal strictly: an argument holding a name or a call is no dict literal and
// is kept as the text it is there, while a repr is made of calls and names.
func pyReprLiteral(s string, depth int) (any, string, bool) {
	s = strings.TrimLeft(s, " \t\r\n")
	if s == "" || depth > 64 {
		return nil, s, false
	}
	switch c := s[0]; {
	case c == '\'' || c == '"':
		str, n, ok := pyString(s)
		if !ok {
			return nil, s, false
		}
		return str, s[n:], true
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
			v, rest, ok := pyReprLiteral(s, depth+1)
			if !ok {
				return nil, rest, false
			}
			out = append(out, v)
			s = pyReprNextItem(rest)
		}
	case c == '{':
		out := map[string]any{}
		s = s[1:]
		for {
			s = strings.TrimLeft(s, " \t\r\n")
			if rest, ok := strings.CutPrefix(s, "}"); ok {
				return out, rest, true
			}
			key, rest, ok := pyReprLiteral(s, depth+1)
			if !ok {
				return nil, rest, false
			}
			rest = strings.TrimLeft(rest, " \t\r\n")
			if !strings.HasPrefix(rest, ":") {
				return nil, rest, false
			}
			v, rest, ok := pyReprLiteral(rest[1:], depth+1)
			if !ok {
				return nil, rest, false
			}
			if k, isString := key.(string); isString {
				out[k] = v
			} else {
				out[fmt.Sprint(key)] = v
			}
			s = pyReprNextItem(rest)
		}
	case c == '<':
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
	if rest, ok := strings.CutPrefix(s[end:], "("); ok {
		return pyReprCall(word, rest, depth)
	}
	switch word {
	case "inf", "-inf", "nan":
		return nil, s[end:], true // a float JSON cannot hold
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
	if word[0] == '-' || word[0] == '+' || '0' <= word[0] && word[0] <= '9' {
		return nil, s, false // no number JSON can hold, nor a name
	}
	return nil, s[end:], true // a name: an enum member, a constant (datetime.timezone.utc)
}

// pyReprCall reads the arguments of a constructor call, s just after its '(', as the object
// of its keyword fields.
func pyReprCall(class, s string, depth int) (any, string, bool) {
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
		if eq := pyReprKeyword(s); eq > 0 {
			key, s = s[:eq], s[eq+1:]
		}
		v, rest, ok := pyReprLiteral(s, depth+1)
		if !ok {
			return nil, rest, false
		}
		if key != "" {
			fields[key] = v
		}
		s = pyReprNextItem(rest)
	}
}

// pyReprKeyword is where the '=' of a keyword argument at the start of s is, or 0 when s opens
// with a positional one.
func pyReprKeyword(s string) int {
	i := 0
	for i < len(s) && isPyNameByte(s[i]) {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != '=' || i+1 < len(s) && s[i+1] == '=' {
		return 0
	}
	return i
}

// pyReprNextItem skips the comma after an item of a list, dict or call, if there is one.
func pyReprNextItem(s string) string {
	return strings.TrimPrefix(strings.TrimLeft(s, " \t\r\n"), ",")
}
