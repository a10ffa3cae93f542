package scan

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// With Outcomes, a call is marked failed as the guard reads it: the transcript's flag or its
// result's text ("Error: ..." with no flag, a nonzero exit code), and a search that found
// nothing is no failure. Without it, the transcript's flag alone.
func TestOutcomesMarkCallsAsTheGuardReadsThem(t *testing.T) {
	doc := `[{"role":"user","content":"book it"},
{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"book_reservation","arguments":"{\"flight\":\"HAT030\"}"}}]},
{"role":"tool","tool_call_id":"a","content":"Error: flight HAT030 not available"},
{"role":"assistant","content":null,"tool_calls":[{"id":"b","type":"function","function":{"name":"bash","arguments":"{\"command\":\"grep -rn parseWeek src\"}"}}]},
{"role":"tool","tool_call_id":"b","content":"Exit code: 1"},
{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"bash","arguments":"{\"command\":\"make test\"}"}}]},
{"role":"tool","tool_call_id":"c","content":"ok\nProcess exited with code 2"},
{"role":"assistant","content":null,"tool_calls":[{"id":"d","type":"function","function":{"name":"get_user","arguments":"{\"id\":\"u1\"}"}}]},
{"role":"tool","tool_call_id":"d","content":"{\"name\":\"Ada\"}"}]`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "chat.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		outcomes bool
		want     []bool
	}{
		{false, []bool{false, false, false, false}},
		{true, []bool{true, false, true, false}},
	} {
		r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "default"), Outcomes: tt.outcomes})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Files) != 1 || len(r.Files[0].Agents) != 1 {
			t.Fatalf("outcomes %v: %+v", tt.outcomes, r.Files)
		}
		var got []bool
		for _, m := range r.Files[0].Agents[0].Marks {
			got = append(got, m.Failed)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("outcomes %v: failed marks %v, want %v", tt.outcomes, got, tt.want)
		}
	}
}
