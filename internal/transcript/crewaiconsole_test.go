package transcript

import (
	"bufio"
	"reflect"
	"strings"
	"testing"
)

// crewAIBox draws a panel as CrewAI 1.x's console does: the title in the top rule, each line
// between borders with two columns of padding, the width fixed.
func crewAIBox(title string, lines ...string) string {
	const width = 60
	var b strings.Builder
	b.WriteString("╭" + strings.Repeat("─", 10) + " " + title + " " + strings.Repeat("─", 10) + "╮\n")
	b.WriteString("│" + strings.Repeat(" ", width) + "│\n")
	for _, l := range lines {
		b.WriteString("│  " + l + strings.Repeat(" ", max(0, width-2-len([]rune(l)))) + "│\n")
	}
	b.WriteString("│" + strings.Repeat(" ", width) + "│\n")
	b.WriteString("╰" + strings.Repeat("─", width) + "╯\n\n")
	return b.String()
}

// A hierarchical crew, in the layout of real CrewAI 1.x output: the manager delegates, the
// coworker runs while the delegation waits (its calls its own), a tool fails and is used
// again, the arguments a Python dict wrapped over two lines, colour codes around a title.
func TestCrewAIConsoleAgentsDelegationAndFailures(t *testing.T) {
	out := crewAIBox("🚀 Crew Execution Started", "Crew Execution Started", "Name:", "crew", "ID:", "64accb2a") +
		crewAIBox("📋 Task Started", "Task Started", "Name: Research the topic", "ID: d85c41f1") +
		crewAIBox("🤖 Agent Started", "Agent: Content Marketing Manager", "", "Task: Research the topic") +
		crewAIBox("🔧 Tool Execution Started (#1)", "Tool: delegate_work_to_coworker", "Args: {'task': 'find the market size',", "'coworker': 'Market Research Specialist'}") +
		crewAIBox("🤖 Agent Started", "Agent: Market Research Specialist", "", "Task: find the market size") +
		"\x1b[33m" + crewAIBox("🔧 Tool Execution Started (#1)", "Tool: search", "Args: {'query': 'SMB AI market size'}") + "\x1b[0m" +
		"Tool search executed with result: {'error': 'rate limited'}...\n" +
		crewAIBox("🔧 Tool Error (#1)", "Tool Failed", "Tool: search", "Iteration: 1", "Attempt: 1", "Error: rate limited, retry in 60s") +
		crewAIBox("🔧 Tool Execution Started (#2)", "Tool: search", "Args: {'query': 'SMB AI market size'}") +
		crewAIBox("✅ Tool Execution Completed (#2)", "Tool Completed", "Tool: search", "Output: The market was $4.2B in 2025.", "Source: example.org") +
		crewAIBox("✅ Agent Final Answer", "Agent: Market Research Specialist", "", "Final Answer:", "About $4.2B.") +
		crewAIBox("✅ Tool Execution Completed (#1)", "Tool Completed", "Tool: delegate_work_to_coworker", "Output: About $4.2B.") +
		crewAIBox("✅ Agent Final Answer", "Agent: Content Marketing Manager", "", "Final Answer:", "The market is about $4.2B.")
	tr, err := ReadFrom("crew_run.txt", strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCrewAIConsole {
		t.Fatalf("read as %q, want %q", tr.Format, FormatCrewAIConsole)
	}
	want := map[string][]string{
		"Content Marketing Manager": {
			`user "Research the topic"`,
			`call delegate_work_to_coworker "{\"coworker\":\"Market Research Spe…" => "About $4.2B."`,
			`text[model] "The market is about $4.2B."`,
		},
		"Market Research Specialist": {
			`user "find the market size"`,
			`call search "{\"query\":\"SMB AI market size\"}" => "rate limited, retry in 60s" FAILED`,
			`call search "{\"query\":\"SMB AI market size\"}" => "The market was $4.2B in 2025.\nSo…"`,
			`text[model] "About $4.2B."`,
		},
	}
	got := map[string][]string{}
	for _, a := range tr.Agents {
		got[a.ID] = describe(a.Events)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%v\nwant:\n%v", got, want)
	}
}

// Tasks run at once (async_execution): their agents start one after another with no call
// waiting, the panels do not say whose a call is, and calls of one tool end in any order.
// Their calls are one stream, "crew"'s, and an answer that could be either call's is no one's.
func TestCrewAIConsoleAgentsAtOnceShareOneStream(t *testing.T) {
	out := crewAIBox("🤖 Agent Started", "Agent: Analyst", "", "Task: analyse") +
		crewAIBox("🤖 Agent Started", "Agent: Forecaster", "", "Task: forecast") +
		crewAIBox("🔧 Tool Execution Started (#1)", "Tool: search", "Args: {'query': 'losses'}") +
		crewAIBox("🔧 Tool Execution Started (#2)", "Tool: search", "Args: {'query': 'forecast'}") +
		crewAIBox("🔧 Tool Execution Started (#1)", "Tool: quote", "Args: {'symbol': 'AAPL'}") +
		crewAIBox("✅ Tool Execution Completed (#2)", "Tool Completed", "Tool: search", "Output: forecast results") +
		crewAIBox("✅ Tool Execution Completed (#1)", "Tool Completed", "Tool: quote", "Output: 187.5") +
		crewAIBox("✅ Tool Execution Completed (#2)", "Tool Completed", "Tool: search", "Output: losses results")
	tr, err := ReadFrom("crew_async.txt", strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	var crew []string
	for _, a := range tr.Agents {
		if a.ID == "crew" {
			crew = describe(a.Events)
		}
	}
	want := []string{
		`user "forecast"`,
		`call search "{\"query\":\"losses\"}" => -`,
		`call quote "{\"symbol\":\"AAPL\"}" => "187.5"`,
		`call search "{\"query\":\"forecast\"}" => -`,
	}
	if !reflect.DeepEqual(crew, want) {
		t.Errorf("crew's events:\n%s\nwant:\n%s", strings.Join(crew, "\n"), strings.Join(want, "\n"))
	}
}

// A copy of the panels without their borders (a notebook's HTML output copied as text) keeps
// the titles and the indented fields.
func TestCrewAIConsoleCopyWithoutBorders(t *testing.T) {
	const out = "  🤖 Agent Started  \n\n   Agent: Analyst\n\n   Task: look it up\n\n" +
		"  🔧 Tool Execution Started (#1)  \n\n   Tool: lookup\n   Args: {'id': 7}\n\n" +
		"Tool lookup executed with result: Not found...\n" +
		"  ✅ Tool Execution Completed (#1)  \n\n   Tool Completed\n   Tool: lookup\n   Output: Not found\n\n"
	expectEvents(t, "copied.txt", out, FormatCrewAIConsole, []string{
		`user "look it up"`,
		`call lookup "{\"id\":7}" => "Not found"`,
	})
}

func FuzzCrewAIConsole(f *testing.F) {
	f.Add([]byte(crewAIBox("🤖 Agent Started", "Agent: A", "Task: t") + crewAIBox("🔧 Tool Execution Started (#1)", "Tool: x", "Args: {'a': 1}") +
		crewAIBox("🔧 Tool Error (#1)", "Tool Failed", "Tool: x", "Error: boom")))
	f.Add([]byte("  🔧 Tool Execution Started (#1)\n   Tool:\n   Args: {\n│\n╭── ✅ Tool Execution Completed (#1) ──╮\n│  Tool: \n"))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readCrewAIConsole(name, br) })
}

// The older panels (CrewAI of mid-2025) name the agent of each call: "🔧 Agent Tool Execution"
// (Agent:, Thought:, Using Tool:), then "Tool Input" and "Tool Output" panels. A live status
// tree printed without its last line break glues the next panel's top border to it
// (validation round r147a U1), and a coworker's run comes before the delegation's panels.
// CrewAI's reminder of its tools, appended to an output every few uses, is its own words, not
// the tool's (r146c M1, r147a).
func TestCrewAIConsoleOlderPanelsNameTheirAgent(t *testing.T) {
	glued := func(tree, panel string) string { return tree + panel }
	out := crewAIBox("🤖 Agent Started", "Agent: Writer", "", "Task: write the report") +
		"🚀 Crew: crew\n└── 📋 Task: 35d9\n    Status: Executing Task...\n" +
		glued("    └── 🔧 Using Delegate work to coworker (1)", crewAIBox("🤖 Agent Started", "Agent: Searcher", "", "Task: search the facts")) +
		glued("    └── 🔧 Used search (1)", crewAIBox("🔧 Agent Tool Execution", "Agent: Searcher", "", "Thought: Thought: look it up", "", "Using Tool: search")) +
		crewAIBox("Tool Input", `{"query": "facts"}`) +
		crewAIBox("Tool Output", "No results.", "", "", "You ONLY have access to the following tools, and should NEVER make up tools that are", "not listed here:", "Tool Name: search") +
		crewAIBox("✅ Agent Final Answer", "Agent: Searcher", "", "Final Answer:", "Nothing found.") +
		crewAIBox("🔧 Agent Tool Execution", "Agent: Writer", "", "Thought: ask the searcher", "", "Using Tool: Delegate work to coworker") +
		crewAIBox("Tool Input", `{"task": "search the facts", "coworker": "Searcher"}`) +
		crewAIBox("Tool Output", "Nothing found.") +
		crewAIBox("✅ Agent Final Answer", "Agent: Writer", "", "Final Answer:", "No report.")
	tr, err := ReadFrom("agent.log", strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, a := range tr.Agents {
		got[a.ID] = describe(a.Events)
	}
	want := map[string][]string{
		"Writer": {
			`user "write the report"`,
			`text[model] "ask the searcher"`,
			`call Delegate work to coworker "{\"task\": \"search the facts\", \"co…" => "Nothing found."`,
			`text[model] "No report."`,
		},
		"Searcher": {
			`user "search the facts"`,
			`text[model] "look it up"`,
			`call search "{\"query\": \"facts\"}" => "No results."`,
			`text[model] "Nothing found."`,
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%v\nwant:\n%v", got, want)
	}
}

// A tool that runs a crew of its own: the crew started while the call waits is run inside it,
// in the same session, and when it completes the caller is at work again and the call is
// answered (validation round r147a U3). An end printed before its start answers the start
// when it comes (U4); an MCP server's error fails the call (U5).
func TestCrewAIConsoleCrewInsideACallAndEndsBeforeStarts(t *testing.T) {
	out := crewAIBox("🚀 Crew Execution Started", "Crew Execution Started", "Name:", "crew") +
		crewAIBox("🤖 Agent Started", "Agent: Manager", "", "Task: plan it") +
		crewAIBox("🔧 Tool Execution Started (#1)", "Tool: skill_loader", "Args: {'skill_name': 'notify'}") +
		crewAIBox("🚀 Crew Execution Started", "Crew Execution Started", "Name:", "crew") +
		crewAIBox("🤖 Agent Started", "Agent: Notifier", "", "Task: notify") +
		crewAIBox("✅ Tool Execution Completed (#1)", "Tool Completed", "Tool: fill", "Output: MCP error -32602: Invalid arguments for tool fill") +
		crewAIBox("🔧 Tool Execution Started (#1)", "Tool: fill", "Args: {'index': '4'}") +
		crewAIBox("✅ Agent Final Answer", "Agent: Notifier", "", "Final Answer:", "could not fill") +
		crewAIBox("Crew Completion", "Crew Execution Completed", "Name:", "crew") +
		crewAIBox("✅ Tool Execution Completed (#1)", "Tool Completed", "Tool: skill_loader", "Output: could not fill") +
		crewAIBox("✅ Agent Final Answer", "Agent: Manager", "", "Final Answer:", "done")
	tr, err := ReadFrom("agent.log", strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Sessions != 1 {
		t.Errorf("%d sessions, want the one: the inner crew runs inside the call", tr.Sessions)
	}
	got := map[string][]string{}
	for _, a := range tr.Agents {
		got[a.ID] = describe(a.Events)
	}
	want := map[string][]string{
		"Manager": {
			`user "plan it"`,
			`call skill_loader "{\"skill_name\":\"notify\"}" => "could not fill"`,
			`text[model] "done"`,
		},
		"Notifier": {
			`user "notify"`,
			`call fill "{\"index\":\"4\"}" => "MCP error -32602: Invalid argume…" FAILED`,
			`text[model] "could not fill"`,
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%v\nwant:\n%v", got, want)
	}
}
