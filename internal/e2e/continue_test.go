package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/transcript"
)

// Continue (its IDE extension and its CLI, cn) keeps each session as one JSON document whose
// history a SWE-agent trajectory's also has. The real Continue CLI runs the e2e command three
// times for the scripted model (an OpenAI-compatible model in a config file); the continue
// reader finds the three calls with their growing output in the session it saved.
func TestContinueSessionOfARealRun(t *testing.T) {
	bin := RequireCLI(t, "cn")
	cmd, _ := sideEffectCommand(t)
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	root := t.TempDir()
	home, work := filepath.Join(root, "home"), filepath.Join(root, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, "config.yaml")
	writeFile(t, cfg, []byte("name: e2e\nversion: 0.0.1\nschema: v1\nmodels:\n  - name: scripted\n    provider: openai\n"+
		"    model: scripted\n    apiBase: "+srv.URL+"/v1\n    apiKey: e2e\n    roles: [chat]\n    capabilities: [tool_use]\n"))
	res := Run(t, Cmd{Path: bin, Dir: work, Env: BaseEnv(home), Timeout: 120 * time.Second,
		Args: []string{"-p", "Run the e2e command until told otherwise.", "--config", cfg, "--auto"}})
	res.Check(t, "cn")
	files, _ := filepath.Glob(filepath.Join(home, ".continue", "sessions", "*.json"))
	var sessions []string
	for _, f := range files {
		if filepath.Base(f) != "sessions.json" { // the index of sessions
			sessions = append(sessions, f)
		}
	}
	if len(sessions) != 1 {
		t.Fatalf("%d sessions under %s, want 1: %v", len(sessions), home, files)
	}
	raw, _ := os.ReadFile(sessions[0])
	sideEffectCallsIn(t, sessions[0], transcript.FormatContinue, "Bash", string(raw), "hi")
}
