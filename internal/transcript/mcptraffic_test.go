package transcript

import "testing"

// Claude Desktop's mcp.log, written for this test in its layout: the host's polling (no
// calls), a reconnect starting the ids again, a call without arguments, a JSON-RPC error and an
// isError result failing their calls, a line of the later layout ending "{ metadata: undefined }".
func TestMCPLogToolsCallsAreCalls(t *testing.T) {
	const log = `2025-06-17T13:21:34.077Z [info] [memory] Message from client: {"method":"tools/list","params":{},"jsonrpc":"2.0","id":1}
2025-06-17T13:21:34.080Z [info] [memory] Message from server: {"jsonrpc":"2.0","id":1,"result":{"tools":[]}}
2025-06-17T13:22:03.708Z [info] [memory] Message from client: {"method":"tools/call","params":{"name":"search_nodes","arguments":{"query":"user"}},"jsonrpc":"2.0","id":2}
2025-06-17T13:22:03.712Z [info] [memory] Message from server: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"no entities"}]}}
2025-06-17T13:29:34.086Z [info] [memory] Message from client: {"method":"initialize","params":{},"jsonrpc":"2.0","id":0}
2025-06-17T13:29:34.090Z [info] [memory] Message from client: {"method":"notifications/initialized","jsonrpc":"2.0"}
2025-06-17T13:29:35.000Z [odoo] [info] Message from client: {"method":"tools/call","params":{"name":"execute_method"},"jsonrpc":"2.0","id":2} { metadata: undefined }
2025-06-17T13:29:35.100Z [info] [memory] Message from server: {"jsonrpc":"2.0","id":0,"result":{}}
2025-06-17T13:29:35.200Z [odoo] [info] Message from server: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Error executing tool execute_method: model Field required"}],"isError":true}} { metadata: undefined }
2025-06-17T13:29:36.000Z [info] [memory] Message from client: {"method":"tools/call","params":{"name":"read_graph","arguments":{}},"jsonrpc":"2.0","id":1}
2025-06-17T13:29:36.100Z [info] [memory] Message from server: {"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"graph file missing"}}
`
	expectEvents(t, "mcp.log", log, FormatMCPTraffic, []string{
		`call mcp__memory__search_nodes "{\"query\":\"user\"}" => "no entities"`,
		`call mcp__odoo__execute_method "{}" => "Error executing tool execute_met…" FAILED`,
		`call mcp__memory__read_graph "{}" => "graph file missing" FAILED`,
	})
}

// gh-aw's gateway log: requests without ids, each server answering in order, another method's
// answer passed over, a failure said in the answer's text.
func TestMCPGatewayRequestsAnsweredInOrder(t *testing.T) {
	const log = `{"timestamp":"2026-02-13T12:37:36.019Z","direction":"OUT","type":"REQUEST","server_id":"github","method":"tools/call","payload":{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{},"name":"get_me"}}}
{"timestamp":"2026-02-13T12:37:36.020Z","direction":"OUT","type":"REQUEST","server_id":"safeoutputs","method":"tools/list","payload":{"jsonrpc":"2.0","method":"tools/list","params":{}}}
{"timestamp":"2026-02-13T12:37:36.022Z","direction":"OUT","type":"REQUEST","server_id":"github","method":"tools/call","payload":{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"perPage":5},"name":"list_starred_repositories"}}}
{"timestamp":"2026-02-13T12:37:36.100Z","direction":"IN","type":"RESPONSE","server_id":"safeoutputs","payload":{"id":7,"jsonrpc":"2.0","result":{"tools":[]}}}
{"timestamp":"2026-02-13T12:37:36.277Z","direction":"IN","type":"RESPONSE","server_id":"github","payload":{"id":1,"jsonrpc":"2.0","result":{"content":[{"text":"403 Resource not accessible","type":"text"}],"isError":true}}}
{"timestamp":"2026-02-13T12:37:36.300Z","direction":"IN","type":"RESPONSE","server_id":"github","payload":{"id":1,"jsonrpc":"2.0","result":{"content":[{"text":"[]","type":"text"}],"isError":false}}}
{"timestamp":"2026-02-13T12:38:00.000Z","direction":"OUT","type":"REQUEST","server_id":"safeoutputs","method":"tools/call","payload":{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"title":"fix"},"name":"create_pull_request"}}}
{"timestamp":"2026-02-13T12:38:00.100Z","direction":"IN","type":"RESPONSE","server_id":"safeoutputs","payload":{"id":3,"jsonrpc":"2.0","result":{"content":[{"text":"{\"result\":\"error\",\"error\":\"No changes to commit\"}","type":"text"}],"isError":false}}}
`
	expectEvents(t, "rpc-messages.jsonl", log, FormatMCPTraffic, []string{
		`call mcp__github__get_me "{}" => "403 Resource not accessible" FAILED`,
		`call mcp__github__list_starred_repositories "{\"perPage\":5}" => "[]"`,
		// safe-outputs says a failure in its answer's text, isError false (r150a U1)
		`call mcp__safeoutputs__create_pull_request "{\"title\":\"fix\"}" => "{\"result\":\"error\",\"error\":\"No ch…" FAILED`,
	})
}

func FuzzMCPLog(f *testing.F) {
	f.Add([]byte(`2025-06-17T13:22:03.708Z [info] [memory] Message from client: {"method":"tools/call","params":{"name":"x","arguments":{"a":1}},"jsonrpc":"2.0","id":2}
2025-06-17T13:22:03.712Z [info] [memory] Message from server: {"jsonrpc":"2.0","id":2,"result":{"content":"odd"}}
`))
	fuzzReader(f, readMCPLog)
}

func FuzzMCPGateway(f *testing.F) {
	f.Add([]byte(`{"type":"REQUEST","server_id":"s","direction":"OUT","payload":{"method":"tools/call","params":{"name":"n"}}}
{"type":"RESPONSE","server_id":"s","direction":"IN","payload":{"error":{"message":"m"}}}
`))
	fuzzReader(f, readMCPGateway)
}
