package scan

import (
	"errors"
	"strings"
	"testing"
)

func TestReadLabels(t *testing.T) {
	good := `{"repo":"o/r","path":"a/b.traj","agent":"Tester","call_indices":[3,9],"manual_label":"stuck","note":"x"}`
	tests := []struct {
		name, content, wantErr string
		want                   int
	}{
		{"rows and blank lines", good + "\n\n" + good + "\n", "", 2},
		{"agent defaults to main", `{"path":"p","call_indices":[0,1],"manual_label":"cycle"}` + "\n", "", 1},
		{"not JSON", good + "\n{\n", "labels.jsonl:2:", 0},
		{"no path", `{"call_indices":[0,1],"manual_label":"stuck"}`, `labels.jsonl:1: a label needs a "path"`, 0},
		{"one index", `{"path":"p","call_indices":[4],"manual_label":"stuck"}`, `labels.jsonl:1: "call_indices" must be`, 0},
		{"reversed span", `{"path":"p","call_indices":[5,4],"manual_label":"stuck"}`, `"call_indices" must be`, 0},
		{"negative index", `{"path":"p","call_indices":[-1,4],"manual_label":"stuck"}`, `"call_indices" must be`, 0},
		{"negative session", `{"path":"p","session_index":-1,"call_indices":[1,4],"manual_label":"stuck"}`, `"session_index" must be`, 0},
		{"no label", `{"path":"p","call_indices":[1,4]}`, `a label needs a "manual_label"`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "labels.jsonl", tt.content)
			labels, err := ReadLabels(p)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(labels) != tt.want {
				t.Fatalf("%d labels, want %d", len(labels), tt.want)
			}
			if labels[0].Agent == "" {
				t.Errorf("empty agent")
			}
		})
	}
}

func TestScoreLabels(t *testing.T) {
	notice := func(file, agent string, call int) Notice {
		return Notice{Type: "notice", File: file, Agent: agent, CallIndex: call, Event: "call", Plugin: "p", Kind: "repeat"}
	}
	run := "/data/o__r/trajs/run.traj.gz"
	r := &Report{Files: []*File{
		{Path: run, Agents: []*Agent{{ID: "main", Marks: make([]Mark, 60)}, {ID: "Tester", Marks: make([]Mark, 30)}},
			Notices: []Notice{
				notice(run, "main", 12), notice(run, "main", 14), // inside [10, 20]
				notice(run, "Tester", 24), // 4 after [10, 20]: too late
				notice(run, "main", 33),   // 3 after [25, 30]: caught
				{Type: "deny", File: run, Agent: "main", CallIndex: 41, Kind: "deny"},
				notice(run, "main", 52), notice(run, "main", 53), // in a legitimate span
			}},
		{Path: "/data/x__y/trajs/dup.traj.gz", Agents: []*Agent{{ID: "main"}}},
		{Path: "/data/o__r/trajs/dup.traj.gz", Agents: []*Agent{{ID: "main"}}, Notices: []Notice{notice("/data/o__r/trajs/dup.traj.gz", "main", 1)}},
		{Path: "/data/p__q/one.traj", Agents: []*Agent{{ID: "main"}}},
		{Path: "/data/p__q/two.traj"}, {Path: "/data/z__z/two.traj"},
		{Path: "/data/bad.traj.gz", Err: errors.New("bad")},
	}, Totals: Totals{Calls: 2000, Notices: 7}}
	label := func(repo, path, agent string, first, last int, kind string) Label {
		return Label{Repo: repo, Path: path, Agent: agent, CallIndices: []int{first, last}, ManualLabel: kind}
	}
	labels := []Label{
		label("o/r", "trajs/run.traj", "main", 10, 20, "stuck"),
		label("o/r", "trajs/run.traj", "Tester", 10, 20, "cycle"),
		label("o/r", "trajs/run.traj", "main", 25, 30, "scan_loop"),
		label("o/r", "trajs/run.traj", "main", 40, 45, "stuck"), // only a denial there
		label("o/r", "trajs/run.traj", "main", 50, 60, "legit_navigation"),
		label("o/r", "trajs/run.traj", "main", 0, 9, "format_retry"),
		label("o/r", "trajs/run.traj", "Nobody", 0, 9, "stuck"),
		label("o/r", "trajs/dup.traj", "main", 0, 3, "stuck"), // the repo settles it
		label("", "rajs/run.traj", "main", 10, 20, "stuck"),   // not at a folder boundary
		label("", "two.traj", "main", 0, 3, "stuck"),
		label("", "bad.traj", "main", 0, 3, "stuck"),
		label("o/r", "trajs/run.traj", "main", 10, 20, "weird"),
		label("", "one.traj", "main", 0, 3, "stuck"),
	}
	results, s := ScoreLabels(r, labels)
	want := []struct {
		status              string
		first, late, remind int
	}{
		{StatusCaught, 12, 2, 2},
		{StatusMissed, -1, 0, 0},
		{StatusCaught, 33, 8, 0},
		{StatusMissed, -1, 0, 0},
		{StatusFalseAlarm, 52, 0, 2},
		{StatusQuiet, -1, 0, 0},
		{StatusNoAgent, -1, 0, 0},
		{StatusCaught, 1, 1, 1},
		{StatusNoFile, -1, 0, 0},
		{StatusAmbiguous, -1, 0, 0},
		{StatusUnreadable, -1, 0, 0},
		{StatusOther, 12, 0, 2},
		{StatusMissed, -1, 0, 0},
	}
	for i, w := range want {
		got := results[i]
		if got.Status != w.status || got.FirstNotice != w.first || got.Lateness != w.late || got.Reminders != w.remind {
			t.Errorf("label %d (%s %v %s): got %s first %d late %d reminders %d; want %s first %d late %d reminders %d",
				i, got.Label.Path, got.Label.CallIndices, got.Label.ManualLabel, got.Status, got.FirstNotice, got.Lateness, got.Reminders,
				w.status, w.first, w.late, w.remind)
		}
	}
	if results[7].File != "/data/o__r/trajs/dup.traj.gz" {
		t.Errorf("dup matched %q", results[7].File)
	}
	wantScore := Score{Labels: 13, Loops: 6, Caught: 3, Recall: 0.5, Median: 2, Legit: 2, Alarmed: 1, FalseAlarm: 2,
		Unscored: 5, Calls: 2000, Notices: 7, PerKCalls: 3.5,
		// Outside the loop windows: main's 60 calls less [10,23], [25,33] and [40,48] (32 calls),
		// Tester's 30 less [10,23]; the notices at main 52 and 53 and at Tester 24.
		CallsOutside: 28 + 16, NoticesOutside: 3, PerKOutside: 1000 * 3.0 / 44}
	if s != wantScore {
		t.Errorf("score\n got %+v\nwant %+v", s, wantScore)
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []int
		want float64
	}{{nil, -1}, {[]int{7}, 7}, {[]int{9, 1, 5}, 5}, {[]int{8, 2, 4, 6}, 5}, {[]int{3, 2}, 2.5}}
	for _, tt := range tests {
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// In a file of several sessions (a tau-bench list) a label's session_index picks its
// session: a notice in another session of the same agent name neither catches its loop nor
// alarms its span, and counts outside the positives. Without it the label covers every session.
func TestLabelsPickTheirSession(t *testing.T) {
	file := "/data/tau/gpt-4o-airline.json"
	notice := func(session, call int) Notice {
		return Notice{Type: "notice", File: file, Agent: "main", Session: session, CallIndex: call, Event: "call"}
	}
	r := &Report{Files: []*File{{Path: file, Sessions: 3,
		Agents: []*Agent{
			{ID: "main", Session: 0, Marks: make([]Mark, 10)},
			{ID: "main", Session: 1, Marks: make([]Mark, 10)},
			{ID: "main", Session: 2, Marks: make([]Mark, 10)},
		},
		Notices: []Notice{notice(0, 4), notice(2, 6)},
	}}, Totals: Totals{Calls: 30, Notices: 2}}
	session := func(i int) *int { return &i }
	tests := []struct {
		name        string
		session     *int
		kind        string
		wantStatus  string
		wantOutside int // notices outside the positives
	}{
		{"a loop in the session that has the notice is caught", session(0), "stuck", StatusCaught, 1},
		{"a loop in another session is missed", session(1), "stuck", StatusMissed, 2},
		{"a legitimate span in a quiet session stays quiet", session(1), "legit_navigation", StatusQuiet, 2},
		{"a legitimate span in the session with the notice is alarmed", session(2), "legit_navigation", StatusFalseAlarm, 2},
		{"a session the file does not have is no agent", session(3), "stuck", StatusNoAgent, 2},
		{"without session_index every session counts", nil, "stuck", StatusCaught, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := Label{Path: "gpt-4o-airline.json", Agent: "main", SessionIndex: tt.session, CallIndices: []int{3, 7}, ManualLabel: tt.kind}
			results, s := ScoreLabels(r, []Label{l})
			if results[0].Status != tt.wantStatus {
				t.Errorf("status %q, want %q", results[0].Status, tt.wantStatus)
			}
			if s.NoticesOutside != tt.wantOutside {
				t.Errorf("%d notices outside the positives, want %d", s.NoticesOutside, tt.wantOutside)
			}
		})
	}
}

// A session read from a folder of files is matched by the folder or by any file of it.
func TestALabelMayNameAFileOfAFolderSession(t *testing.T) {
	dir := "/data/llm_completions/django__django-1"
	r := &Report{Files: []*File{{Path: dir, Parts: []string{dir + "/gpt-4o-1.json", dir + "/gpt-4o-2.json"},
		Agents:  []*Agent{{ID: "main", Marks: make([]Mark, 8)}},
		Notices: []Notice{{Type: "notice", File: dir, Agent: "main", CallIndex: 5}}}}}
	for _, path := range []string{"django__django-1", "llm_completions/django__django-1/gpt-4o-2.json", "gpt-4o-1.json.gz"} {
		results, _ := ScoreLabels(r, []Label{{Path: path, Agent: "main", CallIndices: []int{3, 6}, ManualLabel: "stuck"}})
		if results[0].Status != StatusCaught || results[0].File != dir {
			t.Errorf("label path %q: %s, file %q", path, results[0].Status, results[0].File)
		}
	}
	results, _ := ScoreLabels(r, []Label{{Path: "gpt-4o-3.json", Agent: "main", CallIndices: []int{3, 6}, ManualLabel: "stuck"}})
	if results[0].Status != StatusNoFile {
		t.Errorf("a file not in the folder matched: %s", results[0].Status)
	}
}

// A label that names no agent ("main") is about a single-agent file's agent whatever its name
// (a Claude Code subagent's transcript scanned alone is agent-<id>); in a file of several
// agents the name must match.
func TestALabelWithoutAgentTakesASingleAgentFilesAgent(t *testing.T) {
	sub := "/data/s/subagents/agent-a5bdbc1.jsonl.gz"
	multi := "/data/c/run.traj"
	r := &Report{Files: []*File{
		{Path: sub, Agents: []*Agent{{ID: "agent-a5bdbc1", Marks: make([]Mark, 10)}},
			Notices: []Notice{{Type: "notice", File: sub, Agent: "agent-a5bdbc1", CallIndex: 4}}},
		{Path: multi, Agents: []*Agent{{ID: "Programmer", Marks: make([]Mark, 10)}, {ID: "Tester", Marks: make([]Mark, 10)}},
			Notices: []Notice{{Type: "notice", File: multi, Agent: "Tester", CallIndex: 4}}},
	}}
	tests := []struct {
		name, path, agent string
		wantStatus        string
	}{
		{"no agent named, one agent in the file", "subagents/agent-a5bdbc1.jsonl", MainAgentLabel, StatusCaught},
		{"the agent named", "subagents/agent-a5bdbc1.jsonl", "agent-a5bdbc1", StatusCaught},
		{"another agent named", "subagents/agent-a5bdbc1.jsonl", "agent-zzz", StatusNoAgent},
		{"no agent named, several agents in the file", "run.traj", MainAgentLabel, StatusNoAgent},
		{"one of several named", "run.traj", "Tester", StatusCaught},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			results, _ := ScoreLabels(r, []Label{{Path: tt.path, Agent: tt.agent, CallIndices: []int{3, 6}, ManualLabel: "stuck"}})
			if results[0].Status != tt.wantStatus {
				t.Errorf("status %q, want %q", results[0].Status, tt.wantStatus)
			}
		})
	}
}
