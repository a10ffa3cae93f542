package transcript

import (
	"fmt"
	"strings"

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
