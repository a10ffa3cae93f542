package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loopguard/loopguard/agent"
)

func TestDemoRemindsLoopsAndLeavesProgressAlone(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "session.jsonl")
	stdout, stderr, code := runCLI(t, "", "demo", "--log", logPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"▲ progress: run_tests × 3",  // a repeated failing call, gently
		"▲ progress: run_tests × 6",  // then in detail
		"▲ progress: cycle of 2 × 3", // a cycle of calls
		"3 notices in 23 tool calls",
		"Session log, every message the model saw with its source: " + logPath,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "\x1b[") {
		t.Error("colour codes in output that is not a terminal")
	}

	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := agent.ReadLog(f)
	if err != nil {
		t.Fatal(err)
	}
	var summaries []string
	for _, r := range recs {
		if r.Source.Form == agent.FormNotice {
			summaries = append(summaries, r.Source.Plugin+" "+r.Source.Summary)
		}
	}
	// Nothing in the third scene: a test re-run after an edit, and a build polled while it
	// advances, are progress.
	want := "progress run_tests × 3,progress run_tests × 6,progress cycle of 2 × 3"
	if got := strings.Join(summaries, ","); got != want {
		t.Errorf("notices in the session log:\n got %s\nwant %s", got, want)
	}
}

func TestDemoHonoursThePreset(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "demo", "--preset", "repeat-tool-reminder", "--log", filepath.Join(t.TempDir(), "s.jsonl"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, "dsh-brake") || !strings.Contains(stdout, "(--preset repeat-tool-reminder)") {
		t.Errorf("the repeat-tool-reminder preset ran dsh-brake or did not say which preset ran:\n%s", stdout)
	}
}

// The seed plugins, run on the same script, nag the progress scene: the contrast the default
// preset exists for.
func TestDemoSeedsNagTheProgressScene(t *testing.T) {
	stdout, stderr, code := runCLI(t, "", "demo", "--preset", "seeds", "--log", filepath.Join(t.TempDir(), "s.jsonl"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "▲ repeat-tool-reminder: build_status × 3") {
		t.Errorf("the seeds did not remind the advancing build poll:\n%s", stdout)
	}
}

func TestDemoWritesItsLogToATemporaryDirectoryByDefault(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	stdout, stderr, code := runCLI(t, "", "demo")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	i := strings.LastIndex(stdout, ": ")
	path := strings.TrimSpace(stdout[i+2:])
	if !strings.HasPrefix(path, os.Getenv("TMPDIR")) {
		t.Fatalf("log path %q is not in the temporary directory", path)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Errorf("no session log at %s: %v", path, err)
	}
}

func TestDemoRejectsBadUsage(t *testing.T) {
	for _, args := range [][]string{{"demo", "extra"}, {"demo", "--preset", "nope"}, {"demo", "--no-such-flag"}} {
		if _, _, code := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
