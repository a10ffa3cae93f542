package transcript

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// AutoGen AgentChat's Console (autogen_agentchat.ui.Console) prints a team's run as it
// streams, each message under a rule naming its type and its source, and READMEs and logs keep
// that printout:
//
//	---------- TextMessage (user) ----------
//	What is the weather in New York?
//	---------- ToolCallRequestEvent (weather_agent) ----------
//	[FunctionCall(id='call_zgrH', arguments='{"city":"New York"}', name='get_weather')]
//	---------- ToolCallExecutionEvent (weather_agent) ----------
//	[FunctionExecutionResult(content='73 degrees and Sunny.', name='get_weather', call_id='call_zgrH', is_error=False)]
//	---------- TextMessage (weather_agent) ----------
//	The weather in New York is 73 degrees and sunny.
//
// The messages are those autogenMessages reads as JSON, printed as text: the calls and their
// results are Python reprs of FunctionCall and FunctionExecutionResult, matched by id, else in
// order (some models' calls have empty ids). A run pasted into a Markdown fence ends with it:
// a README shows one run per block (the same question asked of three models is three runs).
//
// The Console's own statistics and summary, and other loggers' records among the messages, are
// passed over.
//
// AgentChat 0.4.0–0.4.3's Console named only the source in its rule, and the message's type
// shows in its body alone (validation round r187b G2):
//
//	---------- weather_agent ----------
//	[FunctionCall(id='call_zgrH', arguments='{"city":"New York"}', name='get_weather')]
//	[Prompt tokens: 120, Completion tokens: 18]
//	---------- weather_agent ----------
//	[FunctionExecutionResult(content='73 degrees and Sunny.', call_id='call_zgrH')]
//	---------- weather_agent ----------
//	Tool calls:
//	get_weather({"city":"New York"}) = 73 degrees and Sunny.
//
// Those results carry no is_error, and the "Tool calls:" summary tells again what the
// results told.
//
// Written from AutoGen's Console and real printouts (validation rounds r115b U3, r116a U4).

// autogenConsoleRule reads the rule over a message: its type and its source.
var autogenConsoleRule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-{10} (\w+) \((.*)\) -{10}$`) })

// autogenConsoleNoise reads the lines of a printout that are no message's: the Console's
// statistics after a message ("[Prompt tokens: 120, Completion tokens: 18]"), and records
// other loggers of the process interleave ("2026-09-27T15:37:13.123Z  INFO server: ...").
var autogenConsoleNoise = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\[Prompt tokens: \d+, Completion tokens: \d+\]|\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d\S*\s+(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR)\b.*)$`)
})

// magenticOrchestrator is the name AgentChat gives the orchestrator of a MagenticOneGroupChat.
// Its workers (WebSurfer, FileSurfer, Coder, ComputerTerminal) call no tool the Console shows:
// each answers the orchestrator's instruction in words, the web surfer opening with the action
// it took, so their answers are the team's calls, as the Who&When benchmark's logs of the same
// runs are read (magenticone.go). A run of 0.4.9 printed so, among the MAST dataset's traces,
// was passed over as no transcript (validation round r198b, reader gap 4).
const magenticOrchestrator = "MagenticOneOrchestrator"

// autogenBareRule marks a message under the rule of AgentChat 0.4.0–0.4.3's Console, which
// names the source alone: the message's type is read from its body (autogenBareRuleType).
const autogenBareRule = "(source only)"

// autogenBareRuleSource reads the rule of AgentChat 0.4.0–0.4.3's Console, the source alone
// ("---------- Google_Search_Agent ----------"). AgentChat's agent names are Python
// identifiers, which keeps a rule titled in words, in a message or a log, out.
func autogenBareRuleSource(t string) (string, bool) {
	name, ok := strings.CutPrefix(t, "---------- ")
	if !ok {
		return "", false
	}
	name, ok = strings.CutSuffix(name, " ----------")
	if !ok || name == "" || '0' <= name[0] && name[0] <= '9' || name == "Summary" {
		return "", false // "Summary" heads the Console's statistics, no message
	}
	for i := 0; i < len(name); i++ {
		if !isPyNameByte(name[i]) {
			return "", false
		}
	}
	return name, true
}

// autogenBareRuleType says what the body of a message under a source-only rule is, as
// autogenTypes says it of a type: a list of FunctionCall reprs the calls, of
// FunctionExecutionResult reprs their results, "Tool calls:" their summary (told again),
// anything else the source's words.
func autogenBareRuleType(body string) string {
	switch {
	case strings.HasPrefix(body, "[FunctionCall("):
		return "calls"
	case strings.HasPrefix(body, "[FunctionExecutionResult("):
		return "results"
	case body == "Tool calls:" || strings.HasPrefix(body, "Tool calls:\n"):
		return ""
	}
	return "text"
}

// isAutoGenConsoleHead says whether a text's head holds AutoGen's Console printout: a rule
// over a tool call's request, or two rules of message types AutoGen writes. A rule of the
// source alone is one over calls when a FunctionCall list follows it (validation round r187b
// G2): such rules alone are too plain a mark.
func isAutoGenConsoleHead(head []byte) bool {
	if !bytes.Contains(head, []byte("---------- ")) {
		return false // most text files: one look, not a pattern matched on every line
	}
	rules := 0
	bareRuleAbove := false
	for line := range bytes.SplitSeq(head, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if bareRuleAbove && bytes.HasPrefix(t, []byte("[FunctionCall(")) {
			return true
		}
		if len(t) > 0 {
			bareRuleAbove = false
			if bytes.HasPrefix(t, []byte("---------- ")) {
				var source string
				source, bareRuleAbove = autogenBareRuleSource(string(t))
				if source == magenticOrchestrator {
					return true // a Magentic-One team's run, whose workers make no FunctionCall
				}
			}
		}
		m := autogenConsoleRule().FindSubmatch(t)
		if m == nil {
			continue
		}
		if _, known := autogenTypes[string(m[1])]; known {
			if string(m[1]) == "ToolCallRequestEvent" {
				return true
			}
			rules++
		}
	}
	return rules >= 2
}

func readAutoGenConsole(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatAutoGenConsole)
	var a *agentBuf // the run's agent, made when the run says something
	kind, source := "", ""
	var body []string
	waiting := map[string]int{} // calls not answered yet, by id
	var order []int             // and in order
	var runs runCount
	var pasted pastedRun
	task, called := "", false // the run's first words from the user, and whether a call came since
	// A Magentic-One team's run (its orchestrator spoke): the orchestrator's last words, and
	// the code blocks of the last message that held some (what ComputerTerminal runs).
	magentic, instruction, lastCode := false, "", ""
	flush := func() {
		text := strings.TrimSpace(strings.Join(body, "\n"))
		body = body[:0]
		if kind == "" {
			return
		}
		role := autogenTypes[kind]
		if kind == autogenBareRule {
			role = autogenBareRuleType(text)
		}
		if role == "text" && source == "user" {
			if called && text == task && runs.end(b) {
				// The run's task given again after its calls is the team run again, from its
				// start: a notebook runs one task in cell after cell, and the five runs of a
				// team's docs, read as one, made each run's calls the previous run's repeated
				// (validation round r187b G2). A person answering a run says something else.
				a, waiting, order = nil, map[string]int{}, nil
				magentic, instruction, lastCode = false, "", ""
			}
			if task == "" || a == nil {
				task, called = text, false
			}
		}
		if a == nil {
			a = b.agent(MainAgent)
		}
		runs.message()
		switch role {
		case "text":
			switch {
			case source == "user":
				a.user(text, 0)
			case source == magenticOrchestrator:
				// Magentic-One's orchestrator: its plans, ledgers and instructions are the
				// model's words; its last message is the instruction to the worker next.
				a.said(text)
				magentic, instruction = true, text
			case magentic:
				// A worker of Magentic-One's team answering the orchestrator: a call of that
				// worker, read as the magentic-one format reads it (validation round r198b 4).
				called = true
				addMagenticCall(a, source, instruction, text, lastCode)
				instruction = ""
			default:
				a.said(text)
			}
			lastCode = magenticCode(source, text, lastCode)
		case "thought":
			a.text("model", text, "", 0)
		case "calls":
			called = true
			turn := "m" + strconv.Itoa(len(a.events))
			for _, c := range pyCalls(text, "FunctionCall") {
				call := loopguard.Call("", pyText(c["name"]), []byte(pyText(c["arguments"])))
				call.Turn = turn
				idx := a.add(call)
				order = append(order, idx)
				if id := pyText(c["id"]); id != "" {
					waiting[id] = idx
				}
			}
		case "results":
			for _, r := range pyCalls(text, "FunctionExecutionResult") {
				id := pyText(r["call_id"])
				idx, ok := waiting[id]
				if ok {
					delete(waiting, id)
				} else if id == "" && len(order) > 0 {
					idx, ok = order[0], true
				}
				if !ok {
					continue
				}
				for k, o := range order {
					if o == idx {
						order = append(order[:k], order[k+1:]...)
						break
					}
				}
				e := &a.events[idx]
				*e = e.WithResult(pyText(r["content"]), r["is_error"] == true)
			}
		default:
			if kind == "ModelClientStreamingChunkEvent" && source != "user" {
				a.said(text) // the model's words as they streamed
			}
		}
	}
	seen := false
	for _, line := range lines {
		t := strings.TrimSpace(line)
		if m := autogenConsoleRule().FindStringSubmatch(t); m != nil {
			flush()
			kind, source, seen = m[1], m[2], true
			pasted.message()
			continue
		}
		if bareSource, ok := autogenBareRuleSource(t); ok {
			flush()
			kind, source, seen = autogenBareRule, bareSource, true
			pasted.message()
			continue
		}
		if autogenConsoleNoise().MatchString(t) {
			continue
		}
		if t == "---------- Summary ----------" {
			flush() // the Console's summary of the run (messages, tokens, duration): no message
			kind = ""
			continue
		}
		if kind != "" && pasted.ends(t) {
			// the end of a run pasted into a Markdown block: the next run is another session
			flush()
			kind = ""
			if runs.end(b) {
				a, waiting, order, task = nil, map[string]int{}, nil, ""
				magentic, instruction, lastCode = false, "", ""
			}
			continue
		}
		if kind != "" {
			body = append(body, line)
		}
	}
	flush()
	if !seen {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no AutoGen message", ErrUnknownFormat)}
	}
	t := b.done()
	t.Sessions = runs.sessions()
	return t, nil
}
