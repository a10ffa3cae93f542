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
