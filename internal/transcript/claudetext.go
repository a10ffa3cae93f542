package transcript

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
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
//	  ⎿  Updated src/app.ts with 1 addition and 1 removal
//	       10 -  return x
//	       10 +  return y
//
// A line that opens with "> " (Claude Code 2.1: "❯ ") is the user's, with the lines after it
// indented by two spaces; one that opens with "⏺ " ("● " on terminals without that glyph) is
// the model's. It is a call when a "⎿" block follows it (a result: the call's name alone, as
// "Update Todos", or Name(arguments)), or when it reads Name(arguments) and nothing of the
// model's words follows (a call interrupted before it answered), or one of Claude Code's own
// tools and the model's next line (a paste that lost its result); else it is the model's words.
// Copies of the conversation that the terminal drew again are read once (withoutRedraws).
// Arguments may go on over the next lines, indented, until their parenthesis closes; the
// "timeout: 30s" column drawn beside a Bash call is no part of them; arguments the screen cut
// ("import re…)") are numbered, since what they asked is not all shown. A "⎿" block is the
// call's result, its lines after the first indented to where the first one's text starts;
// a second block under the same call (an interruption) joins it. A result that opens with
// "Error", "User rejected", "Interrupted" or "No (tell Claude" failed. Claude Code shortens
// long results on screen ("… +12 lines (ctrl+o to expand)", "(ctrl+r to see all)"): what
// such a result said is not all there, so it is left unknown, never compared with another
// shortened one. An edit's arguments show only its file: the diff of its result is added to
// them, since it is what was asked. The banner, status lines ("✻ Thinking…") and the rest are
// passed over.

// isClaudeTextHead says whether the start of a file reads as Claude Code's text export: a
// line that opens with the model's bullet and one that opens with "  ⎿".
func isClaudeTextHead(head []byte) bool {
	hasBullet := false
	for _, b := range claudeTextBullets {
		if bytes.HasPrefix(head, []byte(b)) || bytes.Contains(head, []byte("\n"+b)) {
			hasBullet = true
		}
	}
	return hasBullet && (bytes.Contains(head, []byte("\n  ⎿")) || bytes.Contains(head, []byte("\n\u00a0\u00a0⎿")) ||
		bytes.Contains(head, []byte("\n⎿ ")))
}

// flattened says whether the text is a paste of the screen whose indentation was lost (a
// Markdown editor's or a chat's copy): results open with "⎿" at the line's start, and no
// result is indented as Claude Code draws it.
func flattened(lines []string) bool {
	flat := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "⎿"):
			flat = true
		case strings.HasPrefix(l, "  ⎿"):
			return false
		}
	}
	return flat
}

// indented gives a flattened paste its indentation back: a "⎿" line is drawn under its call
// ("  ⎿  "), and every other line that opens with neither a bullet, a prompt nor "⎿" goes on
// with the block above it (a call's arguments wrapped over lines, a result's lines, the
// model's or the user's words), indented as that block's lines are (a call's arguments are
// drawn deeper than the model's words, and the deeper indent reads as either); a prompt line straight
// after another is the same message going on (pastes quote each line of it: "> ").
func indented(lines []string) []string {
	out := make([]string, 0, len(lines))
	indent, prompt := "", false
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			out = append(out, l)
			prompt = false
			continue
		}
		if rest, ok := strings.CutPrefix(l, "⎿"); ok {
			out = append(out, "  ⎿  "+strings.TrimLeft(rest, " "))
			indent, prompt = "     ", false
			continue
		}
		if rest, ok := cutAny(l, claudeTextPrompts); ok {
			if prompt {
				out = append(out, "  "+rest)
			} else {
				out = append(out, l)
			}
			indent, prompt = "  ", true
			continue
		}
		if _, ok := cutAny(l, claudeTextBullets); ok {
			// Under a call, its wrapped arguments are drawn deeper than the model's words go
			// on under a text; the deeper indent reads as either.
			out = append(out, l)
			indent, prompt = "      ", false
			continue
		}
		out = append(out, indent+strings.TrimLeft(l, " "))
	}
	return out
}

// collapsedCalls reads a line in which Claude Code 2.1 sums up a run of calls it drew as one:
// "Read 3 files (ctrl+o to expand)", "Searched for 1 pattern, read 1 file, listed 1
// directory (ctrl+o to expand)", "Ran 2 shell commands", "Committed 2ae44bf, pushed to
// main, ran 1 shell command". Each is a call (Read, Grep, LS; Bash for a command, a commit
// and a push) whose arguments and result are not shown: its result is unknown. A memory
// recalled or written is no call. nil for any other line. Read as the model's words, the same
// summary said again and again looked like a thought repeated (validation round r104a U5);
// without its commands, a session's builds and tests were none of its calls (r126a U1).
func collapsedCalls(line string) []loopguard.Event {
	body, ok := strings.CutSuffix(strings.TrimRight(line, " "), " (ctrl+o to expand)")
	if !ok || body == "" {
		return nil
	}
	var calls []loopguard.Event
	for _, clause := range strings.Split(body, ", ") {
		words := strings.Fields(clause)
		if len(words) < 2 {
			return nil
		}
		verb := strings.ToLower(words[0])
		switch {
		case verb == "committed" && len(words) == 2, verb == "pushed" && len(words) == 3 && words[1] == "to":
			calls = append(calls, loopguard.Call("", "Bash", []byte(clause)))
			continue
		case verb == "ran" && len(words) == 4 && words[2] == "shell":
			words = []string{words[0], words[1], words[3]} // "ran N commands"
		}
		if verb == "searched" && len(words) > 1 && words[1] == "for" {
			words = words[1:]
		}
		if len(words) != 3 && !(len(words) == 2 && verb != "searched") {
			return nil
		}
		n, err := strconv.Atoi(words[len(words)-2])
		if err != nil || n < 1 || n > 1000 {
			return nil
		}
		tool := ""
		switch noun := words[len(words)-1]; {
		case verb == "read" && (noun == "file" || noun == "files"):
			tool = "Read"
		case verb == "searched" && (noun == "pattern" || noun == "patterns"):
			tool = "Grep"
		case verb == "listed" && (noun == "directory" || noun == "directories"):
			tool = "LS"
		case verb == "ran" && (noun == "command" || noun == "commands"):
			tool = "Bash"
		case (verb == "recalled" || verb == "wrote") && (noun == "memory" || noun == "memories"):
			continue
		default:
			return nil
		}
		for range n {
			calls = append(calls, loopguard.Call("", tool, []byte(clause)))
		}
	}
	if calls == nil {
		calls = []loopguard.Event{} // only memories: a summary, no call
	}
	return calls
}

// bulletlessCall reads a call whose bullet the paste lost (the screen blinks it while the call
// runs) at lines[i]: one of Claude Code's own tools, Name(arguments), with a result under it
// (validation rounds r89a U3, r107a U1). Every line of a paste that opens with neither a
// bullet nor a prompt comes here, so a line that does not open with a capital, as every such
// tool's name does, is let go before it is read as a call's head.
func bulletlessCall(lines []string, i int, line string) (call loopguard.Event, next int, ok bool) {
	if t := strings.TrimLeft(line, " "); t == "" || t[0] < 'A' || t[0] > 'Z' {
		return call, 0, false
	}
	if name, _, _, paren := claudeTextHead(lines, i, line); !paren || !claudeCodeTools[claudeTextToolAlias(name)] {
		return call, 0, false
	}
	if r := nextFilled(lines, i+1); r >= len(lines) || !isResultLine(lines[r]) {
		return call, 0, false
	}
	return claudeTextCall(lines, i, line)
}

// claudeCodeTools are the tools Claude Code draws a call of, by the name claudeTextToolAlias
// gives them: a line Name(arguments) with one of them is a call whatever follows it.
var claudeCodeTools = map[string]bool{
	"Bash": true, "Read": true, "Write": true, "Edit": true, "MultiEdit": true, "Grep": true, "Glob": true, "LS": true,
	"WebFetch": true, "WebSearch": true, "Task": true, "NotebookEdit": true, "BashOutput": true, "KillShell": true,
	"KillBash": true, "Skill": true,
}

// splitInlineResults puts a result drawn on its call's line ("● Search(pattern: x)  ⎿  Found
// 11 lines", a paste that lost a line break), or on the last line of its wrapped arguments
// ("      mx = 0…)  ⎿  max: 118"), on a line of its own, under the call.
func splitInlineResults(lines []string) []string {
	var out []string
	for i, l := range lines {
		k := strings.Index(l, "⎿")
		if k < 0 {
			if out != nil {
				out = append(out, l)
			}
			continue
		}
		call := strings.TrimRight(l[:k], " ")
		_, bullet := cutAny(call, claudeTextBullets)
		wrapped := strings.HasPrefix(call, "   ") && strings.TrimSpace(call) != ""
		if !bullet && !wrapped || !strings.HasSuffix(call, ")") {
			if out != nil {
				out = append(out, l)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(lines)+8), lines[:i]...)
		}
		out = append(out, call, "  "+l[k:])
	}
	if out == nil {
		return lines
	}
	return out
}

// withoutRedraws leaves out the copies of the conversation that the terminal drew again. Claude
// Code has been seen to clear the screen and draw the whole conversation afresh, its welcome
// box first, over and over (anthropics/claude-code#11034): a paste of such a terminal holds
// the conversation once a redraw, each copy ending where the next box begins. A part of the
// text that begins at a welcome box and opens with the same lines of the user and the model
// as the part before it (or holds them further on) is a redraw of it, and only the later,
// longer copy is read. A real
// paste of ten copies read as 142 calls; the session made 18 (validation round r103a U1).
// Parts that open otherwise are sessions of their own, and all are read.
func withoutRedraws(lines []string) []string {
	return withoutRedrawnParts(lines, partStarts(lines, isClaudeWelcome), isClaudeTurnLine)
}

// isClaudeWelcome says whether l is a line of Claude Code's welcome box that names it.
func isClaudeWelcome(l string) bool {
	return strings.HasPrefix(l, "│") && strings.Contains(l, "Welcome to Claude Code") ||
		strings.HasPrefix(l, "╭") && strings.Contains(l, " Claude Code v")
}

// partStarts returns where each drawing of a conversation begins in a terminal's text: the
// start, and each line after the first that is the CLI's banner.
func partStarts(lines []string, banner func(string) bool) []int {
	starts := []int{0}
	for i, l := range lines {
		if i > 0 && banner(l) {
			starts = append(starts, i)
		}
	}
	return starts
}

// isClaudeTurnLine says whether l opens a turn of the user or the model.
func isClaudeTurnLine(l string) bool {
	_, bullet := cutAny(l, claudeTextBullets)
	_, prompt := cutAny(l, claudeTextPrompts)
	return bullet || prompt
}

// withoutRedrawnParts leaves out the parts of a terminal's text that are copies of another
// part. The parts begin at starts (the first at 0): each where the terminal began to draw the
// conversation afresh, its banner. The part after a part is a copy of the same conversation
// when the first lines of the part that open a turn (isTurn; up to five, at least one) stand
// in it one after another (at its start or further on: a paste that begins in the middle of a
// copy holds the end of one), or when its own first turns open the part before it (a copy the
// paste cut short). Of a run of such copies only the one with the most turns is
// read, the later of equals: a terminal that redraws the conversation draws it whole each
// time, and a paste may cut the first copy's start or the last copy's end. A part whose last
// turn is the user's /quit or /exit ended a session: the part after it is another session,
// however alike it opens.
func withoutRedrawnParts(lines []string, starts []int, isTurn func(string) bool) []string {
	if len(starts) < 3 && (len(starts) < 2 || starts[1] == 0) {
		return lines
	}
	starts = append(starts, len(lines))
	part := func(k int) []string { return lines[starts[k]:starts[k+1]] }
	turns := func(k int) []string { p := part(k); return turnLines(p, len(p), isTurn) }
	var out []string
	for k := 0; k+1 < len(starts); {
		best, bestTurns := k, turns(k)
		prevTurns, end := bestTurns, k+1
		for end+1 < len(starts) && !endsSession(part(end-1), isTurn) {
			next := turns(end)
			if turnsAt(next, prevTurns[:min(len(prevTurns), 5)]) < 0 && turnsAt(prevTurns, next[:min(len(next), 5)]) != 0 {
				break // neither draws the other again (a copy cut short opens as the one before)
			}
			if len(next) >= len(bestTurns) {
				best, bestTurns = end, next
			}
			prevTurns = next
			end++
		}
		out = append(out, part(best)...)
		k = end
	}
	return out
}

// endsSession says whether the last turn of part is the user's /quit or /exit.
func endsSession(part []string, isTurn func(string) bool) bool {
	for k := len(part) - 1; k >= 0; k-- {
		if l := strings.TrimRight(part[k], " \t"); isTurn(l) {
			return strings.HasSuffix(l, " /quit") || strings.HasSuffix(l, " /exit")
		}
	}
	return false
}

// turnsAt returns where the lines of want (at least one) stand one after another in lines, or
// -1. A drawing at another width wraps a turn's words elsewhere, so a line stands again when
// one of the two lines opens the other.
func turnsAt(lines, want []string) int {
	if len(want) == 0 {
		return -1
	}
	same := func(x, y string) bool { return strings.HasPrefix(x, y) || strings.HasPrefix(y, x) }
	for i := 0; i+len(want) <= len(lines); i++ {
		if slices.EqualFunc(want, lines[i:i+len(want)], same) {
			return i
		}
	}
	return -1
}

// turnLines returns the first n lines of lines that open a turn, without their trailing
// white space.
func turnLines(lines []string, n int, isTurn func(string) bool) []string {
	var out []string
	for _, l := range lines {
		if len(out) == n {
			break
		}
		if l = strings.TrimRight(l, " \t"); isTurn(l) {
			out = append(out, l)
		}
	}
	return out
}

// claudeTextBullets open the model's lines; claudeTextPrompts the user's.
var (
	claudeTextBullets = []string{"⏺ ", "● "}
	claudeTextPrompts = []string{"> ", "❯ "}
)

// claudeTextTools are the names Claude Code shows for its tools where they are not the
// tools' own (two-word names are joined first: "Web Search" is WebSearch).
var claudeTextTools = map[string]string{
	"Update": "Edit", "Fetch": "WebFetch", "Search": "Grep", "List": "LS", "UpdateTodos": "TodoWrite",
}

// screenLines reads a paste of a terminal's screen as its lines: Unix line ends, and the
// no-break spaces some terminals copy as plain ones.
func screenLines(name string, br *bufio.Reader) ([]string, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	return strings.Split(strings.ReplaceAll(string(lfLines(data)), "\u00a0", " "), "\n"), nil
}

func readClaudeText(name string, br *bufio.Reader) (*built, error) {
	lines, err := screenLines(name, br)
	if err != nil {
		return nil, err
	}
	if flattened(lines) {
		lines = indented(lines)
	}
	lines = withoutRedraws(splitInlineResults(lines))
	b := newBuilder(FormatClaudeText)
	a := b.agent(MainAgent)
	for i := 0; i < len(lines); {
		line := strings.TrimRight(lines[i], " \t")
		if rest, ok := cutAny(line, claudeTextPrompts); ok {
			said, next := claudeTextBlock(lines, i, rest, "  ")
			a.user(said, 0)
			i = next
			continue
		}
		rest, ok := cutAny(line, claudeTextBullets)
		if calls := collapsedCalls(strings.TrimLeft(line, " ")); calls != nil || ok && collapsedCalls(rest) != nil {
			if calls == nil {
				calls = collapsedCalls(rest)
			}
			for _, c := range calls {
				// The summary says how many calls, not what each asked: numbered, two of them
				// are not one call made twice (to the seeds' exact match, to the thought rule's
				// same call made again).
				c.Args = fmt.Appendf(c.Args, " #%d", a.nextNumber(c.Tool))
				a.add(c)
			}
			i++
			continue
		}
		if !ok {
			if call, next, ok := bulletlessCall(lines, i, line); ok {
				a.add(call)
				i = next
				continue
			}
			i++
			continue
		}
		if call, next, ok := claudeTextCall(lines, i, rest); ok {
			if bytes.HasSuffix(call.Args, []byte("…")) {
				// The screen cut the arguments ("python3 << 'EOF'\n  import re…"): what
				// the call asked is not all shown, and two such calls are not known to be
				// one made twice (validation round r255d: 13 different scripts, each cut
				// after its first line, read as one script run again and again).
				call.Args = fmt.Appendf(call.Args, " #%d", a.nextNumber(call.Tool))
			}
			a.add(call)
			i = next
			continue
		}
		said, next := claudeTextBlock(lines, i, rest, "  ")
		a.text("model", said, "", 0)
		i = next
	}
	parallelReplies(a.events)
	return b.done(), nil
}

// parallelReplies gives one reply (Event.Turn) to the calls a screen shows were sent together:
// a call Claude Code cancelled answers "Cancelled: parallel tool call Bash(git mv …) errored",
// naming the call of its reply that failed, and every call drawn from that one to it was sent
// with it. The screen draws the calls of one reply as it draws calls made one after another,
// and eleven writes of one reply, cancelled with it, were told as writes failing four times
// in a row (validation round r127a F1, F2).
func parallelReplies(events []loopguard.Event) {
	for i := range events {
		e := &events[i]
		if e.Type != loopguard.EventCall || !e.HasResult {
			continue
		}
		named, ok := strings.CutPrefix(e.Result, "Cancelled: parallel tool call ")
		if !ok {
			continue
		}
		tool, args, ok := strings.Cut(named, "(")
		if !ok {
			continue
		}
		// What the screen shows of the failing call's arguments: up to the cut ("…") or the
		// line's end, its spaces as the screen broke them.
		args, _, _ = strings.Cut(args, "…")
		args = strings.Join(strings.Fields(args), " ")
		for j := i - 1; j >= 0; j-- {
			f := &events[j]
			if f.Type != loopguard.EventCall {
				continue
			}
			if !f.Failed || f.Tool != claudeTextToolAlias(tool) || !strings.HasPrefix(strings.Join(strings.Fields(string(f.Args)), " "), args) {
				continue
			}
			turn := "parallel-" + strconv.Itoa(j)
			if f.Turn != "" {
				turn = f.Turn
			}
			for k := j; k <= i; k++ {
				if events[k].Type == loopguard.EventCall && (events[k].Turn == "" || events[k].Turn == turn) {
					events[k].Turn = turn
				}
			}
			break
		}
	}
}

// lineAt is lines[i], or "" past the end.
func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// cutAny returns s without the first of prefixes it opens with.
func cutAny(s string, prefixes []string) (string, bool) {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return rest, true
		}
	}
	return "", false
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
			k := nextFilled(lines, j)
			if k < len(lines) && strings.HasPrefix(lines[k], indent) && !isResultLine(lines[k]) {
				for ; j < k; j++ {
					parts = append(parts, "")
				}
				continue
			}
			break
		}
		if !strings.HasPrefix(l, indent) || isResultLine(l) || collapsedCalls(strings.TrimLeft(l, " ")) != nil {
			break
		}
		parts = append(parts, strings.TrimPrefix(l, indent))
		j++
	}
	return strings.TrimSpace(strings.Join(parts, "\n")), j
}

// nextFilled is the index of the first line at or after j that is not blank, or len(lines).
func nextFilled(lines []string, j int) int {
	for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
		j++
	}
	return j
}

// isResultLine says whether a line opens a call's result block ("  ⎿  ...").
func isResultLine(l string) bool {
	return strings.HasPrefix(strings.TrimLeft(l, " "), "⎿") && len(l)-len(strings.TrimLeft(l, " ")) <= 4
}

// claudeTextCall reads the call that rest, the text of a model's line at lines[i], opens, with
// its result, and says where the next block starts. ok is false for the model's words.
func claudeTextCall(lines []string, i int, rest string) (call loopguard.Event, next int, ok bool) {
	name, args, next, paren := claudeTextHead(lines, i, rest)
	if name == "" {
		return call, 0, false
	}
	r := nextFilled(lines, next)
	hasResult := r < len(lines) && isResultLine(lines[r])
	if !hasResult {
		// A call that never answered is drawn Name(arguments), and then the user's turn or
		// the end of the text: a line of the model's words that looks like one ("Fixed(see
		// the diff above)") is followed by more of its words. A paste that lost a call's
		// result lines shows one of Claude Code's own tools, Name(arguments), and then the
		// model's next line: 47 of 87 calls of a real paste were taken for words (validation
		// round r103a U2). Its result is not known.
		_, prompt := cutAny(lineAt(lines, r), claudeTextPrompts)
		_, bullet := cutAny(lineAt(lines, r), claudeTextBullets)
		if !paren || r < len(lines) && !prompt && !(bullet && claudeCodeTools[claudeTextToolAlias(name)]) {
			return call, 0, false
		}
	}
	tool := claudeTextToolAlias(name)
	var results []string
	for hasResult {
		block, after := claudeTextResult(lines, r)
		results = append(results, block)
		next = after
		r = nextFilled(lines, after)
		hasResult = r < len(lines) && isResultLine(lines[r])
	}
	result := strings.Join(results, "\n")
	subagent := strings.HasPrefix(result, "Done (") && strings.Contains(result, "tool use")
	if subagent {
		// A subagent, drawn under its own name ("Explore(Find config loaders)"), with the
		// count of the tools it used: Claude Code's Task tool. What it found is not shown,
		// only that tally: its result is unknown.
		args, tool = name+": "+args, "Task"
	}
	switch tool {
	case "Edit", "MultiEdit", "Write":
		// What changed is in the result's diff, not in the arguments, which name the file.
		if _, diff, found := strings.Cut(result, "\n"); found && len(results) > 0 && !claudeTextShortened(result) {
			args += "\n" + diff
		}
	}
	call = loopguard.Call("", tool, []byte(args))
	if len(results) > 0 && !claudeTextShortened(result) && !subagent {
		call = call.WithResult(result, claudeTextFailed(results))
	}
	return call, next, true
}

// claudeTextFailed says whether the result blocks of a call report a failure or a refusal.
func claudeTextFailed(blocks []string) bool {
	for _, b := range blocks {
		if b == "Error" || strings.HasPrefix(b, "Error:") || strings.HasPrefix(b, "Error ") || strings.HasPrefix(b, "Error\n") {
			return true // not "ErrorBoundary.tsx", "Errors: 0"
		}
		// Claude Code's editor refuses in words of its own, which the research preview drew
		// with no "Error" before them (validation round r104a U4).
		for _, p := range [...]string{"User rejected", "Interrupted", "No (tell Claude", "String to replace not found", "Cancelled: parallel tool call", "Sibling tool call errored",
			"No changes to make:", "File has not been read yet", "File has been modified since read", "File has been unexpectedly modified",
			"File must be read first"} { // Claude Code 2.x's short form of "not read yet" (validation round r257c)
			if strings.HasPrefix(b, p) {
				return true
			}
		}
		if rest, ok := strings.CutPrefix(b, "Found "); ok && strings.Contains(firstLineOf(rest), " matches of the string to replace") {
			return true
		}
	}
	return false
}

// firstLineOf is s up to its first line break.
func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// claudeTextResult reads the result block at lines[r]: its first line after "⎿", then the
// lines indented to where that line's text starts.
func claudeTextResult(lines []string, r int) (string, int) {
	l := strings.TrimLeft(lines[r], " ")
	lead := len(lines[r]) - len(l)
	l = strings.TrimPrefix(l, "⎿")
	text := strings.TrimLeft(l, " ")
	indent := strings.Repeat(" ", lead+1+len(l)-len(text)) // "⎿" is one column wide
	if text == "" {
		indent = strings.Repeat(" ", lead+3)
	}
	return claudeTextBlock(lines, r, strings.TrimRight(text, " "), indent)
}

// claudeTextHead reads a call's name and arguments from rest, the model's line at lines[i]:
// a name alone (a word, two or three starting with a capital: "Update Todos", "Read agent
// output", or an MCP tool's "server - tool (MCP)") or a name and its arguments in parentheses,
// which may go on over the indented lines after it. next is the line after them.
func claudeTextHead(lines []string, i int, rest string) (name, args string, next int, paren bool) {
	rest = strings.TrimSpace(rest)
	if id, blocks, ok := taskOutputHead(rest); ok {
		// The arguments as the tool takes them, so that the check reads as the same call in
		// a JSONL transcript: it waits for the task unless drawn "(non-blocking)".
		args = `{"task_id":"` + id + `"`
		if !blocks {
			args += `,"block":false`
		}
		return "TaskOutput", args + "}", i + 1, false // read as a call only with its result
	}
	open := strings.IndexByte(rest, '(')
	if mcp := strings.Index(rest, " (MCP)"); mcp > 0 && (open < 0 || open > mcp) {
		open = strings.IndexByte(rest[mcp+len(" (MCP)"):], '(')
		if open >= 0 {
			open += mcp + len(" (MCP)")
		}
		name = rest[:mcp]
	}
	if open < 0 {
		if name == "" && (!claudeTextToolName(rest, 3) || rest == "Updated plan") {
			// (plan mode's line over "/plan to preview" is no call: validation round r126a U2)
			return "", "", 0, false
		}
		if name == "" {
			name = rest
		}
		return name, "", i + 1, false
	}
	if name == "" {
		name = rest[:open]
		if !claudeTextToolName(name, 2) {
			return "", "", 0, false
		}
	}
	// The arguments go on over the lines indented under the name (a long command wraps): by
	// their indentation, not by counting parentheses, which a command holds of its own (a
	// shell's "prod)" case pattern).
	first := withoutTimeoutColumn(rest[open+1:])
	// A wrapped command's column may hold the timeout's first part ("timeout: 10m") beside its
	// first line and the rest ("0s") beside the second (validation round r105c U2).
	columnGoesOn := first != strings.TrimRight(rest[open+1:], " ") && !strings.HasSuffix(first, ")")
	parts := []string{first}
	next = i + 1
	for next < len(lines) {
		l := lines[next]
		if strings.TrimSpace(l) == "" {
			// a blank line inside the command (a heredoc's): it goes on when the line after
			// it is indented as the command is
			k := nextFilled(lines, next)
			if k >= len(lines) || !strings.HasPrefix(lines[k], "   ") || isResultLine(lines[k]) {
				break
			}
			for ; next < k; next++ {
				parts = append(parts, "")
			}
			continue
		}
		if !strings.HasPrefix(l, "   ") || isResultLine(l) {
			break
		}
		l = withoutTimeoutColumn(strings.TrimSpace(l))
		if columnGoesOn {
			columnGoesOn = false
			if k := strings.LastIndex(l, "  "); k > 0 && isDrawnDuration(l[k:]) {
				l = strings.TrimRight(l[:k], " ")
			}
		}
		parts = append(parts, l)
		next++
	}
	text := strings.TrimSpace(strings.Join(parts, "\n"))
	// Early releases (the research preview) drew a call still running with an ellipsis after
	// it, "⏺ Bash(gh --version)…", and left it there: read without it, most calls of such a
	// session were taken for the model's words.
	text = strings.TrimSuffix(text, "…")
	// A screen redrawn while it was copied can leave the input box's rule glued after a call's
	// closing parenthesis ("⏺ Bash(kubectl get pods -n logging 2>&1)──────"): no command ends
	// in box-drawing lines, so they are the screen's, not the call's (validation round r78c
	// U1: a complete call with its result was taken for the model's words).
	text = strings.TrimRight(text, "─ ")
	if !strings.HasSuffix(text, ")") {
		return "", "", 0, false // no closing parenthesis: the model's words
	}
	return name, strings.TrimSuffix(text, ")"), next, true
}

// taskOutputHead reads Claude Code's check on a background task, drawn "Task Output b647610"
// or "Task Output(non-blocking) b647610": the task's id after the name, not in parentheses
// (validation round r57a U2: six polls of a build were read as the model's words, and the
// plain form as a tool named with the id).
func taskOutputHead(rest string) (id string, blocks, ok bool) {
	after, found := strings.CutPrefix(rest, "Task Output")
	if !found {
		return "", false, false
	}
	blocks = true
	if a, nb := strings.CutPrefix(after, "(non-blocking)"); nb {
		after, blocks = a, false
	} else if a, b := strings.CutPrefix(after, "(blocking)"); b {
		after = a
	}
	if !strings.HasPrefix(after, " ") {
		return "", false, false
	}
	id = strings.TrimSpace(after)
	if len(id) < 4 || len(id) > 64 {
		return "", false, false
	}
	for j := 0; j < len(id); j++ {
		c := id[j]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return "", false, false
		}
	}
	return id, blocks, true
}

// withoutTimeoutColumn takes off a call line the timeout Claude Code draws beside a Bash
// call: "Bash(npm test) timeout: 30s", or, when the command wraps, "timeout:" at the end of its
// first line and "30s" after the closing parenthesis.
func withoutTimeoutColumn(l string) string {
	l = strings.TrimRight(l, " ")
	if k := strings.LastIndex(l, ") timeout: "); k >= 0 && isDrawnDuration(l[k+len(") timeout: "):]) {
		return l[:k+1] // "Bash(npm test) timeout: 10m 0s"
	}
	if t, ok := strings.CutSuffix(l, " timeout:"); ok {
		return strings.TrimRight(t, " ")
	}
	if k := strings.LastIndex(l, "  timeout: "); k >= 0 && isDrawnDuration(l[k+len("  timeout: "):]) {
		return strings.TrimRight(l[:k], " ") // "--competition-set    timeout: 10m", "0s" on the next line
	}
	if k := strings.LastIndex(l, ")"); k >= 0 && k < len(l)-1 && isDrawnDuration(l[k+1:]) {
		return l[:k+1] // ")      30s", ")  10m 0s"
	}
	return l
}

// isDrawnDuration says whether s is a duration as Claude Code draws a timeout: "30s", "2m",
// "10m 0s", "1h 5m 0s", "500ms": one to three numbers, each with its unit.
func isDrawnDuration(s string) bool {
	parts := strings.Fields(s)
	if len(parts) == 0 || len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		digits := len(p) - len(strings.TrimLeft(p, "0123456789"))
		switch p[digits:] {
		case "ms", "s", "m", "h":
		default:
			return false
		}
		if digits == 0 {
			return false
		}
	}
	return true
}

// claudeTextToolName says whether s is a tool's name as Claude Code shows it: one word, or up
// to max words the first of which starts with a capital ("Web Search", "Kill Shell", "Read
// agent output"); a sentence of the model is not.
func claudeTextToolName(s string, max int) bool {
	words := strings.Split(s, " ")
	if len(words) > max || s == "" {
		return false
	}
	for k, w := range words {
		if w == "" {
			return false
		}
		if len(words) > 1 && k == 0 && (w[0] < 'A' || w[0] > 'Z') {
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

// claudeTextToolAlias is the tool a name Claude Code shows stands for: words joined
// ("Kill Shell" is KillShell), then claudeTextTools.
func claudeTextToolAlias(name string) string {
	if strings.Contains(name, " - ") {
		return name // an MCP tool: "server - tool"
	}
	joined := strings.ReplaceAll(name, " ", "")
	if alias, ok := claudeTextTools[joined]; ok {
		return alias
	}
	return joined
}

// claudeTextShortened says whether a result is Claude Code's shortened view of a longer one:
// "… +12 lines (ctrl+o to expand)", "+1 line (ctrl+r to expand)", "(ctrl+r to see all)".
func claudeTextShortened(result string) bool {
	return strings.Contains(result, " (ctrl+") && (strings.Contains(result, " line (ctrl+") || strings.Contains(result, " lines (ctrl+"))
}
