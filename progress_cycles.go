package loopguard

// Cycles of calls and their results, and stretches of calls made again with the same words
// before each (replays): the ring of recent keys the cycle rule and the replay rule read.

import "slices"

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
	var met uint64
	for k := 2; k < len(runs); k++ {
		r := runs[k] + 1
		if ring[(cur-uint(k))%ringSize] != key {
			r = 0
		} else {
			met |= 1 << k
			if k > recentWindow && s.keyBack == 0 {
				s.keyBack = int32(k)
			}
		}
		runs[k] = r
		need += rounds
		due |= need - 1 - r // negative when r >= rounds*k
	}
	ring[cur%ringSize] = key
	s.cycleDue = due < 0
	s.keyMet, s.keyReach = met, int32(len(runs)-1)
}

// replayMinPeriod is the shortest period a replay is told at: shorter cycles, of two to six
// calls, are the cycle rule's, told when they have come round three times, however alike the
// model's words.
const replayMinPeriod = 7

// redoMinPeriod is the shortest period a stretch made again with its answers moved (redoesAt)
// is told at. The cycle rule never tells such a loop, its rounds answered otherwise each time;
// four calls made again over a loop of three to six, with the same words before each, are a
// model regenerating its steps as surely as over a longer one.
const redoMinPeriod = 3

// replayLen is how many calls in a row a replay makes again before it is told: a stretch of
// four calls, each the same call as the one a period before (answered the same, or moved by the
// loop's own doing), the model's words before each the same too. Four steps regenerated word
// for word is a model going through what it did once more, not a look it needs again.
const replayLen = 4

// replayCheck tells a replay: the last replayLen calls made again, in order, as the ones a
// period of replayMinPeriod calls or more before, each answered exactly as then (replaysAt), or
// redoMinPeriod calls or more before, answered otherwise by the loop's own doing (redoesAt), the
// model saying the same words before
// each as it said then (replayWords), and at least three different calls among them (one call
// made again is stuck's, two in turn a short cycle's).
//
// A period of eight or ten calls comes round a third time, as the cycle rule waits for, twenty
// or thirty calls after the loop began: SWE-agent runs on Java tasks, after one edit, went
// through the same eight or ten searches, opens and gotos with the same thoughts, word for
// word, and ran out of budget untold (validation round r200a M1). Calls alike are not enough: a
// model re-reading a file after a detour makes the same calls again and is answered alike; it
// is the words, regenerated before each call, that say the model is going through what it did
// once more rather than looking again at what it needs.
//
// The four calls are counted from where both the calls and the words began to match: a model
// often rephrases its first thought or two of a round, and a count that followed the calls
// alone had passed four before the words matched, and never looked again. Told once a loop
// (replayTold); not when another notice came during the four, nor when the stretch is a cycle
// of six calls or fewer or a cycle is due, which the cycle rule tells; not for calls made again
// after a new change that all went through (changedAnew).
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
	for k := redoMinPeriod; k < len(runs); k++ {
		var msg string
		switch {
		case k >= replayMinPeriod && runs[k] >= replayLen && s.replaysAt(k):
			msg = s.d.cat.progressReplay
		case s.redoesAt(k):
			msg = s.d.cat.progressRedo // the answers moved: the notice does not say they are the same
		default:
			continue
		}
		if s.cyclePeriod() > 0 || s.replayTold() {
			return out
		}
		s.replayAt, s.replayPeriod = s.calls, uint8(k)
		return append(out, s.notice(c.agent, KindCycle, "replay of "+itoa(replayLen)+" calls, "+itoa(k)+" back",
			fill(msg, "count", itoa(replayLen), "period", itoa(k), "seq", s.cycleTools(replayLen))))
	}
	return out
}

// replayTold says whether the replay the last calls make is the one told last: one of its calls
// is among the calls that replay went through (its period and its four), while they are still
// in the ring of recent calls. Calls are compared as calls, whatever they were answered: a loop
// whose answers move by its own doing (redoesAt) was told at every lap of five calls while the
// answers told the laps apart (validation round r237a). A loop whose round now and then answers
// otherwise (a timeout, an edit landing on other lines) begins a new stretch of calls alike
// each time, at its period or at two or three of them: told at each, one loop was told nine
// times in ninety calls (validation round r201b). Once the told replay's calls have left the
// ring, a loop going on for more than 64 calls was told again at each new stretch (r202a): then
// the next reminder waits until the session has run twice as long as when the last was given,
// as the cycle rule doubles its rounds.
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
		call := s.marks[uint(n-1-j)%ringSize].call
		for i := from; i < int(s.replayAt); i++ {
			if s.marks[uint(i)%ringSize].call == call {
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
	for j := range replayLen {
		at, then := uint(n-1-j)%ringSize, uint(n-1-j-k)%ringSize
		said := s.marks[at].said
		if said == 0 || said != s.marks[then].said {
			return false
		}
		keys[j], words[j] = s.ring[at], said
	}
	if distinct(keys[:]) < 3 || distinct(words[:]) < 3 || s.verifiesNewChange(k) {
		return false
	}
	if n-1-replayLen-k < 0 {
		return true
	}
	at, then := uint(n-1-replayLen)%ringSize, uint(n-1-replayLen-k)%ringSize
	return int(s.runs[k]) < replayLen+1 || s.marks[at].said == 0 || s.marks[at].said != s.marks[then].said
}

// redoesAt is replaysAt for a stretch whose answers moved: the last replayLen calls are the
// calls made k before, in order, with the same words before each, the call before them not (or
// not with the same words), and the answers need not be the same as then, but something must
// show that what moved is the loop's own doing: one of the four calls answered exactly as then,
// or one of them a change of the workspace made again (the same call as k before). Llama SWE-
// agent runs went through their own debugging rounds again, edit, run, open, the same words
// before each, answered otherwise only by the file view of an edit sent again (the file a line
// longer each time) or one more debug line, and were told late or not at all while every answer
// had to match (validation rounds r236b, r237a, r237b: 34 such notices judged, all true). Reads
// all answered otherwise, with nothing the stretch did, are a look at a world that moved (a
// rebase under them), not a replay.
func (s *progressState) redoesAt(k int) bool {
	n := int(s.calls)
	if n-replayLen-k < 0 {
		return false
	}
	var calls, words [replayLen]uint16
	changed := s.changes&lastBits(n, replayLen) != 0
	alike := changed
	for j := range replayLen {
		at, then := s.marks[uint(n-1-j)%ringSize], s.marks[uint(n-1-j-k)%ringSize]
		if at.said == 0 || at.said != then.said || at.call != then.call {
			return false
		}
		alike = alike || s.ring[uint(n-1-j)%ringSize] == s.ring[uint(n-1-j-k)%ringSize]
		calls[j], words[j] = at.call, at.said
	}
	if distinct(calls[:]) < 3 || distinct(words[:]) < 3 || !alike {
		return false
	}
	// A change among the four is the latest, made again: there is nothing new for the calls
	// after it to verify. Else the latest change since the calls were first made decides.
	if !changed && s.verifiesNewChange(k) {
		return false
	}
	if n-1-replayLen-k < 0 {
		return true
	}
	at, then := s.marks[uint(n-1-replayLen)%ringSize], s.marks[uint(n-1-replayLen-k)%ringSize]
	return at.said == 0 || at.said != then.said || at.call != then.call
}

// distinct counts the different values among a few.
func distinct[T comparable](xs []T) int {
	n := 0
	for i, x := range xs {
		if !slices.Contains(xs[:i], x) {
			n++
		}
	}
	return n
}

// verifiesNewChange says whether the calls made again at period k come after a new change of
// the workspace (changedAnew) and none of them failed since: checks passing again after a new
// edit verify it, and are no replay.
func (s *progressState) verifiesNewChange(k int) bool {
	n := int(s.calls)
	q := s.changedAnew(k)
	return q >= 0 && s.fails&lastBits(n, n-1-q) == 0
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

// cycleForming says whether a repeat dist calls back belongs to a cycle in the making: the
// calls since it repeat the ones before it. The cycle rule speaks for those.
func (s *progressState) cycleForming(dist int) bool {
	return dist >= 2 && dist <= s.d.cfg.MaxCyclePeriod && int(s.runs[dist]) >= dist
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
