package transcript

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// The fixture was written for this test from Inspect's log schema (inspect_ai's EvalLog,
// EvalSample, ChatMessage and ToolCall, and its attachment condensing): content as a string
// or as parts with reasoning, a function named by a string, a tool error as "error" and as
// the older "tool_error", a result stored as an attachment.
func TestInspectLogFixture(t *testing.T) {
	tr, err := Read("testdata/inspect/log.json")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatInspect || tr.Sessions != 2 || len(tr.Agents) != 2 {
		t.Fatalf("read as %s with %d sessions and %d agents, want inspect with two of each", tr.Format, tr.Sessions, len(tr.Agents))
	}
	want := [][]string{{
		`text[system] "You are a software engineer work…"`,
		`user "The username validator accepts a…"`,
		`text[model] "Find the validators first."`,
		`text[model] "I'll look for the validators."`,
		`call bash "{\"cmd\":\"grep -rn UsernameValidat…" => "django/contrib/auth/validators.p…"`,
		`call python "{\"code\":\"import time; time.sleep…" => "Command timed out before complet…" FAILED`,
		`text[model] "Done."`,
		`call submit "{\"answer\":\"fixed\"}" => "fixed"`,
	}, {
		`user "HttpResponse does not handle mem…"`,
		`text[model] "Let me read it."`,
		`call text_editor "{\"command\":\"view\",\"path\":\"/repo/…" => "The path /repo/django/http/respo…" FAILED`,
	}}
	for i, a := range tr.Agents {
		if a.Session != i {
			t.Errorf("agent %d in session %d", i, a.Session)
		}
		if got := describe(a.Events); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("sample %d events:\n got %s\nwant %s", i, strings.Join(got, "\n     "), strings.Join(want[i], "\n     "))
		}
	}
	// The attachment is put back whole.
	if r := tr.Agents[0].Events[4].Result; !strings.Contains(r, "UnicodeUsernameValidator") {
		t.Errorf("attachment not resolved: %q", r)
	}
}

// An .eval log is a zip archive of the same samples, one file each: it reads as the JSON log.
func TestInspectEvalArchiveReadsAsItsJSONLog(t *testing.T) {
	js, err := Read("testdata/inspect/log.json")
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Samples []json.RawMessage `json:"samples"`
	}
	raw, err := os.ReadFile("testdata/inspect/log.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &l); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	add("_journal/start.json", []byte(`{"version": 2, "eval": {"task": "swe_bench_verified"}}`))
	for i, s := range l.Samples {
		add(fmt.Sprintf("samples/%d_epoch_1.json", i+1), s)
	}
	add("header.json", []byte(`{"version": 2, "status": "success"}`))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	ev, err := ReadFrom("run.eval", bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Format != FormatInspect || ev.Sessions != js.Sessions || len(ev.Agents) != len(js.Agents) {
		t.Fatalf("archive read as %s, %d sessions, %d agents; the JSON log as %s, %d, %d", ev.Format, ev.Sessions, len(ev.Agents), js.Format, js.Sessions, len(js.Agents))
	}
	for i := range ev.Agents {
		if got, want := describe(ev.Agents[i].Events), describe(js.Agents[i].Events); !reflect.DeepEqual(got, want) {
			t.Errorf("sample %d: archive %q, JSON log %q", i, got, want)
		}
	}
}

// A zip archive that is not an Inspect log, or a damaged sample in one, is an error that
// says so and names the member.
func TestInspectArchiveErrors(t *testing.T) {
	zipOf := func(files map[string]string) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for name, body := range files {
			w, _ := zw.Create(name)
			w.Write([]byte(body))
		}
		zw.Close()
		return buf.Bytes()
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"a zip of something else", zipOf(map[string]string{"word/document.xml": "<w/>"}), "x.eval: unknown transcript format: a zip archive without an Inspect log's header.json or samples/"},
		{"a damaged sample", zipOf(map[string]string{"header.json": "{}", "samples/1_epoch_1.json": "{\"messages\": [\n{oops}]}"}), "x.eval: samples/1_epoch_1.json:2: invalid Inspect sample"},
		{"a cut archive", zipOf(map[string]string{"header.json": "{}"})[:40], "x.eval: unknown transcript format: a zip archive that cannot be read"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadFrom("x.eval", bytes.NewReader(tc.data))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want one starting %q", err, tc.want)
			}
			if tc.name != "a damaged sample" && !errors.Is(err, ErrUnknownFormat) {
				t.Errorf("error %v is not ErrUnknownFormat", err)
			}
		})
	}
}

// A damaged JSON log is an error that names its line.
func TestInspectDamagedLogNamesItsLine(t *testing.T) {
	_, err := ReadFrom("log.json", strings.NewReader("{\"version\": 2, \"status\": \"success\", \"eval\": {},\n\"samples\": [\n{\"messages\": [{oops}]}]}"))
	if err == nil || !strings.HasPrefix(err.Error(), "log.json:3:") {
		t.Errorf("error %v, want one at log.json:3", err)
	}
}
