package loopguard

import (
	"fmt"
	"strings"
	"testing"
)

// A host's header that says the command exited with 0 is the verdict of a command whose exit
// status is its program's own: a test runner that logs a browser's certificate noise at every
// run, green or red, passes (validation round r58a F1, F2). Behind a pipe the status is the
// last stage's, and the failure marks in the output still count.
func TestAnExitZeroInTheHostsHeaderIsTheVerdictOfOneProgram(t *testing.T) {
	noise := "[12:ERROR:net/cert/internal/trust_store_mac.cc:807] Error parsing certificate:\nERROR: Failed parsing extensions\n"
	tests := []struct {
		name, command, exit string
		wantErrors          bool
	}{
		{"a passing suite that logs errors", "pnpm test", "0", false},
		{"a passing suite, its output redirected", "cd /src && pnpm test 2>&1", "0", false},
		{"a suite behind a pipe", "pnpm test 2>&1 | tail -40", "0", true},
		{"a suite whose failure is forgiven", "pnpm test || true", "0", true},
		{"a failing suite", "pnpm test", "1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := New(defaultProgress(nil))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i := range 5 {
				edit := Call("a", "apply_patch", fmt.Appendf(nil, `{"input":"*** Begin Patch\n*** Update File: src/x.ts\n+line %d\n*** End Patch"}`, i)).
					WithResult("Success. Updated the following files:\nM src/x.ts", false)
				run := Call("a", "shell_command", fmt.Appendf(nil, `{"command":%q,"workdir":"/src"}`, tt.command)).
					WithResult(fmt.Sprintf("Exit code: %s\nWall time: 17 seconds\nOutput:\n\n> pretest\n%s  %d passing (3s)\n", tt.exit, noise, 46+i), false)
				for _, ev := range []Event{edit, run} {
					for _, n := range e.Observe(ev) {
						got = append(got, string(n.Kind)+":"+n.Summary)
					}
				}
			}
			told := strings.Contains(strings.Join(got, " "), string(KindErrors)+":")
			if told != tt.wantErrors {
				t.Errorf("notices %v; an errors notice wanted: %v", got, tt.wantErrors)
			}
		})
	}
}

func TestOneProgramDecides(t *testing.T) {
	tests := []struct {
		args string
		want bool
	}{
		{`{"command":"pnpm test"}`, true},
		{`{"command":"cd /src && go test ./... 2>&1"}`, true},
		{`{"command":"make &> build.log"}`, true},
		{`{"command":["bash","-lc","npm test"]}`, true},
		{`{"command":"echo \"a\\\\b\""}`, true},
		{`{"command":"pytest | tail -5"}`, false},
		{`{"command":"pytest || true"}`, false},
		{`{"command":"pytest; echo done"}`, false},
		{`{"command":"server & sleep 1"}`, false},
		{`{"command":"pytest\nexit 0"}`, false},
		// as Go's JSON encoder writes '&' and '>'
		{`{"command":"go test ./... 2\u003e\u00261"}`, true},
		{`{"command":"make \u0026\u0026 ./run"}`, true},
		{`{"command":"server \u0026 sleep 1"}`, false},
		{`{"command":"echo \\n"}`, true}, // an escaped backslash, then the letter n
		// what the shell quotes is no separator
		{`{"cmd":"rg -n \"STRK|Starknet|Generate failed\" components app","workdir":"/w"}`, true},
		{`{"command":"grep -E 'a|b;c' src"}`, true},
		{`{"command":"grep -E 'a|b' src | head"}`, false},
		{`{"command":"echo \"it's\" | tee x"}`, false},
		{`{"command":"ls","description":"list; then | look"}`, true}, // only the command line
		{`rg "a|b" src`, true}, // a command line as is
		{`rg "a|b" src | wc -l`, false},
		// code given in the line: its status is whatever the script ends with
		{`{"command":"node -e \"require('pg').connect().catch(e => console.error(e.message))\""}`, false},
		{`{"command":"python3 -c 'import app'"}`, false},
		{`{"command":"/usr/bin/python3 -c 'print(1)'"}`, false},
		{`{"command":"python3 - <<'EOF'\nprint(1)\nEOF"}`, false},
		{`{"command":"python3 repro.py"}`, true},
		{`{"command":"node --version"}`, true},
		{`{"command":"grep -e foo -c src/a.py"}`, true}, // grep's -e is a pattern, not code
	}
	for _, tt := range tests {
		if got := oneProgramDecides([]byte(tt.args)); got != tt.want {
			t.Errorf("oneProgramDecides(%s) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

func TestHeaderReportsExitZero(t *testing.T) {
	tests := []struct {
		result string
		want   bool
	}{
		{"Exit code: 0\nWall time: 1 seconds\nOutput:\nok", true},
		{"Chunk ID: ab12\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nok", true},
		{"Exit code: 1\nWall time: 1 seconds\nOutput:\nfail", false},
		{"Exit code: 01\nWall time: 1 seconds\nOutput:\n", false},
		{"Exit code: 0", false}, // no header end: not a header
		{"ok\nExit code: 0", false},
		{"rc=0\nBUILD SUCCESS", true},
		{"rc=0", true},
		{"rc=1\n[ERROR] build failed", false},
		{"rc=0 and more on the line", false},
	}
	for _, tt := range tests {
		if got := headerReportsExitZero(tt.result); got != tt.want {
			t.Errorf("headerReportsExitZero(%q) = %v, want %v", tt.result, got, tt.want)
		}
	}
}

func TestDeclinedByUser(t *testing.T) {
	tests := []struct {
		result string
		want   bool
	}{
		{"The user doesn't want to proceed with this tool use. The tool use was rejected.", true},
		{"The user denied this operation.", true},
		{"The user cancelled the tool call.", true},
		{"exec command rejected by user", true},
		{"Tool use was cancelled by the user", true},
		{"User rejected update to src/a.ts", true},
		{"[Operation Cancelled] Reason: Operation cancelled", true},
		{"ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)", false},
		{"bash: /home/user/bin/deploy.sh: Permission denied", false},
		{"psql: error: relation \"users\" does not exist; the request was rejected", false},
		{"Error: build interrupted (signal 2) in /Users/dev/app", false},
	}
	for _, tt := range tests {
		if got := declinedByUser(tt.result); got != tt.want {
			t.Errorf("declinedByUser(%q) = %v, want %v", tt.result, got, tt.want)
		}
	}
}

// Only the user's own decline, then their words, ends a failure chain at the user's turn: a
// command that fails the same way after each "try again" is still a loop when its error
// happens to name a user (MySQL's "Access denied for user"), and declines of edits to
// different files, one tool's chain, end with each turn too (review r20 M2, L2).
func TestOnlyTheUsersDeclineEndsAChainAtTheirTurn(t *testing.T) {
	tests := []struct {
		name     string
		call     func(i int) Event
		wantTold bool
	}{
		{"a login refused for a user, retried after each user message",
			func(int) Event {
				return Call("a", "Bash", []byte(`{"command":"mysql -u root -p$PW shop"}`)).
					WithResult("ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)", true)
			}, true},
		{"writes to different files, each declined by the user",
			func(i int) Event {
				return Call("a", "Write", fmt.Appendf(nil, `{"file_path":"/src/f%d.go","content":"package f"}`, i)).
					WithResult("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).", true)
			}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := New(defaultProgress(nil))
			var got []string
			for i := range 6 {
				for _, ev := range []Event{tt.call(i), {Type: EventUser, Agent: "a", Text: fmt.Sprintf("try again, attempt %d", i+2)}} {
					for _, n := range e.Observe(ev) {
						got = append(got, string(n.Kind)+":"+n.Summary)
					}
				}
			}
			if (len(got) > 0) != tt.wantTold {
				t.Errorf("notices %v; some wanted: %v", got, tt.wantTold)
			}
		})
	}
}

// A look at a server's state after each request that sends it data is a check of what the
// request did: the balance read unchanged after three different transfers is no stuck call
// (validation round r58c F1). The same look three times with nothing sent between is.
func TestALookAfterARequestThatSendsDataIsACheck(t *testing.T) {
	balance := func() Event {
		return Call("a", "bash", []byte(`{"cmd":"curl -s http://victim:8080/api/wallet/balances"}`)).
			WithResult(`[{"name":"cashout","value":1000},{"name":"glaciercoin","value":0}]`, false)
	}
	transfer := func(body string) Event {
		return Call("a", "bash", fmt.Appendf(nil, `{"cmd":"curl -s -X POST -H 'Content-Type: application/json' -d '%s' http://victim:8080/api/wallet/transaction"}`, body)).
			WithResult(`{"result":1}`, false)
	}
	tests := []struct {
		name     string
		evs      []Event
		wantTold bool
	}{
		{"a transfer before each look", []Event{balance(), transfer(`{"balance":1000}`), balance(), transfer(`{"balance":"1000"}`), balance(), transfer(`{"balance":-1000}`), balance()}, false},
		{"the same look three times", []Event{balance(), balance(), balance()}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := New(defaultProgress(nil))
			var got []string
			for _, ev := range tt.evs {
				for _, n := range e.Observe(ev) {
					got = append(got, string(n.Kind)+":"+n.Summary)
				}
			}
			if (len(got) > 0) != tt.wantTold {
				t.Errorf("notices %v; some wanted: %v", got, tt.wantTold)
			}
		})
	}
}

// The same call answered in turn with one of two states (a dropdown clicked open, then shut) is
// a cycle, not a poll that advances: no poll notice calls the flipping progress, while the
// cycle rule tells it (validation round r58c M2). An answer that keeps moving is a poll.
func TestAnAnswerThatFlipsIsNoPoll(t *testing.T) {
	page := func(state string) string {
		return "[2407] combobox 'Select year' expanded: " + state + "\n[2410] option '2019'\n[2411] option '2020'\n[2412] option '2021'\n[2413] link 'Download the report'"
	}
	tests := []struct {
		name       string
		answer     func(i int) string
		wantKinds  []string
		wantAbsent string
	}{
		{"an answer flipping between two states", func(i int) string { return page([]string{"True", "False"}[i%2]) },
			[]string{KindCycle}, KindPoll},
		{"an answer that moves on", func(i int) string { return page(fmt.Sprintf("True, %d results loaded", i)) },
			[]string{KindPoll}, KindCycle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := New(defaultProgress(nil))
			kinds := map[string]int{}
			for i := range 40 {
				ev := Call("a", "web_browser_click", []byte(`{"element_id":2407}`)).WithResult(tt.answer(i), false)
				for _, n := range e.Observe(ev) {
					kinds[n.Kind]++
				}
			}
			for _, k := range tt.wantKinds {
				if kinds[k] == 0 {
					t.Errorf("no %s notice; got %v", k, kinds)
				}
			}
			if kinds[tt.wantAbsent] > 0 {
				t.Errorf("%d %s notices; got %v", kinds[tt.wantAbsent], tt.wantAbsent, kinds)
			}
		})
	}
}

// A change of the workspace made before a user's message is still a change after it: the same
// failing call before an edit that landed and after the user spoke was not made three times
// "with nothing changed in between" (validation round r117b F1). With no edit between, the
// failures before and after the message are one chain, and are told.
func TestAChangeBeforeTheUsersMessageIsNotForgotten(t *testing.T) {
	bad := fail("edit", `{}`, "params must have required property 'file_path'")
	edit := ok("edit", `{"file_path":"/w/x.py","old_string":"a = 1","new_string":"a = 2"}`,
		"Successfully modified file: /w/x.py (1 replacements).")
	user := userSays("next feature please")
	tests := []struct {
		name     string
		steps    []step
		wantTold bool
	}{
		{"an edit landed between, then the user spoke", []step{bad, bad, edit, user, bad}, false},
		{"nothing landed between, the user spoke", []step{bad, bad, user, bad}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := progressRun(t, defaultProgress(nil), tt.steps); (len(got) > 0) != tt.wantTold {
				t.Errorf("notices %v; some wanted: %v", got, tt.wantTold)
			}
		})
	}
}
