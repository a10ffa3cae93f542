package transcript

import (
	"bufio"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// AndroidWorld (the benchmark of agents driving Android apps on an emulator) gives its
// text-based agents (T3A, and M3A, which adds screenshots) a record of each step they take,
// their step data: the UI element list before and after the action, the model's reply
// (action_output: "Reason: ...\nAction: {"action_type": "click", "index": 4}") and the model's
// own summary of what the step did. A harness that saves an episode as JSON keeps it in the
// episode's step_records, beside the task's name and goal:
//
//	{"task_name": "SystemBrightnessMin", "goal": "Turn brightness to the min value.",
//	 "model_name": ..., "prompts": [...], "responses": [...], "actions": [...],
//	 "step_records": [{"step_num": 1, "action": ..., "agent_data": {"action_output": ...,
//	   "before_element_list": [...], "after_element_list": [...], "summary": ...}}]}
//
//   - the goal is the user's turn;
//   - each step is the model's reply: its Reason is the model's words, its Action the call
//     named by action_type (click, scroll, input_text, navigate_back, open_app, status...),
//     its arguments the rest of the action object as written;
//   - the result is the screen the action left: the after_element_list, one line an element
//     (its text, description, class, resource name, states and place on the screen, in the
//     list's order, which is how the agent's next action numbers them). The status bar's
//     indicators (clock, date, battery, signal) are left out: they change on their own, and
//     a click that did nothing would otherwise seem to have changed the screen when the
//     phone lost a bar of signal;
//   - a step without an element list after it did not run: T3A records why in the summary
//     ("Can not parse the output to a valid action...", "The parameter index is out of
//     range..."), which is the call's failed result, or the agent ended the episode (a status
//     or answer action: the summary is the result);
//   - a reply whose Action cannot be read is the call "action" on its text, failed.
//
// The summary of a step that ran is the model's reflection, asked for by the agent after the
// step; it is not the screen, and is not read. The prompts, screenshots and accessibility
// trees (state) are the harness's and are not read either.

type androidWorldEpisode struct {
	Goal  string             `json:"goal"`
	Steps []androidWorldStep `json:"step_records"`
}

type androidWorldStep struct {
	Data struct {
		ActionOutput string          `json:"action_output"`
		After        json.RawMessage `json:"after_element_list"`
		Summary      string          `json:"summary"`
	} `json:"agent_data"`
}

// androidWorldElement is what an element of the UI list says of the screen.
type androidWorldElement struct {
	Text        *string `json:"text"`
	Description *string `json:"content_description"`
	Class       string  `json:"class_name"`
	Resource    *string `json:"resource_name"`
	Hint        *string `json:"hint_text"`
	Checked     bool    `json:"is_checked"`
	Selected    bool    `json:"is_selected"`
	Focused     bool    `json:"is_focused"`
	Enabled     *bool   `json:"is_enabled"`
	Box         *struct {
		XMin json.Number `json:"x_min"`
		XMax json.Number `json:"x_max"`
		YMin json.Number `json:"y_min"`
		YMax json.Number `json:"y_max"`
	} `json:"bbox_pixels"`
}

// isAndroidWorldHead says whether a document's top-level keys are an AndroidWorld episode's:
// the task's name and goal, with its steps or the model's replies. The steps come after
// every prompt of the episode, past the head of a long one.
func isAndroidWorldHead(has func(string) bool) bool {
	return has("task_name") && has("goal") &&
		(has("step_records") || has("prompts") || has("responses") || has("actions"))
}

func readAndroidWorld(name string, br *bufio.Reader, hint int64) (*built, error) {
	ep, err := decodeDocument[androidWorldEpisode](name, br, hint, "AndroidWorld episode")
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatAndroidWorld)
	a := b.agent(MainAgent)
	if strings.TrimSpace(ep.Goal) != "" {
		a.user(ep.Goal, 0)
	}
	for i, step := range ep.Steps {
		reason, action := androidWorldReply(step.Data.ActionOutput)
		a.text("model", reason, "", 0)
		tool, args, readable := androidWorldAction(action)
		call := loopguard.Call("", tool, args)
		call.Turn = "step " + strconv.Itoa(i+1)
		after := bytesTrimSpace(step.Data.After)
		switch {
		case len(after) > 0 && string(after) != "null":
			call = call.WithResult(androidWorldScreen(after), false)
		case strings.TrimSpace(step.Data.Summary) != "":
			ended := readable && (tool == "status" || tool == "answer")
			call = call.WithResult(step.Data.Summary, !ended)
		case !readable:
			call = call.WithResult("the reply's action could not be read", true)
		}
		a.add(call)
	}
	return b.done(), nil
}

// androidWorldReply splits a T3A/M3A reply into its Reason and its Action; a reply without
// "Action:" is all reason, and its action empty.
func androidWorldReply(out string) (reason, action string) {
	i := strings.LastIndex(out, "Action:")
	if i < 0 {
		return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(out), "Reason:")), ""
	}
	reason = strings.TrimSpace(out[:i])
	reason = strings.TrimSpace(strings.TrimPrefix(reason, "Reason:"))
	return reason, strings.TrimSpace(out[i+len("Action:"):])
}

// androidWorldAction reads an action object as a call: the tool its action_type, the
// arguments the rest as written. readable is false when the text is no such object: the call
// "action" on the text.
func androidWorldAction(action string) (tool string, args []byte, readable bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(action), &obj) != nil || rawString(obj["action_type"]) == "" {
		return "action", []byte(action), false
	}
	tool = rawString(obj["action_type"])
	delete(obj, "action_type")
	if len(obj) == 0 {
		return tool, nil, true
	}
	return tool, marshalArgs(obj), true
}

// androidWorldStatusBar names the status bar's indicators: they change with the time, the
// battery and the signal, whatever the agent does.
var androidWorldStatusBar = map[string]bool{
	"com.android.systemui:id/clock":                true,
	"com.android.systemui:id/date":                 true,
	"com.android.systemui:id/battery":              true,
	"com.android.systemui:id/batteryRemainingIcon": true,
	"com.android.systemui:id/wifi_combo":           true,
	"com.android.systemui:id/mobile_combo":         true,
	"com.android.systemui:id/mobile_type":          true,
}

// androidWorldScreen writes an element list as the screen it shows, one line an element; a
// list that is not one of elements is its JSON as written.
func androidWorldScreen(raw json.RawMessage) string {
	var elems []androidWorldElement
	if json.Unmarshal(raw, &elems) != nil {
		return string(rawArgs(raw))
	}
	if len(elems) == 0 {
		return "(no UI elements)"
	}
	var sb strings.Builder
	for i, e := range elems {
		if e.Resource != nil && androidWorldStatusBar[*e.Resource] {
			continue
		}
		sb.WriteString(strconv.Itoa(i))
		sb.WriteString(":")
		field := func(label string, v *string) {
			if v != nil && *v != "" {
				sb.WriteString(" " + label + "=" + strconv.Quote(*v))
			}
		}
		field("text", e.Text)
		field("desc", e.Description)
		if e.Class != "" {
			sb.WriteString(" " + e.Class[strings.LastIndexByte(e.Class, '.')+1:])
		}
		field("id", e.Resource)
		field("hint", e.Hint)
		for _, s := range []struct {
			on   bool
			name string
		}{{e.Checked, "checked"}, {e.Selected, "selected"}, {e.Focused, "focused"}, {e.Enabled != nil && !*e.Enabled, "disabled"}} {
			if s.on {
				sb.WriteString(" " + s.name)
			}
		}
		if e.Box != nil {
			sb.WriteString(" [" + string(e.Box.XMin) + "," + string(e.Box.YMin) + "," + string(e.Box.XMax) + "," + string(e.Box.YMax) + "]")
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
