package transcript

import (
	"bufio"
	"slices"
	"strings"
	"testing"
)

// A DA-Agent step's observation is what the agent saw before its action: each call's answer
// is the next step's observation, the first observation is the environment's opening, and the
// last action has no answer kept (validation round r169c U1).
func TestDAAgentResultAnswersEachActionWithTheNextObservation(t *testing.T) {
	doc := `{"finished": true, "steps": 5, "result": "result.csv", "result_files": {"added_files": []},
	  "Task": "Count the rows of data.csv.",
	  "system_message": "You are a data scientist. ACTION SPACE: Bash(code=...), Python(filepath=...), Terminate(output=...)",
	  "trajectory": [
	    {"observation": "You are in the folder now.", "thought": "Thought: look around.", "action": "Bash(code=\"ls -l\")", "code": "ls -l"},
	    {"observation": "total 8\n-rw-r--r-- 1 u u 120 data.csv", "thought": "Thought: count them.", "action": "Python(filepath='count.py'):\n'''python\nimport pandas as pd\nprint(len(pd.read_csv('data.csv')))\n'''", "code": "import pandas as pd"},
	    {"observation": "3", "thought": "Thought: same again.", "action": "None", "code": ""},
	    {"observation": "Failed to parse action from your response, make sure you provide a valid action.", "thought": "Thought: sleep on it.", "action": "Bash(code=\"sleep 900\")", "code": "sleep 900"},
	    {"observation": "Action execution time exceeded!", "thought": "Thought: done.", "action": "Terminate(output=\"3\")", "code": ""}
	  ]}`
	tr := mustRead(t, writeTemp(t, "result.json", doc))
	if tr.Format != FormatDAAgent || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want da-agent with 1", tr.Format, len(tr.Agents))
	}
	want := []string{
		`text[system] "You are a data scientist. ACTION…"`,
		`user "Count the rows of data.csv."`,
		`user[harness] "You are in the folder now."`,
		`text[model] "Thought: look around."`,
		`call Bash "{\"command\":\"ls -l\"}" => "total 8\n-rw-r--r-- 1 u u 120 dat…"`,
		`text[model] "Thought: count them."`,
		`call Python "Python(filepath='count.py'):\n'''…" => "3"`,
		`text[model] "Thought: same again."`,
		`call[harness] (no action) "Thought: same again." => "Failed to parse action from your…" FAILED`,
		`text[model] "Thought: sleep on it."`,
		`call Bash "{\"command\":\"sleep 900\"}" => "Action execution time exceeded!" FAILED`,
		`text[model] "Thought: done."`,
		`call Terminate "Terminate(output=\"3\")" => -`,
	}
	if got := describe(tr.Agents[0].Events); !slices.Equal(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A SWE-agent trajectory has no task and system message beside its steps: it is still read as
// SWE-agent's, each observation its own step's answer.
func TestSWEAgentStepsAreNotDAAgents(t *testing.T) {
	doc := `{"trajectory": [{"action": "ls", "observation": "a.py", "thought": "look"}], "info": {}}`
	tr := mustRead(t, writeTemp(t, "x.traj", doc))
	if tr.Format != FormatSWEAgent {
		t.Fatalf("read as %s, want swe-agent", tr.Format)
	}
	if got := describe(tr.Agents[0].Events); !slices.Contains(got, `call ls "ls" => "a.py"`) {
		t.Errorf("events %q: want ls answered a.py", got)
	}
}

// FuzzDAAgent reads arbitrary JSON objects the way a DA-Agent result is read: no panic, and an
// error names the input.
func FuzzDAAgent(f *testing.F) {
	f.Add([]byte(`{"Task": "t", "system_message": "s", "trajectory": [{"observation": "You are in the folder now.", "action": "Bash(code=\"ls\")", "code": "ls"}, {"observation": "a.csv", "action": "None"}]}`))
	f.Add([]byte(`{"Task": "t", "system_message": "s", "trajectory": [{"action": "(", "thought": "x"}]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readJSONObject(name, br, 0) })
}
