package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loopguard/loopguard"
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
	root := t.TempDir()
	home, work := filepath.Join(root, "home"), filepath.Join(root, "work")
	for _, d := range []string{home, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := append(BaseEnv(home), "OPENAI_API_KEY=e2e", "OPENAI_BASE_URL="+srv.URL+"/v1",
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1")
	res := Run(t, Cmd{Path: bin, Dir: work, Env: env, Timeout: 120 * time.Second, Args: []string{
		"--auth-type", "openai", "--approval-mode", "yolo", "-m", "scripted", "-o", "stream-json",
		"Run the e2e command until told otherwise."}})
	res.Check(t, "qwen")

	sessions, _ := filepath.Glob(filepath.Join(home, ".qwen", "projects", "*", "chats", "*.jsonl"))
	if len(sessions) != 1 {
		t.Fatalf("%d session files under %s, want 1", len(sessions), home)
	}
	raw, _ := os.ReadFile(sessions[0])
	qwenCalls(t, sessions[0], transcript.FormatQwenCode, string(raw), "Exit Code: 0")

	stream := filepath.Join(t.TempDir(), "agent", "qwen-code.txt")
	writeFile(t, stream, []byte(res.Stdout))
	qwenCalls(t, stream, transcript.FormatClaudeCode, res.Stdout, "")
}

// qwenCalls reads the transcript at path, which must be of format, and checks that its main
// agent made the three runs of the e2e command, each with a result that holds want (any
// result when want is "").
func qwenCalls(t *testing.T, path, format, raw, want string) {
	t.Helper()
	tr, err := transcript.Read(path)
	if err != nil {
		t.Fatalf("%v; written:\n%.3000s", err, raw)
	}
	if tr.Format != format {
		t.Errorf("%s: format %q, want %q", filepath.Base(path), tr.Format, format)
	}
	main := tr.Agent(transcript.MainAgent)
	if main == nil {
		t.Fatalf("no main agent in %s", path)
	}
	var calls []loopguard.Event
	for _, ev := range main.Events {
		if ev.Type == loopguard.EventCall {
			calls = append(calls, ev)
		}
	}
	if len(calls) != 3 {
		t.Fatalf("%s: %d calls, want the 3 the model asked for; written:\n%.4000s", filepath.Base(path), len(calls), raw)
	}
	for i, c := range calls {
		if c.Tool != "run_shell_command" || !strings.Contains(string(c.Args), "side-effect") || !c.HasResult || c.Result == "" || !strings.Contains(c.Result, want) {
			t.Errorf("%s call %d: %s %s → %q (result: %v)", filepath.Base(path), i, c.Tool, c.Args, c.Result, c.HasResult)
		}
	}
}
