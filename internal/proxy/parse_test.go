package proxy

import (
	"fmt"
	"strings"
	"testing"
)

// Gemini responses find their call by id, else by name in order: Gemini CLI sends ids, other
// clients may not.
func TestGeminiResponsesFindTheirCalls(t *testing.T) {
	body := `{"contents":[
{"role":"user","parts":[{"text":"go"}]},
{"role":"model","parts":[
  {"functionCall":{"id":"a1","name":"ls","args":{"n":"A"}}},
  {"functionCall":{"name":"ls","args":{"n":"B"}}},
  {"functionCall":{"id":"c1","name":"cat","args":{"n":"C"}}}]},
{"role":"user","parts":[
  {"functionResponse":{"id":"c1","name":"cat","response":{"output":"c"}}},
  {"functionResponse":{"name":"ls","response":{"output":"a"}}},
  {"functionResponse":{"id":"zz","name":"ls","response":{"output":"b"}}},
  {"functionResponse":{"name":"ls","response":{"output":"nothing left"}}}]}]}`
	conv, err := parse(Gemini, []byte(body), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range conv.steps {
		if s.ev.Tool != "" {
			got = append(got, s.ev.Tool+string(s.ev.Args))
		}
	}
	want := []string{`cat{"n":"C"}`, `ls{"n":"A"}`, `ls{"n":"B"}`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("calls = %v, want %v (by id, then the first unanswered of the name, then the id-less one)", got, want)
	}
}

// A model turn of many calls answered by as many responses is matched call by call, each
// once: 20,000 identical calls give 20,000 call events.
func TestGeminiManyCallsAreEachMatchedOnce(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString(`{"contents":[{"role":"model","parts":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"functionCall":{"name":"ls","args":{}}}`)
	}
	b.WriteString(`]},{"role":"user","parts":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"functionResponse":{"name":"ls","response":{"output":"x"}}}`)
	}
	b.WriteString(`]}]}`)
	conv, err := parse(Gemini, []byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(conv.steps) != n {
		t.Errorf("%d events, want %d", len(conv.steps), n)
	}
}

// dumpTree renders a parsed value with everything a parser reads from it.
func dumpTree(b *strings.Builder, n *node) {
	fmt.Fprintf(b, "(%d %d-%d %v", n.kind, n.start, n.end, n.escaped)
	for _, m := range n.members {
		fmt.Fprintf(b, " %q:", m.key)
		dumpTree(b, m.val)
	}
	for _, e := range n.elems {
		b.WriteByte(' ')
		dumpTree(b, e)
	}
	b.WriteByte(')')
}

// A recycled arena's nodes start empty: a tree parsed into it is the tree a fresh parse gives,
// whatever the arena held before (here: escaped strings, wider objects and longer arrays at the same places).
func TestRecycledArenaParsesLikeAFreshOne(t *testing.T) {
	before := []byte(`[["\n","\t"],{"c":1,"d":2,"e":3},[1,2,3,{"y":[4,5]}]]`)
	after := []byte(`[["h","i"],{"c":[]},[{"x":"h"}]]`)
	a := &nodeArena{}
	if _, err := parseInto(before, nil, a); err != nil {
		t.Fatal(err)
	}
	a.reset()
	reused, err := parseInto(after, nil, a)
	if err != nil {
		t.Fatal(err)
	}
	fresh, _ := parseJSON(after)
	var got, want strings.Builder
	dumpTree(&got, reused)
	dumpTree(&want, fresh)
	if got.String() != want.String() {
		t.Errorf("tree in a recycled arena:\n%s\nfresh:\n%s", got.String(), want.String())
	}
}

// The calls of one model message are one reply (Event.Turn), in each API's shape: "AAB" is two
// calls made together, then one of the next message.
func TestCallsOfOneMessageAreOneReply(t *testing.T) {
	tests := []struct {
		api  API
		body string
	}{
		{Anthropic, `{"messages":[{"role":"user","content":"go"},
{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"p":"a"}},{"type":"tool_use","id":"t2","name":"Read","input":{"p":"b"}}]},
{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x"},{"type":"tool_result","tool_use_id":"t2","content":"y"}]},
{"role":"assistant","content":[{"type":"tool_use","id":"t3","name":"Read","input":{"p":"c"}}]},
{"role":"user","content":[{"type":"tool_result","tool_use_id":"t3","content":"z"}]}]}`},
		{Chat, `{"messages":[{"role":"user","content":"go"},
{"role":"assistant","tool_calls":[{"id":"c1","function":{"name":"read","arguments":"{}"}},{"id":"c2","function":{"name":"read","arguments":"{\"p\":1}"}}]},
{"role":"tool","tool_call_id":"c1","content":"x"},{"role":"tool","tool_call_id":"c2","content":"y"},
{"role":"assistant","tool_calls":[{"id":"c3","function":{"name":"read","arguments":"{\"p\":2}"}}]},
{"role":"tool","tool_call_id":"c3","content":"z"}]}`},
		{Responses, `{"input":[{"role":"user","content":"go"},
{"type":"function_call","call_id":"f1","name":"read","arguments":"{}"},{"type":"function_call","call_id":"f2","name":"read","arguments":"{\"p\":1}"},
{"type":"function_call_output","call_id":"f1","output":"x"},{"type":"function_call_output","call_id":"f2","output":"y"},
{"type":"function_call","call_id":"f3","name":"read","arguments":"{\"p\":2}"},
{"type":"function_call_output","call_id":"f3","output":"z"}]}`},
		{Gemini, `{"contents":[{"role":"user","parts":[{"text":"go"}]},
{"role":"model","parts":[{"functionCall":{"name":"read","args":{}}},{"functionCall":{"name":"read","args":{"p":1}}}]},
{"role":"user","parts":[{"functionResponse":{"name":"read","response":{"output":"x"}}},{"functionResponse":{"name":"read","response":{"output":"y"}}}]},
{"role":"model","parts":[{"functionCall":{"name":"read","args":{"p":2}}}]},
{"role":"user","parts":[{"functionResponse":{"name":"read","response":{"output":"z"}}}]}]}`},
	}
	for _, tt := range tests {
		t.Run(string(tt.api), func(t *testing.T) {
			conv, err := parse(tt.api, []byte(tt.body), nil)
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]byte{}
			var got []byte
			for _, s := range conv.steps {
				if s.ev.Tool == "" {
					continue
				}
				if s.ev.Turn == "" {
					got = append(got, '-')
					continue
				}
				if _, ok := names[s.ev.Turn]; !ok {
					names[s.ev.Turn] = byte('A' + len(names))
				}
				got = append(got, names[s.ev.Turn])
			}
			if string(got) != "AAB" {
				t.Errorf("replies %q, want AAB", got)
			}
		})
	}
}

// Codex's code mode sends every call as a cell of its "exec" tool: a cell that makes one call is
// that call, as the rollout reader reads it; a script of two calls stays a cell.
func TestResponsesCodeModeCellsAreTheCallsTheyMake(t *testing.T) {
	body := `{"input":[
{"type":"message","role":"user","content":[{"type":"input_text","text":"run the tests"}]},
{"type":"custom_tool_call","call_id":"c1","name":"exec","input":"const r = await tools.exec_command({\"cmd\":\"cargo test\"});\ntext(r.output);"},
{"type":"custom_tool_call_output","call_id":"c1","output":"Script completed\nWall time 1.0 seconds\nOutput:\nok"},
{"type":"custom_tool_call","call_id":"c2","name":"exec","input":"await tools.exec_command({\"cmd\":\"ls\"}); await tools.exec_command({\"cmd\":\"pwd\"});"},
{"type":"custom_tool_call_output","call_id":"c2","output":"Script completed\nWall time 0.1 seconds\nOutput:\n"}]}`
	conv, err := parse(Responses, []byte(body), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range conv.steps {
		if s.ev.Tool != "" {
			got = append(got, s.ev.Tool+" "+string(s.ev.Args))
		}
	}
	want := []string{`exec_command {"cmd":"cargo test"}`, `exec await tools.exec_command({"cmd":"ls"}); await tools.exec_command({"cmd":"pwd"});`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("calls = %q, want %q", got, want)
	}
}
