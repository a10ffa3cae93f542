package transcript

import (
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// replyPattern names each call of the transcript's first agent by the reply that made it, in
// order: "AAB" is two calls made together, then one of another reply. A call with no Turn
// is "-".
func replyPattern(t *testing.T, tr *Transcript) string {
	t.Helper()
	names := map[string]byte{}
	var b strings.Builder
	for _, e := range tr.Agents[0].Events {
		if e.Type != loopguard.EventCall {
			continue
		}
		if e.Turn == "" {
			b.WriteByte('-')
			continue
		}
		n, ok := names[e.Turn]
		if !ok {
			n = byte('A' + len(names))
			names[e.Turn] = n
		}
		b.WriteByte(n)
	}
	return b.String()
}

func TestCallsOfOneReplyShareATurn(t *testing.T) {
	tests := []struct {
		name, format, file, want string
	}{
		{"Claude Code: the tool_use blocks of one message, even on lines of their own, are one reply",
			FormatClaudeCode, `{"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"fix it"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"a.py"}}]}}
{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"s","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Read","input":{"file_path":"b.py"}}]}}
{"type":"user","uuid":"u2","parentUuid":"a2","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x"},{"type":"tool_result","tool_use_id":"t2","content":"y"}]}}
{"type":"assistant","uuid":"a3","parentUuid":"u2","sessionId":"s","message":{"id":"msg_2","role":"assistant","content":[{"type":"tool_use","id":"t3","name":"Read","input":{"file_path":"c.py"}}]}}
`, "AAB"},
		{"Codex: the calls between two outputs are one reply",
			FormatCodex, `{"timestamp":"2025-10-01T10:00:00Z","type":"session_meta","payload":{"id":"s1","cwd":"/w"}}
{"timestamp":"2025-10-01T10:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]}}
{"timestamp":"2025-10-01T10:00:02Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"cat\",\"a\"]}","call_id":"c1"}}
{"timestamp":"2025-10-01T10:00:02Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"cat\",\"b\"]}","call_id":"c2"}}
{"timestamp":"2025-10-01T10:00:03Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"x"}}
{"timestamp":"2025-10-01T10:00:03Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"y"}}
{"timestamp":"2025-10-01T10:00:04Z","type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"next"}]}}
{"timestamp":"2025-10-01T10:00:04Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"cat\",\"c\"]}","call_id":"c3"}}
`, "AAB"},
		{"Gemini CLI stream-json after a harness's prompt line: the calls up to a result are one reply",
			FormatGeminiStream, `{"type": "message", "role": "user", "content": "Build the landing page.", "ts": "2026-01-30T06:18:04"}
{"type": "init", "timestamp": "2026-01-30T06:18:17.750Z", "session_id": "6727b31e", "model": "gemini-3-pro-preview", "ts": "2026-01-30T06:18:17"}
{"type": "tool_use", "timestamp": "2026-01-30T06:18:22.937Z", "tool_name": "read_file", "tool_id": "r1", "parameters": {"file_path": "a.md"}}
{"type": "tool_use", "timestamp": "2026-01-30T06:18:22.938Z", "tool_name": "read_file", "tool_id": "r2", "parameters": {"file_path": "b.md"}}
{"type": "tool_result", "timestamp": "2026-01-30T06:18:22.986Z", "tool_id": "r1", "status": "success", "output": "a"}
{"type": "tool_result", "timestamp": "2026-01-30T06:18:22.987Z", "tool_id": "r2", "status": "error", "output": "", "error": {"type": "file_not_found", "message": "File not found"}}
{"type": "tool_use", "timestamp": "2026-01-30T06:18:30.369Z", "tool_name": "run_shell_command", "tool_id": "s1", "parameters": {"command": "ls"}}
`, "AAB"},
		{"OpenAI messages: the tool_calls of one assistant message are one reply",
			FormatMessages, `{"messages":[{"role":"user","content":"fix it"},
{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{\"p\":\"a\"}"}},{"id":"c2","type":"function","function":{"name":"read","arguments":"{\"p\":\"b\"}"}}]},
{"role":"tool","tool_call_id":"c1","content":"x"},{"role":"tool","tool_call_id":"c2","content":"y"},
{"role":"assistant","content":null,"tool_calls":[{"id":"c3","type":"function","function":{"name":"read","arguments":"{\"p\":\"c\"}"}}]},
{"role":"tool","tool_call_id":"c3","content":"z"}]}`, "AAB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("t.jsonl", strings.NewReader(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != tt.format {
				t.Fatalf("read as %q, want %q", tr.Format, tt.format)
			}
			if got := replyPattern(t, tr); got != tt.want {
				t.Errorf("replies %q, want %q", got, tt.want)
			}
		})
	}
}

// A SWE-agent run saved with function calls answers a reply without a call with its own
// message ("Your last output did not use any tool calls!"), read as the harness's text: the
// model's replies on either side of it are turns of one chain, and the same reply five times
// with no call between is a monologue, told.
func TestSWEAgentRepliesToAFormatRepromptAreTurnsOfOneMonologue(t *testing.T) {
	hist := []string{
		`{"role":"system","content":"SYSTEM","agent":"main"}`,
		`{"role":"user","content":"Fix the bug","agent":"main"}`,
		`{"role":"assistant","content":"Look.","agent":"main","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]}`,
		`{"role":"tool","content":"a.py","agent":"main","tool_call_id":"c1"}`,
	}
	for i := 0; i < 5; i++ {
		hist = append(hist,
			`{"role":"assistant","content":"I have completed the task and the fix is in place.","agent":"main"}`,
			`{"role":"user","content":"Your last output did not use any tool calls!\nPlease make sure your output includes exactly _ONE_ function call!","agent":"main"}`)
	}
	doc := `{"trajectory":[],"history":[` + strings.Join(hist, ",") + `],"info":{"exit_status":"exit_format"}}`
	tr, err := ReadFrom("run.traj", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	eng, _ := loopguard.New(cfg)
	told := false
	for _, e := range tr.Agents[0].Events {
		for _, n := range eng.Observe(e) {
			told = told || n.Kind == loopguard.KindThought
		}
	}
	if !told {
		t.Errorf("the same reply five times, the harness reprompting between, no call: no thought notice; events %v", describe(tr.Agents[0].Events))
	}
}
