package transcript

import (
	"bufio"
	"bytes"
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
// A message's calls are one reply; a result answers the call of its id. Zed's newer threads
// (driven over the Agent Client Protocol) write "**Tool Call: <title>**" and a status line
// instead, with no arguments apart from the title: not read here (no file of that kind was
// found to check a reading against).

// zedRoles maps the message headings of a Zed thread to roles.
var zedRoles = map[string]string{"## User": "user", "## Agent": "assistant", "## Assistant": "assistant", "## System": "system"}

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
	if !bytes.HasPrefix(rest, []byte("## User\n")) {
		return false
	}
	if bytes.Contains(rest, []byte("\n## Agent\n")) || bytes.Contains(rest, []byte("\n## Assistant\n")) {
		return true
	}
	return !eof && bytes.HasPrefix(bytes.TrimLeft(rest[len("## User\n"):], "\n"), []byte("<context>\n"))
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
		r.fence = nextFence(r.fence, line)
	}
	if role, ok := zedRoles[strings.TrimRight(line, " ")]; ok && r.fence == 0 && !(r.result >= 0 && r.waiting > 0) {
		r.flush()
		r.role, r.message, r.results, r.result = role, r.message+1, false, -1
		return i
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
	case r.result >= 0:
		r.a.events[r.result].Result = text
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
