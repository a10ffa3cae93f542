package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Agent is one real agent CLI set up in a throwaway HOME and working
// directory, pointed at a scripted model Server.
type Agent struct {
	Host   Host
	Bin    string // the CLI executable
	Home   string // $HOME of the run (temp)
	Work   string // working directory of the run (temp)
	Server *Server
	Env    []string
	// Timeout bounds each run (default 75s).
	Timeout time.Duration

	// ClaudeSettings is the file passed with --settings (Claude Code).
	ClaudeSettings string
	// CodexHome is $CODEX_HOME (Codex).
	CodexHome string
	// CodexBypassTrust adds --dangerously-bypass-hook-trust (Codex); by
	// default InstallHooks records the hooks as trusted instead.
	CodexBypassTrust bool
}

// GeminiModel is the model Gemini CLI is run with.
const GeminiModel = "gemini-2.5-flash"

// CodexModel is the model name Codex is configured with (a known OpenAI
// model, so Codex offers its usual tool set).
const CodexModel = "gpt-5.1-codex"

// NewAgent finds the host's CLI (skipping or, with CI=true, failing the
// test when it is not installed) and writes a minimal configuration that
// points it at srv.
func NewAgent(t testing.TB, host Host, srv *Server) *Agent {
	t.Helper()
	bin := RequireCLI(t, map[Host]string{HostClaudeCode: "claude", HostCodex: "codex", HostGeminiCLI: "gemini"}[host])
	root := t.TempDir()
	a := &Agent{
		Host:   host,
		Bin:    bin,
		Home:   filepath.Join(root, "home"),
		Work:   filepath.Join(root, "work"),
		Server: srv,
	}
	tmp := filepath.Join(root, "tmp")
	for _, d := range []string{a.Home, a.Work, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// TMPDIR too, so that the CLIs' temp files (Claude Code's
	// $TMPDIR/claude-<uid>/...) go away with the test.
	a.Env = append(BaseEnv(a.Home), "TMPDIR="+tmp)
	switch host {
	case HostClaudeCode:
		a.ClaudeSettings = filepath.Join(a.Home, "e2e-settings.json")
		writeFile(t, a.ClaudeSettings, []byte("{}\n"))
		a.Env = append(a.Env,
			"ANTHROPIC_BASE_URL="+srv.URL,
			"ANTHROPIC_API_KEY=e2e-key",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		)
	case HostCodex:
		a.CodexHome = filepath.Join(a.Home, ".codex")
		writeFile(t, filepath.Join(a.CodexHome, "config.toml"), []byte(a.codexConfig()))
		a.Env = append(a.Env, "CODEX_HOME="+a.CodexHome)
	case HostGeminiCLI:
		writeFile(t, filepath.Join(a.Home, ".gemini", "settings.json"), []byte(`{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true}
}
`))
		a.Env = append(a.Env,
			"GOOGLE_GEMINI_BASE_URL="+srv.URL,
			"GEMINI_API_KEY=e2e-key",
			"GEMINI_CLI_TRUST_WORKSPACE=true",
		)
	default:
		t.Fatalf("unknown host %q", host)
	}
	return a
}

func (a *Agent) codexConfig() string {
	return `model = "` + CodexModel + `"
model_provider = "e2e"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.e2e]
name = "e2e scripted model"
base_url = "` + a.Server.URL + `/v1"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
`
}

// InstallHooks installs cfg where the host reads hooks:
//   - Claude Code: the --settings file ({"hooks": cfg}),
//   - Codex: $CODEX_HOME/hooks.json, and (unless CodexBypassTrust) a
//     [hooks.state] trusted_hash entry per handler in config.toml,
//   - Gemini CLI: <work>/.gemini/settings.json (timeouts in ms).
func (a *Agent) InstallHooks(t testing.TB, cfg HooksConfig) {
	t.Helper()
	switch a.Host {
	case HostClaudeCode:
		writeFile(t, a.ClaudeSettings, HooksFileJSON(cfg))
	case HostCodex:
		hooksPath := filepath.Join(a.CodexHome, "hooks.json")
		writeFile(t, hooksPath, HooksFileJSON(cfg))
		conf := a.codexConfig()
		if !a.CodexBypassTrust {
			conf += CodexTrustState(hooksPath, cfg)
		}
		writeFile(t, filepath.Join(a.CodexHome, "config.toml"), []byte(conf))
	case HostGeminiCLI:
		writeFile(t, filepath.Join(a.Work, ".gemini", "settings.json"), HooksFileJSON(cfg))
	}
}

// AgentResult is the outcome of one agent run.
type AgentResult struct {
	*Result
	// SessionID identifies the session, for a resumed second turn.
	SessionID string
	// Final is the agent's final answer as the CLI reported it (Claude
	// Code and Gemini CLI JSON output; Codex's last message).
	Final string
	// JSON is the CLI's JSON result (Claude Code, Gemini CLI), if any.
	JSON map[string]any
}

// Run runs one non-interactive turn with prompt in a new session. extra
// arguments go before the prompt.
func (a *Agent) Run(t testing.TB, prompt string, extra ...string) *AgentResult {
	t.Helper()
	return a.run(t, "", prompt, extra)
}

// Resume runs one more non-interactive user turn in an earlier session:
//   - Claude Code: claude -p --resume <session_id> PROMPT
//   - Codex:       codex exec resume <session_id> PROMPT
//   - Gemini CLI:  gemini --resume <session_id> -p PROMPT
func (a *Agent) Resume(t testing.TB, sessionID, prompt string, extra ...string) *AgentResult {
	t.Helper()
	if sessionID == "" {
		t.Fatal("Resume: empty session id")
	}
	return a.run(t, sessionID, prompt, extra)
}

func (a *Agent) run(t testing.TB, resume, prompt string, extra []string) *AgentResult {
	t.Helper()
	var args []string
	lastMsg := filepath.Join(a.Home, "codex-last-message.txt")
	switch a.Host {
	case HostClaudeCode:
		args = []string{"-p", "--settings", a.ClaudeSettings, "--allowedTools", "Bash", "--output-format", "json"}
		if resume != "" {
			args = append(args, "--resume", resume)
		}
		args = append(append(args, extra...), "--", prompt)
	case HostCodex:
		os.Remove(lastMsg)
		args = []string{"exec"}
		if resume != "" {
			args = append(args, "resume")
		}
		args = append(args, extra...)
		args = append(args, "--skip-git-repo-check", "--output-last-message", lastMsg)
		if a.CodexBypassTrust {
			args = append(args, "--dangerously-bypass-hook-trust")
		}
		args = append(args, "--")
		if resume != "" {
			args = append(args, resume)
		}
		args = append(args, prompt)
	case HostGeminiCLI:
		args = []string{"-m", GeminiModel, "-y", "--output-format", "json"}
		if resume != "" {
			args = append(args, "--resume", resume)
		}
		args = append(append(args, extra...), "-p", prompt)
	}
	r := Run(t, Cmd{Path: a.Bin, Args: args, Dir: a.Work, Env: a.Env, Timeout: a.Timeout})
	res := &AgentResult{Result: r}
	switch a.Host {
	case HostClaudeCode, HostGeminiCLI:
		// The JSON result is the last line that parses as an object.
		lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
		for i := len(lines) - 1; i >= 0; i-- {
			var m map[string]any
			if json.Unmarshal([]byte(lines[i]), &m) == nil {
				res.JSON = m
				break
			}
		}
		if res.JSON == nil {
			var m map[string]any
			if json.Unmarshal([]byte(r.Stdout), &m) == nil {
				res.JSON = m
			}
		}
		res.SessionID = str(res.JSON, "session_id")
		res.Final = str(res.JSON, "result")
		if a.Host == HostGeminiCLI {
			res.Final = str(res.JSON, "response")
		}
	case HostCodex:
		if m := codexSessionRE.FindStringSubmatch(r.Stderr + r.Stdout); m != nil {
			res.SessionID = m[1]
		}
		if b, err := os.ReadFile(lastMsg); err == nil {
			res.Final = strings.TrimSpace(string(b))
		}
	}
	return res
}

// RunStreaming runs one non-interactive turn with the CLI's line-by-line JSON output on
// stdout, as benchmark harnesses capture it:
//   - Claude Code: claude -p --output-format stream-json --verbose PROMPT
//   - Codex:       codex exec --json PROMPT
//   - Gemini CLI:  gemini --output-format stream-json -p PROMPT
func (a *Agent) RunStreaming(t testing.TB, prompt string) *Result {
	t.Helper()
	var args []string
	switch a.Host {
	case HostClaudeCode:
		args = []string{"-p", "--settings", a.ClaudeSettings, "--allowedTools", "Bash", "--output-format", "stream-json", "--verbose", "--", prompt}
	case HostCodex:
		args = []string{"exec", "--json", "--skip-git-repo-check"}
		if a.CodexBypassTrust {
			args = append(args, "--dangerously-bypass-hook-trust")
		}
		args = append(args, "--", prompt)
	case HostGeminiCLI:
		args = []string{"-m", GeminiModel, "-y", "--output-format", "stream-json", "-p", prompt}
	}
	return Run(t, Cmd{Path: a.Bin, Args: args, Dir: a.Work, Env: a.Env, Timeout: a.Timeout})
}

var codexSessionRE = regexp.MustCompile(`session id: ([0-9a-fA-F-]{36})`)

// printedOutput keeps what a CLI printed as a benchmark harness keeps it
// (<trial>/agent/<name>.txt) and returns the file's path.
func printedOutput(t testing.TB, name, stdout string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "agent", name+".txt")
	writeFile(t, path, []byte(stdout))
	return path
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
