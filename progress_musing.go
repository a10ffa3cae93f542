package loopguard

// The musing rule: a thinking tool (think, sequential thinking) called again and again with
// the same thought and nothing else done between. Its calls are bookkeeping, transparent to
// every other rule (a thought recorded between two runs of a check is no work that would make
// the second run new); but a model that records one thought twenty times in a row, answering
// no one and calling nothing, is stuck as plainly as one that sends the same command.
// Validation rounds r256a and r256b: Qwen3 agents on tau-bench called `think` 12 to 30 times
// in a row ("I need to ask for the correct user ID") instead of answering the customer, in 14
// loops the default told none of.

import (
	"encoding/json"
	"strings"
)

// isThinkingTool says whether a bookkeeping tool records a thought: a name with "think" in
// it, any case (think, Think, thinking, sequentialthinking, mcp_<server>_sequentialthinking).
// A todo list or a plan is written again with a box ticked, and is not compared so.
func isThinkingTool(tool string) bool {
	for i := 0; i+5 <= len(tool); i++ {
		if strings.EqualFold(tool[i:i+5], "think") {
			return true
		}
	}
	return false
}

// thoughtOf is what a thinking call records: its "thought" argument as written (escaped, as
// the arguments hold it), or all of its arguments when it has none.
func thoughtOf(args []byte) string {
	if start, end, ok := stringSpan(args, `"thought"`); ok {
		return string(args[start:end])
	}
	return string(args)
}

// observeMusing follows a thinking call that went through. Calls of one reply count once;
// another call, or the user's turn, ends the run (observeCall, reset). A thought is the same
// as one of the run's last two (a model may go back and forth between two: "I must ask for
// the user ID" and "The user has not given a valid user ID", by turns, 29 calls), by the
// thought rule's sameness: equal once masked, or alike (similarity) when both have 8 words or
// more; and it must be answered as the one before, numbers aside (a sequential-thinking
// server counts the thoughts it holds in every answer): a thinking call answered otherwise
// brought something (a harness that logged every call as one fixed thought, each answered
// with another tool's result, was read as the same thought eight times while it worked). A
// chain of thoughts that each say something new never counts. It is told at the thresholds
// of the stuck rule (3rd, 6th, then every 10th), whatever the quiet calls: a run of thinking
// makes no call, and its quiet would never end.
func (s *progressState) observeMusing(c *observedCall, out []Notice) []Notice {
	if c.turn != 0 && c.turn == s.musingTurn {
		return out
	}
	s.musingTurn = c.turn
	text := thoughtOf(c.args)
	dg := s.dg.digestThought(text)
	answer := withoutDigitsHash(c.result)
	alike := func(m *digest) bool {
		return dg.exact == m.exact || dg.words >= 8 && m.words >= 8 && similarity(&dg.sketch, &m.sketch) >= s.d.similar
	}
	goesOn := s.musingN > 0 && answer == s.musingAnswer
	switch {
	case goesOn && alike(&s.musing[0]):
		s.musingN++ // the thought just recorded, again
	case goesOn && s.musingKept == 2 && alike(&s.musing[1]):
		s.musingN++ // the one before it: back and forth
		s.musing[0], s.musing[1] = dg, s.musing[0]
	default:
		s.musingKept, s.musingN, s.musingPreview = 1, 1, ""
		if goesOn {
			s.musing[1], s.musingKept = s.musing[0], 2
		}
		s.musing[0], s.musingAnswer = dg, answer
		return out
	}
	if s.musingPreview == "" {
		s.musingPreview = textPreview(unescapedThought(text), 120)
	}
	if !s.remindAt(int(s.musingN)) {
		return out
	}
	s.saidAt = s.calls
	return append(out, s.notice(c.agent, KindThought, c.tool+" same thought × "+itoa(int(s.musingN)),
		fill(s.d.cat.progressMusing, "tool", c.tool, "count", itoa(int(s.musingN)), "preview", s.musingPreview)))
}

// unescapedThought is a thought as its writer wrote it, for the notice: the JSON string's text
// unescaped when it is one, else as it is.
func unescapedThought(text string) string {
	var s string
	if json.Unmarshal([]byte(`"`+text+`"`), &s) == nil {
		return s
	}
	return text
}

// withoutDigitsHash hashes an answer without its digits and the white space around it, by the
// byte-stream hasher the seed texts use (textHasher).
func withoutDigitsHash(result string) uint64 {
	var h textHasher
	trimmed := strings.TrimSpace(result)
	for i := 0; i < len(trimmed); i++ {
		if c := trimmed[i]; c-'0' >= 10 {
			h.writeByte(c)
		}
	}
	return h.sum()
}
