// Package config reads loopguard's configuration document (YAML or JSON) into a
// loopguard.Config, with errors that name the file, line and column of the problem.
//
// It lives apart from the root package so that programs that build a loopguard.Config in Go
// do not link a YAML parser.
//
// The document:
//
//	preset: default            # optional: default | repeat-tool-reminder | dsh-brake
//	locale: en                 # en (default) | zh
//	repeat-tool-reminder:      # present = on; fields left out keep their defaults
//	  thresholds: [3, 5, 8]
//	  include: []
//	  exclude: [todo_write]
//	  argumentsPreviewChars: 500
//	dsh-brake: {mode: remind, callWarnCount: 6, callDenyCount: 10}
//
// Each plugin's options keep their upstream names, so a DeepSeek Harness user can paste theirs.
// A section with no value (`dsh-brake:`) turns the plugin on with its defaults; `false` turns
// off a plugin that the preset turned on. Sections override the preset field by field.
package config

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
	"go.yaml.in/yaml/v3"
)

// Schema is the JSON Schema of the document, for editors.
//
//go:embed schema.json
var Schema []byte

// Error is a problem at a place in a configuration document.
type Error struct {
	File   string
	Line   int // 1-based; 0 when unknown
	Column int // 1-based; 0 when unknown
	Msg    string
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	default:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
}

// NothingEnabled is the warning given for a document that turns no plugin on.
const NothingEnabled = "no plugin is enabled: the configuration has no `preset:` and no plugin section, so loopguard will not say anything"

// Load reads and parses the file at path.
func Load(path string) (cfg loopguard.Config, warnings []string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return loopguard.Config{}, nil, err
	}
	return Parse(path, data)
}

// Parse parses a document; name is used in error messages.
func Parse(name string, data []byte) (cfg loopguard.Config, warnings []string, err error) {
	p := &parser{file: name}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return loopguard.Config{}, []string{NothingEnabled}, nil
		}
		return loopguard.Config{}, nil, p.yamlError(err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if isNull(root) {
		return loopguard.Config{}, []string{NothingEnabled}, nil
	}
	if root.Kind != yaml.MappingNode {
		return loopguard.Config{}, nil, p.at(root, "the configuration must be a mapping of keys to values")
	}
	cfg, err = p.document(root)
	if err != nil {
		return loopguard.Config{}, nil, err
	}
	if !cfg.Enabled() {
		warnings = append(warnings, NothingEnabled)
	}
	if err := cfg.Validate(); err != nil { // a backstop: the walk above already checked each field in place
		return loopguard.Config{}, nil, &Error{File: name, Msg: err.Error()}
	}
	return cfg, warnings, nil
}

type parser struct{ file string }

func (p *parser) at(n *yaml.Node, format string, args ...any) error {
	return &Error{File: p.file, Line: n.Line, Column: n.Column, Msg: fmt.Sprintf(format, args...)}
}

// yamlError turns the YAML library's syntax error ("yaml: line 3: ...") into our form.
func (p *parser) yamlError(err error) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if line, convErr := strconv.Atoi(rest[:i]); convErr == nil {
				return &Error{File: p.file, Line: line, Column: 1, Msg: strings.TrimSpace(rest[i+1:])}
			}
		}
	}
	return &Error{File: p.file, Msg: msg}
}

var topKeys = []string{"$schema", "preset", "locale", loopguard.PluginRepeatToolReminder, loopguard.PluginDSHBrake,
	loopguard.PluginProgress, proxyKey}

// entries returns a mapping's key/value pairs, refusing duplicate keys and non-string keys.
func (p *parser) entries(m *yaml.Node, known []string, where string) ([][2]*yaml.Node, error) {
	var out [][2]*yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, p.at(k, "%skeys must be strings", where)
		}
		if !slices.Contains(known, k.Value) {
			return nil, p.at(k, "%sunknown key %q (known keys: %s)", where, k.Value, strings.Join(known, ", "))
		}
		if seen[k.Value] {
			return nil, p.at(k, "%sduplicate key %q", where, k.Value)
		}
		seen[k.Value] = true
		out = append(out, [2]*yaml.Node{k, v})
	}
	return out, nil
}

func (p *parser) document(root *yaml.Node) (loopguard.Config, error) {
	pairs, err := p.entries(root, topKeys, "")
	if err != nil {
		return loopguard.Config{}, err
	}
	var cfg loopguard.Config
	// The preset comes first whatever its place in the file: sections override it.
	for _, kv := range pairs {
		if kv[0].Value != "preset" {
			continue
		}
		name, err := p.str(kv[1], "preset")
		if err != nil {
			return cfg, err
		}
		if cfg, err = loopguard.Preset(name); err != nil {
			return cfg, p.at(kv[1], "unknown preset %q (known: %s)", name, strings.Join(loopguard.PresetNames(), ", "))
		}
	}
	for _, kv := range pairs {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "locale":
			loc, err := p.str(v, "locale")
			if err != nil {
				return cfg, err
			}
			if !slices.Contains(loopguard.Locales(), loc) {
				return cfg, p.at(v, "locale must be one of %s, got %q", strings.Join(loopguard.Locales(), ", "), loc)
			}
			cfg.Locale = loc
		case loopguard.PluginRepeatToolReminder:
			if off, err := p.disabled(v); err != nil || off {
				cfg.RepeatToolReminder = nil
				if err != nil {
					return cfg, err
				}
				continue
			}
			base := loopguard.DefaultRepeatToolReminder()
			if cfg.RepeatToolReminder != nil {
				c := *cfg.RepeatToolReminder
				base = &c
			}
			if cfg.RepeatToolReminder, err = p.repeat(v, base); err != nil {
				return cfg, err
			}
		case loopguard.PluginDSHBrake:
			if off, err := p.disabled(v); err != nil || off {
				cfg.DSHBrake = nil
				if err != nil {
					return cfg, err
				}
				continue
			}
			base := loopguard.DefaultDSHBrake()
			if cfg.DSHBrake != nil {
				c := *cfg.DSHBrake
				base = &c
			}
			if cfg.DSHBrake, err = p.brake(v, base); err != nil {
				return cfg, err
			}
		case loopguard.PluginProgress:
			if off, err := p.disabled(v); err != nil || off {
				cfg.Progress = nil
				if err != nil {
					return cfg, err
				}
				continue
			}
			base := loopguard.DefaultProgress()
			if cfg.Progress != nil {
				c := *cfg.Progress
				base = &c
			}
			if cfg.Progress, err = p.progress(v, base); err != nil {
				return cfg, err
			}
		}
	}
	return cfg, nil
}

// disabled reports whether a section's value is `false`. Any other scalar than null is an error.
func (p *parser) disabled(v *yaml.Node) (bool, error) {
	if v.Kind != yaml.ScalarNode || isNull(v) {
		return false, nil
	}
	if v.Tag == "!!bool" && (v.Value == "false" || v.Value == "False" || v.Value == "FALSE") {
		return true, nil
	}
	return false, p.at(v, "a plugin section must be a mapping of options, empty, or false; got %q", v.Value)
}

func isNull(n *yaml.Node) bool {
	return n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

func (p *parser) str(v *yaml.Node, field string) (string, error) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		return "", p.at(v, "%s must be a string, got %s", field, describe(v))
	}
	return v.Value, nil
}

func (p *parser) strList(v *yaml.Node, field string) ([]string, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, p.at(v, "%s must be a list of strings, got %s", field, describe(v))
	}
	out := []string{}
	for _, item := range v.Content {
		s, err := p.str(item, field+" item")
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// number reads a scalar as a float64; ok is false when it is not a number at all.
func number(v *yaml.Node) (float64, bool) {
	if v.Kind != yaml.ScalarNode || (v.Tag != "!!int" && v.Tag != "!!float") {
		return 0, false
	}
	var f float64
	if err := v.Decode(&f); err != nil {
		return 0, false
	}
	return f, true
}

// integer reads a whole number: 3 and 3.0 are 3; 2.5, "x" and 1e300 are not integers.
func integer(v *yaml.Node) (int, bool) {
	f, ok := number(v)
	if !ok || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return 0, false
	}
	return int(f), true
}

// shown renders a scalar as a reader typed it, for error messages: 2.5, abc, 1.5.
func shown(v *yaml.Node) string {
	if f, ok := number(v); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	if v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return describe(v)
}

func describe(v *yaml.Node) string {
	switch v.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if isNull(v) {
			return "null"
		}
		return strconv.Quote(v.Value)
	}
	return "nothing"
}

// sectionFields checks that a plugin section is a mapping of known, unrepeated keys and returns
// its values by key.
func (p *parser) sectionFields(v *yaml.Node, known []string, where string) (map[string]*yaml.Node, error) {
	if v.Kind != yaml.MappingNode {
		return nil, p.at(v, "%ssection must be a mapping of options", where)
	}
	pairs, err := p.entries(v, known, where)
	if err != nil {
		return nil, err
	}
	fields := make(map[string]*yaml.Node, len(pairs))
	for _, kv := range pairs {
		fields[kv[0].Value] = kv[1]
	}
	return fields, nil
}

var repeatKeys = []string{"thresholds", "include", "exclude", "argumentsPreviewChars"}

func (p *parser) repeat(v *yaml.Node, c *loopguard.RepeatToolReminderConfig) (*loopguard.RepeatToolReminderConfig, error) {
	const where = loopguard.PluginRepeatToolReminder + ": "
	if isNull(v) {
		return c, nil
	}
	fields, err := p.sectionFields(v, repeatKeys, where)
	if err != nil {
		return nil, err
	}
	// Checked in upstream's order, so that the first error is the one upstream would give.
	if t := fields["thresholds"]; t != nil {
		if c.Thresholds, err = p.thresholds(t, where); err != nil {
			return nil, err
		}
	}
	if n := fields["argumentsPreviewChars"]; n != nil {
		v, ok := integer(n)
		if !ok || v < 1 {
			return nil, p.at(n, "%sinvalid argumentsPreviewChars %s — must be an integer >= 1", where, shown(n))
		}
		c.ArgumentsPreviewChars = v
	}
	for _, name := range []string{"include", "exclude"} {
		n := fields[name]
		if n == nil {
			continue
		}
		list, err := p.strList(n, where+name)
		if err != nil {
			return nil, err
		}
		if name == "include" {
			c.Include = list
		} else {
			c.Exclude = list
		}
	}
	return c, nil
}

// thresholds reads a list of reminder thresholds, checked in repeat-tool-reminder's order (every
// item an integer >= 2, then no duplicates) and worded as it words them; the progress section
// shares the rule and the words.
func (p *parser) thresholds(t *yaml.Node, where string) ([]int, error) {
	if t.Kind != yaml.SequenceNode {
		return nil, p.at(t, "%sthresholds must be a list of integers, got %s", where, describe(t))
	}
	if len(t.Content) == 0 {
		return nil, p.at(t, "%s`thresholds` must not be empty", where)
	}
	var out []int
	for _, item := range t.Content {
		n, ok := integer(item)
		if !ok || n < 2 {
			return nil, p.at(item, "%sinvalid threshold %s — every threshold must be an integer >= 2", where, shown(item))
		}
		out = append(out, n)
	}
	for i, item := range t.Content {
		if slices.Contains(out[:i], out[i]) {
			return nil, p.at(item, "%s`thresholds` must not contain duplicates", where)
		}
	}
	return out, nil
}

var brakeKeys = []string{"mode", "callWarnCount", "callDenyCount", "callReWarnEvery", "sequenceLength", "sequenceCount",
	"minWindowCalls", "duplicateTextThreshold", "duplicateTextWindowMs", "duplicateTextCooldownMs", "minimumDuplicateChars"}

func (p *parser) brake(v *yaml.Node, c *loopguard.DSHBrakeConfig) (*loopguard.DSHBrakeConfig, error) {
	const where = loopguard.PluginDSHBrake + ": "
	if isNull(v) {
		return c, nil
	}
	fields, err := p.sectionFields(v, brakeKeys, where)
	if err != nil {
		return nil, err
	}
	for _, f := range loopguard.BrakeIntOptions() {
		n := fields[f.Name]
		if n == nil {
			continue
		}
		val, ok := integer(n)
		if !ok || val < f.Min {
			return nil, p.at(n, "%s%s must be an integer >= %d, got %s", where, f.Name, f.Min, shown(n))
		}
		*f.Field(c) = val
	}
	if m := fields["mode"]; m != nil {
		if m.Kind != yaml.ScalarNode || (m.Value != loopguard.ModeRemind && m.Value != loopguard.ModeDeny) {
			return nil, p.at(m, "%smode must be 'remind' or 'deny', got %s", where, shown(m))
		}
		c.Mode = m.Value
	}
	if c.CallDenyCount <= c.CallWarnCount {
		n := fields["callDenyCount"]
		if n == nil {
			n = fields["callWarnCount"]
		}
		return nil, p.at(n, "%scallDenyCount (%d) must be greater than callWarnCount (%d)", where, c.CallDenyCount, c.CallWarnCount)
	}
	return c, nil
}
