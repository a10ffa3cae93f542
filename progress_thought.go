package loopguard

// The thought rule: the model saying the same thing turn after turn while its calls bring
// nothing new, or keep moving about.

import "strings"

// withoutEmptyThinking returns text without the empty thinking blocks some models open every
// reply with ("<think></think>", "<think>\n\n</think>": GLM-4.6 through OpenHands, Qwen3 with
// its thinking turned off): an empty block says nothing, and a reply that is only one beside
// its call was the same thought at every turn (validation round r56c F1: nine notices on
// ordinary exploration). A block with thinking in it is the model's words and stays.
func withoutEmptyThinking(text string) string {
	if !strings.Contains(text, "</think") {
		return text
	}
	// One pass, copying what stays: a text of many empty blocks must not cost their square.
	var b strings.Builder
	kept := 0 // text[kept:] is not copied yet
	for i := strings.IndexByte(text, '<'); i >= 0 && i < len(text); {
		end := emptyThinkingAt(text, i)
		if end < 0 {
			next := strings.IndexByte(text[i+1:], '<')
			if next < 0 {
				break
			}
			i += 1 + next
			continue
		}
		if b.Cap() == 0 {
			b.Grow(len(text))
		}
		b.WriteString(text[kept:i])
		kept, i = end, end
	}
	if kept == 0 {
		return text
	}
	b.WriteString(text[kept:])
	return b.String()
}

// emptyThinkingAt returns where the empty thinking block that opens at text[i] ends
// ("<think>", blanks, "</think>"; or the same with "thinking"), or -1 when none opens there.
func emptyThinkingAt(text string, i int) int {
	for _, tag := range [...]struct{ open, close string }{{"<think>", "</think>"}, {"<thinking>", "</thinking>"}} {
		if !strings.HasPrefix(text[i:], tag.open) {
			continue
		}
		j := i + len(tag.open)
		j += leadingSpace(text[j:])
		if strings.HasPrefix(text[j:], tag.close) {
			return j + len(tag.close)
		}
	}
	return -1
}

// isModelText says whether a text block is the model's own words.
func isModelText(source string) bool {
	switch source {
	case "model", "assistant", "thinking", "reasoning", "thought":
		return true
	}
	return false
}

func (s *progressState) observeText(t *textEvent, out []Notice) []Notice {
	s.noteTime(t.time)
	text := withoutEmptyThinking(t.text)
	if strings.TrimSpace(text) == "" {
		return out
	}
	if len(text) != len(t.text) {
		tt := *t
		tt.text = text
		t = &tt
	}
	if !isModelText(t.source) {
		if t.source == SourceHarness {
			// The harness spoke: the model's reply is over, and its next words are a new
			// turn. SWE-agent answers a reply without a call with "Your last output did not
			// use any tool calls!"; a model answering it five times with the same "I have
			// completed the task" is a monologue, which a turn that never ended hid.
			s.thoughtSeen = false
		}
		return out
	}
	s.spoke = true
	if t.id != "" {
		// The same message observed again (one per call of a turn, or a history replayed)
		// is one turn.
		h := hashString(t.id)
		if h == s.lastTextID {
			return out
		}
		s.lastTextID = h
	}
	resent := s.answerResent() // the same message answered again in words: told last (below)
	before := len(out)
	if rounds, period, spread := selfRepeats(t.text, &s.lines); rounds >= selfRepeatRounds {
		s.selfHeld, s.selfHeldLines, s.selfHeldSpread = int32(rounds), int32(period), spread
		if !s.quiet(false) {
			s.saidAt = s.calls
			out = append(out, s.selfRepeatNotice(t.agent))
		} // else told at the first call after the quiet calls (observeCall)
	}
	if t.turn != 0 && t.turn == s.callTurn {
		// Written by the reply that made the last call, after it (text, call, text, call):
		// the reply's first text stands for its turn.
		return out
	}
	if s.thoughtSeen {
		// Several blocks in one turn: the turn's first block stands for it.
		return out
	}
	s.thoughtSeen = true
	dg := s.dg.digestThought(t.text)
	volatile := dg.words > 0 && dg.marks == dg.words
	if volatile {
		// A text that is nothing but volatile fields (a flag guessed, an id, a time) says
		// nothing once they are masked, and every such text would be the same thought: three
		// different flags submitted in turn were told as one thought said three times. Its
		// words themselves are what it says, and it is compared by them alone: the sketch of
		// its masked words is every such text's.
		dg.exact = combine(dg.exact, hashString(strings.TrimSpace(t.text)))
	}
	same := s.thoughtN > 0 && (dg.exact == s.thought.exact ||
		!volatile && s.thought.marks < s.thought.words &&
			dg.words >= 8 && s.thought.words >= 8 && similarity(&dg.sketch, &s.thought.sketch) >= s.d.similar)
	if same {
		s.thoughtN++
		s.backsSaid = s.backs
	} else {
		s.thought, s.thoughtN, s.stale, s.thoughtSaid, s.paging, s.backs, s.backsSaid = dg, 1, 0, 0, false, 0, 0
		s.thoughtAt = s.calls
		// "New" means new since the model began saying this, and it began after reading the
		// answers since it last spoke: a call that brings one of them back brings it nothing
		// new (a search answered with the snippet that made the model say "still not found,
		// try another search" was counted new once more, and the thought rule spoke a call
		// late or not at all).
		s.seen.reset()
		s.began = s.answered
		s.callSaid = false
	}
	s.answered.reset() // the model has spoken: the answers it reads next are the next ones
	if s.thoughtN == 2 {
		s.thoughtPreview = textPreview(t.text, 120) // only repeated thoughts are ever quoted
	}
	if s.quiet(false) && s.calls != s.thoughtAt {
		// Due later, when the quiet calls are over (see observeCall). A monologue makes no
		// call, so its quiet would never end: it is told when due.
		return out
	}
	if n, why := s.thoughtCheck(); n > 0 {
		s.saidAt = s.calls
		return append(out, s.thoughtNotice(t.agent, n, why))
	}
	if resent > 0 && len(out) == before && s.thoughtSaid == 0 && !s.quiet(false) {
		// Answered in words the same thing again is a repeated thought, told above (and
		// once told, not told again as this); reworded, it is this. Once told, it waits out
		// the quiet calls as any notice does: answers that make no call never end them, so a
		// harness reprompting a model that only talks is told once per stretch, not at each
		// doubling (validation round r95b: 198 reprompts were told 27 times).
		s.saidAt = s.calls
		return append(out, s.notice(t.agent, KindThought, "same message answered × "+itoa(resent),
			fill(s.d.cat.progressResent, "count", itoa(resent), "preview", s.resentPreview)))
	}
	return out
}

// answerResent notes that the model is answering the message resend follows, and returns how
// many of its answers before were made in words alone when a notice is due: once there were
// ThoughtRepeats of them, and again each time the count doubles.
func (s *progressState) answerResent() int {
	if s.resent == 0 || s.resentAnswered {
		return 0
	}
	s.resentAnswered = true
	n := s.resentN
	if int(n) < s.d.cfg.ThoughtRepeats || s.resentSaidAt > 0 && n < 2*s.resentSaidAt {
		return 0
	}
	s.resentSaidAt = n
	return int(n)
}

// Why a thought chain is due a notice.
const (
	thoughtStale = iota // the calls in between brought nothing new
	thoughtSweep        // the calls kept moving to other places
	thoughtIdle         // there were no calls in between: a monologue
)

// thoughtCheck returns the number of repeats to report when the thought chain is due a
// notice, or 0, and why it is due (thoughtStale, thoughtSweep, thoughtIdle). It is due when
// the model has said the same thing ThoughtRepeats times and as many of the calls in between
// brought nothing new, or with no call at all in between (a monologue: the model restating
// itself to a harness that reprompts it, OpenHands' "Please continue working on the task"
// answered with the same "I have completed the task" turn after turn), or ThoughtLimit times
// whatever the calls brought, unless they were all the same call paging on. A search that
// wanders is due as soon as the model, having seen its calls go back to an earlier place in
// what they page through twice (see pageOf), says the same thing again (at the 4th saying at
// the earliest): reading on in order is how a
// model learns a long file, and one step back is a correction (a window clipped to the file's
// end, a second look at the last page), but going back and forth while saying the same thing
// is looking for something it does not find, and saying it again after two steps back is
// going on with that search (a model scrolled back 65 windows through one file saying "Let's
// check the _expand_files method:", told at the 9th). Three windows back to a class's header,
// found at the third, stay quiet. It speaks once, and again every ThoughtLimit turns.
func (s *progressState) thoughtCheck() (n, why int) {
	d := s.d
	n = int(s.thoughtN)
	if n < d.cfg.ThoughtRepeats || int(s.thoughtSaid) > 0 && n-int(s.thoughtSaid) < d.cfg.ThoughtLimit {
		return 0, 0
	}
	if s.cyclePeriod() > 0 {
		// The calls go round a cycle in full, which the cycle rule tells: the thought said at
		// each round is that cycle's, and telling it too only doubles the reminders. A
		// Llama-3-70B run went round a 3-call cycle for 240 calls saying the same thing, and
		// was told 22 times, the thought's notices calling the cycle a sweep (validation
		// round r168a M2).
		return 0, 0
	}
	if s.calls == s.thoughtAt {
		s.thoughtSaid = int32(n)
		return n, thoughtIdle
	}
	limit := d.cfg.ThoughtLimit
	if s.backsSaid >= 2 {
		// The model saw its calls go back twice and says the same thing again: it is
		// sweeping back over what it pages through for something it does not find.
		limit = d.cfg.ThoughtRepeats
	}
	// Calls that brought nothing new were already reminded as such: the thought adds nothing
	// to that notice until the limit.
	if int(s.stale) >= d.cfg.ThoughtRepeats && !s.callSaid {
		s.thoughtSaid = int32(n)
		return n, thoughtStale
	}
	if n >= limit && !s.paging {
		s.thoughtSaid = int32(n)
		return n, thoughtSweep
	}
	return 0, 0
}

// pagePlace is where a call is in what it pages through: the first numbers of its
// arguments, in order (a line range, an offset, a page).
type pagePlace [3]uint64

// pageMemory is how many shapes of call the thought rule remembers the last place of: a view
// going back and forth with a grep between its windows goes back all the same.
const pageMemory = 4

// pageMark is the last place a call of one shape looked at.
type pageMark struct {
	shape uint64
	at    pagePlace
}

// wentBack says whether a call of shape looking at at goes back to an earlier place than the
// last call of its shape, and remembers at as that shape's last place.
func (s *progressState) wentBack(shape uint64, at pagePlace) bool {
	for i := range s.pages {
		if m := &s.pages[i]; m.shape == shape {
			back := at.before(m.at)
			m.at = at
			return back
		}
	}
	s.pages[s.pageNext] = pageMark{shape, at}
	s.pageNext = (s.pageNext + 1) % pageMemory
	return false
}

// before says whether p comes before q, comparing their numbers in order.
func (p pagePlace) before(q pagePlace) bool {
	for i := range p {
		if p[i] != q[i] {
			return p[i] < q[i]
		}
	}
	return false
}

// pageOf splits a call into its shape (the tool and its arguments with every number taken
// out) and its place (the numbers). Two calls of one shape look at the same thing in
// different places ("view a.py 1-100", "view a.py 100-200"); their places say whether the
// second moved on or went back. Names that differ (two files) are two shapes, so reading
// one file after another is never taken for going back.
func pageOf(tool string, args []byte) (shape uint64, at pagePlace) {
	var h textHasher
	n := 0
	for i := 0; i < len(args); i++ {
		c := args[i]
		if c < '0' || c > '9' {
			h.writeByte(c)
			continue
		}
		var v uint64
		for ; i < len(args) && args[i] >= '0' && args[i] <= '9'; i++ {
			if v < 1<<59 {
				v = v*10 + uint64(args[i]-'0')
			}
		}
		i--
		h.writeByte('#')
		if n < len(at) {
			at[n] = v
			n++
		}
	}
	return combine(hashString(tool), h.sum()), at
}

// selfRepeatNotice tells the reply that repeated itself (selfHeld rounds of selfHeldLines
// lines), and clears it.
func (s *progressState) selfRepeatNotice(agent string) Notice {
	rounds, lines := itoa(int(s.selfHeld)), itoa(int(s.selfHeldLines))
	text := s.d.cat.progressSelfRepeat
	if s.selfHeldSpread {
		text = s.d.cat.progressSelfRepeatLine
	}
	s.selfHeld, s.selfHeldLines, s.selfHeldSpread = 0, 0, false
	return s.notice(agent, KindThought, "text repeats itself × "+rounds, fill(text, "count", rounds, "lines", lines))
}
