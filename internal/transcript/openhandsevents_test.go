package transcript

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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
