package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/store"

	_ "github.com/loopguard/loopguard/internal/store/redisstore" // the Redis backend, for the shared-store tests
)

// seen is one request as the upstream received it.
type seen struct {
	Method, Path, RawQuery string
	Header                 http.Header
	Body                   []byte
}

// upstream is a real HTTP server standing in for the provider: it records what it receives
// and answers with handler (nil: 200 {"ok":true}).
type upstream struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []seen
}

func newUpstream(t testing.TB, handler http.HandlerFunc) *upstream {
	u := &upstream{}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		u.mu.Lock()
		u.reqs = append(u.reqs, seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), body})
		u.mu.Unlock()
		if handler != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			handler(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(u.Close)
	return u
}

func (u *upstream) last(t testing.TB) seen {
	t.Helper()
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.reqs) == 0 {
		t.Fatal("the upstream received nothing")
	}
	return u.reqs[len(u.reqs)-1]
}

func mustURL(t testing.TB, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func newProxy(t testing.TB, opts Options) *httptest.Server {
	t.Helper()
	if opts.Guard == nil {
		opts.Guard = newTestGuard(t)
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p := httptest.NewServer(s)
	t.Cleanup(p.Close)
	return p
}

func golden(t testing.TB, api API, suffix string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "golden", string(api)+suffix))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var apiPath = map[API]string{
	Anthropic: "/v1/messages?beta=true",
	Chat:      "/v1/chat/completions",
	Responses: "/v1/responses",
	Gemini:    "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=SECRET",
}

// Through the proxy, each API's request reaches the upstream as the golden body, with the
// client's headers (auth included), method, path and query unchanged.
func TestProxyForwardsTheGoldenBodyWithHeadersAndQuery(t *testing.T) {
	for _, api := range APIs() {
		t.Run(string(api), func(t *testing.T) {
			up := newUpstream(t, nil)
			p := newProxy(t, Options{Routes: []Route{{Upstream: mustURL(t, up.URL)}}})
			req, _ := http.NewRequest("POST", p.URL+apiPath[api], bytes.NewReader(golden(t, api, ".in.json")))
			req.Header.Set("Authorization", "Bearer sk-test")
			req.Header.Set("X-Api-Key", "sk-ant-test")
			req.Header.Set("Anthropic-Version", "2023-06-01")
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || string(body) != `{"ok":true}` {
				t.Fatalf("client got %d %s", resp.StatusCode, body)
			}
			got := up.last(t)
			if !bytes.Equal(got.Body, golden(t, api, ".out.json")) {
				t.Errorf("upstream body differs from the golden output:\n%s", got.Body)
			}
			wantPath, wantQuery, _ := strings.Cut(apiPath[api], "?")
			if got.Method != "POST" || got.Path != wantPath || got.RawQuery != wantQuery {
				t.Errorf("upstream got %s %s?%s, want POST %s?%s", got.Method, got.Path, got.RawQuery, wantPath, wantQuery)
			}
			for _, h := range []string{"Authorization", "X-Api-Key", "Anthropic-Version", "Content-Type"} {
				if got.Header.Get(h) != req.Header.Get(h) {
					t.Errorf("header %s = %q, want %q", h, got.Header.Get(h), req.Header.Get(h))
				}
			}
		})
	}
}

// Everything that is not a model API call passes through untouched: model lists, token
// counting, HEAD, bodies that are not JSON, bodies compressed by the client.
func TestProxyPassesOtherRequestsThroughUntouched(t *testing.T) {
	cases := []struct {
		name, method, path string
		header             map[string]string
		body               string
	}{
		{"model list", "GET", "/v1/models", nil, ""},
		{"head", "HEAD", "/", nil, ""},
		{"token counting", "POST", "/v1/messages/count_tokens", nil, `{"messages":[{"role":"user","content":"hi"}]}`},
		{"invalid JSON on a model API", "POST", "/v1/chat/completions", nil, `{"messages":[`},
		{"JSON that is not an object", "POST", "/v1/messages", nil, `[1,2,3]`},
		{"compressed body", "POST", "/v1/responses", map[string]string{"Content-Encoding": "zstd"}, "\x28\xb5\x2f\xfdnot really zstd"},
	}
	up := newUpstream(t, nil)
	p := newProxy(t, Options{Routes: []Route{{Upstream: mustURL(t, up.URL)}}})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, p.URL+c.path, strings.NewReader(c.body))
			for k, v := range c.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			got := up.last(t)
			if got.Method != c.method || got.Path != c.path || string(got.Body) != c.body {
				t.Errorf("upstream got %s %s %q, want %s %s %q", got.Method, got.Path, got.Body, c.method, c.path, c.body)
			}
			for k, v := range c.header {
				if got.Header.Get(k) != v {
					t.Errorf("header %s = %q, want %q", k, got.Header.Get(k), v)
				}
			}
		})
	}
}

// Upstream errors reach the client as they are: status, headers and body.
func TestProxyRelaysUpstreamErrors(t *testing.T) {
	for _, code := range []int{400, 401, 429, 500, 529} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "7")
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(code)
				fmt.Fprintf(w, `{"type":"error","error":{"type":"x","message":"upstream said %d"}}`, code)
			})
			p := newProxy(t, Options{Routes: []Route{{Upstream: mustURL(t, up.URL)}}})
			resp, err := http.Post(p.URL+"/v1/messages", "application/json", bytes.NewReader(golden(t, Anthropic, ".in.json")))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			want := fmt.Sprintf(`{"type":"error","error":{"type":"x","message":"upstream said %d"}}`, code)
			if resp.StatusCode != code || string(body) != want || resp.Header.Get("Retry-After") != "7" {
				t.Errorf("client got %d %q (Retry-After %q), want %d %q", resp.StatusCode, body, resp.Header.Get("Retry-After"), code, want)
			}
		})
	}
}

// A body over the limit gets 413 in the API's own error shape, and never reaches upstream.
func TestProxyRefusesBodiesOverTheLimitInTheAPIsShape(t *testing.T) {
	cases := []struct {
		api  API
		want string // a piece of the error body
	}{
		{Anthropic, `"type":"request_too_large"`},
		{Chat, `"code":"request_too_large"`},
		{Responses, `"code":"request_too_large"`},
		{Gemini, `"code":413`},
	}
	up := newUpstream(t, nil)
	p := newProxy(t, Options{Routes: []Route{{Upstream: mustURL(t, up.URL)}}, MaxBody: 1000})
	for _, c := range cases {
		t.Run(string(c.api), func(t *testing.T) {
			for _, chunked := range []bool{false, true} {
				var body io.Reader = bytes.NewReader(golden(t, c.api, ".in.json"))
				if chunked { // no Content-Length: the limit is found while reading
					body = io.MultiReader(body)
				}
				resp, err := http.Post(p.URL+apiPath[c.api], "application/json", body)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 413 || !strings.Contains(string(got), c.want) || !json.Valid(got) {
					t.Errorf("chunked=%v: got %d %s, want 413 containing %s", chunked, resp.StatusCode, got, c.want)
				}
			}
		})
	}
	if len(up.reqs) != 0 {
		t.Errorf("the upstream received %d requests over the limit", len(up.reqs))
	}
}

// A streamed response reaches the client event by event: the client reads the first event
// while the upstream still holds the rest back.
func TestProxyStreamsEventByEvent(t *testing.T) {
	for _, api := range APIs() {
		t.Run(string(api), func(t *testing.T) {
			release := make(chan struct{})
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, "event: one\ndata: {\"n\":1}\n\n")
				w.(http.Flusher).Flush()
				<-release
				io.WriteString(w, "event: two\ndata: {\"n\":2}\n\n")
			})
			p := newProxy(t, Options{Routes: []Route{{Upstream: mustURL(t, up.URL)}}})
			resp, err := http.Post(p.URL+apiPath[api], "application/json", bytes.NewReader(golden(t, api, ".in.json")))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			first := make([]byte, len("event: one\ndata: {\"n\":1}\n\n"))
			readDone := make(chan error, 1)
			go func() { _, err := io.ReadFull(resp.Body, first); readDone <- err }()
			select {
			case err := <-readDone:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(5 * time.Second):
				close(release)
				t.Fatal("the first event did not arrive while the upstream held the second back: the stream is buffered")
			}
			close(release)
			rest, _ := io.ReadAll(resp.Body)
			if string(first)+string(rest) != "event: one\ndata: {\"n\":1}\n\nevent: two\ndata: {\"n\":2}\n\n" {
				t.Errorf("stream = %q", string(first)+string(rest))
			}
		})
	}
}

// A client that goes away cancels the upstream request.
func TestProxyCancelsUpstreamWhenTheClientLeaves(t *testing.T) {
	cancelled := make(chan struct{})
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		close(cancelled)
	})
	p := newProxy(t, Options{Routes: []Route{{Upstream: mustURL(t, up.URL)}}})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", p.URL+"/v1/messages", bytes.NewReader(golden(t, Anthropic, ".in.json")))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	io.ReadFull(resp.Body, buf)
	cancel()
	resp.Body.Close()
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the upstream request was not cancelled within 5 s of the client leaving")
	}
}

// Routes: a path prefix (removed before forwarding) or an API picks the upstream; the rest
// goes to the default.
func TestProxyRoutesByPrefixThenAPIThenDefault(t *testing.T) {
	byPrefix, byAPI, byDefault := newUpstream(t, nil), newUpstream(t, nil), newUpstream(t, nil)
	p := newProxy(t, Options{Routes: []Route{
		{Upstream: mustURL(t, byDefault.URL)},
		{API: Gemini, Upstream: mustURL(t, byAPI.URL)},
		{Prefix: "/openai", Upstream: mustURL(t, byPrefix.URL+"/base")},
	}})
	cases := []struct {
		path     string
		up       *upstream
		wantPath string
	}{
		{"/openai/v1/chat/completions", byPrefix, "/base/v1/chat/completions"},
		{"/v1beta/models/m:generateContent", byAPI, "/v1beta/models/m:generateContent"},
		{"/v1/messages", byDefault, "/v1/messages"},
	}
	for _, c := range cases {
		resp, err := http.Post(p.URL+c.path, "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := c.up.last(t); got.Path != c.wantPath {
			t.Errorf("%s reached %s, want %s", c.path, got.Path, c.wantPath)
		}
	}
}

// /healthz, /readyz and /metrics answer; /readyz says why when the store is down.
func TestProxyHealthReadinessAndMetrics(t *testing.T) {
	up := newUpstream(t, nil)
	p := newProxy(t, Options{Routes: []Route{{Upstream: mustURL(t, up.URL)}}})
	resp, err := http.Post(p.URL+apiPath[Chat], "application/json", bytes.NewReader(golden(t, Chat, ".in.json")))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	get := func(base, path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, string(b)
	}
	if code, body := get(p.URL, "/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("/healthz = %d %q", code, body)
	}
	if code, body := get(p.URL, "/readyz"); code != 200 {
		t.Errorf("/readyz = %d %q", code, body)
	}
	// A request is counted once its handler returns, just after the client has its answer; and
	// the counter's series exists (at 0) a moment before it is incremented, so a scrape can see
	// it before its count. Wait for the count itself.
	const counted = `loopguard_proxy_requests_total{api="chat",status="200"} 1`
	var metrics string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, metrics = get(p.URL, "/metrics"); strings.Contains(metrics, counted) {
			break
		}
	}
	for _, want := range []string{
		counted,
		`loopguard_proxy_notices_total{kind="repeat",plugin="repeat-tool-reminder"} 2`,
		`loopguard_proxy_added_latency_seconds_count{api="chat"} 1`,
		`loopguard_proxy_streams_in_flight 0`,
		`loopguard_proxy_prefix_cache_misses_total 1`,
		`loopguard_proxy_prefix_cache_hits_total 0`,
		`loopguard_proxy_prefix_cache_entries 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	down, err := store.Open(context.Background(), "redis://127.0.0.1:1/0", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p2 := newProxy(t, Options{Routes: []Route{{Upstream: mustURL(t, up.URL)}}, Store: down})
	if code, body := get(p2.URL, "/readyz"); code != 503 || !strings.Contains(body, "127.0.0.1:1") {
		t.Errorf("/readyz with redis down = %d %q, want 503 naming the address", code, body)
	}
}

// A bug while a request is rewritten (here: a guard without an engine, which panics) does not
// break the agent: the request goes upstream as the client sent it.
func TestProxyForwardsUntouchedWhenRewritingPanics(t *testing.T) {
	up := newUpstream(t, nil)
	p := newProxy(t, Options{Guard: &Guard{}, Routes: []Route{{Upstream: mustURL(t, up.URL)}}})
	in := golden(t, Anthropic, ".in.json")
	resp, err := http.Post(p.URL+"/v1/messages", "application/json", bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(up.last(t).Body, in) {
		t.Errorf("status %d; upstream body equal to the client's: %v", resp.StatusCode, bytes.Equal(up.last(t).Body, in))
	}
}

// The pooled body goes back to the pool only when the handler and every reader given to the
// transport are done with it, and a reader closed (by a transport cancelling the request) never
// copies from the buffer again.
func TestPooledBodyOutlivesItsLastReader(t *testing.T) {
	bb := newBodyBuf(6)
	copy(bb.b, "abcdef")
	first := newUpstreamBody([][]byte{bb.b[:3], []byte("+"), bb.b[3:]}, bb)
	retry := newUpstreamBody([][]byte{bb.b}, bb) // GetBody for a retry
	bb.drop()                                    // the handler returns
	if got := bb.refs.Load(); got != 2 {
		t.Fatalf("holds after the handler returned: %d, want 2 (two open readers)", got)
	}
	p := make([]byte, 4)
	if n, _ := first.Read(p); string(p[:n]) != "abc+" {
		t.Fatalf("read %q, want the pieces in order", p[:n])
	}
	first.Close()
	first.Close()
	if n, err := first.Read(p); n != 0 || err == nil {
		t.Fatalf("a closed reader read %d bytes, err %v", n, err)
	}
	if got := bb.refs.Load(); got != 1 {
		t.Fatalf("holds after one reader closed (twice): %d, want 1", got)
	}
	if all, _ := io.ReadAll(retry); string(all) != "abcdef" {
		t.Fatalf("the other reader read %q", all)
	}
	retry.Close()
	if got := bb.refs.Load(); got != 0 {
		t.Fatalf("holds after every reader closed: %d, want 0", got)
	}
}
