package transcript

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/loopguard/loopguard"
)

// CAMEL's RolePlaying society runs two models against each other: the AI User gives an
// instruction a turn, the AI Assistant carries it out, with tools. Every role-playing cookbook
// prints the run with print_text_animated, and the notebooks keep it:
//
//	AI Assistant sys message:
//	BaseMessage(role_name='Searcher', role_type=<RoleType.ASSISTANT: 'assistant'>, ...)
//	...
//	Final task prompt:
//	Estimate the age of the University of Oxford, then add 10 years.
//
//	AI User:
//
//	Instruction: Find the current weather in Oxford, England.
//	Input: None
//
//	AI Assistant:
//
//	Function Execution: search_google
//		Args: {'query': 'current weather in Oxford, England'}
//		Result: [{'error': 'google search failed.'}]
//
//	Solution: The search failed ...
//
//	Next request.
//
// each turn behind a colour code. Releases since late 2024 print with no line breaks between
// the parts of a turn, so "AI Assistant:Function Execution: x" share a line, a call's result
// runs straight into the next "Function Execution:" or into the "Solution:" that opens the
// assistant's words ("Result: It's Tuesday! 🎉Solution: ..."); CAMEL 0.1 printed "Args:" and
// "Result:" unindented. A result is the text after "Result:" up to the next call, the words
// ("Solution:"), or the next turn: a result is str() of what the tool returned, so it may run
// over lines, blank ones too. Words that do not open with "Solution:" cannot be told apart from
// the last result before them and are read as part of it.
//
// The assistant is the agent that makes the calls. Its task is the "Final task prompt" (else
// the specified, else the original one; with none printed, the AI User's first instruction),
// read as its user message. The AI User's instructions are another model's words, read as the
// text of an agent of its own, as ChatDev's roles (chatdev.go), not as user turns: a person's
// turn resets the engine's counts, and two models going round the same instruction and the
// same call is the loop a role-play run falls into. The agents are named by the role names the
// sys messages print ("Searcher", "Professor"), else "AI Assistant" and "AI User".
//
// A call failed when its result is an error object ([{'error': '...'}], {'error': '...'}) or
// one of CAMEL's sentences for a tool that raised ("Tool execution failed: ...", "Error
// executing tool ..."). "<CAMEL_TASK_DONE>" or a "terminated. Reason:" line ends a run; each
// run (a sys message or task prompt after turns, or a turn after a run's end) is a session.
//
// Written from six CAMEL cookbooks committed to camel-ai/camel (validation round r190a G3:
// 25 calls of role-playing runs unread).

// CAMEL's printed labels.
const (
	camelUserTurn      = "AI User:"
	camelAssistantTurn = "AI Assistant:"
	camelCall          = "Function Execution: "
	camelWords         = "Solution:"
	camelTaskDone      = "CAMEL_TASK_DONE"
)

// camelFailures open the result CAMEL gives the model in place of a tool's when the tool raised.
var camelFailures = []string{"Tool execution failed:", "Error executing tool"}

// isCAMELConsoleHead says whether a text's head holds a CAMEL role-play: an "AI User:" turn, an
// "AI Assistant:" turn after it (each at a line's start, behind its colour code), and a call
// or the role-play's own phrasing ("Instruction:" answered by "Solution:").
func isCAMELConsoleHead(head []byte) bool {
	if !bytes.Contains(head, []byte(camelUserTurn)) || !bytes.Contains(head, []byte(camelAssistantTurn)) {
		return false
	}
	user := -1
	offset := 0
	for line := range bytes.SplitSeq(head, []byte("\n")) {
		t := camelLineStart(line)
		switch {
		case user < 0 && bytes.HasPrefix(t, []byte(camelUserTurn)):
			user = offset
		case user >= 0 && bytes.HasPrefix(t, []byte(camelAssistantTurn)):
			rest := head[user:]
			return bytes.Contains(rest, []byte(camelCall)) ||
				bytes.Contains(rest, []byte("Instruction:")) && bytes.Contains(rest, []byte(camelWords))
		}
		offset += len(line) + 1
	}
	return false
}

// camelLineStart is a raw line without the colour codes and spaces before its text.
func camelLineStart(line []byte) []byte {
	i := 0
	for i < len(line) {
		switch line[i] {
		case 0x1b:
			i = escapeEnd(line, i)
		case ' ', '\t', '\r':
			i++
		default:
			return line[i:]
		}
	}
	return nil
}

// camelRun is the state of the run being read.
type camelRun struct {
	b        *builder
	sessions int
	turns    bool // the session under way has a turn
	ended    bool // its run ended (CAMEL_TASK_DONE, a role terminated)

	assistantRole, userRole string
	tasks                   map[string]string // "Original", "Specified", "Final": the task prompts printed
	taskGiven               bool              // the assistant's task was given it

	mode     int
	lines    []string // what the mode under way has read
	taskKind string   // the task prompt or the sys message being read
	open     int      // the call whose arguments or result are being read, or -1
}

const (
	camelNone      = iota
	camelSys       // a role's sys message
	camelTask      // a task prompt
	camelUser      // the AI User's turn
	camelAssistant // the assistant's words
	camelArgs      // a call, its "Args:" line to come
	camelResult    // a call's result
)

func readCAMELConsole(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	r := &camelRun{b: newBuilder(FormatCAMELConsole), tasks: map[string]string{}, open: -1}
	for _, line := range lines {
		r.line(line)
	}
	r.flush()
	if r.sessions == 0 {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no CAMEL role-play turn", ErrUnknownFormat)}
	}
	t := r.b.done()
	t.Sessions = r.sessions
	return t, nil
}

// line reads one printed line.
func (r *camelRun) line(line string) {
	t := strings.TrimSpace(line)
	switch {
	case t == "AI Assistant sys message:" || t == "AI User sys message:":
		r.flush()
		r.newRunIfTurns()
		r.mode, r.taskKind = camelSys, t
		return
	case t == "Original task prompt:" || t == "Specified task prompt:" || t == "Final task prompt:":
		r.flush()
		r.newRunIfTurns()
		r.mode, r.taskKind = camelTask, strings.TrimSuffix(t, " task prompt:")
		return
	case strings.HasPrefix(t, "AI User terminated. Reason:") || strings.HasPrefix(t, "AI Assistant terminated. Reason:"):
		r.flush()
		r.mode, r.ended = camelNone, true
		return
	case strings.HasPrefix(t, camelUserTurn):
		r.flush()
		r.startTurn(true)
		r.mode = camelUser
		if rest := strings.TrimSpace(t[len(camelUserTurn):]); rest != "" {
			r.lines = append(r.lines, rest)
		}
		return
	case strings.HasPrefix(t, camelAssistantTurn):
		r.flush()
		r.startTurn(false)
		r.mode = camelAssistant
		line = strings.TrimLeft(line, " \t")[len(camelAssistantTurn):]
		if strings.TrimSpace(line) == "" {
			return
		}
	}
	switch r.mode {
	case camelSys:
		// The role's name, from its BaseMessage's repr: the name its agent is read under.
		if rest, ok := strings.CutPrefix(t, "BaseMessage(role_name='"); ok {
			if role, _, ok := strings.Cut(rest, "'"); ok && role != "" {
				if r.taskKind == "AI User sys message:" {
					r.userRole = role
				} else {
					r.assistantRole = role
				}
			}
		}
	case camelTask, camelUser:
		r.lines = append(r.lines, line)
	case camelAssistant, camelArgs, camelResult:
		r.assistantLine(line)
	}
}

// assistantLine reads a line of the assistant's turn: its calls and their results, then its
// words, each of which may start inside the line (see the layout above).
func (r *camelRun) assistantLine(line string) {
	for {
		t := strings.TrimSpace(line)
		switch r.mode {
		case camelArgs:
			if rest, ok := strings.CutPrefix(t, "Args:"); ok {
				r.setArgs(strings.TrimSpace(rest))
				return
			}
			if rest, ok := strings.CutPrefix(t, "Result:"); ok {
				r.mode, r.lines = camelResult, nil
				line = strings.TrimLeft(rest, " ")
				continue
			}
			if t == "" {
				return
			}
			r.mode = camelAssistant // no result printed: what follows is the assistant's words
			continue
		case camelResult:
			// Only at a line's start would "Result:" belong to the call: the text is a result.
			k, marker := camelNextMarker(line)
			if k < 0 {
				r.lines = append(r.lines, line)
				return
			}
			if k > 0 {
				r.lines = append(r.lines, line[:k])
			}
			r.answer()
			r.mode = camelAssistant
			line = line[k:]
			if marker == camelWords {
				r.lines = nil
			}
			continue
		}
		// the assistant's words, or a call
		if rest, ok := strings.CutPrefix(t, strings.TrimSpace(camelCall)); ok {
			r.flushWords()
			r.call(strings.TrimSpace(rest))
			return
		}
		r.lines = append(r.lines, line)
		return
	}
}

// camelNextMarker finds where a result line stops being the result: a call or the
// assistant's words starting in it or at its start.
func camelNextMarker(line string) (int, string) {
	at, marker := -1, ""
	for _, m := range []string{camelCall, camelWords} {
		if k := strings.Index(line, m); k >= 0 && (at < 0 || k < at) {
			at, marker = k, m
		}
	}
	return at, marker
}

// call adds a call of tool, its arguments to come.
func (r *camelRun) call(tool string) {
	a := r.assistant()
	r.open = a.add(loopguard.Call("", tool, nil))
	r.mode, r.lines = camelArgs, nil
}

// setArgs gives the open call its arguments: the Python dict printed (the arguments the model
// sent, decoded), as JSON; anything else as the text printed.
func (r *camelRun) setArgs(repr string) {
	if r.open < 0 {
		return
	}
	e := &r.assistant().events[r.open]
	if v, rest, ok := pyLiteral(repr); ok && strings.TrimSpace(rest) == "" {
		if _, isDict := v.(map[string]any); isDict {
			e.Args = marshalArgs(v)
			return
		}
	}
	e.Args = marshalArgs(map[string]string{"input": repr})
}

// answer gives the open call the result read.
func (r *camelRun) answer() {
	if r.open < 0 {
		return
	}
	result := strings.TrimSpace(strings.Join(r.lines, "\n"))
	e := &r.assistant().events[r.open]
	*e = e.WithResult(result, camelFailed(result))
	r.open, r.lines = -1, nil
}

// camelFailed says whether a result says the call failed: an error object, or CAMEL's
// sentence for a tool that raised (validation round r190a G3: a search that failed printed
// [{'error': 'google search failed.'}]).
func camelFailed(result string) bool {
	for _, f := range camelFailures {
		if strings.HasPrefix(result, f) {
			return true
		}
	}
	if result == "" || result[0] != '{' && result[0] != '[' {
		return false
	}
	v, rest, ok := pyRepr(result)
	if !ok || strings.TrimSpace(rest) != "" {
		return false
	}
	if list, isList := v.([]any); isList {
		for _, item := range list {
			if !camelErrorObject(item) {
				return false
			}
		}
		return len(list) > 0
	}
	return camelErrorObject(v)
}

// camelErrorObject says whether v is an object holding an error alone ({'error': '...'}).
func camelErrorObject(v any) bool {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return false
	}
	_, ok = m["error"]
	return ok
}

// flushWords adds the assistant's words read so far as its text.
func (r *camelRun) flushWords() {
	if r.mode == camelAssistant {
		r.assistant().said(strings.TrimSpace(strings.Join(r.lines, "\n")))
	}
	r.lines = nil
}

// flush ends what the mode under way was reading.
func (r *camelRun) flush() {
	text := strings.TrimSpace(strings.Join(r.lines, "\n"))
	switch r.mode {
	case camelTask:
		if text != "" && text != "None" {
			r.tasks[r.taskKind] = text
		}
	case camelUser:
		if text != "" {
			if a := r.assistant(); !r.taskGiven {
				// no task prompt printed: the first instruction is what the assistant was asked
				r.taskGiven = true
				a.user(text, 0)
			}
			r.b.agent(camelRole(r.userRole, "AI User")).text("model", text, "", 0)
			if strings.Contains(text, camelTaskDone) {
				r.ended = true
			}
		}
	case camelAssistant:
		r.flushWords()
	case camelArgs, camelResult:
		r.answer()
	}
	r.mode, r.lines, r.open = camelNone, nil, -1
}

// startTurn starts a turn: the first of a session when a run is to start (the file's first
// turn, the AI User's turn after a run's end, or a turn after a new run's sys messages or task
// prompts). The assistant's answer to "<CAMEL_TASK_DONE>" is printed before the loop breaks
// (validation round r190a G3: three cookbooks), and is its run's last turn.
func (r *camelRun) startTurn(user bool) {
	if user && r.ended && r.turns {
		r.newRun()
	}
	if !r.turns {
		r.b.session = r.sessions
		r.sessions++
	}
	r.turns = true
}

// newRunIfTurns starts a new run when a role's sys message or a task prompt follows turns: the
// roles and the task are the new run's.
func (r *camelRun) newRunIfTurns() {
	if r.turns {
		r.newRun()
		r.assistantRole, r.userRole = "", ""
	}
}

// newRun makes the next turn the first of a new session, its task not known yet.
func (r *camelRun) newRun() {
	r.turns, r.ended, r.taskGiven = false, false, false
	r.tasks = map[string]string{}
}

// assistant is the agent of the AI Assistant, which makes the calls; its first use in a run
// gives it the run's task, when a task prompt was printed.
func (r *camelRun) assistant() *agentBuf {
	a := r.b.agent(camelRole(r.assistantRole, "AI Assistant"))
	if r.taskGiven {
		return a
	}
	// The last prompt CAMEL derived: the final one, else the specified (a task specifier's
	// rewording, "None" when not used), else the task as given.
	for _, kind := range []string{"Final", "Specified", "Original"} {
		if t := r.tasks[kind]; t != "" {
			r.taskGiven = true
			a.user(t, 0)
			break
		}
	}
	return a
}

// camelRole is a role's name, or the label CAMEL prints for it.
func camelRole(name, label string) string {
	if name != "" {
		return name
	}
	return label
}
