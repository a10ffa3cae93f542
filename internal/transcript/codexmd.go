package transcript

import (
	"bufio"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// A Codex thread exported as Markdown (the "Codex Conversation Export" of the VS Code
// extension's threads, and of tools built on its rollouts):
//
//	# Codex Conversation Export
//
//	## Metadata
//
//	- Thread ID: 019d…
//	- Model: gpt-5.4
//
//	## Transcript
//
//	### Turn 1: <the prompt's start>
//
//	#### 👤 User Prompt
//
//	- Time: 2026-04-20T00:28:24.659Z
//
//	```text
//	what the user typed
//	```
//
//	#### 🤖 gpt-5.4 (medium)
//
//	the model's words
//
//	#### Tool: exec_command
//
//	```sh
//	npm test
//	```
//
//	Output:
//
//	```text
//	Chunk ID: 8946c5
//	Process exited with code 1
//	Output:
//	...
//	```
//
// A call's arguments are a fenced block (sh: the command; json: the arguments, write_stdin's
// among them) or, for update_plan, a list; its output follows an "Output:" line. The output is
// the tool's as Codex gave it to the model, so a command's exit code is in its header.

// codexMarkdownTitle opens a Codex thread exported as Markdown.
const codexMarkdownTitle = "# Codex Conversation Export"

// codexExitRe finds the exit code in the header Codex puts before a command's output.
var codexExitRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^Process exited with code (-?\d+)$`) })

func readCodexMarkdown(name string, br *bufio.Reader) (*built, error) {
	lines, err := readMarkdownLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatCodexMarkdown)
	a := b.agent(MainAgent)
	head, fence := "", 0
	var body []string
	for _, line := range lines {
		if fence == 0 && isCodexMarkdownHeading(line) {
			codexMarkdownSection(a, head, body)
			head, body = line, nil
			continue
		}
		fence = nextFence(fence, line)
		body = append(body, line)
	}
	codexMarkdownSection(a, head, body)
	return b.done(), nil
}

// isCodexMarkdownHeading says whether a line (outside a fenced block) opens a section: a
// call, a user prompt, the model's words, a turn, or the document's own parts. Other headings
// are the model's Markdown and stay in its words.
func isCodexMarkdownHeading(line string) bool {
	for _, p := range []string{"#### Tool: ", "#### 👤 ", "#### 🤖 ", "### Turn ", "## Metadata", "## Transcript"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// codexMarkdownSection turns one section into its event.
func codexMarkdownSection(a *agentBuf, head string, body []string) {
	switch {
	case strings.HasPrefix(head, "#### Tool: "):
		codexMarkdownCall(a, strings.TrimSpace(strings.TrimPrefix(head, "#### Tool: ")), body)
	case strings.HasPrefix(head, "#### 👤 "):
		text, _ := unfence(withoutTimeLine(body))
		if !isBlank(text) {
			a.user(text, 0)
		}
	case strings.HasPrefix(head, "#### 🤖 "):
		a.said(strings.TrimSpace(withoutTimeLine(body)))
	case head == "## Metadata":
		for _, l := range body {
			if m, ok := strings.CutPrefix(l, "- Model: "); ok {
				a.usage.Model = strings.TrimSpace(m)
			}
		}
	}
}

// codexMarkdownCall reads a call: its arguments up to the "Output:" line outside a fenced
// block, its result after it. A call written with no "Output:" (the thread was exported while
// it ran, or the tool answers nothing) has no result.
func codexMarkdownCall(a *agentBuf, tool string, body []string) {
	out, fence := -1, 0
	for i, l := range body {
		if fence == 0 && strings.TrimRight(l, " ") == "Output:" {
			out = i
			break
		}
		fence = nextFence(fence, l)
	}
	argLines := body
	if out >= 0 {
		argLines = body[:out]
	}
	e := loopguard.Call("", tool, codexMarkdownArgs(strings.Join(argLines, "\n")))
	if out >= 0 {
		result, _ := unfence(strings.Join(body[out+1:], "\n"))
		e.HasResult, e.Result = true, result
		e.Failed = codexFailed(result)
	}
	a.add(e)
}

// codexMarkdownArgs returns a call's arguments as written: a JSON block compacted, a shell
// block as exec_command's "cmd" (the only argument the exporter writes of it), anything else
// (update_plan's list) whole under "input".
func codexMarkdownArgs(text string) []byte {
	inner, lang := unfence(text)
	switch lang {
	case "json":
		return jsonOrInput(inner)
	case "sh", "bash", "shell":
		return marshalArgs(map[string]string{"cmd": inner})
	}
	return marshalArgs(map[string]string{"input": inner})
}

// codexFailed says whether an output's header (the lines before its own "Output:") reports a
// nonzero exit code. The header is looked for at the start only: a command's output may
// quote another's ("Process exited with code 1" in a CI log).
func codexFailed(result string) bool {
	// Codex's own word that the command did not run through ("exec_command failed for
	// `...`: CreateProcess {...}", "write_stdin failed: stdin is closed"), as its rollouts
	// are read (validation round r138a U1: the export keeps no exit code for these).
	if cxVerdict(result) {
		return true
	}
	header, _, found := strings.Cut(result, "\nOutput:")
	if !found || strings.Count(header, "\n") > 6 {
		return false
	}
	m := codexExitRe().FindStringSubmatch(header)
	if m == nil {
		return false
	}
	code, err := strconv.Atoi(m[1])
	return err == nil && code != 0
}

// withoutTimeLine drops the "- Time: …" line the exporter writes under a message's heading.
func withoutTimeLine(body []string) string {
	var kept []string
	for i, l := range body {
		if strings.HasPrefix(l, "- Time: ") && strings.TrimSpace(strings.Join(body[:i], "")) == "" {
			continue
		}
		kept = append(kept, l)
	}
	return strings.TrimSpace(strings.Join(kept, "\n"))
}

// unfence returns the content of text when text is one fenced block and nothing else, with
// the block's info string (its language); otherwise text trimmed, and "".
func unfence(text string) (inner, lang string) {
	text = strings.TrimSpace(text)
	lines := strings.Split(text, "\n")
	if len(lines) < 2 || nextFence(0, lines[0]) == 0 {
		return text, ""
	}
	open := nextFence(0, lines[0])
	fence := open
	for i, l := range lines[1:] {
		if fence = nextFence(fence, l); fence == 0 {
			if i+2 != len(lines) {
				return text, "" // the block closes before the end: more than one block
			}
			return strings.Join(lines[1:len(lines)-1], "\n"), strings.TrimSpace(lines[0][open:])
		}
	}
	return text, ""
}
