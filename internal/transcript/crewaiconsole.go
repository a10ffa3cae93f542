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
var crewAIPanelTitles = []string{"🚀 Crew Execution Started", "🤖 Agent Started", "✅ Agent Final Answer",
	"🔧 Tool Execution Started", "✅ Tool Execution Completed", "🔧 Tool Error"}

// isCrewAIConsoleHead says whether a text's head holds CrewAI 1.x's panels of an agent or a
// tool call.
func isCrewAIConsoleHead(head []byte) bool {
	s := string(head)
	return strings.Contains(s, "🤖 Agent Started") || strings.Contains(s, "🔧 Tool Execution Started (#")
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
		if strings.HasPrefix(t, known) {
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

func readCrewAIConsole(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatCrewAIConsole)
	var open []string        // agents started and not finished, in order
	concurrent := false      // an agent started with no call waiting on it
	var pending []crewAICall // calls started, in order
	seen := false            // anything read in the session
	waiting := func() bool { // a call of the last started agent waits (a delegation)
		if len(open) == 0 {
			return false
		}
		for _, c := range pending {
			if c.a.id == open[len(open)-1] || concurrent && c.a.id == "crew" {
				return true
			}
		}
		return false
	}
	current := func() *agentBuf {
		switch {
		case len(open) == 0:
			return b.agent("crew")
		case concurrent && len(open) > 1:
			return b.agent("crew")
		}
		return b.agent(open[len(open)-1])
	}
	answer := func(tool, result string, failed bool) {
		for i, c := range pending {
			if c.tool != tool {
				continue
			}
			call := loopguard.Call("", c.tool, c.args)
			if !concurrent || !c.overlapped {
				call = call.WithResult(result, failed || crewAIFailed(result))
			} // else agents running at once end their calls in any order: whose answer this
			// is, the panels do not say, and the call is left unanswered
			c.a.add(call)
			pending = append(pending[:i], pending[i+1:]...)
			return
		}
	}
	finishSession := func() {
		for _, c := range pending {
			c.a.add(loopguard.Call("", c.tool, c.args)) // never answered
		}
		pending, open, concurrent = pending[:0], open[:0], false
	}
	for _, p := range crewAIPanels(lines) {
		switch {
		case strings.HasPrefix(p.title, "🚀 Crew Execution Started"):
			finishSession()
			if seen {
				b.session++
			}
		case strings.HasPrefix(p.title, "🤖 Agent Started"):
			role := p.field("Agent:", " ", "Task:")
			if role == "" {
				continue
			}
			if len(open) > 0 && !waiting() && open[len(open)-1] != role {
				concurrent = true
			}
			open = append(open, role)
			seen = true
			current().user(p.field("Task:", "\n"), 0)
		case strings.HasPrefix(p.title, "✅ Agent Final Answer"):
			role := p.field("Agent:", " ", "Final Answer:")
			a := b.agent(role)
			if concurrent && len(open) > 1 {
				a = b.agent("crew")
			}
			a.text("model", p.field("Final Answer:", "\n"), "", 0)
			for i := len(open) - 1; i >= 0; i-- {
				if open[i] == role {
					open = append(open[:i], open[i+1:]...)
					break
				}
			}
			if len(open) <= 1 {
				concurrent = false
			}
		case strings.HasPrefix(p.title, "🔧 Tool Execution Started"):
			tool := p.field("Tool:", " ", "Args:")
			if tool == "" {
				continue
			}
			args := p.field("Args:", " ")
			if j, ok := pyDictJSON(args); ok {
				args = string(j)
			} else if args != "" {
				args = string(marshalArgs(map[string]string{"input": args}))
			}
			call := crewAICall{a: current(), tool: tool, args: []byte(args)}
			for i := range pending {
				if pending[i].tool == tool {
					pending[i].overlapped, call.overlapped = true, true
				}
			}
			pending = append(pending, call)
			seen = true
		case strings.HasPrefix(p.title, "✅ Tool Execution Completed"):
			answer(p.field("Tool:", " ", "Output:"), p.field("Output:", "\n"), false)
		case strings.HasPrefix(p.title, "🔧 Tool Error"):
			answer(p.field("Tool:", " ", "Iteration:", "Attempt:", "Error:"), p.field("Error:", "\n"), true)
		}
	}
	finishSession()
	if !seen {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no CrewAI agent or tool panel", ErrUnknownFormat)}
	}
	return b.done(), nil
}
