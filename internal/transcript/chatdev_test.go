package transcript

import (
	"bufio"
	"strings"
	"testing"
	"time"
)

// chatdevRun is a ChatDev log in the layout of OpenBMB/ChatDev's WareHouse logs, cut down: a
// task, the Programmer's code written, and a test cycle in which the software fails, is
// changed in another file, and fails the same way.
const chatdevRun = `[2024-22-12 13:08:01 INFO] **[Preprocessing]**

**ChatDev Starts** (20241222130801)

**task_prompt**: Simple to-do app

**project_name**: Task Manager

[2024-22-12 13:08:01 INFO] System: **[chatting]**

| Parameter | Value |
| --- | --- |
| **task_prompt** | Simple to-do app |

[2024-22-12 13:08:30 INFO] Programmer: **Programmer<->Chief Technology Officer on : Coding, turn 0**

[ChatDev is a software company powered by multiple intelligent agents.
You are Chief Technology Officer. we are both working at ChatDev.]

main.py
` + "```python" + `
from app import TodoApp
` + "```" + `

[2024-22-12 13:08:31 INFO] **[Update Codes]**

main.py updated.


` + "```" + `
--- Old
+++ New
@@ -1 +1 @@
-# None
+from app import TodoApp
` + "```" + `

[2024-22-12 13:09:20 INFO] **[Test Reports]**:

Traceback (most recent call last):
  File "main.py", line 1, in <module>
NameError: name 'save_tasks' is not defined


[2024-22-12 13:09:23 INFO] **[Test Reports]**:

Traceback (most recent call last):
  File "main.py", line 1, in <module>
NameError: name 'save_tasks' is not defined

[2024-22-12 13:09:23 INFO] System: **[chatting]**

| Parameter | Value |
| --- | --- |

[2024-22-12 13:09:28 INFO] Software Test Engineer: **Software Test Engineer<->Programmer on : TestErrorSummary, turn 0**

[ChatDev is a software company powered by multiple intelligent agents.
You are Programmer.]

The error is that save_tasks is not defined in app.py.

[2024-22-12 13:09:36 INFO] **[Update Codes]**

tasks.py updated.

` + "```" + `
+def save_tasks(tasks): pass
` + "```" + `

[2024-22-12 13:09:39 INFO] **[Test Reports]**:

Traceback (most recent call last):
  File "main.py", line 1, in <module>
NameError: name 'save_tasks' is not defined

[2024-22-12 13:10:02 INFO] **[Test Reports]**:

The software run successfully without errors.

[2024-22-12 13:10:02 INFO] **[User Provided Comments]**

 In the #1 of total 5 comments: 

Please add a restart button.

[2024-22-12 13:10:03 INFO] **[Seminar Conclusion]**:

 Finished
`

// A ChatDev log is read as its roles: the task and a person's comments are the Programmer's
// turns, the code ChatDev writes and the runs of the software are the Programmer's calls
// (failed unless ChatDev says the run raised nothing; ChatDev's second run of a step, the
// same report with nothing between, is no call of its own), and each role's message, its
// prompt left out, is that role's words.
func TestChatDevReadsRolesWritesAndRuns(t *testing.T) {
	tr := expectEvents(t, "Task Manager.log", chatdevRun, FormatChatDev, []string{
		`user "Simple to-do app"`,
		"text[model] \"main.py\\n```python\\nfrom app impor…\"",
		"call write_file \"{\\\"path\\\":\\\"main.py\\\"}\" => \"```\\n--- Old\\n+++ New\\n@@ -1 +1 @@\\n…\"",
		`call run_software "" => "Traceback (most recent call last…" FAILED`,
		"call write_file \"{\\\"path\\\":\\\"tasks.py\\\"}\" => \"```\\n+def save_tasks(tasks): pass…\"",
		`call run_software "" => "Traceback (most recent call last…" FAILED`,
		`call run_software "" => "The software run successfully wi…"`,
		`user "Please add a restart button."`,
	})
	var tester []string
	for _, a := range tr.Agents {
		if a.ID == "Software Test Engineer" {
			tester = describe(a.Events)
		}
	}
	if want := []string{`text[model] "The error is that save_tasks is …"`}; strings.Join(tester, "\n") != strings.Join(want, "\n") {
		t.Errorf("the tester's events %q, want %q", tester, want)
	}
	if got, want := tr.Agents[0].Events[0].Time, time.Date(2024, 12, 22, 13, 8, 1, 0, time.UTC).UnixMilli(); got != want {
		t.Errorf("the task's time %d, want %d (2024-22-12 is the 22nd of December)", got, want)
	}
}

// A log that opens with a bracketed time is ChatDev's only with ChatDev's preprocessing and
// banner: another program's log is no transcript.
func TestChatDevHeadNeedsItsBanner(t *testing.T) {
	for _, tt := range []struct {
		head string
		want bool
	}{
		{chatdevRun, true},
		{"[2024-22-12 13:08:01 INFO] **[Preprocessing]**\n\nstarting\n", false},
		{"[2024-12-22 13:08:01 INFO] server started\n**ChatDev Starts**\n", false},
		{"[2024-22-12 13:08:01 INFO] **[Preprocessing]**", false},
	} {
		if got := isChatDevHead([]byte(tt.head)); got != tt.want {
			t.Errorf("isChatDevHead(%.50q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func FuzzChatDev(f *testing.F) {
	f.Add([]byte(chatdevRun))
	f.Add([]byte("[2024-22-12 13:08:01 INFO] **[Preprocessing]**\n**ChatDev Starts**\n[2024-99-99 99:08:01 INFO] **[Update Codes]**\n\n[2024-22-12 13:08:01 INFO] A: **A<->B on : X, turn 0**\n[unclosed"))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readChatDev(name, br) })
}
