package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/testenv"
)

// loopguard itself, installed with `loopguard install`, guarding the real
// CLIs. The scripted model keeps asking for the same shell command.

// Reminder is the start of the progress detector's gentle text, which the
// default preset gives on the third identical call with an unchanged result.
const Reminder = "You have made the same call"

// denyConfig turns on dsh-brake's deny mode: a notice after the 2nd
// identical call, refusal of the 4th and later (more than 3).
const denyConfig = "dsh-brake: {mode: deny, callWarnCount: 2, callDenyCount: 3}\n"

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.Cleanup()
	os.Exit(code)
}

// loopguardBin builds the loopguard command once per test binary.
func loopguardBin(t *testing.T) string { return testenv.LoopguardBinary(t) }

// installLoopguard runs `loopguard install HOST args...` with the agent's
// environment (its HOME, CODEX_HOME) in its working directory, as a user
// would.
func installLoopguard(t *testing.T, a *Agent, args ...string) {
	t.Helper()
	r := Run(t, Cmd{Path: loopguardBin(t), Args: append([]string{"install", string(a.Host)}, args...),
		Dir: a.Work, Env: a.Env, Timeout: 30 * time.Second})
	r.Check(t, "loopguard install")
	t.Logf("loopguard install %s %s:\n%s%s", a.Host, strings.Join(args, " "), r.Stdout, r.Stderr)
}

// checkHookLog fails the test if a loopguard hook failed open during the
// run: it says so in $HOME/.local/state/loopguard/hook.log.
func checkHookLog(t *testing.T, a *Agent) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(a.Home, ".local", "state", "loopguard", "hook.log"))
	if err == nil && len(b) > 0 {
		t.Errorf("loopguard hooks failed open:\n%s", b)
	}
}

func (a *Agent) runChecked(t *testing.T, srv *Server, resume, prompt string) *AgentResult {
	t.Helper()
	var res *AgentResult
	if resume == "" {
		res = a.Run(t, prompt)
	} else {
		res = a.Resume(t, resume, prompt)
	}
	t.Logf("%s run took %v%s; requests:\n%s", a.Host, res.Duration.Round(time.Millisecond), timing(res.Result, srv), srv.Summary())
	if os.Getenv("E2E_VERBOSE") != "" {
		t.Logf("stdout:\n%s\nstderr:\n%s", res.Stdout, res.Stderr)
	}
	res.Check(t, string(a.Host))
	return res
}

// requestWithResults returns the first of reqs whose conversation holds n
// tool results.
func requestWithResults(t *testing.T, reqs []*Request, n int) *Request {
	t.Helper()
	for _, r := range reqs {
		if len(r.ToolResults()) == n {
			return r
		}
	}
	t.Fatalf("no model request carried %d tool results", n)
	return nil
}

// testLoopguardReminder: with the default configuration, the request after
// the third identical call carries the reminder once, the one after the
// second none. Then a second user turn in the same session (Resume) starts
// the count again: no new reminder after its first or second call (without
// the reset the fifth call in a row would get one), one after its third.
func testLoopguardReminder(t *testing.T, host Host, installArgs ...string) {
	cmd, file := stuckCommand(t)
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	a := NewAgent(t, host, srv)
	installLoopguard(t, a, installArgs...)

	first := a.runChecked(t, srv, "", "E2E-TURN-ONE: run the e2e command until you are told to stop.")
	if got := lineCount(t, file); got != 3 {
		t.Errorf("side-effect file has %d lines after turn one, want 3", got)
	}
	turnOne := srv.AgentRequests()
	for k, want := range map[int]int{1: 0, 2: 0, 3: 1} {
		if got := requestWithResults(t, turnOne, k).Count(Reminder); got != want {
			t.Errorf("turn one, request after call %d: reminder %d times, want %d", k, got, want)
		}
	}
	if r := requestWithResults(t, turnOne, 3); t.Failed() {
		t.Logf("what the model was told after call 3: %+v", r.ItemsAfterToolResult(3))
	}

	if first.SessionID == "" {
		t.Fatalf("no session id in the first run's output:\n%s\n%s", first.Stdout, first.Stderr)
	}
	n := len(turnOne)
	a.runChecked(t, srv, first.SessionID, "E2E-TURN-TWO: run it again until you are told to stop.")
	if got := lineCount(t, file); got != 6 {
		t.Errorf("side-effect file has %d lines after turn two, want 6", got)
	}
	turnTwo := srv.AgentRequests()[n:]
	if len(turnTwo) == 0 {
		t.Fatal("turn two made no model requests")
	}
	// What the history already holds (Gemini CLI repeats the last tool
	// result of turn one when it resumes).
	base, baseResults := turnTwo[0].Count(Reminder), len(turnTwo[0].ToolResults())
	for k, want := range map[int]int{1: base, 2: base, 3: base + 1} {
		if got := requestWithResults(t, turnTwo, baseResults+k).Count(Reminder); got != want {
			t.Errorf("turn two, request after its call %d: reminder %d times, want %d (history: %d)", k, got, want, base)
			for i, it := range requestWithResults(t, turnTwo, baseResults+k).ToolResults() {
				t.Logf("  result %d: %q", i+1, it.Text)
			}
		}
	}
	// Nor any other notice: without the reset the sixth call in a row would
	// have got the detailed text.
	for _, r := range turnTwo {
		for _, s := range []string{"No progress:", "[dsh-brake]"} {
			if c := r.Count(s); c != 0 {
				t.Errorf("turn two, request #%d: %q %d times", r.Seq, s, c)
			}
		}
	}
	checkHookLog(t, a)
}

// testLoopguardDeny: dsh-brake in deny mode (install --config): the first
// three calls run, the model is warned after the second, and the fourth and
// fifth are refused before they run; the model reads why. (Gemini CLI stops
// a turn by itself at the fifth identical call in a row, "Loop detected,
// stopping execution", so there the script makes four.)
func testLoopguardDeny(t *testing.T, host Host, installArgs ...string) *Agent {
	cmd, file := sideEffectCommand(t)
	a, srv, results := runRefusingAfterThree(t, host, cmd, file, denyConfig, "dsh-brake:", installArgs...)
	for i, r := range results {
		if i >= 3 && strings.Contains(r.Text, "hi\nhi") {
			t.Errorf("refused call %d ran: %q", i+1, r.Text)
		}
	}
	t.Logf("the model was told, for call 4: %q", results[3].Text)
	const warn = "[dsh-brake] Repeated execution detected"
	for k, want := range map[int]int{1: 0, 2: 1} {
		if got := srv.RequestAfterToolResults(k).Count(warn); got != want {
			t.Errorf("request after call %d: %q %d times, want %d", k, warn, got, want)
		}
	}
	checkHookLog(t, a)
	return a
}

func TestClaudeCodeLoopguardReminder(t *testing.T) { testLoopguardReminder(t, HostClaudeCode) }
func TestCodexLoopguardReminder(t *testing.T)      { testLoopguardReminder(t, HostCodex) }
func TestGeminiCLILoopguardReminder(t *testing.T)  { testLoopguardReminder(t, HostGeminiCLI) }

// Deny mode, installed per project for Claude Code and Gemini CLI.
func TestClaudeCodeLoopguardDeny(t *testing.T) { testLoopguardDeny(t, HostClaudeCode, "--project") }
func TestGeminiCLILoopguardDeny(t *testing.T)  { testLoopguardDeny(t, HostGeminiCLI, "--project") }

// Codex: installed per user; `codex app-server` must list every handler
// loopguard installed as trusted (SessionEnd's too, whose timeout Codex
// clamps), and without --dangerously-bypass-hook-trust the hooks ran.
func TestCodexLoopguardDeny(t *testing.T) {
	a := testLoopguardDeny(t, HostCodex)
	list := codexHooksList(t, a.Bin, a.CodexHome)
	if len(list) != 5 {
		t.Errorf("codex lists %d hooks, want loopguard's 5: %+v", len(list), list)
	}
	for _, h := range list {
		if h.TrustStatus != "trusted" || !strings.Contains(h.Command, " hook codex --config ") {
			t.Errorf("codex hook %s: %q trust %q", h.Key, h.Command, h.TrustStatus)
		}
	}
}

// Codex with --project: hooks.json in <work>/.codex, trust in the user's
// config.toml; Codex reads project hooks only in a trusted project, so the
// test trusts it the way the install note says.
func TestCodexLoopguardProject(t *testing.T) {
	cmd, _ := stuckCommand(t)
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	a := NewAgent(t, HostCodex, srv)
	installLoopguard(t, a, "--project")
	conf := filepath.Join(a.CodexHome, "config.toml")
	b, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, conf, append(b, fmt.Sprintf("\n[projects.%q]\ntrust_level = \"trusted\"\n", a.Work)...))
	a.runChecked(t, srv, "", "Run the e2e command until you are told to stop.")
	if got := requestWithResults(t, srv.AgentRequests(), 3).Count(Reminder); got != 1 {
		t.Errorf("request after call 3: reminder %d times, want 1", got)
	}
	checkHookLog(t, a)
}

// subagentScript: the main agent runs the command twice, then hands it to a
// subagent (spawn), which runs it three times.
func subagentScript(cmd string, spawn func(r *Request, results []Item) *Reply) Script {
	return Script{Command: cmd, ToolTurns: 3, Decide: func(r *Request) *Reply {
		if r.Count(subagentPrompt) > 0 {
			return nil // the subagent: the default script (3 calls, then an answer)
		}
		if res := r.TurnToolResults(); len(res) >= 2 {
			return spawn(r, res[2:])
		}
		return nil
	}}
}

// testSubagentNotCounted: a subagent's calls do not count toward its
// parent's chain, nor the parent's toward the subagent's. The parent makes 2
// identical calls, the subagent 3 of the same: no reminder after the
// subagent's first and second (were the two counted together, its first
// would be the third in a row), none in the parent; and, to show the hooks
// do run inside the subagent, one after its own third.
func testSubagentNotCounted(t *testing.T, srv *Server, a *Agent, file string) {
	a.runChecked(t, srv, "", "Run the e2e command twice, then delegate it to a subagent.")
	if got := lineCount(t, file); got != 5 {
		t.Errorf("side-effect file has %d lines, want 5 (2 by the main agent, 3 by the subagent)", got)
	}
	seen := map[int]bool{}
	for _, r := range srv.AgentRequests() {
		got := r.Count(Reminder)
		if r.Count(subagentPrompt) == 0 {
			if got != 0 {
				t.Errorf("main agent's request #%d holds the reminder %d times", r.Seq, got)
			}
			continue
		}
		k := len(r.ToolResults())
		seen[k] = true
		if want := map[bool]int{true: 1, false: 0}[k == 3]; got != want {
			t.Errorf("subagent's request after its call %d: reminder %d times, want %d", k, got, want)
		}
	}
	if !seen[1] || !seen[2] || !seen[3] {
		t.Errorf("the subagent's requests carried %v tool results; want 1, 2 and 3", seen)
	}
	checkHookLog(t, a)
}

func TestClaudeCodeLoopguardSubagent(t *testing.T) {
	cmd, file := stuckCommand(t)
	srv := NewServer(t, subagentScript(cmd, func(r *Request, after []Item) *Reply {
		if len(after) == 0 {
			return &Reply{ToolName: "Agent", ToolInput: map[string]any{
				"description": "Run the e2e command", "prompt": subagentPrompt,
				"subagent_type": "general-purpose", "run_in_background": false}}
		}
		return &Reply{Text: "E2E-DONE"}
	}))
	a := NewAgent(t, HostClaudeCode, srv)
	installLoopguard(t, a)
	testSubagentNotCounted(t, srv, a, file)
}

func TestCodexLoopguardSubagent(t *testing.T) {
	cmd, file := stuckCommand(t)
	srv := NewServer(t, subagentScript(cmd, func(r *Request, after []Item) *Reply {
		switch len(after) {
		case 0:
			return &Reply{ToolName: "spawn_agent", Namespace: "multi_agent_v1", ToolInput: map[string]any{"message": subagentPrompt}}
		case 1:
			var spawned struct {
				AgentID string `json:"agent_id"`
			}
			json.Unmarshal([]byte(after[0].Text), &spawned)
			return &Reply{ToolName: "wait_agent", Namespace: "multi_agent_v1",
				ToolInput: map[string]any{"targets": []any{spawned.AgentID}, "timeout_ms": 60000}}
		}
		return &Reply{Text: "E2E-DONE"}
	}))
	a := NewAgent(t, HostCodex, srv)
	installLoopguard(t, a)
	testSubagentNotCounted(t, srv, a, file)
}

// testLoopguardUninstalled: install, then uninstall: the host's files are
// as before (Codex's config.toml byte for byte) and the hook no longer runs.
func testLoopguardUninstalled(t *testing.T, host Host) {
	cmd, file := stuckCommand(t)
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	a := NewAgent(t, host, srv)
	conf := filepath.Join(a.CodexHome, "config.toml")
	var before []byte
	if host == HostCodex {
		before, _ = os.ReadFile(conf)
	}
	installLoopguard(t, a)
	r := Run(t, Cmd{Path: loopguardBin(t), Args: []string{"uninstall", string(host)}, Dir: a.Work, Env: a.Env, Timeout: 30 * time.Second})
	r.Check(t, "loopguard uninstall")
	t.Logf("loopguard uninstall %s:\n%s%s", host, r.Stdout, r.Stderr)
	if host == HostCodex {
		if after, _ := os.ReadFile(conf); string(after) != string(before) {
			t.Errorf("config.toml after uninstall:\n%s\nwant:\n%s", after, before)
		}
	}
	a.runChecked(t, srv, "", "Run the e2e command until you are told to stop.")
	if got := lineCount(t, file); got != 3 {
		t.Errorf("side-effect file has %d lines, want 3", got)
	}
	if got := srv.LastAgentRequest().Count(Reminder); got != 0 {
		t.Errorf("the reminder came %d times after uninstall", got)
	}
}

func TestClaudeCodeLoopguardUninstall(t *testing.T) { testLoopguardUninstalled(t, HostClaudeCode) }
func TestCodexLoopguardUninstall(t *testing.T)      { testLoopguardUninstalled(t, HostCodex) }

// TestClaudeCodeLoopguardServe: Claude Code's http hooks answered by one
// `loopguard serve` process (settings as docs/hosts/claude-code.md shows
// them): the reminder comes after the third identical call, as with the
// command hook.
func TestClaudeCodeLoopguardServe(t *testing.T) {
	cmd, file := stuckCommand(t)
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	a := NewAgent(t, HostClaudeCode, srv)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	serve := exec.Command(loopguardBin(t), "serve", "--addr", addr)
	serve.Env = a.Env
	var serveErr strings.Builder
	serve.Stderr = &serveErr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		serve.Process.Kill()
		serve.Wait()
		t.Logf("loopguard serve:\n%s", serveErr.String())
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("loopguard serve did not come up: %v\n%s", err, serveErr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}

	url := "http://" + addr + "/hook/claude-code"
	hooks := map[string]any{}
	for _, ev := range []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionEnd", "SubagentStop"} {
		g := map[string]any{"hooks": []any{map[string]any{"type": "http", "url": url, "timeout": 30}}}
		if strings.Contains(ev, "Tool") {
			g["matcher"] = "*"
		}
		hooks[ev] = []any{g}
	}
	b, _ := json.Marshal(map[string]any{"hooks": hooks})
	writeFile(t, a.ClaudeSettings, b)

	a.runChecked(t, srv, "", "Run the e2e command until you are told to stop.")
	if got := lineCount(t, file); got != 3 {
		t.Errorf("side-effect file has %d lines, want 3", got)
	}
	for k, want := range map[int]int{2: 0, 3: 1} {
		if got := srv.RequestAfterToolResults(k).Count(Reminder); got != want {
			t.Errorf("request after call %d: reminder %d times, want %d", k, got, want)
		}
	}
}

// thoughtText is what the scripted model says before each call of the thought scenario.
const thoughtText = "I will read the notes file once more to find the missing timeout setting."

// thoughtNotice is the start of the progress detector's repeated-thought text.
const thoughtNotice = "You have written the same thing"

// shellReply is the API's shell call of cmd, for Decide functions.
func shellReply(r *Request, cmd string) *Reply {
	switch r.API {
	case APIAnthropic:
		return anthropicShell(r, cmd)
	case APIResponses:
		return responsesShell(r, cmd)
	case APIGemini:
		return geminiShell(r, cmd)
	}
	return nil
}

// testLoopguardThought: the model says the same sentence before every call, and its calls
// (cat of one file, spelt differently each time, so no call repeats) bring back nothing new
// after the first. The hook reads the sentence from the tail of the transcript the CLI hands
// it, and the default preset tells the model after the fourth call that it keeps saying the
// same thing while learning nothing (or after the fifth, when the CLI wrote a sentence late);
// not before, and never that a call repeats.
func testLoopguardThought(t *testing.T, host Host) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	writeFile(t, notes, []byte("retries are set to three\nthe cache lives in memory\nlogs go to stderr\nthe port is 8080\n"))
	const calls = 5
	srv := NewServer(t, Script{Decide: func(r *Request) *Reply {
		k := len(r.ToolResults())
		if k >= calls {
			return &Reply{Text: "E2E-DONE"}
		}
		// cat spelt five ways: the same output from calls that differ.
		variants := []string{"cat %s", "cat -- %s", "cat %s # again", "cat < %s", "cat %s | cat"}
		rep := shellReply(r, fmt.Sprintf(variants[k], shellQuote(notes)))
		if rep == nil {
			return nil
		}
		rep.Text = thoughtText
		return rep
	}})
	a := NewAgent(t, host, srv)
	installLoopguard(t, a)
	a.runChecked(t, srv, "", "E2E-THOUGHT: find the timeout setting.")

	// The CLI may write the transcript a moment after a hook has read it (seen with Claude
	// Code on a loaded machine): a sentence missed then is counted at the next call, so the
	// notice may come one call late, never early.
	reqs := srv.AgentRequests()
	for k := 1; k <= calls; k++ {
		if c := requestWithResults(t, reqs, k).Count(Reminder); c != 0 {
			t.Errorf("request after call %d: the same-call reminder %d times, but no call repeated", k, c)
		}
	}
	first := firstWith(t, reqs, calls, thoughtNotice)
	t.Logf("the repeated-thought notice came after call %d", first)
	if first != 4 && first != 5 {
		t.Errorf("the repeated-thought notice came after call %d, want 4 (or 5)", first)
	}
	if n := requestWithResults(t, reqs, calls).Count(thoughtNotice); n != 1 {
		t.Errorf("the model was told %d times that it repeats itself, want once", n)
	}
	checkHookLog(t, a)
}

func TestClaudeCodeLoopguardThought(t *testing.T) { testLoopguardThought(t, HostClaudeCode) }
func TestCodexLoopguardThought(t *testing.T)      { testLoopguardThought(t, HostCodex) }
func TestGeminiCLILoopguardThought(t *testing.T)  { testLoopguardThought(t, HostGeminiCLI) }

// firstWith returns the first k in 1..n whose request (the one carrying k tool results) holds
// text, or 0 when none does.
func firstWith(t *testing.T, reqs []*Request, n int, text string) int {
	t.Helper()
	for k := 1; k <= n; k++ {
		if requestWithResults(t, reqs, k).Count(text) > 0 {
			return k
		}
	}
	return 0
}

// errorsNotice is the start of the progress detector's text for one tool failing the same way.
const errorsNotice = "has failed 4 times in a row with the same error"

// testLoopguardErrors: the model lists five missing paths in turn, each call failing with the
// same error about its own path. However the CLI reports the failure to its hook (Claude Code's
// PostToolUseFailure, Codex's output text, Gemini CLI's exit code in the output), the default
// preset tells the model after the fourth that the same error keeps coming back; not before.
func testLoopguardErrors(t *testing.T, host Host) {
	dir := t.TempDir()
	const calls = 5
	srv := NewServer(t, Script{Decide: func(r *Request) *Reply {
		k := len(r.ToolResults())
		if k >= calls {
			return &Reply{Text: "E2E-DONE"}
		}
		return shellReply(r, fmt.Sprintf("ls %s", shellQuote(filepath.Join(dir, fmt.Sprintf("missing-%d", k+1)))))
	}})
	a := NewAgent(t, host, srv)
	installLoopguard(t, a)
	a.runChecked(t, srv, "", "E2E-ERRORS: find the missing directory.")

	reqs := srv.AgentRequests()
	if first := firstWith(t, reqs, calls, errorsNotice); first != 4 {
		t.Errorf("the same-error notice came after call %d, want 4", first)
		for i, it := range requestWithResults(t, reqs, calls).ToolResults() {
			t.Logf("  result %d: %q", i+1, it.Text)
		}
	}
	checkHookLog(t, a)
}

func TestClaudeCodeLoopguardErrors(t *testing.T) { testLoopguardErrors(t, HostClaudeCode) }
func TestCodexLoopguardErrors(t *testing.T)      { testLoopguardErrors(t, HostCodex) }
func TestGeminiCLILoopguardErrors(t *testing.T)  { testLoopguardErrors(t, HostGeminiCLI) }

// progressDenyConfig: the default preset in deny mode, refusing the 4th identical call that
// keeps returning the same result.
const progressDenyConfig = "preset: default\nprogress: {mode: deny, denyAfter: 4}\n"

// testLoopguardProgressDeny: the default preset in deny mode. The model runs a command whose
// output never changes; the first three run, the fourth (and the fifth, where the CLI lets the
// model go on) are refused before they run, and the model reads why. Gemini CLI stops a turn by
// itself at the fifth identical call, so there the script makes four.
func testLoopguardProgressDeny(t *testing.T, host Host) {
	cmd, file := stuckCommand(t)
	a, _, _ := runRefusingAfterThree(t, host, cmd, file, progressDenyConfig, "loopguard: the same call")
	checkHookLog(t, a)
}

// runRefusingAfterThree installs loopguard in host with config (and installArgs), has the
// scripted model run cmd five times (four in Gemini CLI, which stops a turn by itself at the
// fifth identical call), and checks that the first three ran (file, which cmd appends to, has
// three lines) and the rest were refused before they ran, their results saying so with mark.
// It returns the agent, the server and the last request's tool results.
func runRefusingAfterThree(t *testing.T, host Host, cmd, file, config, mark string, installArgs ...string) (*Agent, *Server, []Item) {
	t.Helper()
	calls := 5
	if host == HostGeminiCLI {
		calls = 4
	}
	srv := NewServer(t, Script{Command: cmd, ToolTurns: calls})
	a := NewAgent(t, host, srv)
	cfg := filepath.Join(t.TempDir(), "loopguard.yaml")
	writeFile(t, cfg, []byte(config))
	installLoopguard(t, a, append([]string{"--config", cfg}, installArgs...)...)
	a.runChecked(t, srv, "", "Run the e2e command until you are told to stop.")

	if got := lineCount(t, file); got != 3 {
		t.Errorf("side-effect file has %d lines, want 3: the calls after the third should have been refused", got)
	}
	results := srv.LastAgentRequest().ToolResults()
	if len(results) != calls {
		t.Fatalf("last request carries %d tool results, want %d", len(results), calls)
	}
	for i, r := range results {
		if refused := strings.Contains(r.Text, mark); refused != (i >= 3) {
			t.Errorf("tool result %d (refused %v) = %q", i+1, refused, r.Text)
		}
	}
	return a, srv, results
}

func TestClaudeCodeLoopguardProgressDeny(t *testing.T) { testLoopguardProgressDeny(t, HostClaudeCode) }
func TestCodexLoopguardProgressDeny(t *testing.T)      { testLoopguardProgressDeny(t, HostCodex) }
func TestGeminiCLILoopguardProgressDeny(t *testing.T)  { testLoopguardProgressDeny(t, HostGeminiCLI) }

// editReply is the API's file-edit call replacing old with new in path, for the CLIs whose
// edit tool takes a string to replace (Claude Code's Edit, Gemini CLI's replace).
func editReply(r *Request, path, old, new string) *Reply {
	switch {
	case r.HasTool("Edit"):
		return &Reply{ToolName: "Edit", ToolInput: map[string]any{"file_path": path, "old_string": old, "new_string": new}}
	case r.HasTool("replace"):
		return &Reply{ToolName: "replace", ToolInput: map[string]any{"file_path": path, "old_string": old, "new_string": new,
			"instruction": "Rename the timeout setting."}}
	}
	return nil
}

// testLoopguardEditLoop: the model reads a file, then tries five edits whose old text is not
// in it, each a little different (the most common loop in our labelled runs). The CLI rejects
// every one the same way, and the default preset says so after the fourth rejected edit.
func testLoopguardEditLoop(t *testing.T, host Host) {
	var path string // in the agent's working folder: Gemini CLI edits nothing outside it
	const edits = 5
	srv := NewServer(t, Script{Decide: func(r *Request) *Reply {
		k := len(r.ToolResults())
		switch {
		case k == 0:
			return shellReply(r, "cat "+shellQuote(path))
		case k <= edits:
			return editReply(r, path, fmt.Sprintf("TIME_OUT = %d", 30+k), fmt.Sprintf("TIMEOUT_SECONDS = %d", 30+k))
		}
		return &Reply{Text: "E2E-DONE"}
	}})
	a := NewAgent(t, host, srv)
	path = filepath.Join(a.Work, "settings.py")
	writeFile(t, path, []byte("TIMEOUT = 30\nRETRIES = 3\n"))
	installLoopguard(t, a)
	a.runChecked(t, srv, "", "E2E-EDIT: rename the timeout setting.")

	reqs := srv.AgentRequests()
	// Result 1 is the cat; results 2-5 are the first four edits.
	if first := firstWith(t, reqs, edits+1, errorsNotice); first != 5 {
		t.Errorf("the same-error notice came after tool result %d, want 5 (the 4th rejected edit)", first)
		for i, it := range requestWithResults(t, reqs, edits+1).ToolResults() {
			t.Logf("  result %d: %q", i+1, it.Text)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "TIMEOUT = 30\nRETRIES = 3\n" {
		t.Errorf("the file changed: %q", b)
	}
	checkHookLog(t, a)
}

func TestClaudeCodeLoopguardEditLoop(t *testing.T) { testLoopguardEditLoop(t, HostClaudeCode) }
func TestGeminiCLILoopguardEditLoop(t *testing.T)  { testLoopguardEditLoop(t, HostGeminiCLI) }
