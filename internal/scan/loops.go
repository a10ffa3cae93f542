package scan

import (
	"cmp"
	"slices"
	"strings"

	"github.com/loopguard/loopguard"
)

// Period is the longest cycle a loop is followed through: a call belongs to a loop's run of
// repeats when the same call (same tool, same arguments as JSON values) is among the Period
// calls before it. 4 is dsh-brake's default sequence length, and the cycles seen in real
// trajectories have periods 2 to 4.
const Period = 4

// A Loop is what a run of notices points at. The definition, also in docs/scan.md:
//
//  1. Every notice of an agent has a key: its plugin, its kind, and for the kinds that name
//     a tool (repeat, call) that tool, as in its summary ("grep × 6" → grep). Denials are
//     not notices, and notices before the agent's first call belong to no loop.
//  2. A call is a repeat when the same call occurs among the Period calls before it (a
//     "repeat-back"), or among the Period calls after it (a "repeat-ahead"), with no user
//     message (or agent end) in between.
//  3. A notice opens a loop around its call: the loop extends back from that call over the
//     calls before it that are repeats-ahead, and forward over the calls after it that are
//     repeats-back. So a loop is the maximal run of repeats around the notice: the whole of a
//     stuck run, or of a cycle of up to Period calls (a cycle notice's loop repeats within the
//     cycle's own period when it is longer, periodOf). A notice of a tool failing alike
//     (errors) or of its arguments churning (churn) counts calls whose arguments differ, so
//     its loop is that tool's calls instead: back over as many of them as the notice counts
//     (its failed calls, for errors), and, for errors, forward over its failed calls after it;
//     each no more than Period calls from the next, with no user message in between.
//  4. The next notice of the same key joins the loop when it (or, for errors and churn, the
//     start of its chain) falls within Period calls (its period) after the loop's end, with no user message
//     in between; the loop then extends forward from it. Otherwise it opens a new loop.
//
// Start and End are the loop's first and last call indices. The calls wasted are those made
// after the guard would first have spoken, up to the end of the loop: End − FirstNotice. A
// model that heeded the first notice could have saved them. Loops of different keys can
// cover the same calls (repeat-tool-reminder and dsh-brake both notice a stuck run): an
// agent's wasted calls count each call once.
type Loop struct {
	Agent       string `json:"agent"`
	Session     int    `json:"session_index"` // the agent's session (Agent.Session)
	Plugin      string `json:"plugin"`
	Kind        string `json:"kind"`
	Tool        string `json:"tool"` // the tool of the key; for sequence and text loops, the tools in the loop
	Start       int    `json:"start"`
	End         int    `json:"end"`
	FirstNotice int    `json:"first_notice"` // call index of the loop's first notice
	Notices     int    `json:"notices"`
	Calls       int    `json:"calls"`        // End − Start + 1
	Wasted      int    `json:"wasted_calls"` // End − FirstNotice
}

type loopKey struct{ plugin, kind, tool string }

// keyOf returns a notice's loop key.
func keyOf(n *Notice) loopKey {
	k := loopKey{plugin: n.Plugin, kind: n.Kind}
	switch n.Kind {
	case loopguard.KindRepeat, loopguard.KindCall:
		if i := strings.LastIndex(n.Summary, " × "); i >= 0 {
			k.tool = n.Summary[:i]
		}
	case loopguard.KindErrors, loopguard.KindChurn:
		k.tool, _ = chainOf(n)
	}
	return k
}

// chainOf reads the tool and the count of an errors or churn notice's summary ("edit failed ×
// 4", "grep same result × 6"); "" when the summary names no tool.
func chainOf(n *Notice) (tool string, count int) {
	i := strings.LastIndex(n.Summary, " × ")
	if i < 0 {
		return "", 0
	}
	count = leadingNumber(n.Summary[i+len(" × "):], 1<<31) // the detectors count in int32
	head := n.Summary[:i]
	for _, tail := range []string{" failed", " same result"} {
		if t, ok := strings.CutSuffix(head, tail); ok && t != "" {
			return t, count
		}
	}
	return "", 0
}

// agentKey names an agent within a file: agent ids are unique per session.
type agentKey struct {
	session int
	id      string
}

// findLoops finds the loops of every agent of f and sets each agent's Wasted.
func findLoops(f *File) []Loop {
	var loops []Loop
	byAgent := map[agentKey][]*Notice{}
	for i := range f.Notices {
		n := &f.Notices[i]
		if n.Type == "notice" && n.CallIndex >= 0 {
			k := agentKey{n.Session, n.Agent}
			byAgent[k] = append(byAgent[k], n)
		}
	}
	for _, a := range f.Agents {
		ns := byAgent[agentKey{a.Session, a.ID}]
		if len(ns) == 0 {
			continue
		}
		al := agentLoops(a, ns)
		a.Wasted = wastedCalls(len(a.Marks), al)
		a.Runs = runs(al)
		loops = append(loops, al...)
	}
	return loops
}

func agentLoops(a *Agent, ns []*Notice) []Loop {
	m := a.Marks
	var keys []loopKey
	groups := map[loopKey][]*Notice{}
	for _, n := range ns {
		k := keyOf(n)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], n)
	}
	var loops []Loop
	for _, k := range keys {
		var cur *Loop
		for _, n := range groups[k] {
			i := n.CallIndex
			p := periodOf(n)
			start, end, joinAt := backward(m, i, p), forward(m, i, p), i
			if tool, count := chainOf(n); tool != "" && (n.Kind == loopguard.KindErrors || n.Kind == loopguard.KindChurn) {
				failed := n.Kind == loopguard.KindErrors
				start = min(start, chainStart(m, i, tool, count, failed))
				if failed {
					end = max(end, chainEnd(m, i, tool))
				}
				// A chain's loop that reaches back to the loop before it is that loop going on.
				joinAt = start
			}
			if cur != nil && joinAt <= cur.End+p && m[i].seg == m[cur.End].seg {
				cur.End = max(forward(m, max(cur.End, i), p), end)
				cur.Notices++
				continue
			}
			if cur != nil {
				loops = append(loops, *cur)
			}
			cur = &Loop{
				Agent: a.ID, Session: a.Session, Plugin: k.plugin, Kind: k.kind, Tool: k.tool,
				Start: start, End: end, FirstNotice: i, Notices: 1,
			}
		}
		loops = append(loops, *cur)
	}
	for i := range loops {
		l := &loops[i]
		l.Calls = l.End - l.Start + 1
		l.Wasted = l.End - l.FirstNotice
		if l.Tool == "" {
			l.Tool = toolsIn(m[l.Start : l.End+1])
		}
	}
	slices.SortStableFunc(loops, func(x, y Loop) int {
		return cmp.Or(cmp.Compare(x.Start, y.Start), cmp.Compare(x.FirstNotice, y.FirstNotice))
	})
	return loops
}

func same(a, b *Mark) bool { return a.seg == b.seg && a.args == b.args && a.Tool == b.Tool }

// periodOf is how far apart a notice's loop repeats its calls: Period, or a longer cycle's own
// period as its notice gives it ("cycle of 7 × 3"), or how far back a replayed stretch was
// first made ("replay of 4 calls, 10 back"). A run of the same seven views, 48 calls long,
// was otherwise a loop of the notice's call alone, and "wasted 0 calls" (validation round
// r131c); so was a stretch of ten calls gone through again.
func periodOf(n *Notice) int {
	if n.Kind != loopguard.KindCycle {
		return Period
	}
	if rest, ok := strings.CutPrefix(n.Summary, "cycle of "); ok {
		return max(leadingNumber(rest, 1000), Period)
	}
	if rest, ok := strings.CutPrefix(n.Summary, "replay of "); ok {
		if _, back, ok := strings.Cut(rest, ", "); ok {
			return max(leadingNumber(back, 1000), Period)
		}
	}
	return Period
}

// leadingNumber reads the decimal number s opens with (0 when none), its digits read until one
// makes it more than limit: a summary's count, or a cycle's period.
func leadingNumber(s string, limit int) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' || n > limit {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// repeatBack says call i repeats one of the p calls before it.
func repeatBack(m []Mark, i, p int) bool {
	for j := max(0, i-p); j < i; j++ {
		if same(&m[j], &m[i]) {
			return true
		}
	}
	return false
}

// repeatAhead says call i is repeated by one of the p calls after it.
func repeatAhead(m []Mark, i, p int) bool {
	for j := i + 1; j <= i+p && j < len(m); j++ {
		if same(&m[j], &m[i]) {
			return true
		}
	}
	return false
}

func forward(m []Mark, i, p int) int {
	for i+1 < len(m) && repeatBack(m, i+1, p) {
		i++
	}
	return i
}

func backward(m []Mark, i, p int) int {
	for i > 0 && repeatAhead(m, i-1, p) {
		i--
	}
	return i
}

// chainStart returns the first call of the chain an errors or churn notice at call i counts:
// the count-th call of tool back from i (i itself the first of them), its failed calls only
// when failed; each within Period calls of the one after it, with no user message between.
// Fewer calls found than counted (the detector's chain outlives a user's turn, or bridges more
// calls than Period) end the walk where the last one was.
func chainStart(m []Mark, i int, tool string, count int, failed bool) int {
	start, found := i, 1
	for j := i - 1; j >= 0 && found < count && start-j <= Period && m[j].seg == m[i].seg; j-- {
		if m[j].Tool == tool && (!failed || m[j].Failed) {
			start = j
			found++
		}
	}
	return start
}

// chainEnd returns the last of tool's failed calls after i that follow each other within
// Period calls, with no user message between: the failures an errors notice at i went on to.
// A call of tool that went through ends the chain.
func chainEnd(m []Mark, i int, tool string) int {
	end := i
	for j := i + 1; j < len(m) && j-end <= Period && m[j].seg == m[i].seg; j++ {
		if m[j].Tool != tool {
			continue
		}
		if !m[j].Failed {
			break
		}
		end = j
	}
	return end
}

// toolsIn lists the distinct tools of some calls, in order of first appearance, at most four.
func toolsIn(m []Mark) string {
	var tools []string
	for i := range m {
		if !slices.Contains(tools, m[i].Tool) {
			if len(tools) == 4 {
				return strings.Join(tools, ", ") + ", …"
			}
			tools = append(tools, m[i].Tool)
		}
	}
	return strings.Join(tools, ", ")
}

// wastedCalls counts the calls inside some loop's wasted part (FirstNotice, End], each once.
func wastedCalls(calls int, loops []Loop) int {
	if len(loops) == 0 {
		return 0
	}
	in := make([]bool, calls)
	n := 0
	for _, l := range loops {
		for i := l.FirstNotice + 1; i <= l.End; i++ {
			if !in[i] {
				in[i] = true
				n++
			}
		}
	}
	return n
}

// runs counts the distinct runs of calls that some loops cover: overlapping loops make one
// run. loops are sorted by Start.
func runs(loops []Loop) int {
	n, end := 0, -1
	for _, l := range loops {
		if l.Start > end {
			n++
		}
		end = max(end, l.End)
	}
	return n
}
