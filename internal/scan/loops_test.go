package scan

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// events builds a loopguard events JSONL transcript from a compact script: each word is one
// event of agent a1: a tool name is a call with arguments {"q":"<word>"} ("probe" and
// "probe" are the same call), "tool=arg" a call of tool with arguments {"q":"arg"} that fails
// alike whatever arg when it ends in "!", "user" is a user message, "text:<x>" a text block
// of 100 x's.
func events(script string) string {
	var b strings.Builder
	for _, w := range strings.Fields(script) {
		switch {
		case w == "user":
			b.WriteString(`{"type":"user","agent":"a1"}` + "\n")
		case strings.HasPrefix(w, "text:"):
			fmt.Fprintf(&b, `{"type":"text","agent":"a1","text":%q}`+"\n", strings.Repeat(w[5:], 100))
		case strings.Contains(w, "="):
			// tool=arg, failing alike whatever its argument when it ends in "!"
			tool, arg, _ := strings.Cut(w, "=")
			arg, failed := strings.CutSuffix(arg, "!")
			answer := tool + " " + arg + " answered"
			if failed {
				answer = "Error: " + tool + " could not find the text to replace in the file"
			}
			fmt.Fprintf(&b, `{"type":"call","agent":"a1","tool":%q,"args":{"q":%q},"result":{"text":%q,"error":%t}}`+"\n", tool, arg, answer, failed)
		default:
			// Each call answered the same way every time: a repeat with an unknown result
			// would be new to the progress detector.
			fmt.Fprintf(&b, `{"type":"call","agent":"a1","tool":%q,"args":{"q":%q},"result":{"text":%q}}`+"\n", w, w, w+" answered")
		}
	}
	return b.String()
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func preset(t testing.TB, name string) loopguard.Config {
	t.Helper()
	cfg, err := loopguard.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// scanOne scans one events transcript and fails the test if it cannot be read.
func scanOne(t *testing.T, cfg loopguard.Config, content string) *File {
	t.Helper()
	p := writeFile(t, t.TempDir(), "run.jsonl", content)
	r, err := Run(Collect([]string{p}), Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	f := r.Files[0]
	if f.Err != nil {
		t.Fatal(f.Err)
	}
	return f
}

// loopLine is a loop in a form easy to write in a table.
func loopLine(l Loop) string {
	return fmt.Sprintf("%s/%s %s %d-%d first %d notices %d wasted %d", l.Plugin, l.Kind, l.Tool, l.Start, l.End, l.FirstNotice, l.Notices, l.Wasted)
}

// loopLines is every loop of a file, as loopLine writes it.
func loopLines(f *File) []string {
	var out []string
	for _, l := range f.Loops {
		out = append(out, loopLine(l))
	}
	return out
}

func TestLoops(t *testing.T) {
	tests := []struct {
		name, preset, script string
		want                 []string // loopLine of every loop, in order
		wasted, runs         int
	}{
		{
			name:   "a stuck run is one loop per detector, from its first call to its last",
			preset: "repeat-tool-reminder",
			script: "a b probe probe probe probe probe probe probe c",
			// notices at the 3rd (call 4) and 5th (call 6) probe; the run is calls 2–8
			want:   []string{"repeat-tool-reminder/repeat probe 2-8 first 4 notices 2 wasted 4"},
			wasted: 4, runs: 1,
		},
		{
			name:   "the default preset: repeat, call and sequence notices on the same run",
			preset: "seeds",
			script: "a b probe probe probe probe probe probe probe c",
			want: []string{
				"repeat-tool-reminder/repeat probe 2-8 first 4 notices 2 wasted 4",
				"dsh-brake/call probe 2-8 first 7 notices 1 wasted 1",
				"dsh-brake/sequence probe 2-8 first 7 notices 1 wasted 1",
			},
			wasted: 4, runs: 1, // the wasted calls 5–8 count once
		},
		{
			name:   "a period-2 cycle is followed to both ends",
			preset: "dsh-brake",
			script: "x A B A B A B A B A B A B A B y",
			// windows ABAB end at calls 4, 6, 8 (3rd: notice at 8); BABA at 5, 7, 9 (notice
			// at 9, which joins); A's 6th call is 11, B's 6th is 12.
			want: []string{
				"dsh-brake/sequence A, B 1-14 first 8 notices 2 wasted 6",
				"dsh-brake/call A 1-14 first 11 notices 1 wasted 3",
				"dsh-brake/call B 1-14 first 12 notices 1 wasted 2",
			},
			wasted: 6, runs: 1,
		},
		{
			name:   "a user message ends a loop even when the next notice is near",
			preset: "repeat-tool-reminder",
			script: "probe probe probe user probe probe probe",
			want: []string{
				"repeat-tool-reminder/repeat probe 0-2 first 2 notices 1 wasted 0",
				"repeat-tool-reminder/repeat probe 3-5 first 5 notices 1 wasted 0",
			},
			wasted: 0, runs: 2,
		},
		{
			name:   "notices more than Period calls apart open separate loops",
			preset: "repeat-tool-reminder",
			script: "probe probe probe a b c d e probe probe probe probe",
			want: []string{
				"repeat-tool-reminder/repeat probe 0-2 first 2 notices 1 wasted 0",
				"repeat-tool-reminder/repeat probe 8-11 first 10 notices 1 wasted 1",
			},
			wasted: 1, runs: 2,
		},
		{
			name:   "a notice within Period calls after a loop's end joins it",
			preset: "repeat-tool-reminder",
			script: "probe probe probe a probe probe probe",
			// the first chain's loop ends at call 2 (call 3 repeats nothing); the second
			// chain's notice (call 6) is 4 calls later, so it joins, and the loop runs to 6
			want:   []string{"repeat-tool-reminder/repeat probe 0-6 first 2 notices 2 wasted 4"},
			wasted: 4, runs: 1,
		},
		{
			name:   "a notice on a text block takes the last call's index",
			preset: "dsh-brake",
			script: "a text:x b text:x c text:x d",
			want:   []string{"dsh-brake/text c 2-2 first 2 notices 1 wasted 0"},
			wasted: 0, runs: 1,
		},
		{
			name:   "a notice before the first call belongs to no loop",
			preset: "dsh-brake",
			script: "text:x text:x text:x a b",
			want:   nil,
		},
		{
			name:   "a tool failing alike with other arguments each time: its failed calls, other calls between",
			preset: "default",
			script: "a edit=1! b edit=2! edit=3! c edit=4! edit=5! d edit=6 e",
			// errors at the 4th failure (call 6); the chain runs from the first failure (1) to
			// the last (7); the edit that goes through (9) is no part of it
			want:   []string{"progress/errors edit 1-7 first 6 notices 1 wasted 1"},
			wasted: 1, runs: 1,
		},
		{
			name:   "a failure chain that reaches back to the loop before it joins it",
			preset: "default",
			script: "edit=1! edit=2! edit=3! edit=4! edit=ok edit=5! edit=6! edit=7! edit=8!",
			// the first chain's loop is 0-3 (the edit at 4 goes through); the second chain's
			// notice (call 8) is 5 calls after it, but its chain starts at 5, within 4: one loop
			want:   []string{"progress/errors edit 0-8 first 3 notices 2 wasted 5"},
			wasted: 5, runs: 1,
		},
		{
			name:   "a failure chain's loop stops at a user message",
			preset: "default",
			script: "edit=1! edit=2! user edit=3! edit=4! edit=5!",
			// the notice at the 4th failure (call 3) counts the two before the user spoke;
			// the loop does not reach back over the user's turn
			want:   []string{"progress/errors edit 2-4 first 3 notices 1 wasted 1"},
			wasted: 1, runs: 1,
		},
		{
			name:   "a failure chain's loop stops at a gap longer than Period",
			preset: "default",
			script: "edit=0! user edit=1! a b c d e edit=2! edit=3! edit=4! edit=5!",
			// the detector's chain outlives the user's turn, so the notice comes at the 4th
			// failure in all (call 8); the loop is only what follows each other: the failures
			// before the gap (calls 0 and 1) are left out
			want:   []string{"progress/errors edit 7-10 first 8 notices 1 wasted 2"},
			wasted: 2, runs: 1,
		},
		{
			name:   "a cycle longer than Period is followed by its own period, from its first lap to its last",
			preset: "default",
			script: "x A B C D E F G A B C D E F G A B C D E F G A B C D E F G y",
			// the cycle of 7 comes round the 3rd time at call 21; its laps are calls 1–28
			want:   []string{"progress/cycle A, B, C, D, … 1-28 first 21 notices 1 wasted 7"},
			wasted: 7, runs: 1,
		},
		{
			name:   "different tools and arguments make no loop",
			preset: "seeds",
			script: "a b c d e f g h i j",
			want:   nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := scanOne(t, preset(t, tt.preset), events(tt.script))
			var got []string
			for _, l := range f.Loops {
				got = append(got, loopLine(l))
				if l.Calls != l.End-l.Start+1 || l.Agent != "a1" {
					t.Errorf("loop %+v: inconsistent calls or agent", l)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("loops:\n got %q\nwant %q\nnotices: %+v", got, tt.want, f.Notices)
			}
			if f.Wasted != tt.wasted || f.Runs != tt.runs {
				t.Errorf("wasted %d, runs %d; want %d, %d", f.Wasted, f.Runs, tt.wasted, tt.runs)
			}
		})
	}
}

func TestNoticeCallIndices(t *testing.T) {
	f := scanOne(t, preset(t, "seeds"), events("text:x text:x text:x a probe probe probe text:y text:y text:y"))
	var got []string
	for _, n := range f.Notices {
		got = append(got, fmt.Sprintf("%s %d %s/%s %s", n.Event, n.CallIndex, n.Plugin, n.Kind, n.Summary))
	}
	want := []string{
		"text -1 dsh-brake/text duplicate text × 3", // before any call
		"call 3 repeat-tool-reminder/repeat probe × 3",
		"text 3 dsh-brake/text duplicate text × 3", // the last call before it
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("notices:\n got %q\nwant %q", got, want)
	}
}

func TestAgentsAreKeptApart(t *testing.T) {
	// Two files with the same agent id, each with two probe calls: together they would make
	// a chain of four (a notice at the third); apart, neither says anything.
	dir := t.TempDir()
	writeFile(t, dir, "one.jsonl", events("probe probe"))
	writeFile(t, dir, "two.jsonl", events("probe probe"))
	// In one file, two agents each calling probe twice, interleaved.
	writeFile(t, dir, "three.jsonl", strings.Join([]string{
		`{"type":"call","agent":"a1","tool":"probe","args":{}}`,
		`{"type":"call","agent":"a2","tool":"probe","args":{}}`,
		`{"type":"call","agent":"a1","tool":"probe","args":{}}`,
		`{"type":"call","agent":"a2","tool":"probe","args":{}}`,
		// calls with no agent are never counted
		`{"type":"call","tool":"probe","args":{}}`,
		`{"type":"call","tool":"probe","args":{}}`,
		`{"type":"call","tool":"probe","args":{}}`,
	}, "\n")+"\n")
	r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "repeat-tool-reminder"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Totals.Files != 3 || r.Totals.Notices != 0 || r.Totals.Calls != 11 {
		t.Errorf("totals %+v, want 3 files, 11 calls, no notices", r.Totals)
	}
}

func TestDenyModeRefusalsAreReported(t *testing.T) {
	cfg := preset(t, "dsh-brake")
	b := *cfg.DSHBrake
	b.Mode = loopguard.ModeDeny
	cfg.DSHBrake = &b
	f := scanOne(t, cfg, events(strings.Repeat("probe ", 12)))
	var denied []int
	for _, n := range f.Notices {
		if n.Type == "deny" {
			denied = append(denied, n.CallIndex)
			if n.Kind != "deny" || n.Summary != "probe refused" || n.Plugin != loopguard.PluginDSHBrake {
				t.Errorf("denial %+v", n)
			}
		}
	}
	// callDenyCount 10: the 11th and 12th calls (indices 10, 11) are refused.
	if !reflect.DeepEqual(denied, []int{10, 11}) || f.Denials != 2 {
		t.Errorf("refused calls %v (%d), want [10 11]", denied, f.Denials)
	}
	for i, m := range f.Agents[0].Marks {
		if m.Denied != (i >= 10) {
			t.Errorf("call %d: denied %v", i, m.Denied)
		}
	}
}

func TestWastedCallsAndRuns(t *testing.T) {
	l := func(start, first, end int) Loop { return Loop{Start: start, FirstNotice: first, End: end} }
	tests := []struct {
		name         string
		loops        []Loop
		wasted, runs int
	}{
		{"none", nil, 0, 0},
		{"one loop", []Loop{l(2, 4, 8)}, 4, 1},
		{"overlapping loops count each call once", []Loop{l(2, 4, 8), l(2, 6, 10)}, 6, 1},
		{"adjacent loops are two runs", []Loop{l(0, 1, 3), l(4, 5, 6)}, 3, 2},
		{"a gap makes two runs", []Loop{l(0, 1, 3), l(5, 6, 6)}, 2, 2},
		{"a notice on the last call wastes nothing", []Loop{l(0, 3, 3)}, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := wastedCalls(12, tt.loops); got != tt.wasted {
				t.Errorf("wasted %d, want %d", got, tt.wasted)
			}
			if got := runs(tt.loops); got != tt.runs {
				t.Errorf("runs %d, want %d", got, tt.runs)
			}
		})
	}
}

// A command sent again under a new caption (the description a model writes for a person each
// time) is the same call to the detector, and so to the loop's extent (validation round r124b
// U1: three runs of one command, each captioned apart, made a loop of one call).
func TestLoopExtentLeavesCaptionsOut(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"call","agent":"a1","tool":"Read","args":{"file_path":"/repo/README.md"},"result":{"text":"# repo"}}` + "\n")
	for _, caption := range []string{"List functions", "List functions from app directory", "List functions from the SalesCRM directory"} {
		fmt.Fprintf(&b, `{"type":"call","agent":"a1","tool":"Bash","args":{"command":"npx netlify functions:list 2>&1 | head -30","description":%q},"result":{"text":"No functions found in /repo/netlify/functions"}}`+"\n", caption)
	}
	got := loopLines(scanOne(t, preset(t, "default"), b.String()))
	want := []string{"progress/stuck Bash 1-3 first 3 notices 1 wasted 0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loops %q, want %q", got, want)
	}
}

// An errors loop is its tool's failed calls as the guard read them: failures that only the
// text says (a PowerShell ParserError, no flag in the transcript) count, before the notice and
// after it (validation round r123a U1: such a loop was its notice's call alone).
func TestErrorsLoopCountsFailuresReadFromTheText(t *testing.T) {
	var b strings.Builder
	call := func(cmd, text string) {
		fmt.Fprintf(&b, `{"type":"call","agent":"a1","tool":"shell","args":{"command":%q},"result":{"text":%q}}`+"\n", cmd, text)
	}
	call("git log --oneline -3", "a1b2c3d first commit")
	for i, cmd := range []string{"git status", "git diff --stat", "git branch -a", "git log -5", "git remote -v"} {
		cmd = `cd C:\Users\u\quant-dca && ` + cmd
		call(cmd, fmt.Sprintf("At C:\\Users\\u\\AppData\\Local\\Temp\\ps-script-92c76383-5995-44c1-93e6-8a41b272bd0%d.ps1:7 char:%d\n+ %s\n"+
			"+                                ~~\nThe token '&&' is not a valid statement separator in this version.\n"+
			"    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\n    + FullyQualifiedErrorId : InvalidEndOfLine", i, 32+i, cmd))
	}
	call("git status", "On branch main\nnothing to commit, working tree clean")
	got := loopLines(scanOne(t, preset(t, "default"), b.String()))
	want := []string{"progress/errors shell 1-5 first 4 notices 1 wasted 1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loops %q, want %q", got, want)
	}
}

func TestPeriodOfReadsHowFarALoopRepeats(t *testing.T) {
	tests := []struct {
		kind, summary string
		want          int
	}{
		{loopguard.KindCycle, "cycle of 7 × 3", 7},
		{loopguard.KindCycle, "cycle of 2 × 3", Period},
		{loopguard.KindCycle, "replay of 4 calls, 10 back", 10},
		{loopguard.KindCycle, "replay of 4 calls, 32 back", 32},
		{loopguard.KindCycle, "replay of 4 calls", Period},
		{loopguard.KindStuck, "grep × 3", Period},
	}
	for _, tt := range tests {
		if got := periodOf(&Notice{Kind: tt.kind, Summary: tt.summary}); got != tt.want {
			t.Errorf("periodOf(%q) = %d, want %d", tt.summary, got, tt.want)
		}
	}
}
