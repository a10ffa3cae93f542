package loopguard

// The notices of the call rules, in the words of the detector's catalogue (messages.go).

import "strings"

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
