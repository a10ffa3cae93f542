package transcript

import (
	"encoding/json"
	"strings"
)

// Cline, Roo Code and their forks keep a second record of each task beside its
// api_conversation_history.json: ui_messages.json, what the extension showed, one entry a
// message: {"ts", "type": "say" | "ask", "say" or "ask": what it is, "text"}. People commit it
// alone often enough (a task shared as an example, a bug report) that it is read when the
// history is not there (a folder walk passes it over when it is: internal/scan).
//
//   - say "api_req_started": text is JSON whose "request" is what the extension sent the model
//     as the user's turn: the task first, then each turn's tool results ("[read_file for
//     'a.ts'] Result:" blocks) and the extension's context, as the history keeps them;
//   - say "text", "reasoning": the model's words and thinking; say "completion_result" and ask
//     "followup" the model's attempt_completion and ask_followup_question calls, answered by
//     the next request (the user's feedback or answer in it is the user's turn);
//   - say or ask "tool": text is JSON {"tool": "readFile" | "editedExistingFile" | …, "path",
//     "content", …}: a call of the file tools (content is what an edit writes; for a read, a
//     search or a listing it is the answer or, in recent versions, only the path);
//   - say or ask "command": text is the command line, a call of execute_command;
//   - ask "use_mcp_server": text is JSON {"serverName", "toolName", "arguments"}, a call of
//     use_mcp_tool;
//   - the rest (command_output, mcp_server_response, checkpoints, user_feedback, task) the
//     next request repeats or is not part of the conversation.
//
// The entries are read as the history they mirror: a model message of the calls and words
// between two requests, a user message of each request, so that buildCline pairs each call
// with its "[tool for …] Result:" block in the next request, in order.

// The flags Cline appends to what it shows: to a command line that waits for the user's
// approval, and to a completion whose task changed files.
const (
	clineApprovalFlag = "REQ_APP"
	clineChangesFlag  = "HAS_CHANGES"
)

// lastBlockIs says whether the reply's last block is a block of typ holding text: Cline may
// save one message twice, milliseconds apart, with nothing between (validation round r146b
// U3), and a model does not say one thing twice in one breath.
func lastBlockIs(reply []any, typ, text string) bool {
	if len(reply) == 0 {
		return false
	}
	last, _ := reply[len(reply)-1].(map[string]any)
	return last["type"] == typ && last[typ] == text // a block keeps its text under its type
}

// clineUIEntry is one entry of ui_messages.json.
type clineUIEntry struct {
	TS      float64 `json:"ts"`
	Type    string  `json:"type"`
	Say     string  `json:"say"`
	Ask     string  `json:"ask"`
	Text    string  `json:"text"`
	Partial bool    `json:"partial"`
}

// isClineUIHead says whether the top-level keys of a list's first element are a Cline UI
// message's.
func isClineUIHead(has func(string) bool) bool {
	return has("ts") && has("type") && (has("say") || has("ask"))
}

// clineUITools maps the UI's names of the file tools to the names the model calls them by.
var clineUITools = map[string]string{
	"readFile": "read_file", "editedExistingFile": "replace_in_file", "newFileCreated": "write_to_file",
	"searchFiles": "search_files", "listFilesTopLevel": "list_files", "listFilesRecursive": "list_files",
	"listCodeDefinitionNames": "list_code_definition_names", "fileDeleted": "delete_file",
	"webFetch": "web_fetch", "appliedDiff": "apply_diff", "insertContent": "insert_content",
	"searchAndReplace": "search_and_replace", "codebaseSearch": "codebase_search",
}

// clineUIAnswers are the UI's file tools whose "content" is their answer (or its path), not
// what they were asked: it is left out of the call's arguments.
var clineUIAnswers = map[string]bool{
	"readFile": true, "searchFiles": true, "listFilesTopLevel": true, "listFilesRecursive": true,
	"listCodeDefinitionNames": true, "webFetch": true, "codebaseSearch": true,
}

func buildClineUI(entries []clineUIEntry) *built {
	var list []msg
	var reply []any
	requests := 0
	task := "" // what the user asked, said before the first request
	flush := func() {
		if len(reply) > 0 {
			list = append(list, msg{Role: "assistant", Content: reply})
			reply = nil
		}
	}
	// A streaming message is saved in its partial form, and again in its final form when it
	// is complete (in place, under the same ts, or as the next entry). A call whose partial
	// form is all there is was still shown as made: Cline left 26 writes of empty files
	// partial, never answered (validation round r96c U2: 9 of 35 calls were read). Words
	// whose partial form is all there is are read too: Cline updates a message in place, and
	// what it kept is what the model had said when the stream ended (validation round r146b
	// U2: a quarter of one task's reasoning was passed over).
	final := make(map[float64]bool, len(entries))
	for _, e := range entries {
		if !e.Partial {
			final[e.TS] = true
		}
	}
	kindOf := func(e clineUIEntry) string {
		if e.Type == "ask" {
			return e.Ask
		}
		return e.Say
	}
	for i, e := range entries {
		kind := kindOf(e)
		if e.Partial && (final[e.TS] || i+1 < len(entries) && entries[i+1].Type == e.Type && kindOf(entries[i+1]) == kind) {
			continue // its final form comes
		}
		switch kind {
		case "api_req_started":
			// Every request ends the model's turn, even one whose text holds no request (Kilo
			// Code writes only its protocol there): the calls before it are answered by it.
			var req struct {
				Request string `json:"request"`
			}
			_ = json.Unmarshal([]byte(e.Text), &req)
			flush()
			requests++
			switch {
			case req.Request != "":
				list = append(list, msg{Role: "user", Content: clineUserBlocks(req.Request), TS: e.TS})
			case requests == 1 && task != "":
				list = append(list, msg{Role: "user", Content: task, TS: e.TS})
			default:
				list = append(list, msg{Role: "user", Content: []any{}, TS: e.TS})
			}
		case "completion_result":
			// The model's attempt_completion, as its history keeps it: a call, answered by the
			// next request's "[attempt_completion] Result:" block and the user's feedback in it
			// (validation round r138b U2: the same task read 38 calls from its history, 35 here).
			// Cline ends the result with its flag for a task that changed files ("HAS_CHANGES"),
			// which the model did not write.
			if e.Type == "say" && requests > 0 {
				result := strings.TrimSuffix(e.Text, clineChangesFlag)
				reply = append(reply, map[string]any{"type": "tool_use", "name": "attempt_completion", "input": map[string]any{"result": result}})
			}
		case "followup":
			// ask_followup_question: text is JSON {"question", "options"}.
			var q struct {
				Question string `json:"question"`
			}
			if e.Type == "ask" && json.Unmarshal([]byte(e.Text), &q) == nil && q.Question != "" {
				reply = append(reply, map[string]any{"type": "tool_use", "name": "ask_followup_question", "input": map[string]any{"question": q.Question}})
			}
		case "text":
			switch {
			case e.Type != "say":
			case requests > 0 && !lastBlockIs(reply, "text", e.Text):
				reply = append(reply, map[string]any{"type": "text", "text": e.Text})
			case task == "":
				task = e.Text // before the first request: the task, which the request repeats
			}
		case "reasoning":
			if !lastBlockIs(reply, "thinking", e.Text) {
				reply = append(reply, map[string]any{"type": "thinking", "thinking": e.Text})
			}
		case "tool":
			var fields map[string]any
			if json.Unmarshal([]byte(e.Text), &fields) != nil {
				continue
			}
			tool, _ := fields["tool"].(string)
			name := clineUITools[tool]
			if name == "" {
				name = tool
			}
			if clineUIAnswers[tool] {
				delete(fields, "content")
			}
			delete(fields, "tool")
			delete(fields, "operationIsLocatedInWorkspace")
			reply = append(reply, map[string]any{"type": "tool_use", "name": name, "input": fields})
		case "command":
			// Cline ends the command line it asks the user to approve with its flag
			// ("REQ_APP"), which the model did not write: the same command asked with and
			// without approval is one command (validation round r146b U4).
			command := strings.TrimSuffix(e.Text, clineApprovalFlag)
			if n := len(reply); n > 0 {
				if last, _ := reply[n-1].(map[string]any); last["name"] == "attempt_completion" {
					// The command attempt_completion was given to show the result, asked
					// right after it: a field of that call, not a call of its own. Read as
					// one, a completion declined twice was two runs of a command that never
					// ran (validation round r146b U1).
					last["input"].(map[string]any)["command"] = command
					continue
				}
			}
			reply = append(reply, map[string]any{"type": "tool_use", "name": "execute_command", "input": map[string]any{"command": command}})
		case "use_mcp_server":
			var fields map[string]any
			if json.Unmarshal([]byte(e.Text), &fields) != nil {
				continue
			}
			name := "use_mcp_tool"
			if t, _ := fields["type"].(string); t != "" {
				name = t // use_mcp_tool or access_mcp_resource
				delete(fields, "type")
			}
			reply = append(reply, map[string]any{"type": "tool_use", "name": name, "input": fields})
		}
	}
	flush()
	t := buildCline(list)
	t.Format = FormatClineUI
	return t
}
