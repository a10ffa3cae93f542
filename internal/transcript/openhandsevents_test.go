package transcript

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/loopguard/loopguard"
)

// splitEvents writes each event of the real trajectory to its own file, as OpenHands 0.x
// keeps a conversation (sessions/<id>/events/<n>.json), and returns the files in name order
// (which is not id order: "10.json" < "3.json").
func splitEvents(t *testing.T, dir string) []string {
	t.Helper()
	var events []json.RawMessage
	if err := json.Unmarshal(fixture(t, "real/openhands/basic.json"), &events); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range events {
		var head struct{ ID int }
		json.Unmarshal(e, &head)
		p := filepath.Join(dir, strings.TrimSpace(jsonNum(float64(head.ID)))+".json")
		if err := os.WriteFile(p, e, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	return files
}

func TestAnOpenHandsEventFolderReadsAsItsTrajectory(t *testing.T) {
	dir := t.TempDir()
	files := splitEvents(t, dir)
	var parts []*EventPart
	for i := len(files) - 1; i >= 0; i-- { // any order: MergeEvents orders by id
		tr, err := Read(files[i])
		if err != nil {
			t.Fatal(err)
		}
		if tr.Format != FormatOpenHands || tr.Event == nil {
			t.Fatalf("%s read as %q, event part %v", files[i], tr.Format, tr.Event)
		}
		parts = append(parts, tr.Event)
	}
	merged := MergeEvents(dir, parts)
	whole, err := Read(filepath.Join("testdata", "real", "openhands", "basic.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := describe(merged.Agents[0].Events), describe(whole.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("folder:\n%s\ntrajectory:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// OpenHands 0.x's file editor refuses a command in its answer alone, "ERROR:" and why, with no
// error observation and no exit code: the call failed (validation round r154c U2). An answer
// that only mentions an error further down is the file's text.
func TestOpenHandsEditorErrorAnswerFailsTheCall(t *testing.T) {
	const trajectory = `[
{"id": 1, "timestamp": "2026-01-06T15:41:00.000000", "source": "agent", "message": "", "action": "edit", "args": {"command": "str_replace", "path": "/w/a.py", "old_str": "x = 1", "new_str": "x = 2"}},
{"id": 2, "timestamp": "2026-01-06T15:42:00.000000", "source": "agent", "message": "", "cause": 1, "observation": "edit", "content": "ERROR:\nNo replacement was performed, old_str ` + "`x = 1`" + ` did not appear verbatim in /w/a.py.", "extras": {"path": "/w/a.py"}},
{"id": 3, "timestamp": "2026-01-06T15:43:00.000000", "source": "agent", "message": "", "action": "read", "args": {"path": "/w/b.py"}},
{"id": 4, "timestamp": "2026-01-06T15:44:00.000000", "source": "agent", "message": "", "cause": 3, "observation": "read", "content": "ERROR:\nInvalid ` + "`path`" + ` parameter: /w/b.py does not exist.", "extras": {"path": "/w/b.py"}},
{"id": 5, "timestamp": "2026-01-06T15:45:00.000000", "source": "agent", "message": "", "action": "read", "args": {"path": "/w/a.py"}},
{"id": 6, "timestamp": "2026-01-06T15:46:00.000000", "source": "agent", "message": "", "cause": 5, "observation": "read", "content": "     1\traise ValueError(\"ERROR: bad\")", "extras": {"path": "/w/a.py"}}
]`
	wantOpenHandsFailures(t, trajectory, []bool{true, true, false})
}

// A browser observation whose actions failed says so in its extras' error (validation round
// r260g): the call failed, whatever page it shows.
func TestOpenHandsBrowserErrorFailsTheCall(t *testing.T) {
	const trajectory = `[
{"id": 1, "timestamp": "2026-01-06T15:41:00.000000", "source": "agent", "message": "", "action": "browse_interactive", "args": {"browser_actions": "click('57')"}},
{"id": 2, "timestamp": "2026-01-06T15:42:00.000000", "source": "agent", "message": "Visited http://chat/home", "cause": 1, "observation": "browse", "content": "general", "extras": {"url": "http://chat/home", "error": true}},
{"id": 3, "timestamp": "2026-01-06T15:43:00.000000", "source": "agent", "message": "", "action": "browse_interactive", "args": {"browser_actions": "click('59')"}},
{"id": 4, "timestamp": "2026-01-06T15:44:00.000000", "source": "agent", "message": "Visited http://chat/home", "cause": 3, "observation": "browse", "content": "general", "extras": {"url": "http://chat/home", "error": false}},
{"id": 5, "timestamp": "2026-01-06T15:45:00.000000", "source": "agent", "message": "", "action": "browse_interactive", "args": {"browser_actions": "noop()"}},
{"id": 6, "timestamp": "2026-01-06T15:46:00.000000", "source": "agent", "message": "Visited http://chat/home", "cause": 5, "observation": "browse", "content": "general", "extras": {"url": "http://chat/home", "error": "no"}}
]`
	wantOpenHandsFailures(t, trajectory, []bool{true, false, false})
}

// A command's output is what OpenHands showed the model: its metadata's prefix and suffix set
// around the content, so that a command still running that printed nothing new, or one that
// was not run because another still ran, reads as such (validation round r254a).
func TestOpenHandsCommandOutputKeepsWhatWasSetAroundIt(t *testing.T) {
	const trajectory = `[
{"id": 1, "timestamp": "2026-01-06T15:41:00.000000", "source": "agent", "message": "", "action": "run", "args": {"command": "python app.py"}},
{"id": 2, "timestamp": "2026-01-06T15:42:00.000000", "source": "agent", "message": "", "cause": 1, "observation": "run", "content": " * Debugger is active!", "extras": {"command": "python app.py", "metadata": {"exit_code": -1, "prefix": "", "suffix": "\n[The command has no new output after 10 seconds.]"}}},
{"id": 3, "timestamp": "2026-01-06T15:43:00.000000", "source": "agent", "message": "", "action": "run", "args": {"command": "pytest"}},
{"id": 4, "timestamp": "2026-01-06T15:44:00.000000", "source": "agent", "message": "", "cause": 3, "observation": "run", "content": "", "extras": {"command": "pytest", "metadata": {"exit_code": -1, "prefix": "[Below is the output of the previous command.]\n", "suffix": "\n[Your command \"pytest\" is NOT executed.]"}}},
{"id": 5, "timestamp": "2026-01-06T15:45:00.000000", "source": "agent", "message": "", "action": "run", "args": {"command": "ls"}},
{"id": 6, "timestamp": "2026-01-06T15:46:00.000000", "source": "agent", "message": "", "cause": 5, "observation": "run", "content": "a.py", "extras": {"command": "ls", "metadata": {"exit_code": 0}}}
]`
	tr, err := ReadFrom("trajectory.json", strings.NewReader(trajectory))
	if err != nil {
		t.Fatal(err)
	}
	var results []string
	for _, c := range tr.Agents[0].Calls() {
		results = append(results, c.Result)
	}
	want := []string{" * Debugger is active!\n[The command has no new output after 10 seconds.]",
		"[Below is the output of the previous command.]\n\n[Your command \"pytest\" is NOT executed.]", "a.py"}
	if !reflect.DeepEqual(results, want) {
		t.Errorf("results %q, want %q", results, want)
	}
}

// OpenHands 0.x events keep their time on the model's words as on calls (r154c U3).
func TestOpenHandsModelTextKeepsItsTime(t *testing.T) {
	const trajectory = `[
{"id": 1, "timestamp": "2026-01-06T15:24:01.000000", "source": "agent", "message": "Let me run it.", "action": "run", "args": {"command": "ls", "thought": "Let me run it."}},
{"id": 2, "timestamp": "2026-01-06T15:24:02.000000", "source": "agent", "message": "", "cause": 1, "observation": "run", "content": "a.py", "extras": {"exit_code": 0}},
{"id": 3, "timestamp": "2026-01-06T15:24:03.418723", "source": "agent", "message": "Done.", "action": "message", "args": {"content": "Done."}}
]`
	tr, err := ReadFrom("trajectory.json", strings.NewReader(trajectory))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tr.Agents[0].Events {
		kind := "call"
		if e.Type == loopguard.EventText {
			kind = "text"
		}
		got = append(got, kind+"@"+time.UnixMilli(e.Time).UTC().Format("15:04:05.000"))
	}
	if want := []string{"text@15:24:01.000", "call@15:24:01.000", "text@15:24:03.418"}; !reflect.DeepEqual(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
}

// OpenHands 1.x (the agent SDK) events, as conversations/<id>/events/event-*.json hold them.
const ohV1Events = `[
{"id":"e1","timestamp":"2025-11-01T10:00:00","source":"agent","kind":"SystemPromptEvent","system_prompt":{"type":"text","text":"You are OpenHands agent."},"tools":[]},
{"id":"e2","timestamp":"2025-11-01T10:00:01","source":"user","kind":"MessageEvent","llm_message":{"role":"user","content":[{"type":"text","text":"List the files."}]},"activated_microagents":[],"extended_content":[]},
{"id":"e3","timestamp":"2025-11-01T10:00:02","source":"agent","kind":"ActionEvent","thought":[{"type":"text","text":"Let me look."}],"thinking_blocks":[],"action":{"kind":"ExecuteBashAction","command":"ls"},"tool_name":"execute_bash","tool_call_id":"call_1","tool_call":{"id":"call_1","type":"function","function":{"name":"execute_bash","arguments":"{\"command\": \"ls\"}"}},"llm_response_id":"r1","security_risk":"LOW"},
{"id":"e4","timestamp":"2025-11-01T10:00:03","source":"environment","kind":"ObservationEvent","tool_name":"execute_bash","tool_call_id":"call_1","observation":{"kind":"ExecuteBashObservation","content":[{"type":"text","text":"a.txt"}],"exit_code":0},"action_id":"e3"},
{"id":"e5","timestamp":"2025-11-01T10:00:04","source":"agent","kind":"ActionEvent","thought":[],"action":{"kind":"ExecuteBashAction","command":"cat b"},"tool_name":"execute_bash","tool_call_id":"call_2","tool_call":{"id":"call_2","type":"function","function":{"name":"execute_bash","arguments":"{\"command\": \"cat b\"}"}},"llm_response_id":"r2"},
{"id":"e6","timestamp":"2025-11-01T10:00:05","source":"environment","kind":"ObservationEvent","tool_name":"execute_bash","tool_call_id":"call_2","observation":{"kind":"ExecuteBashObservation","content":[{"type":"text","text":"cat: b: No such file"}],"exit_code":1},"action_id":"e5"},
{"id":"e7","timestamp":"2025-11-01T10:00:06","source":"agent","kind":"ActionEvent","thought":[],"action":{"kind":"FileEditorAction"},"tool_name":"str_replace_editor","tool_call_id":"call_3","tool_call":{"id":"call_3","type":"function","function":{"name":"str_replace_editor","arguments":"{\"command\": \"view\"}"}},"llm_response_id":"r3"},
{"id":"e8","timestamp":"2025-11-01T10:00:07","source":"agent","kind":"AgentErrorEvent","tool_name":"str_replace_editor","tool_call_id":"call_3","error":"missing path"},
{"id":"e9","timestamp":"2025-11-01T10:00:08","source":"agent","kind":"MessageEvent","llm_message":{"role":"assistant","content":[{"type":"text","text":"Only a.txt is there."}]}}
]`

func TestOpenHandsV1Events(t *testing.T) {
	dir := t.TempDir()
	var events []json.RawMessage
	if err := json.Unmarshal([]byte(ohV1Events), &events); err != nil {
		t.Fatal(err)
	}
	var parts []*EventPart
	for i, e := range events {
		p := filepath.Join(dir, "event-0000"+string(rune('0'+i))+".json")
		os.WriteFile(p, e, 0o644)
		tr, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, tr.Event)
	}
	want := []string{
		`text[system] "You are OpenHands agent."`,
		`user "List the files."`,
		`text[model] "Let me look."`,
		`call execute_bash "{\"command\": \"ls\"}" => "a.txt"`,
		`call execute_bash "{\"command\": \"cat b\"}" => "cat: b: No such file" FAILED`,
		`call str_replace_editor "{\"command\": \"view\"}" => "missing path" FAILED`,
		`text[model] "Only a.txt is there."`,
	}
	for _, tr := range []*Transcript{MergeEvents(dir, parts), mustRead(t, writeTemp(t, "list.json", ohV1Events))} {
		if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n%s\nwant:\n%s", tr.Path, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// The agent SDK stamps its events with Python's naive isoformat, no zone: each event keeps
// its time, read as UTC (validation round r131a U1: every event of such a folder was at 0, so
// no rule that measures time between calls saw any).
func TestOpenHandsV1EventsKeepTheirZonelessTimes(t *testing.T) {
	tr := mustRead(t, writeTemp(t, "list.json", ohV1Events))
	base := time.Date(2025, 11, 1, 10, 0, 0, 0, time.UTC).UnixMilli()
	var got []int64
	for _, ev := range tr.Agents[0].Events {
		if ev.Type == loopguard.EventCall {
			got = append(got, ev.Time-base)
		}
	}
	if want := []int64{2000, 4000, 6000}; !reflect.DeepEqual(got, want) {
		t.Errorf("call times after 10:00:00 UTC = %v ms, want %v", got, want)
	}
	// The model's words have their event's time too (validation round r137a U3).
	var said []int64
	for _, ev := range tr.Agents[0].Events {
		if ev.Type == loopguard.EventText && ev.Source == "model" {
			said = append(said, ev.Time-base)
		}
	}
	if want := []int64{2000, 8000}; !reflect.DeepEqual(said, want) {
		t.Errorf("model text times after 10:00:00 UTC = %v ms, want %v", said, want)
	}
}

func TestParseTimeReadsRFC3339AndZonelessISO(t *testing.T) {
	utc := time.Date(2026, 2, 5, 11, 24, 47, 142000000, time.UTC).UnixMilli()
	tests := []struct {
		in   string
		want int64
	}{
		{"2026-02-05T11:24:47.142Z", utc},
		{"2026-02-05T12:24:47.142+01:00", utc},
		{"2026-02-05T11:24:47.142819", utc},
		{"2026-02-05 11:24:47.142", utc},
		{"2026-02-05T11:24:47", utc - 142},
		{"", 0},
		{"yesterday", 0},
		{"2026-02-05", 0},
	}
	for _, tt := range tests {
		if got := parseTime(tt.in); got != tt.want {
			t.Errorf("parseTime(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// The agent SDK's event log keeps the same events one a line, opening with a state update:
// read as the folder of their files is (validation round r131a U3: no transcript at all).
func TestOpenHandsV1EventLinesReadAsTheirFolder(t *testing.T) {
	var events []json.RawMessage
	if err := json.Unmarshal([]byte(ohV1Events), &events); err != nil {
		t.Fatal(err)
	}
	lines := []string{`{"id":"s0","timestamp":"2025-11-01T09:59:59","source":"environment","key":"execution_status","value":"running","kind":"ConversationStateUpdateEvent"}`}
	for _, e := range events {
		var buf bytes.Buffer
		if err := json.Compact(&buf, e); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, buf.String())
	}
	got := mustRead(t, writeTemp(t, "events.jsonl", strings.Join(lines, "\n")+"\n"))
	want := mustRead(t, writeTemp(t, "list.json", ohV1Events))
	if got.Format != FormatOpenHands || len(got.Agents) != 1 {
		t.Fatalf("read as %q with %d agents, want one agent of %q", got.Format, len(got.Agents), FormatOpenHands)
	}
	if g, w := describe(got.Agents[0].Events), describe(want.Agents[0].Events); !reflect.DeepEqual(g, w) {
		t.Errorf("event lines:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
	// Many objects with an id, a source and a time are not OpenHands' without its kinds.
	other := `{"id":"1","timestamp":"2025-11-01T10:00:00","source":"web","kind":"pageview"}` + "\n" + `{"id":"2","timestamp":"2025-11-01T10:00:01","source":"web","kind":"click"}` + "\n"
	if tr, err := Read(writeTemp(t, "log.jsonl", other)); err == nil && tr.Format == FormatOpenHands {
		t.Errorf("a log of page views read as OpenHands events")
	}
}

// The SDK's own tool call (2026) holds its name and arguments without OpenAI's "function":
// the arguments are the model's, not the action object the SDK built from them.
func TestOpenHandsV1MessageToolCallArguments(t *testing.T) {
	ev := `[{"id":"a1","timestamp":"2026-02-05T11:24:47.142819","source":"agent","thought":[],"action":{"command":"pwd","is_input":false,"reset":false,"kind":"TerminalAction"},"tool_name":"terminal","tool_call_id":"call_1","tool_call":{"id":"call_1","name":"terminal","arguments":"{\"command\": \"pwd\", \"summary\": \"Where am I\"}","origin":"completion"},"llm_response_id":"r1","kind":"ActionEvent"}]`
	tr := mustRead(t, writeTemp(t, "list.json", ev))
	calls := tr.Agents[0].Calls()
	if want := `{"command": "pwd", "summary": "Where am I"}`; len(calls) != 1 || calls[0].Tool != "terminal" || string(calls[0].Args) != want {
		t.Fatalf("calls %+v, want one terminal call with %s", calls, want)
	}
}

// OpenHands 0.x writes a call it refused before running it as an error alone, with no action
// and no cause: the refused call, failed and numbered, as the completion dumps' reader reads it
// (validation round r133a U1: 41 refusals of one session went unread). An error of the
// environment's, or one that names no function, is no call.
func TestOpenHandsRefusedCallsWithoutAnAction(t *testing.T) {
	doc := `[
{"id": 1, "timestamp": "2026-01-06T14:50:00", "source": "user", "message": "fix it", "action": "message", "args": {"content": "fix it"}},
{"id": 2, "timestamp": "2026-01-06T14:50:05", "source": "agent", "message": "Running command: ls", "action": "run", "args": {"command": "ls", "thought": ""}},
{"id": 3, "timestamp": "2026-01-06T14:50:06", "source": "agent", "message": "a.py", "cause": 2, "observation": "run", "content": "a.py", "extras": {"command": "ls", "exit_code": 0}},
{"id": 4, "timestamp": "2026-01-06T14:50:20", "source": "agent", "message": "Missing required parameters for function 'str_replace_editor': {'security_risk'}", "observation": "error", "content": "Missing required parameters for function 'str_replace_editor': {'security_risk'}", "extras": {"error_id": ""}},
{"id": 5, "timestamp": "2026-01-06T14:50:33", "source": "agent", "message": "Missing required parameters for function 'str_replace_editor': {'security_risk'}", "observation": "error", "content": "Missing required parameters for function 'str_replace_editor': {'security_risk'}", "extras": {"error_id": ""}},
{"id": 6, "timestamp": "2026-01-06T14:50:40", "source": "environment", "message": "Sandbox restarted", "observation": "error", "content": "Sandbox restarted", "extras": {}},
{"id": 7, "timestamp": "2026-01-06T14:50:45", "source": "agent", "message": "The model said nothing usable", "observation": "error", "content": "The model said nothing usable", "extras": {}}
]`
	expectEvents(t, "trajectory.json", doc, FormatOpenHands, []string{
		`user "fix it"`,
		`call run "{\"command\":\"ls\"}" => "a.py"`,
		`call str_replace_editor "{\"refused_attempt\":1}" => "Missing required parameters for …" FAILED`,
		`call str_replace_editor "{\"refused_attempt\":2}" => "Missing required parameters for …" FAILED`,
	})
}

func writeTemp(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustRead(t *testing.T, path string) *Transcript {
	t.Helper()
	tr, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestAnIndentedOpenHandsOutputRecordIsRead(t *testing.T) {
	lines := strings.SplitN(string(gunzip(t, "testdata/real/openhands/output-2-records.jsonl.gz")), "\n", 2)
	var rec any
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatal(err)
	}
	indented, _ := json.MarshalIndent(rec, "", "  ")
	tr := mustRead(t, writeTemp(t, "record.json", string(indented)))
	first := mustRead(t, "testdata/real/openhands/output-2-records.jsonl.gz")
	if tr.Format != FormatOpenHands || tr.Sessions != 1 || len(tr.Agents[0].Calls()) != len(first.Agents[0].Calls()) {
		t.Errorf("format %q, %d sessions, %d calls, want the first record's %d", tr.Format, tr.Sessions, len(tr.Agents[0].Calls()), len(first.Agents[0].Calls()))
	}
}

// The OpenHands SDK's observations carry their text and their failure in more than one shape;
// each is read (the text in "output" was read as empty, so every browser page looked alike,
// and a command's exit code only in metadata read as a success).
func TestOpenHandsSDKObservations(t *testing.T) {
	tests := []struct {
		name, raw string
		text      string
		failed    bool
	}{
		{"content and is_error", `{"kind":"ObservationEvent","content":[{"type":"text","text":"done"}],"is_error":true}`, "done", true},
		{"a browser's output", `{"kind":"BrowserObservation","output":"Navigated to: http://x/","error":null,"screenshot_data":null}`, "Navigated to: http://x/", false},
		{"a command's exit code in its metadata", `{"kind":"ExecuteBashObservation","output":"SyntaxError: invalid syntax","exit_code":null,"error":false,"metadata":{"exit_code":1,"pid":-1}}`, "SyntaxError: invalid syntax", true},
		{"a command that succeeded", `{"kind":"ExecuteBashObservation","output":"ok","exit_code":null,"error":false,"metadata":{"exit_code":0}}`, "ok", false},
		{"a command that has not exited", `{"kind":"ExecuteBashObservation","output":"still running","exit_code":-1,"error":false}`, "still running", false},
		{"an editor's output", `{"kind":"FileEditorObservation","command":"create","output":"File created successfully at: /w/a.py","error":null}`, "File created successfully at: /w/a.py", false},
		{"an error told as text", `{"kind":"FileEditorObservation","output":"","error":"Invalid path: /w/b.py"}`, "Invalid path: /w/b.py", true},
		{"the finish message", `{"kind":"FinishObservation","message":"All done."}`, "All done.", false},
		{"a thought logged", `{"kind":"ThinkObservation","content":"Your thought has been logged."}`, "Your thought has been logged.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, failed := ohObservation(json.RawMessage(tt.raw))
			if text != tt.text || failed != tt.failed {
				t.Errorf("ohObservation = %q, failed %v; want %q, failed %v", text, failed, tt.text, tt.failed)
			}
		})
	}
}

// OpenHands Cloud downloads a conversation as {"trajectory": [event, ...]}: read as the list
// of events is, not as SWE-agent's steps (validation round r79c U1: an action and its own
// observation were two calls, 74 calls read as 297).
func TestOpenHandsTrajectoryDownloadReadsAsItsEvents(t *testing.T) {
	list := fixture(t, "real/openhands/basic.json")
	wrapped := append(append([]byte(`{"trajectory": `), list...), '}')
	tr, err := ReadFrom("issue_10730_complete_trajectory.json", strings.NewReader(string(wrapped)))
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Read(filepath.Join("testdata", "real", "openhands", "basic.json"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatOpenHands {
		t.Fatalf("read as %s, want openhands", tr.Format)
	}
	if got, want := describe(tr.Agents[0].Events), describe(whole.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("download:\n%s\nlist:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// wantOpenHandsFailures reads an OpenHands trajectory and checks which of its calls failed.
func wantOpenHandsFailures(t *testing.T, trajectory string, want []bool) {
	t.Helper()
	tr, err := ReadFrom("trajectory.json", strings.NewReader(trajectory))
	if err != nil {
		t.Fatal(err)
	}
	var failed []bool
	for _, c := range tr.Agents[0].Calls() {
		failed = append(failed, c.Failed)
	}
	if tr.Format != FormatOpenHands || !reflect.DeepEqual(failed, want) {
		t.Errorf("read as %s, failed %v, want %v", tr.Format, failed, want)
	}
}
