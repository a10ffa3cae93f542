package loopguardplugin_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/agent"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The session log of five identical todo_write calls under the repeat-tool-reminder preset,
// byte for byte: the gentle notice after the third result, the detailed one after the fifth,
// each a user-role plugin notice with its summary.
func TestSessionLogGoldenTodoWriteFiveTimes(t *testing.T) {
	cfg, err := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	if err != nil {
		t.Fatal(err)
	}
	todo := call("todo_write", `{"todos":[{"content":"fix the parser","status":"in_progress"}]}`)
	h := newHarness(t, cfg, turn(times(5, todo)...))
	h.send(h.loop.NewAgent("golden"), "Plan the parser fix.")

	recs := h.records()
	var summaries []string
	for i, r := range recs {
		if r.Source.Form == agent.FormNotice {
			summaries = append(summaries, r.Source.Summary)
			if prev := recs[i-1]; prev.Source.Kind != agent.FromTool || r.Role != agent.RoleUser || r.Source.Plugin != loopguard.PluginRepeatToolReminder {
				t.Errorf("notice %s: want a user-role repeat-tool-reminder notice right after a tool result, got %+v after %+v", r.Source.Summary, r, prev.Source)
			}
		}
	}
	sameLines(t, summaries, []string{"todo_write × 3", "todo_write × 5"})

	golden := filepath.Join("testdata", "todo_write_x5.golden")
	if *update {
		if err := os.WriteFile(golden, h.log.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(h.log.Bytes(), want) {
		t.Errorf("session log differs from %s (run go test -update to accept):\n%s", golden, h.log.String())
	}
}
