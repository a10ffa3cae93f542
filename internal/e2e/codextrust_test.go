package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func strp(s string) *string { return &s }

// Known answers: hashes `codex app-server` (0.171.0) reported for these
// hooks in hooks/list (currentHash).
func TestCodexTrustedHashKnownAnswers(t *testing.T) {
	cases := []struct {
		event   string
		matcher *string
		h       HookHandler
		want    string
	}{
		{"PreToolUse", strp("Bash"), HookHandler{Type: "command", Command: "/tmp/explore/ch/hook.sh pre", Timeout: 10},
			"sha256:905ad85f5401d3dee1bb4a429c10bafce313de8bc6e9e671675b6ff7847f30f6"},
		{"PostToolUse", nil, HookHandler{Type: "command", Command: "/tmp/explore/ch/hook.sh post"},
			"sha256:b21507a4b2d69d6d0ddaa75538c1ef3d3cf91312287a23e4a5a339e63eb357e4"},
		// Stop takes no matcher: Codex drops it before hashing.
		{"Stop", strp("ignored"), HookHandler{Type: "command", Command: "echo hi", StatusMessage: "x"},
			"sha256:b29a2373a13a1c4a66bee6525ba04730282afb303f7a7b68195b0fd4d55f2750"},
		// An explicit empty matcher is kept; "timeout": 0 in hooks.json is
		// raised to 1, so it hashes like Timeout 1 (0 in Go means unset);
		// <, >, &, quotes, non-ASCII, U+2028 and a tab as serde_json writes them.
		{"PreToolUse", strp(""), HookHandler{Type: "command", Command: "a <b> & \"c\" é \u2028 \t", Timeout: 1},
			"sha256:d3872894849f475466941058f7329d55d6c8c2d861f22d8e860a4bdd7566ed16"},
		{"PreToolUse", strp("*"), HookHandler{Type: "command", Command: "y"},
			"sha256:779ffadebb0212a2836c34300220a6be7f017ef1e9b0f475b793e267b345acc1"},
		{"UserPromptSubmit", strp("zz"), HookHandler{Type: "command", Command: "u"},
			"sha256:428174c11a917f82217b7d1d27622db1935db5b47c2f7c04bd1090beb7f8a251"},
		{"SubagentStart", nil, HookHandler{Type: "command", Command: "s"},
			"sha256:093fa4855bc8330c5aa72dc78530258f20a3109982e26629bf6d4e4796e73d1f"},
	}
	for _, c := range cases {
		if got := CodexTrustedHash(c.event, c.matcher, c.h); got != c.want {
			t.Errorf("CodexTrustedHash(%s, %v, %+v) = %s, want %s", c.event, c.matcher, c.h, got, c.want)
		}
	}
	if got, want := CodexHookKey("/h/hooks.json", "PostToolUse", 1, 2), "/h/hooks.json:post_tool_use:1:2"; got != want {
		t.Errorf("CodexHookKey = %q, want %q", got, want)
	}
	for in, want := range map[string]string{"PreToolUse": "pre_tool_use", "UserPromptSubmit": "user_prompt_submit",
		"SubagentStop": "subagent_stop", "Stop": "stop", "PermissionRequest": "permission_request"} {
		if got := CodexHookEventLabel(in); got != want {
			t.Errorf("CodexHookEventLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCodexTrustedHashMatchesCodex asks the installed Codex itself
// (`codex app-server`, JSON-RPC hooks/list) for the key and current hash of
// a variety of hooks, and checks that CodexHookKey / CodexTrustedHash agree
// and that the entries CodexTrustState writes make Codex list them as
// trusted.
func TestCodexTrustedHashMatchesCodex(t *testing.T) {
	bin := RequireCLI(t, "codex")
	home := filepath.Join(t.TempDir(), "codex-home")
	hooksPath := filepath.Join(home, "hooks.json")
	cfg := HooksConfig{
		"PreToolUse": {
			{Matcher: "Bash", Hooks: []HookHandler{{Type: "command", Command: "/x/hook.sh pre", Timeout: 10}}},
			{Matcher: "*", Hooks: []HookHandler{
				{Type: "command", Command: `printf '%s' "<a & b>" é`},
				{Type: "command", Command: "loopguard hook codex", Timeout: 1, StatusMessage: "loopguard"},
			}},
		},
		"PostToolUse":      {{Matcher: "exec_command|Bash", Hooks: []HookHandler{{Type: "command", Command: "loopguard hook codex", Timeout: 30}}}},
		"UserPromptSubmit": {{Matcher: "ignored", Hooks: []HookHandler{{Type: "command", Command: "u\tv"}}}},
		"Stop":             {{Hooks: []HookHandler{{Type: "command", Command: "stop-hook"}}}},
		"SessionStart":     {{Matcher: "startup|resume", Hooks: []HookHandler{{Type: "command", Command: "ss"}}}},
	}
	writeFile(t, hooksPath, HooksFileJSON(cfg))

	want := map[string]string{} // key -> our hash
	for ev, groups := range cfg {
		for gi, g := range groups {
			var m *string
			if g.Matcher != "" {
				m = strp(g.Matcher)
			}
			for hi, h := range g.Hooks {
				want[CodexHookKey(hooksPath, ev, gi, hi)] = CodexTrustedHash(ev, m, h)
			}
		}
	}

	list := codexHooksList(t, bin, home)
	if len(list) != len(want) {
		t.Errorf("codex lists %d hooks, want %d: %+v", len(list), len(want), list)
	}
	for _, h := range list {
		w, ok := want[h.Key]
		if !ok {
			t.Errorf("codex lists key %q, which CodexHookKey does not produce", h.Key)
			continue
		}
		if h.CurrentHash != w {
			t.Errorf("%s: codex hash %s, CodexTrustedHash %s", h.Key, h.CurrentHash, w)
		}
		if h.TrustStatus != "untrusted" {
			t.Errorf("%s: trust status %q before trusting, want untrusted", h.Key, h.TrustStatus)
		}
	}

	// Now trust them the way InstallHooks does and ask again.
	writeFile(t, filepath.Join(home, "config.toml"), []byte(CodexTrustState(hooksPath, cfg)))
	for _, h := range codexHooksList(t, bin, home) {
		if h.TrustStatus != "trusted" {
			t.Errorf("%s: trust status %q after CodexTrustState, want trusted", h.Key, h.TrustStatus)
		}
	}
}

type codexHookEntry struct {
	Key         string `json:"key"`
	EventName   string `json:"eventName"`
	Command     string `json:"command"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"`
}

// codexHooksList runs `codex app-server` with CODEX_HOME=home and returns
// its hooks/list answer.
func codexHooksList(t *testing.T, bin, home string) []codexHookEntry {
	t.Helper()
	cmd := exec.Command(bin, "app-server")
	cmd.Dir = t.TempDir()
	cmd.Env = append(BaseEnv(filepath.Dir(home)), "CODEX_HOME="+home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}()
	timer := time.AfterFunc(60*time.Second, func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	defer timer.Stop()

	send := func(v any) {
		b, _ := json.Marshal(v)
		if _, err := stdin.Write(append(b, '\n')); err != nil {
			t.Fatalf("write to codex app-server: %v (stderr: %s)", err, stderr.String())
		}
	}
	send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{
		"clientInfo": map[string]any{"name": "loopguard-e2e", "version": "0.0.0"}}})
	send(map[string]any{"method": "initialized"})
	send(map[string]any{"id": 2, "method": "hooks/list", "params": map[string]any{"cwds": []string{cmd.Dir}}})

	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var msg struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.ID == nil || *msg.ID != 2 {
			continue
		}
		if len(msg.Error) > 0 {
			t.Fatalf("hooks/list failed: %s", msg.Error)
		}
		var res struct {
			Data []struct {
				Hooks    []codexHookEntry  `json:"hooks"`
				Warnings []string          `json:"warnings"`
				Errors   []json.RawMessage `json:"errors"`
			} `json:"data"`
		}
		if err := json.Unmarshal(msg.Result, &res); err != nil {
			t.Fatalf("hooks/list result: %v\n%s", err, msg.Result)
		}
		var out []codexHookEntry
		for _, d := range res.Data {
			if len(d.Warnings) > 0 || len(d.Errors) > 0 {
				t.Errorf("hooks/list warnings %v errors %s", d.Warnings, d.Errors)
			}
			out = append(out, d.Hooks...)
		}
		return out
	}
	io.Copy(io.Discard, stdout)
	t.Fatalf("codex app-server gave no hooks/list answer (scan: %v)\nstderr:\n%s", sc.Err(), stderr.String())
	return nil
}
