package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// Gemini CLI (gemini -p) against the scripted Gemini API.

func TestGeminiCLIHookContext(t *testing.T) {
	s := testHookContext(t, HostGeminiCLI)
	// Gemini CLI appends the context to the functionResponse output.
	for k, r := range s.srv.LastAgentRequest().ToolResults() {
		want := fmt.Sprintf("\n\n<hook_context>%s%d</hook_context>", MarkerPrefix, k+1)
		if !strings.HasSuffix(r.Text, want) {
			t.Errorf("tool result %d = %q, want it to end with %q", k+1, r.Text, want)
		}
	}
	saveHookSamples(t, s, "")
}

func TestGeminiCLIHookDeny(t *testing.T) {
	s := testHookDeny(t, HostGeminiCLI)
	want := "Tool execution blocked: " + DenyReason
	for i, r := range s.srv.LastAgentRequest().ToolResults() {
		if !r.IsError || r.Text != want {
			t.Errorf("denied tool result %d = %q (error %v), want functionResponse error %q", i+1, r.Text, r.IsError, want)
		}
	}
	pre := s.hook.CapturedRaw(t, "BeforeTool")
	CheckHookSample(t, "gemini-cli", "BeforeTool.deny", pre[0], s.scrubber())
}

func TestGeminiCLIResume(t *testing.T) {
	testResume(t, HostGeminiCLI)
}

// TestGeminiCLISubagent: the model invokes the "generalist" subagent with
// invoke_agent; inside it the model runs the command and finishes with
// complete_task. Gemini CLI's hook stdin carries no agent id: the
// subagent's calls look like the main agent's.
func TestGeminiCLISubagent(t *testing.T) {
	cmd, file := sideEffectCommand(t)
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 1, Decide: func(r *Request) *Reply {
		if r.HasTool("complete_task") { // the subagent
			if len(r.TurnToolResults()) >= 1 {
				return &Reply{ToolName: "complete_task", ToolInput: map[string]any{"result": map[string]any{"response": "E2E-SUB-DONE"}}}
			}
			return nil
		}
		if len(r.TurnToolResults()) == 0 {
			return &Reply{ToolName: "invoke_agent", ToolInput: map[string]any{"agent_name": "generalist", "prompt": subagentPrompt}}
		}
		return nil
	}})
	a := NewAgent(t, HostGeminiCLI, srv)
	hook := WriteHookScript(t, t.TempDir(), HostGeminiCLI)
	a.InstallHooks(t, hook.Config(hookTimeout(HostGeminiCLI), hookEvents(HostGeminiCLI)))
	s := &scenario{srv: srv, agent: a, hook: hook, cmd: cmd, file: file}
	res := s.run(t, "Delegate the e2e command to a subagent.")

	if got := lineCount(t, file); got != 1 {
		t.Errorf("side-effect file has %d lines, want 1 (run once by the subagent)", got)
	}
	if !strings.Contains(res.Final, "E2E-DONE") {
		t.Errorf("final answer %q", res.Final)
	}
	last := srv.LastAgentRequest()
	if rs := last.ToolResults(); len(rs) != 1 || rs[0].ToolName != "invoke_agent" || !strings.Contains(rs[0].Text, "E2E-SUB-DONE") {
		t.Errorf("main agent's last request: tool results %+v, want the invoke_agent result with the subagent's answer", rs)
	}
	pre := hook.Captured(t, "BeforeTool")
	if len(pre) != 3 {
		t.Fatalf("BeforeTool ran %d times, want 3 (invoke_agent, run_shell_command, complete_task)", len(pre))
	}
	var names []string
	for _, in := range pre {
		names = append(names, str(in, "tool_name"))
		if _, ok := in["agent_id"]; ok {
			t.Errorf("Gemini CLI hook stdin now has agent_id: %v", in)
		}
		if str(in, "session_id") != str(pre[0], "session_id") {
			t.Errorf("session ids differ: %v", in)
		}
	}
	t.Logf("BeforeTool tool names: %v", names)
	for i, in := range pre {
		if str(in, "tool_name") == "run_shell_command" {
			CheckHookSample(t, "gemini-cli", "BeforeTool.subagent", hook.CapturedRaw(t, "BeforeTool")[i], s.scrubber())
		}
		if str(in, "tool_name") == "invoke_agent" {
			CheckHookSample(t, "gemini-cli", "BeforeTool.invoke_agent", hook.CapturedRaw(t, "BeforeTool")[i], s.scrubber())
		}
	}
}

func TestGeminiCLIFailingCommand(t *testing.T) {
	testFailingCommand(t, HostGeminiCLI)
}
