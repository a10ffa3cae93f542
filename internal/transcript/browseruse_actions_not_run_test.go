package transcript

import (
	"testing"

	"github.com/loopguard/loopguard"
)

// browser-use runs a reply's actions in order and stops when the page changes (its result for
// the first action left says it was not executed) or when one fails (the actions after it get
// no result). Those actions never ran: the first are the harness refusing them, failed calls
// answered by its note; the second are left out. Histories written for this test in the
// layouts of browser-use 0.7, ~0.4 and 0.1.
func TestBrowserUseActionsThatDidNotRun(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		want      []string
	}{
		{
			name: "the page changed after the first of three actions (0.7)",
			doc: `{"history": [
{"model_output": {"next_goal": "Log in.", "action": [{"input_text": {"index": 9, "text": "a@b.c"}}, {"click_element_by_index": {"index": 18}}, {"click_element_by_index": {"index": 3}}]},
 "result": [{"is_done": false, "extracted_content": "Input 'a@b.c' into element 9."}, {"is_done": false, "extracted_content": "Page changed after action: actions click_element_by_index are not yet executed"}],
 "state": {"url": "https://shop.test/login", "title": "Login"}},
{"model_output": {"next_goal": "Submit.", "action": [{"click_element_by_index": {"index": 18}}]},
 "result": [{"extracted_content": "Clicked element"}], "state": {"url": "https://shop.test/login#2", "title": "Login"}}
]}`,
			want: []string{
				`text[model] "Log in."`,
				`call input_text "{\"index\":9,\"text\":\"a@b.c\"}" => "Input 'a@b.c' into element 9.\n[p…"`,
				`call[harness] click_element_by_index "{\"index\":18}" => "Page changed after action: actio…" FAILED`,
				`call[harness] click_element_by_index "{\"index\":3}" => "Page changed after action: actio…" FAILED`,
				`text[model] "Submit."`,
				`call click_element_by_index "{\"index\":18}" => "Clicked element"`,
			},
		},
		{
			name: "something new appeared (0.1)",
			doc: `{"history": [
{"model_output": {"current_state": {"next_goal": "Open the menu."}, "action": [{"click_element": {"index": 5}}, {"click_element": {"index": 7}}]},
 "result": [{"extracted_content": "Clicked button with index 5: Menu"}, {"extracted_content": "Something new appeared after action 1 / 2"}],
 "state": {"url": "https://a.test/", "title": "A"}}
]}`,
			want: []string{
				`text[model] "Open the menu."`,
				`call click_element "{\"index\":5}" => "Clicked button with index 5: Men…"`,
				`call[harness] click_element "{\"index\":7}" => "Something new appeared after act…" FAILED`,
			},
		},
		{
			name: "a failed click, the wait after it never ran (~0.4)",
			doc: `{"history": [
{"model_output": {"current_state": {"next_goal": "Open the leaderboard."}, "action": [{"click_element_by_index": {"index": 28}}, {"wait": {"seconds": 3}}]},
 "result": [{"is_done": false, "error": "Failed to click element: Execution context was destroyed"}],
 "state": {"url": "https://a.test/", "title": "A"}},
{"model_output": {"current_state": {"next_goal": "Open it in a tab."}, "action": [{"open_tab": {"url": "https://b.test/"}}]},
 "result": [{"extracted_content": "Opened new tab"}], "state": {"url": "https://a.test/", "title": "A"}}
]}`,
			want: []string{
				`text[model] "Open the leaderboard."`,
				`call click_element_by_index "{\"index\":28}" => "Failed to click element: Executi…" FAILED`,
				`text[model] "Open it in a tab."`,
				`call open_tab "{\"url\":\"https://b.test/\"}" => "Opened new tab"`,
			},
		},
		{
			name: "page text that says actions were not yet executed is the page's, not the harness's note (review r21 L2)",
			doc: `{"history": [
{"model_output": {"next_goal": "Read the release notes.", "action": [{"extract_content": {"goal": "notes"}}, {"scroll_down": {}}]},
 "result": [{"extracted_content": "Release notes: the migrations are not yet executed on staging."}, {"extracted_content": "Scrolled down"}],
 "state": {"url": "https://a.test/notes", "title": "Notes"}}
]}`,
			want: []string{
				`text[model] "Read the release notes."`,
				`call extract_content "{\"goal\":\"notes\"}" => "Release notes: the migrations ar…"`,
				`call scroll_down "{}" => "Scrolled down"`,
			},
		},
		{
			name: "a step cut short with no result at all is still its calls, answers unknown",
			doc: `{"history": [
{"model_output": {"next_goal": "Search.", "action": [{"search_google": {"query": "x"}}, {"wait": {"seconds": 1}}]}, "result": [], "state": {"url": "about:blank", "title": ""}}
]}`,
			want: []string{
				`text[model] "Search."`,
				`call search_google "{\"query\":\"x\"}" => -`,
				`call wait "{\"seconds\":1}" => -`,
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			expectEvents(t, "agent_history.json", tt.doc, FormatBrowserUse, tt.want)
		})
	}
}

// A reply cut short by a page change step after step, its last action sent again each time, is
// no action succeeding again and again: the refusals are the harness's and never ran.
func TestBrowserUseRefusedActionIsTheHarnesss(t *testing.T) {
	doc := `{"history": [
{"model_output": {"next_goal": "Accept the cookies, then open the cart.", "action": [{"click_element_by_index": {"index": 1}}, {"click_element_by_index": {"index": 40}}]},
 "result": [{"extracted_content": "Clicked element"}, {"extracted_content": "Page changed after action: actions click_element_by_index are not yet executed"}],
 "state": {"url": "https://shop.test/", "title": "Shop"}}
]}`
	tr := expectEvents(t, "agent_history.json", doc, FormatBrowserUse, []string{
		`text[model] "Accept the cookies, then open th…"`,
		`call click_element_by_index "{\"index\":1}" => "Clicked element"`,
		`call[harness] click_element_by_index "{\"index\":40}" => "Page changed after action: actio…" FAILED`,
	})
	if c := tr.Agents[0].Calls()[1]; c.Source != loopguard.SourceHarness || !c.Failed {
		t.Errorf("refused action %+v: want a failed call of the harness", c)
	}
}
