package transcript

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// An Online-Mind2Web result.json, in the layout the Agent Browser Protocol harness writes
// (written for these tests): each action a call read from its text, with no result; the task
// the user's turn; the final answer the model's last words.
func TestMind2WebActionsAreCallsWithoutResults(t *testing.T) {
	doc := `{"task_id": "d1970c16", "task": "Add 5 bottles of a 2020 dry red to the cart.",
 "final_result_response": "Added 5 bottles.", "result_status": "success",
 "action_history": ["Navigate to https://shop.test/", "Click at (600, 475)", "Type \"red wine\"", "Press ENTER",
   "Scroll (delta_x=0, delta_y=400)", "Navigate back", "Select picker sp_1 -> Select option(s) [44]"],
 "thoughts": ["", "I can see the search bar.", "I can see the search bar.", "I can see the search bar.",
   "Results are below.", "Wrong page.", "Pick Texas."]}`
	expectEvents(t, "result.json", doc, FormatMind2Web, []string{
		`user "Add 5 bottles of a 2020 dry red …"`,
		`call navigate "to https://shop.test/" => -`,
		`text[model] "I can see the search bar."`,
		`call click "at (600, 475)" => -`,
		`call type "\"red wine\"" => -`,
		`call press "ENTER" => -`,
		`text[model] "Results are below."`,
		`call scroll "(delta_x=0, delta_y=400)" => -`,
		`text[model] "Wrong page."`,
		`call navigate "back" => -`,
		`text[model] "Pick Texas."`,
		`call select "picker sp_1 -> Select option(s) …" => -`,
		`text[model] "Added 5 bottles."`,
	})
}

// Each action's text is its call as the harness wrote it: the verb the tool, the rest the
// arguments; SeeAct's "<element> -> OPERATION: value" the operation on the element.
func TestMind2WebActionTextsAsCalls(t *testing.T) {
	for _, tt := range []struct{ action, tool, args string }{
		{`Click at (839, 33)`, "click", `at (839, 33)`},
		{`Type "10001"`, "type", `"10001"`},
		{`Press CONTROL+A`, "press", `CONTROL+A`},
		{`Navigate reload`, "navigate", `reload`},
		{`Scroll (delta_x=0, delta_y=-800)`, "scroll", `(delta_x=0, delta_y=-800)`},
		{`Select picker sp_4 -> Select option(s) [17]`, "select", `picker sp_4 -> Select option(s) [17]`},
		{`<a> Careers -> CLICK`, "click", `{"element":"<a> Careers"}`},
		{`[combobox] Flying from -> TYPE: New York`, "type", `{"element":"[combobox] Flying from","value":"New York"}`},
		{`Wait`, "wait", ``},
	} {
		t.Run(tt.action, func(t *testing.T) {
			doc := fmt.Sprintf(`{"task": "t", "action_history": [%q], "thoughts": ["x"]}`, tt.action)
			tr, err := ReadFrom("result.json", strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			calls := tr.Agents[0].Calls()
			if len(calls) != 1 || calls[0].Tool != tt.tool || string(calls[0].Args) != tt.args || calls[0].HasResult {
				t.Errorf("calls %+v, want one %s %s without a result", calls, tt.tool, tt.args)
			}
		})
	}
}

// SeeAct names its task confirmed_task, and writes an action that failed as "<element> ->
// Failed to CLICK because <why>": the click on the element, answered by the failure
// (validation round r137b U1, M1: the file read no call, and nine clicks timing out alike
// were calls of "[a]").
func TestSeeActResultWithFailedActions(t *testing.T) {
	failed := `[a] alt=\"Tree Dasher 2\" -> Failed to CLICK because Locator.click: Timeout 10000ms exceeded.\nCall log:\n  - waiting for locator`
	doc := `{"confirmed_task": "Find the green shoes", "website": "https://www.allbirds.com/", "task_id": "t1", "num_step": 4,
 "action_history": ["[button] Filter -> CLICK", "` + failed + `", "` + failed + `", "` + failed + `"], "exit_by": "max steps"}`
	tr, err := ReadFrom("result.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatMind2Web {
		t.Fatalf("read as %q", tr.Format)
	}
	want := []string{
		`user "Find the green shoes"`,
		`call click "{\"element\":\"[button] Filter\"}" => -`,
		`call click "{\"element\":\"[a] alt=\\\"Tree Dashe…" => "Failed to CLICK because Locator.…" FAILED`,
		`call click "{\"element\":\"[a] alt=\\\"Tree Dashe…" => "Failed to CLICK because Locator.…" FAILED`,
		`call click "{\"element\":\"[a] alt=\\\"Tree Dashe…" => "Failed to CLICK because Locator.…" FAILED`,
	}
	var got []string
	for _, e := range tr.Agents[0].Events {
		if e.Type != loopguard.EventText || e.Text != "" {
			got = append(got, describe([]loopguard.Event{e})...)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %s\nwant %s", strings.Join(got, "\n    "), strings.Join(want, "\n     "))
	}
}

// The harness copies one reply's thought onto each of its actions: consecutive actions with
// the same thought are one reply, the thought given once. Read as three sayings, a
// triple-click's thought, or a reply of five scrolls', would be the model repeating itself.
func TestMind2WebCopiedThoughtGivenOnceForOneReply(t *testing.T) {
	for _, tt := range []struct {
		name     string
		actions  []string
		thoughts []string
		texts    int
		replies  int
	}{
		{"a triple-click", []string{"Click at (740, 592)", "Click at (740, 592)", "Click at (740, 592)"},
			[]string{"Triple-click to select the quantity.", "Triple-click to select the quantity.", "Triple-click to select the quantity."}, 1, 1},
		{"two replies of the same words, another between", []string{"Scroll (delta_x=0, delta_y=600)", "Click at (1, 2)", "Scroll (delta_x=0, delta_y=600)"},
			[]string{"More products.", "Open it.", "More products."}, 3, 3},
		{"actions without words are replies of their own", []string{"Navigate to https://a.test/", "Click at (1, 2)"},
			[]string{"", ""}, 0, 2},
		{"thoughts not beside the actions", []string{"Click at (1, 2)", "Click at (3, 4)"},
			[]string{"Only one thought."}, 1, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := fmt.Sprintf(`{"task_id": "x", "task": "t", "final_result_response": "", "action_history": %s, "thoughts": %s}`,
				quoteList(tt.actions), quoteList(tt.thoughts))
			tr, err := ReadFrom("result.json", strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			texts, turns := 0, map[string]bool{}
			for _, e := range tr.Agents[0].Events {
				if e.Source == "model" {
					texts++
				}
			}
			for _, c := range tr.Agents[0].Calls() {
				turns[c.Turn] = true
			}
			if texts != tt.texts || len(turns) != tt.replies {
				t.Errorf("%d texts, %d replies; want %d, %d", texts, len(turns), tt.texts, tt.replies)
			}
		})
	}
}

// Six replies of four actions each, the model's words much alike in all of them (a quantity
// it cannot raise), the harness's copy of each reply's words on each of its actions. Read
// once a reply, the words are six sayings over calls whose answers are not known: no notice.
// Read once an action, they were 24, past the thought rule's limit of 20 whatever the calls
// brought.
func TestMind2WebCopiedThoughtsAreNoRepetition(t *testing.T) {
	var actions, thoughts []string
	for r := 0; r < 6; r++ {
		for k := 0; k < 4; k++ {
			actions = append(actions, fmt.Sprintf("Click at (%d, %d)", 100+r, 200+k))
			thoughts = append(thoughts, fmt.Sprintf("The quantity still shows 1. Let me click the plus button at (%d, 592) to raise it to 5.", 800+3*r))
		}
	}
	doc := fmt.Sprintf(`{"task": "t", "action_history": %s, "thoughts": %s}`, quoteList(actions), quoteList(thoughts))
	tr, err := ReadFrom("result.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if calls, notices := defaultNotices(t, tr.Agents[0]); calls != 24 || len(notices) != 0 {
		t.Errorf("%d calls, notices %q: want 24 calls and none", calls, notices)
	}
}

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
