package loopguard

// A look at a file made again and again, answered the same each time: the model reading a
// page it has read twice already, the page unchanged (rereadCheck).

import (
	"bytes"
	"math/bits"
)

// rereadWindow is how far back the same look is looked for: as far as the cycle rule looks
// (maxPeriod). A page read again after a long detour is a look the model needs again; three
// reads of it in 32 calls are not.
const rereadWindow = maxPeriod

// rereadCheck tells a look at a file (looksAtFile: a read, an editor's view, cat or sed -n,
// SWE-agent's open, goto and scroll) made the third time (thresholds[0]) in the last
// rereadWindow calls, answered exactly as before each time: the same page of the same file,
// unchanged, the call before it such a read too (rereadAt). The stuck rule tells the same call
// answered alike only within its recent calls, with nothing changed between: a page read
// again after a detour is news to a model that forgot it. A third reading of a page that has
// not changed since the first is not: the model has read it twice and goes on doing what it
// did after reading it. A Llama fine-tune's SWE-agent run
// opened fs/tarfs.py and scrolled its first pages four times in 30 calls, writing test
// scripts between, and was told nothing (validation round r225a); its edits were to other
// files, and the pages it read again said what they had said.
//
// The answers are the evidence, not the changes: a page shown exactly as before was not
// changed by what was edited meanwhile. A look made right after a change does not count
// (changedBefore). Not told when the read failed (the errors rule's), nor when a notice came
// in the last rereadWindow calls: the loop was told, this way or another, and a sweep of
// views going on after it is the same loop (the cycle rule, whose reminders come as a
// cycle's rounds double, tells a cycle of reads; an SWE-agent LM sweeping 14 views of one
// file to its cost limit was told by this rule, by the cycle rule 12 calls later, and again
// by this rule 29 calls after that, for another of its pages).
//
// notLook is true for a call that wrote or failed. A call whose answer is not known, or that
// waits, has a key of its own each time (observeCall), and is never found again.
func (s *progressState) rereadCheck(c *observedCall, cls classEntry, key uint64, notLook bool, out []Notice) []Notice {
	calls := int(s.calls)
	if notLook || s.changedBefore(calls-1) {
		return out // (a look right after a change is a check of it)
	}
	// The calls before it with its key: followCycles compared the key with those it follows
	// (keyMet); the call just before, and those beyond the cycle rule's reach when it is
	// set shorter than rereadWindow, are looked at here.
	met := s.keyMet
	if calls > 1 && s.ring[uint(calls-2)%ringSize] == key {
		met |= 1 << 1
	}
	for k := int(s.keyReach) + 1; k <= rereadWindow && k < calls; k++ {
		if s.ring[uint(calls-1-k)%ringSize] == key {
			met |= 1 << k
		}
	}
	seen, first := 1, 0 // reads of the page that count, this one among them; how far back the earliest is
	for ; met != 0; met &= met - 1 {
		if k := bits.TrailingZeros64(met); !s.changedBefore(calls - 1 - k) {
			seen++
			first = k // (the bits go up: the last is the earliest read)
		}
	}
	// Whether the call is a look is asked last: most calls are made once in 32 calls.
	if seen < s.d.thresholds[0] || !looksAtFile(c, cls, false) {
		return out
	}
	// The page is read a third time. Told when the call before it was a page read a third time
	// too (rereadAt): the model is going through pages it has read twice already, one after
	// another. A single page opened again, a short script glanced at between an edit and a
	// run, is a model finding its place (CodeR's Programmer opened its 32-line reproduction
	// three times in ten calls, editing and running between).
	walking := s.rereadAt == int32(calls-1)
	s.rereadAt = int32(calls)
	if !walking || s.saidAt > 0 && calls-int(s.saidAt) < rereadWindow {
		return out
	}
	return append(out, s.notice(c.agent, KindStuck, c.tool+" read again × "+itoa(seen),
		fill(s.d.cat.progressReread, "call", lookNamed(c), "count", itoa(seen), "calls", itoa(first+1))))
}

// lookNamed names a look for its notice: its command line's first line (`open fs/tarfs.py`,
// `sed -n '40,80p' app.py`), or the tool and its arguments; at most 100 bytes. SWE-agent's
// exports call every command "bash", and "read with bash" says nothing of what was read.
func lookNamed(c *observedCall) string {
	if _, line, _, ok := commandLine(c.args); ok && len(line) > 0 {
		if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl]
		}
		return clipLine(string(line), 100)
	}
	return clipLine(c.tool+" "+string(c.args), 100)
}

// changedBefore says whether the call before call i (one of the last ringSize calls) changed
// the workspace. A look right after a change shows what the change did: the page a build
// wrote again, the file an edit touched, read to see whether the change moved it. Such a look
// is a check, which the rules of checks unchanged across edits follow, and not a page read
// again: a model rebuilding its docs after each of three changes to an example, reading the
// built page after each build, read the same page three times and learnt each time that its
// change left the page alone (our corpus labels it a legitimate re-run, sphinx-8595).
func (s *progressState) changedBefore(i int) bool {
	// (Call 0 has none before it: its i-1 wraps to the ring's last bit, which no call has set
	// while call 0 is within rereadWindow.)
	return s.changes&(1<<(uint(i-1)%ringSize)) != 0
}
