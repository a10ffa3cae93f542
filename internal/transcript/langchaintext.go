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

// LangChain prints a message with pretty_print() under a banner of its type, and LangGraph's
// tutorials, READMEs and notebooks print a run so, message by message:
//
//	================================ Human Message =================================
//
//	What's the weather in SF?
//	================================== Ai Message ==================================
//	Tool Calls:
//	  tavily_search (call_8a2f)
//	 Call ID: call_8a2f
//	  Args:
//	    query: weather in San Francisco
//	================================= Tool Message =================================
//	Name: tavily_search
//
//	[{"title": "Weather in San Francisco", ...}]
//	================================== Ai Message ==================================
//
//	It is 53°F and foggy.
//
// A "Human Message" is the user's turn, an "Ai Message" the model's words and its calls (each
// its name and id, then its arguments as "key: value" lines), a "Tool Message" the answer to
// the oldest call of its tool (its "Name:") not answered yet. An AI message that names its
// agent ("Name: researcher", as LangGraph's multi-agent graphs print it) is that agent's. A
// tool's error reads as LangGraph's ToolNode writes it ("Error: ... Please fix your
// mistakes."). Terminals and notebooks print the banner's title in bold, whose codes a copy
// may keep as "[1m" and "[0m"; copies may also lose the lines' indentation. A tool message
// answers the AI message just before it: a call still waiting when the model speaks again
// was not answered (a user declined it). Indented arguments end at a line at the margin (what
// the program printed after the message: a prompt to approve the calls, the user's reply). A
// run pasted into a Markdown block ends with the block; the next is another session. A stream
// helper's rules and node names printed between the messages end arguments too.
//
// Written from langchain_core's pretty_repr and the runs r115b collected (validation round
// r115b U2: such printouts were not read).

// langchainBanner reads a message's banner: its title between runs of '='.
var langchainBanner = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^=+ ?(?:\[1m)? ?(Human|Ai|Tool|System) Message ?(?:\[0m)? ?=+$`)
})

// langchainCallHead reads a call's first line under "Tool Calls:": "tavily_search (call_8a2f)".
var langchainCallHead = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\S+) \(([^()\s]*)\)$`) })

// isLangChainTextHead says whether a text's head holds LangChain's printed messages: an AI
// message's banner, and another message's.
func isLangChainTextHead(head []byte) bool {
	if !mayHold(head, "Ai Message") {
		return false // most text files: one look, not a pattern matched on every line
	}
	banners, ai := 0, false
	for line := range bytes.SplitSeq(head, []byte("\n")) {
		t := strings.TrimSpace(renderTerminalLine(line))
		if m := langchainBanner().FindStringSubmatch(t); m != nil {
			banners++
			ai = ai || m[1] == "Ai"
		}
	}
	return ai && banners >= 2
}

func readLangChainText(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatLangChainText)
	callIDs := map[string]bool{} // the Call IDs of the calls read, to know a message printed again
	var waiting []langchainCall  // the last AI message's calls not answered yet, oldest first
	kind := ""                   // the message under way: "Human", "Ai", "Tool", "System", or "" before any
	var body []string
	var runs runCount
	var pasted pastedRun
	flush := func() {
		if kind != "" {
			runs.message()
		}
		switch kind {
		case "Human":
			said := strings.TrimSpace(strings.Join(body, "\n"))
			if obs, ok := strings.CutPrefix(said, "Observation:"); ok && len(waiting) > 0 {
				// The harness's answer to the command the AI message wrote (see langchainCommand).
				p := waiting[0]
				waiting = waiting[1:]
				text, failed := langchainObservation(obs)
				e := &p.a.events[p.idx]
				*e = e.WithResult(text, failed)
				break
			}
			b.agent(MainAgent).user(said, 0)
		case "Ai":
			// Tool messages answer the AI message before them: calls of an earlier one that
			// are still waiting were never answered (a user declined them).
			waiting = langchainAIMessage(b, body, callIDs)
		case "Tool":
			tool, text := langchainToolMessage(body)
			at := -1
			for k, p := range waiting {
				if tool == "" || p.tool == tool {
					at = k
					break
				}
			}
			if at < 0 {
				break // an answer to no call this text shows
			}
			p := waiting[at]
			waiting = append(waiting[:at], waiting[at+1:]...)
			e := &p.a.events[p.idx]
			*e = e.WithResult(text, langchainToolFailed(text))
		}
		body = body[:0]
	}
	seen := false
	for _, line := range lines {
		t := strings.TrimSpace(line)
		if len(t) > 26 && t[0] >= '0' && t[0] <= '9' {
			// a log's line that printed the banner after its time ("2026-04-30 01:10:03,754 - ")
			if k := logLinePrefix().FindStringIndex(t[:26]); k != nil {
				t = strings.TrimSpace(t[k[1]:])
			}
		}
		if m := langchainBanner().FindStringSubmatch(t); m != nil {
			flush()
			kind, seen = m[1], true
			pasted.message()
			continue
		}
		if kind != "" && pasted.ends(t) {
			// the end of a run pasted into a Markdown block: the next run is another session
			flush()
			kind = ""
			if runs.end(b) {
				waiting = nil
			}
			continue
		}
		if kind != "" {
			body = append(body, line)
		}
	}
	flush()
	if !seen {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no LangChain message", ErrUnknownFormat)}
	}
	t := b.done()
	t.Sessions = runs.sessions()
	return t, nil
}

// langchainCall is a call made, to be answered: its agent, its event, its tool.
type langchainCall struct {
	a    *agentBuf
	idx  int
	tool string
}

// langchainAIMessage reads an AI message's body: its agent's name, its words and its calls,
// which it adds; it returns the calls, to be answered. A message whose calls' ids were read
// before (ids, which it adds to) is the same message printed again, as a graph that prints
// its whole state at each node's invocation does, and is passed over with its words: counted
// again, one hand-off to an agent printed eight times was told as a call repeated
// (validation round r142c U1, F1, F2).
func langchainAIMessage(b *builder, body []string, ids map[string]bool) []langchainCall {
	for _, l := range body {
		if id, ok := strings.CutPrefix(strings.TrimSpace(l), "Call ID:"); ok {
			if id = strings.TrimSpace(id); id != "" && ids[id] {
				return nil
			}
		}
	}
	for _, l := range body {
		if id, ok := strings.CutPrefix(strings.TrimSpace(l), "Call ID:"); ok && strings.TrimSpace(id) != "" {
			ids[strings.TrimSpace(id)] = true
		}
	}
	agent := MainAgent
	if len(body) > 0 {
		if n, ok := strings.CutPrefix(strings.TrimSpace(body[0]), "Name: "); ok && n != "" {
			agent, body = n, body[1:]
		}
	}
	a := b.agent(agent)
	callsAt := len(body)
	for k, l := range body {
		if strings.TrimSpace(l) == "Tool Calls:" {
			callsAt = k
			break
		}
	}
	a.said(strings.TrimSpace(strings.Join(body[:callsAt], "\n")))
	type call struct {
		name     string
		keys     []string
		args     map[string]string
		inArg    string // the argument whose value goes on, over lines
		indented bool   // its arguments are indented, as pretty_print writes them
		done     bool   // a line at the margin ended them (what the script printed after)
	}
	var calls []*call
	for k := callsAt + 1; k < len(body); k++ {
		t := strings.TrimSpace(body[k])
		if m := langchainCallHead().FindStringSubmatch(t); m != nil && k+1 < len(body) && strings.HasPrefix(strings.TrimSpace(body[k+1]), "Call ID:") {
			calls = append(calls, &call{name: m[1], args: map[string]string{}})
			k++ // its Call ID line
			continue
		}
		if len(calls) == 0 || t == "Args:" {
			continue
		}
		c := calls[len(calls)-1]
		if c.done {
			continue
		}
		if isLangGraphStreamSeparator(t) {
			// What a stream helper printed between the graph's nodes, not an argument's line:
			// read into the value before it, it made a call's arguments depend on which node
			// printed next (validation round r187b G5). The helper's own lines end the value,
			// not a line at the margin of a text shifted as a whole (a notebook's output
			// converted to docs): there that is a multi-line value's next line (a query's
			// FROM, a script's second statement), which the value would lose.
			c.done = true
			continue
		}
		if c.indented && t != "" && !strings.HasPrefix(body[k], " ") {
			// Indented arguments end at a line at the margin: what the program printed after
			// the message (a prompt to approve the calls, the user's answer).
			c.done = true
			continue
		}
		// An argument is "key: value" indented four spaces under "Args:"; a line indented
		// less, or not at all in a copy that lost the indentation, that reads "key: ..." is
		// one too, and any other line goes on the value before it.
		if key, value, ok := strings.Cut(t, ": "); ok && langchainArgKey(key) && (strings.HasPrefix(body[k], "    ") || !strings.HasPrefix(body[k], " ")) {
			if len(c.keys) == 0 {
				c.indented = strings.HasPrefix(body[k], " ")
			}
			if _, dup := c.args[key]; !dup {
				c.keys = append(c.keys, key)
			}
			c.args[key], c.inArg = value, key
			continue
		}
		if c.inArg != "" {
			c.args[c.inArg] += "\n" + body[k]
		}
	}
	if len(calls) == 0 {
		if cmd, ok := langchainCommand(body); ok {
			idx := a.add(loopguard.Call("", "command", marshalArgs(map[string]string{"command": cmd})))
			return []langchainCall{{a, idx, "command"}}
		}
	}
	var out []langchainCall
	turn := "m" + strconv.Itoa(len(a.events)) // the calls of one message are one reply
	for _, c := range calls {
		args := map[string]string{}
		for _, k := range c.keys {
			args[k] = strings.TrimRight(c.args[k], "\n ")
		}
		call := loopguard.Call("", c.name, marshalArgs(args))
		call.Turn = turn
		idx := a.add(call)
		out = append(out, langchainCall{a, idx, c.name})
	}
	return out
}

// isLangGraphStreamSeparator says whether a trimmed line is what a stream helper
// (langchain_teddynote's stream_graph) prints around a node's output: a rule of '=' with no
// title in it, a rule of "- - -", or the node's name ("🔄 Node: get_schema_tool 🔄").
func isLangGraphStreamSeparator(t string) bool {
	if strings.HasPrefix(t, "🔄 Node:") {
		return true
	}
	if len(t) >= 3 && strings.Trim(t, "=") == "" {
		return true
	}
	return strings.Count(t, "- ") >= 3 && strings.Trim(t, "- ") == ""
}

// langchainCommand reads the command an AI message writes in tags, as agents that run a
// shell through a ReAct prompt do (SWE-bench-Live's RepoLaunch: "Action: <command>cmake
// --build build</command>", its next human message the "Observation:"): the first command, a
// log printing the message twice (validation round r130b U1: nine such runs read no call).
// "<stop></stop>" and "<issue>" end a run and are no command.
func langchainCommand(body []string) (string, bool) {
	text := strings.Join(body, "\n")
	_, rest, ok := strings.Cut(text, "<command>")
	if !ok {
		return "", false
	}
	cmd, _, ok := strings.Cut(rest, "</command>")
	cmd = strings.TrimSpace(cmd)
	return cmd, ok && cmd != ""
}

// langchainObservation reads the harness's answer to such a command: its text up to the
// log's next line ("2026-04-20 22:23:17,823 - "), failed when its last "exit code: N" is not 0.
func langchainObservation(obs string) (string, bool) {
	lines := strings.Split(strings.TrimSpace(obs), "\n")
	for len(lines) > 0 && (strings.TrimSpace(lines[len(lines)-1]) == "" || isLogPrefixOnly(lines[len(lines)-1])) {
		lines = lines[:len(lines)-1]
	}
	text := strings.Join(lines, "\n")
	failed := false
	if k := strings.LastIndex(text, "exit code: "); k >= 0 {
		code := strings.TrimSpace(firstLineOf(text[k+len("exit code: "):]))
		failed = code != "0" && code != ""
	}
	return text, failed
}

// isLogPrefixOnly says whether a line is a Python log line's opening and nothing more.
func isLogPrefixOnly(l string) bool {
	l = strings.TrimSpace(l)
	k := logLinePrefix().FindStringIndex(l)
	return k != nil && strings.TrimSpace(l[k[1]:]) == ""
}

// logLinePrefix is a Python log line's opening: "2026-04-20 22:23:17,823 - ".
var logLinePrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ - ?`) })

// langchainToolMessage reads a tool message's body: the tool's name and what it answered.
func langchainToolMessage(body []string) (tool, text string) {
	if len(body) > 0 {
		if n, ok := strings.CutPrefix(strings.TrimSpace(body[0]), "Name: "); ok {
			tool, body = n, body[1:]
		}
	}
	return tool, strings.TrimSpace(strings.Join(body, "\n"))
}

// langchainToolFailed says whether a tool's answer is the error LangGraph's ToolNode writes
// in its place: "Error: <the exception>" and "Please fix your mistakes.".
func langchainToolFailed(text string) bool {
	return strings.HasPrefix(text, "Error: ") && strings.HasSuffix(text, "Please fix your mistakes.")
}

// langchainArgKey says whether s can be an argument's name: a word of letters, digits, '_'
// and '-'.
func langchainArgKey(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}
