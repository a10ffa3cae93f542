package loopguard

// What a call's answer says once what its host wrote around it is taken off (a prompt under
// the output, status lines, a transfer meter, an execution header), and the keys under which
// a call types into a terminal: the answer the progress detector digests and compares.

import (
	"bytes"
	"slices"
	"strings"
	"unsafe"

	"github.com/loopguard/loopguard/internal/codexcell"
)

// digestResult digests a call's result. A command's output that a tool heads with how the
// command ran (Codex: "Chunk ID: …", "Wall time: …", "Process exited with code 0", "Output:")
// is digested as two parts: the header counts in the result's identity (an exit status that
// changes is a changed result) but not in what the answer says, so that six commands printing
// six different one-word answers under the same header are not "the same answer", an empty
// output is too short to compare, and a failure's first line is its own.
// args are the call's arguments without their captions (callID): what the model asked of the
// tool, which its answer may restate. A caption ("description": why the model runs it) is
// for people; masking its words in the answer made two alike failures of one command, their
// captions worded apart, look different.
func (s *progressState) digestResult(c *observedCall, args []byte) digest {
	result, header := c.result, ""
	if n := execHeaderEnd(result); n > 0 {
		header, result = result[:n], result[n:]
	}
	var head digest
	if header != "" {
		head = s.dg.digest(header, false, false)
	}
	result, s.meterBuf = withoutTransferMeter(result, s.meterBuf)
	result = withoutTrailers(result)
	echo := len(result) > 0 && len(result) < longTextBytes // see digest: short answers only
	if echo {
		s.dg.setEcho(args)
	}
	dg := s.dg.digest(result, echo, s.spoke)
	c.answer, c.answerArgs = result, args
	if header != "" {
		dg.exact, dg.masked = combine(dg.exact, head.exact), combine(dg.masked, head.exact)
	}
	return dg
}

// withoutTrailers returns result without what the harness or the terminal wrote after the
// command's output about itself: SWE-agent's status lines (withoutStatusLines) and a shell's
// prompt that a terminal capture kept (withoutPromptLines).
func withoutTrailers(result string) string {
	return withoutStatusLines(withoutPromptLines(result))
}

// promptWindow is how much of a result's end withoutPromptLines looks at for a prompt's glyph.
const promptWindow = 512

// withoutPromptLines returns result without the shell prompt a terminal capture kept after the
// command's output: the lines at its end of which at least one holds a Powerline glyph
// (U+E0A0 to U+E0D7, the separators and icons of powerlevel10k, agnoster, oh-my-posh), with
// the lines of the prompt's frame around them (`╭─`, `╰─`, a `❯` alone). Such a prompt says
// where the shell stands: the directory, the git branch with counters of changed files, the
// last command's status and time, the clock. It changes with every run (the agent's own edits
// move the git counters, and the fill between the prompt's two sides widens or narrows with
// them), so a test failing four times alike across edits, its output captured by Cursor with
// the user's prompt under it, was four different answers and went untold (validation round
// r185b M1). Programs do not print those glyphs, which only a patched font can show; a frame
// line alone, with no glyph, is output (a table's border) and stays.
func withoutPromptLines(result string) string {
	tail := result[max(0, len(result)-promptWindow):]
	if strings.IndexByte(tail, 0xEE) < 0 {
		return result // almost every answer: one pass over its last bytes
	}
	cut := trailingLinesStart(result, isPromptLine)
	if cut <= 0 || !hasPowerlineGlyph(result[cut:]) || strings.TrimSpace(result[:cut]) == "" {
		return result
	}
	return result[:cut]
}

// isPromptLine says whether a line may be part of a shell's prompt: it holds a Powerline
// glyph, or is only the prompt's frame.
func isPromptLine(line string) bool { return hasPowerlineGlyph(line) || isPromptFrame(line) }

// trailingLinesStart returns where the lines at result's end that are all trailer lines (white
// space between them aside) begin, or -1 when its last line is none: the block a harness or a
// terminal wrote under a command's output (withoutStatusLines, withoutPromptLines).
func trailingLinesStart(result string, trailer func(line string) bool) int {
	cut := -1
	for end := len(result); ; {
		for end > 0 && isSpaceByte(result[end-1]) {
			end--
		}
		if end == 0 {
			return cut
		}
		start := strings.LastIndexByte(result[:end], '\n') + 1
		if !trailer(result[start:end]) {
			return cut
		}
		cut, end = start, start
	}
}

// hasPowerlineGlyph says whether line holds a character of U+E0A0 to U+E0D7 (UTF-8 EE 82 A0
// to EE 83 97), the Powerline range of the private use area that prompt themes draw with.
func hasPowerlineGlyph(line string) bool {
	for i := strings.IndexByte(line, 0xEE); i >= 0 && i+2 < len(line); {
		if b1, b2 := line[i+1], line[i+2]; b1 == 0x82 && b2 >= 0xA0 || b1 == 0x83 && b2 <= 0x97 {
			return true
		}
		next := strings.IndexByte(line[i+1:], 0xEE)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// isPromptFrame says whether line is only a prompt's frame: box-drawing characters (U+2500 to
// U+257F) and the prompt's sign (❯, $, %, #, >) between spaces, with a box-drawing character or
// a ❯ among them.
func isPromptFrame(line string) bool {
	frame := false
	for _, r := range line {
		switch {
		case r >= 0x2500 && r <= 0x257F || r == '❯':
			frame = true
		case r == '$' || r == '%' || r == '#' || r == '>' || r == ' ' || r == '\t':
		default:
			return false
		}
	}
	return frame
}

// statusLineHeads open the lines SWE-agent 0.x writes under every answer, about itself: the
// file its editor has open, the shell's directory, an interactive session.
var statusLineHeads = [...]string{"(Open file: ", "(Current directory: ", "(Interactive session: "}

// withoutStatusLines returns result without the status lines SWE-agent 0.x ends every answer
// with ("(Open file: /w/a.py)", "(Current directory: /w)", then its prompt "bash-$"), where an
// export keeps them in the answer. They say where the harness stands, not what the call
// brought: the same "File dandi/fields.py not found" after each of fifteen scripts written
// between its runs was fifteen different answers, each naming the script opened last, and
// went untold (validation round r169b). Only a block of such lines at the very end is taken
// off; a result that is nothing else is left as it is.
func withoutStatusLines(result string) string {
	end := len(result)
	for end > 0 && isSpaceByte(result[end-1]) {
		end--
	}
	if end == 0 || result[end-1] != '$' && result[end-1] != ')' {
		return result // almost every answer: one byte looked at
	}
	cut := trailingLinesStart(result, isStatusLine)
	if cut <= 0 || strings.TrimSpace(result[:cut]) == "" {
		return result
	}
	return result[:cut]
}

// isStatusLine says whether a line is one of SWE-agent's status lines or its prompt.
func isStatusLine(line string) bool {
	line = strings.TrimSpace(line)
	return line == "bash-$" || strings.HasSuffix(line, ")") && hasStatusHead(line)
}

// isSpaceByte says whether b is white space: a space, tab or line break.
func isSpaceByte(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func hasStatusHead(line string) bool {
	for _, h := range statusLineHeads {
		if strings.HasPrefix(line, h) {
			return true
		}
	}
	return false
}

// sweAgentViews says whether a call's command line runs one of SWE-agent's file viewers
// (open, goto, scroll_up, scroll_down), whose answer is a window of the file's text.
func sweAgentViews(args []byte) bool {
	_, line, _, ok := commandLine(args)
	if !ok {
		return false
	}
	prog, _ := spaceWord(line, 0)
	switch string(prog) {
	case "open", "goto", "scroll_up", "scroll_down":
		return true
	}
	return false
}

// curlMeterHead is in the first line of the progress meter curl writes to its error output
// while a transfer runs.
const curlMeterHead = "% Total    % Received % Xferd"

// withoutTransferMeter returns result without curl's progress meter: its two heading lines
// and the rows of byte counts, speeds and times under them. The meter says how the transfer
// went (the speed differs at every run, "151k", then "189k"), not what came back: kept, the
// same answer fetched again was new each time (a locked API asked the same thing three times
// went untold). buf is scratch space for the text around a meter; the result is returned as
// it is when it has none, as almost every result has not.
func withoutTransferMeter(result string, buf []byte) (string, []byte) {
	at := strings.Index(result, curlMeterHead)
	if at < 0 {
		return result, buf
	}
	start := strings.LastIndexByte(result[:at], '\n') + 1
	if strings.Trim(result[start:at], " \r") != "" {
		return result, buf // the heading's words inside a line of something else
	}
	end := len(result)
	rest := result[at:]
	for k := 0; rest != ""; k++ {
		line, next := rest, ""
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			line, next = rest[:nl], rest[nl+1:]
		}
		// the heading, its second line (Dload, Upload, ...), then rows of figures
		if k == 1 && !strings.Contains(line, "Dload") {
			return result, buf
		}
		if k > 1 && !meterRow(line) {
			end = len(result) - len(rest)
			break
		}
		rest = next
	}
	buf = append(append(buf[:0], result[:start]...), result[end:]...)
	return unsafe.String(unsafe.SliceData(buf), len(buf)), buf
}

// meterRow says whether a line is a row of curl's meter (or blank): figures, their units,
// times (--:--:--, 0:00:01) and the carriage returns between updates.
func meterRow(line string) bool {
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case '0' <= c && c <= '9', c == ' ', c == '\t', c == '\r', c == '-', c == ':', c == '.',
			c == 'k', c == 'M', c == 'G', c == 'T':
		default:
			return false
		}
	}
	return true
}

// execHeaderEnd returns where the output starts in a result headed the way Codex heads a
// command's output ("Chunk ID: …" or "Exit code: …", then lines up to "Output:"; a tool of
// its JavaScript REPL's, "Wall time: 2.05 seconds" then "Output:", whose header read as four
// different errors' first line made them one failure (validation round r113b F1); a code-mode
// cell's "Script completed" or "Script failed", the wall time, "Output:"), as Cline
// does ("Command executed successfully …"), or labelled the way OpenHands' trajectories and
// the datasets made from them label every answer ("OBSERVATION:" on a line of its own, or
// ReAct's "Observation:" before the text), or 0. The label is the harness's, the same over
// every answer: read as the answer's opening, it hid an editor's "ERROR:" under it, and six
// replacements rejected in seven calls went untold (validation round r67d M2).
func execHeaderEnd(result string) int {
	if len(result) == 0 || !headerFirsts[result[0]] {
		return 0 // most answers: one look
	}
	if n := observationLabelEnd(result); n > 0 {
		return n
	}
	if n, _ := rcLine(result); n > 0 {
		return n
	}
	if !slices.ContainsFunc(execHeaders[:], func(h string) bool { return strings.HasPrefix(result, h) }) {
		return 0
	}
	const mark = "\nOutput:\n"
	if i := strings.Index(result[:min(len(result), 512)], mark); i > 0 {
		return i + len(mark)
	}
	if strings.HasSuffix(result, "\nOutput:") { // nothing printed, and no newline after the label
		return len(result)
	}
	return 0
}

// execHeaders open the headers execHeaderEnd reads up to their "Output:" line.
var execHeaders = [...]string{"Chunk ID: ", "Exit code: ", "Wall time: ", "Command executed successfully",
	"Command failed with exit code", codexcell.Completed, codexcell.Failed}

// headerFirsts flags the first bytes of the headers execHeaderEnd knows: execHeaders and the
// observation labels (observationLabelEnd).
var headerFirsts = func() (t [256]bool) {
	for _, h := range execHeaders {
		t[h[0]] = true
	}
	t['O'] = true // "OBSERVATION:", "Observation:"
	t['r'] = true // "rc=1" (rcLine)
	return t
}()

// rcLine reads a result whose first line is only a return code, "rc=0" or "rc=1", as a
// harness heads a command's output with the command's exit status (a Java migration agent's
// harness: "rc=0" alone for a search that found nothing, "rc=1" over a build's errors). It
// returns where the output starts (after the line's end, or the text's end), and whether the
// code is not 0; 0 and false when the first line is no such line. Read as output, "rc=0" made
// every empty answer a one-word answer, and "rc=1" no failure (validation round r258a).
func rcLine(result string) (end int, nonzero bool) {
	if len(result) < 4 || result[0] != 'r' || result[1] != 'c' || result[2] != '=' {
		return 0, false
	}
	i := 3
	if result[i] == '-' {
		i++
	}
	d := i
	for i < len(result) && result[i]-'0' < 10 {
		i++
	}
	if i == d || i-d > 3 {
		return 0, false // no number, or none an exit status is
	}
	nonzero = strings.Trim(result[d:i], "0") != ""
	if i < len(result) && result[i] == '\r' {
		i++
	}
	switch {
	case i == len(result):
		return i, nonzero
	case result[i] == '\n':
		return i + 1, nonzero
	}
	return 0, false // more on the line: not a status line
}

// observationLabelEnd returns where the text starts after an "OBSERVATION:" or "Observation:"
// label that opens a result (and the spaces and line end after it), or 0.
func observationLabelEnd(result string) int {
	if len(result) < len("OBSERVATION:") || result[0] != 'O' || // most answers: one look
		!strings.HasPrefix(result, "OBSERVATION:") && !strings.HasPrefix(result, "Observation:") {
		return 0
	}
	i := len("OBSERVATION:")
	for i < len(result) && (result[i] == ' ' || result[i] == '\t' || result[i] == '\r') {
		i++
	}
	if i < len(result) && result[i] == '\n' {
		i++
	}
	return i
}

// codeSendsNoKeys says whether a cell of code that calls the agent's tools (Codex's code
// mode: `await tools.write_stdin({session_id: 4, chars: ""})`) only waits on a running
// command: it writes nothing to it and runs nothing else.
func codeSendsNoKeys(code []byte) bool {
	i := bytes.Index(code, writeStdinCall)
	if i < 0 || bytes.Contains(code, execCommandCall) || bytes.Contains(code, applyPatchCall) {
		return false
	}
	rest := code[i+len(writeStdinCall):]
	k := bytes.Index(rest, charsKey)
	if k < 0 {
		return false
	}
	rest = rest[k+len(charsKey):]
	if len(rest) > 0 && (rest[0] == '"' || rest[0] == '\'') {
		rest = rest[1:] // a quoted key
	}
	rest = bytes.TrimLeft(rest, " \t")
	if len(rest) == 0 || rest[0] != ':' {
		return false
	}
	rest = bytes.TrimLeft(rest[1:], " \t")
	return bytes.HasPrefix(rest, []byte(`""`)) || bytes.HasPrefix(rest, []byte(`''`))
}

// namesTypingKey says whether a call's arguments name one of typingKeys.
func namesTypingKey(args []byte) bool {
	for _, k := range typingKeys {
		if bytes.Contains(args, k) {
			return true
		}
	}
	return false
}

var (
	writeStdinCall  = []byte("write_stdin(")
	execCommandCall = []byte("exec_command(")
	applyPatchCall  = []byte("apply_patch(")
	charsKey        = []byte("chars")
)

// actionKey is where a tool with sub-commands names the one called; Antigravity's
// manage_task spells it actionKeyTitle.
var actionKey, actionKeyTitle = []byte(`"action"`), []byte(`"Action"`)

// typingKeys are the keys under which a call types into a terminal or a running command
// (see argKeys.sendsNoKeys): Terminus's {"keystrokes": "", "duration": 30}, Codex's
// write_stdin {"session_id": 4, "chars": ""}, OpenHands' execute_bash {"command": ""} ("can
// be empty to view additional logs" of a command still running). The first of them decides.
var typingKeys = [][]byte{[]byte(`"keystrokes"`), []byte(`"chars"`), []byte(`"command"`), []byte(`"cmd"`)}
