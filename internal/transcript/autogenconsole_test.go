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
