package transcript

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/testenv"
)

// FuzzRead feeds arbitrary bytes to ReadFrom: it must return a transcript or an *Error
// naming the input, and never panic. Panics are not recovered here (recoverPanics is off).
// The seed corpus is testdata/fuzz/FuzzRead plus every fixture, plain and gzipped.
func FuzzRead(f *testing.F) {
	_ = filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, string(filepath.Separator)+"fuzz"+string(filepath.Separator)) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f.Add(data)
		f.Add(testenv.Gzip(f, data))
		return nil
	})
	f.Add([]byte("\xff\xfe[\x00{\x00\"\x00r\x00")) // UTF-16LE, cut short
	f.Add([]byte("\xfe\xff\x00[\x00]\xd8\x00"))    // UTF-16BE with an unpaired surrogate
	f.Add([]byte("\xff\xfe"))                      // a byte-order mark alone
	f.Add([]byte(`{"id": "r", "run_type": "chain", "inputs": {"messages": [["human", "x"], {"kwargs": 1}]}, "child_runs": [{"run_type": "tool", "name": "t", "inputs": {"input": 1}, "outputs": {"output": {"kwargs": {"content": [1]}}}, "error": {"a": 1}, "start_time": 1.5e9}, {"run_type": "llm", "outputs": {"generations": [[]]}}]}`))
	f.Add([]byte(`{"run_type": "tool", "trace_id": "A", "dotted_order": "2", "outputs": "x", "inputs": null}` + "\n" + `{"run_type": "llm", "trace_id": "B", "dotted_order": "1", "outputs": {"generations": [[{"message": {"content": null}}]]}}`))
	f.Add([]byte(`{"id": "m", "inference_log": [[{"role": "state_info"}], {"begin_of_turn_query": [{"role": "user", "content": "x"}], "step_0": [{"role": "assistant", "content": [{"cd": "{}"}]}, {"role": "tool", "content": 1}]}]}`))
	f.Add([]byte(`{"tree": {"tree": {"node_type": "Action", "description": "t", "children": [{"node_type": "Action Input", "description": "{}", "observation_code": 3, "children": [{"children": null}]}]}}, "answer_generation": {}}`))
	f.Add([]byte(`{"id":"s","workspaceRootPath":"~","sdkSessionId":"x"}` + "\n" + `{"type":"tool","order":2,"toolName":"Read","toolInput":[1],"toolResult":{"a":1},"toolStatus":"running"}` + "\n" + `{"type":"assistant","order":1,"content":[{"type":"text","text":"x"}]}`))
	f.Add([]byte("x\nAct 1: think: a\nObs 1: OK.\nAct 2: go to b\nObs 2: c\nAct 1: d\nObs 9: e\nAct 0: f\nObs x: g\nAct 2:"))
	f.Add([]byte("# Cascade Chat Conversation\n\nNote: _This is purely the output of the chat conversation x_\n\n### User Input\n\n*User accepted the command `a\n\n*Viewed [x](file://) *\n```\n*Edited relevant file*\n### Planner Response\n*"))
	f.Add([]byte("\x1b[95m# Agent:\x1b[00m a\n## Task: t\n## Using tool: x\n## Tool Input: \n\"{\\\"a\\\": 1\"\n## Tool Output: \nError: y\n\u2502 box\n## Using tool: z\n# Agent: b\n## Final Answer: f"))
	f.Add([]byte("### Environment Interaction 1\n---\n```python\nx\n```\n\n```\nExecution failed.\n```\n### Environment Interaction 2\n```python\n```\n"))
	f.Add([]byte(`{"trys": [{"chain": [{"node_type": "Action", "description": "t"}, {"node_type": "Action Input", "description": "{}", "observation": 1}]}, 2], "answer_generation": {"train_messages": []}}`))
	f.Add([]byte(`{"1": {"answer": {"answer_details": [{"role": "tool", "message": {"name": "t", "arguments": 1}, "next": [{"role": "assistant", "message": ["x"], "next": null}]}]}}}`))
	f.Add([]byte(`{"id": "b", "result": "Error during inference: 500", "traceback": "T"}` + "\n" + `{"id": "c", "inference_log": null}`))
	// Open Interpreter: LMC messages, and a 0.1.x code turn
	f.Add([]byte(`[{"role": "assistant", "type": "code", "format": "shell", "content": "ls"}, {"role": "computer", "type": "console", "format": "output", "content": "a"}, {"role": "computer", "type": "image", "content": 1}, {"role": "computer", "type": "console", "format": 2}]`))
	f.Add([]byte(`[{"role": "assistant", "message": "m", "language": "python", "code": "x", "output": ["o"]}, {"role": "user", "message": 3}]`))
	f.Add([]byte(`{"0": {"query": "q", "turn_history": {"thoughts": ["t"], "actions": ["execute[ls]", "x"], "observations": ["a"], "valid_action": [false, 1]}}}`))
	f.Add([]byte(`{"1": {"traj": "Q\nThought 1: x\nAction 1: s[y]\nObservation 1: z\nAction: t\nObservation: w"}}`))
	// one chat a step a line (Replit Agent's memory), Codex's commands under a bare Ran
	f.Add([]byte(`{"memory_id": 1, "messages": [{"role": "user", "content": "x"}]}` + "\n" + `{"memory_id": 2, "messages": [{"role": "tool", "content": [1]}, {"role": "assistant", "tool_calls": [{"type": "tool", "name": "b"}]}]}`))
	f.Add([]byte("• Ran\n  └ python3 - <<'PY'\n    x\n    PY\n\n      File \"<stdin>\"\n\n• Ran\n  └ cat <<<\n• Ran git status\n  └ ok\n"))
	f.Add([]byte(`{"step_index": 3, "source": "MODEL", "type": "VIEW_FILE", "status": "DONE", "content": "a"}` + "\n" + `{"source": "MODEL", "type": "PLANNER_RESPONSE", "status": "DONE", "tool_calls": [{"name": "v", "args": {}}]}` + "\n" + `{"step_index": 1, "source": "USER_EXPLICIT", "type": "USER_INPUT", "status": "DONE"}`))
	f.Add([]byte(autogenTaskResult))
	f.Add([]byte(magenticRun))                    // magentic-one
	f.Add([]byte(`{"history": ` + ag2Team + `}`)) // ag2-chat
	f.Add([]byte(smolCodeAgentRun))
	f.Add([]byte(langchainPrintedRun))
	f.Add([]byte(autogenConsoleRun))
	f.Add([]byte(autogenConsoleSourceOnlyRun))
	f.Add([]byte(`{"trajectory": [{"action": "ls", "observation": "a"}, {"action": "", "observation": ""}, {"action": "cat a", "observation": "b"}, {"action": ""}],
 "history": [{"role": "assistant", "action": "ls", "agent": "main", "tool_calls": [{"id": "1", "function": {"name": "bash", "arguments": "{}"}}]}, {"role": "assistant", "action": "cat a", "agent": "x"}, {"role": "assistant", "action": ""}]}`))
	f.Add([]byte(langgraphStreamedRun))
	f.Add([]byte("━━ Step 0 ━━\n╭─ Executing this code: ─╮\n│   1 x = 1 │\n│     wrapped │\n│  10 │\n╰──╯\nOut: None\n╭─ Executing this code: ─╮\n│ 1│\n"))
	f.Add([]byte(ag2Conversation))
	f.Add([]byte(llamaindexPrintout))
	f.Add([]byte(aiInventorTranscript))
	f.Add([]byte("Got output: x\nCalling function: f with args: \nAction Input: y\nAction: g\nObservation: z\n```\nAction Input: w\n"))
	f.Add([]byte("a (to b):\n\n***** Suggested function call: f *****\nArguments:\n\n---\nEXECUTING CODE BLOCK\nb (to a):\nResponse from calling function (f)\n"))
	f.Add([]byte("---------- ToolCallRequestEvent (a) ----------\n[FunctionCall(id='\\x4', arguments=\"\\u00e9\", name=(x)), FunctionCall(\n```\n---------- ToolCallExecutionEvent (a) ----------\n[FunctionExecutionResult(content='x\n"))
	f.Add([]byte("== Ai Message ==\nName: \nTool Calls:\nx ()\nCall ID:\nArgs:\na: b\n c\n== Tool Message ==\n== Tool Message ==\nName: y\n"))
	f.Add([]byte("━ Step 1 ━\n ─ Executing parsed code: ─\n  x\n╭ New run - a ╮\n│ Calling tool: 'b' with arguments:\n╰\nObservations: c\nError: d\nFinal answer: e\n[Step 1: Duration 1\n─ Output message of the LLM: ─\nf\n ─\n"))
	f.Add([]byte(`{"messages": [{"source": "a", "type": "ToolCallRequestEvent", "content": [7, {"id": 1, "arguments": {"x": [1]}}]}, {"source": 3, "type": "ToolCallExecutionEvent", "content": "x"}]}`))
	f.Add([]byte(pydanticHistory))
	f.Add([]byte(`{"type": "tool_call", "tool_name": "a", "args": 1, "tool_call_id": "x"}` + "\n" + `{"type": "tool_call", "tool": "b", "input": "{}"}` + "\n" + `{"event": "tool_result", "id": "x", "error": {"m": 1}, "output": [2]}` + "\n" + `{"type": "message", "role": "assistant", "content": 3}`))
	f.Add([]byte(`{"run": 1}` + "\n" + `{"tool_name": "a", "tool_args": [1], "tool_output": null, "is_error": "yes"}` + "\n" + `{"action": "ls", "observation": ["a", 1]}`))
	recoverPanics = false
	f.Cleanup(func() { recoverPanics = true })
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "fuzz-input"
		tr, err := ReadFrom(name, bytes.NewReader(data))
		if err != nil {
			var fe *Error
			if !errors.As(err, &fe) || fe.Path != name || !strings.HasPrefix(err.Error(), name+":") {
				t.Fatalf("error %v does not name the input", err)
			}
			if tr != nil {
				t.Fatal("a transcript with an error")
			}
			return
		}
		if tr.Format == "" || tr.Path != name {
			t.Fatalf("transcript without format or path: %+v", tr)
		}
		type key struct {
			session int
			id      string
		}
		seen := map[key]bool{}
		for _, a := range tr.Agents {
			if seen[key{a.Session, a.ID}] {
				t.Fatalf("agent %q of session %d twice", a.ID, a.Session)
			}
			if a.Session < 0 || a.Session >= tr.Sessions {
				t.Fatalf("agent %q in session %d of %d", a.ID, a.Session, tr.Sessions)
			}
			seen[key{a.Session, a.ID}] = true
			for _, e := range a.Events {
				if e.Agent != a.ID {
					t.Fatalf("agent %q holds an event of %q", a.ID, e.Agent)
				}
				if e.Type < loopguard.EventCall || e.Type > loopguard.EventEnd {
					t.Fatalf("bad event type %d", e.Type)
				}
			}
		}
	})
}
