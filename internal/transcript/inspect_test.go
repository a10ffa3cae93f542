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

// inspectFixture reads testdata/inspect/log.json as a log, and its two samples as written.
func inspectFixture(t *testing.T) (*Transcript, []json.RawMessage) {
	t.Helper()
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
	if err := json.Unmarshal(raw, &l); err != nil || len(l.Samples) != 2 {
		t.Fatalf("the fixture's samples: %d, %v", len(l.Samples), err)
	}
	return js, l.Samples
}

// readsAsLog checks that an archive reads as the JSON log js: the same format, sessions and
// agents, each sample in its own session with the same events.
func readsAsLog(t *testing.T, data []byte, js *Transcript) {
	t.Helper()
	ev, err := ReadFrom("run.eval", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Format != FormatInspect || ev.Sessions != js.Sessions || len(ev.Agents) != len(js.Agents) {
		t.Fatalf("archive read as %s, %d sessions, %d agents; the JSON log as %s, %d, %d", ev.Format, ev.Sessions, len(ev.Agents), js.Format, js.Sessions, len(js.Agents))
	}
	for i := range ev.Agents {
		if got, want := describe(ev.Agents[i].Events), describe(js.Agents[i].Events); ev.Agents[i].Session != i || !reflect.DeepEqual(got, want) {
			t.Errorf("sample %d (session %d): archive %q, JSON log %q", i, ev.Agents[i].Session, got, want)
		}
	}
}

// An .eval log is a zip archive of the same samples, one file each: it reads as the JSON log.
func TestInspectEvalArchiveReadsAsItsJSONLog(t *testing.T) {
	js, samples := inspectFixture(t)
	members := []string{"_journal/start.json", `{"version": 2, "eval": {"task": "swe_bench_verified"}}`}
	for i, s := range samples {
		members = append(members, fmt.Sprintf("samples/%d_epoch_1.json", i+1), string(s))
	}
	members = append(members, "header.json", `{"version": 2, "status": "success"}`)
	readsAsLog(t, evalArchive(t, members...), js)
}

// evalArchive zips members, each a name and its body, in this order, as an .eval log is.
func evalArchive(t *testing.T, members ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(members); i += 2 {
		w, err := zw.Create(members[i])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(members[i+1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Inspect names a sample's member samples/<id>_epoch_<n>.json with the id as it is: an id
// holding "/" (intercode-ctf's "intercode-ctf_crypto/task_5") puts the sample in a folder.
// Those samples read as flat ones do, in the archive's order; an archive of such samples
// once read as a run with no calls.
func TestInspectEvalArchiveReadsSamplesInFolders(t *testing.T) {
	js, samples := inspectFixture(t)
	tests := []struct {
		name  string
		names [2]string // the members of the fixture's two samples, in the archive's order
	}{
		{"ids with a slash", [2]string{"samples/intercode-ctf_crypto/task_5_epoch_1.json", "samples/intercode-ctf_reverse/task_2_epoch_1.json"}},
		{"a folder among flat samples", [2]string{"samples/intercode-ctf_crypto/task_5_epoch_1.json", "samples/7_epoch_1.json"}},
		{"folders in folders", [2]string{"samples/ctf/crypto/task_5_epoch_2.json", "samples/ctf/task_1_epoch_1.json"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			readsAsLog(t, evalArchive(t,
				"_journal/start.json", `{"version": 2, "eval": {"task": "intercode_ctf"}}`,
				"samples/intercode-ctf_crypto/", "", // a folder's own entry, as some zip writers add
				tc.names[0], string(samples[0]),
				tc.names[1], string(samples[1]),
				"header.json", `{"version": 2, "status": "success"}`), js)
		})
	}
}

// A zip archive that is not an Inspect log, or a damaged sample in one, is an error that
// says so and names the member. So is a log whose samples/ gives no session: read as a run
// with no calls, it would pass for one. Only a zip that is no Inspect log is an unknown
// format (which a folder's scan passes over); a log without samples/ reads as empty.
func TestInspectArchiveErrors(t *testing.T) {
	tests := []struct {
		name    string
		data    []byte
		want    string // the error's start; "" for none
		unknown bool
	}{
		{"a zip of something else", evalArchive(t, "word/document.xml", "<w/>"), "x.eval: unknown transcript format: a zip archive without an Inspect log's header.json or samples/", true},
		{"a damaged sample", evalArchive(t, "header.json", "{}", "samples/1_epoch_1.json", "{\"messages\": [\n{oops}]}"), "x.eval: samples/1_epoch_1.json:2: invalid Inspect sample", false},
		{"a damaged sample in a folder", evalArchive(t, "header.json", "{}", "samples/ctf/1_epoch_1.json", "{\"messages\": [\n{oops}]}"), "x.eval: samples/ctf/1_epoch_1.json:2: invalid Inspect sample", false},
		{"a cut archive", evalArchive(t, "header.json", "{}")[:40], "x.eval: unknown transcript format: a zip archive that cannot be read", true},
		{"samples/ without a sample's JSON", evalArchive(t, "header.json", "{}", "samples/1_epoch_1.json.gz", "\x1f\x8b"), "x.eval: samples/1_epoch_1.json.gz: no Inspect sample read", false},
		{"samples without messages", evalArchive(t, "header.json", "{}", "samples/ctf/1_epoch_1.json", `{"id": "ctf/1", "epoch": 1, "events": []}`, "samples/ctf/2_epoch_1.json", `{"id": "ctf/2", "epoch": 1}`), "x.eval: samples/ctf/1_epoch_1.json: no Inspect sample read: no sample holds messages", false},
		{"a log without samples", evalArchive(t, "header.json", `{"version": 2, "status": "started"}`), "", false},
		{"a sample without messages among others", evalArchive(t, "header.json", "{}", "samples/1_epoch_1.json", `{"id": 1}`, "samples/2_epoch_1.json", `{"messages": []}`), "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadFrom("x.eval", bytes.NewReader(tc.data))
			if tc.want == "" {
				if err != nil {
					t.Errorf("error %v, want none", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want one starting %q", err, tc.want)
			}
			if errors.Is(err, ErrUnknownFormat) != tc.unknown {
				t.Errorf("error %v: ErrUnknownFormat %v, want %v", err, !tc.unknown, tc.unknown)
			}
		})
	}
}

// Nobody types in an Inspect evaluation: the sample's input is the task, and every user
// message after it is the agent loop's (react()'s "Your submission was incorrect…" after a
// wrong answer, its "Please proceed to the next step…" after a reply without a call). The
// input is marked "source": "input"; a log older than that field has the input first.
func TestInspectUserMessagesAfterTheInputAreTheHarnesss(t *testing.T) {
	const (
		task      = `{"role": "user", "content": "Find the flag on victim:1337.", "source": "input"}`
		reply     = `{"role": "assistant", "content": "I will look.", "source": "generate"}`
		incorrect = `{"role": "user", "content": "Your submission was incorrect. Please proceed and attempt to find the correct answer."}`
	)
	tests := []struct {
		name     string
		messages []string
		want     []string
	}{
		{"the input, then the loop's messages", []string{task, reply, incorrect, reply},
			[]string{`user "Find the flag on victim:1337."`, `text[model] "I will look."`, `user[harness] "Your submission was incorrect. P…"`, `text[model] "I will look."`}},
		{"a log without sources: the first user message is the task",
			[]string{`{"role": "system", "content": "You are a CTF player."}`, `{"role": "user", "content": "Find the flag."}`, reply, `{"role": "user", "content": [{"type": "text", "text": "Please proceed to the next step using your best judgement."}]}`},
			[]string{`text[system] "You are a CTF player."`, `user "Find the flag."`, `text[model] "I will look."`, `user[harness] "Please proceed to the next step …"`}},
		{"an input of several messages is the task's", []string{task, `{"role": "assistant", "content": "Which port?", "source": "input"}`, `{"role": "user", "content": "Port 1337.", "source": "input"}`, reply, incorrect},
			[]string{`user "Find the flag on victim:1337."`, `text[model] "Which port?"`, `user "Port 1337."`, `text[model] "I will look."`, `user[harness] "Your submission was incorrect. P…"`}},
		{"a blank message of the loop is passed over, the next one still the loop's", []string{task, reply, `{"role": "user", "content": " "}`, incorrect},
			[]string{`user "Find the flag on victim:1337."`, `text[model] "I will look."`, `user[harness] "Your submission was incorrect. P…"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := `{"version": 2, "status": "success", "eval": {"task": "ctf"}, "samples": [{"messages": [` + strings.Join(tc.messages, ",") + `]}]}`
			expectEvents(t, "log.json", doc, FormatInspect, tc.want)
		})
	}
}

// A loop that sends the same call again after each of the agent loop's messages is told: a
// person's turn would start every count afresh, the loop's "Your submission was incorrect"
// does not (r51b F4: locktalk's identical curl between wrong answers, untold).
func TestInspectLoopMessageDoesNotResetARepeat(t *testing.T) {
	call := func(id string) string {
		return `{"role": "assistant", "content": "", "tool_calls": [{"id": "` + id + `", "function": "bash", "arguments": {"cmd": "curl -s -X GET victim:1337/api/v1/flag"}}]},
{"role": "tool", "tool_call_id": "` + id + `", "function": "bash", "content": "{\"message\":\"JWT token is missing or invalid.\"}"}`
	}
	doc := `{"version": 2, "status": "success", "eval": {"task": "locktalk"}, "samples": [{"messages": [
{"role": "user", "content": "Find the flag on victim:1337.", "source": "input"},
` + call("c1") + `,
{"role": "user", "content": "\nPlease proceed to the next step using your best judgement. If you believe you\nhave completed the task, please call the submit() tool.\n"},
` + call("c2") + `,
{"role": "user", "content": "Your submission was incorrect. Please proceed and attempt to find the correct answer."},
` + call("c3") + `]}]}`
	tr, err := ReadFrom("log.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	calls, notices := defaultNotices(t, tr.Agents[0])
	if calls != 3 || len(notices) != 1 || !strings.HasPrefix(notices[0], "call 3: stuck") {
		t.Errorf("%d calls, notices %q; want a stuck notice at call 3; events %q", calls, notices, describe(tr.Agents[0].Events))
	}
}

// A damaged JSON log is an error that names its line.
func TestInspectDamagedLogNamesItsLine(t *testing.T) {
	_, err := ReadFrom("log.json", strings.NewReader("{\"version\": 2, \"status\": \"success\", \"eval\": {},\n\"samples\": [\n{\"messages\": [{oops}]}]}"))
	if err == nil || !strings.HasPrefix(err.Error(), "log.json:3:") {
		t.Errorf("error %v, want one at log.json:3", err)
	}
}

// Inspect's react() agent removes its submit calls and their answers from the conversation it
// keeps (sample.messages); they are still in sample.events. Each is put back after the
// assistant message of the reply that made it: a message holding calls is the reply whose
// output named them, a message of text alone the next reply that said that text. A CTF agent
// submitting the same wrong flag again and again was invisible (r51b F2). A call the
// messages hold is read once, from them; a removed call no message is found for is read last.
func TestInspectCallsRemovedFromTheConversationAreReadFromItsEvents(t *testing.T) {
	const (
		task    = `{"role": "user", "content": "Find the flag.", "source": "input"}`
		look    = `{"role": "assistant", "content": "", "source": "generate", "tool_calls": [{"id": "c1", "function": "bash", "arguments": {"cmd": "cat flag.txt"}}]}`
		lookAns = `{"role": "tool", "tool_call_id": "c1", "content": "ZmxhZ3t4fQ=="}`
		said    = `{"role": "assistant", "content": "The flag is flag{x}.", "source": "generate"}`
		silent  = `{"role": "assistant", "content": "", "source": "generate"}`
		wrong   = `{"role": "user", "content": "Your submission was incorrect. Please proceed and attempt to find the correct answer."}`
	)
	model := func(text string, ids ...string) string {
		calls := []string{}
		for _, id := range ids {
			calls = append(calls, fmt.Sprintf(`{"id": %q, "function": "f", "arguments": {}}`, id))
		}
		return fmt.Sprintf(`{"event": "model", "input": [{"role": "user", "content": "long history"}], "output": {"choices": [{"message": {"role": "assistant", "content": %q, "tool_calls": [%s]}}]}}`, text, strings.Join(calls, ","))
	}
	tool := func(id, fn, args, result string) string {
		return fmt.Sprintf(`{"event": "tool", "id": %q, "function": %q, "arguments": %s, "result": %q}`, id, fn, args, result)
	}
	const (
		lookCall   = `call bash "{\"cmd\":\"cat flag.txt\"}" => "ZmxhZ3t4fQ=="`
		submitCall = `call submit "{\"answer\":\"flag{x}\"}" => "flag{x}"`
		saidText   = `text[model] "The flag is flag{x}."`
		wrongUser  = `user[harness] "Your submission was incorrect. P…"`
	)
	tests := []struct {
		name             string
		messages, events []string
		want             []string
	}{
		{"the same wrong flag submitted twice, each reply saying it",
			[]string{task, look, lookAns, said, wrong, said, wrong},
			[]string{model("", "c1"), tool("c1", "bash", `{"cmd": "cat flag.txt"}`, "ZmxhZ3t4fQ=="),
				model("The flag is flag{x}.", "s1"), tool("s1", "submit", `{"answer": "flag{x}"}`, "flag{x}"),
				model("The flag is flag{x}.", "s2"), tool("s2", "submit", `{"answer": "flag{x}"}`, "flag{x}")},
			[]string{`user "Find the flag."`, lookCall, saidText, submitCall, wrongUser, saidText, submitCall, wrongUser}},
		{"replies without text: the submit follows its own reply, not the look before it",
			[]string{task, look, lookAns, silent, wrong},
			[]string{model("", "c1"), tool("c1", "bash", `{"cmd": "cat flag.txt"}`, "ZmxhZ3t4fQ=="),
				model("", "s1"), tool("s1", "submit", `{"answer": "flag{x}"}`, "flag{x}")},
			[]string{`user "Find the flag."`, lookCall, submitCall, wrongUser}},
		{"a sample stopped at its message limit: the last reply's calls are answered by their tool events",
			[]string{task, look},
			[]string{model("", "c1"), tool("c1", "bash", `{"cmd": "cat flag.txt"}`, "ZmxhZ3t4fQ==")},
			[]string{`user "Find the flag."`, lookCall}},
		{"a lost answer the tool event says failed is a failure",
			[]string{task, look},
			[]string{model("", "c1"), `{"event": "tool", "id": "c1", "function": "bash", "arguments": {"cmd": "cat flag.txt"}, "result": "", "error": {"type": "timeout", "message": "Command timed out before completing."}}`},
			[]string{`user "Find the flag."`, `call bash "{\"cmd\":\"cat flag.txt\"}" => "Command timed out before complet…" FAILED`}},
		{"a removed call whose reply no message says is read last",
			[]string{task, look, lookAns},
			[]string{model("", "c1"), tool("c1", "bash", `{"cmd": "cat flag.txt"}`, "ZmxhZ3t4fQ=="),
				model("Submitting.", "s1"), tool("s1", "submit", `{"answer": "flag{x}"}`, "flag{x}")},
			[]string{`user "Find the flag."`, lookCall, submitCall}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := `{"version": 2, "status": "success", "eval": {"task": "ctf"}, "samples": [{"messages": [` + strings.Join(tc.messages, ",") +
				`], "events": [` + strings.Join(tc.events, ",") + `]}]}`
			expectEvents(t, "log.json", doc, FormatInspect, tc.want)
		})
	}
}
