package transcript

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/loopguard/loopguard"
)

// Cursor keeps each chat of its agent as text (~/.cursor/projects/<project>/agent-transcripts/
// <id>.txt), turns headed by a line of their own:
//
//	user:
//	<user_query>
//	fix the build
//	</user_query>
//
//	assistant:
//	[Thinking] The build fails on ...
//	Let me look at the config.
//	[Tool call] Shell
//	  command: npm run build
//	  description: Build the app
//
//	[Tool result] Shell
//
// A call is "[Tool call] <name>" with its parameters on the lines after it ("  key: value",
// a value running on over the lines up to the next parameter or marker); "[Tool result]
// <name>" marks that it was answered, and the answer's text, when lines follow it, is its
// result; Cursor writes none, so most calls have no known result. "[Thinking]" heads a line of
// the model's reasoning; the other lines of an assistant turn are its words.
// In a user turn, the text of <user_query> is what the person typed, the rest (attached files,
// web results) context. (The same chats kept as JSON lines, {"role", "message": {"content"}},
// are read as a message list.) Validation round r81a U1: 157 calls of four chats, and every
// Cursor user's own transcripts, were not read.

const (
	cursorUserHead      = "user:"
	cursorAssistantHead = "assistant:"
	cursorCallMark      = "[Tool call] "
	cursorResultMark    = "[Tool result] "
	cursorThinkingMark  = "[Thinking] "
)

// isCursorTextHead says whether a text opens with a Cursor agent transcript's first user turn
// and shows an assistant turn or a call within head.
func isCursorTextHead(head []byte) bool {
	if !bytes.HasPrefix(head, []byte(cursorUserHead+"\n")) && !bytes.HasPrefix(head, []byte(cursorUserHead+"\r\n")) {
		return false
	}
	return bytes.Contains(head, []byte("\n"+cursorAssistantHead+"\n")) || bytes.Contains(head, []byte("\n"+cursorAssistantHead+"\r\n")) ||
		bytes.Contains(head, []byte("\n"+cursorCallMark))
}

func readCursorText(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	lines := strings.Split(string(lfLines(data)), "\n")
	b := newBuilder(FormatCursorText)
	a := b.agent(MainAgent)
	isMark := func(l string) bool {
		return l == cursorUserHead || l == cursorAssistantHead || strings.HasPrefix(l, cursorCallMark) || strings.HasPrefix(l, cursorResultMark)
	}
	var pending []int // calls not yet answered, oldest first
	var said []string
	flushSaid := func() {
		a.text("model", strings.TrimSpace(strings.Join(said, "\n")), "", 0)
		said = said[:0]
	}
	role := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case l == cursorUserHead:
			flushSaid()
			j := i + 1
			for j < len(lines) && lines[j] != cursorAssistantHead {
				j++
			}
			cursorUserTurn(a, strings.Join(lines[i+1:j], "\n"))
			role, pending, i = "user", pending[:0], j-1
		case l == cursorAssistantHead:
			flushSaid()
			role = "assistant"
		case role != "assistant":
			// text outside an assistant turn: none but the user's, read above
		case strings.HasPrefix(l, cursorCallMark):
			flushSaid()
			j := i + 1
			for j < len(lines) && !isMark(lines[j]) {
				j++
			}
			args := cursorParams(lines[i+1 : j])
			pending = append(pending, a.add(loopguard.Event{Type: loopguard.EventCall, Tool: strings.TrimSpace(l[len(cursorCallMark):]), Args: marshalArgs(args)}))
			i = j - 1
		case strings.HasPrefix(l, cursorResultMark):
			flushSaid()
			j := i + 1
			for j < len(lines) && !isMark(lines[j]) && lines[j] != "" {
				j++
			}
			if len(pending) > 0 {
				if text := strings.TrimSpace(strings.Join(lines[i+1:j], "\n")); text != "" {
					e := &a.events[pending[0]]
					e.Result, e.HasResult = text, true
				}
				pending = pending[1:]
			}
			i = j - 1
		case strings.HasPrefix(l, cursorThinkingMark):
			flushSaid()
			a.text("reasoning", strings.TrimSpace(l[len(cursorThinkingMark):]), "", 0)
		default:
			said = append(said, l)
		}
	}
	flushSaid()
	return b.done(), nil
}

// cursorUserTurn adds a user turn: the text of its <user_query>, when it has one, is what the
// person typed; the rest of the turn is the context Cursor attached.
func cursorUserTurn(a *agentBuf, text string) {
	start, end := strings.Index(text, "<user_query>"), strings.LastIndex(text, "</user_query>")
	if start < 0 || end < start {
		a.user(strings.TrimSpace(text), 0)
		return
	}
	a.text("context", strings.TrimSpace(text[:start]+text[end+len("</user_query>"):]), "", 0)
	a.user(strings.TrimSpace(text[start+len("<user_query>"):end]), 0)
}

// cursorParams reads a call's parameters: a line "  key: value" opens one, and the lines after
// it, up to the next, continue its value (an edit's text, with its own indentation and blank
// lines). Inside a value that runs over lines, or one that holds text (an edit's, a file's, a
// command's), code may hold a line of the same look ("  base: '/app/',"): there, only the names
// of Cursor's tools' parameters open one.
func cursorParams(lines []string) map[string]string {
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	params := map[string]string{}
	key := ""
	var val []string
	flush := func() {
		if key != "" {
			params[key] = strings.Join(val, "\n")
		}
	}
	for _, l := range lines {
		if k, v, ok := cursorParamLine(l); ok && (cursorParamNames[k] || len(val) < 2 && !cursorTextParams[key]) {
			flush()
			key, val = k, []string{v}
			continue
		}
		if key == "" {
			key = "input" // text before any parameter: the call's input as a whole
		}
		val = append(val, l)
	}
	flush()
	return params
}

// cursorParamLine reads "  key: value": two spaces, a name of letters, digits and '_', a colon.
func cursorParamLine(l string) (key, value string, ok bool) {
	rest, found := strings.CutPrefix(l, "  ")
	if !found || rest == "" || rest[0] == ' ' {
		return "", "", false
	}
	k, v, found := strings.Cut(rest, ":")
	if !found || k == "" {
		return "", "", false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return "", "", false
		}
	}
	return k, strings.TrimPrefix(v, " "), true
}

// cursorParamNames are the parameters of Cursor's agent tools (Read, Write, StrReplace, Shell,
// Grep, Glob, Delete, EditNotebook, TodoWrite, Task, WebFetch, WebSearch, SwitchMode, ...).
var cursorParamNames = map[string]bool{
	"path": true, "old_string": true, "new_string": true, "replace_all": true, "contents": true,
	"command": true, "description": true, "explanation": true, "is_background": true, "timeout": true,
	"working_directory": true, "required_permissions": true, "pattern": true, "glob_pattern": true,
	"target_directory": true, "query": true, "search_term": true, "url": true, "offset": true,
	"limit": true, "todos": true, "merge": true, "prompt": true, "subagent_type": true, "model": true,
	"target_mode_id": true, "target_notebook": true, "cell_idx": true, "is_new_cell": true,
	"cell_language": true, "old_string_notebook": true, "instructions": true, "code_edit": true,
	"target_file": true, "paths": true, "-A": true, "-B": true, "-C": true, "-i": true, "output_mode": true,
	"head_limit": true, "type": true, "glob": true, "multiline": true, "server": true, "toolName": true,
	"arguments": true, "uri": true,
}

// cursorTextParams are the parameters whose value is text that may run over lines.
var cursorTextParams = map[string]bool{"old_string": true, "new_string": true, "contents": true,
	"code_edit": true, "command": true, "prompt": true, "instructions": true, "input": true}
