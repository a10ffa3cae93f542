package transcript

import (
	"strconv"
	"strings"
	"testing"
)

// awElement is one element of an AndroidWorld UI list as the T3A agent's step data holds it
// (written for these tests, with the fields a real list has).
func awElement(text, resource string, y int) string {
	t, r := "null", "null"
	if text != "" {
		t = strconv.Quote(text)
	}
	if resource != "" {
		r = strconv.Quote(resource)
	}
	return `{"text": ` + t + `, "content_description": null, "class_name": "android.widget.TextView", "bbox": null, ` +
		`"bbox_pixels": {"x_min": 0, "x_max": 1080, "y_min": ` + strconv.Itoa(y) + `, "y_max": ` + strconv.Itoa(y+100) + `}, ` +
		`"hint_text": null, "is_checked": false, "is_checkable": false, "is_clickable": true, "is_editable": false, ` +
		`"is_enabled": true, "is_focused": false, "is_focusable": true, "is_long_clickable": false, "is_scrollable": false, ` +
		`"is_selected": false, "is_visible": true, "package_name": "com.android.settings", "resource_name": ` + r + `, ` +
		`"tooltip": null, "resource_id": null, "metadata": null}`
}

// awStep is one step record: the model's reply and the element list after its action
// ("null" for a step that did not run), with the agent's summary.
func awStep(n int, reply, after, summary string) string {
	return `{"step_num": ` + strconv.Itoa(n) + `, "state": {"pixels": "<screenshot_excluded>"}, "action": ` + strconv.Quote(reply) +
		`, "agent_data": {"before_screenshot": "<excluded>", "before_element_list": [], "after_element_list": ` + after +
		`, "action_prompt": "...", "action_output": ` + strconv.Quote(reply) + `, "action_raw_response": "{}", ` +
		`"summary_prompt": "...", "summary": ` + strconv.Quote(summary) + `}, "timestamp": "1752975655.69"}`
}

func awEpisode(steps ...string) string {
	return `{"task_name": "SystemBrightnessMin", "goal": "Turn brightness to the min value.", "model_name": "gpt-4o-mini", ` +
		`"prompt_variant": "base", "max_steps": 30, "success": false, "steps_taken": ` + strconv.Itoa(len(steps)) +
		`, "prompts": ["..."], "responses": [], "actions": [], "step_records": [` + strings.Join(steps, ", ") + `]}`
}

func TestAndroidWorldStepsAreCallsAnsweredByTheScreenTheyLeft(t *testing.T) {
	screen := `[` + awElement("Brightness level", "", 200) + `, ` + awElement("15:35", "com.android.systemui:id/clock", 0) + `]`
	doc := awEpisode(
		awStep(1, "Reason: The brightness is in Display.\nAction: {\"action_type\": \"click\", \"index\": 0}", screen,
			"Action selected: {...}. Clicked Brightness level."),
		awStep(2, "Reason: Try again.\nAction: {\"action_type\": \"click\", \"index\": 99}", "null",
			"The parameter index is out of range. Remember the index must be in the UI element list!"),
		awStep(3, "Reason: Pick a slider.\nAction: {\"action_type\": \"click\", \"index\":  N}", "null",
			"Can not parse the output to a valid action. Please make sure to pick the action from the list."),
		awStep(4, "Reason: It cannot be done.\nAction: {\"action_type\": \"status\", \"goal_status\": \"infeasible\"}", "null",
			"Agent thinks the task is infeasible."),
	)
	tr := expectEvents(t, "SystemBrightnessMin_base_trial1.json", doc, FormatAndroidWorld, []string{
		`user "Turn brightness to the min value…"`,
		`text[model] "The brightness is in Display."`,
		// the clock of the status bar is no part of the screen
		`call click "{\"index\":0}" => "0: text=\"Brightness level\" TextV…"`,
		`text[model] "Try again."`,
		`call click "{\"index\":99}" => "The parameter index is out of ra…" FAILED`,
		`text[model] "Pick a slider."`,
		`call action "{\"action_type\": \"click\", \"index\"…" => "Can not parse the output to a va…" FAILED`,
		`text[model] "It cannot be done."`,
		`call status "{\"goal_status\":\"infeasible\"}" => "Agent thinks the task is infeasi…"`,
	})
	want := "0: text=\"Brightness level\" TextView [0,200,1080,300]\n"
	if got := tr.Agents[0].Calls()[0].Result; got != want {
		t.Errorf("the screen after the click: %q, want %q (the status bar's clock left out)", got, want)
	}
}

// The status bar's clock, battery and signal change on their own: a click that leaves the
// app's screen as it was is the same answer, and three of them are told; a scroll that
// brings new elements each time is progress.
func TestAndroidWorldTellsAClickThatChangesNothingAndNotAScrollThatMoves(t *testing.T) {
	click := "Reason: Open the slider.\nAction: {\"action_type\": \"click\", \"index\": 0}"
	scroll := "Reason: Look further down.\nAction: {\"action_type\": \"scroll\", \"direction\": \"down\"}"
	for _, tt := range []struct {
		name  string
		steps []string
		told  bool
	}{
		{
			name: "the same click, the same screen, the clock and the signal moving",
			steps: []string{
				awStep(1, click, `[`+awElement("Brightness level", "", 200)+`, `+awElement("15:35", "com.android.systemui:id/clock", 0)+`]`, "Clicked."),
				awStep(2, click, `[`+awElement("Brightness level", "", 200)+`, `+awElement("15:36", "com.android.systemui:id/clock", 0)+`]`, "Clicked."),
				awStep(3, click, `[`+awElement("Brightness level", "", 200)+`, `+awElement("Phone two bars.", "com.android.systemui:id/mobile_combo", 0)+`]`, "Clicked."),
				awStep(4, click, `[`+awElement("Brightness level", "", 200)+`]`, "Clicked."),
			},
			told: true,
		},
		{
			name: "a scroll that shows new settings each time",
			steps: []string{
				awStep(1, scroll, `[`+awElement("Display", "", 200)+`]`, "Scrolled."),
				awStep(2, scroll, `[`+awElement("Sound", "", 200)+`]`, "Scrolled."),
				awStep(3, scroll, `[`+awElement("Storage", "", 200)+`]`, "Scrolled."),
				awStep(4, scroll, `[`+awElement("Battery", "", 200)+`]`, "Scrolled."),
			},
			told: false,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("episode.json", strings.NewReader(awEpisode(tt.steps...)))
			if err != nil {
				t.Fatal(err)
			}
			calls, notices := defaultNotices(t, tr.Agents[0])
			if calls != 4 || (len(notices) > 0) != tt.told {
				t.Errorf("%d calls, notices %q: want 4 calls, told %v", calls, notices, tt.told)
			}
		})
	}
}

// An episode is recognised by its task's name and goal beside the model's prompts, whatever
// the file's name; a document with a goal and no steps of an agent is not taken for one.
func TestAndroidWorldRecognisedByItsFields(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		want      bool
	}{
		{"ExpenseAddMultiple_base_trial2.json", awEpisode(), true},
		{"run.txt", awEpisode(), true},
		{"goals.json", `{"task_name": "ExpenseAddMultiple", "goal": "Add two expenses."}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom(tt.name, strings.NewReader(tt.doc))
			if got := err == nil && tr.Format == FormatAndroidWorld; got != tt.want {
				t.Errorf("read as AndroidWorld: %v (err %v), want %v", got, err, tt.want)
			}
		})
	}
}

// A damaged episode fails with the place named.
func TestAndroidWorldDamagedEpisodeNamesTheLine(t *testing.T) {
	doc := awEpisode(awStep(1, "Action: {\"action_type\": \"navigate_back\"}", "[]", "Back.")) + "\n"
	doc = strings.Replace(doc, `"step_records": [`, "\n\"step_records\": [\n  oops,", 1)
	_, err := ReadFrom("episode.json", strings.NewReader(doc))
	if err == nil || !strings.HasPrefix(err.Error(), "episode.json:3:") {
		t.Errorf("error %v, want one naming episode.json:3", err)
	}
}
