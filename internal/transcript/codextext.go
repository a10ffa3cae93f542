package transcript

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/loopguard/loopguard"
)

// Codex CLI's conversation as its terminal draws it, which people paste into issues and notes:
//
//	› fix the build
//
//	• I'll look at the failing step first.
//
//	• Ran cd app && npm run build
//	  └ > app@1.0.0 build
//	    error TS2304: Cannot find name 'x'.
//	    … +12 lines
//
//	• Explored
//	  └ Read package.json
//	    Search useState in src
//
//	• Edited src/a.ts (+1 -1)
//	    10 -  return x
//	    10 +  return y
//
// A line that opens with "› " (earlier releases: "▌ "; some builds of 2026: "❯ ") is the
// user's, the lines after it indented by two spaces going on with it, unless it is the
// composer with the status line under it. One that opens with "• " is the model's: a call
// when it reads "Ran <command>" (the command going on over the lines drawn "  │ "), its output
// from the line drawn "  └ " and the lines indented under it; "Explored", each look under it a
// call whose output is not shown ("Read x", "List y", "Search z in w"); "Edited", "Added" or
// "Deleted" a file with its count of lines, the diff under it, a patch whose outcome is not
// shown and is taken as landed; "Called server.tool(arguments)", an MCP tool's call; "Waited
// for background terminal", a wait. Anything else after the bullet is the model's words. A
// block drawn while it ran ("• Working (...)" under it) and again once done, and a
// conversation pasted again after the banner, are read once. Codex shortens long outputs on screen ("… +12 lines"): what such an
// output said is not all there, so it is left unknown. The banner, the separators and the rest
// are passed over. The terminal keeps no exit status: a failure is what the output says.

// isCodexTextHead says whether the start of a file reads as Codex CLI's screen: a call drawn
// "• Ran ...", "• Explored" or "• Edited ..." and, on a later line, the output's "  └ ".
func isCodexTextHead(head []byte) bool {
	call := false
	for _, p := range [...]string{"• Ran ", "• Explored\n", "• Edited ", "• Called "} {
		if bytes.HasPrefix(head, []byte(p)) || bytes.Contains(head, []byte("\n"+p)) {
			call = true
			break
		}
	}
	return call && bytes.Contains(head, []byte("\n  └ "))
}

// codexTextPrompts open the user's lines (builds of 2026 draw "❯ ", validation round r105b U2).
var codexTextPrompts = []string{"› ", "▌ ", "❯ "}

// isCodexBanner says whether l is the line of Codex's banner that names it, "│ >_ OpenAI Codex".
func isCodexBanner(l string) bool { return strings.HasPrefix(l, "│ >_ OpenAI Codex") }

// isCodexTurnLine says whether l opens a turn: the user's lines or the model's bullet.
func isCodexTurnLine(l string) bool {
	_, prompt := cutAny(l, codexTextPrompts)
	return prompt || strings.HasPrefix(l, "• ")
}

// isPatchLine says whether rest, the model's line after its bullet, is a patch Codex drew:
// "Edited src/a.ts (+1 -1)", "Added 2 files (+110 -0)", "Deleted old.py (+0 -12)". The model's
// words may open with the same verbs ("Added duplicate-ID detection to the validator:"), and
// have no counts of lines at their end (validation round r105b U3).
func isPatchLine(rest string) bool {
	verb, what, ok := strings.Cut(rest, " ")
	if !ok || verb != "Edited" && verb != "Added" && verb != "Deleted" {
		return false
	}
	open := strings.LastIndex(what, " (+")
	if open < 0 || !strings.HasSuffix(what, ")") {
		return false
	}
	added, removed, ok := strings.Cut(what[open+3:len(what)-1], " -")
	return ok && isDigits(added) && isDigits(removed)
}

// isDigits says whether s is one or more ASCII digits.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func readCodexText(name string, br *bufio.Reader) (*built, error) {
	lines, err := screenLines(name, br)
	if err != nil {
		return nil, err
	}
	// A conversation pasted again after its banner is read once (validation round r105b U1).
	lines = withoutRedrawnParts(lines, partStarts(lines, isCodexBanner), isCodexTurnLine)
	var sc codexScreen
	for i := 0; i < len(lines); {
		line := strings.TrimRight(lines[i], " \t")
		if rest, ok := cutAny(line, codexTextPrompts); ok {
			if k := nextFilled(lines, i+1); k < len(lines) && isCodexStatusLine(lines[k]) {
				// The composer, drawn with what is typed in it (or a placeholder, "Improve
				// documentation in @filename") and the status line under it: nothing sent
				// (validation round r105a U3).
				i = k + 1
				continue
			}
			said, next := claudeTextBlock(lines, i, rest, "  ")
			sc.items = append(sc.items, codexItem{user: true, text: said})
			i = next
			continue
		}
		rest, ok := strings.CutPrefix(line, "• ")
		if !ok {
			i++
			continue
		}
		switch {
		case strings.HasPrefix(rest, "Working (") || strings.HasPrefix(rest, "Working…"):
			// The status under a block still being drawn: the block is drawn again when done.
			if n := len(sc.items); n > 0 && sc.items[n-1].calls != nil {
				sc.items[n-1].drawing = true
			}
			i++
		case strings.HasPrefix(rest, "Ran ") || strings.HasPrefix(rest, "Running ") || rest == "Ran" || rest == "Running":
			i = codexTextRan(sc.block(), lines, i, rest)
		case rest == "Explored" || rest == "Exploring":
			i = codexTextExplored(sc.block(), lines, i+1)
		case strings.HasPrefix(rest, "Waited for background terminal"):
			// A wait on a command running in the background: Codex's write_stdin with nothing
			// to type, what it brought not shown. Read as the model's words, 174 of them were
			// one thought said again and again (validation round r105b U8).
			sc.block().add(loopguard.Call("", "write_stdin", []byte(`{"chars":""}`)))
			i++
		case isPatchLine(rest):
			diff, next := codexTextIndented(lines, i+1, "    ")
			sc.block().add(loopguard.Call("", "apply_patch", []byte(strings.TrimRight(rest+"\n"+diff, "\n"))))
			i = next
		case strings.HasPrefix(rest, "Called ") && strings.Contains(rest, "("):
			i = codexTextCalled(sc.block(), lines, i, strings.TrimPrefix(rest, "Called "))
		default:
			said, next := claudeTextBlock(lines, i, rest, "  ")
			sc.items = append(sc.items, codexItem{text: said})
			i = next
		}
	}
	b := newBuilder(FormatCodexText)
	sc.emit(b.agent(MainAgent))
	return b.done(), nil
}

// codexScreen is what a paste of Codex's screen holds, in order, before the copies of a block
// that the screen drew twice are told apart.
type codexScreen struct{ items []codexItem }

// codexItem is the user's lines (user), the model's words (text), or a block of calls (calls):
// one drawn while still running (drawing) is drawn again once done.
type codexItem struct {
	user, drawing bool
	text          string
	calls         *codexCalls
}

// codexCalls collects the calls of one block.
type codexCalls struct{ events []loopguard.Event }

func (c *codexCalls) add(e loopguard.Event) { c.events = append(c.events, e) }

// block returns the calls of a new block.
func (sc *codexScreen) block() *codexCalls {
	c := &codexCalls{}
	sc.items = append(sc.items, codexItem{calls: c})
	return c
}

// emit adds the items to a, leaving out a block drawn while it ran when the next block drawn
// is the same one done: its first call the same, white space aside (the two drawings wrap its
// lines apart). A paste that ends while a block runs keeps it.
func (sc *codexScreen) emit(a *agentBuf) {
	for k, it := range sc.items {
		switch {
		case it.user:
			a.user(it.text, 0)
		case it.calls == nil:
			a.text("model", it.text, "", 0)
		case it.drawing && sc.redrawnLater(k):
		default:
			for _, e := range it.calls.events {
				a.add(e)
			}
		}
	}
}

// redrawnLater says whether the block of items[k] opens the same way as the next block.
func (sc *codexScreen) redrawnLater(k int) bool {
	first := sc.items[k].calls.events
	for _, it := range sc.items[k+1:] {
		if it.calls == nil {
			continue
		}
		next := it.calls.events
		return len(first) > 0 && len(next) > 0 && first[0].Tool == next[0].Tool &&
			withoutSpace(string(first[0].Args)) == withoutSpace(string(next[0].Args))
	}
	return false
}

// withoutSpace is s without its white space.
func withoutSpace(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// isCodexStatusLine says whether a line is the status Codex draws under its composer: the
// model, its effort and the folder, "  gpt-5.4 default · /opt/app", or the hint "? for
// shortcuts".
func isCodexStatusLine(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(l, "  ") && (strings.Contains(t, " · ") && strings.Contains(t, "/") || strings.HasPrefix(t, "? for shortcuts"))
}

// codexTextRan reads the command run at lines[i] (rest: "Ran <command>") and its output, adds
// the call, and returns the index of the line after them.
func codexTextRan(a *codexCalls, lines []string, i int, rest string) int {
	running := strings.HasPrefix(rest, "Running")
	cmd := strings.TrimPrefix(strings.TrimPrefix(rest, "Ran"), "Running")
	j := i + 1
	if cmd == "" && j < len(lines) && strings.HasPrefix(lines[j], "  └ ") {
		return codexTextRanBelow(a, lines, j)
	}
	cmd = strings.TrimPrefix(cmd, " ")
	for j < len(lines) && strings.HasPrefix(lines[j], "  │") {
		cmd += "\n" + strings.TrimPrefix(strings.TrimPrefix(lines[j], "  │"), " ")
		j++
	}
	call := loopguard.Call("", "exec_command", marshalArgs(map[string]string{"cmd": strings.TrimRight(cmd, " \t")}))
	var first string
	ok := j < len(lines)
	if ok {
		first, ok = strings.CutPrefix(lines[j], "  └ ")
	}
	if !ok {
		a.add(call) // still running, or its output not drawn: not known
		return j
	}
	more, next := codexTextIndented(lines, j+1, "    ")
	output := strings.TrimRight(first, " ")
	if more != "" {
		output += "\n" + more
	}
	if !running && !codexTextShortened(output) {
		if output == "(no output)" {
			output = ""
		}
		call = call.WithResult(output, false)
	}
	a.add(call)
	return next
}

// codexTextExplored reads the looks drawn under "• Explored", from lines[j] ("  └ Read x", then
// "    List y"): each a call whose output is not shown, a Read of several files ("Read a.rs,
// b.rs") one call a file. Codex wraps a long look at the screen's width: a line that opens no
// look (indented deeper, or at the left edge) goes on with the look above it (validation round
// r105a U2).
func codexTextExplored(a *codexCalls, lines []string, j int) int {
	var looks []string
	for j < len(lines) {
		l := strings.TrimRight(lines[j], " \t")
		if look, ok := strings.CutPrefix(l, "  └ "); ok {
			looks = append(looks, strings.TrimSpace(look))
			j++
			continue
		}
		if look, ok := strings.CutPrefix(l, "    "); ok && look != "" && look[0] != ' ' && isCodexLook(look) {
			looks = append(looks, look)
			j++
			continue
		}
		if l == "" || len(looks) == 0 || strings.HasPrefix(l, "• ") || strings.HasPrefix(l, "─") || strings.HasPrefix(l, "› ") {
			break
		}
		last := &looks[len(looks)-1]
		if sep := " "; strings.HasSuffix(*last, "|") {
			*last += strings.TrimSpace(l) // a pattern's alternatives, cut where the screen ended
		} else {
			*last += sep + strings.TrimSpace(l)
		}
		j++
	}
	for _, look := range looks {
		tool, args, _ := strings.Cut(look, " ")
		if tool != "Read" {
			a.add(loopguard.Call("", tool, []byte(args)))
			continue
		}
		for _, file := range strings.Split(args, ",") {
			if file = strings.TrimSpace(file); file != "" {
				a.add(loopguard.Call("", tool, []byte(file)))
			}
		}
	}
	return j
}

// isCodexLook says whether s opens one of the looks Codex sums up under "Explored".
func isCodexLook(s string) bool {
	for _, verb := range [...]string{"Read", "Search", "List"} {
		if rest, ok := strings.CutPrefix(s, verb); ok && (rest == "" || rest[0] == ' ') {
			return true
		}
	}
	return false
}

// codexTextCalled reads an MCP tool's call at lines[i] (rest: "server.tool(arguments)"), its
// arguments going on over the lines indented under it, and its result, drawn as a command's.
func codexTextCalled(a *codexCalls, lines []string, i int, rest string) int {
	open := strings.IndexByte(rest, '(')
	tool := rest[:open]
	args := rest[open+1:]
	j := i + 1
	for j < len(lines) && strings.HasPrefix(lines[j], "    ") && !strings.HasPrefix(lines[j], "  └ ") {
		args += "\n" + strings.TrimSpace(lines[j])
		j++
	}
	call := loopguard.Call("", tool, []byte(strings.TrimSuffix(strings.TrimSpace(args), ")")))
	if j < len(lines) {
		if first, ok := strings.CutPrefix(lines[j], "  └ "); ok {
			more, next := codexTextIndented(lines, j+1, "    ")
			output := strings.TrimRight(first, " ")
			if more != "" {
				output += "\n" + more
			}
			if !codexTextShortened(output) {
				call = call.WithResult(output, false)
			}
			j = next
		}
	}
	a.add(call)
	return j
}

// codexTextRanBelow reads a command of several lines that Codex drew under a bare "• Ran",
// from lines[j] ("  └ python3 - <<'PY'") and the lines indented under it, and adds the call.
// A heredoc ends at its tag's line, and what is drawn under the command after it is the
// output ("  File "<stdin>", line 7" and a SyntaxError); most such commands show none, and
// what they did is not known. Another command's lines are all command: where it ends is not
// drawn. Read as the model's words, 35 scripts and file writes of one session were no calls
// (validation round r255f).
func codexTextRanBelow(a *codexCalls, lines []string, j int) int {
	first := strings.TrimRight(strings.TrimPrefix(lines[j], "  └ "), " ")
	more, next := codexTextIndented(lines, j+1, "    ")
	cmd, output := first, ""
	body := strings.Split(more, "\n")
	if more == "" {
		body = nil
	}
	end := len(body)
	if tag := heredocTag(first); tag != "" {
		for k, l := range body {
			if strings.TrimSpace(l) == tag {
				end = k + 1
				break
			}
		}
	}
	if end > 0 {
		cmd += "\n" + strings.Join(body[:end], "\n")
	}
	output = strings.Trim(strings.Join(body[end:], "\n"), "\n")
	call := loopguard.Call("", "exec_command", marshalArgs(map[string]string{"cmd": strings.TrimRight(cmd, " \t\n")}))
	if output != "" && !codexTextShortened(output) {
		call = call.WithResult(output, false)
	}
	a.add(call)
	return next
}

// heredocTag is the word that ends the heredoc a command line opens ("PY" of `python3 -
// <<'PY'`, "EOF" of `cat <<-"EOF" > a.md`), or "" when it opens none (a "<<<" is a string).
func heredocTag(line string) string {
	for i := 0; i+2 < len(line); i++ {
		if line[i] != '<' || line[i+1] != '<' {
			continue
		}
		if line[i+2] == '<' {
			i += 2
			continue
		}
		rest := strings.TrimLeft(strings.TrimPrefix(line[i+2:], "-"), " ")
		word, _, _ := strings.Cut(rest, " ")
		return strings.Trim(word, `'"\`)
	}
	return ""
}

// codexTextIndented reads the lines from lines[j] on that open with indent (blank lines
// between them included when more such lines follow), without the indent, and returns them
// and the index of the line after them.
func codexTextIndented(lines []string, j int, indent string) (string, int) {
	var parts []string
	for j < len(lines) {
		l := strings.TrimRight(lines[j], " \t")
		if l == "" {
			k := nextFilled(lines, j)
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
	return strings.Join(parts, "\n"), j
}

// codexTextShortened says whether an output is Codex's shortened view of a longer one: a line
// "… +12 lines" in it.
func codexTextShortened(output string) bool {
	for _, l := range strings.Split(output, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "… +") && (strings.HasSuffix(l, " lines") || strings.HasSuffix(l, " line")) {
			return true
		}
	}
	return false
}
