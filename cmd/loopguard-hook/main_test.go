package main

import (
	"bytes"
	"debug/buildinfo"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loopguard/loopguard/internal/testenv"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.Cleanup()
	os.Exit(code)
}

// The hook-only binary leaves the Redis client out: that is what it is for.
func TestTheHookBinaryDoesNotLinkRedis(t *testing.T) {
	info, err := buildinfo.ReadFile(testenv.Command(t, "loopguard-hook"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range info.Deps {
		if strings.Contains(dep.Path, "redis") {
			t.Errorf("loopguard-hook links %s", dep.Path)
		}
	}
	full, err := buildinfo.ReadFile(testenv.Command(t, "loopguard"))
	if err != nil {
		t.Fatal(err)
	}
	linked := false
	for _, dep := range full.Deps {
		linked = linked || strings.Contains(dep.Path, "go-redis")
	}
	if !linked {
		t.Error("the full loopguard binary does not link go-redis: the check above proves nothing")
	}
}

const event = `{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t%d","tool_response":{"stdout":"x"}}`

func runHook(t *testing.T, exe string, env []string, stdin string, args ...string) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(exe, append([]string{"hook", "claude-code"}, args...)...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v (a hook must always exit 0)\n%s", exe, err, errb.String())
	}
	return out.String(), errb.String()
}

// A hook whose store is Redis runs in the full binary beside loopguard-hook: the state lives
// in Redis (three processes count to three; nothing is written to the embedded store).
func TestARedisStoreIsHandedToTheFullBinary(t *testing.T) {
	redisURL := testenv.Redis(t)
	slim := testenv.Command(t, "loopguard-hook")
	testenv.Command(t, "loopguard") // built beside it
	state := t.TempDir()
	env := []string{"HOME=" + t.TempDir(), "XDG_STATE_HOME=" + state, "PATH=/usr/bin:/bin"}
	for i := 1; i <= 3; i++ {
		out, errs := runHook(t, slim, env, strings.Replace(event, "%d", string(rune('0'+i)), 1),
			"--preset", "repeat-tool-reminder", "--store", redisURL)
		if errs != "" {
			t.Fatalf("call %d: stderr %q", i, errs)
		}
		if got := strings.Contains(out, "You are repeating the exact same tool call"); got != (i == 3) {
			t.Errorf("call %d: reminder %v; output %s", i, got, out)
		}
	}
	if _, err := os.Stat(filepath.Join(state, "loopguard", "state.db")); !os.IsNotExist(err) {
		t.Errorf("the embedded store was written (%v): the event did not reach Redis", err)
	}
}

// Without the full binary, a Redis store cannot be opened: the hook fails open and says how
// to mend it.
func TestARedisStoreWithoutTheFullBinaryFailsOpen(t *testing.T) {
	dir := t.TempDir()
	slim := filepath.Join(dir, "loopguard-hook")
	b, err := os.ReadFile(testenv.Command(t, "loopguard-hook"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(slim, b, 0o755); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	env := []string{"HOME=" + t.TempDir(), "XDG_STATE_HOME=" + state, "PATH=" + t.TempDir()}
	out, errs := runHook(t, slim, env, strings.Replace(event, "%d", "1", 1), "--store", "redis://127.0.0.1:1/0")
	if out != "" {
		t.Errorf("stdout %q, want nothing (fail open)", out)
	}
	if !strings.Contains(errs, "full loopguard binary") || !strings.Contains(errs, "unguarded") {
		t.Errorf("stderr %q does not say what is missing", errs)
	}
	if log, _ := os.ReadFile(filepath.Join(state, "loopguard", "hook.log")); !bytes.Contains(log, []byte("full loopguard binary")) {
		t.Errorf("hook.log %q does not record it", log)
	}
}
