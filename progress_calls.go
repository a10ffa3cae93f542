package loopguard

// The progress detector's work on each call: its identity and result, the chains it extends,
// and the notice it is due (see progress.go for the rules and the state).

import (
	"bytes"
	"slices"
	"strings"
	"unsafe"

	"github.com/loopguard/loopguard/internal/codexcell"
	"github.com/loopguard/loopguard/internal/jsonscan"
)

func (s *progressState) observeCall(c *observedCall, out []Notice) []Notice {
	d := s.d
	s.noteTime(c.time)
	cls := s.class(c.tool)
	if cls.ignored {
		// A bookkeeping tool (a plan, a todo list) is transparent while it works. One that
		// fails is no bookkeeping done: the same refusal again and again is a loop as any
		// tool's is (validation round r155a M2: a task tracker refused eight times in a row,
		// "Missing required argument", untold). Only its host's word decides, since a todo
		// list's text may say anything; a call of it that goes through ends its run of
		// failures.
		if !cls.bookkeeping {
			return out
		}
		if !c.failed {
			h := hashString(c.tool)
			s.dropChain(h)
			s.dropChain(combine(h, mutatingChain)) // its changes' chain, for a tool named to write
			return out
		}
	}
	s.resent, s.resentN = 0, 0 // the model did something (resend)
	if c.failed && cancelledWithSibling(c.result) {
		// The host cancelled the call because another call of its reply failed (and says the
		// call failed): it never ran, and its answer is the other call's failure, said again
		// for each call sent with it. It changes no chain, as a refused call does not
		// (validation round r124b F2: a read sent beside another read shrinking its window
		// over a file, cancelled three times, was told "stuck" while the other read
		// converged).
		return out
	}
	sleeps := sleepsFirst(cls.toolClass, c.args)
	keys := readArgKeys(c.args)
	if cls.typesInput && !keys.sendsNoKeys && !namesTypingKey(c.args) {
		// Typing into a running command with nothing to type: Codex leaves "chars" out of a
		// write_stdin that only waits for more output as often as it writes it empty
		// (validation round r80b F1: three such waits on a test run told "stuck").
		keys.sendsNoKeys = true
	}
	id, args, buf := callID(c, keys.caption, sleeps, s.argBuf)
	s.argBuf = buf
	if s.hasLast && s.last.id == id && c.failed && refusedAsRepeat(c.result) {
		// A harness that will not run a call the same as the one before it (DA-Agent: "The
		// action is the same as the last one, please provide a different action.") ran
		// nothing and changed nothing: the call is the last one made again, answered as it
		// was, and counts once more toward its repeats. Taken as a call with an answer of
		// its own, each refusal reset the count: a script run three times between two such
		// refusals, failing alike, was told seven calls late (validation round r172c M9).
		s.stuck++
		s.recent[(int(s.calls)-1)%len(s.recent)].count = s.stuck
		if s.remindAt(int(s.stuck)) && !s.quiet(s.escalates(true, 0)) {
			s.callSaid, s.saidAt = true, s.calls
			return append(out, s.stuckNotice(c, int(s.stuck)))
		}
		return out
	}
	refused := s.d.cfg.Mode == ModeDeny && !c.refusedForm && s.refuses(id)
	if !c.failed && changesDirectory(c.tool, args) && !looksFailed(c.result) {
		// A relative change of directory that went through leaves the next one, the same call,
		// somewhere else: no run of it is the one before run again. Unlike a shell's "cd ..."
		// (see movesRelatively below) it does not count as a change of the workspace, so the
		// failure chains go on across it: a failure that comes back after a move was not fixed
		// by it (taking these moves for changes lost two real error loops of a BFCL run).
		id = combine(id, uint64(s.calls)+1)
	}
	if refused {
		// A refused call, observed with its refusal as its result: it did not run, so it
		// changes no chain; the refusal stays until something changes.
		if !slices.ContainsFunc(s.refused, func(r refusal) bool { return r.id == id && r.epoch == s.epoch }) && len(s.refused) < 64 {
			s.refused = append(s.refused, refusal{id: id, epoch: s.epoch})
		}
		return out
	}
	s.tools.push(cls.name)
	dg := s.digestResult(c, args)
	if !c.hasRes || keys.onScreen {
		// What the call brought is not known (a transcript that kept the call and not its
		// answer, or a computer-use action whose answer is an acknowledgement and whose
		// outcome is on the screen: see screenActions): it cannot be said to have brought
		// nothing new, so it is taken as new, and an edit whose outcome is unknown as having
		// landed.
		dg.exact = combine(dg.exact, uint64(s.calls)+1)
		dg.masked = dg.exact
	}
	novel, total, echoed := s.noteLines()
	rec := callRecord{id: id, result: dg.exact, sketch: dg.sketch}
	toolHash := hashString(c.tool)

	// stuck: the same call earlier in the window, with the same result and nothing changed
	// since, continues its chain. poll: the same call as the last one, answered differently but
	// alike.
	prevCount, dist := s.recentRepeat(id, dg.exact, c.failed)
	noProgress := prevCount > 0
	sameCall := s.hasLast && s.last.id == id
	// A call that waits (sleep, a background job's output) is made again on purpose: time
	// passes between two of them, so the same answer is a poll that has not advanced yet,
	// counted against the poll budget, not a stuck call. An editor's arguments are the text
	// it writes: a sleep there is code, not a wait.
	// A result that is nothing but a time or an id (`date +%T`, a pid) reads a clock: two of
	// them alike after normalising say only that time passed, and the call is a wait. Only
	// when the text itself moved since the same call's last run: a token that stays what it
	// was is content (a hex value a script computes, a flag read from a file, an answer
	// echoed back), and the same call answered it again is a repeat (a value computed four
	// times over went untold as polls).
	var raw uint64 // the answer as written, for a clock read
	readsClock := dg.words > 0 && dg.marks == dg.words
	if readsClock {
		raw = hashString(c.result) | 1
		readsClock = dist > 0 && s.recent[(int(s.calls)-dist)%len(s.recent)].raw != raw
	}
	waiting := cls.waits || sleeps || readsClock || !cls.mutating && (keys.sendsNoKeys || keys.asksToPoll)
	gone := waiting && pollsWhatIsGone(c) // failed, whatever the host said
	if gone {
		// A poll answered that what it polls does not exist (a job id mistyped, a session
		// ended) is waiting for nothing: asking again later cannot bring it. A model that
		// polled a job by an id one letter off, eight times, each answered "Background job
		// ... not found", saying "I keep making the same typo", was let be as a poll
		// (validation round r148b M1).
		waiting = false
	}
	// A call that lets time pass itself (a sleep, a wait, a read that blocks or is given a
	// delay), as opposed to a check that answers at once: only a pause makes the next check
	// of a poll that has not moved worth making (IdlePollBudget).
	pauses := sleeps || cls.pauses || keys.sendsNoKeys || waiting && argsWait(c.args, cls.blocks)
	polled := false // a repeat answered the same after waiting: nothing new is expected yet
	mut := cls.writes(c.tool, args, keys)
	if s.movedOnItsOwn(c, id, dg.exact, mut, dist, prevCount, keys.onScreen) {
		s.lastMoved = s.calls + 1
	}
	copied := false // the call is a copy of the last, in its reply, answered alike (copies)
	switch {
	case noProgress && (waiting || int(s.lastWait) > int(s.calls)-dist+1 || int(s.lastMoved) > int(s.calls)-dist+1 || reportsUnfinished(c.result)):
		// A call that waits, or any call when the model waited since its earlier run (a
		// sleep, a timer, a background job's output read): time passed, so the same answer
		// is a poll that has not advanced yet. So is an answer that says what it reports is
		// not finished ("status": "in_progress"): asking again later is what it asks for (a
		// CI run checked with `gh run list` every ten seconds was told at its third check,
		// eight times in one session, each time finishing at the next).
		s.stuck = 1
		s.polls++
		noProgress, polled = false, true
		// A call that only sleeps checks nothing: its own pause, or the sleep before it, does
		// not make it a check worth making again. A run of bare sleeps is left to the idle
		// budget: a model slept 30 seconds 26 times in a row with nothing running, noted only
		// at the 31st by the budget of a poll that advances (validation round r179c M1).
		switch bare := sleepsOnly(args); {
		case !bare && (pauses || int(s.lastPause) > int(s.calls)-dist+1):
			s.pollPaused = true
		case bare && sameCall && s.pollPaused:
			// The second bare sleep in a row, in a poll its checks had paused: from here the
			// poll is a run of sleeps, answered the same and checking nothing, counted from
			// the first of them (one repeat so far).
			s.pollPaused, s.pollRun = false, s.polls-1
		}
	case noProgress:
		s.stuck = prevCount + 1
		if c.turn != 0 && s.recent[(int(s.calls)-dist)%len(s.recent)].turn == c.turn {
			// A call of the reply that made the one it repeats was sent before the model saw
			// that one's answer: the reply's copies are one decision, not a repeat after
			// seeing it fail (five background tasks sent at once, each missing its prompt, were
			// told "stuck" at the third; validation round r103d F1).
			s.stuck = prevCount
			if dist == 1 {
				copied = true
				s.copies++
			}
		}
		s.polls, s.pollRun, s.pollMoved, s.pollPaused = 0, 0, false, false
	case sameCall && !mut && s.last.epochAfter == s.epoch && !s.flips(id, dg.exact) && s.likeness(&s.last.sketch, c, &dg) >= 0.5:
		// (A call that writes is not looking at something that moves: an edit made again,
		// its file growing each time, is the same change made again, not a poll.)
		s.stuck = 1
		s.polls++
		s.pollMoved, s.pollRun = true, 0
	case sameCall && !mut && s.last.epochAfter == s.epoch && cls.waits && !cls.pauses:
		// A call that reads what runs (a background job's output, a status), read again, is
		// a poll whatever it answers: a job's output read piece by piece is nothing one time
		// and a new line the next. Taken for other calls, 70 reads of one job never came to
		// the poll budget (validation round r157b M1). (A pause, a sleep or a wait, reads
		// nothing: what comes after it is the world's, not a job's.) The answers unchanged
		// from here on are a run of their own (pollRun), which the idle rule reads as it read
		// a poll that began here.
		s.stuck = 1
		s.polls++
		s.pollMoved, s.pollRun, s.pollPaused = true, s.polls, false
	default:
		s.stuck, s.polls, s.pollRun, s.pollSaidAt, s.pollMoved, s.pollPaused = 1, 0, 0, 0, false, false
	}
	if !copied {
		s.copies = 0
	}
	sameResult := noProgress || (sameCall && s.last.result == dg.exact)

	// The workspace (noteChange); again counts the same change made again.
	epochBefore := s.epoch
	again := s.noteChange(c, id, mut && !c.failed && !sameResult && !wroteNothing(cls.mutating, args, keys, c.result), waiting)
	rec.epochAfter = s.epoch
	s.recent[int(s.calls)%len(s.recent)] = recentCall{id: id, result: dg.exact, raw: raw, epochAfter: s.epoch, said: s.saidBefore(), count: s.stuck, failed: c.failed, turn: c.turn,
		cutShort: s.d.cfg.Mode == ModeDeny && cutShort(c.result)}
	if !mut && !c.failed && (movesRelatively(c.args) || cls.steps) && !looksFailed(c.result) {
		// "cd .." run three times climbs three levels: each run that went through leaves the
		// next one, the same call, somewhere else. The move counts after the call, so that
		// the same move made again is not the same call in the same place. So does a step
		// back or forward through a history (stepsByName).
		s.changed()
	}

	changedNow := s.epoch != epochBefore
	if changedNow && mut {
		s.noteProbe(c.args)
		s.noteEdited(c.args)
	}
	otherCopy, copyPath := s.noteOtherCopy(c.result)

	// Thought chain: note whether this call brought anything new.
	if s.thoughtN >= 1 {
		shape, at := pageOf(c.tool, c.args)
		if s.thoughtN == 1 {
			s.paging, s.pagingID = true, id
		} else {
			if id != s.pagingID {
				s.paging = false
			}
		}
		if s.wentBack(shape, at) && s.thoughtN > 1 && (c.turn == 0 || c.turn != s.backTurn) {
			// The calls of one reply go back once however many of them do: the model
			// decided on them together.
			s.backs++
			s.backTurn = c.turn
		}
		// A wait, or a poll after one, is expected to bring nothing new yet: it does not make
		// the thought stale ("waiting for the install to finish" said at each look).
		// The same call made again, whose outcome its answer does not show (a computer-use
		// action: its outcome is on the screen; an answer the transcript did not keep), after
		// the model said the same thing again, brought the model nothing it described
		// otherwise: it saw the outcome, said what it said before and did what it did before.
		// A step through something (a scroll, a page or arrow key) moves on by itself. An
		// OSWorld agent clicked one banner's close button eight times, saying the same words
		// before each click, untold (validation round r127b M1).
		unseenAgain := (!c.hasRes || keys.onScreen) && sameCall && s.thoughtN > 1 && !stepsThrough(c.args)
		if !polled && !waiting && (noProgress || unseenAgain || (total > 0 && novel*2 < total) || (total == 0 && (sameResult || echoed > 0))) {
			s.stale++
		}
	}
	// A call ends the model's turn, unless its reply is the last call's: a reply of text, a
	// call, more text and another call (Anthropic's content blocks) is one turn, whose first
	// text stands for it. Taking the second text for the next turn, a reply made 22 times
	// over alternated the thought between its two texts and was never told.
	replaySaid := s.replayWords(c)
	if c.turn == 0 || c.turn != s.callTurn {
		s.thoughtSeen = false
	}
	s.callTurn = c.turn

	// Cycles: keys of call and result. A call that waits makes each round new (time passed
	// in it): a round of "wait, list the tasks, read the status" is polling, left to the
	// poll budget.
	key := combine(id, dg.exact)
	if waiting {
		key = combine(key, uint64(s.calls)+1)
		s.lastWait = s.calls + 1
	}
	if pauses {
		s.lastPause = s.calls + 1
	}
	s.calls++
	s.followCycles(key)
	s.marks[(s.calls-1)%ringSize] = replayMark{said: replaySaid, call: uint16(id)}
	setRingBit(&s.changes, s.calls-1, changedNow)

	// errors and churn: this tool's run of near-identical outcomes, and the command's run of
	// failures across changes of the workspace.
	fw := s.followOutcome(c, cls, toolHash, &dg, id, args, callTraits{mut: mut, waiting: waiting, sleeps: sleeps, gone: gone})
	missing, missingName := s.noteMissing(c, fw.failed)
	setRingBit(&s.fails, s.calls-1, fw.failed)
	if fw.comeBack != 0 {
		s.marks[(s.calls-1)%ringSize].fail = uint16(fw.comeBack) | 1
	}
	s.last, s.hasLast = rec, true
	// (Arguments that are a JSON object without a command-line key hold no command: most
	// calls are let go by what readArgKeys already found.)
	if len(c.result) <= maxIdleAnswer && (keys.commandLine || len(c.args) == 0 || c.args[0] != '{') && printsItsOwnText(c.result, c.args) && doesNothing(c.args) {
		s.idle++
	} else {
		s.idle = 0
	}

	// One notice per call at most, the most specific first.
	before := len(out)
	// A call failing in earnest: the tool said so, or its answer opens with the failure (a
	// listing of code that holds "Error" is not one).
	repeatsLast := fw.refail != nil && fw.refail.last == dg.exact && (c.failed || opensWithFailure(c.result))
	// While the quiet calls last, no notice is looked for at all: a chain due now keeps its
	// count and speaks when they are over, rather than being marked as told by a notice the
	// model never saw (six rejected edits in a row went untold, their chain due at the fourth,
	// two calls after a notice on another loop).
	escalation := s.escalates(noProgress, again)
	if s.quiet(escalation) {
		if noProgress && int(s.stuck) == d.thresholds[0] && !s.cycleForming(dist) {
			// Its first reminder, due now, is held for the call's next repeat after the
			// quiet calls: the escalation that speaks through them may be far off (a lookup
			// answered alike a third time two calls after a notice on another loop was told
			// at its sixth, nine calls later).
			s.stuckHeld = id
		}
		if k := s.cyclePeriod(); k > 0 && int(s.runs[k])%k == 0 && int(s.runs[k])/k+1 == s.d.thresholds[0] {
			// A cycle's first reminder due now is held for its next round after the quiet calls
			// (callNotice): a model told of one call of a loop, then going round the whole
			// cycle once more, did not change course, and the cycle's reminder was lost to the
			// quiet calls for good, its next due three rounds on (validation round r207a: three
			// runs going round five calls for 14 to 20 calls after their one notice).
			s.cycleHeld = uint8(k)
		}
		return out
	}
	if escalation && noProgress && s.saidAt > 0 && s.saidAt == s.calls-1 && !s.cycleForming(dist) {
		// An escalation due the call after a notice is held for the call's next repeat: two
		// calls of one loop, each made a sixth time in turn, were told on consecutive calls
		// (validation round r172a: `search_dir "option" src`, then `search_dir "option"`).
		s.stuckHeld = id
		return out
	}
	s.recent[(int(s.calls)-1)%len(s.recent)].broke = fw.failed
	if !noProgress && (dist > 0 || s.changes != 0) {
		// (A check run again further back than the recent calls, edits between, is looked for
		// in the ring: with no change of the workspace among its calls there is none.)
		s.noteUnmoved(c, cls, id, &dg, dist, fw.failed, mut, mut || waiting || keys.onScreen, args)
	}
	if otherCopy != nil {
		out = s.otherCopyCheck(c, otherCopy, copyPath, out)
	}
	if len(out) == before && missing != nil {
		out = s.missingCheck(c, missing, missingName, out)
	}
	if len(out) == before {
		out = s.callNotice(c, cls, &fw, repeatsLast, noProgress, dist, again, out)
	}
	if len(out) == before {
		out = s.unmovedCheck(c, id, out)
	}
	if len(out) == before {
		out = s.replayCheck(c, out)
	}
	if len(out) > before {
		s.callSaid = true
		s.saidAt = s.calls
		return out
	}
	if s.selfHeld > 0 {
		// A reply that repeated itself while the quiet calls lasted (observeText), told when
		// this call is due no notice of its own.
		s.saidAt = s.calls
		return append(out, s.selfRepeatNotice(c.agent))
	}
	if n, why := s.thoughtCheck(); n > 0 {
		s.saidAt = s.calls
		return append(out, s.thoughtNotice(c.agent, n, why))
	}
	return out
}

// noteLines counts the substantial lines of the result just digested that no result since the
// current thought began (and the workspace last changed) showed, nor the answers it began on,
// out of all of them, and remembers them: a result mostly of lines seen before brought the
// thought little new, whatever call it answered.
//
// Lines made of the call's own words (a harness that answers a command with the command
// line, nothing found) are counted apart, as echoed: they bring nothing the model did not
// write (validation round r158a M2: one plan said eight times over reworded searches, each
// answered by its own command line, each line taken for news).
func (s *progressState) noteLines() (novel, total, echoed int) {
	if !s.spoke {
		return 0, 0, 0 // not gathered (see spoke)
	}
	wide := s.dg.wide // the lines that weigh more than one (screenRows), in order
	for i, h := range s.dg.lines {
		w := 1
		if len(wide) > 0 && int(wide[0].at) == i {
			w, wide = int(wide[0].rows), wide[1:]
		}
		if !s.seen.test(h) && !s.began.test(h) {
			novel += w
		}
		total += w
	}
	for _, h := range s.dg.lines {
		s.seen.add(h)
		s.answered.add(h)
	}
	return novel, total, s.dg.echoed
}

// followCycles records the key (call and result) of the call just counted: runs[k] grows
// while each call equals the one k before (a cycle of k going round) and starts again at 0
// when one does not; written without branches, since it runs for every period at every call.
// Periods of n calls or more have no call k before yet: their runs are still 0 (they only
// grow once k calls have been seen, and a user's turn clears them all; a change of the
// workspace does not: a round that repeats its changes answered alike is the cycle going
// round).
func (s *progressState) followCycles(key uint64) {
	n := int(s.calls)
	ring, cur := &s.ring, uint(n-1)
	runs := s.runs[:min(s.d.cfg.MaxCyclePeriod, maxPeriod, n-1)+1] // one bounds check, not one a period
	rounds := int32(s.d.thresholds[0] - 1)                         // full rounds after the first (cyclePeriod)
	need := rounds                                                 // rounds*k, the run period k needs
	var due int32                                                  // negative once some run has come round in full
	s.keyBack = 0
	for k := 2; k < len(runs); k++ {
		r := runs[k] + 1
		if ring[(cur-uint(k))%ringSize] != key {
			r = 0
		} else if k > recentWindow && s.keyBack == 0 {
			s.keyBack = int32(k)
		}
		runs[k] = r
		need += rounds
		due |= need - 1 - r // negative when r >= rounds*k
	}
	ring[cur%ringSize] = key
	s.cycleDue = due < 0
}

// replayMinPeriod is the shortest period a replay is told at: shorter cycles, of two to six
// calls, are the cycle rule's, told when they have come round three times, however alike the
// model's words.
const replayMinPeriod = 7

// replayLen is how many calls in a row a replay makes again before it is told: a stretch of
// four calls, each the same call answered the same as the one a period before, the model's
// words before each the same too. Four steps regenerated word for word is a model going
// through what it did once more, not a look it needs again.
const replayLen = 4

// replayCheck tells a replay: the last replayLen calls made again, in order, as the ones a
// period of replayMinPeriod calls or more before, each answered exactly as then, the model
// saying the same words before each as it said then (replayWords), and at least three
// different calls among them (one call made again is stuck's, two in turn a short cycle's).
//
// A period of eight or ten calls comes round a third time, as the cycle rule waits for,
// twenty or thirty calls after the loop began: SWE-agent runs on Java tasks, after one edit,
// went through the same eight or ten searches, opens and gotos with the same thoughts, word
// for word, and ran out of budget untold (validation round r200a M1). Calls alike are not
// enough: a model re-reading a file after a detour makes the same calls again and is
// answered alike; it is the words, regenerated before each call, that say the model is going
// through what it did once more rather than looking again at what it needs.
//
// The four calls are counted from where both the calls and the words began to match: a
// model often rephrases its first thought or two of a round, and a count that followed the
// calls alone had passed four before the words matched, and never looked again. Told once
// a loop (replayTold); not when another notice came during the four, nor when the stretch is
// a cycle of six calls or fewer or a cycle is due, which the cycle rule tells; not for calls
// made again after a new change that all went through (changedAnew).
func (s *progressState) replayCheck(c *observedCall, out []Notice) []Notice {
	n := int(s.calls)
	if s.marks[(n-1)%ringSize].said == 0 || n < 2*replayLen || s.saidAt > s.calls-replayLen {
		return out
	}
	runs := s.runs[:min(s.d.cfg.MaxCyclePeriod, maxPeriod, n-1)+1]
	for k := 2; k < min(replayMinPeriod, len(runs)); k++ {
		if runs[k] >= replayLen {
			return out // a short cycle's
		}
	}
	for k := replayMinPeriod; k < len(runs); k++ {
		if runs[k] >= replayLen && s.replaysAt(k) {
			if s.cyclePeriod() > 0 || s.replayTold() {
				return out
			}
			s.replayAt, s.replayPeriod = s.calls, uint8(k)
			return append(out, s.notice(c.agent, KindCycle, "replay of "+itoa(replayLen)+" calls, "+itoa(k)+" back",
				fill(s.d.cat.progressReplay, "count", itoa(replayLen), "period", itoa(k), "seq", s.cycleTools(replayLen))))
		}
	}
	return out
}

// replayTold says whether the replay the last calls make is the one told last: one of its
// calls is among the calls that replay went through (its period and its four), while they
// are still in the ring of recent calls. A loop whose round now and then answers otherwise
// (a timeout, an edit landing on other lines) begins a new stretch of calls alike each
// time, at its period or at two or three of them: told at each, one loop was told nine
// times in ninety calls (validation round r201b). Once the told replay's calls have left the
// ring, a loop going on for more than 64 calls was told again at each new stretch (r202a):
// then the next reminder waits until the session has run twice as long as when the last was
// given, as the cycle rule doubles its rounds.
func (s *progressState) replayTold() bool {
	if s.replayPeriod == 0 {
		return false
	}
	n := int(s.calls)
	from := int(s.replayAt) - int(s.replayPeriod) - replayLen // the told replay's first call
	if from < 0 || n-from > ringSize {
		// Gone from the ring: whether it is the same loop cannot be told, and a reminder
		// waits as long again as the session had run when the last was given.
		return n < 2*int(s.replayAt)
	}
	for j := range replayLen {
		key := s.ring[uint(n-1-j)%ringSize]
		for i := from; i < int(s.replayAt); i++ {
			if s.ring[uint(i)%ringSize] == key {
				return true
			}
		}
	}
	return false
}

// replaysAt says whether the last replayLen calls, already known to be made again as the
// ones k before, had the same words before each as those had, the call before them not (or
// not with the same words): the stretch of calls and words alike has just reached
// replayLen. The four must hold three different calls, and three different thoughts: one
// sentence said before every call is the thought rule's, which names it (validation round
// r202a: a "same thought × 23" displaced by a replay).
func (s *progressState) replaysAt(k int) bool {
	n := int(s.calls)
	var keys [replayLen]uint64
	var words [replayLen]uint16
	calls, thoughts := 0, 0 // distinct among the four
	for j := range replayLen {
		at, then := uint(n-1-j)%ringSize, uint(n-1-j-k)%ringSize
		said := s.marks[at].said
		if said == 0 || said != s.marks[then].said {
			return false
		}
		keys[j], words[j] = s.ring[at], said
		if !slices.Contains(keys[:j], keys[j]) {
			calls++
		}
		if !slices.Contains(words[:j], said) {
			thoughts++
		}
	}
	if calls < 3 || thoughts < 3 {
		return false
	}
	if q := s.changedAnew(k); q >= 0 && s.fails&lastBits(n, n-1-q) == 0 {
		return false
	}
	if n-1-replayLen-k < 0 {
		return true
	}
	at, then := uint(n-1-replayLen)%ringSize, uint(n-1-replayLen-k)%ringSize
	return int(s.runs[k]) < replayLen+1 || s.marks[at].said == 0 || s.marks[at].said != s.marks[then].said
}

// setRingBit sets or clears call i's bit in a ring bit set (changes, fails).
func setRingBit(set *uint64, i int32, on bool) {
	bit := uint64(1) << (uint32(i) % ringSize)
	if on {
		*set |= bit
	} else {
		*set &^= bit
	}
}

// lastBits is the mask of the ring bits (changes, fails) of the last m of n calls.
func lastBits(n, m int) uint64 {
	var b uint64
	for i := n - m; i < n; i++ {
		if i >= 0 {
			b |= 1 << (uint(i) % ringSize)
		}
	}
	return b
}

// changedAnew returns where the workspace last changed since the calls the last replayLen
// calls make again at period k were first made, when that change is new: not the very change
// (the same call, however answered: a line-numbered edit sent again answers with the file a
// line shorter) made k calls before it; -1 otherwise. A change whose counterpart has left the
// ring is taken as new.
//
// Checks run again after a new edit, answered alike, verify it, whatever the words before
// them: a model checking each edit with the same seven checks, saying the same things before
// each, was told as going through the same steps again. So replaysAt spares calls made again
// after a new change when none of the calls since it failed. One that failed exactly as
// before shows the change moved nothing, and the round gone through again: weak models made
// "new" edits that differed from the round's first only in their line numbers (`edit 1:23`,
// then `edit 1:26`, the same text), or an edit whose reproduction failed as before, and then
// made the same reads with the same words (validation round r202a's sample, judged true).
// The latest change is the one the calls after it look at: a model that tried other edits,
// then made the round's own edit again (TexSoup-138), is going through the round again.
func (s *progressState) changedAnew(k int) int {
	n := int(s.calls)
	for q := n - 5; q >= n-3-k && q >= 0; q-- {
		if s.changes&(1<<(uint(q)%ringSize)) == 0 {
			continue
		}
		if q-k < 0 || n-(q-k) > ringSize || s.marks[uint(q)%ringSize].call != s.marks[uint(q-k)%ringSize].call {
			return q
		}
		return -1
	}
	return -1
}

// replayWords is what replayCheck compares of the model's words before a call: the digest of
// its current thought (saidBefore), or 0 when it said nothing since the last call (the words
// of an earlier turn, kept, are no evidence that this call was regenerated) or fewer than
// eight words: a short stock phrase ("Let's continue reading the method:") is written again
// whenever its occasion comes again, and a model re-reading a file after a detour wrote it
// before each window (validation round r201b C2).
func (s *progressState) replayWords(c *observedCall) uint16 {
	if !s.thoughtSeen && (c.turn == 0 || c.turn != s.callTurn) || s.thought.words < replayMinWords {
		return 0
	}
	return uint16(s.saidBefore()) // never 0: saidBefore sets the lowest bit
}

// replayMinWords is the fewest words a thought needs to count for the replay rule, the floor
// the thought rule compares texts by similarity at.
const replayMinWords = 8

// noteChange moves the workspace's epoch for a call that changed it: a mutating call that
// went through, unless it repeats itself exactly (writing the same thing twice changes
// nothing the second time: mayChange is false then, as for a failed call). An editor that
// reports its failure only in its text (OpenHands' "ERROR:", Claude Code's <tool_use_error>)
// changed nothing; only the answer's opening is read, since a successful edit shows the code
// it wrote, which may well hold "Error:" or a traceback. Nor did a command its shell would
// not parse (refusedByShell), nor a request whose whole answer is an error envelope
// (reportsErrorField: an API's {"error": "Expected '\"' but got 'u'"} to a POST).
// It returns how many times in a row the call has made the same change as the call that
// last changed the workspace, or 0 when it made another.
func (s *progressState) noteChange(c *observedCall, id uint64, mayChange, waiting bool) int {
	if !mayChange || opensWithFailure(c.result) || refusedByShell(c.result) || reportsErrorField(c.result) {
		return 0
	}
	// The answer's shape, worked out once: compared when the change may be the same one made
	// again, and kept as the last change's otherwise.
	//
	// The same change made again, with nothing else changed since it was first made: the
	// model did not see what its first run did. A line-numbered edit sent again inserts its
	// text again (a real run sent `edit 74:74` 28 times, the file growing by four lines each
	// time, its answer new each time), so its result is no sign of progress and the workspace
	// is not taken as changed anew: the calls and the thought around it stay the same step
	// repeated.
	//
	// It must answer alike, its lines the same but for their numbers: an exporter that keeps
	// only a summary of each edit ("Edit file: a.py, 2 lines added") makes different edits
	// look the same call, whose answers (their diffs) differ. The answer must show three
	// lines or more, the same place of a file shown again: a move in a game answered "(3,1)",
	// then "(3,2)", is a step, not a file. An undo, a stash pop, a step back through history
	// is meant to be repeated, each run going one step further; an edit whose outcome is not
	// known is taken as having landed, as always.
	var shape sketch
	shaped := false
	if s.changedBy == id && int(s.lastWait) <= int(s.changedAt)+1 && !waiting && c.hasRes &&
		!stepsThroughHistory(c.args) && s.changedShape.n >= 3 {
		shape, shaped = shapeSketch(c.result), true
		if similarity(&s.changedShape, &shape) >= 0.5 {
			s.reapplied++
			return int(s.reapplied)
		}
	}
	if !shaped {
		shape = shapeSketch(c.result)
	}
	s.changed()
	s.changedBy, s.changedAt, s.reapplied, s.changedShape = id, s.calls, 1, shape
	return 0
}

// callTraits are what observeCall made of a call before following its outcome.
type callTraits struct {
	mut     bool // it writes (classEntry.writes)
	waiting bool // it waits on what runs, as a poll does
	sleeps  bool // its command sleeps first
	gone    bool // it waited on what does not exist (pollsWhatIsGone): it failed, whatever the host said
}

// followed is what followOutcome found of a call: the tool's chain it extended or started, the
// command's same-failure chain across changes (nil when it has none), and a failure recurring
// among the tool's last failures at this call, with how many of them it was (recurringFailure;
// 0 when none, or when the tool's chain already counts it as often).
type followed struct {
	tool           *toolChain
	refail         *refailChain
	failed         bool // the call failed, as the errors rule reads its outcome (callOutcome)
	recurring      uint64
	recurringCount int32
	// comeBack is what a failure of the call must share with an earlier one to have come
	// back (cameBack): its identity (failureIdentity) and where it was raised (raiseSite); 0
	// when its failure names none.
	comeBack uint64
}

// followOutcome extends or starts the call's tool chain (errors, churn: the tool's run of
// near-identical outcomes) and its failure chain across edits (updateRefail), and returns
// both, with a failure recurring among the tool's last ones.
func (s *progressState) followOutcome(c *observedCall, cls classEntry, toolHash uint64, dg *digest, id uint64, args []byte, t callTraits) followed {
	d := s.d
	mut, waiting, sleeps := t.mut, t.waiting, t.sleeps
	// An editor's looks and its changes are two runs: a view of the file between two
	// rejected replacements is not the replacement succeeding. A shell's are one: a script
	// written and run, then run again, fails as one command.
	// A command that sends a patch (Codex's shell tool ran ["apply_patch", "*** Begin
	// Patch..."] before apply_patch was a tool of its own) is an editor's change, as that
	// tool's is: six rejections of one file went untold where the tool's were told.
	editor := mut && (cls.mutating || bytes.Contains(c.args, patchBegin))
	if editor {
		toolHash = combine(toolHash, mutatingChain)
	}
	ch := s.chain(toolHash)
	failed, said := callOutcome(c, cls, mut)
	failed = failed || t.gone
	// Failures of different kinds are different failures, alike as the rest of their text
	// may be once masked (failureKind).
	var sig, kind, kindSig uint64 // kindSig: the failure's identity (failureIdentity), 0 for none
	var site uint64               // its kind and where a failure naming the call's own words was raised (echoedFailureSite)
	var failLine string           // the line naming the failure (failureLineOf)
	lead, leadExact := dg.lead, uint64(0)
	if failed {
		line, after, msg := failureLineOf(said)
		failLine = line
		sig, kind = signatureOf(line, after), failureKind(line)
		kindSig = failureIdentity(sig, kind, line, said)
		if kind != 0 {
			if at := echoedFailureSite(line, said, c.args); at != 0 {
				site = combine(kind, at)
			}
		}
		if msg != "" {
			// What a JSON answer's error says first, not the envelope's first line.
			lead = mix64(hashLine(firstLine(msg))) | 1
			leadExact = lead
		} else if mut {
			leadExact = novelLineHash(leadLine(c.result)) | 1
		}
	}
	// A linter's rejection of an edit is known by the errors it listed, and names the edit's
	// file when the arguments do not (lintRejection).
	var lintFile uint64
	if editor && failed {
		if errs, named := lintRejection(said); errs != 0 {
			kind, lintFile = combine(kind, errs), named
		}
	}
	// A failing edit restates the attempted change after its error, so for a mutating tool
	// the error's first line decides what counts as the same failure, unless the failures are
	// of different kinds: a traceback's first line is its header, whatever was raised. The
	// line is compared as the digest leaves it, masked ("No replacement was performed, old_str
	// `X` did not appear verbatim", X each attempt's own), and as it is (leadLine): the
	// digest hashes an answer of 1 KB or more line by line and a shorter one word by word, so
	// the one sentence SWE-agent's linter opens every rejection with ("Your proposed edit has
	// introduced new syntax error(s)...") led two rejections apart when one answer was 1,020
	// bytes and the other 1,185, and eleven rejections of edits to one file went untold until
	// the twelfth (validation round r135a M1).
	// A harness's refusal of a reply's form is one template whatever was refused, and is
	// compared masked, as sameExact says below.
	sameLead := mut && failed && ch != nil && ch.failed && (ch.lead == lead || ch.leadExact == leadExact && !c.refusedForm) && !ch.kindDiffers(kind)
	// An editor's changes to one file rejected again and again, nothing landing between, are
	// one loop however the rejections are worded ("did not appear verbatim", then "multiple
	// occurrences", then not found again): each says the model's picture of the file is not
	// the file. An edit the user declined says nothing of the kind: it neither starts nor
	// extends such a chain. A chain that has merged rejections by their file alone goes on
	// only on that file.
	declined := failed && declinedByUser(c.result)
	var file uint64 // the file this rejected edit targets; 0 when unknown, or not such an edit
	if editor && failed && !declined {
		if file, _ = editFileKey(c.args); file == 0 {
			file = lintFile
		}
	}
	sameFile := file != 0 && ch != nil && ch.failed && file == ch.file && !sameLead
	oneFile := ch == nil || !ch.mixed || file == ch.file
	// An empty or one-word answer says too little to call two answers the same, but for a
	// search: nothing found is its answer (find / -name "<guess>*" sent 36 times, every one
	// empty). A short answer that says nothing came of the call says so plainly: a text
	// game's "Nothing happens." to 25 different "take cd 3 from <place>" in a row, "Not
	// found.", "Permission denied" (validation round r68c M1-M10: ten such runs of small
	// models, 7 to 32 calls each, untold).
	foundNothing := dg.words == 0 && strings.TrimSpace(c.result) == "" && c.hasRes && c.searches()
	says := dg.words >= 3 || foundNothing || dg.words == 2 && shortNonAnswer(c.result) ||
		dg.words > 0 && dg.words+ideographWords(c.result) >= 3
	// Masking the words an answer echoes from its call makes two answers more alike ("The
	// path X does not exist" for every X), never less: two answers the same before masking
	// are the same answer, whatever words of them each call's arguments hold (a weak model
	// whose prose was run as the command got ten identical "unexpected EOF" failures, each
	// masked apart by the words its prose shared with the error, and was never told). Not
	// so a harness's refusal of a reply's form, one template for whatever was refused: its
	// sameness says nothing of the attempts, which are compared masked as before.
	sameExact := ch != nil && ch.exact == dg.exact && !c.refusedForm
	// A failure known by its identity (failureIdentity) is the same failure whatever the
	// text around it.
	sameLine := ch != nil && ch.failed && !c.refusedForm && (kindSig != 0 && ch.sig == kindSig || site != 0 && ch.site == site)
	// Commands of which nothing ran, whichever way the shell declined them (it could not
	// parse one, it found no program of another's name), are one failure: the model is
	// sending what is not a command. A weak model's prose run as its command failed one way
	// or the other as it held an apostrophe or not, and the alternation put off the notice by
	// up to fourteen calls (validation round r172b M1).
	nothing := failed && !c.refusedForm && ranNothing(said, c.args)
	sameLine = sameLine || nothing && ch != nil && ch.failed && ch.ranNothing
	extends := ch != nil && ch.epoch == s.epoch && says && oneFile && (sameExact || sameLead || sameFile || sameLine || !ch.kindDiffers(kind) && s.alike(&ch.chainShape, c, dg))
	// A failure that comes back after another one, the tool failing every time between and
	// nothing changed, takes up its count where it was left: a model whose prose was run as
	// the command failed one of two ways at every call ("unexpected EOF", "DISCUSSION: command
	// not found"), irregularly, and neither way ever came four times in a row. A harness's
	// refusals of a reply's form are left out: their one template is no failure of a tool.
	stretch := !extends && ch != nil && ch.epoch == s.epoch && says && ch.failed && failed && !c.refusedForm && file == 0
	if stretch && ch.hasOther && (ch.other.exact == dg.exact || !ch.other.kindDiffers(kind) && s.alike(&ch.other, c, dg)) {
		ch.chainShape, ch.other = ch.other, ch.chainShape
		ch.alternated, extends = true, true
	}
	// The tool's failures before this one, carried to the chain this call extends or starts
	// while they follow one another in this workspace (recurringFailure).
	var fails [recurWindow - 1]uint64
	var nFails uint8
	var recurSaid uint64
	newReply := ch == nil || c.turn == 0 || c.turn != ch.turn
	if ch != nil && failed && ch.failed && ch.epoch == s.epoch {
		fails, nFails, recurSaid = ch.fails, ch.nFails, ch.recurSaid
	}
	var out followed
	if failed && says && !waiting && newReply && kindSig != 0 && !c.refusedForm {
		if n := recurringFailure(kindSig, fails[:nFails]); n >= d.cfg.ErrorRepeats {
			out.recurring, out.recurringCount = kindSig, int32(n)
		}
	}
	if failed && newReply {
		copy(fails[1:], fails[:len(fails)-1])
		fails[0], nFails = kindSig, min(nFails+1, uint8(len(fails)))
	}
	if extends {
		// Calls of the reply that made the chain's last call were made before the model saw
		// its result: the same answer to them is one step, not a repeat.
		// What the call looked for, read only for a call that extends a chain (most calls
		// start one): the chain's first call counts as unknown.
		q := queryOf(c.args)
		if c.turn == 0 || c.turn != ch.turn {
			ch.count++
			if ch.lastID != id {
				ch.variants++
				if q == 0 || q != ch.query {
					ch.guesses++
				}
			}
			// Churn is the same non-answer to every variant: an answer alike but for saying
			// something (a jail's banner, then "input:" with nothing refused, where the others
			// end "Denied!") is an answer, and the non-answers count afresh after it.
			if saysNothing(c.result) {
				ch.nothing++
			} else {
				ch.nothing = 0
			}
		}
		if sameExact && ch.head != dg.masked {
			// The same answer, masked otherwise by this call's words (a table named "asia",
			// then "world_1.asia"): the calls after it that echo it the same way answer alike
			// too.
			ch.joined = dg.masked
		}
		ch.lastID, ch.turn = id, c.turn
		ch.query = q
		ch.failed = ch.failed && failed
		ch.ranNothing = ch.ranNothing && nothing
		if sameFile && ch.head != dg.masked && s.likeness(&ch.sketch, c, dg) < d.similar {
			ch.mixed = true
		}
		if file != ch.file {
			ch.file = 0 // the chain's rejections are not all of one file
		}
	} else {
		nc := toolChain{tool: toolHash, epoch: s.epoch, lastID: id, turn: c.turn, failed: failed,
			chainShape: chainShape{head: dg.masked, exact: dg.exact, lead: lead, leadExact: leadExact, kind: kind, sig: kindSig, site: site, ranNothing: nothing, sketch: dg.sketch, count: 1, file: file}}
		if stretch {
			nc.other, nc.hasOther = ch.chainShape, true
		}
		if ch != nil {
			*ch = nc
		} else {
			s.addChain(nc)
			ch = &s.chains[len(s.chains)-1]
		}
	}
	if !says || waiting {
		// A call that waits is polling (a backoff's "connection refused" after each longer
		// sleep), counted against the poll budget, not as an error or churn.
		ch.count = 0
	}
	if out.recurring != 0 && out.recurringCount <= ch.count {
		// The chain counts it as many times, in a row or taken up after one other failure
		// (stretch): it is the chain's to tell.
		out.recurring, out.recurringCount = 0, 0
	}
	if failed {
		ch.fails, ch.nFails, ch.recurSaid = fails, nFails, recurSaid
	} else {
		ch.fails, ch.nFails, ch.recurSaid = [recurWindow - 1]uint64{}, 0, 0
	}

	// A call the harness refused for its reply's form never ran: its refusal is no outcome of
	// the command that edits could have reached, nor its success. Cline runs one tool a
	// message and refuses the others ("Tool [read_file] was not executed because a tool has
	// already been used in this message"): a model that sent each edit with a read of one file
	// had the read refused four times, each edit landing, and was told the read failed alike
	// across its changes (validation round r59c F1).
	// Nor is a call that only waits on what runs (a tool named for waiting, OpenHands' empty
	// command, keys sent as nothing) an experiment the edits could reach: what it waits on is
	// whatever runs at the time, and its arguments need not say which. A model that after
	// each of four timed-out commands asked for more output, answered "No previous running
	// command", was told its changes were not reaching the cause (validation round r117a). A
	// command that sleeps first is still the command it runs after the sleep (failureKey).
	// Nor is a teardown that stopped its own shell with the servers it was sent to stop
	// (stoppedItsOwnShell): its status is the signal it sent, whatever the edits did. A
	// `pkill -f netlify` ending each of four experiments on a dev server, each answered "Exit
	// code 144", was told as one command failing alike across the edits (validation round
	// r124b F1). The model that reads the status as a failure and rewords the kill, four
	// times in a row, is still told (the errors chain).
	var rf *refailChain
	// A call that worked while no command is failing has no chain to end (most calls).
	if (failed || s.refailing()) && !c.refusedForm && !(waiting && !sleeps) && !(failed && stoppedItsOwnShell(c.tool, c.args, c.result)) {
		key, places := s.failureKey(c, cls, id, args, sleeps, failed)
		rf = s.updateRefail(c, key, places, failed, dg, sig, c.turn)
	}
	s.declinedTool, s.declinedKey = 0, 0
	if declined {
		// Should the user speak next, their decline and their words are one answer, and
		// these chains end with the turn (see reset).
		s.declinedTool = ch.tool
		if rf != nil {
			s.declinedKey = rf.id
		}
	}
	out.tool, out.refail, out.failed = ch, rf, failed
	if kindSig != 0 {
		out.comeBack = kindSig
		if at := raiseSite(said, failLine); at != "" {
			out.comeBack = combine(kindSig, hashString(at))
		}
	}
	return out
}

// ideographWords counts the characters of scripts written without spaces (isIdeograph) in the
// opening of a short answer: each is a word, as the thought rule counts them. A shell that
// says "mvn：未找到命令" (command not found, in Chinese) has said as much as one that says
// "mvn: command not found", though its fields are two (validation round r92b). Only an
// answer of fewer than three fields asks, so only its first bytes are read.
func ideographWords(result string) int {
	head := result[:min(len(result), 256)]
	if !hasHighByte(head) {
		return 0 // ASCII: no such character (the common case, at a byte's cost)
	}
	n := 0
	for _, r := range head {
		if isIdeograph(r) {
			n++
		}
	}
	return n
}

// alike says whether the answer dg of call c is the chain's: the same once masked, or near it.
func (s *progressState) alike(cs *chainShape, c *observedCall, dg *digest) bool {
	return cs.head == dg.masked || cs.joined == dg.masked || s.likeness(&cs.sketch, c, dg) >= s.d.similar
}

// likeness estimates how alike the answer dg of call c is to one sketched before (stored):
// their similarity, with c's answer sketched again as stored was when the two fell either
// side of longTextBytes. digest reads a long text by its lines and a short one by pairs of
// words, and two such sketches share nothing: two rejections of one edit by SWE-agent's
// linter, of 1,020 and 1,185 bytes and nearly all alike, had looked unrelated (validation
// round r135a M1). An answer is sketched again only when it is less than twice the seam's
// length on the far side: Jaccard similarity is at most the ratio of the two sets' sizes, so
// two texts further apart than that fall below the lowest similarity the options allow (50%)
// whatever they say, and are not worth the second pass.
func (s *progressState) likeness(stored *sketch, c *observedCall, dg *digest) float64 {
	if stored.mode == dg.sketch.mode || stored.n == 0 || dg.sketch.n == 0 {
		return similarity(stored, &dg.sketch)
	}
	if !c.resketched || s.resketch.mode != stored.mode {
		if !s.sketchAgain(c, stored.mode) {
			return 0
		}
	}
	return similarity(stored, &s.resketch)
}

// sketchAgain sketches c's answer in mode into s.resketch, and says whether it did: not when
// the answer is too far from the seam to be like a text sketched in that mode (see likeness).
func (s *progressState) sketchAgain(c *observedCall, mode uint8) bool {
	text := c.answer
	switch mode {
	case sketchWords:
		if len(text) >= 2*longTextBytes {
			return false
		}
		s.dg.setEcho(c.answerArgs)
		s.resketch = s.dg.digestFields(text, true, false, false).sketch
	case sketchLines:
		if 2*len(text) < longTextBytes {
			return false
		}
		s.resketch = s.dg.digestLong(text, false).sketch
	default:
		if 2*len(text) < longTextBytes {
			return false
		}
		s.resketch = s.dg.digestFields(text, false, false, true).sketch
	}
	c.resketched = true
	return true
}

// kindDiffers says whether a failure of kind (failureKind) is of another kind than the chain's.
func (cs *chainShape) kindDiffers(kind uint64) bool {
	return kind != 0 && cs.kind != 0 && kind != cs.kind
}

// failureKey is what a call is known by in the same-failure chains (updateRefail): a command
// line by what it runs, wherever it runs from (commandKey); an editor's replacement by its
// target (editTargetKey), since an editor's "command" is its sub-command, not a command line;
// any other call, and one that sleeps first (known by its sleepless identity already), by its
// identity id. It is asked only of a failure, or of a success while some chain is open (one
// it may end).
func (s *progressState) failureKey(c *observedCall, cls classEntry, id uint64, args []byte, sleeps, failed bool) (key, places uint64) {
	if sleeps {
		return id, 0
	}
	var ok bool
	if cls.mutating {
		key, ok = editTargetKey(c.tool, args)
	} else {
		key, places, ok = commandKey(c.tool, args)
	}
	if !ok {
		return id, 0
	}
	return key, places
}

// escalates says whether a reminder due now is an escalation (a later threshold of the
// same-call, made-again or idle counts: the detailed notice), which speaks through the quiet
// calls. The made-again count's too: an edit sent again and again, told at the third two
// calls after another notice, lost its detailed sixth.
func (s *progressState) escalates(noProgress bool, again int) bool {
	th := s.d.thresholds
	later := func(n int) bool { return n > th[0] && slices.Contains(th, n) }
	return noProgress && later(int(s.stuck)) || s.idle > 0 && later(int(s.idle)) || again > 0 && later(again)
}

// quiet says whether a notice due now is held back because the model was told about a loop
// only a few calls ago (QuietCalls): one reminder per stretch of a loop is heard, one per call
// is nagging. An escalation (a no-progress chain reaching a later threshold, the detailed
// notice) still speaks; the reminders every RemindEvery after the last threshold wait, as the
// first notices of other chains do (a long loop of two alternating commands was told twelve
// times in ninety calls).
func (s *progressState) quiet(escalation bool) bool {
	return !escalation && s.saidAt > 0 && int(s.calls-s.saidAt) < s.d.cfg.QuietCalls
}

// callNotice appends the notice the call is due, if any: one at most, the most specific
// first.
//
// repeatsLast says that the call failed in earnest with the very result of its failure
// chain's latest failure (rf.same failures in a row ended so).
func (s *progressState) callNotice(c *observedCall, cls classEntry, fw *followed, repeatsLast, noProgress bool, dist, again int, out []Notice) []Notice {
	d := s.d
	ch, rf := fw.tool, fw.refail
	if n := int(s.copies) + 1; s.copies > 0 && n%selfRepeatRounds == 0 && (n/selfRepeatRounds)&(n/selfRepeatRounds-1) == 0 {
		// One reply holding the same call ten times over, each copy answered alike, is a model
		// repeating itself within a message, as a text saying a block ten times over is
		// (selfRepeatRounds): no copy can bring what the first did not. The copies count once
		// toward the stuck rule (see observeCall), so this is told apart: a small model sent
		// one money transfer 543 times in one reply, each refused alike (validation round
		// r119b T1). Told at the 10th copy, and again as the count doubles.
		return append(out, s.notice(c.agent, KindStuck, c.tool+" × "+itoa(n)+" in one reply",
			fill(s.d.cat.progressCopies, "tool", c.tool, "count", itoa(n))))
	}
	if noProgress && s.remindAt(int(s.stuck)) {
		if !s.cycleForming(dist) {
			return append(out, s.stuckNotice(c, int(s.stuck)))
		}
		if int(s.stuck) == d.thresholds[0] {
			// A repeat in a cycle in the making is the cycle rule's to tell. Should the cycle
			// break before its third round, the call's first reminder is held for its next
			// repeat, as through the quiet calls: a failing query sent again between two
			// refusals of the model's form (A B A B A A) was never told, its third run deferred
			// to a cycle that did not come round and its fourth no threshold.
			s.stuckHeld = s.last.id
		}
	}
	if s.idle > 0 && s.remindAt(int(s.idle)) {
		return append(out, s.notice(c.agent, KindStuck, c.tool+" does nothing × "+itoa(int(s.idle)),
			fill(s.d.cat.progressIdle, "tool", c.tool, "count", itoa(int(s.idle)))))
	}
	if again > 0 && s.remindAt(again) {
		return append(out, s.notice(c.agent, KindStuck, c.tool+" × "+itoa(again),
			fill(s.d.cat.progressReapplied, "tool", c.tool, "count", itoa(again))))
	}
	// A reminder held through the quiet calls, after the counts due now of their own (a
	// command that does nothing is better told so), and waiting for its escalation when that
	// is due at the next repeat: two notices in a row on one loop are one too many.
	if noProgress && s.stuckHeld == s.last.id && int(s.stuck) > d.thresholds[0] && !s.remindAt(int(s.stuck)+1) && !s.cycleForming(dist) {
		return append(out, s.stuckNotice(c, int(s.stuck)))
	}
	if k := s.cyclePeriod(); k > 0 {
		rounds := int(s.runs[k])/k + 1
		if int(s.runs[k])%k == 0 && (s.remindAt(rounds) || int(s.cycleHeld) == k && !s.cycleRemindsSoon(k, rounds)) {
			s.cycleHeld = 0
			return append(out, s.cycleNotice(c, k, rounds))
		}
	}
	// A command whose failures come back across edits, each edit different, goes round
	// failures already met: the edits are going in circles (cameBack). A Llama run tried
	// eleven ways to build one Location, running its script after each, and went round four
	// errors, a fix it had made eight calls before made again, untold (validation round
	// r205a M1). Told at the third come back, as a failure alike is at its third repeat
	// (ErrorRepeats counts the first too), once while the command keeps failing.
	if fw.failed {
		if back, runs, first := s.cameBack(); back >= d.cfg.ErrorRepeats-1 && s.saidAt <= first {
			return append(out, s.notice(c.agent, KindErrors, c.tool+" failed × "+itoa(runs)+", "+itoa(back)+" came back",
				fill(s.d.cat.progressCameBack, "tool", c.tool, "count", itoa(runs), "back", itoa(back))))
		}
	}
	// A tool failing alike is told at ErrorRepeats, and again each time the count doubles: a
	// model that goes on past the first notice (a real run had its edit rejected 18 more times
	// after it) is told once more, not at every call.
	// (Two calls failing in turn, each its own way, are the same calls answered the same:
	// stuck counts them, and the cycle rule tells them, not this one.)
	if ch.failed && (ch.saidAt == 0 && int(ch.count) >= d.cfg.ErrorRepeats || ch.saidAt > 0 && ch.count >= 2*ch.saidAt) && int(s.stuck) < d.thresholds[0] {
		ch.saidAt = ch.count
		if ch.sig != 0 {
			ch.recurSaid = ch.sig // told: its coming back among others is not news
		}
		if ch.alternated {
			return append(out, s.notice(c.agent, KindErrors, c.tool+" failed × "+itoa(int(ch.count)),
				fill(s.d.cat.progressErrorsBetween, "tool", c.tool, "count", itoa(int(ch.count)))))
		}
		if ch.mixed {
			return append(out, s.notice(c.agent, KindErrors, c.tool+" failed × "+itoa(int(ch.count)),
				fill(s.d.cat.progressEditsRejected, "tool", c.tool, "count", itoa(int(ch.count)))))
		}
		if ch.ranNothing {
			// Commands the shell declined whichever way (see ranNothing): the notice says
			// that nothing ran, not that one error came back (validation round r173a).
			return append(out, s.notice(c.agent, KindErrors, c.tool+" failed × "+itoa(int(ch.count)),
				fill(s.d.cat.progressNothingRan, "count", itoa(int(ch.count)))))
		}
		return append(out, s.errorsNotice(c, int(ch.count), ch.variants > 0))
	}
	// One failure coming back among others, four of the tool's last six failures with no
	// success between, is the same thrash as four in a row: a model rewriting one script
	// met "columns are missing: {'id'}" six times in nine runs, a NameError, a KeyError and
	// another missing column between, and was told nine calls late (validation round r172c
	// M8). Ordinary debugging meets each failure once. Told once an identity, while it
	// recurs.
	if r := fw.recurring; r != 0 && ch.recurSaid != r && int(s.stuck) < d.thresholds[0] {
		ch.recurSaid = r
		return append(out, s.notice(c.agent, KindErrors, c.tool+" failed × "+itoa(int(fw.recurringCount)),
			fill(s.d.cat.progressErrorsBetween, "tool", c.tool, "count", itoa(int(fw.recurringCount)))))
	}
	// Churn counts the variants that changed what was looked for: one question put to one
	// file after another (a check that no "//" comment is left, file by file) is a sweep
	// whose every "No matches found" is the answer wanted.
	if ch.saidAt == 0 && int(ch.guesses) >= d.cfg.ChurnRepeats-1 && int(ch.count) >= d.cfg.ChurnRepeats &&
		(int(ch.nothing) >= d.cfg.ChurnRepeats-1 || strings.TrimSpace(c.result) == "" && c.searches()) {
		ch.saidAt = ch.count
		return append(out, s.churnNotice(c, int(ch.count)))
	}
	// Told at ErrorRepeats, and again each time the count doubles when every run since the
	// notice answered exactly as the one told: a Llama run edited a sleep's length 23 times,
	// each run of its script timing out after the edit as before, and was told once, at the
	// fourth (validation round r169b). Runs whose output moved (debug prints added between
	// them, around the same failure) show the model something new each time, and are not
	// told again.
	if r := rf; r != nil && r.epochs >= 1 && (r.saidAt == 0 && r.reached(d.cfg.ErrorRepeats) || r.saidAt > 0 && r.count >= 2*r.saidAt && r.same > r.count-r.saidAt) {
		r.saidAt = r.count
		return append(out, s.notice(c.agent, KindErrors, c.tool+" failed × "+itoa(int(r.count)),
			fill(s.d.cat.progressRefail, "tool", c.tool, "count", itoa(int(r.count)), "edits", itoa(int(r.epochs)))))
	}
	// The same command failing alike at its fourth run with nothing changed since the first,
	// other calls between, is as stuck: the reads and probes between changed nothing it
	// depends on, and nothing that could fix it was tried (a run of four failing alike with
	// edits between is told above, as edits not reaching the cause). Results need only be
	// alike, as for the errors rule (a shell's line count, a timestamp, one more test
	// failing). Not when a notice came since the chain's first failure: the loop it is part
	// of was told (a cycle going round, the same call stuck), and a second notice on it is
	// noise. Nor after a wait, which makes the runs a poll.
	if r := rf; r != nil && r.saidAt == 0 && r.epochs == 0 && r.reached(d.cfg.ErrorRepeats) && int(s.stuck) < d.thresholds[0] &&
		s.lastWait <= r.start && s.saidAt < r.start {
		r.saidAt = r.count
		return append(out, s.notice(c.agent, KindErrors, c.tool+" failed × "+itoa(int(r.count)),
			fill(s.d.cat.progressRefailIdle, "tool", c.tool, "count", itoa(int(r.count)))))
	}
	if r := rf; r != nil && r.saidAt == 0 && r.epochs == 0 && repeatsLast && int(r.same) == d.thresholds[0] && int(s.stuck) < int(r.same) && s.lastWait <= r.start {
		// The same call failing the same way with nothing changed since its first run is
		// stuck, however far apart the runs: the reads and probes between them (further
		// back than the window stuck looks over) changed nothing the call depends on. Said
		// once, at the count stuck would first speak at (of failures ending exactly alike:
		// a chain that began with a slightly different failure, another file listed as
		// dirty, still speaks at the third identical one after it), and only when stuck did
		// not see the runs itself; the chain stays open for a failure that outlasts later
		// edits. A wait since the first run makes the runs a poll (a check that a slow
		// install has finished), as it does for stuck.
		return append(out, s.stuckNotice(c, int(r.same)))
	}
	// A poll is noted once past its budget. One whose answer has not changed since (a job
	// that hung, a server that never came up, a build log that moved and then stopped) is a
	// wait that may never end: it is noted again each time the count doubles, with what was
	// seen. One answered exactly the same every time, checked again at once every time, is
	// noted sooner (IdlePollBudget): its checks cost a turn each and cannot bring anything
	// until time has passed.
	// (A poll read again after its answer changed counts its unchanged answers from there:
	// run.)
	run := s.polls - s.pollRun
	idle := s.pollSaidAt == 0 && !s.pollPaused && int(run) >= cls.idleBudget && (s.pollRun > 0 || !s.pollMoved)
	if idle || s.pollSaidAt == 0 && int(s.polls) >= cls.pollBudget || s.pollSaidAt > 0 && !s.pollMoved && run >= 2*s.pollSaidAt {
		n := s.polls // the budget counts every check of the poll
		if idle || s.pollSaidAt > 0 {
			n = run // these speak of the answers that have not changed
		}
		s.pollSaidAt = n
		out = append(out, s.pollNotice(c, int(n)+1, idle))
		s.pollMoved = false // from here on, whether it moves since this notice
		return out
	}
	return out
}

// declinedByUser says whether a failed call's result is the user refusing it (a permission
// prompt answered no, a call cancelled), as the agents word it: Claude Code's "The user
// doesn't want to proceed with this tool use", Cline's "The user denied this operation",
// Copilot's "The user cancelled the tool call", Codex's "rejected by user", Amazon Q's "Tool
// use was cancelled by the user". Only the result's opening is read, and only for the user
// named next to the refusal: "Permission denied" under /home/user, or MySQL's "Access denied
// for user 'root'", is a failure like any other (review r20 M2).
func declinedByUser(result string) bool {
	head := result[:min(len(result), 256)]
	if strings.HasPrefix(strings.TrimSpace(head), "[Operation Cancelled]") {
		return true // Gemini CLI's answer to a call its user cancelled or declined
	}
	if !containsFold(head, "user") {
		return false
	}
	for _, p := range declinePhrases {
		if containsFold(head, p) {
			return true
		}
	}
	return false
}

var declinePhrases = []string{"user doesn't want to", "user does not want to",
	"user denied", "denied by the user", "denied by user",
	"user rejected", "rejected by the user", "rejected by user",
	"user cancelled", "user canceled", "cancelled by the user", "canceled by the user", "cancelled by user", "canceled by user",
	"user declined", "declined by the user", "declined by user",
	"user did not allow", "user didn't allow",
	"user interrupted", "interrupted by the user", "interrupted by user"}

// argsWait says whether a check's arguments ask it to wait before it answers. "block" decides
// when it is given (true waits; false answers at once, whatever timeout is named beside it,
// as Claude Code's TaskOutput reads it); otherwise a timeout, delay, wait or yield time that
// is not 0, false or null (Copilot CLI's read_bash "delay", Codex's "yield_time_ms") waits,
// and a tool that blocks unless told otherwise (blocks: TaskOutput, whose "block" is true by
// default) waits. Read only for calls that wait, by the bytes, as readArgKeys does.
func argsWait(args []byte, blocks bool) bool {
	block, timed := 0, false // block: 0 not given, 1 true, -1 false
	for i := bytes.IndexByte(args, '"'); i >= 0 && i+1 < len(args); {
		at := args[i+1:]
		end := bytes.IndexByte(at, '"')
		if end < 0 {
			break
		}
		name := at[:end]
		// A key is its name between quotes and then a colon; "\"timeout\"" inside a string
		// value is the tool's data.
		if v := bytes.TrimLeft(at[end+1:], " \t\r\n"); len(v) > 0 && v[0] == ':' && bytes.IndexByte(name, '\\') < 0 {
			v = bytes.TrimLeft(v[1:], " \t\r\n\"")
			switch {
			case string(name) == "block":
				if bytes.HasPrefix(v, []byte("true")) {
					block = 1
				} else if bytes.HasPrefix(v, []byte("false")) {
					block = -1
				}
			case waitKey(name) && len(v) > 0 && v[0] != '0' && v[0] != 'f' && v[0] != 'n' && v[0] != '"':
				timed = true
			}
		}
		i += 1 + end + 1
		if next := bytes.IndexByte(args[min(i, len(args)):], '"'); next >= 0 {
			i += next
		} else {
			break
		}
	}
	switch {
	case block != 0:
		return block > 0
	case timed:
		return true
	}
	return blocks
}

// waitKey says whether a key's name is a wait's: it begins with timeout, delay, wait or
// yield_time, in any case ("timeout_ms", "delaySeconds", "Timeout").
func waitKey(name []byte) bool {
	for _, k := range waitKeys {
		if len(name) >= len(k) && strings.EqualFold(string(name[:len(k)]), k) {
			return true
		}
	}
	return false
}

var waitKeys = []string{"timeout", "delay", "wait", "yield_time"}

// saysNothing says whether a result opens by saying that the call found or reached nothing:
// "No matches found for ...", "The path /x does not exist", "No documents match ...",
// "Permission denied". Argument churn is the same non-answer to every variant of a call, a
// model guessing names, paths or hosts that all miss; the same answer of another kind to
// different arguments is a batch of distinct actions or look-ups, each answered (eight
// enrolments, six form fields clicked, eight emails sent, six tables counted).
func saysNothing(result string) bool {
	var buf [nothingWindow]byte
	n := copy(buf[:], result)
	head := buf[:n]
	for i, c := range head {
		if 'A' <= c && c <= 'Z' {
			head[i] = c + 'a' - 'A'
		}
	}
	for _, p := range nothingPhrases {
		if bytes.Contains(head, p) {
			return true
		}
	}
	return false
}

// searches says whether a call looks for something, so that an empty answer says it found
// nothing: a tool named for searching (grep, find_file, search_dir, Glob), or a command line
// whose program searches (find, grep, rg, locate, which, ...), or a pipeline ending in one.
// An empty answer to another command (mkdir, cp, sed -i) says it succeeded, and a batch of
// them is not churn.
func searches(tool string, args []byte) bool {
	if namedForSearching(tool) {
		return true
	}
	_, line, _, ok := commandLine(args)
	if !ok {
		return false
	}
	a := bytes.TrimSpace(args)
	inJSON := len(a) > 0 && a[0] == '{'
	// The program that answers: the first of the line, or the last of a pipeline ("git branch
	// | rg -e X" exits as rg does), passing over the stages after it that only pass on, cut
	// or reorder what it wrote: "curl ... | grep -o X | head -5" answers nothing when grep
	// found nothing.
	end := len(line)
	for {
		p, or := lastPipe(line[:end], inJSON)
		if p < 0 || or {
			return isOneOf(programOf(line), searchPrograms[:])
		}
		program := programOf(line[p+1 : end])
		if !isOneOf(program, passOnPrograms[:]) {
			return isOneOf(program, searchPrograms[:])
		}
		end = p
	}
}

// lastPipe returns where the last pipe of a command line is, the shell's '|' between two
// stages, and whether it is one of "||"; -1 when there is none. A '|' the shell quotes or
// escapes is a byte of a word: `grep -r "fnIdent\|callerIdent" dist` and `rg 'a|b' src`
// are one program, whose empty answer is nothing found (validation round r158b M1: seven
// such greps answered empty in a row were read as commands that worked, and the churn of a
// search was never seen). In JSON (inJSON) the line's escapes are read as the shell gets
// them: \" is a quote, \\ a backslash.
func lastPipe(line []byte, inJSON bool) (at int, or bool) {
	at = -1
	var q shellQuoting
	for i := 0; i < len(line); {
		c, w := line[i], 1
		if inJSON && c == '\\' {
			c, w = jsonEscape(line[i:])
		}
		if q.bare(c, !inJSON || w > 1) && c == '|' {
			or = at >= 0 && at == i-1 // the second '|' of "||"
			at = i
		}
		i += w
	}
	return at, or
}

// namedForSearching says whether a tool's name says it searches (grep, find_file, search_dir,
// Glob): a tool of its own, whose host answers "nothing found" as an answer, not a shell
// command's exit status.
func namedForSearching(tool string) bool {
	for _, w := range searchToolWords {
		if containsFold(tool, w) {
			return true
		}
	}
	return false
}

// programOf is the first word of a command line.
func programOf(line []byte) []byte {
	i := skipCommandSpace(line, 0)
	return line[i:wordEnd(line, i)]
}

// isOneOf says whether word is one of names, without converting it (searches runs for many
// calls; a string of it would be allocated each time).
func isOneOf(word []byte, names []string) bool {
	for _, n := range names {
		if string(word) == n {
			return true
		}
	}
	return false
}

// searchDiagnostic says whether s holds a line that a search's pipeline wrote about itself:
// its name and a colon ("find: paths must precede expression", "sort: invalid field
// specification", "grep: invalid option"), as the programs report their usage errors. Such a
// search failed; it did not find nothing (a weak model's find with a bad expression, piped
// through sort, failed the same way eight times untold).
func searchDiagnostic(s string) bool {
	for s != "" {
		var line string
		line, s, _ = strings.Cut(s, "\n")
		colon := strings.IndexByte(line, ':')
		if colon <= 0 || colon > 8 {
			continue
		}
		name := line[:colon]
		if strings.HasPrefix(line[colon+1:], " no ") {
			continue // which's answer that it found nothing: "which: no python3.11 in (...)"
		}
		if slices.Contains(searchPrograms[:], name) || slices.Contains(passOnPrograms[:], name) {
			return true
		}
	}
	return false
}

// searchToolWords name tools that search; searchPrograms, shell programs that do.
var (
	searchToolWords = [...]string{"grep", "find", "search", "glob", "locate"}
	// Windows' findstr and where exit 1 when they find nothing, as grep and which do
	// (validation round r61a: `npm run build | findstr /i "error"` finding nothing after clean
	// builds).
	searchPrograms = [...]string{"find", "grep", "egrep", "fgrep", "rg", "ag", "ack", "locate", "fd", "which", "whereis",
		"findstr", "where"}
	// passOnPrograms write nothing when given nothing (wc, which prints 0, is not one)
	passOnPrograms = [...]string{"head", "tail", "sort", "uniq", "cut", "tr", "cat"}
)

// shortNonAnswer is saysNothing for an answer of two words ("Nothing happens.", "Not
// found."), which every short answer of a call is asked: every phrase of nothingPhrases holds
// an 'n' but "0 results", and most short answers ("12: ok") are ruled out by a look or two.
func shortNonAnswer(result string) bool {
	for i := 0; i < len(result); i++ {
		if c := result[i]; c|0x20 == 'n' || c == '0' && i+2 < len(result) && result[i+1] == ' ' && result[i+2]|0x20 == 'r' {
			return saysNothing(result)
		}
	}
	return false
}

// pollsWhatIsGone says whether a call's answer is a failure saying that what the call names
// does not exist: failed, or opening with a failure or an error field, saying "not found",
// "does not exist" or "no such", and naming an id of the call's arguments (a token of six
// bytes or more holding a digit). A service not up yet answers "not found" too, to a poll that
// names no such id, and is waited for (validation round r151a: a deploy polled with curl).
//
// A host may say so in words alone, opening its answer with them ("No session found for
// 2841"): such an answer is the poll failing, as an error would be (validation round r162a M1,
// M2: two OpenClaw runs polled background commands by their pids where the tool wanted the
// session's name, six times each, every answer "No session found for <pid>", and were let be
// as polls).
func pollsWhatIsGone(c *observedCall) bool {
	none := opensNoneFound(c.result)
	if !c.failed && !none && !opensWithFailure(c.result) && !reportsErrorField(c.result) {
		return false
	}
	w := markWindow(c.result)
	if !none && !containsFold(w, "not found") && !containsFold(w, "does not exist") && !containsFold(w, "doesn't exist") && !containsFold(w, "no such ") {
		return false
	}
	return namesAnIDOf(w, c.args)
}

// opensNoneFound says whether an answer's first line opens by saying that no such thing was
// found: "No", one or two words, "found" ("No session found for 2841", "No process found",
// "No such job found").
func opensNoneFound(result string) bool {
	line := strings.TrimLeft(result, " \t\r\n")
	line, _, _ = strings.Cut(line[:min(len(line), 200)], "\n")
	rest, ok := strings.CutPrefix(line, "No ")
	if !ok {
		return false
	}
	for words := 0; words < 2; words++ {
		w, after, ok := strings.Cut(rest, " ")
		if !ok || w == "" {
			return false
		}
		if after == "found" || strings.HasPrefix(after, "found ") || strings.HasPrefix(after, "found:") || strings.HasPrefix(after, "found.") {
			return true
		}
		rest = after
	}
	return false
}

// namesAnIDOf says whether text holds a token of args that looks like an id: six bytes or
// more of letters, digits and '-', one of them a digit; or, shorter, the whole of a string
// the arguments hold, with a digit, named in the text as a word of its own (a pid, "2841",
// passed as a session's id: a number the arguments hold unquoted is a count or a timeout).
func namesAnIDOf(text string, args []byte) bool {
	for i := 0; i < len(args); {
		j := i
		digit := false
		for j < len(args) && (isWordByte(args[j]) || args[j] == '-') {
			digit = digit || '0' <= args[j] && args[j] <= '9'
			j++
		}
		if digit && j-i >= 6 && strings.Contains(text, string(args[i:j])) {
			return true
		}
		if digit && j > i && i > 0 && args[i-1] == '"' && j < len(args) && args[j] == '"' && holdsWordOf(text, args[i:j]) {
			return true
		}
		i = j + 1
	}
	return false
}

// holdsWordOf says whether text holds tok with no letter, digit or '-' on either side.
func holdsWordOf(text string, tok []byte) bool {
	for i := 0; ; {
		k := strings.Index(text[i:], string(tok))
		if k < 0 {
			return false
		}
		at, end := i+k, i+k+len(tok)
		if (at == 0 || !isWordByte(text[at-1]) && text[at-1] != '-') && (end == len(text) || !isWordByte(text[end]) && text[end] != '-') {
			return true
		}
		i = at + 1
	}
}

// containsFold says whether s holds word (written in lower case), ASCII letters compared
// without case; any other byte is compared as it is (the '_' of "page_down", the apostrophe
// of "doesn't"): no other byte stands for it, as when every byte was folded with "| 0x20".
func containsFold[T string | []byte](s T, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		j := 0
		for j < len(word) && (s[i+j] == word[j] || 'A' <= s[i+j] && s[i+j] <= 'Z' && s[i+j]+('a'-'A') == word[j]) {
			j++
		}
		if j == len(word) {
			return true
		}
	}
	return false
}

// nothingPhrases say that nothing was found or reached (lower case).
var nothingPhrases = [][]byte{[]byte("no match"), []byte("not found"), []byte("does not exist"),
	[]byte("doesn't exist"), []byte("no such"), []byte("no result"), []byte("0 results"),
	[]byte("no document"), []byte("no file"), []byte("nothing"), []byte("denied"), []byte("no entr"),
	[]byte("not exist"), []byte("could not find"), []byte("cannot find"), []byte("unable to find"),
	// a search refused for matching too much (SWE-agent: "More than 100 files matched for …
	// Please narrow your search.") brought nothing back either
	[]byte("narrow your search"), []byte("narrow down your search")}

// nothingWindow is how much of a result's opening saysNothing reads.
const nothingWindow = 256

// digestResult digests a call's result. A command's output that a tool heads with how the
// command ran (Codex: "Chunk ID: …", "Wall time: …", "Process exited with code 0", "Output:")
// is digested as two parts: the header counts in the result's identity (an exit status that
// changes is a changed result) but not in what the answer says, so that six commands printing
// six different one-word answers under the same header are not "the same answer", an empty
// output is too short to compare, and a failure's first line is its own.
// args are the call's arguments without their captions (callID): what the model asked of the
// tool, which its answer may restate. A caption ("description": why the model runs it) is
// for people; masking its words in the answer made two alike failures of one command, their
// captions worded apart, look different.
func (s *progressState) digestResult(c *observedCall, args []byte) digest {
	result, header := c.result, ""
	if n := execHeaderEnd(result); n > 0 {
		header, result = result[:n], result[n:]
	}
	var head digest
	if header != "" {
		head = s.dg.digest(header, false, false)
	}
	result, s.meterBuf = withoutTransferMeter(result, s.meterBuf)
	result = withoutTrailers(result)
	echo := len(result) > 0 && len(result) < longTextBytes // see digest: short answers only
	if echo {
		s.dg.setEcho(args)
	}
	dg := s.dg.digest(result, echo, s.spoke)
	c.answer, c.answerArgs = result, args
	if header != "" {
		dg.exact, dg.masked = combine(dg.exact, head.exact), combine(dg.masked, head.exact)
	}
	return dg
}

// withoutTrailers returns result without what the harness or the terminal wrote after the
// command's output about itself: SWE-agent's status lines (withoutStatusLines) and a shell's
// prompt that a terminal capture kept (withoutPromptLines).
func withoutTrailers(result string) string {
	return withoutStatusLines(withoutPromptLines(result))
}

// promptWindow is how much of a result's end withoutPromptLines looks at for a prompt's glyph.
const promptWindow = 512

// withoutPromptLines returns result without the shell prompt a terminal capture kept after the
// command's output: the lines at its end of which at least one holds a Powerline glyph
// (U+E0A0 to U+E0D7, the separators and icons of powerlevel10k, agnoster, oh-my-posh), with
// the lines of the prompt's frame around them (`╭─`, `╰─`, a `❯` alone). Such a prompt says
// where the shell stands: the directory, the git branch with counters of changed files, the
// last command's status and time, the clock. It changes with every run (the agent's own edits
// move the git counters, and the fill between the prompt's two sides widens or narrows with
// them), so a test failing four times alike across edits, its output captured by Cursor with
// the user's prompt under it, was four different answers and went untold (validation round
// r185b M1). Programs do not print those glyphs, which only a patched font can show; a frame
// line alone, with no glyph, is output (a table's border) and stays.
func withoutPromptLines(result string) string {
	tail := result[max(0, len(result)-promptWindow):]
	if strings.IndexByte(tail, 0xEE) < 0 {
		return result // almost every answer: one pass over its last bytes
	}
	cut := trailingLinesStart(result, isPromptLine)
	if cut <= 0 || !hasPowerlineGlyph(result[cut:]) || strings.TrimSpace(result[:cut]) == "" {
		return result
	}
	return result[:cut]
}

// isPromptLine says whether a line may be part of a shell's prompt: it holds a Powerline
// glyph, or is only the prompt's frame.
func isPromptLine(line string) bool { return hasPowerlineGlyph(line) || isPromptFrame(line) }

// trailingLinesStart returns where the lines at result's end that are all trailer lines (white
// space between them aside) begin, or -1 when its last line is none: the block a harness or a
// terminal wrote under a command's output (withoutStatusLines, withoutPromptLines).
func trailingLinesStart(result string, trailer func(line string) bool) int {
	cut := -1
	for end := len(result); ; {
		for end > 0 && isSpaceByte(result[end-1]) {
			end--
		}
		if end == 0 {
			return cut
		}
		start := strings.LastIndexByte(result[:end], '\n') + 1
		if !trailer(result[start:end]) {
			return cut
		}
		cut, end = start, start
	}
}

// hasPowerlineGlyph says whether line holds a character of U+E0A0 to U+E0D7 (UTF-8 EE 82 A0
// to EE 83 97), the Powerline range of the private use area that prompt themes draw with.
func hasPowerlineGlyph(line string) bool {
	for i := strings.IndexByte(line, 0xEE); i >= 0 && i+2 < len(line); {
		if b1, b2 := line[i+1], line[i+2]; b1 == 0x82 && b2 >= 0xA0 || b1 == 0x83 && b2 <= 0x97 {
			return true
		}
		next := strings.IndexByte(line[i+1:], 0xEE)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// isPromptFrame says whether line is only a prompt's frame: box-drawing characters (U+2500 to
// U+257F) and the prompt's sign (❯, $, %, #, >) between spaces, with a box-drawing character or
// a ❯ among them.
func isPromptFrame(line string) bool {
	frame := false
	for _, r := range line {
		switch {
		case r >= 0x2500 && r <= 0x257F || r == '❯':
			frame = true
		case r == '$' || r == '%' || r == '#' || r == '>' || r == ' ' || r == '\t':
		default:
			return false
		}
	}
	return frame
}

// statusLineHeads open the lines SWE-agent 0.x writes under every answer, about itself: the
// file its editor has open, the shell's directory, an interactive session.
var statusLineHeads = [...]string{"(Open file: ", "(Current directory: ", "(Interactive session: "}

// withoutStatusLines returns result without the status lines SWE-agent 0.x ends every answer
// with ("(Open file: /w/a.py)", "(Current directory: /w)", then its prompt "bash-$"), where an
// export keeps them in the answer. They say where the harness stands, not what the call
// brought: the same "File dandi/fields.py not found" after each of fifteen scripts written
// between its runs was fifteen different answers, each naming the script opened last, and
// went untold (validation round r169b). Only a block of such lines at the very end is taken
// off; a result that is nothing else is left as it is.
func withoutStatusLines(result string) string {
	end := len(result)
	for end > 0 && isSpaceByte(result[end-1]) {
		end--
	}
	if end == 0 || result[end-1] != '$' && result[end-1] != ')' {
		return result // almost every answer: one byte looked at
	}
	cut := trailingLinesStart(result, isStatusLine)
	if cut <= 0 || strings.TrimSpace(result[:cut]) == "" {
		return result
	}
	return result[:cut]
}

// isStatusLine says whether a line is one of SWE-agent's status lines or its prompt.
func isStatusLine(line string) bool {
	line = strings.TrimSpace(line)
	return line == "bash-$" || strings.HasSuffix(line, ")") && hasStatusHead(line)
}

// isSpaceByte says whether b is white space: a space, tab or line break.
func isSpaceByte(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func hasStatusHead(line string) bool {
	for _, h := range statusLineHeads {
		if strings.HasPrefix(line, h) {
			return true
		}
	}
	return false
}

// sweAgentViews says whether a call's command line runs one of SWE-agent's file viewers
// (open, goto, scroll_up, scroll_down), whose answer is a window of the file's text.
func sweAgentViews(args []byte) bool {
	_, line, _, ok := commandLine(args)
	if !ok {
		return false
	}
	prog, _ := spaceWord(line, 0)
	switch string(prog) {
	case "open", "goto", "scroll_up", "scroll_down":
		return true
	}
	return false
}

// curlMeterHead is in the first line of the progress meter curl writes to its error output
// while a transfer runs.
const curlMeterHead = "% Total    % Received % Xferd"

// withoutTransferMeter returns result without curl's progress meter: its two heading lines
// and the rows of byte counts, speeds and times under them. The meter says how the transfer
// went (the speed differs at every run, "151k", then "189k"), not what came back: kept, the
// same answer fetched again was new each time (a locked API asked the same thing three times
// went untold). buf is scratch space for the text around a meter; the result is returned as
// it is when it has none, as almost every result has not.
func withoutTransferMeter(result string, buf []byte) (string, []byte) {
	at := strings.Index(result, curlMeterHead)
	if at < 0 {
		return result, buf
	}
	start := strings.LastIndexByte(result[:at], '\n') + 1
	if strings.Trim(result[start:at], " \r") != "" {
		return result, buf // the heading's words inside a line of something else
	}
	end := len(result)
	rest := result[at:]
	for k := 0; rest != ""; k++ {
		line, next := rest, ""
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			line, next = rest[:nl], rest[nl+1:]
		}
		// the heading, its second line (Dload, Upload, ...), then rows of figures
		if k == 1 && !strings.Contains(line, "Dload") {
			return result, buf
		}
		if k > 1 && !meterRow(line) {
			end = len(result) - len(rest)
			break
		}
		rest = next
	}
	buf = append(append(buf[:0], result[:start]...), result[end:]...)
	return unsafe.String(unsafe.SliceData(buf), len(buf)), buf
}

// meterRow says whether a line is a row of curl's meter (or blank): figures, their units,
// times (--:--:--, 0:00:01) and the carriage returns between updates.
func meterRow(line string) bool {
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case '0' <= c && c <= '9', c == ' ', c == '\t', c == '\r', c == '-', c == ':', c == '.',
			c == 'k', c == 'M', c == 'G', c == 'T':
		default:
			return false
		}
	}
	return true
}

// execHeaderEnd returns where the output starts in a result headed the way Codex heads a
// command's output ("Chunk ID: …" or "Exit code: …", then lines up to "Output:"; a tool of
// its JavaScript REPL's, "Wall time: 2.05 seconds" then "Output:", whose header read as four
// different errors' first line made them one failure (validation round r113b F1); a code-mode
// cell's "Script completed" or "Script failed", the wall time, "Output:"), as Cline
// does ("Command executed successfully …"), or labelled the way OpenHands' trajectories and
// the datasets made from them label every answer ("OBSERVATION:" on a line of its own, or
// ReAct's "Observation:" before the text), or 0. The label is the harness's, the same over
// every answer: read as the answer's opening, it hid an editor's "ERROR:" under it, and six
// replacements rejected in seven calls went untold (validation round r67d M2).
func execHeaderEnd(result string) int {
	if len(result) == 0 || !headerFirsts[result[0]] {
		return 0 // most answers: one look
	}
	if n := observationLabelEnd(result); n > 0 {
		return n
	}
	if !slices.ContainsFunc(execHeaders[:], func(h string) bool { return strings.HasPrefix(result, h) }) {
		return 0
	}
	const mark = "\nOutput:\n"
	if i := strings.Index(result[:min(len(result), 512)], mark); i > 0 {
		return i + len(mark)
	}
	if strings.HasSuffix(result, "\nOutput:") { // nothing printed, and no newline after the label
		return len(result)
	}
	return 0
}

// execHeaders open the headers execHeaderEnd reads up to their "Output:" line.
var execHeaders = [...]string{"Chunk ID: ", "Exit code: ", "Wall time: ", "Command executed successfully",
	"Command failed with exit code", codexcell.Completed, codexcell.Failed}

// headerFirsts flags the first bytes of the headers execHeaderEnd knows: execHeaders and the
// observation labels (observationLabelEnd).
var headerFirsts = func() (t [256]bool) {
	for _, h := range execHeaders {
		t[h[0]] = true
	}
	t['O'] = true // "OBSERVATION:", "Observation:"
	return t
}()

// observationLabelEnd returns where the text starts after an "OBSERVATION:" or "Observation:"
// label that opens a result (and the spaces and line end after it), or 0.
func observationLabelEnd(result string) int {
	if len(result) < len("OBSERVATION:") || result[0] != 'O' || // most answers: one look
		!strings.HasPrefix(result, "OBSERVATION:") && !strings.HasPrefix(result, "Observation:") {
		return 0
	}
	i := len("OBSERVATION:")
	for i < len(result) && (result[i] == ' ' || result[i] == '\t' || result[i] == '\r') {
		i++
	}
	if i < len(result) && result[i] == '\n' {
		i++
	}
	return i
}

// codeSendsNoKeys says whether a cell of code that calls the agent's tools (Codex's code
// mode: `await tools.write_stdin({session_id: 4, chars: ""})`) only waits on a running
// command: it writes nothing to it and runs nothing else.
func codeSendsNoKeys(code []byte) bool {
	i := bytes.Index(code, writeStdinCall)
	if i < 0 || bytes.Contains(code, execCommandCall) || bytes.Contains(code, applyPatchCall) {
		return false
	}
	rest := code[i+len(writeStdinCall):]
	k := bytes.Index(rest, charsKey)
	if k < 0 {
		return false
	}
	rest = rest[k+len(charsKey):]
	if len(rest) > 0 && (rest[0] == '"' || rest[0] == '\'') {
		rest = rest[1:] // a quoted key
	}
	rest = bytes.TrimLeft(rest, " \t")
	if len(rest) == 0 || rest[0] != ':' {
		return false
	}
	rest = bytes.TrimLeft(rest[1:], " \t")
	return bytes.HasPrefix(rest, []byte(`""`)) || bytes.HasPrefix(rest, []byte(`''`))
}

// namesTypingKey says whether a call's arguments name one of typingKeys.
func namesTypingKey(args []byte) bool {
	for _, k := range typingKeys {
		if bytes.Contains(args, k) {
			return true
		}
	}
	return false
}

var (
	writeStdinCall  = []byte("write_stdin(")
	execCommandCall = []byte("exec_command(")
	applyPatchCall  = []byte("apply_patch(")
	charsKey        = []byte("chars")
)

// actionKey is where a tool with sub-commands names the one called; Antigravity's
// manage_task spells it actionKeyTitle.
var actionKey, actionKeyTitle = []byte(`"action"`), []byte(`"Action"`)

// typingKeys are the keys under which a call types into a terminal or a running command
// (see argKeys.sendsNoKeys): Terminus's {"keystrokes": "", "duration": 30}, Codex's
// write_stdin {"session_id": 4, "chars": ""}, OpenHands' execute_bash {"command": ""} ("can
// be empty to view additional logs" of a command still running). The first of them decides.
var typingKeys = [][]byte{[]byte(`"keystrokes"`), []byte(`"chars"`), []byte(`"command"`), []byte(`"cmd"`)}

// recentCall is what the window of recent calls keeps of each.
type recentCall struct {
	id, result uint64
	raw        uint64 // the answer's text hashed, when it reads a clock (see observeCall); else 0
	epochAfter uint32
	said       uint32 // the model's words before it (the thought's digest, truncated), 0 when none
	broke      bool   // it failed as the errors rule reads its outcome (followed.failed), whatever the host said
	count      int32  // the length of the no-progress chain this call ended
	failed     bool
	turn       uint64 // the reply that made it (observedCall.turn), 0 for none
	cutShort   bool   // its answer is the harness's word that it could not run it to the end (cutShort); kept in deny mode only
}

// flips says whether the call, made three times in a row, answers as it did two calls ago:
// an answer that flips between two states (a dropdown clicked open, then shut, then open) is
// not a poll that advances, whose notice would call the flipping progress; the cycle rule
// tells it (validation round r58c M2: 42 clicks on one element, told at 10 and 17, then
// reassured as a poll at 36).
func (s *progressState) flips(id, result uint64) bool {
	n := int(s.calls)
	if n < 2 {
		return false
	}
	r := &s.recent[(n-2)%len(s.recent)]
	return r.id == id && r.result == result && r.epochAfter == s.epoch
}

// leadLine is an answer's first line that says something, as the digest takes it for the lead:
// the first line of two fields, else the last of the lines before it; white space at its end
// and what a carriage return overwrote aside.
func leadLine(result string) string {
	lead := ""
	for rest := result; rest != ""; {
		line, after, _ := strings.Cut(rest, "\n")
		rest = after
		line = strings.TrimSuffix(line, "\r")
		if k := strings.LastIndexByte(line, '\r'); k >= 0 {
			line = line[k+1:]
		}
		if line = strings.TrimRight(line, " \t"); line == "" {
			continue
		}
		lead = line
		if hasTwoFields(line) {
			break
		}
	}
	return lead
}

// recentWindow is how far back the same call is looked for: long enough for a short cycle
// with bookkeeping between, short enough that a file read again much later is not a repeat
// (a long cycle is the cycle rule's, which follows up to MaxCyclePeriod calls back).
const recentWindow = 8

// recentRepeat finds the latest earlier occurrence of call id in the window. When it had the
// same result, failed alike, and nothing changed since, it returns that chain's length and how
// many calls back it was; otherwise 0 and the distance (0 when not found).
func (s *progressState) recentRepeat(id, result uint64, failed bool) (count int32, dist int) {
	n := int(s.calls)
	for d := 1; d <= recentWindow && d <= n; d++ {
		r := &s.recent[(n-d)%len(s.recent)]
		if r.id != id {
			continue
		}
		if r.result == result && r.failed == failed && r.epochAfter == s.epoch {
			return r.count, d
		}
		return 0, d
	}
	return 0, 0
}

// movedOnItsOwn says whether this call, a look the agent made before (the same call, dist calls
// back, in the same workspace) answered otherwise than then, with nothing the agent did in
// between to change it: what it looks at moves by itself (a worker writing to its worktree, a
// job's log, a queue), so the agent is watching, and its other looks that answer the same as
// before are the checks of a watch that has not moved yet, not calls that cannot tell it
// anything new. Codex watching a background worker, its worktree's `git diff --name-only`
// answering the same three times while the worker's status and screen moved at each round,
// was told "stuck" three calls before the diff grew (validation round r62a F1). A call whose
// answer is not known, a failing one, and a call that writes are no such look.
func (s *progressState) movedOnItsOwn(c *observedCall, id, result uint64, mut bool, dist int, prevCount int32, onScreen bool) bool {
	if dist == 0 || prevCount > 0 || mut || c.failed || !c.hasRes || onScreen {
		return false
	}
	r := &s.recent[(int(s.calls)-dist)%len(s.recent)]
	return r.id == id && r.epochAfter == s.epoch && !r.failed && r.result != result
}

// cycleForming says whether a repeat dist calls back belongs to a cycle in the making: the
// calls since it repeat the ones before it. The cycle rule speaks for those.
func (s *progressState) cycleForming(dist int) bool {
	return dist >= 2 && dist <= s.d.cfg.MaxCyclePeriod && int(s.runs[dist]) >= dist
}

// remindAt says whether a chain of length n is reminded: at each threshold, then every
// RemindEvery further.
func (s *progressState) remindAt(n int) bool {
	th := s.d.thresholds
	if slices.Contains(th, n) {
		return true
	}
	last := th[len(th)-1]
	every := s.d.cfg.RemindEvery
	return every > 0 && n > last && (n-last)%every == 0
}

// cycleRemindsSoon says whether a cycle of period k, at rounds, is due its next reminder
// within the quiet calls a notice now would begin: a held reminder then gives way to it, as
// a held same-call reminder gives way to the 6th. Told at its 4th round, a cycle of two calls
// was told again at its 6th, four calls on, or lost it to the quiet calls, as the notices
// fell (validation round r208a).
func (s *progressState) cycleRemindsSoon(k, rounds int) bool {
	for r := rounds + 1; (r-rounds)*k <= s.d.cfg.QuietCalls; r++ {
		if s.remindAt(r) {
			return true
		}
	}
	return false
}

// cyclePeriod returns the shortest period k whose cycle has come round at least twice in
// full after its first pass (runs[k] >= 2k), or 0. A "cycle" of one call repeated is stuck,
// not a cycle: the last k keys must not all be the same.
func (s *progressState) cyclePeriod() int {
	if !s.cycleDue {
		return 0
	}
	n := int(s.calls)
	rounds := s.d.thresholds[0] - 1 // full rounds after the first
	maxK := min(s.d.cfg.MaxCyclePeriod, maxPeriod)
	for k := 2; k <= maxK; k++ {
		if int(s.runs[k]) < rounds*k {
			continue
		}
		first := s.ring[uint(n-1)%ringSize]
		for i := 1; i < k; i++ {
			if s.ring[uint(n-1-i)%ringSize] != first {
				return k
			}
		}
	}
	return 0
}

// dropChain forgets the tool chain of tool, if any.
func (s *progressState) dropChain(tool uint64) {
	s.chains = slices.DeleteFunc(s.chains, func(c toolChain) bool { return c.tool == tool })
}

// failureIdentity is what a failure of a named kind (kind, its line's signature sig) is known
// by, whatever the text around it (the line in the source it points at, the code it quotes),
// or 0: its line when the line says its cause in words of its own (namesItsCause), else its
// line and the line of code it quotes (quotedSourceLine), else nothing. A weak model's four
// scripts in a row, each its own function cut off unclosed, all failed "SyntaxError: EOF while
// scanning triple-quoted string literal" at another line under another name, and were not one
// failure by the whole answer (validation round r159b M1). A message that only says a failure
// happened is known by the code it quotes: the same "SyntaxError: invalid syntax" under the
// same line five times in a row is one failure (validation round r160a M3), under another
// line each time it is one syntax error fixed after another.
func failureIdentity(sig, kind uint64, line, said string) uint64 {
	switch {
	case kind == 0:
		return 0
	case namesItsCause(line):
		return sig
	}
	if code := quotedSourceLine(said, line); code != "" {
		return combine(sig, hashString(code))
	}
	return 0
}

// echoedFailureSite returns, for a failure's line whose message quotes a word of the call's
// own arguments, the hash of where it was raised in a script the call names: the last
// Python frame ("File \"/w/./x.py\", line 9, in <module>") whose file's name is in the
// arguments, by that name and line. 0 when the message quotes nothing of the call's, or no
// frame is in the call's script.
//
// Such a failure is known by its kind and that line as well as by its own words (a chain
// keeps both): a model guessing a column's name, the same statement failing with another
// guess each time (`KeyError: 'beak_depth'`, then `'Beak Depth (mm)'`), is not reaching the
// cause, which is that it has not looked (validation round r172c M1: a Qwen run rewrote its
// script fourteen times, each a KeyError for another guessed name at line 9, untold). One
// name fixed and the next statement failing is another line, and progress.
func echoedFailureSite(line, said string, args []byte) uint64 {
	_, msg, ok := strings.Cut(line, ": ")
	if !ok || !quotesFromArgs(msg, args) {
		return 0
	}
	tail := said[max(0, len(said)-4096):]
	for end := len(tail); end > 0; {
		at := strings.LastIndex(tail[:end], `File "`)
		if at < 0 {
			return 0
		}
		end = at
		rest := tail[at+len(`File "`):]
		path, rest, ok := strings.Cut(rest, `", line `)
		if !ok || strings.ContainsAny(path, "\n") {
			continue
		}
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		name := path[strings.LastIndexAny(path, `/\`)+1:]
		if n == 0 || len(name) < 4 || !bytes.Contains(args, []byte(name)) {
			continue
		}
		return combine(hashString(name), hashString(rest[:n])) | 1
	}
	return 0
}

// quotesFromArgs says whether msg holds a quoted word ('x' or "x", two bytes or more) that is
// in the call's arguments: a name the call wrote, which the failure names back.
func quotesFromArgs(msg string, args []byte) bool {
	for i := 0; i < len(msg); i++ {
		q := msg[i]
		if q != '\'' && q != '"' {
			continue
		}
		j := strings.IndexByte(msg[i+1:], q)
		if j < 0 {
			return false
		}
		if w := msg[i+1 : i+1+j]; len(w) >= 2 && bytes.Contains(args, []byte(w)) {
			return true
		}
		i += j + 1
	}
	return false
}

// namesItsCause says whether a failure's line says what went wrong in three words or more
// after its kind ("SyntaxError: EOF while scanning triple-quoted string literal", "fatal:
// Could not read from remote repository."), not only that something did ("SyntaxError:
// invalid syntax", "IndentationError: unexpected indent"): a message so generic is known by
// where it points, which the text around it says, and one syntax error fixed after another
// reads the same line each time.
func namesItsCause(line string) bool {
	_, msg, ok := strings.Cut(line, ": ")
	return ok && len(strings.Fields(msg)) >= 3
}

// quotedSourceLine returns the line of code a failure's report quotes just above its line
// (Python's traceback shows the line it stopped at, and for a syntax error a caret under it),
// trimmed; "" when the line above is a frame's heading ("File ..., line N") or there is none.
func quotedSourceLine(said, line string) string {
	i := strings.LastIndex(said, line)
	if line == "" || i < 0 {
		return ""
	}
	above := said[:i]
	for len(above) > 0 {
		above = strings.TrimRight(above, "\n\r")
		j := strings.LastIndexByte(above, '\n')
		l := strings.TrimSpace(above[j+1:])
		above = above[:j+1]
		if l == "" || strings.Trim(l, "^~ ") == "" {
			continue // a caret under the code, or a blank line
		}
		if strings.HasPrefix(l, "File ") || strings.HasPrefix(l, "Traceback ") {
			return ""
		}
		return l
	}
	return ""
}

func (s *progressState) chain(tool uint64) *toolChain {
	for i := range s.chains {
		if s.chains[i].tool == tool {
			return &s.chains[i]
		}
	}
	return nil
}

func (s *progressState) addChain(c toolChain) {
	if len(s.chains) == maxChains {
		copy(s.chains, s.chains[1:])
		s.chains = s.chains[:maxChains-1]
	}
	s.chains = append(s.chains, c)
}

// wouldRefuse says whether deny mode refuses the call now: the same call as the last one,
// after a no-progress chain of DenyAfter-1 or more, with nothing changed since; or a call
// refused before, with nothing changed since (a refusal stays once made).
func (s *progressState) wouldRefuse(c *observedCall) bool {
	d := s.d
	if d.cfg.Mode != ModeDeny {
		return false
	}
	cls := s.class(c.tool)
	if cls.ignored || c.refusedForm {
		return false // a harness's answer to a reply's form is no call a host could hold back
	}
	var id uint64
	id, _, s.argBuf = callID(c, readArgKeys(c.args).caption, sleepsFirst(cls.toolClass, c.args), s.argBuf)
	return s.refuses(id)
}

// refuses is wouldRefuse for a call whose identity is known (callID).
func (s *progressState) refuses(id uint64) bool {
	for _, r := range s.refused {
		if r.id == id && r.epoch == s.epoch {
			return true
		}
	}
	n := int(s.calls)
	for back := 1; back <= recentWindow && back <= n; back++ {
		r := &s.recent[(n-back)%len(s.recent)]
		if r.id == id {
			// Not when the run before was cut short by the harness (a timeout, a command it
			// could not execute): that answer is the harness's, and the next run may end
			// otherwise. A SWE-agent run's `open` answered "EXECUTION FAILED OR COMMAND
			// MALFORMED" three times in a cycle, then opened the file (validation round r193a).
			return r.epochAfter == s.epoch && int(r.count) >= s.d.cfg.DenyAfter-1 && !r.cutShort
		}
	}
	return false
}

func (s *progressState) refuse(c *observedCall) (string, bool) {
	if !s.wouldRefuse(c) {
		return "", false
	}
	return fill(s.d.cat.progressDeny, "tool", c.tool, "count", itoa(s.d.cfg.DenyAfter-1)), true
}

// notice builds every notice the detector tells. A notice told, on whatever loop, leaves a
// same-call reminder held through the quiet calls owed no more (stuckHeld).
func (s *progressState) notice(agent, kind, summary, text string) Notice {
	s.stuckHeld = 0
	return Notice{Agent: agent, Plugin: PluginProgress, Kind: kind, Summary: summary, Text: text}
}

func (s *progressState) stuckNotice(c *observedCall, n int) Notice {
	cat := s.d.cat
	if c.refusedForm {
		// Replies the harness answered for their form (no call it could run, several where
		// it runs one): no call was made, and there are no arguments to change (validation
		// round r193b: "(invalid call) has now run 6 times ... Do not call it again").
		return s.notice(c.agent, KindStuck, c.tool+" × "+itoa(n), fill(cat.progressStuckReplies, "tool", c.tool, "count", itoa(n)))
	}
	text := fill(cat.progressStuck, "tool", c.tool, "count", itoa(n))
	if n != s.d.thresholds[0] {
		text = fill(cat.progressStuckDetailed, "tool", c.tool, "count", itoa(n),
			"arguments", cutPreview(c.canonicalArgs(), 300, cat))
	}
	return s.notice(c.agent, KindStuck, c.tool+" × "+itoa(n), text)
}

func (s *progressState) cycleNotice(c *observedCall, k, rounds int) Notice {
	// The cycle's tools, oldest first, from the names kept in the recent-tool ring.
	seq := s.cycleTools(k)
	return s.notice(c.agent, KindCycle, "cycle of "+itoa(k)+" × "+itoa(rounds),
		fill(s.d.cat.progressCycle, "seq", seq, "period", itoa(k), "rounds", itoa(rounds)))
}

// cycleTools names the cycle's calls, oldest first: "view → grep → view" for a short cycle;
// a long one by its tools and how many of its calls each made, in the order they first
// came ("14 calls: str_replace_editor × 12, bash × 2"), which a model can read at a glance.
func (s *progressState) cycleTools(k int) string {
	var b strings.Builder
	n := int(s.tools.n)
	name := func(i int) string { return s.tools.names[(n-i+len(s.tools.names))%len(s.tools.names)] }
	if k <= longCycle {
		for i := k; i >= 1; i-- {
			if b.Len() > 0 {
				b.WriteString(" → ")
			}
			b.WriteString(name(i))
		}
		return b.String()
	}
	var seen [maxPeriod]bool
	first := true
	for i := k; i >= 1; i-- {
		if seen[i-1] {
			continue
		}
		count := 0
		for j := i; j >= 1; j-- {
			if name(j) == name(i) {
				seen[j-1] = true
				count++
			}
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(name(i) + " × " + itoa(count))
	}
	// Said in the notice's language: "the calls (8 of them: view × 6, grep × 2) have come round".
	return fill(s.d.cat.progressCycleLong, "period", itoa(k), "tools", b.String())
}

// longCycle is the longest cycle whose calls a notice names one by one.
const longCycle = 6

// errorsNotice tells of a tool failing alike n times; varied says whether its arguments
// changed on the way (else the notice must not say they did: an editor's resubmitted change,
// a harness rejecting replies that carried no call).
func (s *progressState) errorsNotice(c *observedCall, n int, varied bool) Notice {
	text := s.d.cat.progressErrors
	if !varied {
		text = s.d.cat.progressErrorsSame
	}
	return s.notice(c.agent, KindErrors, c.tool+" failed × "+itoa(n), fill(text, "tool", c.tool, "count", itoa(n)))
}

func (s *progressState) churnNotice(c *observedCall, n int) Notice {
	return s.notice(c.agent, KindChurn, c.tool+" same result × "+itoa(n),
		fill(s.d.cat.progressChurn, "tool", c.tool, "count", itoa(n)))
}

// pollNotice says that c was polled n times: still changing, or (stalled) answered the same
// every time, or (idle) answered the same every time with no wait before any check.
func (s *progressState) pollNotice(c *observedCall, n int, idle bool) Notice {
	text := s.d.cat.progressPoll
	switch {
	case (idle || !s.pollMoved) && sleepsOnly(c.args):
		text = s.d.cat.progressPollSleeps
	case idle:
		text = s.d.cat.progressPollIdle
	case !s.pollMoved:
		text = s.d.cat.progressPollStalled
	}
	return s.notice(c.agent, KindPoll, c.tool+" polled × "+itoa(n),
		fill(text, "tool", c.tool, "count", itoa(n)))
}

// thoughtNotice says that the model wrote the same thing n times, and what its calls did
// meanwhile: brought nothing new, or (sweep) kept moving to other places.
// saidBefore is what the model said before the call being observed, for unmovedCheck: the
// current thought's digest, truncated; 0 when the host feeds no words.
func (s *progressState) saidBefore() uint32 {
	if !s.spoke {
		return 0
	}
	return uint32(s.thought.exact) | 1
}

// noteUnmoved counts, for unmovedCheck, a call made again (its last run dist calls back, the
// call itself already in the recent ring) that answered exactly as its last run that did not
// fail, the workspace changed since; another answer starts the count afresh, and so, for the
// runs the same words came before (unmovedWords), do other words. A run that failed is the
// errors rule's, and neither counts nor starts the count afresh: an edit that broke the code
// once (a RecursionError), the next bringing the same wrong output back, did not move the
// check (validation round r178a C4). notCheck: the call changed the workspace, waited, or
// shows its outcome on a screen. A look at a file (looksAtFile) counts only while the same
// words come before it.
func (s *progressState) noteUnmoved(c *observedCall, cls classEntry, id uint64, dg *digest, dist int, failed, mut, notCheck bool, args []byte) {
	if failed {
		return
	}
	var r *recentCall // the check's last run that did not fail
	if dist > 0 {
		for d := dist; d < len(s.recent) && d < int(s.calls); d++ {
			if e := &s.recent[(int(s.calls)-1-d)%len(s.recent)]; e.id == id && !e.failed && !e.broke {
				r = e
				break
			}
		}
	}
	if r == nil {
		s.noteUnmovedAfar(c, cls, id, dg, mut, notCheck, args)
		return
	}
	said := s.saidBefore()
	switch {
	case r.id == id && r.result == dg.exact && r.failed == c.failed && r.epochAfter != s.epoch && checkAnswer(c, dg, notCheck, args):
		if s.unmovedID != id {
			s.unmovedID, s.unmoved, s.unmovedWords = id, 0, 0
		}
		if r.said == said && said != 0 {
			s.unmovedWords++
		} else {
			s.unmovedWords = 0
		}
		if s.unmovedWords == 0 && needsWords(c, cls, mut) {
			if !silentScript(c.result, c.args) {
				s.unmoved = 0
				return
			}
			if !s.editedRightAfter(dist) {
				return // (see silentScript)
			}
		}
		s.unmoved++
	case s.unmovedID == id:
		s.unmoved, s.unmovedWords = 0, 0 // the check answered otherwise
	}
}

// checkAnswer says whether a call's answer can show a check's outcome for noteUnmoved: the
// call is no change, wait or screen (notCheck), its answer has words, and it neither moves to
// another directory, which shows nothing an edit could change, nor reports success, a change
// verified (a failure is the errors rule's: told across the edits at its fourth).
func checkAnswer(c *observedCall, dg *digest, notCheck bool, args []byte) bool {
	return !notCheck && c.hasRes && (dg.words >= 3 || silentScript(c.result, c.args)) && !changesDirectory(c.tool, args) && !reportsSuccess(c.result, c.args)
}

// silentScript says whether a check is a script the model runs (an interpreter and a file of
// its language: `python reproduce_bug.py`) that printed nothing. Such a run counts as
// unchanged without the words when the model went from the previous run, as silent, straight
// to another change (editedRightAfter): it took the silence for the check's answer, and its
// edits did not move it. A SWE-agent run on Java added a print to its script and then one
// to each of a dozen methods, running the script after each edit, and the script printed
// nothing every time (validation round r217b M2). A run followed by anything else (a look
// at what the script wrote, a search) neither counts nor starts the count afresh. Silence
// from a build or a linter (`go build`, `tsc --noEmit`) is its verdict of success, and is
// not a script run.
func silentScript(result string, args []byte) bool {
	return printedNothing(result, args) && runsScriptFile(args)
}

// editedRightAfter says whether the call right after the check's run dist calls back changed
// the workspace.
func (s *progressState) editedRightAfter(dist int) bool {
	return dist >= 2 && dist < ringSize && s.changes&(1<<(uint(int(s.calls)-dist)%ringSize)) != 0
}

// scriptExtensions are the endings of the files runsScriptFile takes for scripts.
var scriptExtensions = []string{".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php", ".sh", ".R", ".jl", ".lua"}

// runsScriptFile says whether a call's command line runs a script file with an interpreter
// (interpreters): the interpreter, its options, then a file with a script's ending.
func runsScriptFile(args []byte) bool {
	_, line, _, ok := commandLine(args)
	if !ok {
		return false
	}
	prevInterpreter := false
	for i := 0; ; {
		var w []byte
		if w, i = spaceWord(line, i); len(w) == 0 {
			return false
		}
		if prevInterpreter {
			if w[0] == '-' {
				continue // python -u x.py
			}
			for _, ext := range scriptExtensions {
				if bytes.HasSuffix(w, []byte(ext)) {
					return true
				}
			}
		}
		prevInterpreter = isInterpreter(w)
	}
}

// needsWords says whether a check's run counts only while the same words come before it: a
// look at a file (looksAtFile), or a program that printed nothing (printedNothing), answers as
// before whatever the edits did.
func needsWords(c *observedCall, cls classEntry, mut bool) bool {
	return looksAtFile(c, cls, mut) || printedNothing(c.result, c.args)
}

// noteUnmovedAfar is noteUnmoved for a check whose last run is further back than the recent
// calls: OpenHands agents spend six to twelve calls editing between two runs of their script,
// and a run answering as the one before it, nine calls back, was neither counted nor started
// the count afresh (validation round r213a: a notice twelve calls late). It looks as far back
// as the cycle rule does (maxPeriod, 32 calls), in the ring that keeps each call's key (call
// and answer), the call, and whether it failed or changed the workspace; not the words before
// it, so such a run counts as one worded anew. followCycles, comparing the call's key with
// each of those calls already, notes the nearest beyond the recent ones (keyBack): without
// one, and no count under way for the call, there is nothing to look for.
func (s *progressState) noteUnmovedAfar(c *observedCall, cls classEntry, id uint64, dg *digest, mut, notCheck bool, args []byte) {
	counts := !notCheck && c.hasRes && dg.words >= 3
	if s.unmovedID != id && (!counts || s.keyBack == 0) {
		// Nothing to count (the same call and answer is not among the calls the cycle
		// rule looks back over, beyond the recent ones: keyBack), nor a count to start
		// afresh: most calls.
		return
	}
	n := int(s.calls)
	call := uint16(id)
	for i := n - 1 - recentWindow; i >= 0 && n-i <= len(s.runs); i-- {
		p := uint(i) % ringSize
		if s.marks[p].call != call || s.fails&(1<<p) != 0 {
			continue // another call, or a run that failed (the errors rule's)
		}
		switch {
		case s.ring[p] == combine(id, dg.exact) && s.changes&lastBits(n-1, n-2-i) != 0 &&
			checkAnswer(c, dg, notCheck, args) && !needsWords(c, cls, mut):
			if s.unmovedID != id {
				s.unmovedID, s.unmoved = id, 0
			}
			s.unmoved++
			s.unmovedWords = 0
		case s.unmovedID == id:
			s.unmoved, s.unmovedWords = 0, 0
		}
		return
	}
}

// unmovedCheck tells a check the model runs after its edits answering exactly as it did before
// them, time after time: ThoughtRepeats runs after edits, each answered as the run before the
// edit was, the model saying the same words before each ("The changes look good. Let's run
// our test script again"), or one run more whatever it said. A change of the workspace makes
// a call made again progress, and here the model's own check of its change shows none, again
// and again. OpenHands runs of Claude 3.5 Sonnet re-ran a script that printed the same wrong
// value after each of six to fifteen edits (in two of them the edits went to another copy of
// the code than the one that ran) and were never told (validation round r177b M1-M4); the
// same words before each run were the first evidence taken that the model expected a change.
// Worded anew each time, the same loop went untold in 4 of 12 OpenHands runs (r207b); four
// edits in a row that leave a check's answer exactly as it was are the evidence itself, one
// run more than when the words say so (round r212a judged 24 of 24 such notices true: the
// check printing the same wrong value, the model saying after it that the result is still
// wrong). A check that reports success (tests passed) is a change verified, not a loop. Told
// once for a check.
func (s *progressState) unmovedCheck(c *observedCall, id uint64, out []Notice) []Notice {
	n := s.d.cfg.ThoughtRepeats
	if s.unmovedID != id || int(s.unmovedWords) < n && int(s.unmoved) < n+1 || s.unmovedSaid == id || s.cyclePeriod() > 0 {
		// (While the calls go round a cycle in full, the cycle rule tells it.)
		return out
	}
	s.unmovedSaid = id
	text := s.d.cat.progressUnmoved
	switch {
	case silentScript(c.result, c.args):
		text = s.d.cat.progressUnmovedSilent // (its answer is the one counted: nothing)
	case int(s.unmovedWords) < n:
		text = s.d.cat.progressUnmovedReworded
	}
	return append(out, s.notice(c.agent, KindThought, c.tool+" unchanged across edits × "+itoa(int(s.unmoved)),
		fill(text, "tool", c.tool, "count", itoa(int(s.unmoved)))))
}

// programOutput is what a check's program printed, without what its host and shell wrote
// after it: SWE-agent's status lines and a terminal's prompt (withoutTrailers), Gemini CLI's
// fields (shellOutputBody), OpenHands' bracketed lines (isOpenHandsFooter), a shell hook
// failing after every command (withoutForeignNotFound). A check's verdict is the program's
// last line: six passing test runs under Gemini CLI, an edit before each, ended with its
// fields, and would have been read as a check whose edits changed nothing.
func programOutput(result string, args []byte) string {
	result = shellOutputBody(withoutTrailers(result))
	if cut := trailingLinesStart(result, isOpenHandsFooter); cut >= 0 {
		result = result[:cut]
	}
	return withoutForeignNotFound(result, args)
}

// openHandsFooters open the bracketed lines OpenHands writes under a command's output.
var openHandsFooters = [...]string{"[Command finished with exit code ", "[The command completed with exit code ",
	"[Current working directory: ", "[Python interpreter: ", "[Python Interpreter: "}

// isOpenHandsFooter says whether line is one of the lines OpenHands writes under a command's
// output about the command: its exit code, where it ran, which Python.
func isOpenHandsFooter(line string) bool { return startsWithOneOf(line, openHandsFooters[:]) }

// printedNothing says whether a check's program printed nothing: its output, without its
// host's closing lines (programOutput), empty or only a harness's word that there was none
// (SWE-agent's "Your command ran successfully and did not produce any output.", mini-swe-agent's
// empty <output>). Such a check shows nothing an edit could move: a script that only saves an
// image, run once more as the last look before finishing, 17 calls of successful work since
// its run before, was told as a check the edits did not reach (validation round r215a F1).
func printedNothing(result string, args []byte) bool {
	out := strings.TrimSpace(programOutput(result, args))
	if rest, ok := strings.CutPrefix(out, "<returncode>"); ok {
		if _, body, ok := strings.Cut(rest, "<output>"); ok {
			out = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(body), "</output>"))
		}
	}
	return out == "" || out == "Your command ran successfully and did not produce any output."
}

// looksAtFile says whether a call that did not write shows a file rather than runs a check: a
// read or an editor's view naming a file, a command that only prints files (cat, head, sed
// -n), SWE-agent's viewers. A file read again after edits elsewhere answers as before because
// nothing changed it: a look the model wants again, not a check its edits fail to move.
func looksAtFile(c *observedCall, cls classEntry, mut bool) bool {
	if mut {
		return false
	}
	if cls.mutating || cls.shows && namesAFile(c.args) {
		return true
	}
	if _, ok := printsFiles(c.args); ok {
		return true
	}
	return sweAgentViews(c.args)
}

// successWords and doubtWords are what a check's last line says when it reports success
// ("3 passed in 0.02s", "All checks passed!", "Issue resolved") and what takes that back
// ("Issue not resolved", "FAILED", "still wrong").
var (
	successWords = [...]string{"passed", "success", "succeeded", "resolved", "fixed", "works", "all good"}
	doubtWords   = [...]string{"fail", "error", "not ", "n't", "wrong", "expected", "mismatch", "still", "incorrect", "bug"}
)

// reportsSuccess says whether a check's answer reports success: a test runner's verdict
// (pytestPassed, endsWithSuccess: "OK", "Done"), or a last line that says it passed, worked
// or is fixed and takes none of it back. Such a check answering as before an edit is a change
// verified (a refactoring whose tests still pass), not an edit that failed to land.
func reportsSuccess(result string, args []byte) bool {
	result = programOutput(result, args)
	if endsWithSuccess(result, args) {
		return true
	}
	last := strings.ToLower(lastLine(result)) // (programOutput left the trailers out)
	for _, w := range doubtWords {
		if strings.Contains(last, w) {
			return false
		}
	}
	for _, w := range successWords {
		if strings.Contains(last, w) {
			// A last line of success speaks for the run only when no line above it reports
			// a failure: a script checking several cases prints its last case's "Passed"
			// under two that "Failed" (validation round r215a).
			body := strings.TrimRight(result, " \t\r\n")
			return !reportsFailedCase(body[:max(strings.LastIndexByte(body, '\n'), 0)])
		}
	}
	return false
}

// failedCaseWords are what a line of a check's output says of a case that did not pass.
var failedCaseWords = [...]string{"fail", "❌", "✗", "incorrect", "wrong", "mismatch"}

// reportsFailedCase says whether some line of a check's output says a case failed.
func reportsFailedCase(out string) bool {
	out = strings.ToLower(out)
	for _, w := range failedCaseWords {
		if strings.Contains(out, w) {
			return true
		}
	}
	return false
}

func (s *progressState) thoughtNotice(agent string, n, why int) Notice {
	text := s.d.cat.progressThought
	switch why {
	case thoughtSweep:
		text = s.d.cat.progressThoughtSweep
	case thoughtIdle:
		text = s.d.cat.progressThoughtIdle
	}
	return s.notice(agent, KindThought, "same thought × "+itoa(n),
		fill(text, "count", itoa(n), "preview", s.thoughtPreview))
}

// toolRing keeps the names of the last maxPeriod watched calls.
type toolRing struct {
	names [maxPeriod]string
	n     int32
}

func (r *toolRing) push(tool string) {
	r.names[int(r.n)%len(r.names)] = tool
	r.n++
}

// callOutcome is how the progress detector reads a call's outcome: failed when its host says
// so or its answer reads as a failure (looksFailed, for a look at a file only its opening),
// unless the program's own last word is success or a search found nothing; and what the
// call's own program said (its answer without a foreign shell hook's line). mut says whether
// the call writes. Engine.CallFailed gives hosts the same reading.
func callOutcome(c *observedCall, cls classEntry, mut bool) (failed bool, said string) {
	said = c.result // what the call's own program said: see withoutForeignNotFound
	failed = c.failed
	if !failed {
		if !mut && (cls.mutating || cls.shows && namesAFile(c.args)) {
			// A look at a file (a Read, an editor's view) answers with the file's text, which
			// may hold any failure mark: it failed only if its answer opens with the failure.
			// Four reads of a source file holding `"Error: " + msg`, an edit between each,
			// were told as one command failing the same way across changes. A small JSON
			// answer whose own error field says the read failed did fail: a file's text is
			// the answer's content, not its envelope (pochi's readFile answers a missing file
			// {"error": "ENOENT: no such file or directory, open '...'"}).
			// So does a tool's word, opening the answer, that the file named is not there
			// (SWE-agent's "File dvc/url.py not found").
			failed = opensWithFailure(c.result) || reportsErrorField(c.result) || namedTargetMissing(c.result, c.args)
		} else if mut && cls.mutating && reportsWriteDone(c.result) {
			// An editor's write whose answer says in its first or last line that the file was
			// written, and shows the file as it now is: the file's text may hold any mark
			// (two Claude Code edits whose snippet held "error:" read as failed edits;
			// validation round r100a U1).
			failed = false
		} else if failed = looksFailed(c.result) || programComplaint(c.result, c.args) || namedTargetMissing(c.result, c.args); failed && !mut {
			if prog, ok := printsFiles(c.args); ok {
				// A command that only prints files (cat, head, sed -n) answers with their text,
				// as a Read does: it failed if its answer opens with the failure, or with its
				// program's own complaint ("cat: x.py: No such file or directory"). Codex's
				// code mode keeps no exit status: four prints of a Rust source holding
				// "std::error::Error", patches to other files between, were told as one
				// command failing across edits (validation round r85a U1).
				failed = opensWithFailure(c.result) || complainsFirst(c.result, prog)
			} else if sweAgentViews(c.args) {
				// SWE-agent's own viewers sent through a shell tool, as exports that name
				// every call "bash" keep them: the answer is the file's window, as the open
				// tool's is (validation round r172a W2: a source file's "Error:" read as
				// `open dvc/lock.py` failing six times).
				failed = opensWithFailure(c.result) || namedTargetMissing(c.result, c.args)
			}
		}
	}
	if failed && !c.failed {
		failed, said = failedOutsideFilesText(c, said)
	}
	if failed && !c.failed {
		if s := withoutPageConsole(said); len(s) != len(said) {
			said = s
			failed = looksFailed(said) // the page's console messages are not the tool's failure
		}
	}
	if failed && strings.Contains(markWindow(c.result), "command not found") {
		if said = withoutForeignNotFound(c.result, c.args); !c.failed && len(said) != len(c.result) {
			failed = looksFailed(said)
		}
	}
	if failed && hasStartupFileError(markWindow(said)) {
		// The shell's complaints about its own startup files come before every command.
		if s := withoutStartupFileErrors(said, c.args); len(s) != len(said) {
			said = s
			if !c.failed {
				failed = looksFailed(said)
			}
		}
	}
	if failed && strings.Contains(said, "Remainder of file ignored") {
		// Python's report of a .pth file it could not read, before every program it runs.
		if s := withoutSiteErrors(said); len(s) != len(said) {
			said = s
			if !c.failed {
				failed = looksFailed(said)
			}
		}
	}
	// (After the hook's line is off: the program's last word is the line before it.)
	if failed && !c.failed && endsWithSuccess(said, c.args) && !reportsExitFailure(said) {
		failed = false // the program's own last word is success (see endsWithSuccess)
	}
	if failed && !c.failed && headerReportsExitZero(c.result) && oneProgramDecides(c.args) {
		// The host says the command exited with 0, and the command is one whose exit status
		// is its program's own verdict: what it logged along the way is not a failure. A
		// test runner that prints a browser's certificate noise ("ERROR: Failed parsing
		// extensions") at every run, green or red, was told five passing runs were the same
		// failure across edits (validation round r58a F1, F2). Behind a pipe, "||" or ";"
		// the status is another program's (`python repro.py 2>&1 | tail`), and says nothing.
		failed = false
	}
	if failed && targetAlreadyGone(c.tool, c.args, said) {
		failed = false // nothing left to stop (see targetAlreadyGone)
	}
	if failed && c.searches() && !hasFailureMark(markWindow(said)) && !reportsErrorField(c.result) && !searchDiagnostic(markWindow(said)) &&
		!opensWithFailure(said) && // the tool refused the call: a search never run found nothing (r167a W2)
		!shellRefused(said) && !serviceRefused(said) && // so did the shell that could not parse it, and the service that would not serve it
		!namedTargetMissing(said, c.args) && // and a search whose place to look is not there
		!(c.failed && namedForSearching(c.tool) && strings.TrimSpace(said) != "" && !saysNothing(said)) {
		// grep, rg and find exit with 1 when they find nothing: a search answered "nothing"
		// has not failed unless it says what went wrong ("grep: x: No such file or
		// directory", a search API's {"error": "rate limit exceeded"}). Three existence
		// checks that found nothing, each printing only a shell's banner, were told as one
		// command failing alike. A search tool of its own that its host says failed, and
		// whose answer is not that nothing was found, did fail: its host answers no match as
		// an answer ("Path is not within workspace" from a grep tool was read as a search
		// that found nothing).
		failed = false
	}
	return failed, said
}

// failedOutsideFilesText reads again an answer that reads as failed when what reads so may be
// the text of files the call shows, and returns whether it failed and what its program said:
//   - npm's word that it wrote a file, and the file ("Wrote to /app/package.json:", the JSON):
//     every `npm init -y` shows a test script that echoes "Error: no test specified";
//   - a search of files, whose lines are lines of those files, each headed by where it was
//     found: a failure mark in them is the files' text ("src/app.go:12: return
//     fmt.Errorf(\"Error: bad input\")"), not the search failing.
//
// Kept apart from callOutcome, which runs for every call: only answers that read as failed
// come here.
func failedOutsideFilesText(c *observedCall, said string) (bool, string) {
	if rest, ok := afterWrittenFile(said); ok {
		said = rest
		if !looksFailed(said) {
			return false, said
		}
	}
	if searchesFiles(c.tool, c.args) && marksOnlyInMatches(said) && !namedTargetMissing(said, c.args) {
		return false, said // (a search whose place to look is not there never searched)
	}
	return true, said
}

// afterWrittenFile returns what follows a program's report that it wrote a file and the
// file's JSON text, as npm prints it ("Wrote to /app/package.json:", a blank line, the
// object), and whether the answer opens so. 245 answers of the validation populations open
// so, most read as failed for the default test script inside the file.
func afterWrittenFile(said string) (string, bool) {
	t := strings.TrimLeft(said, " \t\r\n")
	rest, ok := strings.CutPrefix(t, "Wrote to ")
	if !ok {
		return "", false
	}
	head, body, ok := strings.Cut(rest, "\n")
	if !ok || !strings.HasSuffix(strings.TrimRight(head, "\r"), ":") {
		return "", false
	}
	b := unsafe.Slice(unsafe.StringData(body), len(body))
	i := jsonscan.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return "", false
	}
	end, err := jsonscan.Skip(b, i, jsonscan.Strict, 0)
	if err != nil {
		return "", false
	}
	return body[end:], true
}

// searchesFiles says whether a call searches files, so that its answer's lines are lines of
// those files: a tool named for searching that takes options, not a command line (Claude
// Code's Grep), or a command line whose first program searches (grep -rn, rg, ag, ack,
// findstr). A search fed by a pipe (`make 2>&1 | grep error`) searches another program's
// output, whose failures its matches are.
func searchesFiles(tool string, args []byte) bool {
	_, line, _, ok := commandLine(args)
	if !ok {
		return namedForSearching(tool)
	}
	return isOneOf(programOf(line), fileSearchPrograms[:])
}

// fileSearchPrograms search the contents of files (searchPrograms also holds those that look
// for names), or answer with the files' lines and names: SWE-agent's search_file heads each
// line it found with "Line 17:", and search_dir and find_file list files. A matched line's
// failure mark is the file's text (validation round r192b W2: `search_file "calendar"`, whose
// matches held `raise ConfigurationError(...)`, was read as a search failing four times).
var fileSearchPrograms = [...]string{"grep", "egrep", "fgrep", "rg", "ag", "ack", "findstr", "search_file", "search_dir", "find_file"}

// marksOnlyInMatches says whether every line of a search's answer that reads as failed is a
// match: a line headed by the file and line number it was found at ("src/app.go:12:", "12:"
// when one file is searched, SWE-agent's "Line 12:"), or by the file alone ("src/app.go:",
// a path with a '/' or a '.'). The first line of a window cut from a longer answer may be
// cut itself, and is passed over. Only the answer's last 2 KB (markWindow) are read, as for
// its marks.
func marksOnlyInMatches(said string) bool {
	s := markWindow(said)
	if len(s) < len(said) {
		if nl := strings.IndexByte(s, '\n'); nl >= 0 {
			s = s[nl+1:]
		}
	}
	for s != "" {
		var line string
		line, s, _ = strings.Cut(s, "\n")
		if !isMatchLine(line) && looksFailed(line) {
			return false
		}
	}
	return true
}

// isMatchLine says whether a line opens as a search's match does (see marksOnlyInMatches).
func isMatchLine(line string) bool {
	if rest, ok := strings.CutPrefix(line, "Line "); ok {
		line = rest
	}
	colon := strings.IndexByte(line, ':')
	if colon <= 0 {
		return false
	}
	head := line[:colon]
	if isDigits(head) {
		return true // "12:"
	}
	if strings.ContainsAny(head, " \t") {
		return false // "Error:", "fatal error:": words, not a file
	}
	if strings.ContainsAny(head, "/.") {
		return true // "src/app.go:" and perhaps its line number after
	}
	return false
}

// recurringFailure counts the failures of identity id among a tool's failures before (fails,
// newest first), this one included, when id is known.
func recurringFailure(id uint64, fails []uint64) int {
	n := 1
	for _, f := range fails {
		if f == id {
			n++
		}
	}
	return n
}

// cameBack reads the runs of the call just made since it last worked, as far back as the ring
// reaches, when this run's failure came back: the workspace changed since the run before,
// which failed otherwise (or worked not at all since), and an earlier run of the streak
// failed as this one (by failureIdentity, the line naming the failure: a traceback's quoted
// code and the order of its output move with each edit). It returns how many of the
// streak's runs came back so, how many runs the streak holds, and the index of the first
// that came back; 0, 0, -1 when this run did not come back.
//
// Ordinary debugging meets each failure once, and moves on to the next; a revert brings one
// back once. A third failure come back is a model trying one variant after another of the
// same fix, none reaching the cause.
func (s *progressState) cameBack() (back, runs int, first int32) {
	n := int(s.calls)
	cur := s.marks[uint(n-1)%ringSize]
	if cur.fail == 0 {
		return 0, 0, -1
	}
	// The streak's failures, newest first.
	var fails [ringSize]uint16
	var at [ringSize]int32
	for i := n - 1; i >= 0 && n-i <= ringSize; i-- {
		p := uint(i) % ringSize
		if s.marks[p].call != cur.call {
			continue
		}
		if s.fails&(1<<p) == 0 {
			break
		}
		fails[runs], at[runs] = s.marks[p].fail, int32(i)
		runs++
	}
	comesBack := func(j int) bool { // run j (newest first) came back
		f := fails[j]
		return f != 0 && f != fails[j+1] && s.changes&lastBits(int(at[j]), int(at[j]-at[j+1]-1)) != 0 &&
			slices.Contains(fails[j+2:runs], f)
	}
	if runs < 3 || !comesBack(0) {
		return 0, 0, -1
	}
	// Two failures at least among those that came back: one failure coming back between new
	// ones, each new approach failing its own way, is one failure that persists (the errors
	// across edits rule's), not a round of known ones (validation round r209a W1).
	var kinds [2]uint16
	for j := runs - 3; j >= 0; j-- { // oldest first: the two oldest cannot come back
		if comesBack(j) {
			if back++; back == 1 {
				first, kinds[0] = at[j], fails[j]
			} else if fails[j] != kinds[0] {
				kinds[1] = fails[j]
			}
		}
	}
	if kinds[1] == 0 {
		return 0, 0, -1
	}
	return back, runs, first
}

// raiseSite returns the line of a failing run's output that says where its failure (the line
// failureLineOf found) was raised: a Python traceback's innermost frame, the last `File "…",
// line N, in f` above that line, or the first frame of a stack printed below it (Java's,
// JavaScript's, C#'s "at …"); "" when the output shows none. A failure come back is one raised
// where it was before: the same message raised one line further on each time is a model
// fixing one site after another (validation round r209a F1: a filter converted from dict
// access to an object's methods, site by site).
func raiseSite(said, line string) string {
	i := strings.LastIndex(said, line)
	if line == "" || i < 0 {
		return ""
	}
	if j := strings.LastIndex(said[:i], `File "`); j >= 0 {
		frame, _, _ := strings.Cut(said[j:i], "\n")
		if strings.Contains(frame, "\", line ") {
			return frame
		}
	}
	below := said[i+len(line):]
	for range 3 {
		var next string
		next, below, _ = strings.Cut(strings.TrimLeft(below, "\r\n"), "\n")
		if frame := strings.TrimSpace(next); strings.HasPrefix(frame, "at ") {
			return frame
		}
	}
	return ""
}
