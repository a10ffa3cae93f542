package peers

import (
	"regexp"
	"strings"

	"github.com/loopguard/loopguard"
)

// Gemini CLI's loop detection (packages/core/src/services/loopDetectionService.ts, read at
// commit 022f913 of google-gemini/gemini-cli), rule part only.
const (
	geminiRepeats       = 5    // the same call 5 times in a row (or a cycle repeated 5 times)
	geminiMaxCycle      = 5    // cycles of 1 to 5 calls
	geminiContentRepeat = 10   // one 50-character chunk seen 10 times ...
	geminiChunk         = 50   //
	geminiMaxGap        = 250  // ... at an average distance of at most 5 chunks
	geminiMaxPeriods    = 5    // ... with at most 10/2 distinct texts between occurrences
	geminiMaxHistory    = 5000 // characters of streamed text kept
)

// GeminiCLI is Gemini CLI's loop detection without its model-judged part:
//
//   - Tool calls: a key is sha256 of "name:" + JSON.stringify(args), so member order counts.
//     Five identical keys in a row are a loop; the counter is not reset by text or other
//     events, only by a different call or a new user prompt, and every later identical call
//     is a loop again (the service re-reports after its detection is cleared for the
//     recovery turn). Descriptions of the rule (2026) also list cycles: a block of 1 to 5
//     calls repeated 5 times (25 calls at most). The source read here has only the 1-call
//     case; the cycle check follows those descriptions, and for a block of one call it is
//     exactly the consecutive rule.
//   - Content: the model's streamed text is appended to a history (5,000 characters kept);
//     every 50-character window is hashed, and a window seen 10 times whose last 10
//     occurrences lie at most 250 characters apart on average, with at most 5 distinct
//     texts between consecutive occurrences (a list sharing a prefix is not a loop), is a
//     loop. A content element (code fence, table, list item, heading, block quote) resets
//     the tracking, text inside a code block is skipped, and a tool call resets it too.
//     The patterns are kept as published, quirks included: "[*-+]" is a range that matches
//     "*" and "+" only, and the divider class "[+-_=*...]" spans "+" to "_", so a chunk of
//     digits or capitals counts as a divider.
//
// Approximations: the service sees the text as streamed chunks; a transcript keeps whole
// blocks, so each line of a block is fed as one chunk (fences, tables and list items are
// line-level, so the element checks see what they would in a stream). Windows are counted in
// bytes, not UTF-16 units: the same for ASCII. After a content loop the turn would be aborted;
// here the text tracking starts over. The model-judged check (after 30 turns, every 5-15,
// confidence >= 0.9) needs a model and is not reproduced.
func GeminiCLI(events []loopguard.Event) []int {
	var fired []int
	call := -1
	keys := make([]string, 0, geminiRepeats*geminiMaxCycle)
	var ct geminiContent
	for i := range events {
		ev := &events[i]
		switch ev.Type {
		case loopguard.EventUser:
			keys = keys[:0]
			ct.reset()
		case loopguard.EventCall:
			call++
			ct.reset()
			if len(keys) == cap(keys) {
				copy(keys, keys[1:])
				keys = keys[:len(keys)-1]
			}
			keys = append(keys, orderedKey(ev))
			if geminiCycle(keys) {
				fired = append(fired, call)
			}
		case loopguard.EventText:
			if !isModelText(ev) {
				continue
			}
			for line := range strings.SplitAfterSeq(ev.Text, "\n") {
				if line != "" && ct.add(line) {
					fired = append(fired, call)
					ct.reset()
					break
				}
			}
		}
	}
	return fired
}

// geminiCycle says whether the calls end with a block of 1 to geminiMaxCycle calls repeated
// geminiRepeats times.
func geminiCycle(keys []string) bool {
	n := len(keys)
	for p := 1; p <= geminiMaxCycle && geminiRepeats*p <= n; p++ {
		same := true
		for j := 0; j < (geminiRepeats-1)*p; j++ {
			if keys[n-1-j] != keys[n-1-j-p] {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

var (
	geminiTable      = regexp.MustCompile(`(^|\n)\s*(\|.*\||[|+-]{3,})`)
	geminiBullet     = regexp.MustCompile(`(^|\n)\s*[*-+]\s`)
	geminiNumbered   = regexp.MustCompile(`(^|\n)\s*\d+\.\s`)
	geminiHeading    = regexp.MustCompile(`(^|\n)#+\s`)
	geminiBlockquote = regexp.MustCompile(`(^|\n)>\s`)
	geminiDivider    = regexp.MustCompile(`^[+-_=*\x{2500}-\x{257F}]+$`)
)

// geminiContent is the streamed-text tracker.
type geminiContent struct {
	history string
	seen    map[string][]int // chunk -> positions in history
	next    int              // first position not yet analysed
	inCode  bool
}

func (g *geminiContent) reset() {
	g.history = ""
	clear(g.seen)
	g.next = 0
}

// add takes one streamed chunk and says whether the text now loops.
func (g *geminiContent) add(content string) bool {
	fences := strings.Count(content, "```")
	divider := geminiDivider.MatchString(content)
	if fences > 0 || divider || geminiTable.MatchString(content) || geminiBullet.MatchString(content) ||
		geminiNumbered.MatchString(content) || geminiHeading.MatchString(content) || geminiBlockquote.MatchString(content) {
		g.reset()
	}
	wasInCode := g.inCode
	if fences%2 == 1 {
		g.inCode = !g.inCode
	}
	if wasInCode || g.inCode || divider {
		return false
	}
	g.history += content
	if over := len(g.history) - geminiMaxHistory; over > 0 {
		g.history = g.history[over:]
		g.next = max(0, g.next-over)
		for chunk, pos := range g.seen {
			kept := pos[:0]
			for _, p := range pos {
				if p-over >= 0 {
					kept = append(kept, p-over)
				}
			}
			if len(kept) == 0 {
				delete(g.seen, chunk)
			} else {
				g.seen[chunk] = kept
			}
		}
	}
	if g.seen == nil {
		g.seen = map[string][]int{}
	}
	for ; g.next+geminiChunk <= len(g.history); g.next++ {
		if g.loopAt(g.history[g.next : g.next+geminiChunk]) {
			return true
		}
	}
	return false
}

func (g *geminiContent) loopAt(chunk string) bool {
	pos, ok := g.seen[chunk]
	if !ok {
		g.seen[chunk] = []int{g.next}
		return false
	}
	pos = append(pos, g.next)
	g.seen[chunk] = pos
	if len(pos) < geminiContentRepeat {
		return false
	}
	recent := pos[len(pos)-geminiContentRepeat:]
	if float64(recent[len(recent)-1]-recent[0])/float64(geminiContentRepeat-1) > geminiMaxGap {
		return false
	}
	periods := map[string]struct{}{}
	for i := 0; i+1 < len(recent); i++ {
		periods[g.history[recent[i]:recent[i+1]]] = struct{}{}
	}
	return len(periods) <= geminiMaxPeriods
}
