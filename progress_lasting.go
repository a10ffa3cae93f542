package loopguard

// A failure that outlasts the attempts: the same failure, one that says its cause in words
// of its own ("ModuleNotFoundError: No module named 'tests'", "ParserError: ... Expected 5
// fields in line 15, saw 15"), answers one attempt after another, each attempt a different
// command, with files written and other commands working between. No rule that follows one
// command or a streak sees it: the command changes every time, and what works between ends
// the streaks. GPT-5-mini wrote a test app's files and ran its script four times over ten
// calls, each a new command line, each failing on the same missing module, and submitted
// (validation round r221b); SWE-agent runs on Java tasks set JAVA_HOME one way after another,
// each build failing alike (r223a).

// maxLasting is how many such failures are followed at once.
const maxLasting = 2

// lastingGap is how many calls apart two meetings of a failure may be and still count
// together: the earlier one is in the model's recent context, and attempts between them
// went at it.
const lastingGap = 16

// lastingFailure is a failure by its identity and where it was raised (followed's comeBack,
// hashed), the calls it failed since it was first met, and the different commands that met
// it (the calls' identities, hashed; the first maxLastingCommands of them). Commands and
// replies are kept by 16-bit hashes: two of them alike by chance (1 in 65,536) only count one
// command fewer or one meeting less, and the snapshot stays within its bound.
type lastingFailure struct {
	identity uint32
	count    uint8
	commands [maxLastingCommands]uint16
	turn     uint16 // the reply that made the latest meeting (observedCall.turn, hashed), 0 for none
	epoch    uint32 // the workspace of the latest meeting
	first    int32  // 1 + the index of the first meeting counted
	last     int32  // 1 + the index of the latest
}

// maxLastingCommands is how many different commands a lasting failure keeps: a notice says
// how many met it, up to this.
const maxLastingCommands = 4

// distinct is how many different commands met the failure (at most maxLastingCommands).
func (l *lastingFailure) distinct() int {
	n := 0
	for _, c := range l.commands {
		if c != 0 {
			n++
		}
	}
	return n
}

// noteLasting counts a failed call's failure when it has an identity, and returns its entry
// (nil for none). A failure is known by its identity and where it was raised (followed's
// comeBack): the same error raised in another file is the fix moving on to the next place
// (round r223a: an AttributeError fixed in one schema editor, then met in the next). Not
// counted:
//   - a failure of a tool that changes files by name (an editor, apply_patch): a rejected
//     edit is the change's own failure, the errors rule's, and a change that then goes
//     through ends it;
//   - a linter's rejection of an edit, for the same reason, and because it names what it
//     found in words the identity masks: four different undefined names read as one (r223a);
//   - a call of the reply that made the latest meeting, made before the model saw it;
//   - a run that shows what a print added since the latest meeting prints: it answered a
//     question the model put to the failure (print-debugging, see probeAnswered and printedSince).
func (s *progressState) noteLasting(c *observedCall, cls classEntry, fw *followed, id uint64) *lastingFailure {
	if !fw.failed || fw.identity == 0 || cls.mutating {
		return nil
	}
	if errs, _, _ := lintRejection(c.result); errs != 0 {
		return nil
	}
	h := uint32(mix64(fw.comeBack)) | 1
	slot := slotFor(s.lasting[:], h, func(l *lastingFailure) (uint32, uint32) { return l.identity, uint32(l.last) })
	l := &s.lasting[slot]
	turn := uint16(mix64(c.turn)) | 1
	if l.identity == h && s.calls-l.last <= lastingGap {
		if c.turn != 0 && turn == l.turn {
			return nil
		}
		if s.printedSince(l.epoch, c.result) {
			l.last, l.epoch = s.calls, s.epoch
			return nil
		}
	} else {
		*l = lastingFailure{identity: h, first: s.calls}
	}
	l.turn, l.epoch = 0, s.epoch
	if c.turn != 0 {
		l.turn = turn
	}
	cmd := uint16(mix64(id)) | 1
	for i, have := range l.commands {
		if have == cmd {
			break
		}
		if have == 0 {
			l.commands[i] = cmd
			break
		}
	}
	l.count = min(l.count+1, 255)
	l.last = s.calls
	return l
}

// lastingCommands is how many different commands must have met a failure for it to be told:
// one command failing alike is the failure chains' to tell, across edits or not, and two
// taking turns are as often a fix's check and the reproduction beside it, the fix not done
// yet; three are attempts of their own.
const lastingCommands = 3

// lastingCheck tells a failure met ErrorRepeats times by lastingCommands different commands
// or more, and not when a notice came since its first meeting: the loop it is part of was
// told, by this notice or another.
func (s *progressState) lastingCheck(c *observedCall, l *lastingFailure, line string, out []Notice) []Notice {
	n := l.distinct()
	if int(l.count) < s.d.cfg.ErrorRepeats || n < lastingCommands || s.saidAt >= l.first {
		return out
	}
	commands := itoa(n)
	if n == maxLastingCommands && int(l.count) > n {
		commands += "+" // (only the first maxLastingCommands are kept)
	}
	return append(out, s.notice(c.agent, KindErrors, "the same failure × "+itoa(int(l.count))+" from "+commands+" commands",
		fill(s.d.cat.progressLasting, "count", itoa(int(l.count)), "commands", commands, "failure", clipLine(line, 160))))
}

// clipLine cuts a line to at most n bytes at a rune's start, marking the cut.
func clipLine(line string, n int) string {
	if len(line) <= n {
		return line
	}
	i := n
	for i > 0 && line[i]&0xc0 == 0x80 {
		i--
	}
	return line[:i] + "…"
}
