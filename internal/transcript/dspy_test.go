package transcript

import (
	"bufio"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// Written for these tests in the layout DSPy prints a ReAct run's Prediction (validation round
// r190a G1): a lookup that fails, the same lookup again, and finish.
const dspyPrediction = "Prediction(\n" +
	"    trajectory={'thought_0': \"I should look the order up.\", 'tool_name_0': 'get_order', 'tool_args_0': {'order_id': 'A7', 'deep': True}, " +
	"'observation_0': 'Execution error in get_order: KeyError(A7)', 'thought_1': 'Try again.', 'tool_name_1': 'get_order', " +
	"'tool_args_1': {'order_id': 'A7', 'deep': True}, 'observation_1': Order(id='A7', items=[Item(sku='x')], note=None), " +
	"'thought_2': 'Done.', 'tool_name_2': 'finish', 'tool_args_2': {}, 'observation_2': 'Completed.'},\n" +
	"    reasoning='I found the order on the second try.',\n" +
	"    answer='Order A7 holds one item.'\n" +
	")\n"

// An inspect_history dump of the same kind of run (validation round r190a G2): a demo, then
// two LM calls, the second repeating the first step and proposing a second.
const dspyHistory = "[2025-01-02T10:00:00.000001]\n\nSystem message:\n\nYour input fields are:\n1. `question` (str)\n2. `trajectory` (str)\n\n" +
	"[[ ## question ## ]]\n{question}\n\n[[ ## trajectory ## ]]\n{trajectory}\n\n[[ ## next_tool_name ## ]]\n{next_tool_name}\n\n" +
	"User message:\n\n[[ ## question ## ]]\nA demo question\n\n[[ ## trajectory ## ]]\n\n" +
	"Assistant message:\n\n[[ ## next_thought ## ]]\ndemo\n\n[[ ## next_tool_name ## ]]\ndemo_tool\n\n[[ ## next_tool_args ## ]]\n{}\n\n" +
	"User message:\n\n[[ ## question ## ]]\nWhat is the weather in Oslo?\n\n[[ ## trajectory ## ]]\n\n" +
	"Respond with the corresponding output fields, starting with the field `[[ ## next_thought ## ]]`.\n\n" +
	"Response:\n\n[[ ## next_thought ## ]]\nI will search.\n\n[[ ## next_tool_name ## ]]\nsearch\n\n[[ ## next_tool_args ## ]]\n{\"q\": \"Oslo weather\"}\n\n[[ ## completed ## ]]\n\n\n" +
	"[2025-01-02T10:00:01.000001]\n\nSystem message:\n\nYour input fields are:\n\n" +
	"User message:\n\n[[ ## question ## ]]\nWhat is the weather in Oslo?\n\n[[ ## trajectory ## ]]\n" +
	"[[ ## thought_0 ## ]]\nI will search.\n\n[[ ## tool_name_0 ## ]]\nsearch\n\n[[ ## tool_args_0 ## ]]\n{\"q\": \"Oslo weather\"}\n\n" +
	"[[ ## observation_0 ## ]]\nFailed to execute: timeout\n\n" +
	"Respond with the corresponding output fields, starting with the field `[[ ## next_thought ## ]]`.\n\n" +
	"Response:\n\n[[ ## next_thought ## ]]\nSearch again.\n\n[[ ## next_tool_name ## ]]\nsearch\n\n[[ ## next_tool_args ## ]]\n{'q': 'Oslo'}\n\n[[ ## completed ## ]]\n"

func readDSPyText(t *testing.T, text string) *built {
	t.Helper()
	b, err := readDSPy("run.txt", bufio.NewReader(strings.NewReader(text)))
	if err != nil {
		t.Fatalf("readDSPy: %v", err)
	}
	return b
}

// dspyCallsOf lists an agent's calls as "tool args => result [FAILED]".
func dspyCallsOf(a Agent) []string {
	var out []string
	for _, e := range a.Events {
		if e.Type != loopguard.EventCall {
			continue
		}
		s := e.Tool + " " + string(e.Args)
		if e.HasResult {
			s += " => " + e.Result
		}
		if e.Failed {
			s += " FAILED"
		}
		out = append(out, s)
	}
	return out
}

func dspyTextsOf(a Agent, typ loopguard.EventType) []string {
	var out []string
	for _, e := range a.Events {
		if e.Type == typ {
			out = append(out, e.Text)
		}
	}
	return out
}

func expectStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// A Prediction's trajectory is read in step order: each thought the model's words before its
// call, an "Execution error in" observation a failure, an object's repr the result as printed,
// finish the end of the run and no call, and the reasoning and answer the closing words.
func TestDSPyPredictionReadsStepsInOrder(t *testing.T) {
	b := readDSPyText(t, "print(pred)\n"+dspyPrediction)
	if len(b.Agents) != 1 || b.Agents[0].ID != MainAgent || b.Sessions != 1 {
		t.Fatalf("agents %+v sessions %d", b.Agents, b.Sessions)
	}
	a := b.Agents[0]
	expectStrings(t, "calls", dspyCallsOf(a), []string{
		`get_order {"deep":true,"order_id":"A7"} => Execution error in get_order: KeyError(A7) FAILED`,
		`get_order {"deep":true,"order_id":"A7"} => Order(id='A7', items=[Item(sku='x')], note=None)`,
	})
	expectStrings(t, "model texts", dspyTextsOf(a, loopguard.EventText), []string{
		"I should look the order up.", "Try again.", "Done.", "I found the order on the second try.", "Order A7 holds one item.",
	})
	if a.Events[0].Type != loopguard.EventText || a.Events[1].Type != loopguard.EventCall {
		t.Errorf("the thought does not come before its call: %+v", a.Events[:2])
	}
}

// The bare trajectory dict, printed on a line of its own or dumped as JSON, is a run too;
// each printing in a text is a session, and an elided stretch ("...") is passed over.
func TestDSPyBareAndJSONTrajectoriesAreRunsOfTheirOwn(t *testing.T) {
	text := "{'thought_0': 'look', 'tool_name_0': 'ls', 'tool_args_0': {'path': '.'}, 'observation_0': ['a', 'b'], ..., 'tool_name_3': 'finish'}\n" +
		"some other output\n" +
		`{"thought_0": "read", "tool_name_0": "cat", "tool_args_0": {"path": "a", "all": true, "n": null}, "observation_0": "hello"}` + "\n"
	b := readDSPyText(t, text)
	if len(b.Agents) != 2 || b.Sessions != 2 {
		t.Fatalf("want 2 sessions, got %d agents, %d sessions", len(b.Agents), b.Sessions)
	}
	expectStrings(t, "first run", dspyCallsOf(b.Agents[0]), []string{`ls {"path":"."} => ['a', 'b']`})
	expectStrings(t, "second run", dspyCallsOf(b.Agents[1]), []string{`cat {"all":true,"n":null,"path":"a"} => hello`})
}

// An inspect_history dump is read from its last LM call: the task from the input field, the
// steps it repeats with their observations ("Failed to execute" a failure), and the step its
// response proposes, unanswered; the few-shot demo is no part of the run.
func TestDSPyHistoryReadsLastLMCall(t *testing.T) {
	b := readDSPyText(t, dspyHistory)
	if len(b.Agents) != 1 || b.Sessions != 1 {
		t.Fatalf("agents %d sessions %d", len(b.Agents), b.Sessions)
	}
	a := b.Agents[0]
	expectStrings(t, "user", dspyTextsOf(a, loopguard.EventUser), []string{"What is the weather in Oslo?"})
	expectStrings(t, "calls", dspyCallsOf(a), []string{
		`search {"q":"Oslo weather"} => Failed to execute: timeout FAILED`,
		`search {"q":"Oslo"}`,
	})
	expectStrings(t, "model texts", dspyTextsOf(a, loopguard.EventText), []string{"I will search.", "Search again."})
}

// A dump whose LM calls change the question holds two runs; a run printed both as its
// Prediction and as its history is read once, with the task only the history shows.
func TestDSPyHistoryRunsAndDuplicates(t *testing.T) {
	second := strings.ReplaceAll(dspyHistory, "What is the weather in Oslo?", "And in Bergen?")
	b := readDSPyText(t, dspyHistory+second)
	if len(b.Agents) != 2 || b.Sessions != 2 {
		t.Fatalf("want 2 runs, got %d agents %d sessions", len(b.Agents), b.Sessions)
	}
	expectStrings(t, "second task", dspyTextsOf(b.Agents[1], loopguard.EventUser), []string{"And in Bergen?"})

	history := "[2025-01-02T10:00:02.000001]\nSystem message:\n\nUser message:\n\n[[ ## question ## ]]\nWhere is A7?\n\n[[ ## trajectory ## ]]\n" +
		"[[ ## thought_0 ## ]]\nI should look the order up.\n\n[[ ## tool_name_0 ## ]]\nget_order\n\n[[ ## tool_args_0 ## ]]\n{\"order_id\": \"A7\", \"deep\": true}\n\n" +
		"[[ ## observation_0 ## ]]\nExecution error in get_order: KeyError(A7)\n\n" +
		"[[ ## thought_1 ## ]]\nTry again.\n\n[[ ## tool_name_1 ## ]]\nget_order\n\n[[ ## tool_args_1 ## ]]\n{\"order_id\": \"A7\", \"deep\": true}\n\n" +
		"[[ ## observation_1 ## ]]\n{\"id\": \"A7\"}\n\n[[ ## thought_2 ## ]]\nDone.\n\n[[ ## tool_name_2 ## ]]\nfinish\n\n[[ ## tool_args_2 ## ]]\n{}\n\n" +
		"[[ ## observation_2 ## ]]\nCompleted.\n\nResponse:\n\n[[ ## reasoning ## ]]\nFound it.\n\n[[ ## answer ## ]]\nOne item.\n\n[[ ## completed ## ]]\n"
	b = readDSPyText(t, dspyPrediction+history)
	if len(b.Agents) != 1 {
		t.Fatalf("the run printed twice was read %d times", len(b.Agents))
	}
	expectStrings(t, "task", dspyTextsOf(b.Agents[0], loopguard.EventUser), []string{"Where is A7?"})
	if n := len(dspyCallsOf(b.Agents[0])); n != 2 {
		t.Errorf("calls %d, want 2", n)
	}
}

// A text with no printed trajectory is not DSPy's.
func TestDSPyNoTrajectoryIsUnknown(t *testing.T) {
	for _, text := range []string{"", "hello\n", "x = {'thought_0': 'a', 'tool_name_0': 'b'}\n", "{'thought_0': 'only a thought'}\n"} {
		if _, err := readDSPy("run.txt", bufio.NewReader(strings.NewReader(text))); err == nil {
			t.Errorf("readDSPy(%q) read a run", text)
		}
	}
}

func TestIsDSPyHead(t *testing.T) {
	for _, tt := range []struct {
		head string
		want bool
	}{
		{dspyPrediction, true},
		{"{'thought_0': 'x', 'tool_name_0': 'ls'}", true},
		{dspyHistory, true},
		{"# Agents\n\nDSPy's ReAct keeps a `trajectory` with `thought_0` and `tool_name_0` keys.\n\n```python\nreact = dspy.ReAct(sig, tools=[f])\n```\n", false},
		{"Traceback (most recent call last):\n  File \"react.py\", line 90, in forward\n    trajectory[f\"thought_{idx}\"] = pred.next_thought\nKeyError: 'thought_0'\n", false},
		{"> Entering new AgentExecutor chain...\nThought: I need to search\nAction: search\nAction Input: weather\nObservation: sunny\n", false},
		{`{"messages": [{"role": "user", "content": "thought_0 tool_name_0"}]}`, false},
		{"expected = dspy.Prediction(\n    trajectory={'thought_0': 'a', 'tool_name_0': 'b'})\n", false},
		{"    df = pd.DataFrame({'thought_0': ['a'], 'tool_name_0': ['b']})\n", false},
	} {
		if got := isDSPyHead([]byte(tt.head)); got != tt.want {
			t.Errorf("isDSPyHead(%.60q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func FuzzDSPy(f *testing.F) {
	f.Add([]byte(dspyPrediction))
	f.Add([]byte(dspyHistory))
	f.Add([]byte("Prediction(\n    trajectory={'thought_0': 'a', 'tool_name_0': 'b', 'tool_args_0': {'x': [1, (2,"))
	f.Add([]byte("{\"thought_0\": \"a\", \"tool_name_99999999999\": \"b\", ...}\nUser message:\n[[ ## trajectory ## ]]\nResponse:\n"))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readDSPy(name, br) })
}
