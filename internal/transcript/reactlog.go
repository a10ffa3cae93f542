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

// isReactLogHead says whether a text's head holds a ReAct run's first step and its answer.
func isReactLogHead(head []byte) bool {
	act := bytes.Index(head, []byte("\nAct 1: "))
	if act < 0 && !bytes.HasPrefix(head, []byte("Act 1: ")) {
		return false
	}
	return bytes.Contains(head[max(act, 0):], []byte("\nObs 1: "))
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
		case "Act":
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
			if text = strings.TrimSpace(text); text != "" {
				pending = a.add(loopguard.Call("", firstToken(text), []byte(text)))
			}
		case "Obs":
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

// reactLogStep reads a line "Act N: text" or "Obs N: text".
func reactLogStep(line string) (kind string, n int, text string, ok bool) {
	if len(line) < 6 || (line[:4] != "Act " && line[:4] != "Obs ") {
		return "", 0, "", false
	}
	num, rest, found := strings.Cut(line[4:], ":")
	if !found {
		return "", 0, "", false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 {
		return "", 0, "", false
	}
	return line[:3], n, strings.TrimPrefix(rest, " "), true
}
