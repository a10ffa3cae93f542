package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// AutoGPT (2023, releases 0.2 to 0.4) logs a run to logs/activity.log, one Python logging
// record after another, a record's further lines under it unprefixed:
//
//	2023-05-05 02:35:09,149 INFO AutoGPT has been created with the following details:
//	2023-05-05 02:35:31,946 INFO  THOUGHTS: I think the first step should be ...
//	2023-05-05 02:35:32,392 INFO REASONING: Listing the files ...
//	2023-05-05 02:35:32,981 INFO PLAN:
//	2023-05-05 02:35:33,039 INFO -  List files in the current directory
//	2023-05-05 02:35:33,877 INFO CRITICISM: I need to make sure ...
//	2023-05-05 02:35:34,337 INFO NEXT ACTION:  COMMAND = list_files  ARGUMENTS = {'directory': '/app/ws'}
//	2023-05-05 02:53:53,308 INFO -=-=-=-=-=-=-= COMMAND AUTHORISED BY USER -=-=-=-=-=-=-=
//	2023-05-05 02:53:53,451 INFO SYSTEM:  Command list_files returned: ['file_logger.txt']
//
// A run opens with "<name> has been created with the following details:": a session of its
// own, its agent the AI's name. The model's thoughts, reasoning, plan and criticism are its
// words, one text a step. NEXT ACTION proposes a command, its arguments a Python dict; it is a
// call once AutoGPT says what it returned ("SYSTEM:  Command <name> returned: ..."), failed
// when that opens with "Error" or is AutoGPT's "Failure: command <name> ..." (output too
// long). The user may answer a proposal with words instead of "y" ("SYSTEM:  Human feedback:
// ok"): the command never ran, and the words are the user's turn; nor did one the model was
// asked to judge itself ("SYSTEM:  Self feedback: ..."), whose judgement is its words. DEBUG records (the whole
// prompt again at every step) and the rest are passed over.
//
// Written from two real activity logs of AutoGPT 0.3 and 0.4 (validation round r141b U1: such
// logs were no transcript, and an agent browsing one page three times for the same answer went
// untold).

// autogptRecord reads a logging record's first line: its time and level, and the message.
var autogptRecord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3}) (DEBUG|INFO|WARNING|ERROR|CRITICAL) ?(.*)$`)
})

// autogptAction reads a proposed command: "NEXT ACTION:  COMMAND = name  ARGUMENTS = {...}".
var autogptAction = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^NEXT ACTION:\s+COMMAND = (\S*)\s+ARGUMENTS = (.*)$`)
})

// isAutoGPTHead says whether a text opens as AutoGPT's activity log: a logging record first,
// AutoGPT named, and a step or a created agent in the head.
func isAutoGPTHead(head []byte) bool {
	nl := bytes.IndexByte(head, '\n')
	if nl < 0 || !autogptRecord().Match(bytes.TrimRight(head[:nl], "\r")) {
		return false
	}
	return (bytes.Contains(head, []byte("Auto-GPT")) || bytes.Contains(head, []byte("AutoGPT"))) &&
		(bytes.Contains(head, []byte(" has been created with the following details:")) || bytes.Contains(head, []byte("NEXT ACTION:  COMMAND = ")))
}

func readAutoGPT(name string, br *bufio.Reader) (*built, error) {
	r := &autogptReader{b: newBuilder(FormatAutoGPT)}
	err := eachLogRecord(name, br, autogptRecord(), func(m, more []string) { r.record(m[1], m[2], m[3], more) })
	if err != nil {
		return nil, err
	}
	r.propose(nil)
	return r.b.done(), nil
}

type autogptReader struct {
	b       *builder
	a       *agentBuf
	runs    int
	thought []string         // the step's thoughts, reasoning, plan and criticism so far
	pending *loopguard.Event // the command proposed, not yet answered
	thinkAt int64            // when the step's thoughts began
}

// record reads one logging record.
func (r *autogptReader) record(stamp, level, msg string, more []string) {
	if level != "INFO" {
		return
	}
	ms := autogptTime(stamp)
	msg = strings.TrimSpace(msg)
	if rest, ok := strings.CutSuffix(msg, " has been created with the following details:"); ok {
		r.propose(nil)
		if r.runs > 0 {
			r.b.session++
		}
		r.runs++
		r.a = r.b.agent(strings.TrimSpace(rest))
		return
	}
	if r.a == nil {
		return // the news and settings before the agent
	}
	body := msg
	if len(more) > 0 {
		body = strings.TrimRight(msg+"\n"+strings.Join(more, "\n"), "\n ")
	}
	switch {
	case isAutoGPTThought(msg):
		if len(r.thought) == 0 {
			r.thinkAt = ms
		}
		r.thought = append(r.thought, body)
	case strings.HasPrefix(msg, "- ") && len(r.thought) > 0:
		r.thought = append(r.thought, body) // a step of the plan
	case autogptAction().MatchString(msg):
		m := autogptAction().FindStringSubmatch(msg)
		r.said()
		e := loopguard.Event{Type: loopguard.EventCall, Tool: m[1], Args: pyDictArgs(strings.TrimSpace(m[2] + "\n" + strings.Join(more, "\n"))), Time: ms}
		r.propose(&e)
	case strings.HasPrefix(msg, "SYSTEM:"):
		r.said()
		answer := strings.TrimSpace(strings.TrimPrefix(body, "SYSTEM:"))
		if feedback, ok := strings.CutPrefix(answer, "Human feedback:"); ok {
			r.pending = nil // the user answered the proposal with words: it did not run
			if t := strings.TrimSpace(feedback); t != "" {
				r.a.user(t, ms)
			}
			return
		}
		if feedback, ok := strings.CutPrefix(answer, "Self feedback:"); ok {
			// The user had the model judge its own proposal ('s'): it did not run, and the
			// judgement is the model's words, not what the command returned.
			r.pending = nil
			r.a.saidAt(strings.TrimSpace(feedback), ms)
			return
		}
		if r.pending == nil {
			return
		}
		e := r.pending
		r.pending = nil
		if rest, ok := strings.CutPrefix(answer, "Command "+e.Tool+" returned:"); ok {
			answer = strings.TrimSpace(rest)
		}
		failed := strings.HasPrefix(answer, "Error") || strings.HasPrefix(answer, "Failure: command ")
		r.a.add(e.WithResult(answer, failed))
	case strings.Contains(msg, "You interrupted Auto-GPT"), msg == "Quitting...":
		r.pending = nil
	}
}

// isAutoGPTThought says whether a message opens the model's words of a step: THOUGHTS,
// REASONING, PLAN, CRITICISM or SPEAK, perhaps after the AI's name (release 0.2 wrote
// "AUTOGPT THOUGHTS:").
func isAutoGPTThought(msg string) bool {
	head, _, ok := strings.Cut(msg, ":")
	if !ok {
		return false
	}
	word := head[strings.LastIndexByte(head, ' ')+1:]
	switch word {
	case "THOUGHTS", "REASONING", "PLAN", "CRITICISM", "SPEAK":
		return head == word || strings.ToUpper(head) == head
	}
	return false
}

// said adds the step's words gathered so far, as one text.
func (r *autogptReader) said() {
	if len(r.thought) > 0 {
		r.a.saidAt(strings.Join(r.thought, "\n"), r.thinkAt)
		r.thought = r.thought[:0]
	}
}

// propose sets the command proposed, adding the one before it, if no answer came, as a call
// whose result is not known (continuous mode may run it without saying).
func (r *autogptReader) propose(e *loopguard.Event) {
	if r.pending != nil && r.a != nil {
		r.a.add(*r.pending)
	}
	r.pending = e
}

// autogptTime reads a record's time ("2023-05-05 02:35:34,337", the run's local time, read as
// UTC) as Unix milliseconds; 0 when unreadable.
func autogptTime(stamp string) int64 { return layoutMillis("2006-01-02 15:04:05,000", stamp) }

// pyDictArgs returns a command's arguments written as a Python dict literal ("{'url':
// 'https://x', 'question': 'recipes'}", lists and nested dicts in it too) as JSON; anything
// else, whole, under "input".
func pyDictArgs(s string) []byte {
	s = strings.TrimSpace(s)
	if b, ok := pyDictJSON(s); ok {
		return b
	}
	return marshalArgs(map[string]string{"input": s})
}

// printedArgs reads a call's arguments as a framework's console printed them: JSON (what the
// model streamed) as it is; Python's printing of a dict as JSON; anything else (a dict CrewAI
// cut at 200 characters, JSON cut short) as text under "input" (pyDictArgs). CrewAI's and
// Haystack's consoles print them so.
func printedArgs(printed string) []byte {
	if printed == "" {
		return nil
	}
	if json.Valid([]byte(printed)) {
		return []byte(printed)
	}
	return pyDictArgs(printed)
}

// pyDictJSON returns the JSON of s when s is a Python dict literal and nothing else.
func pyDictJSON(s string) ([]byte, bool) {
	v, rest, ok := pyLiteral(s)
	if !ok || strings.TrimSpace(rest) != "" {
		return nil, false
	}
	if _, isDict := v.(map[string]any); !isDict {
		return nil, false
	}
	b, err := json.Marshal(v)
	return b, err == nil
}
