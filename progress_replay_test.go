package loopguard

import (
	"fmt"
	"strings"
	"testing"
)

// replayStep is one step of a stretch a model goes through: the words it writes, then a call
// and its answer.
type replayStep struct{ words, tool, args, answer string }

// replayStretch is a SWE-agent-like stretch of n different steps, searches, opens and gotos in
// a Java repository, each after its own thought of more than eight words.
func replayStretch(n int) []replayStep {
	steps := make([]replayStep, n)
	for i := range steps {
		switch i % 3 {
		case 0:
			steps[i] = replayStep{fmt.Sprintf("The deserializer should skip nulls here; let me search for the handler number %d in src.", i),
				"bash", fmt.Sprintf(`"search_dir \"Handler%d\" src"`, i), fmt.Sprintf("Found %d matches for \"Handler%d\" in /w/src:\n/w/src/main/java/Handler%d.java (%d matches)", i+1, i, i, i+1)}
		case 1:
			steps[i] = replayStep{fmt.Sprintf("The search found the class; let me open file number %d to read how it treats a null value.", i),
				"bash", fmt.Sprintf(`"open src/main/java/Handler%d.java"`, i-1), fmt.Sprintf("[File: /w/src/main/java/Handler%d.java (%d lines total)]\n1:package w;\n2:public class Handler%d {}", i-1, 200+i, i-1)}
		default:
			steps[i] = replayStep{fmt.Sprintf("The method we need is further down in this file; let me go to line %d to see its body.", 100*i),
				"bash", fmt.Sprintf(`"goto %d"`, 100*i), fmt.Sprintf("[File: /w/src/main/java/Handler%d.java]\n%d:    return value == null ? skip(%d) : read(value);", i-2, 100*i, i)}
		}
	}
	return steps
}

func (st replayStep) events(words string) []Event {
	evs := []Event{call("a", st.tool, st.args).WithResult(st.answer, false)}
	if words != "" {
		evs = append([]Event{text("a", "", "model", words, 0)}, evs...)
	}
	return evs
}

func TestAStretchGoneThroughAgainIsToldOnce(t *testing.T) {
	round := func(steps []replayStep, words func(i int, st replayStep) string) []Event {
		var evs []Event
		for i, st := range steps {
			evs = append(evs, st.events(words(i, st))...)
		}
		return evs
	}
	same := func(_ int, st replayStep) string { return st.words }
	rephrased := func(n int) func(int, replayStep) string {
		return func(i int, st replayStep) string {
			if i < n {
				return "Looking again at this from another side: " + strings.ToLower(st.words[:1]) + st.words[1:]
			}
			return st.words
		}
	}
	stock := func(i int, _ replayStep) string { // short, and another before each step
		return [...]string{"Let's continue reading the method:", "Let's search for it:", "Let's open that file:", "Next, the caller:", "Scrolling down:"}[i%5]
	}
	headed := func(i int, st replayStep) string { // words before the round's first call only
		if i == 0 {
			return st.words
		}
		return ""
	}
	none := func(int, replayStep) string { return "" }
	other := func(i int, _ replayStep) string {
		return fmt.Sprintf("Back from the detour through the tests, I want to refresh what step %d of the reading showed.", i)
	}
	ten, seven, six := replayStretch(10), replayStretch(7), replayStretch(6)
	tests := []struct {
		name   string
		evs    []Event
		toldAt []int // the calls (1-based) replay notices came at
		period string
	}{
		{"ten steps made again with the same words before each: told at the fourth",
			concat(round(ten, same), round(ten, same)), []int{14}, "10 back"},
		{"the first two thoughts of the round rephrased: told four calls after the words match",
			concat(round(ten, same), round(ten, rephrased(2))), []int{16}, "10 back"},
		{"gone through three times: one notice for the loop",
			concat(round(ten, same), round(ten, same), round(ten, same)), []int{14}, "10 back"},
		{"seven steps, the shortest stretch the rule looks at",
			concat(round(seven, same), round(seven, same)), []int{11}, "7 back"},
		{"six steps: a cycle, the cycle rule's", concat(round(six, same), round(six, same), round(six, same)), nil, ""},
		{"the same calls after other words: a file read again after a detour",
			concat(round(ten, same), round(ten, other)), nil, ""},
		{"the same calls after a short stock phrase each", concat(round(ten, stock), round(ten, stock)), nil, ""},
		{"the same calls with no words before them in the second round",
			concat(round(ten, same), round(ten, none)), nil, ""},
		{"words before the first call of each round only: the others' are not words said again",
			concat(round(ten, headed), round(ten, headed)), nil, ""},
		{"no words at all", concat(round(ten, none), round(ten, none)), nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := New(defaultProgress(nil))
			told, notices := replaysTold(tt.evs, e.Observe)
			for _, n := range notices {
				if !strings.HasSuffix(n.Summary, tt.period) || !strings.Contains(n.Text, "same order") {
					t.Errorf("notice %q: %q, want its period %q", n.Summary, n.Text, tt.period)
				}
			}
			if fmt.Sprint(told) != fmt.Sprint(tt.toldAt) {
				t.Errorf("replays told at calls %v, want %v", told, tt.toldAt)
			}
		})
	}
}

func TestAReplayWhoseAnswersMoveIsNotOne(t *testing.T) {
	steps := replayStretch(10)
	var evs []Event
	for _, when := range []string{"before", "after"} {
		for _, st := range steps {
			st.answer += "\n(read " + when + " the rebase)" // the repository changed under the reads
			evs = append(evs, st.events(st.words)...)
		}
	}
	e, _ := New(defaultProgress(nil))
	for _, ev := range evs {
		for _, n := range e.Observe(ev) {
			t.Errorf("notice %q on reads answered otherwise", n.Summary)
		}
	}
}

func TestChecksRunAgainAfterAnEditAreNoReplay(t *testing.T) {
	checks := []struct{ words, command, answer string }{
		{"First make sure that everything still compiles after this edit of the handler.", "go build ./...", "built 14 packages"},
		{"Then the vet pass should not complain about the new early return at all.", "go vet ./...", "vet: no issues found"},
		{"The parser package has its own tests which exercise exactly this code path now.", "go test ./internal/parser", "ok  \texample.com/internal/parser\t0.412s"},
		{"The second package depends on the handler too so its tests must pass again.", "go test ./internal/serve", "ok  \texample.com/internal/serve\t1.030s"},
		{"Static analysis catches unused variables that the early return may have left behind.", "staticcheck ./...", "0 problems"},
		{"Formatting must be clean before I can commit anything to this repository branch.", "gofmt -l . | wc -l", "0"},
		{"Finally the linter configuration of the project has a few extra rules enabled.", "golangci-lint run", "0 issues."},
	}
	const failure = "--- FAIL: TestEmptyBody (0.00s)\n    handler_test.go:31: got 500, want 204\nFAIL\nFAIL\texample.com/internal/parser\t0.412s"
	edit := func(args, answer string) Event {
		return call("a", "str_replace_editor", args).WithResult(answer, false)
	}
	edited := "The file /w/handler.go has been edited. Here's the result of running `cat -n` on a snippet:\n    41\t    if len(body) == 0 {\n    42\t        return nil\n    43\t    }\n"
	another := func(r int) []Event { // (its snippet shows what it changed)
		return []Event{edit(fmt.Sprintf(`{"command":"str_replace","path":"/w/handler.go","old_str":"v%d","new_str":"v%d"}`, r, r+1),
			edited+fmt.Sprintf("    44\t    // v%d\n", r+1))}
	}
	same := func(int) []Event {
		return []Event{edit(`{"command":"str_replace","path":"/w/handler.go","old_str":"if body == nil","new_str":"if len(body) == 0"}`, edited)}
	}
	// A line-numbered edit sent again lands again: the file a line shorter each time.
	lineNumbered := func(r int) Event {
		return edit(`"edit 41:43\n    if len(body) == 0 {\n        return nil\n    }\nend_of_edit"`,
			fmt.Sprintf("[File: /w/handler.go (%d lines total)]\n41:    if len(body) == 0 {\n42:        return nil\n43:    }", 90-r))
	}
	comment := func(r int) Event {
		return edit(`"edit 12:12\n// An empty body is answered 204.\nend_of_edit"`,
			fmt.Sprintf("[File: /w/handler.go (%d lines total)]\n12:// An empty body is answered 204.", 95-r))
	}
	rounds := func(edits func(round int) []Event, failing bool) []Event {
		var evs []Event
		for r := range 3 {
			for _, ev := range edits(r) {
				evs = append(evs, text("a", "", "model", "Now I will change the handler so that it returns early on an empty body, as asked.", 0), ev)
			}
			for i, c := range checks {
				out, failed := c.answer, false
				if failing && i == 2 {
					out, failed = failure, true
				}
				evs = append(evs, text("a", "", "model", c.words, 0), call("a", "execute_bash", `{"command":"`+c.command+`"}`).WithResult(out, failed))
			}
		}
		return evs
	}
	tests := []struct {
		name string
		evs  []Event
		want int // replay notices
	}{
		{"another edit before each round of checks: verified anew", rounds(another, false), 0},
		{"another edit before each round, a check failing as before: the round gone through again", rounds(another, true), 1},
		{"the same edit made again before each round: nothing new to verify", rounds(same, false), 1},
		{"the same line-numbered edit, the file a line shorter each time: the same change",
			rounds(func(r int) []Event { return []Event{lineNumbered(r)} }, false), 1},
		{"the same two line-numbered edits in turn, each answered otherwise: the same changes",
			rounds(func(r int) []Event { return []Event{comment(r), lineNumbered(r)} }, false), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := New(defaultProgress(nil))
			got := 0
			for _, ev := range tt.evs {
				for _, n := range e.Observe(ev) {
					if strings.HasPrefix(n.Summary, "replay") {
						got++
					}
				}
			}
			if got != tt.want {
				t.Errorf("%d replay notices, want %d", got, tt.want)
			}
		})
	}
}

// A stretch made again call for call, the model writing the same words before each step as
// the first time, is a replay even when the answers moved, as long as something shows the
// moves are the loop's own doing: the stretch re-applies one of its edits (the file view it
// answers with differs, a line longer each round), or one of its calls is answered exactly
// as then. The edit made again is the latest change, and nothing new for the calls after it
// to verify (changedAnew). Told once a loop, the calls, not their answers, telling the loop
// from another (replayTold). Llama SWE-agent runs went through their own debugging rounds again, edit, run,
// open, with the same words and answers that differed only by the file's growing length or
// one more debug line, and were told late or not at all (validation rounds r236b, r237a,
// r237b: 34 such notices judged, all true). Answers that all moved with nothing the stretch
// did (TestAReplayWhoseAnswersMoveIsNotOne) are still no replay.
func TestAStretchMadeAgainWithItsEditsIsToldWhateverTheAnswers(t *testing.T) {
	// round is the stretch's r-th pass; its steps from alikeFrom on are answered as in every
	// pass (none when alikeFrom is 10), the others otherwise each time.
	round := func(r int, withEdit bool, alikeFrom int, words func(i int, st replayStep) string) []Event {
		var evs []Event
		for i, st := range replayStretch(10) {
			if withEdit && i == 1 {
				st.tool = "str_replace_editor"
				st.args = `{"command":"str_replace","path":"/w/src/main/java/Handler0.java","old_str":"skip(v)","new_str":"skip(value)"}`
				st.answer = fmt.Sprintf("The file /w/src/main/java/Handler0.java has been edited (%d lines now).", 200+r)
			} else if i < alikeFrom {
				st.answer += fmt.Sprintf("\n(debug: round %s)", strings.Repeat("I", r+1))
			}
			evs = append(evs, st.events(words(i, st))...)
		}
		return evs
	}
	same := func(_ int, st replayStep) string { return st.words }
	other := func(i int, _ replayStep) string {
		return fmt.Sprintf("Back from the detour through the tests, I want to refresh what step %d of the reading showed.", i)
	}
	oneThought := func(int, replayStep) string {
		return "I will go through the handler once more to find where the null value slips past the check."
	}
	// otherFirstCall is a pass whose first call differs from the pass before, its words alike.
	otherFirstCall := func(evs []Event) []Event {
		for i := range evs {
			if evs[i].Type == EventCall {
				evs[i].Args = []byte(`"search_dir \"Handler0\" test"`)
				break
			}
		}
		return evs
	}
	const moved, same4 = "Some answers differ", "with the same results" // what each notice says of the answers
	tests := []struct {
		name   string
		evs    []Event
		toldAt []int  // the calls (1-based) replay notices came at
		says   string // what the notice says of the answers
	}{
		{"the stretch re-applies its edit, every answer moved: told at its fourth call, once",
			concat(round(0, true, 10, same), round(1, true, 10, same), round(2, true, 10, same)), []int{14}, moved},
		{"no edit, the third call answered as then: told at the fourth",
			concat(round(0, false, 2, same), round(1, false, 2, same)), []int{14}, moved},
		{"no edit, every answer moved: a look after the world changed",
			concat(round(0, false, 10, same), round(1, false, 10, same)), nil, ""},
		{"the first answers moved, the later ones as then: told once four are answered as then",
			concat(round(0, false, 5, same), round(1, false, 5, same)), []int{19}, same4},
		{"the pass's first call another, its words alike: counted from the second call",
			concat(round(0, true, 10, same), otherFirstCall(round(1, true, 10, same))), []int{15}, moved},
		{"the edit re-applied after other words: no replay",
			concat(round(0, true, 10, same), round(1, true, 10, other)), nil, ""},
		{"one thought said before every call: the thought rule's, no replay",
			concat(round(0, true, 10, oneThought), round(1, true, 10, oneThought), round(2, true, 10, oneThought)), nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := New(defaultProgress(nil))
			told, notices := replaysTold(tt.evs, e.Observe)
			for _, n := range notices {
				if !strings.Contains(n.Text, tt.says) {
					t.Errorf("notice %q, want it to say %q", n.Text, tt.says)
				}
			}
			if fmt.Sprint(told) != fmt.Sprint(tt.toldAt) {
				t.Errorf("replays told at calls %v, want %v", told, tt.toldAt)
			}
			// A hook restores the agent before every event: it must tell the same.
			if restored, _ := replaysTold(tt.evs, restoredEachEvent(t, defaultProgress(nil))); fmt.Sprint(restored) != fmt.Sprint(told) {
				t.Errorf("restored before every event: told at %v; live: %v", restored, told)
			}
		})
	}
}

// A loop of three to six calls made again with the same words, its answers moved by the loop's
// own doing, is told once four of its calls are made again: the cycle rule, which waits for
// rounds answered alike, never sees it (validation round r240a). Answered alike each round, the
// same loop is the cycle rule's, told at its third round.
func TestAShortLoopMadeAgainIsToldWhenItsAnswersMove(t *testing.T) {
	loop := func(r int, moved bool, words func(i int) string) []Event {
		steps := []struct{ tool, args, answer string }{
			{"str_replace_editor", `{"command":"str_replace","path":"/w/app.py","old_str":"x = 1","new_str":"x = 2"}`, "The file /w/app.py has been edited."},
			{"bash", `{"command":"python reproduce.py"}`, "Traceback (most recent call last):\nValueError: x must be positive"},
			{"bash", `{"command":"open app.py 40"}`, "[File: /w/app.py (120 lines total)]\n40:    x = 2"},
			{"bash", `{"command":"search_file \"def check\""}`, "Found 1 matches for \"def check\" in /w/app.py:\nLine 12:def check(x):"},
		}
		var evs []Event
		for i, st := range steps {
			answer := st.answer
			if moved && i != 2 {
				answer += fmt.Sprintf("\n(%s)", strings.Repeat("+", r+1)) // every answer but the view moves
			}
			evs = append(evs, text("a", "", "model", words(i), 0), call("a", st.tool, st.args).WithResult(answer, i == 1))
		}
		return evs
	}
	same := func(i int) string {
		return [...]string{"The check rejects x, so I will change its value in app.py to a bigger one.",
			"Now let me run the reproduction script again to see whether the error is gone now.",
			"The error is still there; let me open app.py at line 40 to look at the value again.",
			"Let me search for the check function to understand why it still rejects the value."}[i]
	}
	fresh := func(r int) func(i int) string {
		return func(i int) string {
			return fmt.Sprintf("Round %d, step %d: trying one more idea about the value check in app.py.", r, i)
		}
	}
	tests := []struct {
		name string
		evs  []Event
		want []string // the notices' summaries, in order
	}{
		{"answers moved, the same words: told at the eighth call as a replay",
			concat(loop(0, true, same), loop(1, true, same), loop(2, true, same)), []string{"8:replay of 4 calls, 4 back"}},
		{"answered alike each round: the cycle rule's, at its third round",
			concat(loop(0, false, same), loop(1, false, same), loop(2, false, same)), []string{"12:cycle of 4 × 3"}},
		{"answers moved, other words each round: no replay",
			concat(loop(0, true, fresh(0)), loop(1, true, fresh(1)), loop(2, true, fresh(2))), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := New(defaultProgress(nil))
			calls := 0
			var got []string
			for _, ev := range tt.evs {
				if ev.Type == EventCall {
					calls++
				}
				for _, n := range e.Observe(ev) {
					if n.Kind == KindCycle {
						got = append(got, fmt.Sprintf("%d:%s", calls, n.Summary))
					}
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("cycle notices %v, want %v", got, tt.want)
			}
		})
	}
}

// replaysTold feeds evs to observe and returns the calls (from 1) replay notices came at, and
// the notices.
func replaysTold(evs []Event, observe func(Event) []Notice) (at []int, notices []Notice) {
	calls := 0
	for _, ev := range evs {
		if ev.Type == EventCall {
			calls++
		}
		for _, n := range observe(ev) {
			if strings.HasPrefix(n.Summary, "replay") {
				at, notices = append(at, calls), append(notices, n)
			}
		}
	}
	return at, notices
}
