package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
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

const (
	zedUseTool     = "**Use Tool: "
	zedToolResults = "**Tool Results: "
)

// isZedThread says whether head opens a Zed thread: an optional "# " title line, then the
// "## User" heading, with a heading of the model's messages somewhere in head.
func isZedThread(head []byte) bool {
	rest := head
	if bytes.HasPrefix(rest, []byte("# ")) {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return false
		}
		rest = bytes.TrimLeft(rest[nl+1:], "\r\n")
	}
	if !bytes.HasPrefix(rest, []byte("## User\n")) && !bytes.HasPrefix(rest, []byte("## User\r\n")) {
		return false
	}
	return bytes.Contains(rest, []byte("\n## Agent\n")) || bytes.Contains(rest, []byte("\n## Assistant\n")) ||
		bytes.Contains(rest, []byte("\n## Agent\r\n")) || bytes.Contains(rest, []byte("\n## Assistant\r\n"))
}

func readZed(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	lines := strings.Split(string(lfLines(data)), "\n")
	b := newBuilder(FormatZed)
	a := b.agent(MainAgent)
	r := zedReader{a: a, pending: map[string]int{}, result: -1}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if role, ok := zedRoles[strings.TrimRight(line, " ")]; ok {
			r.flush()
			r.role = role
			r.message++
			r.result = -1
			continue
		}
		if name, id, ok := zedToolLine(line, zedUseTool); ok {
			r.flush()
			// The arguments: the fenced JSON block on the lines after.
			var args []byte
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "```") {
				end := i + 2
				for end < len(lines) && lines[end] != "```" {
					end++
				}
				args = zedArgs(strings.Join(lines[i+2:min(end, len(lines))], "\n"))
				i = end
			}
			e := loopguard.Call("", name, args)
			e.Turn = "m" + strconv.Itoa(r.message)
			r.pending[id] = a.add(e)
			r.result = -1
			continue
		}
		if id, _, ok := zedToolLine(line, zedToolResults); ok {
			r.flush()
			r.result = -1
			if idx, waiting := r.pending[id]; waiting {
				delete(r.pending, id)
				r.result = idx
				a.events[idx].HasResult = true
				a.events[idx].Failed = strings.HasSuffix(strings.TrimRight(line, " "), " (Error)**")
			}
			continue
		}
		r.buf = append(r.buf, line)
	}
	r.flush()
	return b.done(), nil
}

// zedReader is readZed's state between lines.
type zedReader struct {
	a       *agentBuf
	role    string
	message int            // the message's number, for the Turn of its calls
	pending map[string]int // calls waiting for their results, by tool use id
	result  int            // the call whose result the lines in buf are, or -1
	buf     []string
}

// flush hands the lines gathered since the last mark to their owner: the result of a call,
// the user's turn, or the model's words and thinking.
func (r *zedReader) flush() {
	text := strings.TrimSpace(strings.Join(r.buf, "\n"))
	r.buf = r.buf[:0]
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

// cutThink cuts text around its first <think>…</think> block.
func cutThink(text string) (before, think, after string, found bool) {
	before, rest, ok := strings.Cut(text, "<think>")
	if !ok {
		return text, "", "", false
	}
	think, after, _ = strings.Cut(rest, "</think>")
	return before, think, after, true
}

// zedToolLine reads a "**Use Tool: name (id)**" or "**Tool Results: id[ (Error)]**" line: the
// words before the parenthesis and the id in it for the first, the id and "" for the second.
func zedToolLine(line, mark string) (first, second string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimRight(line, " "), mark)
	if !found {
		return "", "", false
	}
	rest, found = strings.CutSuffix(rest, "**")
	if !found || rest == "" {
		return "", "", false
	}
	if mark == zedToolResults {
		return strings.TrimSuffix(rest, " (Error)"), "", true
	}
	open := strings.LastIndex(rest, " (")
	if open <= 0 || !strings.HasSuffix(rest, ")") {
		return "", "", false
	}
	return rest[:open], rest[open+2 : len(rest)-1], true
}

// zedArgs returns a call's arguments as compact JSON; text that is not JSON is kept whole
// under "input".
func zedArgs(text string) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(text)) == nil && buf.Len() > 0 {
		return buf.Bytes()
	}
	return marshalArgs(map[string]string{"input": text})
}
