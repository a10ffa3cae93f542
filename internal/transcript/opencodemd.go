package transcript

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// An opencode session exported as Markdown (its /export command, "Export session transcript"):
//
//	# <the session's title>
//
//	**Session ID:** ses_3000fae98ffeTjW15WKtIa6Dx3
//	**Created:** 3/18/2026, 9:54:25 AM
//	**Updated:** 3/18/2026, 10:27:35 AM
//
//	---
//
//	## User
//
//	what the user typed
//
//	---
//
//	## Assistant (Build · claude-opus-4-6 · 14.2s)
//
//	_Thinking:_
//
//	the model's reasoning, then its words
//
//	**Tool: bash**
//
//	**Input:**
//	```json
//	{"command": "ls -la", "description": "List the root"}
//	```
//
//	**Output:**
//	```
//	total 401
//	```
//
// A message is a "## User" or "## Assistant (<agent> · <model> · <time>)" heading outside
// fenced blocks (other headings are the message's own Markdown). In an assistant message, a
// "**Tool: NAME**" line is a call, its arguments the JSON block after "**Input:**", its result
// the block after "**Output:**", or after "**Error:**" (a failed call: opencode writes the
// tool's error there). Earlier exports put each call in a fenced block of its own, opened by
// a "Tool: NAME" line, its labelled blocks inside it (validation round r114c U1: such calls
// were read as none). The rest is the model's words, its thinking among them (the export
// marks where thinking starts, not where it ends). Written from real exports committed to
// GitHub (validation round r87b U2: three of nine opencode sessions found were in this form).

// isOpencodeMarkdownHead says whether a document's head is an opencode Markdown export: a
// title, opencode's "**Session ID:** ses_" line among the first lines, then a message heading.
func isOpencodeMarkdownHead(head []byte) bool {
	if !bytes.HasPrefix(head, []byte("# ")) {
		return false
	}
	i := bytes.Index(head, []byte("\n**Session ID:** ses_"))
	if i < 0 || i > 512 {
		return false
	}
	return bytes.Contains(head[i:], []byte("\n## User")) || bytes.Contains(head[i:], []byte("\n## Assistant"))
}

func readOpencodeMarkdown(name string, br *bufio.Reader) (*built, error) {
	lines, err := readMarkdownLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatOpencodeMarkdown)
	a := b.agent(MainAgent)
	head, fence := "", 0
	var body []string
	messages := 0  // the messages read, which number the replies (opencodeMarkdownMessage)
	noOutput := -1 // the last call shown with its input and no output block (opencodeMarkdownCall)
	for i, line := range lines {
		// A message's heading follows a rule even where a fence seems open: the exporter
		// fences a tool's output without looking inside, and an output holding a fence of its
		// own (a subagent's report with a diagram) leaves the count off.
		if (line == "## User" || isOpencodeAssistantHeading(line)) && (fence == 0 || afterRule(lines, i)) {
			fence = 0
			messages++
			opencodeMarkdownMessage(a, head, body, &noOutput, messages)
			head, body = line, nil
			continue
		}
		fence = nextFence(fence, line)
		body = append(body, line)
	}
	opencodeMarkdownMessage(a, head, body, &noOutput, messages+1)
	if n := len(a.events) - 1; n >= 0 && n == noOutput {
		// Nothing follows the export's last call: it may have been running when the export was
		// written, and its answer is unknown (see opencodeMarkdownCall).
		a.events[n].HasResult = false
	}
	markInvalidCalls(a, 0)
	return b.done(), nil
}

// opencodeMarkdownMessage reads one message, the n-th: the user's text, or the assistant's words
// and calls. noOutput is opencodeMarkdownCall's.
//
// An assistant message of opencode 1.x is one step of the model, one reply: its calls
// ("**Tool: NAME**") were made together (a real session's JSON export holds one step-start part
// a message; in three real Markdown exports no message has words between its calls). Read one
// by one, twenty scans of one reply timing out were told twice while they were being made
// (validation round r255c). The earlier layouts, each call in a fenced block of its own, or a
// message headed "## Assistant" alone, came from releases whose messages could hold several
// steps, and their calls are not grouped.
func opencodeMarkdownMessage(a *agentBuf, head string, body []string, noOutput *int, n int) {
	switch {
	case head == "## User":
		if text := opencodeMarkdownText(body); !isBlank(text) {
			a.user(text, 0)
		}
	case isOpencodeAssistantHeading(head):
		// "(Build · claude-opus-4-6 · 14.2s)": the agent, the model, the time it took.
		if f := strings.Split(strings.TrimSuffix(strings.TrimPrefix(head, "## Assistant ("), ")"), " · "); len(f) >= 2 {
			a.usage.Model = strings.TrimSpace(f[1])
		}
		var words []string
		flush := func() {
			if text := opencodeMarkdownText(words); !isBlank(text) {
				a.said(text)
			}
			words = nil
		}
		fence := 0
		for i := 0; i < len(body); i++ {
			l := body[i]
			if tool, ok := strings.CutPrefix(l, "**Tool: "); ok && strings.HasSuffix(tool, "**") && (fence == 0 || nextLineIs(body, i, "**Input:**")) {
				flush()
				if strings.HasPrefix(head, "## Assistant (") {
					a.turn = "m" + strconv.Itoa(n)
				}
				i = opencodeMarkdownCall(a, strings.TrimSuffix(tool, "**"), body, i+1, false, noOutput) - 1
				a.turn = ""
				fence = 0
				continue
			}
			if fence == 0 && strings.TrimSpace(l) == "```" && i+1 < len(body) && strings.HasPrefix(body[i+1], "Tool: ") {
				// the earlier layout: the call in a fenced block of its own (see above)
				flush()
				i = opencodeMarkdownCall(a, strings.TrimSpace(strings.TrimPrefix(body[i+1], "Tool: ")), body, i+2, true, noOutput)
				if i < len(body) && strings.TrimSpace(body[i]) == "```" {
					i++ // the block's close
				}
				i--
				continue
			}
			fence = nextFence(fence, l)
			words = append(words, l)
		}
		flush()
	}
}

// opencodeMarkdownCall reads a call whose "**Tool:**" line came before body[i]: the blocks
// under its "**Input:**", "**Output:**" and "**Error:**" labels. It returns where the call
// ends: the first line after its blocks that is neither blank nor one of them.
//
// opencode writes the Output block of a completed call only when the output is not empty, and
// the Error block of a failed one: a call shown with its input and neither block (`mkdir -p`,
// `py_compile`, a grep that found nothing) completed with no output, unless it was still
// running when the export was written, which only the export's last call can be
// (readOpencodeMarkdown, told by *noOutput, the index of the last such call). Read as
// unknown, eight greps that found nothing were eight new answers (validation round r125b U1).
// An export without tool details (no Input block) says nothing of answers.
func opencodeMarkdownCall(a *agentBuf, tool string, body []string, i int, wrapped bool, noOutput *int) int {
	e := loopguard.Call("", tool, nil)
	input := false
	for i < len(body) {
		label := strings.TrimSpace(body[i])
		if label == "" {
			i++
			continue
		}
		if label != "**Input:**" && label != "**Output:**" && label != "**Error:**" {
			break
		}
		block, next := fencedBlockAt(body, i+1, label != "**Input:**", wrapped)
		i = next
		switch label {
		case "**Input:**":
			e.Args, input = jsonOrInput(block), true
		case "**Output:**":
			e.Result, e.HasResult = block, true
		case "**Error:**":
			e.Result, e.HasResult, e.Failed = block, true, true
		}
	}
	if input && !e.HasResult {
		e.HasResult = true
		*noOutput = a.add(e)
		return i
	}
	a.add(e)
	return i
}

// fencedBlockAt returns the content of the fenced block that opens at lines[i] (blank lines
// before it passed over) and the index after its closing fence; a block never closed runs to
// the end. When no block opens there, it returns "" and i. An output's block (output) closes
// at a fence followed by what follows a call (a rule, another call's label, the end) when
// there is one: the exporter does not lengthen its fence for an output that holds fences of
// its own, so the first fence that could close it may be the output's.
func fencedBlockAt(lines []string, i int, output, wrapped bool) (string, int) {
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i >= len(lines) {
		return "", i
	}
	open := nextFence(0, lines[i])
	if open == 0 {
		return "", i
	}
	start, first := i+1, -1
	for k := start; k < len(lines); k++ {
		if nextFence(open, lines[k]) != 0 {
			continue
		}
		if first < 0 {
			first = k
		}
		if !output || endsACall(lines, k, wrapped) {
			return strings.Join(lines[start:k], "\n"), k + 1
		}
	}
	if first >= 0 {
		return strings.Join(lines[start:first], "\n"), first + 1
	}
	return strings.Join(lines[start:], "\n"), len(lines)
}

// endsACall says whether what follows lines[k] (blank lines aside) is what follows a call's
// last block in an export: a rule, another call, the end; for a call in a block of its own
// (wrapped), that block's close, then one of those.
func endsACall(lines []string, k int, wrapped bool) bool {
	for k++; k < len(lines); k++ {
		if t := strings.TrimSpace(lines[k]); t != "" {
			if wrapped {
				return t == "```" && endsACall(lines, k, false)
			}
			return t == "---" || strings.HasPrefix(t, "**Tool: ") || t == "```" && k+1 < len(lines) && strings.HasPrefix(lines[k+1], "Tool: ")
		}
	}
	return !wrapped
}

// isOpencodeAssistantHeading says whether a line heads an assistant message: "## Assistant
// (<agent> · <model> · <time>)", or "## Assistant" alone, as some exports write it (validation
// round r114c U2: 103 calls of one export were read as none).
func isOpencodeAssistantHeading(line string) bool {
	return line == "## Assistant" || strings.HasPrefix(line, "## Assistant (")
}

// afterRule says whether the line before lines[i] (blank lines aside) is a rule ("---").
func afterRule(lines []string, i int) bool {
	for k := i - 1; k >= 0; k-- {
		if t := strings.TrimSpace(lines[k]); t != "" {
			return t == "---"
		}
	}
	return false
}

// nextLineIs says whether the first line after lines[i] that is not blank is want.
func nextLineIs(lines []string, i int, want string) bool {
	for k := i + 1; k < len(lines); k++ {
		if t := strings.TrimSpace(lines[k]); t != "" {
			return t == want
		}
	}
	return false
}

// opencodeMarkdownText is a message's text without the rules ("---") that separate messages.
func opencodeMarkdownText(lines []string) string {
	var kept []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "---" {
			kept = append(kept, l)
		}
	}
	return strings.TrimSpace(strings.Join(kept, "\n"))
}
