package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// browserUseSteps writes a browser-use history (written for this test in the layout of
// agent.save_history) of n steps, each clicking element 7, the page after step i at url(i).
func browserUseSteps(n int, url func(i int) string) string {
	var steps []string
	for i := 0; i < n; i++ {
		steps = append(steps, fmt.Sprintf(`{"model_output": {"thinking": "The list goes on.", "evaluation_previous_goal": "ok",
 "memory": "reading the list", "next_goal": "Click Next to see more results.", "action": [{"click_element_by_index": {"index": 7}}]},
 "result": [{"is_done": false, "error": null, "extracted_content": "Clicked button with index 7: Next", "include_in_memory": true}],
 "state": {"url": %q, "title": "Results", "tabs": []}, "metadata": {"step_number": %d}}`, url(i), i+1))
	}
	return `{"history": [` + strings.Join(steps, ",\n") + `]}`
}

func TestBrowserUseHistoryReadAsCallsWithTheirOutcome(t *testing.T) {
	doc := `{"history": [
{"model_output": {"thinking": "Open the shop.", "next_goal": "Go to the shop.", "action": [{"go_to_url": {"url": "https://shop.test/"}}, {"wait": {"seconds": 2}}]},
 "result": [{"is_done": false, "error": "Navigation failed: timeout", "extracted_content": null}, {"is_done": false, "extracted_content": "Waited for 2 seconds"}],
 "state": {"url": "about:blank", "title": ""}},
{"model_output": null, "result": [{"error": "could not parse the reply"}], "state": {"url": "https://shop.test/", "title": "Shop"}}
]}`
	tr := expectEvents(t, "agent_history.json", doc, FormatBrowserUse, []string{
		`text[model] "Go to the shop."`,
		`call go_to_url "{\"url\":\"https://shop.test/\"}" => "Navigation failed: timeout" FAILED`,
		`call wait "{\"seconds\":2}" => "Waited for 2 seconds\n[page: http…"`,
		`call (no action) "" => "could not parse the reply" FAILED`,
	})
	calls := tr.Agents[0].Calls()
	if calls[0].Turn != calls[1].Turn || calls[1].Turn == calls[2].Turn {
		t.Errorf("turns %q %q %q: one step's actions are one reply", calls[0].Turn, calls[1].Turn, calls[2].Turn)
	}
}

// The page an action leaves is part of its answer: clicking Next through the pages of a list
// is progress, clicking a button that leaves the page as it was is not.
func TestBrowserUseClickThatChangesNothingIsStuckPagingIsNot(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	for _, tt := range []struct {
		name   string
		url    func(i int) string
		notice bool
	}{
		{"paging through results", func(i int) string { return fmt.Sprintf("https://shop.test/results?page=%d", i+1) }, false},
		{"a button that does nothing", func(int) string { return "https://shop.test/results?page=1" }, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("agent_history.json", strings.NewReader(browserUseSteps(6, tt.url)))
			if err != nil {
				t.Fatal(err)
			}
			eng, _ := loopguard.New(cfg)
			said := false
			for _, e := range tr.Agents[0].Events {
				if len(eng.Observe(e)) > 0 {
					said = true
				}
			}
			if said != tt.notice {
				t.Errorf("a notice: %v, want %v", said, tt.notice)
			}
		})
	}
}

// A click on an element the page no longer has is answered, not as an error, "Element index N
// not available": it failed. The actions past a step's results, where browser-use stopped with
// no word of why, never ran and are left out (r127b U1, U2).
func TestBrowserUseElementGoneAndSilentStop(t *testing.T) {
	doc := `{"history": [
{"model_output": {"next_goal": "Snooze the email.", "action": [{"click": {"index": 63735}}]},
 "result": [{"is_done": false, "extracted_content": "Element index 63735 not available - page may have changed. Try refreshing browser state."}],
 "state": {"url": "https://mail.test/", "title": "Inbox"}},
{"model_output": {"next_goal": "Open it and finish.", "action": [{"click": {"index": 12}}, {"done": {"text": "ok"}}, {"done": {"text": "ok"}}]},
 "result": [{"is_done": false, "extracted_content": "Clicked element 12"}],
 "state": {"url": "https://mail.test/", "title": "Inbox"}}
]}`
	expectEvents(t, "agent_history.json", doc, FormatBrowserUse, []string{
		`text[model] "Snooze the email."`,
		`call click "{\"index\":63735}" => "Element index 63735 not availabl…" FAILED`,
		`text[model] "Open it and finish."`,
		`call click "{\"index\":12}" => "Clicked element 12"`,
	})
}
