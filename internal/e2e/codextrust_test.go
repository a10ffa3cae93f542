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

	"github.com/loopguard/loopguard/internal/install"
)

func strp(s string) *string { return &s }

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
		// SessionEnd (and Interrupt) timeouts default to 1 s and are clamped to 3 s.
		"SessionEnd": {{Hooks: []HookHandler{{Type: "command", Command: "end"}}},
			{Hooks: []HookHandler{{Type: "command", Command: "end", Timeout: 3}, {Type: "command", Command: "end", Timeout: 30}}}},
		"SubagentStop": {{Hooks: []HookHandler{{Type: "command", Command: "loopguard hook codex", Timeout: 30}}}},
		"SessionStart": {{Matcher: "startup|resume", Hooks: []HookHandler{{Type: "command", Command: "ss"}}}},
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
				want[install.CodexHookKey(hooksPath, ev, gi, hi)] = CodexTrustedHash(ev, m, h)
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
			t.Errorf("codex lists key %q, which install.CodexHookKey does not produce", h.Key)
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
			var warnings []string
			for _, w := range d.Warnings {
				// The SessionEnd timeout of 30 s in the test is clamped on purpose.
				if !strings.HasPrefix(w, "clamping SessionEnd hook timeout to 3s") {
					warnings = append(warnings, w)
				}
			}
			if len(warnings) > 0 || len(d.Errors) > 0 {
				t.Errorf("hooks/list warnings %v errors %s", warnings, d.Errors)
			}
			out = append(out, d.Hooks...)
		}
		return out
	}
	io.Copy(io.Discard, stdout)
	t.Fatalf("codex app-server gave no hooks/list answer (scan: %v)\nstderr:\n%s", sc.Err(), stderr.String())
	return nil
}
