package loopguard

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// PluginProgress is the progress-aware detector: the `default` preset.
const PluginProgress = "progress"

// Notice kinds of the progress detector.
const (
	KindStuck   = "stuck"   // the same call, the same result, nothing changed in between
	KindCycle   = "cycle"   // a cycle of calls whose results do not change
	KindErrors  = "errors"  // one tool failing again and again with near-identical errors
	KindChurn   = "churn"   // one tool's arguments keep changing, its result does not
	KindPoll    = "poll"    // polling that advances, past its budget
	KindThought = "thought" // the model repeats itself while its calls bring nothing new
)

// ProgressConfig holds the options of the progress detector. Every count is a number of calls
// (or, for thoughts, of model turns) in one chain; a user message ends every chain.
type ProgressConfig struct {
	// Mode is "remind" or "deny". In deny mode a call is refused only when it would repeat a
	// confirmed no-progress chain: the same call, the same result, nothing changed since.
	Mode string `json:"mode" yaml:"mode"`
	// Thresholds are the lengths of a no-progress chain (the same call and result, nothing
	// changed) at which the model is reminded: gently at the first, in detail after. Cycles use
	// the same numbers, counted in rounds. Default [3, 6].
	Thresholds []int `json:"thresholds" yaml:"thresholds"`
	// RemindEvery: past the last threshold, remind again every this many further calls. 0 never.
	RemindEvery int `json:"remindEvery" yaml:"remindEvery"`
	// QuietCalls: after a notice, further notices are held back for this many calls, except a
	// no-progress chain passing a later threshold. A model that has just been told it is
	// looping hears nothing new in a second notice one call later about another call of the
	// same loop. Default 5; 0 lets every notice through.
	QuietCalls int `json:"quietCalls" yaml:"quietCalls"`
	// ErrorRepeats is how many near-identical failures of one tool in a row (its arguments may
	// change) give a notice. Default 4: the first failure is news, three more are not.
	ErrorRepeats int `json:"errorRepeats" yaml:"errorRepeats"`
	// ChurnRepeats is how many argument variants of one tool, all with the same result, give a
	// notice. Default 6.
	ChurnRepeats int `json:"churnRepeats" yaml:"churnRepeats"`
	// MaxCyclePeriod is the longest cycle looked for (2 to 8). Default 6.
	MaxCyclePeriod int `json:"maxCyclePeriod" yaml:"maxCyclePeriod"`
	// ThoughtRepeats is how many model turns saying the same thing, while the calls between them
	// bring nothing new, give a notice. Default 3.
	ThoughtRepeats int `json:"thoughtRepeats" yaml:"thoughtRepeats"`
	// ThoughtLimit is how many model turns saying the same thing give a notice even when the
	// calls between them bring new results (unless they are the same call paging on); half
	// as many when the calls wander back and forth over what they look through. Default 20.
	ThoughtLimit int `json:"thoughtLimit" yaml:"thoughtLimit"`
	// PollBudget is how many times the same call may return a changed but similar result
	// (polling that advances) before one gentle note. Default 30.
	PollBudget int `json:"pollBudget" yaml:"pollBudget"`
	// DenyAfter (deny mode) is the length of a no-progress chain after which the same call is
	// refused, until something changes or the user speaks. Default 8.
	DenyAfter int `json:"denyAfter" yaml:"denyAfter"`
	// Similarity (percent) is how alike two results or texts must be to count as the same
	// error, the same answer, or the same thought. Default 80.
	Similarity int `json:"similarity" yaml:"similarity"`
	// Transparent tools are bookkeeping (plans, todo lists, thinking): they are not watched and
	// do not break a chain or a cycle. Patterns; `*` is the only wildcard.
	Transparent []string `json:"transparent" yaml:"transparent"`
	// Exempt tools are not watched either; the list is the user's, so that exempting a tool
	// does not mean restating the bookkeeping defaults.
	Exempt []string `json:"exempt" yaml:"exempt"`
	// Mutating tools change the workspace when they succeed, on top of the built-in names
	// (edit, write, create, replace, apply_patch, ...) and shell commands that write.
	Mutating []string `json:"mutating" yaml:"mutating"`
	// Tools overrides options for the tools matching a pattern; the first match wins.
	Tools []ToolOverride `json:"tools" yaml:"tools"`
}

// ToolOverride changes the progress detector's options for the tools matching Match.
type ToolOverride struct {
	Match string `json:"match" yaml:"match"`
	// PollBudget, when > 0, replaces the poll budget for these tools.
	PollBudget int `json:"pollBudget" yaml:"pollBudget"`
	// Mutating, when set, says whether these tools change the workspace, overriding the
	// built-in judgement.
	Mutating *bool `json:"mutating,omitempty" yaml:"mutating,omitempty"`
	// Exempt, when true, leaves these tools alone.
	Exempt bool `json:"exempt,omitempty" yaml:"exempt,omitempty"`
}

// DefaultTransparent lists the bookkeeping tools of the agents loopguard knows: they record a
// plan or a thought, and say nothing about the work.
var DefaultTransparent = []string{"think", "Think", "TodoWrite", "TodoRead", "todo_write", "todo_read",
	"todowrite", "todoread", "update_plan", "write_todos", "plan", "task_tracker", "sequentialthinking",
	"*__sequentialthinking", "ExitPlanMode", "save_memory"}

// DefaultProgress returns the progress detector's defaults.
func DefaultProgress() *ProgressConfig {
	return &ProgressConfig{
		Mode:           ModeRemind,
		Thresholds:     []int{3, 6},
		RemindEvery:    10,
		QuietCalls:     5,
		ErrorRepeats:   4,
		ChurnRepeats:   6,
		MaxCyclePeriod: 6,
		ThoughtRepeats: 3,
		ThoughtLimit:   20,
		PollBudget:     30,
		DenyAfter:      8,
		Similarity:     80,
		Transparent:    slices.Clone(DefaultTransparent),
		Exempt:         []string{},
		Mutating:       []string{},
		Tools:          []ToolOverride{},
	}
}

// ProgressIntOptions lists the progress detector's integer options with their minimums, in
// the order they are validated.
func ProgressIntOptions() []ProgressIntOption { return slices.Clone(progressIntFields) }

// ProgressIntOption describes one integer option of the progress detector.
type ProgressIntOption struct {
	Name     string
	Min, Max int
	Field    func(*ProgressConfig) *int
}

var progressIntFields = []ProgressIntOption{
	{"remindEvery", 0, 1 << 20, func(c *ProgressConfig) *int { return &c.RemindEvery }},
	{"quietCalls", 0, 1 << 20, func(c *ProgressConfig) *int { return &c.QuietCalls }},
	{"errorRepeats", 2, 1 << 20, func(c *ProgressConfig) *int { return &c.ErrorRepeats }},
	{"churnRepeats", 2, 1 << 20, func(c *ProgressConfig) *int { return &c.ChurnRepeats }},
	{"maxCyclePeriod", 2, maxPeriod, func(c *ProgressConfig) *int { return &c.MaxCyclePeriod }},
	{"thoughtRepeats", 2, 1 << 20, func(c *ProgressConfig) *int { return &c.ThoughtRepeats }},
	{"thoughtLimit", 2, 1 << 20, func(c *ProgressConfig) *int { return &c.ThoughtLimit }},
	{"pollBudget", 2, 1 << 20, func(c *ProgressConfig) *int { return &c.PollBudget }},
	{"denyAfter", 2, 1 << 20, func(c *ProgressConfig) *int { return &c.DenyAfter }},
	{"similarity", 50, 100, func(c *ProgressConfig) *int { return &c.Similarity }},
}

func (p *ProgressConfig) validate() error {
	if p.Mode != ModeRemind && p.Mode != ModeDeny {
		return progressError("mode must be 'remind' or 'deny', got %s", p.Mode)
	}
	if len(p.Thresholds) == 0 {
		return progressError("`thresholds` must not be empty")
	}
	seen := map[int]bool{}
	for _, t := range p.Thresholds {
		if t < 2 {
			return progressError("invalid threshold %d — every threshold must be an integer >= 2", t)
		}
		if seen[t] {
			return progressError("`thresholds` must not contain duplicates")
		}
		seen[t] = true
	}
	for _, f := range progressIntFields {
		if v := *f.Field(p); v < f.Min || v > f.Max {
			return progressError("%s must be an integer from %d to %d, got %d", f.Name, f.Min, f.Max, v)
		}
	}
	for i, t := range p.Tools {
		if t.Match == "" {
			return progressError("tools[%d]: `match` must not be empty", i)
		}
		if t.PollBudget < 0 {
			return progressError("tools[%d]: pollBudget must be an integer >= 0, got %d", i, t.PollBudget)
		}
	}
	return nil
}

func progressError(format string, args ...any) error {
	return fmt.Errorf(PluginProgress+": "+format, args...)
}

// maxPeriod bounds MaxCyclePeriod, and so the ring of recent calls.
const maxPeriod = 8

// progressDetector is the progress-aware detector. Its rules, in docs/detection.md:
//
//   - stuck: the same call (tool and arguments) with the same normalised result, nothing
//     changed in between (no successful mutating call): reminded at each threshold;
//   - cycle: a cycle of 2..MaxCyclePeriod calls whose results do not change, reminded once it
//     has come round Thresholds[0] times;
//   - errors: one tool failing ErrorRepeats times in a row with near-identical errors;
//   - churn: one tool called with ChurnRepeats different arguments, all answered the same;
//   - poll: the same call answered with a changed but similar result (polling that advances)
//     more than PollBudget times: one gentle note;
//   - thought: the model saying the same thing turn after turn while its calls bring back
//     only what it has already seen.
type progressDetector struct {
	cfg         ProgressConfig
	cat         *catalogue
	thresholds  []int
	transparent []pattern
	mutating    []pattern
	similar     float64
	tools       []compiledOverride
}

type compiledOverride struct {
	pattern
	ToolOverride
}

func newProgressDetector(cfg ProgressConfig, cat *catalogue) *progressDetector {
	d := &progressDetector{cfg: cfg, cat: cat, thresholds: slices.Clone(cfg.Thresholds),
		similar: float64(cfg.Similarity) / 100}
	slices.Sort(d.thresholds)
	for _, p := range append(slices.Clone(cfg.Transparent), cfg.Exempt...) {
		d.transparent = append(d.transparent, compilePattern(p))
	}
	for _, p := range append(slices.Clone(defaultMutatingTools), cfg.Mutating...) {
		d.mutating = append(d.mutating, compilePattern(strings.ToLower(p)))
	}
	for _, t := range cfg.Tools {
		d.tools = append(d.tools, compiledOverride{compilePattern(t.Match), t})
	}
	return d
}

func (d *progressDetector) plugin() string          { return PluginProgress }
func (d *progressDetector) id() byte                { return 3 }
func (d *progressDetector) newState() detectorState { return &progressState{d: d} }

// toolClass is what the detector knows of a tool from its name alone.
type toolClass struct {
	waits      bool // its name says it waits or reads a background job's output
	ignored    bool // transparent or exempt
	mutating   bool // changes the workspace by name
	decided    bool // mutating was set by an override: no argument check
	pollBudget int
}

func (d *progressDetector) classify(tool string) toolClass {
	c := toolClass{pollBudget: d.cfg.PollBudget}
	c.ignored = matchAny(d.transparent, tool)
	lower := strings.ToLower(tool)
	// What a tool writes to a process's input (Codex's write_stdin) is judged by what it types,
	// as a terminal's keystrokes are (see mutates), not by the "write" in its name.
	c.mutating = matchAny(d.mutating, lower) && !strings.Contains(lower, "stdin")
	c.waits = strings.Contains(lower, "sleep") || strings.Contains(lower, "wait") ||
		strings.HasSuffix(lower, "output") || strings.Contains(lower, "status")
	for _, o := range d.tools {
		if !o.match(tool) {
			continue
		}
		if o.PollBudget > 0 {
			c.pollBudget = o.PollBudget
		}
		if o.Mutating != nil {
			c.mutating, c.decided = *o.Mutating, true
		}
		if o.Exempt {
			c.ignored = true
		}
		break
	}
	return c
}

// callRecord is what the state keeps of the last watched call, for telling a poll.
type callRecord struct {
	id         uint64 // tool and canonical arguments
	result     uint64 // normalised result
	sketch     sketch // of the masked result
	epochAfter uint32 // the workspace epoch once this call was done
}

// toolChain follows one tool's run of near-identical outcomes (errors, churn).
type toolChain struct {
	tool     uint64
	head     uint64 // masked result of the chain's first call
	lead     uint64 // its first line
	sketch   sketch
	epoch    uint32
	count    int32
	variants int32 // calls whose arguments differ from the call before them
	lastID   uint64
	failed   bool // every call of the chain failed
	noticed  bool
}

const maxChains = 8

const maxRefail = 4

type refailChain struct {
	seq     uint32 // when the chain started, for forgetting the oldest
	id      uint64
	result  uint64
	sig     uint64 // failureSignature of the chain's first failure
	prev    uint64 // the failure before the chain's, for a command moving between two
	prevSig uint64
	hasPrev bool
	weak    bool // some failure matched by its signature alone, or two failures alternate: one more repeat is wanted
	sketch  sketch
	count   int32
	epochs  int32 // changes of the workspace seen during the chain
	epoch   uint32
	noticed bool
}

type progressState struct {
	d *progressDetector

	epoch uint32 // bumped by every successful mutating call
	calls int32  // watched calls since the last reset

	last     callRecord // the last watched call
	hasLast  bool
	stuck    int32 // length of the current no-progress chain ending at last
	polls    int32 // changed-but-similar answers to the same call in a row
	pollSaid bool

	chains []toolChain

	// refail follows one command failing the same way again and again, across changes of the
	// workspace: edits that leave a failure as it was are not reaching its cause.
	refail    [maxRefail]refailChain
	refailSeq uint32

	recent [recentWindow]recentCall // the last watched calls, newest at recent[(calls-1)%len]

	ring [2*maxPeriod + 1]uint64 // keys (call and result) of the recent calls, newest at ring[(calls-1)%len]
	runs [maxPeriod + 1]int32    // runs[k]: how many recent calls equal the one k before

	thought     digest // the model's current repeated text
	thoughtN    int32  // how many turns said it
	thoughtSeen bool   // a model text since the last call
	stale       int32  // calls in the thought chain that brought nothing new
	paging      bool   // every call of the thought chain was the same call
	pagingID    uint64
	backs       int32     // calls of the thought chain that went back to an earlier place (see pageOf)
	pageShape   uint64    // the last call's pageOf shape
	pageAt      pagePlace // and its place
	thoughtSaid int32     // the thoughtN at the last notice
	saidAt      int32     // calls at the last notice, 0 before the first
	callSaid    bool      // a call notice was given since the thought began
	lastTextID  uint64

	tools          toolRing // names of the recent calls, for naming a cycle
	thoughtPreview string   // the repeated thought, shortened, for the notice

	seen    bloom // lines of results seen since the current thought began (and the workspace last changed)
	refused []refusal

	classes map[string]classEntry
	dg      digester
}

type refusal struct {
	id    uint64
	epoch uint32
}

// bloom is a Bloom filter of result lines, for telling new content from content already
// seen. 8,192 bits with two probes keep false positives under 5% up to 1,200 lines; past
// that it starts afresh, forgetting the oldest content rather than seeing everything as old.
type bloom struct {
	bits [128]uint64
	n    int32
}

const bloomCapacity = 1200

func (b *bloom) test(h uint64) bool {
	h1, h2 := h&8191, (h>>17)&8191
	return b.bits[h1>>6]&(1<<(h1&63)) != 0 && b.bits[h2>>6]&(1<<(h2&63)) != 0
}

func (b *bloom) add(h uint64) {
	if b.n >= bloomCapacity {
		b.reset()
	}
	h1, h2 := h&8191, (h>>17)&8191
	b.bits[h1>>6] |= 1 << (h1 & 63)
	b.bits[h2>>6] |= 1 << (h2 & 63)
	b.n++
}

func (b *bloom) reset() {
	if b.n > 0 {
		b.bits = [128]uint64{}
		b.n = 0
	}
}

// classEntry is a tool's class with its name interned, so that keeping the name of a recent
// call costs no allocation.
type classEntry struct {
	toolClass
	name string
}

func (s *progressState) class(tool string) classEntry {
	if c, ok := s.classes[tool]; ok {
		return c
	}
	if s.classes == nil {
		s.classes = make(map[string]classEntry)
	}
	c := classEntry{s.d.classify(tool), strings.Clone(tool)}
	if len(s.classes) < 256 {
		s.classes[c.name] = c
	}
	return c
}

func (s *progressState) reset() {
	d, classes, dg := s.d, s.classes, s.dg
	chains := s.chains[:0]
	refused := s.refused[:0]
	*s = progressState{d: d, classes: classes, dg: dg, chains: chains, refused: refused}
}

// changed records a change of the workspace: every chain that assumed an unchanged world ends.
func (s *progressState) changed() {
	s.epoch++
	s.chains = s.chains[:0]
	s.runs = [maxPeriod + 1]int32{}
	s.thoughtN, s.stale, s.thoughtSaid = 0, 0, 0
	s.seen.reset()
	s.refused = s.refused[:0]
}

func (s *progressState) observeCall(c *observedCall, out []Notice) []Notice {
	d := s.d
	cls := s.class(c.tool)
	if cls.ignored {
		return out
	}
	id := callID(c, cls.mutating)
	if s.wouldRefuse(c) {
		// A refused call, observed with its refusal as its result: it did not run, so it
		// changes no chain; the refusal stays until something changes.
		if !slices.ContainsFunc(s.refused, func(r refusal) bool { return r.id == id && r.epoch == s.epoch }) && len(s.refused) < 64 {
			s.refused = append(s.refused, refusal{id: id, epoch: s.epoch})
		}
		return out
	}
	s.tools.push(cls.name)
	dg := s.digestResult(c)
	novel, total := 0, len(s.dg.lines)
	for _, h := range s.dg.lines {
		if !s.seen.test(h) {
			novel++
		}
	}
	for _, h := range s.dg.lines {
		s.seen.add(h)
	}
	rec := callRecord{id: id, result: dg.exact, sketch: dg.sketch}
	toolHash := hashString(c.tool)

	// stuck: the same call earlier in the window, with the same result and nothing changed
	// since, continues its chain. poll: the same call as the last one, answered differently but
	// alike.
	prevCount, dist := s.recentRepeat(id, dg.exact, c.failed)
	noProgress := prevCount > 0
	sameCall := s.hasLast && s.last.id == id
	// A call that waits (sleep, a background job's output) is made again on purpose: time
	// passes between two of them, so the same answer is a poll that has not advanced yet,
	// counted against the poll budget, not a stuck call. An editor's arguments are the text
	// it writes: a sleep there is code, not a wait.
	waiting := cls.waits || !cls.mutating && (hasSleep(c.args) || sendsNoKeys(c.args))
	switch {
	case noProgress && waiting && sameCall:
		s.stuck = 1
		s.polls++
		noProgress = false
	case noProgress:
		s.stuck = prevCount + 1
		s.polls = 0
	case sameCall && s.last.epochAfter == s.epoch && similarity(&s.last.sketch, &dg.sketch) >= 0.5:
		s.stuck = 1
		s.polls++
	default:
		s.stuck, s.polls, s.pollSaid = 1, 0, false
	}
	sameResult := noProgress || (sameCall && s.last.result == dg.exact)

	// The workspace: a successful mutating call changes it, unless it repeats itself exactly
	// (writing the same thing twice changes nothing the second time).
	mut := cls.mutating
	if !cls.decided {
		mut = mutates(cls.mutating, c.tool, c.args)
	}
	if mut && !c.failed && !sameResult {
		s.changed()
	}
	rec.epochAfter = s.epoch
	s.recent[int(s.calls)%len(s.recent)] = recentCall{id: id, result: dg.exact, epochAfter: s.epoch, count: s.stuck, failed: c.failed}

	// Thought chain: note whether this call brought anything new.
	if s.thoughtN >= 1 {
		shape, at := pageOf(c.tool, c.args)
		if s.thoughtN == 1 {
			s.paging, s.pagingID = true, id
		} else {
			if id != s.pagingID {
				s.paging = false
			}
			if shape == s.pageShape && at.before(s.pageAt) {
				s.backs++
			}
		}
		s.pageShape, s.pageAt = shape, at
		if noProgress || (total > 0 && novel*2 < total) || (total == 0 && sameResult) {
			s.stale++
		}
	}
	s.thoughtSeen = false

	// Cycles: keys of call and result.
	key := combine(id, dg.exact)
	s.calls++
	n := int(s.calls)
	for k := 2; k <= d.cfg.MaxCyclePeriod; k++ {
		if n > k && s.ring[(n-1-k)%len(s.ring)] == key {
			s.runs[k]++
		} else {
			s.runs[k] = 0
		}
	}
	s.ring[(n-1)%len(s.ring)] = key

	// errors and churn: this tool's run of near-identical outcomes.
	ch := s.chain(toolHash)
	// A failing edit restates the attempted change after its error, so for a mutating tool
	// the error's first line decides what counts as the same failure.
	failed := c.failed || looksFailed(c.result)
	sameLead := mut && failed && ch != nil && ch.failed && ch.lead == dg.lead
	if ch != nil && ch.epoch == s.epoch && dg.words >= 3 && (ch.head == dg.masked || sameLead || similarity(&ch.sketch, &dg.sketch) >= d.similar) {
		ch.count++
		if ch.lastID != id {
			ch.variants++
		}
		ch.lastID = id
		ch.failed = ch.failed && failed
	} else if ch != nil {
		*ch = toolChain{tool: toolHash, head: dg.masked, lead: dg.lead, sketch: dg.sketch, epoch: s.epoch, count: 1, lastID: id, failed: failed}
	} else {
		s.addChain(toolChain{tool: toolHash, head: dg.masked, lead: dg.lead, sketch: dg.sketch, epoch: s.epoch, count: 1, lastID: id, failed: failed})
		ch = &s.chains[len(s.chains)-1]
	}
	if dg.words < 3 || waiting {
		// An empty or one-word answer says too little to call two answers the same; and a
		// call that waits is polling (a backoff's "connection refused" after each longer
		// sleep), counted against the poll budget, not as an error or churn.
		ch.count = 0
	}

	var sig uint64
	if failed {
		sig = failureSignature(c.result)
	}
	rf := s.updateRefail(id, failed, &dg, sig)
	s.last, s.hasLast = rec, true

	// One notice per call at most, the most specific first.
	before := len(out)
	out = s.callNotice(c, cls, ch, rf, noProgress, dist, out)
	if len(out) > before {
		s.callSaid = true
		if s.quiet(noProgress && int(s.stuck) > d.thresholds[0]) {
			return out[:before]
		}
		s.saidAt = s.calls
		return out
	}
	if n, sweep := s.thoughtCheck(); n > 0 && !s.quiet(false) {
		s.saidAt = s.calls
		return append(out, s.thoughtNotice(c.agent, n, sweep))
	}
	return out
}

// quiet says whether a notice due now is held back because the model was told about a loop
// only a few calls ago (QuietCalls): one reminder per stretch of a loop is heard, one per call
// is nagging. An escalation (a no-progress chain past its first threshold) still speaks.
func (s *progressState) quiet(escalation bool) bool {
	return !escalation && s.saidAt > 0 && int(s.calls-s.saidAt) < s.d.cfg.QuietCalls
}

// callNotice appends the notice the call is due, if any: one at most, the most specific
// first.
func (s *progressState) callNotice(c *observedCall, cls classEntry, ch *toolChain, rf *refailChain, noProgress bool, dist int, out []Notice) []Notice {
	d := s.d
	if noProgress && s.remindAt(int(s.stuck)) && !s.cycleForming(dist) {
		return append(out, s.stuckNotice(c))
	}
	if k := s.cyclePeriod(); k > 0 {
		rounds := int(s.runs[k])/k + 1
		if int(s.runs[k])%k == 0 && s.remindAt(rounds) {
			return append(out, s.cycleNotice(c, k, rounds))
		}
	}
	if !ch.noticed && ch.failed && int(ch.count) >= d.cfg.ErrorRepeats && int(s.stuck) < d.thresholds[0] {
		ch.noticed = true
		return append(out, s.errorsNotice(c, int(ch.count)))
	}
	if !ch.noticed && int(ch.variants) >= d.cfg.ChurnRepeats-1 && int(ch.count) >= d.cfg.ChurnRepeats {
		ch.noticed = true
		return append(out, s.churnNotice(c, int(ch.count)))
	}
	if r := rf; r != nil && !r.noticed && r.epochs >= 2 && r.reached(d.cfg.ErrorRepeats) {
		r.noticed = true
		return append(out, s.notice(c.agent, KindErrors, c.tool+" failed × "+itoa(int(r.count)),
			fill(s.d.cat.progressRefail, "tool", c.tool, "count", itoa(int(r.count)), "edits", itoa(int(r.epochs)))))
	}
	if !s.pollSaid && int(s.polls) >= cls.pollBudget {
		s.pollSaid = true
		return append(out, s.pollNotice(c, int(s.polls)+1))
	}
	return out
}

// digestResult digests a call's result. A command's output that a tool heads with how the
// command ran (Codex: "Chunk ID: …", "Wall time: …", "Process exited with code 0", "Output:")
// is digested as two parts: the header counts in the result's identity (an exit status that
// changes is a changed result) but not in what the answer says, so that six commands printing
// six different one-word answers under the same header are not "the same answer", an empty
// output is too short to compare, and a failure's first line is its own.
func (s *progressState) digestResult(c *observedCall) digest {
	result, header := c.result, ""
	if n := execHeaderEnd(result); n > 0 {
		header, result = result[:n], result[n:]
	}
	var head digest
	if header != "" {
		head = s.dg.digest(header, false, false)
	}
	echo := len(result) > 0 && len(result) < longTextBytes // see digest: short answers only
	if echo {
		s.dg.setEcho(c.args)
	}
	dg := s.dg.digest(result, echo, true)
	if header != "" {
		dg.exact, dg.masked = combine(dg.exact, head.exact), combine(dg.masked, head.exact)
	}
	return dg
}

// execHeaderEnd returns where the output starts in a result headed the way Codex heads a
// command's output ("Chunk ID: …" or "Exit code: …", then lines up to "Output:"), or 0.
func execHeaderEnd(result string) int {
	if !strings.HasPrefix(result, "Chunk ID: ") && !strings.HasPrefix(result, "Exit code: ") {
		return 0
	}
	const mark = "\nOutput:\n"
	if i := strings.Index(result[:min(len(result), 512)], mark); i > 0 {
		return i + len(mark)
	}
	if strings.HasSuffix(result, "\nOutput:") { // nothing printed, and no newline after the label
		return len(result)
	}
	return 0
}

// sendsNoKeys says whether a call types nothing and only waits for what a running command
// prints next: Terminus's {"keystrokes": "", "duration": 30}, Codex's write_stdin
// {"session_id": 4, "chars": ""}, OpenHands' execute_bash {"command": ""} ("can be empty to
// view additional logs" of a command still running). The first of these keys decides.
func sendsNoKeys(args []byte) bool {
	// Looked for at the quotes followed by a 'k' or a 'c', which are few: this runs for every
	// call.
	for i := bytes.IndexByte(args, '"'); i >= 0 && i+1 < len(args); {
		if c := args[i+1]; c == 'k' || c == 'c' {
			for _, key := range typingKeys {
				if key[1] == c && bytes.HasPrefix(args[i:], key) {
					rest := bytes.TrimLeft(args[i+len(key):], " \t\r\n:")
					return bytes.HasPrefix(rest, []byte(`""`))
				}
			}
		}
		next := bytes.IndexByte(args[i+1:], '"')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// typingKeys are the keys under which a call types into a terminal or a running command
// (see sendsNoKeys).
var typingKeys = [][]byte{[]byte(`"keystrokes"`), []byte(`"chars"`), []byte(`"command"`), []byte(`"cmd"`)}

// recentCall is what the window of recent calls keeps of each.
type recentCall struct {
	id, result uint64
	epochAfter uint32
	count      int32 // the length of the no-progress chain this call ended
	failed     bool
}

// recentWindow is how far back the same call is looked for: long enough for a cycle of
// MaxCyclePeriod with bookkeeping between, short enough that a file read again much later is
// not a repeat.
const recentWindow = 8

// recentRepeat finds the latest earlier occurrence of call id in the window. When it had the
// same result, failed alike, and nothing changed since, it returns that chain's length and how
// many calls back it was; otherwise 0 and the distance (0 when not found).
func (s *progressState) recentRepeat(id, result uint64, failed bool) (count int32, dist int) {
	n := int(s.calls)
	for d := 1; d <= recentWindow && d <= n; d++ {
		r := &s.recent[(n-d)%len(s.recent)]
		if r.id != id {
			continue
		}
		if r.result == result && r.failed == failed && r.epochAfter == s.epoch {
			return r.count, d
		}
		return 0, d
	}
	return 0, 0
}

// cycleForming says whether a repeat dist calls back belongs to a cycle in the making: the
// calls since it repeat the ones before it. The cycle rule speaks for those.
func (s *progressState) cycleForming(dist int) bool {
	return dist >= 2 && dist <= s.d.cfg.MaxCyclePeriod && int(s.runs[dist]) >= dist
}

// failureMarks are what a failing program prints, for hosts that do not say whether a call
// failed (SWE-agent, a script that catches its own exception and exits 0).
var failureMarks = []string{"Traceback (most recent call last)", "Error:", "error:", "ERROR", "FAILED",
	"Exception:", "panic:", "fatal:", "command not found", "No such file or directory"}

// looksFailed says whether a result reads as a failure: one of failureMarks in its last 2 KB,
// where a traceback or a test summary ends.
//
// A nonzero exit status in the text says so too ("Process exited with code 1", Codex's header;
// "Exit Code: 3", Gemini CLI's; "exit status 2", Go's): hosts that pass on only the text (a
// proxy, Codex's hooks) would otherwise see a failing command as one that ran fine. Tools
// report it in the first or the last lines, so only the first and last exitWindow bytes are
// looked at.
func looksFailed(result string) bool {
	head, tail := result, result
	if len(result) > exitWindow {
		head, tail = result[:exitWindow], result[len(result)-exitWindow:]
	}
	if reportsNonzeroExit(head) || len(result) > exitWindow && reportsNonzeroExit(tail) {
		return true
	}
	if len(result) > 2048 {
		result = result[len(result)-2048:]
	}
	return hasFailureMark(result)
}

// exitWindow is how much of a result's start and end looksFailed reads for an exit status.
const exitWindow = 256

// reportsNonzeroExit says whether s reports a nonzero exit status: "exit", "Exit" or "EXIT",
// then " code", " status" or "ed with code" (any case), an optional ':', spaces, and a number
// that is not 0.
func reportsNonzeroExit(s string) bool {
	return nonzeroExitAfter(s, "xit") || nonzeroExitAfter(s, "XIT")
}

// nonzeroExitAfter is reportsNonzeroExit for the spellings of "exit" that end in stem.
func nonzeroExitAfter(s, stem string) bool {
	for i := strings.Index(s, stem); i >= 0; {
		if i > 0 && (s[i-1] == 'E' || s[i-1] == 'e' && stem[0] == 'x') {
			rest := s[i+3:]
			for _, tail := range [...]string{" code", " status", "ed with code"} {
				if len(rest) >= len(tail) && strings.EqualFold(rest[:len(tail)], tail) {
					if nonzeroNumberAt(rest[len(tail):]) {
						return true
					}
					break
				}
			}
		}
		next := strings.Index(s[i+3:], stem)
		if next < 0 {
			break
		}
		i += 3 + next
	}
	return false
}

// nonzeroNumberAt says whether s starts with an optional ':', spaces, and a number other than 0.
func nonzeroNumberAt(s string) bool {
	i := 0
	if i < len(s) && s[i] == ':' {
		i++
	}
	for i < len(s) && s[i] == ' ' {
		i++
	}
	for i < len(s) && s[i] == '0' {
		i++
	}
	return i < len(s) && '1' <= s[i] && s[i] <= '9'
}

// hasFailureMark says whether s holds one of failureMarks.
func hasFailureMark(s string) bool {
	// The marks that end in ':' are looked for at the colons, which are few: searching for
	// "error:" itself stops at every 'e'. The others start with a rarer letter.
	for p := strings.IndexByte(s, ':'); p >= 0; {
		for _, stem := range colonMarks {
			if p >= len(stem) && s[p-1] == stem[len(stem)-1] && s[p-len(stem):p] == stem {
				return true
			}
		}
		next := strings.IndexByte(s[p+1:], ':')
		if next < 0 {
			break
		}
		p += 1 + next
	}
	for _, m := range otherMarks {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// failureSignature hashes the line that names a failure: the last line of the result's last
// 2 KB holding one of failureMarks (a Python traceback's exception line, pytest's "FAILED
// test::name - reason", "make: *** ... Error 2"), volatile fields masked. Debug prints moved
// between two runs change the output around a failure, not the line that names it. 0 when no
// line names one.
func failureSignature(result string) uint64 {
	if len(result) > 2048 {
		result = result[len(result)-2048:]
	}
	// No mark holds a newline, so the line holding the last mark is the last line holding
	// any: the lines are read from the end, and the first with a mark is the one.
	for end := len(result); ; {
		start := strings.LastIndexByte(result[:end], '\n') + 1
		if hasFailureMark(result[start:end]) {
			line := strings.TrimSpace(result[start:end])
			if strings.HasPrefix(line, "Traceback (most recent call last)") {
				// The header says only that something was raised; the exception is the last line.
				line = lastLine(result[end:])
			}
			if line == "" {
				return 0
			}
			return mix64(hashLine(line)) | 1
		}
		if start == 0 {
			return 0
		}
		end = start - 1
	}
}

// reached says whether the chain has failed the same way repeats times, one more when some of
// its matches were weak (the failure's line alone, or an alternation).
func (r *refailChain) reached(repeats int) bool {
	if r.weak {
		repeats++
	}
	return int(r.count) >= repeats
}

// lastLine returns the last non-blank line of s, trimmed.
func lastLine(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	return strings.TrimSpace(s[strings.LastIndexByte(s, '\n')+1:])
}

// colonMarks are the failureMarks that end in ':', without it; otherMarks are the rest.
var colonMarks, otherMarks = func() (colon, other []string) {
	for _, m := range failureMarks {
		if stem, ok := strings.CutSuffix(m, ":"); ok && stem != "" {
			colon = append(colon, stem)
		} else {
			other = append(other, m)
		}
	}
	return colon, other
}()

// updateRefail extends the same-failure chain of this call's command when it failed alike,
// starts it afresh when it failed otherwise, and ends it when the command succeeds. Other
// commands' failures leave it alone: a rejected edit between two test runs is not news about
// the test. Up to maxRefail commands are followed, the oldest forgotten first.
func (s *progressState) updateRefail(id uint64, failed bool, dg *digest, sig uint64) *refailChain {
	var r *refailChain
	for i := range s.refail {
		if s.refail[i].count > 0 && s.refail[i].id == id {
			r = &s.refail[i]
			break
		}
	}
	switch {
	case !failed:
		if r != nil {
			*r = refailChain{}
		}
		return nil
	case dg.words < 3:
		return nil
	case r != nil && (r.result == dg.exact || similarity(&r.sketch, &dg.sketch) >= s.d.similar):
		r.extend(s.epoch)
		return r
	case r != nil && sig != 0 && r.sig == sig:
		// The same failure by the line naming it: weaker evidence than the same output, so
		// the chain speaks one repeat later.
		r.weak = true
		r.extend(s.epoch)
		return r
	case r != nil && r.hasPrev && (r.prev == dg.exact || (sig != 0 && r.prevSig == sig)):
		// Back to the failure before this one: edits that move a command between two
		// failures and back reach neither cause. The chain goes on, one repeat later.
		r.prev, r.prevSig, r.result, r.sig = r.result, r.sig, dg.exact, sig
		r.sketch = dg.sketch
		r.weak = true
		r.extend(s.epoch)
		return r
	case r != nil:
		// Another failure is news: the chain starts afresh, remembering the one it leaves.
		s.refailSeq++
		*r = refailChain{id: id, result: dg.exact, sig: sig, sketch: dg.sketch, count: 1, epoch: s.epoch, seq: s.refailSeq,
			prev: r.result, prevSig: r.sig, hasPrev: true}
		return r
	case r == nil:
		// Take a free slot, or the oldest.
		r = &s.refail[0]
		for i := range s.refail {
			if s.refail[i].count == 0 {
				r = &s.refail[i]
				break
			}
			if s.refail[i].seq < r.seq {
				r = &s.refail[i]
			}
		}
	}
	s.refailSeq++
	*r = refailChain{id: id, result: dg.exact, sig: sig, sketch: dg.sketch, count: 1, epoch: s.epoch, seq: s.refailSeq}
	return r
}

// extend counts one more failure in the chain, and a change of the workspace since the last.
func (r *refailChain) extend(epoch uint32) {
	r.count++
	if r.epoch != epoch {
		r.epochs++
		r.epoch = epoch
	}
}

// remindAt says whether a chain of length n is reminded: at each threshold, then every
// RemindEvery further.
func (s *progressState) remindAt(n int) bool {
	th := s.d.thresholds
	if slices.Contains(th, n) {
		return true
	}
	last := th[len(th)-1]
	every := s.d.cfg.RemindEvery
	return every > 0 && n > last && (n-last)%every == 0
}

// cyclePeriod returns the shortest period k whose cycle has come round at least twice in
// full after its first pass (runs[k] >= 2k), or 0. A "cycle" of one call repeated is stuck,
// not a cycle: the last k keys must not all be the same.
func (s *progressState) cyclePeriod() int {
	n := int(s.calls)
	for k := 2; k <= s.d.cfg.MaxCyclePeriod; k++ {
		if int(s.runs[k]) < (s.d.thresholds[0]-1)*k {
			continue
		}
		first := s.ring[(n-1)%len(s.ring)]
		for i := 1; i < k; i++ {
			if s.ring[(n-1-i)%len(s.ring)] != first {
				return k
			}
		}
	}
	return 0
}

func (s *progressState) chain(tool uint64) *toolChain {
	for i := range s.chains {
		if s.chains[i].tool == tool {
			return &s.chains[i]
		}
	}
	return nil
}

func (s *progressState) addChain(c toolChain) {
	if len(s.chains) == maxChains {
		copy(s.chains, s.chains[1:])
		s.chains = s.chains[:maxChains-1]
	}
	s.chains = append(s.chains, c)
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
	if !isModelText(t.source) || strings.TrimSpace(t.text) == "" {
		return out
	}
	if t.id != "" {
		// The same message observed again (one per call of a turn, or a history replayed)
		// is one turn.
		h := hashString(t.id)
		if h == s.lastTextID {
			return out
		}
		s.lastTextID = h
	}
	dg := s.dg.digest(t.text, false, false)
	if s.thoughtSeen {
		// Several blocks in one turn: the turn's first block stands for it.
		return out
	}
	s.thoughtSeen = true
	same := s.thoughtN > 0 && (dg.exact == s.thought.exact ||
		(dg.words >= 8 && s.thought.words >= 8 && similarity(&dg.sketch, &s.thought.sketch) >= s.d.similar))
	if same {
		s.thoughtN++
	} else {
		s.thought, s.thoughtN, s.stale, s.thoughtSaid, s.paging, s.backs = dg, 1, 0, 0, false, 0
		s.seen.reset() // "new" means new since the model began saying this
		s.callSaid = false
	}
	if s.thoughtN == 2 {
		s.thoughtPreview = textPreview(t.text, 120) // only repeated thoughts are ever quoted
	}
	if n, sweep := s.thoughtCheck(); n > 0 && !s.quiet(false) {
		s.saidAt = s.calls
		return append(out, s.thoughtNotice(t.agent, n, sweep))
	}
	return out
}

// thoughtCheck returns the number of repeats to report when the thought chain is due a
// notice, or 0. It is due when the model has said the same thing ThoughtRepeats times and as
// many of the calls in between brought nothing new, or ThoughtLimit times whatever the
// calls brought, unless they were all the same call paging on. A search that wanders (calls
// went back to an earlier place in what they page through twice, see pageOf) is due at half
// the limit: reading on in order is how a model learns a long file, and one step back is a
// correction (a window clipped to the file's end, a second look at the last page), but going
// back and forth while saying the same thing is looking for something it does not find. It
// speaks once, and again every ThoughtLimit turns.
func (s *progressState) thoughtCheck() (n int, sweep bool) {
	d := s.d
	n = int(s.thoughtN)
	if n < d.cfg.ThoughtRepeats || int(s.thoughtSaid) > 0 && n-int(s.thoughtSaid) < d.cfg.ThoughtLimit {
		return 0, false
	}
	limit := d.cfg.ThoughtLimit
	if s.backs >= 2 {
		limit = max(d.cfg.ThoughtRepeats, limit/2)
	}
	// Calls that brought nothing new were already reminded as such: the thought adds nothing
	// to that notice until the limit.
	stale := int(s.stale) >= d.cfg.ThoughtRepeats && !s.callSaid
	if stale || (n >= limit && !s.paging) {
		s.thoughtSaid = int32(n)
		return n, !stale
	}
	return 0, false
}

// wouldRefuse says whether deny mode refuses the call now: the same call as the last one,
// after a no-progress chain of DenyAfter-1 or more, with nothing changed since; or a call
// refused before, with nothing changed since (a refusal stays once made).
func (s *progressState) wouldRefuse(c *observedCall) bool {
	d := s.d
	if d.cfg.Mode != ModeDeny {
		return false
	}
	cls := s.class(c.tool)
	if cls.ignored {
		return false
	}
	id := callID(c, cls.mutating)
	for _, r := range s.refused {
		if r.id == id && r.epoch == s.epoch {
			return true
		}
	}
	n := int(s.calls)
	for back := 1; back <= recentWindow && back <= n; back++ {
		r := &s.recent[(n-back)%len(s.recent)]
		if r.id == id {
			return r.epochAfter == s.epoch && int(r.count) >= d.cfg.DenyAfter-1
		}
	}
	return false
}

func (s *progressState) refuse(c *observedCall) (string, bool) {
	if !s.wouldRefuse(c) {
		return "", false
	}
	return fill(s.d.cat.progressDeny, "tool", c.tool, "count", itoa(s.d.cfg.DenyAfter-1)), true
}

func (s *progressState) notice(agent, kind, summary, text string) Notice {
	return Notice{Agent: agent, Plugin: PluginProgress, Kind: kind, Summary: summary, Text: text}
}

func (s *progressState) stuckNotice(c *observedCall) Notice {
	cat, n := s.d.cat, int(s.stuck)
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

func (s *progressState) cycleTools(k int) string {
	var b strings.Builder
	n := int(s.tools.n)
	for i := k; i >= 1; i-- {
		if b.Len() > 0 {
			b.WriteString(" → ")
		}
		b.WriteString(s.tools.names[(n-i+len(s.tools.names))%len(s.tools.names)])
	}
	return b.String()
}

func (s *progressState) errorsNotice(c *observedCall, n int) Notice {
	return s.notice(c.agent, KindErrors, c.tool+" failed × "+itoa(n),
		fill(s.d.cat.progressErrors, "tool", c.tool, "count", itoa(n)))
}

func (s *progressState) churnNotice(c *observedCall, n int) Notice {
	return s.notice(c.agent, KindChurn, c.tool+" same result × "+itoa(n),
		fill(s.d.cat.progressChurn, "tool", c.tool, "count", itoa(n)))
}

func (s *progressState) pollNotice(c *observedCall, n int) Notice {
	return s.notice(c.agent, KindPoll, c.tool+" polled × "+itoa(n),
		fill(s.d.cat.progressPoll, "tool", c.tool, "count", itoa(n)))
}

// thoughtNotice says that the model wrote the same thing n times, and what its calls did
// meanwhile: brought nothing new, or (sweep) kept moving to other places.
func (s *progressState) thoughtNotice(agent string, n int, sweep bool) Notice {
	text := s.d.cat.progressThought
	if sweep {
		text = s.d.cat.progressThoughtSweep
	}
	return s.notice(agent, KindThought, "same thought × "+itoa(n),
		fill(text, "count", itoa(n), "preview", s.thoughtPreview))
}

// toolRing keeps the names of the last maxPeriod watched calls.
type toolRing struct {
	names [maxPeriod]string
	n     int32
}

func (r *toolRing) push(tool string) {
	r.names[int(r.n)%len(r.names)] = tool
	r.n++
}

// Snapshot layout of the progress detector: a format byte, then the fields in the order below.
// Names are interned again on restore.
const progressSnapFormat = 4

func appendSketch(b []byte, s *sketch) []byte {
	b = append(b, s.n)
	for _, h := range s.h[:s.n] {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	return b
}

func readSketch(r *snapReader, s *sketch) {
	n := int(r.byte())
	if n > sketchSize {
		r.err = fmt.Errorf("sketch of %d", n)
		return
	}
	s.n = uint8(n)
	for i := 0; i < n; i++ {
		s.h[i] = r.u64()
	}
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func (s *progressState) appendSnapshot(b []byte) []byte {
	b = append(b, progressSnapFormat)
	b = binary.AppendUvarint(b, uint64(s.epoch))
	b = binary.AppendUvarint(b, uint64(s.calls))
	b = appendBool(b, s.hasLast)
	b = binary.LittleEndian.AppendUint64(b, s.last.id)
	b = binary.LittleEndian.AppendUint64(b, s.last.result)
	b = appendSketch(b, &s.last.sketch)
	b = binary.AppendUvarint(b, uint64(s.last.epochAfter))
	b = binary.AppendUvarint(b, uint64(s.stuck))
	b = binary.AppendUvarint(b, uint64(s.polls))
	b = appendBool(b, s.pollSaid)
	b = binary.AppendUvarint(b, uint64(len(s.chains)))
	for i := range s.chains {
		c := &s.chains[i]
		b = binary.LittleEndian.AppendUint64(b, c.tool)
		b = binary.LittleEndian.AppendUint64(b, c.head)
		b = binary.LittleEndian.AppendUint64(b, c.lead)
		b = appendSketch(b, &c.sketch)
		b = binary.AppendUvarint(b, uint64(c.epoch))
		b = binary.AppendUvarint(b, uint64(c.count))
		b = binary.AppendUvarint(b, uint64(c.variants))
		b = binary.LittleEndian.AppendUint64(b, c.lastID)
		b = appendBool(b, c.failed)
		b = appendBool(b, c.noticed)
	}
	b = binary.AppendUvarint(b, uint64(s.refailSeq))
	for i := range s.refail {
		f := &s.refail[i]
		b = binary.AppendUvarint(b, uint64(f.seq))
		b = binary.LittleEndian.AppendUint64(b, f.id)
		b = binary.LittleEndian.AppendUint64(b, f.result)
		b = binary.LittleEndian.AppendUint64(b, f.sig)
		b = binary.LittleEndian.AppendUint64(b, f.prev)
		b = binary.LittleEndian.AppendUint64(b, f.prevSig)
		b = appendBool(b, f.hasPrev)
		b = appendBool(b, f.weak)
		b = appendSketch(b, &f.sketch)
		b = binary.AppendUvarint(b, uint64(f.count))
		b = binary.AppendUvarint(b, uint64(f.epochs))
		b = binary.AppendUvarint(b, uint64(f.epoch))
		b = appendBool(b, f.noticed)
	}
	for i := range s.recent {
		r := &s.recent[i]
		b = binary.LittleEndian.AppendUint64(b, r.id)
		b = binary.LittleEndian.AppendUint64(b, r.result)
		b = binary.AppendUvarint(b, uint64(r.epochAfter))
		b = binary.AppendUvarint(b, uint64(r.count))
		b = appendBool(b, r.failed)
	}
	for _, k := range s.ring {
		b = binary.LittleEndian.AppendUint64(b, k)
	}
	for _, r := range s.runs {
		b = binary.AppendUvarint(b, uint64(r))
	}
	b = binary.LittleEndian.AppendUint64(b, s.thought.exact)
	b = binary.AppendUvarint(b, uint64(s.thought.words))
	b = appendSketch(b, &s.thought.sketch)
	b = binary.AppendUvarint(b, uint64(s.thoughtN))
	b = appendBool(b, s.thoughtSeen)
	b = binary.AppendUvarint(b, uint64(s.stale))
	b = appendBool(b, s.paging)
	b = binary.LittleEndian.AppendUint64(b, s.pagingID)
	b = binary.AppendUvarint(b, uint64(s.backs))
	b = binary.LittleEndian.AppendUint64(b, s.pageShape)
	for _, v := range s.pageAt {
		b = binary.AppendUvarint(b, v)
	}
	b = binary.AppendUvarint(b, uint64(s.thoughtSaid))
	b = binary.LittleEndian.AppendUint64(b, s.lastTextID)
	b = appendBool(b, s.callSaid)
	b = binary.AppendUvarint(b, uint64(s.saidAt))
	b = appendString(b, s.thoughtPreview)
	b = binary.AppendUvarint(b, uint64(s.tools.n))
	for _, name := range s.tools.names {
		b = appendString(b, name)
	}
	// The Bloom filter: only its non-empty words, as (index, word).
	b = binary.AppendUvarint(b, uint64(s.seen.n))
	nonzero := 0
	for _, w := range s.seen.bits {
		if w != 0 {
			nonzero++
		}
	}
	b = binary.AppendUvarint(b, uint64(nonzero))
	for i, w := range s.seen.bits {
		if w != 0 {
			b = append(b, byte(i))
			b = binary.LittleEndian.AppendUint64(b, w)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(s.refused)))
	for _, r := range s.refused {
		b = binary.LittleEndian.AppendUint64(b, r.id)
		b = binary.AppendUvarint(b, uint64(r.epoch))
	}
	return b
}

func (s *progressState) restore(r *snapReader) error {
	if f := r.byte(); r.err == nil && f != progressSnapFormat {
		return fmt.Errorf("progress state format %d, want %d", f, progressSnapFormat)
	}
	u32 := func() uint32 { return uint32(r.uvarint()) }
	i32 := func() int32 { return int32(r.uvarint()) }
	boolean := func() bool { return r.byte() == 1 }
	s.epoch = u32()
	s.calls = i32()
	s.hasLast = boolean()
	s.last.id, s.last.result = r.u64(), r.u64()
	readSketch(r, &s.last.sketch)
	s.last.epochAfter = u32()
	s.stuck, s.polls = i32(), i32()
	s.pollSaid = boolean()
	n := r.count(maxChains)
	s.chains = s.chains[:0]
	for i := 0; i < n && r.err == nil; i++ {
		var c toolChain
		c.tool, c.head, c.lead = r.u64(), r.u64(), r.u64()
		readSketch(r, &c.sketch)
		c.epoch, c.count, c.variants = u32(), i32(), i32()
		c.lastID = r.u64()
		c.failed, c.noticed = boolean(), boolean()
		s.chains = append(s.chains, c)
	}
	s.refailSeq = u32()
	for i := range s.refail {
		f := &s.refail[i]
		f.seq = u32()
		f.id, f.result = r.u64(), r.u64()
		f.sig = r.u64()
		f.prev, f.prevSig = r.u64(), r.u64()
		f.hasPrev, f.weak = boolean(), boolean()
		readSketch(r, &f.sketch)
		f.count, f.epochs, f.epoch = i32(), i32(), u32()
		f.noticed = boolean()
	}
	for i := range s.recent {
		rc := &s.recent[i]
		rc.id, rc.result = r.u64(), r.u64()
		rc.epochAfter, rc.count = u32(), i32()
		rc.failed = boolean()
	}
	for i := range s.ring {
		s.ring[i] = r.u64()
	}
	for i := range s.runs {
		s.runs[i] = i32()
	}
	s.thought.exact = r.u64()
	s.thought.words = int(r.uvarint())
	readSketch(r, &s.thought.sketch)
	s.thoughtN = i32()
	s.thoughtSeen = boolean()
	s.stale = i32()
	s.paging = boolean()
	s.pagingID = r.u64()
	s.backs = i32()
	s.pageShape = r.u64()
	for i := range s.pageAt {
		s.pageAt[i] = r.uvarint()
	}
	s.thoughtSaid = i32()
	s.lastTextID = r.u64()
	s.callSaid = boolean()
	s.saidAt = i32()
	s.thoughtPreview = r.string()
	s.tools.n = i32()
	for i := range s.tools.names {
		if name := r.string(); name != "" {
			s.tools.names[i] = s.class(name).name
		}
	}
	s.seen.reset()
	s.seen.n = i32()
	n = r.count(len(s.seen.bits))
	for i := 0; i < n && r.err == nil; i++ {
		idx := int(r.byte())
		if idx >= len(s.seen.bits) {
			return fmt.Errorf("bloom word %d", idx)
		}
		s.seen.bits[idx] = r.u64()
	}
	n = r.count(64)
	s.refused = s.refused[:0]
	for i := 0; i < n && r.err == nil; i++ {
		s.refused = append(s.refused, refusal{id: r.u64(), epoch: u32()})
	}
	if s.stuck < 0 || s.polls < 0 || s.calls < 0 || s.thoughtN < 0 {
		return errors.New("negative count")
	}
	return r.err
}

// callID is the call's identity for this detector: the engine's (tool and arguments as a JSON
// value), except that command lines (SWE-agent's actions, arguments that are not JSON) are the
// same command whatever their spacing: "edit 90:90\nend_of_edit" and
// "edit 90:90\n\nend_of_edit" ask for the same thing.
//
// A call that sleeps before it looks ("sleep 5 && curl ...") is the same call whatever the
// length of its sleep: a backoff lengthens the wait between two looks at the same thing, and
// each look is a poll of it (see observeCall's waiting), not a new question. An editor's
// (editor: the tool changes the workspace by its name) arguments are the text it writes, where
// a sleep is code.
func callID(c *observedCall, editor bool) uint64 {
	if !editor && hasSleep(c.args) {
		return combine(hashString(c.tool), sleeplessHash(c.args))
	}
	if len(c.args) > 0 && c.args[0] != '{' && c.args[0] != '[' {
		return combine(hashString(c.tool), spacedHash(c.args))
	}
	return c.id
}

// hasSleep says whether args hold a sleep: "sleep" or "Sleep" followed by a space or '('
// ("sleep 5", "time.sleep(5)", "Start-Sleep -Seconds 5", "await sleep(500)").
func hasSleep(args []byte) bool {
	for i := 0; ; {
		k := bytes.Index(args[i:], leep)
		if k < 0 {
			return false
		}
		if sleepAt(args, i+k+3) {
			return true
		}
		i += k + len(leep)
	}
}

var leep = []byte("leep")

// sleepAt says whether b[i] is the 'p' of a sleep (see hasSleep).
func sleepAt(b []byte, i int) bool {
	return i >= 4 && i+1 < len(b) && (b[i+1] == ' ' || b[i+1] == '(') && b[i] == 'p' &&
		b[i-1] == 'e' && b[i-2] == 'e' && b[i-3] == 'l' && b[i-4]|0x20 == 's'
}

// sleeplessHash is spacedHash of args with the duration of each sleep left out ("sleep 5",
// "sleep 0.5", "sleep 2m", "time.sleep(3)", "Start-Sleep -Seconds 5").
func sleeplessHash(args []byte) uint64 { return hashSpaced(args, true) }

// spacedHash hashes text with every run of white space taken as one space and the ends
// trimmed.
func spacedHash(b []byte) uint64 { return hashSpaced(b, false) }

// hashSpaced is spacedHash, leaving out sleeps' durations when skipSleeps is set.
func hashSpaced(b []byte, skipSleeps bool) uint64 {
	var h textHasher
	space := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			space = true
			continue
		}
		if space && h.n > 0 {
			h.writeByte(' ')
		}
		space = false
		h.writeByte(c)
		if skipSleeps && c == 'p' && sleepAt(b, i) {
			// skip the spaces or the parenthesis, a flag ("-Seconds"), then the duration:
			// digits, a point, a unit letter
			j := i + 1
			if b[j] == '(' {
				j++
			}
			for j < len(b) && b[j] == ' ' {
				j++
			}
			if j < len(b) && b[j] == '-' {
				f := j + 1
				for f < len(b) && (b[f]|0x20 >= 'a' && b[f]|0x20 <= 'z') {
					f++
				}
				if f > j+1 && f < len(b) && b[f] == ' ' {
					for j = f; j < len(b) && b[j] == ' '; j++ {
					}
				}
			}
			k := j
			for k < len(b) && (b[k] >= '0' && b[k] <= '9' || b[k] == '.') {
				k++
			}
			if k > j {
				if k < len(b) && (b[k] == 's' || b[k] == 'm' || b[k] == 'h' || b[k] == 'd') {
					k++
				}
				h.writeByte(' ')
				i = k - 1
			}
		}
	}
	return h.sum()
}

// pagePlace is where a call is in what it pages through: the first numbers of its
// arguments, in order (a line range, an offset, a page).
type pagePlace [3]uint64

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
