package scan

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// copyInto copies files of the transcript package's testdata into dir/sub.
func copyInto(t *testing.T, dir, sub string, files ...string) {
	t.Helper()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("..", "transcript", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, filepath.Join(sub, filepath.Base(f)), string(data))
	}
}

func TestAFolderOfOpenHandsDumpsIsOneSession(t *testing.T) {
	dir := t.TempDir()
	dumps, _ := filepath.Glob(filepath.Join("..", "transcript", "testdata", "openhands", "llm_completions", "django__django-1", "*.json"))
	if len(dumps) != 3 {
		t.Fatalf("fixture dumps: %v", dumps)
	}
	for _, d := range dumps {
		rel, _ := filepath.Rel(filepath.Join("..", "transcript", "testdata"), d)
		copyInto(t, dir, "llm_completions/django__django-1", rel)
	}
	writeFile(t, dir, "README.md", "# Runs of 12 May\n\nNothing to read here.\n")
	r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "default")})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 1 {
		for _, f := range r.Files {
			t.Logf("%s %s %v", f.Path, f.Format, f.Err)
		}
		t.Fatalf("%d files reported, want the one folder (the README passed over)", len(r.Files))
	}
	f := r.Files[0]
	if f.Path != filepath.Join(dir, "llm_completions", "django__django-1") || f.Format != "openhands-completion" ||
		len(f.Parts) != 3 || f.Calls != 3 || f.Sessions != 1 {
		t.Errorf("folder read as %s %s, %d parts, %d calls, %d sessions", f.Path, f.Format, len(f.Parts), f.Calls, f.Sessions)
	}
	if r.Totals.Files != 1 || r.Totals.Calls != 3 || r.Totals.NotTranscript != 0 {
		t.Errorf("totals %+v", r.Totals)
	}
}

func TestAFolderOfDumpsOfTwoConversationsGivesTwoSessions(t *testing.T) {
	dir := t.TempDir()
	dumps, _ := filepath.Glob(filepath.Join("..", "transcript", "testdata", "openhands", "llm_completions", "django__django-1", "*.json"))
	for _, d := range dumps {
		data, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, filepath.Base(d), string(data))
		// The same dump for another task, as OpenHands' CLI logs every conversation to one folder.
		other := strings.Replace(string(data), "Fix the failing test.", "Rename the module.", -1)
		writeFile(t, dir, "other-"+filepath.Base(d), other)
	}
	r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "default")})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 2 || r.Files[0].Calls != 3 || r.Files[1].Calls != 3 || r.Files[0].Path == r.Files[1].Path {
		for _, f := range r.Files {
			t.Logf("%s: %d calls, %d parts", f.Path, f.Calls, len(f.Parts))
		}
		t.Fatalf("%d files, want one per conversation with 3 calls each", len(r.Files))
	}
	for _, f := range r.Files {
		if !strings.HasPrefix(f.Path, dir+"#") || len(f.Parts) != 3 {
			t.Errorf("%s: %d parts", f.Path, len(f.Parts))
		}
	}
}

func TestAFileWithNoToolCallsIsNamed(t *testing.T) {
	dir := t.TempDir()
	empty := writeFile(t, dir, "chat.json", `[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]`)
	writeFile(t, dir, "run.jsonl", events("a b"))
	r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "default")})
	if err != nil {
		t.Fatal(err)
	}
	var text, lines bytes.Buffer
	if err := WriteText(&text, r, Meta{Config: "--preset default"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{empty + "\n  read as messages: no tool calls\n", "; 1 file read with no tool calls (listed above)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if err := WriteJSONL(&lines, r); err != nil {
		t.Fatal(err)
	}
	var recs []FileRecord
	for _, l := range strings.Split(strings.TrimSpace(lines.String()), "\n") {
		var rec FileRecord
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Type == "file" {
			recs = append(recs, rec)
		}
	}
	if len(recs) != 2 || recs[0].File != empty || recs[0].Calls != 0 || recs[0].Format != "messages" || recs[1].Calls != 2 {
		t.Errorf("file records %+v", recs)
	}
}

func TestTauBenchEntriesAreSessionsOfTheirOwn(t *testing.T) {
	// Two entries of two identical calls each: replayed as one session they would be four
	// repeats in a row; as two sessions, neither reaches repeat-tool-reminder's threshold.
	entry := `{"task_id":%d,"reward":0,"trial":0,"traj":[{"role":"user","content":"cancel"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_order","arguments":"{\"id\":1}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"ok"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"get_order","arguments":"{\"id\":1}"}}]},` +
		`{"role":"tool","tool_call_id":"c2","content":"ok"}]}`
	list := "[" + strings.ReplaceAll(entry, "%d", "0") + "," + strings.ReplaceAll(entry, "%d", "1") + "]"
	f := scanOne(t, preset(t, "repeat-tool-reminder"), list)
	if f.Format != "tau-bench" || f.Sessions != 2 || len(f.Agents) != 2 || f.Calls != 4 {
		t.Fatalf("read as %s: %d sessions, %d agents, %d calls", f.Format, f.Sessions, len(f.Agents), f.Calls)
	}
	if f.Agents[1].Session != 1 || f.Agents[1].ID != "main" {
		t.Errorf("second agent %+v", f.Agents[1])
	}
	if len(f.Notices) != 0 {
		t.Errorf("the sessions were replayed as one: %+v", f.Notices)
	}
	// With three repeats in the second entry, its notice names session 1.
	list = "[" + strings.ReplaceAll(entry, "%d", "0") + "," + strings.Replace(strings.ReplaceAll(entry, "%d", "1"),
		`{"role":"tool","tool_call_id":"c2","content":"ok"}]`,
		`{"role":"tool","tool_call_id":"c2","content":"ok"},{"role":"assistant","content":null,"tool_calls":[{"id":"c3","type":"function","function":{"name":"get_order","arguments":"{\"id\":1}"}}]}]`, 1) + "]"
	f = scanOne(t, preset(t, "repeat-tool-reminder"), list)
	if len(f.Notices) == 0 || f.Notices[0].Session != 1 || len(f.Loops) == 0 || f.Loops[0].Session != 1 {
		t.Fatalf("notices %+v, loops %+v", f.Notices, f.Loops)
	}
	var text bytes.Buffer
	WriteText(&text, &Report{Files: []*File{f}}, Meta{}, nil)
	if !strings.Contains(text.String(), "  session 1 main  repeat-tool-reminder/repeat") {
		t.Errorf("the text report does not name the session:\n%s", text.String())
	}
}

func TestAnOpenHandsEventFolderIsOneSession(t *testing.T) {
	dir := t.TempDir()
	var events []json.RawMessage
	data, err := os.ReadFile(filepath.Join("..", "transcript", "testdata", "real", "openhands", "basic.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &events); err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		var head struct{ ID int }
		json.Unmarshal(e, &head)
		writeFile(t, dir, filepath.Join("sessions", "abc", "events", strconv.Itoa(head.ID)+".json"), string(e))
	}
	r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "default")})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 1 {
		t.Fatalf("%d files, want the one folder", len(r.Files))
	}
	f := r.Files[0]
	if f.Path != filepath.Join(dir, "sessions", "abc", "events") || f.Format != "openhands" || len(f.Parts) != len(events) || f.Calls != 2 {
		t.Errorf("read as %s %s: %d parts, %d calls", f.Path, f.Format, len(f.Parts), f.Calls)
	}
}

func TestAnOpencodeStorageFolderGivesOneFilePerSession(t *testing.T) {
	src := filepath.Join("..", "transcript", "testdata", "opencode", "storage")
	dir := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(dir, "storage"), rel, string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "default")})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 1 {
		for _, f := range r.Files {
			t.Logf("%s %s %v", f.Path, f.Format, f.Err)
		}
		t.Fatalf("%d files, want the one session", len(r.Files))
	}
	f := r.Files[0]
	if f.Path != filepath.Join(dir, "storage", "message", "ses_6a1b2c3d4e5fAbCdEfGhIjKl") || f.Format != "opencode" || f.Calls != 3 || len(f.Parts) != 15 {
		t.Errorf("read as %s %s: %d calls, %d parts", f.Path, f.Format, f.Calls, len(f.Parts))
	}
}

// The acceptance check of issue 10: a folder holding a file of every supported format,
// scanned, reports every file with its format and more than 0 calls, and each file's calls are
// the reader's (which the transcript package's tests check against an independent walk of
// the raw real files).
func TestAFolderOfEveryFormatReportsEveryFile(t *testing.T) {
	td := filepath.Join("..", "transcript", "testdata")
	dir := t.TempDir()
	single := map[string]string{ // format -> a file of it
		"claude-code":          "claude-code/s1.jsonl",
		"codex":                "codex/rollout-2025-10-03T12-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl",
		"gemini-cli":           "gemini/session-2025-09-18T10-00-7c9e6679.json",
		"swe-agent":            "swe-agent/single.traj",
		"mini-swe-agent":       "mini-swe-agent/demo.traj.json",
		"messages":             "messages/openai-chat.json",
		"events":               "events/events.jsonl",
		"claude-code-markdown": "real/claude-code-markdown/e840880f-b320-46ae-9bc2-2108074584ba-untitled-full.md",
		"openhands":            "real/openhands/output-2-records.jsonl.gz",
		"tau-bench":            "real/tau-bench/gpt-4o-airline-3.json",
		"cline":                "real/cline/api_conversation_history.json.gz",
		"otlp":                 "otlp/genai-collector.jsonl",
		"codex-exec":           "codex-exec/exec.jsonl",
		"gemini-stream":        "gemini-stream/run.jsonl",
		"atif":                 "atif/trajectory.json",
	}
	want := map[string]string{} // path scanned -> format
	// Claude Code's stream-json output, as a harness keeps it: a .txt file beside others.
	data, err := os.ReadFile(filepath.Join(td, "claude-stream", "claude-code.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want[writeFile(t, dir, filepath.Join("harbor", "agent", "claude-code.txt"), string(data))] = "claude-code"
	writeFile(t, dir, filepath.Join("harbor", "agent", "setup", "stdout.txt"), "installing...\ndone\n")
	// Message lists logged one message a line are the messages format too.
	if data, err = os.ReadFile(filepath.Join(td, "messages", "anthropic-messages.jsonl")); err != nil {
		t.Fatal(err)
	}
	want[writeFile(t, dir, filepath.Join("messages-jsonl", "chat.jsonl"), string(data))] = "messages"
	for format, f := range single {
		data, err := os.ReadFile(filepath.Join(td, f))
		if err != nil {
			t.Fatal(err)
		}
		p := writeFile(t, dir, filepath.Join(format, filepath.Base(f)), string(data))
		want[p] = format
	}
	// Formats whose session is a folder of files.
	copyTree := func(src, dst string) {
		err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			data, err := os.ReadFile(p)
			if err == nil {
				writeFile(t, dst, rel, string(data))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	copyTree(filepath.Join(td, "openhands", "llm_completions"), filepath.Join(dir, "openhands-completion"))
	want[filepath.Join(dir, "openhands-completion", "django__django-1")] = "openhands-completion"
	copyTree(filepath.Join(td, "opencode", "storage"), filepath.Join(dir, "opencode", "storage"))
	want[filepath.Join(dir, "opencode", "storage", "message", "ses_6a1b2c3d4e5fAbCdEfGhIjKl")] = "opencode"

	r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "default")})
	if err != nil {
		t.Fatal(err)
	}
	var lines bytes.Buffer
	if err := WriteJSONL(&lines, r); err != nil {
		t.Fatal(err)
	}
	got := map[string]FileRecord{}
	for _, l := range strings.Split(strings.TrimSpace(lines.String()), "\n") {
		var rec FileRecord
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Type == "file" {
			got[rec.File] = rec
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d file records, want %d: %v", len(got), len(want), got)
	}
	for p, format := range want {
		rec, ok := got[p]
		switch {
		case !ok:
			t.Errorf("%s (%s) not reported", p, format)
		case rec.Error != "" || rec.Format != format || rec.Calls == 0:
			t.Errorf("%s: %+v, want format %s and calls", p, rec, format)
		case rec.Parts == nil:
			tr, err := readTranscript(p)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for i := range tr.Agents {
				n += len(tr.Agents[i].Calls())
			}
			if rec.Calls != n {
				t.Errorf("%s: %d calls reported, the reader reads %d", p, rec.Calls, n)
			}
		}
	}
}

// A conversation Amazon Q saved without an extension is read in a folder walk, in its format;
// an extensionless JSON document that is no transcript is passed over, not failed.
func TestAFolderWalkReadsAnAmazonQSaveWithoutExtension(t *testing.T) {
	dir := t.TempDir()
	save := writeFile(t, dir, "fix-lint", `{"conversation_id": "c1", "next_message": null, "history": [
	  [{"content": {"Prompt": {"prompt": "run the tests"}}},
	   {"ToolUse": {"message_id": "m1", "content": "", "tool_uses": [{"id": "t1", "name": "execute_bash", "args": {"command": "make test"}}]}}],
	  [{"content": {"ToolUseResults": {"tool_use_results": [{"tool_use_id": "t1", "content": [{"Json": {"exit_status": "2", "stdout": "", "stderr": "FAIL"}}], "status": "Success"}]}}},
	   {"Response": {"message_id": "m2", "content": "The tests fail."}}]],
	  "valid_history_range": [0, 2], "transcript": [], "tools": {}}`)
	other := writeFile(t, dir, "settings", `{"theme": "dark"}`)
	r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "default")})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*File{}
	for _, f := range r.Files {
		files[f.Path] = f
	}
	if f := files[save]; f == nil || f.Err != nil || f.Format != "amazon-q" || f.Calls != 1 {
		t.Errorf("the save: %+v, want one call read as amazon-q", f)
	}
	if f := files[other]; f == nil || !f.NotTranscript || f.Failed() {
		t.Errorf("the settings: %+v, want passed over as no transcript", f)
	}
}

// A text file met in a walk is read only for a CLI's JSON output: one whose first line is no
// JSON, though it opens with '[' (Terminal-Bench's commands.txt of Python lists), is passed
// over; a JSON output damaged further down is read and its damaged line named, and a file
// named on the command line is an error naming its line.
func TestAFolderWalkPassesOverTextThatIsNoJSON(t *testing.T) {
	dir := t.TempDir()
	commands := writeFile(t, dir, "commands.txt", "['ls', 'Enter']\n['cat README.md', 'Enter']\n")
	damaged := writeFile(t, dir, "agent.log", `{"type":"system","subtype":"init","session_id":"s1"}`+"\n"+
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]},"session_id":"s1"}`+"\n"+
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a`+"\n")
	walked, err := Run(Collect([]string{dir}), Options{Config: preset(t, "default")})
	if err != nil {
		t.Fatal(err)
	}
	named, err := Run(Collect([]string{commands}), Options{Config: preset(t, "default")})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*File{}
	for _, f := range walked.Files {
		files[f.Path] = f
	}
	if files[commands] != nil || !slices.Contains(walked.PassedOver, commands) {
		t.Errorf("commands.txt in a walk: %+v, passed over %v; want it passed over", files[commands], walked.PassedOver)
	}
	if f := files[damaged]; f == nil || f.Failed() || f.Calls != 1 || len(f.Damaged) != 1 || !strings.Contains(f.Damaged[0], "agent.log:3:") {
		t.Errorf("a damaged JSON output in a walk: %+v, want read, its line 3 named as damaged", f)
	}
	if len(named.Files) != 1 || !named.Files[0].Failed() || !strings.Contains(named.Files[0].Err.Error(), "commands.txt:1:") {
		t.Errorf("commands.txt named: %+v, want an error at its line 1", named.Files)
	}
}

// A walked text or log file that holds a CLI's JSON output on one line (claude -p
// --output-format json writes its whole run as one JSON array on one line) and is cut short
// or damaged on that line is a damaged transcript, not a file of another kind: it is reported
// as a read error, not passed over without a word (review r19 H3). Only a file that is no
// JSON from its first value on (['ls', 'Enter']) is passed over.
func TestAFolderWalkReportsADamagedOneLineJSONOutput(t *testing.T) {
	tests := []struct {
		name, file, content string
	}{
		{"a one-line JSON array cut short", "claude-code.txt",
			`[{"type":"system","subtype":"init","session_id":"s1"},{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]},"session_id":"s1"},{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a`},
		{"a one-line JSON array with a damaged value", "claude-code.log",
			`[{"type":"system","subtype":"init","session_id":"s1"},{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]},"session_id":"s1"}, nul]` + "\n"},
		{"a one-line JSON object cut short", "codex.txt",
			`{"type":"result","subtype":"success","is_error":false,"result":"don`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeFile(t, dir, tt.file, tt.content)
			r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "default")})
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(r.PassedOver, path) {
				t.Errorf("%s was passed over as a file of another kind; want it reported as damaged (a read error naming its line)", tt.file)
			}
			var found bool
			for _, f := range r.Files {
				if f.Path == path {
					found = true
					if !f.Failed() {
						t.Errorf("%s read without error: %+v", tt.file, f)
					}
				}
			}
			if !found {
				t.Errorf("%s is not in the report", tt.file)
			}
		})
	}
}

// The first line that holds anything decides: a commands.txt that opens with a blank line
// (or white space) is the same file of Python lists as one that does not.
func TestAFolderWalkPassesOverTextWhoseFirstNonBlankLineIsNoJSON(t *testing.T) {
	tests := []struct{ name, file, content string }{
		{"a blank line first", "commands.txt", "\n['ls', 'Enter']\n['cat README.md', 'Enter']\n"},
		{"white space first", "commands.log", "  \n{ls -la}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeFile(t, dir, tt.file, tt.content)
			r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "default")})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(r.PassedOver, path) {
				for _, f := range r.Files {
					t.Logf("%s: %v", f.Path, f.Err)
				}
				t.Errorf("%s not passed over", tt.file)
			}
		})
	}
}

// An empty text file met in a folder walk (a tool's output Gemini CLI left empty in a home
// folder: validation round r72a) is passed over, not a failure of the scan; an empty .json or
// .jsonl file may be a session lost to a crash and is reported; named by the user, each is an
// error.
func TestAnEmptyTextFileIsPassedOverInAWalk(t *testing.T) {
	for _, tt := range []struct {
		ext          string
		walkFailure  bool
		namedFailure bool
	}{
		{"txt", false, true},
		{"log", false, true},
		{"json", true, true},
		{"jsonl", true, true},
	} {
		t.Run(tt.ext, func(t *testing.T) {
			dir := t.TempDir()
			empty := writeFile(t, dir, "read_file_255."+tt.ext, "")
			for _, run := range []struct {
				name    string
				paths   []string
				failure bool
			}{
				{"walked", []string{dir}, tt.walkFailure},
				{"named", []string{empty}, tt.namedFailure},
			} {
				r, err := Run(Collect(run.paths), Options{Config: preset(t, "default")})
				if err != nil {
					t.Fatal(err)
				}
				failed := 0
				for _, f := range r.Files {
					if f.Failed() {
						failed++
					}
				}
				if (failed == 1) != run.failure || failed > 1 {
					t.Errorf("%s: %d of %d files failed, want a failure: %v", run.name, failed, len(r.Files), run.failure)
				}
			}
		})
	}
}

// The files agents keep beside their transcripts that hold no conversation are passed over in
// a walk without a word, not reported as files that are no transcript.
func TestAFolderWalkPassesOverCompanionFiles(t *testing.T) {
	for _, name := range []string{"base_state.json", "meta.json", "task_metadata.json", "sessions.json"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeFile(t, dir, name, `{"agent": {"kind": "Agent", "llm": {"model": "claude-sonnet-4"}}, "id": "3749ed60"}`)
			r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "default")})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(r.PassedOver, path) {
				t.Errorf("%s not passed over: files %+v", name, r.Files)
			}
		})
	}
}
