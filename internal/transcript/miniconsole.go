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
// under their speakers' lines, from the run's banner or its first step's header on (ok false
// when there is neither: the text is not mini's console).
func miniConsoleMessages(data []byte) (msgs []msg, ok bool) {
	var body []string
	role := ""
	closed := false // the message's closing rule was printed: what follows is the program's
	flush := func() {
		if role != "" {
			msgs = append(msgs, msg{Role: role, Content: strings.Trim(strings.Join(body, "\n"), "\n")})
		}
		role, body, closed = "", body[:0], false
	}
	for _, raw := range bytes.Split(data, []byte("\n")) {
		line := renderTerminalLine(raw)
		if !ok {
			// Before the run: a harness installing it, the shell's command line. A message's
			// speaker line there ("User:") is not mini's yet.
			ok = strings.Contains(line, miniConsoleBanner) || miniStepHeader().MatchString(line)
			if !ok {
				continue
			}
		}
		switch {
		case line == "System:":
			flush()
			role = "system"
			continue
		case line == "User:":
			flush()
			role = "user"
			continue
		case miniStepHeader().MatchString(line):
			flush()
			role = "assistant"
			continue
		case strings.HasPrefix(line, "Saved trajectory to "):
			// The run is over; what follows is the shell's.
			flush()
			return msgs, true
		}
		if role == "" || closed || isSpinnerLine(line) {
			continue
		}
		if isRule(line) {
			closed = true
			continue
		}
		body = append(body, line)
	}
	flush()
	return msgs, ok
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
// sequence (ESC [ parameters, a final letter), an operating system command (ESC ] ... BEL or
// ESC \), or ESC and one character.
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
	case ']':
		for i++; i < len(line); i++ {
			if line[i] == 0x07 {
				return i + 1
			}
			if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '\\' {
				return i + 2
			}
		}
		return i
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
