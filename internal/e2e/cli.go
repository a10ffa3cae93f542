package e2e

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// InstallScript is the script that installs the agent CLIs.
const InstallScript = "scripts/install-agent-clis.sh"

// RepoRoot returns the module root (the nearest parent holding go.mod).
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// CLIBinDir is where the install script puts the CLIs' executables:
// $AGENT_CLIS_PREFIX/node_modules/.bin, or <repo>/.agent-clis/node_modules/.bin.
func CLIBinDir(t testing.TB) string {
	prefix := os.Getenv("AGENT_CLIS_PREFIX")
	if prefix == "" {
		prefix = filepath.Join(RepoRoot(t), ".agent-clis")
	}
	return filepath.Join(prefix, "node_modules", ".bin")
}

// RequireCLI returns the path of an installed agent CLI ("claude", "codex",
// "gemini"). When it is missing the test is skipped, or fails when the
// environment has CI=true.
func RequireCLI(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(CLIBinDir(t), name)
	if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
		return p
	}
	msg := name + " is not installed; run " + InstallScript
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + " (CI=true: the e2e tests must run)")
	}
	t.Skip(msg)
	return ""
}

// Cmd is one CLI invocation.
type Cmd struct {
	Path    string
	Args    []string
	Dir     string
	Env     []string // the whole environment (see BaseEnv)
	Stdin   string
	Timeout time.Duration // default 75s
}

// Result is the outcome of a Cmd.
type Result struct {
	Stdout, Stderr string
	ExitCode       int // -1 if killed / not started
	Err            error
	TimedOut       bool
	Start          time.Time
	Duration       time.Duration
}

// BaseEnv returns a minimal environment for a CLI run: PATH (so node and
// the shell are found), a UTF-8 locale and HOME. Nothing else of the
// caller's environment leaks in (no real API keys, no CI variables).
func BaseEnv(home string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"USER=e2e",
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
	}
	if tz := os.Getenv("TZ"); tz != "" {
		env = append(env, "TZ="+tz)
	}
	return env
}

// Run runs c with a deadline, in its own process group, and kills the
// whole group when it ends (or times out), so no child outlives the test.
func Run(t testing.TB, c Cmd) *Result {
	t.Helper()
	if c.Timeout == 0 {
		c.Timeout = 75 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Path, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	cmd.Stdin = strings.NewReader(c.Stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	// Children that keep the output pipes open must not hang Wait.
	cmd.WaitDelay = 5 * time.Second

	start := time.Now()
	err := cmd.Start()
	res := &Result{ExitCode: -1, Start: start}
	if err != nil {
		res.Err = err
		return res
	}
	err = cmd.Wait()
	// Whatever the outcome, nothing of the group may survive.
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	res.Duration = time.Since(start)
	res.Stdout, res.Stderr = stdout.String(), stderr.String()
	res.Err = err
	res.TimedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	return res
}

// Check fails the test unless the run exited 0 in time, logging its output.
func (r *Result) Check(t testing.TB, what string) {
	t.Helper()
	if r.TimedOut || r.ExitCode != 0 {
		t.Fatalf("%s: exit %d, timed out %v, err %v\nstdout:\n%s\nstderr:\n%s",
			what, r.ExitCode, r.TimedOut, r.Err, truncate(r.Stdout, 8000), truncate(r.Stderr, 8000))
	}
}
