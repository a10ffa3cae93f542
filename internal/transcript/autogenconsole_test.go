package transcript

import (
	"strings"
	"testing"
)

// Written for these tests in the layout AutoGen AgentChat's Console prints: a run whose first
// call fails and whose next two calls, made together by a model that gives no call ids, are
// answered in order; the content's quotes and line breaks escaped as Python writes them.
const autogenConsoleRun = `---------- TextMessage (user) ----------
What is the weather in New York and Boston?
---------- ToolCallRequestEvent (weather_agent) ----------
[FunctionCall(id='call_1', arguments='{"city":"NYC"}', name='get_weather')]
---------- ToolCallExecutionEvent (weather_agent) ----------
[FunctionExecutionResult(content="Error: unknown city 'NYC'", name='get_weather', call_id='call_1', is_error=True)]
---------- ToolCallRequestEvent (weather_agent) ----------
[FunctionCall(id='', arguments='{"city":"New York"}', name='get_weather'), FunctionCall(id='', arguments='{"city":"Boston"}', name='get_weather')]
---------- ToolCallExecutionEvent (weather_agent) ----------
[FunctionExecutionResult(content='New York: 73 F\nsunny', name='get_weather', call_id='', is_error=False), FunctionExecutionResult(content='Boston: 65 F', name='get_weather', call_id='', is_error=False)]
---------- ToolCallSummaryMessage (weather_agent) ----------
New York: 73 F
---------- TextMessage (weather_agent) ----------
It is 73 F in New York and 65 F in Boston.
2026-09-27T15:37:13.123149Z  INFO mcp_weather::server: routing resolved call_site="get_weather"
[Prompt tokens: 120, Completion tokens: 18]
---------- Summary ----------
Number of messages: 7
Finish reason: None
Total prompt tokens: 120
`

// A Console printout: the user's turn, each request's calls (one reply) with their arguments,
// their results by id or else in order, is_error=True a failure, the summary message not read
// again; the Console's statistics and summary, and another logger's record, are no message's
// words (validation round r116a U4).
func TestAutoGenConsolePrintout(t *testing.T) {
	tr := expectEvents(t, "run.log", autogenConsoleRun, FormatAutoGenConsole, []string{
		`user "What is the weather in New York …"`,
		`call get_weather "{\"city\":\"NYC\"}" => "Error: unknown city 'NYC'" FAILED`,
		`call get_weather "{\"city\":\"New York\"}" => "New York: 73 F\nsunny"`,
		`call get_weather "{\"city\":\"Boston\"}" => "Boston: 65 F"`,
		`text[model] "It is 73 F in New York and 65 F …"`,
	})
	if last := tr.Agents[0].Events[len(tr.Agents[0].Events)-1]; last.Text != "It is 73 F in New York and 65 F in Boston." {
		t.Errorf("the last words %q hold what is no message's", last.Text)
	}
	if c := tr.Agents[0].Calls(); c[1].Turn == "" || c[1].Turn != c[2].Turn || c[0].Turn == c[1].Turn {
		t.Errorf("turns %q %q %q: the calls of one request are one reply", c[0].Turn, c[1].Turn, c[2].Turn)
	}
}

// A README that shows the same question asked of three models, each run in a block of its
// own, holds three runs, not one asking three times; a block of code in a message's words is
// the message's.
func TestAutoGenConsoleRunsInMarkdownBlocks(t *testing.T) {
	run := "```\n---------- TextMessage (user) ----------\nWeather in New York?\n" +
		"---------- ToolCallRequestEvent (weather_agent) ----------\n" +
		"[FunctionCall(id='call_1', arguments='{\"city\":\"New York\"}', name='get_weather')]\n" +
		"---------- ToolCallExecutionEvent (weather_agent) ----------\n" +
		"[FunctionExecutionResult(content='73 and sunny', name='get_weather', call_id='call_1', is_error=False)]\n" +
		"---------- TextMessage (weather_agent) ----------\nIt is sunny:\n```python\nprint(73)\n```\n```\n\n"
	doc := "# Three models\n\n### gpt-4.1\n\n" + run + "### gemini\n\n" + run + "### qwen\n\n" + run
	tr, err := ReadFrom("README.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatAutoGenConsole || tr.Sessions != 3 || len(tr.Agents) != 3 {
		t.Fatalf("read as %s, %d sessions, %d agents; want 3 runs", tr.Format, tr.Sessions, len(tr.Agents))
	}
	for _, a := range tr.Agents {
		if calls, notices := defaultNotices(t, a); calls != 1 || len(notices) != 0 {
			t.Errorf("session %d: %d calls, notices %q", a.Session, calls, notices)
		}
		if last := a.Events[len(a.Events)-1]; !strings.Contains(last.Text, "print(73)") {
			t.Errorf("session %d: the message's code block left its words: %q", a.Session, last.Text)
		}
	}
}

// Written for these tests in the layout AgentChat 0.4.0–0.4.3's Console prints, whose rule
// names the source alone: a request of two calls answered in the other order, a tool's own
// line printed under the request, the results' summary, a handoff in words, the Console's
// statistics; the same team asked again after its summary.
const autogenConsoleSourceOnlyRun = `---------- user ----------
Plan a trip to Lisbon
---------- travel_agent ----------
[FunctionCall(id='call_a', arguments='{"city":"Lisbon"}', name='find_hotels'), FunctionCall(id='call_b', arguments='{"to":"LIS"}', name='find_flights')]
[Prompt tokens: 90, Completion tokens: 30]
searching the fares cache
---------- travel_agent ----------
[FunctionExecutionResult(content='no flights today', call_id='call_b'), FunctionExecutionResult(content="3 hotels: 'Alfama', 'Baixa', 'Belem'", call_id='call_a')]
---------- travel_agent ----------
Tool calls:
find_hotels({"city":"Lisbon"}) = 3 hotels
find_flights({"to":"LIS"}) = no flights today
---------- travel_agent ----------
Handing over to the booking agent.
[Prompt tokens: 140, Completion tokens: 9]
---------- booking_agent ----------
[FunctionCall(id='call_c', arguments='{}', name='transfer_to_user')]
---------- booking_agent ----------
[FunctionExecutionResult(content='Transferred to user.', call_id='call_c')]
---------- Summary ----------
Number of messages: 7
Total prompt tokens: 230
---------- user ----------
Book the Alfama one
`

// A rule of the source alone, as AgentChat 0.4.0–0.4.3's Console printed it, heads a message
// whose body says its type: a FunctionCall list the calls, the next FunctionExecutionResult
// list their results by call_id (these releases write no is_error), the "Tool calls:" summary
// no words of the agent's, any other body the source's words (validation round r187b G2: four
// AutoGen notebooks, 37 calls, unread).
func TestAutoGenConsoleSourceOnlyRules(t *testing.T) {
	tr := expectEvents(t, "trip.log", autogenConsoleSourceOnlyRun, FormatAutoGenConsole, []string{
		`user "Plan a trip to Lisbon"`,
		`call find_hotels "{\"city\":\"Lisbon\"}" => "3 hotels: 'Alfama', 'Baixa', 'Be…"`,
		`call find_flights "{\"to\":\"LIS\"}" => "no flights today"`,
		`text[model] "Handing over to the booking agen…"`,
		`call transfer_to_user "{}" => "Transferred to user."`,
		`user "Book the Alfama one"`,
	})
	if c := tr.Agents[0].Calls(); c[0].Turn == "" || c[0].Turn != c[1].Turn || c[1].Turn == c[2].Turn {
		t.Errorf("turns %q %q %q: the calls of one request are one reply", c[0].Turn, c[1].Turn, c[2].Turn)
	}
}

// A rule of the source alone is the Console's only where a FunctionCall list follows one and
// the name is a Python identifier, as AgentChat's agent names are: a document whose sections
// are ruled with dashes is no AutoGen printout, nor is a rule titled in words over such a list.
func TestAutoGenConsoleSourceOnlyRulesNeedACallList(t *testing.T) {
	for name, doc := range map[string]string{
		"sections": "---------- Setup ----------\nInstall the tools.\n---------- Usage ----------\nRun it.\n",
		"titled":   "---------- Step 1 ----------\n[FunctionCall(id='c', arguments='{}', name='f')]\n",
	} {
		if tr, err := ReadFrom(name+".txt", strings.NewReader(doc)); err == nil && tr.Format == FormatAutoGenConsole {
			t.Errorf("%s: read as AutoGen's Console printout", name)
		}
	}
	if !isAutoGenConsoleHead([]byte("intro\n---------- planner ----------\n\n[FunctionCall(id='c', arguments='{}', name='f')]\n")) {
		t.Error("a source-only rule over a FunctionCall list is not taken for AutoGen's Console")
	}
}

// The run's task given again after the run's calls is the team run again (a notebook running
// one task in cell after cell): another session, so that the second run's calls are not the
// first's repeated. A user answering the run with other words goes on with it.
func TestAutoGenConsoleTaskGivenAgainIsAnotherRun(t *testing.T) {
	run := "---------- user ----------\nWhat is 214 to 398 in percent?\n" +
		"---------- analyst ----------\n[FunctionCall(id='c1', arguments='{\"start\":214,\"end\":398}', name='percentage_change_tool')]\n" +
		"---------- analyst ----------\n[FunctionExecutionResult(content='85.98', call_id='c1')]\n" +
		"---------- analyst ----------\nIt rose by 85.98%.\n"
	tr, err := ReadFrom("selector.log", strings.NewReader(run+run+run))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Sessions != 3 || len(tr.Agents) != 3 {
		t.Errorf("%d sessions, %d agents: the same task run three times is three runs", tr.Sessions, len(tr.Agents))
	}
	answered := run + "---------- user ----------\nAnd from 398 to 214?\n" +
		"---------- analyst ----------\n[FunctionCall(id='c2', arguments='{\"start\":398,\"end\":214}', name='percentage_change_tool')]\n"
	if tr, err := ReadFrom("selector.log", strings.NewReader(answered)); err != nil || tr.Sessions != 1 || len(tr.Agents[0].Calls()) != 2 {
		t.Errorf("a user's follow-up split the run: %v", err)
	}
}

// A Magentic-One team's run as the Console prints it (AgentChat 0.4.9, rules of the source
// alone, after a harness's install log): the orchestrator's words and instructions, each
// worker's answer a call of that worker, the web surfer's arguments the action its answer opens
// with (validation round r198b, reader gap 4). Typed rules read alike.
func TestAutoGenConsoleMagenticOneWorkersAnswersAreCalls(t *testing.T) {
	body := func(rule func(kind, source string) string) string {
		return "Collecting autogen-agentchat\nSuccessfully installed autogen-agentchat-0.4.9\n" +
			rule("TextMessage", "user") + "How many at bats did he have?\n" +
			rule("TextMessage", "MagenticOneOrchestrator") + "\nWe are working to address the request.\n" +
			rule("TextMessage", "MagenticOneOrchestrator") + "Please search for his 1977 statistics.\n" +
			rule("MultiModalMessage", "WebSurfer") + "I typed '1977 statistics' into the browser search bar.\n\n" +
			"The web browser is open to the page [1977 statistics - Search](https://www.bing.com/search?q=1977).\n" +
			"The viewport shows 25% of the webpage, and is positioned at the top of the page\n" +
			rule("TextMessage", "MagenticOneOrchestrator") + "Please read the number of at bats.\n" +
			rule("TextMessage", "WebSurfer") + "He had 525 at bats.\n" +
			rule("TextMessage", "MagenticOneOrchestrator") + "FINAL ANSWER: 525\n"
	}
	bare := func(_, source string) string { return "---------- " + source + " ----------\n" }
	typed := func(kind, source string) string { return "---------- " + kind + " (" + source + ") ----------\n" }
	for name, rule := range map[string]func(kind, source string) string{"source-only rules": bare, "typed rules": typed} {
		t.Run(name, func(t *testing.T) {
			expectEvents(t, "magentic.log", body(rule), FormatAutoGenConsole, []string{
				`user "How many at bats did he have?"`,
				`text[model] "We are working to address the re…"`,
				`text[model] "Please search for his 1977 stati…"`,
				`call WebSurfer "{\"action\":\"I typed '1977 statist…" => "The web browser is open to the p…"`,
				`text[model] "Please read the number of at bat…"`,
				`call WebSurfer "{\"instruction\":\"Please read the …" => "He had 525 at bats."`,
				`text[model] "FINAL ANSWER: 525"`,
			})
		})
	}
}
