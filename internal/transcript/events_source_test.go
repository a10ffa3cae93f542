package transcript

import (
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// A call's `source` (docs/events.md: "harness" for a reply the harness refused for its
// form) is kept by scan's events reader, as replay's parser keeps it: both see the same
// events.
func TestEventsReaderKeepsACallsSource(t *testing.T) {
	tr, err := ReadFrom("ev.jsonl", strings.NewReader(
		`{"type":"call","agent":"a","tool":"bash","args":{"command":"x"},"source":"harness","result":{"error":true,"text":"Please always provide EXACTLY ONE action"}}`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Agents) != 1 || len(tr.Agents[0].Events) != 1 {
		t.Fatalf("agents %+v, want one call", tr.Agents)
	}
	if got := tr.Agents[0].Events[0].Source; got != loopguard.SourceHarness {
		t.Errorf("call source = %q, want %q (as replay reads it)", got, loopguard.SourceHarness)
	}
}
