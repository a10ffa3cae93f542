package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/loopguard/loopguard"
)

func guardWith(t testing.TB, preset string, lim CacheLimits) *Guard {
	t.Helper()
	cfg, err := loopguard.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGuardCache(cfg, lim)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// sameAsReplay rewrites body with the cached guard and the uncached one and fails unless the
// upstream bodies are the same bytes and the notices the same.
func sameAsReplay(t testing.TB, cached, plain *Guard, api API, body []byte, what string) {
	t.Helper()
	want, errW := plain.Rewrite(api, body, nil)
	got, errG := cached.Rewrite(api, body, nil)
	if (errW == nil) != (errG == nil) {
		t.Fatalf("%s: error %v with the cache, %v without", what, errG, errW)
	}
	if errW != nil {
		return
	}
	defer want.Done()
	defer got.Done()
	if !bytes.Equal(got.Body(), want.Body()) {
		t.Fatalf("%s: upstream body differs with the cache:\ngot  %s\nwant %s", what, got.Body(), want.Body())
	}
	// The agent names the request's own engine agent, different for every request.
	strip := func(ns []loopguard.Notice) []loopguard.Notice {
		out := make([]loopguard.Notice, len(ns))
		for i, n := range ns {
			n.Agent = ""
			out[i] = n
		}
		return out
	}
	if !reflect.DeepEqual(strip(got.Notices), strip(want.Notices)) {
		t.Fatalf("%s: notices differ with the cache:\ngot  %+v\nwant %+v", what, got.Notices, want.Notices)
	}
}

// Every golden conversation, sent turn by turn as a client sends it (then every turn again, as a
// retry, then from the longest back to the shortest), gives through a warm cache the bytes a
// replay from a clean state gives.
func TestPrefixCacheGivesTheReplaysBytesTurnByTurn(t *testing.T) {
	for _, preset := range []string{loopguard.PresetSeeds, loopguard.PresetDefault} {
		for _, c := range goldenCases {
			api := c.api
			t.Run(preset+"/"+c.name, func(t *testing.T) {
				in, err := os.ReadFile(filepath.Join("testdata", "golden", c.name+".in.json"))
				if err != nil {
					t.Fatal(err)
				}
				root, _ := parseJSON(in)
				n := len(root.get(messagesKey[api]).elems)
				var turns [][]byte
				for k := 0; k < n; k++ {
					cut, _ := cutHistory(t, api, in, k)
					turns = append(turns, cut)
				}
				cached := guardWith(t, preset, DefaultCacheLimits)
				plain := guardWith(t, preset, CacheLimits{})
				for k, body := range turns {
					sameAsReplay(t, cached, plain, api, body, fmt.Sprintf("turn %d", k))
					sameAsReplay(t, cached, plain, api, body, fmt.Sprintf("turn %d again", k))
				}
				for k := len(turns) - 1; k >= 0; k-- {
					sameAsReplay(t, cached, plain, api, turns[k], fmt.Sprintf("turn %d, going back", k))
				}
				if hits := cached.cache.hits.Load(); hits < int64(n) {
					t.Errorf("the cache served %d of %d requests: the test did not exercise it", hits, 3*n)
				}
			})
		}
	}
}

// convTurn is one turn of a generated conversation: the model's text and call, the result
// (possibly failed), and optionally context text next to it, or a user message after it.
type convTurn struct {
	text, tool, cmd, result string
	failed                  bool
	context                 string
	user                    string
}

// genTurn draws a turn from a small set of commands and results, so that loops (and therefore
// notices) happen.
func genTurn(r *rand.Rand) convTurn {
	cmds := []string{"ls", "cat a.go", "cat a.go", "go test ./...", "grep -n x b.go"}
	results := []string{"ok", "FAIL: TestX\n\tx_test.go:3: \"quoted\" \\ back", "a.go\nb.go", strings.Repeat("line é\n", 40), ""}
	t := convTurn{
		text:   fmt.Sprintf("step %d", r.IntN(3)),
		tool:   []string{"Bash", "Bash", "Read"}[r.IntN(3)],
		cmd:    cmds[r.IntN(len(cmds))],
		result: results[r.IntN(len(results))],
		failed: r.IntN(5) == 0,
	}
	if r.IntN(4) == 0 {
		t.context = "<system-reminder>hook said so</system-reminder>"
	}
	if r.IntN(8) == 0 {
		t.user = fmt.Sprintf("keep going %d", r.IntN(2))
	}
	return t
}

// render writes the conversation as a request body of api. system goes before the history, so
// that changing it moves every offset of the history.
func render(api API, system string, turns []convTurn) []byte {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	var items []string
	switch api {
	case Anthropic:
		items = append(items, `{"role":"user","content":"go"}`)
		for i, t := range turns {
			items = append(items, fmt.Sprintf(`{"role":"assistant","content":[{"type":"text","text":%s},{"type":"tool_use","id":"t%d","name":%s,"input":{"command":%s}}]}`, q(t.text), i, q(t.tool), q(t.cmd)))
			blocks := fmt.Sprintf(`{"type":"tool_result","tool_use_id":"t%d","content":[{"type":"text","text":%s}],"is_error":%v}`, i, q(t.result), t.failed)
			if t.context != "" {
				blocks += `,{"type":"text","text":` + q(t.context) + `}`
			}
			items = append(items, `{"role":"user","content":[`+blocks+`]}`)
			if t.user != "" {
				items = append(items, `{"role":"assistant","content":"done"}`, `{"role":"user","content":`+q(t.user)+`}`)
			}
		}
		return fmt.Appendf(nil, `{"model":"m","system":%s,"messages":[%s]}`, q(system), strings.Join(items, ","))
	case Chat:
		items = append(items, `{"role":"system","content":`+q(system)+`}`, `{"role":"user","content":"go"}`)
		for i, t := range turns {
			args, _ := json.Marshal(map[string]string{"command": t.cmd})
			items = append(items, fmt.Sprintf(`{"role":"assistant","content":%s,"tool_calls":[{"id":"c%d","type":"function","function":{"name":%s,"arguments":%s}}]}`, q(t.text), i, q(t.tool), q(string(args))))
			if i%2 == 0 {
				items = append(items, fmt.Sprintf(`{"role":"tool","tool_call_id":"c%d","content":%s}`, i, q(t.result)))
			} else {
				items = append(items, fmt.Sprintf(`{"role":"tool","tool_call_id":"c%d","content":[{"type":"text","text":%s}]}`, i, q(t.result)))
			}
			if t.user != "" {
				items = append(items, `{"role":"user","content":`+q(t.user)+`}`)
			}
		}
		return fmt.Appendf(nil, `{"model":"m","messages":[%s]}`, strings.Join(items, ","))
	case Responses:
		items = append(items, `{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}`)
		for i, t := range turns {
			args, _ := json.Marshal(map[string]string{"cmd": t.cmd})
			items = append(items, fmt.Sprintf(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":%s}]}`, q(t.text)),
				fmt.Sprintf(`{"type":"function_call","name":%s,"arguments":%s,"call_id":"c%d"}`, q(t.tool), q(string(args)), i),
				fmt.Sprintf(`{"type":"function_call_output","call_id":"c%d","output":%s}`, i, q(t.result)))
			if t.user != "" {
				items = append(items, `{"role":"user","content":`+q(t.user)+`}`)
			}
		}
		return fmt.Appendf(nil, `{"model":"m","instructions":%s,"store":false,"input":[%s]}`, q(system), strings.Join(items, ","))
	case Gemini:
		items = append(items, `{"role":"user","parts":[{"text":"go"}]}`)
		for _, t := range turns {
			items = append(items, fmt.Sprintf(`{"role":"model","parts":[{"text":%s},{"functionCall":{"name":%s,"args":{"command":%s}}}]}`, q(t.text), q(t.tool), q(t.cmd)))
			if t.failed {
				items = append(items, fmt.Sprintf(`{"role":"user","parts":[{"functionResponse":{"name":%s,"response":{"error":%s}}}]}`, q(t.tool), q(t.result)))
			} else {
				items = append(items, fmt.Sprintf(`{"role":"user","parts":[{"functionResponse":{"name":%s,"response":{"output":%s}}}]}`, q(t.tool), q(t.result)))
			}
			if t.user != "" {
				items = append(items, `{"role":"user","parts":[{"text":`+q(t.user)+`}]}`)
			}
		}
		return fmt.Appendf(nil, `{"systemInstruction":{"parts":[{"text":%s}]},"contents":[%s]}`, q(system), strings.Join(items, ","))
	}
	panic("unknown API " + api)
}

// checkRandomSession drives one generated session, its choices drawn from r: the conversation
// grows, is retried, is cut back (a rewind), has an earlier result edited, and has its system
// prompt changed; every request must give the replay's bytes. A cache of a few entries is
// evicting all the time.
func checkRandomSession(t testing.TB, r *rand.Rand, api API, cached, plain *Guard, requests int) {
	var turns []convTurn
	system := "be brief"
	for i := 0; i < requests; i++ {
		switch op := r.IntN(10); {
		case op < 6 || len(turns) == 0: // the next turn or two
			for n := 1 + r.IntN(2); n > 0; n-- {
				turns = append(turns, genTurn(r))
			}
		case op == 6: // a retry: the same request again
		case op == 7: // a rewind
			turns = turns[:r.IntN(len(turns))]
		case op == 8: // an earlier result edited (a client compacting or redacting it)
			k := r.IntN(len(turns))
			turns[k].result += " (edited)"
		case op == 9:
			system = fmt.Sprintf("be brief %d", r.IntN(3))
		}
		sameAsReplay(t, cached, plain, api, render(api, system, turns), fmt.Sprintf("request %d (%d turns)", i, len(turns)))
	}
}

func TestPrefixCacheGivesTheReplaysBytesInRandomSessions(t *testing.T) {
	for _, api := range APIs() {
		for _, preset := range []string{loopguard.PresetSeeds, loopguard.PresetDefault} {
			t.Run(string(api)+"/"+preset, func(t *testing.T) {
				cached := guardWith(t, preset, CacheLimits{Entries: 4})
				plain := guardWith(t, preset, CacheLimits{})
				for seed := uint64(1); seed <= 8; seed++ {
					checkRandomSession(t, rand.New(rand.NewPCG(seed, uint64(len(api)))), api, cached, plain, 40)
				}
				if cached.cache.hits.Load() == 0 {
					t.Error("no request was served from the cache: the test did not exercise it")
				}
			})
		}
	}
}

func FuzzPrefixCacheGivesTheReplaysBytes(f *testing.F) {
	for seed := uint64(1); seed <= 4; seed++ {
		f.Add(seed, uint8(seed))
	}
	guards := map[API][2]*Guard{}
	for _, api := range APIs() {
		guards[api] = [2]*Guard{guardWith(f, loopguard.PresetSeeds, CacheLimits{Entries: 3}), guardWith(f, loopguard.PresetSeeds, CacheLimits{})}
	}
	f.Fuzz(func(t *testing.T, seed uint64, which uint8) {
		api := APIs()[int(which)%len(APIs())]
		g := guards[api]
		checkRandomSession(t, rand.New(rand.NewPCG(seed, 7)), api, g[0], g[1], 20)
	})
}

// Requests of many conversations at once share the cache; each gets the replay's bytes (run
// with -race).
func TestPrefixCacheUnderConcurrentRequests(t *testing.T) {
	cached := guardWith(t, loopguard.PresetSeeds, CacheLimits{Entries: 16})
	plain := guardWith(t, loopguard.PresetSeeds, CacheLimits{})
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Workers 0 and 1 (2 and 3, ...) play the same session: the same prefixes race.
			checkRandomSession(t, rand.New(rand.NewPCG(uint64(w/2), 1)), Anthropic, cached, plain, 30)
		}()
	}
	wg.Wait()
}

func TestPrefixCacheStaysWithinItsBounds(t *testing.T) {
	p := func(snap int) *plan { return &plan{snap: make([]byte, snap)} }
	key := func(i int) prefixKey { return prefixKey{hash: uint64(i), steps: i} }
	tests := []struct {
		name       string
		lim        CacheLimits
		sizes      []int // snapshot sizes put, in order, under keys 0, 1, ...
		touch      int   // a key looked up after the first two puts (-1: none)
		wantKept   []int
		wantAtMost int64
	}{
		{"entries: the least recently used goes", CacheLimits{Entries: 2}, []int{10, 10, 10}, -1, []int{1, 2}, 0},
		{"a lookup keeps an entry", CacheLimits{Entries: 2}, []int{10, 10, 10}, 0, []int{0, 2}, 0},
		{"bytes: old entries go until the new one fits", CacheLimits{Entries: 10, Bytes: 2500}, []int{1000, 1000, 1000}, -1, []int{1, 2}, 2500},
		{"a plan over the byte bound is not kept", CacheLimits{Entries: 10, Bytes: 2500}, []int{1000, 5000}, -1, []int{0}, 2500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newPrefixCache(tt.lim)
			for i, size := range tt.sizes {
				if i == 2 && tt.touch >= 0 {
					if got, _ := c.longest([]prefixKey{key(tt.touch)}); got == nil {
						t.Fatalf("key %d missing before eviction", tt.touch)
					}
				}
				c.put(key(i), p(size))
			}
			var kept []int
			for i := range tt.sizes {
				if got, _ := c.longest([]prefixKey{key(i)}); got != nil {
					kept = append(kept, i)
				}
			}
			if !reflect.DeepEqual(kept, tt.wantKept) {
				t.Errorf("kept %v, want %v", kept, tt.wantKept)
			}
			if n, b := c.stats(); n > tt.lim.Entries || (tt.wantAtMost > 0 && b > tt.wantAtMost) {
				t.Errorf("%d entries, %d bytes: over the bounds %+v", n, b, tt.lim)
			}
		})
	}
	if newPrefixCache(CacheLimits{}) != nil {
		t.Error("Entries 0 must turn the cache off")
	}
}

// The cache resumes from the longest cached prefix: a conversation's next turn replays only
// the new steps.
func TestPrefixCacheResumesFromTheLongestPrefix(t *testing.T) {
	g := guardWith(t, loopguard.PresetSeeds, DefaultCacheLimits)
	r := rand.New(rand.NewPCG(3, 3))
	var turns []convTurn
	for i := 0; i < 10; i++ {
		turns = append(turns, genTurn(r))
	}
	for _, n := range []int{4, 6, 10} {
		rewrite(t, g, Anthropic, render(Anthropic, "s", turns[:n]))
	}
	body := render(Anthropic, "a different system prompt", turns[:8])
	conv, err := parse(Anthropic, body, nil)
	if err != nil {
		t.Fatal(err)
	}
	keys := g.cache.keys(Anthropic, body, conv.steps)
	_, from := g.cache.longest(keys)
	six, _ := parse(Anthropic, render(Anthropic, "s", turns[:6]), nil)
	if from != len(six.steps) {
		t.Errorf("resumed after %d steps, want %d (the 6-turn request's)", from, len(six.steps))
	}
}

// anthropicBody writes an Anthropic request from messages given as JSON.
func anthropicBody(msgs ...string) []byte {
	return fmt.Appendf(nil, `{"model":"m","messages":[{"role":"user","content":"go"},%s]}`, strings.Join(msgs, ","))
}

func toolUse(id, cmd string) string {
	return fmt.Sprintf(`{"type":"tool_use","id":%q,"name":"Bash","input":{"command":%q}}`, id, cmd)
}

func toolResult(id, text string) string {
	return fmt.Sprintf(`{"type":"tool_result","tool_use_id":%q,"content":%q}`, id, text)
}

func assistant(blocks ...string) string {
	return `{"role":"assistant","content":[` + strings.Join(blocks, ",") + `]}`
}

func user(blocks ...string) string {
	return `{"role":"user","content":[` + strings.Join(blocks, ",") + `]}`
}

func chatBody(msgs ...string) []byte {
	return fmt.Appendf(nil, `{"model":"m","messages":[{"role":"user","content":"go"},%s]}`, strings.Join(msgs, ","))
}

func chatCall(id, cmd string) string {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	return fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":%q,"type":"function","function":{"name":"bash","arguments":%q}}]}`, id, args)
}

// chatResult is a tool message; content is JSON.
func chatResult(id, content string) string {
	return fmt.Sprintf(`{"role":"tool","tool_call_id":%q,"content":%s}`, id, content)
}

// Each case warms the cache with the first requests, then sends the last one, which the cache
// serves (in part or whole) and which must give the replay's bytes. Each is a way the cache
// could be wrong: serving a plan for steps that differ in something the replay reads.
func TestPrefixCacheTellsApartWhatTheReplayReads(t *testing.T) {
	long := func(s string) string { return s + strings.Repeat(" and then some more words", 4) } // over dsh-brake's 80 characters
	r, s := long("result R"), long("result S")
	first := []string{assistant(toolUse("1", "a")), user(toolResult("1", r))}
	tests := []struct {
		name     string
		preset   string
		api      API // Anthropic when empty
		requests [][]byte
	}{
		{
			// The same events, grouped in messages differently: notices of steps that share a
			// message go out as one reminder.
			name:   "results grouped in one message or in two",
			preset: loopguard.PresetSeeds,
			requests: [][]byte{
				anthropicBody(append(first, assistant(toolUse("2", "a")), user(toolResult("2", s)))...),
				anthropicBody(append(first, assistant(toolUse("2", "a")), user(toolResult("2", s)),
					assistant(toolUse("3", "a"), toolUse("4", "b")), user(toolResult("3", r), toolResult("4", r)))...),
				anthropicBody(append(first, assistant(toolUse("2", "a")), user(toolResult("2", s)),
					assistant(toolUse("3", "a")), user(toolResult("3", r)), assistant(toolUse("4", "b")), user(toolResult("4", r)))...),
			},
		},
		{
			// Results are hashed, not decoded: an edited earlier result is another conversation.
			name:   "an earlier result edited",
			preset: loopguard.PresetSeeds,
			requests: [][]byte{
				anthropicBody(first...),
				anthropicBody(append(first, assistant(toolUse("2", "b")), user(toolResult("2", s)), assistant(toolUse("3", "c")), user(toolResult("3", r)))...),
				anthropicBody(append(first, assistant(toolUse("2", "b")), user(toolResult("2", r)), assistant(toolUse("3", "c")), user(toolResult("3", r)))...),
			},
		},
		{
			// A notice due after a result with no place for it (a Chat tool message whose
			// content is null) waits for the next tool result, which only the next request
			// brings.
			name:   "a notice waiting for the next request's result",
			preset: loopguard.PresetSeeds,
			api:    Chat,
			requests: [][]byte{
				chatBody(chatCall("1", "ls"), chatResult("1", `"a"`), chatCall("2", "ls"), chatResult("2", `"a"`), chatCall("3", "ls"), chatResult("3", "null")),
				chatBody(chatCall("1", "ls"), chatResult("1", `"a"`), chatCall("2", "ls"), chatResult("2", `"a"`), chatCall("3", "ls"), chatResult("3", "null"),
					chatCall("4", "pwd"), chatResult("4", `"/"`)),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cached := guardWith(t, tt.preset, DefaultCacheLimits)
			plain := guardWith(t, tt.preset, CacheLimits{})
			api := tt.api
			if api == "" {
				api = Anthropic
			}
			for i, body := range tt.requests {
				if !json.Valid(body) {
					t.Fatalf("request %d is not JSON: %s", i, body)
				}
				hits := cached.cache.hits.Load()
				sameAsReplay(t, cached, plain, api, body, fmt.Sprintf("request %d", i))
				last := i == len(tt.requests)-1
				if last && cached.cache.hits.Load() == hits {
					t.Errorf("the last request was not served from the cache: the case tests nothing")
				}
				if last && len(rewrite(t, plain, api, body).Notices) == 0 {
					t.Errorf("the last request has no notice: the case tests nothing")
				}
			}
		})
	}
}
