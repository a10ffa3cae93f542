package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Protocol tests of the scripted model server with a plain HTTP client
// (no agent CLI needed).

type sseEvent struct {
	Name string
	Data map[string]any
}

// post sends body to the server and returns the response.
func post(t *testing.T, url string, body any) *http.Response {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// readSSE parses a complete SSE body: events separated by blank lines,
// each with an optional "event:" line and one "data:" line of JSON.
func readSSE(t *testing.T, resp *http.Response) []sseEvent {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("Content-Type = %q, want text/event-stream", ct)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(body), "\n\n") {
		t.Errorf("SSE body does not end with a blank line: %q", body)
	}
	var out []sseEvent
	for _, block := range strings.Split(strings.TrimSpace(string(body)), "\n\n") {
		var ev sseEvent
		for _, line := range strings.Split(block, "\n") {
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.Name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev.Data); err != nil {
					t.Fatalf("bad data line %q: %v", line, err)
				}
			default:
				t.Fatalf("unexpected SSE line %q", line)
			}
		}
		if ev.Data == nil {
			t.Fatalf("SSE event without data: %q", block)
		}
		out = append(out, ev)
	}
	return out
}

func eventNames(evs []sseEvent) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Name)
	}
	return out
}

const testCmd = `echo hi >> "/tmp/x y/side.txt"; cat "/tmp/x y/side.txt"`

func TestServerAnthropic(t *testing.T) {
	srv := NewServer(t, Script{Command: testCmd, ToolTurns: 2, FinalText: "all done"})
	tools := []any{map[string]any{"name": "Bash", "input_schema": map[string]any{}}, map[string]any{"name": "Read"}}
	user := map[string]any{"role": "user", "content": "go"}

	// HEAD / (Claude Code's connectivity check).
	req, _ := http.NewRequest(http.MethodHead, srv.URL+"/", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("HEAD / = %v, %v", resp, err)
	}

	// Turn 1: a streamed Bash tool call.
	evs := readSSE(t, post(t, srv.URL+"/v1/messages?beta=true", map[string]any{
		"model": "claude-x", "stream": true, "tools": tools, "system": "SYSPROMPT", "messages": []any{user}}))
	want := []string{"message_start", "content_block_start", "ping", "content_block_delta", "content_block_delta",
		"content_block_stop", "message_delta", "message_stop"}
	if got := eventNames(evs); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("events = %v, want %v", got, want)
	}
	for _, e := range evs {
		if e.Data["type"] != e.Name {
			t.Errorf("event %s has data type %v", e.Name, e.Data["type"])
		}
	}
	msg := obj(evs[0].Data, "message")
	if u := obj(msg, "usage"); u["input_tokens"] == nil || u["output_tokens"] == nil {
		t.Errorf("message_start usage = %v", u)
	}
	block := obj(evs[1].Data, "content_block")
	id1 := str(block, "id")
	if block["type"] != "tool_use" || block["name"] != "Bash" || id1 == "" {
		t.Fatalf("content block = %v", block)
	}
	args := str(obj(evs[3].Data, "delta"), "partial_json") + str(obj(evs[4].Data, "delta"), "partial_json")
	var input map[string]any
	if err := json.Unmarshal([]byte(args), &input); err != nil || input["command"] != testCmd {
		t.Fatalf("tool input %q (%v), want command %q", args, err, testCmd)
	}
	if d := obj(evs[6].Data, "delta"); d["stop_reason"] != "tool_use" {
		t.Errorf("stop_reason = %v", d["stop_reason"])
	}
	if u := obj(evs[6].Data, "usage"); u["output_tokens"] == nil {
		t.Errorf("message_delta has no usage.output_tokens")
	}

	// Turn 2: one tool result so far -> another call with a new id.
	hist := []any{user,
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id1, "name": "Bash", "input": input}}},
		map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": id1, "content": "hi", "is_error": false}}},
		map[string]any{"role": "system", "content": "PostToolUse:Bash hook additional context: CTX-1"},
	}
	evs = readSSE(t, post(t, srv.URL+"/v1/messages", map[string]any{"model": "claude-x", "stream": true, "tools": tools, "messages": hist}))
	id2 := str(obj(evs[1].Data, "content_block"), "id")
	if id2 == "" || id2 == id1 {
		t.Errorf("second tool call id %q, first %q: want a new id", id2, id1)
	}

	// Turn 3: two results -> the final text (non-streaming this time).
	hist = append(hist,
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id2, "name": "Bash", "input": input}}},
		map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": id2, "content": []any{map[string]any{"type": "text", "text": "hi\nhi"}}},
			map[string]any{"type": "text", "text": "<system-reminder>CTX-2</system-reminder>"}}})
	resp := post(t, srv.URL+"/v1/messages", map[string]any{"model": "claude-x", "tools": tools, "messages": hist,
		"system": []any{map[string]any{"type": "text", "text": "SYSPROMPT"}}})
	var final map[string]any
	json.NewDecoder(resp.Body).Decode(&final)
	content := list(final, "content")
	if len(content) != 1 || str(content[0].(map[string]any), "text") != "all done" || final["stop_reason"] != "end_turn" {
		t.Errorf("final message = %v", final)
	}

	// A request without tools (title generation etc.) gets the side text.
	evs = readSSE(t, post(t, srv.URL+"/v1/messages", map[string]any{"model": "claude-haiku", "stream": true, "messages": []any{user}}))
	if d := obj(evs[3].Data, "delta"); d["text"] != "E2E side reply" {
		t.Errorf("side reply delta = %v", d)
	}
	// count_tokens.
	var ct map[string]any
	json.NewDecoder(post(t, srv.URL+"/v1/messages/count_tokens", map[string]any{"messages": []any{user}}).Body).Decode(&ct)
	if n, _ := ct["input_tokens"].(float64); n < 1 {
		t.Errorf("count_tokens = %v", ct)
	}

	// Recording.
	if got := len(srv.AgentRequests()); got != 3 {
		t.Fatalf("%d agent requests recorded, want 3:\n%s", got, srv.Summary())
	}
	r2 := srv.RequestAfterToolResults(2)
	if r2 == nil {
		t.Fatalf("no request after 2 results:\n%s", srv.Summary())
	}
	if r2.Count("CTX-1") != 1 || r2.Count("CTX-2") != 1 || r2.Count("SYSPROMPT") != 0 || r2.CountAll("SYSPROMPT") != 1 {
		t.Errorf("request after 2 results: items %+v", r2.Items)
	}
	if tr := r2.ToolResults(); len(tr) != 2 || tr[1].Text != "hi\nhi" || tr[0].CallID != id1 {
		t.Errorf("tool results = %+v", tr)
	}
	if after := r2.ItemsAfterToolResult(1); len(after) != 1 || after[0].Role != "system" || after[0].Text != "PostToolUse:Bash hook additional context: CTX-1" {
		t.Errorf("items after result 1 = %+v", after)
	}
	if r2.Reply == nil || r2.Reply.Text != "all done" {
		t.Errorf("recorded reply = %+v", r2.Reply)
	}
	kinds := map[Kind]int{}
	for _, r := range srv.Requests() {
		kinds[r.Kind]++
	}
	if kinds[KindSide] != 1 || kinds[KindCountTokens] != 1 || kinds[KindOther] != 1 {
		t.Errorf("request kinds = %v", kinds)
	}
}

func TestServerResponses(t *testing.T) {
	srv := NewServer(t, Script{Command: testCmd, ToolTurns: 1})
	tools := []any{
		map[string]any{"type": "function", "name": "exec_command", "parameters": map[string]any{}},
		map[string]any{"type": "web_search"},
	}
	input := []any{
		map[string]any{"type": "message", "role": "developer", "content": []any{map[string]any{"type": "input_text", "text": "perms"}}},
		map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": "go"}}},
	}
	evs := readSSE(t, post(t, srv.URL+"/v1/responses", map[string]any{
		"model": "gpt-x", "stream": true, "instructions": "ins", "tools": tools, "input": input}))
	names := eventNames(evs)
	if names[0] != "response.created" || names[len(names)-1] != "response.completed" {
		t.Fatalf("events = %v", names)
	}
	var item map[string]any
	for i, e := range evs {
		if e.Data["type"] != e.Name {
			t.Errorf("event %s has data type %v", e.Name, e.Data["type"])
		}
		if n, _ := e.Data["sequence_number"].(float64); int(n) != i {
			t.Errorf("event %d sequence_number = %v", i, e.Data["sequence_number"])
		}
		if e.Name == "response.output_item.done" {
			item = obj(e.Data, "item")
		}
	}
	if item["type"] != "function_call" || item["name"] != "exec_command" || str(item, "call_id") == "" {
		t.Fatalf("output item = %v", item)
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(str(item, "arguments")), &args); err != nil || args["cmd"] != testCmd {
		t.Fatalf("arguments = %v (%v)", item["arguments"], err)
	}
	done := obj(evs[len(evs)-1].Data, "response")
	u := obj(done, "usage")
	if done["status"] != "completed" || u["input_tokens"] == nil || u["output_tokens"] == nil || u["total_tokens"] == nil ||
		obj(u, "input_tokens_details") == nil || obj(u, "output_tokens_details") == nil {
		t.Errorf("completed response = %v", done)
	}

	// With the result in, the model answers with text, as a message item.
	input = append(input,
		map[string]any{"type": "function_call", "name": "exec_command", "call_id": item["call_id"], "arguments": item["arguments"]},
		map[string]any{"type": "message", "role": "developer", "content": []any{map[string]any{"type": "input_text", "text": "CTX-1"}}},
		map[string]any{"type": "function_call_output", "call_id": item["call_id"], "output": "Output:\nhi\n"})
	evs = readSSE(t, post(t, srv.URL+"/v1/responses", map[string]any{"model": "gpt-x", "stream": true, "tools": tools, "input": input,
		"instructions": "INSTRUCTIONS"}))
	var text string
	for _, e := range evs {
		if e.Name == "response.output_text.delta" {
			text += str(e.Data, "delta")
		}
		if e.Name == "response.output_item.done" {
			it := obj(e.Data, "item")
			if it["type"] != "message" || it["role"] != "assistant" {
				t.Errorf("final item = %v", it)
			}
		}
	}
	if text != "E2E-DONE" {
		t.Errorf("final text = %q", text)
	}
	r := srv.RequestAfterToolResults(1)
	if r == nil {
		t.Fatalf("no request after 1 result:\n%s", srv.Summary())
	}
	if r.Count("CTX-1") != 1 || r.Count("INSTRUCTIONS") != 0 || r.CountAll("INSTRUCTIONS") != 1 {
		t.Errorf("recorded items = %+v", r.Items)
	}
	if tr := r.ToolResults(); len(tr) != 1 || tr[0].Text != "Output:\nhi\n" || tr[0].CallID != item["call_id"] {
		t.Errorf("tool results = %+v", tr)
	}

	// Older Codex tool names.
	for _, c := range []struct {
		tool string
		key  string
		want any
	}{{"shell_command", "command", testCmd}, {"shell", "command", []any{"bash", "-lc", testCmd}}} {
		srv2 := NewServer(t, Script{Command: testCmd, ToolTurns: 1})
		evs := readSSE(t, post(t, srv2.URL+"/v1/responses", map[string]any{"model": "gpt-x", "stream": true,
			"tools": []any{map[string]any{"type": "function", "name": c.tool}}, "input": input[:2]}))
		it := obj(evs[len(evs)-2].Data, "item")
		var a map[string]any
		json.Unmarshal([]byte(str(it, "arguments")), &a)
		if it["name"] != c.tool || mustJSON(a[c.key]) != mustJSON(c.want) {
			t.Errorf("%s: item %v", c.tool, it)
		}
	}
}

func TestServerGemini(t *testing.T) {
	srv := NewServer(t, Script{Command: testCmd, ToolTurns: 1})
	tools := []any{map[string]any{"functionDeclarations": []any{
		map[string]any{"name": "read_file"}, map[string]any{"name": "run_shell_command"}}}}
	contents := []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "go"}}}}
	evs := readSSE(t, post(t, srv.URL+"/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", map[string]any{
		"contents": contents, "tools": tools, "systemInstruction": map[string]any{"parts": []any{map[string]any{"text": "SYSPROMPT"}}}}))
	if len(evs) != 1 {
		t.Fatalf("%d chunks, want 1", len(evs))
	}
	cand := list(evs[0].Data, "candidates")[0].(map[string]any)
	if cand["finishReason"] != "STOP" || obj(evs[0].Data, "usageMetadata")["totalTokenCount"] == nil {
		t.Errorf("chunk = %v", evs[0].Data)
	}
	fc := obj(list(obj(cand, "content"), "parts")[0].(map[string]any), "functionCall")
	if fc["name"] != "run_shell_command" || obj(fc, "args")["command"] != testCmd || str(fc, "id") == "" {
		t.Fatalf("functionCall = %v", fc)
	}

	contents = append(contents,
		map[string]any{"role": "model", "parts": []any{map[string]any{"functionCall": fc}}},
		map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{
			"id": fc["id"], "name": "run_shell_command", "response": map[string]any{"output": "Output: hi\n\n<hook_context>CTX-1</hook_context>"}}}}})
	resp := post(t, srv.URL+"/v1beta/models/gemini-2.5-flash:generateContent", map[string]any{"contents": contents, "tools": tools,
		"systemInstruction": map[string]any{"parts": []any{map[string]any{"text": "SYSPROMPT"}}}})
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	part := list(obj(list(out, "candidates")[0].(map[string]any), "content"), "parts")[0].(map[string]any)
	if part["text"] != "E2E-DONE" {
		t.Errorf("final part = %v", part)
	}
	r := srv.RequestAfterToolResults(1)
	if r == nil {
		t.Fatalf("no request after 1 result:\n%s", srv.Summary())
	}
	if r.Count("CTX-1") != 1 || r.Count("SYSPROMPT") != 0 || r.CountAll("SYSPROMPT") != 1 || r.ToolResults()[0].ToolName != "run_shell_command" {
		t.Errorf("recorded items = %+v", r.Items)
	}

	// Flash side requests with a JSON schema (next-speaker check).
	resp = post(t, srv.URL+"/v1beta/models/gemini-2.5-flash-lite:generateContent", map[string]any{
		"contents": contents,
		"generationConfig": map[string]any{"responseMimeType": "application/json", "responseJsonSchema": map[string]any{
			"type": "object", "required": []any{"reasoning", "next_speaker"},
			"properties": map[string]any{
				"reasoning":    map[string]any{"type": "string"},
				"next_speaker": map[string]any{"type": "string", "enum": []any{"model", "user"}},
			}}}})
	json.NewDecoder(resp.Body).Decode(&out)
	text := str(list(obj(list(out, "candidates")[0].(map[string]any), "content"), "parts")[0].(map[string]any), "text")
	var verdict map[string]any
	if err := json.Unmarshal([]byte(text), &verdict); err != nil || verdict["next_speaker"] != "user" || verdict["reasoning"] == nil {
		t.Errorf("next-speaker answer = %q (%v)", text, err)
	}
	var ct map[string]any
	json.NewDecoder(post(t, srv.URL+"/v1beta/models/gemini-2.5-flash:countTokens", map[string]any{"contents": contents}).Body).Decode(&ct)
	if n, _ := ct["totalTokens"].(float64); n < 1 {
		t.Errorf("countTokens = %v", ct)
	}
}

// A new user turn after a final answer starts the tool calls again.
func TestServerTurnsRestart(t *testing.T) {
	srv := NewServer(t, Script{Command: "true", ToolTurns: 1})
	tools := []any{map[string]any{"name": "Bash"}}
	call := func(id string) []any {
		return []any{
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{}}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": ""}}},
		}
	}
	msgs := []any{map[string]any{"role": "user", "content": "turn 1"}}
	msgs = append(msgs, call("a")...)
	msgs = append(msgs, map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "E2E-DONE"}}},
		map[string]any{"role": "user", "content": "turn 2"})
	post(t, srv.URL+"/v1/messages", map[string]any{"tools": tools, "messages": msgs})
	msgs = append(msgs, call("b")...)
	post(t, srv.URL+"/v1/messages", map[string]any{"tools": tools, "messages": msgs})
	reqs := srv.AgentRequests()
	if reqs[0].Reply.ToolName != "Bash" || reqs[1].Reply.ToolName != "" {
		t.Errorf("replies = %+v, %+v; want a tool call in turn 2, then text", reqs[0].Reply, reqs[1].Reply)
	}
	if n := len(reqs[1].TurnToolResults()); n != 1 {
		t.Errorf("TurnToolResults = %d, want 1", n)
	}
}

// Garbage is reported as a server error (and thus fails the test that owns
// the server); checked here with StartServer so this test stays green.
func TestServerReportsBadJSON(t *testing.T) {
	srv, err := StartServer(Script{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/v1/messages", "application/json", strings.NewReader("{not json"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 || len(srv.Errors()) != 1 {
		t.Errorf("status %d, errors %v", resp.StatusCode, srv.Errors())
	}
}
