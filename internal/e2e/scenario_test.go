package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Shared end-to-end scenarios, run for each CLI by claude_test.go,
// codex_test.go and gemini_test.go.

// sideEffectCommand returns a shell command that appends a line to a fresh
// file and prints the file, and that file's path.
func sideEffectCommand(t *testing.T) (cmd, file string) {
	dir := t.TempDir()
	file = filepath.Join(dir, "side-effect.txt")
	return fmt.Sprintf("echo hi >> %s; cat %s", shellQuote(file), shellQuote(file)), file
}

// stuckCommand returns a shell command that appends a line to a fresh file
// (so the test can count its runs) and prints the same thing every time:
// an agent that repeats it learns nothing new, the loop the default preset
// reminds. (sideEffectCommand's output grows with each run: progress.)
func stuckCommand(t *testing.T) (cmd, file string) {
	dir := t.TempDir()
	file = filepath.Join(dir, "side-effect.txt")
	return fmt.Sprintf("echo hi >> %s; echo no matches found", shellQuote(file)), file
}

// lineCount returns the number of lines in file (0 if it does not exist).
func lineCount(t *testing.T, file string) int {
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// hookEvents returns the events the test hook is installed for on host,
// with their matchers ("" = none). Besides the tool events it captures
// the lifecycle events, to record their stdin.
func hookEvents(host Host) map[string]string {
	switch host {
	case HostClaudeCode:
		return map[string]string{
			"PreToolUse": "*", "PostToolUse": "*", "PostToolUseFailure": "*",
			"SessionStart": "", "UserPromptSubmit": "", "Stop": "", "SessionEnd": "",
			"SubagentStart": "", "SubagentStop": "", "PostToolBatch": "",
		}
	case HostCodex:
		return map[string]string{
			"PreToolUse": "*", "PostToolUse": "*",
			"SessionStart": "", "UserPromptSubmit": "", "Stop": "",
			"SubagentStart": "", "SubagentStop": "",
		}
	case HostGeminiCLI:
		return map[string]string{
			"BeforeTool": "*", "AfterTool": "*",
			"SessionStart": "", "BeforeAgent": "", "AfterAgent": "", "SessionEnd": "",
		}
	}
	return nil
}

// hookTimeout is the hook timeout in the host's unit.
func hookTimeout(host Host) int {
	if host == HostGeminiCLI {
		return 30000 // ms
	}
	return 30 // s
}

// shellToolName is the tool_name the host puts on hook stdin for its shell tool.
func shellToolName(host Host) string {
	if host == HostGeminiCLI {
		return "run_shell_command"
	}
	return "Bash" // Codex normalises exec_command to Bash
}

type scenario struct {
	srv   *Server
	agent *Agent
	hook  *HookScript
	cmd   string
	file  string
	res   *AgentResult
}

// setupScenario starts a server scripted to run the side-effect command
// (plus cmdSuffix) n times, and an agent with the test hook installed.
func setupScenario(t *testing.T, host Host, n int, cmdSuffix ...string) *scenario {
	cmd, file := sideEffectCommand(t)
	cmd += strings.Join(cmdSuffix, "")
	srv := NewServer(t, Script{Command: cmd, ToolTurns: n})
	a := NewAgent(t, host, srv)
	hook := WriteHookScript(t, t.TempDir(), host)
	a.InstallHooks(t, hook.Config(hookTimeout(host), hookEvents(host)))
	return &scenario{srv: srv, agent: a, hook: hook, cmd: cmd, file: file}
}

func (s *scenario) run(t *testing.T, prompt string, extra ...string) *AgentResult {
	t.Helper()
	s.res = s.agent.Run(t, prompt, extra...)
	t.Logf("%s run took %v%s; requests:\n%s", s.agent.Host, s.res.Duration.Round(1e6), timing(s.res.Result, s.srv), s.srv.Summary())
	if os.Getenv("E2E_VERBOSE") != "" {
		t.Logf("stdout:\n%s\nstderr:\n%s", s.res.Stdout, s.res.Stderr)
	}
	s.res.Check(t, string(s.agent.Host))
	return s.res
}

// testHookContext: the post-tool hook's additionalContext reaches the
// model, once per tool result, and the command runs n times.
func testHookContext(t *testing.T, host Host) *scenario {
	const n = 3
	s := setupScenario(t, host, n)
	res := s.run(t, "Run the e2e command until you are told to stop.")

	if got := lineCount(t, s.file); got != n {
		t.Errorf("side-effect file has %d lines, want %d (the command should have run %d times)", got, n, n)
	}
	if !strings.Contains(res.Final, "E2E-DONE") {
		t.Errorf("final answer = %q, want it to contain E2E-DONE", res.Final)
	}
	for k := 1; k <= n; k++ {
		r := s.srv.RequestAfterToolResults(k)
		if r == nil {
			t.Errorf("no model request carried %d tool results", k)
			continue
		}
		for j := 1; j <= k; j++ {
			if c := r.Count(fmt.Sprintf("%s%d", MarkerPrefix, j)); c != 1 {
				t.Errorf("request after tool result %d: %s%d occurs %d times, want 1", k, MarkerPrefix, j, c)
			}
		}
		if c := r.Count(fmt.Sprintf("%s%d", MarkerPrefix, k+1)); c != 0 {
			t.Errorf("request after tool result %d already holds %s%d", k, MarkerPrefix, k+1)
		}
		// The k-th run of the command printed k lines of "hi".
		results := r.ToolResults()
		want := strings.TrimSuffix(strings.Repeat("hi\n", k), "\n")
		if got := results[k-1].Text; !strings.Contains(got, want) || strings.Contains(got, want+"\nhi") {
			t.Errorf("tool result %d = %q, want it to hold exactly %d lines of hi", k, got, k)
		}
		if results[k-1].IsError {
			t.Errorf("tool result %d is marked as an error: %q", k, results[k-1].Text)
		}
	}
	if last := s.srv.LastAgentRequest(); last == nil || len(last.ToolResults()) != n {
		t.Errorf("last model request does not carry %d tool results", n)
	}

	pre := s.hook.Captured(t, host.PreToolEvent())
	post := s.hook.Captured(t, host.PostToolEvent())
	if len(pre) != n || len(post) != n {
		t.Fatalf("hook ran %d times before and %d times after the tool, want %d each", len(pre), len(post), n)
	}
	for i, in := range append(pre, post...) {
		if got := str(in, "tool_name"); got != shellToolName(host) {
			t.Errorf("hook stdin %d: tool_name = %q, want %q", i, got, shellToolName(host))
		}
		if got := str(obj(in, "tool_input"), "command"); got != s.cmd {
			t.Errorf("hook stdin %d: tool_input.command = %q, want %q", i, got, s.cmd)
		}
		if got := str(in, "cwd"); got != s.agent.Work {
			t.Errorf("hook stdin %d: cwd = %q, want %q", i, got, s.agent.Work)
		}
	}
	return s
}

// testHookDeny: while the pre-tool hook denies, the command never runs and
// the model is told the reason for each call.
func testHookDeny(t *testing.T, host Host) *scenario {
	const n = 2
	s := setupScenario(t, host, n)
	s.hook.SetDeny(t, true)
	s.run(t, "Run the e2e command until you are told to stop.")

	if got := lineCount(t, s.file); got != 0 {
		t.Errorf("side-effect file has %d lines, want 0: the denied command ran", got)
	}
	last := s.srv.LastAgentRequest()
	if last == nil {
		t.Fatal("no model requests")
	}
	results := last.ToolResults()
	if len(results) != n {
		t.Fatalf("last request carries %d tool results, want %d", len(results), n)
	}
	for i, r := range results {
		if !strings.Contains(r.Text, DenyReason) {
			t.Errorf("tool result %d = %q, want the deny reason %q", i+1, r.Text, DenyReason)
		}
		if strings.Contains(r.Text, "hi") && !strings.Contains(r.Text, DenyReason) {
			t.Errorf("tool result %d looks like the command ran: %q", i+1, r.Text)
		}
	}
	if c := last.CountAll(MarkerPrefix); c != 0 {
		t.Errorf("a denied call got post-tool context (%d markers)", c)
	}
	if got := len(s.hook.Captured(t, host.PreToolEvent())); got != n {
		t.Errorf("pre-tool hook ran %d times, want %d", got, n)
	}
	if got := len(s.hook.Captured(t, host.PostToolEvent())); got != 0 {
		t.Errorf("post-tool hook ran %d times for denied calls, want 0", got)
	}
	return s
}

// scrubber scrubs the scenario's temp paths.
func (s *scenario) scrubber() *Scrubber {
	return s.agent.NewScrubber(map[string]string{filepath.Dir(s.file): "<SIDE>", filepath.Dir(s.hook.Path): "<HOOKDIR>"})
}

// saveHookSamples checks (or writes) one stdin sample per captured event.
func saveHookSamples(t *testing.T, s *scenario, suffix string) {
	for _, ev := range s.hook.CapturedEvents(t) {
		raws := s.hook.CapturedRaw(t, ev)
		CheckHookSample(t, string(s.agent.Host), ev+suffix, raws[0], s.scrubber())
	}
}

// testResume: a second user turn in the same session (Agent.Resume) sees
// the first turn's history, the script runs the command again, and the
// hooks get the same session id in both turns.
func testResume(t *testing.T, host Host) *scenario {
	s := setupScenario(t, host, 1)
	first := s.run(t, "E2E-TURN-ONE: run the e2e command.")
	if first.SessionID == "" {
		t.Fatalf("no session id in the first run's output:\nstdout:\n%s\nstderr:\n%s", first.Stdout, first.Stderr)
	}
	nFirst := len(s.srv.AgentRequests())
	second := s.agent.Resume(t, first.SessionID, "E2E-TURN-TWO: run it once more.")
	t.Logf("resumed run took %v%s; requests:\n%s", second.Duration.Round(1e6), timing(second.Result, s.srv), s.srv.Summary())
	second.Check(t, string(host)+" resume")
	s.res = second

	if got := lineCount(t, s.file); got != 2 {
		t.Errorf("side-effect file has %d lines, want 2 (once per turn)", got)
	}
	if second.SessionID != "" && second.SessionID != first.SessionID {
		t.Logf("note: the resumed run reports session id %s (first run: %s)", second.SessionID, first.SessionID)
	}
	reqs := s.srv.AgentRequests()[nFirst:]
	if len(reqs) < 2 {
		t.Fatalf("second turn made %d model requests, want >= 2", len(reqs))
	}
	for _, r := range reqs {
		if r.Count("E2E-TURN-ONE") < 1 || r.Count("E2E-TURN-TWO") != 1 {
			t.Errorf("second-turn request #%d: TURN-ONE x%d, TURN-TWO x%d; want the first turn's history and the new prompt",
				r.Seq, r.Count("E2E-TURN-ONE"), r.Count("E2E-TURN-TWO"))
		}
	}
	last := reqs[len(reqs)-1]
	// One tool result per turn, each with its hook context once. Except
	// that Gemini CLI 0.61 replays the first turn's functionResponse twice
	// (same id, same text) when it resumes a session.
	wantResults, wantM1 := 2, 1
	if host == HostGeminiCLI {
		wantResults, wantM1 = 3, 2
	}
	results := last.ToolResults()
	if len(results) != wantResults {
		t.Errorf("last request of turn two carries %d tool results, want %d", len(results), wantResults)
	} else if host == HostGeminiCLI && (results[0].CallID != results[1].CallID || results[0].Text != results[1].Text) {
		t.Errorf("Gemini CLI no longer duplicates the resumed tool result: %+v", results[:2])
	}
	if last.Count(MarkerPrefix+"1") != wantM1 || last.Count(MarkerPrefix+"2") != 1 {
		t.Errorf("last request: %s1 x%d, %s2 x%d, want %d and 1", MarkerPrefix, last.Count(MarkerPrefix+"1"), MarkerPrefix, last.Count(MarkerPrefix+"2"), wantM1)
	}
	post := s.hook.Captured(t, host.PostToolEvent())
	if len(post) != 2 {
		t.Fatalf("post-tool hook ran %d times, want 2", len(post))
	}
	if a, b := str(post[0], "session_id"), str(post[1], "session_id"); a == "" || a != b {
		t.Errorf("hook session_id turn 1 %q, turn 2 %q: want the same", a, b)
	}
	starts := s.hook.CapturedRaw(t, "SessionStart")
	if len(starts) != 2 {
		t.Fatalf("SessionStart hook ran %d times, want 2", len(starts))
	}
	ss := s.hook.Captured(t, "SessionStart")
	if str(ss[0], "source") != "startup" || str(ss[1], "source") != "resume" {
		t.Errorf("SessionStart sources %q, %q; want startup, resume", str(ss[0], "source"), str(ss[1], "source"))
	}
	CheckHookSample(t, string(host), "SessionStart.resume", starts[1], s.scrubber())
	return s
}

// timing says how long the CLI took to send its first model request of the
// run and to exit after its last one.
func timing(r *Result, srv *Server) string {
	var first, last time.Time
	for _, q := range srv.Requests() {
		if q.Time.Before(r.Start) {
			continue
		}
		if first.IsZero() {
			first = q.Time
		}
		last = q.Time
	}
	if first.IsZero() {
		return ""
	}
	end := r.Start.Add(r.Duration)
	return fmt.Sprintf(" (first request after %.1fs, exit %.1fs after the last)", first.Sub(r.Start).Seconds(), end.Sub(last).Seconds())
}

// testFailingCommand: a command that fails (stderr, exit 3). Records the
// hook stdin the host sends after a failed tool call (Claude Code:
// PostToolUseFailure) and checks the model is told about the failure.
func testFailingCommand(t *testing.T, host Host) *scenario {
	s := setupScenario(t, host, 1, "; echo E2E-STDERR >&2; exit 3")
	s.run(t, "Run the failing e2e command.")

	if got := lineCount(t, s.file); got != 1 {
		t.Errorf("side-effect file has %d lines, want 1", got)
	}
	last := s.srv.LastAgentRequest()
	rs := last.ToolResults()
	if len(rs) != 1 || !strings.Contains(rs[0].Text, "E2E-STDERR") || !strings.Contains(rs[0].Text, "3") {
		t.Errorf("tool results %+v, want one mentioning E2E-STDERR and exit code 3", rs)
	}
	var post []string
	for _, ev := range s.hook.CapturedEvents(t) {
		if strings.HasPrefix(ev, "Post") || strings.HasPrefix(ev, "After") {
			if ev == "PostToolBatch" || ev == "AfterAgent" {
				continue
			}
			post = append(post, ev)
		}
	}
	if len(post) != 1 {
		t.Fatalf("post-tool events %v, want exactly one", post)
	}
	t.Logf("after the failed command: %s; model saw %q (is_error %v)", post[0], rs[0].Text, rs[0].IsError)
	CheckHookSample(t, string(host), post[0]+".failed-command", s.hook.CapturedRaw(t, post[0])[0], s.scrubber())
	return s
}
