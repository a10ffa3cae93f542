package loopguard

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// step is one event of a progress scenario, written compactly.
type step struct {
	tool, args, result string
	failed             bool
	text               string // a model text instead of a call
	user               bool
	userText, source   string // what the user said, and who sent it ("harness" for a reprompt)
	turn               string // the reply that made the call (Event.Turn)
	unanswered         bool   // a call whose result is not known (Event.HasResult false)
	at                 int64  // Event.Time, Unix milliseconds; 0 for none
}

// grownView is an editor's answer after an insertion made i+1 times: the file's view with the
// inserted method once more each time, every line after it renumbered.
func grownView(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[File: /repo/de.py (%d lines total)]\n", 93+4*i)
	lines := []string{"class De:", "    def deserialize(self):", "        return self.parse()"}
	for range i + 1 {
		lines = append(lines, "    def deserialize(self):", "        return None")
	}
	lines = append(lines, "    def close(self):", "        pass")
	for k, l := range lines {
		fmt.Fprintf(&b, "%d:%s\n", 72+k, l)
	}
	return b.String()
}

// inTurn returns s made in the model reply turn.
func inTurn(turn string, s step) step { s.turn = turn; return s }

func ok(tool, args, result string) step { return step{tool: tool, args: args, result: result} }
func fail(tool, args, result string) step {
	return step{tool: tool, args: args, result: result, failed: true}
}
func thought(text string) step { return step{text: text} }

// unanswered is a call kept without its result, as some transcripts keep them.
func unanswered(tool, args string) step { return step{tool: tool, args: args, unanswered: true} }
func userSpeaks() step                  { return step{user: true} }
func userSays(text string) step         { return step{user: true, userText: text} }

// harnessSays is a message the harness (a hook, a reprompt) sends in the user's place.
func harnessSays(text string) step { return step{user: true, source: "harness", userText: text} }

// reprompt is a harness's canned message, sent whenever the model stops without a call.
func reprompt() step {
	return step{user: true, source: "harness", userText: "Please continue working on the task on whatever approach you think is suitable."}
}
func times(n int, f func(i int) step) []step {
	s := make([]step, n)
	for i := range s {
		s[i] = f(i)
	}
	return s
}

// progressRun feeds steps to an engine running cfg and returns "i:kind:summary" for each
// notice, i being the step's index.
// keyErrorAt is pandas' traceback for a column not in a frame, raised at line of script.
func keyErrorAt(script string, line int, col string) string {
	return fmt.Sprintf("Traceback (most recent call last):\n  File \"/usr/lib/python3.9/site-packages/pandas/core/indexes/base.py\", line 3805, in get_loc\n    return self._engine.get_loc(casted_key)\n"+
		"  File \"index.pyx\", line 167, in pandas._libs.index.IndexEngine.get_loc\n  File \"index.pyx\", line 196, in pandas._libs.index.IndexEngine.get_loc\n"+
		"  File \"pandas/_libs/hashtable_class_helper.pxi\", line 7081, in pandas._libs.hashtable.PyObjectHashTable.get_item\n"+
		"  File \"pandas/_libs/hashtable_class_helper.pxi\", line 7089, in pandas._libs.hashtable.PyObjectHashTable.get_item\n"+
		"  File \"/usr/lib/python3.9/site-packages/pandas/core/frame.py\", line 4102, in __getitem__\n    indexer = self.columns.get_loc(key)\n"+
		"KeyError: '%[3]s'\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n"+
		"  File \"/workspace/./%[1]s\", line %[2]d, in <module>\n    m = df['%[3]s'].mean()\n"+
		"  File \"/usr/lib/python3.9/site-packages/pandas/core/indexes/base.py\", line 3812, in get_loc\n    raise KeyError(key) from err\nKeyError: '%[3]s'\n", script, line, col)
}

// reproTrace is a script's failure that no edit of it reaches.
const reproTrace = "Traceback (most recent call last):\n  File \"/w/reproduce.py\", line 5, in <module>\n    response = eks.list_clusters()\nbotocore.exceptions.NoCredentialsError: Unable to locate credentials\n"

func progressRun(t *testing.T, cfg Config, steps []step) []string {
	t.Helper()
	return progressRunVia(t, cfg, steps, false)
}

// restoredEachEvent observes each event with a new engine restored from the snapshot the one
// before it left, as a hook does.
func restoredEachEvent(t *testing.T, cfg Config) func(Event) []Notice {
	var saved []byte
	return func(ev Event) []Notice {
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Restore("a", saved); err != nil {
			t.Fatal(err)
		}
		out := e.Observe(ev)
		saved = e.Snapshot("a")
		return out
	}
}

// liveAndRestored calls run twice, with the observe of a live engine and then with
// restoredEachEvent's, as a hook observes; restored says which.
func liveAndRestored(t *testing.T, cfg Config, run func(observe func(Event) []Notice, restored bool)) {
	t.Helper()
	for _, restored := range []bool{false, true} {
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		observe := e.Observe
		if restored {
			observe = restoredEachEvent(t, cfg)
		}
		run(observe, restored)
	}
}

// progressRunVia is progressRun; with restored, each step is observed by a fresh engine
// restored from the snapshot the step before left, as a hook that runs once a call does.
func progressRunVia(t *testing.T, cfg Config, steps []step, restored bool) []string {
	t.Helper()
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, s := range steps {
		var ev Event
		switch {
		case s.user:
			ev = Event{Type: EventUser, Agent: "a", Text: s.userText, Source: s.source}
		case s.text != "":
			ev = Event{Type: EventText, Agent: "a", Source: "model", Text: s.text}
		default:
			ev = Call("a", s.tool, []byte(s.args))
			if !s.unanswered {
				ev = ev.WithResult(s.result, s.failed)
			}
			ev.Turn, ev.Source = s.turn, s.source
		}
		ev.Time = s.at
		if restored {
			snap := e.Snapshot("a")
			if e, err = New(cfg); err == nil {
				err = e.Restore("a", snap)
			}
			if err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		out := e.Step(ev)
		if out.Denied {
			got = append(got, fmt.Sprintf("%d:deny", i))
		}
		for _, n := range out.Notices {
			got = append(got, fmt.Sprintf("%d:%s:%s", i, n.Kind, n.Summary))
		}
	}
	return got
}

func defaultProgress(mod func(*ProgressConfig)) Config {
	cfg, _ := Preset(PresetDefault)
	p := *cfg.Progress
	if mod != nil {
		mod(&p)
	}
	cfg.Progress = &p
	return cfg
}

// rejections are str_replace_editor's ways of refusing an edit, each worded its own way.
var rejections = []string{
	"No replacement was performed, old_str `return x;` did not appear verbatim in /w/m.c.",
	"No replacement was performed. Multiple occurrences of old_str `return y;` in lines [317, 449]. Please ensure it is unique.",
	"Parameter `old_str` is required for command: str_replace.",
	"Invalid `new_str` parameter: z. No replacement was performed. `new_str` and `old_str` must be different.",
}

// stopHook is what Claude Code sends the model when a stop hook blocks it from stopping.
const stopHook = "Stop hook feedback:\n- [uv run .claude/hooks/stop.py --chat]: error: Failed to spawn: `.claude/hooks/stop.py`"

func TestProgressRules(t *testing.T) {
	grep := func(int) step { return ok("grep", `{"pattern":"foo"}`, "a.go:12: foo()") }
	book := fail("update_reservation", `{"id":"XEWRD9","flights":["HAT030","HAT223"]}`, "Error: flight HAT030 not available on date 2024-05-13")
	ls := func(int) step { return ok("ls", `{"path":"src"}`, "a.go b.go c.go") }
	tests := []struct {
		name  string
		cfg   func(*ProgressConfig)
		steps []step
		want  []string
	}{
		{"the same call with the same result is reminded at the third, then in detail at the sixth",
			nil, times(7, grep), []string{"2:stuck:grep × 3", "5:stuck:grep × 6"}},
		{"it is reminded again every remindEvery calls past the last threshold",
			nil, times(16, grep), []string{"2:stuck:grep × 3", "5:stuck:grep × 6", "15:stuck:grep × 16"}},
		{"a second loop right after a notice is held back for quietCalls calls; its escalation speaks",
			nil, slices.Concat(times(3, grep), times(6, ls)), []string{"2:stuck:grep × 3", "8:stuck:ls × 6"}},
		{"past the quiet calls the next loop is reminded at its own threshold",
			nil, slices.Concat(times(3, grep), times(3, func(i int) step { return ok("cat", fmt.Sprintf(`{"path":"n%d"}`, i), fmt.Sprintf("note %d", i)) }), times(3, ls)),
			[]string{"2:stuck:grep × 3", "8:stuck:ls × 3"}},
		{"a periodic reminder waits out the quiet calls; an escalation to a threshold does not",
			func(p *ProgressConfig) { p.QuietCalls = 12 }, times(16, grep), []string{"2:stuck:grep × 3", "5:stuck:grep × 6"}},
		{"a chain due while the quiet calls last is told when they are over, not marked as told",
			nil, slices.Concat(times(3, grep), times(6, func(i int) step {
				return fail("Edit", fmt.Sprintf(`{"file_path":"/app/a.py","old_string":"x = %d","new_string":"x = %d"}`, i, i+1),
					"<tool_use_error>String to replace not found in file.</tool_use_error>")
			})), []string{"2:stuck:grep × 3", "7:errors:Edit failed × 5"}},
		{"quietCalls 0 lets every notice through",
			func(p *ProgressConfig) { p.QuietCalls = 0 },
			slices.Concat(times(3, grep), times(6, ls)), []string{"2:stuck:grep × 3", "5:stuck:ls × 3", "8:stuck:ls × 6"}},
		{"the same command under a caption written afresh each time is the same call",
			nil, times(3, func(i int) step {
				return ok("Bash", fmt.Sprintf(`{"command":"node -e \"require('pg').connect()\"","description":"%s"}`, []string{"Test the DB connection", "Retry the connection", "Check the DB again"}[i]),
					"Error: read ECONNRESET")
			}), []string{"2:stuck:Bash × 3"}},
		{"a command word in a caption is no command: a status check captioned 'git commit' changes nothing",
			nil, []step{
				ok("Bash", `{"command":"python deploy.py","description":"Deploy"}`, "Error: missing credentials for bucket"),
				ok("Bash", `{"command":"python deploy.py","description":"Deploy again"}`, "Error: missing credentials for bucket"),
				ok("Bash", `{"command":"git status --short","description":"See whether git commit left the tree clean"}`, "M deploy.py"),
				ok("Bash", `{"command":"python deploy.py","description":"Deploy once more"}`, "Error: missing credentials for bucket"),
			}, []string{"3:stuck:Bash × 3"}},
		{"a POST answered with an API's error envelope changed nothing: the same failing request after it is still a repeat (r103c M1)",
			nil, []step{
				ok("run_shell_command", `{"command":"curl -s -X POST http://127.0.0.1:1337/v0.1/scan -d \"{\\\"urls\\\"}\""}`, "Output: {\"error\":\"Expected '\\\"' but got '\\\\'\"}\nExit Code: 1\nProcess Group PGID: 17340"),
				ok("run_shell_command", `{"command":"curl -s -X POST http://127.0.0.1:1337/v0.1/scan -d \"{\\\"urls\\\"}\""}`, "Output: {\"error\":\"Expected '\\\"' but got '\\\\'\"}\nExit Code: 1\nProcess Group PGID: 30652"),
				ok("run_shell_command", `{"command":"curl -s -X POST http://127.0.0.1:1337/v0.1/scan -d '{\"urls\"}'"}`, "Output: {\"error\":\"Expected '\\\"' but got 'u'\"}\nProcess Group PGID: 21536"),
				ok("run_shell_command", `{"command":"curl -s -X POST http://127.0.0.1:1337/v0.1/scan -d \"{\\\"urls\\\"}\""}`, "Output: {\"error\":\"Expected '\\\"' but got '\\\\'\"}\nExit Code: 1\nProcess Group PGID: 35072"),
			}, []string{"3:stuck:run_shell_command × 3"}},
		{"Cline's task_progress checklist, rewritten at every call, is not part of what the call asks",
			nil, times(3, func(i int) step {
				return ok("execute_command", fmt.Sprintf(`{"command":"netstat -an | grep 5432","requires_approval":false,"task_progress":"- [x] restart proxy\n- [ ] step %d"}`, i),
					"TCP    127.0.0.1:5432    0.0.0.0:0    LISTENING")
			}), []string{"2:stuck:execute_command × 3"}},
		{"the OpenHands agent SDK's summary, written afresh at every call, is not part of what the call asks (r131a)",
			nil, times(3, func(i int) step {
				return ok("terminal", fmt.Sprintf(`{"command":"curl -s localhost:8080/health","security_risk":"LOW","summary":"Check the server, try %d"}`, i),
					"curl: (7) Failed to connect to localhost port 8080: Connection refused")
			}), []string{"2:stuck:terminal × 3"}},
		{"an editor's refused view, made again past the window with reads between, fails alike and is stuck (r131c U1)",
			nil, slices.Concat(
				[]step{ok("str_replace_editor", `{"command":"view","path":"/testbed/sets.py","view_range":[2500,2550]}`, "Invalid `view_range`: [2500, 2550]. Its second element `2550` should be smaller than the number of lines in the file: `2528`")},
				times(9, func(i int) step {
					return ok("str_replace_editor", fmt.Sprintf(`{"command":"view","path":"/testbed/sets.py","view_range":[%d,%d]}`, 100*i+1, 100*i+50), fmt.Sprintf("Here's the result of running `cat -n` on /testbed/sets.py:\n%d\tdef f%d(): pass", 100*i+1, i))
				}),
				[]step{ok("str_replace_editor", `{"command":"view","path":"/testbed/sets.py","view_range":[2500,2550]}`, "Invalid `view_range`: [2500, 2550]. Its second element `2550` should be smaller than the number of lines in the file: `2528`")},
				times(9, func(i int) step {
					return ok("str_replace_editor", fmt.Sprintf(`{"command":"view","path":"/testbed/sets.py","view_range":[%d,%d]}`, 100*i+1001, 100*i+1050), fmt.Sprintf("Here's the result of running `cat -n` on /testbed/sets.py:\n%d\tdef g%d(): pass", 100*i+1001, i))
				}),
				[]step{ok("str_replace_editor", `{"command":"view","path":"/testbed/sets.py","view_range":[2500,2550]}`, "Invalid `view_range`: [2500, 2550]. Its second element `2550` should be smaller than the number of lines in the file: `2528`")},
			), []string{"20:stuck:str_replace_editor × 3"}},
		{"rejections of different edits opening with the linter's one sentence are one failure, however long each preview (r135a M1)",
			nil, times(4, func(i int) step {
				code := strings.Repeat(fmt.Sprintf("public class Attempt%d { void run() { System.out.println(%d); } }\n", i, i), 8+i*2)
				return fail("edit", "edit 1:1\n"+code+"end_of_edit",
					"Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\n\n"+
						"ERRORS:\n- E999 SyntaxError: invalid syntax\n\nThis is how your edit would have looked if applied\n"+code+
						"Your changes have NOT been applied. Please fix your edit command and try again.")
			}), []string{"3:errors:edit failed × 4"}},
		{"a tool whose only argument is a summary is told apart by it",
			nil, times(3, func(i int) step {
				return ok("record_summary", fmt.Sprintf(`{"summary":"Finding %d: the cache is stale"}`, i), "Saved.")
			}), nil},
		{"a caption key inside a nested value is the tool's data, not a caption",
			nil, times(3, func(i int) step {
				return ok("create_issue", fmt.Sprintf(`{"issue":{"title":"Crash on start","description":"variant %d"}}`, i), "Error: repository not found")
			}), nil},
		{"copies of one call sent in one reply are one decision: five background tasks missing their prompt are not stuck (r103d F1)",
			nil, times(5, func(i int) step {
				return inTurn("r1", fail("Task", fmt.Sprintf(`{"description":"Fix PR #%d","subagent_type":"general-purpose","run_in_background":true}`, 83+i),
					"<tool_use_error>InputValidationError: Task failed due to the following issue:\nThe required parameter `prompt` is missing</tool_use_error>"))
			}), nil},
		{"the same call sent again by later replies is stuck at the third reply, however many copies the first held",
			nil, slices.Concat(
				times(2, func(int) step {
					return inTurn("r1", ok("grep_search", `{"pattern":"class IntegerField"}`, "fields/__init__.py:1700: class IntegerField(Field):"))
				}),
				times(2, func(i int) step {
					return inTurn(fmt.Sprintf("r%d", i+2), ok("grep_search", `{"pattern":"class IntegerField"}`, "fields/__init__.py:1700: class IntegerField(Field):"))
				})), []string{"3:stuck:grep_search × 3"}},
		{"a sweep stopping background shells, some of them ended already, is no failing command (r103a F1)",
			nil, times(6, func(i int) step {
				id := []string{"622570", "5a37bb", "190ce6", "2b53bc", "2edfcb", "a53d12"}[i]
				if i == 5 {
					return ok("KillShell", `{"shell_id":"`+id+`"}`, `{"message":"Successfully killed shell: `+id+`","shell_id":"`+id+`"}`)
				}
				return fail("KillShell", `{"shell_id":"`+id+`"}`, "Shell "+id+" is not running, so cannot be killed (status: killed)")
			}), nil},
		{"the same ended shell killed again and again is still the same call answered alike",
			nil, times(3, func(int) step {
				return fail("KillShell", `{"shell_id":"622570"}`, "Shell 622570 is not running, so cannot be killed (status: killed)")
			}), []string{"2:stuck:KillShell × 3"}},
		{"two identical calls say nothing",
			nil, times(2, grep), nil},
		{"paging: the same call with a new page each time is progress",
			nil, times(40, func(i int) step {
				return ok("scroll_down", "", fmt.Sprintf("[File: big.py]\n%d: def handler_%d(request):\n%d:     return render(request, 'page_%d.html')", i*3+1, i, i*3+2, i))
			}), nil},
		{"polling that advances is left alone up to its budget, then noted once",
			func(p *ProgressConfig) { p.PollBudget = 5 },
			times(12, func(i int) step {
				return ok("build_status", `{"id":"b7"}`, fmt.Sprintf("build b7: running, %d of 40 steps done (compile, test, package, upload)", i))
			}), []string{"5:poll:build_status polled × 6"}},
		{"polling that advances is noted once, however long it goes on",
			func(p *ProgressConfig) { p.PollBudget = 5 },
			times(40, func(i int) step {
				return ok("build_status", `{"id":"b7"}`, fmt.Sprintf("build b7: running, %d of 40 steps done (compile, test, package, upload)", i))
			}), []string{"5:poll:build_status polled × 6"}},
		{"a poll answered the same every time is noted again each time its count doubles",
			func(p *ProgressConfig) { p.PollBudget = 5 },
			times(25, func(i int) step {
				return ok("BashOutput", `{"bash_id":"b2f8b9"}`, fmt.Sprintf("<status>running</status>\n\n<timestamp>2025-12-01T04:50:%02d.564Z</timestamp>", i))
			}), []string{"5:poll:BashOutput polled × 6", "10:poll:BashOutput polled × 11", "20:poll:BashOutput polled × 21"}},
		{"a poll that advanced and then stopped is told again as the count doubles, as one that never moved",
			func(p *ProgressConfig) { p.PollBudget = 5 },
			times(25, func(i int) step {
				return ok("BashOutput", `{"bash_id":"b7"}`, fmt.Sprintf("build: %d of 40 steps done (compile, test, package, upload)", min(i, 4)))
			}), []string{"5:poll:BashOutput polled × 6", "10:poll:BashOutput polled × 11", "20:poll:BashOutput polled × 21"}},
		{"waiting: the same status after a sleep is a poll that has not advanced yet, not a stuck call",
			func(p *ProgressConfig) { p.PollBudget = 6 },
			times(8, func(i int) step {
				return ok("bash", `{"command":"sleep 30 && kubectl rollout status deploy/web"}`, "Waiting for deployment \"web\" rollout to finish: 1 of 3 updated replicas are available...")
			}), []string{"6:poll:bash polled × 7"}},
		{"sleeps in a row with nothing checked between are noted at the idle budget, then as the count doubles (r179c M1)",
			nil, times(24, func(int) step {
				return ok("bash", "sleep 30", "Your command ran successfully and did not produce any output.")
			}), []string{"10:poll:bash polled × 11", "20:poll:bash polled × 21"}},
		{"a run of bare sleeps after checks that slept is noted from its own start",
			nil, append(times(8, func(i int) step {
				if i%2 == 0 {
					return ok("bash", "sleep 30", "Your command ran successfully and did not produce any output.")
				}
				return fail("bash", "python reproduce.py", "Traceback (most recent call last):\nImportError: cannot import name 'Matmul2CodeTrans'")
			}), times(11, func(int) step {
				return ok("bash", "sleep 30", "Your command ran successfully and did not produce any output.")
			})...), []string{"18:poll:bash polled × 11"}},
		{"a sleep before each check keeps the poll to its budget: time passes between the checks",
			nil, times(28, func(i int) step {
				if i%2 == 0 {
					return ok("bash", "sleep 30", "Your command ran successfully and did not produce any output.")
				}
				return ok("bash", "kubectl get pods", "NAME    READY   STATUS    RESTARTS   AGE\nweb-1   0/1     Pending   0          3m")
			}), nil},
		{"a backoff: the same check after ever longer sleeps, failing the same way, is polling, not an error loop",
			nil, times(7, func(i int) step {
				if i == 6 {
					return ok("Bash", `{"command":"sleep 64 && curl -sf localhost:8000/health"}`, "ok")
				}
				return fail("Bash", fmt.Sprintf(`{"command":"sleep %d && curl -sf localhost:8000/health"}`, 1<<i),
					"curl: (7) Failed to connect to localhost port 8000 after 0 ms: Couldn't connect to server")
			}), nil},
		{"a backoff that never ends is noted once, at the poll budget",
			func(p *ProgressConfig) { p.PollBudget = 5 },
			times(10, func(i int) step {
				return fail("Bash", fmt.Sprintf(`{"command":"sleep %d && curl -sf localhost:8000/health"}`, 5*(i+1)),
					"curl: (7) Failed to connect to localhost port 8000 after 0 ms: Couldn't connect to server")
			}), []string{"5:poll:Bash polled × 6"}},
		{"a backoff written in Python (time.sleep) is polling too",
			nil, times(6, func(i int) step {
				return fail("Bash", fmt.Sprintf(`{"command":"python -c 'import time, urllib.request; time.sleep(%d); urllib.request.urlopen(\"http://localhost:8000/health\")'"}`, 1<<i),
					"urllib.error.URLError: <urlopen error [Errno 111] Connection refused>")
			}), nil},
		{"an edit whose new text holds a sleep is not a wait: the same rejected edit is still an edit loop",
			nil, times(5, func(i int) step {
				return fail("Edit", fmt.Sprintf(`{"file_path":"/app/retry.py","old_string":"time.sleep(%d)","new_string":"time.sleep(%d)"}`, i+1, 2*(i+1)),
					"<tool_use_error>String to replace not found in file.</tool_use_error>")
			}), []string{"3:errors:Edit failed × 4"}},
		{"a tool failing alike is told again each time the count doubles (past the quiet calls), not at every call",
			nil, times(18, func(i int) step {
				return fail("Edit", fmt.Sprintf(`{"file_path":"/app/retry.py","old_string":"time.sleep(%d)","new_string":"x"}`, i),
					"<tool_use_error>String to replace not found in file.</tool_use_error>")
			}), []string{"3:errors:Edit failed × 4", "8:errors:Edit failed × 9", "17:errors:Edit failed × 18"}},
		{"searches that find nothing exit 1 without saying what went wrong: an answer, not a failure",
			nil, times(6, func(i int) step {
				return fail("shell_command", fmt.Sprintf(`{"command":%q}`, []string{"git ls-remote --heads origin | rg -e 'refs/heads/[0-9]+-tauri$'",
					"git branch | rg -e '^[* ]*[0-9]+-tauri$'", "rg --files -g 'specs/[0-9]+-tauri'"}[i%3]),
					fmt.Sprintf("Exit code: 1\nWall time: 1.%d seconds\nOutput:\nNow using node v22.20.0 (npm v10.9.3)\n", i))
			}), nil},
		{"a search API whose JSON answer reports an error has failed: rate limited four times is an error loop",
			nil, times(6, func(i int) step {
				return ok("web_search", fmt.Sprintf(`{"query":"loop detection agents %d"}`, i),
					`{"error": "Rate limit exceeded for this API key, retry later", "results": []}`)
			}), []string{"3:errors:web_search failed × 4"}},
		{"a JSON answer that says it succeeded is no failure, whatever data fields it carries",
			nil, times(6, func(i int) step {
				return ok("import_rows", fmt.Sprintf(`{"file":"part%d.csv"}`, i),
					`{"success": true, "errors": ["row 3 skipped: empty"], "imported": 41}`)
			}), nil},
		{"the same command failing alike in calls of one reply is one step, not a failure repeated",
			nil, times(5, func(i int) step {
				return inTurn("r1", fail("exec", fmt.Sprintf(`{"command":"jq -r .title /data/%s/1"}`, []string{"2IB5", "4KGE", "4Q7T", "1KFD", "5JZL"}[i]),
					"Error: the jq program is not installed on this machine; install it with apt-get install jq"))
			}), nil},
		{"four reads failing alike in one reply are one decision, not a model failing four times",
			nil, times(4, func(i int) step {
				return inTurn("msg_1", fail("Read", fmt.Sprintf(`{"file_path":"/c/Users/m/src/part%d.py"}`, i), "<tool_use_error>File does not exist.</tool_use_error>"))
			}), nil},
		{"the same failure in reply after reply is an error loop, however many calls each reply made",
			nil, times(8, func(i int) step {
				return inTurn(fmt.Sprintf("msg_%d", i/2), fail("Read", fmt.Sprintf(`{"file_path":"/c/Users/m/src/part%d.py"}`, i), "<tool_use_error>File does not exist.</tool_use_error>"))
			}), []string{"6:errors:Read failed × 4"}},
		{"calls without a reply named are each their own decision: the same four failures are an error loop",
			nil, times(4, func(i int) step {
				return fail("Read", fmt.Sprintf(`{"file_path":"/c/Users/m/src/part%d.py"}`, i), "<tool_use_error>File does not exist.</tool_use_error>")
			}), []string{"3:errors:Read failed × 4"}},
		{"six searches of one reply that find nothing alike are a batch, not argument churn",
			nil, times(6, func(i int) step {
				return inTurn("msg_7", ok("Grep", fmt.Sprintf(`{"pattern":"handler_%d","path":"src"}`, i), "No matches found in the repository"))
			}), nil},
		{"an editor's failing replacements with a look at the file between them are an edit loop: the look is not the edit succeeding",
			nil, times(7, func(i int) step {
				if i%2 == 1 {
					return ok("str_replace_editor", fmt.Sprintf(`{"command":"view","path":"/w/parser.c","view_range":[%d,%d]}`, 100+i, 102+i),
						fmt.Sprintf("Here's the result of running `cat -n` on /w/parser.c:\n   %d\t  return CommandParser._sub(cs, this).\n   %d\t    _parse_command(tokens, opt_stop)", 100+i, 101+i))
				}
				return ok("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"/w/parser.c","old_str":"return CommandParser._sub(cs, this).%s_parse_command(tokens, opt_stop)","new_str":"x"}`, strings.Repeat(" ", i)),
					fmt.Sprintf("ERROR:\nNo replacement was performed, old_str `return CommandParser._sub(cs, this).%s_parse_command(tokens, opt_stop)` did not appear verbatim in /w/parser.c.", strings.Repeat(" ", i)))
			}), []string{"6:errors:str_replace_editor failed × 4"}},
		{"an editor's failures that say different things under the same bare 'ERROR:' line, each on another file, are not one failure repeated",
			nil, times(4, func(i int) step {
				return ok("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"/w/m%d.c","old_str":"%c","new_str":"q"}`, i, 'a'+i), "ERROR:\n"+rejections[i])
			}), nil},
		{"edits of one file rejected four times in a row, for reasons that change, are an edit loop",
			nil, times(4, func(i int) step {
				return ok("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"/w/m.c","old_str":"%c","new_str":"q"}`, 'a'+i), "ERROR:\n"+rejections[i])
			}), []string{"3:errors:str_replace_editor failed × 4"}},
		{"edits rejected four times under the harness's OBSERVATION: label are an edit loop, as without it",
			nil, times(4, func(i int) step {
				return ok("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"/w/m.c","old_str":"%c","new_str":"q"}`, 'a'+i), "OBSERVATION:\nERROR:\n"+rejections[i])
			}), []string{"3:errors:str_replace_editor failed × 4"}},
		{"looking at the file between rejected edits of it does not end the edit loop",
			nil, times(8, func(i int) step {
				if i%2 == 1 {
					return ok("str_replace_editor", fmt.Sprintf(`{"command":"view","path":"/w/m.c","view_range":[%d,%d]}`, 300+i, 320+i),
						fmt.Sprintf("   %d\t      case TK_MATCH_%d: return pattern_type;", 300+i, i))
				}
				return ok("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"/w/m.c","old_str":"%c","new_str":"q"}`, 'a'+i), "ERROR:\n"+rejections[i/2])
			}), []string{"6:errors:str_replace_editor failed × 4"}},
		{"a call refused before it ran, its arguments not kept, is retried by the editor's next call that works: slips among working looks are no loop (r154c F1)",
			nil, times(12, func(i int) step {
				if i%3 == 0 {
					return fail("str_replace_editor", fmt.Sprintf(`{"refused_attempt":%d}`, i/3+1), "Missing required parameters for function 'str_replace_editor': {'security_risk'}")
				}
				return ok("str_replace_editor", fmt.Sprintf(`{"command":"view","path":"/w/f%d.py","security_risk":"LOW"}`, i),
					fmt.Sprintf("Here's the result of running `cat -n` on /w/f%d.py:\n     1\timport mod%d", i, i))
			}), nil},
		{"calls refused before they ran, four in a row, are a loop",
			nil, times(4, func(i int) step {
				return fail("str_replace_editor", fmt.Sprintf(`{"refused_attempt":%d}`, i+1), "Missing required parameters for function 'str_replace_editor': {'security_risk'}")
			}), []string{"3:errors:str_replace_editor failed × 4"}},
		{"a refusal of a call whose arguments are not kept does not end the run of an edit's rejections: it was no edit of that file",
			nil, times(5, func(i int) step {
				if i == 1 {
					return fail("str_replace_editor", `{"refused_attempt":1}`, "Missing required parameters for function 'str_replace_editor': {'security_risk'}")
				}
				return ok("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"/w/t.py","old_str":"%c","new_str":"if count == 2:\n    print(\"ok\")"}`, 'a'+i),
					fmt.Sprintf("ERROR:\nInvalid `new_str` parameter: if count == 2:\n    print(\"ok\")%c. No replacement was performed. `new_str` and `old_str` must be different.", 'a'+i))
			}), []string{"4:errors:str_replace_editor failed × 4"}},
		{"scripts failing in a row with the same failure named in words of its own, each at another line under another name, are one failure (r159b M1)",
			nil, times(4, func(i int) step {
				name := fmt.Sprintf("patch_enum_render_%c", 'a'+i)
				return fail("python", fmt.Sprintf(`{"code":"def %s():\n    cmd = \"\"\"sed -i s/a/b/ x.py\n%s()"}`, name, name),
					fmt.Sprintf("<returncode>1</returncode>\n<output>\n  File \"<string>\", line %d\n    %s()\n    %s^\nSyntaxError: EOF while scanning triple-quoted string literal\n</output>", 880+7*i, name, strings.Repeat(" ", 20+i)))
			}), []string{"3:errors:python failed × 4"}},
		{"one syntax error fixed after another, each message only saying it is one, is not one failure",
			nil, times(4, func(i int) step {
				code := []string{"else:", "elif want_all and isprivate:", "return members", "except KeyError:"}[i]
				return fail("bash", fmt.Sprintf(`{"command":"sed -i '%dd' sphinx/ext/autodoc/__init__.py && python -m py_compile sphinx/ext/autodoc/__init__.py"}`, 800+i),
					fmt.Sprintf("<returncode>1</returncode>\n<output>\n  File \"sphinx/ext/autodoc/__init__.py\", line %d\n    %s\n    ^\nSyntaxError: invalid syntax\n</output>", 807+9*i, code))
			}), nil},
		{"the same generic syntax error under the same line of code, four scripts in a row, is one failure (r160a M3)",
			nil, times(4, func(i int) step {
				return fail("python", fmt.Sprintf(`{"code":"def fix_setup_%d():\n    cmd = \"\"\"python - <<'PY'\nPY\"\"\""}`, i),
					fmt.Sprintf("<returncode>1</returncode>\n<output>\n  File \"<string>\", line %d\n    Load the settings module pointed to by the environment variable. This\n           ^\nSyntaxError: invalid syntax\n</output>", 876+4*i))
			}), []string{"3:errors:python failed × 4"}},
		{"Python's report of a .pth file it could not read, before every program, is no failure of the programs",
			nil, times(4, func(i int) step {
				return ok("bash", fmt.Sprintf(`{"command":"python3 -c \"import csv; print(list(csv.reader(['a%d,b'])))\""}`, i),
					"Error processing line 1 of /opt/conda/lib/python3.9/site-packages/distutils-precedence.pth:\n\n  Traceback (most recent call last):\n    File \"/opt/conda/lib/python3.9/site.py\", line 177, in addpackage\n      exec(line)\n  ModuleNotFoundError: No module named '_distutils_hack'\n\nRemainder of file ignored\n"+fmt.Sprintf("[['a%d', 'b']]", i))
			}), nil},
		{"a step back through a browser's history, made again, is the next step, not the same call stuck (r161c F1)",
			nil, times(4, func(int) step { return ok("browser_go_back", `{}`, "Navigated back") }), nil},
		{"going back and forth between two pages that answer alike is still a cycle",
			nil, times(12, func(i int) step {
				switch i % 4 {
				case 0:
					return ok("browser_go_back", `{}`, "Navigated back")
				case 2:
					return ok("browser_go_forward", `{}`, "Navigated forward")
				}
				return ok("browser_get_state", `{}`, fmt.Sprintf("url: https://example.test/page-%c\ntitle: Page %c", 'a'+i%4/2, 'A'+i%4/2))
			}), []string{"11:cycle:cycle of 4 × 3"}},
		{"Codex patches of one file rejected four times in a row, for reasons that change, are an edit loop",
			nil, times(4, func(i int) step {
				errs := []string{
					"apply_patch verification failed: Failed to find expected lines in src/app.py:\n    return total",
					"apply_patch verification failed: invalid hunk at line 3, Expected update hunk to start with a @@ context marker",
					"apply_patch verification failed: Failed to find context 'def handler(' in src/app.py",
					"apply_patch verification failed: patch is empty",
				}
				return fail("apply_patch", fmt.Sprintf("*** Begin Patch\n*** Update File: src/app.py\n@@\n-total_%d\n+total\n*** End Patch", i), errs[i])
			}), []string{"3:errors:apply_patch failed × 4"}},
		{"an edit of the file that lands between rejections starts the count afresh",
			nil, times(5, func(i int) step {
				if i == 2 {
					return ok("str_replace_editor", `{"command":"str_replace","path":"/w/m.c","old_str":"return x;","new_str":"return z;"}`, "The file /w/m.c has been edited.")
				}
				return ok("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"/w/m.c","old_str":"%c","new_str":"q"}`, 'a'+i), "ERROR:\n"+rejections[i%4])
			}), nil},
		{"OpenClaw polling a background command (process, action poll) is polling, not a stuck call",
			nil, times(8, func(i int) step {
				return ok("process", `{"action":"poll","sessionId":"brisk-otter"}`, "Process still running.\n(no new output)")
			}), nil},
		{"waiting on a timer, then listing the tasks and reading one's status, round after round, is polling",
			nil, times(24, func(i int) step {
				switch i % 3 {
				case 0:
					return ok("schedule", fmt.Sprintf(`{"DurationSeconds":"%d","Prompt":"Check if npm install completed"}`, 15*(i/3+1)),
						fmt.Sprintf("Tool is running as a background task with task id: e951b17f/task-%d", 1270+8*i))
				case 1:
					return ok("manage_task", `{"Action":"list"}`, "You have 2 background task(s) currently running: dev server, npm install")
				}
				return ok("manage_task", `{"Action":"status","TaskId":"e951b17f/task-1244"}`, "Task: e951b17f/task-1244\nStatus: RUNNING")
			}), nil},
		{"the same words said at each look while waiting are narration, not a stale thought",
			nil, slices.Concat(times(15, func(i int) step {
				if i%3 == 0 {
					return thought("Waiting for the installation task to complete...")
				}
				if i%3 == 1 {
					return ok("schedule", fmt.Sprintf(`{"DurationSeconds":"%d"}`, 15*(i/3+1)), fmt.Sprintf("Tool is running as a background task with task id: t/task-%d", 1270+8*i))
				}
				return ok("manage_task", `{"Action":"status","TaskId":"t/task-1244"}`, "Task: t/task-1244\nStatus: RUNNING")
			})), nil},
		{"the same rounds without the wait are a cycle",
			nil, times(9, func(i int) step {
				if i%3 == 0 {
					return ok("ls", `{"path":"logs"}`, "build.log test.log")
				}
				if i%3 == 1 {
					return ok("manage_task", `{"Action":"list"}`, "You have 2 background task(s) currently running: dev server, npm install")
				}
				return ok("read", `{"path":"logs/build.log"}`, "compiling 12 of 40 modules")
			}), []string{"8:cycle:cycle of 3 × 3"}},
		{"the same process tool asked to list its sessions again and again is stuck",
			nil, times(3, func(i int) step {
				return ok("process", `{"action":"list"}`, "brisk-otter  running  npm run build")
			}), []string{"2:stuck:process × 3"}},
		{"without the sleeps, the same failure with changing arguments is an error loop",
			nil, times(5, func(i int) step {
				return fail("Bash", fmt.Sprintf(`{"command":"curl -sf --max-time %d localhost:8000/health"}`, i+1),
					"curl: (7) Failed to connect to localhost port 8000 after 0 ms: Couldn't connect to server")
			}), []string{"3:errors:Bash failed × 4"}},
		{"a terminal agent that sends no keys and waits for the screen is polling",
			func(p *ProgressConfig) { p.PollBudget = 6 },
			times(8, func(i int) step {
				return ok("bash_command", `{"keystrokes": "", "duration": 30}`, "$ make -j4\n[ 42%] Building CXX object src/core.o")
			}), []string{"6:poll:bash_command polled × 7"}},
		{"Codex polling a running command (write_stdin typing nothing) is polling, whatever its chunk ids",
			nil, times(8, func(i int) step {
				return ok("write_stdin", `{"session_id":42,"chars":"","yield_time_ms":10000}`,
					fmt.Sprintf("Chunk ID: %06x\nWall time: 10.%04d seconds\nProcess running with session ID 42\nOriginal token count: 0\nOutput:\n", 0x3f2a91*(i+1)&0xffffff, i*37))
			}), nil},
		{"Codex polling with write_stdin that leaves chars out (typing nothing) is polling too",
			nil, times(8, func(i int) step {
				return ok("write_stdin", `{"session_id":42,"yield_time_ms":5000}`,
					fmt.Sprintf("Chunk ID: %06x\nWall time: 5.%04d seconds\nProcess running with session ID 42\nOriginal token count: 0\nOutput:\n", 0x3f2a91*(i+1)&0xffffff, i*37))
			}), nil},
		{"write_stdin typing the same line into a command thrice, answered alike, is stuck",
			nil, times(3, func(i int) step {
				return ok("write_stdin", `{"session_id":42,"chars":"y\n"}`, "Process running with session ID 42\nOutput:\nContinue? [y/N]")
			}), []string{"2:stuck:write_stdin × 3"}},
		{"Codex's code mode polling a running command (a cell that only writes nothing to it) is polling",
			nil, times(8, func(i int) step {
				return ok("exec", `const r = await tools.write_stdin({session_id:36178,chars:"",yield_time_ms:1000,max_output_tokens:12000}); text(r.output)`,
					"Script completed\nWall time 5.0 seconds\nOutput:\n")
			}), nil},
		{"a code cell that runs a command and then reads it is not a wait: run the same way thrice, it is stuck",
			nil, times(3, func(i int) step {
				return ok("exec", `const s = await tools.exec_command({cmd:"mvn -q package"}); const r = await tools.write_stdin({session_id:s.id,chars:""}); text(r.output)`,
					"Script completed\nOutput:\n[ERROR] Failed to execute goal on project app: Could not resolve dependencies")
			}), []string{"2:stuck:exec × 3"}},
		{"a failure told only by its exit code (Codex's header, through a proxy) is a failure",
			nil, times(4, func(i int) step {
				return ok("exec_command", fmt.Sprintf(`{"cmd":"python manage.py check --tag t%d"}`, i),
					fmt.Sprintf("Chunk ID: %06x\nWall time: 0.2%03d seconds\nProcess exited with code 1\nOriginal token count: 9\nOutput:\nSystemCheck found 1 issue (0 silenced).", 0x3f2a91*(i+1)&0xffffff, i))
			}), []string{"3:errors:exec_command failed × 4"}},
		{"six commands with six short answers under Codex's header are a batch, not one answer",
			nil, times(8, func(i int) step {
				cmds := []string{"cat VERSION", "whoami", "pwd", "go env GOOS", "uname -m", "nproc", "date +%Y", "echo $SHELL"}
				outs := []string{"1.4.2", "root", "/work/app", "linux", "x86_64", "2", "2026", "/bin/bash"}
				return ok("exec_command", fmt.Sprintf(`{"cmd":%q}`, cmds[i]),
					fmt.Sprintf("Chunk ID: %06x\nWall time: 0.0%03d seconds\nProcess exited with code 0\nOriginal token count: 2\nOutput:\n%s\n", 0x3f2a91*(i+1)&0xffffff, i, outs[i]))
			}), nil},
		{"silent commands under Codex's header print nothing to compare",
			nil, times(8, func(i int) step {
				cmds := []string{"true", "export X=1", "cd /tmp", "test -f a", "[ -d out ]", "git diff --quiet", "grep -q foo a", "pgrep -x server"}
				return ok("exec_command", fmt.Sprintf(`{"cmd":%q}`, cmds[i]),
					fmt.Sprintf("Exit code: 0\nWall time: 0.%d seconds\nOutput:\n", i))
			}), nil},
		{"OpenHands polling a running command (an empty command) is polling",
			nil, times(8, func(i int) step {
				return ok("execute_bash", `{"command": "", "is_input": "true"}`,
					"[The command has no new output after 30 seconds. You may wait longer to see additional output by sending empty command '', send other commands to interact with the current process, or send keys to interrupt/kill the command.]\n[Current working directory: /workspace]")
			}), nil},
		{"OpenHands asking for more output when no command runs, after each of four changes, is a wait failing, not a command failing across edits",
			nil, times(12, func(i int) step {
				switch i % 3 {
				case 0:
					return ok("file_editor", fmt.Sprintf(`{"command":"create","path":"/w/step%d.py","file_text":"print(%d)"}`, i, i), fmt.Sprintf("File created successfully at: /w/step%d.py", i))
				case 1:
					return fail("terminal", fmt.Sprintf(`{"command":"python /w/step%d.py && pip install -q pkg%d","is_input":false}`, i-1, i),
						"[The command timed out after 120 seconds. The process was killed.]")
				}
				return fail("terminal", `{"command":"","is_input":true,"timeout":null,"reset":false}`, "No previous running command to retrieve logs from.")
			}), nil},
		{"a test run that sleeps first, failing alike after each of four edits, is a command failing across edits",
			nil, times(8, func(i int) step {
				if i%2 == 0 {
					return ok("Edit", fmt.Sprintf(`{"file_path":"/w/app.py","old_string":"v%d","new_string":"v%d"}`, i, i+1), "The file /w/app.py has been updated.")
				}
				return fail("Bash", `{"command":"sleep 2 && python -m pytest tests/test_app.py -q"}`,
					"F\n=== FAILURES ===\n___ test_total ___\n    assert total([1, 2]) == 3\nE   assert 4 == 3\nFAILED tests/test_app.py::test_total - assert 4 == 3\n1 failed in 0.12s")
			}), []string{"7:errors:Bash failed × 4"}},
		{"different requests to a service whose backend is down, each answered the same server error, fail alike",
			nil, times(4, func(i int) step {
				paths := []string{"/", "/flag", "/?cmd=ls", "/admin"}
				return ok("bash", fmt.Sprintf(`{"cmd":"printf 'GET %s HTTP/1.1\\r\\nHost: victim\\r\\n\\r\\n' | nc victim 1337"}`, paths[i]),
					"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 107\r\ncontent-type: text/html\r\n\r\n<html><body><h1>503 Service Unavailable</h1>\nNo server is available to handle this request.\n</body></html>")
			}), []string{"3:errors:bash failed × 4"}},
		{"one reply holding the same call ten times over, each refused alike, is told at the tenth copy and as the count doubles",
			nil, times(22, func(int) step {
				return inTurn("r1", fail("transfer_money", `{"bank_id":"9042673456","amount":100,"currency":"USD"}`, "Error: transfer rejected, account 9042673456 is not verified"))
			}), []string{"9:stuck:transfer_money × 10 in one reply", "19:stuck:transfer_money × 20 in one reply"}},
		{"one reply scrolling ten times reads a new page each time: no copies answered alike",
			nil, times(12, func(i int) step {
				return inTurn("r1", ok("scroll", `{"direction":"down"}`, fmt.Sprintf("Scrolled to %d%% of the page. Row %d: item %d", 8*i, i, 10*i)))
			}), nil},
		{"Codex's same command over and over is stuck, whatever its chunk ids",
			nil, times(3, func(i int) step {
				return ok("exec_command", `{"cmd":"grep -rn TODO src"}`,
					fmt.Sprintf("Chunk ID: %06x\nWall time: 0.%04d seconds\nProcess exited with code 1\nOriginal token count: 0\nOutput:\n", 0x3f2a91*(i+1)&0xffffff, i*37+5))
			}), []string{"2:stuck:exec_command × 3"}},
		{"reading the clock again and again while something runs is waiting, not a stuck call",
			nil, times(5, func(i int) step {
				return ok("Bash", `{"command":"date '+%H:%M:%S'","description":"Time check"}`, fmt.Sprintf("15:3%d:%02d", i, 7*i))
			}), nil},
		{"a value worked out again and again, the same every time, is a repeat, not a clock read",
			nil, times(3, func(int) step {
				return ok("python_exec", `{"code":"print(hex(0x1C0204060C080C00 >> 5))"}`, "0xe0102030604060")
			}), []string{"2:stuck:python_exec × 3"}},
		{"a flag read from a file between two identical looks is content, not a wait",
			nil, []step{ok("bash", `{"command":"curl -s victim:1337/api/v1/flag"}`, `{"message":"JWT token is missing or invalid."}`),
				ok("bash", `{"command":"cat /root/flag.txt"}`, "gctf{d0nt_w4it_4r0und}"),
				ok("bash", `{"command":"curl -s victim:1337/api/v1/flag"}`, `{"message":"JWT token is missing or invalid."}`),
				ok("bash", `{"command":"curl -s victim:1337/api/v1/flag"}`, `{"message":"JWT token is missing or invalid."}`)},
			[]string{"3:stuck:bash × 3"}},
		{"the same command answering the same words and a new time is stuck",
			nil, times(3, func(i int) step {
				return ok("Bash", `{"command":"./deploy status"}`, fmt.Sprintf("15:3%d:%02d deploy failed: quota exceeded", i, 7*i))
			}), []string{"2:stuck:Bash × 3"}},
		{"a background job's output checked again at once, answered the same every time, is noted at the idle poll budget",
			nil, times(14, func(i int) step {
				return ok("BashOutput", `{"bash_id":"b2f8b9"}`, fmt.Sprintf("<status>running</status>\n\n<timestamp>2025-12-01T04:50:%02d.564Z</timestamp>", 3*i))
			}), []string{"10:poll:BashOutput polled × 11"}},
		{"the same checks with a sleep before each are a backoff, left to the poll budget",
			nil, times(28, func(i int) step {
				if i%2 == 0 {
					return ok("Bash", fmt.Sprintf(`{"command":"sleep %d"}`, 30+10*i), "")
				}
				return ok("BashOutput", `{"bash_id":"b1"}`, "<status>running</status>")
			}), nil},
		{"a check that blocks until there is news, or is given a delay, is a wait: left to the poll budget",
			nil, slices.Concat(
				times(14, func(int) step {
					return ok("TaskOutput", `{"task_id":"t1","block":true,"timeout":30000}`, "<status>running</status>")
				}),
				times(14, func(int) step { return ok("read_bash", `{"shellId":"2","delay":10}`, "npm run build\n> tsc -p .") })),
			nil},
		{"a check that does not block is checked at once, even with a timeout named",
			nil, times(12, func(int) step {
				return ok("TaskOutput", `{"task_id":"t1","block":false,"timeout":30000}`, "<status>running</status>")
			}), []string{"10:poll:TaskOutput polled × 11"}},
		{"a poll whose answer moved is left to the poll budget, waited for or not",
			nil, times(14, func(i int) step {
				return ok("BashOutput", `{"bash_id":"b1"}`, fmt.Sprintf("<status>running</status>\nprocessed book %d of 40 (chapters, index, embeddings)", min(i, 3)))
			}), nil},
		{"a job's output read piece by piece, nothing one time and a new line the next, is one poll: noted once at its budget (r157b M1)",
			nil, times(40, func(i int) step {
				out := `{"output":"","status":"running"}`
				if i%2 == 1 {
					out = fmt.Sprintf(`{"output":"Search attempt %d/60...\nFound on this attempt: []\n","status":"running"}`, i/2+1)
				}
				return ok("readBackgroundJobOutput", `{"backgroundJobId":"89a8"}`, out)
			}), []string{"30:poll:readBackgroundJobOutput polled × 31"}},
		{"a pause answered otherwise each time is no poll of a job: the world moved, not the job (Crafter's sleep)",
			nil, times(40, func(i int) step {
				seen := []string{"grass", "a cow", "water", "a tree", "sand", "a zombie", "stone", "a table"}
				return ok("wait", `{"action":"noop"}`, fmt.Sprintf("You see %s %d steps to your %s, and %s at your front.",
					seen[i%8], i, []string{"north", "south", "east", "west"}[i%4], seen[(i*3+1)%8]))
			}), nil},
		{"the idle poll budget is a setting",
			func(p *ProgressConfig) { p.IdlePollBudget = 4 },
			times(6, func(int) step { return ok("BashOutput", `{"bash_id":"b1"}`, "<status>running</status>") }),
			[]string{"4:poll:BashOutput polled × 5"}},
		{"a tool's own poll budget holds for checks made again at once too",
			func(p *ProgressConfig) { p.Tools = []ToolOverride{{Match: "BashOutput", PollBudget: 15}} },
			times(18, func(int) step { return ok("BashOutput", `{"bash_id":"b1"}`, "<status>running</status>") }),
			[]string{"15:poll:BashOutput polled × 16"}},
		{"a background job's output read again and again is a poll too",
			nil, times(6, func(i int) step { return ok("BashOutput", `{"bash_id":"b1"}`, "<status>running</status>") }), nil},
		{"a tool override raises the poll budget",
			func(p *ProgressConfig) {
				p.PollBudget = 5
				p.Tools = []ToolOverride{{Match: "build_*", PollBudget: 50}}
			},
			times(12, func(i int) step {
				return ok("build_status", `{"id":"b7"}`, fmt.Sprintf("build b7: running, %d of 40 steps done (compile, test, package, upload)", i))
			}), nil},
		{"a test re-run after a successful edit is progress, even with the same failure",
			nil, []step{
				fail("run_tests", `{}`, "FAIL TestParse: got 2 want 3"),
				ok("edit_file", `{"path":"p.go","old":"a1","new":"b1"}`, "edited p.go"),
				fail("run_tests", `{}`, "FAIL TestParse: got 2 want 3"),
				ok("edit_file", `{"path":"p.go","old":"a2","new":"b2"}`, "edited p.go"),
				fail("run_tests", `{}`, "FAIL TestParse: got 2 want 3"),
				ok("edit_file", `{"path":"p.go","old":"a3","new":"b3"}`, "edited p.go"),
				ok("run_tests", `{}`, "ok parser 0.01s"),
			}, nil},
		{"the same failure four times, whatever the edits between, is reminded",
			nil, times(7, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":"p.go","old":"a%d","new":"b%d"}`, i, i), "edited p.go")
				}
				return fail("run_tests", `{}`, "FAIL TestParse: got 2 want 3")
			}), []string{"6:errors:run_tests failed × 4"}},
		{"the same failure line with debug output changing around it is the same failure, at one more repeat",
			nil, times(9, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":"p.py","old":"a%d","new":"b%d"}`, i, i), "edited p.py")
				}
				return fail("bash", `{"command":"pytest tests/test_p.py"}`, debugRun(i))
			}), []string{"8:errors:bash failed × 5"}},
		{"the same failing test run three times with only reads and probes between, further apart than the window, is stuck",
			nil, farRepeats(func(i int) step {
				return ok("cat", fmt.Sprintf(`{"path":"notes%d.txt"}`, i), fmt.Sprintf("note number %d says little", i))
			}),
			[]string{"20:stuck:bash × 3"}},
		{"failing probes between the runs do not push the test's own failure out of memory",
			nil, farRepeats(func(i int) step {
				if i%2 == 0 {
					return ok("cat", fmt.Sprintf(`{"path":"notes%d.txt"}`, i), fmt.Sprintf("note number %d says little", i))
				}
				return fail("bash", fmt.Sprintf(`{"command":"python probe_%d.py"}`, i), fmt.Sprintf("Traceback (most recent call last):\nKeyError: 'k%d'", i))
			}),
			[]string{"20:stuck:bash × 3"}},
		{"the same far-apart failing runs with an edit landing between them are a test re-run, not stuck",
			nil, farRepeats(func(i int) step {
				if i == 4 {
					return ok("edit_file", `{"path":"session.py","old":"a","new":"b"}`, "edited session.py")
				}
				return ok("cat", fmt.Sprintf(`{"path":"notes%d.txt"}`, i), fmt.Sprintf("note number %d says little", i))
			}), nil},
		{"the same far-apart failing check with a wait between its runs is a poll, not stuck",
			nil, farRepeats(func(i int) step {
				if i == 6 {
					return ok("bash", `{"command":"sleep 60"}`, "")
				}
				return ok("cat", fmt.Sprintf(`{"path":"notes%d.txt"}`, i), fmt.Sprintf("note number %d says little", i))
			}), nil},
		{"a code listing that happens to hold an error's words is not a failing run: re-reading it far apart is not stuck",
			nil, slices.Concat(
				[]step{ok("goto", `239`, "[File: autoreload.py]\n239: def watched_files(self):\n240:     raise RuntimeError('Error: no files')")},
				times(9, func(i int) step {
					return ok("search_file", fmt.Sprintf(`"term%d"`, i), fmt.Sprintf("Found %d matches for term%d", i, i))
				}),
				[]step{ok("goto", `239`, "[File: autoreload.py]\n239: def watched_files(self):\n240:     raise RuntimeError('Error: no files')")},
				times(9, func(i int) step {
					return ok("search_file", fmt.Sprintf(`"more%d"`, i), fmt.Sprintf("Found %d matches for more%d", i, i))
				}),
				[]step{ok("goto", `239`, "[File: autoreload.py]\n239: def watched_files(self):\n240:     raise RuntimeError('Error: no files')")},
			), nil},
		{"a script failing alike across edits is followed through a dozen other commands failing once between its runs (r170a M1)",
			nil, slices.Concat(
				[]step{fail("bash", `{"command":"python reproduce.py"}`, reproTrace)},
				times(12, func(i int) step {
					tool := []string{"read_file", "list_dir", "fetch_url", "search_docs", "open_file", "view_image",
						"read_notebook", "get_issue", "list_branches", "read_log", "get_env", "describe_table"}[i]
					return fail(tool, fmt.Sprintf(`{"path":"docs/page%d.md"}`, i), fmt.Sprintf("Error: docs/page%d.md: not found", i))
				}),
				times(6, func(i int) step {
					if i%2 == 0 {
						return ok("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"reproduce.py","old_str":"v%d","new_str":"v%d"}`, i, i+1), "The file reproduce.py has been edited.")
					}
					return fail("bash", `{"command":"python reproduce.py"}`, reproTrace)
				}),
			), []string{"18:errors:bash failed × 4"}},
		{"a script that failed alike twice outlasts any number of other commands failing once: those are forgotten first",
			nil, slices.Concat(
				[]step{fail("bash", `{"command":"python reproduce.py"}`, reproTrace),
					ok("str_replace_editor", `{"command":"str_replace","path":"reproduce.py","old_str":"a","new_str":"b"}`, "The file reproduce.py has been edited."),
					fail("bash", `{"command":"python reproduce.py"}`, reproTrace)},
				times(maxRefail+4, func(i int) step {
					return fail(fmt.Sprintf("probe_%c", 'a'+i), fmt.Sprintf(`{"path":"docs/page%d.md"}`, i), fmt.Sprintf("Error: docs/page%d.md: not found", i))
				}),
				times(4, func(i int) step {
					if i%2 == 0 {
						return ok("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"reproduce.py","old_str":"v%d","new_str":"v%d"}`, i, i+1), "The file reproduce.py has been edited.")
					}
					return fail("bash", `{"command":"python reproduce.py"}`, reproTrace)
				}),
			), []string{"26:errors:bash failed × 4"}},
		{"a file failing to open across edits is followed while another file of its name opens (r169b)",
			nil, times(16, func(i int) step {
				switch i % 4 {
				case 0:
					return ok("bash", fmt.Sprintf("create td_field%d.py", i), fmt.Sprintf("[File: /w/td_field%d.py (1 lines total)]\n1:\n\n(Open file: /w/td_field%d.py)\n(Current directory: /w)\nbash-$", i, i))
				case 1:
					return fail("bash", fmt.Sprintf("python td_field%d.py", i-1), fmt.Sprintf("Traceback (most recent call last):\n  File \"/w/td_field%d.py\", line 1, in <module>\nImportError: cannot import name 'TimeDelta'\n\n(Open file: /w/td_field%d.py)\n(Current directory: /w)\nbash-$", i-1, i-1))
				case 2:
					return ok("bash", "open dandi/fields.py", fmt.Sprintf("File dandi/fields.py not found\n\n(Open file: /w/td_field%d.py)\n(Current directory: /w)\nbash-$", i-2))
				}
				return ok("bash", "open fields.py", "[File: /w/fields.py (9 lines total)]\n1:from marshmallow import fields\n\n(Open file: /w/fields.py)\n(Current directory: /w)\nbash-$")
			}), []string{"14:errors:bash failed × 4"}},
		{"a script failing across edits ends its chain when it works by another spelling of its path",
			nil, times(9, func(i int) step {
				switch {
				case i == 4:
					return ok("bash", `{"command":"python3 /workspace/repro.py"}`, "all good")
				case i%2 == 1:
					return ok("write_file", fmt.Sprintf(`{"path":"repro.py","content":"v%d"}`, i), "wrote repro.py")
				}
				return fail("bash", `{"command":"python3 repro.py"}`, reproTrace)
			}), nil},
		{"a script failing at one statement with another guessed name each time is one failure (r172c M1)",
			nil, times(5, func(i int) step {
				col := []string{"beak_depth", "Beak Depth (mm)", "beak depth", "BeakDepth", "depth"}[i]
				return ok("Python", fmt.Sprintf("Python(file_path=\"./stats.py\"):\n```python\nimport pandas as pd\ndf = pd.read_csv('beaks.csv')\nm = df['%s'].mean()\nprint(m)\n```", col), keyErrorAt("stats.py", 3, col))
			}), []string{"3:errors:Python failed × 4"}},
		{"one wrong name fixed after another, each at a statement of its own, is progress (a long traceback: a short one is compared whole, its names masked)",
			nil, times(5, func(i int) step {
				col := []string{"unit_price_usd", "sales_volume_q1", "region_code_iso", "gross_margin_pct", "tax_rate_applied"}[i]
				return ok("Python", fmt.Sprintf("Python(file_path=\"./stats.py\"):\n```python\nimport pandas as pd\ndf = pd.read_csv('t.csv')\nx%d = df['%s']\n```", i, col), keyErrorAt("stats.py", 3+i, col))
			}), nil},
		{"a harness's refusal to run the last call again counts as that call made again (r172c M9)",
			nil, []step{
				fail("Python", "Python(file_path=\"a.py\"):\nprint(df['x'])", "Traceback (most recent call last):\nValueError: cannot reindex on an axis with duplicate labels"),
				fail("Python", "Python(file_path=\"a.py\"):\nprint(df['x'])", "The action is the same as the last one, please provide a different action."),
				ok("Bash", `{"command":"head -3 t.csv"}`, "a,b\n1,2\n3,4"),
				fail("Python", "Python(file_path=\"a.py\"):\nprint(df['x'])", "Traceback (most recent call last):\nValueError: cannot reindex on an axis with duplicate labels"),
			}, []string{"3:stuck:Python × 3"}},
		{"prose run as the command, the shell declining it one way or another each time, is one failure (r172b M1)",
			nil, times(5, func(i int) step {
				if i%2 == 0 {
					return ok("DISCUSSION", fmt.Sprintf("DISCUSSION\nLet's look at file %d first.\nfind_file \"A%d.java\"", i, i),
						"/bin/bash: line 2: unexpected EOF while looking for matching `''\n/bin/bash: line 4: syntax error: unexpected end of file")
				}
				return ok("DISCUSSION", fmt.Sprintf("DISCUSSION\nThere is an issue %d with the command.", i),
					fmt.Sprintf("/bin/bash: line %d: DISCUSSION: command not found\n/bin/bash: line %d: There: command not found", 100+i, 101+i))
			}), []string{"3:errors:DISCUSSION failed × 4"}},
		{"two calls of one loop due their detailed reminder in turn are not told on consecutive calls (r172a)",
			nil, times(28, func(i int) step {
				switch i % 4 {
				case 0:
					return fail("search_dir", `search_dir "option" src`, "Directory src not found")
				case 1:
					return ok("search_dir", `search_dir "option"`, "Found 9 matches for \"option\" in /shiv/src/shiv:\n/shiv/src/shiv/builder.py (1 matches)\nEnd of matches")
				case 2:
					return ok("open", fmt.Sprintf("open file%d.py", i), fmt.Sprintf("[File: /shiv/file%d.py (20 lines total)]\n1:import os%d", i, i))
				}
				return ok("search_file", fmt.Sprintf(`search_file "home%d"`, i), fmt.Sprintf("No matches found for \"home%d\" in /shiv/file.py", i))
			}), []string{"8:stuck:search_dir × 3", "13:stuck:search_dir × 4", "20:stuck:search_dir × 6", "25:stuck:search_dir × 7"}},
		{"one failure coming back among others, four of the tool's last six failures, is told (r172c M8)",
			nil, times(6, func(i int) step {
				args := fmt.Sprintf("Python(file_path=\"predict.py\"):\nattempt = %d", i)
				if "EXEEYE"[i] == 'E' {
					// each script's own long traceback: no two alike but for the failure's line
					var tb strings.Builder
					tb.WriteString("Traceback (most recent call last):\n")
					for f := range 24 {
						fmt.Fprintf(&tb, "  File \"/usr/lib/python3/site-packages/sklearn/step%d_%d.py\", line %d, in run%d\n    out = stage%d(x)\n", i, f, 100*i+f, f, i*f)
					}
					tb.WriteString("ValueError: columns are missing: {'id'}")
					return ok("Python", args, tb.String())
				}
				other := map[int]string{1: "NameError: name 'model' is not defined", 4: "ValueError: columns are missing: {'Gender', 'Geography'}"}[i]
				return ok("Python", args, "Traceback (most recent call last):\n  File \"/w/predict.py\", line 12, in <module>\n"+other)
			}), []string{"5:errors:Python failed × 4"}},
		{"one failure fixed after another, each met once, is debugging",
			nil, times(7, func(i int) step {
				msg := []string{"NameError: name 'model' is not defined", "KeyError: 'id'", "ValueError: columns are missing: {'Gender'}",
					"TypeError: fit() missing 1 required positional argument: 'y'", "ValueError: Input contains NaN", "IndexError: list index out of range",
					"AttributeError: 'DataFrame' object has no attribute 'ravel'"}[i]
				return ok("Python", fmt.Sprintf("Python(file_path=\"predict.py\"):\nattempt = %d", i), "Traceback (most recent call last):\n  File \"/w/predict.py\", line 12, in <module>\n"+msg)
			}), nil},
		{"the same script run by its relative and its absolute path, failing alike across edits, is one failure",
			nil, times(7, func(i int) step {
				if i%2 == 1 {
					return ok("write_file", fmt.Sprintf(`{"path":"repro.py","content":"v%d"}`, i), "wrote repro.py")
				}
				cmd := []string{`python3 repro.py`, `python3 /workspace/repro.py`, `cd /workspace && python3 repro.py`, `python3 /workspace/repro.py`}[i/2]
				return fail("bash", `{"command":"`+cmd+`"}`, "Traceback (most recent call last):\nFileNotFoundError: [Errno 2] No such file or directory: '/matplotlib/lib/category.py'")
			}), []string{"6:errors:bash failed × 4"}},
		{"a failure whose naming line moves on across edits is progress, however alike the rest",
			nil, times(7, func(i int) step {
				if i%2 == 1 {
					return ok("write_file", fmt.Sprintf(`{"path":"/opt/libs/l%d.so","content":"v"}`, i), "wrote the library")
				}
				lib := []string{"libspice-server.so.1", "libbrlapi.so.0.8", "libsasl2.so.2", "libgstapp-1.0.so.0"}[i/2]
				return fail("bash", `{"command":"LD_LIBRARY_PATH=/opt/libs /opt/qemu-native/usr/bin/qemu-system-x86_64 --version"}`,
					"/opt/qemu-native/usr/bin/qemu-system-x86_64: error while loading shared libraries: "+lib+": cannot open shared object file: No such file or directory\n\nCommand not found")
			}), nil},
		{"a check made again after each fix a domain's own tool applies is progress (act, then verify)",
			nil, []step{
				ok("toggle_wifi_calling", `{}`, "Wi-Fi Calling is now OFF."),
				ok("can_send_mms", `{}`, "Your messaging app cannot send MMS messages."),
				ok("grant_app_permission", `{"app_name":"messaging","permission":"sms"}`, "Success"),
				ok("can_send_mms", `{}`, "Your messaging app cannot send MMS messages."),
				ok("reset_apn_settings", `{}`, "APN settings will reset at reboot."),
				ok("can_send_mms", `{}`, "Your messaging app cannot send MMS messages."),
			}, nil},
		{"the same domain action made again with the same answer is still a repeat",
			nil, times(3, func(int) step {
				return ok("send_certificate", `{"amount":200,"user_id":"mei_brown_7075"}`, "Certificate added to user mei_brown_7075 with amount 200.")
			}), []string{"2:stuck:send_certificate × 3"}},
		{"a build whose failing tests fall across edits is progress, though every failing build ends alike",
			nil, times(9, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":"AuthConfig.java","old":"a%d","new":"b%d"}`, i, i), "edited AuthConfig.java")
				}
				return fail("bash", `{"command":"./gradlew clean test"}`, gradleRun(28, []int{28, 20, 12, 5, 2}[i/2], 30+i))
			}), nil},
		{"a lint whose count of problems falls across edits is progress, though most of its findings stay (r72a F1)",
			nil, times(7, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":"Manual.jsx","old":"a%d","new":"b%d"}`, i, i), "edited Manual.jsx")
				}
				return fail("run_shell_command", `{"command":"npm run lint"}`, eslintRun([]int{13, 8, 9, 9}[i/2]))
			}), nil},
		{"a monorepo build failing in one package after another, each after the edits that fixed the one before, is progress, though the runner's closing lines stay (r76a F1)",
			nil, times(9, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":"src/m%d.ts","old":"a","new":"b"}`, i), "edited")
				}
				return fail("run_terminal_cmd", `{"command":"pnpm build"}`, []string{
					turboRun("design", "src/tailwind-preset.ts(32,7): error TS1117: An object literal cannot have multiple properties with the same name."),
					turboRun("core", "src/commands.ts(115,7): error TS2531: Object is possibly 'null'."),
					turboRun("core", "src/model.ts(253,7): error TS2322: Type 'MindNode | null' is not assignable to type 'MindNode'."),
					turboRun("ui", "../core/src/index.ts(8,15): error TS6059: File '/Users/moi/bigmind/packages/core/src/index.ts' is not under 'rootDir'."),
					turboRun("web", "src/App.tsx(3,10): error TS2305: Module '@bigmind/ui' has no exported member 'Canvas'."),
				}[i/2])
			}), nil},
		{"the same package failing the same way after every edit is reminded, the runner's lines aside",
			nil, times(7, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":"src/model.ts","old":"a%d","new":"b%d"}`, i, i), "edited")
				}
				return fail("run_terminal_cmd", `{"command":"pnpm build"}`,
					turboRun("core", "src/model.ts(253,7): error TS2322: Type 'MindNode | null' is not assignable to type 'MindNode'."))
			}), []string{"6:errors:run_terminal_cmd failed × 4"}},
		{"a docker build failing on one type error after another, each after the edit that fixed the one before, is progress, though BuildKit's verdict stays (r179a F3)",
			nil, times(9, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":"lib/types.ts","old":"a%d","new":"b%d"}`, i, i), "edited")
				}
				return fail("run_terminal_cmd", `{"command":"docker compose --profile build-test build frontend-build-test"}`, []string{
					dockerBuildRun("Type error: Parameter 'discount' implicitly has an 'any' type."),
					dockerBuildRun("Type error: Parameter 'item' implicitly has an 'any' type."),
					dockerBuildRun("Type error: Module '@prisma/client' has no exported member 'sales_ordersUpdateInput'."),
					dockerBuildRun("Type error: Property 'total' does not exist on type '{ order_date: Date; }'."),
					dockerBuildRun("Type error: Property 'OR' does not exist on type '{ deleted_at: null; }'."),
				}[i/2])
			}), nil},
		{"a docker build failing on the same type error after every edit is reminded, BuildKit's lines aside",
			nil, times(7, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":"lib/types.ts","old":"a%d","new":"b%d"}`, i, i), "edited")
				}
				return fail("run_terminal_cmd", `{"command":"docker compose --profile build-test build frontend-build-test"}`,
					dockerBuildRun("Type error: Property 'OR' does not exist on type '{ deleted_at: null; }'."))
			}), []string{"6:errors:run_terminal_cmd failed × 4"}},
		{"a workflow run locally failing one step further each time is progress, though act's verdict stays (r179a F2)",
			nil, times(11, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":".github/workflows/ci.yml","old":"a%d","new":"b%d"}`, i, i), "edited")
				}
				step := []string{"Install dependencies", "Get PR information", "Build", "Run the tests", "Lint", "Upload the report"}[i/2]
				return fail("run_terminal_cmd", `{"command":"act -j analyze -W .github/workflows/ci.yml"}`,
					"[CI/analyze] ⭐ Run Main "+step+"\n| npm ERR! missing script: "+strings.ToLower(strings.ReplaceAll(step, " ", "-"))+
						"\n[CI/analyze]   ❌  Failure - Main "+step+"\n[CI/analyze] exitcode '1': failure\n[CI/analyze] 🏁  Job failed\nError: Job 'analyze' failed")
			}), nil},
		{"a script that fails to compile, rewritten and run again and again, wrote nothing: the same syntax error four times in a row is told (r179d M3)",
			nil, times(4, func(i int) step {
				code := fmt.Sprintf("Python(file_path=\"./build_model.py\"):\n```python\nimport pandas as pd\ndata = pd.read_csv('train.csv')\nn_estimators = %d\nwith open('result.csv', 'w') as f:\n    f.write(str(len(data)))\n``` ", 100+i)
				return ok("Python", code, "File \"/workspace/./build_model.py\", line 6\n    ``` \n    ^\nSyntaxError: invalid syntax")
			}), []string{"3:errors:Python failed × 4"}},
		{"a shell line that writes a script and runs it changed the workspace, though the script fails to compile: no chain of failures in one workspace, but the same failure outlasting four rewrites",
			nil, times(4, func(i int) step {
				return ok("bash", fmt.Sprintf(`{"command":"cat > x.py <<'EOF'\nn = %d\nprint(n\nEOF\npython x.py"}`, i), "  File \"/w/x.py\", line 2\n    print(n\n         ^\nSyntaxError: '(' was never closed")
			}), []string{"3:errors:the same failure × 4 from 4 commands"}},
		{"a lint that counts the same problems after every edit is reminded: the edits did not reach them",
			nil, times(7, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":"Inventory.jsx","old":"a%d","new":"b%d"}`, i, i), "edited Inventory.jsx")
				}
				return fail("run_shell_command", `{"command":"npm run lint"}`, eslintRun(9))
			}), []string{"6:errors:run_shell_command failed × 4"}},
		{"an editor's sub-command is not a command line: different rejected edits are not one command failing",
			nil, times(7, func(i int) step {
				if i%2 == 1 {
					return ok("str_replace_editor", fmt.Sprintf(`{"command":"create","path":"n%d.py","file_text":"x"}`, i), "File created successfully")
				}
				return fail("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"m.py","old_str":"a%d","new_str":"b"}`, i), "No replacement was performed, old_str did not appear verbatim in m.py.")
			}), nil},
		{"the same failure four times with a single edit among them is reminded: the edit did not reach it",
			nil, []step{
				fail("run_tests", `{}`, "FAIL TestParse: got 2 want 3"),
				ok("cat", `{"path":"a.go"}`, "package a // one"),
				fail("run_tests", `{}`, "FAIL TestParse: got 2 want 3"),
				ok("edit_file", `{"path":"p.go","old":"a1","new":"b1"}`, "edited p.go"),
				fail("run_tests", `{}`, "FAIL TestParse: got 2 want 3"),
				ok("cat", `{"path":"b.go"}`, "package b // two"),
				fail("run_tests", `{}`, "FAIL TestParse: got 2 want 3"),
			}, []string{"6:errors:run_tests failed × 4"}},
		{"a replacement rejected for the same target, its new text rewritten each time, across edits that land, is one failing edit",
			nil, times(8, func(i int) step {
				if i%2 == 1 {
					return ok("str_replace_editor", fmt.Sprintf(`{"command":"insert","path":"/w/match.c","insert_line":%d,"new_str":"x%d"}`, 300+i, i), "The file /w/match.c has been edited.")
				}
				return ok("str_replace_editor", fmt.Sprintf(`{"command":"str_replace","path":"/w/match.c","old_str":"return pattern_type;","new_str":"if (iso%d) pattern_type = trn; return pattern_type;"}`, i),
					"ERROR:\nNo replacement was performed. Multiple occurrences of old_str `return pattern_type;` in lines [317, 449]. Please ensure it is unique.")
			}), []string{"6:errors:str_replace_editor failed × 4"}},
		{"a failure the edits do not reach is told again each time its count doubles (r169b)",
			nil, times(32, func(i int) step {
				if i%2 == 1 {
					return ok("edit", fmt.Sprintf(`{"path":"repro.py","old":"sleep(%d)","new":"sleep(%d)"}`, i, i+1), "edited repro.py")
				}
				return fail("bash", `{"command":"python repro.py"}`, "EXECUTION TIMED OUT")
			}), []string{"6:errors:bash failed × 4", "14:errors:bash failed × 8", "30:errors:bash failed × 16"}},
		{"runs around the same failure whose output moves (debug prints added between them) are told once: each shows something new",
			nil, times(32, func(i int) step {
				if i%2 == 1 {
					return ok("edit", fmt.Sprintf(`{"path":"query.py","old":"x%d","new":"print(%d)"}`, i, i), "edited query.py")
				}
				return fail("bash", `{"command":"python repro.py"}`, fmt.Sprintf("DEBUG value=%s\nTraceback (most recent call last):\n  File \"repro.py\", line 9\nInterfaceError: Error binding parameter 0", strings.Repeat("v", i)))
			}), []string{"8:errors:bash failed × 5"}},
		{"a long cycle: the same ten looks in the same order, unchanged, three times round, is a cycle",
			nil, times(30, func(i int) step {
				k := i % 10
				return ok("str_replace_editor", fmt.Sprintf(`{"command":"view","path":"/w/cm.py","view_range":[%d,%d]}`, 100*k, 100*k+30), fmt.Sprintf("%d\tdef f%d(self):\n%d\t    return %d", 100*k, k, 100*k+1, k))
			}), []string{"21:stuck:str_replace_editor read again × 3", "29:cycle:cycle of 10 × 3"}}, // (its pages read a third time, told first)
		{"a long sweep made again and again: the same 32 looks in the same order, unchanged, three times round, is a cycle (r168a M1)",
			nil, times(96, func(i int) step {
				k := i % 32
				return ok("bash", fmt.Sprintf(`search_file "pip install" src/m%d.py`, k), fmt.Sprintf(`No matches found for "pip install" in /w/src/m%d.py`, k))
			}), []string{"95:cycle:cycle of 32 × 3"}},
		{"a cycle longer than maxCyclePeriod is not looked for (its pages read a third time are)",
			func(p *ProgressConfig) { p.MaxCyclePeriod = 8 },
			times(30, func(i int) step {
				k := i % 10
				return ok("str_replace_editor", fmt.Sprintf(`{"command":"view","path":"/w/cm.py","view_range":[%d,%d]}`, 100*k, 100*k+30), fmt.Sprintf("%d\tdef f%d(self):\n%d\t    return %d", 100*k, k, 100*k+1, k))
			}), []string{"21:stuck:str_replace_editor read again × 3"}},
		{"a command moved between two failures and back by the edits is reminded, one repeat later",
			nil, times(11, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":"p.py","old":"a%d","new":"b%d"}`, i, i), "edited p.py")
				}
				if i%4 == 0 {
					return fail("bash", `{"command":"python repro.py"}`, "Traceback (most recent call last):\n  File \"repro.py\", line 3\nImproperlyConfigured: settings are not configured")
				}
				return fail("bash", `{"command":"python repro.py"}`, "Traceback (most recent call last):\n  File \"repro.py\", line 9\nLookupError: No installed app with label 'repro'")
			}), []string{"10:errors:bash failed × 5"}},
		{"a failure that comes back after another (a debug print broken once) was never fixed: its chain goes on",
			nil, times(13, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":"p.py","old":"a%d","new":"b%d"}`, i, i), "edited p.py")
				}
				if i == 8 {
					return fail("bash", `{"command":"python repro.py"}`, "  File \"p.py\", line 12\n    print(f\"DEBUG {x\")\nSyntaxError: f-string: expecting '}'")
				}
				return fail("bash", `{"command":"python repro.py"}`, debugRun(i))
			}), []string{"10:errors:bash failed × 5"}},
		{"a third failure is news: the chain starts afresh",
			nil, times(11, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":"p.py","old":"a%d","new":"b%d"}`, i, i), "edited p.py")
				}
				failures := []string{"ImproperlyConfigured: settings are not configured", "LookupError: No installed app with label 'repro'",
					"OperationalError: no such table: repro_item", "AssertionError: expected 3 items, got 0", "TypeError: save() got an unexpected keyword argument 'force'",
					"ValueError: invalid literal for int() with base 10: 'x'"}
				return fail("bash", `{"command":"python repro.py"}`, "Traceback (most recent call last):\n  File \"repro.py\", line 3\n"+failures[i/2])
			}), nil},
		{"a failure that names a different reason each run is news",
			nil, times(9, func(i int) step {
				if i%2 == 1 {
					return ok("edit_file", fmt.Sprintf(`{"path":"p.py","old":"a%d","new":"b%d"}`, i, i), "edited p.py")
				}
				return fail("bash", `{"command":"pytest tests/test_p.py"}`, strings.Replace(debugRun(i), "got 2", fmt.Sprintf("got %d", 10+i), 1))
			}), nil},
		{"an edit that failed changes nothing: the re-run is still a repeat",
			nil, []step{
				fail("run_tests", `{}`, "FAIL TestParse"),
				fail("edit_file", `{"path":"p.go","old":"zz","new":"y"}`, "Error: old text not found in p.go"),
				fail("run_tests", `{}`, "FAIL TestParse"),
				fail("run_tests", `{}`, "FAIL TestParse"),
			}, []string{"3:stuck:run_tests × 3"}},
		{"a shell command that writes a file is a change too",
			nil, []step{
				fail("bash", `{"command":"pytest -q"}`, "1 failed"),
				ok("bash", `{"command":"sed -i 's/a/b/' x.py"}`, ""),
				fail("bash", `{"command":"pytest -q"}`, "1 failed"),
				ok("bash", `{"command":"cat > x.py <<'EOF'\nprint(1)\nEOF"}`, ""),
				fail("bash", `{"command":"pytest -q"}`, "1 failed"),
			}, nil},
		{"Cline CLI's run_commands: a command list that edits a file is a change, and the re-run after it is not stuck",
			nil, []step{
				fail("run_commands", `{"commands":["pytest -q"]}`, "1 failed"),
				ok("run_commands", `{"commands":["sed -i 's/a/b/' x.py"]}`, ""),
				fail("run_commands", `{"commands":["pytest -q"]}`, "1 failed"),
				ok("run_commands", `{"commands":["sed -i 's/b/c/' x.py"]}`, ""),
				fail("run_commands", `{"commands":["pytest -q"]}`, "1 failed"),
			}, nil},
		{"writing the same thing again changes nothing the second time",
			nil, times(3, func(int) step { return ok("bash", `{"command":"sed -i 's/x/x/' m.py"}`, "") }),
			[]string{"2:stuck:bash × 3"}},
		{"volatile details do not make a result new",
			nil, times(3, func(i int) step {
				return ok("bash", `{"command":"make test"}`, fmt.Sprintf(
					"\x1b[31mFAIL\x1b[0m at 2026-12-0%dT10:0%d:00Z pid %d took %d.%dms id 3f2a9c%d1b7e request %08x-1234-4abc-8def-0123456789ab\r 10%%\r 100%%\ntmp: /tmp/pytest-%d/x   ",
					i+1, i, 4000+i, i, i*7, i, i*97, i))
			}), []string{"2:stuck:bash × 3"}},
		{"a one-shot batch of distinct arguments is not a loop",
			nil, times(12, func(i int) step {
				return ok("read_file", fmt.Sprintf(`{"path":"pkg/f%d.go"}`, i), fmt.Sprintf("package pkg\n\nfunc F%d() int { return %d }", i, i*i))
			}), nil},
		{"a two-pass batch is not a loop",
			nil, times(10, func(i int) step {
				return ok("read_file", fmt.Sprintf(`{"path":"pkg/f%d.go"}`, i%5), fmt.Sprintf("package pkg\n\nfunc F%d() int { return 1 }", i%5))
			}), nil},
		{"ping-pong whose outcomes progress is not a loop",
			nil, times(12, func(i int) step {
				if i%2 == 0 {
					return ok("bash", `{"command":"tail -n 3 build.log"}`, fmt.Sprintf("step %d compiled\nstep %d linked", i, i))
				}
				return ok("bash", `{"command":"ls out/"}`, strings.Repeat("artifact ", i))
			}), nil},
		{"ping-pong with unchanged outcomes is a cycle, reminded when it has come round three times",
			nil, times(8, func(i int) step {
				if i%2 == 0 {
					return ok("grep", `{"pattern":"Token"}`, "lexer.go:12: tok Token")
				}
				return ok("read_file", `{"path":"lexer.go"}`, "package parser")
			}), []string{"5:cycle:cycle of 2 × 3"}},
		{"a cycle of six is found",
			nil, times(18, func(i int) step {
				return ok("view", fmt.Sprintf(`{"path":"f%d.py"}`, i%6), fmt.Sprintf("The path f%d.py does not exist.", i%6))
			}), []string{"5:churn:view same result × 6", "17:cycle:cycle of 6 × 3"}},
		{"bookkeeping calls are transparent: they neither count nor break a chain",
			nil, []step{grep(0), ok("TodoWrite", `{"todos":[1]}`, "ok"), grep(0), ok("think", `{"t":"hmm"}`, "ok"), grep(0)},
			[]string{"4:stuck:grep × 3"}},
		{"a sequential-thinking MCP tool is transparent under Cursor's name for it too (mcp_<server>_<tool>, r77a): \"Continuing...\" between its steps is no loop",
			nil, times(9, func(i int) step {
				if i%2 == 0 {
					return thought("Continuando...")
				}
				return ok("mcp_Sequential_Thinking_sequentialthinking", fmt.Sprintf(`{"thought":"step %d of the plan","thoughtNumber":%d}`, i, i),
					`{"nextThoughtNeeded": true, "branches": [], "thoughtHistoryLength": 3}`)
			}), nil},
		{"todo lists under any agent's name, Claude Code's task list and Copilot CLI's intents are transparent",
			nil, times(9, func(i int) step {
				switch i % 3 {
				case 0:
					return ok("grep", `{"pattern":"Token"}`, "lexer.go:12: tok Token")
				case 1:
					return ok("read_file", `{"path":"lexer.go"}`, "package parser")
				}
				book := []step{
					ok("SetTodoList", fmt.Sprintf(`{"todos":[{"title":"step %d","status":"done"}]}`, i), "Todo list updated"),
					ok("TaskUpdate", fmt.Sprintf(`{"taskId":"%d","status":"completed"}`, i), fmt.Sprintf("Updated task #%d status", i)),
					ok("report_intent", fmt.Sprintf(`{"intent":"Searching, round %d"}`, i), "Intent logged"),
				}
				return book[i/3]
			}),
			[]string{"7:cycle:cycle of 2 × 3"}},
		{"a bookkeeping tool its host says failed the same way again and again is a loop (r155a M2)",
			nil, times(5, func(i int) step {
				return fail("task_tracker", fmt.Sprintf(`{"refused_attempt":%d}`, i), `Missing required argument "task_list" for "plan" command in tool call task_tracker`)
			}), []string{"3:errors:task_tracker failed × 4"}},
		{"a bookkeeping call that goes through ends its tool's run of failures",
			nil, []step{
				fail("TodoWrite", `{"todos":1}`, "InputValidationError: todos must be a list"),
				fail("TodoWrite", `{"todos":2}`, "InputValidationError: todos must be a list"),
				ok("TodoWrite", `{"todos":[3]}`, "Todos have been modified successfully"),
				fail("TodoWrite", `{"todos":4}`, "InputValidationError: todos must be a list"),
				fail("TodoWrite", `{"todos":5}`, "InputValidationError: todos must be a list"),
			}, nil},
		{"an exempt tool failing again and again is not watched: the exemption is the user's word",
			func(p *ProgressConfig) { p.Exempt = []string{"task_tracker"} },
			times(5, func(i int) step {
				return fail("task_tracker", fmt.Sprintf(`{"refused_attempt":%d}`, i), `Missing required argument "task_list"`)
			}), nil},
		{"the same task-list view again and again is not watched",
			nil, times(8, func(int) step { return ok("TaskList", `{}`, "#1 [in_progress] Fix the parser") }), nil},
		{"Copilot CLI reading a background shell that has printed nothing new is polling",
			nil, times(8, func(int) step { return ok("read_bash", `{"shellId":"1","delay":30}`, "npm run build\n> tsc -p .") }), nil},
		{"a monitor of a running process that has nothing new is polling",
			nil, times(8, func(int) step { return ok("Monitor", `{"command":"tail -f build.log"}`, "No new events.") }), nil},
		{"an exempt tool is never reminded",
			func(p *ProgressConfig) { p.Exempt = []string{"Bash*"} },
			times(8, func(int) step { return ok("BashOutput", `{"id":"1"}`, "still running") }), nil},
		{"repeated unknown-tool failures with changing arguments are a loop",
			nil, times(5, func(i int) step {
				return fail("open_file", fmt.Sprintf(`{"path":"src/mod%d.py"}`, i), "Error: no tool named open_file is available; use one of read, write, bash")
			}), []string{"3:errors:open_file failed × 4"}},
		{"a retry that succeeds ends the error chain",
			nil, []step{
				fail("apply_patch", `{"patch":"a"}`, "Error: patch does not apply at hunk 1: context mismatch in util.py line 40"),
				fail("apply_patch", `{"patch":"b"}`, "Error: patch does not apply at hunk 1: context mismatch in util.py line 40"),
				fail("apply_patch", `{"patch":"c"}`, "Error: patch does not apply at hunk 1: context mismatch in util.py line 40"),
				ok("apply_patch", `{"patch":"d"}`, "Done: 1 file changed"),
				fail("apply_patch", `{"patch":"e"}`, "Error: patch does not apply at hunk 1: context mismatch in util.py line 40"),
			}, nil},
		{"a search that finds nothing, answered with nothing, for guess after guess is churn",
			nil, times(6, func(i int) step {
				return ok("find", fmt.Sprintf("find / -name \"%s*\" 2>/dev/null", []string{"jdk_info", "system_config", "env_vars", "java_related", "error_log", "dev_env"}[i]), "")
			}), []string{"5:churn:find same result × 6"}},
		{"a search refused for matching too much, query after query, is churn: nothing came back",
			nil, times(6, func(i int) step {
				q := []string{"def", "import", "self", "return", "class", "test"}[i]
				return ok("search_dir", q, fmt.Sprintf("More than 100 files matched for \"%s\" in /testbed. Please narrow your search.", q))
			}), []string{"5:churn:search_dir same result × 6"}},
		{"a shell search that finds nothing is churn too, whatever the tool is called",
			nil, times(6, func(i int) step {
				return ok("Bash", fmt.Sprintf(`{"command":"grep -rn \"%s\" /testbed/tests"}`, []string{"dns_name", "DNS", "unicode_dns", "msgid", "make_msgid", "domain"}[i]), "")
			}), []string{"5:churn:Bash same result × 6"}},
		{"one question put to file after file, answered 'No matches found' each time, is a sweep, not churn",
			nil, times(8, func(i int) step {
				return ok("Grep", fmt.Sprintf(`{"pattern":"^\\s*//","path":"/repo/api/src/models/m%d.js","output_mode":"count"}`, i),
					"No matches found\n\nFound 0 total occurrences across 0 files.")
			}), nil},
		{"the same file searched for one guess after another, nothing found each time, is churn",
			nil, times(6, func(i int) step {
				return ok("Grep", fmt.Sprintf(`{"pattern":"%s","path":"/repo/tests/mail/tests.py"}`, []string{"dns_name", "DNS", "unicode_dns", "msgid", "make_msgid", "domain"}[i]),
					"No matches found\n\nFound 0 total occurrences across 0 files.")
			}), []string{"5:churn:Grep same result × 6"}},
		{"a text game's 'Nothing happens.' to action after action is churn: two words that say nothing came of it",
			nil, times(6, func(i int) step {
				return ok("take", fmt.Sprintf("take cd 3 from %s", []string{"drawer 1", "drawer 2", "shelf 1", "desk 1", "bed 1", "safe 1"}[i]), "Nothing happens.")
			}), []string{"5:churn:take same result × 6"}},
		{"a walk from place to place, each answered in two words of its own, is not churn",
			nil, times(6, func(i int) step {
				return ok("go", fmt.Sprintf("go to drawer %d", i+1), []string{"Drawer open.", "Drawer closed.", "Shelf empty.", "Lamp on.", "Bed made.", "Safe locked."}[i])
			}), nil},
		{"a batch of commands that answer nothing when they succeed is not churn",
			nil, times(6, func(i int) step { return ok("Bash", fmt.Sprintf(`{"command":"mkdir -p /app/pkg%d"}`, i), "") }), nil},
		{"argument churn: many variants of one call, the same answer, is no progress",
			nil, times(8, func(i int) step {
				return fail("bash", fmt.Sprintf(`{"command":"ssh -o Opt%d=yes deploy@10.0.0.%d uptime"}`, i, i),
					fmt.Sprintf("deploy@10.0.0.%d: Permission denied (publickey,password).", i))
			}), []string{"3:errors:bash failed × 4"}},
		{"argument churn that succeeds is reminded later",
			nil, times(8, func(i int) step {
				return ok("search_docs", fmt.Sprintf(`{"q":"token%d"}`, i), fmt.Sprintf("No documents match token%d. Try a broader query or check the spelling.", i))
			}), []string{"5:churn:search_docs same result × 6"}},
		{"a batch of distinct actions, each acknowledged alike, is not argument churn",
			nil, times(8, func(i int) step {
				return ok("send_email", fmt.Sprintf(`{"to":"buyer%d@shop.test","subject":"Low stock: item %d"}`, i, i), "Email sent successfully to the recipient.")
			}), nil},
		{"a user message ends every chain",
			nil, slices.Concat(times(2, grep), []step{userSpeaks()}, times(2, grep)), nil},
		{"a call failing the same way after each user message is stuck all the same",
			nil, []step{book, userSpeaks(), book, ok("search_flights", `{"from":"ATL"}`, "HAT052 03:00 ATL-LAS"), userSpeaks(), book},
			[]string{"5:stuck:update_reservation × 3"}},
		{"a tool failing with the same error after each user message, its arguments changing, is an error loop",
			nil, times(7, func(i int) step {
				if i%2 == 1 {
					return userSpeaks()
				}
				return fail("update_reservation", fmt.Sprintf(`{"id":"XEWRD9","flights":["HAT030","HAT%d"]}`, 100+i),
					"Error: flight HAT030 not available on date 2024-05-13")
			}), []string{"6:errors:update_reservation failed × 4"}},
		{"a tool answering alike after each user message, without failing, is not churn",
			nil, times(11, func(i int) step {
				if i%2 == 1 {
					return userSpeaks()
				}
				return ok("search_flights", fmt.Sprintf(`{"from":"ATL","date":"2024-05-%d"}`, 10+i), "No flights found for this route and date.")
			}), nil},
		{"climbing the tree with the same relative cd is moving, not stuck",
			nil, times(4, func(int) step { return ok("bash", "cd ..\n", "") }), nil},
		{"a cd that fails the same way is stuck",
			nil, times(3, func(int) step {
				return ok("bash", "cd fastjson/\n", "/bin/bash: line 11301: cd: fastjson/: No such file or directory")
			}), []string{"2:stuck:bash × 3"}},
		{"the same cd to an absolute place lands in the same place",
			nil, times(3, func(int) step { return ok("bash", "cd /repo\n", "") }), []string{"2:stuck:bash × 3"}},
		{"a tool of its own that climbs the tree with a relative folder is moving, not stuck",
			nil, times(4, func(int) step { return ok("cd", `{"folder":".."}`, "None") }), nil},
		{"a cd tool's caption is no second argument: the climbs are still moves",
			nil, times(4, func(int) step { return ok("cd", `{"folder":"..","explanation":"go up one level"}`, "None") }), nil},
		{"a cd tool to an absolute place lands in the same place",
			nil, times(3, func(int) step { return ok("cd", `{"folder":"/workspace"}`, "None") }), []string{"2:stuck:cd × 3"}},
		{"a cd tool that fails the same way is stuck",
			nil, times(3, func(int) step { return fail("cd", `{"folder":"temp"}`, "Error: cd: temp: No such directory") }),
			[]string{"2:stuck:cd × 3"}},
		{"a cd tool's move leaves the failure chains alone: the same failure after it is a loop",
			nil, times(8, func(i int) step {
				if i%2 == 1 {
					return ok("cd", `{"folder":".."}`, "None")
				}
				return fail("mv", `{"source":"final_report.pdf","destination":"temp"}`, "Error: mv: no path allowed in destination")
			}), []string{"4:stuck:mv × 3"}},
		{"a call whose result is unknown cannot be said to bring nothing new",
			nil, times(6, func(int) step { return unanswered("read_file", `Read file: src/rag/store.py`) }), nil},
		{"an edit whose outcome is unknown is taken as landed: the same read after each is not stuck",
			nil, times(8, func(i int) step {
				if i%2 == 0 {
					return unanswered("edit_file", `Edit file: src/Shell.tsx`)
				}
				return ok("cat", `{"path":"src/Shell.tsx"}`, "export function Shell() { return null }")
			}), nil},
		{"a call that succeeds after the user spoke ends its failure chain",
			nil, []step{book, userSpeaks(), book, userSpeaks(),
				ok("update_reservation", `{"id":"XEWRD9","flights":["HAT030","HAT223"]}`, "Reservation XEWRD9 updated to flights HAT030, HAT223"),
				userSpeaks(), book, userSpeaks(), book}, nil},
		{"a failing call that waits after the user spoke is polled, not stuck",
			nil, []step{book, userSpeaks(), book, ok("bash", `{"command":"sleep 30"}`, ""), userSpeaks(), book}, nil},
		{"the same call answered the same after each user message, without failing, starts afresh each time",
			nil, slices.Concat(times(2, grep), []step{userSpeaks()}, times(2, grep), []step{userSpeaks()}, times(2, grep)), nil},
		{"a thought repeated while the calls bring nothing new is a loop",
			nil, slices.Concat(
				[]step{thought("Let me look at the whole file first."), ok("view", `{"range":[1,40]}`, lines(1, 40))},
				[]step{thought("Let's check the _expand_files method:"), ok("view", `{"range":[1,20]}`, lines(1, 20))},
				[]step{thought("Let's check the _expand_files method:"), ok("view", `{"range":[10,30]}`, lines(10, 30))},
				[]step{thought("Let's check the _expand_files method:"), ok("view", `{"range":[20,40]}`, lines(20, 40))},
				[]step{thought("Let's check the _expand_files method:"), ok("view", `{"range":[5,25]}`, lines(5, 25))},
				// (The first look, lines 1 to 40, is what the thought began on: every window
				// after it shows its lines again, and the third restating is told.)
			), []string{"7:thought:same thought × 3"}},
		// (The cycle's third round comes in the quiet calls after the thought's notice; the
		// model goes round once more after them, and the cycle is told then.)
		{"a thought said at every call of a cycle, once the cycle goes round in full, is the cycle's: the cycle rule alone reminds (r168a M2)",
			nil, thoughtCycle(3, 60), []string{"11:thought:same thought × 6", "23:cycle:cycle of 3 × 4", "35:cycle:cycle of 3 × 6", "95:cycle:cycle of 3 × 16"}},
		{"what the model read after the user spoke and before it spoke again is what its next thought began on",
			nil, slices.Concat(
				[]step{thought("Let me look around first."), ok("ls", `{"path":"."}`, "src/app/config.py\nsrc/app/main.py"), userSpeaks()},
				[]step{ok("view", `{"range":[1,40]}`, lines(1, 40))},
				[]step{thought("Let's check the _expand_files method:"), ok("view", `{"range":[1,20]}`, lines(1, 20))},
				[]step{thought("Let's check the _expand_files method:"), ok("view", `{"range":[10,30]}`, lines(10, 30))},
				[]step{thought("Let's check the _expand_files method:"), ok("view", `{"range":[20,40]}`, lines(20, 40))},
			), []string{"9:thought:same thought × 3"}},
		{"an edit the user declines, corrected by the user each time, is a conversation, not a loop",
			nil, func() []step {
				declined := "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed."
				edit := func(n int) step {
					return fail("Edit", fmt.Sprintf(`{"file_path":"/src/CLAUDE.md","old_string":"#### Checkpoints","new_string":"#### Checkpoints\\nversion %d of the section"}`, n), declined)
				}
				return []step{edit(1), userSays("the first part is not correct, for manual commits we use git hooks"),
					ok("Read", `{"file_path":"/src/hooks.go"}`, "func prepareCommitMsg() {\n\taddTrailer()\n}"),
					edit(2), userSays("there is also the approach to search the commit by its trailer"),
					edit(3), userSays("again, this is not correct: the link goes both ways"),
					ok("Edit", `{"file_path":"/src/CLAUDE.md","old_string":"#### Checkpoints","new_string":"#### Checkpoints\\nversion 4"}`, "The file /src/CLAUDE.md has been updated.")}
			}(), nil},
		{"a thought repeated while paging through new content is not",
			nil, slices.Concat(times(25, func(i int) step {
				if i%2 == 0 {
					return thought("The function is still not visible. I will keep scrolling down to find its definition.")
				}
				return ok("scroll_down", "", lines(i*50, i*50+40))
			})), nil},
		{"a 37-character thought said 20 times is a loop, whatever the calls brought",
			nil, times(40, func(i int) step {
				if i%2 == 0 {
					return thought("Let's check the _expand_files method:")
				}
				return ok("view", fmt.Sprintf(`{"range":[%d,%d]}`, i*30, i*30+20), lines(i*30, i*30+20))
			}), []string{"38:thought:same thought × 20"}},
		{"a thought said again after the view went back twice is a loop",
			nil, times(24, func(i int) step {
				if i%2 == 0 {
					return thought("Let's check the _expand_files method:")
				}
				start := []int{620, 650, 500, 450, 400, 350, 300, 250, 200, 150, 100, 50}[i/2]
				return ok("view", fmt.Sprintf(`{"path":"/testbed/pylinter.py","range":[%d,%d]}`, start, start+20), lines(start, start+20))
			}), []string{"8:thought:same thought × 5"}},
		{"a thought said while the view steps back over a file, told at its fourth saying",
			nil, times(12, func(i int) step {
				if i%2 == 0 {
					return thought("Let's check the _expand_files method:")
				}
				start := 650 - 50*(i/2)
				return ok("view", fmt.Sprintf(`{"path":"/testbed/pylinter.py","range":[%d,%d]}`, start, start+20), lines(start, start+20))
			}), []string{"6:thought:same thought × 4"}},
		{"two windows back in one reply are one step back: said a third time, the thought is not yet a sweep (review r21 M4)",
			nil, []step{
				thought("Let's check the _expand_files method:"), ok("view", `{"path":"/testbed/pylinter.py","range":[650,670]}`, lines(650, 670)),
				thought("Let's check the _expand_files method:"),
				{tool: "view", args: `{"path":"/testbed/pylinter.py","range":[600,620]}`, result: lines(600, 620), turn: "r2"},
				{tool: "view", args: `{"path":"/testbed/pylinter.py","range":[550,570]}`, result: lines(550, 570), turn: "r2"},
				thought("Let's check the _expand_files method:"), ok("view", `{"path":"/testbed/pylinter.py","range":[700,720]}`, lines(700, 720)),
			}, nil},
		{"three windows back to a class's header, found at the third, are a look-up, not a loop",
			nil, slices.Concat(times(6, func(i int) step {
				if i%2 == 0 {
					return thought("Let's look at the FileSystemStorage class initialization:")
				}
				start := []int{300, 200, 150}[i/2]
				return ok("view", fmt.Sprintf(`{"path":"/testbed/storage.py","range":[%d,%d]}`, start, start+50), lines(start, start+50))
			}), []step{thought("Now I understand the issue better: the class keeps a file_permissions_mode."),
				ok("view", `{"path":"/testbed/storage.py","range":[220,240]}`, lines(220, 240))}), nil},
		{"a thought repeated while reading a file on in order is not a loop before the limit, and one step back is a correction",
			nil, slices.Concat(times(24, func(i int) step {
				if i%2 == 0 {
					return thought("Let me check the imports.py file for the unused-import checker:")
				}
				return ok("view", fmt.Sprintf(`{"path":"/testbed/imports.py","range":[%d,%d]}`, i/2*100+1, i/2*100+100), lines(i/2*100+1, i/2*100+100))
			}), []step{thought("Let me check the imports.py file for the unused-import checker:"),
				ok("view", `{"path":"/testbed/imports.py","range":[1101,1118]}`, lines(1101, 1118))}), nil},
		{"a thought repeated while reading one file after another is not a loop before the limit",
			nil, times(30, func(i int) step {
				if i%2 == 0 {
					return thought("Let me look at the next module.")
				}
				name := string(rune('z' - i/2))
				return ok("view", fmt.Sprintf(`{"path":"/testbed/%s.py","range":[1,40]}`, name), strings.ReplaceAll(lines(1, 40), "value", name))
			}), nil},
		{"the same line-numbered edit sent again, the file growing each time, is the same change made again",
			nil, times(4, func(i int) step { return ok("edit", "edit 74:74\n    def deserialize(self):", grownView(i)) }),
			[]string{"2:stuck:edit × 3"}},
		{"the same edit with a test run after each is still the same change made again",
			nil, slices.Concat(
				[]step{ok("edit", "edit 74:74\n    def deserialize(self):", grownView(0)), ok("run_tests", "", "1 failed")},
				[]step{ok("edit", "edit 74:74\n    def deserialize(self):", grownView(1)), ok("run_tests", "", "1 failed")},
				[]step{ok("edit", "edit 74:74\n    def deserialize(self):", grownView(2))}),
			[]string{"4:stuck:edit × 3"}},
		{"the same change made again speaks its detailed sixth, three calls after its third, as a same call does",
			nil, times(7, func(i int) step { return ok("edit", "edit 74:74\n    def deserialize(self):", grownView(i)) }),
			[]string{"2:stuck:edit × 3", "5:stuck:edit × 6"}},
		{"an edit made again and again, its file growing each time, is never a poll however long it goes on",
			nil, times(33, func(i int) step {
				// SWE-agent shows the same window after each insertion, only the file's length moving
				var b strings.Builder
				fmt.Fprintf(&b, "[File: /repo/Main.java (%d lines total)]\n", 341+13*i)
				for k := 1; k <= 20; k++ {
					fmt.Fprintf(&b, "%d:    import com.fasterxml.jackson.databind.Type%d;\n", k, k)
				}
				b.WriteString("File updated. Please review the changes and make sure they are correct.")
				return ok("edit", "edit 1:1\nimport com.fasterxml.jackson.databind.ObjectMapper;", b.String())
			}),
			[]string{"2:stuck:edit × 3", "5:stuck:edit × 6", "15:stuck:edit × 16", "25:stuck:edit × 26"}},
		{"a failing build re-run after each change of the shell's environment is a new experiment each time",
			nil, []step{fail("bash", `{"command":"./mvnw compile"}`, "Error: JAVA_HOME is not defined correctly."),
				ok("bash", `{"command":"export JAVA_HOME=/usr/lib/jvm/java-11"}`, ""),
				fail("bash", `{"command":"./mvnw compile"}`, "Error: JAVA_HOME is not defined correctly."),
				ok("bash", `{"command":"export JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64"}`, ""),
				fail("bash", `{"command":"./mvnw compile"}`, "Error: JAVA_HOME is not defined correctly.")},
			nil},
		{"another change between two runs of an edit ends the chain",
			nil, []step{ok("edit", "edit 74:74\n    def deserialize(self):", grownView(0)), ok("edit", "edit 10:10\nimport os", "[File: a.py]\n10:import os"),
				ok("edit", "edit 74:74\n    def deserialize(self):", grownView(1)), ok("edit", "edit 10:10\nimport os", "[File: a.py]\n10:import os\n11:import os"),
				ok("edit", "edit 74:74\n    def deserialize(self):", grownView(2))},
			nil},
		{"a move in an environment answered one short line each time is a step, not the same change made again",
			nil, times(6, func(i int) step { return ok("move", `{"direction":"north"}`, fmt.Sprintf("(3,%d)", i+1)) }), nil},
		{"an edit whose new text calls a pop method is no step back through history",
			nil, times(4, func(i int) step { return ok("edit", "edit 74:74\n        item = stack.pop()", grownView(i)) }),
			[]string{"2:stuck:edit × 3"}},
		{"an undo repeated is a step further back each time, not the same change",
			nil, times(5, func(i int) step {
				return ok("str_replace_editor", `{"command":"undo_edit","path":"a.py"}`, grownView(4-i))
			}), nil},
		{"edits an exporter kept only as a summary are not the same change when their diffs differ",
			nil, times(4, func(i int) step {
				return ok("search_replace", "Edit file: run.py\n**Chunk 1**\nLines added: 2, lines removed: 2",
					fmt.Sprintf("@@ -%d,6 +%d,6 @@\n- %s\n+ %s", 40*i, 40*i, []string{"from src.graph import create", "workflow = create()", "import src.settings as s", "reload(s)"}[i],
						[]string{"from graph import get", "workflow = get()", "import settings as s", "reload(s, force=True)"}[i]))
			}), nil},
		{"the same message three times with only a harness's reprompts between is a monologue",
			nil, []step{ok("run_tests", "", "4 passed"), thought("I have completed the task: the fix is in place and the tests pass."), reprompt(),
				thought("I have completed the task: the fix is in place and the tests pass."), reprompt(),
				thought("I have completed the task: the fix is in place and the tests pass."), reprompt()},
			[]string{"5:thought:same thought × 3"}},
		{"the same message back after three answers in words alone, reworded each time, is told at the next answer (a stop hook, r90a M2)",
			nil, []step{harnessSays(stopHook), thought("The hook script is missing, so the stop hook fails."),
				harnessSays(stopHook), thought("The error persists because settings.json names a hook file that does not exist."),
				harnessSays(stopHook), thought("This keeps firing: the configured stop.py was never created."),
				harnessSays(stopHook), thought("The stop hook loops because its file is missing.")},
			[]string{"7:thought:same message answered × 3"}},
		{"a reprompt sent a third time, answered by words that come before the calls, is not told (r94c)",
			nil, []step{reprompt(), thought("Sure, I can help with that."),
				reprompt(), thought("Which file holds the login code?"),
				reprompt(), thought("I will fix it now."), grep(0)},
			nil},
		{"a person saying the same thing after each answer is a conversation, not the same message resent (r94a F1)",
			nil, []step{userSays("I leave it to you."), thought("Should the map be 2D or 3D?"),
				userSays("I leave it to you."), thought("Here is a draft with a 3D view."),
				userSays("I leave it to you."), thought("Then the plan is: 3D, one layer per floor."),
				userSays("I leave it to you."), thought("I will start with the ground floor.")},
			nil},
		{"the same message answered by a call in between is not answered in words alone",
			nil, []step{harnessSays(stopHook), thought("The hook script is missing."), harnessSays(stopHook), grep(0),
				thought("Let me look for the hook."), harnessSays(stopHook), thought("The configured stop.py was never created.")},
			nil},
		{"the same message answered in words alone is told once per stretch: answers that make no call never end the quiet calls (r95b)",
			nil, slices.Concat([]step{grep(0)}, times(14, func(i int) step {
				if i%2 == 0 {
					return harnessSays(stopHook)
				}
				return thought(fmt.Sprintf("Explanation number %d of why the hook fails.", i))
			})),
			[]string{"8:thought:same message answered × 3"}},
		{"a user message that repeats the previous one word for word is a reprompt too",
			nil, []step{userSays("continue"), thought("Done."), userSays("continue"), thought("Done."), userSays("continue"), thought("Done.")},
			[]string{"5:thought:same thought × 3"}},
		{"a monologue right after a notice about calls is still told: it makes no call to wait out",
			nil, slices.Concat(times(3, grep), []step{thought("I am done."), reprompt(), thought("I am done."), reprompt(), thought("I am done.")}),
			[]string{"2:stuck:grep × 3", "7:thought:same thought × 3"}},
		{"a reprompt a harness is known to send is the harness's, whoever the host says sent it (Gemini CLI's, r72a U3)",
			nil, slices.Concat(times(2, grep), []step{userSays("System: Please continue."), grep(0)}),
			[]string{"3:stuck:grep × 3"}},
		{"mini-swe-agent 2's reprompt for a reply without a call is the harness's (r224a)",
			nil, slices.Concat(times(2, grep), []step{userSays("No tool calls found in the response. Every response MUST include at least one tool call."), grep(0)}),
			[]string{"3:stuck:grep × 3"}},
		{"a person's new words between the same calls are a new turn",
			nil, slices.Concat(times(2, grep), []step{userSays("Please continue."), grep(0)}),
			nil},
		{"user messages that differ only in a number are two messages, not a reprompt",
			nil, []step{userSays("wait 5 seconds and check"), thought("Done."), userSays("wait 90 seconds and check"), thought("Done."), userSays("wait 300 seconds and check"), thought("Done.")},
			nil},
		{"the same answer to three different requests of a person is not a monologue",
			nil, []step{userSays("is the build green?"), thought("Done."), userSays("and the linter?"), thought("Done."), userSays("and the docs?"), thought("Done.")},
			nil},
		{"a scheduled prompt fired every quarter of an hour is a new turn each time, its words the same (validation round r60c F1)",
			nil, times(9, func(i int) step {
				at := int64(i/3) * 15 * 60_000
				switch i % 3 {
				case 0:
					return step{user: true, userText: "Check PRs #135 and #140 for new commits and review them.", at: at}
				case 1:
					return step{tool: "Bash", args: `{"command":"gh pr view 135 --json commits"}`, result: `{"commits":[{"oid":"a1b2c3"}]}`, at: at + 4_000}
				}
				return step{text: "No new commits on either PR.", at: at + 9_000}
			}), nil},
		{"the same prompt sent again at once is a reprompt: the check repeated after it is stuck",
			nil, times(9, func(i int) step {
				at := int64(i) * 2_000
				switch i % 3 {
				case 0:
					return step{user: true, userText: "Check PRs #135 and #140 for new commits and review them.", at: at}
				case 1:
					return step{tool: "Bash", args: `{"command":"gh pr view 135 --json commits"}`, result: `{"commits":[{"oid":"a1b2c3"}]}`, at: at}
				}
				return step{text: "No new commits on either PR.", at: at}
			}), []string{"7:stuck:Bash × 3"}},
		{"a reprompt is not a user turn: a call repeated across reprompts with the same result is stuck",
			nil, []step{ok("run_tests", "", "1 failed"), thought("The task is complete."), reprompt(),
				ok("run_tests", "", "1 failed"), thought("The task is complete now."), reprompt(), ok("run_tests", "", "1 failed")},
			[]string{"6:stuck:run_tests × 3"}},
		{"a person's message between the same calls starts afresh",
			nil, []step{ok("run_tests", "", "1 failed"), userSays("look again"),
				ok("run_tests", "", "1 failed"), userSays("and again"), ok("run_tests", "", "1 failed")},
			nil},
		{"structured output within one text is not a repeated thought",
			nil, []step{thought("| file | status |\n|---|---|\n" + strings.Repeat("| a.go | ok |\n", 30)),
				ok("ls", "", "a.go"), thought("- item\n" + strings.Repeat("- same item again\n", 30)), ok("ls", `{"d":1}`, "b.go")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := progressRun(t, defaultProgress(tt.cfg), tt.steps)
			if !slices.Equal(got, tt.want) {
				t.Errorf("notices\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// lines returns numbered source lines from..to, as a file viewer prints them.
// debugRun is a failing test run whose debug prints differ from run i to run i+2, while
// the line naming the failure stays the same.
func debugRun(i int) string {
	var b strings.Builder
	b.WriteString("============ test session starts ============\ncollected 1 item\n")
	for j := 0; j < 6; j++ {
		fmt.Fprintf(&b, "DEBUG probe%d_%d: state=%c%c handle=%s\n", i, j, 'a'+byte(i), 'k'+byte(j), strings.Repeat("x", i+j))
	}
	b.WriteString("FAILED tests/test_p.py::test_parse - AssertionError: got 2 want 3\n======= 1 failed in 0.12s =======")
	return b.String()
}

// unittestRun is what Python's unittest prints for a suite with failures failing tests, the
// last of them failing with assertion.
func unittestRun(assertion string, failures int) string {
	return "Creating test database for alias 'default'...\n" +
		"======================================================================\n" +
		"FAIL: test_change_view (admin_views.tests.AdminViewTests.test_change_view)\n" +
		"----------------------------------------------------------------------\n" +
		"Traceback (most recent call last):\n  File \"/testbed/tests/admin_views/tests.py\", line 412, in test_change_view\n" +
		"    self.assertEqual(response.status_code, 200)\n" + assertion + "\n\n" +
		"----------------------------------------------------------------------\n" +
		fmt.Sprintf("Ran %d tests in 0.214s\n\nFAILED (failures=%d)\n", failures+4, failures) +
		"Destroying test database for alias 'default'...\n"
}

// gradleRun is what Gradle prints for a test task with failed of completed tests failing,
// taking seconds: its last line, the build's verdict, is the same for every failing build.
// turboRun is what `pnpm build` prints when turbo's build of one package of a monorepo fails
// on a TypeScript error: the compiler's line, turbo's and pnpm's closing lines.
// dockerBuildRun is what `docker compose build` prints of a Next.js build failing in its
// Dockerfile's RUN step: the compiler's error, then a code frame, the step's last lines,
// BuildKit's verdicts and the Dockerfile's lines around the step, which push the error more
// than 2 KB from the end.
func dockerBuildRun(tsError string) string {
	var b strings.Builder
	b.WriteString("#14 [builder 4/4] RUN npm run build\n#14 20.31 > next build\n#14 31.02 Failed to compile.\n#14 32.81 ./app/api/articles/route.ts:25:7\n")
	b.WriteString("#14 32.81 " + tsError + "\n")
	for i := 20; i < 30; i++ {
		fmt.Fprintf(&b, "#14 32.81 \x1b[90m %d |\x1b[39m         { code\x1b[33m:\x1b[39m { contains\x1b[33m:\x1b[39m search\x1b[33m,\x1b[39m mode\x1b[33m:\x1b[39m \x1b[32m'insensitive'\x1b[39m } }\x1b[33m,\x1b[39m\n", i)
	}
	b.WriteString("#14 32.86 Next.js build worker exited with code: 1 and signal: null\n")
	for range 3 {
		b.WriteString("#14 32.87 npm notice New major version of npm available! 10.8.2 -> 11.6.2\n#14 32.87 npm notice To update run: npm install -g npm@11.6.2\n")
	}
	b.WriteString("#14 ERROR: process \"/bin/sh -c npm run build\" did not complete successfully: exit code: 1\n------\n > [builder 4/4] RUN npm run build:\n")
	for i := 20; i < 26; i++ {
		fmt.Fprintf(&b, "32.81  \x1b[90m %d |\x1b[39m         { description\x1b[33m:\x1b[39m { contains\x1b[33m:\x1b[39m search } }\x1b[33m,\x1b[39m\n", i)
	}
	b.WriteString("32.86 Next.js build worker exited with code: 1 and signal: null\n------\nDockerfile.dev:57\n\n--------------------\n\n")
	b.WriteString("  55 |     \n\n  56 |     # This is where the build will fail with TypeScript errors\n\n  57 | >>> RUN npm run build\n\n  58 |     \n\n  59 |     # Production stage\n\n--------------------\n\n")
	b.WriteString("failed to solve: process \"/bin/sh -c npm run build\" did not complete successfully: exit code: 1")
	return b.String()
}

func turboRun(pkg, tsError string) string {
	dir := "/Users/moi/bigmind/packages/" + pkg
	return "@bigmind/" + pkg + ":build: > tsc && vite build\n@bigmind/" + pkg + ":build: " + tsError + "\n" +
		"@bigmind/" + pkg + ":build: \u2009ELIFECYCLE\u2009 Command failed.\n\n Tasks:    1 successful, 2 total\nCached:    0 cached, 2 total\n  Time:    555ms\n" +
		"Failed:    @bigmind/" + pkg + "#build\n\n" +
		"@bigmind/" + pkg + ":build: ERROR: command finished with error: command (" + dir + ") /opt/homebrew/bin/pnpm run build exited (2)\n" +
		"@bigmind/" + pkg + "#build: command (" + dir + ") /opt/homebrew/bin/pnpm run build exited (2)\n" +
		" ERROR  run failed: command  exited (2)\n\u2009ELIFECYCLE\u2009 Command failed with exit code 2."
}

// eslintRun is what Gemini CLI's shell tool answers for `npm run lint` finding problems: the
// findings of files the task did not touch, the ones it did, ESLint's closing count, then the
// tool's own fields.
func eslintRun(problems int) string {
	var b strings.Builder
	b.WriteString("Command: npm run lint\nDirectory: (root)\nOutput: \n> dashboard@0.0.0 lint\n> eslint .\n\n")
	b.WriteString("src/App.jsx\n  31:10  error  'isCollapsed' is assigned a value but never used     no-unused-vars\n")
	b.WriteString("  31:23  error  'setIsCollapsed' is assigned a value but never used  no-unused-vars\n\n")
	b.WriteString("src/components/Card.jsx\n  1:8  error  'React' is defined but never used  no-unused-vars\n\n")
	b.WriteString("src/components/TableGrid.jsx\n    6:10  error  'updateTableSettings' is defined but never used  no-unused-vars\n\n")
	for i := 0; i < 24; i++ { // warnings of files no task touched
		fmt.Fprintf(&b, "src/components/Widget%d.jsx\n  5:14  warning  Fast refresh only works when a file only exports components  react-refresh/only-export-components\n", i)
	}
	b.WriteString("src/components/Manual.jsx\n")
	for i := 5; i < problems; i++ {
		fmt.Fprintf(&b, "  %d:91  error  `'` can be escaped with `&apos;`  react/no-unescaped-entities\n", 100+i)
	}
	fmt.Fprintf(&b, "\n✖ %d problems (%d errors, 24 warnings)\n", problems+24, problems)
	b.WriteString("Error: (none)\nExit Code: 1\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 5564")
	return b.String()
}

func gradleRun(completed, failed, seconds int) string {
	return "> Task :compileJava\n" +
		"AuthControllerTest > testLoginWithWrongPassword() FAILED\n    java.lang.AssertionError at AuthControllerTest.java:110\n\n" +
		"> Task :test FAILED\n\n" +
		fmt.Sprintf("%d tests completed, %d failed\n\n", completed, failed) +
		"FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':test'.\n" +
		"> There were failing tests. See the report at: file:///work/app/build/reports/tests/test/index.html\n\n" +
		"* Try:\n> Run with --scan to get full insights.\n\n" +
		fmt.Sprintf("BUILD FAILED in %ds\n6 actionable tasks: 6 executed\n", seconds)
}

func TestFailureSignature(t *testing.T) {
	tb := func(frame, last string) string {
		return "Traceback (most recent call last):\n  File \"r.py\", line " + frame + ", in <module>\n    main()\n" + last + "\n"
	}
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{"a traceback is named by its exception line, not its frames",
			tb("31", "ValueError: bad token 'x'"), tb("35", "ValueError: bad token 'x'"), true},
		{"two exceptions differ",
			tb("31", "ValueError: bad token 'x'"), tb("31", "KeyError: 'x'"), false},
		{"an exception without a message is still named",
			tb("31", "AssertionError"), tb("40", "AssertionError"), true},
		{"pytest's summary line names the failing test and reason",
			"DEBUG a\nFAILED t.py::test_a - Failed: nomatch\n=== 1 failed in 0.1s ===", "DEBUG b\nDEBUG c\nFAILED t.py::test_a - Failed: nomatch\n=== 1 failed in 0.3s ===", true},
		{"another failing test is another failure",
			"FAILED t.py::test_a - Failed: nomatch", "FAILED t.py::test_b - Failed: nomatch", false},
		{"volatile fields in the line are masked",
			"Error: connect to 10.0.0.1 timed out after 1500ms", "Error: connect to 10.0.0.1 timed out after 1712ms", true},
		{"unittest's closing count names no failure: the assertion above it does",
			unittestRun("AssertionError: 302 != 200", 1), unittestRun("AssertionError: User should have change permission", 1), false},
		{"the same assertion failing under unittest's closing count is the same failure",
			unittestRun("AssertionError: 302 != 200", 1), unittestRun("AssertionError: 302 != 200", 1), true},
		{"a closing count that moved under the same assertion is progress",
			unittestRun("AssertionError: 302 != 200", 3), unittestRun("AssertionError: 302 != 200", 1), false},
		{"a build's closing verdict names no failure: a count of failures that moved above it is progress",
			gradleRun(28, 28, 71), gradleRun(28, 18, 55), false},
		{"the same build failing the same way is the same failure, whatever it took",
			gradleRun(4, 1, 56), gradleRun(4, 1, 28), true},
		{"npm's closing lines name no failure either",
			"Error: Cannot find module './config'\nnpm ERR! code ELIFECYCLE\nnpm ERR! errno 1\nnpm ERR! app@1.0.0 build: `node build.js`\nnpm ERR! Exit status 1\nnpm ERR! Failed at the app@1.0.0 build script.",
			"Error: Cannot find module './routes'\nnpm ERR! code ELIFECYCLE\nnpm ERR! errno 1\nnpm ERR! app@1.0.0 build: `node build.js`\nnpm ERR! Exit status 1\nnpm ERR! Failed at the app@1.0.0 build script.", false},
		{"a count of failures that moved after the failing line is progress",
			"FAILED t.py::test_a - Failed: nomatch\n=== 3 failed, 2 passed in 0.1s ===", "FAILED t.py::test_a - Failed: nomatch\n=== 1 failed, 4 passed in 0.1s ===", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := failureSignature(tt.a), failureSignature(tt.b)
			if a == 0 || b == 0 {
				t.Fatalf("no signature: %x %x", a, b)
			}
			if (a == b) != tt.same {
				t.Errorf("same = %v, want %v", a == b, tt.same)
			}
		})
	}
	for _, s := range []string{"", "all 12 tests passed", "ok parser 0.01s\n"} {
		if got := failureSignature(s); got != 0 {
			t.Errorf("failureSignature(%q) = %x, want 0: no line names a failure", s, got)
		}
	}
}

func lines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%6d\tvalue_%d = compute(value_%d, %d)\n", i, i, i-1, i*7)
	}
	return b.String()
}

func TestProgressDenyRefusesOnlyConfirmedRepeats(t *testing.T) {
	deny := func(p *ProgressConfig) { p.Mode, p.DenyAfter = ModeDeny, 4 }
	grep := ok("grep", `{"pattern":"foo"}`, "a.go:12: foo()")
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"the call that would make the chain denyAfter long is refused",
			times(5, func(int) step { return grep }),
			[]string{"2:stuck:grep × 3", "3:deny", "4:deny"}},
		{"a refusal stays once made",
			times(7, func(int) step { return grep }),
			[]string{"2:stuck:grep × 3", "3:deny", "4:deny", "5:deny", "6:deny"}},
		{"other arguments are not refused",
			slices.Concat(times(5, func(int) step { return grep }), []step{ok("grep", `{"pattern":"bar"}`, "b.go:1: bar")}),
			[]string{"2:stuck:grep × 3", "3:deny", "4:deny"}},
		{"a change of the workspace lifts the refusal",
			slices.Concat(times(5, func(int) step { return grep }), []step{ok("edit_file", `{"p":1}`, "edited"), grep}),
			[]string{"2:stuck:grep × 3", "3:deny", "4:deny"}},
		{"the user speaking lifts it",
			slices.Concat(times(5, func(int) step { return grep }), []step{userSpeaks(), grep}),
			[]string{"2:stuck:grep × 3", "3:deny", "4:deny"}},
		{"a harness's answer to a reply's form is no call a host could hold back: never refused (r193a)",
			times(6, func(int) step {
				return step{tool: "(no action)", result: "Please always provide EXACTLY ONE action in triple backticks.", source: SourceHarness}
			}),
			[]string{"2:stuck:(no action) × 3", "5:stuck:(no action) × 6"}},
		{"a command the harness cut short is not refused: run again, it may end otherwise (r193a)",
			times(6, func(int) step {
				return fail("bash", `{"command":"open pvlib/pvsystem.py 1242"}`, "EXECUTION FAILED OR COMMAND MALFORMED")
			}),
			[]string{"2:stuck:bash × 3", "5:stuck:bash × 6"}},
		{"nor is one that ran out of time",
			times(6, func(int) step {
				return ok("run_shell_command", `{"command":"npm install"}`, "Command timed out after 30000ms before it could complete. Below is the output before it timed out:\nnpm http fetch GET 200")
			}),
			[]string{"2:stuck:run_shell_command × 3", "5:stuck:run_shell_command × 6"}},
		{"polling that advances is never refused",
			times(40, func(i int) step {
				return ok("build_status", `{"id":"b7"}`, fmt.Sprintf("build b7: running, %d of 40 steps done (compile, test, package)", i))
			}),
			[]string{"30:poll:build_status polled × 31"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := progressRun(t, defaultProgress(deny), tt.steps)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// Check asks without changing anything: asking twice, or asking and not running, leaves the
// chain as it was.
func TestProgressCheckChangesNothing(t *testing.T) {
	e, _ := New(defaultProgress(func(p *ProgressConfig) { p.Mode, p.DenyAfter = ModeDeny, 3 }))
	grep := Call("a", "grep", []byte(`{"pattern":"foo"}`)).WithResult("x.go:1: foo", false)
	e.Observe(grep)
	e.Observe(grep)
	for range 3 {
		if _, refused := e.Check(grep); !refused {
			t.Fatal("the third identical call was not refused")
		}
	}
	before := e.Snapshot("a")
	e.Check(grep)
	if string(e.Snapshot("a")) != string(before) {
		t.Error("Check changed the agent's state")
	}
}

func TestProgressNoticesSayWhatWasSeenInEveryLocale(t *testing.T) {
	for _, locale := range Locales() {
		t.Run(locale, func(t *testing.T) {
			cfg := defaultProgress(func(p *ProgressConfig) { p.PollBudget = 3 })
			cfg.Locale = locale
			e, _ := New(cfg)
			var texts []string
			feed := func(ev Event) {
				for _, n := range e.Observe(ev) {
					texts = append(texts, n.Kind+"|"+n.Text)
				}
			}
			for range 6 {
				feed(Call("a", "grep_code", []byte(`{"q":"x"}`)).WithResult("hit.go:1: x", false))
			}
			feed(Event{Type: EventUser, Agent: "a"})
			for i := range 6 {
				feed(Call("a", []string{"find_def", "open_src"}[i%2], nil).WithResult("same answer every time", false))
			}
			feed(Event{Type: EventUser, Agent: "a"})
			for i := range 4 {
				feed(Call("a", "deploy", []byte(fmt.Sprintf(`{"v":%d}`, i))).WithResult("Error: permission denied for deploy key on host prod-1", true))
			}
			feed(Event{Type: EventUser, Agent: "a"})
			for i := range 6 {
				feed(Call("a", "lookup", []byte(fmt.Sprintf(`{"v":%d}`, i))).WithResult("no entry found in the registry for that name", false))
			}
			feed(Event{Type: EventUser, Agent: "a"})
			for i := range 5 {
				feed(Call("a", "job_status", nil).WithResult(fmt.Sprintf("job 12 running: %d of 9 shards written to the output bucket", i), false))
			}
			// The thought rule, both ways: the calls bring back nothing new, or they keep moving.
			feed(Event{Type: EventUser, Agent: "a"})
			say := func() { feed(Event{Type: EventText, Agent: "a", Source: "model", Text: "Let me find the parser."}) }
			for i := range 4 {
				say()
				feed(Call("a", "view", []byte(fmt.Sprintf(`{"range":[%d,%d]}`, 1+i%2, 20+i%2))).WithResult("line one\nline two", false))
			}
			feed(Event{Type: EventUser, Agent: "a"})
			for i := range 20 {
				say()
				feed(Call("a", "view", []byte(fmt.Sprintf(`{"range":[%d,%d]}`, 100*i, 100*i+20))).WithResult(fmt.Sprintf("text of page %d\nand more of page %d", i, i), false))
			}
			// And with no call at all between, the model answering a harness's reprompts.
			feed(Event{Type: EventUser, Agent: "a"})
			for range 3 {
				say()
				feed(Event{Type: EventUser, Agent: "a", Source: "harness", Text: "Please continue working on the task."})
			}
			var thoughts []string
			for _, t := range texts {
				if k, text, _ := strings.Cut(t, "|"); k == KindThought {
					thoughts = append(thoughts, text)
				}
			}
			if len(thoughts) != 3 || thoughts[0] == thoughts[1] || thoughts[1] == thoughts[2] || thoughts[0] == thoughts[2] {
				t.Fatalf("want three different thought notices (nothing new, moving on, no call), got %q", thoughts)
			}
			for i, want := range []string{"4", "20", "3"} {
				if !strings.Contains(thoughts[i], want) || !strings.Contains(thoughts[i], "Let me find the parser.") {
					t.Errorf("thought notice %d does not say %q and the thought: %s", i, want, thoughts[i])
				}
			}
			kinds := map[string]string{}
			for _, t := range texts {
				k, text, _ := strings.Cut(t, "|")
				if _, ok := kinds[k]; !ok {
					kinds[k] = text
				}
			}
			wantIn := map[string][]string{
				KindStuck:  {"grep_code", "3"},
				KindCycle:  {"find_def → open_src", "3"},
				KindErrors: {"deploy", "4"},
				KindChurn:  {"lookup", "6"},
				KindPoll:   {"job_status", "4"},
			}
			for kind, parts := range wantIn {
				text, ok := kinds[kind]
				if !ok {
					t.Errorf("no %s notice; got %q", kind, texts)
					continue
				}
				for _, p := range parts {
					if !strings.Contains(text, p) {
						t.Errorf("%s notice does not say %q: %s", kind, p, text)
					}
				}
				if !strings.HasPrefix(text, "[loopguard]") {
					t.Errorf("%s notice does not say who speaks: %s", kind, text)
				}
			}
		})
	}
}

func TestSleeplessHashLeavesOutTheWait(t *testing.T) {
	base := "sleep 5 && curl -sf localhost:8000/health"
	tests := []struct {
		name, args string
		same       bool
	}{
		{"another whole number of seconds", "sleep 30 && curl -sf localhost:8000/health", true},
		{"a fraction", "sleep 0.5 && curl -sf localhost:8000/health", true},
		{"a unit", "sleep 2m && curl -sf localhost:8000/health", true},
		{"more spaces", "sleep   10   &&   curl -sf localhost:8000/health", true},
		{"another check", "sleep 5 && curl -sf localhost:9000/health", false},
		{"no sleep", "curl -sf localhost:8000/health", false},
		{"a word that starts like sleep", "sleepy 5 && curl -sf localhost:8000/health", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sleeplessHash([]byte(tt.args)) == sleeplessHash([]byte(base)); got != tt.same {
				t.Errorf("same(%q, %q) = %v, want %v", tt.args, base, got, tt.same)
			}
		})
	}
}

func TestSleeplessHashReadsOtherSpellingsOfSleep(t *testing.T) {
	tests := []struct {
		name, a, b string
		same       bool
	}{
		{"Python", `python -c "import time; time.sleep(2); check()"`, `python -c "import time; time.sleep(30); check()"`, true},
		{"JavaScript", "node -e 'await sleep(500); poll()'", "node -e 'await sleep(2000); poll()'", true},
		{"PowerShell with a flag", "Start-Sleep -Seconds 5; Invoke-WebRequest http://localhost:8000", "Start-Sleep -Seconds 60; Invoke-WebRequest http://localhost:8000", true},
		{"PowerShell without one", "Start-Sleep 5; Get-Job", "Start-Sleep 10; Get-Job", true},
		{"what follows the sleep still counts", `python -c "time.sleep(2); check(1)"`, `python -c "time.sleep(2); check(2)"`, false},
		{"a sleep without a number is left as it is", `python -c "time.sleep(delay); a()"`, `python -c "time.sleep(pause); a()"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !hasSleep([]byte(tt.a)) || !hasSleep([]byte(tt.b)) {
				t.Fatalf("hasSleep does not see the sleep in %q or %q", tt.a, tt.b)
			}
			if got := sleeplessHash([]byte(tt.a)) == sleeplessHash([]byte(tt.b)); got != tt.same {
				t.Errorf("same(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.same)
			}
		})
	}
	for _, no := range []string{"sleepy 5", "asleep", "Sleeping Beauty", "sleep", "the sleeper(1)"} {
		if hasSleep([]byte(no)) {
			t.Errorf("hasSleep(%q) = true, want false", no)
		}
	}
}

// FuzzSleeplessHash: any arguments hash without panicking, and two commands that differ only in
// the length of a leading sleep hash alike.
func FuzzSleeplessHash(f *testing.F) {
	for _, s := range []string{"&& curl localhost:8000", "; make test", "5", "s", "sleep 3 && sleep", "", "\x00p"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rest string) {
		sleeplessHash([]byte(rest))
		a := sleeplessHash([]byte("sleep 1 " + rest))
		b := sleeplessHash([]byte("sleep 0.25 " + rest))
		if a != b {
			t.Errorf("sleep 1 and sleep 0.25 before %q hash differently", rest)
		}
	})
}

// FuzzCommandKey: any arguments are read without panicking, and a command keeps its key
// when run from a folder first or by an absolute path.
func FuzzCommandKey(f *testing.F) {
	for _, s := range []string{"make test", "python3 repro.py", `cd \\x && y`, "a\\nb", "\\", "cd", "cd x &&", "x/",
		"rm -rf build && make", "rm x;;python y", "rm\\n\\npython y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		commandKey("bash", []byte(cmd))
		commandKey("bash", []byte(`{"command":"`+cmd+`"}`))
		// removesThenRuns reads the same command lines; a cd step before one changes nothing.
		removesThenRuns([]byte(`{"command":"` + cmd + `"}`))
		if line := strings.TrimSpace(cmd); removesThenRuns([]byte(cmd)) && line[0] != '{' && line[0] != '[' && !removesThenRuns([]byte("cd /w && "+cmd)) {
			t.Errorf("%q removes and runs, and not after a cd step", cmd)
		}
		if strings.ContainsAny(cmd, "\\\"/ \t\r\n") || cmd == "" || cmd == "cd" {
			return // a word of its own: the checks below need one plain word
		}
		plain, _, ok1 := commandKey("bash", []byte(`{"command":"`+cmd+` now"}`))
		moved, _, ok2 := commandKey("bash", []byte(`{"command":"cd /w && /usr/bin/`+cmd+` now"}`))
		if !ok1 || !ok2 || plain != moved {
			t.Errorf("%q run from a folder by its path has another key", cmd)
		}
	})
}

// A result that opens with a failure under a harness's header (Cline's "Command executed
// successfully", over a script that printed only its error) opens with that failure.
// The MCP Python SDK's printed form of a tool's result carries the host's flag at its end, and
// a gateway's result the flag of the tool behind it in its text (validation round r97b U1).
func TestLooksFailedReadsAnMCPResultsPrintedFlag(t *testing.T) {
	for result, want := range map[string]bool{
		"meta=None content=[TextContent(type='text', text='Error executing tool execute-tool: MCP error -32602', annotations=None)] isError=True":                                                                  true,
		"meta=None content=[TextContent(type='text', text='{\"_meta\": null, \"content\": [{\"type\": \"text\", \"text\": \"File not found: /root/a.md\"}], \"isError\": true}', annotations=None)] isError=False": true,
		"meta=None content=[TextContent(type='text', text='{\"_meta\": null, \"content\": [{\"type\": \"text\", \"text\": \"42 rows\"}], \"isError\": false}', annotations=None)] isError=False":                   false,
		"CallToolResult(meta=None, content=[TextContent(type='text', text='ok')], isError=True)":                                                                                                                   true,
		"the docs say isError=True marks a failure": false,
	} {
		if got := looksFailed(result); got != want {
			t.Errorf("looksFailed(%q) = %v, want %v", result, got, want)
		}
	}
}

func TestOpensWithFailureReadsUnderTheHeader(t *testing.T) {
	for result, want := range map[string]bool{
		"Command executed successfully (exit code 0).\nOutput:\nError: read ECONNRESET": true,
		"Command executed successfully (exit code 0).\nOutput:\nconnected: 1 row":       false,
		"Exit code: 1\nWall time: 0.1 seconds\nOutput:\nfatal: not a git repository":    true,
		"  Traceback (most recent call last):\n  File \"x.py\"":                         true,
		"all good; Error: counts 0":                                                                       false,
		"Error during execution: invalid syntax (<string>, line 1)":                                       true,
		"Error running tool k8s-kubectl_create: Error invoking MCP tool kubectl_create: MCP error -32603": true,
		"Error executing tool list_sheets: <HttpError 404>":                                               true,
		"Tool web_search not found in agent Assistant":                                                    true,
		"Error handling is done in middleware.go":                                                         false,
		"Tool output:\nthe file was not found anywhere\n":                                                 false,
		"Tools found: 3":        false,
		"Tool call timed out.":  true,
		"\nEXECUTION TIMED OUT": true,
		"The command 'make\nmake test' was cancelled because it took more than 30 seconds.":                                                                  true,
		"The command 'make' printed nothing.":                                                                                                                false,
		"The last command <command>sleep 90</command> timed out and has been killed.":                                                                        true,
		"The last command <command>ls</command> printed the files below.":                                                                                    false,
		"<exception>An error occurred while executing the command: Command 'x' timed out after 60 seconds</exception>":                                       true,
		"Command was automatically cancelled because it exceeded the timeout of 5.0 minutes without output. Below is the output before it was cancelled:\n~": true,
	} {
		if got := opensWithFailure(result); got != want {
			t.Errorf("opensWithFailure(%q) = %v, want %v", result, got, want)
		}
	}
}

func TestExecHeaderEnd(t *testing.T) {
	tests := []struct {
		result, output string
	}{
		{"Chunk ID: b19e45\nWall time: 0.0005 seconds\nProcess exited with code 0\nOriginal token count: 4\nOutput:\nhi\n", "hi\n"},
		{"Chunk ID: b19e45\nWall time: 5.0 seconds\nProcess running with session ID 42\nOriginal token count: 0\nOutput:\n", ""},
		{"Exit code: 1\nWall time: 0.1 seconds\nOutput:\ncat: missing.txt: No such file or directory\n", "cat: missing.txt: No such file or directory\n"},
		{"Exit code: 0\nWall time: 0.1 seconds\nOutput:", ""},
		{"Output:\nhi", "Output:\nhi"}, // no header
		{"Chunk ID: b19e45 and then some text", "Chunk ID: b19e45 and then some text"}, // no Output: label
		{"exit code: 0\nOutput:\nhi", "exit code: 0\nOutput:\nhi"},                     // not Codex's spelling
		// a tool of Codex's JavaScript REPL (r113b F1)
		{"Wall time: 2.0534 seconds\nOutput:\n[{\"type\":\"text\",\"text\":\"Not a PNG screenshot\"}]", "[{\"type\":\"text\",\"text\":\"Not a PNG screenshot\"}]"},
		// Cline's headers
		{"Command executed successfully (exit code 0).\nOutput:\nError: read ECONNRESET", "Error: read ECONNRESET"},
		{"Command failed with exit code 1.\nOutput:\nThe system cannot find the file specified.", "The system cannot find the file specified."},
		{"Command executed successfully (exit code 0).", "Command executed successfully (exit code 0)."}, // nothing printed
		// the label OpenHands' trajectories put over every answer, and ReAct's
		{"OBSERVATION:\nERROR:\nNo replacement was performed.", "ERROR:\nNo replacement was performed."},
		{"OBSERVATION:  \r\nHere's the result of running `cat -n`", "Here's the result of running `cat -n`"},
		{"Observation: Error: page not found", "Error: page not found"},
		{"OBSERVATIONS: none", "OBSERVATIONS: none"}, // another word
		{"An observation: fine", "An observation: fine"},
		// a harness's return code on the first line
		{"rc=0\n", ""},
		{"rc=1\r\n[ERROR] no parent POM", "[ERROR] no parent POM"},
		{"rc=127", ""},
		{"rc=1234\nnot an exit status", "rc=1234\nnot an exit status"},
		{"rc=\nnothing", "rc=\nnothing"},
		{"rc=0 then words", "rc=0 then words"},
		{"rcx=0\n", "rcx=0\n"},
	}
	for _, tt := range tests {
		if got := tt.result[execHeaderEnd(tt.result):]; got != tt.output {
			t.Errorf("output of %q = %q, want %q", tt.result, got, tt.output)
		}
	}
}

func TestPageOfTellsWhereACallLooks(t *testing.T) {
	tests := []struct {
		name      string
		a, b      string
		sameShape bool
		bBeforeA  bool
	}{
		{"the next window of one file moves on", `{"path":"a.py","range":[1,100]}`, `{"path":"a.py","range":[101,200]}`, true, false},
		{"an earlier window of one file goes back", `{"path":"a.py","range":[500,520]}`, `{"path":"a.py","range":[450,470]}`, true, true},
		{"the same window is not going back", `{"path":"a.py","range":[5,9]}`, `{"path":"a.py","range":[5,9]}`, true, false},
		{"a window clipped at the same start goes back in its second number", `{"range":[1000,1100]}`, `{"range":[1000,1018]}`, true, true},
		{"numbers in a name are places too, compared first", `{"path":"py3.9/a.py","range":[40,60]}`, `{"path":"py3.9/a.py","range":[20,40]}`, true, true},
		{"two files are two shapes", `{"path":"a.py","range":[1,40]}`, `{"path":"b.py","range":[1,40]}`, false, false},
		{"a shell command paging with sed", `sed -n '200,240p' x.go`, `sed -n '160,200p' x.go`, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sa, pa := pageOf("view", []byte(tt.a))
			sb, pb := pageOf("view", []byte(tt.b))
			if (sa == sb) != tt.sameShape {
				t.Errorf("same shape = %v, want %v", sa == sb, tt.sameShape)
			}
			if tt.sameShape && pb.before(pa) != tt.bBeforeA {
				t.Errorf("%v before %v = %v, want %v", pb, pa, pb.before(pa), tt.bBeforeA)
			}
		})
	}
	if s1, _ := pageOf("view", []byte(`{"a":1}`)); s1 == func() uint64 { s, _ := pageOf("read", []byte(`{"a":1}`)); return s }() {
		t.Error("two tools with the same arguments have one shape")
	}
}

func TestAsksToPoll(t *testing.T) {
	tests := []struct {
		args string
		want bool
	}{
		{`{"action":"poll","sessionId":"a"}`, true},
		{`{"sessionId": "a", "action" : "log", "limit": 50}`, true},
		{`{"action":"status"}`, true},
		{`{"action":"kill","sessionId":"a"}`, false},
		{`{"action":"polling"}`, false},
		{`{"command":"poll"}`, false},
		{`{"action":7}`, false},
		{`{"action":"`, false},
		{``, false},
	}
	for _, tt := range tests {
		if got := readArgKeys([]byte(tt.args)).asksToPoll; got != tt.want {
			t.Errorf("asksToPoll(%s) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

// farRepeats is a failing test run made three times, nine calls apart (further than the
// window stuck looks back over), with between(i) for the calls between: i counts them, 0 to 17.
func farRepeats(between func(i int) step) []step {
	run := fail("bash", `{"command":"pytest -q tests/test_session.py"}`, "FFF\nFAILED tests/test_session.py::test_cookie - AssertionError: assert None == 'abc'\n3 failed in 0.21s")
	steps := []step{run}
	for i := 0; i < 18; i++ {
		steps = append(steps, between(i))
		if i%9 == 8 {
			steps = append(steps, run)
		}
	}
	return steps
}

func TestCommandKeyIsTheCommandWhereverItRuns(t *testing.T) {
	key := func(tool, args string) uint64 {
		k, _, ok := commandKey(tool, []byte(args))
		if !ok {
			t.Fatalf("commandKey(%s, %s): no command line", tool, args)
		}
		return k
	}
	same := []struct{ name, a, b string }{
		{"a script by its relative and its absolute path", `{"command":"python3 reproduce_issue.py"}`, `{"command":"python3 /workspace/reproduce_issue.py"}`},
		{"a cd step before the command", `{"command":"cd /testbed && pytest -q tests/test_a.py"}`, `{"command":"pytest -q tests/test_a.py"}`},
		{"a cd step ended by a semicolon, glued to its folder", `{"command":"cd /testbed; make test"}`, `{"command":"make test"}`},
		{"a Windows cd step and path, as JSON writes them", `{"command":"cd c:\\Apps\\proj\\terraform && terraform plan"}`, `{"command":"terraform plan"}`},
		{"runs of white space, escaped newlines included", `{"command":"go  test\n./..."}`, `{"command":"go test ./..."}`},
		{"a command line as the arguments (SWE-agent)", `python /testbed/repro.py`, `python repro.py`},
		{"the same command under other options", `{"command":"terraform plan"}`, `{"command":"terraform plan -out=tfplan"}`},
		{"options before and after the arguments", `{"command":"pytest -q tests/test_a.py"}`, `{"command":"pytest tests/test_a.py -x --tb=short"}`},
		{"a wait before the command (r251a)", `{"command":"sleep 5 && curl -s http://localhost:3000/api/c/1"}`, `{"command":"curl -s http://localhost:3000/api/c/1"}`},
		{"a wait ended by a semicolon, then a cd step", `{"command":"sleep 2; cd /w && make test"}`, `{"command":"make test"}`},
		{"a wait alone, whatever its length", `{"command":"sleep 5"}`, `{"command":"sleep 60"}`},
		{"a wait's length between two steps", `{"command":"make run; sleep 5; curl -s localhost:8080"}`, `{"command":"make run; sleep 30; curl -s localhost:8080"}`},
	}
	for _, tt := range same {
		t.Run(tt.name, func(t *testing.T) {
			if key("bash", tt.a) != key("bash", tt.b) {
				t.Errorf("%s and %s are two keys", tt.a, tt.b)
			}
		})
	}
	apart := []struct{ name, a, b string }{
		{"another script", `{"command":"python3 repro_a.py"}`, `{"command":"python3 repro_b.py"}`},
		{"another sub-command", `{"command":"terraform plan"}`, `{"command":"terraform apply"}`},
		{"an option's value given apart is an argument", `{"command":"pytest -k test_a"}`, `{"command":"pytest -k test_b"}`},
		{"a program named like an option is still the program", `{"command":"-x"}`, `{"command":"-y"}`},
		{"another commit message, quoted as JSON writes it", `{"command":"git commit -m \"fix a\""}`, `{"command":"git commit -m \"fix b\""}`},
		{"the same command line under other arguments", `{"command":"npm test","timeout":10}`, `{"command":"npm test","timeout":600}`},
		{"a cd that is the whole command", `{"command":"cd /a"}`, `{"command":"cd /b"}`},
		{"a wait that is the whole command is no other command", `{"command":"sleep 5"}`, `{"command":"curl a"}`},
		{"a sleep whose word is no duration is the command", `{"command":"sleep infinity && curl a"}`, `{"command":"curl a"}`},
		{"greps whose patterns end in a regex escape, not a Windows path (r159a F1)", `{"command":"grep -rn \"func.*JSON\\\\b\" event.go"}`, `{"command":"grep -rn \"JSON\\\\b\" event.go"}`},
		{"two resources of one web API whose paths end alike", `{"command":"curl -s https://data.rcsb.org/rest/v1/core/polymer_entity/2IB5/1 | jq -r .x"}`,
			`{"command":"curl -s https://data.rcsb.org/rest/v1/core/polymer_entity/4KGE/1 | jq -r .x"}`},
	}
	for _, tt := range apart {
		t.Run(tt.name, func(t *testing.T) {
			if key("bash", tt.a) == key("bash", tt.b) {
				t.Errorf("%s and %s are one key", tt.a, tt.b)
			}
		})
	}
	for _, args := range []string{`{"path":"a.go"}`, `{"command":["bash","-lc","ls"]}`, ``, `["ls"]`} {
		if _, _, ok := commandKey("tool", []byte(args)); ok {
			t.Errorf("commandKey(%s) found a command line", args)
		}
	}
}

func TestEditTargetKeyIsWhatTheReplacementTargets(t *testing.T) {
	key := func(args string) (uint64, bool) { return editTargetKey("str_replace_editor", []byte(args)) }
	a, okA := key(`{"command":"str_replace","path":"/w/m.c","old_str":"return x;","new_str":"if (a) return x;"}`)
	b, okB := key(`{"command":"str_replace","path":"/w/m.c","old_str":"return x;","new_str":"if (b)\n  return x;","view_range":[3,4]}`)
	c, _ := key(`{"command":"str_replace","path":"/w/m.c","old_str":"return y;","new_str":"if (a) return x;"}`)
	d, _ := key(`{"command":"str_replace","path":"/w/n.c","old_str":"return x;","new_str":"if (a) return x;"}`)
	e, _ := editTargetKey("Edit", []byte(`{"file_path":"/w/m.c","old_string":"return x;","new_string":"z"}`))
	f, _ := editTargetKey("Edit", []byte(`{"file_path":"/w/m.c","old_string":"return x;","new_string":"w","replace_all":true}`))
	switch {
	case !okA || !okB || a != b:
		t.Error("two replacements of the same text in the same file, writing different text, are two targets")
	case a == c || a == d:
		t.Error("replacements of other text or in another file share a target")
	case e != f:
		t.Error("Claude Code's Edit of the same old_string in the same file_path is two targets")
	}
	if _, ok := key(`{"command":"create","path":"/w/m.c","file_text":"x"}`); ok {
		t.Error("a create names a replacement target")
	}
}

// A long cycle's notice names its tools by how many of its calls each made, in the order they
// first came, rather than listing every call.
func TestLongCycleNoticeCountsItsTools(t *testing.T) {
	e, _ := New(defaultProgress(nil))
	var got []Notice
	for i := range 24 {
		k := i % 8
		tool := "view"
		if k == 3 || k == 6 {
			tool = "grep"
		}
		got = append(got, e.Observe(Call("a", tool, []byte(fmt.Sprintf(`{"at":%d}`, k))).WithResult(fmt.Sprintf("answer number %d, the same each time", k), false))...)
	}
	if len(got) != 1 || got[0].Summary != "cycle of 8 × 3" {
		t.Fatalf("notices %+v, want one for the cycle of 8", got)
	}
	if want := "the calls (8 of them: view × 6, grep × 2) have come round"; !strings.Contains(got[0].Text, want) {
		t.Errorf("notice %q does not say %q", got[0].Text, want)
	}
}

func TestSaysNothingReadsANonAnswer(t *testing.T) {
	tests := []struct {
		result string
		want   bool
	}{
		{"No matches found for \"build configuration\" in /repo", true},
		{"The path /testbed/pylint/messages does not exist. Please provide a valid path.", true},
		{"No documents match token5. Try a broader query.", true},
		{"deploy@10.0.0.5: Permission denied (publickey).", true},
		{"More than 100 files matched for \"def\" in /testbed. Please narrow your search.", true},
		{"Email sent successfully to buyer1@shop.test", false},
		{"Heading 'Report' (level 1) added to /workspace/a.docx", false},
		{`{"id": 81, "user_id": 74, "enrollment_state": "active"}`, false},
		{"Query executed successfully.\nTotal rows: 1", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := saysNothing(tt.result); got != tt.want {
			t.Errorf("saysNothing(%q) = %v, want %v", tt.result, got, tt.want)
		}
	}
}

// The errors notice says the arguments changed only when they did: an edit resubmitted
// unchanged (but for its indentation) and rejected with a differing error each time is told
// as the same call failing.
func TestErrorsNoticeSaysWhetherTheArgumentsChanged(t *testing.T) {
	run := func(args func(i int) string) string {
		e, _ := New(defaultProgress(nil))
		var text string
		for i := 0; i < 6 && text == ""; i++ {
			ev := Call("a", "edit", []byte(args(i))).WithResult(fmt.Sprintf("Your proposed edit has introduced new syntax error(s).\nERRORS:\n- E999 IndentationError: unexpected indent at line %d", 20+i), true)
			for _, n := range e.Observe(ev) {
				if n.Kind == KindErrors {
					text = n.Text
				}
			}
		}
		return text
	}
	same := run(func(i int) string { return "edit 22:34\n" + strings.Repeat(" ", 4*(i%2)) + "x = data['x']" })
	varied := run(func(i int) string { return fmt.Sprintf("edit 22:34\nx = data['x%d']", i) })
	if !strings.Contains(same, "the same way each time") || strings.Contains(same, "arguments changed") {
		t.Errorf("the same edit failing: %q", same)
	}
	if !strings.Contains(varied, "although the arguments changed") {
		t.Errorf("varied edits failing: %q", varied)
	}
}

// Edits of one file rejected however each rejection was worded say so, in every locale: the
// count, the tool, and that the file is not what the model pictures, not "the same error".
func TestEditsRejectedNoticeSaysTheFileIsNotAsPictured(t *testing.T) {
	for _, locale := range Locales() {
		cfg := defaultProgress(nil)
		cfg.Locale = locale
		e, _ := New(cfg)
		var texts []string
		for i := range 4 {
			ev := Call("a", "str_replace_editor", []byte(fmt.Sprintf(`{"command":"str_replace","path":"/w/m.c","old_str":"%c","new_str":"q"}`, 'a'+i))).
				WithResult("ERROR:\n"+rejections[i], false)
			for _, n := range e.Observe(ev) {
				texts = append(texts, n.Text)
			}
		}
		if len(texts) != 1 || !strings.Contains(texts[0], "str_replace_editor") || !strings.Contains(texts[0], "4") {
			t.Fatalf("%s: want one notice naming the tool and the count, got %q", locale, texts)
		}
		if locale == "en" && (!strings.Contains(texts[0], "edits of the same file") || strings.Contains(texts[0], "same error")) {
			t.Errorf("en: %q", texts[0])
		}
	}
}

// A poll notice says what it saw: an answer still changing (a wait that advances), or the
// same answer every time (a wait that may never end).
// A poll's notice says whether its answer kept changing, stopped changing although the model
// waited between checks, or never changed while the model checked again at once.
func TestPollNoticeSaysWhetherTheAnswerChangedAndWhetherTheModelWaited(t *testing.T) {
	for _, locale := range Locales() {
		cfg := defaultProgress(func(p *ProgressConfig) { p.PollBudget = 3 })
		cfg.Locale = locale
		texts := map[string]string{}
		tools := map[string]string{"moving": "BashOutput", "stalled": "Bash", "idle": "BashOutput"}
		for _, kind := range []string{"moving", "stalled", "idle"} {
			e, _ := New(cfg)
			for i := range 5 {
				result := "build b7: running, 3 of 40 steps done (compile, test, package, upload)"
				if kind == "moving" {
					result = fmt.Sprintf("build b7: running, %d of 40 steps done (compile, test, package, upload)", i)
				}
				args := `{"bash_id":"b7"}`
				if kind == "stalled" {
					args = `{"command":"sleep 60 && tail -1 build.log"}` // it waits before each look
				}
				for _, n := range e.Observe(Call("a", tools[kind], []byte(args)).WithResult(result, false)) {
					texts[kind] = n.Text
				}
			}
		}
		if len(texts) != 3 || texts["moving"] == texts["stalled"] || texts["stalled"] == texts["idle"] || texts["moving"] == texts["idle"] {
			t.Fatalf("%s: want three different poll notices, got %q", locale, texts)
		}
		for kind, text := range texts {
			if !strings.Contains(text, tools[kind]) || !strings.Contains(text, "4") {
				t.Errorf("%s (%s): the notice does not say the tool and the count: %s", locale, kind, text)
			}
		}
	}
}

func TestArgsWait(t *testing.T) {
	tests := []struct {
		args   string
		blocks bool // the tool waits unless told not to (TaskOutput)
		want   bool
	}{
		{`{"task_id":"t1","block":true,"timeout":30000}`, false, true},
		{`{"task_id":"t1", "block" : true}`, false, true},
		{`{"task_id":"t1","block":false,"timeout":30000}`, false, false},
		{`{"task_id":"t1","timeout":30000,"block":false}`, false, false}, // block decides, wherever it stands
		{`{"task_id":"t1"}`, true, true},                                 // TaskOutput blocks by default
		{`{"task_id":"t1","block":false}`, true, false},
		{`{"blockId":"x","timeout":30000}`, false, true}, // blockId is no block
		{`{"shellId":"2","delay":10}`, false, true},
		{`{"shellId":"2","delay":0}`, false, false},
		{`{"session_id":4,"chars":"","yield_time_ms":1000}`, false, true},
		{`{"timeout_ms":5000}`, false, true},
		{`{"Timeout":"30s"}`, false, true},
		{`{"waitSeconds":null}`, false, false},
		{`{"bash_id":"b1"}`, false, false},
		{`{"command":"wait"}`, false, false},
		{`{"note":"\"timeout\": 5"}`, false, false},
		{`{"delay"`, false, false},
		{``, false, false},
	}
	for _, tt := range tests {
		if got := argsWait([]byte(tt.args), tt.blocks); got != tt.want {
			t.Errorf("argsWait(%s, blocks %v) = %v, want %v", tt.args, tt.blocks, got, tt.want)
		}
	}
}

func TestChangesDirectory(t *testing.T) {
	tests := []struct {
		tool, args string
		want       bool
	}{
		{"cd", `{"folder":".."}`, true},
		{"cd", `{"folder": "src/app"}`, true},
		{"mcp__fs__cd", `{"path":"docs"}`, true},
		{"fs.chdir", `{"dir":"-"}`, true},
		{"change_directory", `{"path":"../x"}`, true},
		{"cd", `{"folder":"/workspace"}`, false},
		{"cd", `{"folder":"~"}`, false},
		{"cd", `{"folder":"C:\\repo"}`, false},
		{"cd", `{"folder":""}`, false},
		{"cd", `{"folder":"..","create":true}`, false},
		{"cd", `{"folder":3}`, false},
		{"cd", `..`, false},
		{"cd", `{"folder":"..`, false},
		{"abcd", `{"folder":".."}`, false},
		{"ls", `{"folder":".."}`, false},
	}
	for _, tt := range tests {
		if got := changesDirectory(tt.tool, []byte(tt.args)); got != tt.want {
			t.Errorf("changesDirectory(%s, %s) = %v, want %v", tt.tool, tt.args, got, tt.want)
		}
	}
}

func TestEditFileKeyNamesTheFileAnEditChanges(t *testing.T) {
	key := func(args string) uint64 { k, _ := editFileKey([]byte(args)); return k }
	tests := []struct {
		name       string
		a, b       string
		same, none bool
	}{
		{"the same path, other text to replace", `{"path":"/w/m.c","old_str":"a"}`, `{"command":"str_replace","path":"/w/m.c","old_str":"b"}`, true, false},
		{"two files", `{"file_path":"/w/a.py"}`, `{"file_path":"/w/b.py"}`, false, false},
		{"Claude Code's file_path and Cline's path name one file alike", `{"file_path":"/w/a.py"}`, `{"path":"/w/a.py"}`, true, false},
		{"a Codex patch, as JSON", `{"input":"*** Begin Patch\n*** Update File: src/a.py\n@@\n-x\n+y\n*** End Patch"}`,
			"*** Begin Patch\n*** Update File: src/a.py\n@@\n-z\n+w\n*** End Patch", true, false},
		{"Codex patches of two files", "*** Begin Patch\n*** Update File: src/a.py\n", "*** Begin Patch\n*** Update File: src/b.py\n", false, false},
		{"a Codex patch adding a file and one updating it", `{"command":["apply_patch","*** Begin Patch\n*** Add File: docs/s.md\n+x\n*** End Patch"]}`,
			"*** Begin Patch\n*** Update File: docs/s.md\n@@\n-x\n+y\n*** End Patch", true, false},
		{"a Codex patch deleting a file", "*** Begin Patch\n*** Delete File: docs/s.md\n*** End Patch", "*** Begin Patch\n*** Add File: docs/s.md\n+x\n", true, false},
		{"Codex patches adding two files", "*** Begin Patch\n*** Add File: a.md\n+x\n", "*** Begin Patch\n*** Add File: b.md\n+x\n", false, false},
		{"a line of stars that is no section header", "*** Begin Patch\n*** End Patch", "*** Begin Patch\n*** End Patch", true, true},
		{"two files of one Windows drive, as JSON", `{"input":"*** Begin Patch\n*** Update File: C:\\repo\\a.py\n@@\n-x\n+y\n*** End Patch"}`,
			`{"input":"*** Begin Patch\n*** Update File: C:\\repo\\b.py\n@@\n-x\n+y\n*** End Patch"}`, false, false},
		{"two files added on one Windows drive, raw", "*** Begin Patch\n*** Add File: C:\\repo\\a.py\n+x\n", "*** Begin Patch\n*** Add File: C:\\repo\\b.py\n+x\n", false, false},
		{"one Windows file, as JSON and raw", `{"input":"*** Begin Patch\n*** Update File: C:\\repo\\new.py\n"}`, "*** Begin Patch\n*** Update File: C:\\repo\\new.py\n", true, false},
		{"no file named", `{"command":"edit 12:14","text":"x"}`, `{"command":"edit 12:14","text":"x"}`, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := key(tt.a), key(tt.b)
			if tt.none {
				if a != 0 || b != 0 {
					t.Fatalf("keys %x %x, want none", a, b)
				}
				return
			}
			if a == 0 || b == 0 || (a == b) != tt.same {
				t.Errorf("keys %x %x, same %v", a, b, tt.same)
			}
		})
	}
}

// watchRounds is an agent watching a background worker: each round reads the worker's
// status, then the files it has changed so far. The status moves at each round when moving;
// the list of files stays the same.
func watchRounds(rounds int, moving bool) []Event {
	var evs []Event
	for i := range rounds {
		status := "worker fix-yaml: running, step 4 of 9"
		if moving {
			status = fmt.Sprintf("worker fix-yaml: running, step %d of 9", i+2)
		}
		evs = append(evs,
			call("a", "exec_command", `{"cmd":"workmux status"}`).WithResult(status, false),
			call("a", "exec_command", `{"cmd":"git -C ../fix-yaml diff --name-only"}`).WithResult("src/a.ts\nsrc/b.ts\nsrc/workers.yaml", false))
	}
	return evs
}

func TestAWatchWhoseOtherLookMovesIsNotStuck(t *testing.T) {
	tests := []struct {
		name   string
		moving bool
		want   string
	}{
		{"the worker's status moves at each round: the unchanged diff is a watch not yet moved", true, ""},
		{"nothing moves: the rounds are a cycle", false, "cycle of 2 × 3"},
	}
	cfg, _ := Preset(PresetDefault)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng, _ := New(cfg)
			var got []string
			for _, ev := range watchRounds(4, tt.moving) {
				for _, n := range eng.Observe(ev) {
					got = append(got, n.Summary)
				}
			}
			if tt.want == "" && len(got) != 0 || tt.want != "" && (len(got) == 0 || got[0] != tt.want) {
				t.Errorf("notices %q, want %q", got, tt.want)
			}
		})
	}
}

func TestChangesByVerb(t *testing.T) {
	tests := []struct {
		tool string
		want bool
	}{
		{"toggle_wifi_calling", true},
		{"grant_app_permission", true},
		{"reboot_device", true},
		{"cancel_reservation", true},
		{"setApnSettings", true},
		{"mcp__github__close_issue", true},
		{"github.merge_pull_request", true},
		{"can_send_mms", false},        // a check: "can" looks
		{"run_speed_test", false},      // run is judged by its command line, when it has one
		{"get_details_by_id", false},   // a look-up
		{"settings_get", false},        // "settings" is no verb
		{"Add", false},                 // a verb alone names nothing it changes
		{"startup_diagnostics", false}, // "startup" is not "start"
		{"applyDiff", true},            // pochi's editor (validation round r151a F6)
	}
	for _, tt := range tests {
		if got := changesByVerb(tt.tool); got != tt.want {
			t.Errorf("changesByVerb(%q) = %v, want %v", tt.tool, got, tt.want)
		}
	}
}

// A check re-run after each applyDiff to another file, passing every time, is no repeat: each
// applyDiff changed the workspace (validation round r151a F6: told as stuck at the third).
func TestACheckAfterEachApplyDiffIsNoRepeat(t *testing.T) {
	var steps []step
	for i, file := range []string{"c.ts", "a.ts", "b.ts"} {
		steps = append(steps,
			ok("applyDiff", `{"path":"convex/`+file+`","searchContent":"x`+itoa(i)+`","replaceContent":"y"}`, `{"success":true}`),
			ok("executeCommand", `{"command":"npm run typecheck"}`, "> tsc --project convex/tsconfig.json\n"))
	}
	if got := progressRun(t, defaultProgress(nil), steps); len(got) != 0 {
		t.Errorf("a passing check after each applyDiff: got %q, want no notice", got)
	}
}

func TestIsFailureTallyKnowsClosingCountsAndVerdicts(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"FAILED (failures=1)", true},
		{"  FAILED (errors=2, failures=1, skipped=3)\r", true},
		{"FAILED (expected failures=1, errors=1)", true},
		{"FAILED t.py::test_a - Failed: nomatch", false},
		{"FAILED (see the log above)", false},
		{"FAILED (failures=1)[Python Interpreter: /opt/miniconda3/envs/testbed/bin/python]", true}, // OpenHands' note glued on
		{"FAILED (failures=1) and then some words", false},
		{"FAILED ()", false},
		{"FAILED (failures=)", false},
		{"Build FAILED (failures=1)", false},
		{"BUILD FAILED", true},
		{"BUILD FAILED in 55s", true},
		{"BUILD FAILED in 1m 11s", true},
		{"BUILD FAILED in 2.5s", true},
		{"BUILD FAILED: see the log", false},
		{"BUILD FAILED in module core", false},
		{"BUILD FAILED in ", false},
		{`#14 ERROR: process "/bin/sh -c npm run build" did not complete successfully: exit code: 1`, true},
		{`ERROR: failed to solve: process "/bin/sh -c pip install -r requirements.txt" did not complete successfully: exit code: 2`, true},
		{`ERROR: Service 'web' failed to build: The command '/bin/sh -c make' returned a non-zero code: 2`, true},
		{`service "migrate" didn't complete successfully: exit 1`, true},
		{"##[error]Process completed with exit code 1.", true},
		{"Error: Process completed with exit code 127.", true},
		{"Error: Job 'analyze-and-fix' failed", true},
		{"Error: Job 'build' failed to start: no runner", false},
		{"Error: the job's process did not complete", false},
		{"*** TEST FAILED! ***", true}, // a script's bare verdict (r199a W1)
		{"FAILED", true},
		{"❌ Tests failed", true},
		{"=== SOME TESTS FAILED ===", true},
		{"TEST FAILED: expected 3, got 4", false},
		{"2 tests failed", false},
		{"Test failed for input [1, 2]", false},
	}
	for _, tt := range tests {
		if got := isFailureTally(tt.line); got != tt.want {
			t.Errorf("isFailureTally(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// shortNonAnswer's quick look never passes over an answer saysNothing would call a
// non-answer: every phrase, in any case, at the start or after other words.
func TestShortNonAnswerAgreesWithSaysNothing(t *testing.T) {
	for _, p := range nothingPhrases {
		for _, answer := range []string{string(p), strings.ToUpper(string(p)), "Sorry, " + string(p) + ".", strings.ToUpper(string(p[:1])) + string(p[1:])} {
			if got, want := shortNonAnswer(answer), saysNothing(answer); got != want {
				t.Errorf("shortNonAnswer(%q) = %v, saysNothing says %v", answer, got, want)
			}
		}
	}
	for _, answer := range []string{"12: ok", "Done.", "Drawer open.", "0 rows"} {
		if shortNonAnswer(answer) != saysNothing(answer) {
			t.Errorf("shortNonAnswer(%q) differs from saysNothing", answer)
		}
	}
}
