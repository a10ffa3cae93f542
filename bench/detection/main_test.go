package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path string, lines ...string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRunPrintsOneRowPerDetector(t *testing.T) {
	dir := t.TempDir()
	grep := `{"type":"call","agent":"main","tool":"grep","args":{"q":"x"},"result":{"error":false,"text":"nothing"}}`
	var lines []string
	for range 6 {
		lines = append(lines, grep)
	}
	for i := range 10 {
		lines = append(lines, `{"type":"call","agent":"main","tool":"cat","args":{"f":`+string(rune('0'+i))+`}}`)
	}
	writeFile(t, filepath.Join(dir, "run.jsonl"), lines...)
	labels := filepath.Join(t.TempDir(), "labels.jsonl")
	writeFile(t, labels,
		`{"path":"run.jsonl","agent":"main","call_indices":[0,5],"manual_label":"stuck"}`,
		`{"path":"run.jsonl","agent":"main","call_indices":[6,15],"manual_label":"batch"}`)
	var out, errb bytes.Buffer
	if code := run([]string{"--labels", labels, dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{
		"1 transcripts, 1 agents, 16 tool calls; 2 labels: 1 loops and 1 legitimate spans scored, 0 unscored.",
		"Calls outside the loop labels' catch windows: 7.", // 16 calls - [0, 8]
		"| loopguard default |",
		"| loopguard seeds | 1/1 (100.0%) |",
		"| loopguard repeat-tool-reminder | 1/1 (100.0%) |",
		"| loopguard dsh-brake |",
		// CrewAI refuses calls 1 to 5: caught one call after the loop began, all inside.
		"| crewai | 1/1 (100.0%) | 1 call | 0/1 | 312.5 | 0.0 |",
		// Roo Code blocks the 4th identical call.
		"| roo-code | 1/1 (100.0%) | 3 calls | 0/1 | 62.5 | 0.0 |",
		// Six identical calls are below OpenClaw's thresholds.
		"| openclaw | 0/1 (0.0%) | – | 0/1 | 0.0 | 0.0 |",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "\n| ") - 1; n != 4+9 { // less the header
		t.Errorf("%d table rows, want 4 presets + 9 peers:\n%s", n, text)
	}

	out.Reset()
	if code := run([]string{"--labels", labels, "--detail", "--presets", "repeat-tool-reminder", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	// One column per detector; Roo Code's 4th identical call is 3 calls into the loop, and
	// the batch of distinct cat calls is left alone by every detector.
	for _, want := range []string{
		"| label | file | agent | calls | loopguard repeat-tool-reminder | gemini-cli |",
		"| stuck | run.jsonl | main | 0–5 | +2 | +4 | +3 | +3 | +3 | +2 | missed | +2 | missed | +1 |",
		"| batch | run.jsonl | main | 6–15 | quiet | quiet | quiet | quiet | quiet | quiet | quiet | quiet | quiet | quiet |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("detail lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRunRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "labels.jsonl")
	writeFile(t, bad, `{"path":"a","call_indices":[0,1],"manual_label":"stuck"}`, `{"path":"b","call_indices":[3,1],"manual_label":"stuck"}`)
	good := filepath.Join(dir, "good.jsonl")
	writeFile(t, good, `{"path":"a","call_indices":[0,1],"manual_label":"stuck"}`)
	for _, c := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no labels", []string{dir}, 2, "usage"},
		{"no folders", []string{"--labels", good}, 2, "usage"},
		{"a label with a bad span names its line", []string{"--labels", bad, dir}, 1, bad + ":2:"},
		{"an unknown preset is named", []string{"--labels", good, "--presets", "nope", dir}, 1, "nope"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(c.args, &out, &errb); code != c.code || !strings.Contains(errb.String(), c.msg) {
				t.Errorf("exit %d, stderr %q; want exit %d naming %q", code, errb.String(), c.code, c.msg)
			}
		})
	}
}
