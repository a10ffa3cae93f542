package transcript

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// pi (badlogic's pi coding agent, also the agent inside OpenClaw) keeps each session as JSONL
// (~/.pi/agent/sessions/<project>/<id>.jsonl; OpenClaw's under ~/.openclaw/agents/<agent>/
// sessions/): a {"type": "session", "version", "id", "timestamp", "cwd"} header, then entries
// with an id and a parentId. "message" entries carry a message:
//
//   - role "user": a user turn (content a string or text blocks);
//   - role "assistant": content blocks, "text", "thinking" and "toolCall" ({"id", "name",
//     "arguments"});
//   - role "toolResult": {"toolCallId", "toolName", "content": [blocks], "isError"}, the
//     result of the call with that id; OpenClaw's exec results keep isError false and say in
//     "details" how the command ended ({"exitCode", "status"}): a non-zero exit code fails
//     the call.
//
// Other entries (model and thinking-level changes, compaction summaries, labels, custom
// entries) are skipped. The entries form a tree (a session can branch); they are read in file
// order. `pi --mode json` prints the same messages inside "message_end" events.

type piLine struct {
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Message   json.RawMessage `json:"message"`
	// Some pi setups move old content out of the session file when they compact it, leaving
	// a placeholder in its place and naming each moved value by its path in the entry and a
	// content hash ("message.content.0.text": {"ref": "blob:sha256:…"}).
	Evicted *struct {
		Payloads map[string]piEvicted `json:"payloads"`
	} `json:"evictedContent"`
}

// piEvicted is one value moved out of an entry: its content hash.
type piEvicted struct {
	Ref string `json:"ref"`
}

type piMessage struct {
	Role       string `json:"role"`
	Content    any    `json:"content"`
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	IsError    bool   `json:"isError"`
	Model      string `json:"model"`
	// OpenClaw's exec tool says how its command ended here, and leaves isError false. Other
	// tools put what they like in it (a string, a list): it is read loosely, never failing
	// the line.
	Details json.RawMessage `json:"details"`
}

// failed says whether a tool result reports a failure: isError, or an exec whose command
// exited with a non-zero code ({"exitCode": 1}, as a number or its text) or whose status is
// an error; never the details of a result of the process tool, which describe the process
// it manages.
func (m *piMessage) failed() bool {
	if m.IsError {
		return true
	}
	if m.ToolName == "process" {
		// OpenClaw's process tool manages background commands: its details are the target's
		// (a job killed, or polled after it failed, is "failed"), not the call's, which did
		// what it was asked (validation round r82c F1: four jobs killed one after another,
		// each "Termination requested", were one tool failing four times).
		return false
	}
	var d map[string]any
	if len(m.Details) == 0 || m.Details[0] != '{' || json.Unmarshal(m.Details, &d) != nil {
		return false
	}
	switch c := d["exitCode"].(type) {
	case float64:
		if c != 0 {
			return true
		}
	case string:
		if c = strings.TrimSpace(c); c != "" && c != "0" {
			return true
		}
	}
	return d["status"] == "error" || d["status"] == "failed"
}

// isPiHead says whether the first line of a file is pi's: its session header, or an entry
// (a message with an id and a parentId), or an event of its JSON mode.
func isPiHead(typ string, has func(string) bool) bool {
	switch typ {
	case "session":
		return has("cwd") && (has("version") || has("id"))
	case "message":
		return has("parentId") && has("message")
	case "agent_start", "message_start", "message_end":
		return true
	}
	return false
}

func readPi(name string, br *bufio.Reader) (*built, error) {
	var list []msg
	model := ""
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var l piLine
		if ok, err := decodeEventLine(line, &l); !ok {
			return err
		}
		if (l.Type != "message" && l.Type != "message_end") || len(l.Message) == 0 {
			return nil
		}
		var m piMessage
		if err := json.Unmarshal(l.Message, &m); err != nil {
			return fmt.Errorf("message: %w", err)
		}
		resultGone := l.Evicted != nil && restoreEvicted(&m, l.Evicted.Payloads)
		switch m.Role {
		case "toolResult":
			if resultGone {
				// What the tool answered is not in the file: the call stays, its result
				// unknown, rather than a placeholder that every evicted result shares.
				return nil
			}
			status := ""
			if m.failed() {
				status = "error"
			}
			list = append(list, msg{Role: "tool", ToolCallID: m.ToolCallID, Content: m.Content, Status: status, Timestamp: l.Timestamp})
		case "assistant":
			if m.Model != "" {
				model = m.Model
			}
			list = append(list, msg{Role: m.Role, Content: m.Content, Timestamp: l.Timestamp})
		default:
			list = append(list, msg{Role: m.Role, Content: m.Content, Timestamp: l.Timestamp})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatPi)
	a := b.agent(MainAgent)
	addMessages(b, list, func(*msg) string { return MainAgent }, false)
	if model != "" {
		a.usage.Model = model
	}
	return withDamaged(b.done(), damaged), nil
}

// piCall reads pi's toolCall block: {"id", "name", "arguments"}.
func piCall(block map[string]any) (id, name string, args []byte) {
	id, _ = block["id"].(string)
	name, _ = block["name"].(string)
	if a, ok := block["arguments"]; ok && a != nil {
		args = marshalArgs(a)
	}
	return id, name, args
}

// restoreEvicted undoes what it can of a compaction that moved content out of a pi entry
// (piLine.Evicted). An evicted call argument becomes "evicted:<ref>": the content hash keeps
// two calls with the same moved argument the same call, and two with different ones apart,
// where the shared placeholder would make every such call look alike. Evicted text blocks
// are emptied (the placeholder is not something the model said). It reports whether text
// was evicted from the content, which for a tool's result means the result is unknown.
func restoreEvicted(m *piMessage, payloads map[string]piEvicted) (textGone bool) {
	blocks, _ := m.Content.([]any)
	for path, p := range payloads {
		rest, ok := strings.CutPrefix(path, "message.content.")
		if !ok {
			continue
		}
		idx, field, _ := strings.Cut(rest, ".")
		i, err := strconv.Atoi(idx)
		if err != nil || i < 0 || i >= len(blocks) {
			continue
		}
		block, _ := blocks[i].(map[string]any)
		if block == nil {
			continue
		}
		switch {
		case field == "text":
			block["text"] = ""
			textGone = true
		case field == "arguments" || strings.HasPrefix(field, "arguments."):
			if p.Ref != "" {
				setAtPath(block, field, "evicted:"+p.Ref)
			}
		}
	}
	return textGone
}

// setAtPath sets the value at a dotted path of maps and list indices ("arguments.tasks.0.x")
// inside v, if every step of the path exists.
func setAtPath(v map[string]any, path string, value any) {
	var cur any = v
	for {
		key, rest, more := strings.Cut(path, ".")
		switch c := cur.(type) {
		case map[string]any:
			if _, ok := c[key]; !ok {
				return
			}
			if !more {
				c[key] = value
				return
			}
			cur = c[key]
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(c) {
				return
			}
			if !more {
				c[i] = value
				return
			}
			cur = c[i]
		default:
			return
		}
		path = rest
	}
}
