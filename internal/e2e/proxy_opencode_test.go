package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// opencode speaks Chat Completions to any OpenAI-compatible provider: it is pointed at the
// proxy with a provider whose options.baseURL is the proxy (docs/proxy/opencode.md).

// opencodeConfig is an opencode.json with one OpenAI-compatible provider at baseURL.
func opencodeConfig(baseURL string) string {
	return `{
  "$schema": "https://opencode.ai/config.json",
  "autoupdate": false,
  "share": "disabled",
  "model": "e2e/scripted",
  "permission": {"bash": "allow", "edit": "allow", "external_directory": "allow"},
  "provider": {
    "e2e": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "e2e scripted model",
      "options": {"baseURL": "` + baseURL + `/v1", "apiKey": "e2e-key"},
      "models": {"scripted": {"name": "scripted", "tool_call": true, "limit": {"context": 200000, "output": 8192}}}
    }
  }
}
`
}

// runOpencode runs `opencode run` once against an OpenAI-compatible baseURL.
func runOpencode(t *testing.T, baseURL string) *Result {
	t.Helper()
	res, _ := runOpencodeHome(t, baseURL)
	return res
}

// runOpencodeHome is runOpencode that also returns the home folder opencode ran in (its data
// is under .local/share/opencode).
func runOpencodeHome(t *testing.T, baseURL string) (*Result, string) {
	t.Helper()
	bin := RequireCLI(t, "opencode")
	root := t.TempDir()
	home, work := filepath.Join(root, "home"), filepath.Join(root, "work")
	for _, d := range []string{home, work, filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(home, ".config", "opencode", "opencode.json"), []byte(opencodeConfig(baseURL)))
	env := opencodeEnv(home, filepath.Join(root, "tmp"))
	res := Run(t, Cmd{Path: bin, Args: []string{"run", "--model", "e2e/scripted", "Run the e2e command until told otherwise."},
		Dir: work, Env: env, Timeout: 120 * time.Second})
	if os.Getenv("E2E_VERBOSE") != "" {
		t.Logf("stdout:\n%s\nstderr:\n%s", res.Stdout, res.Stderr)
	}
	res.Check(t, "opencode")
	return res, home
}

// opencodeEnv is the environment opencode runs in: home, its own temporary folder, and
// nothing from the network.
func opencodeEnv(home, tmp string) []string {
	return append(BaseEnv(home), "TMPDIR="+tmp,
		// Nothing from the network: no models.dev catalogue, no default plugins from npm, no
		// LSP downloads, no update check.
		"OPENCODE_DISABLE_MODELS_FETCH=true",
		"OPENCODE_DISABLE_DEFAULT_PLUGINS=true",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=true",
		"OPENCODE_DISABLE_AUTOUPDATE=true",
		"OPENCODE_DISABLE_SHARE=true",
	)
}

func TestProxyOpencode(t *testing.T) {
	RequireCLI(t, "opencode")
	srv := NewServer(t, Script{Command: loopCommand, ToolTurns: 5})
	res := runOpencode(t, startProxy(t, srv.URL))
	if !strings.Contains(res.Stdout, "E2E-DONE") {
		t.Errorf("final answer not in the output:\n%s", truncate(res.Stdout, 2000))
	}
	checkProxiedLoop(t, srv)
}
