package transcript

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// mini-swe-agent's console: what `mini` prints while it runs, as a terminal recording keeps it
// (Terminal-Bench's sessions/agent.log, where it is the only record of an installed agent's
// run) or as people paste it. Each message is printed under a line naming who speaks:
//
//	System:
//	You are a helpful assistant that can interact with a computer. ...
//
//	User:
//	Please solve this issue: ...
//
//	mini-swe-agent (step 1, $0.00):
//	THOUGHT: ...
//	```bash
//	ls -la
//	```
//
//	User:
//	<returncode>0</returncode>
//	<output>
//	...
//	</output>
//	────────────────────────────────────────
//
// These are the messages of its .traj.json, so they are read as it is (buildMini): every
// step one call, its result the next User message, failed on a non-zero <returncode>, a reply
// without exactly one bash block a refusal of its form.
//
// A terminal recording holds the terminal's control sequences: colours, a spinner redrawn in
// place ("⠙ Waiting for the LM to respond..." then a carriage return and an erase), a line
// erased from above. Each line is rendered as the screen would show it last: the text after
// its last carriage return, escape sequences dropped, the spinner's lines left out. What the
// program prints between a message's closing rule and the next message (its retries of the
// model's API) is not part of a message. The console wraps long lines at the terminal's
// width, so a command longer than a line is read with the breaks the console put in it: the
// same command sent again is broken the same way.

// miniConsoleBanner opens a run's console output.
const miniConsoleBanner = "This is mini-swe-agent version"

// miniStepHeader matches the line before each of the model's replies. Compiled on first use:
// hooks link this package but never read transcripts.
var miniStepHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^mini-swe-agent \(step [0-9]+, \$[0-9.]+\):$`)
})

func readMiniConsole(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	msgs, ok := miniConsoleMessages(data)
	if !ok {
		// A text that names mini-swe-agent (its README, a log of installing it) and is not its
		// console: no banner and no step.
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: not JSON", ErrUnknownFormat)}
	}
	t := buildMini(&docObject{Messages: msgs})
	t.Format = FormatMiniConsole
	return t, nil
}

// miniConsoleMessages renders a console recording and splits it into the messages printed
// under their speakers' lines, from the run's banner on, or without one from the speaker line
// before its first step (ok false when there is no banner and no step: the text is not mini's
// console).
//
// What mini prints itself is told from what a message holds: in a recording, mini's speaker
// lines and rules are coloured and a message's text never is (it is printed without markup);
// in pasted text, a line inside a message's fenced block or a command's <output> is the
// message's. mini-swe-agent 2 speaks the same way with tool calls: the command in a plain
// fence, its answer under "Tool:" as "<returncode>", the code, "<output>" and the output, and
// an "Exit:" message last; such a run is read as the 1.x run it stands for.
func miniConsoleMessages(data []byte) (msgs []msg, ok bool) {
	raws := bytes.Split(data, []byte("\n"))
	recording := bytes.IndexByte(data, 0x1b) >= 0
	rendered := make([]string, len(raws))
	for i := range raws {
		rendered[i] = renderTerminalLine(raws[i])
	}
	start, firstStep := -1, -1
	for i := range raws {
		if strings.Contains(rendered[i], miniConsoleBanner) {
			start = i
			break
		}
		if miniStepHeader().MatchString(rendered[i]) {
			firstStep = i
			break
		}
	}
	if start < 0 && firstStep < 0 {
		return nil, false
	}
	if start < 0 {
		// Pasted from a message before the first step, the task's: the speaker lines just
		// above the step belong to the run.
		start = firstStep
		for i := firstStep - 1; i >= 0; i-- {
			if r := rendered[i]; r == "System:" || r == "User:" {
				start = i
			}
		}
	}
	v2 := strings.Contains(rendered[start], miniConsoleBanner+" 2.")

	var body []string
	role := ""
	closed := false // the message's closing rule was printed: what follows is the program's
	inFence, inOutput := false, false
	replied := false // the assistant's block was closed: its command is whole
	flush := func() {
		if role != "" {
			content := strings.Trim(strings.Join(body, "\n"), "\n")
			switch {
			case role == "tool":
				role, content = "user", miniToolObservation(content)
			case role == "assistant" && v2:
				content = miniPlainFenceAsBash(content)
			}
			msgs = append(msgs, msg{Role: role, Content: content})
		}
		role, body, closed, inFence, inOutput, replied = "", body[:0], false, false, false, false
	}
	prompted := false // the last line was one of mini's prompts: its answer line follows
	for i := start; i < len(raws); i++ {
		line := rendered[i]
		// A line mini printed itself: coloured in a recording; in pasted text, outside what a
		// message holds.
		own := bytes.IndexByte(raws[i], 0x1b) >= 0 || !recording && !inFence && !inOutput
		if !recording && inFence && !inOutput {
			// A fence in pasted text is the model's (or a prompt's example) and is not always
			// closed: a reply whose block never closes, or closes on a line of code ("PY```"),
			// is refused for its form, and the message that refuses it is mini's all the same
			// (validation round r162b U1: ten runs lost 60 steps, the refusal's own example
			// block taken to close the reply's). A rule is mini's: no command is one. A
			// speaker's line in a reply's open block is mini's when it is the only one before
			// the rule that ends the answer; a heredoc writing "User:" is followed by mini's.
			own = isRule(line) || role == "assistant" && (line == "User:" || line == "Tool:") && miniAnswerFollows(rendered, i+1)
		}
		switch {
		case own && isMiniSpeaker(line):
			flush()
			role = strings.ToLower(strings.TrimSuffix(line, ":"))
			continue
		case own && miniStepHeader().MatchString(line):
			flush()
			role = "assistant"
			continue
		case own && line == "Exit:",
			(recording || !inFence && !inOutput) && strings.HasPrefix(line, "Saved trajectory to ") && !miniMessageGoesOn(rendered, i+1):
			// The run is over; what follows is the shell's.
			flush()
			return miniCutOff(msgs), true
		}
		if role == "" || closed || isSpinnerLine(line) {
			continue
		}
		if own && isRule(line) {
			closed, inFence = true, false
			continue
		}
		if recording && replied && own && role == "assistant" {
			// A line the terminal drew after the reply's command, before the command's answer:
			// the program's log (a library's errors printed while mini waits), or a screen a
			// command took over (`tmux attach` redrawing its panes into the recording), not the
			// model's words. Read as the reply's text, a monitor's status line redrawn 29
			// times was a reply repeating itself.
			closed = true
			continue
		}
		if role == "assistant" && !inFence {
			if prompted && strings.HasPrefix(line, ">") {
				prompted = false
				continue // what was typed at mini's prompt
			}
			if prompted = isMiniPrompt(line); prompted {
				continue
			}
		}
		switch t := strings.TrimSpace(line); {
		case strings.HasPrefix(t, "```"):
			inFence = !inFence
			replied = replied || !inFence && role == "assistant"
		case t == "<output>" && !v2: // 2.x prints no closing tag
			inOutput = true
		case strings.HasSuffix(t, "</output>"):
			// closed on the output's last line when the output did not end its line
			inOutput = false
		}
		body = append(body, line)
	}
	flush()
	return miniCutOff(msgs), true
}

// miniMessageGoesOn says whether a message of mini's follows line i: "Saved trajectory to"
// ends the run only as mini's last words, not printed by a command whose answer goes on.
func miniMessageGoesOn(rendered []string, i int) bool {
	_, found := nextMiniMark(rendered, i)
	return found
}

// miniAnswerFollows says whether the lines from i on are one answer of mini's: they reach the
// rule that closes it, or the end of the text, with no other speaker's line on the way.
func miniAnswerFollows(rendered []string, i int) bool {
	rule, found := nextMiniMark(rendered, i)
	return rule || !found
}

// nextMiniMark finds the first line from i on that mini prints around messages: a speaker's
// line, a step's header or a rule. found is false when none is left; rule says whether it is
// a rule.
func nextMiniMark(rendered []string, i int) (rule, found bool) {
	for ; i < len(rendered); i++ {
		switch line := rendered[i]; {
		case isRule(line):
			return true, true
		case isMiniSpeaker(line) || miniStepHeader().MatchString(line):
			return false, true
		}
	}
	return false, false
}

// isMiniSpeaker says whether a line is one of the speaker lines mini prints over a message.
func isMiniSpeaker(line string) bool {
	return line == "System:" || line == "User:" || line == "Tool:"
}

// isMiniPrompt says whether a line is one of the questions mini asks its user between a
// reply and its run (confirm mode: "Execute? Enter to confirm, or Type a comment/command",
// "Execute 2 action(s)? ...", "Agent wants to finish. ...", after an interrupt
// "Interrupted. Type a comment/command ..."): the program's words, not the model's.
func isMiniPrompt(line string) bool {
	if strings.HasPrefix(line, "Execute?") || strings.HasPrefix(line, "Agent wants to finish") ||
		strings.HasPrefix(line, "Interrupted.") {
		return true
	}
	rest, ok := strings.CutPrefix(line, "Execute ")
	return ok && rest != "" && '0' <= rest[0] && rest[0] <= '9'
}

// miniCutOff reads the last reply when the recording ends inside it (a harness killed the
// session at its timeout), nothing after it: an open bash block is closed, a call made and
// not answered; with no block, its words are the model's, and no call was made.
func miniCutOff(msgs []msg) []msg {
	n := len(msgs)
	if n == 0 || msgs[n-1].Role != "assistant" {
		return msgs
	}
	text, _ := msgs[n-1].Content.(string)
	fences := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fences++
		}
	}
	switch {
	case fences%2 == 1:
		msgs[n-1].Content = text + "\n```"
	case len(miniDefaultBlocks(text)) == 0:
		msgs[n-1].Role = "model"
	}
	return msgs
}

// miniToolObservation turns mini-swe-agent 2's answer of a tool call, its observation's
// fields printed as lines ("<returncode>", "1", "<output>", the output), into the 1.x form
// buildMini reads ("<returncode>1</returncode>", "<output>", the output, "</output>").
func miniToolObservation(content string) string {
	rest, ok := strings.CutPrefix(content, "<returncode>\n")
	if !ok {
		return content
	}
	code, rest, _ := strings.Cut(rest, "\n")
	out, ok := strings.CutPrefix(rest, "<output>\n")
	if !ok {
		out = rest
	}
	return "<returncode>" + strings.TrimSpace(code) + "</returncode>\n<output>\n" + strings.TrimRight(out, "\n") + "\n</output>"
}

// miniPlainFenceAsBash makes the first fence of a mini-swe-agent 2 reply, plain (a tool
// call's command, as the console prints it) or mswea_bash_command (its text-based mode), the
// bash block buildMini reads.
func miniPlainFenceAsBash(content string) string {
	for _, open := range []string{"```mswea_bash_command\n", "```\n"} {
		if i := strings.Index(content, open); i >= 0 && (i == 0 || content[i-1] == '\n') {
			return content[:i] + "```bash\n" + content[i+len(open):]
		}
	}
	return content
}

// terminalLines reads a console's printout, as people keep it in a file, as the lines its
// terminal showed (renderTerminalLine): the readers of agent frameworks' printouts (CrewAI,
// smolagents, LangChain, AutoGen, AG2, LlamaIndex) read them so.
func terminalLines(name string, br *bufio.Reader) ([]string, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	var lines []string
	for raw := range bytes.SplitSeq(data, []byte("\n")) {
		lines = append(lines, renderTerminalLine(raw))
	}
	return lines, nil
}

// mayHold says whether a recorded text may show s once rendered (renderTerminalLine): it holds
// s as it is, or holds escape sequences, which may sit inside it. A sniffer looks for a mark so
// before it renders and matches every line of a head.
func mayHold(head []byte, s string) bool {
	return bytes.Contains(head, []byte(s)) || bytes.IndexByte(head, 0x1b) >= 0
}

// renderTerminalLine is a recorded line as the screen shows it last: the text after its last
// carriage return (a spinner or a progress line redrawn in place), without escape sequences
// (colours, erasing, the cursor shown and hidden), invalid UTF-8 replaced.
func renderTerminalLine(line []byte) string {
	line = bytes.TrimRight(line, "\r")
	if i := bytes.LastIndexByte(line, '\r'); i >= 0 {
		line = line[i+1:]
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		c := line[i]
		if c == 0x1b {
			i = escapeEnd(line, i)
			continue
		}
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(line[i:])
		b.WriteRune(r)
		i += n
	}
	return strings.TrimRight(b.String(), " ")
}

// escapeEnd returns the index just past the escape sequence at line[i] (ESC): a control
// sequence (ESC [ parameters, a final letter), a string (ESC ] ... BEL or ESC \), a character
// set designation (ESC ( B), or ESC and one character.
func escapeEnd(line []byte, i int) int {
	i++
	if i >= len(line) {
		return i
	}
	switch line[i] {
	case '[':
		for i++; i < len(line); i++ {
			if c := line[i]; c >= 0x40 && c <= 0x7e {
				return i + 1
			}
		}
		return i
	case ']', 'P', 'X', '^', '_':
		// an operating system command, a device control string (tmux's passthrough), a
		// privacy or application string: up to BEL or the string terminator ESC \ (an ESC
		// inside is doubled)
		for i++; i < len(line); i++ {
			if line[i] == 0x07 {
				return i + 1
			}
			if line[i] == 0x1b && i+1 < len(line) {
				if line[i+1] == '\\' {
					return i + 2
				}
				i++
			}
		}
		return i
	case '(', ')', '*', '+', '-', '.', '/', '#', '%':
		// a character set designation ("ESC ( B", as tput sgr0 prints), and the like: one
		// more character
		return min(i+2, len(line))
	}
	return i + 1
}

// isSpinnerLine says whether a rendered line is the spinner mini shows while the model
// answers ("⠙ Waiting for the LM to respond...").
func isSpinnerLine(line string) bool {
	return strings.HasSuffix(line, "Waiting for the LM to respond...")
}

// isRule says whether a rendered line is a horizontal rule of box-drawing lines, which mini
// prints under each answer it gives the model.
func isRule(line string) bool {
	if len(line) < 3*8 {
		return false
	}
	for _, r := range line {
		if r != '─' {
			return false
		}
	}
	return true
}
