package loopguard

import (
	"fmt"
	"strings"
	"testing"
)

func TestSelfRepeatsFindsAReplyGoingRoundInALoop(t *testing.T) {
	confused := "Wait, I am confused.\nIs it `msubsup` or `msubsup`?\n`msubsup` -> m s u b s u p.\n"
	numbered := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "%d. **Check the third-party services**: make sure they are configured correctly.\n\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name   string
		text   string
		rounds int
		period int
	}{
		{"a block of lines written over and over", "Okay, the variable is fixed.\n\n" + strings.Repeat(confused, 30), 30, 3},
		{"a numbered list whose items say the same thing", "Steps to check:\n\n" + numbered(21), 21, 1},
		{"a block repeated nine times is short of the ten", strings.Repeat(confused, 9), 9, 3},
		{"a code block of the same line is code, not a loop",
			"Here is the test:\n```python\n" + strings.Repeat("    assert parse('x') == Token('x', kind='name')\n", 20) + "```\nDone.", 0, 0},
		{"a quoted output block is output, not a loop",
			"```\n" + strings.Repeat("src/domain/workspace.test.ts:<<<<<<< HEAD\n", 15) + "```", 0, 0},
		{"a numbered list of data, each item the same sentence with other values, is data",
			"The dividend history:\n\n" + func() string {
				var b strings.Builder
				for i := 1; i <= 12; i++ {
					fmt.Fprintf(&b, "%d. On 2023-%02d-1%d, a dividend of $0.2%d was paid per share.\n", i, i, i%10, i%4)
				}
				return b.String()
			}(), 0, 0},
		{"a loop's counters count on by the same step, however many a line holds",
			func() string {
				var b strings.Builder
				for i := 1; i <= 15; i++ {
					fmt.Fprintf(&b, "Step %d: retry the edit (attempt %d of 20), using Python 3.\n", i, i)
				}
				return b.String()
			}(), 15, 1},
		{"table rows are passed over", "| a | b |\n" + strings.Repeat("| 2024-01-01 | 0.00 | 0.00 | 0.00 | 0.00 | 0.00 |\n", 20), 0, 0},
		{"short lines repeated say too little", strings.Repeat("}\n", 30), 0, 0},
		{"rows of a grid of numbers are data, not prose", "The output grid:\n" + strings.Repeat("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", 13), 0, 0},
		{"ordinary prose does not repeat", "I read the parser. The bug is in the tokenizer: it drops the last byte.\nI will fix it and run the tests.", 0, 0},
		{"the same paragraph said twice is not a loop", strings.Repeat("The test still fails with the same assertion error in test_parse, "+
			"so the fix to the tokenizer did not reach the case of an empty input; the next step is to read how the "+
			"tokenizer treats the end of its input and where the empty token comes from.\n", 2), 2, 1},
		{"a text too short to hold ten rounds of a long enough block is passed over", strings.Repeat("Retrying the build now.\n", 12), 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rounds, period := selfRepeats(tt.text, &lineScratch{})
			if rounds < 2 {
				rounds, period = 0, 0
			}
			if rounds != tt.rounds || period != tt.period {
				t.Errorf("selfRepeats = %d rounds of %d lines, want %d of %d", rounds, period, tt.rounds, tt.period)
			}
		})
	}
}

// The reply that repeats itself is told once, as a thought notice that says how many times
// and how long the repeated block is, in every locale; a reply short of the threshold is not.
func TestProgressTellsAReplyThatRepeatsItself(t *testing.T) {
	block := "Wait, I am confused.\nIs it `msubsup` or `msubsup`?\n`msubsup` -> m s u b s u p.\n"
	for _, locale := range Locales() {
		t.Run(locale, func(t *testing.T) {
			cfg := defaultProgress(nil)
			cfg.Locale = locale
			e, _ := New(cfg)
			var got []Notice
			for i, n := range []int{9, 12} {
				e.Observe(Call("a", "view", []byte(fmt.Sprintf(`{"n":%d}`, i))).WithResult(fmt.Sprintf("page %d of the file", i), false))
				got = append(got, e.Observe(Event{Type: EventText, Agent: "a", Source: "model", ID: fmt.Sprint("msg", i), Text: strings.Repeat(block, n)})...)
			}
			if len(got) != 1 || got[0].Kind != KindThought || got[0].Summary != "text repeats itself × 12" {
				t.Fatalf("notices %+v, want one thought notice for the 12 rounds", got)
			}
			if !strings.Contains(got[0].Text, "12") || !strings.Contains(got[0].Text, "3") || !strings.HasPrefix(got[0].Text, "[loopguard]") {
				t.Errorf("the notice does not say how many times and how many lines: %s", got[0].Text)
			}
		})
	}
}

// FuzzSelfRepeats: any text is read without panicking, and a block never repeats more times
// than the text has lines for.
func FuzzSelfRepeats(f *testing.F) {
	for _, s := range []string{"a\nb\na\nb", "```\nx\n```", "| t |", "1. x\n2. x\n", "\r\n\r\n", strings.Repeat("loop line of forty bytes, more or less.\n", 12)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rounds, period := selfRepeats(text, &lineScratch{})
		if lines := strings.Count(text, "\n") + 1; rounds*period > lines {
			t.Errorf("%d rounds of %d lines in a text of %d lines", rounds, period, lines)
		}
	})
}

// Data in a reply (a list of dividends, its numbers moving unevenly) is passed over, and a
// loop later in the same reply is told as it would be alone.
func TestDataInAReplyDoesNotHideItsLoop(t *testing.T) {
	loop := strings.Repeat("Wait, I am confused.\nIs it `msubsup` or `msubsup`?\n`msubsup` -> m s u b s u p.\n", 12)
	var data strings.Builder
	for i, v := range []int{3, 7, 12, 20, 21, 35, 36, 50, 61, 70, 88, 90, 97, 120, 131, 140, 171, 180, 199, 230} {
		fmt.Fprintf(&data, "%d. On 2023-05-%02d, $0.%d was paid to the holders of record\n", i+1, i+1, v)
	}
	for _, tt := range []struct{ name, text string }{{"the loop alone (control)", loop}, {"the data, then the loop", data.String() + "\n" + loop}} {
		t.Run(tt.name, func(t *testing.T) {
			r := newTextRun(t)
			r.say("m1", tt.text)
			if got := r.thoughts(); len(got) != 1 || !strings.Contains(got[0], "text repeats itself × 12") {
				t.Errorf("a reply going round its loop 12 times: %v, want one notice", got)
			}
		})
	}
}
