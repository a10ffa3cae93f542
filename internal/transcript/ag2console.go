package transcript

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// AG2 (AutoGen 0.2 and its successor) prints a conversation as its agents send messages,
// each under its sender and recipient, and logs and READMEs keep that printout:
//
//	user_proxy (to assistant):
//
//	What is the weather in Paris?
//
//	--------------------------------------------------------------------------------
//	assistant (to user_proxy):
//
//	***** Suggested tool call (call_dgyr): get_weather *****
//	Arguments:
//	{"city": "Paris"}
//	********************************************************
//
//	--------------------------------------------------------------------------------
//
//	>>>>>>>> EXECUTING FUNCTION get_weather...
//	user_proxy (to assistant):
//
//	***** Response from calling tool (call_dgyr) *****
//	18 degrees, cloudy
//	**************************************************
//
// A suggested tool call (older releases: "Suggested function call: name") is a call of the
// agent that sent it, its arguments the JSON under "Arguments:"; a response from calling a
// tool answers the call of its id (a function's, the oldest call of its name), failed when it
// is AG2's "Error: ..." in the function's place. Code a conversable agent runs
// (">>>>>>>> EXECUTING CODE BLOCK 0 (inferred language is python)...") is a call of
// execute_code by the agent that wrote the code, its arguments the code blocks of that
// message, answered by the executor's next message ("exitcode: 1 (execution failed)", a
// failure unless the exit code is 0). Other messages are their sender's words, or the user's
// turn when the sender is a user proxy (AG2's UserProxyAgent stands for the human). A run ends
// at ">>>>>>>> TERMINATING RUN": what follows is another session. A Markdown copy
// ("**user_proxy (to assistant):**", rules of "---") is read alike.
//
// Written from AG2's ConversableAgent printing and real printouts (validation round r115b U4).

// ag2Header reads a message's first line: its sender and its recipient.
var ag2Header = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\**(\S.*?) \(to (.+?)\):\**$`) })

// ag2ToolCall reads a suggested call: "***** Suggested tool call (call_x): name *****", or a
// function's, "***** Suggested function call: name *****" ("function Call" in pyautogen 0.1).
var ag2ToolCall = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\**\s*Suggested (?:tool call \(([^)]*)\)|function [Cc]all): (\S+?)\s*\**$`)
})

// ag2Response reads a response's first line: "***** Response from calling tool (call_x) *****"
// (a function's names the function, in parentheses, or in quotes in pyautogen 0.1: "Response
// from calling function "ask_planner"").
var ag2Response = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\**\s*Response from calling (?:tool|function) (?:\(([^)]*)\)|"([^"]*)")\s*\**$`)
})

// ag2ExitCode reads what an executor answers code with: "exitcode: 1 (execution failed)".
var ag2ExitCode = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^exitcode: (-?\d+)`) })

// isAG2Head says whether a text's head holds AG2's printout: a message's header, and a
// suggested call, an execution, or another header.
func isAG2Head(head []byte) bool {
	if !mayHold(head, "(to ") {
		return false // most text files: one look, not a pattern matched on every line
	}
	headers := 0
	for line := range bytes.SplitSeq(head, []byte("\n")) {
		t := strings.TrimSpace(renderTerminalLine(line))
		switch {
		case ag2Header().MatchString(t):
			headers++
		case headers > 0 && (ag2ToolCall().MatchString(t) || strings.HasPrefix(t, ">>>>>>>> EXECUTING ")):
			return true
		}
	}
	return headers >= 3 && bytes.Contains(head, []byte(strings.Repeat("-", 80)))
}

// ag2Call is a call waiting for its answer.
type ag2Call struct {
	a    *agentBuf
	idx  int
	id   string
	tool string
}

func readAG2Console(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	r := &ag2Reader{b: newBuilder(FormatAG2Console)}
	sender := ""
	var body []string
	flush := func() {
		if sender != "" {
			r.message(sender, body)
			sender, body = "", nil
		}
	}
	seen := false
	for _, line := range lines {
		t := strings.TrimSpace(line)
		switch {
		case ag2Header().MatchString(t):
			flush()
			sender, seen = ag2Header().FindStringSubmatch(t)[1], true
		case strings.HasPrefix(t, ">>>>>>>> TERMINATING RUN"):
			flush()
			r.endRun()
		case ag2RunsCode(t):
			flush()
			r.runCode()
		case strings.HasPrefix(t, ">>>>>>>> ") || ag2Announcement(t):
			flush() // an execution's announcement ("EXECUTING FUNCTION name..."), or another of AG2's
		case len(t) >= 3 && strings.Trim(t, "-") == "":
			// The rule that ends a message (80 dashes; a Markdown copy's "---"): what comes
			// before the next message is no message's (a group chat's "Next speaker: x", a
			// wrapper's banners), and a step number in it would make two equal answers differ.
			flush()
		case sender != "":
			body = append(body, line)
		}
	}
	flush()
	if !seen {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no AG2 message", ErrUnknownFormat)}
	}
	t := r.b.done()
	t.Sessions = r.runs.sessions()
	return t, nil
}

// ag2Reader follows a conversation's calls while its messages are read.
type ag2Reader struct {
	b        *builder
	waiting  []ag2Call // tool calls not answered yet, oldest first
	code     *ag2Call  // code being run, waiting for the executor's answer
	coder    string    // the last agent whose message held code, and the code
	lastCode string
	runs     runCount
}

// endRun ends the run under way: what follows is another session.
func (r *ag2Reader) endRun() {
	if r.runs.end(r.b) {
		r.waiting, r.code, r.coder, r.lastCode = nil, nil, "", ""
	}
}

// runCode begins the run of the code of the last message that held some.
func (r *ag2Reader) runCode() {
	if r.code != nil || r.coder == "" {
		return // the next block of the same message, or code from no message read
	}
	a := r.b.agent(r.coder)
	idx := a.add(loopguard.Call("", "execute_code", marshalArgs(map[string]string{"code": r.lastCode})))
	r.code = &ag2Call{a: a, idx: idx, tool: "execute_code"}
}

// message reads one message of sender: its words, calls, or answers.
func (r *ag2Reader) message(sender string, body []string) {
	r.runs.message()
	var words []string
	runsCode := false
	for k := 0; k < len(body); k++ {
		t := strings.TrimSpace(body[k])
		if m := ag2ToolCall().FindStringSubmatch(t); m != nil {
			args, next := ag2Block(body, k+1, true)
			a := r.b.agent(sender)
			idx := a.add(loopguard.Call("", m[2], []byte(args)))
			r.waiting = append(r.waiting, ag2Call{a: a, idx: idx, id: m[1], tool: m[2]})
			k = next - 1
			continue
		}
		if m := ag2Response().FindStringSubmatch(t); m != nil {
			text, next := ag2Block(body, k+1, false)
			id := m[1]
			if id == "" {
				id = m[2] // pyautogen 0.1 names the function, in quotes
			}
			r.answer(id, text)
			k = next - 1
			continue
		}
		if ag2Announcement(t) {
			// a Markdown copy keeps AG2's announcement of an execution in the message before it
			runsCode = runsCode || ag2RunsCode(t)
			continue
		}
		words = append(words, body[k])
	}
	if runsCode {
		defer r.runCode()
	}
	text := strings.TrimSpace(ag2Trim(words))
	if r.code != nil {
		if m := ag2ExitCode().FindStringSubmatch(text); m != nil {
			e := &r.code.a.events[r.code.idx]
			*e = e.WithResult(text, m[1] != "0")
			r.code = nil
			return
		}
	}
	if text == "" {
		return
	}
	a := r.b.agent(sender)
	if ag2IsUser(sender) {
		a.user(text, 0)
		return
	}
	a.said(text)
	if blocks := fencedCode(text); blocks != "" {
		r.coder, r.lastCode = sender, blocks
	}
}

// answer gives text to the call of the given id (a function's response names the function:
// the oldest call of that name).
func (r *ag2Reader) answer(id, text string) {
	for k, c := range r.waiting {
		if c.id == id || c.id == "" && c.tool == id {
			r.waiting = append(r.waiting[:k], r.waiting[k+1:]...)
			e := &c.a.events[c.idx]
			*e = e.WithResult(text, strings.HasPrefix(text, "Error: "))
			return
		}
	}
}

// ag2RunsCode says whether a trimmed line is AG2's announcement that it runs the message's code:
// ">>>>>>>> EXECUTING CODE BLOCK 0 (inferred language is python)...", or for a message of
// several blocks, which it runs in one go, "EXECUTING 2 CODE BLOCKS (inferred languages are
// [python, python])..." (validation round r143b U4).
func ag2RunsCode(t string) bool {
	t, ok := strings.CutPrefix(strings.TrimLeft(t, "> "), "EXECUTING ")
	if !ok {
		return false
	}
	if strings.HasPrefix(t, "CODE BLOCK") {
		return true
	}
	n, rest, _ := strings.Cut(t, " ")
	return isDigits(n) && strings.HasPrefix(rest, "CODE BLOCKS")
}

// ag2Announcement says whether a trimmed line is AG2's announcement of an execution
// (">>>>>>>> EXECUTING FUNCTION get_state...", "EXECUTING CODE BLOCK 0 ..." in a copy).
func ag2Announcement(t string) bool {
	t = strings.TrimLeft(t, "> ")
	return strings.HasPrefix(t, "EXECUTING FUNCTION ") || ag2RunsCode(t)
}

// ag2Block reads the block under a call's or a response's first line, up to its closing line of
// stars: a call's arguments (after "Arguments:"), or a response's content.
func ag2Block(body []string, k int, args bool) (string, int) {
	var out []string
	for ; k < len(body); k++ {
		t := strings.TrimSpace(body[k])
		if t != "" && strings.Trim(t, "*") == "" {
			k++ // its closing line of stars
			break
		}
		if ag2ToolCall().MatchString(t) || ag2Response().MatchString(t) || ag2Announcement(t) ||
			len(t) >= 3 && strings.Trim(t, "-") == "" {
			break // a Markdown copy, which drops the stars: the next call, or the message's rule
		}
		if len(out) == 0 && t == "" {
			continue
		}
		if args && len(out) == 0 {
			if rest, ok := strings.CutPrefix(t, "Arguments:"); ok {
				if rest = strings.TrimSpace(rest); rest != "" {
					out = append(out, rest)
				}
				continue
			}
		}
		out = append(out, body[k])
	}
	return strings.TrimSpace(ag2Trim(out)), k
}

// ag2Trim joins lines without the rule that ends a message ("-----", 80 of them; a Markdown
// copy's "---").
func ag2Trim(lines []string) string {
	for len(lines) > 0 {
		t := strings.TrimSpace(lines[len(lines)-1])
		if t != "" && strings.Trim(t, "-") != "" {
			break
		}
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// ag2IsUser says whether an agent stands for the human: a user proxy ("user_proxy", "User
// proxy", "UserProxy", "user").
func ag2IsUser(name string) bool {
	n := strings.ToLower(strings.NewReplacer(" ", "", "_", "", "-", "").Replace(name))
	return n == "user" || n == "human" || strings.Contains(n, "userproxy")
}

// fencedCode is the code of the fenced blocks of text, one after another, or "".
func fencedCode(text string) string {
	var blocks []string
	lines := strings.Split(text, "\n")
	for k := 0; k < len(lines); k++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[k]), "```") {
			continue
		}
		j := k + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) != "```" {
			j++
		}
		blocks = append(blocks, strings.Join(lines[k+1:min(j, len(lines))], "\n"))
		k = j
	}
	return strings.Join(blocks, "\n")
}
