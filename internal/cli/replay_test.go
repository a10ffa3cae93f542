package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files from the current output")

func runCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
	return out.String(), errb.String(), code
}

// Each folder under testdata/replay is a scenario: config.yaml, events.jsonl, and want.jsonl,
// the exact output of `loopguard replay --config config.yaml < events.jsonl`.
func TestReplayScenarios(t *testing.T) {
	dirs, err := filepath.Glob("../../testdata/replay/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no scenarios found: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			events, err := os.ReadFile(filepath.Join(dir, "events.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := runCLI(t, string(events), "replay", "--config", filepath.Join(dir, "config.yaml"))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			golden := filepath.Join(dir, "want.jsonl")
			if *update {
				if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/cli -run TestReplayScenarios -update to create it)", err)
			}
			if stdout != string(want) {
				t.Errorf("output differs from %s\n got:\n%s\nwant:\n%s", golden, stdout, want)
			}
		})
	}
}

func TestReplayMalformedInput(t *testing.T) {
	tests := []struct {
		name, input, wantErr string
	}{
		{"not JSON", "{\"type\":\"call\"\n", "stdin:1: not JSON"},
		{"a line that is not an object", "[1]\n", "stdin:1: an event must be a JSON object"},
		{"missing type", `{"agent":"a"}` + "\n", `stdin:1: missing "type"`},
		{"unknown type", `{"type":"cal"}` + "\n", `stdin:1: unknown "type" "cal"`},
		{"a call without a tool", `{"type":"call","agent":"a"}` + "\n", `stdin:1: a call needs a string "tool"`},
		{"a call with a numeric tool", `{"type":"call","agent":"a","tool":3}` + "\n", `stdin:1: a call needs a string "tool"`},
		{"a numeric agent", `{"type":"user","agent":1}` + "\n", `stdin:1: "agent" must be a string`},
		{"a non-string id", `{"type":"text","agent":"a","id":2,"text":"x"}` + "\n", `stdin:1: "id" must be a string`},
		{"a non-string source", `{"type":"text","agent":"a","source":null,"text":"x"}` + "\n", `stdin:1: "source" must be a string`},
		{"a non-string text", `{"type":"text","agent":"a","text":[]}` + "\n", `stdin:1: "text" must be a string`},
		{"a non-numeric ts", `{"type":"user","agent":"a","ts":"now"}` + "\n", `stdin:1: "ts" must be a number`},
		{"line numbers count blank lines", "\n\n{\"type\":\"user\",\"agent\":\"a\"}\n{\n", "stdin:4: not JSON"},
		{"trailing text after the object", `{"type":"user","agent":"a"} x` + "\n", "stdin:1: not JSON: text after the event object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tt.input, "replay")
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(stderr, tt.wantErr) {
				t.Errorf("stderr %q, want it to contain %q", stderr, tt.wantErr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
}

func TestReplaySkipInvalid(t *testing.T) {
	input := `{"type":"call","agent":"a","tool":"p"}
garbage
{"type":"call","agent":"a","tool":"p"}
{"type":"nope"}
{"type":"call","agent":"a","tool":"p"}
`
	stdout, stderr, code := runCLI(t, input, "replay", "--preset", "repeat-tool-reminder", "--skip-invalid")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"stdin:2: not JSON", "stdin:4: unknown \"type\"", "skipped 2 invalid lines"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stdout, `"event":4`) || !strings.Contains(stdout, `"summary":"p × 3"`) {
		t.Errorf("the valid calls still count, N is the line number: %s", stdout)
	}
}

func TestReplayBadConfigExits2(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bad.yaml")
	os.WriteFile(cfg, []byte("dsh-brake: {callWarnCount: 1.5}\n"), 0o644)
	_, stderr, code := runCLI(t, "", "replay", "--config", cfg)
	if code != 2 || !strings.Contains(stderr, cfg+":1:28: dsh-brake: callWarnCount must be an integer >= 2, got 1.5") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = runCLI(t, "", "replay", "--preset", "nope")
	if code != 2 || !strings.Contains(stderr, `unknown preset "nope"`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestConfigCheck(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.yaml")
	os.WriteFile(empty, []byte("# nothing\n"), 0o644)
	stdout, stderr, code := runCLI(t, "", "config", "check", empty)
	if code != 0 || !strings.Contains(stderr, "no plugin is enabled") || strings.Contains(stdout, "dsh-brake") {
		t.Errorf("empty config: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	stdout, _, code = runCLI(t, "", "config", "check", "--preset", "dsh-brake")
	if code != 0 || !strings.Contains(stdout, "callDenyCount: 10") || strings.Contains(stdout, "repeat-tool-reminder") {
		t.Errorf("preset: exit %d, stdout %q", code, stdout)
	}
}

func TestVersionAndUnknownCommand(t *testing.T) {
	stdout, _, code := runCLI(t, "", "--version")
	if code != 0 || !strings.HasPrefix(stdout, "loopguard ") {
		t.Errorf("--version: %d %q", code, stdout)
	}
	_, stderr, code := runCLI(t, "", "frobnicate")
	if code != 2 || !strings.Contains(stderr, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: %d %q", code, stderr)
	}
}
