package loopguard

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// unexpectedEOF is what bash says when it is given a model's prose as a command line: the
// apostrophe in "it's" opens a quote that never closes.
const unexpectedEOF = "/bin/bash: line 2: unexpected EOF while looking for matching `''\n/bin/bash: line 3: syntax error: unexpected end of file"

// proseAbout is a reply run as the command, talking about the error in words of its own.
var proseAbout = []string{
	"DISCUSSION It's still the same unexpected EOF, so let me look at the file again.",
	"DISCUSSION It's a syntax error at the end of file; the quote is not matching anything.",
	"DISCUSSION It's the shell looking for a matching quote, let me retry the edit.",
	"DISCUSSION It's odd: line 3 says unexpected end, I will open the test.",
	"DISCUSSION It's bash again, the same error while looking at line 2.",
}

// formRefusal is mini-swe-agent's answer to a reply with several actions: one template,
// whatever the reply held.
const formRefusal = "Please always provide EXACTLY ONE action in triple backticks, found 2 actions.\n\n" +
	"Please format your action in triple backticks as shown in <response_example>.\n\n" +
	"<response_example>\nHere are some thoughts about why you want to perform the action.\n\n```bash\n<action>\n```\n</response_example>\n\n" +
	"If you have completed your assignment, please consult the first message about how to\nsubmit your solution (you will not be able to continue working on this task after that)."

// refusedForm is a reply the harness refused for its form: args is its first action.
func refusedForm(args string) step {
	return step{tool: "bash", args: args, result: formRefusal, failed: true, source: SourceHarness}
}

// attempts are four different first actions of replies that held several, each sharing
// other words with the formRefusal.
var attempts = []string{
	"cat <<'EOF' > fix.py\nprint('the action')\nEOF",
	"printf 'format your solution\\n' > fix.py",
	"python3 -c \"open('fix.py','w').write('thoughts about why')\"",
	"sed -i 's/please/consult/' first.py",
}

// progressCase is a run of steps and the notices the default preset gives on it
// ("i:kind:summary", as progressRun writes them).
type progressCase struct {
	name  string
	steps []step
	want  []string
}

// runProgressCases runs each case as a subtest named for it.
func runProgressCases(t *testing.T, cases []progressCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			if got := progressRun(t, defaultProgress(nil), tt.steps); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// runProgressCasesRestoredToo runs each case as runProgressCases does, and again with an
// engine restored from a snapshot before every call, as a hook runs: what the rules keep must
// be in the snapshot.
func runProgressCasesRestoredToo(t *testing.T, cases []progressCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			for _, restored := range []bool{false, true} {
				if got := progressRunVia(t, defaultProgress(nil), tt.steps, restored); !slices.Equal(got, tt.want) {
					t.Errorf("restored %v: got %q, want %q", restored, got, tt.want)
				}
			}
		})
	}
}

func TestIdenticalAnswersAreTheSameWhateverTheirMasks(t *testing.T) {
	tests := []progressCase{
		{"identical failures of prose run as commands are one failure, whatever words each prose shares with it",
			times(5, func(i int) step { return fail("DISCUSSION", proseAbout[i], unexpectedEOF) }),
			[]string{"3:errors:DISCUSSION failed × 4"}},
		{"replies refused for their form, each a different attempt, are compared by what they tried, not by the harness's one template",
			times(4, func(i int) step { return refusedForm(attempts[i]) }),
			nil},
		{"the same attempts answered by the tool itself in one template are one failure",
			times(4, func(i int) step { return fail("bash", attempts[i], formRefusal) }),
			[]string{"3:errors:bash failed × 4"}},
		{"a refused reply sent again unchanged is still the same call answered the same",
			slices.Concat(times(3, func(int) step { return refusedForm(attempts[0]) })),
			[]string{"2:stuck:bash × 3"}},
	}
	runProgressCases(t, tests)
}

// notFound is bash's answer to a reply's prose run line by line as commands.
const notFound = "/bin/bash: line 18943: DISCUSSION: command not found\n/bin/bash: line 18944: The: command not found"

func TestAFailureThatComesBackTakesUpItsCount(t *testing.T) {
	// e is prose run as the command, which the shell could not parse; c a command that ran
	// and failed otherwise (prose the shell declined either way is one failure: see
	// TestProgressRules); i makes each reply its own.
	e := func(i int) step {
		return fail("DISCUSSION", fmt.Sprintf("DISCUSSION attempt %d: let me create the file", i), unexpectedEOF)
	}
	c := func(i int) step {
		return fail("DISCUSSION", fmt.Sprintf("DISCUSSION The create failed again (%d)", i), "touch: cannot touch 'src/A.java': No such file or directory")
	}
	x := func(i int) step {
		return fail("DISCUSSION", fmt.Sprintf("DISCUSSION try %d", i), "Traceback (most recent call last):\nValueError: invalid literal for int() with base 10")
	}
	done := func(i int) step {
		return ok("DISCUSSION", fmt.Sprintf("DISCUSSION ls %d", i), "JsonParserImpl.java README.md pom.xml")
	}
	tests := []progressCase{
		{"two failures taking turns irregularly, nothing succeeding, are told when one has come four times",
			[]step{e(0), c(1), e(2), e(3), c(4), e(5)},
			[]string{"5:errors:DISCUSSION failed × 4"}},
		{"a success between ends the stretch: the failure that comes back starts afresh",
			[]step{e(0), c(1), e(2), done(3), e(4), c(5), e(6)},
			nil},
		{"only the failure just before is taken up: a third one in between starts afresh",
			[]step{e(0), c(1), x(2), e(3), e(4), c(5)},
			nil},
		{"a failure that comes back after one other goes on where it was left",
			[]step{e(0), c(1), e(2), x(3), e(4), e(5)},
			[]string{"5:errors:DISCUSSION failed × 4"}},
		{"one failure after another, each repeated, is told as before: at the fourth of the second",
			[]step{e(0), c(1), c(2), c(3), c(4)},
			[]string{"4:errors:DISCUSSION failed × 4"}},
	}
	runProgressCases(t, tests)
}

// Two calls that fail each its own way, made in turn, are a cycle: the cycle rule tells it,
// and the failures' count does not tell the same loop again.
func TestAFailingCycleOfTwoCallsIsToldOnceAsACycle(t *testing.T) {
	a := fail("bash", `{"command":"python3 repro.py"}`, unexpectedEOF)
	b := fail("bash", `{"command":"bash build.sh"}`, notFound)
	got := progressRun(t, defaultProgress(nil), []step{a, b, a, b, a, b, a, b, a, b, a, b})
	want := []string{"5:cycle:cycle of 2 × 3", "11:cycle:cycle of 2 × 6"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestPythonRefusingAMissingModuleFailed(t *testing.T) {
	tests := []struct {
		result string
		want   bool
	}{
		{"/sandbox/agent_deps_runtime/bin/python: No module named pytest", true},
		{"python3: No module named venv", true},
		{"Traceback (most recent call last):\n  File \"x.py\", line 1\nModuleNotFoundError: No module named 'yaml'", true},
		{"Checked 12 modules. No module named in the report was out of date.", false},
	}
	for _, tt := range tests {
		if got := looksFailed(tt.result); got != tt.want {
			t.Errorf("looksFailed(%q) = %v, want %v", tt.result, got, tt.want)
		}
	}
	// Installs between the runs that found everything there already changed nothing
	// (installedNothing): the third run failing alike is the same call stuck.
	run := ok("bash", `{"command":"cd /testbed && python -m pytest tests/test_separable.py -v"}`, "/sandbox/bin/python: No module named pytest")
	install := func(i int) step {
		return ok("bash", fmt.Sprintf(`{"command":"pip install %s"}`, []string{"pytest", "astropy", "-U pytest"}[i]), "Requirement already satisfied: pytest in /workspace/venv/lib/python3.12/site-packages")
	}
	got := progressRun(t, defaultProgress(nil), []step{run, install(0), run, install(1), run, install(2), run})
	if want := []string{"4:stuck:bash × 3"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSearchesReadsThePipelineStageThatAnswers(t *testing.T) {
	tests := []struct {
		command string
		want    bool
	}{
		{"grep -rn TODO src", true},
		{"git branch | rg -e feature", true},
		{"curl -s https://hub.docker.com/v2/repositories/x/tags | grep -o 'name\":\"[^\"]*' | head -5", true},
		{"find . -name '*.go' | sort | uniq | cut -c3- | tail -20", true},
		{"grep -c x a.txt | wc -l", false}, // wc prints 0: its answer is never empty
		{"cat notes.txt | head -5", false},
		{"sed -i s/a/b/ x.py", false},
		{`npm run build 2>&1 | findstr /i "error"`, true}, // Windows' grep: exits 1 when it finds nothing
		{"where python", true},                            // Windows' which
		// A '|' the shell quotes or escapes is part of a word, not a pipe (r158b M1).
		{`grep -r "identifiers\|useServerFn\|callerIdent" dist/esm/index.js 2>/dev/null | head -10`, true},
		{`rg 'error|warn' src`, true},
		{`grep -rE "a|b" src | sort`, true},
		{`grep -r a\|b src`, true},
		{`echo "grep | x" | wc -l`, false},
		{`make || grep -rn TODO src`, false}, // "||": the line's first program is read, as before
		{`ls "dir|name" | sort`, false},
		// xargs answers as the program it runs (r258a)
		{`find /tmp -name pom.xml 2>/dev/null | xargs grep -l izgateway 2>/dev/null | head -20`, true},
		{`find . -name '*.java' | xargs -I {} grep -H TODO {}`, true},
		{`find . -name '*.java' -print0 | xargs -0 -n 1 grep -c TODO`, true},
		{`find . -name '*.pyc' | xargs rm -f`, false},
		{`ls | xargs`, false},
	}
	for _, tt := range tests {
		args, _ := json.Marshal(map[string]string{"command": tt.command})
		if got := searches("Bash", args); got != tt.want {
			t.Errorf("searches(%q) = %v, want %v", tt.command, got, tt.want)
		}
		// A command line given as the arguments themselves, not in JSON, reads the same.
		if got := searches("Bash", []byte(tt.command)); got != tt.want {
			t.Errorf("searches(%q as a bare line) = %v, want %v", tt.command, got, tt.want)
		}
	}
}

// meter is curl's progress meter as a captured error output holds it, the speed of the
// transfer in it.
func meter(speed string) string {
	return "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n" +
		"                                 Dload  Upload   Total   Spent    Left  Speed\n" +
		"\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0\r100    62  100    62    0     0   " + speed + "      0 --:--:-- --:--:-- --:--:--  " + speed + "\n\n"
}

func TestWithoutTransferMeter(t *testing.T) {
	const body = `{"message":"JWT token is missing or invalid."}`
	tests := []struct{ name, result, want string }{
		{"a meter before the body", meter("2896") + body, body},
		{"a meter after the body", body + "\n" + meter("151k"), body + "\n"},
		{"no meter", body, body},
		{"a meter whose rows end in another line", meter("2.9M") + "curl: (22) The requested URL returned error: 403", "curl: (22) The requested URL returned error: 403"},
		{"the heading's words in a line of something else", "see % Total    % Received % Xferd in curl's manual\nnext line", "see % Total    % Received % Xferd in curl's manual\nnext line"},
		{"a heading without its second line", "  % Total    % Received % Xferd\n100 62", "  % Total    % Received % Xferd\n100 62"},
	}
	var buf []byte
	for _, tt := range tests {
		var got string
		got, buf = withoutTransferMeter(tt.result, buf)
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	// The same look answered the same, but for the transfer's speed, is the same answer.
	steps := times(3, func(i int) step {
		return ok("bash", `{"command":"curl -X GET http://victim:1337/api/v1/flag"}`, meter([]string{"2896", "2940", "2703"}[i])+body)
	})
	if got, want := progressRun(t, defaultProgress(nil), steps), []string{"2:stuck:bash × 3"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A meter is cut out as one span: what is left is the text before it and the text after it,
// as they were.
func FuzzWithoutTransferMeter(f *testing.F) {
	f.Add(meter("2896") + "body")
	f.Add("x\n" + meter("151k"))
	f.Add("  % Total    % Received % Xferd\n Dload\n1 2 3\rabc")
	f.Fuzz(func(t *testing.T, result string) {
		got, _ := withoutTransferMeter(result, nil)
		if len(got) > len(result) {
			t.Fatalf("grew: %q from %q", got, result)
		}
		cut := len(result) - len(got)
		for i := 0; i <= len(got); i++ {
			if got[:i] == result[:i] && got[i:] == result[i+cut:] {
				return
			}
		}
		t.Fatalf("%q is not %q with one span cut", got, result)
	})
}

func TestChurnCountsOnlyTheNonAnswersInARow(t *testing.T) {
	const banner = "You get one chance to awaken from the ice prison.\nThe guard looks at what you hand him, weighs every character of it against the rules of the jail,\nand says what he thinks of it.\ninput: "
	payload := func(i int, answer string) step {
		return ok("bash", fmt.Sprintf(`{"command":"echo 'payload %d' | nc victim 1337"}`, i), banner+answer)
	}
	tests := []struct {
		name    string
		answers []string
		want    []string
	}{
		{"six variants all refused alike are churn",
			[]string{"Denied!", "Denied!", "Denied!", "Denied!", "Denied!", "Denied!"},
			[]string{"5:churn:bash same result × 6"}},
		{"variants of which some got through are a batch of tries, each answered",
			[]string{"", "Denied!", "Denied!", "Denied!", "", "", "Denied!"},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var steps []step
			for i, a := range tt.answers {
				steps = append(steps, payload(i, a))
			}
			if got := progressRun(t, defaultProgress(nil), steps); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAnEmptyOutputUnderAHarnessHeaderIsNothingFound(t *testing.T) {
	find := func(i int, answer string) step {
		return ok("execute_bash", fmt.Sprintf(`{"cmd":"find /tmp -name \"parent-%d.pom\" 2>/dev/null | xargs grep -l izgateway"}`, i), answer)
	}
	tests := []struct {
		name, answer string
		want         []string
	}{
		{"a harness's return code over nothing", "rc=0\n", []string{"5:churn:execute_bash same result × 6"}},
		{"Codex's header over nothing", "Exit code: 0\nWall time: 0.2 seconds\nOutput:\n", []string{"5:churn:execute_bash same result × 6"}},
		{"nothing at all", "", []string{"5:churn:execute_bash same result × 6"}},
		{"a return code over what the search found is an answer", "rc=0\n/tmp/app/pom.xml\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var steps []step
			for i := 5; i < 11; i++ {
				steps = append(steps, find(i, tt.answer))
			}
			if got := progressRun(t, defaultProgress(nil), steps); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestARoundMadeAgainWithItsChangesIsACycle(t *testing.T) {
	const traceback = "Traceback (most recent call last):\n  File \"/testbed/sympy/printing/printer.py\", line 2\nIndentationError: expected an indented block"
	round := []step{
		ok("bash", `{"command":"sed -i 's/^\"\"\"/\\/\\/\\/ /' sympy/printing/printer.py"}`, "<returncode>0</returncode><output></output>"),
		ok("bash", `{"command":"sed -i 's/\\bdef _print_Symbol/    def _print_Symbol/' sympy/printing/printer.py"}`, "<returncode>0</returncode><output></output>"),
		fail("bash", `{"command":"python3 test_pprint.py"}`, traceback),
	}
	tests := []progressCase{
		{"the same edits and the same failing check, answered the same each round, are told at the third round",
			slices.Concat(round, round, round), []string{"8:cycle:cycle of 3 × 3"}},
		{"rounds whose edits differ are experiments",
			slices.Concat(round, []step{ok("bash", `{"command":"sed -i 's/^    if/        if/' sympy/printing/printer.py"}`, "<returncode>0</returncode><output></output>"), round[1], round[2]}, round),
			nil},
	}
	runProgressCases(t, tests)
}

func TestAFirstReminderDueInTheQuietCallsIsToldAtTheNextRepeat(t *testing.T) {
	grep := ok("grep", `{"pattern":"foo"}`, "a.go:12: foo()")
	lookup := ok("companies_for_kargom_nerede", `{}`, `{"error":"","response":"[]"}`)
	other := func(i int) step {
		return ok("cat", fmt.Sprintf(`{"path":"n%d"}`, i), fmt.Sprintf("note %d of the plan", i))
	}
	tests := []progressCase{
		{"a third repeat two calls after a notice on another loop is told at its next repeat past the quiet calls",
			[]step{grep, grep, grep, lookup, lookup, lookup, other(0), other(1), other(2), lookup},
			[]string{"2:stuck:grep × 3", "9:stuck:companies_for_kargom_nerede × 4"}},
		{"nor when its escalation is due at that repeat: told once, in detail",
			[]step{grep, grep, grep, lookup, lookup, lookup, lookup, lookup, lookup},
			[]string{"2:stuck:grep × 3", "8:stuck:companies_for_kargom_nerede × 6"}},
		{"a loop that ends in the quiet calls is not told after them",
			[]step{grep, grep, grep, lookup, lookup, lookup, other(0), other(1), other(2), other(3)},
			[]string{"2:stuck:grep × 3"}},
	}
	runProgressCases(t, tests)
}

func TestASearchThatReportsItsOwnErrorFailed(t *testing.T) {
	find := func(i int) step {
		return fail("bash", fmt.Sprintf(`{"command":"find /testbed -type f -name \"*%d\" -exec bash -c 'x' boot | sort -u -k 2,1"}`, i),
			"find: paths must precede expression: `boot'\nsort: invalid field specification '2,1'")
	}
	nothing := func(i int) step {
		return fail("bash", fmt.Sprintf(`{"command":"grep -rn 'guess%d' src | sort"}`, i), "")
	}
	tests := []progressCase{
		{"a search whose programs report their own usage errors failed, and failing alike is told",
			times(5, find), []string{"3:errors:bash failed × 4"}},
		{"a search that printed nothing found nothing: no failure",
			times(5, nothing), nil},
	}
	runProgressCases(t, tests)
	for _, tt := range []struct {
		text string
		want bool
	}{{"find: paths must precede expression", true}, {"grep: invalid option -- 'k'", true}, {"./a.go:12: found: x", false}, {"refind: x", false}, {"", false}} {
		if got := searchDiagnostic(tt.text); got != tt.want {
			t.Errorf("searchDiagnostic(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// A call that joins a chain by its unmasked answer, masked otherwise by its own words, is
// what the calls after it echo alike: they go on with the chain.
func TestAnAnswerJoinedUnmaskedCarriesItsMaskOn(t *testing.T) {
	query := func(column, table string) step {
		return fail("execute_sql", fmt.Sprintf(`{"query":"SELECT %s FROM %s"}`, column, table), "Error: no such table: asia near "+column)
	}
	got := progressRun(t, defaultProgress(nil), []step{query("pop", "asia"), query("pop", "world_1.asia"), query("area", "world_1.asia"), query("name", "world_1.asia")})
	if want := []string{"3:errors:execute_sql failed × 4"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A held reminder gives way to a count due at the same call that says more (a command that
// does nothing), and once that is told it is not owed any more.
func TestAHeldReminderGivesWayToACountDueOfItsOwn(t *testing.T) {
	grep := ok("grep", `{"pattern":"foo"}`, "a.go:12: foo()")
	echo := func(w string) step { return ok("bash", `{"command":"echo `+w+`"}`, w) }
	x, y := echo("waiting"), echo("still")
	got := progressRun(t, defaultProgress(nil), []step{grep, grep, grep, x, x, x, y, y, x, x, x})
	// x's third run (5) falls in the quiet calls; at 8, its fourth, six commands in a row
	// have done nothing, which says more; x's sixth (10) is its escalation, which speaks.
	want := []string{"2:stuck:grep × 3", "8:stuck:bash does nothing × 6", "10:stuck:bash × 6"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// traceback is what Python prints when a script read from stdin raises kind with message at
// line.
func traceback(line int, kind, message string) string {
	return fmt.Sprintf("Traceback (most recent call last):\n  File \"<stdin>\", line %d, in <module>\n%s: %s\n", line, kind, message)
}

// script is a different script each time that writes a file (so its tool changes the
// workspace, and a failure's first line is its lead), its words holding those of any
// exception's message, as a long attack script's do (validation round r58c F2).
func script(i int) string {
	return fmt.Sprintf(`{"code":"import sys\n# attempt %d: read the list, index it, name n, or raise\nitems = list(range(%d))\nopen('out.txt', 'w').write(str(items[n]))\n"}`, i, i)
}

func TestFailuresOfDifferentKindsAreDifferentFailures(t *testing.T) {
	tests := []progressCase{
		{"a script rewritten after each failure, failing a different way each time, is moving on",
			[]step{
				fail("python", script(1), traceback(27, "IndexError", "list index out of range")),
				fail("python", script(2), traceback(19, "IndexError", "list index out of range")),
				fail("python", script(3), traceback(27, "NameError", "name 'n' is not defined")),
				fail("python", script(4), traceback(91, "FileNotFoundError", "[Errno 2] No such file or directory: '<stdin>'")),
			},
			nil},
		{"rewritten scripts that raise the same exception every time are one failure",
			times(4, func(i int) step {
				return fail("python", script(i), traceback(27, "IndexError", "list index out of range"))
			}),
			[]string{"3:errors:python failed × 4"}},
		{"one missing file read by four programs is one failure, whatever program says so",
			[]step{
				fail("bash", `{"command":"cat notes.txt"}`, "cat: notes.txt: No such file or directory"),
				fail("bash", `{"command":"grep -n TODO notes.txt"}`, "grep: notes.txt: No such file or directory"),
				fail("bash", `{"command":"wc -l notes.txt"}`, "wc: notes.txt: No such file or directory"),
				fail("bash", `{"command":"md5sum notes.txt"}`, "md5sum: notes.txt: No such file or directory"),
			},
			[]string{"3:errors:bash failed × 4"}},
		{"two kinds of failure in turn are still one loop: each takes up its count where it was left",
			times(8, func(i int) step {
				if i%2 == 0 {
					return fail("python", script(i), traceback(27, "IndexError", "list index out of range"))
				}
				return fail("python", script(i), traceback(3, "NameError", "name 'n' is not defined"))
			}),
			[]string{"6:errors:python failed × 4"}},
	}
	runProgressCases(t, tests)
}

func TestFailureKindIsTheNameBeforeTheFirstColon(t *testing.T) {
	tests := []struct {
		line string
		kind string // "" for none
	}{
		{"IndexError: list index out of range", "IndexError"},
		{"json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)", "json.decoder.JSONDecodeError"},
		{"panic: runtime error: index out of range [3] with length 0", "panic"},
		{"error[E0308]: mismatched types", "error[E0308]"},
		{"src/main.rs:3:5: error: expected one of", ""},            // a path
		{"FAILED tests/test_a.py::test_b - AssertionError: x", ""}, // a phrase
		{"No such file or directory", ""},                          // no colon
		{"404: not found", ""},                                     // no letters
		{": nothing before the colon", ""},
		{"cat: notes.txt: No such file or directory", ""},        // the program that reported it
		{"grep: notes.txt: No such file or directory", ""},       // the same failure, another program
		{"fatal: not a git repository (or any parent)", "fatal"}, // git's kind
		{"2026-12-01T10:00:00Z ERROR something", ""},             // a time
	}
	for _, tt := range tests {
		want := uint64(0)
		if tt.kind != "" {
			want = wordHash(tt.kind) | 1
		}
		if got := failureKind(tt.line); got != want {
			t.Errorf("failureKind(%q) = %x, want the hash of %q (%x)", tt.line, got, tt.kind, want)
		}
	}
}

// notExecuted is Cline's answer to a call of a reply that held several: it runs the first and
// refuses the others for the reply's form.
func notExecuted(tool, args string) step {
	return step{tool: tool, args: args, result: "Tool [" + tool + "] was not executed because a tool has already been used in this message. Only one tool may be used per message.",
		failed: true, source: SourceHarness}
}

func TestCallsRefusedForTheReplysFormAreNoFailureEditsCouldReach(t *testing.T) {
	tests := []progressCase{
		{"a read sent with each edit, refused each time while the edits land, is no command failing alike across changes (validation round r59c F1)",
			times(8, func(i int) step {
				if i%2 == 0 {
					return ok("write_to_file", fmt.Sprintf(`{"path":"types.d.ts","content":"v%d"}`, i), "The content was successfully saved to types.d.ts.")
				}
				return notExecuted("read_file", `{"path":"categoryController.ts"}`)
			}),
			nil},
		{"the same refused call sent again and again, nothing between, is still the same call answered the same",
			times(3, func(int) step { return notExecuted("read_file", `{"path":"categoryController.ts"}`) }),
			[]string{"2:stuck:read_file × 3"}},
		{"the same read failing by itself across the edits is still told",
			times(8, func(i int) step {
				if i%2 == 0 {
					return ok("write_to_file", fmt.Sprintf(`{"path":"types.d.ts","content":"v%d"}`, i), "The content was successfully saved to types.d.ts.")
				}
				return fail("read_file", `{"path":"categoryController.ts"}`, "Error: EACCES: permission denied, open 'categoryController.ts'")
			}),
			[]string{"7:errors:read_file failed × 4"}},
	}
	runProgressCases(t, tests)
}

// envelope is how OpenClaw answers every failing tool: one JSON envelope, the error last.
func envelope(tool, message string) string {
	m, _ := json.Marshal(message)
	return fmt.Sprintf("{\n  \"status\": \"error\",\n  \"tool\": %q,\n  \"error\": %s\n}", tool, m)
}

func TestFailuresInOneJSONEnvelopeAreComparedByTheirErrors(t *testing.T) {
	patch := func(i int) string {
		return fmt.Sprintf(`{"input":"*** Begin Patch\n*** Update File: src/settings_%d.cpp\n*** End Patch"}`, i)
	}
	tests := []progressCase{
		{"four different rejections of a patch, each in the tool's envelope, are four failures (validation round r59d F1)",
			[]step{
				fail("apply_patch", patch(0), envelope("apply_patch", "No files were modified.")),
				fail("apply_patch", patch(1), envelope("apply_patch", "Invalid patch hunk at line 2: '--- a/src/settings.cpp' is not a valid hunk header.")),
				fail("apply_patch", patch(2), envelope("apply_patch", "The first line of the patch must be '*** Begin Patch'")),
				fail("apply_patch", patch(3), envelope("apply_patch", "Path escapes sandbox root (/workspace): /app/src/settings.cpp")),
			},
			nil},
		{"different failures whose messages end with one hint are different failures (review r21 M2)",
			times(12, func(i int) step {
				if i%2 == 0 {
					return ok("edit", fmt.Sprintf(`{"path":"calc.py","new":"v%d"}`, i), "The file calc.py has been edited.")
				}
				msg, _ := json.Marshal(fmt.Sprintf("test_case_%c failed: expected %d, got %d\nSee the test log for details.", 'a'+i/2, i, i+1))
				return fail("run_tests", `{"path":"tests"}`, `{"status": "error", "error": `+string(msg)+`}`)
			}),
			nil},
		{"the same rejection in the envelope, whatever the patch, is one failure",
			times(4, func(i int) step {
				return fail("apply_patch", patch(i), envelope("apply_patch", "Path escapes sandbox root (/workspace): /app/src/settings.cpp"))
			}),
			[]string{"3:errors:apply_patch failed × 4"}},
	}
	runProgressCases(t, tests)
}

func TestJSONErrorMessageIsWhatTheErrorFieldSays(t *testing.T) {
	tests := []struct{ result, want string }{
		{`{"status": "error", "tool": "edit", "error": "No files were modified."}`, "No files were modified."},
		{"  {\n  \"error\": {\"code\": 400, \"message\": \"old_str not found\"}\n}\n", "old_str not found"},
		{`{"status": "failed", "message": "quota exceeded"}`, "quota exceeded"},
		{`{"error": "", "detail": "not found"}`, "not found"},
		{`{"result": "ok"}`, ""},
		{`["error", "x"]`, ""},
		{`{"error": "unterminated`, ""},
		{`plain text error: x`, ""},
	}
	for _, tt := range tests {
		if got := jsonErrorMessage(tt.result); got != tt.want {
			t.Errorf("jsonErrorMessage(%q) = %q, want %q", tt.result, got, tt.want)
		}
	}
	if l, _ := failureLine(`{"error": "Traceback (most recent call last):\n  File \"x.py\", line 3\nIndexError: list index out of range"}`); l != "IndexError: list index out of range" {
		t.Errorf("failureLine of an error field holding a traceback = %q, want its exception's line", l)
	}
	if l, _ := failureLine(`{"error": "test_a failed: expected 1, got 2\nSee the test log for details."}`); l != "test_a failed: expected 1, got 2\nSee the test log for details." {
		t.Errorf("failureLine of an error that names no failure in a line of its own = %q, want the whole message", l)
	}
}

// An error object is read one level down, no further: a deeply nested answer costs one pass
// (review r21 H1: 16 KB of nested errors took 124 ms, each level read again), and an envelope
// without escapes is read in place.
func TestJSONErrorMessageReadsOneLevelInPlace(t *testing.T) {
	deep := strings.Repeat(`{"error":`, 2000) + `"x"` + strings.Repeat("}", 2000)
	if got := jsonErrorMessage(deep); got != "" {
		t.Errorf("an error nested 2,000 deep: %q, want none (one level down is read)", got)
	}
	if got := jsonErrorMessage(`{"error": {"code": 400, "message": "bad"}} trailing`); got != "" {
		t.Errorf("an object with text after it: %q, want none", got)
	}
	env := `{"status": "error", "tool": "apply_patch", "error": "No files were modified."}`
	if n := testing.AllocsPerRun(100, func() { _ = jsonErrorMessage(env) }); n != 0 {
		t.Errorf("jsonErrorMessage of an envelope without escapes: %v allocations, want 0", n)
	}
}

// A call its host cancelled because another call of the reply failed never ran: Claude Code
// answers it "Sibling tool call errored" (or, later, "Cancelled: parallel tool call …
// errored"). It is no repeat however often it is sent; the failing call beside it still is.
func TestACallCancelledWithItsSiblingNeverRan(t *testing.T) {
	const cancelled = "<tool_use_error>Sibling tool call errored</tool_use_error>"
	const tooBig = "<tool_use_error>File content (31282 tokens) exceeds maximum allowed tokens (25000).</tool_use_error>"
	reply := func(n int, bigArgs, bigResult, cancelText string) []step {
		turn := fmt.Sprintf("msg_%d", n)
		return []step{
			inTurn(turn, fail("Read", bigArgs, bigResult)),
			inTurn(turn, fail("Read", `{"file_path":"/repo/strategies/review.md"}`, cancelText)),
		}
	}
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"a read cancelled beside a read shrinking its window is no repeat",
			slices.Concat(
				reply(1, `{"file_path":"/repo/logs/current.log","limit":50}`, tooBig, cancelled),
				reply(2, `{"file_path":"/repo/logs/current.log","limit":30}`, strings.Replace(tooBig, "31282", "28476", 1), cancelled),
				reply(3, `{"file_path":"/repo/logs/current.log","limit":20}`, strings.Replace(tooBig, "31282", "26120", 1), cancelled),
				reply(4, `{"file_path":"/repo/logs/current.log","limit":15}`, strings.Replace(tooBig, "31282", "25410", 1),
					"<tool_use_error>Cancelled: parallel tool call Read(/repo/logs/current.log) errored</tool_use_error>")),
			nil},
		{"the read that fails, sent alike each time, is still told",
			slices.Concat(
				reply(1, `{"file_path":"/repo/logs/current.log"}`, tooBig, cancelled),
				reply(2, `{"file_path":"/repo/logs/current.log"}`, tooBig, cancelled),
				reply(3, `{"file_path":"/repo/logs/current.log"}`, tooBig, cancelled)),
			[]string{"4:stuck:Read × 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := progressRun(t, defaultProgress(nil), tt.steps); !slices.Equal(got, tt.want) {
				t.Errorf("notices %q, want %q", got, tt.want)
			}
		})
	}
}

// A teardown whose `pkill -f` stopped its own shell is answered with a signal's status ("Exit
// code 144"): between experiments, each after an edit, it is no command the edits failed to
// fix; sent four times in a row, reworded to make the status go away, it is still a failure
// repeated (r124b F1, T3).
func TestAKillThatStoppedItsOwnShell(t *testing.T) {
	teardown := fail("Bash", `{"command":"pkill -f \"netlify\"; pkill -f \"vite\"; sleep 2; echo \"killed\""}`, "Exit code 144")
	var experiments []step
	for i := range 4 {
		experiments = append(experiments,
			ok("Edit", fmt.Sprintf(`{"file_path":"/app/netlify.toml","old_string":"port = %d","new_string":"port = %d"}`, 8000+i, 8001+i), "The file /app/netlify.toml has been updated."),
			ok("Bash", fmt.Sprintf(`{"command":"npx netlify dev --port %d & sleep 10 && curl -s localhost:%d/health"}`, 8001+i, 8001+i), fmt.Sprintf("◈ Server now ready on http://localhost:%d\n{\"status\":\"ok\",\"try\":%d}", 8001+i, i)),
			teardown)
	}
	rewordings := []step{
		fail("Bash", `{"command":"pkill -f \"netlify\" 2>/dev/null; echo done"}`, "Exit code 144"),
		fail("Bash", `{"command":"pkill -f \"netlify\" 2>/dev/null || true; echo done"}`, "Exit code 144"),
		fail("Bash", `{"command":"pkill -f netlify; true"}`, "Exit code 144"),
		fail("Bash", `{"command":"pkill -f netlify || :"}`, "Exit code 144"),
	}
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"a teardown between experiments is not failing across the edits", experiments, nil},
		{"the kill reworded four times in a row is told", rewordings, []string{"3:errors:Bash failed × 4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := progressRun(t, defaultProgress(nil), tt.steps); !slices.Equal(got, tt.want) {
				t.Errorf("notices %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWithoutSiteErrorsLeavesOutPythonsPthReports(t *testing.T) {
	const block = "Error processing line 1 of /opt/conda/lib/python3.9/site-packages/distutils-precedence.pth:\n\n  Traceback (most recent call last):\n  ModuleNotFoundError: No module named '_distutils_hack'\n\nRemainder of file ignored\n"
	tests := []struct{ name, in, want string }{
		{"the block before the program's output", block + "hello\n", "hello\n"},
		{"two blocks", block + block + "ok", "ok"},
		{"output before the block is kept", "start\n" + block + "end", "start\nend"},
		{"no block", "Traceback (most recent call last):\nValueError: x", "Traceback (most recent call last):\nValueError: x"},
		{"a report of another file is the program's", "Error processing line 3 of config.ini:\nRemainder of file ignored\n", "Error processing line 3 of config.ini:\nRemainder of file ignored\n"},
		{"an unfinished block is left as it is", "Error processing line 1 of x.pth:\n  Traceback", "Error processing line 1 of x.pth:\n  Traceback"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := withoutSiteErrors(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNamesItsCauseTellsASpecificMessageFromAGenericOne(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"SyntaxError: EOF while scanning triple-quoted string literal", true},
		{"fatal: Could not read from remote repository.", true},
		{"Error: Can't run project: no main scene defined in the project.", true},
		{"SyntaxError: invalid syntax", false},
		{"IndentationError: unexpected indent", false},
		{"FAILED", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := namesItsCause(tt.line); got != tt.want {
			t.Errorf("namesItsCause(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

func TestQuotedSourceLineIsTheCodeAboveTheFailure(t *testing.T) {
	tests := []struct{ name, said, line, want string }{
		{"a syntax error's line, over its caret", "  File \"<string>\", line 878\n    Load the settings module. This\n           ^\nSyntaxError: invalid syntax\n", "SyntaxError: invalid syntax", "Load the settings module. This"},
		{"a runtime error's last frame", "Traceback (most recent call last):\n  File \"x.py\", line 2, in f\n    raise ValueError(\"bad\")\nValueError: bad", "ValueError: bad", `raise ValueError("bad")`},
		{"no code quoted: a frame's heading above", "  File \"x.py\", line 2\nSyntaxError: invalid syntax", "SyntaxError: invalid syntax", ""},
		{"nothing above", "SyntaxError: invalid syntax", "SyntaxError: invalid syntax", ""},
		{"a line not in the text", "ok", "ValueError: x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := quotedSourceLine(tt.said, tt.line); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAHarnessStoppingACommandForTimeFailsIt(t *testing.T) {
	// Each harness's words when it killed a command that ran too long, recorded with no
	// failure flag and no exit status.
	timeouts := []struct{ harness, answer string }{
		{"SWE-agent 0.x", "\nEXECUTION TIMED OUT"},
		{"SWE-agent 1.x", "The command 'apt-get install default-jdk' was cancelled because it took more than 30 seconds. Please try a different command that completes more quickly."},
		{"mini-swe-agent 1.x", "The last command <command>apt-get install default-jdk</command> timed out and has been killed.\nThe output of the command was:\n <output>\nReading package lists...\n</output>\nPlease try another command and make sure to avoid those requiring interactive input."},
		{"mini-swe-agent 2.x", "<exception>An error occurred while executing the command: Command 'apt-get install default-jdk' timed out after 60 seconds</exception>\n<returncode>-1</returncode>\n<output>\nReading package lists...\n</output>"},
	}
	var tests []progressCase
	for _, to := range timeouts {
		// The model edits the package sources between the runs: the changes do not reach
		// why the install hangs (validation round r165a M1).
		tests = append(tests, progressCase{
			to.harness + ": the same install timing out after each of four changes fails across the edits",
			times(8, func(i int) step {
				if i%2 == 1 {
					return ok("bash", fmt.Sprintf("echo 'deb http://mirror%d.example/debian stable main' >> /etc/apt/sources.list", i), "")
				}
				return ok("bash", "apt-get install default-jdk", to.answer)
			}),
			[]string{"6:errors:bash failed × 4"}})
	}
	runProgressCases(t, tests)
}

func TestFailuresAnsweredAsASuccessWasAreAChainOfTheirOwn(t *testing.T) {
	const page = "This application requires JavaScript for correct operation. Please enable JavaScript and reload the page."
	click := func(id int) string { return fmt.Sprintf(`{"code":"click('%d')"}`, id) }
	steps := []step{ok("browser", `{"code":"goto('http://files/')"}`, page)}
	for i := 0; i < 4; i++ {
		steps = append(steps, fail("browser", click(390+i), page))
	}
	runProgressCasesRestoredToo(t, []progressCase{
		// An OpenHands browser on TheAgentCompany: the page loaded, then four clicks failed on
		// it, each answered with the same page (validation round r260g R1). The failures are
		// one chain, whatever the success before them showed.
		{"four failures after a success with the same answer are told at the fourth", steps, []string{"4:errors:browser failed × 4"}},
		{"three are not", steps[:4], nil},
	})
}
