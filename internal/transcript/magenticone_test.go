package transcript

import (
	"bufio"
	"strings"
	"testing"
)

// magenticRun is a short Magentic-One run in the layout of the Who&When benchmark
// (validation round r197a G1), written for these tests.
const magenticRun = `{"question": "How tall is the tower?", "ground_truth": "300 m", "mistake_agent": "WebSurfer", "mistake_step": "4",
 "history": [
  {"content": "How tall is the tower?\n", "role": "human"},
  {"content": "Initial plan:\n\nLook the tower up.", "role": "Orchestrator (thought)"},
  {"content": "Please search the web for the tower's height.", "role": "Orchestrator (-> WebSurfer)"},
  {"content": "Next speaker WebSurfer", "role": "Orchestrator (thought)"},
  {"content": "I typed 'tower height' into '0 characters out of 2000'.\n\nHere is a screenshot of [tower height - Search]. The viewport shows 40% of the webpage.", "role": "WebSurfer"},
  {"content": "Updated Ledger:\n{\"is_in_loop\": {\"answer\": false}}", "role": "Orchestrator (thought)"},
  {"content": "Please write code that prints 2 * 150.", "role": "Orchestrator (-> Assistant)"},
  {"content": "Next speaker Assistant\n/usr/lib/coder.py:55: UserWarning: Resolved model mismatch.", "role": "Orchestrator (thought)"},
  {"content": "Run this:\n` + "```python\\nprint(2 * 150)\\n```" + `", "role": "Assistant"},
  {"content": "Please run the Assistant's code.", "role": "Orchestrator (-> ComputerTerminal)"},
  {"content": "The script ran, then exited with an error (POSIX exit code: 0)\nIts output was:\n300", "role": "ComputerTerminal"},
  {"content": "The tower page said nothing new.", "role": "FileSurfer"},
  {"content": "Stalled.... Replanning...", "role": "Orchestrator (thought)"},
  {"content": "Please open the tower's page again.", "role": "Orchestrator (-> WebSurfer)"},
  {"content": "No agent selected.\nFINAL ANSWER: 300 m", "role": "Orchestrator (termination condition)"}
 ]}`

func TestMagenticOneReadsWorkerAnswersAsTheOrchestratorsCalls(t *testing.T) {
	tr := expectEvents(t, "hand_1.json", magenticRun, FormatMagenticOne, []string{
		`user "How tall is the tower?\n"`,
		`text[model] "Initial plan:\n\nLook the tower up…"`,
		`text[model] "Please search the web for the to…"`,
		`call WebSurfer "{\"action\":\"I typed 'tower height…" => "Here is a screenshot of [tower h…"`,
		`text[model] "Updated Ledger:\n{\"is_in_loop\": {…"`,
		`text[model] "Please write code that prints 2 …"`,
		`text[harness] "/usr/lib/coder.py:55: UserWarnin…"`,
		`call Assistant "{\"instruction\":\"Please write cod…" => "Run this:\n` + "```python\\nprint(2 * 15…" + `"`,
		`text[model] "Please run the Assistant's code."`,
		`call ComputerTerminal "{\"code\":\"print(2 * 150)\",\"instru…" => "The script ran, then exited with…"`,
		`call FileSurfer "{\"instruction\":\"\"}" => "The tower page said nothing new."`,
		`text[harness] "Stalled.... Replanning..."`,
		`text[model] "Please open the tower's page aga…"`,
		`text[model] "No agent selected.\nFINAL ANSWER:…"`,
	})
	if len(tr.Agents) != 1 || tr.Agents[0].ID != MainAgent {
		t.Errorf("agents %d, want the orchestrator alone", len(tr.Agents))
	}
}

// The arguments of each kind of worker answer, in full (the events' descriptions cut them).
func TestMagenticOneCallArgumentsByWorker(t *testing.T) {
	long := "I answered the following question 'what is the height of the tower on the page, and when was it built, and by whom' based on the web page" + strings.Repeat(" and its many, many sections", 8) + ". The tower is 300 m tall."
	cases := []struct {
		name, role, answer, wantArgs, wantResult string
	}{
		{"web action is the first line", "WebSurfer", "I clicked 'View'.\n\nHere is a screenshot.", `{"action":"I clicked 'View'."}`, "Here is a screenshot."},
		{"the screenshot's transcription by another model is no part of the result (it is written anew at every call)", "WebSurfer",
			"I clicked 'Email'.\n\nHere is a screenshot of [Treasury](https://example.org/t). The viewport shows 38% of the webpage.\nAutomatic OCR of the page screenshot has detected the following text:\n\n**Header:**\n- Treasury",
			`{"action":"I clicked 'Email'."}`, "Here is a screenshot of [Treasury](https://example.org/t). The viewport shows 38% of the webpage."},
		{"a link's name run over two lines is one action", "WebSurfer", "I clicked 'Can it fly?\nexample.org'.\n\nHere is a screenshot.",
			`{"action":"I clicked 'Can it fly?\nexample.org'."}`, "Here is a screenshot."},
		{"an action with no closing period ends at the blank line", "WebSurfer", "I clicked 'Next'\n\nThe web browser is open to the page [Results](https://example.org/r).",
			`{"action":"I clicked 'Next'"}`, "The web browser is open to the page [Results](https://example.org/r)."},
		{"a long first line is cut at its first sentence", "WebSurfer", long, `{"action":"` + long[:strings.Index(long, ". ")+1] + `"}`, "The tower is 300 m tall."},
		{"a web answer with no action keeps the instruction", "WebSurfer", "The page says 300 m.", `{"instruction":"Find it."}`, "The page says 300 m."},
		{"another worker is asked the instruction", "FileSurfer", "I opened x.pdf.", `{"instruction":"Find it."}`, "I opened x.pdf."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := `{"history": [{"role": "human", "content": "task"}, {"role": "Orchestrator (-> ` + c.role + `)", "content": "Find it."},
				{"role": "` + c.role + `", "content": ` + quoteJSON(c.answer) + `}]}`
			tr, err := ReadFrom("run.json", strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			calls := tr.Agents[0].Calls()
			if tr.Format != FormatMagenticOne || len(calls) != 1 {
				t.Fatalf("read as %s with %d calls, want magentic-one with 1", tr.Format, len(calls))
			}
			if got := string(calls[0].Args); got != c.wantArgs {
				t.Errorf("args %s, want %s", got, c.wantArgs)
			}
			if calls[0].Result != c.wantResult || calls[0].Failed {
				t.Errorf("result %q (failed %v), want %q", calls[0].Result, calls[0].Failed, c.wantResult)
			}
		})
	}
}

// A delegation the run ended before is the orchestrator's words, not a call with no answer.
func TestMagenticOneUnansweredDelegationIsWordsOnly(t *testing.T) {
	doc := `{"history": [{"role": "human", "content": "task"}, {"role": "Orchestrator (-> WebSurfer)", "content": "Search it."},
		{"role": "Orchestrator (thought)", "content": "Next speaker WebSurfer"}]}`
	expectEvents(t, "run.json", doc, FormatMagenticOne, []string{`user "task"`, `text[model] "Search it."`})
}

// A SWE-agent trajectory's history is still SWE-agent's: no role of an orchestrator, no names.
func TestSWEAgentHistoryIsNotMagenticOneOrAG2Chat(t *testing.T) {
	doc := `{"history": [{"role": "system", "content": "You are an agent.", "agent": "main"},
		{"role": "assistant", "content": "ls", "agent": "main", "action": "ls"},
		{"role": "user", "content": "exitcode: 0 (execution succeeded)", "agent": "main"}],
		"trajectory": [{"action": "ls", "observation": "a.py", "thought": "look"}], "info": {}}`
	tr := mustRead(t, writeTemp(t, "x.traj", doc))
	if tr.Format != FormatSWEAgent {
		t.Fatalf("read as %s, want swe-agent", tr.Format)
	}
}

func quoteJSON(s string) string { return string(marshalArgs(s)) }

// FuzzMagenticOne reads arbitrary JSON objects the way a Magentic-One run is read.
func FuzzMagenticOne(f *testing.F) {
	f.Add([]byte(magenticRun))
	f.Add([]byte(`{"history": [{"role": "Orchestrator (-> )", "content": "x"}, {"role": "WebSurfer", "content": "I "}]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readJSONObject(name, br, 0) })
}
