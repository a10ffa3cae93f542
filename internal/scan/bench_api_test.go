package scan

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// writeEvents writes a transcript in loopguard's events format and returns its path.
func writeEvents(t *testing.T, dir, name string, lines ...string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const grepX = `{"type":"call","agent":"main","tool":"grep","args":{"q":"x"},"result":{"error":false,"text":"nothing"}}`

// thirdInARow fires at every call that is at least the third identical one in a row.
func thirdInARow(events []loopguard.Event) []int {
	var out []int
	call, run := -1, 0
	var prev string
	for _, ev := range events {
		if ev.Type != loopguard.EventCall {
			continue
		}
		call++
		k := ev.Tool + string(ev.Args)
		if call > 0 && k == prev {
			run++
		} else {
			run = 1
		}
		prev = k
		if run >= 3 {
			out = append(out, call)
		}
	}
	return out
}

func TestRunRulesPlacesEachRulesNotices(t *testing.T) {
	dir := t.TempDir()
	writeEvents(t, dir, "a.jsonl", grepX, grepX, grepX, grepX, `{"type":"call","agent":"main","tool":"ls"}`)
	writeEvents(t, dir, "b.jsonl", "this is not JSON")
	rules := []Rule{
		{Name: "third", Fire: thirdInARow},
		{Name: "never", Fire: func([]loopguard.Event) []int { return nil }},
		{Name: "unordered", Fire: func([]loopguard.Event) []int { return []int{4, -1, 1} }},
	}
	reps := RunRules([]Target{{Path: filepath.Join(dir, "a.jsonl")}, {Path: filepath.Join(dir, "b.jsonl")}}, rules, 2)
	if len(reps) != len(rules) {
		t.Fatalf("%d reports for %d rules", len(reps), len(rules))
	}
	want := map[string][]int{"third": {2, 3}, "never": nil, "unordered": {-1, 1, 4}}
	for i, rep := range reps {
		name := rules[i].Name
		if rep.Totals.Files != 1 || rep.Totals.Failed != 1 || rep.Totals.Calls != 5 || rep.Totals.Agents != 1 {
			t.Errorf("%s: totals %+v, want 1 file, 1 failed, 1 agent, 5 calls", name, rep.Totals)
		}
		a := rep.Files[0]
		var got []int
		for _, n := range a.Notices {
			if n.Type != "notice" || n.Plugin != name || n.Kind != RuleKind || n.Agent != "main" || n.File != a.Path {
				t.Errorf("%s: notice %+v", name, n)
			}
			got = append(got, n.CallIndex)
		}
		if !slices.Equal(got, want[name]) {
			t.Errorf("%s: notices at %v, want %v", name, got, want[name])
		}
		if rep.Totals.Notices != len(want[name]) {
			t.Errorf("%s: %d notices in the totals, want %d", name, rep.Totals.Notices, len(want[name]))
		}
		if b := rep.Files[1]; !b.Failed() || !strings.Contains(b.Err.Error(), "b.jsonl") {
			t.Errorf("%s: the unreadable file is %+v, want a failure naming it", name, b)
		}
	}
	if l := reps[0].Files[0].Loops; len(l) != 1 || l[0].Start != 0 || l[0].End != 3 || l[0].FirstNotice != 2 {
		t.Errorf("loops of rule third: %+v, want one over calls 0-3 first noticed at 2", l)
	}
}

func TestRunRulesTurnsARuleBugIntoThatRulesFileError(t *testing.T) {
	dir := t.TempDir()
	p := writeEvents(t, dir, "a.jsonl", grepX)
	reps := RunRules([]Target{{Path: p}}, []Rule{
		{Name: "out-of-range", Fire: func([]loopguard.Event) []int { return []int{7} }},
		{Name: "fine", Fire: thirdInARow},
	}, 1)
	if f := reps[0].Files[0]; !f.Failed() || !strings.Contains(f.Err.Error(), "rule out-of-range") {
		t.Errorf("file after a rule's bug: %+v, want an error naming the rule", f)
	}
	if f := reps[1].Files[0]; f.Failed() || f.Calls != 1 {
		t.Errorf("another rule's file: %+v, want it read and scanned", f)
	}
}

// TestRunRulesScoresLikeTheEngine checks that a rule firing exactly where the engine's
// notices are gets exactly the engine's score: RunRules reports are scored by the same code.
func TestRunRulesScoresLikeTheEngine(t *testing.T) {
	dir := t.TempDir()
	writeEvents(t, dir, "a.jsonl", grepX, grepX, grepX, grepX, grepX, grepX,
		`{"type":"call","agent":"main","tool":"ls"}`, `{"type":"call","agent":"main","tool":"cat","args":{"f":1}}`)
	cfg, err := loopguard.Preset("default")
	if err != nil {
		t.Fatal(err)
	}
	targets := Collect([]string{dir})
	rep, err := Run(targets, Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	var at []int
	for _, n := range rep.Files[0].Notices {
		at = append(at, n.CallIndex)
	}
	if len(at) == 0 {
		t.Fatal("the default preset gave no notice on six identical calls")
	}
	mirror := RunRules(targets, []Rule{{Name: "mirror", Fire: func([]loopguard.Event) []int { return at }}}, 1)[0]
	labels := []Label{
		{Path: "a.jsonl", Agent: "main", CallIndices: []int{0, 5}, ManualLabel: "stuck"},
		{Path: "a.jsonl", Agent: "main", CallIndices: []int{6, 7}, ManualLabel: "batch"},
	}
	_, want := ScoreLabels(rep, labels)
	_, got := ScoreLabels(mirror, labels)
	if got != want {
		t.Errorf("score of the mirrored rule %+v, want the engine's %+v", got, want)
	}
}

// A rule outside the engine, scanned and scored like a preset.
func ExampleRunRules() {
	dir, err := os.MkdirTemp("", "runrules")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	call := `{"type":"call","agent":"main","tool":"grep","args":{"q":"x"}}`
	os.WriteFile(filepath.Join(dir, "run.jsonl"), []byte(strings.Repeat(call+"\n", 5)), 0o644)

	// Speak at the third call and every later one.
	third := Rule{Name: "third-call", Fire: func(events []loopguard.Event) []int {
		var at []int
		for i := 2; i < len(events); i++ {
			at = append(at, i)
		}
		return at
	}}
	rep := RunRules(Collect([]string{dir}), []Rule{third}, 1)[0]
	_, score := ScoreLabels(rep, []Label{{Path: "run.jsonl", Agent: "main", CallIndices: []int{0, 4}, ManualLabel: "stuck"}})
	fmt.Printf("%d notices in %d calls; caught %d of %d loops, %v calls late\n",
		rep.Totals.Notices, rep.Totals.Calls, score.Caught, score.Loops, score.Median)
	// Output:
	// 3 notices in 5 calls; caught 1 of 1 loops, 2 calls late
}
