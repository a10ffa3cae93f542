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

// A recycled arena keeps its lists' capacity but nothing of the request it served: no key
// string pointing into the old body, no pointer into the old tree.
func TestReleasedArenaHoldsNothingOfTheRequest(t *testing.T) {
	a := &nodeArena{}
	body := benchConversation(20, 20_000)
	if _, err := parseInto(body, nil, a); err != nil {
		t.Fatal(err)
	}
	blocks := a.blocks
	a.release()
	arenas.Get() // take it back out, so that no other test gets it while we look
	kept := 0
	for _, b := range blocks {
		for i := range b {
			n := &b[i]
			if n.kind != 0 || n.start != 0 || n.end != 0 || len(n.members) != 0 || len(n.elems) != 0 {
				t.Fatalf("node %+v not reset", *n)
			}
			for _, m := range n.members[:cap(n.members)] {
				if m.key != "" || m.val != nil {
					t.Fatalf("a member %q survives the release", m.key)
				}
			}
			for _, e := range n.elems[:cap(n.elems)] {
				if e != nil {
					t.Fatal("an element pointer survives the release")
				}
			}
			kept += cap(n.members) + cap(n.elems)
		}
	}
	if kept == 0 {
		t.Error("no list capacity kept: the arena recycles nothing")
	}
}
