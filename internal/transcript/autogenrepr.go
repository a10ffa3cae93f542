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
		v, after, ok := pyRepr(rest[k:])
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
		if v, _, ok := pyRepr(trimmed); ok {
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
