package transcript

import "testing"

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
