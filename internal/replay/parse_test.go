package replay

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/canon"
)

func TestParseFields(t *testing.T) {
	tests := []struct {
		name string
		line string
		want loopguard.Event
	}{
		{"a call with object args and a result",
			`{"type":"call","agent":"a1","tool":"probe","args":{"q":"same"},"result":{"error":true,"text":"boom"},"ts":5}`,
			loopguard.Event{Type: loopguard.EventCall, Agent: "a1", Tool: "probe", Args: []byte(`{"q":"same"}`), Result: "boom", HasResult: true, Failed: true, Time: 5}},
		{"a call names the reply that made it",
			`{"type":"call","agent":"a1","tool":"Read","turn":"msg_01","args":{"file_path":"a.py"}}`,
			loopguard.Event{Type: loopguard.EventCall, Agent: "a1", Tool: "Read", Turn: "msg_01", Args: []byte(`{"file_path":"a.py"}`)}},
		{"string args are the raw arguments, unescaped",
			`{"type":"call","agent":"a1","tool":"bash","args":"ls \"-la\"\n"}`,
			loopguard.Event{Type: loopguard.EventCall, Agent: "a1", Tool: "bash", Args: []byte("ls \"-la\"\n")}},
		{"missing args stay empty",
			`{"type":"call","tool":"probe"}`,
			loopguard.Event{Type: loopguard.EventCall, Tool: "probe"}},
		{"a text block",
			`{"type":"text","agent":"a1","id":"m1","source":"kb","text":"caf\u00e9 \ud83d\ude00","ts":1700000000000}`,
			loopguard.Event{Type: loopguard.EventText, Agent: "a1", ID: "m1", Source: "kb", Text: "café 😀", Time: 1700000000000}},
		{"extra fields are ignored, whatever their shape",
			`{"extra":[1,{"deep":[true,false,null]}],"type":"user","agent":"a1","more":"x"}`,
			loopguard.Event{Type: loopguard.EventUser, Agent: "a1"}},
		{"a user message keeps what was said and who sent it (a harness's reprompt)",
			`{"type":"user","agent":"a1","text":"Please continue.","source":"harness"}`,
			loopguard.Event{Type: loopguard.EventUser, Agent: "a1", Text: "Please continue.", Source: "harness"}},
		{"a fractional ts is cut to milliseconds",
			`{"type":"end","agent":"a1","ts":12.9}`,
			loopguard.Event{Type: loopguard.EventEnd, Agent: "a1", Time: 12}},
		{"a lone surrogate becomes U+FFFD",
			`{"type":"text","agent":"a","text":"x\ud800y"}`,
			loopguard.Event{Type: loopguard.EventText, Agent: "a", Text: "x\uFFFDy"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ev loopguard.Event
			ok, err := NewParser().Parse([]byte(tt.line), &ev)
			if err != nil || !ok {
				t.Fatalf("Parse: ok=%v err=%v", ok, err)
			}
			if ev.Type != tt.want.Type || ev.Agent != tt.want.Agent || ev.Tool != tt.want.Tool ||
				!bytes.Equal(ev.Args, tt.want.Args) || ev.Result != tt.want.Result || ev.HasResult != tt.want.HasResult ||
				ev.Failed != tt.want.Failed || ev.ID != tt.want.ID || ev.Source != tt.want.Source ||
				ev.Text != tt.want.Text || ev.Time != tt.want.Time || ev.Turn != tt.want.Turn {
				t.Errorf("got  %+v\nwant %+v", ev, tt.want)
			}
		})
	}
}

func TestParseTimeIsInherited(t *testing.T) {
	p := NewParser()
	var ev loopguard.Event
	for _, c := range []struct {
		line string
		want int64
	}{
		{`{"type":"user","agent":"a"}`, 0},
		{`{"type":"user","agent":"a","ts":70}`, 70},
		{`{"type":"call","agent":"a","tool":"x"}`, 70},
		{`{"type":"user","agent":"a","ts":3}`, 3},
	} {
		if _, err := p.Parse([]byte(c.line), &ev); err != nil || ev.Time != c.want {
			t.Errorf("%s: time %d (err %v), want %d", c.line, ev.Time, err, c.want)
		}
	}
}

func TestParseDeepNestingIsBounded(t *testing.T) {
	deep := `{"type":"call","agent":"a","tool":"x","args":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`
	var ev loopguard.Event
	if ok, err := NewParser().Parse([]byte(deep), &ev); !ok || err != nil {
		t.Fatalf("deep but valid: ok=%v err=%v", ok, err)
	}
	if _, err := NewParser().Parse([]byte(deep[:len(deep)-2]), &ev); err == nil {
		t.Fatal("unbalanced deep nesting accepted")
	}
}

// reference is what encoding/json makes of a line: whether it is one JSON object, and its
// top-level fields.
func reference(line []byte) (fields map[string]json.RawMessage, ok bool) {
	trimmed := bytes.Trim(line, " \t\r\n")
	if !json.Valid(trimmed) || len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, false
	}
	if err := json.Unmarshal(trimmed, &fields); err != nil {
		return nil, false
	}
	return fields, true
}

func refString(raw json.RawMessage) (string, bool) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// FuzzParse checks the hand-written parser against encoding/json: it never panics, it accepts
// a line exactly when the line is a JSON object that the contract allows, and it reads the
// same fields.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"type":"call","agent":"a1","tool":"probe","args":{"q":"same"},"result":{"error":false,"text":"..."}}`,
		`{"type":"user","agent":"a1"}`,
		`{"type":"text","agent":"a1","id":"m1","source":"some-injector","text":"...","ts":1700000000000}`,
		`{"type":"end","agent":"a1"}`,
		`{"type":"call","tool":"bash","args":"ls -la \u00e9"}`,
		`{"type":"call","tool":"x","args":[1,2.5e3,-0,{"a":null}],"ts":-1}`,
		`{"type":"call","tool":"x","tool":3}`,
		`{"type":"text","agent":"a","text":"\ud800\udc00"}`,
		` {"type":"user","agent":"a"} `,
		`{"type":"user","agent":"a"`,
		`[]`, `"x"`, ``, `{}`, `{"type":1}`, `{"type":"call","tool":"x","ts":1e400}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\n") {
			return // one line at a time
		}
		var ev loopguard.Event
		ok, err := NewParser().Parse(line, &ev)
		fields, valid := reference(line)
		if len(bytes.Trim(line, " \t\r\n")) == 0 {
			if ok || err != nil {
				t.Fatalf("blank line: ok=%v err=%v", ok, err)
			}
			return
		}
		if !valid {
			if err == nil {
				t.Fatalf("accepted what encoding/json rejects: %q", line)
			}
			return
		}
		if err != nil {
			if strings.HasPrefix(err.Error(), "not JSON") {
				t.Fatalf("rejected valid JSON %q as %v", line, err)
			}
			return // a contract error (bad type, missing tool...): checked by the table tests
		}
		typ, _ := refString(fields["type"])
		if typ != ev.Type.String() {
			t.Fatalf("type %q, parser %v", typ, ev.Type)
		}
		if raw, has := fields["agent"]; has {
			if s, _ := refString(raw); s != ev.Agent {
				t.Fatalf("agent %q, parser %q", s, ev.Agent)
			}
		}
		if ev.Type == loopguard.EventCall {
			if s, _ := refString(fields["tool"]); s != ev.Tool {
				t.Fatalf("tool %q, parser %q", s, ev.Tool)
			}
			raw, has := fields["args"]
			var want uint64
			switch s, isString := refString(raw); {
			case !has:
				want = canon.Fingerprint(nil)
			case isString:
				want = canon.FingerprintString(s)
			default:
				want = canon.Fingerprint(raw)
			}
			if got := canon.Fingerprint(ev.Args); got != want {
				t.Fatalf("args fingerprint differs: parser %q, reference %q", ev.Args, raw)
			}
		}
		if ev.Type == loopguard.EventText {
			if raw, has := fields["text"]; has {
				if s, _ := refString(raw); s != ev.Text {
					t.Fatalf("text %q, parser %q", s, ev.Text)
				}
			}
		}
	})
}
