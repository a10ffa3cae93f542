package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loopguard/loopguard/internal/scan"
)

func TestOutsidePositives(t *testing.T) {
	file := &scan.File{Path: "runs/f.jsonl", Agents: []*scan.Agent{
		{ID: "main", Marks: make([]scan.Mark, 20)},
		{ID: "helper", Marks: make([]scan.Mark, 10)},
	}}
	notice := func(agent string, i int) scan.Notice {
		return scan.Notice{Type: "notice", File: file.Path, Agent: agent, CallIndex: i}
	}
	file.Notices = []scan.Notice{
		notice("main", -1),  // before any call: outside
		notice("main", 2),   // outside
		notice("main", 6),   // inside [5, 8+3]
		notice("main", 11),  // inside: the stuck label's last call + CatchAfter
		notice("main", 13),  // outside: after the cycle label's window [7, 9+3]
		notice("main", 19),  // inside the clipped window of the label [17, 18]
		notice("helper", 6), // same index, other agent: outside
		{Type: "deny", File: file.Path, Agent: "main", CallIndex: 3}, // not a notice
	}
	unreadable := &scan.File{Path: "runs/g.jsonl", Err: os.ErrNotExist}
	r := &scan.Report{Files: []*scan.File{file, unreadable}}
	label := func(first, last int, kind string) scan.Label {
		return scan.Label{Path: "f.jsonl", Agent: "main", CallIndices: []int{first, last}, ManualLabel: kind}
	}
	results := []scan.LabelResult{
		{Label: label(5, 8, "stuck"), File: file.Path, Status: scan.StatusCaught},
		{Label: label(7, 9, "cycle"), File: file.Path, Status: scan.StatusMissed}, // overlaps: counted once
		{Label: label(17, 18, "stuck"), File: file.Path, Status: scan.StatusCaught},
		{Label: label(0, 3, "batch"), File: file.Path, Status: scan.StatusFalseAlarm}, // legitimate: no window
		{Label: label(0, 3, "stuck"), File: "", Status: scan.StatusNoFile},            // unmatched: no window
		{Label: scan.Label{Agent: "ghost", CallIndices: []int{0, 1}, ManualLabel: "stuck"}, File: file.Path, Status: scan.StatusNoAgent},
	}
	got := outsidePositives(r, results)
	// Inside: main 5..12 (8 calls) and 17..19 (3 calls) of 30 calls.
	if got.calls != 30-11 {
		t.Errorf("calls outside %d, want %d", got.calls, 30-11)
	}
	if got.notices != 4 {
		t.Errorf("notices outside %d, want 4", got.notices)
	}
	if want := 1000 * 4.0 / 19; math.Abs(got.perK-want) > 1e-9 {
		t.Errorf("rate %.3f, want %.3f", got.perK, want)
	}
}

func TestOutsidePositivesWithoutLabelsIsTheWholeRate(t *testing.T) {
	f := &scan.File{Path: "f", Agents: []*scan.Agent{{ID: "main", Marks: make([]scan.Mark, 8)}},
		Notices: []scan.Notice{{Type: "notice", Agent: "main", CallIndex: 1}, {Type: "notice", Agent: "main", CallIndex: 5}}}
	got := outsidePositives(&scan.Report{Files: []*scan.File{f}}, nil)
	if got.calls != 8 || got.notices != 2 || got.perK != 250 {
		t.Errorf("got %+v, want 8 calls, 2 notices, 250 per 1,000", got)
	}
}

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
		"| loopguard default | 1/1 (100.0%) |",
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
	if n := strings.Count(text, "\n| ") - 1; n != 3+9 { // less the header
		t.Errorf("%d table rows, want 3 presets + 9 peers:\n%s", n, text)
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
