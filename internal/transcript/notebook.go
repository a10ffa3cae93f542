package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/loopguard/loopguard"
)

// A Jupyter notebook (.ipynb, nbformat 4) keeps what its cells printed: research agents are
// often run from one, and the run's transcript is the notebook's output. ReAct's own notebooks
// print each step as they play it (HotpotQA and FEVER "Thought 1:", "Action 1:", "Observation
// 1:"; ALFWorld "Act 1:", "Obs 1:"; WebShop "Action: search[...]", "Observation: ..." unnumbered,
// an episode under a rule of dashes and its index). The text the code cells printed (to stdout,
// and to stderr, where Python's logging writes), in order, with the plain text of what they displayed (a rich console's panels, as smolagents
// shows its steps), is read as the transcript it is, by the readers of printed transcripts; a
// notebook whose output holds none is no transcript.
//
// Written from ReAct's WebShop notebook (ysymyth/ReAct, 500 episodes of text-davinci-002;
// validation round r142b U1: 3,937 actions unread).

// readNotebook reads the transcript a notebook's cells printed.
func readNotebook(name string, br *bufio.Reader, hint int64) (*Transcript, error) {
	var nb struct {
		Cells []notebookCell `json:"cells"`
	}
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		var se *json.SyntaxError
		line := 0
		if errors.As(err, &se) {
			line = 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte{'\n'})
		}
		return nil, &Error{Path: name, Line: line, Err: fmt.Errorf("notebook: %w", err)}
	}
	// What the cells showed: their standard output and the plain text of what they displayed
	// (a rich console's panels, as smolagents shows its steps), then, if that holds no
	// transcript, with their standard error too, where Python's logging writes (browser-use's
	// records): read first, a library's warnings on stderr would come before the run.
	t, err := readShown(name, shownText(nb.Cells, false, false))
	if err != nil {
		t, err = readShown(name, shownText(nb.Cells, true, false))
	}
	if err != nil {
		// A notebook's first output may be a printed list or a bracketed heading ("[Available
		// tools]", `print(result.messages)`), which makes the text look like a JSON document to
		// the readers of printed transcripts, and a run printed after it went unread
		// (validation round r187b G1: a 25-call LangChain run). Such outputs before the first
		// other one are passed over.
		t, err = readShown(name, shownText(nb.Cells, false, true))
	}
	if err != nil {
		// An AutoGen AgentChat team's run shown only as the Python repr of its TaskResult, the
		// cell's value or a print of it (validation round r187b G3). Read last, and the cells'
		// values only here: a run streamed through AgentChat's Console shows its TaskResult
		// as the cell's value too, and would be read twice.
		t, err = readAutoGenReprs(name, shownOutputs(nb.Cells))
	}
	if err != nil {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: a notebook whose cells printed no transcript", ErrUnknownFormat)}
	}
	return t, nil
}

// notebookCell is a notebook's cell, as much of it as readNotebook reads.
type notebookCell struct {
	Outputs []struct {
		OutputType string          `json:"output_type"`
		Name       string          `json:"name"`
		Text       json.RawMessage `json:"text"`
		Data       struct {
			Plain json.RawMessage `json:"text/plain"`
		} `json:"data"`
	} `json:"outputs"`
}

// shownText is what cells showed, in order: their standard output and displays, and their
// standard error with them when stderr is true; colours and cursor moves left out
// (renderTerminalLine). When skipBracketed is true, the outputs that open with '[' or '{'
// before any other output are left out.
func shownText(cells []notebookCell, stderr, skipBracketed bool) string {
	var printed strings.Builder
	write := func(raw json.RawMessage) {
		one := notebookText(raw)
		if skipBracketed && printed.Len() == 0 {
			if t := strings.TrimLeft(one, " \t\r\n"); t == "" || t[0] == '[' || t[0] == '{' {
				return
			}
		}
		printed.WriteString(one)
		if n := printed.Len(); n > 0 && printed.String()[n-1] != '\n' {
			printed.WriteByte('\n')
		}
	}
	for _, c := range cells {
		for _, o := range c.Outputs {
			switch {
			case o.OutputType == "stream" && (o.Name == "stdout" || stderr && o.Name == "stderr"):
				write(o.Text)
			case o.OutputType == "display_data":
				write(o.Data.Plain)
			}
		}
	}
	text := printed.String()
	if strings.IndexByte(text, 0x1b) < 0 {
		return text
	}
	var shown strings.Builder
	for line := range strings.SplitSeq(text, "\n") {
		shown.WriteString(renderTerminalLine([]byte(line)))
		shown.WriteByte('\n')
	}
	return shown.String()
}

// notebookText is an output's text as nbformat writes it: one string or a list of lines; ""
// for anything else.
func notebookText(raw json.RawMessage) string {
	var one string
	var lines []string
	switch {
	case len(raw) == 0:
	case json.Unmarshal(raw, &one) == nil:
	case json.Unmarshal(raw, &lines) == nil:
		one = strings.Join(lines, "")
	}
	return one
}

// shownOutputs is each output of the cells that printed to stdout or showed a value or a
// display, as its plain text, in order.
func shownOutputs(cells []notebookCell) []string {
	var outputs []string
	for _, c := range cells {
		for _, o := range c.Outputs {
			raw := o.Data.Plain
			if o.OutputType == "stream" {
				if o.Name != "stdout" {
					continue
				}
				raw = o.Text
			}
			if one := notebookText(raw); one != "" {
				outputs = append(outputs, one)
			}
		}
	}
	return outputs
}

// readShown reads the text a notebook's cells showed as the transcript it is: by the readers
// of printed transcripts, or, when none knows it, as ReAct's unnumbered steps. Those come last:
// a framework's printout may quote "Action:" and "Observation:" lines of its prompt's format
// (CrewAI's does), and is its own format first (validation round r144b U4).
func readShown(name, text string) (*Transcript, error) {
	t, err := readPlain(name, bufio.NewReaderSize(strings.NewReader(text), sniffSize), int64(len(text)))
	if err != nil && isReactStepsText(text) {
		return finish(name, readReactSteps(text)), nil
	}
	return t, err
}

// isReactStepsText says whether printed text holds ReAct's unnumbered steps: an "Action: "
// line answered by an "Observation:" line.
func isReactStepsText(text string) bool {
	act := strings.Index(text, "\nAction: ")
	if act < 0 && !strings.HasPrefix(text, "Action: ") {
		return false
	}
	return strings.Contains(text[max(act, 0):], "\nObservation:")
}

// readReactSteps reads ReAct's unnumbered steps, as its WebShop runner prints them: an episode
// under a rule of dashes, "Action: reset" (the environment's, not the model's), then "Action:
// tool[argument]" lines, each answered by the "Observation:" text under it, to the next action
// or rule. "think[...]" is the model thinking aloud (the environment answers "OK."); "Invalid
// action!" is the environment refusing the action.
func readReactSteps(text string) *built {
	b := newBuilder(FormatReactLog)
	var a *agentBuf
	session, pending := -1, -1
	newEpisode := true
	var obs []string
	answer := func() {
		if pending >= 0 && a != nil {
			result := strings.TrimSpace(strings.Join(obs, "\n"))
			a.events[pending] = a.events[pending].WithResult(result, strings.HasPrefix(result, "Invalid action"))
		}
		pending, obs = -1, nil
	}
	observing := false
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if len(line) >= 5 && strings.Trim(line, "-") == "" {
			answer()
			observing, newEpisode = false, true
			continue
		}
		if act, ok := strings.CutPrefix(line, "Action: "); ok {
			answer()
			observing = false
			act = strings.TrimSpace(act)
			if newEpisode || a == nil || act == "reset" {
				session++
				b.session = session
				a = b.agent(MainAgent)
				newEpisode = false
			}
			if act == "reset" || act == "" {
				continue
			}
			if thought, ok := strings.CutPrefix(act, "think["); ok {
				a.text("model", strings.TrimSuffix(thought, "]"), "", 0)
				continue
			}
			if c, ok := reactCall("Action: " + act); ok {
				pending = a.add(loopguard.Call("", c.name, c.args))
			} else {
				pending = a.add(loopguard.Call("", firstToken(act), []byte(act)))
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "Observation:"); ok {
			observing = true
			obs = append(obs[:0], strings.TrimSpace(rest))
			continue
		}
		if observing {
			obs = append(obs, line)
		}
	}
	answer()
	t := b.done()
	t.Sessions = session + 1
	return t
}
