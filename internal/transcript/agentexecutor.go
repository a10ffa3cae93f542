package transcript

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/loopguard/loopguard"
)

// LangChain's AgentExecutor, run with verbose=True, prints a tool-calling agent's run as it goes,
// and tutorials keep that printout in their notebooks:
//
//	> Entering new AgentExecutor chain...
//
//	Invoking: `pdf_search` with `{'query': 'Tesla revenue outlook'}`
//
//
//	Tesla's revenue grew ...            (the tool's output, then the model's next words)
//	Invoking: `write_file` with `{'file_path': 'report.md', 'text': '...'}`
//	...
//	> Finished chain.
//
// Each chain is a session of agent main (a printout that shows no chain, one); each "Invoking:" line is a call of the tool named, its
// input (a Python dict) the arguments, answered by the text printed after it up to the next
// call or the chain's end. The printout does not set the tool's output apart from the model's
// words after it, so they are read as one answer: two calls answered alike are read alike only
// when the model also said the same after them.
//
// Written from LangChain tutorials' notebooks of 2024-2025 (validation round r143b U3: 13 calls
// of one report-writing agent unread).

// agentExecutorStart opens a chain of AgentExecutor's printout.
const agentExecutorStart = "> Entering new AgentExecutor chain..."

// isAgentExecutorHead says whether a text's head holds AgentExecutor's printout of calls.
func isAgentExecutorHead(head []byte) bool {
	calls := 0
	for line := range bytes.SplitSeq(head, []byte("\n")) {
		if _, _, ok := agentExecutorCall(string(bytes.TrimSpace(line))); ok {
			calls++
		}
	}
	// a chain's start and a call in it, or two calls (a tutorial's own printer of the stream,
	// "[Tool Called]" over AgentExecutor's log line, prints no chain)
	return calls >= 2 || calls == 1 && bytes.Contains(head, []byte(agentExecutorStart))
}

func readAgentExecutor(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatAgentExecutor)
	var a *agentBuf
	runs := 0
	pending := -1
	var answer []string
	answered := func() {
		if pending >= 0 && a != nil {
			a.events[pending] = a.events[pending].WithResult(strings.Trim(strings.Join(answer, "\n"), "\n "), false)
		}
		pending, answer = -1, nil
	}
	for _, line := range lines {
		t := strings.TrimSpace(line)
		switch {
		case t == agentExecutorStart:
			answered()
			if runs > 0 {
				b.session++
			}
			runs++
			a = b.agent(MainAgent)
		case t == "> Finished chain.", t == "[Tool Called]":
			answered() // a chain's end, or a tutorial's printer heading the next call
		case strings.HasPrefix(t, "Invoking: `"):
			answered()
			if a == nil { // a printout of the stream that shows no chain
				runs++
				a = b.agent(MainAgent)
			}
			tool, input, ok := agentExecutorCall(t)
			if !ok {
				continue
			}
			pending = a.add(loopguard.Call("", tool, pyDictArgs(input)))
		case pending >= 0:
			answer = append(answer, line)
		}
	}
	answered()
	t := b.done()
	t.Sessions = max(runs, 1)
	return t, nil
}

// agentExecutorCall reads "Invoking: `tool` with `{...}`": the tool and its input.
func agentExecutorCall(t string) (tool, input string, ok bool) {
	rest, ok := strings.CutPrefix(t, "Invoking: `")
	if !ok {
		return "", "", false
	}
	tool, rest, ok = strings.Cut(rest, "` with `")
	if !ok || tool == "" {
		return "", "", false
	}
	input = strings.TrimSuffix(strings.TrimSpace(rest), "`")
	return tool, input, true
}
