package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runMain runs the loopguard command in-process with HOME (and the rest of the environment)
// from env; the binary the hooks run is exe.
func runMain(t *testing.T, exe string, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	old := installExecutable
	installExecutable = func() (string, error) { return exe, nil }
	defer func() { installExecutable = old }()
	var out, errb bytes.Buffer
	code = Main(args, &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }})
	return out.String(), errb.String(), code
}

func TestInstallCommand(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home}
	const exe = "/opt/lg/loopguard"
	settings := filepath.Join(home, ".claude", "settings.json")

	// --dry-run: a diff, nothing written.
	out, errs, code := runMain(t, exe, env, "install", "--dry-run", "claude-code")
	if code != 0 || !strings.HasPrefix(out, "--- /dev/null\n+++ "+settings+"\n@@ -0,0 +1,") || !strings.Contains(errs, "dry run: nothing written") {
		t.Fatalf("dry run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if _, err := os.Stat(settings); err == nil {
		t.Fatal("--dry-run wrote the settings")
	}

	// Install, flags after the host.
	cfg := filepath.Join(t.TempDir(), "lg.yaml")
	os.WriteFile(cfg, []byte("dsh-brake: {mode: deny, callWarnCount: 2, callDenyCount: 3}\n"), 0o644)
	out, errs, code = runMain(t, exe, env, "install", "claude-code", "--config", cfg, "--store", "bolt")
	if code != 0 || !strings.Contains(out, "wrote "+settings) || !strings.Contains(out, "command: "+exe+" hook claude-code --config "+cfg+" --store bolt") {
		t.Fatalf("install: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	data, _ := os.ReadFile(settings)
	if n := strings.Count(string(data), exe+" hook claude-code"); n != 7 {
		t.Errorf("%d handlers in the settings, want 7:\n%s", n, data)
	}

	// Again: nothing changes.
	out, _, code = runMain(t, exe, env, "install", "claude-code", "--user", "--config", cfg, "--store", "bolt")
	if code != 0 || !strings.Contains(out, "already installed") {
		t.Errorf("second install: exit %d, %s", code, out)
	}
	// Dry-run uninstall shows the removal.
	out, _, code = runMain(t, exe, env, "uninstall", "claude-code", "--dry-run")
	if code != 0 || !strings.Contains(out, "-            \"command\": \""+exe+" hook claude-code") {
		t.Errorf("uninstall --dry-run: exit %d\n%s", code, out)
	}
	out, errs, code = runMain(t, exe, env, "uninstall", "claude-code")
	if code != 0 || !strings.Contains(out, "removed 7 loopguard handler(s)") || !strings.Contains(out, "(backup: "+settings+".loopguard-backup-") {
		t.Errorf("uninstall: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if data, _ := os.ReadFile(settings); string(data) != "{}\n" {
		t.Errorf("after uninstall: %q", data)
	}
	out, _, code = runMain(t, exe, env, "uninstall", "claude-code")
	if code != 0 || !strings.Contains(out, "no loopguard hook") {
		t.Errorf("second uninstall: exit %d, %s", code, out)
	}
}

func TestInstallCommandProject(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	out, errs, code := runMain(t, "/opt/lg/loopguard", map[string]string{"HOME": t.TempDir()}, "install", "gemini-cli", "--project", "--preset", "dsh-brake")
	want := filepath.Join(dir, ".gemini", "settings.json")
	if code != 0 || !strings.Contains(out, "wrote "+want) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

func TestInstallCommandErrors(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home}
	bad := filepath.Join(home, ".codex", "hooks.json")
	os.MkdirAll(filepath.Dir(bad), 0o755)
	os.WriteFile(bad, []byte("{\n  \"hooks\": {,}\n}\n"), 0o644)
	badCfg := filepath.Join(home, "bad.yaml")
	os.WriteFile(badCfg, []byte("dsh-brake: {mode: sideways}\n"), 0o644)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"install"}, exitUsage, "which host?"},
		{[]string{"install", "claude-code", "codex"}, exitUsage, "one host at a time"},
		{[]string{"install", "cursor"}, exitUsage, `unknown host "cursor"`},
		{[]string{"install", "codex", "--user", "--project"}, exitUsage, "not both"},
		{[]string{"install", "codex", "--preset", "nope"}, exitUsage, `unknown preset "nope"`},
		{[]string{"install", "codex", "--preset", "default", "--config", badCfg}, exitUsage, "not both"},
		{[]string{"install", "codex", "--config", badCfg}, exitUsage, "bad.yaml:1:"},
		{[]string{"install", "codex", "--store", "memory"}, exitUsage, "keeps nothing between hook processes"},
		{[]string{"install", "codex", "--store", "ftp://x"}, exitUsage, "unsupported"},
		{[]string{"install", "codex"}, exitFail, bad + ":2:13: not valid JSON"},
		{[]string{"uninstall", "codex", "--preset", "default"}, exitUsage, "flag provided but not defined"},
	}
	for _, c := range cases {
		_, errs, code := runMain(t, "/opt/lg/loopguard", env, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, want %d; stderr:\n%s\nwant it to contain %q", c.args, code, c.code, errs, c.want)
		}
	}
	if data, _ := os.ReadFile(bad); string(data) != "{\n  \"hooks\": {,}\n}\n" {
		t.Errorf("the invalid file was changed: %q", data)
	}
}

// The command install writes runs under sh, even from a directory whose name needs quoting,
// and it is loopguard's hook: the third identical call gets the reminder.
func TestInstalledCommandRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "it's a dir")
	os.MkdirAll(dir, 0o755)
	exe := filepath.Join(dir, "loopguard")
	b, err := os.ReadFile(loopguardBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	if _, errs, code := runMain(t, exe, map[string]string{"HOME": home}, "install", "claude-code"); code != 0 {
		t.Fatalf("install: %s", errs)
	}
	data, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	command := s.Hooks["PostToolUse"][0].Hooks[0].Command
	event := `{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t%d","tool_response":{"stdout":"x"}}`
	for i := 1; i <= 3; i++ {
		cmd := exec.Command("/bin/sh", "-c", command)
		cmd.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin"}
		cmd.Stdin = strings.NewReader(strings.Replace(event, "%d", string(rune('0'+i)), 1))
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil || errb.Len() > 0 {
			t.Fatalf("sh -c %s: %v\n%s", command, err, errb.String())
		}
		if got := strings.Contains(out.String(), "You have made the same call (Bash) 3 times"); got != (i == 3) {
			t.Errorf("call %d: reminder %v; output %s", i, got, out.String())
		}
	}
}

func TestInstallPrefersTheHookOnlyBinary(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "loopguard")
	os.WriteFile(full, []byte("#!/bin/sh\n"), 0o755)
	if got := hookExecutable(full, ""); got != full {
		t.Errorf("without loopguard-hook beside it: %s", got)
	}
	slim := filepath.Join(dir, "loopguard-hook")
	os.WriteFile(slim, []byte("#!/bin/sh\n"), 0o644)
	if got := hookExecutable(full, ""); got != full {
		t.Errorf("a loopguard-hook that is not executable was chosen: %s", got)
	}
	os.Chmod(slim, 0o755)
	if got := hookExecutable(full, ""); got != slim {
		t.Errorf("with loopguard-hook beside it: %s, want %s", got, slim)
	}
	if got := hookExecutable(full, "redis://127.0.0.1:6379/0"); got != full {
		t.Errorf("with a Redis store, which loopguard-hook does not link: %s, want %s", got, full)
	}
}
