package config

import (
	"go.yaml.in/yaml/v3"

	"github.com/loopguard/loopguard"
)

var progressKeys = []string{"mode", "thresholds", "remindEvery", "quietCalls", "errorRepeats", "churnRepeats", "maxCyclePeriod",
	"thoughtRepeats", "thoughtLimit", "unmovedRepeats", "pollBudget", "idlePollBudget", "denyAfter", "similarity", "transparent", "exempt", "mutating", "tools"}

var toolOverrideKeys = []string{"match", "pollBudget", "mutating", "exempt"}

// progress reads the `progress:` section over c, field by field, each error at its place.
func (p *parser) progress(v *yaml.Node, c *loopguard.ProgressConfig) (*loopguard.ProgressConfig, error) {
	const where = loopguard.PluginProgress + ": "
	if isNull(v) {
		return c, nil
	}
	fields, err := p.sectionFields(v, progressKeys, where)
	if err != nil {
		return nil, err
	}
	if m := fields["mode"]; m != nil {
		if m.Kind != yaml.ScalarNode || (m.Value != loopguard.ModeRemind && m.Value != loopguard.ModeDeny) {
			return nil, p.at(m, "%smode must be 'remind' or 'deny', got %s", where, shown(m))
		}
		c.Mode = m.Value
	}
	if t := fields["thresholds"]; t != nil {
		if c.Thresholds, err = p.thresholds(t, where); err != nil {
			return nil, err
		}
	}
	for _, f := range loopguard.ProgressIntOptions() {
		n := fields[f.Name]
		if n == nil {
			continue
		}
		val, ok := integer(n)
		if !ok || val < f.Min || val > f.Max {
			return nil, p.at(n, "%s%s must be an integer from %d to %d, got %s", where, f.Name, f.Min, f.Max, shown(n))
		}
		*f.Field(c) = val
	}
	for _, name := range []string{"transparent", "exempt", "mutating"} {
		n := fields[name]
		if n == nil {
			continue
		}
		list, err := p.strList(n, where+name)
		if err != nil {
			return nil, err
		}
		switch name {
		case "transparent":
			c.Transparent = list
		case "exempt":
			c.Exempt = list
		default:
			c.Mutating = list
		}
	}
	if t := fields["tools"]; t != nil {
		if t.Kind != yaml.SequenceNode {
			return nil, p.at(t, "%stools must be a list of {match, pollBudget, mutating, exempt}, got %s", where, describe(t))
		}
		c.Tools = []loopguard.ToolOverride{}
		for _, item := range t.Content {
			o, err := p.toolOverride(item, where+"tools: ")
			if err != nil {
				return nil, err
			}
			c.Tools = append(c.Tools, o)
		}
	}
	return c, nil
}

func (p *parser) toolOverride(v *yaml.Node, where string) (loopguard.ToolOverride, error) {
	var o loopguard.ToolOverride
	if v.Kind != yaml.MappingNode {
		return o, p.at(v, "%seach entry must be a mapping, got %s", where, describe(v))
	}
	pairs, err := p.entries(v, toolOverrideKeys, where)
	if err != nil {
		return o, err
	}
	for _, kv := range pairs {
		k, val := kv[0], kv[1]
		switch k.Value {
		case "match":
			if o.Match, err = p.str(val, where+"match"); err != nil {
				return o, err
			}
			if o.Match == "" {
				return o, p.at(val, "%smatch must not be empty", where)
			}
		case "pollBudget":
			n, ok := integer(val)
			if !ok || n < 2 {
				return o, p.at(val, "%spollBudget must be an integer >= 2, got %s", where, shown(val))
			}
			o.PollBudget = n
		case "mutating", "exempt":
			if val.Kind != yaml.ScalarNode || val.Tag != "!!bool" {
				return o, p.at(val, "%s%s must be true or false, got %s", where, k.Value, describe(val))
			}
			b := val.Value == "true" || val.Value == "True" || val.Value == "TRUE"
			if k.Value == "exempt" {
				o.Exempt = b
			} else {
				o.Mutating = &b
			}
		}
	}
	if o.Match == "" {
		return o, p.at(v, "%san entry needs `match`", where)
	}
	return o, nil
}
