package e2e

import (
	"strings"
	"testing"
)

// Claude Code (claude -p) against the scripted Anthropic Messages API.

func TestClaudeCodeHookContext(t *testing.T) {
	s := testHookContext(t, HostClaudeCode)
	// Claude Code 2.1 sends the context as a role "system" message right
	// after the user message that carries the tool result.
	r := s.srv.RequestAfterToolResults(1)
	after := r.ItemsAfterToolResult(1)
	want := "PostToolUse:Bash hook additional context: " + MarkerPrefix + "1"
	if len(after) == 0 || after[0].Role != "system" || !strings.Contains(after[0].Text, want) {
		t.Errorf("items after the first tool result = %+v, want a system message %q", after, want)
	}
	saveHookSamples(t, s, "")
}

func TestClaudeCodeHookDeny(t *testing.T) {
	s := testHookDeny(t, HostClaudeCode)
	want := "PreToolUse:Bash hook error: " + DenyReason
	for i, r := range s.srv.LastAgentRequest().ToolResults() {
		if !r.IsError || r.Text != want {
			t.Errorf("denied tool result %d = %q (is_error %v), want %q (is_error true)", i+1, r.Text, r.IsError, want)
		}
	}
	pre := s.hook.CapturedRaw(t, "PreToolUse")
	CheckHookSample(t, "claude-code", "PreToolUse.deny", pre[0], s.scrubber())
}

// subagentPrompt marks the subagent's conversation.
const subagentPrompt = "E2E-SUBAGENT: run the e2e command"

// TestClaudeCodeSubagent: the model starts a subagent with the Agent tool;
// inside it the model runs the shell command; the hooks see the subagent's
// calls with an agent_id, and SubagentStart/SubagentStop fire.
func TestClaudeCodeSubagent(t *testing.T) {
	cmd, file := sideEffectCommand(t)
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 1, Decide: func(r *Request) *Reply {
		// The main agent (whose conversation does not start with the
		// subagent prompt) delegates once, then answers.
		if r.Count(subagentPrompt) > 0 {
			return nil // the subagent: the default script
		}
		if len(r.TurnToolResults()) == 0 {
			return &Reply{ToolName: "Agent", ToolInput: map[string]any{
				"description":       "Run the e2e command",
				"prompt":            subagentPrompt,
				"subagent_type":     "general-purpose",
				"run_in_background": false,
			}}
		}
		return nil
	}})
	a := NewAgent(t, HostClaudeCode, srv)
	hook := WriteHookScript(t, t.TempDir(), HostClaudeCode)
	a.InstallHooks(t, hook.Config(hookTimeout(HostClaudeCode), hookEvents(HostClaudeCode)))
	s := &scenario{srv: srv, agent: a, hook: hook, cmd: cmd, file: file}
	res := s.run(t, "Delegate the e2e command to a subagent.")

	if got := lineCount(t, file); got != 1 {
		t.Errorf("side-effect file has %d lines, want 1 (run once by the subagent)", got)
	}
	if !strings.Contains(res.Final, "E2E-DONE") {
		t.Errorf("final answer %q", res.Final)
	}
	var sub []*Request
	for _, r := range srv.AgentRequests() {
		if r.Count(subagentPrompt) > 0 {
			sub = append(sub, r)
			t.Logf("subagent request #%d offers tools %v", r.Seq, r.Tools)
		}
	}
	if len(sub) < 2 {
		t.Fatalf("want the subagent's own model requests (a call, then with the result); got:\n%s", srv.Summary())
	}
	for _, ev := range []string{"PreToolUse", "PostToolUse"} {
		var bash []map[string]any
		for _, in := range hook.Captured(t, ev) {
			if str(in, "tool_name") == "Bash" {
				bash = append(bash, in)
			}
		}
		if len(bash) != 1 {
			t.Fatalf("%s hook saw %d Bash calls, want 1", ev, len(bash))
		}
		if str(bash[0], "agent_id") == "" || str(bash[0], "agent_type") != "general-purpose" {
			t.Errorf("%s stdin inside the subagent: agent_id %q agent_type %q", ev, str(bash[0], "agent_id"), str(bash[0], "agent_type"))
		}
	}
	starts, stops := hook.Captured(t, "SubagentStart"), hook.Captured(t, "SubagentStop")
	if len(starts) != 1 || len(stops) != 1 {
		t.Fatalf("SubagentStart ran %d times, SubagentStop %d, want 1 each", len(starts), len(stops))
	}
	pre := hook.Captured(t, "PreToolUse")
	var agentID string
	for _, in := range pre {
		if str(in, "tool_name") == "Bash" {
			agentID = str(in, "agent_id")
		}
	}
	if str(starts[0], "agent_id") != agentID || str(stops[0], "agent_id") != agentID {
		t.Errorf("agent ids: SubagentStart %q, SubagentStop %q, Bash hooks %q", str(starts[0], "agent_id"), str(stops[0], "agent_id"), agentID)
	}
	// The main agent's own Agent call is seen by the hooks without agent_id.
	for _, in := range pre {
		if str(in, "tool_name") == "Agent" && str(in, "agent_id") != "" {
			t.Errorf("the main agent's Agent call carries agent_id %q", str(in, "agent_id"))
		}
	}
	for _, ev := range []string{"SubagentStart", "SubagentStop"} {
		CheckHookSample(t, "claude-code", ev, hook.CapturedRaw(t, ev)[0], s.scrubber())
	}
	for i, in := range pre {
		if str(in, "tool_name") == "Bash" {
			CheckHookSample(t, "claude-code", "PreToolUse.subagent", hook.CapturedRaw(t, "PreToolUse")[i], s.scrubber())
		}
	}
}

func TestClaudeCodeResume(t *testing.T) {
	testResume(t, HostClaudeCode)
}

func TestClaudeCodeFailingCommand(t *testing.T) {
	testFailingCommand(t, HostClaudeCode)
}
