package e2e

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/transcript"
)

// transcriptCase is where a CLI leaves its session transcript, and what the reader makes of it.
type transcriptCase struct {
	host   Host
	format string
	tool   string
	where  func(a *Agent) string // folder the CLI writes its transcripts under
	match  func(path string) bool
}

var transcriptCases = []transcriptCase{
	{HostClaudeCode, transcript.FormatClaudeCode, "Bash",
		func(a *Agent) string { return filepath.Join(a.Home, ".claude", "projects") },
		func(p string) bool { return strings.HasSuffix(p, ".jsonl") && !strings.Contains(p, "subagents") }},
	{HostCodex, transcript.FormatCodex, "exec_command",
		func(a *Agent) string { return filepath.Join(a.CodexHome, "sessions") },
		func(p string) bool { return strings.HasPrefix(filepath.Base(p), "rollout-") }},
	{HostGeminiCLI, transcript.FormatGeminiCLI, "run_shell_command",
		func(a *Agent) string { return filepath.Join(a.Home, ".gemini", "tmp") },
		func(p string) bool {
			return strings.Contains(p, string(filepath.Separator)+"chats"+string(filepath.Separator)) && strings.HasPrefix(filepath.Base(p), "session-")
		}},
}

// runForTranscript has the real CLI run cmd three times for the scripted model, and returns the
// calls the reader finds in the transcript it left behind (checked against the raw file).
func runForTranscript(t *testing.T, tt transcriptCase, cmd, output string) []loopguard.Event {
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	a := NewAgent(t, tt.host, srv)
	a.runChecked(t, srv, "", "Run the e2e command until you are told to stop.")
	path := tt.transcriptOf(t, a)
	raw, _ := os.ReadFile(path)
	return sideEffectCallsIn(t, path, tt.format, tt.tool, string(raw), output)
}

// transcriptOf returns the one transcript the CLI left behind for agent a.
func (tt transcriptCase) transcriptOf(t *testing.T, a *Agent) string {
	t.Helper()
	var files []string
	filepath.WalkDir(tt.where(a), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && tt.match(p) {
			files = append(files, p)
		}
		return nil
	})
	if len(files) != 1 {
		t.Fatalf("want one transcript under %s, found %v", tt.where(a), files)
	}
	return files[0]
}

// noticedAt replays calls through a fresh engine of preset and returns the indices of the
// calls that drew a notice.
func noticedAt(t *testing.T, preset string, calls []loopguard.Event) []int {
	cfg, err := loopguard.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := loopguard.New(cfg)
	var at []int
	for i, c := range calls {
		if len(eng.Observe(c)) > 0 {
			at = append(at, i)
		}
	}
	return at
}

// wantNoticeAtThird checks that replaying calls through preset gives one notice, on the third
// call, and shows the results when it does not.
func wantNoticeAtThird(t *testing.T, preset string, calls []loopguard.Event) {
	t.Helper()
	if at := noticedAt(t, preset, calls); len(at) != 1 || at[0] != 2 {
		t.Errorf("replayed calls noticed at %v, want [2]", at)
		for i, c := range calls {
			t.Logf("call %d %s args %q failed %v turn %q result: %q", i, c.Tool, c.Args, c.Failed, c.Turn, c.Result)
		}
	}
}

// newCLIHome makes the folders a CLI runs in for one test: a home of its own and a working
// folder, under root.
func newCLIHome(t *testing.T) (root, home, work string) {
	t.Helper()
	root = t.TempDir()
	home, work = filepath.Join(root, "home"), filepath.Join(root, "work")
	for _, d := range []string{home, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root, home, work
}

// onlyFile returns the one file that matches pattern (what names it in the failure), and
// fails the test when there is not exactly one.
func onlyFile(t *testing.T, pattern, what string) string {
	t.Helper()
	files, _ := filepath.Glob(pattern)
	if len(files) != 1 {
		t.Fatalf("%d %s (%s), want 1: %v", len(files), what, pattern, files)
	}
	return files[0]
}

// The transcript readers of `loopguard scan`, on transcripts the real CLIs write: each CLI runs
// the same shell command three times for the scripted model, and the reader must find exactly
// those three calls, with their results, in the file the CLI left behind; replaying them gives
// the reminder on the third.
func TestTranscriptsOfRealRuns(t *testing.T) {
	for _, tt := range transcriptCases {
		t.Run(string(tt.host), func(t *testing.T) {
			t.Parallel()
			cmd, _ := sideEffectCommand(t)
			wantNoticeAtThird(t, loopguard.PresetRepeatToolReminder, runForTranscript(t, tt, cmd, "hi"))
		})
	}
}

// The default preset on the same transcripts, for a command whose output does not change: the
// third call returned what the first two did, whatever the CLI wrapped around it (Codex heads
// every output with a fresh "Chunk ID" and a wall time, Gemini CLI ends it with a process group
// id), so the reminder comes on the third.
func TestDefaultPresetOnTranscriptsOfRealRuns(t *testing.T) {
	for _, tt := range transcriptCases {
		t.Run(string(tt.host), func(t *testing.T) {
			t.Parallel()
			cmd, _ := stuckCommand(t)
			wantNoticeAtThird(t, loopguard.PresetDefault, runForTranscript(t, tt, cmd, "no matches found"))
		})
	}
}

// The readers of the CLIs' headless output (what benchmark harnesses keep of a run) on what the
// real CLIs print: each runs the same shell command three times for the scripted model with
// its line-by-line JSON output on stdout, saved to a file as a harness saves it; the reader
// must recognise the format and find exactly those three calls with their results.
func TestHeadlessOutputOfRealRuns(t *testing.T) {
	tests := []struct {
		host   Host
		file   string
		format string
		tool   string
	}{
		{HostClaudeCode, "claude-code", transcript.FormatClaudeCode, "Bash"},
		{HostCodex, "codex", transcript.FormatCodexExec, "shell"},
		{HostGeminiCLI, "gemini-cli", transcript.FormatGeminiStream, "run_shell_command"},
	}
	for _, tt := range tests {
		t.Run(string(tt.host), func(t *testing.T) {
			t.Parallel()
			cmd, _ := sideEffectCommand(t)
			srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
			a := NewAgent(t, tt.host, srv)
			r := a.RunStreaming(t, "Run the e2e command until you are told to stop.")
			if r.ExitCode != 0 {
				t.Fatalf("%s exited %d; stderr:\n%.3000s", tt.host, r.ExitCode, r.Stderr)
			}
			path := printedOutput(t, tt.file, r.Stdout)
			sideEffectCallsIn(t, path, tt.format, tt.tool, r.Stdout, "hi")
		})
	}
}

// opencode keeps its sessions in a database now; users get a transcript with `opencode
// export`. The real opencode runs the command three times for the scripted model, its session
// is exported, and the opencode reader finds the three calls with their results.
func TestOpencodeExportOfARealRun(t *testing.T) {
	cmd, _ := sideEffectCommand(t)
	opencodeExportCalls(t, cmd, "hi")
}

// The default preset on an opencode export of a command whose output never changes: the
// reminder comes at the third call.
func TestDefaultPresetOnAnOpencodeExport(t *testing.T) {
	cmd, _ := stuckCommand(t)
	wantNoticeAtThird(t, loopguard.PresetDefault, opencodeExportCalls(t, cmd, "no matches found"))
}

// opencodeExportCalls has the real opencode run cmd three times for the scripted model,
// exports the session, and returns the calls the reader finds in the export.
func opencodeExportCalls(t *testing.T, cmd, output string) []loopguard.Event {
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	_, home := runOpencodeHome(t, srv.URL)
	bin := RequireCLI(t, "opencode")
	root := filepath.Dir(home)
	env := opencodeEnv(home, filepath.Join(root, "tmp"))
	work := filepath.Join(root, "work")
	list := Run(t, Cmd{Path: bin, Args: []string{"session", "list", "--format", "json"}, Dir: work, Env: env})
	list.Check(t, "opencode session list")
	var sessions []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(list.Stdout), &sessions); err != nil || len(sessions) != 1 {
		t.Fatalf("session list: %v, %d sessions:\n%.2000s", err, len(sessions), list.Stdout)
	}
	export := Run(t, Cmd{Path: bin, Args: []string{"export", sessions[0].ID}, Dir: work, Env: env})
	export.Check(t, "opencode export")
	path := filepath.Join(t.TempDir(), sessions[0].ID+".json")
	// The export is the JSON document from its first brace: opencode may say what it exports
	// before it.
	out := export.Stdout
	if i := strings.IndexByte(out, '{'); i > 0 {
		out = out[i:]
	}
	writeFile(t, path, []byte(out))
	return sideEffectCallsIn(t, path, transcript.FormatOpencode, "bash", export.Stdout, output)
}

// sideEffectCallsIn reads the transcript at path, which must be of format, and returns its main
// agent's calls, which must be the three runs of sideEffectCommand the scripted model asked
// for, through tool, each with a result that is not empty and holds output (any result when
// output is ""). raw (what the CLI wrote) is shown when they are not.
func sideEffectCallsIn(t *testing.T, path, format, tool, raw, output string) []loopguard.Event {
	t.Helper()
	tr, err := transcript.Read(path)
	if err != nil {
		t.Fatalf("%v; written:\n%.3000s", err, raw)
	}
	if tr.Format != format {
		t.Errorf("format %q, want %q", tr.Format, format)
	}
	main := tr.Agent(transcript.MainAgent)
	if main == nil {
		t.Fatalf("no main agent in %s: %+v", path, tr.Agents)
	}
	var calls []loopguard.Event
	for _, ev := range main.Events {
		if ev.Type == loopguard.EventCall {
			calls = append(calls, ev)
		}
	}
	if len(calls) != 3 {
		t.Fatalf("%d calls, want the 3 the model asked for; written:\n%.4000s", len(calls), raw)
	}
	for i, c := range calls {
		if c.Tool != tool || !strings.Contains(string(c.Args), "side-effect") || !c.HasResult || c.Result == "" || !strings.Contains(c.Result, output) {
			t.Errorf("call %d: %s %s → %q (result: %v)", i, c.Tool, c.Args, c.Result, c.HasResult)
		}
	}
	return calls
}

// Codex waits on a long command by polling it with write_stdin and nothing to type. The real
// Codex runs a command that takes 16 seconds with a short yield, the scripted model polls
// it until it ends, and the rollout Codex leaves behind, replayed through the default preset,
// draws no notice: every poll answers the same (a fresh chunk id and wall time around "still
// running"), but waiting is not being stuck.
func TestCodexPollingARunningCommandIsNotStuck(t *testing.T) {
	t.Parallel() // Codex holds an empty poll for 5 s: the command runs 16 s to be polled 3 times
	session := regexp.MustCompile(`session ID (\d+)`)
	const maxPolls = 12
	srv := NewServer(t, Script{Decide: func(r *Request) *Reply {
		results := r.ToolResults()
		if len(results) == 0 {
			return &Reply{ToolName: "exec_command", ToolInput: map[string]any{"cmd": "sleep 16; echo e2e-build-done", "yield_time_ms": 250}}
		}
		last := results[len(results)-1].Text
		m := session.FindStringSubmatch(last)
		if strings.Contains(last, "e2e-build-done") || m == nil || len(results) > maxPolls {
			return &Reply{Text: "E2E-DONE"}
		}
		id, _ := strconv.Atoi(m[1])
		return &Reply{ToolName: "write_stdin", ToolInput: map[string]any{"session_id": id, "chars": "", "yield_time_ms": 250}}
	}})
	a := NewAgent(t, HostCodex, srv)
	a.runChecked(t, srv, "", "E2E-POLL: run the build and wait for it.")

	tr, err := transcript.Read(transcriptCases[1].transcriptOf(t, a))
	if err != nil {
		t.Fatal(err)
	}
	var calls []loopguard.Event
	polls := 0
	for _, ev := range tr.Agent(transcript.MainAgent).Events {
		if ev.Type == loopguard.EventCall {
			calls = append(calls, ev)
			if ev.Tool == "write_stdin" {
				polls++
			}
		}
	}
	for i, c := range calls {
		t.Logf("call %d: %s %s → %q", i, c.Tool, c.Args, c.Result)
	}
	if polls < 3 {
		t.Fatalf("%d write_stdin polls in the rollout, want 3 or more for the test to mean anything", polls)
	}
	if !strings.Contains(calls[len(calls)-1].Result, "e2e-build-done") {
		t.Errorf("the last poll did not see the command end: %q", calls[len(calls)-1].Result)
	}
	if at := noticedAt(t, loopguard.PresetDefault, calls); len(at) != 0 {
		t.Errorf("polling a running command drew notices at calls %v", at)
	}
}
