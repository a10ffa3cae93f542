package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// antigravitySteps is an Antigravity trajectory as exported one step a line (the shape of a
// real export on GitHub): a reply with two calls made together, their results in order, a
// call the harness could not parse, and a user's turn.
const antigravitySteps = `{"step_index":0,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","created_at":"2026-06-18T22:17:25Z","content":"<USER_REQUEST>\nset up the project\n</USER_REQUEST>"}
{"step_index":1,"source":"SYSTEM","type":"CONVERSATION_HISTORY","status":"DONE","created_at":"2026-06-18T22:17:39Z"}
{"step_index":2,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-06-18T22:17:40Z","content":"Let me look at the workspace.","thinking":"Start with the files.","tool_calls":[{"name":"list_dir","args":{"DirectoryPath":"\"d:\\\\Xeus\"","toolAction":"\"Listing workspace contents\"","toolSummary":"\"Workspace exploration\""}},{"name":"run_command","args":{"CommandLine":"\"git status\"","Cwd":"\"d:\\\\Xeus\"","WaitMsBeforeAsync":"5000"}}]}
{"step_index":3,"source":"MODEL","type":"LIST_DIRECTORY","status":"ERROR","created_at":"2026-06-18T22:17:51Z","content":"Created At: 2026-06-18T22:17:51Z\nCompleted At: 2026-06-18T22:18:02Z\nEncountered error in step execution: directory d:\\Xeus does not exist"}
{"step_index":4,"source":"MODEL","type":"RUN_COMMAND","status":"DONE","created_at":"2026-06-18T22:18:02Z","content":"Created At: 2026-06-18T22:18:02Z\nCompleted At: 2026-06-18T22:18:03Z\nThe command completed successfully.\nOutput:\nnothing to commit"}
{"step_index":5,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-06-18T22:18:04Z","tool_calls":[{"name":"view_file","args":{"AbsolutePath":"\"d:\\\\Xeus\\\\README.md\""}}]}
{"step_index":6,"source":"SYSTEM","type":"ERROR_MESSAGE","status":"DONE","created_at":"2026-06-18T22:18:05Z","error":"There was a problem parsing the tool call."}
{"step_index":7,"source":"SYSTEM","type":"SYSTEM_MESSAGE","status":"DONE","created_at":"2026-06-18T22:18:06Z","content":"The following is a <SYSTEM_MESSAGE> not actually sent by the user."}
{"step_index":8,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","created_at":"2026-06-18T22:19:00Z","content":"go on"}
`

func TestAntigravityStepsReadAsCallsPairedInOrder(t *testing.T) {
	tr, err := ReadFrom("trajectory.jsonl", strings.NewReader(antigravitySteps))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatAntigravity {
		t.Fatalf("read as %q", tr.Format)
	}
	got := describe(tr.Agents[0].Events)
	want := []string{
		`user "<USER_REQUEST>\nset up the projec…"`,
		`text[model] "Start with the files."`,
		`text[model] "Let me look at the workspace."`,
		`call list_dir "{\"DirectoryPath\":\"d:\\\\Xeus\"}" => "Encountered error in step execut…" FAILED`,
		`call run_command "{\"CommandLine\":\"git status\",\"Cwd…" => "The command completed successful…"`,
		`call view_file "{\"AbsolutePath\":\"d:\\\\Xeus\\\\READM…" => "There was a problem parsing the …" FAILED`,
		`text[harness] "The following is a <SYSTEM_MESSA…"`,
		`user "go on"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	calls := tr.Agents[0].Calls()
	if calls[0].Turn == "" || calls[0].Turn != calls[1].Turn || calls[2].Turn == calls[1].Turn {
		t.Errorf("replies %q %q %q: the first two calls are one reply, the third another", calls[0].Turn, calls[1].Turn, calls[2].Turn)
	}
}

func TestAntigravityCommandFailedReadsTheExitStatus(t *testing.T) {
	tests := []struct {
		name, result string
		want         bool
	}{
		{"a nonzero exit status is a failure", "\n\t\t\t\tThe command failed with exit code: 1\n\t\t\t\tOutput:\n\t\t\t\tnpm ERR!", true},
		{"a two-digit status too", "The command failed with exit code: 127\nOutput:\nsh: jest: not found", true},
		{"a command that completed is not", "The command completed successfully.\nOutput:\nok", false},
		{"the phrase inside the output is not the tool's verdict", "The command completed successfully.\nOutput:\nThe command failed with exit code: 1", false},
		{"a status of 0 is not a failure", "The command failed with exit code: 0", false},
		{"2026's wording", "The command exited with code 2.\nOutput:\nFAIL src/a.test.ts", true},
		{"2026's wording, a status of 0", "The command exited with code 0.\nOutput:\nok", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := antigravityCommandFailed(tt.result); got != tt.want {
				t.Errorf("antigravityCommandFailed(%q) = %v, want %v", tt.result, got, tt.want)
			}
		})
	}
}

// A step the export wrote twice, byte for byte, is one step (validation round r101a U2).
func TestAntigravityStepWrittenTwiceIsOneStep(t *testing.T) {
	lines := strings.SplitAfter(antigravitySteps, "\n")
	twice := strings.Join(lines[:5], "") + lines[2] + lines[3] + lines[4] + strings.Join(lines[5:], "")
	once, err := ReadFrom("trajectory.jsonl", strings.NewReader(antigravitySteps))
	if err != nil {
		t.Fatal(err)
	}
	again, err := ReadFrom("trajectory.jsonl", strings.NewReader(twice))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := describe(again.Agents[0].Events), describe(once.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("steps written twice:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A command run in the background answers only that it runs; the harness's message that its
// task finished carries its outcome, which becomes the call's answer. The model's own text
// saying so is not read (validation round r174a R2: five failing builds read as running).
func TestAntigravityBackgroundTaskOutcomeAnswersItsCall(t *testing.T) {
	const steps = `{"step_index":0,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","created_at":"2026-06-18T22:17:25Z","content":"build it"}
{"step_index":1,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-06-18T22:17:40Z","tool_calls":[{"name":"run_command","args":{"CommandLine":"\"npm run build\"","WaitMsBeforeAsync":"500"}}]}
{"step_index":2,"source":"MODEL","type":"RUN_COMMAND","status":"RUNNING","created_at":"2026-06-18T22:17:41Z","content":"Created At: 2026-06-18T22:17:41Z\nTool is running as a background task with task id: e951/task-2\nTask Description: npm run build\nTask logs are available at: file:///C:/logs/task-2.log"}
{"step_index":3,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-06-18T22:17:50Z","content":"<SYSTEM_MESSAGE>Task id \"e951/task-2\" finished with result: The command completed successfully.</SYSTEM_MESSAGE>"}
{"step_index":4,"source":"SYSTEM","type":"SYSTEM_MESSAGE","status":"DONE","created_at":"2026-06-18T22:18:06Z","content":"The following is a <SYSTEM_MESSAGE> not actually sent by the user.\n\n<SYSTEM_MESSAGE>\n[Message] sender=e951/task-2 content=Task id \"e951/task-2\" finished with result:\n\n\t\t\t\tThe command failed with exit code: 1\n\t\t\t\tOutput:\n\t\t\t\tType error: No overload matches this call.\n\n\nLog: file:///C:/logs/task-2.log\n</SYSTEM_MESSAGE>"}
`
	tr, err := ReadFrom("trajectory.jsonl", strings.NewReader(steps))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 {
		t.Fatalf("read %d calls, want 1", len(calls))
	}
	want := "The command failed with exit code: 1\nOutput:\nType error: No overload matches this call."
	if calls[0].Result != want || !calls[0].Failed {
		t.Errorf("the build's answer %q (failed %v), want %q, failed", calls[0].Result, calls[0].Failed, want)
	}
}

// The export may write a call's result before the reply that made the call; the steps are
// read by their index, so each call still gets its own result.
func TestAntigravityResultWrittenBeforeItsReplyAnswersItsCall(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(antigravitySteps, "\n"), "\n")
	// the reply of two calls (index 2) written after the first call's result (index 3)
	lines[2], lines[3] = lines[3], lines[2]
	tr, err := ReadFrom("trajectory.jsonl", strings.NewReader(strings.Join(lines, "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	inOrder, err := ReadFrom("trajectory.jsonl", strings.NewReader(antigravitySteps))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := describe(tr.Agents[0].Events), describe(inOrder.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant, as the steps in order give them:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
