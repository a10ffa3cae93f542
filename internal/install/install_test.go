package install

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/hook"
)

const testExe = "/opt/loopguard/bin/loopguard"

// testEnv is a throwaway home and project directory.
type testEnv struct {
	o Options
}

func newTestEnv(t *testing.T, host hook.Host, scope Scope) *testEnv {
	t.Helper()
	root := t.TempDir()
	e := &testEnv{o: Options{
		Host: host, Scope: scope, Exe: testExe,
		Home: filepath.Join(root, "home"), Cwd: filepath.Join(root, "project"),
	}}
	for _, d := range []string{e.o.Home, e.o.Cwd} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e *testEnv) settings(t *testing.T) string {
	t.Helper()
	p, err := settingsPath(&e.o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (e *testEnv) codexConfig() string { return filepath.Join(e.o.Home, ".codex", "config.toml") }

func (e *testEnv) install(t *testing.T, edit ...func(*Options)) *Plan {
	t.Helper()
	o := e.o
	for _, f := range edit {
		f(&o)
	}
	p, err := PlanInstall(o)
	if err != nil {
		t.Fatalf("PlanInstall: %v", err)
	}
	if _, err := p.Apply(time.Now()); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return p
}

func (e *testEnv) uninstall(t *testing.T) *Plan {
	t.Helper()
	p, err := PlanUninstall(e.o)
	if err != nil {
		t.Fatalf("PlanUninstall: %v", err)
	}
	if _, err := p.Apply(time.Now()); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return p
}

func writeTestFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readTestFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// handler is one command handler found in a settings file.
type handler struct {
	Event   string
	Matcher *string
	Command string
	Timeout int
	Name    string
}

// loopguardHandlers decodes a settings file with encoding/json and returns
// the handlers whose command runs testExe.
func loopguardHandlers(t *testing.T, data string) []handler {
	t.Helper()
	var doc struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
				Name    string `json:"name"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatalf("settings are not valid JSON: %v\n%s", err, data)
	}
	var out []handler
	for ev, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if strings.HasPrefix(h.Command, testExe) {
					out = append(out, handler{ev, g.Matcher, h.Command, h.Timeout, h.Name})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b handler) int { return strings.Compare(a.Event, b.Event) })
	return out
}

// checkInstalled checks that the settings hold exactly one loopguard handler
// per event of host, with the right matcher, timeout and command.
func checkInstalled(t *testing.T, host hook.Host, data, command string) {
	t.Helper()
	got := loopguardHandlers(t, data)
	want := map[string]eventSpec{}
	for _, e := range specs[host].events {
		want[e.Name] = e
	}
	if len(got) != len(want) {
		t.Errorf("%d loopguard handlers, want %d: %+v\n%s", len(got), len(want), got, data)
	}
	for _, h := range got {
		e, ok := want[h.Event]
		if !ok {
			t.Errorf("loopguard handler under %s, which is not one of ours", h.Event)
			continue
		}
		if (e.Matcher == "") != (h.Matcher == nil) || (h.Matcher != nil && *h.Matcher != e.Matcher) {
			t.Errorf("%s: matcher %v, want %q", h.Event, h.Matcher, e.Matcher)
		}
		if h.Timeout != e.Timeout || h.Command != command {
			t.Errorf("%s: command %q timeout %d, want %q %d", h.Event, h.Command, h.Timeout, command, e.Timeout)
		}
		if host == hook.GeminiCLI && h.Name != "loopguard" {
			t.Errorf("%s: name %q, want loopguard", h.Event, h.Name)
		}
	}
}

// checkCodexTrust checks that config.toml trusts every loopguard handler of
// hooks.json with the hash Codex would compute, and holds no other entry
// for hooks.json than those in others.
func checkCodexTrust(t *testing.T, e *testEnv, others ...string) {
	t.Helper()
	hooksPath := e.settings(t)
	keyPath := filepath.Join(realPath(filepath.Dir(hooksPath)), "hooks.json")
	doc, err := decodeTOML("config.toml", []byte(readTestFile(t, e.codexConfig())))
	if err != nil {
		t.Fatal(err)
	}
	root, err := parseJSON(hooksPath, []byte(readTestFile(t, hooksPath)))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, m := range root.get("hooks").members {
		for gi, g := range m.val.items {
			var matcher *string
			if s, ok := g.get("matcher").str(); ok {
				matcher = &s
			}
			for hi, h := range g.get("hooks").items {
				cmd, _ := h.get("command").str()
				if !strings.HasPrefix(cmd, testExe) {
					continue
				}
				var timeout int
				json.Unmarshal(h.get("timeout").raw, &timeout)
				want[CodexHookKey(keyPath, m.key, gi, hi)] = CodexTrustedHash(m.key, matcher, CodexHandler{Command: cmd, Timeout: timeout})
			}
		}
	}
	if len(want) != len(specs[hook.Codex].events) {
		t.Errorf("%d loopguard handlers in hooks.json, want %d", len(want), len(specs[hook.Codex].events))
	}
	state := existingTrust(doc)
	for k, h := range want {
		entry, _ := state[k].(map[string]any)
		if entry["trusted_hash"] != h {
			t.Errorf("trust entry %s = %v, want trusted_hash %s", k, state[k], h)
		}
	}
	for _, k := range codexTrustKeys(doc, keyPath+":") {
		if _, ok := want[k]; !ok && !slices.Contains(others, k) {
			t.Errorf("unexpected trust entry %s", k)
		}
	}
}

// stripOurs removes loopguard's handlers (and what that empties) from a
// settings document with plain encoding/json, independently of the code
// under test, and returns the rest (numbers kept as written).
func stripOurs(t *testing.T, data string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	hooks, _ := doc["hooks"].(map[string]any)
	for ev, v := range hooks {
		groups, _ := v.([]any)
		var keep []any
		for _, g := range groups {
			gm, _ := g.(map[string]any)
			hs, _ := gm["hooks"].([]any)
			var kept []any
			removed := false
			for _, h := range hs {
				hm, _ := h.(map[string]any)
				if c, _ := hm["command"].(string); strings.HasPrefix(c, testExe) {
					removed = true
					continue
				}
				kept = append(kept, h)
			}
			if removed && len(kept) == 0 {
				continue
			}
			if removed {
				gm["hooks"] = kept
			}
			keep = append(keep, g)
		}
		if len(groups) > 0 && len(keep) == 0 {
			delete(hooks, ev)
		} else if len(groups) > 0 {
			hooks[ev] = keep
		}
	}
	if hooks != nil && len(hooks) == 0 {
		delete(doc, "hooks")
	}
	return doc
}

func plainDecode(t *testing.T, data string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// compactTokens is the document with its whitespace removed but every token
// as written (via the tree parser; keys in file order).
func compactTokens(t *testing.T, data string) string {
	t.Helper()
	v, err := parseJSON("x", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	return v.compactString()
}

// Existing settings with other hooks and settings, in 4-space indentation,
// with escapes, odd numbers, an empty event array and a null.
var existing = map[hook.Host]string{
	hook.ClaudeCode: `{
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "model": "opus",
    "env": {"TOKEN": "a\u00e9\"<>&\/", "N": 1.0e2},
    "permissions": {"allow": ["Bash(ls:*)"], "deny": []},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit.sh", "timeout": 5}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
        "Notification": []
    },
    "statusLine": {"type": "command", "command": "echo hi"},
    "zzz": null
}
`,
	hook.Codex: `{
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/bin/audit pre", "statusMessage": "auditing"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 2}]}]
    }
}
`,
	hook.GeminiCLI: `{
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "general": {"disableAutoUpdate": true},
    "hooks": {
        "BeforeTool": [{"matcher": "write_file|replace", "hooks": [{"name": "security-check", "type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/security.sh", "timeout": 5000}]}],
        "AfterModel": [{"hooks": [{"type": "command", "command": "log-model"}]}]
    },
    "ui": {"theme": "GitHub"}
}
`,
}

// codexConfigFixture is a config.toml with comments, other tables and a
// trust entry for the user's own PreToolUse hook (HOOKS is replaced by the
// hooks.json path).
const codexConfigFixture = `# Codex settings
model = "gpt-5.1-codex"   # inline comment
approval_policy = "never"

[model_providers.e2e]
name = "e2e"
base_url = "http://127.0.0.1:1/v1"

[projects."/work/x"]
trust_level = "trusted"

[hooks.state."HOOKS:pre_tool_use:0:0"]
trusted_hash = "sha256:1111111111111111111111111111111111111111111111111111111111111111"
# the end
`

func TestInstallUninstall(t *testing.T) {
	for _, host := range hook.Hosts() {
		for _, scope := range []Scope{ScopeUser, ScopeProject} {
			for _, fresh := range []bool{true, false} {
				name := string(host) + "/" + string(scope) + "/existing"
				if fresh {
					name = string(host) + "/" + string(scope) + "/fresh"
				}
				t.Run(name, func(t *testing.T) {
					testInstallUninstall(t, host, scope, fresh)
				})
			}
		}
	}
}

func testInstallUninstall(t *testing.T, host hook.Host, scope Scope, fresh bool) {
	e := newTestEnv(t, host, scope)
	path := e.settings(t)
	wantPath := map[Scope]map[hook.Host]string{
		ScopeUser: {hook.ClaudeCode: filepath.Join(e.o.Home, ".claude", "settings.json"),
			hook.Codex:     filepath.Join(e.o.Home, ".codex", "hooks.json"),
			hook.GeminiCLI: filepath.Join(e.o.Home, ".gemini", "settings.json")},
		ScopeProject: {hook.ClaudeCode: filepath.Join(e.o.Cwd, ".claude", "settings.json"),
			hook.Codex:     filepath.Join(e.o.Cwd, ".codex", "hooks.json"),
			hook.GeminiCLI: filepath.Join(e.o.Cwd, ".gemini", "settings.json")},
	}[scope][host]
	if path != wantPath {
		t.Fatalf("settings path %s, want %s", path, wantPath)
	}
	var original, originalConfig string
	var userTrustKey string
	if !fresh {
		original = existing[host]
		writeTestFile(t, path, original)
		if host == hook.Codex {
			userTrustKey = filepath.Join(realPath(filepath.Dir(path)), "hooks.json") + ":pre_tool_use:0:0"
			originalConfig = strings.ReplaceAll(codexConfigFixture, "HOOKS", strings.TrimSuffix(userTrustKey, ":pre_tool_use:0:0"))
			writeTestFile(t, e.codexConfig(), originalConfig)
		}
	}

	// Install.
	p := e.install(t)
	command := testExe + " hook " + string(host)
	if p.Command != command {
		t.Errorf("command %q, want %q", p.Command, command)
	}
	data := readTestFile(t, path)
	checkInstalled(t, host, data, command)
	if !strings.HasSuffix(data, "}\n") || !strings.Contains(data, "\n  \"hooks\": {\n") {
		t.Errorf("not written with 2-space indentation and a final newline:\n%s", data)
	}
	if host == hook.Codex {
		checkCodexTrust(t, e, userTrustKey)
	}
	if !fresh {
		// Everything else survives: token for token (escapes, number
		// spellings, key order), and as plain encoding/json sees it.
		if got, want := compactTokens(t, string(mustUninstalled(t, host, data))), compactTokens(t, original); got != want {
			t.Errorf("other settings changed:\n got %s\nwant %s", got, want)
		}
		if got, want := stripOurs(t, data), plainDecode(t, original); !reflect.DeepEqual(got, want) {
			t.Errorf("other settings changed (encoding/json):\n got %v\nwant %v", got, want)
		}
		backups := backupsOf(t, path)
		if len(backups) != 1 || readTestFile(t, backups[0]) != original {
			t.Errorf("backups of %s: %v, want one holding the original", path, backups)
		}
		if host == hook.Codex {
			conf := readTestFile(t, e.codexConfig())
			if !strings.HasPrefix(conf, originalConfig) {
				t.Errorf("config.toml: the original text is not kept as it was:\n%s", conf)
			}
		}
	} else if backups := backupsOf(t, path); len(backups) != 0 {
		t.Errorf("backups of a new file: %v", backups)
	}
	if fresh {
		want := os.FileMode(0o600)
		if scope == ScopeProject {
			want = 0o644
		}
		if st, err := os.Stat(path); err != nil || st.Mode().Perm() != want {
			t.Errorf("new settings file mode %v (%v), want %v", st.Mode().Perm(), err, want)
		}
	}
	checkNoTemp(t, filepath.Dir(path))

	// Again: nothing to do, nothing written.
	before := readTestFile(t, path)
	nBackups := len(backupsOf(t, path))
	p = e.install(t)
	if len(p.Changes) != 0 {
		t.Errorf("second install changes %d files:\n%s", len(p.Changes), p.Diff())
	}
	if readTestFile(t, path) != before || len(backupsOf(t, path)) != nBackups {
		t.Error("second install rewrote the settings")
	}
	if p.Found != len(specs[host].events) {
		t.Errorf("second install found %d handlers of ours, want %d", p.Found, len(specs[host].events))
	}

	// Uninstall: back to what was there.
	e.uninstall(t)
	after := readTestFile(t, path)
	if len(loopguardHandlers(t, after)) != 0 {
		t.Errorf("handlers left after uninstall:\n%s", after)
	}
	switch {
	case fresh && after != "{}\n":
		t.Errorf("uninstall left %q, want {}", after)
	case !fresh && compactTokens(t, after) != compactTokens(t, original):
		t.Errorf("uninstall did not restore the settings:\n got %s\nwant %s", compactTokens(t, after), compactTokens(t, original))
	}
	if host == hook.Codex {
		conf := readTestFile(t, e.codexConfig())
		if !fresh && conf != originalConfig {
			t.Errorf("uninstall did not restore config.toml byte for byte:\n%s", conf)
		}
		if fresh && conf != "" {
			t.Errorf("uninstall left config.toml %q, want it empty", conf)
		}
	}
	checkNoTemp(t, filepath.Dir(path))

	// Uninstalling again does nothing.
	if p = e.uninstall(t); len(p.Changes) != 0 {
		t.Errorf("second uninstall changes %d files", len(p.Changes))
	}
}

// mustUninstalled removes our handlers with the code under test.
func mustUninstalled(t *testing.T, host hook.Host, data string) []byte {
	t.Helper()
	root, err := parseJSON("x", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := editHooks("x", root, specs[host], "", func(h *jvalue) bool {
		c, _ := h.get("command").str()
		return IsLoopguardCommand(c, host, testExe)
	}); err != nil {
		t.Fatal(err)
	}
	return root.format()
}

func backupsOf(t *testing.T, path string) []string {
	t.Helper()
	m, err := filepath.Glob(path + BackupSuffix + "*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func checkNoTemp(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") || strings.Contains(e.Name(), ".loopguard-") && !strings.Contains(e.Name(), BackupSuffix) {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// Installing with other flags replaces our handlers in place: one per event,
// never two; Codex's trust follows.
func TestInstallReplacesOnNewFlags(t *testing.T) {
	for _, host := range hook.Hosts() {
		t.Run(string(host), func(t *testing.T) {
			e := newTestEnv(t, host, ScopeUser)
			path := e.settings(t)
			writeTestFile(t, path, existing[host])
			e.install(t, func(o *Options) { o.Preset = "dsh-brake" })
			checkInstalled(t, host, readTestFile(t, path), testExe+" hook "+string(host)+" --preset dsh-brake")
			cfg := "/etc/loop guard/it's.yaml"
			p := e.install(t, func(o *Options) { o.Config = cfg; o.Store = "redis://127.0.0.1:6379/0" })
			want := testExe + " hook " + string(host) + ` --config '/etc/loop guard/it'\''s.yaml' --store redis://127.0.0.1:6379/0`
			if p.Command != want {
				t.Errorf("command %q, want %q", p.Command, want)
			}
			data := readTestFile(t, path)
			checkInstalled(t, host, data, want)
			if got, want := compactTokens(t, string(mustUninstalled(t, host, data))), compactTokens(t, existing[host]); got != want {
				t.Errorf("other settings changed:\n got %s\nwant %s", got, want)
			}
			if w := shellWords(p.Command); len(w) != 7 || w[4] != cfg {
				t.Errorf("the command does not split back into its words: %q", w)
			}
			if host == hook.Codex {
				checkCodexTrust(t, e)
			}
			if n := len(backupsOf(t, path)); n != 2 {
				t.Errorf("%d backups, want 2 (one per change)", n)
			}
		})
	}
}

// Handlers of ours that a user moved or copied: the first per event is
// rewritten where it is (in a shared group, the group's matcher is the
// user's); the others, and any under events loopguard no longer uses, go.
func TestInstallAdoptsExistingHandlers(t *testing.T) {
	e := newTestEnv(t, hook.ClaudeCode, ScopeUser)
	path := e.settings(t)
	writeTestFile(t, path, `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "audit"},
          {"type": "command", "command": "loopguard hook claude-code --preset dsh-brake", "statusMessage": "x"}
        ]
      }
    ],
    "PostToolUse": [
      {"matcher": "Edit", "hooks": [{"type": "command", "command": "/old/place/loopguard hook claude-code"}]},
      {"matcher": "*", "hooks": [{"type": "command", "command": "'/other/loopguard' hook claude-code"}]}
    ],
    "Stop": [
      {"hooks": [{"type": "command", "command": "loopguard hook claude-code"}]}
    ],
    "SessionStart": [
      {"hooks": [{"type": "command", "command": "loopguard hook codex"}, {"type": "http", "url": "http://x/hook/claude-code"}]}
    ]
  }
}
`)
	p := e.install(t)
	if p.Found != 4 {
		t.Errorf("found %d handlers of ours, want 4", p.Found)
	}
	root, err := parseJSON(path, []byte(readTestFile(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	hooks := root.get("hooks")
	want := `[{"matcher":"Bash","hooks":[{"type":"command","command":"audit"},{"type":"command","command":"` + testExe + ` hook claude-code","timeout":30}]}]`
	if got := hooks.get("PreToolUse").compactString(); got != want {
		t.Errorf("PreToolUse = %s\nwant %s", got, want)
	}
	want = `[{"matcher":"*","hooks":[{"type":"command","command":"` + testExe + ` hook claude-code","timeout":30}]}]`
	if got := hooks.get("PostToolUse").compactString(); got != want {
		t.Errorf("PostToolUse = %s\nwant %s", got, want)
	}
	if hooks.get("Stop") != nil {
		t.Errorf("Stop still holds %s", hooks.get("Stop").compactString())
	}
	want = `[{"hooks":[{"type":"command","command":"loopguard hook codex"},{"type":"http","url":"http://x/hook/claude-code"}]}]`
	if got := hooks.get("SessionStart").compactString(); got != want {
		t.Errorf("SessionStart (not ours: another host's command, an http hook) = %s", got)
	}
	var noted bool
	for _, n := range p.Notes {
		noted = noted || strings.Contains(n, "counted twice")
	}
	if !noted {
		t.Errorf("no note about the http hook to loopguard serve: %q", p.Notes)
	}
}

func TestIsLoopguardCommand(t *testing.T) {
	cases := []struct {
		cmd  string
		want bool
	}{
		{"loopguard hook claude-code", true},
		{"/usr/local/bin/loopguard hook claude-code --preset dsh-brake", true},
		{"'/home/me/my tools/loopguard' hook claude-code", true},
		{`"/home/me/my tools/loopguard-dev" hook claude-code --store x`, true},
		{`/home/me/my\ tools/loopguard hook claude-code`, true},
		{"/opt/lg/custom-name hook claude-code", false},
		{testExe + " hook claude-code", true},
		{"loopguard hook codex", false},
		{"loopguard serve", false},
		{"loopguard hook claude-code; rm -rf /", false},
		{"echo loopguard hook claude-code", false},
		{"", false},
	}
	for _, c := range cases {
		if got := IsLoopguardCommand(c.cmd, hook.ClaudeCode, testExe); got != c.want {
			t.Errorf("IsLoopguardCommand(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
	if !IsLoopguardCommand("/opt/lg/custom-name hook claude-code", hook.ClaudeCode, "/opt/lg/custom-name") {
		t.Error("the running binary, whatever its name, is ours")
	}
}

func TestHookCommandQuoting(t *testing.T) {
	cases := map[string]string{
		"/usr/bin/loopguard":        "/usr/bin/loopguard hook codex",
		"/home/a b/loopguard":       "'/home/a b/loopguard' hook codex",
		"/home/it's/loopguard":      `'/home/it'\''s/loopguard' hook codex`,
		"/home/$HOME/`x`/loopguard": "'/home/$HOME/`x`/loopguard' hook codex",
	}
	for exe, want := range cases {
		got := HookCommand(exe, hook.Codex, "", "", "")
		if got != want {
			t.Errorf("HookCommand(%q) = %q, want %q", exe, got, want)
		}
		if w := shellWords(got); len(w) != 3 || w[0] != exe {
			t.Errorf("shellWords(%q) = %q", got, w)
		}
	}
}

func TestInvalidSettingsRefused(t *testing.T) {
	cases := []struct {
		name, data, want string
	}{
		{"trailing comma", "{\n  \"a\": 1,\n  \"b\": [1, 2,]\n}\n", ":3:"},
		{"comment", "{\n  // my settings\n  \"a\": 1\n}\n", ":2:3: not valid JSON"},
		{"truncated", "{\n  \"hooks\": {\n", ":3:1: not valid JSON"},
		{"not an object", "[1, 2]\n", "top level is not a JSON object"},
		{"hooks not an object", `{"hooks": []}`, `"hooks" is not a JSON object`},
		{"event not an array", `{"hooks": {"PreToolUse": {}}}`, `"hooks"."PreToolUse" is not an array`},
		{"two hooks", `{"hooks": {}, "hooks": {}}`, `"hooks" appears more than once`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newTestEnv(t, hook.ClaudeCode, ScopeUser)
			path := e.settings(t)
			writeTestFile(t, path, c.data)
			_, err := PlanInstall(e.o)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("PlanInstall error %v, want one naming %s and saying %q", err, path, c.want)
			}
			if readTestFile(t, path) != c.data || len(backupsOf(t, path)) != 0 {
				t.Error("the file was touched")
			}
		})
	}
	t.Run("config.toml", func(t *testing.T) {
		e := newTestEnv(t, hook.Codex, ScopeUser)
		writeTestFile(t, e.codexConfig(), "model = \"x\"\n[projects\n")
		_, err := PlanInstall(e.o)
		if err == nil || !strings.Contains(err.Error(), e.codexConfig()+":2:") || !strings.Contains(err.Error(), "not valid TOML") {
			t.Fatalf("PlanInstall error %v, want config.toml:2:...: not valid TOML", err)
		}
		if _, err := os.Stat(e.settings(t)); err == nil {
			t.Error("hooks.json was written although config.toml is broken")
		}
	})
	t.Run("config.toml inline hooks", func(t *testing.T) {
		e := newTestEnv(t, hook.Codex, ScopeUser)
		conf := "hooks = { state = {} }\n"
		writeTestFile(t, e.codexConfig(), conf)
		_, err := PlanInstall(e.o)
		if err == nil || !strings.Contains(err.Error(), "cannot edit this file safely") {
			t.Fatalf("PlanInstall error %v, want a refusal", err)
		}
	})
}

// An empty settings file is an empty object.
func TestEmptySettingsFile(t *testing.T) {
	e := newTestEnv(t, hook.GeminiCLI, ScopeProject)
	writeTestFile(t, e.settings(t), "  \n")
	e.install(t)
	checkInstalled(t, hook.GeminiCLI, readTestFile(t, e.settings(t)), testExe+" hook gemini-cli")
}

// The plan is shown as a unified diff and nothing is written until Apply.
func TestDryRunDiff(t *testing.T) {
	e := newTestEnv(t, hook.Codex, ScopeUser)
	path := e.settings(t)
	writeTestFile(t, path, existing[hook.Codex])
	p, err := PlanInstall(e.o)
	if err != nil {
		t.Fatal(err)
	}
	d := p.Diff()
	for _, want := range []string{
		"--- " + path + "\n+++ " + path + "\n@@ -1,",
		"--- /dev/null\n+++ " + e.codexConfig() + "\n@@ -0,0 +1,14 @@\n+[hooks.state.",
		"+            \"command\": \"" + testExe + " hook codex\",\n",
		"-    \"hooks\": {\n",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	if readTestFile(t, path) != existing[hook.Codex] {
		t.Error("planning wrote the settings")
	}
	if _, err := os.Stat(e.codexConfig()); err == nil {
		t.Error("planning wrote config.toml")
	}
	if len(backupsOf(t, path)) != 0 {
		t.Error("planning wrote a backup")
	}
}

func TestUnifiedDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"
	new := "a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
	want := `--- x
+++ y
@@ -1,6 +1,6 @@
 a
 b
-c
+C
 d
 e
 f
@@ -9,3 +9,4 @@
 i
 j
 k
+l
`
	if got := unifiedDiff("x", "y", []byte(old), []byte(new)); got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	if got := unifiedDiff("x", "y", []byte("a"), []byte("a\n")); got != "--- x\n+++ y\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n" {
		t.Errorf("no-newline diff:\n%s", got)
	}
	if got := unifiedDiff("x", "y", nil, []byte("a\nb\n")); got != "--- x\n+++ y\n@@ -0,0 +1,2 @@\n+a\n+b\n" {
		t.Errorf("new-file diff:\n%s", got)
	}
	if got := unifiedDiff("x", "y", []byte("a\nb\n"), nil); got != "--- x\n+++ y\n@@ -1,2 +0,0 @@\n-a\n-b\n" {
		t.Errorf("deleted-file diff:\n%s", got)
	}
	if unifiedDiff("x", "y", []byte("same\n"), []byte("same\n")) != "" {
		t.Error("diff of equal texts is not empty")
	}
}

// Codex trusts by position: when uninstalling shifts a user's handlers up,
// their trust entries follow them, and stale entries in the way go.
func TestCodexUninstallKeepsOthersTrusted(t *testing.T) {
	e := newTestEnv(t, hook.Codex, ScopeUser)
	path := e.settings(t)
	writeTestFile(t, path, `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit"}]}]}}`)
	keyPath := filepath.Join(realPath(filepath.Dir(path)), "hooks.json")
	aKey := CodexHookKey(keyPath, "PreToolUse", 0, 0)
	aHash := CodexTrustedHash("PreToolUse", strp("Bash"), CodexHandler{Command: "audit"})
	writeTestFile(t, e.codexConfig(), CodexTrustTable(aKey, aHash))
	e.install(t) // ours: PreToolUse group 1

	// The user adds two handlers after ours, and trusts them (as Codex
	// would: tables appended to config.toml).
	root, _ := parseJSON(path, []byte(readTestFile(t, path)))
	pre := root.get("hooks").get("PreToolUse")
	b := `{"matcher":"Edit","hooks":[{"type":"command","command":"b1"},{"type":"command","command":"b2"}]}`
	bv, _ := parseJSON("b", []byte(b))
	pre.items = append(pre.items, bv)
	writeTestFile(t, path, string(root.format()))
	b1 := CodexTrustedHash("PreToolUse", strp("Edit"), CodexHandler{Command: "b1"})
	b2 := CodexTrustedHash("PreToolUse", strp("Edit"), CodexHandler{Command: "b2"})
	conf := readTestFile(t, e.codexConfig()) + "\n" +
		CodexTrustTable(CodexHookKey(keyPath, "PreToolUse", 2, 0), b1) + "enabled = true\n\n" +
		CodexTrustTable(CodexHookKey(keyPath, "PreToolUse", 2, 1), b2) + "\n" +
		// A stale entry where b1 will land after the shift (ours is there now,
		// so it is removed anyway) and one for a handler long gone.
		CodexTrustTable(CodexHookKey(keyPath, "Stop", 0, 0), "sha256:00")
	writeTestFile(t, e.codexConfig(), conf)

	e.uninstall(t)
	doc, err := decodeTOML("config.toml", []byte(readTestFile(t, e.codexConfig())))
	if err != nil {
		t.Fatal(err)
	}
	got := existingTrust(doc)
	want := map[string]any{
		aKey: map[string]any{"trusted_hash": aHash},
		CodexHookKey(keyPath, "PreToolUse", 1, 0): map[string]any{"trusted_hash": b1, "enabled": true},
		CodexHookKey(keyPath, "PreToolUse", 1, 1): map[string]any{"trusted_hash": b2},
		CodexHookKey(keyPath, "Stop", 0, 0):       map[string]any{"trusted_hash": "sha256:00"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("trust after uninstall:\n got %v\nwant %v\n%s", got, want, readTestFile(t, e.codexConfig()))
	}
}

// With --project, Codex's trust still goes to the user's config.toml, keyed
// by the project's hooks.json; an untrusted project gets a note.
func TestCodexProject(t *testing.T) {
	e := newTestEnv(t, hook.Codex, ScopeProject)
	p := e.install(t)
	if p.Settings != filepath.Join(e.o.Cwd, ".codex", "hooks.json") || p.TrustFile != e.codexConfig() {
		t.Errorf("settings %s, trust file %s", p.Settings, p.TrustFile)
	}
	checkCodexTrust(t, e)
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "trusted project") {
		t.Errorf("notes %q, want one about trusting the project", p.Notes)
	}
	conf := readTestFile(t, e.codexConfig()) + "\n[projects." + tomlString(e.o.Cwd) + "]\ntrust_level = \"trusted\"\n"
	writeTestFile(t, e.codexConfig(), conf)
	if p = e.install(t); len(p.Notes) != 0 || len(p.Changes) != 0 {
		t.Errorf("trusted project: notes %q, %d changes", p.Notes, len(p.Changes))
	}
}

// The environment variables the hosts honour move the user's files.
func TestUserDirsFromEnvironment(t *testing.T) {
	root := t.TempDir()
	env := map[string]string{
		"CLAUDE_CONFIG_DIR": filepath.Join(root, "claude"),
		"CODEX_HOME":        filepath.Join(root, "codex"),
		"GEMINI_CLI_HOME":   filepath.Join(root, "gemini"),
	}
	want := map[hook.Host]string{
		hook.ClaudeCode: filepath.Join(root, "claude", "settings.json"),
		hook.Codex:      filepath.Join(root, "codex", "hooks.json"),
		hook.GeminiCLI:  filepath.Join(root, "gemini", ".gemini", "settings.json"),
	}
	for host, w := range want {
		o := Options{Host: host, Scope: ScopeUser, Home: "/nonexistent", Cwd: root, Getenv: func(k string) string { return env[k] }}
		if got, err := settingsPath(&o); err != nil || got != w {
			t.Errorf("%s: %s (%v), want %s", host, got, err, w)
		}
	}
}

// A settings file that is a symbolic link (dotfiles) is edited where it
// points; the link stays.
func TestSymlinkedSettings(t *testing.T) {
	e := newTestEnv(t, hook.ClaudeCode, ScopeUser)
	path := e.settings(t)
	target := filepath.Join(e.o.Home, "dotfiles", "claude.json")
	writeTestFile(t, target, existing[hook.ClaudeCode])
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	e.install(t)
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symbolic link was replaced (%v)", err)
	}
	checkInstalled(t, hook.ClaudeCode, readTestFile(t, target), testExe+" hook claude-code")
	if b := backupsOf(t, target); len(b) != 1 {
		t.Errorf("backups next to the target: %v", b)
	}
}

// A file that changes between planning and writing is left alone.
func TestApplyRefusesConcurrentChange(t *testing.T) {
	e := newTestEnv(t, hook.ClaudeCode, ScopeUser)
	path := e.settings(t)
	writeTestFile(t, path, `{"a": 1}`)
	p, err := PlanInstall(e.o)
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, path, `{"a": 2}`)
	if _, err := p.Apply(time.Now()); err == nil || !strings.Contains(err.Error(), "changed since loopguard read it") {
		t.Fatalf("Apply error %v, want a refusal", err)
	}
	if readTestFile(t, path) != `{"a": 2}` {
		t.Error("the concurrent change was overwritten")
	}
	if len(backupsOf(t, path)) != 0 {
		t.Error("a backup was left for a change not made")
	}
	checkNoTemp(t, filepath.Dir(path))
}

// Permissions of an existing file are kept; backups get the same.
func TestPermissionsKept(t *testing.T) {
	e := newTestEnv(t, hook.GeminiCLI, ScopeUser)
	path := e.settings(t)
	writeTestFile(t, path, `{}`)
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	e.install(t)
	for _, f := range append(backupsOf(t, path), path) {
		if st, err := os.Stat(f); err != nil || st.Mode().Perm() != 0o640 {
			t.Errorf("%s: mode %v (%v), want 0640", f, st.Mode().Perm(), err)
		}
	}
}

func TestBackupNames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	now := time.Date(2026, 1, 2, 15, 4, 5, 0, time.FixedZone("x", 3600))
	var names []string
	for range 3 {
		n, err := writeBackup(path, []byte("x"), 0o600, now)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, filepath.Base(n))
	}
	want := []string{"settings.json.loopguard-backup-20260102T140405Z", "settings.json.loopguard-backup-20260102T140405Z-2", "settings.json.loopguard-backup-20260102T140405Z-3"}
	if !slices.Equal(names, want) {
		t.Errorf("backup names %q, want %q", names, want)
	}
}

// Notes for settings that keep hooks from running.
func TestNotes(t *testing.T) {
	cases := []struct {
		host hook.Host
		data string
		want string
	}{
		{hook.ClaudeCode, `{"disableAllHooks": true}`, "runs no hooks at all"},
		{hook.GeminiCLI, `{"hooksConfig": {"enabled": false}}`, "runs no hooks at all"},
		{hook.GeminiCLI, `{"hooksConfig": {"disabled": ["loopguard"]}}`, "/hooks enable loopguard"},
	}
	for _, c := range cases {
		e := newTestEnv(t, c.host, ScopeUser)
		writeTestFile(t, e.settings(t), c.data)
		p, err := PlanInstall(e.o)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], c.want) {
			t.Errorf("%s %s: notes %q, want %q", c.host, c.data, p.Notes, c.want)
		}
	}
}

func TestJSONTreeKeepsTokens(t *testing.T) {
	in := `{"b":"\u00e9\/","a":[1.50e3,-0,true,null,{}],"":{"x":[]}, "b":2}`
	v, err := parseJSON("x", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := v.compactString(); got != strings.ReplaceAll(in, ", ", ",") {
		t.Errorf("compact = %s", got)
	}
	var out bytes.Buffer
	json.Indent(&out, []byte(v.compactString()), "", "  ")
	if string(v.format()) != out.String()+"\n" {
		t.Errorf("format:\n%s", v.format())
	}
}

// Trust entries lost (config.toml replaced, or hooks.json moved): installing
// again writes them back, and only them.
func TestCodexReinstallRestoresTrust(t *testing.T) {
	e := newTestEnv(t, hook.Codex, ScopeUser)
	e.install(t)
	hooksJSON := readTestFile(t, e.settings(t))
	writeTestFile(t, e.codexConfig(), "model = \"x\"\n")
	p := e.install(t)
	if len(p.Changes) != 1 || p.Changes[0].Path != e.codexConfig() {
		t.Fatalf("changes %+v, want config.toml only", p.Changes)
	}
	if readTestFile(t, e.settings(t)) != hooksJSON {
		t.Error("hooks.json was rewritten")
	}
	checkCodexTrust(t, e)
	if !strings.HasPrefix(readTestFile(t, e.codexConfig()), "model = \"x\"\n\n[hooks.state.") {
		t.Errorf("config.toml:\n%s", readTestFile(t, e.codexConfig()))
	}
}

// "hooks": null is no hooks.
func TestNullHooks(t *testing.T) {
	e := newTestEnv(t, hook.ClaudeCode, ScopeUser)
	writeTestFile(t, e.settings(t), `{"a": 1, "hooks": null}`)
	if p, err := PlanUninstall(e.o); err != nil || len(p.Changes) != 0 {
		t.Fatalf("uninstall: %v, %d changes", err, len(p.Changes))
	}
	e.install(t)
	checkInstalled(t, hook.ClaudeCode, readTestFile(t, e.settings(t)), testExe+" hook claude-code")
}

// The tree keeps every token: written compactly it is what json.Compact
// makes of the input.
func FuzzJSONTree(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,2,{"b":null}],"c":"\u00e9\"\\"}`, " {\"x\" : -1.5E+3 , \"x\":true}\n",
		`"str"`, `[[[]],{}]`, `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[]}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) || bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
			return
		}
		v, err := parseJSON("x", data)
		if err != nil {
			t.Fatalf("valid JSON refused: %v", err)
		}
		var want bytes.Buffer
		json.Compact(&want, data)
		if len(bytes.TrimSpace(data)) == 0 {
			return
		}
		if got := v.compactString(); got != want.String() {
			t.Fatalf("compact %q, want %q", got, want.String())
		}
		if !json.Valid(v.format()) {
			t.Fatalf("format is not valid JSON: %q", v.format())
		}
	})
}
