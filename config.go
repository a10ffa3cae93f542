package loopguard

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// Plugin names, as they appear in configuration sections, notices and denials.
const (
	PluginRepeatToolReminder = "repeat-tool-reminder"
	PluginDSHBrake           = "dsh-brake"
)

// Config is loopguard's whole configuration: which detectors run, with which options, and in
// which language notices are written. A nil section means that plugin is off.
//
// The zero Config enables nothing. Start from a preset (Preset) or from ParseConfig.
type Config struct {
	// Locale selects the notice catalogue: "en" (the default when empty) or "zh".
	Locale string

	// RepeatToolReminder, when set, runs the repeat-tool-reminder plugin.
	RepeatToolReminder *RepeatToolReminderConfig

	// DSHBrake, when set, runs the dsh-brake plugin.
	DSHBrake *DSHBrakeConfig

	// Progress, when set, runs the progress-aware detector (the default preset).
	Progress *ProgressConfig
}

// Enabled reports whether any plugin is on.
func (c Config) Enabled() bool {
	return c.RepeatToolReminder != nil || c.DSHBrake != nil || c.Progress != nil
}

// Denies reports whether any plugin runs in deny mode, i.e. whether a host must ask the engine
// (Check) before running a call.
func (c Config) Denies() bool {
	return (c.DSHBrake != nil && c.DSHBrake.Mode == ModeDeny) || (c.Progress != nil && c.Progress.Mode == ModeDeny)
}

// RepeatToolReminderConfig holds the options of repeat-tool-reminder, under their upstream names.
type RepeatToolReminderConfig struct {
	// Thresholds are the consecutive-repeat counts at which a reminder is given. The first
	// (smallest) gets the gentle text, every later one the detailed text. Default [3, 5, 8].
	Thresholds []int `json:"thresholds" yaml:"thresholds"`
	// Include lists tool-name patterns to track; empty tracks every tool. `*` is the only wildcard.
	Include []string `json:"include" yaml:"include"`
	// Exclude lists tool-name patterns never tracked. Untracked calls neither count nor reset.
	Exclude []string `json:"exclude" yaml:"exclude"`
	// ArgumentsPreviewChars caps, in Unicode code points, the arguments quoted in the detailed text.
	ArgumentsPreviewChars int `json:"argumentsPreviewChars" yaml:"argumentsPreviewChars"`
}

// DefaultRepeatToolReminder returns repeat-tool-reminder's defaults.
func DefaultRepeatToolReminder() *RepeatToolReminderConfig {
	return &RepeatToolReminderConfig{
		Thresholds:            []int{3, 5, 8},
		Include:               []string{},
		Exclude:               []string{},
		ArgumentsPreviewChars: 500,
	}
}

// Brake modes.
const (
	ModeRemind = "remind"
	ModeDeny   = "deny"
)

// DSHBrakeConfig holds the options of dsh-brake, under their upstream names.
type DSHBrakeConfig struct {
	// Mode is "remind" (advisory only) or "deny" (also refuse confirmed repeats before they run).
	Mode string `json:"mode" yaml:"mode"`
	// CallWarnCount is how many identical calls since the user last spoke give the first notice.
	CallWarnCount int `json:"callWarnCount" yaml:"callWarnCount"`
	// CallDenyCount is, in deny mode, the count after which that identical call is refused.
	// It must be greater than CallWarnCount in every mode.
	CallDenyCount int `json:"callDenyCount" yaml:"callDenyCount"`
	// CallReWarnEvery is how many further repeats pass before the same chain is noticed again.
	CallReWarnEvery int `json:"callReWarnEvery" yaml:"callReWarnEvery"`
	// SequenceLength is the number of calls in a sequence window.
	SequenceLength int `json:"sequenceLength" yaml:"sequenceLength"`
	// SequenceCount is how often one window must repeat before a sequence notice.
	SequenceCount int `json:"sequenceCount" yaml:"sequenceCount"`
	// MinWindowCalls only sized a buffer upstream. It changes no output; it is validated.
	MinWindowCalls int `json:"minWindowCalls" yaml:"minWindowCalls"`
	// DuplicateTextThreshold is how many times one text must arrive in the window for a notice.
	DuplicateTextThreshold int `json:"duplicateTextThreshold" yaml:"duplicateTextThreshold"`
	// DuplicateTextWindowMs is the tumbling window in which duplicate texts are counted.
	DuplicateTextWindowMs int `json:"duplicateTextWindowMs" yaml:"duplicateTextWindowMs"`
	// DuplicateTextCooldownMs is the quiet time per text after a notice.
	DuplicateTextCooldownMs int `json:"duplicateTextCooldownMs" yaml:"duplicateTextCooldownMs"`
	// MinimumDuplicateChars: shorter texts (in code points) are ignored.
	MinimumDuplicateChars int `json:"minimumDuplicateChars" yaml:"minimumDuplicateChars"`
}

// DefaultDSHBrake returns dsh-brake's defaults.
func DefaultDSHBrake() *DSHBrakeConfig {
	return &DSHBrakeConfig{
		Mode:                    ModeRemind,
		CallWarnCount:           6,
		CallDenyCount:           10,
		CallReWarnEvery:         5,
		SequenceLength:          4,
		SequenceCount:           3,
		MinWindowCalls:          4,
		DuplicateTextThreshold:  3,
		DuplicateTextWindowMs:   120000,
		DuplicateTextCooldownMs: 30000,
		MinimumDuplicateChars:   80,
	}
}

// Preset names.
const (
	PresetDefault            = "default"
	PresetRepeatToolReminder = PluginRepeatToolReminder
	PresetDSHBrake           = PluginDSHBrake
	PresetSeeds              = "seeds"
)

// PresetNames lists the presets Preset knows, in a stable order.
func PresetNames() []string {
	return []string{PresetDefault, PresetRepeatToolReminder, PresetDSHBrake, PresetSeeds}
}

// Preset returns a named preset:
//   - "default": the progress-aware detector (see ProgressConfig);
//   - "repeat-tool-reminder": that plugin alone, with its upstream defaults;
//   - "dsh-brake": that plugin alone, with its upstream defaults;
//   - "seeds": both seed plugins together (the default preset before progress-aware detection).
func Preset(name string) (Config, error) {
	switch name {
	case PresetDefault:
		return Config{Progress: DefaultProgress()}, nil
	case PresetSeeds:
		return Config{RepeatToolReminder: DefaultRepeatToolReminder(), DSHBrake: DefaultDSHBrake()}, nil
	case PresetRepeatToolReminder:
		return Config{RepeatToolReminder: DefaultRepeatToolReminder()}, nil
	case PresetDSHBrake:
		return Config{DSHBrake: DefaultDSHBrake()}, nil
	}
	return Config{}, fmt.Errorf("unknown preset %q (known: %v)", name, PresetNames())
}

// Locales lists the notice catalogues.
func Locales() []string { return []string{"en", "zh"} }

// Validate checks every option and returns the first problem, worded as the upstream plugins
// word it. The configuration loader reports the same messages with their place in the file.
func (c Config) Validate() error {
	if c.Locale != "" && !slices.Contains(Locales(), c.Locale) {
		return fmt.Errorf("locale must be one of %v, got %q", Locales(), c.Locale)
	}
	if r := c.RepeatToolReminder; r != nil {
		if err := r.validate(); err != nil {
			return err
		}
	}
	if b := c.DSHBrake; b != nil {
		if err := b.validate(); err != nil {
			return err
		}
	}
	if p := c.Progress; p != nil {
		if err := p.validate(); err != nil {
			return err
		}
	}
	return nil
}

// Error texts of repeat-tool-reminder, in the order its loader checks them.
var errEmptyThresholds = errors.New(PluginRepeatToolReminder + ": `thresholds` must not be empty")
var errDuplicateThresholds = errors.New(PluginRepeatToolReminder + ": `thresholds` must not contain duplicates")

func invalidThreshold(v string) error {
	return fmt.Errorf("%s: invalid threshold %s — every threshold must be an integer >= 2", PluginRepeatToolReminder, v)
}

func invalidPreviewChars(v string) error {
	return fmt.Errorf("%s: invalid argumentsPreviewChars %s — must be an integer >= 1", PluginRepeatToolReminder, v)
}

func (r *RepeatToolReminderConfig) validate() error {
	if len(r.Thresholds) == 0 {
		return errEmptyThresholds
	}
	for _, t := range r.Thresholds {
		if t < 2 {
			return invalidThreshold(strconv.Itoa(t))
		}
	}
	seen := make(map[int]bool, len(r.Thresholds))
	for _, t := range r.Thresholds {
		if seen[t] {
			return errDuplicateThresholds
		}
		seen[t] = true
	}
	if r.ArgumentsPreviewChars < 1 {
		return invalidPreviewChars(strconv.Itoa(r.ArgumentsPreviewChars))
	}
	return nil
}

// IntOption describes one integer option of dsh-brake: its upstream name, its minimum, and
// where it lives in the struct. Configuration loaders use it to check fields in place.
type IntOption struct {
	Name  string
	Min   int
	Field func(*DSHBrakeConfig) *int
}

// BrakeIntOptions lists dsh-brake's integer options in the order upstream validates them.
func BrakeIntOptions() []IntOption { return slices.Clone(brakeIntFields) }

var brakeIntFields = []IntOption{
	{"callWarnCount", 2, func(c *DSHBrakeConfig) *int { return &c.CallWarnCount }},
	{"callDenyCount", 2, func(c *DSHBrakeConfig) *int { return &c.CallDenyCount }},
	{"sequenceLength", 2, func(c *DSHBrakeConfig) *int { return &c.SequenceLength }},
	{"sequenceCount", 2, func(c *DSHBrakeConfig) *int { return &c.SequenceCount }},
	{"callReWarnEvery", 1, func(c *DSHBrakeConfig) *int { return &c.CallReWarnEvery }},
	{"minWindowCalls", 2, func(c *DSHBrakeConfig) *int { return &c.MinWindowCalls }},
	{"duplicateTextThreshold", 2, func(c *DSHBrakeConfig) *int { return &c.DuplicateTextThreshold }},
	{"duplicateTextWindowMs", 1000, func(c *DSHBrakeConfig) *int { return &c.DuplicateTextWindowMs }},
	{"duplicateTextCooldownMs", 0, func(c *DSHBrakeConfig) *int { return &c.DuplicateTextCooldownMs }},
	{"minimumDuplicateChars", 1, func(c *DSHBrakeConfig) *int { return &c.MinimumDuplicateChars }},
}

func brakeIntError(name string, min int, got string) error {
	return fmt.Errorf("%s: %s must be an integer >= %d, got %s", PluginDSHBrake, name, min, got)
}

func brakeModeError(got string) error {
	return fmt.Errorf("%s: mode must be 'remind' or 'deny', got %s", PluginDSHBrake, got)
}

func (b *DSHBrakeConfig) validate() error {
	for _, f := range brakeIntFields {
		if v := *f.Field(b); v < f.Min {
			return brakeIntError(f.Name, f.Min, strconv.Itoa(v))
		}
	}
	if b.Mode != ModeRemind && b.Mode != ModeDeny {
		return brakeModeError(b.Mode)
	}
	if b.CallDenyCount <= b.CallWarnCount {
		return fmt.Errorf("%s: callDenyCount (%d) must be greater than callWarnCount (%d)", PluginDSHBrake, b.CallDenyCount, b.CallWarnCount)
	}
	return nil
}
