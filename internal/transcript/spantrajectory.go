package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/canon"
)

// A harness that records its run as tracing spans may export them as one flat list, as
// Vorflux's SWE-bench submissions do:
//
//	{"instance_id", "session_id", "total_spans", "trajectory_entries", "trajectory": [
//	  {"type": "llm_call", "output": {"content", "tool_calls": [{"id", "function": {"name", "arguments"}}]},
//	   "task_prompt": [chat messages]},
//	  {"type": "tool_call", "tool", "arguments": {...}, "result": "..." | {"stdout", "stderr", "exitCode"}},
//	  {"type": "judge_call", "model", "input_messages"}, ...]}
//
// A model's turn (llm_call) says what it asked for; a tool span (tool_call) is a call that
// ran, with its result, written when it ended (often after the next turn). The calls are the
// spans: a turn's requests are not always named as the span names the tool that ran them
// (`read` asked for, `read_text_file` run). The harness runs commands of its own between
// turns, which no turn asked for (`test -w /memory && mkdir -p /memory/sessions` after each
// stop, failing in threes): a span of a tool the model does call, with arguments no turn ever
// asked for, is the harness's, and is left out. A span answers the turn that asked for it (its
// reply); the model's words are the turns' content. A judge's call (a reviewer model grading
// the run) is not the agent's. The task is the first turn's prompt's first user message.
//
// Written from real submissions' files (validation round r98c: 180 of 500 were no transcript,
// and the rest were read as chats whose every harness command was a call: 788 of 791 notices
// were on that one command).

// spanEntry is one entry of a span trajectory.
type spanEntry struct {
	Type   string `json:"type"`
	Output *struct {
		Content   string       `json:"content"`
		ToolCalls []oaToolCall `json:"tool_calls"`
	} `json:"output"`
	TaskPrompt []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"task_prompt"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Result    json.RawMessage `json:"result"`
}

// isSpanTrajectoryHead says whether a JSON document opens as a span trajectory: a
// "trajectory" beside the span counts, its entries typed llm_call or tool_call.
func isSpanTrajectoryHead(has func(string) bool, head []byte) bool {
	return has("trajectory") && (has("total_spans") || has("trajectory_entries")) &&
		(bytes.Contains(head, []byte(`"type": "llm_call"`)) || bytes.Contains(head, []byte(`"type":"llm_call"`)) ||
			bytes.Contains(head, []byte(`"type": "tool_call"`)) || bytes.Contains(head, []byte(`"type":"tool_call"`)))
}

func readSpanTrajectory(name string, br *bufio.Reader, hint int64) (*built, error) {
	doc, err := decodeDocument[struct {
		Trajectory []spanEntry `json:"trajectory"`
	}](name, br, hint, "span trajectory")
	if err != nil {
		return nil, err
	}
	// What the turns asked for: each request's turn, found by its tool and arguments, or,
	// when the span names the tool otherwise, by its arguments' values alone (`read
	// {"file_path": X}` asked for, `read_text_file {"filePath": X}` run).
	var turnOf []int // the turn of each request
	used := map[int]bool{}
	byCall, byValues := map[string][]int{}, map[string][]int{}
	askedTools := map[string]bool{}
	for i, e := range doc.Trajectory {
		if e.Type != "llm_call" || e.Output == nil {
			continue
		}
		for _, tc := range e.Output.ToolCalls {
			n := tc.Function.Name
			args := rawArgs(tc.Function.Arguments)
			r := len(turnOf)
			turnOf = append(turnOf, i)
			byCall[spanCallKey(n, args)] = append(byCall[spanCallKey(n, args)], r)
			if v := argValuesKey(args); v != "" {
				byValues[v] = append(byValues[v], r)
			}
			askedTools[n] = true
		}
	}
	take := func(index map[string][]int, key string) (int, bool) {
		for _, r := range index[key] {
			if !used[r] {
				used[r] = true
				return r, true
			}
		}
		return 0, false
	}
	b := newBuilder(FormatSpanTrajectory)
	a := b.agent(MainAgent)
	for i, e := range doc.Trajectory {
		switch e.Type {
		case "llm_call":
			if !a.userSeen {
				for _, m := range e.TaskPrompt {
					if m.Role == "user" {
						a.user(contentText(m.Content), 0)
						break
					}
				}
			}
			if e.Output != nil {
				a.turn = "t" + strconv.Itoa(i)
				a.said(e.Output.Content)
			}
		case "tool_call":
			args := []byte(e.Arguments)
			if len(args) == 0 || string(args) == "null" {
				args = []byte("{}")
			}
			turn := ""
			if r, ok := take(byCall, spanCallKey(e.Tool, args)); ok {
				turn = "t" + strconv.Itoa(turnOf[r])
			} else if askedTools[e.Tool] {
				continue // the harness's own command: no turn asked for it
			} else if r, ok := take(byValues, argValuesKey(args)); ok {
				turn = "t" + strconv.Itoa(turnOf[r])
			}
			a.turn = turn
			idx := a.add(loopguard.Call("", e.Tool, args))
			ev := &a.events[idx]
			ev.Result, ev.Failed = spanResult(e.Result)
			ev.HasResult = len(e.Result) > 0 && string(e.Result) != "null"
		}
	}
	t := b.done()
	if len(t.Agents) == 0 {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: a span trajectory with no turn or call", ErrUnknownFormat)}
	}
	return t, nil
}

// argValuesKey is what a call's arguments say, without their names: the values of its
// top-level members, sorted; "" when it has none.
func argValuesKey(args []byte) string {
	var m map[string]any
	if json.Unmarshal(args, &m) != nil || len(m) == 0 {
		return ""
	}
	vals := make([]string, 0, len(m))
	for _, v := range m {
		b, _ := json.Marshal(v)
		vals = append(vals, string(b))
	}
	slices.Sort(vals)
	return strings.Join(vals, "\x00")
}

// spanCallKey is a call's tool and the identity of its arguments (canon.Fingerprint, as the
// engine knows a call: a turn writes them as JSON text, a span as an object, in any key
// order; none at all are {}).
func spanCallKey(tool string, args []byte) string {
	return tool + "\x00" + strconv.FormatUint(canon.Fingerprint(args), 16)
}

// spanResult reads a span's result (outcomeText): text as it is, or a command's {"stdout",
// "stderr", "exitCode"} as its output, failed when it exited otherwise than 0.
func spanResult(raw json.RawMessage) (text string, failed bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	text, exit := outcomeText(raw)
	return text, exit != 0
}
