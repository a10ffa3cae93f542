package transcript

import (
	"strings"
	"testing"
)

// OSWorld's traj.jsonl, in the layout its runner writes (lib_run_single.py), written for these
// tests: one executed action a line, what ran as pyautogui code, a special action or an
// object, and the step's record after it.
func TestOSWorldStepsAreCallsWithWhatTheStepRecorded(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		want      []string
	}{
		{
			name: "pyautogui code and the special actions",
			doc: `{"step_num": 1, "action_timestamp": "20250828@211645", "action": "pyautogui.hotkey(\"ctrl\",\"l\"); pyautogui.press(\"enter\")", "response": "goto_url:gimp", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_1_20250828@211645.png"}
{"step_num": 2, "action_timestamp": "20250828@211650", "action": "FAIL", "response": "The task cannot be done.", "reward": 0, "done": true, "info": {"fail": true}, "screenshot_file": "step_2_20250828@211650.png"}
`,
			want: []string{
				`text[model] "goto_url:gimp"`,
				`call pyautogui "pyautogui.hotkey(\"ctrl\",\"l\"); py…" => "reward: 0, done: false\n[screensh…"`,
				`text[model] "The task cannot be done."`,
				// FAIL is the agent's verdict on the task: the call ran.
				`call FAIL "" => "reward: 0, done: true, info: {\"f…"`,
			},
		},
		{
			name: "the agent's note that its click failed, WAIT run in its place",
			doc: `{"step_num": 7, "action_timestamp": "20250828@211742", "action": "WAIT", "response": "click(failed):1: Image menu", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_7_20250828@211742.png"}
{"step_num": 8, "action_timestamp": "20250828@211744", "action": "WAIT", "response": "click(failed):Image menu", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_8_20250828@211744.png"}
{"step_num": 9, "action_timestamp": "20250828@211746", "action": "WAIT", "response": "The page is loading.", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_9_20250828@211746.png"}
`,
			want: []string{
				`call click "1: Image menu" => "click(failed):1: Image menu" FAILED`,
				`call click "Image menu" => "click(failed):Image menu" FAILED`,
				`text[model] "The page is loading."`,
				`call WAIT "" => "reward: 0, done: false\n[screensh…"`,
			},
		},
		{
			name: "a bare click after a move in the same step is one action, clicking where the move went (r180b G2)",
			doc: `{"step_num": 9, "action_timestamp": "20250226@160305", "action": "import pyautogui; pyautogui.moveTo(546, 364)", "response": "Open the settings.", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_9_a.png"}
{"step_num": 9, "action_timestamp": "20250226@160306", "action": "import pyautogui; pyautogui.click()", "response": "Open the settings.", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_9_b.png"}
{"step_num": 10, "action_timestamp": "20250226@160310", "action": "import pyautogui; pyautogui.moveTo(80, 120)", "response": "Now the menu.", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_10_a.png"}
{"step_num": 10, "action_timestamp": "20250226@160311", "action": "import pyautogui; pyautogui.click()", "response": "Now the menu.", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_10_b.png"}
{"step_num": 11, "action_timestamp": "20250226@160315", "action": "import pyautogui; pyautogui.click()", "response": "Again.", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_11.png"}
`,
			want: []string{
				`text[model] "Open the settings."`,
				`call pyautogui "import pyautogui; pyautogui.move…" => "reward: 0, done: false\n[screensh…"`,
				`text[model] "Now the menu."`,
				`call pyautogui "import pyautogui; pyautogui.move…" => "reward: 0, done: false\n[screensh…"`,
				`text[model] "Again."`,
				`call pyautogui "import pyautogui; pyautogui.clic…" => "reward: 0, done: false\n[screensh…"`,
			},
		},
		{
			name: "an error field, and the runner's error line ending the run",
			doc: `{"step_num": 1, "action_timestamp": "20250828@211645", "action": "pyautogui.click(10, 20)", "response": "click the icon", "reward": 0, "done": false, "info": {}, "error": "VM not responding", "screenshot_file": "step_1_20250828@211645.png"}
{"Error": "Time limit exceeded in gimp/045bf3ff"}
`,
			want: []string{
				`text[model] "click the icon"`,
				`call pyautogui "pyautogui.click(10, 20)" => "VM not responding" FAILED`,
				`text[harness] "Time limit exceeded in gimp/045b…"`,
			},
		},
		{
			name: "an action object: its action_type, its raw_response the model's words",
			doc: `{"step_num": 1, "action_timestamp": "20250901@101010", "action": {"action_type": "left_click", "command": "computer.left_click(512, 384)", "raw_response": "I will open the menu."}, "reward": 0, "done": false, "info": {}, "screenshot_file": "step_1_20250901@101010.png"}
{"step_num": 2, "action_timestamp": "20250901@101012", "action": {"action_type": "CLICK", "x": 512, "y": 384}, "response": "", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_2_20250901@101012.png"}
`,
			want: []string{
				`text[model] "I will open the menu."`,
				`call left_click "{\"action_type\":\"left_click\",\"com…" => "reward: 0, done: false\n[screensh…"`,
				`call CLICK "{\"action_type\":\"CLICK\",\"x\":512,\"…" => "reward: 0, done: false\n[screensh…"`,
			},
		},
		{
			// OSWorld-Verified's UI-TARS and Doubao runs write the model's thought as a
			// string standing alone before the code: it does nothing when the code runs, and
			// the same click with its thought reworded is the same click (validation round
			// r147c U2). A string passed to a call is code and stays.
			name: "a thought in a bare triple-quoted string is the model's words, not the call's",
			doc: `{"step_num": 1, "action_timestamp": "20250901@101010", "action": "import pyautogui\nimport time\n'''\nObservation:\n\nThought:\nThe colour is wrong; pick it again.\n'''\n\npyautogui.click(768.0, 536.76, button='left')", "response": "", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_1.png"}
{"step_num": 2, "action_timestamp": "20250901@101012", "action": "pyautogui.write(\"\"\"two\nlines\"\"\")", "response": "type it", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_2.png"}
`,
			want: []string{
				`text[model] "Observation:\n\nThought:\nThe colou…"`,
				`call pyautogui "import pyautogui\nimport time\n\npy…" => "reward: 0, done: false\n[screensh…"`,
				`text[model] "type it"`,
				`call pyautogui "pyautogui.write(\"\"\"two\nlines\"\"\")" => "reward: 0, done: false\n[screensh…"`,
			},
		},
		{
			// A comment and a pause do nothing the runner does not: the comment is the
			// model's words, and a pause between GUI actions makes no action a wait; code that
			// only pauses is one (validation round r148a U1, U2).
			name: "comments are the model's words, pauses beside actions are left out",
			doc: `{"step_num": 1, "action_timestamp": "20250130@101010", "action": "import pyautogui\nimport time\n\n# Click on the \"Data\" menu\npyautogui.click(x=667, y=85)  # the menu bar\ntime.sleep(1)\npyautogui.write('#1 item')", "response": "", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_1.png"}
{"step_num": 2, "action_timestamp": "20250130@101012", "action": "import time\ntime.sleep(5)", "response": "Wait for it to load.", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_2.png"}
`,
			want: []string{
				`text[model] "Click on the \"Data\" menu\nthe men…"`,
				`call pyautogui "import pyautogui\nimport time\npya…" => "reward: 0, done: false\n[screensh…"`,
				`text[model] "Wait for it to load."`,
				`call pyautogui "import time\ntime.sleep(5)" => "reward: 0, done: false\n[screensh…"`,
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			expectEvents(t, "traj.jsonl", tt.doc, FormatOSWorld, tt.want)
		})
	}
}

// The actions of one prediction share its step_num and its response: one reply, its words
// given once.
func TestOSWorldActionsOfOnePredictionAreOneReply(t *testing.T) {
	doc := `{"step_num": 3, "action_timestamp": "20250828@211700", "action": "pyautogui.click(100, 200)", "response": "Open File, then Save.", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_3_20250828@211700.png"}
{"step_num": 3, "action_timestamp": "20250828@211702", "action": "pyautogui.click(100, 260)", "response": "Open File, then Save.", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_3_20250828@211702.png"}
{"step_num": 4, "action_timestamp": "20250828@211704", "action": "DONE", "response": "Open File, then Save.", "reward": 1, "done": true, "info": {"done": true}, "screenshot_file": "step_4_20250828@211704.png"}
`
	tr := expectEvents(t, "run.jsonl", doc, FormatOSWorld, []string{
		`text[model] "Open File, then Save."`,
		`call pyautogui "pyautogui.click(100, 200)" => "reward: 0, done: false\n[screensh…"`,
		`call pyautogui "pyautogui.click(100, 260)" => "reward: 0, done: false\n[screensh…"`,
		`text[model] "Open File, then Save."`,
		`call DONE "" => "reward: 1, done: true, info: {\"d…"`,
	})
	calls := tr.Agents[0].Calls()
	if calls[0].Turn == "" || calls[0].Turn != calls[1].Turn || calls[1].Turn == calls[2].Turn {
		t.Errorf("turns %q %q %q: want the first two in one reply", calls[0].Turn, calls[1].Turn, calls[2].Turn)
	}
}

// OSWorld's steps are recognised by their fields whatever the file's name, and a JSONL file
// of other records with an "action" is not taken for them.
func TestOSWorldRecognisedByItsFields(t *testing.T) {
	step := `{"step_num": 1, "action_timestamp": "20250828@211645", "action": "WAIT", "response": "", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_1_20250828@211645.png"}` + "\n"
	for _, tt := range []struct {
		name, doc string
		osworld   bool
	}{
		{"traj.jsonl", step + step, true},
		{"copy-of-run.txt", step, true},
		{"metrics.jsonl", `{"step": 1, "action": "click", "loss": 0.1}` + "\n" + `{"step": 2, "action": "type", "loss": 0.2}` + "\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom(tt.name, strings.NewReader(tt.doc))
			if got := err == nil && tr.Format == FormatOSWorld; got != tt.osworld {
				t.Errorf("read as OSWorld: %v (err %v), want %v", got, err, tt.osworld)
			}
		})
	}
}

// The same click failing again and again, as a GIMP run's agent failed to find the Image
// menu, is told; the same WAIT read as a wait would have been a poll.
func TestOSWorldFailingClicksAreTold(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 5; i++ {
		b.WriteString(`{"step_num": ` + string(rune('0'+i)) + `, "action_timestamp": "20250828@21174` + string(rune('0'+i)) + `", "action": "WAIT", "response": "click(failed):1: Image menu", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_` + string(rune('0'+i)) + `.png"}` + "\n")
	}
	tr, err := ReadFrom("traj.jsonl", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if calls, notices := defaultNotices(t, tr.Agents[0]); calls != 5 || len(notices) == 0 {
		t.Errorf("%d calls, notices %q: want 5 calls and a notice", calls, notices)
	}
}

// A line that is JSON but not an object of the format fails the file, naming its line.
func TestOSWorldBadLineNamed(t *testing.T) {
	doc := `{"step_num": 1, "action_timestamp": "t", "action": "WAIT", "screenshot_file": "s.png"}
[1, 2]
`
	_, err := ReadFrom("traj.jsonl", strings.NewReader(doc))
	if err == nil || !strings.HasPrefix(err.Error(), "traj.jsonl:2:") {
		t.Errorf("error %v, want one naming traj.jsonl:2", err)
	}
}

// What an action's code keeps of itself: its statements, not its comments (a '#' in a string
// is text), nor its pauses beside other actions; a pause alone is a wait and stays.
func TestOSWorldCodeWithoutCommentsAndPauses(t *testing.T) {
	for _, tt := range []struct{ code, kept, words string }{
		{"import pyautogui\n# open it\npyautogui.click(1, 2)  # the icon\ntime.sleep(0.5)", "import pyautogui\npyautogui.click(1, 2)", "open it\nthe icon"},
		{"pyautogui.write('#1 \\'x\\' # y')\nsleep(2)", "pyautogui.write('#1 \\'x\\' # y')", ""},
		{"import time\ntime.sleep(5)", "import time\ntime.sleep(5)", ""},
		{"pyautogui.press('enter')", "pyautogui.press('enter')", ""},
	} {
		kept, words := withoutCommentsAndPauses(tt.code)
		if kept != tt.kept || words != tt.words {
			t.Errorf("%q:\nkept %q, words %q\nwant %q, %q", tt.code, kept, words, tt.kept, tt.words)
		}
	}
}

// The click folded into the move before it keeps both: the place, and what was done there,
// with the step's last record as its answer (r180b G2).
func TestOSWorldClickAfterAMoveKeepsThePlace(t *testing.T) {
	doc := `{"step_num": 9, "action_timestamp": "20250226@160305", "action": "import pyautogui; pyautogui.moveTo(546, 364)", "response": "Open it.", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_9_a.png"}
{"step_num": 9, "action_timestamp": "20250226@160306", "action": "import pyautogui; pyautogui.doubleClick()", "response": "Open it.", "reward": 0, "done": false, "info": {}, "screenshot_file": "step_9_b.png"}
`
	tr, err := ReadFrom("traj.jsonl", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || string(calls[0].Args) != "import pyautogui; pyautogui.moveTo(546, 364)\nimport pyautogui; pyautogui.doubleClick()" ||
		!strings.Contains(calls[0].Result, "step_9_b.png") {
		t.Fatalf("calls %+v, want one: the move and the double click, answered by the step's last record", calls)
	}
}
