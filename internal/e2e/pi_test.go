package e2e

import (
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
	printed := printedOutput(t, "pi", stdout)
	sideEffectCallsIn(t, printed, transcript.FormatPi, "bash", stdout, "hi")
}

// The default preset on a real pi session of a command whose output never changes: the
// reminder comes at the third call.
func TestDefaultPresetOnAPiSession(t *testing.T) {
	cmd, _ := stuckCommand(t)
	session, _ := runPi(t, cmd)
	wantNoticeAtThird(t, loopguard.PresetDefault, sideEffectCallsIn(t, session, transcript.FormatPi, "bash", "", "no matches found"))
}

// runPi runs the real pi in print mode with --mode json on a scripted model that asks for cmd
// three times, and returns the session file pi wrote and what it printed.
func runPi(t *testing.T, cmd string) (session, stdout string) {
	t.Helper()
	bin := RequireCLI(t, "pi")
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	_, home, work := newCLIHome(t)
	writeFile(t, filepath.Join(home, ".pi", "agent", "models.json"), []byte(`{"providers": {"e2e": {
		"baseUrl": "`+srv.URL+`/v1", "api": "openai-completions", "apiKey": "e2e",
		"models": [{"id": "scripted", "name": "scripted", "contextWindow": 128000, "maxTokens": 4096}]}}}`))
	res := Run(t, Cmd{Path: bin, Dir: work, Env: append(BaseEnv(home), "PI_OFFLINE=1"), Timeout: 120 * time.Second,
		Args: []string{"--offline", "-p", "--provider", "e2e", "--model", "scripted", "--mode", "json",
			"Run the e2e command until told otherwise."}})
	res.Check(t, "pi")
	return onlyFile(t, filepath.Join(home, ".pi", "agent", "sessions", "*", "*.jsonl"), "session files"), res.Stdout
}
