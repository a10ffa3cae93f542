package loopguard

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// randomEvents makes a run that exercises every part of the state: few tools and arguments (so
// repeats and sequences happen), texts with and without ids, users, ends, and sometimes a
// sweep of distinct calls past the call-identity bound.
func randomEvents(seed uint64, n int) []Event {
	r := rand.New(rand.NewPCG(seed, seed^0x9e37))
	agents := []string{"a", "b"}
	texts := []string{longText, longText + "!", "short", "日本語のテキストが繰り返される。" + longText}
	// Results of many lines too: the thought rule reads an answer line by line (what lines the
	// answers a thought began on brought is state a snapshot keeps).
	results := append(slices.Clip(texts), lines(0, 12), lines(5, 20), lines(0, 12)+"done\n")
	var evs []Event
	ts := int64(0)
	for len(evs) < n {
		ts += int64(r.IntN(20000))
		agent := agents[r.IntN(len(agents))]
		switch k := r.IntN(100); {
		case k < 70:
			// t3 is an edit: it changes the workspace when it succeeds.
			tool := [...]string{"t0", "t1", "t2", "edit_file"}[r.IntN(4)]
			ev := call(agent, tool, fmt.Sprintf(`{"x":%d}`, r.IntN(3)))
			if r.IntN(2) == 0 {
				ev = ev.WithResult(results[r.IntN(len(results))], r.IntN(4) == 0)
			}
			ev.Time = ts
			evs = append(evs, ev)
		case k < 88:
			id := ""
			if r.IntN(2) == 0 {
				id = fmt.Sprintf("m%d", r.IntN(6))
			}
			// "model" text feeds the progress detector's thought rule.
			evs = append(evs, text(agent, id, [...]string{"src0", "src1", "model"}[r.IntN(3)], texts[r.IntN(len(texts))], ts))
		case k < 93:
			// A user message without text, with one of two texts (the same twice in a row is a
			// reprompt), or a harness's reprompt.
			u := user(agent)
			switch r.IntN(4) {
			case 1, 2:
				u.Text = [...]string{"continue", "fix the test"}[r.IntN(2)]
			case 3:
				u.Text, u.Source = "Please continue working on the task.", "harness"
			}
			evs = append(evs, u)
		case k < 95:
			evs = append(evs, end(agent))
		default:
			for i := 0; i < 300; i++ {
				evs = append(evs, call(agent, "sweep", fmt.Sprintf(`{"page":%d}`, r.IntN(5000))))
			}
		}
	}
	return evs
}

func snapshotConfigs() map[string]Config {
	def, _ := Preset(PresetDefault)
	seeds, _ := Preset(PresetSeeds)
	deny, _ := Preset(PresetSeeds)
	b := *deny.DSHBrake
	b.Mode, b.CallWarnCount, b.CallDenyCount, b.SequenceLength, b.SequenceCount, b.DuplicateTextCooldownMs = ModeDeny, 2, 3, 2, 2, 0
	deny.DSHBrake = &b
	progressDeny, _ := Preset(PresetDefault)
	p := *progressDeny.Progress
	p.Mode, p.DenyAfter, p.Thresholds = ModeDeny, 3, []int{2, 3}
	progressDeny.Progress = &p
	return map[string]Config{"default": def, "seeds": seeds, "tight deny": deny, "progress deny": progressDeny}
}

// A host that lives one process per event (a hook) loads the agent's snapshot into a fresh
// engine, handles one event and saves the snapshot again. It must say exactly what a
// long-lived engine says.
func TestSnapshotRoundTripGivesIdenticalBehaviour(t *testing.T) {
	for name, cfg := range snapshotConfigs() {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/seed%d", name, seed), func(t *testing.T) {
				evs := randomEvents(seed, 1500)
				live, _ := New(cfg)
				saved := map[string][]byte{}
				for i, ev := range evs {
					want := live.Step(ev)

					fresh, _ := New(cfg)
					if err := fresh.Restore(ev.Agent, saved[ev.Agent]); err != nil {
						t.Fatalf("event %d: restore: %v", i, err)
					}
					got := fresh.Step(ev)
					saved[ev.Agent] = fresh.Snapshot(ev.Agent)

					if !reflect.DeepEqual(got, want) {
						t.Fatalf("event %d (%+v): from snapshot %+v, live %+v", i, ev, got, want)
					}
				}
			})
		}
	}
}

// A hook restores the agent for each event: what a rule remembers between events (the user's
// last message, when the thought began, the change last made and how its answer looked) must
// survive, or the hook misses what a long-lived engine tells.
func TestSnapshotKeepsEveryRulesMemory(t *testing.T) {
	said := text("a", "", "model", "I have completed the task.", 0)
	monologue := []Event{{Type: EventUser, Agent: "a", Text: "continue"}, call("a", "ls", `{}`), said}
	for range 3 {
		monologue = append(monologue, Event{Type: EventUser, Agent: "a", Text: "continue"}, said)
	}
	var resent []Event
	for i := range 4 {
		resent = append(resent, Event{Type: EventUser, Agent: "a", Source: SourceHarness, Text: "Stop hook feedback: the stop hook failed"},
			text("a", "", "model", fmt.Sprintf("Explanation %d: the hook file is missing.", i), 0))
	}
	var reapplied []Event
	for i := range 3 {
		reapplied = append(reapplied, call("a", "edit", `"edit 74:74\n    def f(self):"`).
			WithResult(fmt.Sprintf("[File: de.py (%d lines total)]\n%s", 90+i, strings.Repeat("    def f(self):\n        return None\n", i+1)), false))
	}
	var batch []Event
	for _, id := range []string{"2IB5", "4KGE", "4Q7T", "1KFD"} {
		ev := call("a", "exec", `{"command":"jq -r .title /data/`+id+`/1"}`).WithResult("Error: the jq program is not installed on this machine", true)
		ev.Turn = "reply-1"
		batch = append(batch, ev)
	}
	var fourWays []Event
	for i, raised := range []string{traceback(27, "IndexError", "list index out of range"), traceback(19, "IndexError", "list index out of range"),
		traceback(27, "NameError", "name 'n' is not defined"), traceback(91, "FileNotFoundError", "[Errno 2] No such file or directory: '<stdin>'")} {
		fourWays = append(fourWays, call("a", "python", script(i)).WithResult(raised, true))
	}
	var scheduled []Event
	for i := int64(0); i < 3; i++ {
		at := i * 15 * 60_000
		check := call("a", "Bash", `{"command":"gh pr view 135 --json commits"}`).WithResult(`{"commits":[{"oid":"a1b2c3"}]}`, false)
		check.Time = at + 4_000
		scheduled = append(scheduled, Event{Type: EventUser, Agent: "a", Text: "Check PR #135 for new commits.", Time: at}, check)
	}
	var replayed []Event // two rounds and a half: the third, twenty calls back, is the same loop
	for i := range 25 {
		st := replayStretch(10)[i%10]
		replayed = append(replayed, st.events(st.words)...)
	}
	tests := []struct {
		name string
		evs  []Event
		want string // "" for no notice
	}{
		{"a watch whose other look moves by itself", watchRounds(3, true), ""},
		{"a stretch gone through again, the same words before each call, told once", replayed, "replay of 4 calls, 10 back"},
		{"a monologue between reprompts", monologue, "same thought × 3"},
		{"a check a scheduler fires every quarter of an hour", scheduled, ""},
		{"a rewritten script failing a different way each time", fourWays, ""},
		{"the same edit made again", reapplied, "edit × 3"},
		{"the same message answered in words alone", resent, "same message answered × 3"},
		{"one reply's calls failing alike", batch, ""},
		{"a check unchanged across edits, the same words before each run", unmovedRounds(3,
			func(int) string { return "Input: -3\nConverted: 3\nExpected: -3" },
			func(int) string { return "The changes look good. Let's run our reproduction script again:" }, false),
			"execute_bash unchanged across edits × 2"},
		{"a check unchanged across edits, other words before each run", unmovedRounds(4,
			func(int) string { return "Input: -3\nConverted: 3\nExpected: -3" },
			func(i int) string { return fmt.Sprintf("Attempt %d: the sign should now survive convert().", i) }, false),
			"execute_bash unchanged across edits × 3"},
	}
	cfg, _ := Preset(PresetDefault)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			saved := map[string][]byte{}
			var notices []Notice
			for i, ev := range tc.evs {
				fresh, _ := New(cfg)
				if err := fresh.Restore(ev.Agent, saved[ev.Agent]); err != nil {
					t.Fatalf("event %d: restore: %v", i, err)
				}
				notices = append(notices, fresh.Observe(ev)...)
				saved[ev.Agent] = fresh.Snapshot(ev.Agent)
			}
			if tc.want == "" && len(notices) != 0 || tc.want != "" && (len(notices) != 1 || notices[0].Summary != tc.want) {
				t.Fatalf("want notice %q, got %+v", tc.want, notices)
			}
		})
	}
}

func TestSnapshotIsCompact(t *testing.T) {
	e, _ := New(snapshotConfigs()["default"])
	for i := 0; i < 10000; i++ {
		e.Observe(call("a", "sweep", fmt.Sprintf(`{"page":%d,"payload":"%0200d"}`, i, i)))
	}
	snap := e.Snapshot("a")
	// 4096 identities, 128 sequences, a 4-call window: fingerprints and counts, no payloads.
	if len(snap) > 4096*12+128*12+1024 {
		t.Errorf("snapshot is %d bytes; it should hold fingerprints, not arguments", len(snap))
	}
}

func TestRestoreRejectsDamage(t *testing.T) {
	e, _ := New(snapshotConfigs()["default"])
	for _, ev := range randomEvents(3, 200) {
		e.Step(ev)
	}
	good := e.Snapshot("a")
	if good == nil {
		t.Fatal("no snapshot for agent a")
	}
	tests := map[string][]byte{
		"no header":     []byte("xx"),
		"wrong version": append([]byte{'L', 'G', 99}, good[3:]...),
		"truncated":     good[:len(good)/2],
	}
	for name, snap := range tests {
		t.Run(name, func(t *testing.T) {
			fresh, _ := New(snapshotConfigs()["default"])
			if err := fresh.Restore("a", snap); err == nil {
				t.Error("accepted a damaged snapshot")
			}
			if fresh.Agents() != 0 {
				t.Error("a failed restore left state behind")
			}
		})
	}
}

func FuzzRestore(f *testing.F) {
	e, _ := New(snapshotConfigs()["default"])
	for _, ev := range randomEvents(5, 100) {
		e.Step(ev)
	}
	f.Add(e.Snapshot("a"))
	// an agent thinking two thoughts by turns: the musing rule's thoughts kept
	for i := range 4 {
		e.Step(call("a", "think", fmt.Sprintf(`{"thought":"thought number %d of two"}`, i%2)).WithResult("", false))
	}
	f.Add(e.Snapshot("a"))
	f.Add([]byte("LG\x01"))
	f.Fuzz(func(t *testing.T, snap []byte) {
		fresh, _ := New(snapshotConfigs()["tight deny"])
		if fresh.Restore("a", snap) == nil {
			// Whatever was restored must be usable.
			fresh.Step(call("a", "t0", `{"x":1}`).WithResult(longText, false))
			fresh.Step(text("a", "m1", "s", longText, 5))
			_ = fresh.Snapshot("a")
		}
	})
}

// Many agents on one engine from many goroutines at once give each agent exactly what it
// would get alone. Run with -race.
func TestConcurrentAgentsMatchSequential(t *testing.T) {
	cfg := snapshotConfigs()["tight deny"]
	const agents = 16
	runs := make([][]Event, agents)
	for i := range runs {
		evs := randomEvents(uint64(100+i), 400)
		for j := range evs {
			evs[j].Agent = fmt.Sprintf("agent-%d", i) // one agent per goroutine
		}
		runs[i] = evs
	}
	want := make([][]Outcome, agents)
	for i, evs := range runs {
		alone, _ := New(cfg)
		for _, ev := range evs {
			want[i] = append(want[i], alone.Step(ev))
		}
	}
	shared, _ := New(cfg)
	got := make([][]Outcome, agents)
	done := make(chan int)
	for i := range runs {
		go func(i int) {
			for _, ev := range runs[i] {
				got[i] = append(got[i], shared.Step(ev))
				if ev.Type == EventCall {
					shared.Check(ev)
					shared.Snapshot(ev.Agent)
					shared.Stats(ev.Agent)
				}
			}
			done <- i
		}(i)
	}
	for range runs {
		<-done
	}
	for i := range runs {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("agent %d: concurrent outcomes differ from running alone", i)
		}
	}
}

// The seed presets' snapshots hold their own two sections and nothing of the progress
// detector: a seed-preset agent's state is as small as before progress-aware detection.
func TestSeedSnapshotsHoldOnlyTheSeeds(t *testing.T) {
	for _, name := range []string{PresetSeeds, PresetRepeatToolReminder, PresetDSHBrake} {
		cfg, _ := Preset(name)
		e, _ := New(cfg)
		for _, ev := range randomEvents(7, 300) {
			e.Step(ev)
		}
		snap := e.Snapshot("a")
		r := &snapReader{b: snap[3:]}
		for len(r.b) > 0 {
			tag := r.byte()
			n := r.uvarint()
			if tag != 1 && tag != 2 {
				t.Errorf("%s: a section with tag %d in the snapshot", name, tag)
			}
			r.b = r.b[n:]
		}
	}
}

// The progress detector's state is bounded: after thousands of distinct calls with long
// results and model texts it stays a few kilobytes (7.5 KiB at most; 4.1 KiB in session 12,
// 5.2 KiB since a thought's lines seen hold the answer it began on: the test's last text
// begins a thought, and its Bloom filter, empty before, holds the last answer's 60 lines;
// the filter takes at most 1,152 bytes, 9 for each of its 128 words; 7.1 KiB since session
// 42 follows 16 failing commands, not 8, and every one of them is in use here: an agent with
// fewer keeps only those; 7.4 KiB since session 48 keeps, for the replay rule, digests of
// the model's words and of the call for each of the 64 recent calls, 256 bytes, and which of
// them changed the workspace or failed, 16; session 57's four latest changes of the
// workspace take 8 bytes each, none here, where no call changes anything).
func TestProgressSnapshotIsBounded(t *testing.T) {
	e, _ := New(snapshotConfigs()["default"])
	for i := 0; i < 5000; i++ {
		e.Observe(Call("a", fmt.Sprintf("tool%d", i%50), []byte(fmt.Sprintf(`{"i":%d}`, i))).
			WithResult(lines(i*10, i*10+60), i%7 == 0))
		e.Observe(Event{Type: EventText, Agent: "a", Source: "model", Text: fmt.Sprintf("step %d: looking at part %d", i, i%13)})
	}
	// and a run of thinking two long thoughts by turns, the most the musing rule keeps
	for i := range 4 {
		thought := strings.Repeat(fmt.Sprintf("thought %d says something long enough to be sketched; ", i%2), 20)
		e.Observe(Call("a", "think", fmt.Appendf(nil, `{"thought":%q}`, thought)).WithResult("", false))
	}
	if n := len(e.Snapshot("a")); n > 8<<10 {
		t.Errorf("progress snapshot is %d bytes", n)
	} else {
		t.Logf("progress snapshot: %d bytes", n)
	}
}

// A hook restores the agent's snapshot for every event: what the thought rule knows of the
// answers a thought began on must be in it, for a hook to tell what a long-lived engine
// tells (review r19 H1: it was read from the digester's scratch, empty after a restore).
func TestTheAnswerAThoughtBeganOnSurvivesASnapshot(t *testing.T) {
	snippet := "A. T. Stewart Era Buildings are a set of department store buildings in Manhattan.\nThey were built between 1846 and 1862 for the merchant Alexander Turney Stewart."
	say := func(id, s string) Event { return Event{Type: EventText, Agent: "a", Source: "model", ID: id, Text: s} }
	search := func(q, result string) Event { return Call("a", "search", []byte(q)).WithResult(result, false) }
	tests := []struct {
		name string
		evs  []Event
	}{
		{"every search brings back the snippet the thought began on", func() []Event {
			evs := []Event{say("m0", "I need to search for the A. T. Stewart buildings."), search(`{"query":"A. T. Stewart"}`, snippet)}
			for i := range 3 {
				evs = append(evs, say(fmt.Sprint("m", i+1), "The search result still doesn't provide the information I need. I should try a different search."),
					search(fmt.Sprintf(`{"query":"Stewart building %d"}`, i), snippet))
			}
			return evs
		}()},
	}
	cfg := defaultProgress(nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			live, _ := New(cfg)
			restored := restoredEachEvent(t, defaultProgress(nil))
			var want, got []string
			for i, ev := range tt.evs {
				for _, n := range live.Observe(ev) {
					want = append(want, fmt.Sprintf("%d:%s:%s", i, n.Kind, n.Summary))
				}
				for _, n := range restored(ev) {
					got = append(got, fmt.Sprintf("%d:%s:%s", i, n.Kind, n.Summary))
				}
			}
			if len(want) == 0 {
				t.Fatalf("the live engine told nothing; the scenario no longer exercises the rule")
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("restored for every event: %v; live engine: %v", got, want)
			}
		})
	}
}

// The user's decline of the last call, then their words, end its failure chains; an engine
// restored at every event knows that the last call was declined (progressState.declinedTool,
// declinedKey) as a long-lived one does. The control is the same run with the edit rejected
// by the tool instead: a failure the user's words do not answer, told at its third alike.
func TestADeclineSurvivesASnapshot(t *testing.T) {
	run := func(result string) []Event {
		var evs []Event
		for i := range 3 {
			args := fmt.Sprintf(`{"file_path":"/src/CLAUDE.md","old_string":"#### Checkpoints","new_string":"version %d"}`, i)
			evs = append(evs, Call("a", "Edit", []byte(args)).WithResult(result, true),
				Event{Type: EventUser, Agent: "a", Text: fmt.Sprintf("not right yet, try version %d", i+1)})
		}
		return evs
	}
	restoredEachTime := func(evs []Event) []string {
		restored := restoredEachEvent(t, defaultProgress(nil))
		var got []string
		for i, ev := range evs {
			for _, n := range restored(ev) {
				got = append(got, fmt.Sprintf("%d:%s:%s", i, n.Kind, n.Summary))
			}
		}
		return got
	}
	declined := "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file)."
	if got := restoredEachTime(run(declined)); len(got) != 0 {
		t.Errorf("declined edits, the user speaking after each: %v, want no notice", got)
	}
	if got := restoredEachTime(run("<tool_use_error>String to replace not found in file.</tool_use_error>")); len(got) == 0 {
		t.Errorf("edits rejected by the tool, the user speaking after each: no notice; the control no longer exercises the chain")
	}
}

// A thought of only volatile fields (a list of hashes) is compared by its words alone, never
// by similarity, in a restored engine as in a long-lived one: the snapshot keeps how many of
// its words were volatile.
func TestAVolatileThoughtStaysVolatileAcrossASnapshot(t *testing.T) {
	e, _ := New(defaultProgress(nil))
	e.Observe(Event{Type: EventText, Agent: "a", Source: "model", ID: "m0",
		Text: "3f2a9c1d 7b4e0a22 91cc03fe 0d5e7a41 c4b2e913 5a7f0c3b e81d22a4 6c09b7f5"})
	fresh, _ := New(defaultProgress(nil))
	if err := fresh.Restore("a", e.Snapshot("a")); err != nil {
		t.Fatal(err)
	}
	thought := func(e *Engine) digest {
		for _, st := range e.agents["a"].states {
			if p, ok := st.(*progressState); ok {
				return p.thought
			}
		}
		t.Fatal("no progress detector")
		return digest{}
	}
	live, restored := thought(e), thought(fresh)
	if live.marks == 0 || restored.marks != live.marks {
		t.Errorf("volatile words: live %d, restored %d", live.marks, restored.marks)
	}
}

// How far back the calls had gone when the model last said its thought decides when a sweep
// back over a file is told (thoughtCheck reads it at each call), so it is in the snapshot; and
// an engine restored mid-sweep tells it at the same saying as one that never stopped.
func TestABackwardSweepSurvivesASnapshot(t *testing.T) {
	say := func(e *Engine, i int) []Notice {
		return e.Observe(Event{Type: EventText, Agent: "a", Source: "model", ID: fmt.Sprint("m", i), Text: "Let's check the _expand_files method:"})
	}
	view := func(e *Engine, i int) []Notice {
		start := 650 - 50*i
		ev := Call("a", "view", fmt.Appendf(nil, `{"path":"/testbed/pylinter.py","range":[%d,%d]}`, start, start+20)).
			WithResult(lines(start, start+20), false)
		ev.Turn = fmt.Sprint("reply-", i)
		return e.Observe(ev)
	}
	progress := func(e *Engine) *progressState {
		for _, st := range e.agents["a"].states {
			if p, ok := st.(*progressState); ok {
				return p
			}
		}
		t.Fatal("no progress detector")
		return nil
	}
	live, _ := New(defaultProgress(nil))
	for i := 0; i < 3; i++ {
		say(live, i)
		view(live, i)
	}
	restored, _ := New(defaultProgress(nil))
	if err := restored.Restore("a", live.Snapshot("a")); err != nil {
		t.Fatal(err)
	}
	if l, r := progress(live).backsSaid, progress(restored).backsSaid; l == 0 || r != l {
		t.Errorf("steps back when the thought was last said: live %d, restored %d", l, r)
	}
	if l, r := progress(live).backTurn, progress(restored).backTurn; l == 0 || r != l {
		t.Errorf("the reply of the last step back: live %x, restored %x", l, r)
	}
	for name, e := range map[string]*Engine{"live": live, "restored": restored} {
		if got := append(say(e, 3), view(e, 3)...); len(got) != 1 || got[0].Kind != KindThought {
			t.Errorf("%s: the fourth saying after three windows back: notices %+v, want one thought notice", name, got)
		}
	}
}
