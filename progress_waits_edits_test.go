package loopguard

// Waits and rejected edits: the idle poll rule and the rejected-edits-of-one-file chain, on
// the cases a review of them (validation round r36a) found wanting, each first written as a
// failing test.

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Claude Code's TaskOutput blocks by default: its "block" parameter defaults to true and its
// "timeout" to 30000 ms, so a call naming only the task waits up to 30 s server-side before it
// answers. Eleven such calls answered the same took five minutes; they are a backoff, not
// checks made again at once, and are left to the poll budget (31st).
func TestTaskOutputBlocksByDefault(t *testing.T) {
	timedOut := "<retrieval_status>timeout</retrieval_status>\n\n<task_id>b7x2k</task_id>\n\n<task_type>local_bash</task_type>\n\n<status>running</status>"
	steps := times(14, func(int) step {
		return ok("TaskOutput", `{"task_id":"b7x2k"}`, timedOut)
	})
	if got := progressRun(t, defaultProgress(nil), steps); len(got) != 0 {
		t.Errorf("TaskOutput with its default block=true, 14 waits of 30 s: got %q, want no notice before the poll budget", got)
	}
}

// The idle-poll rule's own example: a Claude Code subagent reading a background job's output
// again and again. BashOutput returns only what is new since the last read, so the first read
// shows the job's first lines and every later read shows the status alone: the reads after
// the first are told at the 11th identical one.
func TestBashOutputIdleAfterAFirstReadWithOutput(t *testing.T) {
	first := "<status>running</status>\n\n<stdout>\n> vite build\n</stdout>\n\n<timestamp>2025-12-01T04:50:00.564Z</timestamp>"
	steps := []step{ok("BashOutput", `{"bash_id":"b2f8b9"}`, first)}
	for i := 1; i <= 14; i++ {
		steps = append(steps, ok("BashOutput", `{"bash_id":"b2f8b9"}`, fmt.Sprintf("<status>running</status>\n\n<timestamp>2025-12-01T04:50:%02d.564Z</timestamp>", 3*i)))
	}
	got := progressRun(t, defaultProgress(nil), steps)
	// reads 2..15 are the same answer; the 11th of them is step 11
	if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, ":poll:") }) {
		t.Errorf("14 reads answered exactly the same at once after a first read with output: got %q, want the idle poll notice", got)
	}
}

// argsWait reads all the keys before it decides: a non-blocking TaskOutput whose "timeout"
// comes before "block": false answers at once (timeout is used only when block is true).
func TestArgsWaitDoesNotDependOnKeyOrder(t *testing.T) {
	a := argsWait([]byte(`{"task_id":"t1","block":false,"timeout":30000}`), false)
	b := argsWait([]byte(`{"task_id":"t1","timeout":30000,"block":false}`), false)
	if a != b {
		t.Errorf("the same arguments in another order: argsWait %v, then %v", a, b)
	}
	// and a key that only begins with "block" ends the look before the real timeout
	if !argsWait([]byte(`{"blockId":"x","timeout":30000}`), false) {
		t.Errorf(`{"blockId":"x","timeout":30000}: the timeout is not read`)
	}
}

// A Codex patch sent as a custom tool's raw input is not JSON: its code lines hold quotes as
// written: a patch whose code holds `"path": "..."` (a Python dict, a JSON config) is keyed by
// the file its header updates, not by that string.
func TestEditFileKeyOfARawPatchIsItsHeadersNotAPathInItsCode(t *testing.T) {
	plain := "*** Begin Patch\n*** Update File: src/app.py\n@@\n-    return total\n+    return total or 0\n*** End Patch"
	withDict := "*** Begin Patch\n*** Update File: src/app.py\n@@ def load(cfg):\n-    return {\"path\": \"data/in.csv\", \"mode\": 1}\n+    return {\"path\": \"data/in.csv\", \"mode\": 2}\n*** End Patch"
	other := "*** Begin Patch\n*** Update File: src/other.py\n@@\n-    x = {\"path\": \"data/in.csv\"}\n+    x = {\"path\": \"data/in.csv\", \"n\": 1}\n*** End Patch"
	k1, _ := editFileKey([]byte(plain))
	k2, _ := editFileKey([]byte(withDict))
	k3, _ := editFileKey([]byte(other))
	if k1 != k2 {
		t.Errorf("two patches of src/app.py, one with a \"path\" key in its code: keys %x, %x", k1, k2)
	}
	if k2 == k3 {
		t.Errorf("patches of src/app.py and src/other.py are keyed as one file (%x)", k2)
	}
}

// The same through the engine: four patches of one file rejected for reasons that change are
// an edit loop, though two of them touch a line with a "path" key.
func TestRawPatchesOfOneFileRejectedWithAPathInTheirCodeAreAnEditLoop(t *testing.T) {
	errs := []string{
		"apply_patch verification failed: Failed to find expected lines in src/app.py:\n    return total",
		"apply_patch verification failed: invalid hunk at line 3, Expected update hunk to start with a @@ context marker",
		"apply_patch verification failed: Failed to find context 'def handler(' in src/app.py",
		"apply_patch verification failed: patch is empty",
	}
	steps := times(4, func(i int) step {
		body := fmt.Sprintf("-total_%d\n+total", i)
		if i%2 == 1 {
			body = fmt.Sprintf("-    return {\"path\": \"data/in_%d.csv\"}\n+    return {\"path\": \"data/in.csv\"}", i)
		}
		return fail("apply_patch", "*** Begin Patch\n*** Update File: src/app.py\n@@\n"+body+"\n*** End Patch", errs[i])
	})
	got := progressRun(t, defaultProgress(nil), steps)
	if !slices.Equal(got, []string{"3:errors:apply_patch failed × 4"}) {
		t.Errorf("got %q, want the edit loop told at the 4th", got)
	}
}

// A chain that merged two rejections of a.py by their file alone does not go on to b.py and
// c.py by the first line of their errors: these four edits are told nothing, and never as
// "edits of the same file".
func TestEditsRejectedNoticeIsNeverGivenForEditsOfSeveralFiles(t *testing.T) {
	notFound := func(s string) string {
		return "<tool_use_error>String to replace not found in file.\nString: " + s + "</tool_use_error>"
	}
	steps := []step{
		fail("Edit", `{"file_path":"/w/a.py","old_string":"return x","new_string":"return y"}`, notFound("return x")),
		fail("Edit", `{"file_path":"/w/a.py","old_string":"return","new_string":"return y"}`, "<tool_use_error>Found 2 matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: return</tool_use_error>"),
		fail("Edit", `{"file_path":"/w/b.py","old_string":"def f(a)","new_string":"def f(a, b)"}`, notFound("def f(a)")),
		fail("Edit", `{"file_path":"/w/c.py","old_string":"import os","new_string":"import os, sys"}`, notFound("import os")),
	}
	e, _ := New(defaultProgress(nil))
	var texts []string
	for _, s := range steps {
		for _, n := range e.Observe(Call("a", s.tool, []byte(s.args)).WithResult(s.result, s.failed)) {
			texts = append(texts, n.Text)
		}
	}
	for _, tx := range texts {
		if strings.Contains(tx, "edits of the same file") {
			t.Errorf("edits of a.py, b.py and c.py told as edits of the same file: %q", tx)
		}
	}
}

// Snapshot round trip of the new state (pollPaused, lastPause, chain file and mixed): a hook
// that restores the agent for each event must tell what a long-lived engine tells.
func TestSnapshotKeepsIdlePollAndEditLoopState(t *testing.T) {
	told := false
	var evs []Event
	for i := range 4 {
		evs = append(evs, Call("a", "str_replace_editor", []byte(fmt.Sprintf(`{"command":"str_replace","path":"/w/m.c","old_str":"%c","new_str":"q"}`, 'a'+i))).
			WithResult("ERROR:\n"+rejections[i], false))
	}
	evs = append(evs, Call("a", "grep", []byte(`{"pattern":"x"}`)).WithResult("a.go:1: x", false))
	for i := range 12 {
		if i == 6 {
			evs = append(evs, Call("a", "Bash", []byte(`{"command":"sleep 30"}`)).WithResult("", false))
		}
		evs = append(evs, Call("a", "BashOutput", []byte(`{"bash_id":"b1"}`)).WithResult("<status>running</status>", false))
	}
	for i := range 14 {
		evs = append(evs, Call("a", "BashOutput", []byte(`{"bash_id":"b9"}`)).WithResult(fmt.Sprintf("<status>running</status> job b9 %d", i/20), false))
	}
	for range 12 { // copies of one call in one reply (progressState.copies)
		ev := Call("a", "transfer_money", []byte(`{"amount":100}`)).WithResult("Error: transfer rejected, account not verified", true)
		ev.Turn = "r7"
		evs = append(evs, ev)
	}
	cfg := defaultProgress(nil)
	live, _ := New(cfg)
	restored := restoredEachEvent(t, cfg)
	for i, ev := range evs {
		want := live.Observe(ev)
		got := restored(ev)
		if len(got) != len(want) || len(got) > 0 && got[0].Summary != want[0].Summary {
			t.Fatalf("event %d: from snapshot %+v, live %+v", i, got, want)
		}
		told = told || len(got) > 0 && strings.HasSuffix(got[0].Summary, "in one reply")
	}
	if !told {
		t.Error("the copies in one reply were not told across snapshots")
	}
}

// The hot path stays free of allocations with the new work on it: failing edits (editFileKey,
// the file of a new chain) and checks that wait (argsWait).
func TestObserveAllocatesNothingForFailingEditsAndWaits(t *testing.T) {
	cfg, _ := Preset(PresetDefault)
	eng, _ := New(cfg)
	const distinct = 8192
	events := make([]Event, distinct)
	for i := range events {
		if i%2 == 0 {
			events[i] = Call("agent-1", "str_replace_editor", fmt.Appendf(nil, `{"command":"str_replace","path":"/w/m_%d.c","old_str":"x%d","new_str":"y"}`, i, i)).
				WithResult(fmt.Sprintf("ERROR:\nNo replacement was performed, old_str `x%d` did not appear verbatim in /w/m_%d.c. Reason %d", i, i, i), false)
		} else {
			events[i] = Call("agent-1", "TaskOutput", fmt.Appendf(nil, `{"task_id":"t%d","block":false,"timeout":%d}`, i, i)).
				WithResult(fmt.Sprintf("<status>running</status> task %d line %d of the build", i, i), false)
		}
	}
	for i := 0; i < 2*distinct; i++ {
		eng.Observe(events[i%distinct])
	}
	i := 0
	n := testing.AllocsPerRun(1000, func() { eng.Observe(events[i%distinct]); i++ })
	if n != 0 {
		t.Errorf("%.2f allocations per call, want 0", n)
	}
}

// Claude Code's permission prompt: the user declines an edit (the result is an error that
// says so, with the user's words), and the model edits the file again as told. Two such
// refusals among two edits that did not match are no sign that the model's picture of the
// file is wrong, and a notice after a refusal ("STOP what you are doing and wait for the
// user") talks over the user.
func TestEditsTheUserDeclinedAreNotAnEditLoop(t *testing.T) {
	declined := func(said string) string {
		return "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n" + said
	}
	steps := []step{
		fail("Edit", `{"file_path":"/w/api.py","old_string":"def get(self, id):","new_string":"def get(self, id: int):"}`,
			"<tool_use_error>String to replace not found in file.\nString: def get(self, id):</tool_use_error>"),
		fail("Edit", `{"file_path":"/w/api.py","old_string":"def get(self, item_id):","new_string":"def get(self, item_id: int):"}`,
			declined("keep the signature, validate inside the body instead")),
		fail("Edit", `{"file_path":"/w/api.py","old_string":"        return self.items[item_id]","new_string":"        if item_id < 0: raise ValueError\n        return self.items[item_id]"}`,
			"<tool_use_error>Found 2 matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString:         return self.items[item_id]</tool_use_error>"),
		fail("Edit", `{"file_path":"/w/api.py","old_string":"    def get(self, item_id):\n        return self.items[item_id]","new_string":"    def get(self, item_id):\n        if item_id < 0: raise ValueError\n        return self.items[item_id]"}`,
			declined("use a KeyError, and put the check in _lookup")),
	}
	if got := progressRun(t, defaultProgress(nil), steps); len(got) != 0 {
		t.Errorf("two mismatches and two edits the user declined, on one file: got %q, want no edit-loop notice", got)
	}
}

// Gemini CLI answers a call its user cancelled or declined "[Operation Cancelled]": no
// rejection of the edit, so it neither extends nor starts a chain of rejected edits.
func TestAnEditCancelledInGeminiCLIIsNoRejection(t *testing.T) {
	notFound := "Failed to edit, could not find the string to replace."
	edit := func(old string) string {
		return `{"file_path":"/w/.github/workflows/ci.yml","old_string":"` + old + `","new_string":"x"}`
	}
	steps := []step{
		fail("replace", edit("runs-on: ubuntu-20.04"), notFound),
		fail("replace", edit("runs-on: ubuntu-22.04"), notFound),
		fail("replace", edit("runs-on: [ubuntu]"), "[Operation Cancelled] Reason: Operation cancelled"),
		fail("replace", edit("runs-on: ubuntu"), notFound),
	}
	if got := progressRun(t, defaultProgress(nil), steps); len(got) != 0 {
		t.Errorf("three rejected edits and one the user cancelled: got %q, want no notice before the fourth rejection", got)
	}
}

// detection.md: an idle poll is told "at the 11th …, then at each doubling (21st, 41st, …)".
func TestIdlePollRemindersAsDocumented(t *testing.T) {
	steps := times(45, func(int) step { return ok("BashOutput", `{"bash_id":"b1"}`, "<status>running</status>") })
	got := progressRun(t, defaultProgress(nil), steps)
	want := []string{"10:poll:BashOutput polled × 11", "20:poll:BashOutput polled × 21", "40:poll:BashOutput polled × 41"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Polling a job's status with a command that sets its shell's environment first
// (`export KUBECONFIG=... && kubectl get pods`, as models write it for a harness's shell) is
// a poll whose answer moves: it stays quiet until the poll budget (30), as the same poll
// without the export does. It is not "the same change made again".
func TestAPollThatExportsFirstIsNotAChangeMadeAgain(t *testing.T) {
	phases := []string{"Pending", "ContainerCreating", "PodInitializing", "Running", "Succeeded", "Completed"}
	for _, prefix := range []string{"", "export KUBECONFIG=/tmp/kc && "} {
		t.Run(prefix, func(t *testing.T) {
			r := newTextRun(t)
			for _, ph := range phases {
				res := "NAME READY STATUS RESTARTS AGE\ndb-5c2a 1/1 Running 0 3m\ncache-8k1 1/1 Running 0 3m\nmigrate-7d9f 0/1 " + ph + " 0 20s"
				r.call("bash", `{"command":"`+prefix+`kubectl get pods"}`, res)
			}
			if len(r.got) > 0 {
				t.Errorf("six looks at a job's pods, its phase moving each time: %v, want no notice", r.got)
			}
		})
	}
}

// A status check whose answer says the thing is not finished ("status": "in_progress") is a
// poll, however alike its answers: a CI run checked with `gh run list` every ten seconds was
// told at its third check, and finished at the next.
func TestAnAnswerSayingItIsUnfinishedIsAPoll(t *testing.T) {
	r := newTextRun(t)
	running := "[\n  {\n    \"conclusion\": \"\",\n    \"name\": \"CI\",\n    \"status\": \"in_progress\"\n  }\n]"
	for range 6 {
		r.call("run_shell_command", `{"command":"gh run list --branch dev --json status,conclusion,name"}`, running)
	}
	if len(r.got) > 0 {
		t.Errorf("a CI run checked six times while in progress: %v, want no notice before the poll budget", r.got)
	}
	// A finished answer read again and again is a repeat, as before.
	r = newTextRun(t)
	done := strings.ReplaceAll(strings.ReplaceAll(running, "in_progress", "completed"), `"conclusion\": \"\"`, `"conclusion\": \"failure\"`)
	for range 3 {
		r.call("run_shell_command", `{"command":"gh run list --branch dev --json status,conclusion,name"}`, done)
	}
	if len(r.got) != 1 {
		t.Errorf("a finished run read three times: %v, want the stuck notice", r.got)
	}
}

// Polling a rollout with `kubectl get pods` gives the same table once its ages are masked
// while the pods come up: the READY count below its total says the poll is waiting for
// something that moves by itself (validation round r96a: three looks seconds apart were told
// as a stuck call). The same table with every pod up, or with a pod in a crash loop that
// waiting will not mend, read three times is a repeat.
func TestPollingPodsThatAreComingUpIsNoLoop(t *testing.T) {
	table := func(ready, status string, age int) string {
		return fmt.Sprintf("NAME               READY   STATUS    RESTARTS   AGE\nredis-master-0     %s     %-9s 0          %ds\nredis-replicas-0   1/1     Running   0          %ds\n\n\nCommand completed with return code: 0", ready, status, age, age+100)
	}
	cmd := `{"command":"kubectl get pods -n shared-services"}`
	tests := []struct {
		name          string
		ready, status string
		wantNotice    bool
	}{
		{"a pod still coming up", "0/1", "Running", false},
		{"every pod up", "1/1", "Running", true},
		{"a pod in a crash loop", "0/1", "Error", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTextRun(t)
			for i := range 3 {
				r.call("terminal-run_command", cmd, table(tt.ready, tt.status, 4+5*i))
			}
			if got := len(r.got) > 0; got != tt.wantNotice {
				t.Errorf("three looks at the pods (%s %s): notices %v, want a notice: %v", tt.ready, tt.status, r.got, tt.wantNotice)
			}
		})
	}
}

func TestReportsUnfinishedReadsAStatusFieldsValue(t *testing.T) {
	tests := []struct {
		answer string
		want   bool
	}{
		{`{"status": "in_progress", "conclusion": null}`, true},
		{`{"state":"queued"}`, true},
		{"Status: Running\nReady: 0/1", true},
		{`"phase": "ContainerCreating"`, true},
		{`{"status": "completed", "conclusion": "success"}`, false},
		{`{"status": "pending"}`, false}, // an order's or a review's: waits for someone
		{"running 5 tests\ntest result: FAILED. 4 passed; 1 failed", false},
		{`{"statuses": ["in_progress"]}`, false},
		{`{"real_estate": "running"}`, false},
		{`{"status": "in_progressive"}`, false},
		// status tables, as kubectl and docker print them
		{"NAME               READY   STATUS    RESTARTS   AGE\nredis-master-0     1/1     Running   0          76s\nredis-replicas-0   0/1     Running   0          2s\n", true},
		{"NAME               READY   STATUS    RESTARTS   AGE\nredis-master-0     1/1     Running   0          76s\nredis-replicas-0   1/1     Running   0          2s\n", false},
		{"NAME      READY   STATUS             RESTARTS      AGE\napi-0     0/1     CrashLoopBackOff   5 (20s ago)   3m\n", false},
		{"NAME      READY   STATUS        RESTARTS   AGE\napi-0     1/1     Terminating   0          3m\n", true},
		{"NAME    READY   UP-TO-DATE   AVAILABLE   AGE\nweb     2/3     3            2           40s\n", true},
		{"CONTAINER ID   IMAGE          COMMAND                  CREATED         STATUS                            PORTS     NAMES\n3f2a1b9c8d7e   postgres:16   \"docker-entrypoint.s…\"   6 seconds ago   Up 5 seconds (health: starting)   5432/tcp   db\n", true},
		{"CONTAINER ID   IMAGE          COMMAND                  CREATED         STATUS                    PORTS     NAMES\n3f2a1b9c8d7e   postgres:16   \"docker-entrypoint.s…\"   2 minutes ago   Up 2 minutes (healthy)   5432/tcp   db\n", false},
		{"NAME    STATUS    AGE\nbuild   Running   12s\n", true},
		{"ID   NAME   STATUS\n1    x      done\n", false},
		// a count out of a total that is no READY column, and rows not under the header
		{"FILE     LINES\na.go     0/1\n", false},
		{"NAME READY STATUS\npod 0/1 Running\n", false},
	}
	for _, tt := range tests {
		if got := reportsUnfinished(tt.answer); got != tt.want {
			t.Errorf("reportsUnfinished(%q) = %v, want %v", tt.answer, got, tt.want)
		}
	}
}

// A caption (a "description" of why the model runs the command) is no part of what the tool
// was asked: its words in the answer are not masked as the answer restating the request. Four
// deploys failing alike, each captioned in other words, fail alike.
func TestACaptionsWordsInTheAnswerAreNotMasked(t *testing.T) {
	captions := []string{"Deploy the functions after updating firebase.json.", "Deploy again now that the project is on the Blaze plan.",
		"Retry the deploy: the Blaze plan should be active.", "Deploy once more, assuming the plan upgrade has landed."}
	// The CLI prints its warnings in another order each run, so no two answers are the same.
	warnings := []string{"!  functions: missing required API cloudbuild.googleapis.com. Enabling now...\n",
		"!  artifactregistry: missing required API artifactregistry.googleapis.com. Enabling now...\n"}
	var steps []step
	for i, c := range captions {
		answer := "=== Deploying to 'dashboard-v1'...\ni  deploying functions\n" + warnings[i%2] + warnings[(i+1)%2] +
			"Error: Your project dashboard-v1 must be on the Blaze (pay-as-you-go) plan to complete this command. Required API cloudbuild.googleapis.com can't be enabled until the upgrade is complete.\n"
		if i == 3 {
			answer += "Having trouble? Try firebase [command] --help\n"
		}
		steps = append(steps, fail("run_shell_command", `{"command":"firebase deploy --only functions","description":"`+c+`"}`, answer))
	}
	if got := progressRun(t, defaultProgress(nil), steps); !slices.Equal(got, []string{"3:errors:run_shell_command failed × 4"}) {
		t.Errorf("the same deploy failing alike four times, captioned apart: got %q, want the errors notice at the fourth", got)
	}
}

// A poll answered that what it polls does not exist is waiting for nothing: the same failure
// again is a repeat, told at the 3rd (validation round r148b M1: a job polled eight times by an
// id one letter off). A poll of a job that exists and is still running stays a poll, and so
// does a wait that failed otherwise (a timeout: the thing may still come).
func TestAPollOfWhatIsGoneIsNoWait(t *testing.T) {
	for _, tc := range []struct {
		name, answer string
		failed, told bool
	}{
		{"the job is not found", `{"error": "Background job with ID \"928a2a2d\" not found."}`, false, true},
		{"no such job, failed", "no such job: 928a2a2d", true, true},
		{"a service not up yet, naming no id of the call", `{"error": "application not found"}`, false, false},
		{"still running", `{"status": "running", "output": ""}`, false, false},
		{"timed out", "Error: timed out waiting for output", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steps := times(4, func(int) step {
				if tc.failed {
					return fail("readBackgroundJobOutput", `{"backgroundJobId":"928a2a2d"}`, tc.answer)
				}
				return ok("readBackgroundJobOutput", `{"backgroundJobId":"928a2a2d"}`, tc.answer)
			})
			got := progressRun(t, defaultProgress(nil), steps)
			told := slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, ":stuck:") })
			if told != tc.told {
				t.Errorf("four polls answered %q: notices %q, want told as stuck: %v", tc.answer, got, tc.told)
			}
		})
	}
}

// A host may say that what a poll names is not there in words alone, opening its answer with
// them: such a poll failed, and the same failure after each attempt is a loop however the
// calls between are worded (validation round r162a M1, M2: two OpenClaw runs polled their
// background commands by pid where the tool wanted the session's name, six times each, every
// answer "No session found for <pid>"). A poll answered that nothing is there yet, naming
// nothing of the call, or naming only a number the call holds unquoted (a timeout), waits.
func TestAPollAnsweredThatItsIDIsNotFoundFailed(t *testing.T) {
	for _, tc := range []struct {
		name, answer string
		told         bool
	}{
		{"no session found for the pid it names", "No session found for %d", true},
		{"no such process, in the host's words", "No process found with id %d.", true},
		{"nothing found yet, naming nothing of the call", "No output found yet.", false},
		{"the timeout named, not the id", "No new lines found in 60000 ms.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var steps []step
			for i := range 6 {
				pid := 2841 + 1000*i
				steps = append(steps,
					ok("exec", fmt.Sprintf(`{"command":"go build ./pkg%d/...","timeout":60}`, i), fmt.Sprintf("Command still running (session calm-%c, pid %d).", 'a'+i, pid)),
					ok("process", fmt.Sprintf(`{"action":"poll","sessionId":"%d","timeout":60000}`, pid), fmt.Sprintf(tc.answer, pid)))
			}
			got := progressRun(t, defaultProgress(nil), steps)
			told := slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, ":errors:process failed") })
			if told != tc.told {
				t.Errorf("six polls answered %q: notices %q, want the process tool told as failing: %v", tc.answer, got, tc.told)
			}
		})
	}
}

func TestOpensNoneFound(t *testing.T) {
	for _, tc := range []struct {
		answer string
		want   bool
	}{
		{"No session found for 2841", true},
		{"\nNo such job found.", true},
		{"No process found", true},
		{"No results were found", true},
		{"No new output lines found", false}, // three words: a sentence about what came, not a name's absence
		{"Session 2841 not found", false},    // the other form, read by the marks
		{"Nothing found", false},
		{"The build found no errors", false},
	} {
		if got := opensNoneFound(tc.answer); got != tc.want {
			t.Errorf("opensNoneFound(%q) = %v, want %v", tc.answer, got, tc.want)
		}
	}
}

// A command run after a wait of its own ("sleep 5 && curl URL") is the same experiment as the
// command run at once: failing alike across edits in either form, it is one command failing
// across edits (validation round r251a: a model tried a request six times in two forms, each
// answered alike, and each form's failures were counted apart).
func TestACommandAfterAWaitIsTheSameExperiment(t *testing.T) {
	edit := func(i int) step {
		return ok("search_replace", fmt.Sprintf(`{"file_path":"/w/route.ts","old_string":"v%d","new_string":"v%d"}`, i, i+1), "The file /w/route.ts has been edited.")
	}
	look := func(i int) step { // other commands working between the attempts
		return ok("run_terminal_cmd", fmt.Sprintf(`{"command":"ps aux | grep next | head -%d"}`, i), fmt.Sprintf("user %d node next dev", 100+i))
	}
	const failure = "TypeError: Failed to fetch conversation 5736 from the database"
	curl := fail("run_terminal_cmd", `{"command":"curl -s http://localhost:3000/api/conversations/5736"}`, failure)
	waitThenCurl := fail("run_terminal_cmd", `{"command":"sleep 5 && curl -s http://localhost:3000/api/conversations/5736"}`, failure)
	runProgressCases(t, []progressCase{
		{"the request failing alike after each edit, with and without a wait before it",
			[]step{edit(0), curl, look(1), edit(2), waitThenCurl, look(3), edit(4), curl, look(5), edit(6), waitThenCurl},
			[]string{"10:errors:run_terminal_cmd failed × 4"}},
		{"a wait before another request is another experiment",
			[]step{edit(0), curl, look(1), edit(2), fail("run_terminal_cmd", `{"command":"sleep 5 && curl -s http://localhost:3000/api/users/1"}`, "TypeError: Failed to fetch user 1 from the database"),
				look(3), edit(4), curl, look(5), edit(6), curl},
			nil},
	})
}

// A command line opens with a wait of its own when "sleep N" is a step of its own, ended by
// "&&" or ";", glued to its length or not.
func TestWaitsThenRuns(t *testing.T) {
	tests := []struct {
		args string
		want bool
	}{
		{`{"command":"sleep 5 && curl -s localhost"}`, true},
		{`{"command":"sleep 5; curl -s localhost"}`, true},
		{`{"command":"sleep 0.5s;curl -s localhost"}`, true},
		{`{"command":"sleep 5"}`, false},
		{`{"command":"sleep infinity && curl a"}`, false},
		{`{"command":"curl a && sleep 5"}`, false},
		{`{"command":"python -c 'import time; time.sleep(5)'"}`, false},
	}
	for _, tt := range tests {
		if got := waitsThenRuns([]byte(tt.args)); got != tt.want {
			t.Errorf("waitsThenRuns(%s) = %v, want %v", tt.args, got, tt.want)
		}
	}
}
