package transcript

import (
	"bufio"
	"encoding/json"
	"strings"

	"github.com/loopguard/loopguard"
)

// BenchFlow (the runner of SkillsBench and other agent benchmarks) drives agents over the
// Agent Client Protocol and writes what the agent reported as acp_trajectory.jsonl, one
// record a line, the protocol's session updates flattened:
//
//   - {"type": "user_message", "text"}: the user's turn;
//   - {"type": "agent_thought", "text"} and {"type": "agent_message", "text"}: the model's
//     thinking and its words;
//   - {"type": "tool_call", "tool_call_id", "kind", "title", "status", "content"}: a call and,
//     merged into it, its result. ACP gives a call no name and no arguments of its own: its
//     title says what it does ("List files in /root directory: Reading /root", "Run tests: $
//     pytest -q"), which stands for the arguments, and its kind (read, edit, execute, search,
//     fetch, think, other) for the tool (a command's title, "<caption>: $ <command>", stands
//     by its command alone), unless the result names the tool on its first line
//     ("Tool: terminal", as OpenHands writes it). The result is the text of its content
//     blocks, that "Tool:"/"Result:" header left out; a call whose status is "failed" failed
//     (OpenHands reports a failing command as completed, its exit code in the text, which the
//     detector reads). A call seen again with its id (a later status) updates the first: its
//     result, and its arguments when the update brings the change (a diff) first.

type acpLine struct {
	Type       string `json:"type"`
	Text       string `json:"text"`
	ToolCallID string `json:"tool_call_id"`
	Kind       string `json:"kind"`
	Title      string `json:"title"`
	Status     string `json:"status"`
	// content is read item by item (acpItems): a record whose content is not a list, or an
	// item of another shape, loses only what it cannot say.
	RawContent json.RawMessage `json:"content"`
	Content    []acpItem       `json:"-"`
}

// acpItem is one item of a tool call's content: text, or a "diff" (the change an edit makes).
type acpItem struct {
	Type    string `json:"type"`
	Content *struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Text string `json:"text"`
	// a "diff" item: the change an edit makes
	Path    string  `json:"path"`
	OldText *string `json:"oldText"`
	NewText *string `json:"newText"`
}

// acpItems decodes a call's content leniently: the items that decode.
func acpItems(raw json.RawMessage) []acpItem {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var items []acpItem
	for _, r := range list {
		var it acpItem
		if json.Unmarshal(r, &it) == nil {
			items = append(items, it)
		}
	}
	return items
}

// isACPHead says whether a file's first line is a BenchFlow ACP trajectory record.
func isACPHead(typ string, has func(string) bool) bool {
	switch typ {
	case "tool_call":
		return has("tool_call_id") && has("title") && has("kind")
	case "user_message", "agent_message", "agent_thought":
		return has("text") && !has("role") && !has("payload") && !has("uuid") && !has("session_id")
	}
	return false
}

func readACP(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatACP)
	a := b.agent(MainAgent)
	calls := map[string]int{}
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var l acpLine
		if ok, err := decodeEventLine(line, &l); !ok {
			return err
		}
		switch l.Type {
		case "user_message":
			a.user(l.Text, 0)
		case "agent_message":
			a.said(l.Text)
		case "agent_thought":
			a.text("thinking", l.Text, "", 0)
		case "tool_call":
			l.Content = acpItems(l.RawContent)
			tool, result := acpResult(&l)
			if tool == "" {
				tool = l.Kind
			}
			if tool == "" {
				tool = "tool"
			}
			idx, seen := calls[l.ToolCallID]
			if !seen || l.ToolCallID == "" {
				idx = a.add(loopguard.Call("", tool, acpArgs(&l)))
				if l.ToolCallID != "" {
					calls[l.ToolCallID] = idx
				}
			}
			e := &a.events[idx]
			if seen && hasDiff(&l) {
				e.Args = acpArgs(&l) // the change, first told in a later update
			}
			if result != "" || l.Status == "completed" || l.Status == "failed" {
				e.Tool = tool
				e.Result, e.HasResult, e.Failed = result, true, l.Status == "failed" || exitFooterFailed(result)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return withDamaged(b.done(), damaged), nil
}

// acpArgs returns what stands for a call's arguments: the change an edit makes (its diff
// items' paths and new texts), else its title, the command alone for a command (OpenHands
// titles one "<what it is for>: $ <command>", a read "<what it is for>: Reading <path>": the
// caption is the model's narration, and the same command captioned two ways is the same
// call). A title that names no argument at all ("Web search", "Read File", "Write", "bash":
// some adapters send only the tool's label, and BenchFlow keeps the first title of a call)
// cannot say that two calls were the same: such a call is one of its own, known by its id.
func acpArgs(l *acpLine) []byte {
	var diffs []map[string]any
	for _, c := range l.Content {
		if c.Type == "diff" {
			d := map[string]any{"path": c.Path}
			if c.NewText != nil {
				d["newText"] = *c.NewText
			}
			if c.OldText != nil {
				d["oldText"] = *c.OldText
			}
			diffs = append(diffs, d)
		}
	}
	if len(diffs) > 0 {
		return marshalArgs(diffs)
	}
	title := l.Title
	if _, cmd, ok := strings.Cut(title, ": $ "); ok {
		return []byte(cmd)
	}
	if _, path, ok := strings.Cut(title, ": Reading "); ok {
		return []byte("Reading " + path)
	}
	if namesNoArgument(title) {
		return []byte(title + " #" + l.ToolCallID)
	}
	return []byte(title)
}

// hasDiff says whether a call's content holds the change it makes.
func hasDiff(l *acpLine) bool {
	for _, c := range l.Content {
		if c.Type == "diff" {
			return true
		}
	}
	return false
}

// namesNoArgument says whether a title is only a tool's label: at most three words of letters.
func namesNoArgument(title string) bool {
	words := strings.Fields(title)
	if len(words) == 0 || len(words) > 3 {
		return len(words) == 0
	}
	for _, w := range words {
		for i := 0; i < len(w); i++ {
			if c := w[i] | 0x20; c < 'a' || c > 'z' {
				return false
			}
		}
	}
	return true
}

// exitFooterFailed says whether a command's output ends with a non-zero exit code, as
// OpenHands writes it under the output of a command it reports as completed ("❌ Exit code: 1").
func exitFooterFailed(result string) bool {
	last := strings.TrimSpace(result[strings.LastIndexByte(strings.TrimRight(result, "\n "), '\n')+1:])
	code, ok := strings.CutPrefix(strings.TrimPrefix(strings.TrimPrefix(last, "❌"), " "), "Exit code: ")
	return ok && code != "" && code != "0"
}

// acpResult returns the tool a call's result names ("Tool: terminal" on its first line, or "")
// and the result's text without that header.
func acpResult(l *acpLine) (tool, result string) {
	var parts []string
	for _, c := range l.Content {
		switch {
		case c.Content != nil && c.Content.Text != "":
			parts = append(parts, c.Content.Text)
		case c.Text != "":
			parts = append(parts, c.Text)
		}
	}
	result = strings.Join(parts, "\n")
	if rest, ok := strings.CutPrefix(result, "Tool: "); ok {
		first, body, _ := strings.Cut(rest, "\n")
		tool = strings.TrimSpace(first)
		result = strings.TrimPrefix(body, "Result:\n")
	}
	return tool, result
}
