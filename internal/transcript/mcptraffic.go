package transcript

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/loopguard/loopguard"
)

// An MCP host may log the JSON-RPC messages it trades with its servers, and the tools/call
// requests among them are the model's calls, answered by the servers' responses. Two layouts:
//
//   - Claude Desktop's mcp.log (and mcp-server-<name>.log), one message a line:
//     `2025-06-17T13:22:03.708Z [info] [memory] Message from client: {"method": "tools/call",
//     "params": {"name", "arguments"}, "jsonrpc": "2.0", "id": 13}`, answered by `... Message
//     from server: {"id": 13, "result": {"content": [...], "isError": false}}` (the server and
//     the level in either order; later releases end a line with `{ metadata: undefined }`);
//   - the gateway of GitHub's agentic workflows (gh-aw), rpc-messages.jsonl: {"timestamp",
//     "direction": "OUT" | "IN", "type": "REQUEST" | "RESPONSE", "server_id", "method",
//     "payload": <the JSON-RPC message>}, whose requests carry no id: each server answers its
//     requests in order.
//
// Session: the file; one agent, since the log knows no conversation. A call is named
// mcp__<server>__<tool>. Ids start again at each "initialize" (a reconnect), so a request is
// answered by the next response of its id from its server since then. Other methods (the
// host listing tools and resources on a timer) are no calls. A response with a JSON-RPC
// "error", or a result with "isError": true, fails its call; a failure said only in the text
// is read as any text is.
//
// Written from Claude Desktop logs and gh-aw run folders committed to GitHub (validation round
// r149a U1, U3).

// mcpMessage is a JSON-RPC message as an MCP host logs it.
type mcpMessage struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// mcpGatewayRecord is a line of gh-aw's rpc-messages.jsonl.
type mcpGatewayRecord struct {
	Timestamp string     `json:"timestamp"`
	Direction string     `json:"direction"`
	Type      string     `json:"type"`
	ServerID  string     `json:"server_id"`
	Payload   mcpMessage `json:"payload"`
}

// isMCPLogHead says whether a text's head holds an MCP host's logged messages.
func isMCPLogHead(head []byte) bool {
	s := string(head)
	return strings.Contains(s, "] Message from client: {") || strings.Contains(s, "] Message from server: {")
}

// isMCPGatewayHead says whether a JSON line's top-level keys are gh-aw's gateway record's.
func isMCPGatewayHead(has func(string) bool) bool {
	return has("server_id") && has("payload") && has("direction")
}

// mcpTraffic pairs requests with responses, server by server.
type mcpTraffic struct {
	a *agentBuf
	// waiting: each server's tools/call requests not answered yet, by id ("" for a log
	// whose requests carry none), in order; other methods wait too, to be passed over.
	waiting map[string][]mcpWaiting
}

type mcpWaiting struct {
	id    string
	index int // the call's event index; -1 for a request that is no call
}

func (t *mcpTraffic) request(server string, m *mcpMessage, ms int64) {
	if m.Method == "" || strings.HasPrefix(m.Method, "notifications/") {
		return // a notification: nothing answers it
	}
	if m.Method == "initialize" {
		t.waiting[server] = nil // ids start again
	}
	w := mcpWaiting{id: string(bytesTrimSpace(m.ID)), index: -1}
	if m.Method == "tools/call" && m.Params.Name != "" {
		args := rawArgs(m.Params.Arguments)
		if len(args) == 0 {
			args = []byte("{}")
		}
		call := loopguard.Call("", "mcp__"+server+"__"+m.Params.Name, args)
		call.Time = ms
		w.index = t.a.add(call)
	}
	t.waiting[server] = append(t.waiting[server], w)
}

func (t *mcpTraffic) response(server string, m *mcpMessage) {
	id := string(bytesTrimSpace(m.ID))
	list := t.waiting[server]
	at := -1
	for i, w := range list {
		if w.id == id || w.id == "" {
			at = i
			break
		}
	}
	if at < 0 {
		return // the answer to a request the log does not hold
	}
	w := list[at]
	t.waiting[server] = append(list[:at], list[at+1:]...)
	if w.index < 0 {
		return
	}
	e := &t.a.events[w.index]
	if len(bytesTrimSpace(m.Error)) > 0 && string(bytesTrimSpace(m.Error)) != "null" {
		var rpc struct {
			Message string `json:"message"`
		}
		text := string(m.Error)
		if json.Unmarshal(m.Error, &rpc) == nil && rpc.Message != "" {
			text = rpc.Message
		}
		e.Result, e.HasResult, e.Failed = text, true, true
		return
	}
	var result struct {
		Content []any `json:"content"`
		IsError bool  `json:"isError"`
	}
	if json.Unmarshal(m.Result, &result) == nil && result.Content != nil {
		text := contentText(result.Content)
		e.Result, e.HasResult, e.Failed = text, true, result.IsError || saysResultError(text)
		return
	}
	e.Result, e.HasResult = string(m.Result), true // a result of another shape, as it is
}

// readMCPLog reads an MCP host's log of the messages it traded.
func readMCPLog(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatMCPTraffic)
	t := &mcpTraffic{a: b.agent(MainAgent), waiting: map[string][]mcpWaiting{}}
	seen := false
	for _, line := range lines {
		k := strings.Index(line, "] Message from ")
		if k < 0 {
			continue
		}
		rest := line[k+len("] Message from "):]
		fromClient := strings.HasPrefix(rest, "client: ")
		if !fromClient && !strings.HasPrefix(rest, "server: ") {
			continue
		}
		body := strings.TrimSpace(rest[len("client: "):])
		body = strings.TrimSuffix(body, "{ metadata: undefined }")
		var m mcpMessage
		if json.NewDecoder(strings.NewReader(body)).Decode(&m) != nil {
			continue // a message cut short, or not JSON
		}
		stamp, server := mcpLogPrefix(line[:k+1])
		if fromClient {
			t.request(server, &m, parseTime(stamp))
		} else {
			t.response(server, &m)
		}
		seen = true
	}
	if !seen {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no MCP message", ErrUnknownFormat)}
	}
	return b.done(), nil
}

// mcpLogPrefix reads a log line's time and server from what comes before its message: the
// time, then "[level] [server]" or "[server] [level]".
func mcpLogPrefix(prefix string) (stamp, server string) {
	stamp, rest, _ := strings.Cut(strings.TrimSpace(prefix), " ")
	var tags []string
	for {
		open := strings.IndexByte(rest, '[')
		if open < 0 {
			break
		}
		end := strings.IndexByte(rest[open:], ']')
		if end < 0 {
			break
		}
		tags = append(tags, rest[open+1:open+end])
		rest = rest[open+end+1:]
	}
	for _, tag := range tags {
		switch tag {
		case "info", "debug", "warn", "warning", "error", "trace":
			continue
		}
		return stamp, tag
	}
	return stamp, "mcp"
}

// readMCPGateway reads gh-aw's rpc-messages.jsonl.
func readMCPGateway(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatMCPTraffic)
	t := &mcpTraffic{a: b.agent(MainAgent), waiting: map[string][]mcpWaiting{}}
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var r mcpGatewayRecord
		if err := json.Unmarshal(line, &r); err != nil && !tolerable(err) {
			return fmt.Errorf("MCP gateway record: %w", err)
		}
		switch r.Type {
		case "REQUEST":
			t.request(r.ServerID, &r.Payload, parseTime(r.Timestamp))
		case "RESPONSE":
			r.Payload.ID = nil // the gateway's backend ids: each server answers in order
			t.response(r.ServerID, &r.Payload)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return withDamaged(b.done(), damaged), nil
}

// saysResultError says whether a tool's answer is a JSON object whose "result" is "error": gh-aw's
// safe-outputs server answers every call with isError false and says a failure so
// ({"result": "error", "error": "No changes to commit - no commits found"}; validation round
// r150a U1).
func saysResultError(text string) bool {
	t := strings.TrimSpace(text)
	if len(t) < 2 || t[0] != '{' || !strings.Contains(t, `"result"`) {
		return false
	}
	var v struct {
		Result any `json:"result"`
	}
	return json.Unmarshal([]byte(t), &v) == nil && v.Result == "error"
}
