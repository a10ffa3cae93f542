package cli

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/config"
	"github.com/loopguard/loopguard/internal/hook"
	"github.com/loopguard/loopguard/internal/store"
	"github.com/loopguard/loopguard/internal/testenv"
)

// TestMain removes the binary built for the process tests.
func TestMain(m *testing.M) {
	code := m.Run()
	testenv.Cleanup()
	os.Exit(code)
}

// loopguardBinary is the real command: hooks are separate processes.
func loopguardBinary(t *testing.T) string { return testenv.LoopguardBinary(t) }

type hookRun struct {
	stdout, stderr string
	code           int
	maxRSSKiB      int64
}

func runHookProcess(t *testing.T, env []string, stdin []byte, args ...string) hookRun {
	t.Helper()
	cmd := exec.Command(loopguardBinary(t), append([]string{"hook"}, args...)...)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := hookRun{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.maxRSSKiB = ru.Maxrss
	}
	return r
}

// hookEnv is a clean environment whose state and config live in dir.
func hookEnv(dir string, extra ...string) []string {
	return append([]string{
		"HOME=" + dir,
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"PATH=" + os.Getenv("PATH"),
	}, extra...)
}

func postToolUse(session, command string) []byte {
	return []byte(fmt.Sprintf(`{"session_id":%q,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":%q},"tool_response":{"stdout":"no match","stderr":""},"tool_use_id":"toolu_1"}`, session, command))
}

func TestHookFailsOpenOnBadInput(t *testing.T) {
	dir := t.TempDir()
	big := postToolUse("s1", strings.Repeat("x", 10<<20))
	tests := []struct {
		name   string
		input  []byte
		args   []string
		stderr string
	}{
		{"empty stdin", nil, []string{"claude-code"}, "empty hook input"},
		{"truncated JSON", postToolUse("s1", "ls")[:40], []string{"claude-code"}, "is not a claude-code hook event"},
		{"a 100,000-deep nesting", []byte(strings.Repeat("[", 100000) + strings.Repeat("]", 100000)), []string{"claude-code"}, "is not a claude-code hook event"},
		{"an unknown event name", []byte(`{"session_id":"s","hook_event_name":"AfterEverything"}`), []string{"codex"}, `unknown codex hook event "AfterEverything"`},
		{"an unknown host", postToolUse("s1", "ls"), []string{"cursor"}, `unknown host "cursor"`},
		{"a bad configuration", postToolUse("s1", "ls"), []string{"claude-code", "--preset", "nope"}, `unknown preset "nope"`},
		{"an unreachable redis", postToolUse("s1", "ls"), []string{"claude-code", "--store", "redis://127.0.0.1:1/0"}, "redis"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runHookProcess(t, hookEnv(dir), tt.input, tt.args...)
			if r.code != 0 || r.stdout != "" {
				t.Errorf("exit %d, stdout %q; a hook must exit 0 with no decision", r.code, r.stdout)
			}
			lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], tt.stderr) {
				t.Errorf("stderr %q: want one line containing %q", r.stderr, tt.stderr)
			}
		})
	}
	t.Run("a 10 MB tool_input is handled in bounded memory", func(t *testing.T) {
		r := runHookProcess(t, hookEnv(dir), big, "claude-code")
		if r.code != 0 || r.stderr != "" {
			t.Errorf("exit %d, stderr %q", r.code, r.stderr)
		}
		if r.maxRSSKiB > 200<<10 {
			t.Errorf("peak memory %d MiB for a 10 MiB event", r.maxRSSKiB>>10)
		}
		t.Logf("peak memory for a 10 MiB event: %d MiB", r.maxRSSKiB>>10)
	})
	t.Run("each failure is also a line in the log file", func(t *testing.T) {
		logDir := t.TempDir()
		runHookProcess(t, hookEnv(logDir), nil, "gemini-cli")
		log, err := os.ReadFile(filepath.Join(logDir, "state", "loopguard", "hook.log"))
		if err != nil || strings.Count(string(log), "\n") != 1 || !strings.Contains(string(log), "empty hook input") {
			t.Errorf("log file: %v\n%s", err, log)
		}
	})
}

// storeConfig counts every identical call (dsh-brake) and never notices during the test.
func writeCountingConfig(t *testing.T, dir string) string {
	p := filepath.Join(dir, "count.yaml")
	os.WriteFile(p, []byte("dsh-brake: {callWarnCount: 1000, callDenyCount: 1001, sequenceLength: 2, sequenceCount: 1000}\n"), 0o644)
	return p
}

func countingConfig(t *testing.T, path string) loopguard.Config {
	t.Helper()
	cfg, _, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// concurrentHooks starts n hook processes for one session at once, each recording one call,
// and returns the count the store holds afterwards.
func concurrentHooks(t *testing.T, storeURL string, n int) int {
	dir := t.TempDir()
	cfgPath := writeCountingConfig(t, dir)
	env := hookEnv(dir)
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r := runHookProcess(t, env, postToolUse("shared-session", "grep -rn needle ."), "claude-code", "--config", cfgPath, "--store", storeURL)
			if r.code != 0 || r.stderr != "" {
				errs <- fmt.Sprintf("exit %d: %s", r.code, r.stderr)
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	st, err := store.Open(context.Background(), storeURL, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	stats, ok, err := hook.Inspect(context.Background(), st, countingConfig(t, cfgPath), "claude-code:shared-session")
	if err != nil || !ok {
		t.Fatalf("inspect: ok=%v err=%v", ok, err)
	}
	return stats.MaxCallCount
}

func TestConcurrentHookProcessesLoseNoUpdate(t *testing.T) {
	t.Run("embedded store", func(t *testing.T) {
		url := "bolt://" + filepath.Join(t.TempDir(), "state.db")
		if got := concurrentHooks(t, url, 64); got != 64 {
			t.Errorf("64 hook processes recorded one call each; the store counts %d", got)
		}
	})
	t.Run("redis", func(t *testing.T) {
		url := testenv.Redis(t)
		if got := concurrentHooks(t, url, 64); got != 64 {
			t.Errorf("64 hook processes recorded one call each; redis counts %d", got)
		}
	})
}

// A hook process killed at a random moment (often in the middle of its write) 200 times
// leaves a store that opens, and whose count lies between the hooks that finished and the
// hooks that started.
func TestHookKilledMidWriteLeavesAConsistentStore(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping 200 kills")
	}
	dir := t.TempDir()
	cfgPath := writeCountingConfig(t, dir)
	url := "bolt://" + filepath.Join(dir, "state.db")
	bin := loopguardBinary(t)
	r := rand.New(rand.NewPCG(1, 2))
	finished, started := 0, 0
	for i := 0; i < 200; i++ {
		cmd := exec.Command(bin, "hook", "claude-code", "--config", cfgPath, "--store", url)
		cmd.Env = hookEnv(dir)
		cmd.Stdin = bytes.NewReader(postToolUse("crash-session", "make test"))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		started++
		time.Sleep(time.Duration(r.IntN(12000)) * time.Microsecond) // hooks take a few ms: kill before, during and after the write
		cmd.Process.Signal(syscall.SIGKILL)
		if err := cmd.Wait(); err == nil {
			finished++ // it completed before the signal
		}
	}
	st, err := store.Open(context.Background(), url, store.Options{})
	if err != nil {
		t.Fatalf("the store does not open after 200 kills: %v", err)
	}
	defer st.Close()
	stats, _, err := hook.Inspect(context.Background(), st, countingConfig(t, cfgPath), "claude-code:crash-session")
	if err != nil {
		t.Fatalf("the stored state does not load after 200 kills: %v", err)
	}
	if stats.MaxCallCount < finished || stats.MaxCallCount > started {
		t.Errorf("count %d, want between %d (finished) and %d (started)", stats.MaxCallCount, finished, started)
	}
	// And it still works.
	res := runHookProcess(t, hookEnv(dir), postToolUse("crash-session", "make test"), "claude-code", "--config", cfgPath, "--store", url)
	if res.code != 0 || res.stderr != "" {
		t.Errorf("a hook after the kills: exit %d, %s", res.code, res.stderr)
	}
	t.Logf("%d of %d hook processes finished before their kill; count %d", finished, started, stats.MaxCallCount)
}

// loopguard-hook, the hook-only binary, answers exactly as `loopguard hook` does.
func TestHookOnlyBinaryAnswersLikeLoopguardHook(t *testing.T) {
	slim := testenv.Command(t, "loopguard-hook")
	full := loopguardBinary(t)
	event := postToolUse("same-answer", "grep -rn needle .")
	for _, bin := range []string{full, slim} {
		dir := t.TempDir()
		var outs []string
		for i := 0; i < 3; i++ {
			cmd := exec.Command(bin, "hook", "claude-code", "--preset", "repeat-tool-reminder")
			cmd.Env = hookEnv(dir)
			cmd.Stdin = bytes.NewReader(event)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", bin, err)
			}
			outs = append(outs, string(out))
		}
		if outs[0] != "" || outs[1] != "" || !strings.Contains(outs[2], "You are repeating the exact same tool call") {
			t.Errorf("%s: outputs %q", filepath.Base(bin), outs)
		}
	}
	cmd := exec.Command(slim, "hook", "claude-code")
	cmd.Env = hookEnv(t.TempDir())
	cmd.Stdin = strings.NewReader("{")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || len(out) != 0 || !strings.Contains(stderr.String(), "the call goes ahead unguarded") {
		t.Errorf("loopguard-hook on bad input: err %v, stdout %q, stderr %q", err, out, stderr.String())
	}
}

// With --redis-fallback local, hooks whose Redis cannot be reached keep counting in the
// embedded store (a Redis client connects lazily, so this is found at the first command, not
// at open), whatever the deployment the URL names; by default they fail open.
func TestHookRedisFallback(t *testing.T) {
	tests := []struct {
		name, url, fallback string
		wantCount           int // in the embedded store after three hooks; 0: nothing kept
		wantStderr          string
	}{
		{"one node, local", "redis://127.0.0.1:1/0", "local", 3, "using the embedded store instead"},
		{"cluster, local", "redis+cluster://127.0.0.1:1", "local", 3, "using the embedded store instead"},
		{"sentinel, local", "redis://127.0.0.1:1/0?master_name=m", "local", 3, "using the embedded store instead"},
		{"one node, open (the default)", "redis://127.0.0.1:1/0", "", 0, "the call goes ahead unguarded"},
		{"a misspelt policy", "redis://127.0.0.1:1/0", "locall", 0, `--redis-fallback "locall": want open or local`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cfgPath := writeCountingConfig(t, dir)
			args := []string{"claude-code", "--config", cfgPath, "--store", tt.url}
			if tt.fallback != "" {
				args = append(args, "--redis-fallback", tt.fallback)
			}
			for i := 0; i < 3; i++ {
				r := runHookProcess(t, hookEnv(dir), postToolUse("fallback-session", "grep -rn needle ."), args...)
				if r.code != 0 || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tt.wantStderr) {
					t.Fatalf("hook %d: exit %d, stdout %q, stderr %q; want exit 0, no output, one line with %q", i+1, r.code, r.stdout, r.stderr, tt.wantStderr)
				}
			}
			dbPath := filepath.Join(dir, "state", "loopguard", "state.db")
			if _, err := os.Stat(dbPath); tt.wantCount == 0 {
				if err == nil {
					t.Errorf("the hooks failed open yet wrote %s", dbPath)
				}
				return
			} else if err != nil {
				t.Fatalf("no embedded store: %v", err)
			}
			st, err := store.Open(context.Background(), "bolt://"+dbPath, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			stats, ok, err := hook.Inspect(context.Background(), st, countingConfig(t, cfgPath), "claude-code:fallback-session")
			if err != nil || !ok || stats.MaxCallCount != tt.wantCount {
				t.Errorf("embedded store: count %d (found %v, %v), want %d", stats.MaxCallCount, ok, err, tt.wantCount)
			}
		})
	}
}
