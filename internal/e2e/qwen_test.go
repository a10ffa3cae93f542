package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/transcript"
)

// Qwen Code records each session as JSONL lines that look like Claude Code's but carry Gemini
// API content. The real Qwen Code runs the e2e command three times for the scripted model
// (through its OpenAI-compatible client); the qwen-code reader finds the three calls with
// their results in the session file Qwen Code wrote, and the claude-code reader the same calls
// in what it printed with --output-format stream-json.
//
// The command's output is not checked: Qwen Code 0.24 without a terminal sometimes records it
// as "(empty)" (in 2 of 4 runs here), which is its capture, not the transcript. The session's
// results always carry Qwen Code's shell header ("Exit Code: 0"); the stream prints the
// output alone or that header, so there a result must only be there.
func TestQwenCodeSessionOfARealRun(t *testing.T) {
	bin := RequireCLI(t, "qwen")
	cmd, _ := sideEffectCommand(t)
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	_, home, work := newCLIHome(t)
	env := append(BaseEnv(home), "OPENAI_API_KEY=e2e", "OPENAI_BASE_URL="+srv.URL+"/v1",
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1")
	res := Run(t, Cmd{Path: bin, Dir: work, Env: env, Timeout: 120 * time.Second, Args: []string{
		"--auth-type", "openai", "--approval-mode", "yolo", "-m", "scripted", "-o", "stream-json",
		"Run the e2e command until told otherwise."}})
	res.Check(t, "qwen")

	session := onlyFile(t, filepath.Join(home, ".qwen", "projects", "*", "chats", "*.jsonl"), "session files")
	raw, _ := os.ReadFile(session)
	sideEffectCallsIn(t, session, transcript.FormatQwenCode, "run_shell_command", string(raw), "Exit Code: 0")

	stream := printedOutput(t, "qwen-code", res.Stdout)
	sideEffectCallsIn(t, stream, transcript.FormatClaudeCode, "run_shell_command", res.Stdout, "")
}
