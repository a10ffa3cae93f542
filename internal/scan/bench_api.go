package scan

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/transcript"
)

// Rule is a loop rule that is not the engine, such as another agent's published rule
// (internal/peers), scanned with RunRules so that it can be scored on the same files and
// labels, by the same code (ScoreLabels), as the engine's presets.
type Rule struct {
	// Name is the rule's name; its notices carry it as their Plugin.
	Name string
	// Fire returns the call indices at which the rule speaks for one agent's events, as
	// internal/transcript produces them. -1 stands for "before the agent's first call".
	Fire func(events []loopguard.Event) []int
}

// RuleKind is the Kind of the notices of a Rule.
const RuleKind = "rule"

// RunRules reads every target once, as Run does, and returns one Report per rule, in the order
// of rules. Each report has the same files, agents, calls and read errors as a scan of the
// targets would, and as notices (Type "notice", Plugin the rule's name, Kind RuleKind) the
// call indices the rule returned for each agent, in ascending order. Loops and wasted calls
// are found from those notices as for a scan.
func RunRules(targets []Target, rules []Rule, workers int) []*Report {
	files := make([][]*File, len(rules))
	for i := range files {
		files[i] = make([]*File, len(targets))
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(len(targets), 1))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= len(targets) {
					return
				}
				for r, f := range ruleFilesSafely(targets[k], rules) {
					files[r][k] = f
				}
			}
		})
	}
	wg.Wait()
	reports := make([]*Report, len(rules))
	for r := range rules {
		reports[r] = &Report{Files: files[r], Totals: total(files[r])}
	}
	return reports
}

// ruleFilesSafely is ruleFiles with a panic while reading turned into an error for that file,
// as scanFileSafely does for a scan.
func ruleFilesSafely(tg Target, rules []Rule) (out []*File) {
	defer func() {
		if p := recover(); p != nil {
			out = make([]*File, len(rules))
			for i := range out {
				out[i] = &File{Path: tg.Path, Size: tg.Size, Err: fmt.Errorf("%s: internal error while scanning: %v", tg.Path, p)}
			}
		}
	}()
	return ruleFiles(tg, rules)
}

// ruleFiles reads one target and applies every rule to each of its agents.
func ruleFiles(tg Target, rules []Rule) []*File {
	out := make([]*File, len(rules))
	if tg.Err != nil {
		for i := range out {
			out[i] = &File{Path: tg.Path, Size: tg.Size, Err: tg.Err}
		}
		return out
	}
	t, err := readTranscript(tg.Path)
	if err != nil {
		notTranscript := passedOver(tg, err)
		for i := range out {
			out[i] = &File{Path: tg.Path, Size: tg.Size, Err: err, NotTranscript: notTranscript}
		}
		return out
	}
	marks := make([][]Mark, len(t.Agents))
	for ai := range t.Agents {
		marks[ai] = ruleMarks(t.Agents[ai].Events)
	}
	for r, rule := range rules {
		out[r] = ruleFile(tg, t, marks, rule)
	}
	return out
}

// ruleFile is one rule's result on one transcript. A panic in the rule (a bug, or indices out
// of range) makes that rule's file an error naming the rule; the other rules are unaffected.
func ruleFile(tg Target, t *transcript.Transcript, marks [][]Mark, rule Rule) (f *File) {
	defer func() {
		if p := recover(); p != nil {
			f = &File{Path: tg.Path, Size: tg.Size, Err: fmt.Errorf("%s: internal error in rule %s: %v", tg.Path, rule.Name, p)}
		}
	}()
	f = &File{Path: tg.Path, Size: tg.Size, Format: t.Format, Usage: t.Usage}
	for ai := range t.Agents {
		ta := &t.Agents[ai]
		a := &Agent{ID: ta.ID, Usage: ta.Usage, Marks: marks[ai]}
		idx := slices.Clone(rule.Fire(ta.Events))
		slices.Sort(idx)
		for _, i := range idx {
			if i < -1 || i >= len(a.Marks) {
				panic(fmt.Sprintf("call index %d out of range for agent %q with %d calls", i, ta.ID, len(a.Marks)))
			}
			f.Notices = append(f.Notices, Notice{
				Type: "notice", File: f.Path, Agent: a.ID, CallIndex: i, Event: "call",
				Plugin: rule.Name, Kind: RuleKind, Summary: rule.Name,
			})
		}
		a.Notices = len(idx)
		f.Agents = append(f.Agents, a)
		f.Calls += a.Calls()
	}
	f.Loops = findLoops(f)
	for _, a := range f.Agents {
		f.Wasted += a.Wasted
		f.Runs += a.Runs
	}
	return f
}

// ruleMarks lists an agent's calls as a scan does, so that loops are found the same way.
func ruleMarks(events []loopguard.Event) []Mark {
	var marks []Mark
	seg := int32(0)
	for i := range events {
		ev := &events[i]
		switch ev.Type {
		case loopguard.EventCall:
			marks = append(marks, Mark{Tool: ev.Tool, Failed: ev.Failed, seg: seg, args: loopguard.ArgumentsKey(ev.Args)})
		case loopguard.EventUser, loopguard.EventEnd:
			seg++
		}
	}
	return marks
}
