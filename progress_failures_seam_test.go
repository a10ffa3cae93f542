package loopguard

import (
	"fmt"
	"strings"
	"testing"
)

// seamFailure is a failure of about 1 KB, with extra context lines when long is true: the
// two lengths fall either side of longTextBytes, so digest sketches one by its words and
// the other by its lines.
func seamFailure(name string, long bool) string {
	var b strings.Builder
	b.WriteString("Traceback (most recent call last):\n")
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&b, "  File \"/repo/pkg/module_%c.py\", in handler_%c\n    result = compute_%c(payload, options)\n", 'a'+i, 'a'+i, 'a'+i)
	}
	if long {
		for i := 0; i < 3; i++ {
			fmt.Fprintf(&b, "  File \"/repo/pkg/extra_%c.py\", in wrapper_%c\n", 'a'+i, 'a'+i)
		}
	}
	fmt.Fprintf(&b, "KeyError: missing configuration key %s\n", name)
	return b.String()
}

// Two alike answers either side of the 1 KB seam are compared as alike: the answer under way
// is sketched again in the mode of the one it is compared with, when it is near enough the
// seam for the two to be alike at all.
func TestLikenessBridgesTheSeamBetweenWordsAndLines(t *testing.T) {
	short, long := seamFailure("alpha", false), seamFailure("beta", true)
	if len(short) >= longTextBytes || len(long) < longTextBytes {
		t.Fatalf("fixture lengths %d and %d do not straddle %d", len(short), len(long), longTextBytes)
	}
	far := strings.Repeat(seamFailure("gamma", true), 3) // over twice the seam
	tests := []struct {
		name         string
		stored, next string
		min, max     float64
	}{
		{"short stored, long next", short, long, 0.8, 1},
		{"long stored, short next", long, short, 0.8, 1},
		{"unrelated across the seam", short, strings.Repeat("ok all tests passed in this module\n", 40), 0, 0.2},
		{"too far past the seam to be alike", short, far, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newProgressDetector(*defaultProgress(nil).Progress, nil).newState().(*progressState)
			stored := s.dg.digest(tt.stored, false, false)
			c := &observedCall{tool: "bash", args: []byte(`{"command":"python run.py"}`), result: tt.next}
			dg := s.digestResult(c, c.args)
			if stored.sketch.mode == dg.sketch.mode {
				t.Fatalf("both sketched in mode %d: the case does not cross the seam", dg.sketch.mode)
			}
			if got := s.likeness(&stored.sketch, c, &dg); got < tt.min || got > tt.max {
				t.Errorf("likeness %.2f, want %.2f..%.2f", got, tt.min, tt.max)
			}
		})
	}
}

// A command failing the same way, its answer a little longer or shorter than 1 KB from one
// run to the next, is one tool failing alike: told as errors, not taken for a new failure at
// each crossing of the seam.
func TestErrorsChainCrossesTheSeam(t *testing.T) {
	e, err := New(defaultProgress(nil))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}
	told := -1
	for i, name := range names {
		ev := Call("a", "bash", []byte(fmt.Sprintf(`{"command":"python run.py --profile %s"}`, name))).
			WithResult(seamFailure(name, i%2 == 1), true)
		for _, n := range e.Observe(ev) {
			if n.Kind == KindErrors && told < 0 {
				told = i
			}
		}
	}
	if told < 0 || told > 3 {
		t.Errorf("errors told at call %d, want by call 3 (-1: never)", told)
	}
}

// A sketch's mode survives a snapshot: restored, a chain sketched by its lines is still
// compared with a short answer by sketching that answer's lines.
func TestSketchModeSurvivesTheSnapshot(t *testing.T) {
	var d digester
	for _, text := range []string{seamFailure("alpha", false), seamFailure("beta", true), "\x1b[31m" + seamFailure("gamma", true)} {
		want := d.digest(text, false, false).sketch
		var got sketch
		r := &snapReader{b: appendSketch(nil, &want)}
		if readSketch(r, &got); r.err != nil || got != want {
			t.Errorf("mode %d, %d hashes: read back mode %d, %d hashes (err %v)", want.mode, want.n, got.mode, got.n, r.err)
		}
	}
	r := &snapReader{b: []byte{3<<5 | 1, 0, 0, 0, 0, 0, 0, 0, 0}}
	var s sketch
	if readSketch(r, &s); r.err == nil {
		t.Error("a sketch of an unknown mode was read without an error")
	}
}
