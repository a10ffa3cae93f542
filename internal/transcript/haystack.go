package transcript

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/loopguard/loopguard"
)

// Haystack's Agent, given streaming_callback=print_streaming_chunk (the way its tutorials and
// cookbooks watch an agent work), prints each model reply and each tool's answer as it
// streams, every block under a bracketed heading:
//
//	[TOOL CALL]
//	Tool: html_analyzer
//	Arguments: {"url": "https://visitors.now"}
//
//	[TOOL CALL]
//	Tool: get_readability_score
//	Arguments: {"url": "https://visitors.now"}
//
//	[TOOL RESULT]
//	{"sections": {"header": true, ...}}
//
//	[TOOL RESULT]
//	Flesch-Kincaid Grade: 10.2
//
//	[ASSISTANT]
//	# UI/UX Analysis of Visitors.now ...
//
// ("Tool: <name> " keeps a trailing space.) The calls of one reply come first, then their
// results, in the order of the calls and without the tool's name: the k-th "[TOOL RESULT]"
// after a group of "[TOOL CALL]"s answers the group's k-th call. "[ASSISTANT]" and, since
// late 2025, "[REASONING]" are the model's words. The arguments are the JSON the model
// streamed.
//
// What the console does not show, and the reader therefore cannot know:
//   - whether a call failed: Haystack prints an error's text as the result, but not the
//     ToolCallResult's error flag, so the engine reads the result's text itself;
//   - a call of a tool the agent does not have: Haystack answers it with an error message it
//     never streams, so the group's later results shift up one and its last call reads
//     unanswered;
//   - the user's task, and where one run ends and the next starts: a final answer and a
//     reply's words before its calls look alike, and cells of a notebook print one after
//     another. All of a text is one session: cutting a run at every reply that speaks before
//     calling would hide the very repetition the guard looks for.
//
// Markers are printed with no line break before them when a block is the first of its
// message (print_streaming_chunk separates only later blocks), so a marker ending a line of
// text opens a block too.
//
// Written from haystack's print_streaming_chunk (haystack/components/generators/utils.py,
// 2025-2026) and the cookbook's ui_ux_reviewer_agent notebook (validation round r190a G5: 4
// parallel calls unread).

// The headings print_streaming_chunk writes, each alone on its line.
const (
	haystackToolCall   = "[TOOL CALL]"
	haystackToolResult = "[TOOL RESULT]"
	haystackAssistant  = "[ASSISTANT]"
	haystackReasoning  = "[REASONING]"
)

var haystackMarkers = [...]string{haystackToolCall, haystackToolResult, haystackAssistant, haystackReasoning}

// isHaystackConsoleHead says whether a text's head holds a tool call as print_streaming_chunk
// prints it: "[TOOL CALL]", then "Tool: <name>" and "Arguments:" on the next two lines. The
// three lines together are Haystack's alone; a bracketed heading by itself is common.
func isHaystackConsoleHead(head []byte) bool {
	for rest := head; ; {
		i := bytes.Index(rest, []byte(haystackToolCall))
		if i < 0 {
			return false
		}
		rest = rest[i+len(haystackToolCall):]
		after := bytes.TrimPrefix(rest, []byte("\r"))
		tool, ok := bytes.CutPrefix(after, []byte("\nTool: "))
		if !ok {
			continue
		}
		nl := bytes.IndexByte(tool, '\n')
		if nl < 0 {
			return false // the head ends inside the call
		}
		name := bytes.TrimSpace(tool[:nl])
		if len(name) == 0 || bytes.ContainsAny(name, " \t") {
			continue
		}
		if bytes.HasPrefix(tool[nl+1:], []byte("Arguments:")) {
			return true
		}
	}
}

// haystackLines returns the console's lines with each marker on a line of its own: a
// marker glued to the end of the text before it is cut off into its own line.
func haystackLines(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		t := strings.TrimRight(l, " \t")
		cut := false
		for _, m := range haystackMarkers {
			if before, ok := strings.CutSuffix(t, m); ok && strings.TrimSpace(before) != "" {
				out = append(out, before, m)
				cut = true
				break
			}
		}
		if !cut {
			out = append(out, l)
		}
	}
	return out
}

// haystackMarker returns the marker a line is, or "".
func haystackMarker(line string) string {
	t := strings.TrimSpace(line)
	for _, m := range haystackMarkers {
		if t == m {
			return m
		}
	}
	return ""
}

// haystackConsole is the state of a console being read.
type haystackConsole struct {
	a       *agentBuf
	replies replyCounter
	// waiting: the calls of the last group not answered yet, in the order they were made
	waiting []int
	// answering: a result came since the last call, so the next call starts a new group
	answering bool
	calls     int
}

// block takes one marker's block: its marker and the lines under it up to the next marker.
func (c *haystackConsole) block(marker string, body []string) {
	switch marker {
	case haystackToolCall:
		c.call(body)
	case haystackToolResult:
		c.replies.end()
		c.answering = true
		if len(c.waiting) == 0 {
			return // an answer to a call the console did not show
		}
		idx := c.waiting[0]
		c.waiting = c.waiting[1:]
		result := strings.TrimSpace(strings.Join(body, "\n"))
		c.a.events[idx] = c.a.events[idx].WithResult(result, false)
	case haystackAssistant, haystackReasoning:
		c.newReply()
		c.a.turn = c.replies.call()
		c.a.text("model", strings.TrimSpace(strings.Join(body, "\n")), "", 0)
	}
}

// newReply closes the last group when its results came: the model speaks again, and the
// group's calls still waiting were never answered on the console.
func (c *haystackConsole) newReply() {
	if c.answering {
		c.waiting, c.answering = nil, false
	}
}

// call reads a "[TOOL CALL]" block: "Tool: <name> ", then "Arguments: " and the JSON
// streamed after it, to the block's end.
func (c *haystackConsole) call(body []string) {
	var tool string
	var args []string
	inArgs := false
	for _, l := range body {
		switch {
		case inArgs:
			args = append(args, l)
		case strings.HasPrefix(l, "Tool: ") && tool == "":
			tool = strings.TrimSpace(l[len("Tool: "):])
		case strings.HasPrefix(l, "Arguments:") && tool != "":
			inArgs = true
			args = append(args, strings.TrimPrefix(l, "Arguments:"))
		}
	}
	if tool == "" {
		return
	}
	c.newReply()
	c.a.turn = c.replies.call()
	idx := c.a.add(loopguard.Call("", tool, printedArgs(strings.TrimSpace(strings.Join(args, "\n")))))
	c.waiting = append(c.waiting, idx)
	c.calls++
}

// readHaystackConsole reads a Haystack agent's console (print_streaming_chunk) as one session
// of agent main.
func readHaystackConsole(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatHaystackConsole)
	c := &haystackConsole{a: b.agent(MainAgent)}
	marker := ""
	var body []string
	for _, l := range haystackLines(lines) {
		if m := haystackMarker(l); m != "" {
			c.block(marker, body)
			marker, body = m, nil
			continue
		}
		if marker != "" {
			body = append(body, l) // text before the first marker is the notebook's own prints
		}
	}
	c.block(marker, body)
	c.a.turn = ""
	if c.calls == 0 {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no Haystack tool call", ErrUnknownFormat)}
	}
	t := b.done()
	t.Sessions = 1
	return t, nil
}
