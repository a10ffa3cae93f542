package loopguard

import (
	"slices"
	"strings"
)

// repeatDetector is repeat-tool-reminder: it counts consecutive identical tracked calls per
// agent and reminds the model at each threshold, gently at the first and in detail after.
type repeatDetector struct {
	thresholds []int // ascending
	include    []pattern
	exclude    []pattern
	preview    int
	cat        *catalogue
}

func newRepeatDetector(cfg RepeatToolReminderConfig, cat *catalogue) *repeatDetector {
	d := &repeatDetector{thresholds: slices.Clone(cfg.Thresholds), preview: cfg.ArgumentsPreviewChars, cat: cat}
	slices.Sort(d.thresholds)
	for _, p := range cfg.Include {
		d.include = append(d.include, compilePattern(p))
	}
	for _, p := range cfg.Exclude {
		d.exclude = append(d.exclude, compilePattern(p))
	}
	return d
}

func (d *repeatDetector) plugin() string          { return PluginRepeatToolReminder }
func (d *repeatDetector) id() byte                { return 1 }
func (d *repeatDetector) newState() detectorState { return &repeatState{d: d} }

// tracked says whether a tool takes part in chains. Untracked calls are transparent: they
// neither count nor break a chain, so bookkeeping calls inside a loop cannot launder it.
func (d *repeatDetector) tracked(tool string) bool {
	if len(d.include) > 0 && !matchAny(d.include, tool) {
		return false
	}
	return !matchAny(d.exclude, tool)
}

type repeatState struct {
	d     *repeatDetector
	last  uint64 // fingerprint of (tool, canonical arguments) of the last tracked call
	count int    // consecutive identical tracked calls; 0 = no chain yet
}

func (s *repeatState) observeCall(c *observedCall, out []Notice) []Notice {
	d := s.d
	if !d.tracked(c.tool) {
		return out
	}
	if s.count > 0 && s.last == c.id {
		s.count++
	} else {
		s.last, s.count = c.id, 1
	}
	if !slices.Contains(d.thresholds, s.count) {
		return out
	}
	text := d.cat.repeatGentle
	if s.count != d.thresholds[0] {
		text = fill(d.cat.repeatDetailed,
			"tool", c.tool,
			"count", itoa(s.count),
			"arguments", cutPreview(c.canonicalArgs(), d.preview, d.cat))
	}
	return append(out, Notice{
		Agent:   c.agent,
		Plugin:  PluginRepeatToolReminder,
		Kind:    KindRepeat,
		Summary: c.tool + " × " + itoa(s.count),
		Text:    text,
	})
}

func (s *repeatState) observeText(_ *textEvent, out []Notice) []Notice { return out }
func (s *repeatState) refuse(*observedCall) (string, bool)             { return "", false }

// observeUser resets the count on any user message, as upstream does.
func (s *repeatState) observeUser(*userEvent) { s.last, s.count = 0, 0 }

// pattern is a tool-name pattern: `*` matches any run of characters, everything else is
// literal, and the whole name must match.
type pattern struct {
	parts []string // the literal pieces between stars
	star  bool     // whether there is any star at all
}

func compilePattern(p string) pattern {
	return pattern{parts: strings.Split(p, "*"), star: strings.Contains(p, "*")}
}

func (p pattern) match(name string) bool {
	if !p.star {
		return name == p.parts[0]
	}
	first, last := p.parts[0], p.parts[len(p.parts)-1]
	if len(name) < len(first)+len(last) || !strings.HasPrefix(name, first) || !strings.HasSuffix(name, last) {
		return false
	}
	rest := name[len(first) : len(name)-len(last)]
	for _, mid := range p.parts[1 : len(p.parts)-1] {
		i := strings.Index(rest, mid)
		if i < 0 {
			return false
		}
		rest = rest[i+len(mid):]
	}
	return true
}

func matchAny(ps []pattern, name string) bool {
	for _, p := range ps {
		if p.match(name) {
			return true
		}
	}
	return false
}
