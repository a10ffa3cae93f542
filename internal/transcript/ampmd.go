package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// Amp (Sourcegraph's coding agent) exports a thread as Markdown under a front matter:
//
//	---
//	title: Fix the flaky test
//	threadId: T-019b72df-…
//	created: 2025-12-31T05:27:00.405Z
//	agentMode: smart
//	---
//
//	# Fix the flaky test
//
//	## User
//
//	what the user typed
//
//	## Assistant
//
//	the model's words
//
//	**Tool Use:** `Bash`
//
//	```json
//	{"cmd": "npm test", "cwd": "/repo"}
//	```
//
//	## User
//
//	**Tool Result:** `toolu_vrtx_01…`
//
//	```
//	{"output": "…", "exitCode": 1}
//	```
//
// A call names no id; its result, in the user message after the model's, names the call's
// (toolu_…), and the results of a message's calls follow in the order of the calls. A failed
// call is answered "**Tool Error:** `id`" and an "**Error:** {…}" line, a call the user
// stopped "**Tool Cancelled:** `id`", one the user refused "**Tool:** `id` (rejected-by-user)".
//
// The exporter wraps a result in a fence without escaping what it holds: undo_edit's result
// is a ```diff block inside that fence, and a read_thread result quotes another thread's
// marks (indented). Counting fences would lose the thread at the first such result, so marks
// are whole lines at column 0 and nothing else is: every "## User" opens a user message,
// every "## Assistant" a model's, whatever came before.

// ampToolUse and the other marks open a call or a result; each is a line of its own.
const (
	ampToolUse       = "**Tool Use:** `"
	ampToolResult    = "**Tool Result:** `"
	ampToolError     = "**Tool Error:** `"
	ampToolCancelled = "**Tool Cancelled:** `"
	ampToolStatus    = "**Tool:** `" // "**Tool:** `id` (rejected-by-user)"
	ampErrorLine     = "**Error:** "
	ampInterrupted   = "*(interrupted)*"
	ampOmitted       = "omitted in markdown version ...]"
)

// isAmpHead says whether head opens with an Amp thread's front matter: a threadId of Amp's
// form ("T-…") and either Amp's agentMode or, after the front matter, its message headings
// with a call. A note that merely has front matter is not taken.
func isAmpHead(head []byte) bool {
	rest, ok := bytes.CutPrefix(head, []byte("---"))
	if !ok || len(rest) == 0 || (rest[0] != '\n' && rest[0] != '\r') {
		return false
	}
	rest = rest[:min(len(rest), 64<<10)]
	thread, mode := false, false
	for len(rest) > 0 {
		nl := bytes.IndexByte(rest, '\n')
		line := rest
		if nl >= 0 {
			line, rest = rest[:nl], rest[nl+1:]
		} else {
			rest = nil
		}
		line = bytes.TrimRight(line, "\r")
		switch {
		case string(line) == "---":
			if !thread {
				return false
			}
			body := rest
			return mode || (bytes.Contains(body, []byte("\n## User")) || bytes.Contains(body, []byte("\n## Assistant"))) &&
				bytes.Contains(body, []byte("\n"+ampToolUse))
		case bytes.HasPrefix(line, []byte("threadId: T-")):
			thread = true
		case bytes.HasPrefix(line, []byte("agentMode:")):
			mode = true
		}
	}
	return false
}

func readAmpMarkdown(name string, br *bufio.Reader) (*built, error) {
	lines, err := readMarkdownLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatAmpMarkdown)
	r := ampReader{a: b.agent(MainAgent)}
	todos := ampTodosAt(lines)
	head := ""
	var body []string
	for i, line := range lines[ampBodyStart(lines):] {
		if i == todos {
			break // the thread's to-do list, written after its last message: no event
		}
		if line == "## User" || line == "## Assistant" {
			r.message(head, body)
			head, body = line, nil
			continue
		}
		body = append(body, line)
	}
	r.message(head, body)
	return b.done(), nil
}

// ampBodyStart returns the index of the line after the front matter, if there is one.
func ampBodyStart(lines []string) int {
	if len(lines) == 0 || strings.TrimRight(lines[0], " ") != "---" {
		return 0
	}
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], " ") == "---" {
			return i + 1
		}
	}
	return 0
}

// ampTodosAt returns the index, counted from the front matter's end, of the "## Todos"
// heading that closes an export (a checklist and nothing after it), or -1. A "## Todos" with
// other lines after it is someone's Markdown and stays where it is.
func ampTodosAt(lines []string) int {
	start := ampBodyStart(lines)
	for i := len(lines) - 1; i >= start; i-- {
		l := strings.TrimSpace(lines[i])
		switch {
		case lines[i] == "## Todos":
			return i - start
		case l != "" && !strings.HasPrefix(l, "- ["):
			return -1
		}
	}
	return -1
}

// ampReader is readAmpMarkdown's state between messages.
type ampReader struct {
	a *agentBuf
	// open are the indices (in a.events) of the calls waiting for their results, in the
	// order they were made.
	open []int
	// replies counts the model's messages, for the Turn of their calls; answered says the
	// last reply's calls have had a user message since, so that the next reply is a new one.
	replies  int
	answered bool
	edits    int // the calls read whose arguments the exporter left out
}

// message turns one message (its heading and the lines under it) into events.
func (r *ampReader) message(head string, body []string) {
	switch head {
	case "## Assistant":
		if r.answered || r.replies == 0 {
			// Calls of an earlier reply still waiting now never get their result: a result
			// to come answers this reply's calls.
			r.replies, r.answered, r.open = r.replies+1, false, nil
		}
		r.a.turn = "m" + strconv.Itoa(r.replies)
		r.assistant(body)
	case "## User":
		r.a.turn = ""
		r.answered = true
		r.user(body)
	}
}

// assistant reads a model's message: its words, and a call at each "**Tool Use:**" line with
// the fenced JSON after it.
func (r *ampReader) assistant(body []string) {
	var words []string
	for i := 0; i < len(body); i++ {
		l := body[i]
		tool, ok := ampMarkName(l, ampToolUse)
		if !ok {
			words = append(words, l)
			continue
		}
		r.a.said(strings.TrimSpace(strings.Join(words, "\n")))
		words = nil
		args, next := ampCallArgs(body, i+1)
		i = next - 1
		e := loopguard.Call("", tool, r.numberEdit(args))
		r.open = append(r.open, r.a.add(e))
	}
	r.a.said(strings.TrimSpace(strings.Join(words, "\n")))
}

// ampCallArgs reads the fenced block after a call's mark, from lines[from]: the arguments,
// compacted, and the index of the line after the block. JSON has no line that is only a fence,
// so the block's first closing fence is its end. A call with no block has no arguments.
func ampCallArgs(lines []string, from int) ([]byte, int) {
	i := from
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i == len(lines) || !strings.HasPrefix(lines[i], "```") {
		return nil, from
	}
	for j := i + 1; j < len(lines); j++ {
		if isFenceLine(lines[j]) {
			return jsonOrInput(strings.Join(lines[i+1:j], "\n")), j + 1
		}
		if strings.HasPrefix(lines[j], ampToolUse) {
			// The block was never closed (the export was cut, or edited): a mark is still a
			// mark, as no line of JSON opens with one.
			return jsonOrInput(strings.Join(lines[i+1:j], "\n")), j
		}
	}
	return jsonOrInput(strings.Join(lines[i+1:], "\n")), len(lines) // cut short
}

// numberEdit numbers a call's arguments when the exporter replaced some of them by its
// "[... old_str omitted in markdown version ...]": edit_file's change is left out of every
// export, so that two different edits of one file read alike, and were read as one edit made
// again (cf. copilotmd.go's edits).
func (r *ampReader) numberEdit(args []byte) []byte {
	if !bytes.Contains(args, []byte(ampOmitted)) || len(args) < 2 || args[0] != '{' || args[len(args)-1] != '}' {
		return args
	}
	r.edits++
	n := `"edit":` + strconv.Itoa(r.edits) + `}`
	if string(args) == "{}" {
		return []byte("{" + n)
	}
	return append(append(args[:len(args)-1:len(args)-1], ','), n...)
}

// user reads a user message: results of the calls waiting (each from its mark to the next
// mark), and what else it says: the files attached to it and a hand-off from another thread
// (context, Source "attached-files" and "handoff"), the exporter's "*(interrupted)*" (Source
// "interrupt"), or the user's words.
func (r *ampReader) user(body []string) {
	var text []string
	for i := 0; i < len(body); i++ {
		l := body[i]
		mark, id, ok := ampResultMark(l)
		if !ok {
			text = append(text, l)
			continue
		}
		r.userText(text)
		text = nil
		end := i + 1
		for end < len(body) {
			if _, _, next := ampResultMark(body[end]); next {
				break
			}
			end++
		}
		rest := r.result(mark, id, l, body[i+1:end])
		i = end - 1
		text = append(text, rest...)
	}
	r.userText(text)
}

// ampResultMark says whether a line marks a result, and which ("**Tool Result:** `" and so
// on), with the id it names.
func ampResultMark(line string) (mark, id string, ok bool) {
	for _, m := range [...]string{ampToolResult, ampToolError, ampToolCancelled, ampToolStatus} {
		if id, ok := ampMarkName(line, m); ok {
			return m, id, true
		}
	}
	return "", "", false
}

// ampMarkName returns the name in backticks after mark at the start of line.
func ampMarkName(line, mark string) (string, bool) {
	rest, ok := strings.CutPrefix(line, mark)
	if !ok {
		return "", false
	}
	name, _, ok := strings.Cut(rest, "`")
	return name, ok
}

// result gives the first call waiting its result, from the lines under the mark, and returns
// what of them is not the result: the user's words written after a cancel, an error, or a
// result's block.
func (r *ampReader) result(mark, id, line string, lines []string) []string {
	var text string
	var failed bool
	var rest []string
	switch mark {
	case ampToolResult:
		text, rest = ampResultBlock(lines)
	case ampToolError:
		text, rest = ampErrorText(lines)
		failed = true
	case ampToolCancelled:
		// The user stopped the call before it answered: a failure, as a cancel is in the
		// other readers, and what follows is the user's words, which the exporter writes in
		// the same message.
		text, failed, rest = "cancelled by the user", true, lines
	case ampToolStatus:
		// "(rejected-by-user)": the user refused the call.
		_, after, _ := strings.Cut(line[len(mark):], "`")
		status := strings.Trim(strings.TrimSpace(after), "()")
		text, rest = status, lines
		failed = strings.Contains(status, "reject") || strings.Contains(status, "cancel") ||
			strings.Contains(status, "error") || strings.Contains(status, "fail")
	}
	if len(r.open) == 0 {
		return rest // a result for no call: the export was cut, or edited
	}
	e := &r.a.events[r.open[0]]
	r.open = r.open[1:]
	e.HasResult = true
	if mark == ampToolResult {
		e.Result, e.Failed = ampResultText(text)
	} else {
		e.Result, e.Failed = text, failed
	}
	return rest
}

// ampResultBlock returns what the fence under a result holds and the lines after it. The
// fence holds blocks of its own, unescaped, so its end is its last closing fence line.
func ampResultBlock(lines []string) (string, []string) {
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i == len(lines) {
		return "", nil
	}
	if !strings.HasPrefix(lines[i], "```") {
		return strings.TrimSpace(strings.Join(lines[i:], "\n")), nil
	}
	for j := len(lines) - 1; j > i; j-- {
		if isFenceLine(lines[j]) {
			return strings.Join(lines[i+1:j], "\n"), lines[j+1:]
		}
	}
	return strings.Join(lines[i+1:], "\n"), nil // cut short
}

// ampErrorText returns what an "**Error:**" line says, and the lines after its paragraph.
func ampErrorText(lines []string) (string, []string) {
	for i, l := range lines {
		msg, ok := strings.CutPrefix(l, ampErrorLine)
		if !ok {
			if strings.TrimSpace(l) == "" {
				continue
			}
			break
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) != "" {
			msg += "\n" + lines[j]
			j++
		}
		return strings.TrimSpace(msg), lines[j:]
	}
	return "error", lines // no message written
}

// isFenceLine says whether a line is a bare fence: three backticks or more and nothing else.
func isFenceLine(l string) bool {
	l = strings.TrimRight(l, " \t")
	return len(l) >= 3 && strings.Trim(l, "`") == ""
}

// ampResultText returns a result's text, and whether it failed, from what Amp's tools answer
// in JSON: a command's {"output", "exitCode"} (its output; a nonzero exit code fails it, and
// a time-out's stopReason is kept), a read's {"absolutePath", "content"} (the content), an
// edit's {"diff", "lineRange"} (the diff, which tells two edits apart when their arguments
// were left out), an MCP tool's content list (its texts). Anything else is as written.
func ampResultText(text string) (string, bool) {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "[") {
		var parts []map[string]any
		if json.Unmarshal([]byte(t), &parts) == nil && len(parts) > 0 && ampContentParts(parts) {
			anys := make([]any, len(parts))
			for i, p := range parts {
				anys[i] = p
			}
			return contentText(anys), false
		}
		return text, false
	}
	if !strings.HasPrefix(t, "{") {
		return text, false
	}
	var v struct {
		Output       *string         `json:"output"`
		ExitCode     json.RawMessage `json:"exitCode"`
		StopReason   string          `json:"stopReason"`
		AbsolutePath *string         `json:"absolutePath"`
		Content      *string         `json:"content"`
		Diff         *string         `json:"diff"`
	}
	if json.Unmarshal([]byte(t), &v) != nil {
		return text, false
	}
	switch {
	case v.Output != nil && v.ExitCode != nil:
		out := *v.Output
		if v.StopReason != "" && strings.TrimSpace(out) == "" {
			out = v.StopReason
		} else if v.StopReason != "" {
			out = strings.TrimRight(out, "\n") + "\n" + v.StopReason
		}
		code, err := strconv.Atoi(string(v.ExitCode))
		return out, err == nil && code != 0
	case v.AbsolutePath != nil && v.Content != nil:
		return *v.Content, false
	case v.Diff != nil:
		return *v.Diff, false
	}
	return text, false
}

// ampContentParts says whether every element of a list is a content part ({"type": ...}).
func ampContentParts(parts []map[string]any) bool {
	for _, p := range parts {
		if _, ok := p["type"].(string); !ok {
			return false
		}
	}
	return true
}

// userText adds what a user message says outside its results.
func (r *ampReader) userText(lines []string) {
	text := strings.TrimSpace(strings.Join(lines, "\n"))
	for text != "" {
		switch {
		case strings.HasPrefix(text, "<attached_files>"):
			// The files the user attached, which Amp puts before the words: context.
			end := strings.Index(text, "\n</attached_files>")
			if end < 0 {
				r.a.text("attached-files", text, "", 0)
				return
			}
			end += len("\n</attached_files>")
			r.a.text("attached-files", text[:end], "", 0)
			text = strings.TrimSpace(text[end:])
		case strings.HasPrefix(text, ampInterrupted):
			// The exporter's note that the user stopped the model's reply.
			r.a.text("interrupt", ampInterrupted, "", 0)
			text = strings.TrimSpace(text[len(ampInterrupted):])
		case strings.HasPrefix(text, "Continuing work from thread T-"):
			// A hand-off: Amp's summary of the thread this one continues, written for the
			// model, with the user's goal at its end. The goal is not marked apart from the
			// summary, so the whole is context, not a turn of the user's.
			r.a.text("handoff", text, "", 0)
			return
		default:
			r.a.user(text, 0)
			return
		}
	}
}
