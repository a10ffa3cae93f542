package loopguard

import (
	"strings"
	"unicode/utf8"
)

// Bounds on dsh-brake's memory per agent; the oldest entries go first. The first three are
// upstream's; the bound on call identities is ours (upstream keeps every identity until the
// user speaks, which an agent sweeping arguments can grow without limit).
const (
	maxTextEntries   = 256  // least recently seen first
	maxSequences     = 128  // first inserted first
	maxSeenMessageID = 512  // first inserted first
	maxCallEntries   = 4096 // least recently seen first
	maxTextSources   = 8    // the last sources of one text, for its notice
	textPreviewChars = 160
	denyTextPrefix   = "Error: " + PluginDSHBrake + ":"
)

// brakeDetector is dsh-brake: cumulative identical-call counts with a throttled re-warn,
// repeated call sequences, duplicate text, and, in deny mode, a guard that refuses a call
// identity once it has been confirmed as a loop.
type brakeDetector struct {
	cfg DSHBrakeConfig
	cat *catalogue
}

func newBrakeDetector(cfg DSHBrakeConfig, cat *catalogue) *brakeDetector {
	return &brakeDetector{cfg: cfg, cat: cat}
}

func (d *brakeDetector) plugin() string { return PluginDSHBrake }
func (d *brakeDetector) id() byte       { return 2 }

func (d *brakeDetector) newState() detectorState {
	return &brakeState{
		d:      d,
		calls:  newBoundedMap[countEntry](maxCallEntries, true),
		seqs:   newBoundedMap[countEntry](maxSequences, false),
		texts:  newBoundedMap[textEntry](maxTextEntries, true),
		seen:   newBoundedMap[struct{}](maxSeenMessageID, false),
		window: make([]windowCall, 0, d.cfg.SequenceLength),
	}
}

// countEntry counts one call identity or one sequence since the user last spoke.
type countEntry struct {
	count    int32
	warnedAt int32 // the count at the last notice; 0 = never noticed
}

// due reports whether a count deserves a notice: first at first, then every reWarn more.
func (e *countEntry) due(first, reWarn int) bool {
	c, w := int(e.count), int(e.warnedAt)
	if (w == 0 && c >= first) || (w > 0 && c >= w+reWarn) {
		e.warnedAt = e.count
		return true
	}
	return false
}

type windowCall struct {
	id   uint64
	tool string
}

type textEntry struct {
	count      int32
	firstTime  int64 // start of the current counting window
	warned     bool
	lastWarned int64
	sources    [maxTextSources]string // ring of the last sources
	nsrc       uint8
}

func (t *textEntry) addSource(s string) {
	if int(t.nsrc) < maxTextSources {
		t.sources[t.nsrc] = s
		t.nsrc++
		return
	}
	copy(t.sources[:], t.sources[1:])
	t.sources[maxTextSources-1] = s
}

// sourceList joins the distinct sources in order of first appearance.
func (t *textEntry) sourceList() string {
	var out []string
	for _, s := range t.sources[:t.nsrc] {
		if !containsString(out, s) {
			out = append(out, s)
		}
	}
	return strings.Join(out, ", ")
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

type brakeState struct {
	d      *brakeDetector
	calls  boundedMap[countEntry]
	seqs   boundedMap[countEntry]
	texts  boundedMap[textEntry]
	seen   boundedMap[struct{}]
	window []windowCall // the last SequenceLength calls, oldest first
}

func (s *brakeState) observeCall(c *observedCall, out []Notice) []Notice {
	cfg := &s.d.cfg
	cat := s.d.cat

	if len(s.window) == cfg.SequenceLength {
		copy(s.window, s.window[1:])
		s.window = s.window[:len(s.window)-1]
	}
	s.window = append(s.window, windowCall{id: c.id, tool: c.tool})

	entry := s.calls.Put(c.id)
	entry.count++
	if entry.due(cfg.CallWarnCount, cfg.CallReWarnEvery) {
		n := itoa(int(entry.count))
		out = append(out, Notice{
			Agent: c.agent, Plugin: PluginDSHBrake, Kind: KindCall,
			Summary: c.tool + " × " + n,
			Text:    fill(cat.brakeCall, "count", n, "tool", c.tool),
		})
	}

	if len(s.window) == cfg.SequenceLength {
		key := uint64(0x5e9)
		for _, w := range s.window {
			key = combine(key, w.id)
		}
		seq := s.seqs.Put(key)
		seq.count++
		if seq.due(cfg.SequenceCount, cfg.CallReWarnEvery) {
			n := itoa(int(seq.count))
			out = append(out, Notice{
				Agent: c.agent, Plugin: PluginDSHBrake, Kind: KindSequence,
				Summary: "sequence loop × " + n,
				Text:    fill(cat.brakeSequence, "seq", s.sequenceText(), "count", n),
			})
		}
	}

	if c.hasRes {
		out = s.duplicateText(c.agent, c.result, c.tool, c.time, out)
	}
	return out
}

func (s *brakeState) sequenceText() string {
	names := make([]string, len(s.window))
	for i, w := range s.window {
		names[i] = w.tool
	}
	return textPreview(strings.Join(names, " → "), textPreviewChars)
}

func (s *brakeState) observeText(t *textEvent, out []Notice) []Notice {
	if isModelText(t.source) {
		// Upstream counts tool results and injected messages; the model's own words never
		// reach it. Hosts now feed them for the progress detector, so they are skipped here.
		return out
	}
	if t.id != "" {
		// A message observed again (history replayed, the same inbox seen twice) counts once.
		key := hashString(t.id)
		if _, ok := s.seen.Peek(key); ok {
			return out
		}
		s.seen.Put(key)
	}
	source := t.source
	if source == "" {
		source = "unknown"
	}
	return s.duplicateText(t.agent, t.text, source, t.time, out)
}

func (s *brakeState) duplicateText(agent, text, source string, now int64, out []Notice) []Notice {
	cfg := &s.d.cfg
	min := cfg.MinimumDuplicateChars
	if len(text) < min || (len(text) < 4*min && utf8.RuneCountInString(text) < min) {
		return out
	}
	if strings.HasPrefix(text, denyTextPrefix) {
		return out // our own refusal flowing back as a result is not a repeat to report
	}
	e := s.texts.Put(textFingerprint(text))
	if e.count == 0 {
		e.firstTime = now
	}
	e.addSource(source)
	if now-e.firstTime > int64(cfg.DuplicateTextWindowMs) {
		e.firstTime, e.count = now, 1
	} else {
		e.count++
	}
	if int(e.count) < cfg.DuplicateTextThreshold {
		return out
	}
	if e.warned && now-e.lastWarned < int64(cfg.DuplicateTextCooldownMs) {
		return out
	}
	e.warned, e.lastWarned = true, now
	n := itoa(int(e.count))
	return append(out, Notice{
		Agent: agent, Plugin: PluginDSHBrake, Kind: KindText,
		Summary: "duplicate text × " + n,
		Text: fill(s.d.cat.brakeText,
			"preview", textPreview(text, textPreviewChars),
			"seconds", itoa(int((int64(cfg.DuplicateTextWindowMs)+500)/1000)),
			"count", n,
			"sources", e.sourceList()),
	})
}

func (s *brakeState) refuse(c *observedCall) (string, bool) {
	cfg := &s.d.cfg
	if cfg.Mode != ModeDeny {
		return "", false
	}
	e, ok := s.calls.Peek(c.id)
	if !ok || int(e.count) < cfg.CallDenyCount {
		return "", false
	}
	return fill(s.d.cat.brakeDeny, "tool", c.tool, "count", itoa(int(e.count))), true
}

// observeUser resets every counter on any user message, a harness's reprompt included: the
// upstream plugin sees one as a user message like any other.
func (s *brakeState) observeUser(*userEvent) {
	s.calls.Clear()
	s.seqs.Clear()
	s.texts.Clear()
	s.seen.Clear()
	s.window = s.window[:0]
}
