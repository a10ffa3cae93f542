package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		// repeat-tool-reminder's five rejections, in upstream's wording.
		{"empty thresholds", "repeat-tool-reminder:\n  thresholds: []\n",
			"c.yaml:2:15: repeat-tool-reminder: `thresholds` must not be empty"},
		{"a threshold below 2", "repeat-tool-reminder: {thresholds: [3, 1]}\n",
			"c.yaml:1:40: repeat-tool-reminder: invalid threshold 1 — every threshold must be an integer >= 2"},
		{"a fractional threshold", "repeat-tool-reminder:\n  thresholds: [2.5]\n",
			"c.yaml:2:16: repeat-tool-reminder: invalid threshold 2.5 — every threshold must be an integer >= 2"},
		{"duplicate thresholds", "repeat-tool-reminder:\n  thresholds: [3, 5, 3]\n",
			"c.yaml:2:22: repeat-tool-reminder: `thresholds` must not contain duplicates"},
		{"argumentsPreviewChars below 1", "repeat-tool-reminder:\n  argumentsPreviewChars: 0\n",
			"c.yaml:2:26: repeat-tool-reminder: invalid argumentsPreviewChars 0 — must be an integer >= 1"},
		{"a string threshold", "repeat-tool-reminder: {thresholds: [abc]}\n",
			"c.yaml:1:37: repeat-tool-reminder: invalid threshold abc — every threshold must be an integer >= 2"},
		{"thresholds not a list", "repeat-tool-reminder: {thresholds: 3}\n",
			`c.yaml:1:36: repeat-tool-reminder: thresholds must be a list of integers, got "3"`},
		{"include not a list of strings", "repeat-tool-reminder: {include: [1]}\n",
			`c.yaml:1:34: repeat-tool-reminder: include item must be a string, got "1"`},
		// dsh-brake's rejections.
		{"deny not above warn", "dsh-brake: {callWarnCount: 6, callDenyCount: 6}\n",
			"c.yaml:1:46: dsh-brake: callDenyCount (6) must be greater than callWarnCount (6)"},
		{"deny below the default warn", "dsh-brake: {callDenyCount: 5}\n",
			"c.yaml:1:28: dsh-brake: callDenyCount (5) must be greater than callWarnCount (6)"},
		{"an unknown mode", "dsh-brake:\n  mode: block\n",
			"c.yaml:2:9: dsh-brake: mode must be 'remind' or 'deny', got block"},
		{"a fractional count", "dsh-brake: {callWarnCount: 1.5}\n",
			"c.yaml:1:28: dsh-brake: callWarnCount must be an integer >= 2, got 1.5"},
		{"a window below its minimum", "dsh-brake: {duplicateTextWindowMs: 10}\n",
			"c.yaml:1:36: dsh-brake: duplicateTextWindowMs must be an integer >= 1000, got 10"},
		{"a negative cooldown", "dsh-brake: {duplicateTextCooldownMs: -1}\n",
			"c.yaml:1:38: dsh-brake: duplicateTextCooldownMs must be an integer >= 0, got -1"},
		{"callReWarnEvery zero", "dsh-brake: {callReWarnEvery: 0}\n",
			"c.yaml:1:30: dsh-brake: callReWarnEvery must be an integer >= 1, got 0"},
		{"a string count", "dsh-brake: {sequenceLength: \"4\"}\n",
			"c.yaml:1:29: dsh-brake: sequenceLength must be an integer >= 2, got 4"},
		// The document itself.
		{"an unknown top-level key", "presets: default\n",
			"c.yaml:1:1: unknown key \"presets\" (known keys: $schema, preset, locale, repeat-tool-reminder, dsh-brake, progress, proxy)"},
		{"an unknown plugin option", "dsh-brake:\n  callWarn: 3\n",
			"c.yaml:2:3: dsh-brake: unknown key \"callWarn\" (known keys: mode, callWarnCount, callDenyCount, callReWarnEvery, sequenceLength, sequenceCount, minWindowCalls, duplicateTextThreshold, duplicateTextWindowMs, duplicateTextCooldownMs, minimumDuplicateChars)"},
		{"a duplicate key", "locale: en\nlocale: zh\n", `c.yaml:2:1: duplicate key "locale"`},
		{"an unknown preset", "preset: fast\n", `c.yaml:1:9: unknown preset "fast" (known: default, repeat-tool-reminder, dsh-brake, seeds)`},
		// The progress detector's section.
		{"a progress threshold below 2", "progress: {thresholds: [3, 1]}\n",
			"c.yaml:1:28: progress: invalid threshold 1 — every threshold must be an integer >= 2"},
		{"a progress similarity out of range", "progress:\n  similarity: 120\n",
			"c.yaml:2:15: progress: similarity must be an integer from 50 to 100, got 120"},
		{"an unknown progress option", "progress: {pollBudgets: 3}\n",
			"c.yaml:1:12: progress: unknown key \"pollBudgets\" (known keys: mode, thresholds, remindEvery, quietCalls, errorRepeats, churnRepeats, maxCyclePeriod, thoughtRepeats, thoughtLimit, unmovedRepeats, pollBudget, idlePollBudget, denyAfter, similarity, transparent, exempt, mutating, tools)"},
		{"a tool override without match", "progress: {tools: [{pollBudget: 5}]}\n",
			"c.yaml:1:20: progress: tools: an entry needs `match`"},
		{"a tool override with a string for a bool", "progress: {tools: [{match: Bash, exempt: yes please}]}\n",
			"c.yaml:1:42: progress: tools: exempt must be true or false, got \"yes please\""},
		{"a progress mode that does not exist", "progress: {mode: block}\n",
			"c.yaml:1:18: progress: mode must be 'remind' or 'deny', got block"},
		{"an unknown locale", "locale: fr\n", `c.yaml:1:9: locale must be one of en, zh, got "fr"`},
		{"a locale of the wrong type", "locale: [en]\n", "c.yaml:1:9: locale must be a string, got a list"},
		{"a section of the wrong type", "dsh-brake: 3\n", `c.yaml:1:12: a plugin section must be a mapping of options, empty, or false; got "3"`},
		{"a document that is a list", "- a\n", "c.yaml:1:1: the configuration must be a mapping of keys to values"},
		{"a YAML syntax error", "dsh-brake: {mode: remind\n", "c.yaml:1:1: did not find expected ',' or '}'"},
		{"JSON with an unknown key", `{"dsh-brake": {"mod": "deny"}}`, `c.yaml:1:16: dsh-brake: unknown key "mod" (known keys: mode, callWarnCount, callDenyCount, callReWarnEvery, sequenceLength, sequenceCount, minWindowCalls, duplicateTextThreshold, duplicateTextWindowMs, duplicateTextCooldownMs, minimumDuplicateChars)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Parse("c.yaml", []byte(tt.doc))
			if err == nil {
				t.Fatalf("accepted %q", tt.doc)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got: %s\nwant: %s", err, tt.want)
			}
		})
	}
}

func TestParseAccepts(t *testing.T) {
	def, _ := loopguard.Preset(loopguard.PresetDefault)
	seeds, _ := loopguard.Preset(loopguard.PresetSeeds)
	rtr, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	brk, _ := loopguard.Preset(loopguard.PresetDSHBrake)
	withProgress := func(c loopguard.Config, mod func(*loopguard.ProgressConfig)) loopguard.Config {
		p := *c.Progress
		mod(&p)
		c.Progress = &p
		return c
	}
	withBrake := func(c loopguard.Config, mod func(*loopguard.DSHBrakeConfig)) loopguard.Config {
		b := *c.DSHBrake
		mod(&b)
		c.DSHBrake = &b
		return c
	}
	tests := []struct {
		name, doc string
		want      loopguard.Config
		warned    bool
	}{
		{"an empty document enables nothing and says so", "", loopguard.Config{}, true},
		{"a comment-only document enables nothing", "# nothing here\n", loopguard.Config{}, true},
		{"an empty mapping enables nothing", "{}", loopguard.Config{}, true},
		{"a preset alone", "preset: default\n", def, false},
		{"an empty section enables the plugin with defaults", "dsh-brake:\n", brk, false},
		{"an empty JSON object section too", `{"repeat-tool-reminder": {}}`, rtr, false},
		{"the issue's example", "locale: en\nrepeat-tool-reminder: {thresholds: [3, 5, 8], include: [], exclude: [todo_write], argumentsPreviewChars: 500}\ndsh-brake: {mode: remind, callWarnCount: 6, callDenyCount: 10}\n",
			loopguard.Config{Locale: "en", RepeatToolReminder: &loopguard.RepeatToolReminderConfig{Thresholds: []int{3, 5, 8}, Include: []string{}, Exclude: []string{"todo_write"}, ArgumentsPreviewChars: 500}, DSHBrake: loopguard.DefaultDSHBrake()}, false},
		{"3.0 is accepted as 3", "repeat-tool-reminder: {thresholds: [3.0, 4]}\n",
			loopguard.Config{RepeatToolReminder: &loopguard.RepeatToolReminderConfig{Thresholds: []int{3, 4}, Include: []string{}, Exclude: []string{}, ArgumentsPreviewChars: 500}}, false},
		{"the seeds preset is both seed plugins", "preset: seeds\n",
			loopguard.Config{RepeatToolReminder: loopguard.DefaultRepeatToolReminder(), DSHBrake: loopguard.DefaultDSHBrake()}, false},
		{"sections override the preset field by field, wherever the preset is written", "dsh-brake: {mode: deny}\npreset: seeds\n",
			withBrake(seeds, func(b *loopguard.DSHBrakeConfig) { b.Mode = "deny" }), false},
		{"false turns off a preset's plugin", "preset: seeds\nrepeat-tool-reminder: false\n", brk, false},
		{"the default preset is the progress detector", "preset: default\n",
			loopguard.Config{Progress: loopguard.DefaultProgress()}, false},
		{"progress options override the default preset", "preset: default\nprogress: {mode: deny, pollBudget: 50, exempt: [BashOutput], tools: [{match: \"mcp__*\", mutating: true}]}\n",
			withProgress(def, func(p *loopguard.ProgressConfig) {
				yes := true
				p.Mode, p.PollBudget, p.Exempt = "deny", 50, []string{"BashOutput"}
				p.Tools = []loopguard.ToolOverride{{Match: "mcp__*", Mutating: &yes}}
			}), false},
		{"an empty progress section turns it on with defaults", "progress:\n", def, false},
		{"a $schema key is allowed for editors", `{"$schema": "./schema.json", "preset": "dsh-brake"}`, brk, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings, err := Parse("c.yaml", []byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("config\n got %s\nwant %s", Format(got), Format(tt.want))
			}
			if warned := slices.Contains(warnings, NothingEnabled); warned != tt.warned {
				t.Errorf("warned about nothing enabled: %v, want %v", warned, tt.warned)
			}
		})
	}
}

func TestFormatReadsBack(t *testing.T) {
	for _, name := range loopguard.PresetNames() {
		cfg, _ := loopguard.Preset(name)
		cfg.Locale = "zh"
		got, _, err := Parse("formatted", Format(cfg))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, Format(cfg))
		}
		if !reflect.DeepEqual(got, cfg) {
			t.Errorf("%s: read back %+v, want %+v", name, got, cfg)
		}
	}
}

func TestResolveOrder(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flagFile := write("flag.yaml", "preset: dsh-brake\n")
	envFile := write("env.yaml", "preset: repeat-tool-reminder\n")
	write("xdg/loopguard/config.yaml", "dsh-brake: {mode: deny}\n")
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }

	tests := []struct {
		name       string
		choice     Choice
		env        map[string]string
		wantSource string
	}{
		{"--config wins over everything", Choice{File: flagFile}, map[string]string{EnvVar: envFile, "XDG_CONFIG_HOME": filepath.Join(dir, "xdg")}, "--config " + flagFile},
		{"--preset wins over the environment", Choice{Preset: "dsh-brake"}, map[string]string{EnvVar: envFile}, "--preset dsh-brake"},
		{"then $LOOPGUARD_CONFIG", Choice{}, map[string]string{EnvVar: envFile, "XDG_CONFIG_HOME": filepath.Join(dir, "xdg")}, "$LOOPGUARD_CONFIG (" + envFile + ")"},
		{"then the XDG file", Choice{}, map[string]string{"XDG_CONFIG_HOME": filepath.Join(dir, "xdg")}, filepath.Join(dir, "xdg", "loopguard", "config.yaml")},
		{"then ~/.config when XDG_CONFIG_HOME is unset", Choice{}, map[string]string{"HOME": filepath.Join(dir, "home")}, "built-in default preset"},
		{"else the default preset", Choice{}, map[string]string{}, "built-in default preset"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Resolve(tt.choice, env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if r.Source != tt.wantSource {
				t.Errorf("source %q, want %q", r.Source, tt.wantSource)
			}
		})
	}
	write("home/.config/loopguard/config.yaml", "preset: dsh-brake\n")
	r, err := Resolve(Choice{}, env(map[string]string{"HOME": filepath.Join(dir, "home")}))
	if err != nil || !strings.HasSuffix(r.Source, filepath.Join(".config", "loopguard", "config.yaml")) {
		t.Errorf("home config not found: %+v %v", r, err)
	}
	if _, err := Resolve(Choice{File: flagFile, Preset: "default"}, env(nil)); err == nil {
		t.Error("--config with --preset accepted")
	}
	if _, err := Resolve(Choice{File: filepath.Join(dir, "missing.yaml")}, env(nil)); err == nil {
		t.Error("a missing --config file accepted")
	}
}

// The schema ships for editors; this keeps it true to the parser: the same keys, the same
// defaults, the same minimums.
func TestSchemaMatchesParser(t *testing.T) {
	var s struct {
		Properties map[string]struct {
			OneOf []struct {
				Properties map[string]struct {
					Default any      `json:"default"`
					Minimum *float64 `json:"minimum"`
				} `json:"properties"`
			} `json:"oneOf"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(Schema, &s); err != nil {
		t.Fatalf("schema.json is not JSON: %v", err)
	}
	var top []string
	for k := range s.Properties {
		top = append(top, k)
	}
	if !sameSet(top, topKeys) {
		t.Errorf("schema top-level keys %v, parser %v", top, topKeys)
	}
	brake := s.Properties["dsh-brake"].OneOf[2].Properties
	var bk []string
	for k := range brake {
		bk = append(bk, k)
	}
	if !sameSet(bk, brakeKeys) {
		t.Errorf("schema dsh-brake keys %v, parser %v", bk, brakeKeys)
	}
	def := loopguard.DefaultDSHBrake()
	for _, f := range loopguard.BrakeIntOptions() {
		p := brake[f.Name]
		if p.Minimum == nil || int(*p.Minimum) != f.Min {
			t.Errorf("%s: schema minimum %v, parser %d", f.Name, p.Minimum, f.Min)
		}
		if d, ok := p.Default.(float64); !ok || int(d) != *f.Field(def) {
			t.Errorf("%s: schema default %v, parser %d", f.Name, p.Default, *f.Field(def))
		}
	}
	pr := s.Properties["progress"].OneOf[2].Properties
	var prk []string
	for k := range pr {
		prk = append(prk, k)
	}
	if !sameSet(prk, progressKeys) {
		t.Errorf("schema progress keys %v, parser %v", prk, progressKeys)
	}
	pdef := loopguard.DefaultProgress()
	for _, f := range loopguard.ProgressIntOptions() {
		p := pr[f.Name]
		if p.Minimum == nil || int(*p.Minimum) != f.Min {
			t.Errorf("%s: schema minimum %v, parser %d", f.Name, p.Minimum, f.Min)
		}
		if d, ok := p.Default.(float64); !ok || int(d) != *f.Field(pdef) {
			t.Errorf("%s: schema default %v, parser %d", f.Name, p.Default, *f.Field(pdef))
		}
	}
	var transparent []string
	for _, v := range pr["transparent"].Default.([]any) {
		transparent = append(transparent, v.(string))
	}
	if !slices.Equal(transparent, loopguard.DefaultTransparent) {
		t.Errorf("schema transparent default %q, parser %q", transparent, loopguard.DefaultTransparent)
	}
	rk := s.Properties["repeat-tool-reminder"].OneOf[2].Properties
	var rks []string
	for k := range rk {
		rks = append(rks, k)
	}
	if !sameSet(rks, repeatKeys) {
		t.Errorf("schema repeat-tool-reminder keys %v, parser %v", rks, repeatKeys)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
