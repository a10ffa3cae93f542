package proxy

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.out.json")

func newTestGuard(t testing.TB) *Guard {
	t.Helper()
	// The seed plugins, whose thresholds are fixed: these tests are about where notices go and
	// that the bytes around them are kept, not about which loops are found.
	cfg, err := loopguard.Preset(loopguard.PresetSeeds)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGuard(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func rewrite(t testing.TB, g *Guard, api API, body []byte) *Rewritten {
	t.Helper()
	r, err := g.Rewrite(api, body, nil)
	if err != nil {
		t.Fatalf("Rewrite(%s): %v", api, err)
	}
	r.Done()
	return r
}

// goldenCases are the golden inputs: one written in each API's shape, and one recorded from
// each real client (internal/e2e TestRecordProxyGolden; see testdata/golden/README.md).
var goldenCases = []struct {
	name string
	api  API
}{
	{"anthropic", Anthropic}, {"chat", Chat}, {"responses", Responses}, {"gemini", Gemini},
	{"recorded-claude-code", Anthropic}, {"recorded-opencode", Chat},
	{"recorded-codex", Responses}, {"recorded-gemini-cli", Gemini},
}

// messagesKey is where each API keeps its history.
var messagesKey = map[API]string{Anthropic: "messages", Chat: "messages", Responses: "input", Gemini: "contents"}

// Each golden input is a conversation in that API's own shape (as its clients send it) in which
// the model runs the same shell command five times: repeat-tool-reminder's thresholds 3 and 5
// fall due, and the exact upstream body is the golden output.
func TestGoldenUpstreamBody(t *testing.T) {
	for _, c := range goldenCases {
		api := c.api
		t.Run(c.name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", "golden", c.name+".in.json"))
			if err != nil {
				t.Fatal(err)
			}
			g := newTestGuard(t)
			r := rewrite(t, g, api, in)
			golden := filepath.Join("testdata", "golden", c.name+".out.json")
			if *update {
				if err := os.WriteFile(golden, r.Body(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(r.Body(), want) {
				t.Errorf("upstream body differs from %s:\ngot  %s", golden, r.Body())
			}
			if !json.Valid(r.Body()) {
				t.Errorf("upstream body is not valid JSON")
			}
			if len(r.Notices) != 2 || r.Notices[0].Plugin != loopguard.PluginRepeatToolReminder || r.Notices[1].Plugin != loopguard.PluginRepeatToolReminder {
				t.Errorf("notices = %+v, want repeat-tool-reminder at 3 and 5", r.Notices)
			}
			// The client may have reminders of its own (Claude Code does); two are added.
			if got := strings.Count(string(r.Body()), "<system-reminder>\\n") - strings.Count(string(in), "<system-reminder>\\n"); got != 2 {
				t.Errorf("%d reminders added to the body, want 2", got)
			}
			// Same history, same bytes: a second request with it is identical.
			if again := rewrite(t, g, api, in); !bytes.Equal(again.Body(), r.Body()) {
				t.Errorf("a second rewrite of the same body differs")
			}
		})
	}
}

// cutHistory returns body with its history array cut after element k (0-based).
func cutHistory(t testing.TB, api API, body []byte, k int) (cut []byte, tail int) {
	t.Helper()
	root, err := parseJSON(body)
	if err != nil {
		t.Fatal(err)
	}
	arr := root.get(messagesKey[api])
	rest := body[arr.end-1:]
	cut = append(append([]byte{}, body[:arr.elems[k].end]...), rest...)
	return cut, len(rest)
}

// The client resends the whole history every turn and never sees the notices; the proxy puts
// them back in the same places, so two consecutive requests share their bytes up to the newest
// turn and the provider's prompt cache keeps working.
func TestGrowingHistoryKeepsPrefix(t *testing.T) {
	for _, c := range goldenCases {
		api := c.api
		t.Run(c.name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", "golden", c.name+".in.json"))
			if err != nil {
				t.Fatal(err)
			}
			g := newTestGuard(t)
			full := rewrite(t, g, api, in).Body()
			root, _ := parseJSON(in)
			n := len(root.get(messagesKey[api]).elems)
			for k := 0; k < n; k++ {
				cut, tail := cutHistory(t, api, in, k)
				out := rewrite(t, g, api, cut).Body()
				if !json.Valid(out) {
					t.Fatalf("turn %d: invalid JSON", k)
				}
				prefix := out[:len(out)-tail]
				if !bytes.HasPrefix(full, prefix) {
					t.Fatalf("turn %d: the upstream body is not a prefix of the later turn's:\n%s", k, prefix)
				}
			}
		})
	}
}

// Removing what was inserted gives back the client's bytes exactly: nothing else is touched
// (assistant and thinking blocks, signatures, the system prompt, spacing, key order).
func TestOnlyNoticesAreAdded(t *testing.T) {
	for _, c := range goldenCases {
		api := c.api
		t.Run(c.name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", "golden", c.name+".in.json"))
			if err != nil {
				t.Fatal(err)
			}
			g := newTestGuard(t)
			conv, err := parse(api, in, nil)
			if err != nil {
				t.Fatal(err)
			}
			agent := "only-notices"
			ins := insertions(run(g.eng, agent, in, conv.steps))
			g.eng.Forget(agent)
			out := splice(in, ins)
			// Undo the insertions from the end.
			back := append([]byte{}, out...)
			shift := 0
			for _, in := range ins {
				shift += len(in.data)
			}
			for i := len(ins) - 1; i >= 0; i-- {
				shift -= len(ins[i].data)
				at := ins[i].offset + shift
				back = append(back[:at], back[at+len(ins[i].data):]...)
			}
			if !bytes.Equal(back, in) {
				t.Errorf("removing the insertions does not give the input back")
			}
		})
	}
}
