package transcript

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// One fuzz target per reader added for issue 10, calling the reader directly (not through
// the format sniffing, which would send most mutations elsewhere), seeded with the real files
// and fixtures of its format. A reader must return a transcript or an *Error naming the input,
// never panic (recoverPanics is off).

func seedFiles(f *testing.F, patterns ...string) {
	for _, p := range patterns {
		files, _ := filepath.Glob(filepath.Join("testdata", p))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
}

func fuzzReader(f *testing.F, read func(name string, br *bufio.Reader) (*built, error)) {
	recoverPanics = false
	f.Cleanup(func() { recoverPanics = true })
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "fuzz-input"
		b, err := read(name, bufio.NewReader(bytes.NewReader(data)))
		if err != nil {
			var fe *Error
			if !errors.As(err, &fe) || fe.Path != name || !strings.HasPrefix(err.Error(), name+":") {
				t.Fatalf("error %v does not name the input", err)
			}
			return
		}
		for _, a := range b.Agents {
			for _, e := range a.Events {
				if e.Agent != a.ID {
					t.Fatalf("agent %q holds an event of %q", a.ID, e.Agent)
				}
			}
		}
	})
}

func FuzzClaudeMarkdown(f *testing.F) {
	seedFiles(f, "real/claude-code-markdown/*.md")
	f.Add([]byte("# Claude Session Export\n\n## Conversation\n\n### User\n> x\n\n[\n  {\"type\": \"text\"\n\n---\n"))
	fuzzReader(f, readClaudeMarkdown)
}

func FuzzTauBench(f *testing.F) {
	seedFiles(f, "real/tau-bench/*.json", "messages/tau-bench-traj.json")
	f.Add([]byte{}) // once a crash: the reader assumed the sniffing had seen a '['
	f.Add([]byte(`[{"traj":[{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"f","arguments":7}}]}]},{"traj":{}}]`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readJSONArray(name, br, 0) })
}

func FuzzOpenHandsCompletion(f *testing.F) {
	seedFiles(f, "openhands/*.json", "openhands/llm_completions/*/*.json")
	f.Add([]byte(" "))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readJSONObject(name, br, 0) })
}

func FuzzOpenHandsEvents(f *testing.F) {
	seedFiles(f, "real/openhands/basic.json")
	f.Add([]byte(ohV1Events))
	f.Add([]byte(`[{"id":1,"timestamp":"t","source":"agent","action":"run","args":{"command":"ls"}},{"id":2,"timestamp":"t","source":"agent","observation":"run","cause":1,"content":"x","extras":{"exit_code":"no"}}]`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readJSONArray(name, br, 0) })
}

func FuzzOpenHandsEventLines(f *testing.F) {
	f.Add([]byte(`{"id":"s0","timestamp":"2025-11-01T09:59:59","source":"environment","kind":"ConversationStateUpdateEvent"}` + "\n" +
		`{"id":"e3","timestamp":"2025-11-01T10:00:02","source":"agent","kind":"ActionEvent","tool_name":"terminal","tool_call_id":"c1","tool_call":{"id":"c1","name":"terminal","arguments":"{\"command\": \"ls\"}"}}` + "\n" +
		`{"id":"e4","timestamp":"2025-11-01T10:00:03","source":"environment","kind":"ObservationEvent","tool_call_id":"c1","observation":{"content":[{"type":"text","text":"a"}],"exit_code":1}}` + "\n"))
	f.Add([]byte("{}\n{"))
	fuzzReader(f, readOpenHandsEventLines)
}

func FuzzDevAI(f *testing.F) {
	f.Add([]byte(devaiRun))
	f.Add([]byte(`[{"step":0,"user_message":"x"},{"step":1,"agent":{"action":"Running command: "},"environment":null}]`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readJSONArray(name, br, 0) })
}

func FuzzCline(f *testing.F) {
	seedFiles(f, "cline/*.json")
	f.Add([]byte(`[{"role":"user","content":[{"type":"text","text":"[x] Result:"},{"type":"image"},7]},{"role":"assistant","content":"<read_file><path>a"}]`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readJSONArray(name, br, 0) })
}

func FuzzOpencodeFile(f *testing.F) {
	seedFiles(f, "opencode/storage/*/*/*.json")
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readOpencodeFile(name, br, 0) })
}

func FuzzOpencodeExport(f *testing.F) {
	seedFiles(f, "opencode/export.json")
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readJSONObject(name, br, 0) })
}

func FuzzOTLP(f *testing.F) {
	seedFiles(f, "otlp/*")
	fuzzReader(f, readOTLP)
}

func FuzzOpenHandsOutput(f *testing.F) {
	f.Add([]byte(`{"instance_id":"a","history":[{"id":0,"timestamp":"t","source":"user","action":"message","args":{"content":"hi"}}],"metrics":{"accumulated_cost":1}}` + "\n" + `{"instance_id":"b","history":7}`))
	fuzzReader(f, readOpenHandsOutput)
}

// Damaged files of the new formats are reported with path:line and skipped, never a crash.
func TestDamagedFilesOfTheNewFormats(t *testing.T) {
	tau := fixture(t, "real/tau-bench/gpt-4o-airline-3.json")
	md := fixture(t, "real/claude-code-markdown/agent-30e7d465-untitled-full.md")
	dump := fixture(t, "openhands/llm_completions/django__django-1/claude-3-5-sonnet-20241022-1731000001.5.json")
	deep := func(prefix, suffix string) []byte {
		return []byte(prefix + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + suffix)
	}
	tests := []struct {
		name, file string
		data       []byte
		wantLine   int // 0: any line
		want       string
	}{
		{"truncated tau-bench list", "t.json", tau[:len(tau)/2], 0, "unexpected end of data"},
		{"truncated dump", "d.json", dump[:len(dump)-40], 0, "unexpected end of data"},
		{"tau-bench traj of the wrong type", "t.json", []byte(`[{"task_id":1,"traj":"no"},{"task_id":2,"traj":7}]`), 0, "unknown transcript format"},
		{"dump response of the wrong type", "d.json", []byte(`{"messages":[{"role":"user","content":"x"}],"response":"oops","timestamp":"x","cost":{}}`), 0, ""},
		{"100,000-deep nesting in a traj", "t.json", deep(`[{"traj":[{"role":"user","content":`, `}]}]`), 1, "invalid JSON value"},
		{"100,000-deep nesting in a dump", "d.json", deep(`{"messages":[],"response":{"choices":[{"message":{"role":"assistant","content":`, `}}]}}`), 1, "invalid JSON value"},
		{"output.jsonl line cut short", "output.jsonl", []byte(`{"instance_id":"a","history":[]}` + "\n" + `{"instance_id":"b","history":[{"id":0,`), 2, "unexpected end of data"},
		{"event list nested 100,000 deep", "e.json", deep(`[{"id":1,"timestamp":"t","source":"agent","action":"run","args":`, `}]`), 1, "invalid JSON value"},
		{"truncated Cline history", "api_conversation_history.json", fixture(t, "cline/xml-task.json")[:900], 0, "unexpected end of data"},
		{"Cline content nested 100,000 deep", "api_conversation_history.json", deep(`[{"role":"user","content":[{"type":"text","text":"<task>x</task>"}]},{"role":"assistant","content":`, `}]`), 1, "invalid JSON value"},
		{"opencode part cut short", "prt_1.json", []byte(`{"id":"prt_1","sessionID":"ses_1","messageID":"msg_1","type":"tool","state":{"status":`), 1, "unexpected end of data"},
		{"opencode export nested 100,000 deep", "export.json", deep(`{"info":{"id":"s"},"messages":[{"info":{"id":"m","role":"user"},"parts":[{"type":"text","text":"x","extra":`, `}]}]}`), 1, "invalid JSON value"},
		{"OTLP batch cut short", "traces.jsonl", fixture(t, "otlp/genai-collector.jsonl")[:3000], 2, "invalid OTLP JSON"},
		{"OTLP attributes nested 100,000 deep", "traces.json", deep(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"x","attributes":`, `}]}]}]}`), 1, "invalid OTLP JSON"},
		{"markdown blocks cut short", "s.md", append(md[:bytes.Index(md, []byte("\"text\": \"Now let me"))], "\n\n---\n"...), 0, "not valid JSON"},
		{"markdown blocks nested 100,000 deep", "s.md", []byte("# Claude Session Export\n\n## Conversation\n\n### Assistant\n> 1/1/2026, 1:00:00 PM\n\n[\n" +
			strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n]\n\n---\n"), 8, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tt.file)
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			tr, err := Read(path)
			if tt.want == "" {
				// Values of unexpected types are read as absent: a transcript, not a crash.
				if err != nil {
					t.Fatalf("error %v", err)
				}
				if tr.Format != FormatOpenHandsCompletion {
					t.Errorf("format %q", tr.Format)
				}
				return
			}
			var fe *Error
			if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), path+":") || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q naming the file", err, tt.want)
			}
			if tt.wantLine > 0 && fe.Line != tt.wantLine {
				t.Errorf("line %d, want %d (%v)", fe.Line, tt.wantLine, err)
			}
			if fe.Line == 0 && !strings.Contains(tt.want, "unknown") {
				t.Errorf("no line in %v", err)
			}
		})
	}
}

func FuzzCodexExec(f *testing.F) {
	seedFiles(f, "codex-exec/*.jsonl")
	f.Add([]byte("{\"type\":\"item.completed\",\"item\":{\"type\":\"command_execution\",\"exit_code\":\"x\"}}\nnot json\n{\"type\":\"turn.completed\",\"usage\":7}\n"))
	fuzzReader(f, readCodexExec)
}

func FuzzGeminiStream(f *testing.F) {
	seedFiles(f, "gemini-stream/*.jsonl")
	f.Add([]byte("{\"type\":\"tool_result\",\"tool_id\":\"missing\",\"status\":\"error\",\"error\":[1]}\n{\"type\":\"tool_use\",\"tool_id\":7}\n"))
	fuzzReader(f, readGeminiStream)
}

func FuzzATIF(f *testing.F) {
	seedFiles(f, "atif/*.json")
	f.Add([]byte(`{"schema_version":"ATIF-v1.4","steps":[{"source":"agent","tool_calls":[{"tool_call_id":"a","function_name":"f","arguments":null}],"observation":{"results":[{"content":{"x":1}},{"source_call_id":"a"}]}}]}`))
	f.Add([]byte(`{"schema_version":"ATIF-v1.4","steps":[{"source":"agent","observation":{"results":[{"content":"x"}]}}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readATIF(name, br, 0) })
}

func FuzzMessagesJSONL(f *testing.F) {
	seedFiles(f, "messages/*.jsonl")
	f.Add([]byte("{\"role\":\"assistant\",\"tool_calls\":[{\"id\":7,\"function\":\"x\"}]}\n{\"role\":\"tool\",\"tool_call_id\":[],\"content\":{}}\n"))
	f.Add([]byte("{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\"}]}\n[1,2]\n{\"role\""))
	f.Add([]byte(`{"type":"user","content":"a"}` + "\n" + `{"type":"assistant","content":"b","tool_calls":[{"id":"1","name":"x","arguments":"{"}]}` + "\n" + `{"type":"tool_result","tool_call_id":"1","content":[1]}`))
	f.Add([]byte(`{"type":"session_start","cwd":"/"}` + "\n" + `{"type":"message","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":7}]}}` + "\n" + `{"message": {"role": 1}}`))
	fuzzReader(f, readMessagesJSONL)
}

func FuzzGoose(f *testing.F) {
	seedFiles(f, "goose/*.jsonl")
	f.Add([]byte(`{"type":"message","message":{"role":"user","content":[{"type":"toolResponse","id":1,"toolResult":{"status":"success","value":{"content":7}}}]}}`))
	f.Add([]byte(`{"role":"assistant","content":[{"type":"toolRequest","toolCall":{"status":"success","value":{"name":["x"],"arguments":null}}}]}`))
	fuzzReader(f, readGoose)
}

func FuzzQwenCode(f *testing.F) {
	seedFiles(f, "qwen-code/*.jsonl")
	f.Add([]byte(`{"type":"tool_result","message":{"role":"user","parts":[{"functionResponse":{"id":"x","response":7}}]},"toolCallResult":{"status":"error"}}`))
	fuzzReader(f, readQwen)
}

func FuzzPi(f *testing.F) {
	seedFiles(f, "pi/*.jsonl")
	f.Add([]byte(`{"type":"message","parentId":null,"message":{"role":"assistant","content":[{"type":"toolCall","id":7,"arguments":"x"}]}}`))
	fuzzReader(f, readPi)
}

func FuzzCursor(f *testing.F) {
	seedFiles(f, "cursor/*.jsonl")
	f.Add([]byte(`{"type":"tool_call","subtype":"completed","call_id":"","tool_call":{"mcpToolCall":{"args":"x","result":{"success":{"content":[{"text":7}]}}}}}`))
	fuzzReader(f, readCursor)
}

func FuzzCopilot(f *testing.F) {
	seedFiles(f, "copilot/*.jsonl")
	f.Add([]byte(`{"type":"tool.execution_complete","data":{"toolCallId":"","success":false,"error":7,"result":[1]}}`))
	fuzzReader(f, readCopilot)
}

func FuzzContinue(f *testing.F) {
	seedFiles(f, "continue/*.json")
	f.Add([]byte(`{"sessionId":"s","history":[{"message":{"role":"assistant","toolCalls":[{"id":7}]},"toolCallStates":[{"toolCallId":"","status":"errored"}]}]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readContinue(name, br, 0) })
}

func FuzzInspect(f *testing.F) {
	seedFiles(f, "inspect/*.json")
	f.Add([]byte(`{"version":2,"eval":{},"samples":[{"messages":[{"role":"tool","error":{"message":7},"content":[{"type":"text","text":"attachment://x"}]}],"attachments":{"x":1}}]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readInspectJSON(name, br, 0) })
}

// FuzzInspectEval feeds .eval archives: a valid one (the fixture's samples zipped) and its
// mutations must be read or refused with an error, never crash.
func FuzzInspectEval(f *testing.F) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("samples/1_epoch_1.json")
	w.Write([]byte(`{"messages":[{"role":"assistant","tool_calls":[{"id":"c","function":"bash","arguments":{"cmd":"ls"}}]},{"role":"tool","tool_call_id":"c","content":"a"}]}`))
	zw.Close()
	f.Add(buf.Bytes())
	fuzzReader(f, readInspectEval)
}

func FuzzTrae(f *testing.F) {
	seedFiles(f, "trae/*.json")
	f.Add([]byte(`{"llm_interactions":[],"agent_steps":[{"llm_response":{"tool_calls":[{"call_id":7}]},"tool_results":[{"call_id":"","success":"no"}]}]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readTrae(name, br, 0) })
}

func FuzzMoatless(f *testing.F) {
	f.Add([]byte(moatlessRunDoc()))
	f.Add([]byte(moatlessLoopDoc()))
	f.Add([]byte(moatlessStepsDoc()))
	f.Add([]byte(moatlessRejectDoc()))
	f.Add([]byte(`{"name":"moatless","input":{"problem_statement":7},"steps":[{"name":"x","actions":[{"name":1,"input":{"thoughts":[]},"output":{"error":{}}}]}],"output":null,"info":[]}`))
	f.Add([]byte(`{"name":"AgenticLoop","initial_message":"x","transitions":[{"name":"EditCode","state":{"model":1},"actions":[{"action":{"reject":"null"},"retry_message":7,"output":"x"}]}],"info":{}}`))
	f.Add([]byte(`{"transition_rules":{},"transitions":[{"name":7,"actions":[{"request":{"scratch_pad":1},"response":{"trigger":"retry","output":[1]}}]}]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readMoatless(name, br, 0) })
}

func FuzzAntigravity(f *testing.F) {
	f.Add([]byte(antigravitySteps))
	f.Add([]byte(`{"step_index":1,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","tool_calls":[{"name":"run_command","args":{}}]}` + "\n" +
		`{"step_index":2,"source":"MODEL","type":"RUN_COMMAND","status":"RUNNING","content":"Tool is running as a background task with task id: t/1\n"}` + "\n" +
		`{"step_index":3,"source":"SYSTEM","type":"SYSTEM_MESSAGE","status":"DONE","content":"Task id \"t/1\" finished with result:\n\n\t\tThe command failed with exit code: 1\n\nLog: file:///x"}`))
	f.Add([]byte(`{"step_index":0,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","tool_calls":[{"name":1,"args":{"a":"\"{"}}]}` + "\n" + `{"step_index":1,"source":"MODEL","type":"X","status":"ERROR","content":"Created At: x"}`))
	fuzzReader(f, readAntigravity)
}

func FuzzSessionEvents(f *testing.F) {
	f.Add([]byte(sessionEventsLog))
	f.Add([]byte(`{"id":"sevt_1","processed_at":"x","type":"agent.tool_result","tool_use_id":7,"content":[{"text":1}]}` + "\n" + `{"id":"sevt_2","processed_at":"x","type":"agent.tool_use","input":"[","name":null}`))
	fuzzReader(f, readSessionEvents)
}

// FuzzChatsInside feeds documents of no known format through the object and array readers,
// which search them for chats (nested.go): JSONL of runs and request logs included.
func FuzzChatsInside(f *testing.F) {
	f.Add([]byte(`{"data": {"conversations": [{"role": "human", "text": "hi"}, {"role": "ai", "content": "<tool_call>{\"name\": \"x\", \"arguments\": {}}</tool_call>"}, {"role": "tool", "content": "<tool_response>ok</tool_response>"}]}}`))
	f.Add([]byte("{\"messages\": [{\"role\": \"user\", \"content\": \"a\"}]}\n{\"messages\": [{\"role\": \"user\", \"content\": \"a\"}, {\"role\": \"assistant\", \"content\": \"```\\nls\\n```\"}]}\n"))
	f.Add([]byte(`[{"id": 1, "log": [{"role": "assistant", "content": "<function=bash><parameter=command>ls</parameter></function>"}, {"role": "user", "content": "a"}]}]`))
	f.Add([]byte(`[{"conversations": [{"from": "human", "value": "t"}, {"from": "gpt", "value": "<execute>1+1</execute><execute_bash>ls</execute_bash>"}, {"from": "observation", "value": "EXECUTION RESULT of [x]:\n2"}]}]`))
	f.Add([]byte(`[{"conversations": [{"from": "gpt", "value": "Action: a[b]"}, {"from": "human", "value": "Observation: c"}, {"from": "gpt", "value": "Action:\n{\"action\": \"x\", \"action_input\": 1}"}, {"from": "human", "value": "Observation"}, {"from": "gpt", "value": "Action: t\nAction Input: i"}, {"from": "human", "value": "Observation: d"}]}]`))
	f.Add([]byte(`[{"content": [{"class_": "code_action", "language": "bash", "content": "ls"}, {"class_": "text_observation", "content": "a", "source": "environment"}, {"class_": "api_action", "function": "f", "kwargs": {"a": [1]}}, {"class_": "message_action", "content": "ok"}]}]`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) {
		if b, _ := br.Peek(1); len(b) == 1 && b[0] == '[' {
			return readJSONArray(name, br, 0)
		}
		return readJSONObject(name, br, 0)
	})
}

func FuzzAider(f *testing.F) {
	seedFiles(f, "aider/*.md")
	f.Add([]byte("# aider chat started at x\n> a\nb  \n#### u\n\nm\n```\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n> Tokens: 1k sent, 2M received. Cost: $x message  \n"))
	fuzzReader(f, readAider)
}

func FuzzClineMarkdown(f *testing.F) {
	seedFiles(f, "cline-markdown/*.md")
	f.Add([]byte("**User:**\n\n[read_file (Error)]\nx\n---\n**Assistant:**\n[Tool Use: x\n---\n---\n**User:**\n[list_files]"))
	fuzzReader(f, readClineMarkdown)
}

func FuzzSpecStory(f *testing.F) {
	seedFiles(f, "specstory/*.md")
	f.Add([]byte("<!-- Generated by SpecStory -->\n_**Agent**_\n<think>x\n<tool-use data-tool-name=\"a\"><summary>Tool use: **a** • b</summary>\n```\n```x\nTool use: **b**\n---\n"))
	f.Add([]byte("<!-- Generated by SpecStory -->\n_**Assistant**_\n---\n```bash\nls\n```\n```\n---\n<details><summary>Grep search for x</summary>\n---\nRead file: \n```diff\n---\n_**User**_"))
	fuzzReader(f, readSpecStory)
}

func FuzzClaudeText(f *testing.F) {
	f.Add([]byte("> a\n  b\n\n⏺ Bash(x |\n      y)\n  ⎿  Error: z\n     … +3 lines (ctrl+o to expand)\n\n⏺ t (MCP)(q)\n  ⎿  r\n⏺ (\n⏺ A B(\n  ⎿\n"))
	f.Add([]byte("⏺ Read(\n  ⎿  \n\n\n     x\n> \n⏺ Web Search(\"a\")\n"))
	f.Add([]byte("> a\n> b\n\n⏺ Bash(x |\ny)\n⎿ Error: z\n … +3 lines\n\n⏺ s - t (MCP)(q:\n\"r\")\n⎿\n⎿ ⎿\n"))
	f.Add([]byte("x\n╭─\n│ ✻ Welcome to Claude Code!\n> a\n● Bash(b)  ⎿  c\n● Read(d)\n● e\n╭─── Claude Code v2\n> a\n● Bash(b)\n  ⎿  c\n"))
	fuzzReader(f, readClaudeText)
}

func FuzzCodexText(f *testing.F) {
	f.Add([]byte("› a\n  b\n\n• c\n\n• Ran x\n  │ y\n  └ z\n    … +3 lines\n\n• Explored\n  └ Read a\n    List\n\n• Edited a (+1 -0)\n    1 +x\n• Called s.t(\n  └ r\n• Ran "))
	f.Add([]byte("• Called (\n  └ \n• Ran\n  └"))
	fuzzReader(f, readCodexText)
}

func FuzzCodexExecText(f *testing.F) {
	f.Add([]byte("OpenAI Codex v0.1 (research preview)\n--------\nx\n--------\nuser\na\nexec\nb in /cexec\nd in /e succeeded in 0ms:\nf\n succeeded in 0ms:\nexec\ng in /h exited 1 in 2s:\ni\ntool s.t(\ns.t() failed in 1ms:\nfile update\napply_patch(auto_approved=true) exited 1 in 1ms:\n🌐 Searched: q\nexec"))
	f.Add([]byte("[2025-08-31T12:37:08] OpenAI Codex v0.2\n--------\n[2025-08-31T12:37:08] exec bash -lc 'x in /y\nbash -lc 'x succeeded in 5ms:\ntool )\ntool (x)"))
	fuzzReader(f, readCodexExecText)
}

func FuzzADK(f *testing.F) {
	f.Add([]byte(`{"appName": "a", "userId": "u", "events": [{"author": "user", "content": {"parts": [{"text": "x"}]}}, {"author": "b", "id": "1", "content": {"parts": [{"functionCall": {"id": "c", "name": "t", "args": [1]}}, {"text": "y"}]}}, {"author": "b", "content": {"parts": [{"functionResponse": {"id": "c", "response": {"result": {"error": 1}}}}]}}]}`))
	f.Add([]byte(`{"author": "b", "invocation_id": "e", "content": {"parts": [{"function_call": {"name": "t"}}, {"function_response": {"response": 3}}]}}` + "\n" + `{"author": 1}`))
	fuzzReader(f, readADK)
}

func FuzzGeminiText(f *testing.F) {
	f.Add([]byte("Tips for getting started:\n> a\n  b\n✦ c\n╭─╮\n│ ✓  Shell x [current working directory /] (d) │\n│ ... first 3 lines hidden ...\n│ e\n wrapped │\n│ x  Edit {\"a\":1}\n╰─╯\n │  > f │\nx Shell {}\nTips for getting started:\n> a\n"))
	f.Add([]byte("│ -  W\n│ ?  Q (\n│ ⊷  R"))
	fuzzReader(f, readGeminiText)
}

func FuzzBrowserUse(f *testing.F) {
	f.Add([]byte(browserUseSteps(3, func(i int) string { return "https://a.test/" + strconv.Itoa(i) })))
	f.Add([]byte(`{"history": [{"model_output": {"action": [{"a": 1, "b": [2]}, {}], "current_state": {"next_goal": 3}}, "result": [{"error": ""}, {"error": null, "extracted_content": 7}]}, {"model_output": null, "result": []}]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readBrowserUse(name, br, 0) })
}

// FuzzResultOfCalls feeds message lists whose user messages answer calls as
// "Result of NAME(ARGS):" blocks (AutoCodeRover's conversations).
func FuzzResultOfCalls(f *testing.F) {
	f.Add([]byte(resultOfChat))
	f.Add([]byte(`[{"role":"user","content":"Result of a(:\nResult of b()):\n"},{"role":"user","content":"Result of c(\"x\"):"},{"role":"user","content":"The calls seem not valid"}]`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readJSONArray(name, br, 0) })
}

func FuzzCCTrace(f *testing.F) {
	f.Add([]byte(ccTraceExport))
	f.Add([]byte("# Claude Code Session Export\n### 🤖 Assistant\n🔧 **Tool Use: ** x\n```\n### 👤 User\n📊 **Tool Result:**```\n📊 **Tool Result:**\n<details>\n"))
	fuzzReader(f, readCCTrace)
}

func FuzzKimiWire(f *testing.F) {
	f.Add([]byte(kimiWireLog))
	f.Add([]byte(kimiWireV1Log))
	f.Add([]byte(`{"type":"turn.prompt","input":7,"origin":null}` + "\n" + `{"type":"context.append_loop_event","event":{"type":"tool.result","toolCallId":"","result":{"output":[1]}}}` + "\n" + `{"type":"context.append_loop_event","event":{"type":"content.part","part":null}}`))
	fuzzReader(f, readKimiWire)
}

func FuzzLoglines(f *testing.F) {
	f.Add([]byte(loglinesSession))
	f.Add([]byte(`{"loglines": [{"type": "assistant", "message": {"content": [{"type": "tool_use", "input": 3}]}}, 7, "x", null]}`))
	fuzzReader(f, readLoglines)
}

func FuzzResponsesRollouts(f *testing.F) {
	f.Add([]byte(responsesRollouts))
	f.Add([]byte(`{"responses_create_params": {"input": 7}, "response": {"output": [{"type": "function_call_output", "call_id": 1}, null, {"type": "function_call"}]}}` + "\n" + `{"responses_create_params": null, "response": {"output": {}}}`))
	fuzzReader(f, readResponsesRollouts)
}

func FuzzACP(f *testing.F) {
	f.Add([]byte(`{"type": "user_message", "text": "go"}` + "\n" + `{"type": "tool_call", "tool_call_id": "c", "kind": "execute", "title": "x: $ ls", "status": "completed", "content": [{"type": "content", "content": {"type": "text", "text": "Tool: t\nResult:\na"}}]}` + "\n" + `{"type": "tool_call", "tool_call_id": "c", "kind": null, "title": 3, "status": "failed", "content": [{"text": "Tool: "}]}`))
	f.Add([]byte(`{"type": "agent_message", "text": "a"}` + "\n" + `{"type": "tool_call", "tool_call_id": "", "kind": "", "title": "", "content": null}`))
	fuzzReader(f, readACP)
}

func FuzzZed(f *testing.F) {
	f.Add([]byte(zedThread))
	f.Add([]byte(zedACPThread))
	f.Add([]byte("## User\n\nx\n\n## Agent\n\n**Use Tool: t (a)**\n```json\n{\n**Tool Results: a (Error)**\n<think>\n"))
	fuzzReader(f, readZed)
}

func FuzzVSCodeChat(f *testing.F) {
	f.Add([]byte(vscodeAgentSession))
	f.Add([]byte(`{"responderUsername": 1, "requests": [{"message": "hi", "response": [{"kind": "toolInvocationSerialized", "resultDetails": {"input": 7, "output": [{"value": {"node": {"type": 2}}}]}, "toolSpecificData": {"commandLine": null}}, {"value": 3}, null],
	  "result": {"metadata": {"toolCallRounds": [{"thinking": {"text": [1, "a"]}, "toolCalls": [{"id": "", "arguments": {}}, null]}],
	  "toolCallResults": {"": {"content": [{"value": {"node": {"type": 1, "ctor": 3, "children": [{"type": 2, "text": 5}]}}}, 7, {"mimeType": "image/x"}]}}}}}, {"result": {"metadata": null}}]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readVSCodeChat(name, br, 0) })
}

func FuzzVSCodeJournal(f *testing.F) {
	f.Add([]byte(`{"kind":0,"v":{"responderUsername":"c","requests":[{"message":{"text":"a"},"response":[]}]}}` + "\n" +
		`{"kind":2,"k":["requests"],"v":[{"message":{"text":"b"}}],"i":1}` + "\n" + `{"kind":1,"k":["requests",1,"result"],"v":{"metadata":{"toolCallRounds":[]}}}` + "\n" +
		`{"kind":3,"k":["requests",0]}` + "\n" + `{"kind":1,"k":["x","y",2],"v":1}` + "\n" + `{"kind":2,"k":[1.5],"v":3}` + "\n" + `{"kind":9}`))
	fuzzReader(f, readVSCodeJournal)
}

func FuzzVSCodeReplay(f *testing.F) {
	f.Add([]byte(vscodeReplayExport))
	f.Add([]byte(`{"prompts": [{"prompt": 3, "logs": [{"kind": "request", "name": "panel/x", "response": {"type": "failure"}, "thinking": {"text": null}}, {"kind": "toolCall", "response": [7, {"node": null}, {"value": "x"}, "y"]}, {"kind": "toolCall", "response": "z"}, null]}, null]}`))
	f.Add([]byte(`{"prompt": "p", "logs": [{"kind": "toolCall", "args": [1], "response": {}}], "logCount": 1}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readVSCodeReplay(name, br, 0) })
}

func FuzzAmazonQ(f *testing.F) {
	f.Add([]byte(amazonQPairs))
	f.Add([]byte(amazonQObjects))
	f.Add([]byte(`{"conversation_id": 1, "next_message": {"content": {"CancelledToolUses": null}}, "history": [[], [null, {"ToolUse": {"tool_uses": [{"id": "a", "args": "x"}, null]}}], [{"content": {"ToolUseResults": {"tool_use_results": [{"tool_use_id": "a", "content": [{"Json": 3}, {"Json": {"exit_status": null}}, null, {"Image": {}}]}]}}}], 7, {"user": 3, "assistant": []}], "model": {"id": 1}}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readAmazonQ(name, br, 0) })
}

func FuzzPydanticAI(f *testing.F) {
	f.Add([]byte(pydanticHistory))
	f.Add([]byte(`[{"kind": "response", "parts": [{"part_kind": "tool-call", "args": 3}, 7]}, {"kind": "request", "parts": null}]`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) {
		data, _ := io.ReadAll(br)
		return readPydanticAI(name, data)
	})
}

func FuzzMiniFunctionCall(f *testing.F) {
	f.Add("I will look.\n----BEGIN_FUNCTION_CALL----\nshow_file\n----ARG----\nfile_path\n----VALUE----\na.py\n----END_FUNCTION_CALL----")
	f.Add("----BEGIN_FUNCTION_CALL----\n\n----ARG----\n----VALUE----\n----VALUE----")
	f.Add("x ----BEGIN_FUNCTION_CALL---- finish ----ARG---- result")
	f.Fuzz(func(t *testing.T, text string) {
		if _, call, ok := miniFunctionCall(text); ok {
			if call.Tool == "" || !json.Valid(call.Args) {
				t.Fatalf("call %q with arguments %q", call.Tool, call.Args)
			}
		}
		_ = miniFunctionResult(text)
	})
}

func FuzzMiniConsole(f *testing.F) {
	f.Add([]byte(miniPasted))
	f.Add(gunzip(f, "testdata/real/mini-swe-agent-console/create-bucket-agent.log.gz"))
	fuzzReader(f, readMiniConsole)
}

func FuzzCodexMarkdown(f *testing.F) {
	f.Add([]byte(codexMDHead + "#### Tool: exec_command\n\n```sh\nls\n```\n\nOutput:\n\n```text\nProcess exited with code 2\nOutput:\nx\n```\n"))
	f.Add([]byte("# Codex Conversation Export\n#### Tool: \n````\nOutput:\n"))
	fuzzReader(f, readCodexMarkdown)
}

func FuzzOpencodeMarkdown(f *testing.F) {
	f.Add([]byte(opencodeMDHead + "## Assistant (Build · m · 1s)\n\n" + opencodeMDCall("bash", `{"command": "ls"}`, "Output", "```\nx")))
	f.Add([]byte("# t\n**Session ID:** ses_1\n## Assistant (\n**Tool: **\n**Input:**\n```\n**Error:**\n"))
	fuzzReader(f, readOpencodeMarkdown)
}

func FuzzCopilotMarkdown(f *testing.F) {
	f.Add([]byte(copilotMDHead + "<sub>⏱️ 9s</sub>\n\n### 📦 task\n\n### ❌ `edit`\n\n/a\n\n```\nno\n"))
	f.Add([]byte("# 🤖 Copilot CLI Session\n### ✅ `\n<summary>Arguments</summary>\n```\n{\n```\n"))
	fuzzReader(f, readCopilotMarkdown)
}

func FuzzAmpMarkdown(f *testing.F) {
	f.Add([]byte(ampMDHead + ampCall("edit_file", `{"old_str": "[... old_str omitted in markdown version ...]"}`) + "## User\n\n" +
		ampResult("toolu_1", `{"diff": "x", "lineRange": [1, 2]}`) + "**Tool Error:** `toolu_2`\n\n**Error:** {}\n\n**Tool:** `toolu_3` (\n\n## Todos\n- [ ] a\n"))
	f.Add([]byte("---\nthreadId: T-1\n---\n## Assistant\n**Tool Use:** `\n```\n## User\n**Tool Result:** `a`\n```\n[{\"type\": 1}]\n*(interrupted)*\n<attached_files>\n"))
	fuzzReader(f, readAmpMarkdown)
}

func FuzzHookTranscript(f *testing.F) {
	f.Add([]byte(`{"type":"user","timestamp":"2026-04-18T09:09:17.678Z","content":"go"}` + "\n" +
		`{"type":"tool_use","timestamp":"t","tool_name":"bash","tool_input":{"command":"ls"}}` + "\n" +
		`{"type":"tool_result","timestamp":"t","tool_name":"bash","tool_input":{"command":"ls","x":1},"tool_output":{"output":"a"}}` + "\n" +
		`{"type":"tool_result","tool_name":"edit","tool_input":null,"tool_output":["x"]}` + "\n"))
	f.Add([]byte(`{"type":"tool_use","tool_name":"","tool_input":1}` + "\n" + `{"type":"tool_result","tool_name":3}` + "\n[]\n{}\n"))
	fuzzReader(f, readHookTranscript)
}

func FuzzGeminiMarkdown(f *testing.F) {
	f.Add([]byte(geminiShared))
	f.Add([]byte("✨ ## MODEL\n\n**Tool Command**:\n```json\n{\"name\": 3}\n```**Tool Command**:\n```json\n{\"name\": \"x\", \"args\": [1]\n\n---\n\n🧑‍💻 ## USER\n\n**Tool Response**:\n```json\nnot json\n```**Tool Response**:\n```json\n{\"response\": {\"error\": null, \"output\": {\"a\": 1}}}\n```"))
	fuzzReader(f, readGeminiMarkdown)
}

func FuzzSpanTrajectory(f *testing.F) {
	f.Add([]byte(`{"total_spans": 2, "trajectory": [{"type": "llm_call", "output": {"content": "x", "tool_calls": [{"function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}]}}, {"type": "tool_call", "tool": "bash", "arguments": {"command": "ls"}, "result": {"stdout": "a", "exitCode": 0}}]}`))
	f.Add([]byte(`{"total_spans": 1, "trajectory": [{"type": "tool_call", "tool": "bash", "arguments": 3, "result": [1]}, {"type": "llm_call", "output": null, "task_prompt": [{"role": "user", "content": 7}]}, null]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readSpanTrajectory(name, br, 0) })
}

func FuzzAgentZero(f *testing.F) {
	f.Add([]byte(`{"id": "x", "agents": [{"number": 0, "data": {}, "history": "{\"_cls\": \"History\", \"bulks\": [{\"_cls\": \"Bulk\", \"records\": [{\"_cls\": \"Topic\", \"messages\": [{\"ai\": true, \"content\": \"{\\\"tool_name\\\": \\\"t\\\", \\\"tool_args\\\": {\\\"a\\\": \\\"}\\\"}\"}]}]}], \"topics\": [], \"current\": {\"messages\": [{\"ai\": false, \"content\": {\"tool_name\": \"t\", \"tool_result\": 1}}, {\"ai\": true, \"content\": \"\"}, {\"ai\": false, \"content\": {\"system_warning\": \"w\"}}]}}"}, {"number": 1, "history": 2}]}`))
	f.Add([]byte(`{"agents": [{"number": 0, "history": "{\"current\": {\"messages\": [{\"ai\": true, \"content\": \" x \\\"tool_name\\\": \\\"y\\\" \\\"tool_args\\\": {\\\"k\\\": \\\"\\\\\\\"\"}]}}"}]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readAgentZero(name, br, 0) })
}
