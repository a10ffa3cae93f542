package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/loopguard/loopguard"
)

// LlamaIndex's agents print their steps with verbose=True, and notebooks, blog posts and logs
// keep that printout. A function-calling agent prints each call and its output:
//
//	=== Calling Function ===
//	Calling function: multiply with args: {"a": 212, "b": 122}
//	Got output: 25864
//	========================
//
// An agent used as another
// agent's tool prints its own calls while its caller's waits, so an output answers the latest
// call not answered yet. A ReAct agent prints its reasoning a label a line:
//
//	Thought: I need to use a tool to help me answer the question.
//	Action: multiply
//	Action Input: {"a": 2, "b": 4}
//	Observation: 8
//	Thought: I can answer without using any more tools.
//	Answer: 8
//
// an action a call, its input the arguments (over several lines, up to the observation), the
// observation its result (up to the next label, or the runner's "> Running step <id>" mark),
// thoughts and the answer the model's words; "Added user message to memory: ..." is the
// user's turn.
// LangChain's ReAct agents print the same labels, read alike where each keeps its line.
// Session: the file; agent main.
//
// Written from LlamaIndex's agent printing and real printouts (validation round r115b U5).

// isLlamaIndexHead says whether a text's head holds LlamaIndex's printout: a function called
// with its arguments, or a ReAct step whose action, input and observation each keep a line.
func isLlamaIndexHead(head []byte) bool {
	for line := range bytes.SplitSeq(head, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("Calling function: ")); ok && bytes.Contains(rest, []byte(" with args: ")) {
			return true
		}
	}
	action := bytes.Index(head, []byte("\nAction: "))
	if action < 0 {
		return false
	}
	rest := head[action:]
	input := bytes.Index(rest, []byte("\nAction Input: "))
	return input > 0 && bytes.Contains(rest[input:], []byte("\nObservation: "))
}

func readLlamaIndexConsole(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatLlamaIndexConsole)
	a := b.agent(MainAgent)
	var open []int // function calls not answered yet, the latest last
	// What the lines under way are: a call's arguments, its output, a ReAct step's part.
	const (
		none = iota
		funcArgs
		funcOutput
		thought
		actionInput
		observation
	)
	mode, call := none, -1 // call: the event whose arguments or output are being read
	action := ""           // a ReAct action named, its input to come
	var buf []string
	flush := func() {
		text := strings.TrimSpace(strings.Join(buf, "\n"))
		buf = nil
		switch mode {
		case funcArgs:
			e := &a.events[call]
			e.Args = []byte(text)
		case funcOutput:
			e := &a.events[call]
			*e = e.WithResult(text, false)
		case thought:
			a.text("model", text, "", 0)
		case actionInput:
			args := []byte(text)
			if strings.HasPrefix(text, "{'") && !json.Valid(args) {
				// a Python dict (its repr opens "{'"), as some of LlamaIndex's agents print
				// the input (validation round r144b U5): read as the JSON it stands for
				if b, ok := pyDictJSON(text); ok {
					args = b
				}
			}
			call = a.add(loopguard.Call("", action, args))
			action = ""
		case observation:
			if call >= 0 {
				e := &a.events[call]
				*e = e.WithResult(text, false)
			}
			call = -1
		}
		mode = none
	}
	seen := false
	for _, line := range lines {
		t := strings.TrimSpace(line)
		switch {
		case t == "=== Calling Function ===" || strings.HasPrefix(t, "> Running step "):
			flush() // (the agent runner's mark of a step: "> Running step <uuid>. Step input: ...")
		case strings.HasPrefix(t, "Added user message to memory: "):
			flush()
			a.user(strings.TrimPrefix(t, "Added user message to memory: "), 0)
		case strings.HasPrefix(t, "Calling function: ") && strings.Contains(t, " with args: "):
			flush()
			fn, args, _ := strings.Cut(strings.TrimPrefix(t, "Calling function: "), " with args: ")
			call = a.add(loopguard.Call("", fn, nil))
			open = append(open, call)
			mode, buf, seen = funcArgs, []string{args}, true
		case strings.HasPrefix(t, "Got output: "):
			flush()
			if len(open) == 0 {
				continue
			}
			call, open = open[len(open)-1], open[:len(open)-1]
			mode, buf = funcOutput, []string{strings.TrimPrefix(t, "Got output: ")}
		case len(t) >= 8 && strings.Trim(t, "=") == "", strings.HasPrefix(t, "```"):
			flush() // the rule that closes a call, or the end of a printout pasted into a fence
		case strings.HasPrefix(t, "Thought: ") || strings.HasPrefix(t, "Answer: "):
			flush()
			mode, buf = thought, []string{t}
		case strings.HasPrefix(t, "Action: "):
			flush()
			// a tool's name is one word: "Action: tool name (one of {tool_names})" is the
			// prompt's template, which posts that explain the agent quote
			if action = strings.TrimSpace(strings.TrimPrefix(t, "Action: ")); strings.ContainsAny(action, " \t") {
				action = ""
			}
		case strings.HasPrefix(t, "Action Input: ") && action != "":
			flush()
			mode, buf, seen = actionInput, []string{strings.TrimPrefix(t, "Action Input: ")}, true
		case strings.HasPrefix(t, "Observation: "):
			flush()
			mode, buf = observation, []string{strings.TrimPrefix(t, "Observation: ")}
		case mode != none:
			buf = append(buf, line)
		}
	}
	flush()
	if !seen {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no LlamaIndex call", ErrUnknownFormat)}
	}
	return b.done(), nil
}
