package loopguard

import (
	"fmt"
	"strings"
	"testing"
)

// run feeds events through a fresh engine with Step and renders every output as
// "N plugin/kind summary" or "N deny plugin", N being the event's index.
func run(t *testing.T, cfg Config, events []Event) (lines []string, outs []Outcome) {
	t.Helper()
	e, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	for i, ev := range events {
		o := e.Step(ev)
		outs = append(outs, o)
		if o.Denied {
			lines = append(lines, fmt.Sprintf("%d deny %s", i, o.Denial.Plugin))
		}
		for _, n := range o.Notices {
			lines = append(lines, fmt.Sprintf("%d %s/%s %s", i, n.Plugin, n.Kind, n.Summary))
		}
	}
	return lines, outs
}

func call(agent, tool, args string) Event { return Call(agent, tool, []byte(args)) }
func user(agent string) Event             { return Event{Type: EventUser, Agent: agent} }
func end(agent string) Event              { return Event{Type: EventEnd, Agent: agent} }
func text(agent, id, source, body string, ts int64) Event {
	return Event{Type: EventText, Agent: agent, ID: id, Source: source, Text: body, Time: ts}
}

func repeatN(n int, ev Event) []Event {
	out := make([]Event, n)
	for i := range out {
		out[i] = ev
	}
	return out
}

func concat(parts ...[]Event) []Event {
	var out []Event
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func one(ev Event) []Event { return []Event{ev} }

func repeatOnly(mod func(*RepeatToolReminderConfig)) Config {
	c := DefaultRepeatToolReminder()
	if mod != nil {
		mod(c)
	}
	return Config{RepeatToolReminder: c}
}

func brakeOnly(mod func(*DSHBrakeConfig)) Config {
	c := DefaultDSHBrake()
	if mod != nil {
		mod(c)
	}
	return Config{DSHBrake: c}
}

func sameLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("outputs differ\n got: %q\nwant: %q", got, want)
	}
}

const probeSame = `{"q":"same"}`

func TestRepeatToolReminder(t *testing.T) {
	long := strings.Repeat("x", 400)
	tests := []struct {
		name   string
		cfg    Config
		events []Event
		want   []string
	}{
		{"gentle at the first threshold and detailed at the second", repeatOnly(nil),
			repeatN(5, call("a", "probe", probeSame)),
			[]string{"2 repeat-tool-reminder/repeat probe × 3", "4 repeat-tool-reminder/repeat probe × 5"}},
		{"no reminder past the highest threshold", repeatOnly(nil),
			repeatN(12, call("a", "probe", probeSame)),
			[]string{"2 repeat-tool-reminder/repeat probe × 3", "4 repeat-tool-reminder/repeat probe × 5", "7 repeat-tool-reminder/repeat probe × 8"}},
		{"thresholds are sorted on load", repeatOnly(func(c *RepeatToolReminderConfig) { c.Thresholds = []int{4, 2} }),
			repeatN(4, call("a", "probe", probeSame)),
			[]string{"1 repeat-tool-reminder/repeat probe × 2", "3 repeat-tool-reminder/repeat probe × 4"}},
		{"a different tracked call restarts the chain", repeatOnly(nil),
			concat(repeatN(2, call("a", "probe", probeSame)), one(call("a", "other", "{}")), repeatN(3, call("a", "probe", probeSame))),
			[]string{"5 repeat-tool-reminder/repeat probe × 3"}},
		{"different arguments restart the chain", repeatOnly(nil),
			[]Event{call("a", "probe", `{"q":1}`), call("a", "probe", `{"q":2}`), call("a", "probe", `{"q":1}`), call("a", "probe", `{"q":1}`)},
			nil},
		{"excluded tools are transparent", repeatOnly(func(c *RepeatToolReminderConfig) { c.Exclude = []string{"other"} }),
			[]Event{call("a", "probe", probeSame), call("a", "other", "{}"), call("a", "probe", probeSame), call("a", "other", "{}"), call("a", "probe", probeSame)},
			[]string{"4 repeat-tool-reminder/repeat probe × 3"}},
		{"include with a wildcard tracks matching tools only", repeatOnly(func(c *RepeatToolReminderConfig) { c.Include = []string{"pro*"} }),
			concat(repeatN(3, call("a", "probe", probeSame)), repeatN(3, call("a", "grep", "{}"))),
			[]string{"2 repeat-tool-reminder/repeat probe × 3"}},
		{"untracked calls under include are transparent", repeatOnly(func(c *RepeatToolReminderConfig) { c.Include = []string{"pro*"} }),
			[]Event{call("a", "probe", probeSame), call("a", "grep", "{}"), call("a", "probe", probeSame), call("a", "probe", probeSame)},
			[]string{"3 repeat-tool-reminder/repeat probe × 3"}},
		{"regex metacharacters in patterns are literal", repeatOnly(func(c *RepeatToolReminderConfig) { c.Include = []string{"pr.be"} }),
			repeatN(3, call("a", "probe", probeSame)),
			nil},
		{"a pattern that matches no tool is legal", repeatOnly(func(c *RepeatToolReminderConfig) { c.Exclude = []string{"mcp_*"} }),
			repeatN(3, call("a", "probe", probeSame)),
			[]string{"2 repeat-tool-reminder/repeat probe × 3"}},
		{"property order never matters, deeply", repeatOnly(nil),
			[]Event{
				call("a", "probe", `{"a":1,"nested":{"x":[1,2],"y":null}}`),
				call("a", "probe", `{"nested":{"y":null,"x":[1,2]},"a":1}`),
				call("a", "probe", `{"nested":{"x":[1.0,2e0],"y":null},"a":1}`),
			},
			[]string{"2 repeat-tool-reminder/repeat probe × 3"}},
		{"chains are per agent", repeatOnly(nil),
			[]Event{call("A", "probe", probeSame), call("B", "probe", probeSame), call("A", "probe", probeSame), call("B", "probe", probeSame), call("B", "probe", probeSame)},
			[]string{"4 repeat-tool-reminder/repeat probe × 3"}},
		{"a user message resets the chain", repeatOnly(nil),
			concat(repeatN(2, call("a", "probe", probeSame)), one(user("a")), repeatN(2, call("a", "probe", probeSame))),
			nil},
		{"a user message of another agent does not reset", repeatOnly(nil),
			concat(repeatN(2, call("a", "probe", probeSame)), one(user("b")), one(call("a", "probe", probeSame))),
			[]string{"3 repeat-tool-reminder/repeat probe × 3"}},
		{"an ended agent's successor with the same id starts at 1", repeatOnly(nil),
			concat(repeatN(2, call("a", "probe", probeSame)), one(end("a")), repeatN(2, call("a", "probe", probeSame))),
			nil},
		{"calls with no agent neither count nor crash", repeatOnly(nil),
			concat(repeatN(5, call("", "probe", probeSame)), one(call("a", "probe", probeSame))),
			nil},
		{"failed calls count like any other", repeatOnly(nil),
			repeatN(3, call("a", "probe", probeSame).WithResult("Error: denied by policy", true)),
			[]string{"2 repeat-tool-reminder/repeat probe × 3"}},
		{"empty arguments equal an empty object", repeatOnly(nil),
			[]Event{call("a", "probe", ""), call("a", "probe", "{}"), call("a", "probe", " { } ")},
			[]string{"2 repeat-tool-reminder/repeat probe × 3"}},
		{"the same arguments under another tool name are another call", repeatOnly(nil),
			[]Event{call("a", "probe", probeSame), call("a", "probe2", probeSame), call("a", "probe", probeSame)},
			nil},
		{"a long payload is compared whole", repeatOnly(nil),
			[]Event{call("a", "w", `{"data":"`+long+`"}`), call("a", "w", `{"data":"`+long+`y"}`), call("a", "w", `{"data":"`+long+`"}`)},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := run(t, tt.cfg, tt.events)
			sameLines(t, got, tt.want)
		})
	}
}

func TestRepeatToolReminderTexts(t *testing.T) {
	_, outs := run(t, repeatOnly(nil), repeatN(5, call("a", "probe", probeSame)))
	gentle, detailed := outs[2].Notices[0], outs[4].Notices[0]
	if gentle.Text != catalogues["en"].repeatGentle {
		t.Errorf("third call: want the gentle text, got %q", gentle.Text)
	}
	for _, want := range []string{"- tool: probe\n", "- consecutive_calls: 5\n", "- arguments: {\"q\":\"same\"}\n"} {
		if !strings.Contains(detailed.Text, want) {
			t.Errorf("detailed text lacks %q:\n%s", want, detailed.Text)
		}
	}
	if gentle.Agent != "a" || gentle.Summary != "probe × 3" || detailed.Summary != "probe × 5" {
		t.Errorf("notice fields: %+v %+v", gentle, detailed)
	}
}

func TestRepeatToolReminderPreviewCap(t *testing.T) {
	payload := strings.Repeat("x", 400)
	cfg := repeatOnly(func(c *RepeatToolReminderConfig) { c.Thresholds = []int{2, 3}; c.ArgumentsPreviewChars = 24 })
	_, outs := run(t, cfg, repeatN(3, call("a", "write", `{"data":"`+payload+`"}`)))
	text := outs[2].Notices[0].Text
	if !strings.Contains(text, `- arguments: {"data":"xxxxxxxxxxxxxxx… (+387 more chars)`) {
		t.Errorf("want a 24-char preview and a +387 tail:\n%s", text)
	}
	if strings.Contains(text, payload) {
		t.Error("the whole payload reached the model")
	}
}

func TestPreviewCapCountsCodePoints(t *testing.T) {
	cat := catalogues["en"]
	tests := []struct {
		name, in string
		limit    int
		want     string
	}{
		{"short text is whole", "héllo", 5, "héllo"},
		{"cut never splits a code point", "日本語のテキスト", 3, "日本語… (+5 more chars)"},
		{"emoji count once each", "😀😀😀😀", 1, "😀… (+3 more chars)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cutPreview(tt.in, tt.limit, cat); got != tt.want {
				t.Errorf("cutPreview(%q, %d) = %q, want %q", tt.in, tt.limit, got, tt.want)
			}
		})
	}
}

func TestStatsDescribeTheAgent(t *testing.T) {
	cfg, _ := Preset(PresetSeeds)
	e, _ := New(cfg)
	if _, ok := e.Stats("a"); ok {
		t.Fatal("stats for an agent never seen")
	}
	for _, ev := range concat(repeatN(3, call("a", "p", "{}")), one(call("a", "q", "{}")), repeatN(2, call("a", "p", "{}"))) {
		e.Observe(ev)
	}
	s, ok := e.Stats("a")
	want := AgentStats{ConsecutiveRepeats: 2, DistinctCalls: 2, MaxCallCount: 5, Sequences: 3}
	if !ok || s != want {
		t.Errorf("stats %+v, want %+v", s, want)
	}
}

// Observing a call allocates nothing once an agent's state has grown to its bounds, whatever
// the preset: the engine runs inside agent loops and proxies, call after call.
func TestObserveAllocatesNothingInSteadyState(t *testing.T) {
	for _, preset := range []string{PresetDefault, PresetSeeds} {
		t.Run(preset, func(t *testing.T) {
			cfg, _ := Preset(preset)
			eng, _ := New(cfg)
			const distinct = 8192 // more than the seed plugins remember: no call is due a notice
			events := make([]Event, distinct)
			for i := range events {
				// every call counts alike: AllocsPerRun rounds its average down
				tool := []string{"Bash", "Read", "Grep", "WebFetch"}[i%4]
				events[i] = Call("agent-1", tool, fmt.Appendf(nil, `{"command":"sed -n '%d,%dp' /testbed/a.py","path":"/testbed/m_%d.py"}`, i, i+40, i)).
					WithResult(fmt.Sprintf("%d: ok\n[2026-12-01T10:00:%02dZ] line %d of the file", i, i%60, i), false)
			}
			for i := 0; i < 2*distinct; i++ { // warm up: fill every bounded map
				eng.Observe(events[i%distinct])
			}
			i, notices := 0, 0
			n := testing.AllocsPerRun(1000, func() { notices += len(eng.Observe(events[i%distinct])); i++ })
			if n != 0 {
				t.Errorf("%.2f allocations per call, want 0", n)
			}
			if notices != 0 {
				t.Errorf("%d notices: the calls were meant to be new to the guard", notices)
			}
		})
	}
}

func TestCallFailedReadsResultsAsTheGuardDoes(t *testing.T) {
	tests := []struct {
		name   string
		preset string
		ev     Event
		want   bool
	}{
		{"the host's flag", PresetDefault, Call("a", "bash", []byte(`{"command":"make"}`)).WithResult("", true), true},
		{"an error in the text", PresetDefault, Call("a", "book", []byte(`{"f":"HAT030"}`)).WithResult("Error: flight HAT030 not available", false), true},
		{"a nonzero exit code", PresetDefault, Call("a", "shell", []byte(`{"command":["make"]}`)).WithResult("Process exited with code 2", false), true},
		{"a search that found nothing", PresetDefault, Call("a", "bash", []byte(`{"command":"grep -rn x src"}`)).WithResult("Exit code: 1", false), false},
		{"a file's text holding a mark", PresetDefault, Call("a", "Read", []byte(`{"file_path":"a.go"}`)).WithResult("func f() error {\n\treturn errors.New(\"Error: x\")\n}", false), false},
		{"the program's last word is success", PresetDefault, Call("a", "bash", []byte(`{"command":"dotnet ef database update"}`)).WithResult("fail: HostAbortedException\nDone.", false), false},
		{"an edit done, its snippet holding a mark", PresetDefault, Call("a", "Edit", []byte(`{"file_path":"a.ts","old_string":"x","new_string":"y"}`)).
			WithResult("The file /w/a.ts has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n    12\t  throw new Error(`error: ${msg}`)", false), false},
		{"SWE-agent's edit done, the listed file holding marks", PresetDefault, Call("a", "edit", []byte("edit 1:1\npackage it;")).
			WithResult("[File: /w/Dollar.java (3 lines total)]\n1:package it;\n2:// ERROR! com.fasterxml.jackson.core.JsonParseException: Unexpected character\n3:}\nFile updated. Please review the changes and make sure they are correct (correct indentation, no duplicate lines, etc). Edit the file again if necessary.", false), false},
		{"SWE-agent's edit refused by the linter", PresetDefault, Call("a", "edit", []byte("edit 1:1\npackage it")).
			WithResult("Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\n\nERRORS:\n- E999 IndentationError: unexpected indent", false), true},
		{"a server's error status over its page", PresetDefault, Call("a", "bash", []byte(`{"cmd":"printf 'GET / HTTP/1.1\\r\\n\\r\\n' | nc victim 1337"}`)).
			WithResult("HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/html\r\n\r\n<html><body><h1>503 Service Unavailable</h1>\nNo server is available to handle this request.\n</body></html>", false), true},
		{"a page served, whatever numbers it holds", PresetDefault, Call("a", "bash", []byte(`{"cmd":"curl -i victim:1337"}`)).
			WithResult("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nHTTP/1.1 503 is what the backend said yesterday", false), false},
		{"Zed's edit done, its diff and debug output holding marks", PresetDefault, Call("a", "edit_file", []byte(`{"mode":"edit","path":"src/lib.rs"}`)).
			WithResult("Edited src/lib.rs:\n\n```diff\n-        assert!(ok, \"FAILED\");\n+        assert!(ok);\n```\n\nDebug Output:\n\n```json\n{\"new_text\": \"panic!(\\\"Error: bad regex\\\")\"}\n```", false), false},
		{"an edit refused", PresetDefault, Call("a", "Edit", []byte(`{"file_path":"a.ts","old_string":"x","new_string":"y"}`)).
			WithResult("<tool_use_error>String to replace not found in file.</tool_use_error>", false), true},
		{"the seed presets read the flag alone", PresetDSHBrake, Call("a", "book", []byte(`{"f":"HAT030"}`)).WithResult("Error: flight HAT030 not available", false), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, _ := Preset(tt.preset)
			e, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.CallFailed(tt.ev); got != tt.want {
				t.Errorf("CallFailed = %v, want %v", got, tt.want)
			}
		})
	}
}
