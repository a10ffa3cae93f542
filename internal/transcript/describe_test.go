package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// describe renders events one line each, for compact expectations in tests.
func describe(events []loopguard.Event) []string {
	var out []string
	for _, e := range events {
		var s string
		switch e.Type {
		case loopguard.EventCall:
			res := "-"
			if e.HasResult {
				res = short(e.Result)
			}
			if e.Failed {
				res += " FAILED"
			}
			s = fmt.Sprintf("call %s %s => %s", e.Tool, short(string(e.Args)), res)
		case loopguard.EventUser:
			s = "user " + short(e.Text)
		case loopguard.EventText:
			s = fmt.Sprintf("text[%s] %s", e.Source, short(e.Text))
		case loopguard.EventEnd:
			s = "end"
		default:
			s = fmt.Sprintf("type %d", e.Type)
		}
		out = append(out, s)
	}
	return out
}

// short quotes the start of a text.
func short(s string) string {
	const n = 32
	if len(s) > n {
		s = s[:n] + "…"
	}
	return strings.TrimPrefix(fmt.Sprintf("%q", s), "")
}

// defaultNotices runs the events of a transcript's agent through the default preset and
// returns how many calls it made and each notice as "call N: kind summary", N counting the
// agent's calls so far.
func defaultNotices(t *testing.T, a Agent) (calls int, notices []string) {
	t.Helper()
	cfg, err := loopguard.Preset(loopguard.PresetDefault)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := loopguard.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range a.Events {
		if e.Type == loopguard.EventCall {
			calls++
		}
		for _, n := range eng.Observe(e) {
			notices = append(notices, fmt.Sprintf("call %d: %s %s", calls, n.Kind, n.Summary))
		}
	}
	return calls, notices
}
