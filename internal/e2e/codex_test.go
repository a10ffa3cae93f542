package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Codex CLI (codex exec) against the scripted OpenAI Responses API.

func TestCodexHookContext(t *testing.T) {
	s := testHookContext(t, HostCodex)
	// Codex sends the context as a developer message; in the request it
	// sits between the function_call and its function_call_output.
	r := s.srv.LastAgentRequest()
	for k := 1; k <= 3; k++ {
		marker := fmt.Sprintf("%s%d", MarkerPrefix, k)
		found := false
		for i, it := range r.Items {
			if it.Role == "developer" && it.Text == marker {
				found = true
				if i+1 >= len(r.Items) || r.Items[i+1].Type != "tool_result" || r.Items[i+1].CallID != r.ToolCalls()[k-1].CallID {
					t.Errorf("developer message %q is not followed by the output of call %d", marker, k)
				}
			}
		}
		if !found {
			t.Errorf("no developer message %q in the last request", marker)
		}
	}
	saveHookSamples(t, s, "")
}

func TestCodexHookDeny(t *testing.T) {
	s := testHookDeny(t, HostCodex)
	for i, r := range s.srv.LastAgentRequest().ToolResults() {
		if want := "Command blocked by PreToolUse hook: " + DenyReason + ". Command: " + s.cmd; r.Text != want {
			t.Errorf("denied tool result %d = %q, want %q", i+1, r.Text, want)
		}
	}
	pre := s.hook.CapturedRaw(t, "PreToolUse")
	CheckHookSample(t, "codex", "PreToolUse.deny", pre[0], s.scrubber())
}

// TestCodexHookTrustRequired proves the trust gate is real: the same hooks
// without the [hooks.state] entries (and without
// --dangerously-bypass-hook-trust) do not run at all, so
// TestCodexHookContext passing means CodexTrustState's entries were
// accepted.
func TestCodexHookTrustRequired(t *testing.T) {
	cmd, file := sideEffectCommand(t)
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 1})
	a := NewAgent(t, HostCodex, srv)
	hook := WriteHookScript(t, t.TempDir(), HostCodex)
	cfg := hook.Config(hookTimeout(HostCodex), hookEvents(HostCodex))
	a.InstallHooks(t, cfg)
	// Keep hooks.json, drop the trust entries.
	writeFile(t, a.CodexHome+"/config.toml", []byte(a.codexConfig()))
	res := a.Run(t, "Run the e2e command.")
	res.Check(t, "codex")
	if got := lineCount(t, file); got != 1 {
		t.Errorf("side-effect file has %d lines, want 1", got)
	}
	if evs := hook.CapturedEvents(t); len(evs) != 0 {
		t.Errorf("untrusted hooks ran for %v; the trust gate is gone, so the trust test proves nothing", evs)
	}
	if !strings.Contains(res.Stderr+res.Stdout, "E2E-DONE") {
		t.Errorf("codex did not finish the script; stdout:\n%s\nstderr:\n%s", res.Stdout, res.Stderr)
	}
}

func TestCodexResume(t *testing.T) {
	testResume(t, HostCodex)
}

// TestCodexSubagent: the model spawns a subagent with Codex's
// multi_agent_v1 namespace tools (spawn_agent, then wait_agent); the
// subagent runs the command; its hooks carry agent_id (the subagent's
// thread id) and agent_type.
func TestCodexSubagent(t *testing.T) {
	cmd, file := sideEffectCommand(t)
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 1, Decide: func(r *Request) *Reply {
		if r.Count(subagentPrompt) > 0 {
			return nil // the subagent: run the command, then answer
		}
		switch res := r.TurnToolResults(); len(res) {
		case 0:
			return &Reply{ToolName: "spawn_agent", Namespace: "multi_agent_v1",
				ToolInput: map[string]any{"message": subagentPrompt}}
		case 1:
			var spawned struct {
				AgentID string `json:"agent_id"`
			}
			json.Unmarshal([]byte(res[0].Text), &spawned)
			return &Reply{ToolName: "wait_agent", Namespace: "multi_agent_v1",
				ToolInput: map[string]any{"targets": []any{spawned.AgentID}, "timeout_ms": 60000}}
		}
		return &Reply{Text: "E2E-DONE"}
	}})
	a := NewAgent(t, HostCodex, srv)
	hook := WriteHookScript(t, t.TempDir(), HostCodex)
	a.InstallHooks(t, hook.Config(hookTimeout(HostCodex), hookEvents(HostCodex)))
	s := &scenario{srv: srv, agent: a, hook: hook, cmd: cmd, file: file}
	s.run(t, "Delegate the e2e command to a subagent.")

	if got := lineCount(t, file); got != 1 {
		t.Errorf("side-effect file has %d lines, want 1 (run once by the subagent)", got)
	}
	spawn := srv.RequestAfterToolResults(1)
	if spawn == nil || len(spawn.ToolResults()) == 0 {
		t.Fatalf("no request carried the spawn_agent result:\n%s", srv.Summary())
	}
	var spawned struct {
		AgentID string `json:"agent_id"`
	}
	if err := json.Unmarshal([]byte(spawn.ToolResults()[0].Text), &spawned); err != nil || spawned.AgentID == "" {
		t.Fatalf("spawn_agent output %q: %v", spawn.ToolResults()[0].Text, err)
	}
	last := srv.LastAgentRequest()
	if rs := last.ToolResults(); len(rs) != 2 || !strings.Contains(rs[1].Text, `"completed":"E2E-DONE"`) {
		t.Errorf("main agent's last request: tool results %+v, want the wait_agent result with the subagent's answer", rs)
	}

	var main, sub []map[string]any
	for _, in := range hook.Captured(t, "PreToolUse") {
		if str(in, "agent_id") == "" {
			main = append(main, in)
		} else {
			sub = append(sub, in)
		}
	}
	if len(sub) != 1 || str(sub[0], "tool_name") != "Bash" || str(sub[0], "agent_id") != spawned.AgentID || str(sub[0], "agent_type") != "default" {
		t.Errorf("subagent PreToolUse stdin = %v, want one Bash call with agent_id %s, agent_type default", sub, spawned.AgentID)
	}
	// Namespaced tools reach hooks as "spawn_agent" and "multi_agent_v1wait_agent" (sic).
	var names []string
	for _, in := range main {
		names = append(names, str(in, "tool_name"))
	}
	if strings.Join(names, ",") != "spawn_agent,multi_agent_v1wait_agent" {
		t.Errorf("main agent's PreToolUse tool names %v", names)
	}
	for _, in := range main {
		if str(in, "session_id") != str(sub[0], "session_id") {
			t.Errorf("subagent session_id %q differs from the parent's %q", str(sub[0], "session_id"), str(in, "session_id"))
		}
	}
	for _, ev := range []string{"SubagentStart", "SubagentStop"} {
		if raws := hook.CapturedRaw(t, ev); len(raws) > 0 {
			CheckHookSample(t, "codex", ev, raws[0], s.scrubber())
		} else {
			t.Logf("no %s hook ran", ev)
		}
	}
	for i, in := range hook.Captured(t, "PreToolUse") {
		if str(in, "agent_id") != "" {
			CheckHookSample(t, "codex", "PreToolUse.subagent", hook.CapturedRaw(t, "PreToolUse")[i], s.scrubber())
		}
	}
}

func TestCodexFailingCommand(t *testing.T) {
	testFailingCommand(t, HostCodex)
}
