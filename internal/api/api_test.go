package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/api"
	"github.com/loopguard/loopguard/internal/replay"
	"github.com/loopguard/loopguard/internal/store"
)

func preset(t testing.TB, name string) loopguard.Config {
	t.Helper()
	cfg, err := loopguard.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// bothSeeds runs repeat-tool-reminder and dsh-brake together, spelled out so that the tests do
// not depend on what the default preset holds.
func bothSeeds(mode string) loopguard.Config {
	b := loopguard.DefaultDSHBrake()
	b.Mode = mode
	return loopguard.Config{RepeatToolReminder: loopguard.DefaultRepeatToolReminder(), DSHBrake: b}
}

func denyConfig(t testing.TB) loopguard.Config {
	cfg := preset(t, loopguard.PresetDSHBrake)
	cfg.DSHBrake.Mode = loopguard.ModeDeny
	return cfg
}

// boltStore opens a real embedded database in the test's temporary directory.
func boltStore(t testing.TB) store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "state.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// serve starts the API on a real loopback listener.
func serve(t testing.TB, cfg loopguard.Config, st store.Store, token string) *httptest.Server {
	t.Helper()
	var h http.Handler = (&api.Server{Config: cfg, Store: st}).Handler()
	if token != "" {
		h = api.RequireToken(token, h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

type answer struct {
	code int
	body string
}

func post(t testing.TB, url, path, token, body string) answer {
	t.Helper()
	req, err := http.NewRequest("POST", url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, string(b)}
}

type outLine struct {
	Type, Agent, Plugin, Kind, Summary, Text, Reason string
	Event                                            int
}

func lines(t testing.TB, body string) []outLine {
	t.Helper()
	var out []outLine
	dec := json.NewDecoder(strings.NewReader(body))
	for dec.More() {
		var l outLine
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("answer is not JSON lines: %v\n%s", err, body)
		}
		out = append(out, l)
	}
	return out
}

func call(agent, tool, args string) string {
	return fmt.Sprintf(`{"type":"call","agent":%q,"tool":%q,"args":%s,"result":{"error":false,"text":"ok"}}`, agent, tool, args) + "\n"
}

func TestEventsRemindAtTheThirdIdenticalCallAcrossRequests(t *testing.T) {
	srv := serve(t, preset(t, loopguard.PresetRepeatToolReminder), boltStore(t), "")
	for i := 1; i <= 3; i++ {
		a := post(t, srv.URL, "/v1/events", "", call("a1", "search", `{"q":"same"}`))
		if a.code != 200 {
			t.Fatalf("call %d: %d %s", i, a.code, a.body)
		}
		got := lines(t, a.body)
		if i < 3 && len(got) != 0 {
			t.Fatalf("call %d: want no notice yet, got %+v", i, got)
		}
		if i == 3 && (len(got) != 1 || got[0].Type != "notice" || got[0].Plugin != loopguard.PluginRepeatToolReminder ||
			got[0].Agent != "a1" || got[0].Event != 0 || got[0].Text == "") {
			t.Fatalf("call 3: want one repeat-tool-reminder notice for a1 at event 0, got %+v", got)
		}
	}
	// Another agent is counted apart.
	if got := lines(t, post(t, srv.URL, "/v1/events", "", call("a2", "search", `{"q":"same"}`)).body); len(got) != 0 {
		t.Fatalf("a2's first call: want nothing, got %+v", got)
	}
}

func TestEventsUserResetsAndEndForgets(t *testing.T) {
	st := boltStore(t)
	srv := serve(t, preset(t, loopguard.PresetRepeatToolReminder), st, "")
	two := call("a", "t", "{}") + call("a", "t", "{}")
	post(t, srv.URL, "/v1/events", "", two+`{"type":"user","agent":"a"}`+"\n")
	if got := lines(t, post(t, srv.URL, "/v1/events", "", two).body); len(got) != 0 {
		t.Fatalf("after the user spoke, two calls must not remind: %+v", got)
	}
	post(t, srv.URL, "/v1/events", "", `{"type":"end","agent":"a"}`)
	if v, err := st.Get(context.Background(), api.KeyPrefix+"a"); err != nil || v != nil {
		t.Fatalf("after end the agent's key must be gone: %q, %v", v, err)
	}
}

func TestDenyModeCheckAndEvents(t *testing.T) {
	srv := serve(t, denyConfig(t), boltStore(t), "")
	deny := loopguard.DefaultDSHBrake().CallDenyCount
	checkBody := `{"type":"call","agent":"d","tool":"probe","args":{"q":1}}`
	for i := 1; i <= deny; i++ {
		c := post(t, srv.URL, "/v1/check", "", checkBody)
		if c.code != 200 || !strings.Contains(c.body, `"deny":false`) {
			t.Fatalf("check before call %d: %d %s", i, c.code, c.body)
		}
		post(t, srv.URL, "/v1/events", "", call("d", "probe", `{"q":1}`))
	}
	c := post(t, srv.URL, "/v1/check", "", checkBody)
	var ans api.CheckAnswer
	if err := json.Unmarshal([]byte(c.body), &ans); err != nil || !ans.Deny || ans.Plugin != loopguard.PluginDSHBrake || !strings.HasPrefix(ans.Reason, "dsh-brake:") {
		t.Fatalf("check after %d calls: want a dsh-brake denial, got %d %s (%v)", deny, c.code, c.body, err)
	}
	// Checking stores nothing: asking again gives the same answer, and events give the denial.
	got := lines(t, post(t, srv.URL, "/v1/events", "", call("d", "probe", `{"q":1}`)).body)
	if len(got) == 0 || got[0].Type != "deny" || got[0].Reason != ans.Reason {
		t.Fatalf("events after %d calls: want the denial first, got %+v", deny, got)
	}
}

func TestCheckOutsideDenyModeAllowsEverything(t *testing.T) {
	srv := serve(t, preset(t, loopguard.PresetRepeatToolReminder), boltStore(t), "")
	for i := 0; i < 20; i++ {
		post(t, srv.URL, "/v1/events", "", call("r", "t", "{}"))
	}
	if c := post(t, srv.URL, "/v1/check", "", call("r", "t", "{}")); c.code != 200 || strings.TrimSpace(c.body) != `{"deny":false}` {
		t.Fatalf("check in remind mode: %d %s", c.code, c.body)
	}
}

func TestBadBodiesAnswer400NamingTheProblemAndStoreNothing(t *testing.T) {
	good := call("bad", "t", "{}")
	cases := []struct {
		name, path, body, want string
	}{
		{"not JSON", "/v1/events", "hello\n", "body:1:"},
		{"a call without a tool", "/v1/events", `{"type":"call","agent":"bad"}`, `body:1: a call needs a string "tool"`},
		{"an unknown type", "/v1/events", `{"type":"nap","agent":"bad"}`, "body:1:"},
		{"a bad third line after two good ones", "/v1/events", good + good + `{"type":"call","agent":7,"tool":"t"}` + "\n", "body:3:"},
		{"an empty body", "/v1/events", "", "no events"},
		{"only blank lines", "/v1/events", "\n\n", "no events"},
		{"check with two events", "/v1/check", good + good, "one call event"},
		{"check with a user event", "/v1/check", `{"type":"user","agent":"bad"}`, `takes a "call" event`},
		{"check with a malformed call", "/v1/check", `{"type":"call","agent":"bad","tool":["x"]}`, "body:1:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := boltStore(t)
			srv := serve(t, bothSeeds(loopguard.ModeRemind), st, "")
			a := post(t, srv.URL, tc.path, "", tc.body)
			var e api.ErrorAnswer
			if a.code != 400 || json.Unmarshal([]byte(a.body), &e) != nil || !strings.Contains(e.Error, tc.want) {
				t.Fatalf("want 400 with an error containing %q, got %d %s", tc.want, a.code, a.body)
			}
			if v, err := st.Get(context.Background(), api.KeyPrefix+"bad"); err != nil || v != nil {
				t.Fatalf("a rejected body stored state: %q, %v", v, err)
			}
		})
	}
}

func TestTokenRequired(t *testing.T) {
	const token = "s3cret-token"
	cases := []struct {
		name, token string
		want        int
	}{
		{"no token", "", 401},
		{"wrong token", "s3cret-tokem", 401},
		{"a prefix of the token", "s3cret", 401},
		{"the token", token, 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := boltStore(t)
			srv := serve(t, bothSeeds(loopguard.ModeRemind), st, token)
			for _, path := range []string{"/v1/events", "/v1/check"} {
				if a := post(t, srv.URL, path, tc.token, call("tok", "t", "{}")); a.code != tc.want {
					t.Fatalf("%s: want %d, got %d %s", path, tc.want, a.code, a.body)
				}
			}
			v, err := st.Get(context.Background(), api.KeyPrefix+"tok")
			if err != nil || (v != nil) != (tc.want == 200) {
				t.Fatalf("stored state %q (%v); want some only when the token is right", v, err)
			}
		})
	}
}

// Many agents at once, each through its own requests, on the real embedded database: each is
// reminded at its own third call, and none loses an update.
func TestSixtyFourConcurrentAgents(t *testing.T) {
	st := boltStore(t)
	srv := serve(t, preset(t, loopguard.PresetRepeatToolReminder), st, "")
	const agents, calls = 64, 5
	var wg sync.WaitGroup
	errs := make(chan error, agents)
	for a := 0; a < agents; a++ {
		wg.Add(1)
		go func(agent string) {
			defer wg.Done()
			for i := 1; i <= calls; i++ {
				a := post(t, srv.URL, "/v1/events", "", call(agent, "fetch", `{"url":"x"}`))
				n := strings.Count(a.body, `"type":"notice"`)
				if want := map[bool]int{true: 1, false: 0}[i == 3 || i == 5]; a.code != 200 || n != want {
					errs <- fmt.Errorf("%s call %d: want %d notices, got %d %s", agent, i, want, a.code, a.body)
					return
				}
			}
		}(fmt.Sprintf("agent-%02d", a))
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// And 64 requests for one agent at once: every call is counted.
	cfg := preset(t, loopguard.PresetDSHBrake)
	srv2 := serve(t, cfg, st, "")
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); post(t, srv2.URL, "/v1/events", "", call("shared", "t", "{}")) }()
	}
	wg.Wait()
	stats := storedStats(t, st, cfg, "shared")
	if stats.MaxCallCount != 64 {
		t.Fatalf("64 concurrent calls of one agent counted %d times", stats.MaxCallCount)
	}
}

func storedStats(t testing.TB, st store.Store, cfg loopguard.Config, agent string) loopguard.AgentStats {
	t.Helper()
	raw, err := st.Get(context.Background(), api.KeyPrefix+agent)
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := loopguard.New(cfg)
	if err := eng.Restore(agent, raw); err != nil {
		t.Fatal(err)
	}
	s, _ := eng.Stats(agent)
	return s
}

// A batch of 10,000 events of many agents answers exactly what `loopguard replay` prints for
// the same lines.
func TestBatchOfTenThousandEventsMatchesReplay(t *testing.T) {
	for _, mode := range []string{loopguard.ModeRemind, loopguard.ModeDeny} {
		t.Run(mode, func(t *testing.T) {
			cfg := bothSeeds(mode)
			var in bytes.Buffer
			for i := 0; i < 10000; i++ {
				agent := fmt.Sprintf("b%d", i%7)
				switch {
				case i%997 == 0:
					fmt.Fprintf(&in, `{"type":"user","agent":%q,"ts":%d}`+"\n", agent, i)
				case i%13 == 0:
					fmt.Fprintf(&in, `{"type":"text","agent":%q,"source":"model","text":"%s","ts":%d}`+"\n", agent, strings.Repeat("the same long paragraph again ", 4), i)
				default:
					fmt.Fprintf(&in, `{"type":"call","agent":%q,"tool":"t%d","args":{"n":%d},"result":{"error":false,"text":"r"},"ts":%d}`+"\n", agent, i%3, (i/11)%4, i)
				}
			}
			eng, _ := loopguard.New(cfg)
			var want bytes.Buffer
			if _, err := replay.Run(bytes.NewReader(in.Bytes()), &want, eng, replay.Options{}); err != nil {
				t.Fatal(err)
			}
			srv := serve(t, cfg, boltStore(t), "")
			a := post(t, srv.URL, "/v1/events", "", in.String())
			if a.code != 200 {
				t.Fatalf("%d %s", a.code, a.body)
			}
			if want.Len() == 0 || a.body != want.String() {
				t.Fatalf("the API's answer (%d lines) differs from replay's (%d lines)", strings.Count(a.body, "\n"), strings.Count(want.String(), "\n"))
			}
		})
	}
}

func TestOpenAPIDocument(t *testing.T) {
	srv := serve(t, bothSeeds(loopguard.ModeRemind), boltStore(t), "")
	resp, err := http.Get(srv.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	served, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	docs, err := os.ReadFile("../../docs/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(served, docs) {
		t.Fatal("docs/openapi.json differs from the served document (internal/api/openapi.json): copy it over")
	}
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(served, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q", doc.OpenAPI)
	}
	for path, method := range map[string]string{"/v1/events": "post", "/v1/check": "post", "/openapi.json": "get"} {
		if doc.Paths[path][method] == nil {
			t.Errorf("the document does not describe %s %s", strings.ToUpper(method), path)
		}
	}
}
