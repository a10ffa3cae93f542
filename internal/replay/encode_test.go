package replay

import (
	"bytes"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/loopguard/loopguard"
)

func TestAppendEventWritesWhatParseReads(t *testing.T) {
	tests := []struct {
		name string
		ev   loopguard.Event
		line string
	}{
		{"a call with JSON arguments and its answer",
			loopguard.Event{Type: loopguard.EventCall, Agent: "a1", Time: 1700000000000, Tool: "Bash", Args: []byte(`{"command":"ls -la"}`),
				Result: "<tool_use_error>Sibling tool call errored</tool_use_error>", HasResult: true, Failed: true, Turn: "msg_1"},
			`{"type":"call","agent":"a1","ts":1700000000000,"tool":"Bash","args":{"command":"ls -la"},"result":{"error":true,"text":"<tool_use_error>Sibling tool call errored</tool_use_error>"},"turn":"msg_1"}`},
		{"arguments that are no JSON are a string",
			loopguard.Event{Type: loopguard.EventCall, Agent: "a1", Tool: "bash", Args: []byte("edit 90:90\nend_of_edit"), Source: loopguard.SourceHarness},
			`{"type":"call","agent":"a1","ts":0,"tool":"bash","args":"edit 90:90\nend_of_edit","source":"harness"}`},
		{"JSON over several lines is a string of its bytes",
			loopguard.Event{Type: loopguard.EventCall, Agent: "a1", Tool: "t", Args: []byte("{\n \"q\": 1\n}")},
			`{"type":"call","agent":"a1","ts":0,"tool":"t","args":"{\n \"q\": 1\n}"}`},
		{"a bare JSON string is a string of its bytes",
			loopguard.Event{Type: loopguard.EventCall, Agent: "a1", Tool: "t", Args: []byte(`"ls"`)},
			`{"type":"call","agent":"a1","ts":0,"tool":"t","args":"\"ls\""}`},
		{"the model's text",
			loopguard.Event{Type: loopguard.EventText, Agent: "a1", Time: 5, ID: "m1", Source: "model", Turn: "msg_2", Text: "Let me look."},
			`{"type":"text","agent":"a1","ts":5,"id":"m1","source":"model","turn":"msg_2","text":"Let me look."}`},
		{"a harness's reprompt",
			loopguard.Event{Type: loopguard.EventUser, Agent: "a1", Source: loopguard.SourceHarness, Text: "Please continue."},
			`{"type":"user","agent":"a1","ts":0,"source":"harness","text":"Please continue."}`},
		{"the agent's end", loopguard.Event{Type: loopguard.EventEnd, Agent: "a1"}, `{"type":"end","agent":"a1","ts":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line := AppendEvent(nil, tt.ev)
			if got := string(bytes.TrimSuffix(line, []byte("\n"))); got != tt.line {
				t.Errorf("AppendEvent:\n got %s\nwant %s", got, tt.line)
			}
			var back loopguard.Event
			if ok, err := NewParser().Parse(line, &back); !ok || err != nil {
				t.Fatalf("Parse: %v, %v", ok, err)
			}
			if !sameEvent(back, tt.ev) {
				t.Errorf("read back %+v, want %+v", back, tt.ev)
			}
		})
	}
}

// sameEvent compares two events by the fields the event format carries for their type.
func sameEvent(a, b loopguard.Event) bool {
	norm := func(e loopguard.Event) loopguard.Event {
		switch e.Type {
		case loopguard.EventCall:
			e.ID, e.Text = "", ""
			if !e.HasResult {
				e.Failed, e.Result = false, ""
			}
			if len(e.Args) == 0 {
				e.Args = nil
			}
		case loopguard.EventText:
			e.Tool, e.Args, e.Result, e.HasResult, e.Failed = "", nil, "", false, false
		case loopguard.EventUser:
			e.Tool, e.Args, e.Result, e.HasResult, e.Failed, e.ID, e.Turn = "", nil, "", false, false, "", ""
		case loopguard.EventEnd:
			e = loopguard.Event{Type: e.Type, Agent: e.Agent, Time: e.Time}
		}
		return e
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

// Whatever an event holds (in UTF-8), the line written for it reads back as it.
func FuzzAppendEvent(f *testing.F) {
	f.Add(uint8(0), "a1", int64(3), "Bash", `{"command":"ls"}`, "out", true, false, "t1", "", "", "")
	f.Add(uint8(0), "", int64(-1), "", "not json {", "", false, true, "", "harness", "", "")
	f.Add(uint8(2), "a1", int64(0), "", "", "", false, false, "t", "model", "thought\n", "m1")
	f.Add(uint8(1), "a1", int64(9), "", "", "", false, false, "", "harness", "Please continue working on the task", "")
	f.Fuzz(func(t *testing.T, typ uint8, agent string, ts int64, tool, args, result string, hasRes, failed bool, turn, source, text, id string) {
		for _, s := range []string{agent, tool, args, result, turn, source, text, id} {
			if !utf8.ValidString(s) {
				return
			}
		}
		types := [...]loopguard.EventType{loopguard.EventCall, loopguard.EventUser, loopguard.EventText, loopguard.EventEnd}
		ev := loopguard.Event{Type: types[int(typ)%len(types)], Agent: agent, Time: ts, Tool: tool, Args: []byte(args),
			Result: result, HasResult: hasRes, Failed: failed, Turn: turn, Source: source, Text: text, ID: id}
		line := AppendEvent(nil, ev)
		if bytes.Count(line, []byte("\n")) != 1 {
			t.Fatalf("AppendEvent wrote %d lines: %q", bytes.Count(line, []byte("\n")), line)
		}
		var back loopguard.Event
		if ok, err := NewParser().Parse(line, &back); !ok || err != nil {
			t.Fatalf("Parse(%s): %v, %v", line, ok, err)
		}
		if !sameEvent(back, ev) {
			t.Fatalf("%s read back as %+v, want %+v", line, back, ev)
		}
	})
}
