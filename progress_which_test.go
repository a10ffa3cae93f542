package loopguard

import "testing"

// GNU which says it found nothing in a line of its own, "which: no X in (PATH)": an answer,
// not a usage error (as "find: paths must precede expression" is).
func TestWhichFindingNothingDidNotFail(t *testing.T) {
	cfg, _ := Preset(PresetDefault)
	e, _ := New(cfg)
	for _, ev := range []Event{
		Call("a", "bash", []byte(`{"command":"which python3.11"}`)).WithResult("which: no python3.11 in (/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin)", true),
		Call("a", "bash", []byte(`{"command":"which pytest"}`)).WithResult("which: no pytest in (/usr/bin:/bin)\nExit code: 1", false),
	} {
		if e.CallFailed(ev) {
			t.Errorf("%s => %q: failed, want a search that found nothing (not failed)", ev.Args, ev.Result)
		}
	}
}
