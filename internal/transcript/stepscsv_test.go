package transcript

import (
	"strings"
	"testing"
)

// An episode logged as a table of steps, in the layout of BALROG's CSV: each row a call of its
// action answered by its observation (a field holding line breaks and commas, quoted), the
// reasoning the model's words; a move that lets time pass is a wait; any table whose header
// names no action and observation is no transcript.
func TestStepsTableRowsAreCalls(t *testing.T) {
	const episode = "Step,Action,Reasoning,Observation,Reward,Done\n" +
		"0,go forward,The ball is ahead.,\"a wall 1 step forward, a purple ball 2 steps left\",0.0,False\n" +
		"1,go forward,,\"a wall 1 step forward, a purple ball 2 steps left\",0.0,False\n" +
		"2,Sleep,Tired.,\"You see:\n- grass 1 steps to your west\",0.0,False\n" +
		"3,Move North West,,\"\n\nYour previous output action: 'Move North West' is not a valid action. Defaulted to action: Noop\nYou see: grass\",0.0,False\n" +
		"4,Noop,,\"You are sleeping, and will not be able take actions until energy is full.\n\nYou see: grass\",0.0,False\n"
	expectEvents(t, "babyai_run_08.csv", episode, FormatStepsTable, []string{
		`text[model] "The ball is ahead."`,
		`call act "{\"action\":\"go forward\"}" => "a wall 1 step forward, a purple …"`,
		`call act "{\"action\":\"go forward\"}" => "a wall 1 step forward, a purple …"`,
		`text[model] "Tired."`,
		`call sleep "{\"action\":\"Sleep\"}" => "You see:\n- grass 1 steps to your…"`,
		// the harness took another action in its place: the step failed
		`call act "{\"action\":\"Move North West\"}" => "\n\nYour previous output action: '…" FAILED`,
		// the environment says the agent cannot act for now: the step waits (r151b F1)
		`call wait "{\"action\":\"Noop\"}" => "You are sleeping, and will not b…"`,
	})
	if _, err := ReadFrom("prices.csv", strings.NewReader("date,open,close\n2025-01-02,10,11\n")); err == nil {
		t.Error("a table of prices read as a transcript")
	}
}

// A row the CSV reader cannot take names its line.
func TestStepsTableBadRowNamed(t *testing.T) {
	_, err := ReadFrom("run.csv", strings.NewReader("Step,Action,Observation\n0,a,\"ok\"\n1,b,\"x\"y\"\n"))
	if err == nil || !strings.Contains(err.Error(), "run.csv:3") {
		t.Errorf("error %v, want one naming run.csv:3", err)
	}
}

func FuzzStepsTable(f *testing.F) {
	f.Add([]byte("Step,Action,Reasoning,Observation,Reward,Done\n0,Move East,,\"You see:\n- grass\",0.0,False\n"))
	f.Add([]byte("action,obs\n\"a\"\"b\",c\n,\n"))
	fuzzReader(f, readStepsTable)
}
