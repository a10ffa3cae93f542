package transcript

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// AppWorld (a benchmark of agents that act by writing Python against a world of apps) logs
// what an agent ran and what came back as logs/environment_io.md, one section a cell:
//
//	### Environment Interaction 3
//	----------------------------------------------------------------------------
//	```python
//	apis.spotify.login(username="...", password="...")
//	```
//
//	```
//	Execution failed. Traceback: ...
//	```
//
// Each section is a call of the code tool (`python`, its code the `code` argument, as a
// notebook tool's), its answer the output block, failed when it opens "Execution failed.".
// Session: the file. The model's words are not in this log. The output block is the section's
// last fenced block, and the code everything from the opening ```python to the fence that
// closes before it, so that code quoting a fence of its own stays whole.
//
// Written from real runs' logs committed to GitHub (validation round r70b U1: 20 logs of a
// small open model, 90 cells, unread before).

const appWorldSection = "### Environment Interaction "

// isAppWorldIOHead says whether a text opens with AppWorld's first interaction.
func isAppWorldIOHead(head []byte) bool {
	return bytes.HasPrefix(head, []byte(appWorldSection)) && bytes.Contains(head[:min(len(head), 512)], []byte("\n```"))
}

func readAppWorldIO(name string, br *bufio.Reader) (*built, error) {
	lines, err := readMarkdownLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatAppWorldIO)
	a := b.agent(MainAgent)
	var section []string
	flush := func() {
		if code, output, answered, ok := appWorldCell(section); ok {
			call := loopguard.Call("", "python", []byte(`{"code":`+strconv.Quote(code)+`}`))
			if answered {
				call = call.WithResult(output, strings.HasPrefix(output, "Execution failed."))
			}
			a.add(call)
		}
		section = section[:0]
	}
	for _, line := range lines {
		if strings.HasPrefix(line, appWorldSection) {
			flush()
			continue
		}
		section = append(section, line)
	}
	flush()
	return b.done(), nil
}

// appWorldCell reads one section: the code of its ```python block and its output block
// (answered false when the section kept none).
func appWorldCell(lines []string) (code, output string, answered, ok bool) {
	open := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```python") {
			open = i
			break
		}
	}
	end := len(lines) - 1
	for end > open && strings.TrimSpace(lines[end]) == "" {
		end--
	}
	if open < 0 || end <= open || strings.TrimSpace(lines[end]) != "```" {
		return "", "", false, false
	}
	// the output's opening fence: the last bare fence before its closing one
	outOpen := end - 1
	for outOpen > open && strings.TrimSpace(lines[outOpen]) != "```" {
		outOpen--
	}
	codeEnd := outOpen - 1
	for codeEnd > open && strings.TrimSpace(lines[codeEnd]) == "" {
		codeEnd--
	}
	if outOpen <= open || codeEnd <= open || strings.TrimSpace(lines[codeEnd]) != "```" {
		// one block only: the code, with no output kept
		return strings.Join(lines[open+1:end], "\n"), "", false, true
	}
	return strings.Join(lines[open+1:codeEnd], "\n"), strings.TrimSpace(strings.Join(lines[outOpen+1:end], "\n")), true, true
}
