package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// CrewAI's verbose output, written for this test in the layout of real crews' saved output:
// colour codes around the marks, the live display's status tree between the sections, the
// tool input a JSON string holding the JSON, each agent a role of its own.
func TestCrewAILogAgentsTasksAndCalls(t *testing.T) {
	const esc = "\x1b"
	const out = "Running the Crew\n" +
		"╭──────── Crew Execution Started ────────╮\n│  Name: crew  │\n╰────────────────────────────────────────╯\n" +
		"🚀 Crew: crew\n└── 📋 Task: 5f1c\n    Status: Executing Task...\n" +
		esc + "[1m" + esc + "[95m# Agent:" + esc + "[00m " + esc + "[1m" + esc + "[92mClient Profiling Specialist" + esc + "[00m\n" +
		esc + "[95m## Task:" + esc + "[00m " + esc + "[92mCalculate the years until retirement." + esc + "[00m\n" +
		"🤖 Agent: Client Profiling Specialist\n    Status: In Progress\n" +
		"# Agent: Client Profiling Specialist\n" +
		"## Thought: Thought: I need the client's current age first.\n" +
		"## Using tool: FinancialAnalysisMCPTool\n" +
		"## Tool Input: \n" +
		`"{\"operation_name\": \"calculate_current_age\", \"arguments\": {\"dob\": \"1985-04-12\"}}"` + "\n" +
		"## Tool Output: \n" +
		"TOOL_ERROR:DIRECT_ASYNCIO_RUN_ERROR: asyncio.run() cannot be called from a running event loop\n" +
		"\n" +
		"🤖 Agent: Client Profiling Specialist\n    Status: In Progress\n" +
		"# Agent: Client Profiling Specialist\n" +
		"## Final Answer: \nThe client's age could not be computed.\n" +
		"# Agent: Chief Financial Planning Orchestrator\n" +
		"## Using tool: Delegate work to coworker\n" +
		"## Tool Input: \n" +
		`{"task": "profile the client", "coworker": "Client Profiling Specialist"}` + "\n" +
		"## Tool Output: \nThe client's age could not be computed.\n"
	tr, err := ReadFrom("verbose_crew_log.md", strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCrewAILog || len(tr.Agents) != 2 {
		t.Fatalf("read as %s with %d agents, want %s with two", tr.Format, len(tr.Agents), FormatCrewAILog)
	}
	want := map[string][]string{
		"Client Profiling Specialist": {
			`user "Calculate the years until retire…"`,
			`text[model] "I need the client's current age …"`,
			`call FinancialAnalysisMCPTool "{\"operation_name\": \"calculate_cu…" => "TOOL_ERROR:DIRECT_ASYNCIO_RUN_ER…"`,
			`text[model] "The client's age could not be co…"`,
		},
		"Chief Financial Planning Orchestrator": {
			`call Delegate work to coworker "{\"task\": \"profile the client\", \"…" => "The client's age could not be co…"`,
		},
	}
	for _, a := range tr.Agents {
		if got := describe(a.Events); !reflect.DeepEqual(got, want[a.ID]) {
			t.Errorf("agent %q:\n%s\nwant:\n%s", a.ID, strings.Join(got, "\n"), strings.Join(want[a.ID], "\n"))
		}
	}
}

// CrewAI does not run a tool used again with the same input, and answers in its place that it
// will not: the call was made again, and its answer is the one it had, so three uses in a
// row are the same call answered alike three times.
func TestCrewAIReusedInputKeepsTheAnswerItHad(t *testing.T) {
	use := func(input, output string) string {
		return "# Agent: Client Profiling Specialist\n## Thought: Thought: Try it.\n## Using tool: FinancialAnalysisMCPTool\n## Tool Input: \n" +
			input + "\n## Tool Output: \n" + output + "\n"
	}
	same := `"{\"operation_name\": \"calculate_current_age\"}"`
	out := "# Agent: Client Profiling Specialist\n## Task: Compute the age.\n" +
		use(same, "TOOL_ERROR:DIRECT_ASYNCIO_RUN_ERROR") +
		use(same, "I tried reusing the same input, I must stop using this action input. I'll try something else instead.") +
		use(`"{\"operation_name\": \"calculate_child_age\"}"`, "I tried reusing the same input, I must stop using this action input.")
	tr, err := ReadFrom("verbose_crew_log.md", strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	var results []string
	for _, c := range tr.Agents[0].Calls() {
		results = append(results, c.Result)
	}
	want := []string{"TOOL_ERROR:DIRECT_ASYNCIO_RUN_ERROR", "TOOL_ERROR:DIRECT_ASYNCIO_RUN_ERROR",
		"I tried reusing the same input, I must stop using this action input."}
	if !reflect.DeepEqual(results, want) {
		t.Errorf("results %q, want %q", results, want)
	}
}

// CrewAI's own words for a call that failed are a failure: a delegation to a coworker of no
// such name, a tool that raised; an answer that only mentions an error is not (validation
// round r86b U1).
func TestCrewAIsOwnErrorWordsAreFailures(t *testing.T) {
	use := func(tool, input, output string) string {
		return "# Agent: Conversation Orchestrator\n## Thought: Thought: Ask the analyst.\n## Using tool: " + tool + "\n## Tool Input: \n" +
			input + "\n## Tool Output: \n" + output + "\n"
	}
	out := "# Agent: Conversation Orchestrator\n## Task: Answer the user.\n" +
		use("Delegate work to coworker", `"{\"task\": \"summarise\", \"coworker\": \"Analyst\"}"`,
			"Error executing tool. coworker mentioned not found, it must be one of the following options:\n- data analyst") +
		use("Search the internet", `"{\"query\": \"rates\"}"`,
			"I encountered an error while trying to use the tool. This was the error: 401 Unauthorized.") +
		use("Search the internet", `"{\"query\": \"error codes\"}"`, "Error codes of the API: 401, 403, 429.")
	tr, err := ReadFrom("crew_output.md", strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	var failed []bool
	for _, c := range tr.Agents[0].Calls() {
		failed = append(failed, c.Failed)
	}
	if want := []bool{true, true, false}; !reflect.DeepEqual(failed, want) {
		t.Errorf("failed %v, want %v", failed, want)
	}
}

// A copy that opens inside a step, its "# Agent:" head cut off, is the agent's the first head
// names: the call it opens with keeps its input and output (validation round r146c U4: the
// first of 18 failing delegations had neither).
func TestCrewAILogCopyOpeningInsideAStep(t *testing.T) {
	const out = "## Using tool: Delegate work to coworker\n" +
		"## Tool Input: \n" +
		`"{\"task\": \"count the customers\", \"coworker\": \"Data Expert\"}"` + "\n" +
		"## Tool Output: \n" +
		"Error executing tool. coworker mentioned not found\n\n" +
		"# Agent: Conversation Orchestrator\n" +
		"## Using tool: Delegate work to coworker\n" +
		"## Tool Input: \n" +
		`"{\"task\": \"count the customers\", \"coworker\": \"Data Expert\"}"` + "\n" +
		"## Tool Output: \n" +
		"Error executing tool. coworker mentioned not found\n"
	tr := expectEvents(t, "pasted.md", out, FormatCrewAILog, []string{
		`call Delegate work to coworker "{\"task\": \"count the customers\", …" => "Error executing tool. coworker m…" FAILED`,
		`call Delegate work to coworker "{\"task\": \"count the customers\", …" => "Error executing tool. coworker m…" FAILED`,
	})
	if len(tr.Agents) != 1 || tr.Agents[0].ID != "Conversation Orchestrator" {
		t.Errorf("agents %v, want the one Conversation Orchestrator", tr.Agents)
	}
}
