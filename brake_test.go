package loopguard

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

var longText = "The configuration file lists every service with its port, its owner and the date of its last review. "

func TestDSHBrake(t *testing.T) {
	abc := []Event{call("a", "A", "{}"), call("a", "B", "{}"), call("a", "C", "{}")}
	tests := []struct {
		name   string
		cfg    Config
		events []Event
		want   []string
	}{
		{"warns once at the threshold", brakeOnly(nil),
			repeatN(7, call("a", "probe", probeSame)),
			[]string{"5 dsh-brake/call probe × 6", "5 dsh-brake/sequence sequence loop × 3"}},
		{"distinct arguments never warn", brakeOnly(nil),
			[]Event{call("a", "p", `{"n":1}`), call("a", "p", `{"n":2}`), call("a", "p", `{"n":3}`), call("a", "p", `{"n":4}`), call("a", "p", `{"n":5}`), call("a", "p", `{"n":6}`), call("a", "p", `{"n":7}`)},
			nil},
		{"counts are cumulative, not consecutive", brakeOnly(func(c *DSHBrakeConfig) { c.CallWarnCount = 3; c.SequenceLength = 8 }),
			[]Event{call("a", "p", "{}"), call("a", "q", "{}"), call("a", "p", "{}"), call("a", "q", "{}"), call("a", "p", "{}")},
			[]string{"4 dsh-brake/call p × 3"}},
		{"re-warns every callReWarnEvery more", brakeOnly(func(c *DSHBrakeConfig) { c.CallWarnCount = 2; c.SequenceLength = 16 }),
			repeatN(10, call("a", "probe", probeSame)),
			[]string{"1 dsh-brake/call probe × 2", "6 dsh-brake/call probe × 7"}},
		{"a repeated sequence is noticed and throttled", brakeOnly(func(c *DSHBrakeConfig) { c.SequenceLength = 3; c.SequenceCount = 2 }),
			concat(abc, abc, abc, abc),
			[]string{"5 dsh-brake/sequence sequence loop × 2", "6 dsh-brake/sequence sequence loop × 2", "7 dsh-brake/sequence sequence loop × 2"}},
		{"a user message resets every counter", brakeOnly(func(c *DSHBrakeConfig) { c.CallWarnCount = 3; c.SequenceLength = 8 }),
			concat(repeatN(2, call("a", "p", "{}")), one(user("a")), repeatN(2, call("a", "p", "{}"))),
			nil},
		{"calls with no agent are ignored", brakeOnly(func(c *DSHBrakeConfig) { c.CallWarnCount = 2 }),
			repeatN(5, call("", "p", "{}")),
			nil},
		{"deny mode refuses the confirmed identity after callDenyCount", brakeOnly(func(c *DSHBrakeConfig) {
			c.Mode = ModeDeny
			c.CallWarnCount = 2
			c.CallDenyCount = 3
			c.SequenceLength = 16
		}),
			concat(repeatN(5, call("a", "p", "{}")), one(call("a", "p", `{"x":1}`)), one(call("", "p", "{}"))),
			[]string{"1 dsh-brake/call p × 2", "3 deny dsh-brake", "4 deny dsh-brake"}},
		{"deny stays until the user speaks", brakeOnly(func(c *DSHBrakeConfig) {
			c.Mode = ModeDeny
			c.CallWarnCount = 2
			c.CallDenyCount = 3
			c.CallReWarnEvery = 100
			c.SequenceLength = 16
		}),
			concat(repeatN(4, call("a", "p", "{}")), one(user("a")), repeatN(4, call("a", "p", "{}"))),
			[]string{"1 dsh-brake/call p × 2", "3 deny dsh-brake", "6 dsh-brake/call p × 2", "8 deny dsh-brake"}},
		{"remind mode never refuses", brakeOnly(func(c *DSHBrakeConfig) { c.CallWarnCount = 2; c.CallDenyCount = 3; c.SequenceLength = 16 }),
			repeatN(5, call("a", "p", "{}")),
			[]string{"1 dsh-brake/call p × 2"}},
		{"duplicate text across messages by fingerprint", brakeOnly(nil),
			[]Event{text("a", "m1", "kb", longText, 0), text("a", "m2", "kb", longText+"  \r\n", 1000), text("a", "m3", "search", "\n"+longText, 2000)},
			[]string{"2 dsh-brake/text duplicate text × 3"}},
		{"the same message id counts once", brakeOnly(nil),
			[]Event{text("a", "m1", "kb", longText, 0), text("a", "m1", "kb", longText, 1), text("a", "m1", "kb", longText, 2), text("a", "m2", "kb", longText, 3)},
			nil},
		{"a text with no id is never deduplicated", brakeOnly(nil),
			[]Event{text("a", "", "kb", longText, 0), text("a", "", "kb", longText, 1), text("a", "", "kb", longText, 2)},
			[]string{"2 dsh-brake/text duplicate text × 3"}},
		{"texts shorter than minimumDuplicateChars are ignored", brakeOnly(nil),
			[]Event{text("a", "", "kb", "short", 0), text("a", "", "kb", "short", 1), text("a", "", "kb", "short", 2)},
			nil},
		{"length is counted in code points", brakeOnly(func(c *DSHBrakeConfig) { c.MinimumDuplicateChars = 5 }),
			[]Event{text("a", "", "kb", "日本語だ", 0), text("a", "", "kb", "日本語だ", 1), text("a", "", "kb", "日本語だ", 2)},
			nil},
		{"call results count as text, with the tool as source", brakeOnly(nil),
			[]Event{
				call("a", "read", `{"f":1}`).WithResult(longText, false),
				call("a", "read", `{"f":2}`).WithResult(longText, false),
				call("a", "grep", `{"f":3}`).WithResult(longText, true),
			},
			[]string{"2 dsh-brake/text duplicate text × 3"}},
		{"the window restarts strictly after windowMs", brakeOnly(nil),
			[]Event{text("a", "", "kb", longText, 0), text("a", "", "kb", longText, 120000), text("a", "", "kb", longText, 240001), text("a", "", "kb", longText, 240002), text("a", "", "kb", longText, 240003)},
			[]string{"4 dsh-brake/text duplicate text × 3"}},
		{"the cooldown silences, then every count at or above the threshold speaks", brakeOnly(nil),
			[]Event{text("a", "", "kb", longText, 0), text("a", "", "kb", longText, 1), text("a", "", "kb", longText, 2), text("a", "", "kb", longText, 29999), text("a", "", "kb", longText, 30002), text("a", "", "kb", longText, 30003)},
			[]string{"2 dsh-brake/text duplicate text × 3", "4 dsh-brake/text duplicate text × 5"}},
		{"a zero cooldown notices every time", brakeOnly(func(c *DSHBrakeConfig) { c.DuplicateTextCooldownMs = 0 }),
			[]Event{text("a", "", "kb", longText, 0), text("a", "", "kb", longText, 0), text("a", "", "kb", longText, 0), text("a", "", "kb", longText, 0)},
			[]string{"2 dsh-brake/text duplicate text × 3", "3 dsh-brake/text duplicate text × 4"}},
		{"our own refusal text is never counted", brakeOnly(nil),
			[]Event{
				call("a", "p", `{"n":1}`).WithResult(denyTextPrefix+" "+longText, true),
				call("a", "p", `{"n":2}`).WithResult(denyTextPrefix+" "+longText, true),
				call("a", "p", `{"n":3}`).WithResult(denyTextPrefix+" "+longText, true),
			},
			nil},
		{"other error texts are counted", brakeOnly(nil),
			[]Event{
				call("a", "p", `{"n":1}`).WithResult("Error: "+longText, true),
				call("a", "p", `{"n":2}`).WithResult("Error: "+longText, true),
				call("a", "p", `{"n":3}`).WithResult("Error: "+longText, true),
			},
			[]string{"2 dsh-brake/text duplicate text × 3"}},
		{"a user message forgets seen message ids", brakeOnly(nil),
			[]Event{text("a", "m1", "kb", longText, 0), user("a"), text("a", "m1", "kb", longText, 1), text("a", "m2", "kb", longText, 2), text("a", "m3", "kb", longText, 3)},
			[]string{"4 dsh-brake/text duplicate text × 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := run(t, tt.cfg, tt.events)
			sameLines(t, got, tt.want)
		})
	}
}

func TestDSHBrakeDenyReasonCountsSoFar(t *testing.T) {
	cfg := brakeOnly(func(c *DSHBrakeConfig) { c.Mode = ModeDeny; c.CallWarnCount = 2; c.CallDenyCount = 3 })
	_, outs := run(t, cfg, repeatN(5, call("a", "probe", probeSame)))
	for i, want := range map[int]string{3: "3 times", 4: "4 times"} {
		r := outs[i].Denial.Reason
		if !strings.HasPrefix(r, "dsh-brake: ") || !strings.Contains(r, "probe") || !strings.Contains(r, want) {
			t.Errorf("event %d: reason %q, want it to start with dsh-brake: and say %q", i, r, want)
		}
	}
}

func TestDSHBrakeTextNotice(t *testing.T) {
	_, outs := run(t, brakeOnly(nil), []Event{
		text("a", "m1", "kb", longText, 0), text("a", "m2", "search", longText, 1), text("a", "m3", "kb", longText, 2),
	})
	n := outs[2].Notices[0].Text
	for _, want := range []string{"3 times", "120 seconds", "(sources: kb, search)", "The configuration file lists every service"} {
		if !strings.Contains(n, want) {
			t.Errorf("text notice lacks %q: %s", want, n)
		}
	}
}

func TestDSHBrakeSequenceNoticeNamesTheTools(t *testing.T) {
	cfg := brakeOnly(func(c *DSHBrakeConfig) { c.SequenceLength = 2; c.SequenceCount = 2 })
	_, outs := run(t, cfg, []Event{call("a", "grep", "{}"), call("a", "read", "{}"), call("a", "grep", "{}"), call("a", "read", "{}")})
	if len(outs[3].Notices) != 1 || !strings.Contains(outs[3].Notices[0].Text, "grep → read") {
		t.Fatalf("want one sequence notice naming grep → read, got %+v", outs[3].Notices)
	}
}

func TestLocaleZH(t *testing.T) {
	cfg := Config{Locale: "zh", RepeatToolReminder: DefaultRepeatToolReminder(), DSHBrake: DefaultDSHBrake()}
	cfg.DSHBrake.Mode = ModeDeny
	_, outs := run(t, cfg, repeatN(11, call("a", "probe", probeSame)))
	if !strings.HasPrefix(outs[2].Notices[0].Text, "你正在") {
		t.Errorf("gentle zh text: %q", outs[2].Notices[0].Text)
	}
	if got := outs[10].Denial.Reason; !strings.HasPrefix(got, "dsh-brake: 同一调用（probe，相同参数）已重复 10 次") {
		t.Errorf("zh deny reason: %q", got)
	}
	if outs[10].Notices[0].Summary != "probe × 11" {
		t.Errorf("summaries are not translated: %q", outs[10].Notices[0].Summary)
	}
}

func TestOutputOrderWithinOneEvent(t *testing.T) {
	base := func(deny bool) Config {
		cfg := Config{RepeatToolReminder: DefaultRepeatToolReminder(), DSHBrake: DefaultDSHBrake()}
		cfg.RepeatToolReminder.Thresholds = []int{2, 11}
		b := cfg.DSHBrake
		b.CallWarnCount, b.CallReWarnEvery, b.CallDenyCount = 2, 9, 12
		b.SequenceLength, b.SequenceCount = 2, 10
		b.MinimumDuplicateChars, b.DuplicateTextThreshold = 10, 11
		if deny {
			b.Mode, b.CallDenyCount = ModeDeny, 10
		}
		return cfg
	}
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"advisory: repeat, then call, sequence and text", base(false),
			"repeat-tool-reminder/repeat,dsh-brake/call,dsh-brake/sequence,dsh-brake/text"},
		{"deny: the refusal first, then the notices", base(true),
			"deny,repeat-tool-reminder/repeat,dsh-brake/call,dsh-brake/sequence"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, outs := run(t, tt.cfg, repeatN(11, call("a", "p", "{}").WithResult("same result, long enough", false)))
			last := outs[10]
			var kinds []string
			if last.Denied {
				kinds = append(kinds, "deny")
			}
			for _, n := range last.Notices {
				kinds = append(kinds, n.Plugin+"/"+n.Kind)
			}
			if got := strings.Join(kinds, ","); got != tt.want {
				t.Errorf("order within the 11th call:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// normaliseText is the obvious, slow statement of what textFingerprint hashes.
func normaliseText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimFunc(strings.Join(lines, "\n"), unicode.IsSpace)
}

func TestTextFingerprintMatchesItsDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	alphabet := []string{"a", "b", " ", "\t", "\n", "\r", "\r\n", "é", "  \n", "xyz"}
	for n := 0; n < 5000; n++ {
		var b, c strings.Builder
		for k := r.IntN(40); k > 0; k-- {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		in := b.String()
		// c: the same normalised text written another way.
		c.WriteString(normaliseText(in))
		var h textHasher
		h.write(c.String())
		if got, want := textFingerprint(in), h.sum(); got != want {
			t.Fatalf("textFingerprint(%q) differs from the hash of its normal form %q", in, normaliseText(in))
		}
		if textFingerprint(in) != textFingerprint(normaliseText(in)) {
			t.Fatalf("%q and its normal form differ", in)
		}
	}
	if textFingerprint("abc") == textFingerprint("abd") || textFingerprint("a\nb") == textFingerprint("ab") {
		t.Error("different texts share a fingerprint")
	}
}
