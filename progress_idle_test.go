package loopguard

// The idle rule: commands that do nothing, run one after another.

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestDoesNothingReadsTheCommand(t *testing.T) {
	tests := []struct {
		args string
		want bool
	}{
		{`echo "Ready for next task"`, true},
		{`{"command":"echo \"Standing by\"","description":"wait"}`, true},
		{`true`, true}, {`:`, true}, {`exit 0`, true}, {`# Waiting for next task`, true},
		{`{"cmd":"printf 'done\\n'"}`, true},
		{`echo "Task complete" > status.txt`, false},                     // writes a file
		{`echo $PATH`, false},                                            // reads the environment
		{`echo "$(date)"`, false},                                        // runs a command
		{"echo start\nmake test", false},                                 // a second command
		{`{"command":"echo a\nls"}`, false},                              // the same, as JSON writes it
		{`{"command":"echo \"a\\\\nb\""}`, true},                         // an escaped backslash-n is text
		{`echo done && git push`, false},                                 // a second command
		{`sleep 5`, false},                                               // a wait is not nothing
		{`echo /opt/*`, false}, {`echo ~`, false}, {`echo {a,b}`, false}, // expansions (review r41)
		{`{"command":"echo %JAVA_HOME%"}`, false}, {`echo "files: *.go"`, true},
		{`ls -la`, false}, {`pwd`, false}, {`{"file_path":"/a"}`, false}, {``, false},
		// a heredoc script that only prints literals (openai/codex#6190, r105a M1)
		{`{"cmd":"python3 - <<'PY'\nprint('placeholder script')\nPY"}`, true},
		{`{"cmd":"python3 - \u003c\u003c'PY'\nprint(\"done\")\n\nprint('ok')\nPY"}`, true},
		{`{"cmd":"python - << 'EOF'\nprint('a')\nEOF"}`, true},
		{`{"cmd":"python3 - <<'PY'\nimport os\nprint(os.getcwd())\nPY"}`, false}, // reads something
		{`{"cmd":"python3 - <<'PY'\nprint(f'{x}')\nPY"}`, false},                 // a substitution
		{`{"cmd":"python3 - <<'PY'\nprint('a')\nPY\nls"}`, false},                // a second command
		{`{"cmd":"python3 repro.py"}`, false},
		{`{"cmd":"python3 - <<'PY'\nprint('a'); open('x','w')\nPY"}`, false},
	}
	for _, tt := range tests {
		if got := doesNothing([]byte(tt.args)); got != tt.want {
			t.Errorf("doesNothing(%s) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

// A model that believes it is done while its harness wants another command echoes one status
// after another: told at the third command in a row that does nothing, whatever each says.
func TestCommandsThatDoNothingInARowAreIdle(t *testing.T) {
	idle := []step{
		ok("bash", `echo "Task already completed successfully"`, "Task already completed successfully\n"),
		ok("bash", `echo "Acknowledged"`, "Acknowledged\n"),
		ok("bash", `echo "Ready for next task"`, "Ready for next task\n"),
		ok("bash", `true`, ""),
	}
	got := progressRun(t, defaultProgress(nil), idle)
	if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "2:stuck:bash does nothing × 3") }) {
		t.Errorf("three echoes of status in a row: got %q, want the idle notice at the third (call 2)", got)
	}
	// Echoes between real work, and waits, are not idling.
	var work []step
	for i := range 4 {
		work = append(work,
			ok("bash", fmt.Sprintf(`echo "=== step %d ==="`, i), fmt.Sprintf("=== step %d ===\n", i)),
			ok("bash", fmt.Sprintf(`pytest -q tests/test_%d.py`, i), "3 passed in 0.2s"),
			ok("bash", `sleep 5`, ""))
	}
	if got := progressRun(t, defaultProgress(nil), work); len(got) != 0 {
		t.Errorf("echoes between tests and waits: got %q, want no notice", got)
	}
}

// The count of commands that did nothing in a row is part of an agent's state: a hook that
// restores it before each call tells the third as a live engine does.
func TestSnapshotKeepsTheIdleCount(t *testing.T) {
	cfg := defaultProgress(nil)
	live, _ := New(cfg)
	restored := restoredEachEvent(t, cfg)
	for i, text := range []string{"Ready", "Standing by", "Waiting for instructions"} {
		ev := Call("a", "bash", []byte(`echo "`+text+`"`)).WithResult(text+"\n", false)
		want := live.Observe(ev)
		got := restored(ev)
		if len(got) != len(want) || len(got) > 0 && got[0].Summary != want[0].Summary {
			t.Fatalf("call %d: from snapshot %+v, live %+v", i, got, want)
		}
		if i == 2 && len(got) == 0 {
			t.Fatal("the third echo in a row: no notice")
		}
	}
}

func TestSleepsOnlyKnowsACallThatOnlySleeps(t *testing.T) {
	tests := []struct {
		args string
		want bool
	}{
		{"sleep 30", true},
		{`{"command":"sleep 0.5s"}`, true},
		{`{"command":"Start-Sleep -Seconds 5"}`, true},
		{"Start-Sleep 2", true},
		{"sleep 30 && curl -sf localhost:8000/health", false},
		{`{"command":"sleep 5; tail -5 build.log"}`, false},
		{"sleep", false},
		{"sleep forever", false},
		{`{"pattern":"sleep 30"}`, false},
	}
	for _, tt := range tests {
		args := []byte(tt.args)
		if got := sleepsOnly(args); got != tt.want {
			t.Errorf("sleepsOnly(%s) = %v, want %v", tt.args, got, tt.want)
		}
		// asked at every poll: it must not allocate
		if n := testing.AllocsPerRun(10, func() { sleepsOnly(args) }); n != 0 {
			t.Errorf("sleepsOnly(%s) allocates %v times", tt.args, n)
		}
	}
}

// A run of bare sleeps is told in its own words: nothing was checked between them.
func TestBareSleepsNoticeSaysNothingWasChecked(t *testing.T) {
	eng, err := New(defaultProgress(nil))
	if err != nil {
		t.Fatal(err)
	}
	var got []Notice
	for range 11 {
		got = append(got, eng.Observe(Call("a", "bash", []byte("sleep 30")).WithResult("", false))...)
	}
	if len(got) != 1 || got[0].Kind != KindPoll || !strings.Contains(got[0].Text, "only slept") {
		t.Fatalf("11 bare sleeps: got %+v, want one poll notice saying the calls only slept", got)
	}
}
