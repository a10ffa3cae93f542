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
//     [{"content", "name", "status"}]}; the output's contents are the result, and a status of
//     "errored" or "canceled" is a failure. So is an output whose own status says the command
//     failed: the IDE extension marks a terminal command that exited with 1 "done" and says
//     "Command failed with exit code 1" in its output's status (validation round r91b U1);
//   - tool messages ({"role": "tool", "toolCallId", "content"}), where a session has them, are
//     results too. The IDE extension keeps both for one call, the state's output and a tool
//     message of the same text: the tool message is the result (what the model was sent),
//     failed when the state says so, and the state's copy is not read a second time.

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
				Status  string `json:"status"`
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
	// message list holds for it, unless the session has that tool message already.
	answered := map[string]bool{} // calls with a tool message of their own
	for _, item := range s.History {
		if m := item.Message; m.Role == "tool" && m.ToolCallID != "" {
			answered[m.ToolCallID] = true
		}
	}
	failedCalls := map[string]bool{}
	var list []msg
	for _, item := range s.History {
		m := item.Message
		status := ""
		if m.Role == "tool" && failedCalls[m.ToolCallID] {
			status = "error"
		}
		list = append(list, msg{Role: m.Role, Content: m.Content, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID, Status: status})
		for _, st := range item.ToolCallStates {
			failed := st.Status == "errored" || st.Status == "canceled"
			var parts []string
			for _, o := range st.Output {
				parts = append(parts, o.Content)
				failed = failed || continueOutputFailed(o.Status)
			}
			if failed {
				failedCalls[st.ToolCallID] = true
			}
			if answered[st.ToolCallID] || len(parts) == 0 && !failed {
				continue // its result is a tool message, or it has not run yet
			}
			status := ""
			if failed {
				status = "error"
			}
			list = append(list, msg{Role: "tool", ToolCallID: st.ToolCallID, Content: strings.Join(parts, "\n"), Status: status})
		}
	}
	// Continue keeps the calls its model made (toolCalls, and their states): a session
	// without them is a chat, and the code in a reply is shown to its user, not run. Read as
	// calls written in the text, the way a harness's own log may hold them, a chat's bash
	// blocks were calls answered by the user's next question (validation round r141c U2).
	b := newBuilder(FormatContinue)
	addMessages(b, list, func(*msg) string { return MainAgent }, false)
	return b.done(), nil
}

// continueOutputFailed says whether a Continue tool output's own status reports a failure:
// "Command failed with exit code 1", a command that timed out or errored. "Command completed"
// and an empty status are successes.
func continueOutputFailed(status string) bool {
	s := strings.ToLower(status)
	return strings.HasPrefix(s, "command failed") || strings.HasPrefix(s, "command timed out") ||
		strings.HasPrefix(s, "command errored")
}
