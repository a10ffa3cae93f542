package e2e

import (
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
	printed := printedOutput(t, "copilot", stdout)
	sideEffectCallsIn(t, printed, transcript.FormatCopilot, "bash", stdout, "hi")
}

// The default preset on a real Copilot CLI session of a command whose output never changes:
// Copilot CLI ends each output with its shell's sequence number ("<shellId: 2 completed with
// exit code 0>"), and the reminder still comes at the third call.
func TestDefaultPresetOnACopilotSession(t *testing.T) {
	cmd, _ := stuckCommand(t)
	events, _ := runCopilot(t, cmd)
	wantNoticeAtThird(t, loopguard.PresetDefault, sideEffectCallsIn(t, events, transcript.FormatCopilot, "bash", "", "no matches found"))
}

// runCopilot runs the real Copilot CLI in prompt mode with JSON output on a scripted model that
// asks for cmd three times, and returns the events file it wrote and what it printed.
func runCopilot(t *testing.T, cmd string) (events, stdout string) {
	t.Helper()
	bin := RequireCLI(t, "copilot")
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	_, home, work := newCLIHome(t)
	env := append(BaseEnv(home), "COPILOT_PROVIDER_BASE_URL="+srv.URL+"/v1", "COPILOT_PROVIDER_API_KEY=e2e",
		"COPILOT_MODEL=scripted")
	res := Run(t, Cmd{Path: bin, Dir: work, Env: env, Timeout: 120 * time.Second,
		Args: []string{"-p", "Run the e2e command until told otherwise.", "--allow-all-tools", "--output-format", "json"}})
	res.Check(t, "copilot")
	return onlyFile(t, filepath.Join(home, ".copilot", "session-state", "*", "events.jsonl"), "events files"), res.Stdout
}
