package transcript

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/loopguard/loopguard"
)

// The fixtures were written for this test from the pi coding agent's session entries and JSON
// mode events (its SessionManager and agent event types): a session file with a header,
// message entries, a model change and a compaction, and the events `pi --mode json` prints.
func TestPiFixtures(t *testing.T) {
	tests := []struct {
		file   string
		model  string
		events []string
	}{
		{"pi/session.jsonl", "claude-sonnet-4-5", []string{
			`user "The parser test fails, please fi…"`,
			`text[model] "Run the test first."`,
			`text[model] "Running the tests."`,
			`call bash "{\"command\":\"go test ./parser\"}" => "--- FAIL: TestParse (0.00s)\nFAIL…" FAILED`,
			`call read "{\"path\":\"parser/parse.go\"}" => "package parser\n\nfunc Parse(s str…"`,
			`user "Keep going."`,
		}},
		// message_start and message_update repeat what message_end says; only the end counts
		{"pi/json-mode.jsonl", "gpt-5.1", []string{
			`user "List the parser files."`,
			`call ls "{\"path\":\"parser\"}" => "parse.go\nparse_test.go"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			tr, err := Read("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatPi || len(tr.Agents) != 1 {
				t.Fatalf("read as %s with %d agents, want pi with one", tr.Format, len(tr.Agents))
			}
			if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, tt.events) {
				t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(tt.events, "\n     "))
			}
			if tr.Agents[0].Usage.Model != tt.model {
				t.Errorf("model %q, want %q", tr.Agents[0].Usage.Model, tt.model)
			}
		})
	}
}

// Arguments decoded from a transcript are written back as the model wrote them: a shell
// redirection is not HTML-escaped.
func TestMarshalArgsKeepsShellText(t *testing.T) {
	got := string(marshalArgs(map[string]any{"command": "make test 2>&1 | grep -v '<skip>'"}))
	if want := `{"command":"make test 2>&1 | grep -v '<skip>'"}`; got != want {
		t.Errorf("marshalArgs = %s, want %s", got, want)
	}
	if marshalArgs(func() {}) != nil {
		t.Error("marshalArgs of a value JSON cannot hold is not nil")
	}
}

// A pi session file cut before its session header (it starts at an entry: a message with an
// id and a parentId, whose own timestamp is a number) is still pi's, not Goose's.
func TestPiSessionWithoutItsHeader(t *testing.T) {
	file := `{"type":"message","id":"7b3ea88f","parentId":"70816928","timestamp":"2026-07-14T08:41:44.363Z","message":{"role":"user","content":[{"type":"text","text":"extract the transcripts"}],"timestamp":1784018504320}}
{"type":"message","id":"e81a2e68","parentId":"7b3ea88f","timestamp":"2026-07-14T08:42:10.700Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"bash","arguments":{"command":"ls"}}],"timestamp":1784018530700}}
{"type":"message","id":"f0a1b2c3","parentId":"e81a2e68","timestamp":"2026-07-14T08:42:11.000Z","message":{"role":"toolResult","toolCallId":"t1","content":[{"type":"text","text":"a.txt"}],"isError":false,"timestamp":1784018531000}}
`
	tr, err := ReadFrom("session.jsonl", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if got := describe(tr.Agents[0].Events); tr.Format != FormatPi || len(tr.Agents[0].Calls()) != 1 {
		t.Errorf("read as %q: %q", tr.Format, got)
	}
}

// Content a compaction moved out of the file (evictedContent) is not read as what was said:
// an evicted result is unknown rather than the placeholder every evicted result shares, an
// evicted argument is its content hash (two calls sending the same moved command are still
// one call repeated, two different ones stay apart), and an evicted text is no thought.
func TestPiEvictedContentIsNotThePlaceholder(t *testing.T) {
	const gone = `[Compacted history content evicted to durable cold storage]`
	file := `{"type":"message","id":"a1","parentId":"u0","message":{"role":"assistant","content":[{"type":"text","text":"` + gone + `"},{"type":"toolCall","id":"t1","name":"bash","arguments":{"command":"` + gone + `"}}]},"evictedContent":{"reason":"compacted_history","payloads":{"message.content.0.text":{"kind":"cold_spill","ref":"blob:sha256:aaaa"},"message.content.1.arguments.command":{"kind":"cold_spill","ref":"blob:sha256:c0ffee"}}}}
{"type":"message","id":"r1","parentId":"a1","message":{"role":"toolResult","toolCallId":"t1","toolName":"bash","content":[{"type":"text","text":"` + gone + `"}],"isError":false},"evictedContent":{"reason":"compacted_history","payloads":{"message.content.0.text":{"kind":"cold_spill","ref":"blob:sha256:bbbb"}}}}
{"type":"message","id":"a2","parentId":"r1","message":{"role":"assistant","content":[{"type":"toolCall","id":"t2","name":"bash","arguments":{"command":"` + gone + `"}}]},"evictedContent":{"reason":"compacted_history","payloads":{"message.content.0.arguments.command":{"kind":"cold_spill","ref":"blob:sha256:d00d"}}}}
{"type":"message","id":"r2","parentId":"a2","message":{"role":"toolResult","toolCallId":"t2","toolName":"bash","content":[{"type":"text","text":"ok"}],"isError":false}}
`
	tr, err := ReadFrom("session.jsonl", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tr.Agents[0].Events {
		res := "unknown"
		if e.HasResult {
			res = e.Result
		}
		got = append(got, fmt.Sprintf("type %d %s %s => %s", e.Type, e.Tool, e.Args, res))
	}
	want := []string{
		fmt.Sprintf(`type %d bash {"command":"evicted:blob:sha256:c0ffee"} => unknown`, loopguard.EventCall),
		fmt.Sprintf(`type %d bash {"command":"evicted:blob:sha256:d00d"} => ok`, loopguard.EventCall),
	}
	if tr.Format != FormatPi || !reflect.DeepEqual(got, want) {
		t.Errorf("read as %s:\n got %s\nwant %s", tr.Format, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// OpenClaw's exec results leave isError false and say in details how the command ended: a
// non-zero exit code fails the call, a zero one does not.
func TestOpenClawExecExitCodeFailsTheCall(t *testing.T) {
	line := func(id, parent, msg string) string {
		return `{"type":"message","id":"` + id + `","parentId":"` + parent + `","timestamp":"2026-04-08T20:04:45.000Z","message":` + msg + "}\n"
	}
	file := line("u1", "", `{"role":"user","content":[{"type":"text","text":"build it"}]}`) +
		line("a1", "u1", `{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"exec","arguments":{"command":"forge build"}},{"type":"toolCall","id":"t2","name":"exec","arguments":{"command":"ls"}}]}`) +
		line("r1", "a1", `{"role":"toolResult","toolCallId":"t1","toolName":"exec","content":[{"type":"text","text":"Error: failed to resolve file"}],"details":{"status":"completed","exitCode":1},"isError":false}`) +
		line("r2", "r1", `{"role":"toolResult","toolCallId":"t2","toolName":"exec","content":[{"type":"text","text":"foundry.toml"}],"details":{"status":"completed","exitCode":0},"isError":false}`)
	expectEvents(t, "session.jsonl", file, FormatPi, []string{
		`user "build it"`,
		`call exec "{\"command\":\"forge build\"}" => "Error: failed to resolve file" FAILED`,
		`call exec "{\"command\":\"ls\"}" => "foundry.toml"`,
	})
}

// A tool result's details are read loosely: a string or a list there, or an exit code written
// as a float or as text, never makes the line (and the session) unreadable.
func TestPiToolResultDetailsOfAnyShape(t *testing.T) {
	line := func(id, parent, msg string) string {
		return `{"type":"message","id":"` + id + `","parentId":"` + parent + `","timestamp":"2026-04-08T20:04:45.000Z","message":` + msg + "}\n"
	}
	result := func(id, details string) string {
		return `{"role":"toolResult","toolCallId":"` + id + `","toolName":"exec","content":[{"type":"text","text":"out"}],"details":` + details + `,"isError":false}`
	}
	file := line("u1", "", `{"role":"user","content":[{"type":"text","text":"go"}]}`) +
		line("a1", "u1", `{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"exec","arguments":{"command":"a"}},{"type":"toolCall","id":"t2","name":"exec","arguments":{"command":"b"}},{"type":"toolCall","id":"t3","name":"exec","arguments":{"command":"c"}},{"type":"toolCall","id":"t4","name":"exec","arguments":{"command":"d"}}]}`) +
		line("r1", "a1", result("t1", `"a note"`)) + line("r2", "r1", result("t2", `[1, 2]`)) +
		line("r3", "r2", result("t3", `{"exitCode": 1.0}`)) + line("r4", "r3", result("t4", `{"exitCode": "0"}`))
	expectEvents(t, "session.jsonl", file, FormatPi, []string{
		`user "go"`,
		`call exec "{\"command\":\"a\"}" => "out"`,
		`call exec "{\"command\":\"b\"}" => "out"`,
		`call exec "{\"command\":\"c\"}" => "out" FAILED`,
		`call exec "{\"command\":\"d\"}" => "out"`,
	})
}

// OpenClaw's heartbeat sends the same prompt every half hour, and the assistant answers
// "HEARTBEAT_OK" when nothing needs it: each prompt, long after the last step, is a new turn
// (its time is read), not a harness reprompting one turn (validation round r81b U2, F1: the
// answers were told as one thought said 83 times). The same prompt sent back at once is still
// a reprompt.
func TestOpenClawHeartbeatsHalfAnHourApartAreTurns(t *testing.T) {
	var b strings.Builder
	start := time.Date(2026, 5, 3, 15, 56, 41, 0, time.UTC)
	heartbeats := func(gap time.Duration) string {
		b.Reset()
		for i := 0; i < 8; i++ {
			at := start.Add(time.Duration(i) * gap)
			fmt.Fprintf(&b, `{"type":"message","id":"u%d","parentId":"a%d","timestamp":%q,"message":{"role":"user","content":[{"type":"text","text":"[OpenClaw heartbeat poll]"}]}}`+"\n", i, i-1, at.Format(time.RFC3339Nano))
			fmt.Fprintf(&b, `{"type":"message","id":"a%d","parentId":"u%d","timestamp":%q,"message":{"role":"assistant","content":[{"type":"text","text":"HEARTBEAT_OK"}]}}`+"\n", i, i, at.Add(2*time.Second).Format(time.RFC3339Nano))
		}
		return b.String()
	}
	for _, tt := range []struct {
		name   string
		gap    time.Duration
		notice bool
	}{
		{"half an hour apart: turns", 30 * time.Minute, false},
		{"sent back at once: reprompts of one turn", 3 * time.Second, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("1d9efd24.jsonl", strings.NewReader(heartbeats(tt.gap)))
			if err != nil {
				t.Fatal(err)
			}
			if _, notices := defaultNotices(t, tr.Agents[0]); (len(notices) > 0) != tt.notice {
				t.Errorf("notices %q, want some: %v", notices, tt.notice)
			}
		})
	}
}

// OpenClaw's process tool reports the job it manages in its details: a kill of a job that ends
// "failed" did what it was asked (validation round r82c F1).
func TestOpenClawProcessDetailsAreTheJobs(t *testing.T) {
	line := func(id, parent, msg string) string {
		return `{"type":"message","id":"` + id + `","parentId":"` + parent + `","timestamp":"2026-04-16T00:01:00.000Z","message":` + msg + "}\n"
	}
	file := line("u1", "", `{"role":"user","content":[{"type":"text","text":"[cron:da45] run the screen"}]}`)
	for i, job := range []string{"rapid-ember", "tide-zephyr", "mellow-fjord", "vivid-pine"} {
		id := fmt.Sprint(i)
		file += line("a"+id, "u1", `{"role":"assistant","content":[{"type":"toolCall","id":"k`+id+`","name":"process","arguments":{"action":"kill","sessionId":"`+job+`"}}]}`) +
			line("r"+id, "a"+id, `{"role":"toolResult","toolCallId":"k`+id+`","toolName":"process","content":[{"type":"text","text":"Termination requested for session `+job+`."}],"details":{"status":"failed","name":"sleep 240"},"isError":false}`)
	}
	tr, err := ReadFrom("5783303d.jsonl", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tr.Agents[0].Calls() {
		if c.Failed {
			t.Errorf("%s %s read as failed", c.Tool, c.Args)
		}
	}
	if _, notices := defaultNotices(t, tr.Agents[0]); len(notices) != 0 {
		t.Errorf("notices on four jobs killed: %q", notices)
	}
}
