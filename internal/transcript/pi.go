package transcript

import (
	"bufio"
	"encoding/json"
	"fmt"
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
//     result of the call with that id.
//
// Other entries (model and thinking-level changes, compaction summaries, labels, custom
// entries) are skipped. The entries form a tree (a session can branch); they are read in file
// order. `pi --mode json` prints the same messages inside "message_end" events.

type piLine struct {
	Type    string          `json:"type"`
	Message json.RawMessage `json:"message"`
}

type piMessage struct {
	Role       string `json:"role"`
	Content    any    `json:"content"`
	ToolCallID string `json:"toolCallId"`
	IsError    bool   `json:"isError"`
	Model      string `json:"model"`
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
		switch m.Role {
		case "toolResult":
			status := ""
			if m.IsError {
				status = "error"
			}
			list = append(list, msg{Role: "tool", ToolCallID: m.ToolCallID, Content: m.Content, Status: status})
		case "assistant":
			if m.Model != "" {
				model = m.Model
			}
			list = append(list, msg{Role: m.Role, Content: m.Content})
		default:
			list = append(list, msg{Role: m.Role, Content: m.Content})
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
