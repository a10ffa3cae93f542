package loopguard

import (
	"fmt"
	"testing"
)

// The program's verdict is read from its last line once Cursor's hook line after it is off
// (every output of Cursor's terminal ends "zsh:1: command not found: dump_zsh_state"): EF
// Core's migrations, each ending "Done.", are no errors loop there either (review r45).
func TestVerdictBeforeCursorsHookLine(t *testing.T) {
	steps := migrationsAfterEdits(efMigration + "zsh:1: command not found: dump_zsh_state")
	if got := progressRun(t, defaultProgress(nil), steps); len(got) != 0 {
		t.Errorf("five migrations applied, each ending Done. then Cursor's hook line: got %q, want no notice", got)
	}
}

// A command echoes the verdict only when it holds the verdict's word as a word of its own:
// "OK" inside GITHUB_TOKEN or WEBHOOK_URL, "Done" inside isDone, are not it, and a unittest run
// that logs a handled traceback and ends with its own "OK" did not fail (review r45).
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

// An echoed verdict with a variable in it (`echo "Done in ${SECONDS}s"`) is the command's,
// found by its word: the traceback above it is the program's failure (review r45).
func TestEchoedVerdictWithAVariable(t *testing.T) {
	const out = "Traceback (most recent call last):\n  File \"/repo/repro.py\", line 3, in <module>\n    main()\nValueError: bad input\nDone in 2s\n"
	if endsWithSuccess(out, []byte(`{"command":"python repro.py; echo \"Done in ${SECONDS}s\""}`)) {
		t.Errorf("a verdict the call's own echo printed (with $SECONDS expanded) read as the program's")
	}
}

// Reading the verdict allocates nothing, however long its line (unittest's "OK (skipped=3,
// expected failures=2)"): it runs for every result that reads as failed (review r45).
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
