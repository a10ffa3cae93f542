package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/loopguard/loopguard"
)

// oh-my-opencode (a plugin of the opencode agent) runs Claude Code's hooks, and keeps for them
// the transcript Claude Code's hooks expect a path to: ~/.claude/transcripts/<session>.jsonl,
// one flat record a line and no model text:
//
//	{"type": "user", "timestamp": "...", "content": "the user's prompt"}
//	{"type": "tool_use", "timestamp": "...", "tool_name": "bash", "tool_input": {...}}
//	{"type": "tool_result", "timestamp": "...", "tool_name": "bash", "tool_input": {...},
//	 "tool_output": {"output": "...", ...}}
//
//   - a user record is the user's turn;
//   - a tool_use record is a call (its tool and input as written);
//   - a tool_result record answers the oldest call still waiting of that tool with that
//     input, else the oldest of that tool (opencode may fill in an input after the hook ran);
//     its tool_output's "output" is the answer (the object as written when it has none). A
//     result with no call before it is a call of its own, answered.
//
// Parallel calls are their uses one after another, then their results: uses with no result
// between them are one reply's calls. The records carry no
// id and no failure flag: a failure is what the answer's text says.

type hookTranscriptLine struct {
	Type       string          `json:"type"`
	Timestamp  string          `json:"timestamp"`
	Content    json.RawMessage `json:"content"`
	ToolName   string          `json:"tool_name"`
	ToolInput  json.RawMessage `json:"tool_input"`
	ToolOutput json.RawMessage `json:"tool_output"`
}

// isHookTranscriptHead says whether the head of a JSONL file holds a tool record of the
// format: a line opening with its type, tool_use or tool_result, that names its tool as
// tool_name beside a tool_input (no other format writes a call so).
func isHookTranscriptHead(head []byte) bool {
	for _, key := range [][]byte{[]byte(`{"type":"tool_use",`), []byte(`{"type":"tool_result",`)} {
		for i := 0; ; {
			k := bytes.Index(head[i:], key)
			if k < 0 {
				break
			}
			at := i + k
			line := head[at:]
			if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
				line = line[:nl]
			}
			if (at == 0 || head[at-1] == '\n') && bytes.Contains(line, []byte(`"tool_name":`)) &&
				bytes.Contains(line, []byte(`"tool_input":`)) && !bytes.Contains(line, []byte(`"message":`)) {
				return true
			}
			i = at + len(key)
		}
	}
	return false
}

func readHookTranscript(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatHookTranscript)
	a := b.agent(MainAgent)
	type waiting struct {
		idx   int
		input json.RawMessage
	}
	pending := map[string][]waiting{} // tool -> its calls waiting for a result, oldest first
	var replies replyCounter          // uses one after another are one reply's calls
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(raw []byte) error {
		var l hookTranscriptLine
		if ok, err := decodeEventLine(raw, &l); !ok {
			return err
		}
		ms := parseTime(l.Timestamp)
		switch l.Type {
		case "user":
			replies.end()
			a.user(contentText(anyJSON(l.Content)), ms)
		case "tool_use":
			if l.ToolName == "" {
				return nil
			}
			call := loopguard.Call("", l.ToolName, rawArgs(l.ToolInput))
			call.Time, call.Turn = ms, replies.call()
			pending[l.ToolName] = append(pending[l.ToolName], waiting{a.add(call), l.ToolInput})
		case "tool_result":
			if l.ToolName == "" {
				return nil
			}
			replies.end()
			answer := hookTranscriptOutput(l.ToolOutput)
			queue := pending[l.ToolName]
			if len(queue) == 0 {
				call := loopguard.Call("", l.ToolName, rawArgs(l.ToolInput))
				call.Time, call.Turn = ms, replies.call()
				replies.end()
				a.add(call.WithResult(answer, false))
				return nil
			}
			k := 0
			for j, w := range queue {
				if sameJSON(w.input, l.ToolInput) {
					k = j
					break
				}
			}
			a.events[queue[k].idx] = a.events[queue[k].idx].WithResult(answer, false)
			pending[l.ToolName] = append(queue[:k:k], queue[k+1:]...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return withDamaged(b.done(), damaged), nil
}

// hookTranscriptOutput is a tool's answer: the "output" of its tool_output, or the value as
// written when it has none.
func hookTranscriptOutput(raw json.RawMessage) string {
	var o struct {
		Output json.RawMessage `json:"output"`
	}
	if json.Unmarshal(raw, &o) == nil && len(o.Output) > 0 && string(o.Output) != "null" {
		return jsonText(o.Output)
	}
	return string(rawArgs(raw))
}

// sameJSON says whether two JSON values are equal as values (key order and spacing aside).
func sameJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
