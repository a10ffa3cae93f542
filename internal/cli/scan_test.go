package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loopguard/loopguard/internal/testenv"
)

// scanCLI runs `loopguard scan` in-process with the given environment.
func scanCLI(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(append([]string{"scan"}, args...), &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] }})
	return out.String(), errb.String(), code
}

// stuck is an events transcript in which agent a1 repeats one call five times.
func stuck(tool string) string {
	return strings.Repeat(fmt.Sprintf(`{"type":"call","agent":"a1","tool":%q,"args":{"q":1},"result":{"text":"no match"}}`+"\n", tool), 5)
}

func put(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A file that cannot be read is reported with its path (and line) and skipped; the others are
// scanned; the exit status is 1.
func TestScanReportsAndSkipsBadFiles(t *testing.T) {
	big := strings.Repeat(stuck("probe"), 200) // long enough that half of it cuts a line
	tests := []struct {
		name, file string
		data       func(t *testing.T) []byte
		wantErr    string
	}{
		{"truncated gzip", "cut.jsonl.gz", func(t *testing.T) []byte { z := testenv.Gzip(t, []byte(big)); return z[:len(z)/2] }, "unexpected end of data"},
		{"a broken line in the middle", "broken.jsonl", func(*testing.T) []byte {
			return []byte(stuck("probe") + "{\"type\":\"call\",\"agent\":\n" + stuck("probe"))
		}, "broken.jsonl:6:"},
		{"empty file", "empty.jsonl", func(*testing.T) []byte { return nil }, "empty file"},
		{"binary file", "blob.json", func(*testing.T) []byte { return []byte("\x00\x01\x02\xff\xfe garbage \x00") }, "binary content"},
		{"gzip of nothing", "nothing.json.gz", func(t *testing.T) []byte { return testenv.Gzip(t, []byte("")) }, "empty file"},
		{"not gzip after all", "fake.traj.gz", func(*testing.T) []byte { return []byte{0x1f, 0x8b, 1, 2, 3} }, "gzip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			good := put(t, filepath.Join(dir, "a-good.jsonl"), []byte(stuck("probe")))
			goodZ := put(t, filepath.Join(dir, "z-good.jsonl.gz"), testenv.Gzip(t, []byte(stuck("zprobe"))))
			bad := put(t, filepath.Join(dir, tt.file), tt.data(t))
			stdout, stderr, code := scanCLI(t, nil, "--format", "jsonl", dir)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if !strings.Contains(stderr, bad) || !strings.Contains(stderr, tt.wantErr) || !strings.Contains(stderr, "(skipped)") {
				t.Errorf("stderr %q, want the path %s and %q", stderr, bad, tt.wantErr)
			}
			if strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr has more than the one problem: %q", stderr)
			}
			for _, f := range []string{good, goodZ} {
				if !strings.Contains(stdout, `"file":"`+f+`"`) {
					t.Errorf("the readable file %s was not scanned: %q", f, stdout)
				}
			}
		})
	}
}

func TestScanAllBadFilesTogether(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "ok.jsonl"), []byte(stuck("probe")))
	z := testenv.Gzip(t, []byte(strings.Repeat(stuck("probe"), 200)))
	put(t, filepath.Join(dir, "cut.jsonl.gz"), z[:len(z)/2])
	put(t, filepath.Join(dir, "mid.jsonl"), []byte(stuck("probe")+"not json\n"+stuck("probe")))
	put(t, filepath.Join(dir, "empty.jsonl"), nil)
	put(t, filepath.Join(dir, "bin.json"), []byte{0, 1, 2, 3})
	stdout, stderr, code := scanCLI(t, nil, dir, filepath.Join(dir, "missing.jsonl"))
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"cut.jsonl.gz:", "mid.jsonl:6:", "empty.jsonl: empty file", "bin.json: binary", "missing.jsonl: stat: no such file"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stdout, "scanned 1 file with built-in default preset; 5 files could not be read") {
		t.Errorf("summary:\n%s", stdout)
	}
	if !strings.Contains(stdout, filepath.Join(dir, "ok.jsonl")+"\n") {
		t.Errorf("the good file's loop is not listed:\n%s", stdout)
	}
}

func TestScanUsageErrors(t *testing.T) {
	dir := t.TempDir()
	file := put(t, filepath.Join(dir, "run.jsonl"), []byte(stuck("probe")))
	badLabels := put(t, filepath.Join(dir, "labels.jsonl"), []byte("{\"path\":\"run.jsonl\",\"call_indices\":[0,1],\"manual_label\":\"stuck\"}\n[\n"))
	badConfig := put(t, filepath.Join(dir, "lg.yaml"), []byte("dsh-brake: {callWarnCount: 1}\n"))
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"unknown format", []string{"--format", "xml", file}, `unknown --format "xml"`},
		{"unknown preset", []string{"--preset", "nope", file}, "nope"},
		{"config and preset", []string{"--preset", "default", "--config", badConfig, file}, "not both"},
		{"invalid config", []string{"--config", badConfig, file}, "lg.yaml:1:"},
		{"missing labels", []string{"--labels", filepath.Join(dir, "none.jsonl"), file}, "none.jsonl"},
		{"malformed labels", []string{"--labels", badLabels, file}, "labels.jsonl:2:"},
		{"negative jobs", []string{"--jobs", "-1", file}, "--jobs"},
		{"unknown flag", []string{"--colour", file}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := scanCLI(t, nil, tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(stderr, tt.wantErr) {
				t.Errorf("stderr %q, want %q", stderr, tt.wantErr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
}

func TestScanDefaultLocations(t *testing.T) {
	t.Run("none installed", func(t *testing.T) {
		home := t.TempDir()
		stdout, stderr, code := scanCLI(t, map[string]string{"HOME": home})
		if code != 0 || stderr != "" {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
		for _, want := range []string{"no agent transcripts found", filepath.Join(home, ".claude", "projects"), filepath.Join(home, ".codex", "sessions"), filepath.Join(home, ".gemini", "tmp"), filepath.Join(home, ".openhands", "conversations"),
			filepath.Join(home, ".local", "share", "opencode"), filepath.Join(home, ".config", "Code", "User", "workspaceStorage", "*", "chatSessions")} {
			if !strings.Contains(stdout, want) {
				t.Errorf("stdout %q lacks %q", stdout, want)
			}
		}
	})
	t.Run("the chats kept in the current folder's repository", func(t *testing.T) {
		aider, err := os.ReadFile(filepath.Join("..", "transcript", "testdata", "aider", "chat.history.md"))
		if err != nil {
			t.Fatal(err)
		}
		spec, err := os.ReadFile(filepath.Join("..", "transcript", "testdata", "specstory", "2026-11-30_10-00-00Z-fix-the-parser.md"))
		if err != nil {
			t.Fatal(err)
		}
		repo := t.TempDir()
		history := put(t, filepath.Join(repo, ".aider.chat.history.md"), aider)
		saved := put(t, filepath.Join(repo, ".specstory", "history", "2026-11-30_10-00-00Z-fix.md"), spec)
		t.Chdir(repo)
		stdout, stderr, code := scanCLI(t, map[string]string{"HOME": t.TempDir()}, "--format", "jsonl")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		for _, f := range []string{history, saved} {
			if !strings.Contains(stdout, `"file":"`+f+`"`) {
				t.Errorf("%s not scanned:\n%s", f, stdout)
			}
		}
	})
	t.Run("none installed, json", func(t *testing.T) {
		stdout, stderr, code := scanCLI(t, map[string]string{"HOME": t.TempDir()}, "--format", "json")
		if code != 0 || stdout != "" || !strings.Contains(stderr, "no agent transcripts found") {
			t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	})
	t.Run("those that exist", func(t *testing.T) {
		home, codex := t.TempDir(), t.TempDir()
		claude := put(t, filepath.Join(home, ".claude", "projects", "p", "s.jsonl"), []byte(stuck("Bash")))
		rollout := put(t, filepath.Join(codex, "sessions", "2026", "r.jsonl"), []byte(stuck("shell")))
		put(t, filepath.Join(home, ".codex", "sessions", "ignored.jsonl"), []byte(stuck("ignored")))
		// An OpenHands conversation: one file per event, read as one session.
		events := filepath.Join(home, ".openhands", "conversations", "c1", "events")
		put(t, filepath.Join(events, "event-00000.json"), []byte(`{"id":"a","timestamp":"2025-11-01T10:00:00","source":"agent","kind":"ActionEvent","tool_name":"execute_bash","tool_call_id":"c1","tool_call":{"id":"c1","type":"function","function":{"name":"execute_bash","arguments":"{}"}}}`))
		put(t, filepath.Join(events, "event-00001.json"), []byte(`{"id":"b","timestamp":"2025-11-01T10:00:01","source":"environment","kind":"ObservationEvent","tool_call_id":"c1","observation":{"content":"ok"}}`))
		// A Cline task: its history is read; its UI messages are passed over without a word.
		task := filepath.Join(home, ".config", "Code", "User", "globalStorage", "saoudrizwan.claude-dev", "tasks", "1730000000000")
		cline := put(t, filepath.Join(task, "api_conversation_history.json"), []byte(`[{"role":"user","content":[{"type":"text","text":"<task>\nls\n</task>"}]},`+
			`{"role":"assistant","content":[{"type":"text","text":"<list_files>\n<path>.</path>\n</list_files>"}]},`+
			`{"role":"user","content":[{"type":"text","text":"[list_files for '.'] Result:"},{"type":"text","text":"a.txt"}]}]`))
		put(t, filepath.Join(task, "ui_messages.json"), []byte(`[{"ts":1730000000000,"type":"say","say":"text","text":"ls"}]`))
		// Kilo Code, a fork of Roo Code, keeps the same task files under its own id; Windsurf
		// is one more editor built on VS Code.
		kilo := put(t, filepath.Join(home, ".config", "Windsurf", "User", "globalStorage", "kilocode.kilo-code", "tasks", "t1", "api_conversation_history.json"),
			[]byte(`[{"role":"user","content":[{"type":"text","text":"<task>\nls\n</task>"}]}]`))
		// The agents read since session 7, each in its own folder, with the index files
		// beside their sessions, which must pass without a word.
		fixture := func(name string) []byte {
			b, err := os.ReadFile(filepath.Join("..", "transcript", "testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		qwen := put(t, filepath.Join(home, ".qwen", "projects", "-work-proj", "chats", "s.jsonl"), fixture("qwen-code/session.jsonl"))
		pi := put(t, filepath.Join(home, ".pi", "agent", "sessions", "--work-proj--", "s.jsonl"), fixture("pi/session.jsonl"))
		copilot := put(t, filepath.Join(home, ".copilot", "session-state", "3f2c", "events.jsonl"), fixture("copilot/events.jsonl"))
		cont := put(t, filepath.Join(home, ".continue", "sessions", "84af.json"), fixture("continue/session.json"))
		put(t, filepath.Join(home, ".continue", "sessions", "sessions.json"), []byte(`[{"sessionId":"84af","title":"t","dateCreated":"1","workspaceDirectory":"/w","messageCount":4}]`))
		// VS Code keeps its chat panel's sessions (Copilot's agent mode) per workspace.
		chat := put(t, filepath.Join(home, ".config", "Code", "User", "workspaceStorage", "9f1c", "chatSessions", "s1.json"),
			[]byte(`{"requesterUsername":"dev","responderUsername":"GitHub Copilot","requests":[{"message":{"text":"list the files"},`+
				`"result":{"metadata":{"toolCallRounds":[{"response":"","toolCalls":[{"name":"list_dir","arguments":"{\"path\":\".\"}","id":"c1"}]}],`+
				`"toolCallResults":{"c1":{"content":[{"value":"a.txt"}]}}}}}]}`))
		put(t, filepath.Join(home, ".config", "Code", "User", "workspaceStorage", "9f1c", "workspace.json"), []byte(`{"folder":"file:///w"}`))
		// Current releases keep it as an operation log: the session, then its changes.
		journal := put(t, filepath.Join(home, ".config", "Code", "User", "workspaceStorage", "9f1c", "chatSessions", "s2.jsonl"),
			[]byte(`{"kind":0,"v":{"requesterUsername":"dev","responderUsername":"GitHub Copilot","requests":[]}}`+"\n"+
				`{"kind":2,"k":["requests"],"v":[{"message":{"text":"list the files"},"result":{"metadata":{"toolCallRounds":[{"response":"","toolCalls":[{"name":"list_dir","arguments":"{}","id":"c1"}]}]}}}]}`+"\n"))
		// Open Interpreter saves each conversation as a list of its messages.
		oi := put(t, filepath.Join(home, ".config", "open-interpreter", "conversations", "list_the__April_08_2024_14-39-40.json"),
			[]byte(`[{"role": "user", "type": "message", "content": "list the files"}, {"role": "assistant", "type": "code", "format": "shell", "content": "ls"}, {"role": "computer", "type": "console", "format": "output", "content": "a.txt"}]`))
		// Cursor keeps its agent's chats per project, as text.
		cursor := put(t, filepath.Join(home, ".cursor", "projects", "Users-dev-app", "agent-transcripts", "0c6d.txt"),
			[]byte("user:\n<user_query>\nlist the files\n</user_query>\n\nassistant:\n[Tool call] Glob\n  glob_pattern: *\n\n[Tool result] Glob\n"))
		stdout, stderr, code := scanCLI(t, map[string]string{"HOME": home, "CODEX_HOME": codex}, "--format", "jsonl")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		for _, f := range []string{claude, rollout, events, cline, kilo, qwen, pi, copilot, cont, chat, journal, cursor, oi} {
			if !strings.Contains(stdout, `"file":"`+f+`"`) {
				t.Errorf("%s not scanned:\n%s", f, stdout)
			}
		}
		if strings.Contains(stdout, "ignored") {
			t.Errorf("~/.codex scanned although CODEX_HOME is set:\n%s", stdout)
		}
		for _, index := range []string{"ui_messages.json", "sessions.json", "workspace.json"} {
			if strings.Contains(stdout+stderr, index) {
				t.Errorf("%s reported:\n%s\n%s", index, stdout, stderr)
			}
		}
	})
}

func TestScanSkipsNonTranscriptsOnlyInFolders(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "run.jsonl"), []byte(stuck("probe")))
	other := put(t, filepath.Join(dir, "settings.json"), []byte(`{"theme":"dark"}`+"\n"+`{"x":1}`+"\n"))
	put(t, filepath.Join(dir, "notes.txt"), []byte("not even looked at"))
	_, stderr, code := scanCLI(t, nil, dir)
	if code != 0 || !strings.Contains(stderr, "skipped "+other+": not a transcript") || strings.Contains(stderr, "notes.txt") {
		t.Errorf("folder: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = scanCLI(t, nil, other)
	if code != 1 || !strings.Contains(stderr, other+":1: unknown transcript format") {
		t.Errorf("named file: exit %d, stderr %q", code, stderr)
	}
}

// opencode keeps its sessions in a SQLite database now, and Crush in one of its own: a folder
// walk names them and says how to read them, or that scan cannot, instead of passing them over
// in silence.
func TestScanSaysHowToReadOpencodesDatabase(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "run.jsonl"), []byte(stuck("probe")))
	db := put(t, filepath.Join(dir, "opencode", "opencode.db"), append([]byte("SQLite format 3\x00"), make([]byte, 4080)...))
	crush := put(t, filepath.Join(dir, ".crush", "crush.db"), append([]byte("SQLite format 3\x00"), make([]byte, 4080)...))
	put(t, filepath.Join(dir, "other.db"), []byte("SQLite format 3\x00"))
	_, stderr, code := scanCLI(t, nil, dir)
	why := ": not a transcript (a SQLite database; if it is opencode's, scan the output of `opencode export <session id>`; if Goose's, of `goose session export --format json`; Crush's sessions (.crush/crush.db) are kept only there, and scan does not read databases)"
	if code != 0 || !strings.Contains(stderr, "skipped "+db+why) || !strings.Contains(stderr, "skipped "+crush+why) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if strings.Contains(stderr, "other.db") {
		t.Errorf("a database that is not opencode's was looked at: %q", stderr)
	}
}

func TestScanHTMLFile(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "run.jsonl"), []byte(stuck("probe")))
	page := filepath.Join(dir, "out", "report.html")
	os.MkdirAll(filepath.Dir(page), 0o755)
	_, stderr, code := scanCLI(t, nil, "--html", page, "--format", "json", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "<!doctype html>") || !strings.Contains(string(data), `<article class="session"`) {
		t.Errorf("report:\n%.400s", data)
	}
	_, stderr, code = scanCLI(t, nil, "--html", filepath.Join(dir, "no", "such", "dir", "r.html"), dir)
	if code != 1 || !strings.Contains(stderr, "r.html") {
		t.Errorf("unwritable report: exit %d, stderr %q", code, stderr)
	}
}

// No progress bar when stderr is not a terminal.
func TestScanProgressOnlyOnATerminal(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "run.jsonl"), []byte(stuck("probe")))
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	code := Main([]string{"scan", dir}, &Env{Stdout: &out, Stderr: f, Getenv: func(string) string { return "" }})
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	data, _ := os.ReadFile(f.Name())
	if len(data) != 0 {
		t.Errorf("stderr %q, want nothing", data)
	}
}

func TestScanSharedSetWithLabels(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the shared set is scanned by the tests of internal/scan")
	}
	dir := testenv.SharedTrajectories(t, "labels.jsonl")
	stdout, stderr, code := scanCLI(t, nil, "--labels", filepath.Join(dir, "labels.jsonl"), dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"scanned 166 files", "recall ", "median lateness ", "false alarms ", "notice rate "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
}

func TestScanFlagsAnywhere(t *testing.T) {
	dir := t.TempDir()
	a := put(t, filepath.Join(dir, "a.jsonl"), []byte(stuck("probe")))
	dash := put(t, filepath.Join(dir, "-b.jsonl"), []byte(stuck("probe")))
	emptyLabels := put(t, filepath.Join(dir, "labels.jsonl"), nil)
	tests := []struct {
		name  string
		args  []string
		files []string
	}{
		{"flags first", []string{"--format", "jsonl", a}, []string{a}},
		{"flags last", []string{a, "--format", "jsonl"}, []string{a}},
		{"flags between", []string{a, "--format=jsonl", "--preset", "default", a}, []string{a}},
		{"-- ends the flags", []string{"--format", "jsonl", "--", dash}, []string{dash}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := scanCLI(t, nil, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, f := range tt.files {
				if !strings.Contains(stdout, `"file":"`+f+`"`) {
					t.Errorf("%s not scanned as JSONL:\n%s", f, stdout)
				}
			}
		})
	}
	stdout, _, code := scanCLI(t, nil, a, "--labels", emptyLabels)
	if code != 0 || !strings.Contains(stdout, "labels from "+emptyLabels+": 0 rows") || !strings.Contains(stdout, "recall          0/0") {
		t.Errorf("an empty labels file: exit %d\n%s", code, stdout)
	}
}

// A file read with no tool calls is named in the text report; --strict makes it an error;
// --verbose says how every file was read.
func TestScanStrictAndVerbose(t *testing.T) {
	dir := t.TempDir()
	chat := put(t, filepath.Join(dir, "chat.json"), []byte(`[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]`))
	put(t, filepath.Join(dir, "run.jsonl"), []byte(stuck("probe")))
	tests := []struct {
		name     string
		args     []string
		wantCode int
		stdout   string
		stderr   string
	}{
		{"default", nil, 0, chat + "\n  read as messages: no tool calls\n", ""},
		{"strict", []string{"--strict"}, 1, chat + "\n  read as messages: no tool calls\n", "loopguard scan: " + chat + ": read as messages: no tool calls (--strict)\n"},
		{"verbose", []string{"--verbose"}, 0, "", "loopguard scan: " + filepath.Join(dir, "run.jsonl") + ": read as events: 1 session(s), 1 agent(s), 5 call(s)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := scanCLI(t, nil, append(tt.args, dir)...)
			if code != tt.wantCode || !strings.Contains(out, tt.stdout) || !strings.Contains(errs, tt.stderr) {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, out, errs)
			}
		})
	}
}

// --labels given twice scores the labels of both files together.
func TestScanLabelsFromSeveralFiles(t *testing.T) {
	dir := t.TempDir()
	loop := put(t, filepath.Join(dir, "loop.jsonl"), []byte(stuck("probe")))
	calm := put(t, filepath.Join(dir, "calm.jsonl"), []byte(strings.Repeat(`{"type":"call","agent":"a1","tool":"probe","args":{"q":1}}`+"\n", 1)))
	first := put(t, filepath.Join(dir, "first.jsonl"),
		[]byte(`{"repo":"x/y","path":"loop.jsonl","agent":"a1","call_indices":[0,4],"manual_label":"stuck","note":"the same probe 5 times"}`+"\n"))
	second := put(t, filepath.Join(dir, "second.jsonl"),
		[]byte(`{"repo":"x/y","path":"calm.jsonl","agent":"a1","call_indices":[0,0],"manual_label":"batch","note":"one probe"}`+"\n"))
	stdout, stderr, code := scanCLI(t, nil, "--labels", first, "--labels", second, "--preset", "repeat-tool-reminder", loop, calm)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"labels from " + first + ", " + second + ": 2 rows", "recall          1/1", "0 of 1 legitimate"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
}

// A folder of files of other kinds scans as nothing, and says so: how many it passed over,
// and with --verbose which.
func TestScanSaysWhatItPassedOver(t *testing.T) {
	dir := t.TempDir()
	notes := put(t, filepath.Join(dir, "notes.md"), []byte("# Notes\n\nnothing here\n"))
	stdout, stderr, code := scanCLI(t, nil, dir)
	if code != 0 || !strings.Contains(stdout, "scanned 0 files") || !strings.Contains(stdout, "1 file of other kinds in the folders passed over") || strings.Contains(stderr, notes) {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	_, stderr, _ = scanCLI(t, nil, "--verbose", dir)
	if !strings.Contains(stderr, notes+": passed over, not a transcript") {
		t.Errorf("--verbose does not name %s:\n%s", notes, stderr)
	}
}

// With --verbose, a file a folder walk leaves out as a copy of another (Claude Code's fork of a
// conversation beside its session) is named, with the file read in its place (validation
// rounds r72a, r73b: such files were passed over without a word).
func TestScanVerboseNamesTheCopiesItPassesOver(t *testing.T) {
	dir := t.TempDir()
	session := put(t, filepath.Join(dir, "proj", "cd12a960.jsonl"), []byte(stuck("probe")))
	fork := put(t, filepath.Join(dir, "proj", "cd12a960", "subagents", "agent-acompact-afb1adadf16dc577.jsonl"), []byte(stuck("probe")))
	_, stderr, code := scanCLI(t, nil, "--verbose", dir)
	want := fork + ": passed over, Claude Code's fork of the conversation (a compaction or a side question): " + session + " is read"
	if code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q: want %q", code, stderr, want)
	}
	if _, stderr, _ = scanCLI(t, nil, dir); strings.Contains(stderr, fork) {
		t.Errorf("without --verbose the copy is named: %q", stderr)
	}
}

// What `scan --format events` writes is what the scan replayed: `loopguard replay` of it gives
// the scan's notices, agent for agent, on real transcripts of many formats and the labelled
// runs (each agent under its scan id, "path#agent").
func TestScanEventsReplayToTheScansNotices(t *testing.T) {
	for _, dir := range []string{"../transcript/testdata/real", "../../testdata/labels", "../../testdata/labels-agents"} {
		t.Run(filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), func(t *testing.T) {
			notices, stderr, code := scanCLI(t, nil, "--format", "jsonl", dir)
			if code != 0 {
				t.Fatalf("scan --format jsonl: exit %d: %s", code, stderr)
			}
			events, stderr, code := scanCLI(t, nil, "--format", "events", dir)
			if code != 0 {
				t.Fatalf("scan --format events: exit %d: %s", code, stderr)
			}
			replayed, stderr, code := runCLI(t, events, "replay")
			if code != 0 {
				t.Fatalf("replay: exit %d: %s", code, stderr)
			}
			var want, got []string
			for _, line := range strings.Split(strings.TrimSpace(notices), "\n") {
				var n struct{ Type, File, Agent, Kind, Summary string }
				if err := json.Unmarshal([]byte(line), &n); err != nil {
					t.Fatal(err)
				}
				if n.Type == "notice" {
					want = append(want, n.File+" "+n.Agent+" "+n.Kind+" "+n.Summary)
				}
			}
			for _, line := range strings.Split(strings.TrimSpace(replayed), "\n") {
				var n struct{ Type, Agent, Kind, Summary string }
				if err := json.Unmarshal([]byte(line), &n); err != nil {
					t.Fatal(err)
				}
				if n.Type == "notice" {
					file, rest, _ := strings.Cut(n.Agent, "#")
					agent := rest[strings.LastIndexByte(rest, '#')+1:] // past a session number
					got = append(got, file+" "+agent+" "+n.Kind+" "+n.Summary)
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if len(want) == 0 {
				t.Fatal("the scan gave no notices to compare")
			}
			if !slices.Equal(got, want) {
				t.Errorf("replaying the scan's events gave %d notices:\n%s\nthe scan gave %d:\n%s", len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
			}
		})
	}
}
