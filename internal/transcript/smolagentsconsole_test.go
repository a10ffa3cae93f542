package transcript

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Written for these tests in the layout smolagents' logger prints (monitoring.py, agents.py),
// as the real consoles of validation round r114b U4 show it: a CodeAgent's run whose second
// and third steps raise the same error, with the spinner and LiteLLM's log lines among them.
const smolCodeAgentRun = "(venv) $ python3 main.py\n" +
	"╭──────────────────────────── New run ────────────────────────────╮\n" +
	"│                                                                 │\n" +
	"│ How many rows does sales.csv hold?                              │\n" +
	"│                                                                 │\n" +
	"╰─ LiteLLMModel - openrouter/openai/gpt-4.1 ──────────────────────╯\n" +
	"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 1 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
	"14:08:34 - LiteLLM:INFO: utils.py:3075 - \n" +
	"⠼ Thinking...INFO:httpx:HTTP Request: POST https://openrouter.ai/api/v1/chat/completions \"HTTP/1.1 200 OK\"\n" +
	" ─ Executing parsed code: ─────────────────────────────────────── \n" +
	"  import pandas as pd                                             \n" +
	"  df = pd.read_csv('sales.csv')                                   \n" +
	"  print(len(df))                                                  \n" +
	" ──────────────────────────────────────────────────────────────── \n" +
	"Execution logs:\n" +
	"1200\n" +
	"\n" +
	"Out: None\n" +
	"[Step 1: Duration 3.65 seconds| Input tokens: 1,185 | Output tokens: 22]\n" +
	"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 2 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
	" ─ Executing parsed code: ─────────────────────────────────────── \n" +
	"  total = df.groupby('region').sum()                              \n" +
	"  final_answer(total.to_markdown())                               \n" +
	" ──────────────────────────────────────────────────────────────── \n" +
	"⠙ Thinking...Code execution failed at line 'final_answer(total.to_markdown())' due to: ImportError: Missing optional dependency 'tabulate'.\n" +
	"[Step 2: Duration 1.28 seconds| Input tokens: 2,380 | Output tokens: 61]\n" +
	"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 3 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
	" ─ Executing parsed code: ─────────────────────────────────────── \n" +
	"  final_answer(len(df))                                           \n" +
	" ──────────────────────────────────────────────────────────────── \n" +
	"Out - Final answer: 1200\n" +
	"[Step 3: Duration 0.91 seconds| Input tokens: 3,604 | Output tokens: 80]\n"

// A CodeAgent's run: the task its user turn, each code panel a python_interpreter call whose
// result is what the code printed and returned, up to the step's end, failed when smolagents
// says the code raised; other loggers' lines and the spinner are no part of a result.
func TestSmolagentsCodeAgentConsole(t *testing.T) {
	expectEvents(t, "run.md", smolCodeAgentRun, FormatSmolagentsConsole, []string{
		`user "How many rows does sales.csv hol…"`,
		`call python_interpreter "{\"code\":\"import pandas as pd\\ndf…" => "Execution logs:\n1200\n\nOut: None"`,
		`call python_interpreter "{\"code\":\"total = df.groupby('reg…" => "Code execution failed at line 'f…" FAILED`,
		`call python_interpreter "{\"code\":\"final_answer(len(df))\"}" => "Out - Final answer: 1200"`,
	})
}

// A ToolCallingAgent calls tools in panels, answered in order by "Observations:" or by the
// error smolagents prints in their place; a managed agent started by a call is an agent of its
// own, and its caller's call is answered after the managed agent's final answer. Each top-level
// "New run" is a session.
func TestSmolagentsToolCallingAgentConsole(t *testing.T) {
	text := "╭──────────────────────────── New run ────────────────────────────╮\n" +
		"│ Find the weather in Bern and Zurich, then ask the planner.      │\n" +
		"╰─ OpenAIModel - gpt-4o-mini ─────────────────────────────────────╯\n" +
		"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 1 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
		"╭─────────────────────────────────────────────────────────────────╮\n" +
		"│ Calling tool: 'get_weather' with arguments: {'city': 'Bern'}    │\n" +
		"╰─────────────────────────────────────────────────────────────────╯\n" +
		"╭─────────────────────────────────────────────────────────────────╮\n" +
		"│ Calling tool: 'get_weather' with arguments: {'city':            │\n" +
		"│ 'Zurich'}                                                       │\n" +
		"╰─────────────────────────────────────────────────────────────────╯\n" +
		"Observations: Bern: 12 C\n" +
		"Error executing tool 'get_weather' with arguments {'city': 'Zurich'}: TimeoutError: no answer\n" +
		"[Step 1: Duration 2.10 seconds| Input tokens: 900 | Output tokens: 40]\n" +
		"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 2 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
		"╭─────────────────────────────────────────────────────────────────╮\n" +
		"│ Calling tool: 'planner' with arguments: {'task': 'plan a walk'} │\n" +
		"╰─────────────────────────────────────────────────────────────────╯\n" +
		"╭─────────────────────── New run - planner ───────────────────────╮\n" +
		"│ plan a walk                                                     │\n" +
		"╰─ OpenAIModel - gpt-4o-mini ─────────────────────────────────────╯\n" +
		"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 1 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
		"╭─────────────────────────────────────────────────────────────────╮\n" +
		"│ Calling tool: 'final_answer' with arguments: {'answer': 'Aare'} │\n" +
		"╰─────────────────────────────────────────────────────────────────╯\n" +
		"Final answer: Aare\n" +
		"[Step 1: Duration 1.00 seconds| Input tokens: 300 | Output tokens: 12]\n" +
		"Observations: Here is the final answer from your managed agent 'planner': Aare\n" +
		"[Step 2: Duration 3.00 seconds| Input tokens: 1,400 | Output tokens: 52]\n" +
		"╭──────────────────────────── New run ────────────────────────────╮\n" +
		"│ And tomorrow?                                                   │\n" +
		"╰─ OpenAIModel - gpt-4o-mini ─────────────────────────────────────╯\n" +
		"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 1 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
		"╭─────────────────────────────────────────────────────────────────╮\n" +
		"│ Calling tool: 'get_forecast' with arguments: {'city': 'Bern'}   │\n" +
		"╰─────────────────────────────────────────────────────────────────╯\n" +
		"Observations: sunny\n" +
		"[Step 1: Duration 1.50 seconds| Input tokens: 500 | Output tokens: 20]\n"
	tr := expectEvents(t, "tools.log", text, FormatSmolagentsConsole, []string{
		`user "Find the weather in Bern and Zur…"`,
		`call get_weather "{\"arguments\":\"{'city': 'Bern'}\"}" => "Observations: Bern: 12 C"`,
		`call get_weather "{\"arguments\":\"{'city': 'Zurich'}…" => "Error executing tool 'get_weathe…" FAILED`,
		`call planner "{\"arguments\":\"{'task': 'plan a w…" => "Observations: Here is the final …"`,
	})
	var agents []string
	for _, a := range tr.Agents {
		agents = append(agents, a.ID)
	}
	if want := []string{"main", "planner", "main"}; !slices.Equal(agents, want) {
		t.Errorf("agents %q, want %q", agents, want)
	}
	if tr.Sessions != 2 {
		t.Errorf("%d sessions, want 2", tr.Sessions)
	}
	if got := describe(tr.Agents[1].Events); len(got) != 2 || !strings.HasPrefix(got[1], `call final_answer`) {
		t.Errorf("planner's events: %q", got)
	}
}

// The same failing code three times over is told, as it would be from smolagents' memory.
func TestSmolagentsConsoleRepeatedFailureIsTold(t *testing.T) {
	step := func(n string) string {
		return "━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step " + n + " ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
			" ─ Executing parsed code: ─────────────────────────────────────── \n" +
			"  final_answer(total.to_markdown())                               \n" +
			" ──────────────────────────────────────────────────────────────── \n" +
			"Code execution failed at line 'final_answer(total.to_markdown())' due to: ImportError: Missing optional dependency 'tabulate'.\n" +
			"[Step " + n + ": Duration 1.28 seconds| Input tokens: 2,380 | Output tokens: 61]\n"
	}
	text := "╭──────────────────────────── New run ────────────────────────────╮\n" +
		"│ Sum the sales by region.                                        │\n" +
		"╰─ LiteLLMModel - gpt-4.1 ────────────────────────────────────────╯\n" +
		step("1") + step("2") + step("3") + step("4")
	tr, err := ReadFrom("run.log", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	calls, notices := defaultNotices(t, tr.Agents[0])
	if calls != 4 || len(notices) == 0 || !strings.HasPrefix(notices[0], "call 3:") {
		t.Errorf("%d calls, notices %q: want the third identical failure told", calls, notices)
	}
}

// A CodeAgent's code that calls a managed agent prints the managed agent's run before its own
// output: the managed agent is an agent of its own, and the code's result is what it printed
// after that run.
func TestSmolagentsManagedAgentCalledFromCode(t *testing.T) {
	text := "╭──────────────────────────── New run ────────────────────────────╮\n" +
		"│ Plan a trip to Bern.                                            │\n" +
		"╰─ LiteLLMModel - gpt-4.1 ────────────────────────────────────────╯\n" +
		"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 1 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
		" ─ Executing parsed code: ─────────────────────────────────────── \n" +
		"  hotels = search_agent(task='hotels in Bern')                    \n" +
		"  print(hotels)                                                   \n" +
		" ──────────────────────────────────────────────────────────────── \n" +
		"╭───────────────────── New run - search_agent ────────────────────╮\n" +
		"│ hotels in Bern                                                  │\n" +
		"╰─ LiteLLMModel - gpt-4.1 ────────────────────────────────────────╯\n" +
		"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 1 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
		"╭─────────────────────────────────────────────────────────────────╮\n" +
		"│ Calling tool: 'web_search' with arguments: {'query': 'Bern'}    │\n" +
		"╰─────────────────────────────────────────────────────────────────╯\n" +
		"Observations: Hotel Bellevue\n" +
		"[Step 1: Duration 1.00 seconds| Input tokens: 300 | Output tokens: 12]\n" +
		"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 2 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
		"╭─────────────────────────────────────────────────────────────────╮\n" +
		"│ Calling tool: 'final_answer' with arguments: {'answer': 'Bellevue'} │\n" +
		"╰─────────────────────────────────────────────────────────────────╯\n" +
		"Final answer: Bellevue\n" +
		"[Step 2: Duration 1.00 seconds| Input tokens: 400 | Output tokens: 12]\n" +
		"Execution logs:\n" +
		"Here is the final answer from your managed agent 'search_agent': Bellevue\n" +
		"Out: None\n" +
		"[Step 1: Duration 5.00 seconds| Input tokens: 1,400 | Output tokens: 52]\n"
	tr := expectEvents(t, "trip.log", text, FormatSmolagentsConsole, []string{
		`user "Plan a trip to Bern."`,
		`call python_interpreter "{\"code\":\"hotels = search_agent(t…" => "Execution logs:\nHere is the fina…"`,
	})
	if tr.Sessions != 1 || len(tr.Agents) != 2 || tr.Agents[1].ID != "search_agent" || len(tr.Agents[1].Calls()) != 2 {
		t.Errorf("%d sessions, agents %+v: want one session, the managed agent's two calls its own", tr.Sessions, tr.Agents)
	}
}

// Releases of early 2025 head the code "Executing this code:", number steps from 0, and print
// an error bare in place of the code's value: a step whose code printed no value by its end
// raised, and the same failure step after step is told (validation round r115a U1,
// U2, M1: such consoles were not read, and six failing steps were no loop).
func TestSmolagentsEarlyConsoleBareErrors(t *testing.T) {
	step := func(n, code string) string {
		return "━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step " + n + " ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
			"─ Executing this code: ─────────────────────────────────────────────\n" +
			code + "\n" +
			" ──────────────────────────────────────────────────────────────────\n" +
			"name 'engine' is not defined\n" +
			"[Step " + n + ": Duration 3.50 seconds| Input tokens: 2,075 | Output tokens: 121]\n"
	}
	text := "╭──────────────────────────────── New run ────────────────────────────────╮\n" +
		"│ Who paid the most?                                                      │\n" +
		"╰─ HfApiModel - meta-llama/Meta-Llama-3.1-8B-Instruct ─────────────────────╯\n" +
		step("0", "top = sql_engine(query=\"SELECT max(price) FROM receipts\")  \n print(top)  ") +
		step("1", "max_price = sql_engine(query=\"SELECT max(price) FROM receipts\")  \n print(max_price)  ") +
		step("2", "price = sql_engine(query=\"SELECT max(price) FROM receipts\")  ") +
		step("3", "highest = sql_engine(query=\"SELECT max(price) FROM receipts\")  ") +
		"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 4 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
		"─ Executing this code: ─────────────────────────────────────────────\n" +
		"print(1)\n" +
		" ──────────────────────────────────────────────────────────────────\n" +
		"Execution logs:\n1\nOut: None\n" +
		"[Step 4: Duration 1.00 seconds| Input tokens: 9,000 | Output tokens: 200]\n"
	tr := expectEvents(t, "output.md", text, FormatSmolagentsConsole, []string{
		`user "Who paid the most?"`,
		`call python_interpreter "{\"code\":\"top = sql_engine(query=…" => "name 'engine' is not defined" FAILED`,
		`call python_interpreter "{\"code\":\"max_price = sql_engine(…" => "name 'engine' is not defined" FAILED`,
		`call python_interpreter "{\"code\":\"price = sql_engine(quer…" => "name 'engine' is not defined" FAILED`,
		`call python_interpreter "{\"code\":\"highest = sql_engine(qu…" => "name 'engine' is not defined" FAILED`,
		`call python_interpreter "{\"code\":\"print(1)\"}" => "Execution logs:\n1\nOut: None"`,
	})
	if _, notices := defaultNotices(t, tr.Agents[0]); len(notices) == 0 {
		t.Error("four steps failing alike, not told")
	}
}

// smolGAIARunHead opens a run of the r118c study's consoles: its task and its first step.
const smolGAIARunHead = "╭──────────────────────────── New run ────────────────────────────╮\n" +
	"│ Which word labels a type of society?                            │\n" +
	"╰─ OpenAIServerModel - Qwen/Qwen3-4B-Instruct-2507 ───────────────╯\n" +
	"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 1 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n"

// A fork's consoles head the code "Executing code:"; its managed agents nest in the caller's
// call as they do under the other titles (validation round r118c U1: the main agent of three
// such consoles read no call, and each managed run was a session of its own).
func TestSmolagentsExecutingCodePanelIsACall(t *testing.T) {
	text := smolGAIARunHead +
		"Output message of the LLM: ─────────────────────────────────────────\n" +
		"Thought: I will ask the search agent.\n" +
		" ─ Executing code: ───────────────────────────────────────────────── \n" +
		"  paper = search_agent(task=\"AI regulation paper, June 2022\")     \n" +
		"  print(paper)                                                    \n" +
		" ──────────────────────────────────────────────────────────────── \n" +
		"╭───────────────────── New run - search_agent ────────────────────╮\n" +
		"│ AI regulation paper, June 2022                                  │\n" +
		"╰─ OpenAIServerModel - Qwen/Qwen3-4B-Instruct-2507 ───────────────╯\n" +
		"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 1 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
		"╭─────────────────────────────────────────────────────────────────╮\n" +
		"│ Calling tool: 'final_answer' with arguments: {'answer': '2206.0'} │\n" +
		"╰─────────────────────────────────────────────────────────────────╯\n" +
		"Final answer: 2206.0\n" +
		"[Step 1: Duration 1.00 seconds| Input tokens: 400 | Output tokens: 12]\n" +
		"Code execution failed at line 'paper = search_agent(task=\"AI regulation paper, June 2022\")' due to: AgentGenerationError: invalid JSON\n" +
		"[Step 0: Duration 9.00 seconds| Input tokens: 3,398 | Output tokens: 910]\n" +
		"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 2 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
		" ─ Executing code: ───────────────────────────────────────────────── \n" +
		"  final_answer(\"fairness\")                                        \n" +
		" ──────────────────────────────────────────────────────────────── \n" +
		"Out - Final answer: fairness\n" +
		"[Step 1: Duration 1.00 seconds| Input tokens: 4,000 | Output tokens: 20]\n"
	tr := expectEvents(t, "gaia.log", text, FormatSmolagentsConsole, []string{
		`user "Which word labels a type of soci…"`,
		`text[model] "Thought: I will ask the search a…"`,
		`call python_interpreter "{\"code\":\"paper = search_agent(ta…" => "Code execution failed at line 'p…" FAILED`,
		`call python_interpreter "{\"code\":\"final_answer(\\\"fairness…" => "Out - Final answer: fairness"`,
	})
	if tr.Sessions != 1 || len(tr.Agents) != 2 || tr.Agents[1].ID != "search_agent" {
		t.Errorf("%d sessions, agents %+v: want one session, the managed agent an agent of its own", tr.Sessions, tr.Agents)
	}
}

// A run whose reply held no code is smolagents' console too: the model's words are read, and
// smolagents' "Error in code parsing:" is the harness refusing the reply, not more of the
// model's words (validation round r118c U2: a small model that wrote its plan 37 times over in
// one reply, to its token limit, was passed over as no transcript).
func TestSmolagentsRunWhoseReplyFailedToParse(t *testing.T) {
	plan := "So, the steps are:\n1. Find the paper.\n2. Read its figure.\n3. Find the article.\nLet me know when you are ready to proceed.\n\n"
	text := smolGAIARunHead +
		"Output message of the LLM: ─────────────────────────────────────────\n" +
		strings.Repeat(plan, 12) +
		"Error in code parsing:\n" +
		"Your code snippet is invalid, because the regex pattern ```(?:py|python)?\\n(.*?)\\n``` was not found in it.\n" +
		"Make sure to provide correct code blobs.\n" +
		"[Step 0: Duration 257.93 seconds| Input tokens: 3,375 | Output tokens: 5,000]\n"
	tr := expectEvents(t, "wf3.log", text, FormatSmolagentsConsole, []string{
		`user "Which word labels a type of soci…"`,
		`text[model] "So, the steps are:\n1. Find the p…"`,
		`text[harness] "Error in code parsing:\nYour code…"`,
	})
	if got := tr.Agents[0].Events[1].Text; strings.Contains(got, "Error in code parsing") {
		t.Errorf("the model's words hold the harness's refusal: %q", got[len(got)-80:])
	}
	if _, notices := defaultNotices(t, tr.Agents[0]); len(notices) == 0 {
		t.Error("a plan written twelve times over in one reply, not told")
	}
}

// Releases before "Executing parsed code" drew the code in a rounded box, its rows numbered:
// each panel is the step's call, its code without the box, the padding or the numbers, and the
// steps read as those of the unboxed panel do (validation round r187b G4: such a run, pasted
// into smolagents' guided tour, read no call).
func TestSmolagentsBoxedCodePanelIsACall(t *testing.T) {
	text := "```text\n" +
		"╭──────────────────────────────── New run ────────────────────────────────╮\n" +
		"│ Which city hosts the oldest bridge on the list?                         │\n" +
		"╰─ HfApiModel - Qwen/Qwen2.5-Coder-32B-Instruct ──────────────────────────╯\n" +
		"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 0 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
		"╭─ Executing this code: ──────────────────────────────────────────────────╮\n" +
		"│   1 for bridge in bridges:                                              │\n" +
		"│   2     print(lookup_tool(name=bridge))                                 │\n" +
		"╰─────────────────────────────────────────────────────────────────────────╯\n" +
		"name 'bridges' is not defined\n" +
		"[Step 0: Duration 0.41 seconds| Input tokens: 1,910 | Output tokens: 52]\n" +
		"━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ Step 1 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n" +
		"╭─ Executing this code: ──────────────────────────────────────────────────╮\n" +
		"│   1 final_answer(\"Regensburg\")                                          │\n" +
		"╰─────────────────────────────────────────────────────────────────────────╯\n" +
		"Out - Final answer: Regensburg\n" +
		"[Step 1: Duration 0.12 seconds| Input tokens: 4,002 | Output tokens: 90]\n" +
		"```\n"
	tr := expectEvents(t, "guided_tour.md", text, FormatSmolagentsConsole, []string{
		`user "Which city hosts the oldest brid…"`,
		`call python_interpreter "{\"code\":\"for bridge in bridges:\\…" => "name 'bridges' is not defined" FAILED`,
		`call python_interpreter "{\"code\":\"final_answer(\\\"Regensbu…" => "Out - Final answer: Regensburg"`,
	})
	want := `{"code":"for bridge in bridges:\n    print(lookup_tool(name=bridge))"}`
	if calls := tr.Agents[0].Calls(); len(calls) == 0 || string(calls[0].Args) != want {
		t.Errorf("calls %+v, the first one's arguments want %s", calls, want)
	}
}

// The rows of a boxed code panel, between its borders, give the code as written: the gutter is
// as wide on every row (numbers right-aligned), a numbered row with no code is a blank line, a
// row with a blank gutter goes on with the line above, and a panel not numbered from 1 has no
// gutter to take off (validation round r187b G4).
func TestSmolagentsBoxedCodeRows(t *testing.T) {
	numbered := func(n int, code string) string { return fmt.Sprintf(" %3d %-40s ", n, code) }
	var ten []string
	for n := 1; n <= 10; n++ {
		ten = append(ten, numbered(n, fmt.Sprintf("x%d = %d", n, n)))
	}
	tests := []struct {
		name string
		rows []string
		want string
	}{
		{"indent kept", []string{numbered(1, "if ok:"), numbered(2, "    go()")}, "if ok:\n    go()"},
		{"ten rows, one gutter", ten, "x1 = 1\nx2 = 2\nx3 = 3\nx4 = 4\nx5 = 5\nx6 = 6\nx7 = 7\nx8 = 8\nx9 = 9\nx10 = 10"},
		{"blank line numbered", []string{numbered(1, "a = 1"), numbered(2, ""), numbered(3, "print(a)")}, "a = 1\n\nprint(a)"},
		{"wrapped line", []string{numbered(1, "print('a long"), "      line')                                "}, "print('a long line')"},
		{"no gutter", []string{" total = 1 + 2        ", "   print(total)       "}, "total = 1 + 2\n  print(total)"},
		{"code opening with a digit, no gutter", []string{" 12 + x   "}, "12 + x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := smolBoxedCode(tc.rows); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
