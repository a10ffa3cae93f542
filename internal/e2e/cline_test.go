package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/transcript"
)

// Cline CLI 3 keeps each session's messages in ~/.cline/data/sessions/<id>/<id>.messages.json,
// {"sessionId", "messages"} like a Gemini CLI session, but chat messages with tool_use and
// tool_result blocks. The real Cline CLI runs the e2e command three times for the scripted
// model (an OpenAI-compatible provider set with `cline auth`); the messages reader finds the
// three calls of its run_commands tool with their growing output.
func TestClineCLISessionOfARealRun(t *testing.T) {
	bin := RequireCLI(t, "cline")
	cmd, _ := sideEffectCommand(t)
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	root, home, work := newCLIHome(t)
	env := BaseEnv(home)
	// Cline CLI starts a hub daemon that outlives the run (detached, writing under home): it is
	// stopped before the temporary folders are removed (cleanups run last registered first).
	t.Cleanup(func() { stopProcesses(t, "--cline-hub-daemon", root) })
	auth := Run(t, Cmd{Path: bin, Dir: work, Env: env, Timeout: 60 * time.Second,
		Args: []string{"auth", "-p", "openai", "-k", "e2e", "-m", "scripted", "-b", srv.URL + "/v1"}})
	auth.Check(t, "cline auth")
	res := Run(t, Cmd{Path: bin, Dir: work, Env: env, Timeout: 120 * time.Second,
		Args: []string{"--json", "Run the e2e command until told otherwise."}})
	res.Check(t, "cline")
	session := onlyFile(t, filepath.Join(home, ".cline", "data", "sessions", "*", "*.messages.json"), "session message files")
	raw, _ := os.ReadFile(session)
	sideEffectCallsIn(t, session, transcript.FormatMessages, "run_commands", string(raw), "hi")
}

// stopProcesses stops the processes whose command line holds both marks (a daemon a CLI left
// behind for this test), and waits for them to exit.
func stopProcesses(t *testing.T, mark, where string) {
	t.Helper()
	var pids []int
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(mark)) || !bytes.Contains(cmdline, []byte(where)) {
			continue
		}
		pids = append(pids, pid)
		_ = syscall.Kill(pid, syscall.SIGTERM)
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for syscall.Kill(pid, 0) == nil {
			if time.Now().After(deadline) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				time.Sleep(100 * time.Millisecond)
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}
