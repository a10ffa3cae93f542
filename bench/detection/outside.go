package main

import (
	"slices"

	"github.com/loopguard/loopguard/internal/scan"
)

// outside is the notice rate away from the labelled loops: how often a detector speaks where
// no labelled loop is, a measure of its noise on the unlabelled bulk of the calls.
type outside struct {
	calls   int // calls not in any loop label's catch window
	notices int // notices not in any loop label's catch window
	perK    float64
}

// outsidePositives computes the notice rate outside the positives from a report and its label
// results. A notice of agent A at call index i in file F is inside when some loop label
// scored on (F, A) has first <= i <= last+scan.CatchAfter; the calls outside are all the
// calls minus those in such windows (clipped to the agent's calls); the rate is 1000 ×
// notices outside / calls outside.
//
// The lead is adding this figure to scan.Score (PerKOutside, CallsOutside, NoticesOutside);
// when it lands, this function is replaced by those fields.
func outsidePositives(r *scan.Report, results []scan.LabelResult) outside {
	type agentKey struct{ file, agent string }
	calls := map[agentKey]int{}
	for _, f := range r.Files {
		if !f.Scanned() {
			continue
		}
		for _, a := range f.Agents {
			calls[agentKey{f.Path, a.ID}] += a.Calls()
		}
	}
	inside := map[agentKey][]bool{} // per agent, which calls are in a loop window
	for _, res := range results {
		if res.File == "" || !slices.Contains(scan.LoopLabels, res.Label.ManualLabel) ||
			(res.Status != scan.StatusCaught && res.Status != scan.StatusMissed) {
			continue
		}
		k := agentKey{res.File, res.Label.Agent}
		n := calls[k]
		in := inside[k]
		if in == nil {
			in = make([]bool, n)
			inside[k] = in
		}
		for i := max(res.Label.First(), 0); i <= min(res.Label.Last()+scan.CatchAfter, n-1); i++ {
			in[i] = true
		}
	}
	var o outside
	for _, n := range calls {
		o.calls += n
	}
	for _, in := range inside {
		for _, b := range in {
			if b {
				o.calls--
			}
		}
	}
	for _, f := range r.Files {
		if !f.Scanned() {
			continue
		}
		for _, n := range f.Notices {
			if n.Type != "notice" {
				continue
			}
			in := inside[agentKey{f.Path, n.Agent}]
			if n.CallIndex >= 0 && n.CallIndex < len(in) && in[n.CallIndex] {
				continue
			}
			o.notices++
		}
	}
	if o.calls > 0 {
		o.perK = 1000 * float64(o.notices) / float64(o.calls)
	}
	return o
}
