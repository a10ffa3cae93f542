package transcript

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
)

// notebook writes a notebook whose one code cell printed the chunks to stdout, as nbformat 4
// writes them: the cells first, the format's version after.
func notebook(chunks ...string) string {
	var lines []string
	for _, c := range chunks {
		lines = append(lines, strings.SplitAfter(c, "\n")...)
	}
	text, _ := json.Marshal(lines)
	return `{"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# ReAct"]},
  {"cell_type": "code", "execution_count": 7, "metadata": {}, "source": ["res = run_episodes(prompt, 2)"],
   "outputs": [{"output_type": "stream", "name": "stderr", "text": ["warming up\n"]},
               {"output_type": "stream", "name": "stdout", "text": ` + string(text) + `}]}],
 "metadata": {}, "nbformat": 4, "nbformat_minor": 2}`
}

// A notebook is read as the transcript its cells printed: ReAct's WebShop episodes, unnumbered,
// an episode under a rule of dashes, each action answered by the observation under it, a
// think[...] the model's words, and "Invalid action!" the environment's refusal.
func TestNotebookReadsReactStepsItPrinted(t *testing.T) {
	doc := notebook("-----------------\n0\nAction: reset\nObservation: \nWebShop \nInstruction: a clip-in hair extension\n[Search] \n\n",
		"Action: search[clip-in hair extension]\nObservation: \n[Back to Search] \nPage 1 (Total results: 50) \n[B08H5DCD65] \n$9.98 \n\n",
		"Action: think[B08H5DCD65 looks right.]\nObservation: OK.\n\n",
		"Action: click[2.8 ounce pack]\nObservation: Invalid action!\n\n",
		"-----------------\n1\nAction: reset\nObservation: \nWebShop \n\nAction: search[tea]\nObservation: \n[Back to Search] \n")
	tr := expectEvents(t, "WebShop.ipynb", doc, FormatReactLog, []string{
		`call search "clip-in hair extension" => "[Back to Search] \nPage 1 (Total …"`,
		`text[model] "B08H5DCD65 looks right."`,
		`call click "2.8 ounce pack" => "Invalid action!" FAILED`,
	})
	if tr.Sessions != 2 || len(tr.Agents) != 2 {
		t.Errorf("%d sessions, %d agents: want an episode each", tr.Sessions, len(tr.Agents))
	}
}

// ReAct's numbered steps printed in a notebook (its HotpotQA notebook) are read by the reader
// of printed ReAct runs; a notebook that printed no transcript is none.
func TestNotebookHandsNumberedStepsOnAndRefusesOtherOutput(t *testing.T) {
	doc := notebook("Question: Which band?\nThought 1: I need to search X.\nAction 1: Search[X]\nObservation 1: X is a band.\n")
	tr, err := ReadFrom("hotpotqa.ipynb", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatReactLog || len(tr.Agents) != 1 || len(tr.Agents[0].Calls()) != 1 {
		t.Fatalf("read as %q with %d agents: want one ReAct call", tr.Format, len(tr.Agents))
	}
	if _, err := ReadFrom("plot.ipynb", strings.NewReader(notebook("loss 0.31\nloss 0.29\n"))); err == nil {
		t.Error("a notebook that printed training losses was read as a transcript")
	}
}

// A notebook whose first output is a printed list or a bracketed heading ("[Available tools]",
// print(result.messages)) is still read for the run printed after it: such an output opens as
// a JSON document would, and no run was read (validation round r187b G1).
func TestNotebookReadsARunAfterAPrintedList(t *testing.T) {
	run, _ := json.Marshal(strings.SplitAfter("Question: Which band?\nThought 1: I need to search X.\nAction 1: Search[X]\nObservation 1: X is a band.\n", "\n"))
	for _, first := range []string{`["[Available tools]\n", "- search: looks a word up\n"]`, `["['search', 'lookup']\n"]`, `["{'a': 1}\n"]`} {
		doc := `{"cells": [
  {"cell_type": "code", "source": ["print(tools)"], "outputs": [{"output_type": "stream", "name": "stdout", "text": ` + first + `}]},
  {"cell_type": "code", "source": ["agent.run(q)"], "outputs": [{"output_type": "stream", "name": "stdout", "text": ` + string(run) + `}]}],
 "metadata": {}, "nbformat": 4, "nbformat_minor": 2}`
		tr, err := ReadFrom("agent.ipynb", strings.NewReader(doc))
		if err != nil {
			t.Errorf("first output %s: %v", first, err)
			continue
		}
		if tr.Format != FormatReactLog || len(tr.Agents) != 1 || len(tr.Agents[0].Calls()) != 1 {
			t.Errorf("first output %s: read as %q with %d agents, want one ReAct call", first, tr.Format, len(tr.Agents))
		}
	}
}

func FuzzNotebook(f *testing.F) {
	f.Add([]byte(notebook("Action: search[x]\nObservation: y\n")))
	f.Add([]byte(`{"cells": [{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stdout", "text": 7}]}]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) {
		t, err := readNotebook(name, br, 0)
		if err != nil {
			return nil, err
		}
		return &built{Transcript: t}, nil
	})
}

// A rich console's panels, which smolagents displays in a notebook rather than printing them,
// are read too, by their plain text with the colours left out.
func TestNotebookReadsDisplayedPanels(t *testing.T) {
	var colored strings.Builder
	for line := range strings.SplitSeq(smolCodeAgentRun, "\n") {
		colored.WriteString("\x1b[38;2;212;183;2m" + line + "\x1b[0m\n")
	}
	lines, _ := json.Marshal(strings.SplitAfter(colored.String(), "\n"))
	doc := `{"cells": [{"cell_type": "code", "metadata": {}, "source": ["agent.run(task)"],
   "outputs": [{"output_type": "display_data", "metadata": {}, "data": {"text/html": ["<pre>...</pre>"], "text/plain": ` + string(lines) + `}}]}],
 "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	plain, err := ReadFrom("run.log", strings.NewReader(smolCodeAgentRun))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ReadFrom("agent.ipynb", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != plain.Format || len(tr.Agents) != len(plain.Agents) || len(tr.Agents[0].Calls()) != len(plain.Agents[0].Calls()) || len(plain.Agents[0].Calls()) == 0 {
		t.Errorf("read as %q with %d agents, want it read as its printout is (%q, %d agents, %d calls)", tr.Format, len(tr.Agents), plain.Format, len(plain.Agents), len(plain.Agents[0].Calls()))
	}
}

// Python's logging writes to standard error: a run logged so (browser-use's records) is read
// from the cells' stderr when their stdout holds no transcript.
func TestNotebookReadsLoggingOnStderr(t *testing.T) {
	lines, _ := json.Marshal(strings.SplitAfter(browserUseLogOld, "\n"))
	doc := `{"cells": [{"cell_type": "code", "metadata": {}, "source": ["await agent.run()"],
   "outputs": [{"output_type": "stream", "name": "stdout", "text": ["loading...\n"]},
               {"output_type": "stream", "name": "stderr", "text": ` + string(lines) + `}]}],
 "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	tr, err := ReadFrom("agent.ipynb", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatBrowserUseLog || len(tr.Agents) != 1 || len(tr.Agents[0].Calls()) != 3 {
		t.Errorf("read as %q with %d agents: want browser-use's three actions", tr.Format, len(tr.Agents))
	}
}

// A framework's printout that quotes the "Action:" and "Observation:" lines of its prompt's
// format (CrewAI's does) is read as that framework's, not as ReAct's unnumbered steps, which
// are read only when no reader of printed transcripts knows the text.
func TestNotebookPrefersTheFrameworksOwnFormat(t *testing.T) {
	printed := "Use the following format:\nAction: the action to take\nObservation: the result of the action\n\n" +
		"# Agent: Grocery Planner\n## Using tool: search\n## Tool Input: \n\"{\\\"query\\\": \\\"milk\\\"}\"\n## Tool Output: \nMilk: 2 liters\n\n" +
		"# Agent: Grocery Planner\n## Final Answer: \nBuy milk.\n"
	tr, err := ReadFrom("crew.ipynb", strings.NewReader(notebook(printed)))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCrewAILog {
		t.Errorf("read as %q, want %q", tr.Format, FormatCrewAILog)
	}
}
