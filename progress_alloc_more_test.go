package loopguard

import (
	"fmt"
	"testing"
)

// Calls answered with nothing (mkdir, cp, sed -i), and failing command lines, ask whether the
// call searches (which program of the pipeline answers): naming the program must allocate
// nothing, as the rest of a call's observation does not.
func TestObserveAllocatesNothingOnEmptyOrFailingAnswers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		result string
		failed bool
	}{
		{"a command answered with nothing", "", false},
		{"a command that failed", "make: *** [all] Error 2 in step %d", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := Preset(PresetDefault)
			eng, _ := New(cfg)
			const distinct = 8192
			events := make([]Event, distinct)
			for i := range events {
				res := tc.result
				if res != "" {
					res = fmt.Sprintf(res, i)
				}
				events[i] = Call("agent-1", "Bash", fmt.Appendf(nil, `{"command":"mkdir -p /testbed/d_%d | sort"}`, i)).WithResult(res, tc.failed)
			}
			for i := 0; i < 2*distinct; i++ {
				eng.Observe(events[i%distinct])
			}
			i := 0
			if n := testing.AllocsPerRun(1000, func() { eng.Observe(events[i%distinct]); i++ }); n != 0 {
				t.Errorf("%.2f allocations per call, want 0", n)
			}
		})
	}
}
