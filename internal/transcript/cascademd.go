package transcript

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// Windsurf's Cascade (and Google Antigravity, which grew from it) exports a conversation as
// Markdown ("Download Trajectory"): "# Cascade Chat Conversation" (Antigravity: "# Chat
// Conversation"), a note that the file is the chat's output only, then turns:
//
//   - "### User Input": the user's words, up to the next turn;
//   - "### Planner Response": the model's words, and its calls, each a paragraph of its own
//     that is one italic sentence opening with what was done: "*Viewed [a.go](file:///x/a.go) *",
//     "*User accepted the command `go test ./...`*" (the command may run over lines),
//     "*Edited relevant file*", "*Checked command status*", "*Running MCP tool*", ...
//
// The export keeps no call's answer, no failure and no id: every call's result is unknown,
// which the progress detector takes as new. What it reads of such a file is the calls'
// order and arguments, and the model's words (the thought rule). A paragraph in italics
// that opens with no known action is the model's words.
//
// Written from real exports committed to GitHub (validation round r68a U1, U2: five Windsurf
// conversations of 2,501 calls and an Antigravity one of 436, unread before).

const cascadeNote = "_This is purely the output of the chat conversation"

// isCascadeHead says whether a text opens as Cascade's (or Antigravity's) Markdown export.
func isCascadeHead(head []byte) bool {
	if !bytes.HasPrefix(head, []byte("# Cascade Chat Conversation\n")) && !bytes.HasPrefix(head, []byte("# Chat Conversation\n")) &&
		!bytes.HasPrefix(head, []byte("# Cascade Chat Conversation\r\n")) && !bytes.HasPrefix(head, []byte("# Chat Conversation\r\n")) {
		return false
	}
	return bytes.Contains(head[:min(len(head), 512)], []byte(cascadeNote))
}

// cascadeActions are the sentences that open a call's paragraph, and the tool each stands
// for (Cascade's own names for its tools).
var cascadeActions = []struct{ opening, tool string }{
	{"Viewed ", "view_file"}, {"Edited relevant file", "edit_file"},
	{"User accepted the command ", "run_command"}, {"User rejected the command ", "run_command"},
	{"Checked command status", "command_status"}, {"Read terminal output", "read_terminal"},
	{"Updated todo list", "todo_list"}, {"Grep searched codebase", "grep_search"},
	{"Searched filesystem", "find_by_name"}, {"Listed directory ", "list_dir"},
	{"Found code context", "code_search"}, {"Searched web for ", "search_web"},
	{"Read URL content", "read_url_content"}, {"Read resource from ", "read_resource"},
	{"Running MCP tool", "mcp_tool"}, {"Listed resources from ", "list_resources"},
	{"Proposed code", "propose_code"}, {"Asked user a question", "ask_user"},
	{"Analyzed ", "analyze_file"}, {"Ran preview", "browser_preview"},
	{"Semantic searched codebase", "codebase_search"}, // validation round r94a U1
}

func readCascadeMarkdown(name string, br *bufio.Reader) (*built, error) {
	lines, err := readMarkdownLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatCascadeMarkdown)
	a := b.agent(MainAgent)
	role := ""        // "user" or "model": the turn the lines are in
	var para []string // the paragraph being read
	var said []string // the model's words since its last call
	inFence := false
	flushSaid := func() {
		if text := strings.TrimSpace(strings.Join(said, "\n")); text != "" {
			a.text("model", text, "", 0)
		}
		said = said[:0]
	}
	endPara := func() {
		if len(para) == 0 {
			return
		}
		text := strings.Join(para, "\n")
		para = para[:0]
		if role == "user" {
			if _, ok := cascadeCall(text); !ok {
				said = append(said, text)
				return
			}
			// The model acting with no words: its calls follow the user's input with no
			// "### Planner Response" over them.
			if words := strings.TrimSpace(strings.Join(said, "\n")); words != "" {
				a.user(words, 0)
			}
			said, role = said[:0], "model"
		}
		switch role {
		case "model":
			if call, ok := cascadeCall(text); ok {
				flushSaid()
				a.add(call)
				return
			}
			said = append(said, text, "")
		}
	}
	endTurn := func() {
		endPara()
		if role == "user" {
			if text := strings.TrimSpace(strings.Join(said, "\n")); text != "" {
				a.user(text, 0)
			}
			said = said[:0]
		} else {
			flushSaid()
		}
	}
	for _, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		}
		// A turn's heading is a turn's, fenced or not: a user's paste may leave a fence
		// open, and the exporter writes these two headings for turns alone.
		if line == "### User Input" || line == "### Planner Response" {
			inFence = false
			endTurn()
			role = map[string]string{"### User Input": "user", "### Planner Response": "model"}[line]
			continue
		}
		// A command's paragraph may hold blank lines (a script typed into the command): it
		// ends where its closing "`*" does, or, where the export cut a long command short
		// and left it open, where the next call or turn starts.
		if !inFence && strings.TrimSpace(line) == "" && !openCommand(para) {
			endPara()
			continue
		}
		if t := strings.TrimRight(line, " "); opensCascadeCall(line) && strings.HasSuffix(t, "*") && len(t) > 1 {
			// A call of one line is a paragraph of its own, whatever follows it at once (the
			// export may glue the model's next words to it), and ends a fence left open
			// before it (a pasted error output cut short).
			inFence = false
			endPara()
			para = append(para, line)
			endPara()
			continue
		}
		if !inFence && len(para) > 0 && opensCascadeCall(line) {
			endPara()
		}
		if role != "" {
			para = append(para, line)
		}
	}
	endTurn()
	return b.done(), nil
}

// opensCascadeCall says whether a line opens a call's paragraph ("*Viewed ...").
func opensCascadeCall(line string) bool {
	if !strings.HasPrefix(line, "*") {
		return false
	}
	for _, act := range cascadeActions {
		if strings.HasPrefix(line[1:], strings.TrimRight(act.opening, " ")) {
			return true
		}
	}
	return false
}

// openCommand says whether a paragraph is a command's call whose closing "`*" has not come
// yet.
func openCommand(para []string) bool {
	if len(para) == 0 || !strings.HasPrefix(para[0], "*User ") || !strings.Contains(para[0], " the command `") {
		return false
	}
	last := strings.TrimRight(para[len(para)-1], " ")
	return !strings.HasSuffix(last, "`*")
}

// cascadeCall reads a paragraph that is a call: one italic sentence opening with a known
// action. Its arguments are what the sentence names: the file of a link (its path), the
// command between backticks, the query or the name after the action.
func cascadeCall(para string) (loopguard.Event, bool) {
	t := strings.TrimSpace(para)
	if len(t) < 3 || t[0] != '*' {
		return loopguard.Event{}, false
	}
	// The export cuts a long command short, leaving its sentence open: still the command.
	closed := t[len(t)-1] == '*'
	body := strings.TrimSpace(t[1:])
	if closed {
		body = strings.TrimSpace(t[1 : len(t)-1])
	} else if !strings.HasPrefix(body, "User accepted the command `") && !strings.HasPrefix(body, "User rejected the command `") {
		return loopguard.Event{}, false
	}
	for _, act := range cascadeActions {
		rest, ok := strings.CutPrefix(body, strings.TrimRight(act.opening, " "))
		if !ok || rest != "" && act.opening[len(act.opening)-1] != ' ' && rest[0] != ':' && rest[0] != ' ' {
			continue
		}
		rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), ":"))
		var args string
		switch {
		case strings.HasPrefix(rest, "`") && (!closed || strings.HasSuffix(rest, "`") && len(rest) >= 2):
			args = `{"command":` + strconv.Quote(strings.TrimSuffix(rest[1:], "`")) + `}`
		case strings.Contains(rest, "](file://"):
			path := rest[strings.Index(rest, "](file://")+len("](file://"):]
			path = strings.TrimSuffix(strings.TrimSpace(path), ")")
			args = `{"path":` + strconv.Quote(path) + `}`
		case rest != "":
			args = `{"query":` + strconv.Quote(rest) + `}`
		}
		call := loopguard.Call("", act.tool, []byte(args))
		if strings.HasPrefix(act.opening, "User rejected") {
			call = call.WithResult("The user rejected the command.", false)
		}
		return call, true
	}
	return loopguard.Event{}, false
}
