package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// GitHub Copilot CLI's /share writes a session as Markdown, one entry after another, each
// under the time since the session started and ended by a rule:
//
//	# 🤖 Copilot CLI Session
//
//	> **Session ID:** `a95f…`
//
//	<sub>⏱️ 7s</sub>
//
//	### 👤 User
//
//	what the user typed
//
//	---
//
//	<sub>⏱️ 11s</sub>
//
//	### ✅ `bash`                 (a failed call: ### ❌ `bash`)
//
//	**Run the tests**            (the call's description)
//
//	$ npm test                   (bash's command; other tools: a path, or their arguments
//	                              in <details><summary>Arguments</summary> and a json block)
//	<details>
//	<summary>6 lines</summary>
//
//	```
//	the output
//	<exited with exit code 1>
//	```
//
//	</details>
//
// The model's words are "### 💬 Copilot" entries, its reasoning "### 💭 Reasoning". A
// subagent's work is written as one "### 📦 task (Completed)" entry holding the subagent's
// own calls and words under their headings, with no time line between them: they are read as
// the calls of an agent "task-<n>", so that a subagent's reading of the files the main agent
// read is not taken for the main agent reading them again.

// copilotMarkdownTitle opens a Copilot CLI session shared as Markdown.
const copilotMarkdownTitle = "# 🤖 Copilot CLI Session"

// copilotExitRe finds the exit code the CLI appends to a shell command's output: "<exited
// with exit code 1>", or in its JSON output "<shellId: 3 completed with exit code 1>".
var copilotExitRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^<(?:exited|shellId: [^>\n]* completed) with exit code (-?\d+)>$`)
})

// copilotHeadings are the entry headings the exporter writes; any other heading is the
// model's Markdown, or a file's.
var copilotHeadings = []string{"### ✅ `", "### ❌ `", "### 💬 ", "### 💭 ", "### 👤 ", "### ℹ️ ", "### ❌ ", "### 📦 ", "### ◌ ", "### ✓ "}

func readCopilotMarkdown(name string, br *bufio.Reader) (*built, error) {
	lines, err := readMarkdownLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatCopilotMarkdown)
	r := copilotMDReader{b: b, a: b.agent(MainAgent)}
	fence := 0
	for _, line := range lines {
		if fence == 0 {
			if strings.HasPrefix(line, "<sub>⏱️") {
				r.section()
				r.a, r.head = b.agent(MainAgent), "" // a subagent's entry ends with its time line
				r.ms = copilotEntryTime(r.started, line)
				continue
			}
			if started, ok := copilotStartLine(line); ok && r.started == 0 {
				r.started = mdStamp(started)
				continue
			}
			if isCopilotHeading(line) {
				r.section()
				r.head = line
				continue
			}
		}
		fence = nextFence(fence, line)
		r.body = append(r.body, line)
	}
	r.section()
	return b.done(), nil
}

// copilotMDReader is readCopilotMarkdown's state between sections.
type copilotMDReader struct {
	b     *builder
	a     *agentBuf // the agent of the entry: main, or a task's subagent
	tasks int
	edits int // the edits read whose change the exporter did not write
	head  string
	body  []string
	// started is the session's start (its "Started" line), ms the time of the entry under way:
	// the start and the seconds its time line counts from it (copilotEntryTime)
	started, ms int64
}

// copilotStartLine reads the session's start from its header line: "> **Started:** 2/28/2026,
// 6:34:14 PM", or in the newer bulleted header "> - **Started:** 6/6/2026, 7:50:02 AM".
func copilotStartLine(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "> ")
	if !ok {
		return "", false
	}
	rest, ok = strings.CutPrefix(strings.TrimPrefix(rest, "- "), "**Started:** ")
	return strings.TrimSpace(rest), ok
}

// copilotEntryTime reads an entry's time line (the time since the session started: "<sub>⏱️
// 195s</sub>", "<sub>⏱️ 1m 50s</sub>", "<sub>⏱️ 1h 2m 3s</sub>") as Unix milliseconds from the
// session's start; without a start, from 0, which keeps the spans between entries the rules
// need. 0 when the line holds no such time.
func copilotEntryTime(started int64, line string) int64 {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "<sub>⏱️"), "</sub>"))
	var secs int64
	for _, part := range strings.Fields(t) {
		unit := int64(0)
		switch part[len(part)-1] {
		case 's':
			unit = 1
		case 'm':
			unit = 60
		case 'h':
			unit = 3600
		}
		n, err := strconv.ParseInt(part[:len(part)-1], 10, 64)
		if unit == 0 || err != nil || n < 0 {
			return 0
		}
		secs += n * unit
	}
	if t == "" {
		return 0
	}
	return started + secs*1000
}

func isCopilotHeading(line string) bool {
	for _, p := range copilotHeadings {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// section turns the section gathered into its event.
func (r *copilotMDReader) section() {
	head, body := r.head, strings.TrimSpace(strings.Join(copilotTrimRule(r.body), "\n"))
	r.head, r.body = "", nil
	switch {
	case strings.HasPrefix(head, "### ✅ `"), strings.HasPrefix(head, "### ❌ `"):
		e := copilotCall(head, body)
		e.Time = r.ms
		if (e.Tool == "edit" || e.Tool == "create") && !bytes.HasPrefix(e.Args, []byte(`{"input":`)) {
			r.a.add(e)
			break
		}
		if e.Tool == "edit" || e.Tool == "create" {
			// The exporter writes an edit's file, not its change: each is numbered, so that
			// three different edits of one file are not read as one edit made three times
			// (a real session's "edit × 3" notices were all such edits; cf. specstory.go's
			// cancelled calls).
			r.edits++
			e.Args = marshalArgs(map[string]string{"input": copilotInput(e.Args), "edit": strconv.Itoa(r.edits)})
		}
		r.a.add(e)
	case strings.HasPrefix(head, "### 👤 "):
		if body != "" {
			r.a.user(body, r.ms)
		}
	case strings.HasPrefix(head, "### 💬 "):
		r.a.saidAt(body, r.ms)
	case strings.HasPrefix(head, "### 💭 "):
		r.a.text("thinking", body, "", r.ms)
	case strings.HasPrefix(head, "### 📦 "):
		r.tasks++
		r.a = r.b.agent("task-" + strconv.Itoa(r.tasks))
	case strings.HasPrefix(head, "### ❌ "), strings.HasPrefix(head, "### ℹ️ "), strings.HasPrefix(head, "### ◌ "):
		// The CLI's own messages (an error sharing the session, a mode switched, the
		// conversation compacted): not the model's and not the user's.
		r.a.text("harness", body, "", r.ms)
	}
}

// copilotTrimRule drops the rule and the "Generated by" line that close an entry.
func copilotTrimRule(body []string) []string {
	for len(body) > 0 {
		l := strings.TrimSpace(body[len(body)-1])
		if l != "" && l != "---" && !strings.HasPrefix(l, "<sub>Generated by") {
			break
		}
		body = body[:len(body)-1]
	}
	return body
}

// copilotCall reads a call entry: the tool named in the heading, its arguments as the
// exporter wrote them, its output (the last fenced block), failed when marked ❌ or when the
// command exited nonzero.
func copilotCall(head, body string) loopguard.Event {
	tool, _, _ := strings.Cut(head[strings.Index(head, "`")+1:], "`")
	lines := strings.Split(body, "\n")
	var args, rest []string
	var argJSON string
	result, hasResult := "", false
	fence, start := 0, -1
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		was := fence
		fence = nextFence(fence, l)
		switch {
		case was == 0 && fence > 0:
			start = i
		case was > 0 && fence == 0:
			inner := strings.Join(lines[start+1:i], "\n")
			if isArgumentsBlock(lines, start) {
				argJSON = inner
			} else {
				result, hasResult = inner, true
			}
		case fence == 0 && !isCopilotChrome(l):
			if hasResult {
				rest = append(rest, l)
			} else {
				args = append(args, l)
			}
		}
	}
	if fence > 0 && start >= 0 { // a block left open: the export was cut
		result, hasResult = strings.Join(lines[start+1:], "\n"), true
	}
	if hasResult {
		result = copilotContent(result)
	}
	e := loopguard.Call("", tool, copilotArgs(argJSON, args))
	e.HasResult, e.Result = hasResult, result
	if !hasResult {
		if t := strings.TrimSpace(strings.Join(rest, "\n")); t != "" {
			e.HasResult, e.Result = true, t
		}
	}
	e.Failed = strings.HasPrefix(head, "### ❌") || copilotExitFailed(result)
	return e
}

// copilotContent returns the text of an output an older exporter wrote as the tool's result
// object, {"content": ..., "detailedContent": ...}: its content, where the exit code the CLI
// appends to a command's output is read as in the plain layout (validation round r140b U2:
// 22 commands exiting nonzero read as successes). Any other output is returned as it is.
func copilotContent(result string) string {
	t := strings.TrimSpace(result)
	if !strings.HasPrefix(t, `{`) || !strings.Contains(t, `"content"`) {
		return result
	}
	var v map[string]json.RawMessage
	if json.Unmarshal([]byte(t), &v) != nil {
		return result
	}
	var content string
	if json.Unmarshal(v["content"], &content) != nil {
		return result
	}
	for k := range v {
		if k != "content" && k != "detailedContent" {
			return result // another object: the command's own JSON
		}
	}
	return content
}

// isArgumentsBlock says whether the block opened at lines[start] is under a
// "<summary>Arguments</summary>", the exporter's place for arguments it has no line for.
func isArgumentsBlock(lines []string, start int) bool {
	for i := start - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l == "<summary>Arguments</summary>"
		}
	}
	return false
}

// isCopilotChrome says whether a line is the exporter's: the <details> folding around a long
// output or the arguments, or the call's description (**…**), which the model wrote for the
// user and which does not change what the call does.
func isCopilotChrome(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || t == "<details>" || t == "</details>" || strings.HasPrefix(t, "<summary>") ||
		(len(t) > 4 && strings.HasPrefix(t, "**") && strings.HasSuffix(t, "**"))
}

// copilotArgs returns a call's arguments: its Arguments block compacted, a shell command
// written "$ command" as {"command": …}, or what else stands before the output (a path) under
// "input".
func copilotArgs(argJSON string, lines []string) []byte {
	if argJSON != "" {
		return jsonOrInput(argJSON)
	}
	text := strings.TrimSpace(strings.Join(lines, "\n"))
	if cmd, ok := strings.CutPrefix(text, "$ "); ok {
		return marshalArgs(map[string]string{"command": cmd})
	}
	return marshalArgs(map[string]string{"input": text})
}

// copilotExitFailed says whether an output ends with a nonzero exit code.
func copilotExitFailed(result string) bool {
	m := copilotExitRe().FindAllStringSubmatch(result, -1)
	if m == nil {
		return false
	}
	code, err := strconv.Atoi(m[len(m)-1][1])
	return err == nil && code != 0
}

// copilotInput returns the "input" of arguments made by copilotArgs.
func copilotInput(args []byte) string {
	var v struct{ Input string }
	_ = json.Unmarshal(args, &v)
	return v.Input
}
