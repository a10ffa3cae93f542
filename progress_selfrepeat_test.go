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
	// A fine-tuned model's made-up ReAct steps: the same thought before each new search,
	// until its output is cut (FireAct, validation round r67a M1).
	madeUp := func(n int, tail string) string {
		var b strings.Builder
		b.WriteString("Thought: I need to find the journal first.\nAction: search[journal Bronx]\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "Thought: The search result still does not provide the specific information I need. I should try a different search.\nAction: search[journal Bronx %s]\n", strings.Repeat("wiki ", i%7)+[]string{"history", "timeline", "list", "first issue", "archive"}[i%5])
		}
		return b.String() + tail
	}
	// A template filled in for each of a list of files, then what it was for.
	verdicts := func(tail string) string {
		var b strings.Builder
		for _, f := range []string{"app", "cli", "config", "db", "http", "log", "parse", "queue", "store", "text", "util", "web"} {
			fmt.Fprintf(&b, "File: src/%s.py\nVerdict: follows the style guide already and needs no change at all.\n", f)
		}
		return b.String() + tail
	}
	tests := []struct {
		name   string
		text   string
		rounds int
		period int
		spread bool
	}{
		{"a line said again before each new made-up step, until the output is cut", madeUp(27, "Thought: The search result still does not"), 27, 2, true},
		{"a line said again before each new made-up step, up to the text's end", madeUp(12, ""), 12, 2, true},
		{"a line said again nine times is short of the ten", madeUp(9, ""), 0, 0, false},
		{"a template filled in for each file, then what it was for", verdicts("\nSo none of the twelve files needs an edit; the bug is in the tests."), 0, 0, false},
		{"a block of lines written over and over", "Okay, the variable is fixed.\n\n" + strings.Repeat(confused, 30), 30, 3, false},
		{"a numbered list whose items say the same thing", "Steps to check:\n\n" + numbered(21), 21, 1, false},
		{"a block repeated nine times is short of the ten", strings.Repeat(confused, 9), 9, 3, false},
		{"a code block of the same line is code, not a loop",
			"Here is the test:\n```python\n" + strings.Repeat("    assert parse('x') == Token('x', kind='name')\n", 20) + "```\nDone.", 0, 0, false},
		{"a quoted output block is output, not a loop",
			"```\n" + strings.Repeat("src/domain/workspace.test.ts:<<<<<<< HEAD\n", 15) + "```", 0, 0, false},
		{"a numbered list of data, each item the same sentence with other values, is data",
			"The dividend history:\n\n" + func() string {
				var b strings.Builder
				for i := 1; i <= 12; i++ {
					fmt.Fprintf(&b, "%d. On 2023-%02d-1%d, a dividend of $0.2%d was paid per share.\n", i, i, i%10, i%4)
				}
				return b.String()
			}(), 0, 0, false},
		{"a loop's counters count on by the same step, however many a line holds",
			func() string {
				var b strings.Builder
				for i := 1; i <= 15; i++ {
					fmt.Fprintf(&b, "Step %d: retry the edit (attempt %d of 20), using Python 3.\n", i, i)
				}
				return b.String()
			}(), 15, 1, false},
		{"table rows are passed over", "| a | b |\n" + strings.Repeat("| 2024-01-01 | 0.00 | 0.00 | 0.00 | 0.00 | 0.00 |\n", 20), 0, 0, false},
		{"short lines repeated say too little", strings.Repeat("}\n", 30), 0, 0, false},
		{"rows of a grid of numbers are data, not prose", "The output grid:\n" + strings.Repeat("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", 13), 0, 0, false},
		{"ordinary prose does not repeat", "I read the parser. The bug is in the tokenizer: it drops the last byte.\nI will fix it and run the tests.", 0, 0, false},
		{"the same paragraph said twice is not a loop", strings.Repeat("The test still fails with the same assertion error in test_parse, "+
			"so the fix to the tokenizer did not reach the case of an empty input; the next step is to read how the "+
			"tokenizer treats the end of its input and where the empty token comes from.\n", 2), 2, 1, false},
		{"a text too short to hold ten rounds of a long enough block is passed over", strings.Repeat("Retrying the build now.\n", 12), 0, 0, false},
		// A loop written as one paragraph, with no line break, is read sentence by sentence
		// (r194b M1, M2: a sentence pair 24 to 49 times in one line until the output ran out).
		{"one paragraph saying a sentence pair over and over", "The error is a KeyError. " + strings.Repeat("I should create the 'stock_returns' columns first and then calculate the losses in a separate loop. "+
			"However, the error is still occurring because the columns are not created. ", 25), 25, 2, false},
		{"a paragraph in Chinese saying one sentence over and over", strings.Repeat("我需要先创建收益列，然后在单独的循环里计算投资组合的损失。", 20), 20, 1, false},
		{"a long paragraph of ordinary prose does not repeat", "The tokenizer reads its input byte by byte. When it meets a quote it reads a string, " +
			"and when it meets a digit it reads a number. The bug is that the loop stops one byte early, so the last token of an input " +
			"that ends without a newline is lost. An empty input never enters the loop at all. The test that fails feeds it \"1 2 3\" and " +
			"expects three tokens; it gets two. I will change the loop's bound, add a test for the empty input, and run the suite again. " +
			"If the other tests still pass, the fix is complete; if not, I will read the failures one by one.", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rounds, period, spread := selfRepeats(tt.text, &lineScratch{})
			if rounds < 2 {
				rounds, period = 0, 0
			}
			if rounds != tt.rounds || period != tt.period || spread != tt.spread {
				t.Errorf("selfRepeats = %d rounds of %d lines (spread %v), want %d of %d (spread %v)", rounds, period, spread, tt.rounds, tt.period, tt.spread)
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
		rounds, period, spread := selfRepeats(text, &lineScratch{})
		span := rounds * period // blocks back to back
		if spread && rounds > 0 {
			span = (rounds-1)*period + 1 // a line every period lines
		}
		if lines := strings.Count(text, "\n") + 1; span > lines {
			t.Errorf("%d rounds of %d lines (spread %v) in a text of %d lines", rounds, period, spread, lines)
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

// A reply saying one line again every few lines, the lines between changing, is told with
// the words for it (not "the same lines in a row"), in every locale, and also when it is
// held over the quiet calls after another notice and the engine is restored from a snapshot
// at every event, as a hook is.
func TestProgressTellsAReplySayingALineAgainEveryFewLines(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 14; i++ {
		fmt.Fprintf(&b, "Thought: I still haven't found the answer. I should try a different search.\nAction: search[Kevin Durant award %d %s]\n", 2007+i*3, strings.Repeat("list ", i%4))
	}
	reply := b.String()
	for _, locale := range Locales() {
		t.Run(locale, func(t *testing.T) {
			cfg := defaultProgress(nil)
			cfg.Locale = locale
			e, _ := New(cfg)
			e.Observe(Call("a", "search", []byte(`{"q":"Kevin Durant"}`)).WithResult("Kevin Wayne Durant is an American basketball player.", false))
			got := e.Observe(Event{Type: EventText, Agent: "a", Source: "model", ID: "m1", Text: reply})
			if len(got) != 1 || got[0].Summary != "text repeats itself × 14" {
				t.Fatalf("notices %+v, want one for the line said 14 times", got)
			}
			if want := catalogueFor(locale).progressSelfRepeatLine; !strings.Contains(got[0].Text, strings.SplitN(want, "{count}", 2)[0]) ||
				!strings.Contains(got[0].Text, "14") || !strings.Contains(got[0].Text, "2") {
				t.Errorf("the notice does not say a line was said again every 2 lines, 14 times: %s", got[0].Text)
			}
		})
	}
	t.Run("held over the quiet calls, across snapshots", func(t *testing.T) {
		var evs []Event
		for range 3 { // a stuck notice at the third
			evs = append(evs, Call("a", "grep", []byte(`{"pattern":"Durant"}`)).WithResult("a.txt:3: Durant", false))
		}
		evs = append(evs, Event{Type: EventText, Agent: "a", Source: "model", ID: "m1", Text: reply})
		for i := range 8 {
			evs = append(evs, Call("a", "view", fmt.Appendf(nil, `{"path":"x%d.txt"}`, i)).WithResult(fmt.Sprintf("file %d\nline two of %d", i, i), false))
		}
		restored := restoredEachEvent(t, defaultProgress(nil))
		var told []Notice
		stuckAt, thoughtAt := -1, -1
		for i, ev := range evs {
			for _, n := range restored(ev) {
				switch n.Kind {
				case KindStuck:
					stuckAt = i
				case KindThought:
					told, thoughtAt = append(told, n), i
				}
			}
		}
		if len(told) != 1 || !strings.Contains(told[0].Text, "once every 2 lines") {
			t.Fatalf("thought notices %+v, want one saying the line came once every 2 lines", told)
		}
		// Held: told at a call after the reply, not at the reply itself, which came right
		// after the stuck notice.
		if stuckAt != 2 || thoughtAt <= 3 {
			t.Errorf("stuck notice at event %d, thought notice at event %d; want the stuck at 2 and the thought held past the reply (3)", stuckAt, thoughtAt)
		}
	})
}
