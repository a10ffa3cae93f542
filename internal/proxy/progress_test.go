package proxy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// The default preset through the proxy: a Chat Completions history in which the model pages
// through a log (a new page each time) gets nothing; one in which it runs the same command
// for the same answer three times gets the progress detector's reminder after the third
// result, and nowhere else.
func TestDefaultPresetThroughTheProxy(t *testing.T) {
	cfg, err := loopguard.Preset(loopguard.PresetDefault)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGuard(cfg)
	if err != nil {
		t.Fatal(err)
	}
	history := func(result func(i int) string) []byte {
		var msgs []string
		msgs = append(msgs, `{"role":"user","content":"Find the failing test."}`)
		for i := 1; i <= 4; i++ {
			msgs = append(msgs,
				fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"c%d","type":"function","function":{"name":"bash","arguments":"{\"command\":\"tail -n 20 build.log\"}"}}]}`, i),
				fmt.Sprintf(`{"role":"tool","tool_call_id":"c%d","content":%q}`, i, result(i)))
		}
		return []byte(`{"model":"m","messages":[` + strings.Join(msgs, ",") + `]}`)
	}
	paging := rewrite(t, g, Chat, history(func(i int) string { return fmt.Sprintf("step %d of 40: compiled pkg/mod%d", i*5, i) }))
	if len(paging.Notices) != 0 {
		t.Errorf("a log that advances drew %d notices: %+v", len(paging.Notices), paging.Notices)
	}
	stuck := rewrite(t, g, Chat, history(func(i int) string { return fmt.Sprintf("FAIL TestParse (0.0%ds)", i) }))
	if len(stuck.Notices) != 1 || stuck.Notices[0].Plugin != loopguard.PluginProgress || stuck.Notices[0].Kind != loopguard.KindStuck {
		t.Fatalf("the same failure three times: notices %+v, want one progress/stuck", stuck.Notices)
	}
	body := string(stuck.Body())
	at := strings.Index(body, "[loopguard] You have made the same call (bash) 3 times")
	if at < 0 {
		t.Fatalf("no reminder in the upstream body:\n%s", body)
	}
	if third, fourth := strings.Index(body, `"c3"`), strings.Index(body, `"tool_call_id":"c4"`); !(third < at && at < fourth) {
		t.Errorf("the reminder is not in the third result (at %d; third call %d, fourth result %d)", at, third, fourth)
	}
}
