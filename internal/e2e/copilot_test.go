package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/transcript"
)

// GitHub Copilot CLI records each session as events (session-state/<id>/events.jsonl) and
// prints the same events with `-p --output-format json`. The real Copilot CLI runs the e2e
// command three times for the scripted model (its BYOK mode: an OpenAI-compatible provider,
// no GitHub sign-in); the copilot reader finds the three calls with their growing output in
// both.
func TestCopilotSessionOfARealRun(t *testing.T) {
	cmd, _ := sideEffectCommand(t)
	events, stdout := runCopilot(t, cmd)
	sideEffectCallsIn(t, events, transcript.FormatCopilot, "bash", "", "hi")
	printed := filepath.Join(t.TempDir(), "agent", "copilot.txt")
	writeFile(t, printed, []byte(stdout))
	sideEffectCallsIn(t, printed, transcript.FormatCopilot, "bash", stdout, "hi")
}

// The default preset on a real Copilot CLI session of a command whose output never changes:
// Copilot CLI ends each output with its shell's sequence number ("<shellId: 2 completed with
// exit code 0>"), and the reminder still comes at the third call.
func TestDefaultPresetOnACopilotSession(t *testing.T) {
	cmd, _ := stuckCommand(t)
	events, _ := runCopilot(t, cmd)
	tr, err := transcript.Read(events)
	if err != nil {
		t.Fatal(err)
	}
	var calls []loopguard.Event
	for _, ev := range tr.Agent(transcript.MainAgent).Events {
		if ev.Type == loopguard.EventCall {
			calls = append(calls, ev)
		}
	}
	if at := noticedAt(t, loopguard.PresetDefault, calls); len(at) != 1 || at[0] != 2 {
		t.Errorf("replayed calls noticed at %v, want [2]", at)
		for i, c := range calls {
			t.Logf("call %d result: %q", i, c.Result)
		}
	}
}

// runCopilot runs the real Copilot CLI in prompt mode with JSON output on a scripted model that
// asks for cmd three times, and returns the events file it wrote and what it printed.
func runCopilot(t *testing.T, cmd string) (events, stdout string) {
	t.Helper()
	bin := RequireCLI(t, "copilot")
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	root := t.TempDir()
	home, work := filepath.Join(root, "home"), filepath.Join(root, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(BaseEnv(home), "COPILOT_PROVIDER_BASE_URL="+srv.URL+"/v1", "COPILOT_PROVIDER_API_KEY=e2e",
		"COPILOT_MODEL=scripted")
	res := Run(t, Cmd{Path: bin, Dir: work, Env: env, Timeout: 120 * time.Second,
		Args: []string{"-p", "Run the e2e command until told otherwise.", "--allow-all-tools", "--output-format", "json"}})
	res.Check(t, "copilot")
	files, _ := filepath.Glob(filepath.Join(home, ".copilot", "session-state", "*", "events.jsonl"))
	if len(files) != 1 {
		t.Fatalf("%d events files under %s, want 1; stdout:\n%.2000s", len(files), home, res.Stdout)
	}
	return files[0], res.Stdout
}
