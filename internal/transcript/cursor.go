package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/loopguard/loopguard"
)

// What `cursor-agent -p --output-format stream-json` (Cursor's CLI) prints, one event a line,
// as benchmark harnesses keep it: a "system" init line (session_id, model, cwd), then
//
//   - "user" and "assistant" lines with a message of text blocks (an assistant message may come
//     in pieces, one line each, with --stream-partial-output);
//   - "thinking" lines, pieces of the model's reasoning ("delta", then "completed");
//   - "tool_call" lines, "started" then "completed" with the same call_id, whose tool_call
//     holds one member named for the tool ("shellToolCall", "readToolCall", "editToolCall",
//     "mcpToolCall", ...; newer releases {"function": {"name", "arguments"}}) with its "args"
//     and, once completed, its "result": {"success": {...}} or an error, failure or rejection;
//   - a closing "result" line.
//
// Its init line looks like Claude Code's stream-json; the file is told apart by its tool_call
// lines. The call's tool is the member's name without "ToolCall" ("shell", "read"), an MCP
// call's the tool it names.

type cursorLine struct {
	Type     string                     `json:"type"`
	Subtype  string                     `json:"subtype"`
	Text     string                     `json:"text"`
	Model    string                     `json:"model"`
	CallID   string                     `json:"call_id"`
	ToolCall map[string]json.RawMessage `json:"tool_call"`
	Message  *struct {
		Content any `json:"content"`
	} `json:"message"`
}

type cursorToolCall struct {
	Args   json.RawMessage            `json:"args"`
	Result map[string]json.RawMessage `json:"result"`
	// the {"function": {"name", "arguments"}} shape
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// isCursorHead says whether the head of a file holds a Cursor CLI tool_call event at the start
// of a line.
func isCursorHead(head []byte) bool {
	key := []byte(`{"type":"tool_call","subtype":"`)
	for i := 0; ; {
		k := bytes.Index(head[i:], key)
		if k < 0 {
			return false
		}
		if at := i + k; at == 0 || head[at-1] == '\n' {
			return true
		}
		i += k + len(key)
	}
}

func readCursor(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatCursor)
	a := b.agent(MainAgent)
	calls := map[string]int{} // call_id -> index of the call in a.events
	var text, thinking strings.Builder
	flush := func() {
		a.text("reasoning", thinking.String(), "", 0)
		thinking.Reset()
		a.text("model", text.String(), "", 0)
		text.Reset()
	}
	users := 0
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var l cursorLine
		if ok, err := decodeEventLine(line, &l); !ok {
			return err
		}
		switch l.Type {
		case "assistant":
			if l.Message != nil {
				text.WriteString(contentText(l.Message.Content))
			}
			return nil
		case "thinking":
			thinking.WriteString(l.Text)
			return nil
		}
		flush()
		switch l.Type {
		case "system":
			if l.Model != "" {
				a.usage.Model = l.Model
			}
		case "user":
			if l.Message != nil {
				users++
				a.user(contentText(l.Message.Content), 0)
			}
		case "tool_call":
			tool, call, ok := cursorCall(l.ToolCall)
			if !ok {
				return nil
			}
			idx, seen := calls[l.CallID]
			if !seen || l.CallID == "" {
				idx = a.add(loopguard.Call("", tool, cursorArgs(tool, call)))
				calls[l.CallID] = idx
			}
			if l.Subtype == "completed" {
				result, failed := cursorResult(call.Result)
				e := &a.events[idx]
				e.Result, e.HasResult, e.Failed = result, true, failed
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	flush()
	return withDamaged(b.done(), damaged), nil
}

// cursorCall finds the call in a tool_call object: its one member, named for the tool.
func cursorCall(members map[string]json.RawMessage) (tool string, call cursorToolCall, ok bool) {
	keys := make([]string, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	sort.Strings(keys) // one member in practice; an order that does not depend on the map
	for _, k := range keys {
		if json.Unmarshal(members[k], &call) != nil {
			continue
		}
		switch {
		case k == "function":
			return call.Name, call, call.Name != ""
		case k == "mcpToolCall":
			var mcp struct {
				ToolName string `json:"toolName"`
				Name     string `json:"name"`
			}
			_ = json.Unmarshal(call.Args, &mcp)
			if mcp.ToolName == "" {
				mcp.ToolName = mcp.Name
			}
			if mcp.ToolName == "" {
				mcp.ToolName = "mcp"
			}
			return mcp.ToolName, call, true
		default:
			return strings.TrimSuffix(k, "ToolCall"), call, true
		}
	}
	return "", call, false
}

// cursorArgs is the call's arguments; an MCP call's are those it passes to its tool.
func cursorArgs(tool string, call cursorToolCall) []byte {
	if len(call.Arguments) > 0 {
		return rawArgs(call.Arguments)
	}
	var mcp struct {
		Args json.RawMessage `json:"args"`
	}
	if json.Unmarshal(call.Args, &mcp) == nil && len(mcp.Args) > 0 && mcp.Args[0] == '{' {
		return rawArgs(mcp.Args)
	}
	return rawArgs(call.Args)
}

// cursorResult is a completed call's result text and whether it failed: a result other than
// "success" (error, failure, rejected, ...) failed, and so did a command whose exit code is
// not 0. The text is what the model reads of it: a command's output, a file's content, an
// error's message; else the result as JSON.
func cursorResult(result map[string]json.RawMessage) (string, bool) {
	if raw, ok := result["success"]; ok {
		text, exit := outcomeText(raw)
		return text, exit != 0
	}
	for _, k := range []string{"error", "failure", "rejected", "permissionDenied", "timeout"} {
		if raw, ok := result[k]; ok {
			text, _ := outcomeText(raw)
			return text, true
		}
	}
	if len(result) == 0 {
		return "", false
	}
	b, _ := json.Marshal(result)
	return string(b), true
}

// outcomeText reads a tool's outcome as Cursor's success and failure objects and the spans of a
// span trajectory write it: a text as it is; a command's stdout and stderr, a file's content
// (an MCP tool's content list), a message; else the object as JSON. exit is a command's exit
// code, 1 for an MCP result with isError.
func outcomeText(raw json.RawMessage) (text string, exit int) {
	var o struct {
		Stdout   *string         `json:"stdout"`
		Stderr   string          `json:"stderr"`
		Content  json.RawMessage `json:"content"`
		Message  *string         `json:"message"`
		Error    *string         `json:"error"`
		ExitCode int             `json:"exitCode"`
		IsError  bool            `json:"isError"`
	}
	if json.Unmarshal(raw, &o) != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, 0
		}
		return string(raw), 0
	}
	if o.IsError && o.ExitCode == 0 {
		o.ExitCode = 1
	}
	switch {
	case o.Stdout != nil:
		text = *o.Stdout
		if o.Stderr != "" {
			if text != "" && !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			text += o.Stderr
		}
	case len(o.Content) > 0:
		text = cursorContent(o.Content)
	case o.Message != nil:
		text = *o.Message
	case o.Error != nil:
		text = *o.Error
	default:
		text = string(raw)
	}
	return text, o.ExitCode
}

// cursorContent is a file's content (a string), or the text of an MCP content list, whose
// items hold their text as a string or as {"text": string}.
func cursorContent(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var items []struct {
		Text json.RawMessage `json:"text"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return string(raw)
	}
	var texts []string
	for _, it := range items {
		var t string
		if json.Unmarshal(it.Text, &t) != nil {
			var inner struct {
				Text string `json:"text"`
			}
			if json.Unmarshal(it.Text, &inner) != nil {
				continue
			}
			t = inner.Text
		}
		texts = append(texts, t)
	}
	return strings.Join(texts, "\n")
}
