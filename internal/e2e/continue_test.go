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
	root, home, work := newCLIHome(t)
	cfg := filepath.Join(root, "config.yaml")
	writeFile(t, cfg, []byte("name: e2e\nversion: 0.0.1\nschema: v1\nmodels:\n  - name: scripted\n    provider: openai\n"+
		"    model: scripted\n    apiBase: "+srv.URL+"/v1\n    apiKey: e2e\n    roles: [chat]\n    capabilities: [tool_use]\n"))
	res := Run(t, Cmd{Path: bin, Dir: work, Env: BaseEnv(home), Timeout: 120 * time.Second,
		Args: []string{"-p", "Run the e2e command until told otherwise.", "--config", cfg, "--auto"}})
	res.Check(t, "cn")
	// Session files are named by their UUID; sessions.json beside them is the index.
	session := onlyFile(t, filepath.Join(home, ".continue", "sessions", "*-*-*-*-*.json"), "session files")
	raw, _ := os.ReadFile(session)
	sideEffectCallsIn(t, session, transcript.FormatContinue, "Bash", string(raw), "hi")
}
