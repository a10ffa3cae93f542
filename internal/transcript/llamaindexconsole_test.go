package transcript

import (
	"strings"
	"testing"
)

// Written for this test in the layout LlamaIndex's agents print with verbose=True: a
// function-calling agent whose tool is another agent (the inner call's output printed first),
// then a ReAct agent's steps, with the prompt's
// own template quoted in between (no call).
const llamaindexPrintout = "Added user message to memory: What is (212 * 122) + 8?\n" +
	"=== Calling Function ===\n" +
	"Calling function: multiply with args: {\"a\": 212, \"b\": 122}\n" +
	"Got output: 25864\n" +
	"========================\n\n" +
	"=== Calling Function ===\n" +
	"Calling function: city_agent with args: {\n  \"input\": \"arts in Boston\"\n}\n" +
	"=== Calling Function ===\n" +
	"Calling function: vector_tool with args: {\"input\": \"arts\"}\n" +
	"Got output: Boston has a ballet.\n" +
	"========================\n\n" +
	"Got output: Boston is known for its ballet.\n" +
	"========================\n\n" +
	"=== Calling Function ===\n" +
	"Calling function: add with args: {\"a\": 25864, \"b\": 8}\n" +
	"Got output: 25872\n" +
	"========================\n\n" +
	"The prompt reads:\n" +
	"Action: tool name (one of {tool_names}) if using a tool.\n" +
	"Action Input: the input to the tool\n\n" +
	"Thought: I need to use a tool to help me answer the question.\n" +
	"Action: search\n" +
	"Action Input: {\"query\": \"Lyft revenue\n 2021\"}\n" +
	"Observation: Lyft's revenue grew 36%.\n" +
	"> Running step 74c11e1b-8b2d-4b89-8ac4-82aecab6699b. Step input: None\n" +
	"Thought: I can answer without using any more tools.\n" +
	"Answer: 36%\n"

// Function calls with their arguments (over lines too) and outputs, an inner agent's call
// answered before its caller's, and ReAct steps: an action a call, its input the arguments, the
// observation its result up to the runner's next step mark (a new id each step, which made
// equal answers differ: validation round r116b U2), the thoughts and the answer the model's
// words; the message added to memory the user's turn.
func TestLlamaIndexConsolePrintout(t *testing.T) {
	expectEvents(t, "agent.log", llamaindexPrintout, FormatLlamaIndexConsole, []string{
		`user "What is (212 * 122) + 8?"`,
		`call multiply "{\"a\": 212, \"b\": 122}" => "25864"`,
		`call city_agent "{\n  \"input\": \"arts in Boston\"\n}" => "Boston is known for its ballet."`,
		`call vector_tool "{\"input\": \"arts\"}" => "Boston has a ballet."`,
		`call add "{\"a\": 25864, \"b\": 8}" => "25872"`,
		`text[model] "Thought: I need to use a tool to…"`,
		`call search "{\"query\": \"Lyft revenue\n 2021\"}" => "Lyft's revenue grew 36%."`,
		`text[model] "Thought: I can answer without us…"`,
		`text[model] "Answer: 36%"`,
	})
}

// An action's input printed as a Python dict is read as the JSON it stands for.
func TestLlamaIndexActionInputAsAPythonDict(t *testing.T) {
	doc := "> Running step 1. Step input: What was Lyft's revenue?\n" +
		"Thought: I need to use a tool to help me answer the question.\n" +
		"Action: search\n" +
		"Action Input: {'query': 'Lyft revenue 2021', 'top_k': 3}\n" +
		"Observation: Lyft's revenue grew 36%.\n"
	tr, err := ReadFrom("run.txt", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || string(calls[0].Args) != `{"query":"Lyft revenue 2021","top_k":3}` {
		t.Errorf("read as %q: calls %v", tr.Format, calls)
	}
}
