package transcript

import (
	"bufio"
	"bytes"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// Aider appends every chat to .aider.chat.history.md in the repository it works in, as
// Markdown written by three functions of its terminal I/O:
//
//   - "# aider chat started at <time>" opens a run: a session;
//   - what the user types, each line prefixed "#### " and ended with two spaces (a message
//     of several lines is several such lines): a user turn; a "#### " line without the two
//     spaces is the model's own Markdown heading;
//   - what aider itself says (tool output, warnings and errors), "> " before the first line
//     only, the last line ending in exactly two spaces (Markdown's line break): a message of
//     several lines, blank ones included, runs to that line;
//   - everything else is the model's reply, set off by blank lines.
//
// Aider's model has no tools: it edits by writing edit blocks in its reply (SEARCH/REPLACE
// blocks after a file name, whole files or diffs in fences), and aider applies them and says
// so: "Applied edit to x.py", or "The LLM did not conform to the edit format" with the block
// that "failed to match", or the linter's "# Fix any errors below, if possible." after the
// edit, which aider sends back to the model. A reply with edit blocks is therefore one call,
// edit, whose arguments are its blocks and whose result is what aider says after it, failed
// when the blocks did not apply or the linter found errors. The rest of a reply is the
// model's words. Shell commands the model proposes are not calls: their output is not in the
// file.

// aiderTitle opens each run in the history file.
const aiderTitle = "# aider chat started at"

// isAiderHead says whether a text opens as an aider chat history: with a run's title, or with
// a few lines before it (a sentence saying what the file is, a merge's conflict marker; validation
// round r99b U1: such histories were no transcript), the title at a line's start within the
// first 2 KB and after at most five lines.
func isAiderHead(head []byte) bool {
	if bytes.HasPrefix(head, []byte(aiderTitle)) {
		return true
	}
	at := bytes.Index(head[:min(len(head), 2048)], []byte("\n"+aiderTitle))
	return at >= 0 && bytes.Count(head[:at], []byte("\n")) < 5
}

// aiderLintRun reads aider's report of the lint it ran after an edit ("# Fix any errors
// below, if possible.", then "## Running: <command>" and what it printed): the command, and
// its output without aider's excerpts of the lines it names ("## See relevant line(s) below").
func aiderLintRun(report string) (cmd, out string, ok bool) {
	_, rest, found := strings.Cut(report, "## Running: ")
	if !found {
		return "", "", false
	}
	cmd, out, _ = strings.Cut(rest, "\n")
	if k := strings.Index(out, "## See relevant line"); k >= 0 {
		out = out[:k]
	}
	// The linter's findings, without the source it quotes under each (flake8's
	// --show-source line and caret) and without where in the file each is: the code changes
	// with each edit and moves what follows, and a finding that stays is the failure that
	// stays (validation round r86b M1: F821 undefined name 'k' four times, at column 43, then
	// 44).
	var findings []string
	for line := range strings.SplitSeq(out, "\n") {
		if path, msg, ok := lintFinding(line); ok {
			findings = append(findings, path+": "+msg)
		}
	}
	if len(findings) > 0 {
		out = strings.Join(findings, "\n")
	}
	return strings.TrimSpace(cmd), strings.TrimSpace(out), strings.TrimSpace(cmd) != ""
}

// lintFinding reads a line as a linter's finding, "path:line: message" or
// "path:line:column: message": its file and its message.
func lintFinding(line string) (path, msg string, ok bool) {
	path, rest, found := strings.Cut(strings.TrimSpace(line), ":")
	if !found || path == "" || strings.ContainsAny(path, " \t") {
		return "", "", false
	}
	for range 2 { // the line, then the column if there is one
		digits := 0
		for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
			digits++
		}
		if digits == 0 || digits == len(rest) || rest[digits] != ':' {
			break
		}
		rest, ok = rest[digits+1:], true
	}
	return path, strings.TrimSpace(rest), ok
}

// aiderFailures are what aider says when an edit did not take, or left errors it sends back.
var aiderFailures = []string{
	"did not conform to the edit format", "failed to match", "SearchReplaceNoExactMatch",
	"Fix any errors below", "reflections allowed, stopping", "Malformed", "No filename provided",
	"Unable to", "Invalid file path",
}

type aiderMessage struct {
	role string // "user", "harness", "model" or "test" (aiderTestRun)
	text string
	// of a user message: the benchmark's harness sent it, the test output just run (aiderTestRun)
	testFeedback bool
}

func readAider(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	data = lfLines(data)
	b := newBuilder(FormatAider)
	session := -1
	for _, run := range aiderRuns(string(data)) {
		session++
		b.session = session
		msgs := aiderMessages(run)
		if strings.Contains(run, "with architect edit format") {
			msgs = withoutHandOffs(msgs)
		}
		addAiderRun(b.agent(MainAgent), msgs)
	}
	t := b.done()
	t.Sessions = max(session+1, 1)
	return t, nil
}

// aiderRuns splits the file at each run's title line.
func aiderRuns(s string) []string {
	var runs []string
	start := -1
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], aiderTitle) {
			if start >= 0 {
				runs = append(runs, s[start:i])
			}
			start = i
		}
		nl := strings.IndexByte(s[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	if start >= 0 {
		runs = append(runs, s[start:])
	}
	return runs
}

// aiderMessages splits a run into its messages.
func aiderMessages(run string) []aiderMessage {
	var out []aiderMessage
	add := func(role, line string) {
		if n := len(out); n > 0 && out[n-1].role == role && role != "harness" && role != "test" {
			out[n-1].text += "\n" + line
			return
		}
		out = append(out, aiderMessage{role: role, text: line})
	}
	lines := strings.Split(run, "\n")
	oldLayout := aiderOldLayout(lines)
	inHarness := false // inside an aider message of several lines
	fence := ""        // the closing mark of a fence open in the model's reply
	feedback := ""     // the first line of a test run the benchmark will send back (aiderTestRun)
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if i == 0 && strings.HasPrefix(line, aiderTitle) {
			continue
		}
		if n := len(out); n > 0 && out[n-1].role == "harness" && !inHarness && fence == "" {
			if output, end, ok := aiderTestRun(lines, i); ok {
				out = append(out, aiderMessage{role: "test", text: output})
				feedback, _, _ = strings.Cut(output, "\n")
				i = end
				continue
			}
		}
		if inHarness {
			out[len(out)-1].text += "\n" + strings.TrimRight(line, " ")
			inHarness = !endsAiderMessage(line)
			continue
		}
		if fence != "" && !oldLayout && (!(strings.HasPrefix(line, "#### ") || strings.HasPrefix(line, ">")) || !endsAiderMessage(line)) {
			// Inside a fence of the model's reply, a file's own lines: a Markdown quote in a
			// README written whole ("> **Goal** ...") read as aider speaking, and swallowed
			// the rest of the reply, four more files' edits (validation round r121a U2).
			// Aider's one-line messages and the user's lines end in two spaces: such a line
			// ends a reply cut short inside its fence. (The old layout ends no line so, and
			// its replies are read as before: a reply cut inside its fence by an overloaded
			// API swallowed aider's retries.)
			add("model", line)
			if strings.TrimSpace(line) == fence {
				fence = ""
			}
			continue
		}
		fence = ""
		switch {
		case strings.HasPrefix(line, "#### ") && (oldLayout || strings.HasSuffix(line, "  ")):
			// Aider ends every line it writes of the user's input with two spaces (a
			// Markdown line break); a "#### " line without them is a heading of the model's
			// own reply (`#### client/src/App.js` over a file's edit block), which read as a
			// user turn cut the reply into several calls.
			text := strings.TrimRight(strings.TrimPrefix(strings.TrimPrefix(line, "####"), " "), " ")
			if n := len(out); feedback != "" && n > 0 && out[n-1].role == "test" && strings.TrimSpace(text) == strings.TrimSpace(feedback) {
				out = append(out, aiderMessage{role: "user", text: text, testFeedback: true})
				feedback = ""
				continue
			}
			feedback = ""
			if aiderConfirmAnswer(text) {
				// The user's answer to aider's own question ("Add file to the chat?
				// (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: all"), which aider logs
				// as typed input: aider then sends the files itself. No request of the user's:
				// read as one, it began the task afresh at every file the model asked for
				// (validation round r155c U1: 16 such answers in one session).
				out = append(out, aiderMessage{role: "harness", text: text})
				continue
			}
			add("user", text)
		case strings.HasPrefix(line, "> ") || strings.TrimRight(line, " ") == ">":
			out = append(out, aiderMessage{role: "harness", text: strings.TrimRight(strings.TrimPrefix(strings.TrimPrefix(line, ">"), " "), " ")})
			inHarness = !oldLayout && !endsAiderMessage(line)
		default:
			if n := len(out); strings.TrimSpace(line) == "" && (n == 0 || out[n-1].role != "model") {
				continue // the blank lines around messages
			}
			add("model", line)
			if closer, ok := aiderFenceOpen(line); ok {
				fence = closer
			}
		}
	}
	for i := range out {
		out[i].text = strings.TrimSpace(out[i].text)
	}
	return out
}

// aiderTestRun reads the run of the tests that aider's benchmark harness writes into the
// history after aider's messages about an edit: a fence of their output, opening on the line
// after those messages. The harness sends a failure's output back as the next request (its
// "#### " lines open with the output's first line); a pass ends the run. Read as the model's
// words, a test failing the same way after every edit could not be seen, and the output sent
// back was a user's turn each time, which reset every count (validation round r141c U1). It
// returns the output and the index of the fence's closing line.
func aiderTestRun(lines []string, i int) (output string, end int, ok bool) {
	if strings.TrimRight(lines[i], " ") != "```" {
		return "", 0, false
	}
	for end = i + 1; end < len(lines) && strings.TrimRight(lines[end], " ") != "```"; end++ {
	}
	if end >= len(lines) {
		return "", 0, false
	}
	output = strings.Trim(strings.Join(lines[i+1:end], "\n"), "\n")
	first, _, _ := strings.Cut(output, "\n")
	next := end + 1
	for next < len(lines) && strings.TrimSpace(lines[next]) == "" {
		next++
	}
	switch {
	case next == len(lines):
		return output, end, true // the last run: the tests passed, or the tries are spent
	case strings.HasPrefix(lines[next], "#### ") && strings.TrimSpace(strings.TrimPrefix(lines[next], "####")) == strings.TrimSpace(first):
		return output, end, true
	}
	return "", 0, false
}

// testsSayFailed says whether a test run's last line is its runner's verdict of failure:
// unittest's "FAILED (failures=3)", pytest's "=== 1 failed, 2 passed in 0.1s ===", Go's and
// Jest's "FAIL". The benchmark's last try is sent back to no one, so its output alone says
// how it went.
func testsSayFailed(output string) bool {
	body := strings.TrimRight(output, " \t\r\n")
	last := strings.TrimSpace(body[strings.LastIndexByte(body, '\n')+1:])
	return strings.HasPrefix(last, "FAILED") || strings.HasPrefix(last, "FAIL") ||
		strings.Contains(last, " failed") && strings.HasPrefix(last, "=")
}

// aiderOldLayout says whether a run was written by an aider that ended no line with
// Markdown's line break (v0.50 and before on Windows wrote some lines so): its user lines
// ("#### ...") end without the two spaces today's aider writes, and so may its messages
// ("> ..."), each of them one line. Read the new way, one message swallowed every model reply
// after it (a real history read 2 calls where 24 replies held edits). A run is of the old
// layout when none of its "#### " lines ends with the two spaces but some "> " line ends
// without them.
func aiderOldLayout(lines []string) bool {
	users, unended := 0, 0
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "#### "):
			if strings.HasSuffix(l, "  ") {
				return false
			}
			users++
		case strings.HasPrefix(l, "> ") && !endsAiderMessage(l):
			unended++
		}
	}
	return users > 0 && unended > 0
}

// aiderConfirmAnswer says whether a "#### " line is the user's answer to one of aider's yes/no
// questions as aider logs it: the question, its choices "(Y)es/(N)o...", the default in
// brackets, then ": " and the answer.
func aiderConfirmAnswer(text string) bool {
	_, rest, ok := strings.Cut(text, "? (Y)es/(N)o")
	if !ok {
		return false
	}
	i := strings.LastIndex(rest, "]: ")
	return i >= 0 && strings.Contains(rest[:i], "[")
}

// endsAiderMessage says whether a line ends one of aider's messages: aider strips a message
// of its white space at both ends and ends it with exactly two spaces (a Markdown line
// break), so its last line holds something before them; a line inside it may end in a run
// of spaces of its own (aligned columns), never in exactly two after something else. A line
// of nothing but two spaces is a line of what the message quotes (a file's indented blank
// line in aider's "Did you mean to match some of these actual lines", which cut its answer
// there and read the rest, and the model's next reply, as the model's words: validation
// round r248b).
func endsAiderMessage(line string) bool {
	n := len(line)
	return n >= 3 && line[n-1] == ' ' && line[n-2] == ' ' && line[n-3] != ' '
}

// addAiderRun reads a run's messages into a.
func addAiderRun(a *agentBuf, msgs []aiderMessage) {
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.role {
		case "user":
			switch {
			case m.testFeedback:
				a.harnessUser(m.text)
			case m.text != "":
				a.user(m.text, 0)
			}
			continue
		case "test":
			// The benchmark's harness ran the tests after the edit: failed when it sent their
			// output back as the next request, as it does only for a failure.
			failed := i+1 < len(msgs) && msgs[i+1].testFeedback || testsSayFailed(m.text)
			a.add(loopguard.Call("", "test", nil).WithResult(m.text, failed))
			continue
		case "harness":
			if !aiderUsage(&a.usage, m.text) {
				a.text("harness", m.text, "", 0)
			}
			continue
		}
		// The model's reply, and what aider said after it.
		var said, asked []string // what aider said after the reply; what it asked its user
		// What aider said after the reply that is not what the edit did (its bookkeeping in git,
		// its end of the retries): said after the reply, so kept for after its call (validation
		// round r248b: "Only 3 reflections allowed, stopping." came before the reply it ends).
		var after []string
		var chore aiderChore
		j := i + 1
		for ; j < len(msgs) && msgs[j].role == "harness"; j++ {
			if aiderUsage(&a.usage, msgs[j].text) {
				continue // the model call's accounting, not what the edit did
			}
			if chore.takes(msgs[j].text) {
				after = append(after, msgs[j].text)
				continue // aider's own bookkeeping in git, not what the edit did
			}
			if aiderStops(msgs[j].text) {
				after = append(after, msgs[j].text)
				continue // aider ending its retries: not what this edit did
			}
			if strings.Contains(msgs[j].text, "(Y)es/(N)o") {
				// Aider asking its user ("Create new file? (Y)es/(N)o [Yes]: y", after the
				// file's name alone; "Attempt to fix lint errors?"): the answer lets the edit
				// go on, and is not what it did. Kept in the result, the first edit of a
				// file answered otherwise than the edits after it, and four edits leaving
				// one lint error were three alike (validation round r86b M1).
				if n := len(said); n > 0 && !strings.ContainsAny(strings.TrimSpace(said[n-1]), " \t\n") {
					asked = append(asked, said[n-1])
					said = said[:n-1]
				}
				asked = append(asked, msgs[j].text)
				continue
			}
			said = append(said, msgs[j].text)
		}
		result := strings.Join(said, "\n")
		blocks, words, file := aiderEditBlocks(m.text)
		applied := strings.Contains(result, "Applied edit to")
		// An edit aider applied and then linted: the lint's complaint is what its command
		// printed, not the edit's failure (aider sends it back to the model as a new request).
		// Read as the edit failing, a repair that moved from one parse error to another was
		// "edit rejected × 4", while pylint failing alike on README.md after every applied
		// edit could not be seen for what it is, one command failing the same way across
		// changes (validation round r99b U2, F1, M1–M6).
		var lint *loopguard.Event
		if applied {
			if k := strings.Index(result, "# Fix any errors below"); k >= 0 {
				if cmd, out, ok := aiderLintRun(result[k:]); ok {
					result = strings.TrimSpace(result[:k])
					e := loopguard.Call("", "lint", marshalArgs(map[string]string{"command": cmd})).WithResult(out, true)
					lint = &e
				}
			}
		}
		failed := slices.ContainsFunc(aiderFailures, func(f string) bool { return strings.Contains(result, f) })
		if blocks == "" || !(applied || failed || strings.Contains(m.text, "<<<<<<< SEARCH")) {
			a.text("model", m.text, "", 0)
			for _, s := range slices.Concat(after, said, asked) {
				a.text("harness", s, "", 0)
			}
			i = j - 1
			continue
		}
		a.text("model", words, "", 0)
		args := map[string]string{"blocks": blocks}
		if file != "" {
			// The file the reply edits, as an editor names it: edits of one file rejected
			// again and again are one failure whatever each rejection says (validation round
			// r79b M3: one wrong SEARCH line sent four times, the last time with the lines
			// after it, went untold).
			args["path"] = file
		}
		if call := loopguard.Call("", "edit", marshalArgs(args)); applied || failed {
			a.add(call.WithResult(result, failed))
		} else {
			// Edit blocks aider neither applied nor refused (a reply in ask mode, or to a
			// file the user did not add): what came of them is not in the history, and what
			// aider said next ("Processing your request...") is not their answer (validation
			// round r182a G3).
			a.add(call)
		}
		if lint != nil {
			a.add(*lint)
		}
		for _, s := range append(after, asked...) {
			a.text("harness", s, "", 0)
		}
		i = j - 1
	}
}

// withoutHandOffs takes out of an architect-mode run aider's hand-offs of the architect's reply
// to the editor model: aider logs each as a user message ("#### " lines) repeating the reply
// word for word. Nobody typed it: read as a user turn it doubled each reply and reset every
// rule between the editor's attempts. A reply with "#### " headings of its own was read as
// several messages, the headings as user messages: the reply is the longest run of messages
// before the hand-off that, headings restored, is the hand-off's text, and its headings become
// the model's words again. (Only in runs that announce architect mode: elsewhere a user may
// well type the model's words back.)
func withoutHandOffs(msgs []aiderMessage) []aiderMessage {
	var out []aiderMessage
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.role != "user" {
			out = append(out, m)
			continue
		}
		start := replyHandedOff(out, m.text)
		if start < 0 {
			out = append(out, m)
			continue
		}
		// The architect's reply, whole again, in place of its pieces; aider's notes after it
		// (the token count) stay.
		var reply []string
		var notes []aiderMessage
		for _, p := range out[start:] {
			switch p.role {
			case "model":
				reply = append(reply, p.text)
			case "user":
				reply = append(reply, "#### "+p.text)
			default:
				notes = append(notes, p)
			}
		}
		out = append(append(out[:start], aiderMessage{role: "model", text: strings.Join(reply, "\n\n")}), notes...)
	}
	return out
}

// replyHandedOff returns where, in the messages before a user message of text handOff, the
// architect's reply it repeats starts, or -1: the earliest model message from which the
// model and user messages up to the end (aider's notes aside), headings restored, hold the
// hand-off's lines.
func replyHandedOff(before []aiderMessage, handOff string) int {
	found := -1
	var pieces []string
	// The lengths compared leave out blank lines and the spaces at the lines' ends, as
	// sameLinesTrimmed does: a long reply with 42 blank paragraphs' breaks ran past the
	// hand-off's raw length before it was compared (validation round r121a U4: 34 of 72
	// architect runs kept the hand-off as a user's turn).
	handLen, piecesLen := linesLen(handOff), 0
	for j := len(before) - 1; j >= 0; j-- {
		switch before[j].role {
		case "harness":
			continue
		case "user":
			pieces = append(pieces, "#### "+before[j].text)
			piecesLen += len("#### ") + linesLen(before[j].text)
			continue
		}
		// Aider hands the editor the architect's reply without its reasoning (validation round
		// r132d U2: a plan after a thinking block was read again as the user's turn).
		text := withoutReasoning(before[j].text)
		pieces = append(pieces, text)
		if piecesLen += linesLen(text); piecesLen > handLen+len(pieces)*8 {
			break
		}
		joined := make([]string, len(pieces))
		for k, p := range pieces {
			joined[len(pieces)-1-k] = p
		}
		if sameLinesTrimmed(strings.Join(joined, "\n"), handOff) {
			found = j
		}
	}
	return found
}

// withoutReasoning returns a model message without the reasoning block it opens with: aider's
// own tag (`<thinking-content-7bbeb8e1…>` … `</thinking-content-7bbeb8e1…>`), or a model's
// `<think>` or `<reasoning>` block.
func withoutReasoning(text string) string {
	rest := strings.TrimLeft(text, " \t\r\n")
	if !strings.HasPrefix(rest, "<") {
		return text
	}
	end := strings.IndexByte(rest, '>')
	if end < 0 {
		return text
	}
	tag := rest[1:end]
	if tag != "think" && tag != "reasoning" && !strings.HasPrefix(tag, "thinking-content-") {
		return text
	}
	closeAt := strings.Index(rest, "</"+tag+">")
	if closeAt < 0 {
		return text
	}
	return strings.TrimLeft(rest[closeAt+len("</"+tag+">"):], " \t\r\n")
}

// linesLen is how long s is without its blank lines and the white space at its lines' ends.
func linesLen(s string) int {
	n := 0
	for line := range strings.Lines(s) {
		n += len(strings.TrimRight(line, " \t\r\n"))
	}
	return n
}

// sameLinesTrimmed says whether a and b hold the same lines, blank lines and the spaces at the
// lines' ends aside: aider writes the user's lines with a Markdown line break (two spaces)
// after each, and a reply read in pieces has lost the blank lines between them.
func sameLinesTrimmed(a, b string) bool {
	next := func(s string) (line, rest string) {
		for s != "" {
			line, s, _ = strings.Cut(s, "\n")
			if line = strings.TrimRight(line, " \t"); line != "" {
				return line, s
			}
		}
		return "", ""
	}
	for {
		var la, lb string
		la, a = next(a)
		lb, b = next(b)
		if la != lb {
			return false
		}
		if la == "" {
			return true
		}
	}
}

// aiderEditBlocks splits a reply into its edit blocks (the SEARCH/REPLACE blocks with the
// file name before each, else the fenced blocks with the line before each) and its words, and
// names the file the blocks edit when they all edit one.
func aiderEditBlocks(text string) (blocks, words, file string) {
	lines := strings.Split(text, "\n")
	var blk, rest []string
	files := 0 // blocks whose file is named; file is "" once two name different files
	sr := strings.Contains(text, "<<<<<<< SEARCH")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		closer, fenced := aiderFenceOpen(line)
		start := sr && strings.HasPrefix(strings.TrimSpace(line), "<<<<<<< SEARCH") ||
			!sr && fenced && i+1 < len(lines)
		if !start {
			rest = append(rest, line)
			continue
		}
		// The file name is the last non-blank line before the block (and a fence opening
		// it, for SEARCH/REPLACE in fences).
		for k := len(rest) - 1; k >= 0 && len(rest)-k <= 2; k-- {
			t := strings.TrimSpace(rest[k])
			if _, opens := aiderFenceOpen(t); t == "" || opens {
				rest = rest[:k]
				continue
			}
			if !aiderNamesFile(t) {
				// Words before a block ("Here's the diff to fix this issue:", "### Updated
				// App.js") are the model's, not the edit's: kept in the arguments, one diff
				// sent twice with two lead-ins was two edits (validation round r182a G5).
				break
			}
			// A path, however its separators are spelled: aider takes Assets\Core\Item.cs
			// and Assets/Core/Item.cs for the same file, and a model on Windows writes
			// either (one failing edit sent three times, once with '/', was three edits).
			name := strings.ReplaceAll(t, "\\", "/")
			blk = append(blk, name)
			if files == 0 {
				file = name
			} else if name != file {
				file = ""
			}
			files++
			rest = rest[:k]
			break
		}
		end := closer
		if sr {
			end = ">>>>>>> REPLACE"
		}
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), end) {
			j++
		}
		blk = append(blk, lines[i:min(j+1, len(lines))]...)
		i = j
		if sr && i+1 < len(lines) && aiderFenceClose(lines[i+1]) {
			i++ // the fence that closes a SEARCH/REPLACE block
		}
	}
	if len(blk) == 0 {
		return "", text, ""
	}
	if !sr {
		file = "" // the line before a fenced block may be words, not a file's name
	}
	return strings.Join(blk, "\n"), strings.TrimSpace(strings.Join(rest, "\n")), file
}

// aiderNamesFile says whether the line before an edit block names the file it edits: one word
// with a '.', '/' or '\\' in it, once the marks aider itself strips from a file's name are
// off ("### src/app.py", "`app.py`:", "**app.py**").
func aiderNamesFile(line string) bool {
	t := strings.Trim(strings.TrimSpace(line), "#*`: ")
	return t != "" && !strings.ContainsAny(t, " \t") && strings.ContainsAny(t, "./\\")
}

// aiderTagFences are the fences aider sets code in besides backticks, opening and closing
// mark: it takes the first fence whose marks appear in none of the files in the chat (three
// backticks, four, then these tags), so a run whose files hold Markdown has its edits in four
// backticks or in <source> ... </source>.
var aiderTagFences = [...][2]string{{"<source>", "</source>"}, {"<code>", "</code>"},
	{"<pre>", "</pre>"}, {"<codeblock>", "</codeblock>"}, {"<sourcecode>", "</sourcecode>"}}

// aiderFenceOpen says whether line opens a fenced block, and with what mark it closes. A
// backtick fence may carry anything after it ("```python"); a tag fence stands alone on its
// line, or with a language's name only ("<source>python"), so that a line of HTML in the
// model's words is not taken for one.
func aiderFenceOpen(line string) (closer string, ok bool) {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "```") {
		n := len(t) - len(strings.TrimLeft(t, "`"))
		return t[:n], true // a fence of four backticks holds blocks of three: it ends at four
	}
	if !strings.HasPrefix(t, "<") {
		return "", false
	}
	for _, f := range aiderTagFences {
		if lang, ok := strings.CutPrefix(t, f[0]); ok && isLanguageName(lang) {
			return f[1], true
		}
	}
	return "", false
}

// aiderFenceClose says whether line is a fence's closing mark and nothing else: a run of
// three backticks or more, or a closing tag.
func aiderFenceClose(line string) bool {
	t := strings.TrimSpace(line)
	if len(t) >= 3 && strings.Trim(t, "`") == "" {
		return true
	}
	for _, f := range aiderTagFences {
		if t == f[1] {
			return true
		}
	}
	return false
}

// isLanguageName says whether s may name a language after a fence: empty, or letters,
// digits, '+', '#', '-' and '_' only ("python", "c++", "objective-c").
func isLanguageName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '#' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// aiderUsage reads aider's accounting of a model call ("Tokens: 2.1k sent, 120 received.
// Cost: $0.0081 message, $0.0171 session.") into u, and says whether the text was one.
func aiderUsage(u *Usage, text string) bool {
	rest, ok := strings.CutPrefix(text, "Tokens: ")
	if !ok {
		return false
	}
	fields := strings.Fields(rest)
	for k := 0; k+1 < len(fields); k++ {
		switch strings.TrimRight(fields[k+1], ".,") {
		case "sent":
			u.InputTokens += aiderCount(fields[k])
		case "received":
			u.OutputTokens += aiderCount(fields[k])
		case "message":
			if c, err := strconv.ParseFloat(strings.TrimPrefix(fields[k], "$"), 64); err == nil {
				u.CostUSD += c
			}
		}
	}
	return true
}

// aiderCount reads a token count as aider prints it: 120, 2.1k, 1.2M.
func aiderCount(s string) int64 {
	s = strings.TrimRight(s, ".,")
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1e3, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "M"):
		mult, s = 1e6, strings.TrimSuffix(s, "M")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 {
		return 0
	}
	return int64(f * mult)
}

// aiderChore follows aider reporting on its own git bookkeeping: the commit it makes after
// each edit ("Unable to commit: Cmd('git') failed due to: exit code(1)", then git's command
// line and output, quoted over several lines), the files it adds to git ("Unable to add
// <path>: Cmd('git') failed ...", the same way) and the files it lists ("Unable to list files in
// git repo: BadObject: ...", "Is your git repo corrupted?"). The edit was applied or not
// whatever git said after it: a repository git could not read made four edits, two of them
// applied, one edit failing four times (validation round r63b F1).
type aiderChore struct {
	commit bool // an "Unable to commit:" was read: git's command line and output follow
	quoted bool // inside git's quoted output ("stdout: '...", up to the line ending in "'")
}

// takes says whether message text is part of aider's git bookkeeping.
func (c *aiderChore) takes(text string) bool {
	switch {
	case c.quoted:
		c.quoted = !strings.HasSuffix(strings.TrimSpace(text), "'")
		return true
	case strings.HasPrefix(text, "Unable to commit:"),
		strings.HasPrefix(text, "Unable to add ") && strings.Contains(text, ": Cmd('git') failed"):
		// (git refusing to add a file the edit wrote, one .gitignore ignores: the edit was
		// written all the same; validation round r121a U3)
		c.commit = true
		return true
	case strings.HasPrefix(text, "Unable to list files in git repo"), strings.HasPrefix(text, "Is your git repo corrupted?"):
		return true
	case c.commit && (strings.HasPrefix(text, "cmdline: git ") || strings.HasPrefix(text, "Co-authored-by: aider") || strings.TrimSpace(text) == ""):
		return true // the command line, its commit message running on to aider's trailer
	case c.commit && (strings.HasPrefix(text, "stdout: '") || strings.HasPrefix(text, "stderr: '")):
		body := strings.TrimSpace(text[len("stdout: '"):])
		c.quoted = !strings.HasSuffix(body, "'")
		return true
	}
	c.commit = false
	return false
}

// aiderStops says whether a message is aider giving up on its retries after an edit ("Only 3
// reflections allowed, stopping.", and its advice to /undo): said after the last failed
// attempt only, it would make that attempt's result differ from the same failure before it.
func aiderStops(text string) bool {
	return strings.HasPrefix(text, "Only ") && strings.Contains(text, "reflections allowed, stopping") ||
		strings.HasPrefix(text, "You can use /undo to undo and discard each aider commit")
}
