package scan

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A Cline task's ui_messages.json is left out of a folder walk beside the task's
// api_conversation_history.json (the same task, as the model saw it), and read where it is
// alone or named by the user.
func TestCollectPassesOverUIMessagesBesideTheirHistory(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string) string { return writeFile(t, dir, filepath.FromSlash(rel), "[]") }
	history := write("tasks/1/api_conversation_history.json")
	beside := write("tasks/1/ui_messages.json")
	alone := write("shared/ui_messages.json.gz")
	paths := func(ts []Target) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Path)
		}
		return out
	}
	got := paths(Collect([]string{dir}))
	if want := []string{alone, history}; !slices.Equal(got, want) {
		t.Errorf("walk: %q, want %q", got, want)
	}
	got = paths(Collect([]string{dir, beside}))
	if !slices.Contains(got, beside) {
		t.Errorf("named by the user, %s is left out: %q", beside, got)
	}
}

// Amazon Q's /save writes to the name typed, most often without an extension: a folder walk
// opens extensionless files to see whether they hold a JSON document, and no others, and
// none under a hidden folder such as .git.
func TestCollectFindsJSONSavedWithoutAnExtension(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	saved := write("q/my-session", "\ufeff\n  {\"conversation_id\": \"c\", \"history\": []}")
	write("q/Makefile", "all:\n\tgo build\n")
	write("q/LICENSE", "MIT License\n")
	write("q/brace", "{ not a document, an echo of a shell brace")
	write("q/.git/objects/ab/cdef01", `{"conversation_id": "c"}`)
	write("q/notes.bak", `{"conversation_id": "c"}`) // an extension, and not one of ours
	var got []string
	for _, tg := range Collect([]string{dir}) {
		got = append(got, tg.Path)
	}
	if want := []string{saved}; !slices.Equal(got, want) {
		t.Errorf("walk: %q, want %q", got, want)
	}
}

// A cctrace export folder holds one Claude Code session three times: its Markdown (whose
// results carry no ids), cctrace's raw_messages.jsonl and, from cctrace 2, the session file
// itself; an Entire checkpoint twice, the agent's transcript and Entire's compact copy. A
// walk reads the best of them once; each is read when it is alone or named.
func TestCollectReadsACctraceExportOnce(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		want  string
	}{
		{"cctrace 2: the session file", []string{"conversation_full.md", "raw_messages.jsonl", "session/main.jsonl"}, "session/main.jsonl"},
		{"cctrace 1: the raw messages", []string{"conversation_full.md", "raw_messages.jsonl"}, "raw_messages.jsonl"},
		{"the Markdown alone", []string{"conversation_full.md.gz"}, "conversation_full.md.gz"},
		// an Entire checkpoint: the agent's transcript, and Entire's compact copy of it
		{"Entire: the agent's transcript", []string{"transcript.jsonl", "full.jsonl"}, "full.jsonl"},
		{"Entire: the compact copy alone", []string{"transcript.jsonl"}, "transcript.jsonl"},
		// a Terminal-Bench trial: the agent's log, and tmux's capture of its pane afterwards
		{"Terminal-Bench: the agent's log", []string{"panes/post-agent.txt", "sessions/agent.log"}, "sessions/agent.log"},
		{"Terminal-Bench: the pane alone", []string{"panes/post-agent.txt"}, "panes/post-agent.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.files {
				p := filepath.Join(dir, "export", f)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for _, tg := range Collect([]string{dir}) {
				rel, _ := filepath.Rel(filepath.Join(dir, "export"), tg.Path)
				got = append(got, filepath.ToSlash(rel))
			}
			if want := []string{tt.want}; !slices.Equal(got, want) {
				t.Errorf("walk: %q, want %q", got, want)
			}
			named := filepath.Join(dir, "export", tt.files[0])
			if got := Collect([]string{dir, named}); !slices.ContainsFunc(got, func(tg Target) bool { return tg.Path == named }) {
				t.Errorf("named by the user, %s is left out", named)
			}
		})
	}
}

// An OpenHands evaluation folder holds each conversation twice: in output.jsonl's event
// streams and in llm_completions/<instance>/ dumps. A walk reads output.jsonl; the dumps are
// read when they are alone, or named.
func TestCollectPassesOverCompletionDumpsBesideTheirEvaluationOutput(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string) string { return writeFile(t, dir, filepath.FromSlash(rel), "{}") }
	output := write("run1/output.jsonl")
	dump := write("run1/llm_completions/django__django-1/gpt-4o-1.json")
	alone := write("run2/llm_completions/django__django-2/gpt-4o-1.json")
	var got []string
	for _, tg := range Collect([]string{dir}) {
		got = append(got, tg.Path)
	}
	if want := []string{output, alone}; !slices.Equal(got, want) {
		t.Errorf("walk: %q, want %q", got, want)
	}
	if got := Collect([]string{dir, dump}); !slices.ContainsFunc(got, func(tg Target) bool { return tg.Path == dump }) {
		t.Errorf("named by the user, %s is left out", dump)
	}
}

// An OpenHands session folder keeps its events one a file in events/ and again in batches of
// 25 in event_cache/: a walk reads events/ (one conversation) and passes over the batches;
// batches alone are read.
func TestCollectPassesOverOpenHandsEventCacheBesideItsEvents(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string) string { return writeFile(t, dir, filepath.FromSlash(rel), "{}") }
	e0, e1 := write("sessions/a/events/0.json"), write("sessions/a/events/1.json")
	write("sessions/a/event_cache/0-25.json")
	write("sessions/a/event_cache/25-50.json")
	alone := write("sessions/b/event_cache/0-25.json")
	targets, mirrors := CollectMirrors([]string{dir})
	var got []string
	for _, tg := range targets {
		got = append(got, tg.Path)
	}
	if want := []string{e0, e1, alone}; !slices.Equal(got, want) {
		t.Errorf("walk: %q, want %q", got, want)
	}
	if len(mirrors) != 2 || mirrors[0].Of != e0 {
		t.Errorf("mirrors %+v, want the two batches of a, read from %s", mirrors, e0)
	}
}

// A folder walk picks up the names the readers know and no others: Letta's agent files (.af)
// among them, compressed or not, a cluster job's output (Slurm's slurm-<id>.out), and a table
// of an episode's steps (BALROG's .csv).
func TestCollectPicksUpTheNamesOfTranscripts(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for _, name := range []string{"a.jsonl", "b.json.gz", "c.traj", "d.md", "e.txt", "f.log", "g.eval", "letta/agent.af", "react/WebShop.ipynb", "letta/old.AF.gz", "slurm-8522213.out", "balrog/crafter_run_06.csv",
		"openclaw/0ff7b343.jsonl.reset.2026-05-03T15-56-41.244Z", "openclaw/21596f48.jsonl.deleted.2026-02-27T18-42-28Z"} {
		want = append(want, writeFile(t, dir, name, "{}"))
	}
	for _, name := range []string{"notes.xlsx", "photo.png", "agent.afx", "openclaw/.jsonl.reset.x"} {
		writeFile(t, dir, name, "{}")
	}
	var got []string
	for _, tg := range Collect([]string{dir}) {
		got = append(got, tg.Path)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("walk: %q, want %q", got, want)
	}
}

// Claude Code writes the forks of a conversation it runs for itself (a compaction, a /btw side
// question) beside the subagents the model starts: each holds the whole conversation so far.
// A walk passes over them beside their session's file; alone or named, they are read.
func TestCollectPassesOverClaudeCodeForksBesideTheirSession(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string) string { return writeFile(t, dir, filepath.FromSlash(rel), "{}\n") }
	session := write("proj/cd12a960.jsonl")
	subagent := write("proj/cd12a960/subagents/agent-a4fed87a6dab77dba.jsonl")
	compaction := write("proj/cd12a960/subagents/agent-acompact-afb1adadf16dc577.jsonl")
	write("proj/cd12a960/subagents/agent-aside_question-01cf1d29f160c73d.jsonl.gz")
	orphan := write("copied/subagents/agent-acompact-8d29248259aa9c0e.jsonl")
	var got []string
	for _, tg := range Collect([]string{dir}) {
		got = append(got, tg.Path)
	}
	if want := []string{orphan, session, subagent}; !slices.Equal(got, want) {
		t.Errorf("walk: %q, want %q", got, want)
	}
	if got := Collect([]string{dir, compaction}); !slices.ContainsFunc(got, func(tg Target) bool { return tg.Path == compaction }) {
		t.Errorf("named by the user, %s is left out", compaction)
	}
}

// Gemini CLI names a project's folder under ~/.gemini/tmp after the project since late 2025,
// and after a hash of its path before: the old folder keeps copies of the sessions both hold.
// A walk reads each session once, the larger copy; sessions in one folder only, and files of
// other folders with the same name, are all read.
func TestCollectReadsAGeminiSessionKeptInTwoProjectFoldersOnce(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) string {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write(".gemini/tmp/56cfacee/chats/session-2026-01-26T15-45-1359fca9.json", "{}")
	longer := write(".gemini/tmp/dashboard/chats/session-2026-01-26T15-45-1359fca9.json", "{ }")
	older := write(".gemini/tmp/56cfacee/chats/session-2026-01-20T09-00-0a0b0c0d.json", "{}")
	copyA := write(".gemini/tmp/56cfacee/chats/session-2026-02-19T16-11-3c3fa9bf.json", "{}")
	write(".gemini/tmp/dashboard/chats/session-2026-02-19T16-11-3c3fa9bf.json", "{}")
	other := write("backup/chats/session-2026-01-26T15-45-1359fca9.json", "{}")
	var got []string
	for _, tg := range Collect([]string{dir}) {
		got = append(got, tg.Path)
	}
	want := []string{older, copyA, longer, other}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("walk:\n%q\nwant:\n%q", got, want)
	}
}

// Terminus logs each request to the model in its episode's folder (episode-N/debug.json),
// the whole chat so far each time. A walk reads the run once: from Harbor's trajectory.json
// where it is beside them, else from the last episode's log, and from the last log before
// each place the logs shrink (the chat was cut there, and only that log holds what came
// before). Named by the user, an episode's log is read.
func TestCollectReadsATerminusRunOnceNotEveryEpisodesLog(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string, size int) string {
		return writeFile(t, dir, filepath.FromSlash(rel), strings.Repeat(" ", size))
	}
	// Harbor: the trajectory beside the episodes
	trajectory := write("harbor/trial-1/agent/trajectory.json", 10)
	first := write("harbor/trial-1/agent/episode-0/debug.json", 10)
	write("harbor/trial-1/agent/episode-1/debug.json", 20)
	// Terminal-Bench: the episodes alone; the chat cut (summarised) after episode 10
	for n, size := range map[int]int{0: 10, 1: 20, 2: 30, 9: 90, 10: 100, 11: 40, 12: 50} {
		write(fmt.Sprintf("tb/run/task.1-of-1/agent-logs/episode-%d/debug.json", n), size)
	}
	beforeCut := filepath.Join(dir, "tb/run/task.1-of-1/agent-logs/episode-10/debug.json")
	last := filepath.Join(dir, "tb/run/task.1-of-1/agent-logs/episode-12/debug.json")
	// not Terminus's: another name, or no episode number
	other := write("tb/run/task.1-of-1/agent-logs/episode-x/debug.json", 5)
	notes := write("tb/run/task.1-of-1/agent-logs/episode-3/notes.json", 5)

	kept, mirrors := CollectMirrors([]string{dir})
	var got []string
	for _, tg := range kept {
		got = append(got, tg.Path)
	}
	want := []string{trajectory, beforeCut, last, notes, other}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("walk:\n%q\nwant:\n%q", got, want)
	}
	of := map[string]string{}
	for _, m := range mirrors {
		of[m.Path] = m.Of
	}
	if of[first] != trajectory {
		t.Errorf("%s is read instead of %s, want %s", of[first], first, trajectory)
	}
	if e := filepath.Join(dir, "tb/run/task.1-of-1/agent-logs/episode-2/debug.json"); of[e] != beforeCut {
		t.Errorf("%s is read instead of %s, want %s", of[e], e, beforeCut)
	}
	if e := filepath.Join(dir, "tb/run/task.1-of-1/agent-logs/episode-11/debug.json"); of[e] != last {
		t.Errorf("%s is read instead of %s, want %s", of[e], e, last)
	}
	if got := Collect([]string{dir, first}); !slices.ContainsFunc(got, func(tg Target) bool { return tg.Path == first }) {
		t.Errorf("named by the user, %s is left out", first)
	}
}

// A Harbor trial's agent folder keeps one run as the agent's own session files, as what its
// CLI printed (codex.txt, claude-code.txt) and as Harbor's trajectory.json converted from them.
// A walk reads the run once: from the session file where there is one, else from the printed
// log, else from the trajectory (Terminus writes nothing else). The CLI's other files under
// sessions/ (settings, todos) are no session. Named by the user, each is read.
func TestCollectReadsAHarborRunOnceNotOncePerForm(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string, size int) string {
		return writeFile(t, dir, filepath.FromSlash(rel), strings.Repeat(" ", size))
	}
	// Claude Code: all three forms, and the CLI's own settings beside the session
	session := write("job/t1/agent/sessions/projects/-app/5d1c.jsonl", 900)
	write("job/t1/agent/sessions/.claude.json", 2000)
	todos := write("job/t1/agent/sessions/todos/5d1c-agent.json", 10)
	printed1 := write("job/t1/agent/claude-code.txt", 800)
	trajectory1 := write("job/t1/agent/trajectory.json", 700)
	// Codex: the printed log and the trajectory
	printed2 := write("job/t2/agent/codex.txt", 500)
	trajectory2 := write("job/t2/agent/trajectory.json", 400)
	// Terminus: the trajectory alone
	trajectory3 := write("job/t3/agent/trajectory.json", 300)
	// a printed log's name with no Harbor trajectory or sessions beside it is read
	alone := write("notes/codex.txt", 100)

	kept, mirrors := CollectMirrors([]string{dir})
	var got []string
	for _, tg := range kept {
		got = append(got, tg.Path)
	}
	want := []string{session, filepath.Join(dir, "job/t1/agent/sessions/.claude.json"), todos, printed2, trajectory3, alone}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("walk:\n%q\nwant:\n%q", got, want)
	}
	of := map[string]string{}
	for _, m := range mirrors {
		of[m.Path] = m.Of
	}
	for left, read := range map[string]string{printed1: session, trajectory1: session, trajectory2: printed2} {
		if of[left] != read {
			t.Errorf("%s is read instead of %s, want %s", of[left], left, read)
		}
	}
	if got := Collect([]string{dir, trajectory1}); !slices.ContainsFunc(got, func(tg Target) bool { return tg.Path == trajectory1 }) {
		t.Errorf("named by the user, %s is left out", trajectory1)
	}
}

// Harbor's OpenClaw folder keeps the session at the top, again under openclaw-sessions/ with
// its checkpoints, and as the CLI printed it: a walk reads the session once (r156b U1).
func TestCollectReadsAHarborOpenClawRunOnce(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string) string { return writeFile(t, dir, filepath.FromSlash(rel), "{}\n") }
	session := write("t1/agent/openclaw-session.jsonl")
	copied := write("t1/agent/openclaw-sessions/bb3f.jsonl")
	checkpoint := write("t1/agent/openclaw-sessions/bb3f.checkpoint.8de9.jsonl")
	printed := write("t1/agent/command-1/stdout.txt")
	trajectory := write("t1/agent/trajectory.json")
	kept, mirrors := CollectMirrors([]string{dir})
	if len(kept) != 1 || kept[0].Path != session {
		t.Errorf("walk: %+v, want %s alone", kept, session)
	}
	of := map[string]string{}
	for _, m := range mirrors {
		of[m.Path] = m.Of
	}
	for _, left := range []string{copied, checkpoint, printed, trajectory} {
		if of[left] != session {
			t.Errorf("%s: read instead %q, want %s", left, of[left], session)
		}
	}
}

// AutoCodeRover keeps its chat after each round of context search and after each try at a
// patch, each file holding the ones before: a walk reads the last try's chat, else the last
// round's, once per task folder (validation round r133b U3: one run read fourteen times).
// Named by the user, a round's chat is read.
func TestCollectReadsAnAutoCodeRoverTaskOnce(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string) string { return writeFile(t, dir, filepath.FromSlash(rel), "[]") }
	var rounds []string
	for n := range 12 {
		rounds = append(rounds, write(fmt.Sprintf("acr/sympy__sympy-12419_2024/conversation_round_%d.json", n)))
	}
	write("acr/sympy__sympy-12419_2024/debug_agent_write_patch_1.json")
	write("acr/sympy__sympy-12419_2024/debug_agent_write_patch_2.json")
	lastTry := write("acr/sympy__sympy-12419_2024/debug_agent_write_patch_3.json")
	proxy := write("acr/sympy__sympy-12419_2024/agent_proxy_0.json")
	// a task that stopped before any patch: its last round
	lastRound := write("acr/django__django-1_2024/conversation_round_10.json")
	write("acr/django__django-1_2024/conversation_round_9.json")

	kept, mirrors := CollectMirrors([]string{dir})
	var got []string
	for _, tg := range kept {
		got = append(got, tg.Path)
	}
	want := []string{lastTry, proxy, lastRound}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("walk:\n%q\nwant:\n%q", got, want)
	}
	if len(mirrors) != 15 {
		t.Errorf("%d files left out, want 15", len(mirrors))
	}
	if got := Collect([]string{dir, rounds[3]}); !slices.ContainsFunc(got, func(tg Target) bool { return tg.Path == rounds[3] }) {
		t.Errorf("named by the user, %s is left out", rounds[3])
	}
}
