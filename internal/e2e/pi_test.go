package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/transcript"
)

// pi (the agent OpenClaw runs) keeps each session as a JSONL tree of entries, and prints the
// same messages as events with --mode json. The real pi runs the e2e command three times for
// the scripted model (a provider of its models.json on the scripted server's Chat
// Completions); the pi reader finds the three calls with their growing output both in the
// session file pi wrote and in what it printed.
func TestPiSessionOfARealRun(t *testing.T) {
	cmd, _ := sideEffectCommand(t)
	session, stdout := runPi(t, cmd)
	sideEffectCallsIn(t, session, transcript.FormatPi, "bash", "", "hi")
	printed := filepath.Join(t.TempDir(), "agent", "pi.txt")
	writeFile(t, printed, []byte(stdout))
	sideEffectCallsIn(t, printed, transcript.FormatPi, "bash", stdout, "hi")
}

// The default preset on a real pi session of a command whose output never changes: the
// reminder comes at the third call.
func TestDefaultPresetOnAPiSession(t *testing.T) {
	cmd, _ := stuckCommand(t)
	session, _ := runPi(t, cmd)
	tr, err := transcript.Read(session)
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
	}
}

// runPi runs the real pi in print mode with --mode json on a scripted model that asks for cmd
// three times, and returns the session file pi wrote and what it printed.
func runPi(t *testing.T, cmd string) (session, stdout string) {
	t.Helper()
	bin := RequireCLI(t, "pi")
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	root := t.TempDir()
	home, work := filepath.Join(root, "home"), filepath.Join(root, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, ".pi", "agent", "models.json"), []byte(`{"providers": {"e2e": {
		"baseUrl": "`+srv.URL+`/v1", "api": "openai-completions", "apiKey": "e2e",
		"models": [{"id": "scripted", "name": "scripted", "contextWindow": 128000, "maxTokens": 4096}]}}}`))
	res := Run(t, Cmd{Path: bin, Dir: work, Env: append(BaseEnv(home), "PI_OFFLINE=1"), Timeout: 120 * time.Second,
		Args: []string{"--offline", "-p", "--provider", "e2e", "--model", "scripted", "--mode", "json",
			"Run the e2e command until told otherwise."}})
	res.Check(t, "pi")
	files, _ := filepath.Glob(filepath.Join(home, ".pi", "agent", "sessions", "*", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("%d session files under %s, want 1; stdout:\n%.2000s", len(files), home, res.Stdout)
	}
	return files[0], res.Stdout
}
