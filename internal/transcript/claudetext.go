package transcript

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/loopguard/loopguard"
)

// Claude Code's own export of a conversation as text (`/export`, to a file or the clipboard),
// and what people paste of its terminal: the screen as Claude Code draws it.
//
//	> fix the tests
//
//	⏺ I'll run them first.
//
//	⏺ Bash(npm test)
//	  ⎿  Error: 1 failed
//	     FAIL src/app.test.ts
//	     … +12 lines (ctrl+o to expand)
//
//	⏺ Update(src/app.ts)
//	  ⎿  Updated src/app.ts with 2 additions and 1 removal
//
// A line that opens with "> " is the user's (the lines after it indented by two spaces go
// on with it); one that opens with "⏺ " is the model's: a call when it reads Name(arguments)
// (the arguments may go on over the next lines, indented, until their parenthesis closes),
// else its words. The "⎿" block under a call is its result, the lines after the first
// indented by five spaces. A result that opens with "Error" failed. Claude Code shortens long
// results on screen ("… +12 lines (ctrl+o to expand)"): what such a result said is not all
// there, so it is left unknown, never compared with another shortened one. The banner, the
// status lines ("✻ Thinking…") and the rest are passed over.

// isClaudeTextHead says whether the start of a file reads as Claude Code's text export: a
// line that opens with "⏺ " and one that opens with "  ⎿".
func isClaudeTextHead(head []byte) bool {
	return (bytes.HasPrefix(head, []byte("⏺ ")) || bytes.Contains(head, []byte("\n⏺ "))) &&
		bytes.Contains(head, []byte("\n  ⎿"))
}

// claudeTextTools are the names Claude Code shows for its tools where they are not the
// tools' own.
var claudeTextTools = map[string]string{
	"Update": "Edit", "Web Search": "WebSearch", "Fetch": "WebFetch", "Search": "Grep", "List": "LS",
}

func readClaudeText(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	lines := strings.Split(string(lfLines(data)), "\n")
	b := newBuilder(FormatClaudeText)
	a := b.agent(MainAgent)
	for i := 0; i < len(lines); {
		line := strings.TrimRight(lines[i], " \t")
		switch {
		case strings.HasPrefix(line, "> "):
			text, next := claudeTextBlock(lines, i, strings.TrimPrefix(line, "> "), "  ")
			a.user(text, 0)
			i = next
		case strings.HasPrefix(line, "⏺ "):
			rest := strings.TrimPrefix(line, "⏺ ")
			if tool, args, next, ok := claudeTextCall(lines, i, rest); ok {
				call := loopguard.Call("", tool, []byte(args))
				i = next
				if i < len(lines) && strings.HasPrefix(lines[i], "  ⎿") {
					result, after := claudeTextBlock(lines, i, strings.TrimLeft(strings.TrimPrefix(lines[i], "  ⎿"), " "), "     ")
					i = after
					if !claudeTextShortened(result) {
						call = call.WithResult(result, strings.HasPrefix(result, "Error"))
					}
				}
				a.add(call)
				continue
			}
			text, next := claudeTextBlock(lines, i, rest, "  ")
			a.text("model", text, "", 0)
			i = next
		default:
			i++
		}
	}
	return b.done(), nil
}

// claudeTextBlock reads a block that opens with first at lines[i] and goes on over the lines
// after it that start with indent (blank lines between them included), and says where the
// next block starts.
func claudeTextBlock(lines []string, i int, first, indent string) (string, int) {
	parts := []string{first}
	j := i + 1
	for j < len(lines) {
		l := strings.TrimRight(lines[j], " \t")
		if l == "" {
			// a blank line goes on with the block only when the block goes on after it
			k := j + 1
			for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
				k++
			}
			if k < len(lines) && strings.HasPrefix(lines[k], indent) {
				for ; j < k; j++ {
					parts = append(parts, "")
				}
				continue
			}
			break
		}
		if !strings.HasPrefix(l, indent) {
			break
		}
		parts = append(parts, strings.TrimPrefix(l, indent))
		j++
	}
	return strings.TrimSpace(strings.Join(parts, "\n")), j
}

// claudeTextCall reads the call that rest, a "⏺ " line's text, opens: a tool's name (a word,
// or two as "Web Search", or an MCP tool's "server - tool (MCP)"), then its arguments in
// parentheses, which may go on over the lines after it. ok is false for the model's words.
func claudeTextCall(lines []string, i int, rest string) (tool, args string, next int, ok bool) {
	open := strings.IndexByte(rest, '(')
	if mcp := strings.Index(rest, " (MCP)("); mcp > 0 {
		open = mcp + len(" (MCP)") // "context7 - resolve-library-id (MCP)(libraryName: ...)"
	}
	if open <= 0 || !strings.HasSuffix(strings.TrimSpace(rest), ")") && !claudeTextGoesOn(lines, i) {
		return "", "", 0, false
	}
	tool = rest[:open]
	if strings.HasSuffix(tool, " (MCP)") {
		tool = strings.TrimSuffix(tool, " (MCP)")
	} else if !claudeTextToolName(tool) {
		return "", "", 0, false
	} else if alias, found := claudeTextTools[tool]; found {
		tool = alias
	}
	// The arguments: up to the parenthesis that closes the first, over more lines if need be.
	text := rest[open+1:]
	next = i + 1
	for depth := claudeTextDepth(text, 1); depth > 0 && next < len(lines) && strings.HasPrefix(lines[next], "  ") &&
		!strings.HasPrefix(lines[next], "  ⎿"); next++ {
		more := strings.TrimSpace(lines[next])
		text += "\n" + more
		depth = claudeTextDepth(more, depth)
	}
	text = strings.TrimSpace(text)
	text = strings.TrimSuffix(text, ")")
	return tool, text, next, true
}

// claudeTextGoesOn says whether the call line at lines[i] goes on over the next line (its
// arguments are long): the next line is indented and is no result.
func claudeTextGoesOn(lines []string, i int) bool {
	return i+1 < len(lines) && strings.HasPrefix(lines[i+1], "   ") && !strings.HasPrefix(lines[i+1], "  ⎿")
}

// claudeTextToolName says whether s is a tool's name as Claude Code shows it: one word, or
// two that both start with a capital ("Web Search"); a sentence of the model is not.
func claudeTextToolName(s string) bool {
	words := strings.Split(s, " ")
	if len(words) > 2 || s == "" {
		return false
	}
	for k, w := range words {
		if w == "" {
			return false
		}
		if len(words) == 2 && (w[0] < 'A' || w[0] > 'Z') {
			return false
		}
		for _, c := range []byte(w) {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == ':' && k == 0) {
				return false
			}
		}
	}
	return true
}

// claudeTextDepth returns how many parentheses are open after s, depth being open before it.
func claudeTextDepth(s string, depth int) int {
	for _, c := range []byte(s) {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		}
	}
	return depth
}

// claudeTextShortened says whether a result is Claude Code's shortened view of a longer one.
func claudeTextShortened(result string) bool {
	return strings.Contains(result, "to expand)") && strings.Contains(result, " lines (ctrl+")
}
