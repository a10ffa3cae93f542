package transcript

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// ReAct's runner for text games (ALFWorld), and the many that copied it (Reflexion and the
// papers after it), prints each step of an episode as it plays it, numbered from 1:
//
//	Act 2: go to drawer 1
//	Obs 2: The drawer 1 is closed.
//
// around whatever else the job prints (the model loading, the few-shot prompt, whose
// examples are written "> go to drawer 1" and are not steps). Such output is what a cluster
// job leaves behind (Slurm's slurm-<id>.out). An "Act N" is a call named by its first word,
// its "Obs N" the answer; an act "think: ..." is the model thinking aloud (the game answers
// it "OK."), its words. An episode starts again at "Act 1" (or any number not after the one
// before): a session each. Only one line of an observation is read: the runner prints one,
// and what follows the last is the job's, not the game's.
//
// Written from real runs' output committed to GitHub (validation round r68b U2: nine jobs,
// 363 episodes, 15,244 steps of nine small open models, unread before).
//
// ReAct's question-answering runs (HotpotQA, FEVER) and Reflexion's logs of them spell the
// steps out, with the model's thought before each action:
//
//	Thought 2: Jonny Craig has been a member of four bands. I need to search Pete Doherty next.
//	Action 2: Search[Pete Doherty]
//	Observation 2: Peter Doherty (born 12 March 1979) is an English musician, ...
//
// An action is a call of the tool before its brackets, their content its argument; a thought
// is the model's words (validation round r98b U1: a Reflexion log of 369 calls was "not
// JSON").

// isReactLogHead says whether a text's head holds a ReAct run's first step and its answer.
func isReactLogHead(head []byte) bool {
	for _, label := range [...][2]string{{"Act 1: ", "\nObs 1: "}, {"Action 1: ", "\nObservation 1: "}} {
		act := bytes.Index(head, []byte("\n"+label[0]))
		if act < 0 && !bytes.HasPrefix(head, []byte(label[0])) {
			continue
		}
		if bytes.Contains(head[max(act, 0):], []byte(label[1])) {
			return true
		}
	}
	return false
}

func readReactLog(name string, br *bufio.Reader) (*built, error) {
	lines, err := readMarkdownLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatReactLog)
	var a *agentBuf
	session, last, pending := -1, 0, -1
	for _, line := range lines {
		line = strings.TrimRight(line, "\r")
		kind, n, text, ok := reactLogStep(line)
		if !ok {
			continue
		}
		switch kind {
		case "Thought":
			// said before the action of its number: a new episode may open with it
			if a == nil || n <= last {
				session++
				b.session = session
				a = b.agent(MainAgent)
				last = 0
			}
			a.text("model", strings.TrimSpace(text), "", 0)
		case "Act", "Action":
			if a == nil || n <= last {
				session++
				b.session = session
				a = b.agent(MainAgent)
			}
			last, pending = n, -1
			if thought, ok := strings.CutPrefix(text, "think:"); ok {
				a.text("model", strings.TrimSpace(thought), "", 0)
				continue
			}
			text = strings.TrimSpace(text)
			if text == "" {
				continue
			}
			if kind == "Action" {
				// HotpotQA's and FEVER's tools, written as in ReAct's prompts: Search[entity]
				if c, ok := reactCall("Action: " + text); ok {
					pending = a.add(loopguard.Call("", c.name, c.args))
					continue
				}
			}
			pending = a.add(loopguard.Call("", firstToken(text), []byte(text)))
		case "Obs", "Observation":
			if a == nil || n != last {
				continue // an answer to no step printed
			}
			if pending >= 0 {
				e := &a.events[pending]
				e.Result, e.HasResult = strings.TrimSpace(text), true
			}
			pending = -1
		}
	}
	if session < 0 {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no ReAct step", ErrUnknownFormat)}
	}
	t := b.done()
	t.Sessions = session + 1
	return t, nil
}

// reactLogStep reads a line "Act N: text" or "Obs N: text", or in the spelling of ReAct's
// question-answering runs "Thought N: text", "Action N: text", "Observation N: text"; kind is
// the label.
func reactLogStep(line string) (kind string, n int, text string, ok bool) {
	label, rest, found := strings.Cut(line, " ")
	switch label {
	case "Act", "Obs", "Thought", "Action", "Observation":
	default:
		return "", 0, "", false
	}
	if !found {
		return "", 0, "", false
	}
	num, rest, found := strings.Cut(rest, ":")
	if !found {
		return "", 0, "", false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 {
		return "", 0, "", false
	}
	return label, n, strings.TrimPrefix(rest, " "), true
}
