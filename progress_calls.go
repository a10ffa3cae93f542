package loopguard

// The progress detector's work on each call: its identity and result, the chains it extends,
// and the notice it is due (see progress.go for the rules and the state).

import (
	"bytes"
	"slices"
	"strings"
	"unsafe"

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
			if isThinkingTool(c.tool) {
				return s.observeMusing(c, out)
			}
			return out
		}
	}
	s.resent, s.resentN = 0, 0 // the model did something (resend)
	s.musingN = 0              // and something other than thinking (observeMusing)
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
	// A call that only widens how much it looks at is the same question (scopeID); sleeping
	// first is a wait, which callID already reads apart.
	var scope uint64
	if !sleeps {
		scope = scopeID(c.tool, args)
	}
	prevCount, dist := s.recentRepeat(id, scope, dg.exact, c.failed)
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
	again, remade := s.noteChange(c, id, cls.mutating, args, dg.exact, mut && !c.failed && !sameResult && !wroteNothing(cls.mutating, args, keys, c.result) && !installedNothing(args, c.result), waiting)
	rec.epochAfter = s.epoch
	s.recent[int(s.calls)%len(s.recent)] = recentCall{id: id, scope: scope, result: dg.exact, raw: raw, epochAfter: s.epoch, said: s.saidBefore(), count: s.stuck, failed: c.failed, turn: c.turn,
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
	// A change made again is one in what the call did, for the rules that read the calls'
	// record (a replay of calls that changed things, a check run across edits), though it
	// moved nothing the chains stand on (noteChange).
	setRingBit(&s.changes, s.calls-1, changedNow || remade)

	// errors and churn: this tool's run of near-identical outcomes, and the command's run of
	// failures across changes of the workspace.
	fw := s.followOutcome(c, cls, toolHash, &dg, id, args, callTraits{mut: mut, waiting: waiting, sleeps: sleeps, gone: gone})
	missing, missingName := s.noteMissing(c, fw.failed)
	lasting := s.noteLasting(c, cls, &fw, id)
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
		s.noteUnmoved(c, cls, id, &dg, dist, fw.failed, mut, waiting || keys.onScreen || cls.typesInput || keys.typesIntoRunning, args)
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
	if len(out) == before && lasting != nil {
		out = s.lastingCheck(c, lasting, fw.failLine, out)
	}
	if len(out) == before {
		out = s.unmovedCheck(c, id, out)
	}
	if len(out) == before {
		out = s.replayCheck(c, out)
	}
	if len(out) == before {
		out = s.rereadCheck(c, cls, key, mut || fw.failed, out)
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

// appliedInPart says whether an editor's answer says it applied only some of what it was sent:
// Roo Code's apply_diff, "Changes successfully applied to x:", then "But unable to apply all
// diff parts to file: ..., silently use <read_file> tool to check newest file version and
// re-apply diffs". The edit did not go as sent; it is taken as no change, and its answer as a
// failure (failureMarks): a Roo run re-read an unchanged file between six such answers, three
// of them to the same diff, each taken for a change that made the next read news (validation
// round r248a L1). What the parts that went through changed shows in what the calls after it
// answer, which the rules still compare.
func appliedInPart(result string) bool {
	return strings.Contains(result[:min(len(result), 1024)], "unable to apply all diff parts")
}

// noteChange moves the workspace's epoch for a call that changed it: a mutating call that
// went through, unless it repeats itself exactly (writing the same thing twice changes
// nothing the second time: mayChange is false then, as for a failed call). An editor that
// reports its failure only in its text (OpenHands' "ERROR:", Claude Code's <tool_use_error>)
// changed nothing; only the answer's opening is read, since a successful edit shows the code
// it wrote, which may well hold "Error:" or a traceback. Nor did an edit applied only in part
// (appliedInPart), as far as the rules go. Nor did a command its shell would
// not parse (refusedByShell), nor a request whose whole answer is an error envelope
// (reportsErrorField: an API's {"error": "Expected '\"' but got 'u'"} to a POST).
// It returns how many times in a row the call has made the same change as the call that
// last changed the workspace, or 0 when it made another; and whether it made one of the
// latest changes again, answered alike, after others (remadeChange), which does not move the
// epoch either.
func (s *progressState) noteChange(c *observedCall, id uint64, editorTool bool, args []byte, answer uint64, mayChange, waiting bool) (again int, remade bool) {
	if !mayChange || opensWithFailure(c.result) || refusedByShell(c.result) || reportsErrorField(c.result) || appliedInPart(c.result) {
		return 0, false
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
	change := editedTextKey(id, args) // the call, or the block an SWE-agent edit writes
	if change == id {
		change = scratchNamesMasked(id, c.tool, args)
	}
	var shape sketch
	shaped := false
	if s.changedBy == change && int(s.lastWait) <= int(s.changedAt)+1 && !waiting && c.hasRes &&
		!stepsThroughHistory(c.args) && s.changedShape.n >= 3 {
		shape, shaped = shapeSketch(c.result), true
		if similarity(&s.changedShape, &shape) >= 0.5 {
			s.reapplied++
			return int(s.reapplied), false
		}
	}
	if !shaped {
		shape = shapeSketch(c.result)
	}
	// An editor's answer shows the file it wrote; it is compared as written, since
	// normalising masks what an edit may change (a UUID's quotes removed).
	var shown uint64
	if shape.n >= 3 && (editorTool || sweAgentEdits(args)) {
		shown = hashString(c.result) | 1
	}
	if shown != 0 && shown == s.changedShown && !waiting {
		// An editor's change whose answer shows the file exactly as the answer of the latest
		// change, an editor's too, showed it (three lines or more, byte for byte: their
		// numbers and the file's length in lines among them) left the file as it was: an
		// SWE-agent run rewrote a line with the text already there, and its script failing
		// alike before and after the edit was taken for a failure across a change
		// (validation round r229b). A terse answer ("File
		// updated.") shows nothing of the file, and two of them say nothing of it; a command
		// line that writes a script and runs it answers with what the script printed. (An
		// answer not kept has a digest of its own, which nothing matches. A call taken for a
		// wait is left as it was: its answer is whatever runs at the time.)
		return 0, false
	}
	if !waiting && c.hasRes && !stepsThroughHistory(c.args) && s.remadeChange(change, answer) {
		return 0, true
	}
	s.changed()
	s.changedBy, s.changedAt, s.reapplied, s.changedShape, s.changedShown = change, s.calls, 1, shape, shown
	copy(s.latestChanges[1:], s.latestChanges[:len(s.latestChanges)-1])
	s.latestChanges[0] = madeChangeKey(change, answer)
	return 0, false
}

// changeMemory is how many of the latest changes remadeChange remembers.
const changeMemory = 4

// madeChangeKey is what latestChanges keeps of a change: what made it (noteChange's change)
// and its answer (a digest's exact hash), hashed together; never 0.
func madeChangeKey(by, answer uint64) uint64 { return combine(by, answer) | 1 }

// remadeChange says whether a change is one of the latest changes made again, answered as it
// was: the same script, the same command line (scratch names aside), the same edit, each
// answering alike. A round of changes made again, each as before, leaves the workspace as
// the round before left it, and the checks between them have nothing new to find: a Cursor
// run saved a file to a new scratch name, printed it as JSON and read the copy back thirty
// times, each save and each print a change of the workspace that made every check after it
// news (validation round r251d F2). A step through a history (an undo, a stash pop) is made
// again on purpose, each time going one step further, and is never taken for one
// (stepsThroughHistory).
func (s *progressState) remadeChange(by, answer uint64) bool {
	return slices.Contains(s.latestChanges[:], madeChangeKey(by, answer))
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
	// identity is the failure's identity (failureIdentity), 0 when it has none, and
	// failLine the line naming it (failureLineOf).
	identity uint64
	failLine string
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
		named, k := namedFailure(line) // the failure as its kind names it
		sig, kind = signatureOf(line, after), k
		kindSig = failureIdentity(sig, kind, named, said)
		if kind != 0 {
			if at := echoedFailureSite(named, said, c.args); at != 0 {
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
	// file when the arguments do not (lintRejection). How many errors it listed is read for
	// an edit sent through a shell too (SWE-agent's edit command, run by its one tool): a
	// rejection listing fewer than any before it in the chain is progress (fewerErrors).
	var lintFile uint64
	var lintCounted int
	if mut && failed {
		if errs, named, counted := lintRejection(said); errs != 0 {
			lintCounted = counted
			if editor {
				kind, lintFile = combine(kind, errs), named
			}
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
	// (What the program printed: under a harness's header, "Exit code: 0 … Output:" or
	// "rc=0", nothing is nothing found too.)
	foundNothing := dg.words == 0 && strings.TrimSpace(c.answer) == "" && c.hasRes && c.searches()
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
	// A rejection that lists fewer errors than any before it in the chain is no failure
	// alike, however it matches: the model is fixing what the linter lists, one by one.
	fewerErrors := lintCounted > 0 && ch != nil && ch.lintFewest > 0 && lintCounted < int(ch.lintFewest)
	// A failure does not go on with a chain that did not fail: answered as a success was (a
	// browser's page after a click that failed on it), it is an outcome of another kind, and
	// four clicks failing on one page had been counted with the page's load and never told
	// (validation round r260g R1).
	extends := ch != nil && ch.epoch == s.epoch && says && oneFile && !fewerErrors && (sameExact || sameLead || sameFile || sameLine || !ch.kindDiffers(kind) && s.alike(&ch.chainShape, c, dg)) &&
		!(failed && !ch.failed)
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
	if ch != nil && failed && ch.failed && ch.epoch == s.epoch && !fewerErrors {
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
	if lintCounted > 0 && (ch.lintFewest == 0 || lintCounted < int(ch.lintFewest)) {
		ch.lintFewest = uint8(min(lintCounted, 127)) // (its snapshot keeps seven bits)
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
	out.identity, out.failLine = kindSig, failLine
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
// any other call, and one that sleeps elsewhere than in a first step of its own (known by its
// sleepless identity already), by its identity id. A command line that waits first ("sleep 5
// && curl URL") is the command it runs after the wait, as commandKey reads it: the same
// experiment as `curl URL` run at once. It is asked only of a failure, or of a success while
// some chain is open (one it may end).
func (s *progressState) failureKey(c *observedCall, cls classEntry, id uint64, args []byte, sleeps, failed bool) (key, places uint64) {
	if sleeps && !waitsThenRuns(args) {
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
		(int(ch.nothing) >= d.cfg.ChurnRepeats-1 || strings.TrimSpace(c.answer) == "" && c.searches()) {
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
			return isOneOf(runProgramOf(line), searchPrograms[:])
		}
		program := runProgramOf(line[p+1 : end])
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

// runProgramOf is programOf, or for xargs the program it runs: "find . -name pom.xml | xargs
// grep -l izgateway" answers as grep does, nothing when it found nothing (validation round
// r258a: sixteen such searches, one number changed each time and every answer empty, read as
// commands that worked).
func runProgramOf(line []byte) []byte {
	i := skipCommandSpace(line, 0)
	e := wordEnd(line, i)
	if string(line[i:e]) != "xargs" {
		return line[i:e]
	}
	for {
		i = skipCommandSpace(line, e)
		e = wordEnd(line, i)
		w := line[i:e]
		if len(w) < 2 || w[0] != '-' {
			return w // the program, or nothing
		}
		// the options of xargs that take their value as the next word: -I {}, -n 1, -P 4
		if len(w) == 2 && strings.IndexByte("ILnPsdEa", w[1]) >= 0 {
			i = skipCommandSpace(line, e)
			e = wordEnd(line, i)
		}
	}
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

// recentCall is what the window of recent calls keeps of each.
type recentCall struct {
	id, result uint64
	scope      uint64 // its identity with its scope options' values left out (scopeID), 0 for none
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
// many calls back it was; otherwise 0 and the distance (0 when not found). A call not in the
// window by its id continues the chain of one of the same scope (scopeID, when not 0) that
// answered exactly so.
func (s *progressState) recentRepeat(id, scope, result uint64, failed bool) (count int32, dist int) {
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
	if scope == 0 {
		return 0, 0
	}
	// Not made before: a narrower look at the same thing answered exactly so is (scopeID).
	for d := 1; d <= recentWindow && d <= n; d++ {
		r := &s.recent[(n-d)%len(s.recent)]
		if r.scope == scope && r.result == result && r.failed == failed && r.epochAfter == s.epoch {
			return r.count, d
		}
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

// namedFailure returns a failure's line as the kind of failure it names opens it, and that
// kind (failureKind; 0 for none). A reporter may set a label before the failure it reports:
// mocha prints an uncaught error as "✖ ERROR: TypeError: Unknown file extension \".ts\" for
// ...", and a line so opened had no kind (its first colon closes "✖ ERROR"), so the failure
// had no identity to outlast the attempts by: one error met six times in sixteen calls by
// five different command lines, the model switching runners and flags, went untold
// (validation round r248a L5). The label is a word that says only error or fatal, in any
// case, after signs that set it off ("✖", "❌", "[", "]"), and is dropped only when what
// follows it names a kind of its own; the line is returned as it is otherwise. The kind is
// returned with the line so that it is worked out once.
func namedFailure(line string) (string, uint64) {
	i := 0
	for i < len(line) && !isWordByte(line[i]) {
		i++ // signs, spaces, and the bytes of a sign outside ASCII
	}
	j := i
	for j < len(line) && isWordByte(line[j]) {
		j++
	}
	if w := line[i:j]; !strings.EqualFold(w, "error") && !strings.EqualFold(w, "fatal") {
		return line, failureKind(line)
	}
	k := j
	for k < len(line) && (line[k] == ']' || line[k] == ')') {
		k++
	}
	rest, ok := strings.CutPrefix(line[k:], ": ")
	if !ok {
		return line, failureKind(line)
	}
	if kind := failureKind(rest); kind != 0 {
		return rest, kind
	}
	return line, failureKind(line)
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

// minRewrittenText is how long the block an edit writes must be for editedTextKey to know the
// edit by it: a block of code, not a short line, which a model may well write at several
// places on purpose.
const minRewrittenText = 40

// editedTextKey is what noteChange knows an edit by, to see the same change made again: for
// SWE-agent's line-range edit (`edit N:M` and its block), the block and the line N it starts
// at, whatever M, when the block is minRewrittenText bytes or more; the call itself
// otherwise. A model re-pasting the same block over a region it keeps missing re-guesses the
// range's end: an SWE-agent run sent one constructor over lines 52:52, 52:60, 52:59 and 52:59,
// each run adding a stray brace (validation round r243a); round r246a/b judged the notices this
// adds on SWE-agent runs 21 true of 25. noteChange still needs the answer to show the same
// place of the file. The same block at other first lines is a batch (one fix made at lines
// 77, 81, 85 and 89, whose answers, a hundred lines around each edit, overlapped: r246b). An
// editor that replaces old text is known by its call, as before: the same new text written
// over other old text changed the file each time (an OpenHands agent deleting one leftover
// chunk after another with the same kept line as new text: r246a, 9 false notices of 11).
func editedTextKey(id uint64, args []byte) uint64 {
	// SWE-agent's edit command, as sweAgentEdits knows it: the word "edit" opening the line
	line, _ := commandStart(args)
	if !bytes.HasPrefix(line, []byte("edit ")) {
		return id
	}
	// The block after the command's first line (a real line break or an escaped one), and
	// the line it starts at: "edit 52:59", from "edit " to the ':'.
	var first, block []byte
	if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
		first, block = line[:nl], line[nl+1:]
	} else if nl := bytes.Index(line, []byte(`\n`)); nl >= 0 {
		first, block = line[:nl], line[nl+2:]
	}
	colon := bytes.IndexByte(first, ':')
	if colon < 0 || len(block) < minRewrittenText {
		return id
	}
	// Hashed in place: the block is as long as the edit's text, and is only read here.
	return hashString(unsafe.String(unsafe.SliceData(block), len(block))) ^ hashString(string(first[:colon])) ^ rewrittenTextTag
}

// scratchNamesMasked returns a change's identity with the names of the temporary files its
// arguments write masked (the files under tempFolders), or id when they name none. A script
// run again to write what it wrote before under a new scratch name makes the same change
// again: a Cursor run saved one 548 KB file to a new /tmp name thirty times, read each copy
// back and printed it as JSON, saying the same thing every round, and each save, a new
// change of the workspace, began every chain afresh (validation round r251d F2: told 82
// calls late). A name made up afresh for scratch is volatile, as a digest takes it in an
// answer.
func scratchNamesMasked(id uint64, tool string, raw []byte) uint64 {
	args := unsafe.String(unsafe.SliceData(raw), len(raw)) // read only, within this call
	// Where each scratch folder is next named, from the end of the last name masked on: each
	// folder's names are looked for once, however many the arguments hold.
	var next [len(tempFolders)]int
	found := false
	for i, f := range tempFolders {
		next[i] = strings.Index(args, f)
		found = found || next[i] >= 0
	}
	if !found {
		return id
	}
	h := hashString(tool) ^ scratchTag
	from := 0 // args[from:] is not hashed yet
	for {
		at, which := -1, 0
		for i, n := range next {
			if n >= 0 && (at < 0 || n < at) {
				at, which = n, i
			}
		}
		if at < 0 {
			break
		}
		end := at + len(tempFolders[which])
		for end < len(args) && !endsScratchName(args, end) {
			end++
		}
		h = combine(h, hashString(args[from:at+len(tempFolders[which])]))
		from = end
		for i, n := range next {
			if n >= 0 && n < end {
				if k := strings.Index(args[end:], tempFolders[i]); k >= 0 {
					next[i] = end + k
				} else {
					next[i] = -1
				}
			}
		}
	}
	return combine(h, hashString(args[from:]))
}

// endsScratchName says whether args[i] ends a file's name in a command line or JSON text: a
// space, a quote or a shell's operator, or a JSON escape of a quote or of a line break.
func endsScratchName(args string, i int) bool {
	switch args[i] {
	case ' ', '\t', '\r', '\n', '"', '\'', '`', ';', '|', '&', '>', '<', ')', '(', ',':
		return true
	case '\\':
		return i+1 < len(args) && strings.IndexByte(`"'ntr`, args[i+1]) >= 0
	}
	return false
}

// scratchTag sets scratchNamesMasked's keys apart from calls' identities.
const scratchTag = 0x2545f4914f6cdd1d

// rewrittenTextTag sets editedTextKey's keys apart from calls' identities.
const rewrittenTextTag = 0x5bd1e9955bd1e995
