package transcript

import (
	"fmt"
	"strings"
	"testing"
)

// Written for these tests in the layout of langchain_core's pretty_repr, as LangGraph's
// tutorials print a run: a search made twice with the same query and failing the same way,
// then answered.
const langchainPrintedRun = `================================ Human Message =================================

What's the weather in SF?
================================== Ai Message ==================================

Let me look that up.
Tool Calls:
  tavily_search (call_8a2f)
 Call ID: call_8a2f
  Args:
    query: weather in San Francisco
    max_results: 2
================================= Tool Message =================================
Name: tavily_search

Error: TimeoutError('no answer')
 Please fix your mistakes.
================================== Ai Message ==================================
Tool Calls:
  tavily_search (call_9b3c)
 Call ID: call_9b3c
  Args:
    query: weather in San Francisco
    max_results: 2
  get_time (call_9b3d)
 Call ID: call_9b3d
  Args:
    city: San Francisco
================================= Tool Message =================================
Name: get_time

10:42
================================= Tool Message =================================
Name: tavily_search

[{"title": "Weather in San Francisco", "content": "53 F, foggy"}]
================================== Ai Message ==================================

It is 53°F and foggy.
`

// A printed run: the user's turn, the model's words and calls with their arguments, each
// tool message answering the oldest call of its tool, ToolNode's error a failure.
func TestLangChainPrintedMessages(t *testing.T) {
	tr := expectEvents(t, "README.md", langchainPrintedRun, FormatLangChainText, []string{
		`user "What's the weather in SF?"`,
		`text[model] "Let me look that up."`,
		`call tavily_search "{\"max_results\":\"2\",\"query\":\"weat…" => "Error: TimeoutError('no answer')…" FAILED`,
		`call tavily_search "{\"max_results\":\"2\",\"query\":\"weat…" => "[{\"title\": \"Weather in San Franc…"`,
		`call get_time "{\"city\":\"San Francisco\"}" => "10:42"`,
		`text[model] "It is 53°F and foggy."`,
	})
	if c := tr.Agents[0].Calls(); c[1].Turn == "" || c[1].Turn != c[2].Turn {
		t.Errorf("turns %q %q: the calls of one message are one reply", c[1].Turn, c[2].Turn)
	}
}

// A copy may lose the lines' indentation and keep the bold codes' remains around the banner's
// title; an AI message that names its agent is that agent's (LangGraph's multi-agent graphs).
func TestLangChainPrintedMessagesCopiedLoosely(t *testing.T) {
	text := "================================[1m Human Message [0m=================================\n" +
		"Find flights\n" +
		"==================================[1m Ai Message [0m==================================\n" +
		"Name: flight_agent\n" +
		"Tool Calls:\n" +
		"search_flights (toolu_01)\n" +
		"Call ID: toolu_01\n" +
		"Args:\n" +
		"origin: ZRH\n" +
		"note: first line\n" +
		"and a second\n" +
		"=================================[1m Tool Message [0m=================================\n" +
		"Name: search_flights\n" +
		"LX 318 at 07:10\n"
	tr, err := ReadFrom("notebook.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatLangChainText || len(tr.Agents) != 2 || tr.Agents[1].ID != "flight_agent" {
		t.Fatalf("read as %s, agents %+v", tr.Format, tr.Agents)
	}
	want := []string{`call search_flights "{\"note\":\"first line\\nand a secon…" => "LX 318 at 07:10"`}
	if got := describe(tr.Agents[1].Events); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if args := string(tr.Agents[1].Calls()[0].Args); !strings.Contains(args, `"origin":"ZRH"`) {
		t.Errorf("arguments %s: the origin is lost", args)
	}
}

// A README that pastes runs into Markdown blocks holds a run per block; a tool message answers
// the AI message just before it, so calls a user declined stay unanswered rather than take the
// next run's answers; what the program printed after indented arguments (its prompt to approve
// the calls, the user's reply) is no part of them (validation round r116a U1-U3).
func TestLangChainPrintedRunsInBlocksWithDeclinedCalls(t *testing.T) {
	ai := func(id, query string) string {
		return "================================== Ai Message ==================================\nTool Calls:\n" +
			"  lookup_policy (" + id + ")\n Call ID: " + id + "\n  Args:\n    query: " + query + "\n"
	}
	tool := "================================= Tool Message =================================\nName: lookup_policy\n\nNo changes within 3 hours.\n"
	human := "================================ Human Message =================================\n\nCan I change my flight?\n"
	doc := "# Travel agent\n\n```text\n" + human + ai("call_1", "flight change policy") + tool + "```\n\n" +
		"```text\n" + human + ai("call_2", "changes") +
		"Do you approve of the above actions? Type 'y' to continue; otherwise, explain your requested change.\n\nno, I changed my mind\n" +
		"================================== Ai Message ==================================\n\nUnderstood.\n```\n\n" +
		"```text\n" + human + ai("call_3", "changes") + tool + "```\n"
	tr, err := ReadFrom("README.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatLangChainText || tr.Sessions != 3 || len(tr.Agents) != 3 {
		t.Fatalf("read as %s, %d sessions, %d agents; want 3 runs", tr.Format, tr.Sessions, len(tr.Agents))
	}
	var got []string
	for _, a := range tr.Agents {
		for _, c := range a.Calls() {
			got = append(got, fmt.Sprintf("%d %s %v", a.Session, c.Args, c.HasResult))
		}
	}
	want := []string{`0 {"query":"flight change policy"} true`, `1 {"query":"changes"} false`, `2 {"query":"changes"} true`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// An agent that runs a shell through a ReAct prompt writes its command in tags, the log
// printing the message twice, and the harness answers in the next human message with the
// output and its exit code; a log's time before a banner is the log's (r130b U1).
func TestLangChainPrintedCommandsInTags(t *testing.T) {
	const log = "2026-04-20 22:23:06,850 - ----------Start setup conversation----------\n2026-04-20 22:23:12,832 - \n" +
		"================================== Ai Message ==================================\n\n" +
		"Thought: Build first.\nAction: <command>cmake --build build</command>\nThought: Build first.\nAction: <command>cmake --build build</command>\n\n" +
		" -- <step_cost> input_tok: 44856, output_tok: 113, cost_usd: 0.08008 </step_cost>\n\n2026-04-20 22:23:12,926 - \n" +
		"================================ Human Message =================================\n\nObservation:\ncmake --build build\nninja: error: loading 'build.ninja'\n\nexit code: 1\n\n" +
		"2026-04-20 22:23:17,823 - ================================== Ai Message ==================================\n\n" +
		"Thought: Configure.\nAction: <command>cmake -S . -B build -G Ninja</command>\n\n" +
		"2026-04-20 22:23:18,100 - ================================ Human Message =================================\n\nObservation:\n-- Configuring done\n\nexit code: 0\n\n" +
		"2026-04-20 22:23:19,000 - ================================== Ai Message ==================================\n\nThought: Done.\nAction: <stop></stop>\n"
	tr := expectEvents(t, "setup.log", log, FormatLangChainText, []string{
		"text[model] \"Thought: Build first.\\nAction: <c…\"",
		"call command \"{\\\"command\\\":\\\"cmake --build build\\\"…\" => \"cmake --build build\\nninja: error…\" FAILED",
		"text[model] \"Thought: Configure.\\nAction: <com…\"",
		"call command \"{\\\"command\\\":\\\"cmake -S . -B build …\" => \"-- Configuring done\\n\\nexit code: …\"",
		"text[model] \"Thought: Done.\\nAction: <stop></s…\"",
	})
	if n := len(tr.Agents[0].Calls()); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
}

// A graph that prints its whole state at each node's invocation prints its AI messages again,
// their Call IDs with them: such a message is read once, and a hand-off made once is one call.
func TestLangChainMessagePrintedAgainIsReadOnce(t *testing.T) {
	handOff := `================================== Ai Message ==================================
Name: supervisor

I am transferring the task to the research_expert.
Tool Calls:
  transfer_to_research_expert (call_88082700)
 Call ID: call_88082700
  Args:
================================= Tool Message =================================
Name: transfer_to_research_expert

Successfully transferred to research_expert
`
	human := `================================ Human Message =================================

Research Python scraping libraries
`
	doc := human + handOff + human + handOff + human + handOff
	tr, err := ReadFrom("run.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, a := range tr.Agents {
		calls += len(a.Calls())
	}
	if calls != 1 {
		t.Errorf("%d calls read, want the one hand-off", calls)
	}
}

// Written for these tests in the layout of a notebook's output converted to docs (every line
// shifted four spaces), a graph run through a stream helper (langchain_teddynote's
// stream_graph) that prints a rule, the node's name and a dashed rule around each node's
// messages: a call with no arguments, one with a query over two lines.
const langgraphStreamedRun = `    ==================================================
    🔄 Node: list_tables 🔄
    - - - - - - - - - - - - - - - - - - - - - - - - - 
    ================================== Ai Message ==================================
    Tool Calls:
      list_tables (call_l1)
     Call ID: call_l1
      Args:
    ==================================================

    ==================================================
    🔄 Node: list_tables_tool 🔄
    - - - - - - - - - - - - - - - - - - - - - - - - - 
    ================================= Tool Message =================================
    Name: list_tables

    Album, Artist, Track
    ================================== Ai Message ==================================
    Tool Calls:
      run_query (call_q1)
     Call ID: call_q1
      Args:
        query: SELECT Name FROM Artist
    WHERE ArtistId = 1;
        limit: 5
    ==================================================

    ==================================================
    🔄 Node: run_query_tool 🔄
    - - - - - - - - - - - - - - - - - - - - - - - - - 
    ================================= Tool Message =================================
    Name: run_query

    [('AC/DC',)]
`

// A stream helper's rule of '=', its node's name and its dashed rule end the arguments before
// them, in a text shifted as a whole where no line is at the margin; a value's next line at
// the shifted margin stays the value's (validation round r187b G5: every call's arguments
// carried the helper's separators).
func TestLangChainArgumentsEndAtStreamHelperSeparators(t *testing.T) {
	tr := expectEvents(t, "sql-agent.md", langgraphStreamedRun, FormatLangChainText, []string{
		`call list_tables "{}" => "Album, Artist, Track"`,
		`call run_query "{\"limit\":\"5\",\"query\":\"SELECT Nam…" => "[('AC/DC',)]"`,
	})
	want := `{"limit":"5","query":"SELECT Name FROM Artist\n    WHERE ArtistId = 1;"}`
	if got := string(tr.Agents[0].Calls()[1].Args); got != want {
		t.Errorf("arguments %s, want %s", got, want)
	}
}

// Each separator alone ends the value before it, in a text shifted as a whole and in a copy
// that lost the indentation.
func TestLangChainArgumentsEndAtEachStreamHelperSeparator(t *testing.T) {
	for name, separator := range map[string]string{
		"rule":      "==================================================",
		"node":      "🔄 Node: search_tool 🔄",
		"node bold": "🔄 Node: [1;36msearch_tool[0m 🔄",
		"dashes":    "- - - - - - - - - - - - - - - - - - - - - - - - - ",
	} {
		for layout, head := range map[string]string{
			"shifted":    "  search (call_s1)\n Call ID: call_s1\n  Args:\n    query: weather in Lisbon\n",
			"unindented": "search (call_s1)\nCall ID: call_s1\nArgs:\nquery: weather in Lisbon\n",
		} {
			doc := "================================== Ai Message ==================================\n" +
				"Tool Calls:\n" + head + separator + "\n search_tool done\n" +
				"================================= Tool Message =================================\nName: search\n\nsunny\n"
			if layout == "shifted" {
				doc = "    " + strings.ReplaceAll(doc, "\n", "\n    ")
			}
			tr, err := ReadFrom("run.md", strings.NewReader(doc))
			if err != nil {
				t.Fatalf("%s, %s: %v", name, layout, err)
			}
			if got := string(tr.Agents[0].Calls()[0].Args); got != `{"query":"weather in Lisbon"}` {
				t.Errorf("%s, %s: arguments %s", name, layout, got)
			}
		}
	}
}
