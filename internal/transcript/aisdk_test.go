package transcript

import (
	"bufio"
	"slices"
	"strings"
	"testing"
)

// The Vercel AI SDK's two shapes of a chat, written for these tests in the layouts of its
// releases 4 and 5: UI messages (a call and its answer in one part, its state saying whether
// it was answered and whether it failed) and model messages (a tool-call part answered by a
// tool message's tool-result part). Read, both are calls with their answers.
func TestAISDKMessagesAreCallsWithTheirAnswers(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		want      []string
	}{
		{
			name: "UI messages of AI SDK 4: tool-invocation parts",
			doc: `[{"id": "u1", "role": "user", "content": "weather?", "parts": [{"type": "text", "text": "weather?"}]},
{"id": "a1", "role": "assistant", "content": "", "parts": [{"type": "step-start"}, {"type": "text", "text": "Checking."},
 {"type": "tool-invocation", "toolInvocation": {"state": "result", "toolCallId": "c1", "toolName": "getWeather", "args": {"city": "Paris"}, "result": {"tempC": 9}}},
 {"type": "step-start"}, {"type": "tool-invocation", "toolInvocation": {"state": "call", "toolCallId": "c2", "toolName": "getWeather", "args": {"city": "Lyon"}}}]}]`,
			want: []string{
				`user "weather?"`,
				`text[model] "Checking."`,
				`call getWeather "{\"city\":\"Paris\"}" => "{\"tempC\": 9}"`,
				`call getWeather "{\"city\":\"Lyon\"}" => -`,
			},
		},
		{
			name: "UI messages of AI SDK 5: tool-<name> and dynamic-tool parts, an error's state",
			doc: `{"messages": [{"id": "u1", "role": "user", "parts": [{"type": "text", "text": "deploy it"}]},
{"id": "a1", "role": "assistant", "parts": [{"type": "reasoning", "text": "Run the deploy."},
 {"type": "tool-deploy", "toolCallId": "c1", "state": "output-error", "input": {"env": "prod"}, "errorText": "permission denied"},
 {"type": "dynamic-tool", "toolName": "mcp_status", "toolCallId": "c2", "state": "output-available", "input": {}, "output": "all green"}]}]}`,
			want: []string{
				`user "deploy it"`,
				`text[model] "Run the deploy."`,
				`call deploy "{\"env\":\"prod\"}" => "permission denied" FAILED`,
				`call mcp_status "{}" => "all green"`,
			},
		},
		{
			name: "model messages: tool-call parts, tool-result parts of AI SDK 4 and 5",
			doc: `[{"role": "user", "content": "read both"},
{"role": "assistant", "content": [{"type": "text", "text": "Reading."}, {"type": "tool-call", "toolCallId": "c1", "toolName": "read", "args": {"path": "a"}}, {"type": "tool-call", "toolCallId": "c2", "toolName": "read", "input": {"path": "b"}}]},
{"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c1", "toolName": "read", "result": "body of a"}, {"type": "tool-result", "toolCallId": "c2", "toolName": "read", "output": {"type": "error-text", "value": "ENOENT: b"}}]}]`,
			want: []string{
				`user "read both"`,
				`text[model] "Reading."`,
				`call read "{\"path\":\"a\"}" => "body of a"`,
				`call read "{\"path\":\"b\"}" => "ENOENT: b" FAILED`,
			},
		},
		{
			name: "a host's <system-reminder>: context before the task, the host speaking when it is the whole message (r158a U1)",
			doc: `[{"id": "u1", "role": "user", "parts": [{"type": "text", "text": "<system-reminder># System Information\nOS: linux</system-reminder>"}, {"type": "text", "text": "# Task: add a checkpoint"}]},
{"id": "a1", "role": "assistant", "parts": [{"type": "step-start"}, {"type": "text", "text": "I'll set up the project."}]},
{"id": "u2", "role": "user", "parts": [{"type": "text", "text": "<system-reminder># GIT STATUS\nCurrent branch: </system-reminder>"}, {"type": "text", "text": "<system-reminder>Use a tool.</system-reminder>"}]},
{"id": "u3", "role": "user", "parts": [{"type": "text", "text": "<system-reminder>note</system-reminder> and do read the README"}]}]`,
			want: []string{
				`text[system-reminder] "<system-reminder># System Inform…"`,
				`user "# Task: add a checkpoint"`,
				`text[model] "I'll set up the project."`,
				`user[harness] "<system-reminder># GIT STATUS\nCu…"`,
				`text[system-reminder] "<system-reminder>note</system-re…"`,
				`user "and do read the README"`,
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			expectEvents(t, "chat.json", tt.doc, FormatMessages, tt.want)
		})
	}
}

// UI messages logged one a line, as pochi wrote its runs before it wrote their parts
// (validation round r151a U1: 39 such files were no transcript).
func TestAISDKMessagesOneALine(t *testing.T) {
	const lines = `{"id": "u1", "role": "user", "parts": [{"type": "text", "text": "install it"}]}
{"id": "a1", "metadata": {"kind": "assistant"}, "role": "assistant", "parts": [{"type": "step-start"}, {"type": "tool-executeCommand", "toolCallId": "c1", "state": "output-available", "input": {"command": "pip install e2b"}, "output": {"output": "error: externally-managed-environment", "isTruncated": false, "error": "Command exited with code 1"}}]}
`
	expectEvents(t, "trajectory.jsonl", lines, FormatMessages, []string{
		`user "install it"`,
		`call executeCommand "{\"command\":\"pip install e2b\"}" => "error: externally-managed-enviro…" FAILED`,
	})
}

func FuzzAISDK(f *testing.F) {
	f.Add([]byte(`[{"role": "assistant", "parts": [{"type": "tool-x", "toolCallId": "c", "state": "output-available", "input": {"a": 1}, "output": {"b": [1]}}]}]`))
	f.Add([]byte(`[{"role": "assistant", "parts": [{"type": "tool-invocation", "toolInvocation": {"state": "result", "toolName": "t", "args": "x", "result": null}}]}, {"role": "tool", "content": [{"type": "tool-result", "output": {"type": "json", "value": {}}}]}]`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readJSONArray(name, br, 0) })
}

// A chat streamed as its messages' parts, one record a line, as pochi writes its benchmark
// jobs: a part written again as it streams is the part as it last stood, a "step-start" opens
// the next reply, metadata between is no part, a call the SDK could not parse keeps what the
// model wrote (validation round r148b U1: such files were taken for Claude Code's).
func TestAISDKStreamedPartsAreMessages(t *testing.T) {
	const stream = `{"type":"message-part","messageId":"u1","role":"user","index":0,"part":{"type":"text","text":"make it build"}}
{"type":"message-part","messageId":"a1","role":"assistant","index":0,"part":{"type":"step-start"}}
{"type":"message-part","messageId":"a1","role":"assistant","index":1,"part":{"type":"tool-executeCommand","toolCallId":"c1","state":"input-available","input":{"command":"npm run build"}}}
{"type":"message-part","messageId":"a1","role":"assistant","index":1,"part":{"type":"tool-executeCommand","toolCallId":"c1","state":"output-available","input":{"command":"npm run build"},"output":{"output":"error TS2307","isTruncated":false,"error":"Command exited with code 2"}}}
{"type":"message-metadata","messageId":"a1","metadata":{"kind":"assistant"}}
{"type":"message-part","messageId":"a1","role":"assistant","index":2,"part":{"type":"step-start"}}
{"type":"message-part","messageId":"a1","role":"assistant","index":3,"part":{"type":"tool-readBackgroundJobOutput","toolCallId":"c2","state":"output-error","rawInput":"{\"backgroundJobId\": \"job-1\"","errorText":"Invalid input"}}
`
	tr := expectEvents(t, "trajectory.jsonl", stream, FormatMessages, []string{
		`user "make it build"`,
		// a run's wrapper: what it printed, its error a last line failing the call (r151a F3)
		`call executeCommand "{\"command\":\"npm run build\"}" => "error TS2307\nCommand exited with…" FAILED`,
		`call readBackgroundJobOutput "{\"backgroundJobId\": \"job-1\"" => "Invalid input" FAILED`,
	})
	if calls := tr.Agents[0].Calls(); calls[0].Turn == calls[1].Turn {
		t.Errorf("the calls of two steps share the turn %q", calls[0].Turn)
	}
}

// pochi's later jobs time each record of the stream: a call's time is when its part was first
// written (the model making it), not when its output came (r151a U2: every event at time 0).
func TestAISDKStreamedPartsKeepTheirFirstTime(t *testing.T) {
	const stream = `{"type":"message-part","timestamp":"2026-07-17T14:41:10.000Z","messageId":"a1","role":"assistant","index":0,"part":{"type":"text","text":"Building."}}
{"type":"message-part","timestamp":"2026-07-17T14:41:11.000Z","messageId":"a1","role":"assistant","index":1,"part":{"type":"tool-executeCommand","toolCallId":"c1","state":"input-available","input":{"command":"npm run build"}}}
{"type":"message-part","timestamp":"2026-07-17T14:41:17.679Z","messageId":"a1","role":"assistant","index":1,"part":{"type":"tool-executeCommand","toolCallId":"c1","state":"output-available","input":{"command":"npm run build"},"output":"ok"}}
{"type":"message-part","messageId":"a1","role":"assistant","index":2,"part":{"type":"tool-readFile","toolCallId":"c2","state":"output-available","input":{"path":"a.ts"},"output":"x"}}
`
	tr, err := ReadFrom("trajectory.jsonl", strings.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, e := range tr.Agents[0].Events {
		got = append(got, e.Time)
	}
	if want := []int64{1784299270000, 1784299271000, 0}; !slices.Equal(got, want) {
		t.Errorf("times %v, want %v", got, want)
	}
}

func FuzzAISDKStream(f *testing.F) {
	f.Add([]byte(`{"type":"message-part","messageId":"a","role":"assistant","index":0,"part":{"type":"tool-x","state":"output-available","input":{},"output":1}}` + "\n"))
	f.Add([]byte(`{"type":"message-part","messageId":"a","index":-1,"part":{}}` + "\n" + `{"type":"message-part","messageId":"a","index":9,"part":{"type":"reasoning","reasoning":"r"}}` + "\n"))
	fuzzReader(f, readAISDKStream)
}
