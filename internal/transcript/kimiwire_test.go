package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// Written for this test in the layout of Kimi Code CLI's session records: a user prompt, the
// model's thinking and words as content parts, two calls of one step and their results by id
// (one an error), and records that say nothing of the conversation.
const kimiWireLog = `{"type":"metadata","protocol_version":"1.4","created_at":1785612803281}
{"type":"config.update","modelAlias":"kimi-code","time":1785612803282}
{"type":"turn.prompt","input":[{"type":"text","text":"show the readme"}],"origin":{"kind":"user"},"time":1}
{"type":"context.append_loop_event","event":{"type":"step.begin","uuid":"s1","turnId":"0","step":1},"time":2}
{"type":"context.append_loop_event","event":{"type":"content.part","stepUuid":"s1","part":{"type":"think","think":"List, then read."}},"time":3}
{"type":"context.append_loop_event","event":{"type":"tool.call","uuid":"Bash_0","stepUuid":"s1","toolCallId":"Bash_0","name":"Bash","args":{"command":"ls"}},"time":4}
{"type":"context.append_loop_event","event":{"type":"tool.call","uuid":"Read_1","stepUuid":"s1","toolCallId":"Read_1","name":"Read","args":{"path":"README"}},"time":4}
{"type":"context.append_loop_event","event":{"type":"tool.result","toolCallId":"Read_1","result":{"output":"No such file: README","isError":true}},"time":5}
{"type":"context.append_loop_event","event":{"type":"tool.result","toolCallId":"Bash_0","result":{"output":"README.md\nsrc\n"}},"time":5}
{"type":"usage.record","input":10,"output":3,"time":6}
{"type":"context.append_loop_event","event":{"type":"content.part","stepUuid":"s2","part":{"type":"text","text":"It is README.md."}},"time":7}
`

func TestKimiWireRecordsReadAsCallsByID(t *testing.T) {
	tr := expectEvents(t, "wire.jsonl", kimiWireLog, FormatKimi, []string{
		`user "show the readme"`,
		`text[thinking] "List, then read."`,
		`call Bash "{\"command\":\"ls\"}" => "README.md\nsrc\n"`,
		`call Read "{\"path\":\"README\"}" => "No such file: README" FAILED`,
		`text[model] "It is README.md."`,
	})
	if c := tr.Agents[0].Calls(); c[0].Turn == "" || c[0].Turn != c[1].Turn {
		t.Errorf("turns %q %q: the calls of one step are one reply", c[0].Turn, c[1].Turn)
	}
}

// Written for this test in the layout of Kimi Code CLI's wire protocol 1.x (wire.jsonl):
// {"timestamp", "message": {"type", "payload"}} records; two calls of one step, the second's
// arguments streamed on in a ToolCallPart, one failing with only a message to say why.
const kimiWireV1Log = `{"type": "metadata", "protocol_version": "1.10"}
{"timestamp": 1783689733.63, "message": {"type": "TurnBegin", "payload": {"user_input": "fetch the tree"}}}
{"timestamp": 1783689733.64, "message": {"type": "StepBegin", "payload": {"n": 1}}}
{"timestamp": 1783689738.41, "message": {"type": "ContentPart", "payload": {"type": "think", "think": "Fetch, then list.", "encrypted": null}}}
{"timestamp": 1783689739.11, "message": {"type": "ToolCall", "payload": {"type": "function", "id": "tool_1", "function": {"name": "FetchURL", "arguments": "{\"url\": \"https://example.com\"}"}, "extras": null}}}
{"timestamp": 1783689739.12, "message": {"type": "ToolCall", "payload": {"type": "function", "id": "tool_2", "function": {"name": "Shell", "arguments": "{\"command\":"}}}}
{"timestamp": 1783689739.13, "message": {"type": "ToolCallPart", "payload": {"arguments_part": " \"ls -R\", \"timeout\": 30}"}}}
{"timestamp": 1783689739.20, "message": {"type": "StatusUpdate", "payload": {"token_usage": {"output": 276}}}}
{"timestamp": 1783689740.52, "message": {"type": "ToolResult", "payload": {"tool_call_id": "tool_2", "return_value": {"is_error": false, "output": "a\nb\n", "message": "", "display": []}}}}
{"timestamp": 1783689740.53, "message": {"type": "ToolResult", "payload": {"tool_call_id": "tool_1", "return_value": {"is_error": true, "output": "", "message": "Error running tool: No option 'min_extracted_size'"}}}}
{"timestamp": 1783689741.00, "message": {"type": "StepBegin", "payload": {"n": 2}}}
{"timestamp": 1783689741.50, "message": {"type": "ContentPart", "payload": {"type": "text", "text": "Listed."}}}
{"timestamp": 1783689742.00, "message": {"type": "TurnEnd", "payload": {}}}
`

// Wire protocol 1.x records are read as the session's turns, words and calls: the arguments
// a ToolCallPart streams on are the call's, a result by its call's id, failed with its message
// when the output is empty (validation round r92b U1: a real wire.jsonl was read with no call).
func TestKimiWireProtocolV1RecordsReadAsCalls(t *testing.T) {
	tr := expectEvents(t, "wire.jsonl", kimiWireV1Log, FormatKimi, []string{
		`user "fetch the tree"`,
		`text[thinking] "Fetch, then list."`,
		`call FetchURL "{\"url\":\"https://example.com\"}" => "Error running tool: No option 'm…" FAILED`,
		`call Shell "{\"command\":\"ls -R\",\"timeout\":30}" => "a\nb\n"`,
		`text[model] "Listed."`,
	})
	c := tr.Agents[0].Calls()
	if c[0].Turn == "" || c[0].Turn != c[1].Turn {
		t.Errorf("turns %q %q: the calls of one step are one reply", c[0].Turn, c[1].Turn)
	}
	if c[0].Time != 1783689739110 {
		t.Errorf("time %d, want the record's timestamp in milliseconds", c[0].Time)
	}
}

// The same records as Kimi CLI sends them to a client, JSON-RPC notifications, which a harness
// captures as its log (validation round r100b U1); a subagent's records come wrapped with its
// id, and are the subagent's own (U2).
func TestKimiWireAsJSONRPCWithSubagents(t *testing.T) {
	const log = `{"jsonrpc":"2.0","method":"event","params":{"type":"TurnBegin","payload":{"user_input":"fix bug 1"}}}
{"jsonrpc":"2.0","method":"event","params":{"type":"StepBegin","payload":{"n":1}}}
{"jsonrpc":"2.0","method":"event","params":{"type":"ToolCall","payload":{"type":"function","id":"functions.Agent:0","function":{"name":"Agent","arguments":"{\"prompt\":\"fix use-shortcut.ts\"}"}}}}
{"jsonrpc":"2.0","method":"event","params":{"type":"SubagentEvent","payload":{"parent_tool_call_id":"functions.Agent:0","agent_id":"a7c","subagent_type":"coder","event":{"type":"StepBegin","payload":{"n":1}}}}}
{"jsonrpc":"2.0","method":"event","params":{"type":"SubagentEvent","payload":{"parent_tool_call_id":"functions.Agent:0","agent_id":"a7c","subagent_type":"coder","event":{"type":"ToolCall","payload":{"type":"function","id":"functions.ReadFile:0","function":{"name":"ReadFile","arguments":"{\"path\":\"use-shortcut.ts\"}"}}}}}}
{"jsonrpc":"2.0","method":"event","params":{"type":"SubagentEvent","payload":{"parent_tool_call_id":"functions.Agent:0","agent_id":"a7c","subagent_type":"coder","event":{"type":"ToolResult","payload":{"tool_call_id":"functions.ReadFile:0","return_value":{"is_error":false,"output":"export function useShortcut() {}"}}}}}}
{"jsonrpc":"2.0","method":"event","params":{"type":"ToolResult","payload":{"tool_call_id":"functions.Agent:0","return_value":{"is_error":false,"output":"fixed"}}}}
`
	tr, err := ReadFrom("kimi-cli.txt", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatKimi || len(tr.Agents) != 2 {
		t.Fatalf("read as %q with %d agents, want kimi with the main agent and its subagent", tr.Format, len(tr.Agents))
	}
	want := map[string][]string{
		"main":      {`user "fix bug 1"`, `call Agent "{\"prompt\":\"fix use-shortcut.ts\"}" => "fixed"`},
		"agent-a7c": {`call ReadFile "{\"path\":\"use-shortcut.ts\"}" => "export function useShortcut() {}"`},
	}
	for _, a := range tr.Agents {
		if got := describe(a.Events); !reflect.DeepEqual(got, want[a.ID]) {
			t.Errorf("agent %s:\n%s\nwant:\n%s", a.ID, strings.Join(got, "\n"), strings.Join(want[a.ID], "\n"))
		}
	}
}
