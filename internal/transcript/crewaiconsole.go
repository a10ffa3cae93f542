package transcript

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/loopguard/loopguard"
)

// CrewAI 1.x prints a crew's run (verbose=True) as panels from its event bus, one an event,
// in place of the "# Agent:" sections of earlier releases (crewailog.go):
//
//	╭──────── 🤖 Agent Started ────────╮
//	│  Agent: Senior Stock Market Analyst │
//	│  Task: Perform detailed financial analysis ... │
//	╰────────────────────────────────────╯
//	╭──── 🔧 Tool Execution Started (#1) ────╮
//	│  Tool: tavily_search                    │
//	│  Args: {'query': 'AAPL stock forecast'} │
//	╰─────────────────────────────────────────╯
//	╭──── ✅ Tool Execution Completed (#1) ────╮
//	│  Tool Completed                           │
//	│  Tool: tavily_search                      │
//	│  Output: {"query": ...                    │
//	╰───────────────────────────────────────────╯
//	╭──────── ✅ Agent Final Answer ────────╮
//	│  Agent: Senior Stock Market Analyst    │
//	│  Final Answer: ...                     │
//
// and "🔧 Tool Error (#n)" (Tool Failed, Tool:, Iteration:, Attempt:, Error:) for a call that
// raised. The number is how many times that tool was used so far in the process, not the
// call's own: a start and its end are paired by tool, first come first answered. The
// arguments are Python's printing of the dict, cut at 200 characters ("..."); a panel's text
// is wrapped at the console's width, the same for every call of a run.
//
// Session: each "🚀 Crew Execution Started". Agent: the role the last "🤖 Agent Started" named
// and no "✅ Agent Final Answer" has closed; a coworker a delegation starts runs while the
// delegating call waits, and its calls are its own. Agents of tasks run at once
// (async_execution) start one after another with no call waiting: the panels do not say whose
// a call is, and while more than one runs, their calls are read as one agent's, "crew" (the
// guard sees one stream of calls, as the console does; two agents sending the same search
// are then told alike). Their calls end in any order: a call of a tool another call of it
// waited beside has an answer the panels do not say is its own, and is read unanswered.
//
// Written from CrewAI 1.x notebooks committed to GitHub (validation round r146c U2); the
// panels' titles and fields are CrewAI's console formatter's.

// crewAIPanelTitles are the titles of the panels the reader reads.
var crewAIPanelTitles = []string{"🚀 Crew Execution Started", "Crew Completion", "Crew Failure",
	"🤖 Agent Started", "✅ Agent Final Answer", "🔧 Tool Execution Started", "✅ Tool Execution Completed",
	"🔧 Tool Error", "🔧 Agent Tool Execution", "Tool Input", "Tool Output"}

// isCrewAIConsoleHead says whether a text's head holds CrewAI 1.x's panels of an agent or a
// tool call.
func isCrewAIConsoleHead(head []byte) bool {
	s := string(head)
	return strings.Contains(s, "🤖 Agent Started") || strings.Contains(s, "🔧 Tool Execution Started (#") ||
		strings.Contains(s, "🔧 Agent Tool Execution")
}

// crewAIPanel is one panel: its title and its lines, borders and padding off.
type crewAIPanel struct {
	title string
	lines []string
}

// field returns the text after label ("Tool:") up to the next of labels, lines joined by sep.
func (p *crewAIPanel) field(label, sep string, labels ...string) string {
	for i, l := range p.lines {
		if !strings.HasPrefix(l, label) {
			continue
		}
		parts := []string{strings.TrimSpace(l[len(label):])}
	more:
		for _, next := range p.lines[i+1:] {
			for _, other := range labels {
				if strings.HasPrefix(next, other) {
					break more
				}
			}
			parts = append(parts, next)
		}
		return strings.TrimSpace(strings.Join(parts, sep))
	}
	return ""
}

// crewAIPanelTitle returns the title of the panel a line opens, or "": a rule with the title
// in it ("╭──── 🤖 Agent Started ────╮"), or the title alone, as a copy without its borders
// keeps it.
func crewAIPanelTitle(line string) (title string, boxed bool) {
	t := strings.TrimSpace(line)
	boxed = strings.HasPrefix(t, "╭")
	if boxed {
		t = strings.TrimSpace(strings.Trim(t, "╭╮─ "))
	}
	for _, known := range crewAIPanelTitles {
		switch {
		case !strings.HasPrefix(t, known):
		case known[0] >= 0x80:
			return t, boxed // it opens with its emoji, and may go on with a number ("(#3)")
		case boxed && t == known:
			// A title of words alone ("Tool Input", "Crew Completion") is the whole title of
			// a boxed panel, not the start of a line of text.
			return t, boxed
		}
	}
	return "", false
}

// crewAIPanelLine returns a boxed panel's line without its borders and the two columns of
// padding, and whether the line is one.
func crewAIPanelLine(line string) (string, bool) {
	t := strings.TrimRight(line, " ")
	if !strings.HasPrefix(t, "│") {
		return "", false
	}
	t = strings.TrimSuffix(strings.TrimPrefix(t, "│"), "│")
	t = strings.TrimRight(t, " ")
	for range 2 {
		t = strings.TrimPrefix(t, " ")
	}
	return t, true
}

// crewAIPanels cuts printed lines into the panels the reader reads. A boxed panel runs to
// its bottom border; one copied without borders runs over its indented or blank lines.
func crewAIPanels(lines []string) []crewAIPanel {
	// A live status tree printed without its last line break leaves the next panel's top
	// border on its own last line ("└── 🔧 Used 百度搜索 (1)╭──── 🔧 Agent Tool Execution ──╮"):
	// the border starts a line of its own (validation round r147a U1: 109 calls unread).
	var split []string
	for i, l := range lines {
		if k := strings.Index(l, "╭"); k > 0 && strings.TrimSpace(l[:k]) != "" {
			if split == nil {
				split = append(make([]string, 0, len(lines)+8), lines[:i]...)
			}
			split = append(split, l[:k], l[k:])
			continue
		}
		if split != nil {
			split = append(split, l)
		}
	}
	if split != nil {
		lines = split
	}
	var panels []crewAIPanel
	for i := 0; i < len(lines); i++ {
		title, boxed := crewAIPanelTitle(lines[i])
		if title == "" {
			continue
		}
		p := crewAIPanel{title: title}
		for i+1 < len(lines) {
			next := lines[i+1]
			if t, _ := crewAIPanelTitle(next); t != "" {
				break
			}
			if boxed {
				l, ok := crewAIPanelLine(next)
				if !ok {
					break // its bottom border, or a print between panels
				}
				p.lines = append(p.lines, l)
			} else {
				if next != "" && next[0] != ' ' {
					break
				}
				p.lines = append(p.lines, strings.TrimSpace(next))
			}
			i++
		}
		panels = append(panels, p)
	}
	return panels
}

// crewAICall is a call started and not yet answered.
type crewAICall struct {
	a          *agentBuf
	tool       string
	args       []byte
	overlapped bool // another call of its tool waited while it did
}

// crewAIAnswer is a tool's answer printed before the panel of the call it answers.
type crewAIAnswer struct {
	tool, text string
	failed     bool
}

// crewAIRun is the state of a crew's run as its panels come: the agents at work, the calls
// waiting, and the runs of crews a call started inside it.
type crewAIRun struct {
	b          *builder
	open       []string       // agents started and not finished, in order
	concurrent bool           // an agent started with no call waiting on it
	pending    []crewAICall   // calls started (1.x panels), in order
	early      []crewAIAnswer // answers whose call's panel comes after them
	executing  []crewAICall   // calls of the older layout, waiting for their input and output
	outer      []crewAIFrame  // the crews whose call started the one under way
	seen       bool           // anything read in the session
	// named: the panels name the agent of each call (the older layout), and no agent need be
	// guessed; a delegation's panels come after the coworker's run there, which read as
	// agents at work at once would have made every agent "crew"
	named bool
}

// crewAIFrame is what a crew started inside a call sets aside until it completes.
type crewAIFrame struct {
	open       []string
	concurrent bool
}

// waiting says whether a call of the last started agent waits (a delegation).
func (r *crewAIRun) waiting() bool {
	if len(r.open) == 0 {
		return false
	}
	for _, c := range r.pending {
		if c.a.id == r.open[len(r.open)-1] || r.concurrent && c.a.id == "crew" {
			return true
		}
	}
	return len(r.executing) > 0
}

// current is the agent a call started now is made by.
func (r *crewAIRun) current() *agentBuf {
	if len(r.open) == 0 || r.concurrent && len(r.open) > 1 {
		return r.b.agent("crew")
	}
	return r.b.agent(r.open[len(r.open)-1])
}

// answer gives the first waiting call of tool its answer, or keeps the answer for that
// tool's next call when none waits (CrewAI prints an end before its start at times).
func (r *crewAIRun) answer(tool, result string, failed bool) {
	result = crewAIOutput(result)
	for i, c := range r.pending {
		if c.tool != tool {
			continue
		}
		call := loopguard.Call("", c.tool, c.args)
		if !r.concurrent || !c.overlapped {
			call = call.WithResult(result, failed || crewAIFailed(result))
		} // else agents running at once end their calls in any order: whose answer this
		// is, the panels do not say, and the call is left unanswered
		c.a.add(call)
		r.pending = append(r.pending[:i], r.pending[i+1:]...)
		return
	}
	r.early = append(r.early, crewAIAnswer{tool: tool, text: result, failed: failed})
}

// start takes a 1.x call's panel: answered at once by an answer printed before it, or left
// waiting.
func (r *crewAIRun) start(tool string, args []byte) {
	r.seen = true
	for i, e := range r.early {
		if e.tool == tool {
			r.current().add(loopguard.Call("", tool, args).WithResult(e.text, e.failed || crewAIFailed(e.text)))
			r.early = append(r.early[:i], r.early[i+1:]...)
			return
		}
	}
	call := crewAICall{a: r.current(), tool: tool, args: args}
	for i := range r.pending {
		if r.pending[i].tool == tool {
			r.pending[i].overlapped, call.overlapped = true, true
		}
	}
	r.pending = append(r.pending, call)
}

// finish ends a session: calls still waiting were never answered.
func (r *crewAIRun) finish() {
	for _, c := range r.pending {
		c.a.add(loopguard.Call("", c.tool, c.args))
	}
	for _, c := range r.executing {
		c.a.add(loopguard.Call("", c.tool, c.args))
	}
	r.pending, r.executing, r.early, r.open, r.outer, r.concurrent = nil, nil, nil, nil, nil, false
}

// crewStarted opens a session, or, while a call waits, a crew run inside that call (a tool
// that runs a crew of its own): its agents are the session's too, and when it completes, the
// agents it found at work are at work again.
func (r *crewAIRun) crewStarted() {
	if len(r.pending) > 0 || len(r.executing) > 0 {
		r.outer = append(r.outer, crewAIFrame{open: r.open, concurrent: r.concurrent})
		r.open, r.concurrent = nil, false
		return
	}
	r.finish()
	if r.seen {
		r.b.session++
	}
}

// crewCompleted closes a crew run started inside a call.
func (r *crewAIRun) crewCompleted() {
	if n := len(r.outer); n > 0 {
		r.open, r.concurrent = r.outer[n-1].open, r.outer[n-1].concurrent
		r.outer = r.outer[:n-1]
	}
}

// agentStarted opens an agent's run.
func (r *crewAIRun) agentStarted(role, task string) {
	if r.named {
		r.seen = true
		r.b.agent(role).user(task, 0)
		return
	}
	if len(r.open) > 0 && !r.waiting() && r.open[len(r.open)-1] != role {
		r.concurrent = true
	}
	r.open = append(r.open, role)
	r.seen = true
	r.current().user(task, 0)
}

// agentFinished takes an agent's final answer and closes its run.
func (r *crewAIRun) agentFinished(role, answer string) {
	a := r.b.agent(role)
	if r.concurrent && len(r.open) > 1 && !r.named {
		a = r.b.agent("crew")
	}
	a.text("model", answer, "", 0)
	for i := len(r.open) - 1; i >= 0; i-- {
		if r.open[i] == role {
			r.open = append(r.open[:i], r.open[i+1:]...)
			break
		}
	}
	if len(r.open) <= 1 {
		r.concurrent = false
	}
}

func readCrewAIConsole(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	r := &crewAIRun{b: newBuilder(FormatCrewAIConsole)}
	panels := crewAIPanels(lines)
	for _, p := range panels {
		if strings.HasPrefix(p.title, "🔧 Agent Tool Execution") {
			r.named = true
			break
		}
	}
	for _, p := range panels {
		switch t := p.title; {
		case strings.HasPrefix(t, "🚀 Crew Execution Started"):
			r.crewStarted()
		case strings.HasPrefix(t, "Crew Completion"), strings.HasPrefix(t, "Crew Failure"):
			r.crewCompleted()
		case strings.HasPrefix(t, "🤖 Agent Started"):
			if role := p.field("Agent:", " ", "Task:"); role != "" {
				r.agentStarted(role, p.field("Task:", "\n"))
			}
		case strings.HasPrefix(t, "✅ Agent Final Answer"):
			r.agentFinished(p.field("Agent:", " ", "Final Answer:"), p.field("Final Answer:", "\n"))
		case strings.HasPrefix(t, "🔧 Tool Execution Started"):
			if tool := p.field("Tool:", " ", "Args:"); tool != "" {
				r.start(tool, printedArgs(p.field("Args:", " ")))
			}
		case strings.HasPrefix(t, "✅ Tool Execution Completed"):
			r.answer(p.field("Tool:", " ", "Output:"), p.field("Output:", "\n"), false)
		case strings.HasPrefix(t, "🔧 Tool Error"):
			r.answer(p.field("Tool:", " ", "Iteration:", "Attempt:", "Error:"), p.field("Error:", "\n"), true)
		case strings.HasPrefix(t, "🔧 Agent Tool Execution"):
			// The older layout: the agent, its thought and its tool here, then the input and
			// the output in panels of their own. A coworker's run comes between a
			// delegation's input and its output: an output answers the last call waiting.
			tool := p.field("Using Tool:", " ")
			if tool == "" {
				continue
			}
			var a *agentBuf
			if role := p.field("Agent:", " ", "Thought:", "Using Tool:"); role != "" {
				a = r.b.agent(role)
			} else {
				a = r.current()
			}
			a.text("model", strings.TrimSpace(strings.TrimPrefix(p.field("Thought:", "\n", "Using Tool:"), "Thought:")), "", 0)
			r.executing = append(r.executing, crewAICall{a: a, tool: tool})
			r.seen = true
		case t == "Tool Input":
			for i := len(r.executing) - 1; i >= 0; i-- {
				if r.executing[i].args == nil {
					r.executing[i].args = printedArgs(strings.TrimSpace(strings.Join(p.lines, "\n")))
					break
				}
			}
		case t == "Tool Output":
			if n := len(r.executing); n > 0 {
				c := r.executing[n-1]
				out := crewAIOutput(strings.TrimSpace(strings.Join(p.lines, "\n")))
				c.a.add(loopguard.Call("", c.tool, c.args).WithResult(out, crewAIFailed(out)))
				r.executing = r.executing[:n-1]
			}
		}
	}
	r.finish()
	if !r.seen {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no CrewAI agent or tool panel", ErrUnknownFormat)}
	}
	t := r.b.done()
	t.Sessions = r.b.session + 1
	return t, nil
}
