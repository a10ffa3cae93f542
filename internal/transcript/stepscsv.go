package transcript

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/loopguard/loopguard"
)

// Benchmarks of agents in games and simulated worlds log an episode as a table, one step a
// row, as BALROG does for BabyAI, Crafter, TextWorld, Baba Is AI, NetHack and MiniHack
// (<task>_run_<n>.csv):
//
//	Step,Action,Reasoning,Observation,Reward,Done
//	0,Move East,,"You see:\n- grass 1 steps to your west ...",0.0,False
//
// Read as steps: each row a call of "act" (textActionTool), its action the Action column, answered by what the
// environment showed after it (Observation); the Reasoning (or Thought) column the model's
// words before it. A table is such an episode when its header names an action column and an
// observation column; the file is its session. Written from BALROG's logging code and four of
// its episodes committed to GitHub (validation round r149c U2: a model sent "go forward" 114
// times, the same thing in front of it each time, in a file no reader took).

// stepsColumns are the columns a steps table is read by, found by their header's names.
type stepsColumns struct {
	action, observation, reasoning int
}

// stepsTableColumns finds the columns of a steps table in its header row, and says whether
// the header is one.
func stepsTableColumns(header []string) (stepsColumns, bool) {
	cols := stepsColumns{-1, -1, -1}
	for i, h := range header {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "action":
			cols.action = i
		case "observation", "obs":
			cols.observation = i
		case "reasoning", "thought", "thoughts":
			cols.reasoning = i
		}
	}
	return cols, cols.action >= 0 && cols.observation >= 0
}

// isStepsTableHead says whether a text opens with a steps table's header: a comma-separated
// first line naming an action and an observation column.
func isStepsTableHead(head []byte) bool {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	if bytes.Count(line, []byte(",")) < 1 || len(line) > 512 {
		return false
	}
	_, ok := stepsTableColumns(strings.Split(strings.TrimSpace(string(line)), ","))
	return ok
}

func readStepsTable(name string, br *bufio.Reader) (*built, error) {
	r := csv.NewReader(br)
	r.FieldsPerRecord = -1 // a row cut short is read for what it has
	header, err := r.Read()
	if err != nil {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("steps table: %w", err)}
	}
	cols, ok := stepsTableColumns(header)
	if !ok {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no action and observation columns", ErrUnknownFormat)}
	}
	b := newBuilder(FormatStepsTable)
	a := b.agent(MainAgent)
	field := func(row []string, i int) string {
		if i < 0 || i >= len(row) {
			return ""
		}
		return row[i]
	}
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line := 0
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.Line
			}
			return nil, &Error{Path: name, Line: line, Err: fmt.Errorf("steps table: %w", err)}
		}
		if len(row) == 1 && strings.TrimSpace(row[0]) == "" {
			continue
		}
		a.said(field(row, cols.reasoning))
		action := field(row, cols.action)
		args := marshalArgs(map[string]string{"action": action})
		obs := field(row, cols.observation)
		tool := textActionTool(action)
		if cannotAct(obs) {
			// The environment says the agent cannot act until something comes about (a
			// Crafter agent asleep until its energy is full): whatever it sent, the step
			// is waiting (validation round r151b F1: 72 notices in 21 of 60 Crafter
			// episodes on steps spent asleep).
			tool = "wait"
		}
		a.add(loopguard.Call("", tool, args).WithResult(obs, rejectedAction(obs)))
	}
	return b.done(), nil
}

// textActionTool names the call a text action makes: "act", whatever the action, so that no
// game's verb is taken for a tool's ("move" would be an editor's, every step a change), but
// for an action that only lets time pass, "sleep" or "wait", named so: the guard takes its
// repeats as waiting, as it does a tool named for it (a Crafter agent sleeping through the
// night, the same view each step, was told as stuck).
func textActionTool(action string) string {
	verb, _, _ := strings.Cut(strings.TrimSpace(action), " ")
	switch v := strings.ToLower(verb); v {
	case "sleep", "wait":
		return v
	}
	return "act"
}

// rejectedAction says whether an observation opens with the harness's word that it did not
// take the action and ran its default instead (BALROG: "Your previous output action: 'Move
// North West' is not a valid action. Defaulted to action: Noop"): the step failed (validation
// round r150b U1: 17 rejected actions of one episode read as moves made).
func rejectedAction(obs string) bool {
	head := obs[:min(len(obs), 400)]
	return strings.Contains(head, "Defaulted to action:")
}

// cannotAct says whether an observation opens with the environment's word that the agent
// cannot act for now ("You are sleeping, and will not be able take actions until energy is
// full.").
func cannotAct(obs string) bool {
	head := obs[:min(len(obs), 200)]
	return strings.Contains(head, "will not be able take actions") || strings.Contains(head, "will not be able to take actions")
}
