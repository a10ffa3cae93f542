package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/loopguard/loopguard"
)

// CrewAI prints a crew's run with verbose=True as sections under each agent's steps, and
// people save that console output (colours and all):
//
//	# Agent: Client Profiling Specialist
//	## Task: Calculate the years until retirement ...
//	## Thought: I need the client's current age first.
//	## Using tool: FinancialAnalysisMCPTool
//	## Tool Input:
//	"{\"operation_name\": \"calculate_current_age\", \"arguments\": {...}}"
//	## Tool Output:
//	TOOL_ERROR:DIRECT_ASYNCIO_RUN_ERROR ...
//	## Final Answer: ...
//
// between the status trees of its live display (🚀 Crew:, 📋 Task:, 🤖 Agent:, Status:,
// boxes of ╭│╰), which end a section and are passed over. Session: the file; each agent a
// role of its own (its name, as "# Agent:" gives it). A task is the agent's user turn, a
// thought and a final answer its words, a tool used a call whose arguments are the tool
// input (a JSON string holding the JSON the model wrote) and whose result is the tool output.
// A failure shows only in the output's text (TOOL_ERROR:, Error:), which the progress
// detector reads. A coworker's steps are printed before the delegating call that made them,
// as they come.
//
// Written from real crews' output committed to GitHub (validation round r68a U3).

// crewAIMarks open the sections of CrewAI's verbose output.
var crewAIMarks = []string{"# Agent: ", "## Task:", "## Thought:", "## Using tool:", "## Tool Input:", "## Tool Output:", "## Final Answer:"}

// isCrewAIHead says whether a text's head is CrewAI's verbose output: an agent's section
// and, after it, a section of its step.
func isCrewAIHead(head []byte) bool {
	i := bytes.Index(head, []byte("# Agent:"))                   // a colour code may come before the space
	if i < 0 || i > 0 && head[i-1] != '\n' && head[i-1] != 'm' { // 'm' ends a colour code
		return false
	}
	rest := head[i:]
	return bytes.Contains(rest, []byte("## Task:")) || bytes.Contains(rest, []byte("## Using tool:")) ||
		bytes.Contains(rest, []byte("## Final Answer:"))
}

func readCrewAILog(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatCrewAILog)
	var a *agentBuf
	section := ""    // the open section's mark, "" for none
	var buf []string // its lines
	tool, args := "", []byte(nil)
	pendingCall := false           // a tool used whose output has not come yet
	answers := map[string]string{} // each agent's last answer to each call (agent, tool, input)
	addCall := func(result string, answered bool) {
		if !pendingCall || a == nil {
			return
		}
		call := loopguard.Call("", tool, args)
		key := a.id + "\x00" + tool + "\x00" + string(args)
		if answered {
			if prev, ok := answers[key]; ok && strings.HasPrefix(result, crewAIReuseRefusal) {
				// CrewAI does not run a call made again with the same input, and says so: the
				// call was made again, and its answer is the one it had (validation round r68a
				// M1: the same failing call three times in a row, told as nothing).
				result = prev
			}
			answers[key] = result
			call = call.WithResult(result, crewAIFailed(result))
		}
		a.add(call)
		pendingCall = false
	}
	flush := func() {
		text := strings.TrimSpace(strings.Join(buf, "\n"))
		switch {
		case a == nil:
		case section == "## Task:":
			a.user(text, 0)
		case section == "## Thought:" || section == "## Final Answer:":
			a.text("model", strings.TrimSpace(strings.TrimPrefix(text, "Thought:")), "", 0)
		case section == "## Tool Input:":
			args = crewAIToolInput(text)
		case section == "## Tool Output:":
			addCall(crewAIOutput(text), true)
		}
		section, buf = "", buf[:0]
	}
	seen := false
	// A copy that opens inside a step, above its first "# Agent:" head (pasted from the
	// middle of a run), is read as the agent that head names: CrewAI heads each step with its
	// agent, and the step cut short is most often the same agent's, going on. Read as no
	// agent's, its call lost its input and output, and it was the first of a loop (validation
	// round r146c U4).
	for _, line := range lines {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "# Agent: ") {
			break
		}
		if strings.HasPrefix(t, "## ") && slices.Contains(crewAIMarks, crewAIMarkOf(t)) {
			for _, later := range lines {
				if lt := strings.TrimSpace(later); strings.HasPrefix(lt, "# Agent: ") {
					a = b.agent(strings.TrimSpace(lt[len("# Agent: "):]))
					break
				}
			}
			break
		}
	}
	for _, line := range lines {
		t := strings.TrimSpace(line)
		mark := crewAIMarkOf(t)
		switch {
		case mark == "# Agent: ":
			flush()
			addCall("", false)
			a, seen = b.agent(strings.TrimSpace(t[len(mark):])), true
		case mark != "":
			flush()
			if mark == "## Using tool:" {
				addCall("", false)
				tool, args, pendingCall = strings.TrimSpace(t[len(mark):]), nil, true
				continue
			}
			section = mark
			if rest := strings.TrimSpace(t[len(mark):]); rest != "" {
				buf = append(buf, rest)
			}
		case crewAIStatusLine(t):
			flush() // the live display's status tree ends a section
		case section != "":
			buf = append(buf, line)
		}
	}
	flush()
	addCall("", false)
	if !seen {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no CrewAI agent", ErrUnknownFormat)}
	}
	return b.done(), nil
}

// crewAIMarkOf returns the section mark a trimmed line opens with, or "".
func crewAIMarkOf(t string) string {
	for _, m := range crewAIMarks {
		if strings.HasPrefix(t, m) {
			return m
		}
	}
	return ""
}

// crewAIReuseRefusal opens what CrewAI answers in a tool's place when the agent uses it again
// with the same input.
const crewAIReuseRefusal = "I tried reusing the same input"

// crewAIStatusLine says whether a trimmed line belongs to CrewAI's live display: its status
// tree and the boxes of its panels.
func crewAIStatusLine(t string) bool {
	for _, p := range []string{"🚀 Crew:", "📋 Task:", "🤖 Agent:", "🔧 ", "✅ ", "└──", "├──", "│", "╭", "╰", "Status:", "🧠 Thinking"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// crewAIToolInput is the tool input as the model wrote it: CrewAI prints it as a JSON string
// that holds the JSON, or as the JSON itself.
func crewAIToolInput(text string) []byte {
	var s string
	if json.Unmarshal([]byte(text), &s) == nil {
		return []byte(s)
	}
	return []byte(text)
}

// crewAIFailures open the outputs CrewAI writes itself when a tool call failed: a tool that
// raised ("I encountered an error while trying to use the tool. This was the error: ..."),
// a call it could not run ("Error executing tool. coworker mentioned not found, it must be
// one of the following options: ..."). Read by the progress detector alone, the second was
// no failure: 18 delegations to a coworker of a wrong name were told once, late (validation
// round r86b U1).
// An MCP server's error comes through as CrewAI got it ("MCP error -32602: Invalid
// arguments for tool ...": validation round r147a U5).
var crewAIFailures = []string{"Error executing tool", "I encountered an error while trying to use the tool", "MCP error -"}

// crewAIToolsReminder opens the reminder of its tools and of the reply's format CrewAI appends
// to a tool's output every few uses (its prompt's "tools" slice): the harness's words, not
// the tool's. Left on, one answer in three differed from the two before it, and 18 failing
// delegations, each answered the same, were told late (validation round r146c M1, r147a: a
// directory listed three times alike untold).
const crewAIToolsReminder = "You ONLY have access to the following tools, and should NEVER make up tools"

// crewAIOutput is what a tool answered: its printed output without CrewAI's reminder.
func crewAIOutput(text string) string {
	if k := strings.Index(text, crewAIToolsReminder); k >= 0 {
		return strings.TrimRight(text[:k], " \n\r\t")
	}
	return text
}

func crewAIFailed(result string) bool {
	result = strings.TrimSpace(result)
	for _, f := range crewAIFailures {
		if strings.HasPrefix(result, f) {
			return true
		}
	}
	return false
}
