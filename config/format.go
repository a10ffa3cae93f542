package config

import (
	"bytes"

	"github.com/loopguard/loopguard"
	"go.yaml.in/yaml/v3"
)

// effective is the document form of a Config, every field spelled out.
type effective struct {
	Locale             string                              `yaml:"locale"`
	RepeatToolReminder *loopguard.RepeatToolReminderConfig `yaml:"repeat-tool-reminder,omitempty"`
	DSHBrake           *brakeDoc                           `yaml:"dsh-brake,omitempty"`
	Progress           *loopguard.ProgressConfig           `yaml:"progress,omitempty"`
}

type brakeDoc struct {
	Mode                    string `yaml:"mode"`
	CallWarnCount           int    `yaml:"callWarnCount"`
	CallDenyCount           int    `yaml:"callDenyCount"`
	CallReWarnEvery         int    `yaml:"callReWarnEvery"`
	SequenceLength          int    `yaml:"sequenceLength"`
	SequenceCount           int    `yaml:"sequenceCount"`
	MinWindowCalls          int    `yaml:"minWindowCalls"`
	DuplicateTextThreshold  int    `yaml:"duplicateTextThreshold"`
	DuplicateTextWindowMs   int    `yaml:"duplicateTextWindowMs"`
	DuplicateTextCooldownMs int    `yaml:"duplicateTextCooldownMs"`
	MinimumDuplicateChars   int    `yaml:"minimumDuplicateChars"`
}

// Format writes the effective configuration as a YAML document that Parse reads back to the
// same Config: every field spelled out, plugins that are off left out.
func Format(c loopguard.Config) []byte {
	doc := effective{Locale: c.Locale, RepeatToolReminder: c.RepeatToolReminder, Progress: c.Progress}
	if doc.Locale == "" {
		doc.Locale = "en"
	}
	if b := c.DSHBrake; b != nil {
		doc.DSHBrake = &brakeDoc{b.Mode, b.CallWarnCount, b.CallDenyCount, b.CallReWarnEvery, b.SequenceLength,
			b.SequenceCount, b.MinWindowCalls, b.DuplicateTextThreshold, b.DuplicateTextWindowMs,
			b.DuplicateTextCooldownMs, b.MinimumDuplicateChars}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		panic(err) // plain structs of strings and ints always marshal
	}
	return buf.Bytes()
}
