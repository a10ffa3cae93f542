package transcript

import (
	"bufio"
	"strings"
)

// Continue (the IDE extension and its CLI, `cn`) keeps each session as one JSON document,
// ~/.continue/sessions/<session id>.json: {"sessionId", "title", "workspaceDirectory",
// "history": [items]}. An item is {"message": {"role", "content", "toolCalls"}, "contextItems",
// "toolCallStates"}:
//
//   - a user message is a user turn; an assistant message's content is the model's words,
//     and each of its toolCalls ({"id", "function": {"name", "arguments"}}) a call;
//   - the item's toolCallStates hold each call's outcome: {"toolCallId", "status", "output":
//     [{"content", "name"}]}; the output's contents are the result, and a status of "errored"
//     or "canceled" is a failure;
//   - tool messages ({"role": "tool", "toolCallId", "content"}), where a session has them, are
//     results too.

type continueSession struct {
	History []struct {
		Message struct {
			Role       string       `json:"role"`
			Content    any          `json:"content"`
			ToolCalls  []oaToolCall `json:"toolCalls"`
			ToolCallID string       `json:"toolCallId"`
		} `json:"message"`
		ToolCallStates []struct {
			ToolCallID string `json:"toolCallId"`
			Status     string `json:"status"`
			Output     []struct {
				Content string `json:"content"`
			} `json:"output"`
		} `json:"toolCallStates"`
	} `json:"history"`
}

// isContinueHead says whether a document's top-level keys are a Continue session's.
func isContinueHead(has func(string) bool) bool {
	return has("sessionId") && has("history") && (has("workspaceDirectory") || has("title"))
}

func readContinue(name string, br *bufio.Reader, hint int64) (*built, error) {
	s, err := decodeDocument[continueSession](name, br, hint, "Continue session")
	if err != nil {
		return nil, err
	}
	// The items as a message list: each call's outcome becomes the tool message that a
	// message list holds for it.
	var list []msg
	for _, item := range s.History {
		m := item.Message
		list = append(list, msg{Role: m.Role, Content: m.Content, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID})
		for _, st := range item.ToolCallStates {
			failed := st.Status == "errored" || st.Status == "canceled"
			var parts []string
			for _, o := range st.Output {
				parts = append(parts, o.Content)
			}
			if len(parts) == 0 && !failed {
				continue // not run yet, or its result is a tool message
			}
			status := ""
			if failed {
				status = "error"
			}
			list = append(list, msg{Role: "tool", ToolCallID: st.ToolCallID, Content: strings.Join(parts, "\n"), Status: status})
		}
	}
	return buildMessages(FormatContinue, list), nil
}
