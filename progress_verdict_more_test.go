package loopguard

import (
	"fmt"
	"testing"
)

// endsWithSuccess moved out of looksFailed into observeCall, before the command-not-found
// step; that step re-judges the output without the foreign zsh line by looksFailed alone, so
// under Cursor's terminal (every output ends "zsh:1: command not found: dump_zsh_state") the
// program's own verdict is never honoured: the EF Core run of TestASuccessVerdictLastIsNoFailure
// is an errors loop again. (Before eb3af04 looksFailed(said) held the verdict rule.)
func TestVerdictBeforeCursorsHookLine(t *testing.T) {
	const ef = "Build started...\nBuild succeeded.\n[14:02:11 FTL] Application terminated unexpectedly\n" +
		"Microsoft.Extensions.Hosting.HostAbortedException: The host was aborted.\n   at Program.<Main>$(String[] args) in Program.cs:line 98\nDone.\n" +
		"zsh:1: command not found: dump_zsh_state"
	var steps []step
	for i := range 5 {
		steps = append(steps,
			ok("edit_file", fmt.Sprintf(`{"target_file":"Migrations/M%d.cs","code_edit":"x"}`, i), "The edit was applied."),
			ok("run_terminal_cmd", `{"command":"dotnet ef database update"}`, ef))
	}
	if got := progressRun(t, defaultProgress(nil), steps); len(got) != 0 {
		t.Errorf("five migrations applied, each ending Done. then Cursor's hook line: got %q, want no notice", got)
	}
}

// The "echoed by the call" test is a byte-substring search (namedIn): "OK" is in
// GITHUB_TOKEN, WEBHOOK_URL, BOOKS...; "Done" in isDone, markDone. A unittest run that logs a
// handled traceback and ends with its own "OK" is read as failed when its command line holds
// any of these.
func TestVerdictInsideAnotherWordIsNotEchoed(t *testing.T) {
	const out = "test_retry (tests.test_client.ClientTest) ... ERROR:root:upload failed\nTraceback (most recent call last):\n" +
		"  File \"/repo/client.py\", line 40, in upload\nConnectionError: refused\nok\n\n" +
		"----------------------------------------------------------------------\nRan 12 tests in 0.314s\n\nOK\n"
	for _, args := range []string{
		`{"command":"GITHUB_TOKEN=test python -m unittest discover -s tests"}`,
		`{"command":"python -m unittest tests.test_webhooks.WebhookTest"}`, // "WebhookTest" holds no OK: control
	} {
		if !endsWithSuccess(out, []byte(args)) {
			t.Errorf("endsWithSuccess(unittest ... OK, %s) = false, want true: the call prints no \"OK\" of its own", args)
		}
	}
}

// An echoed verdict with a variable in it (`echo "Done in ${SECONDS}s"`) is compared
// whole against the arguments, so it is taken for the program's and hides the traceback.
func TestEchoedVerdictWithAVariable(t *testing.T) {
	const out = "Traceback (most recent call last):\n  File \"/repo/repro.py\", line 3, in <module>\n    main()\nValueError: bad input\nDone in 2s\n"
	if endsWithSuccess(out, []byte(`{"command":"python repro.py; echo \"Done in ${SECONDS}s\""}`)) {
		t.Errorf("a verdict the call's own echo printed (with $SECONDS expanded) read as the program's")
	}
}

// endsWithSuccess runs in observeCall for every result that reads as failed, and
// namedIn converts the verdict line to []byte: a verdict line longer than 32 bytes (unittest's
// "OK (skipped=3, expected failures=2)", "Build succeeded with 3 warning(s)"-style text after
// "OK (") allocates on every such call.
func TestObserveAllocatesNothingOnAVerdictLastLine(t *testing.T) {
	cfg, _ := Preset(PresetDefault)
	eng, _ := New(cfg)
	const distinct = 8192
	events := make([]Event, distinct)
	for i := range events {
		events[i] = Call("agent-1", "Bash", fmt.Appendf(nil, `{"command":"python -m unittest tests.test_m%d"}`, i)).
			WithResult(fmt.Sprintf("ERROR:root:retry %d failed\nTraceback (most recent call last):\nValueError: x\nRan 9 tests in 0.1s\n\nOK (skipped=3, expected failures=2)\n", i), false)
	}
	for i := 0; i < 2*distinct; i++ {
		eng.Observe(events[i%distinct])
	}
	i := 0
	if n := testing.AllocsPerRun(1000, func() { eng.Observe(events[i%distinct]); i++ }); n != 0 {
		t.Errorf("%.2f allocations per call, want 0", n)
	}
}
