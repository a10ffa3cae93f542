package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// Zed's agent panel copies or saves a thread as Markdown (its "open as Markdown" action), one
// message after another:
//
//	# <the thread's summary>
//
//	## User
//
//	<context>...the files the user attached...</context>
//	what the user typed
//
//	## Agent                      (older versions: ## Assistant)
//
//	the model's text, <think>...</think> for its thinking
//
//	**Use Tool: terminal (toolu_01…)**
//	```json
//	{ "command": "cargo test" }
//	```
//
//	**Tool Results: toolu_01…**   (a failure: **Tool Results: toolu_01… (Error)**)
//
//	what the tool answered, to the next such line or message heading
//
// A message's calls are one reply; a result answers the call of its id.
//
// A thread of an agent that Zed drives over the Agent Client Protocol (an external agent, and
// Zed's own newer threads) writes each call as a title and a status line instead, its
// content after them, to the next heading or call:
//
//	**Tool Call: Read file `src/app.ts`**
//	Status: Completed
//
//	Terminal:            (a command: the title is the command line)
//	```
//	what it printed
//	```
//
// The title is all the arguments there are (see acpCall). A status of Failed, Rejected,
// Canceled or Error (older Zed) fails the call; Pending, In Progress, Running or Waiting for
// confirmation leaves it without a result. Nothing groups such calls into replies.

// zedRoles maps the message headings of a Zed thread to roles.
// "## User (checkpoint)" is a user's message that Zed kept a checkpoint of the files at.
var zedRoles = map[string]string{"## User": "user", "## User (checkpoint)": "user", "## Agent": "assistant", "## Assistant": "assistant", "## System": "system"}

// isZedThread says whether head opens a Zed thread: an optional "# " title line, then the
// "## User" heading, with a heading of the model's messages somewhere in head, or, when head is
// only the start of a longer file, the files the user attached (Zed's "<context>" block, which
// can outgrow the window).
func isZedThread(head []byte, eof bool) bool {
	// Every file's head is sniffed: most (JSON, other Markdown) are ruled out before the
	// head is copied with its line ends made Unix ones.
	if len(head) == 0 || head[0] != '#' || !bytes.Contains(head[:min(len(head), 4096)], []byte("## User")) {
		return false
	}
	rest := bytes.ReplaceAll(head, []byte("\r\n"), []byte("\n"))
	if bytes.HasPrefix(rest, []byte("# ")) {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return false
		}
		rest = bytes.TrimLeft(rest[nl+1:], "\n")
	}
	heading := []byte("## User\n")
	if bytes.HasPrefix(rest, []byte("## User (checkpoint)\n")) {
		heading = []byte("## User (checkpoint)\n")
	}
	if !bytes.HasPrefix(rest, heading) {
		return false
	}
	if bytes.Contains(rest, []byte("\n## Agent\n")) || bytes.Contains(rest, []byte("\n## Assistant\n")) {
		return true
	}
	return !eof && bytes.HasPrefix(bytes.TrimLeft(rest[len(heading):], "\n"), []byte("<context>\n"))
}

func readZed(path string, br *bufio.Reader) (*built, error) {
	lines, err := readMarkdownLines(path, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatZed)
	r := zedReader{a: b.agent(MainAgent), pending: map[string][]int{}, result: -1}
	for i := 0; i < len(lines); i++ {
		i = r.line(lines, i)
	}
	r.flush()
	return b.done(), nil
}

// zedReader is readZed's state between lines.
type zedReader struct {
	a       *agentBuf
	role    string
	message int              // the message's number, for the Turn of its calls
	pending map[string][]int // calls waiting for their results, by tool use id, oldest first
	waiting int              // how many calls of the message wait for their results
	results bool             // a result of the message was read: its calls are all written
	result  int              // the call whose result the lines in buf are, or -1
	fence   int              // the backticks of the fenced block of the words in buf that is open, or 0
	buf     []string
	acp     string // the title of the ACP call whose content buf gathers ("" for none: see zedToolCall)
	acpN    int    // ACP calls read, for the arguments of a title that names no input
}

// line reads lines[i] (and, for a call, the fenced arguments after it) and returns the index
// of the last line it read.
//
// Zed writes a message's words, then all its calls, then all their results. A line that looks
// like a mark where none can stand is text: a heading inside a fenced block of the words, or
// inside a result while more results of the message are due (a result may quote a thread); a
// call after the message's first result, or with no fenced arguments after it; a result for
// no call waiting. (A heading in the message's last result is taken for one: the two cannot
// be told apart.) Calls left without results (the thread was stopped) end at the next heading.
func (r *zedReader) line(lines []string, i int) int {
	line := lines[i]
	if r.result < 0 {
		// (Not in a result: what a tool answers quotes code and search hits whose fences
		// need not pair up, as a search's hits cut from a Markdown file.)
		r.fence = nextFence(r.fence, line)
	}
	if role, ok := zedRoles[strings.TrimRight(line, " ")]; ok && r.fence == 0 && !(r.result >= 0 && r.waiting > 0) {
		r.flush()
		r.role, r.message, r.results, r.result, r.acp = role, r.message+1, false, -1, ""
		return i
	}
	if title, status, at, ok := zedToolCall(lines, i); ok && r.fence == 0 && r.waiting == 0 {
		r.flush()
		e := loopguard.Call("", "", nil)
		switch status {
		case "Pending", "In Progress", "Running", "Waiting for confirmation":
			// not finished when the thread was saved: what it would have answered is unknown
		case "Failed", "Rejected", "Canceled", "Error":
			e.HasResult, e.Failed = true, true
		default:
			e.HasResult = true
		}
		r.result, r.acp = r.a.add(e), title
		r.acpN++
		return at
	}
	if tool, id, ok := zedUseTool(line); ok && r.fence == 0 && !r.results && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "```") {
		r.flush()
		end := i + 2
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		e := loopguard.Call("", tool, jsonOrInput(strings.Join(lines[i+2:min(end, len(lines))], "\n")))
		e.Turn = "m" + strconv.Itoa(r.message)
		r.pending[id] = append(r.pending[id], r.a.add(e))
		r.waiting++
		r.result = -1
		return end
	}
	if id, failed, ok := zedResult(line); ok && r.fence == 0 && len(r.pending[id]) > 0 {
		r.flush()
		idx := r.pending[id][0]
		r.pending[id] = r.pending[id][1:]
		r.waiting--
		r.results, r.result = true, idx
		r.a.events[idx].HasResult, r.a.events[idx].Failed = true, failed
		return i
	}
	r.buf = append(r.buf, line)
	return i
}

// flush hands the lines gathered since the last mark to their owner: the result of a call,
// the user's turn, or the model's words and thinking.
func (r *zedReader) flush() {
	text := strings.TrimSpace(strings.Join(r.buf, "\n"))
	r.buf, r.fence = r.buf[:0], 0
	switch {
	case r.result >= 0 && r.acp != "":
		e := &r.a.events[r.result]
		e.Tool, e.Args, e.Result = acpCall(r.acp, text, r.acpN)
		if !e.HasResult {
			e.Result = ""
		}
		r.acp = ""
	case r.result >= 0:
		e := &r.a.events[r.result]
		e.Result = text
		e.Failed = e.Failed || zedCommandFailed(e, text)
	case text == "" || r.role == "":
		// nothing, or the thread's title: a summary Zed wrote, not a message
	case r.role == "user":
		r.a.user(text, 0)
	case r.role == "assistant":
		for text != "" {
			before, think, after, ok := cutThink(text)
			r.a.said(strings.TrimSpace(before))
			if !ok {
				break
			}
			r.a.text("thinking", strings.TrimSpace(think), "", 0)
			text = strings.TrimSpace(after)
		}
	default:
		r.a.text("system", text, "", 0)
	}
}

// zedCommandFailed says whether a terminal call's answer is Zed's word that its command exited
// with a failure: `Command "cargo build" failed with exit code 1.` on the answer's first line,
// naming the call's own command, which no program's output can be taken for (the results
// heading says "(Error)" only when the tool itself failed; validation round r140a U1).
func zedCommandFailed(e *loopguard.Event, answer string) bool {
	first, _, _ := strings.Cut(answer, "\n")
	rest, ok := strings.CutPrefix(first, `Command "`)
	if !ok {
		return false
	}
	command, code, ok := strings.Cut(rest, `" failed with exit code `)
	if !ok || !strings.HasSuffix(code, ".") || !isDigits(strings.TrimSuffix(code, ".")) {
		return false
	}
	var args struct {
		Command string `json:"command"`
	}
	return json.Unmarshal(e.Args, &args) == nil && args.Command == command
}

// nextFence returns the fence open after line, given the one open before it (the number of
// backticks that opened it, 0 for none): as in Markdown, a block opens with three backticks or
// more and closes with a line of as many or more and nothing else, so that a file quoted in a
// four-backtick block keeps its own three-backtick blocks inside.
func nextFence(open int, line string) int {
	n := 0
	for n < len(line) && line[n] == '`' {
		n++
	}
	switch {
	case n < 3:
		return open
	case open == 0:
		return n
	case n >= open && strings.TrimRight(line[n:], " \t") == "":
		return 0
	}
	return open
}

// cutThink cuts text around its first <think>…</think> block.
func cutThink(text string) (before, think, after string, found bool) {
	before, rest, ok := strings.Cut(text, "<think>")
	if !ok {
		return text, "", "", false
	}
	think, after, _ = strings.Cut(rest, "</think>")
	return before, think, after, true
}

// zedUseTool reads a "**Use Tool: name (id)**" line.
func zedUseTool(line string) (tool, id string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimRight(line, " "), "**Use Tool: ")
	if !found {
		return "", "", false
	}
	rest, found = strings.CutSuffix(rest, ")**")
	open := strings.LastIndex(rest, " (")
	if !found || open <= 0 {
		return "", "", false
	}
	return rest[:open], rest[open+2:], true
}

// zedResult reads a "**Tool Results: id**" line, " (Error)" after the id for a failure.
func zedResult(line string) (id string, failed, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimRight(line, " "), "**Tool Results: ")
	if !found {
		return "", false, false
	}
	if rest, found = strings.CutSuffix(rest, "**"); !found || rest == "" {
		return "", false, false
	}
	id, failed = strings.CutSuffix(rest, " (Error)")
	return id, failed, true
}

// zedToolCall reads an ACP call's "**Tool Call: title**" line at lines[i] and the
// "Status: ..." line after it, and returns the index of that line. A title may go on over
// several lines (a command with a heredoc or a quoted script, r112c U2); it ends on the line
// that closes it with "**" right above the status.
func zedToolCall(lines []string, i int) (title, status string, at int, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimRight(lines[i], " "), "**Tool Call: ")
	if !found || i+1 >= len(lines) {
		return "", "", 0, false
	}
	end := i
	for !strings.HasSuffix(strings.TrimRight(lines[end], " "), "**") {
		if end++; end+1 >= len(lines) || end-i > zedMaxTitleLines || strings.HasPrefix(lines[end], "**Tool Call: ") {
			return "", "", 0, false
		}
	}
	if end > i {
		rest = strings.Join(append([]string{rest}, lines[i+1:end+1]...), "\n")
		rest = strings.TrimRight(rest, " ")
	}
	if title, found = strings.CutSuffix(rest, "**"); !found || title == "" {
		return "", "", 0, false
	}
	if status, found = strings.CutPrefix(strings.TrimRight(lines[end+1], " "), "Status: "); !found {
		return "", "", 0, false
	}
	return unescapeMarkdown(title), status, end + 1, true
}

// zedMaxTitleLines bounds how far a call's title is followed over lines.
const zedMaxTitleLines = 200

// acpCall makes an ACP call of its title and content: the tool, the arguments and the result.
// The title is what the agent showed of the call, and the only arguments the thread keeps:
//   - a command (its content is "Terminal:" and a fenced block) is the terminal tool run on
//     the title as its command line, answered by what the block holds;
//   - a change of a file (its content is "Diff: <path>" and the diff) is an edit of that path;
//   - a read ("Read file `x`"), a listing ("List the `x` directory's contents") or a search
//     ("Search files for regex `x`") is that tool with the title as its arguments (and the
//     file or folder it names as its path);
//   - a title that reports what a search found ("No matches", "Found 3 matches"), or that
//     names no input at all ("Read file", "Ran command", as Claude Code titles its calls over
//     ACP before their input is known), names no input: its arguments are the call's number,
//     so that different calls alike answered are not taken for one call made again;
//   - Zed's agent's "thinking" is its tool for thinking aloud, and a change of a file is
//     what its diff wrote.
func acpCall(title, content string, n int) (tool string, args []byte, result string) {
	if body, ok := strings.CutPrefix(content, "Terminal:"); ok {
		if zedUntitled[title] {
			return "terminal", marshalArgs(map[string]string{"title": title, "call": strconv.Itoa(n)}), fencedBody(strings.TrimSpace(body))
		}
		return "terminal", marshalArgs(map[string]string{"command": title}), fencedBody(strings.TrimSpace(body))
	}
	if rest, ok := strings.CutPrefix(content, "Diff: "); ok {
		// The diff is what the edit wrote, and the only trace of what it was asked to write:
		// twenty edits of one file, each converting one more test, are twenty edits, not one
		// made again (validation round r112c F1, F2).
		path, diff, _ := strings.Cut(rest, "\n")
		return "edit_file", marshalArgs(map[string]string{"path": strings.TrimSpace(path), "diff": strings.TrimSpace(diff)}), content
	}
	if title == "thinking" {
		return "thinking", nil, content // Zed's agent's tool for thinking aloud ("Finished thinking.")
	}
	if zedUntitled[title] {
		// A title that names no input (an agent behind Zed that titles its calls before their
		// input is known: "Read file", "Ran command"): the call's number stands for the
		// arguments, so that different calls alike answered are not one call made again
		// (r112c F6); a command's too, above.
		return "tool", marshalArgs(map[string]string{"title": title, "call": strconv.Itoa(n)}), content
	}
	switch {
	case strings.HasPrefix(title, "Read file "):
		return "read_file", marshalArgs(map[string]string{"path": quotedPart(title), "title": title}), content
	case strings.HasPrefix(title, "List the "):
		return "list_directory", marshalArgs(map[string]string{"path": quotedPart(title), "title": title}), content
	case strings.HasPrefix(title, "Search files for "):
		return "grep", marshalArgs(map[string]string{"title": title}), content
	case reportsMatches(title):
		return "grep", marshalArgs(map[string]string{"title": title, "call": strconv.Itoa(n)}), content
	}
	return "tool", marshalArgs(map[string]string{"title": title}), content
}

// zedUntitled are the titles Claude Code gives its calls over the Agent Client Protocol before
// their input is known.
var zedUntitled = map[string]bool{"Read file": true, "Ran command": true, "Tool call": true, "Edit file": true,
	"Write file": true, "Search": true, "Fetch": true, "Terminal": true}

// quotedPart returns the first part of a title in backquotes ("Read file `a.ts` (lines 1-40)":
// a.ts), or "".
func quotedPart(title string) string {
	_, rest, ok := strings.Cut(title, "`")
	if !ok {
		return ""
	}
	part, _, _ := strings.Cut(rest, "`")
	return part
}

// reportsMatches says whether an ACP call's title reports what a search found: "No matches",
// "1 match", "Found 12 matches".
func reportsMatches(title string) bool {
	t := strings.TrimPrefix(strings.ToLower(title), "found ")
	if t == "no matches" {
		return true
	}
	num, word, ok := strings.Cut(t, " ")
	return ok && num != "" && strings.Trim(num, "0123456789") == "" && (word == "match" || word == "matches")
}

// fencedBody returns what the fenced block that text is holds, or text when it is none. Unlike
// codexmd's unfence, which wants the block and nothing else, it takes the last fence as the
// close: Zed fences a terminal's output as it is, and output that prints a fence of its own
// must not leave the outer one in the result.
func fencedBody(text string) string {
	if !strings.HasPrefix(text, "```") {
		return text
	}
	_, body, ok := strings.Cut(text, "\n")
	if !ok {
		return ""
	}
	if k := strings.LastIndex(body, "```"); k >= 0 && strings.TrimSpace(body[k+3:]) == "" {
		body = body[:k]
	}
	return strings.TrimSpace(body)
}

// unescapeMarkdown removes the backslashes Markdown escapes punctuation with
// ("Simplenote\_Clone\_App/app\-x.tsx").
func unescapeMarkdown(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_{}[]()#+-.!<>|~", s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
