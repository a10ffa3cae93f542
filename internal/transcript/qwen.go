package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
)

// Qwen Code (a Gemini CLI fork) records each session as JSONL,
// ~/.qwen/projects/<project>/chats/<session id>.jsonl. Its lines look like Claude Code's
// (uuid, parentUuid, sessionId, timestamp, type, cwd, version) but carry Gemini API
// content: `message` is {"role": "user" | "model", "parts": [...]}.
//
//   - type "assistant": the model's parts: functionCall parts are calls, text parts its words
//     (thought parts included);
//   - type "tool_result": functionResponse parts, each the result of the call with its id
//     (its `response.error` is a failure; `toolCallResult.status` "error" also is);
//   - type "user": a user turn; "system" lines (compression, slash commands, telemetry) are
//     skipped.
//
// Lines of a subagent (isSidechain, with an agentId) are agent "agent-<agentId>".

type qwenLine struct {
	Type        string `json:"type"`
	IsSidechain bool   `json:"isSidechain"`
	AgentID     string `json:"agentId"`
	Model       string `json:"model"`
	Message     *struct {
		Role  string    `json:"role"`
		Parts []gemPart `json:"parts"`
	} `json:"message"`
	ToolCallResult *struct {
		Status string `json:"status"`
	} `json:"toolCallResult"`
}

// isQwenHead says whether the head of a file whose first line looks like Claude Code's holds
// Gemini API content: a `message` that is {"role": ..., "parts": [...]} (or parts alone), where
// Claude Code's holds content blocks. Only keys written as JSON count: inside a string the
// quotes would be escaped.
func isQwenHead(head []byte) bool {
	key := []byte(`"message":{`)
	for i := 0; ; {
		k := bytes.Index(head[i:], key)
		if k < 0 {
			return false
		}
		at := i + k
		i = at + len(key)
		if at > 0 && head[at-1] == '\\' {
			continue
		}
		rest := head[i:]
		if bytes.HasPrefix(rest, []byte(`"role":"`)) {
			end := bytes.IndexByte(rest[len(`"role":"`):], '"')
			if end < 0 {
				return false
			}
			rest = bytes.TrimPrefix(rest[len(`"role":"`)+end+1:], []byte(","))
		}
		if bytes.HasPrefix(rest, []byte(`"parts":[`)) {
			return true
		}
	}
}

func readQwen(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatQwenCode)
	var order []string
	lists := map[string][]msg{}
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var l qwenLine
		if line[0] != '{' {
			return fmt.Errorf("invalid JSON line: not an object")
		}
		if err := json.Unmarshal(line, &l); err != nil {
			if tolerable(err) {
				return nil
			}
			return fmt.Errorf("invalid JSON line: %w", err)
		}
		if l.Message == nil || l.Type == "system" {
			return nil
		}
		agent := MainAgent
		if l.IsSidechain && l.AgentID != "" {
			agent = "agent-" + l.AgentID
		}
		if _, ok := lists[agent]; !ok {
			order = append(order, agent)
		}
		if r := l.ToolCallResult; r != nil && r.Status == "error" {
			// A result Qwen Code marked as an error in its own metadata is a failure even
			// when the response does not say so.
			for _, p := range l.Message.Parts {
				if fr := p.FunctionResponse; fr != nil {
					if m, ok := fr.Response.(map[string]any); !ok || m["error"] == nil {
						text, _ := gemResponseText(fr.Response)
						fr.Response = map[string]any{"error": text}
					}
				}
			}
		}
		role := l.Message.Role
		if l.Type == "assistant" || role == "assistant" {
			role = "model"
		}
		lists[agent] = append(lists[agent], msg{Role: role, Parts: l.Message.Parts})
		if l.Model != "" && l.Type == "assistant" {
			b.agent(agent).usage.Model = l.Model
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, agent := range order {
		addGeminiContents(b.agent(agent), lists[agent])
	}
	return withDamaged(b.done(), damaged), nil
}
