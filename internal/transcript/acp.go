package transcript

import (
	"bufio"
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
//     detector reads). A call seen again with its id (a later status) updates the first.

type acpLine struct {
	Type       string `json:"type"`
	Text       string `json:"text"`
	ToolCallID string `json:"tool_call_id"`
	Kind       string `json:"kind"`
	Title      string `json:"title"`
	Status     string `json:"status"`
	Content    []struct {
		Type    string `json:"type"`
		Content *struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Text string `json:"text"`
	} `json:"content"`
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
			tool, result := acpResult(&l)
			if tool == "" {
				tool = l.Kind
			}
			if tool == "" {
				tool = "tool"
			}
			idx, seen := calls[l.ToolCallID]
			if !seen || l.ToolCallID == "" {
				idx = a.add(loopguard.Call("", tool, []byte(acpArgs(l.Title))))
				if l.ToolCallID != "" {
					calls[l.ToolCallID] = idx
				}
			}
			e := &a.events[idx]
			if result != "" || l.Status == "completed" || l.Status == "failed" {
				e.Tool = tool
				e.Result, e.HasResult, e.Failed = result, true, l.Status == "failed"
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return withDamaged(b.done(), damaged), nil
}

// acpArgs returns what stands for a call's arguments: its title, or, for a command, the
// command alone. OpenHands titles a command "<what it is for>: $ <command>"; the caption is
// the model's narration, and the same command captioned two ways is the same call.
func acpArgs(title string) string {
	if _, cmd, ok := strings.Cut(title, ": $ "); ok {
		return cmd
	}
	return title
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
