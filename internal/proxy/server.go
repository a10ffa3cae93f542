package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loopguard/loopguard/internal/store"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// DefaultMaxBody is the largest request body the proxy reads to look for loops (32 MiB).
const DefaultMaxBody = 32 << 20

// Route sends requests to an upstream: those whose path starts with Prefix (which is removed
// before forwarding), or those speaking API. A route with neither is the default.
type Route struct {
	Prefix   string
	API      API
	Upstream *url.URL
}

// Options configure a Server.
type Options struct {
	Guard  *Guard
	Routes []Route
	// MaxBody bounds the model API request bodies the proxy reads; larger ones get 413 in
	// the API's own error shape. Zero means DefaultMaxBody.
	MaxBody int64
	// Store keeps the engine state of Responses API responses for previous_response_id. Nil
	// keeps it in memory, in this process only.
	Store store.Store
	// StoreTimeout bounds each store operation (default 2 s); on timeout the request goes on
	// unguarded.
	StoreTimeout time.Duration
	Logger       *slog.Logger
	// Registry receives the proxy's metrics and is served on /metrics. Nil: NewRegistry().
	Registry *prometheus.Registry
	// Transport reaches the upstreams. Nil: a clone of http.DefaultTransport.
	Transport http.RoundTripper
}

// Server is the proxy: an http.Handler.
type Server struct {
	opts    Options
	routes  []Route // longest prefix first, then API routes, then the default
	log     *slog.Logger
	m       *metrics
	metrics http.Handler
	rp      *httputil.ReverseProxy
	drain   atomic.Bool
}

// Drain makes /readyz answer 503 from now on (the process is shutting down), so that a load
// balancer sends new requests elsewhere while streams in flight finish.
func (s *Server) Drain() { s.drain.Store(true) }

// ctxKey carries per-request data from ServeHTTP to the reverse proxy's hooks.
type ctxKey struct{}

type reqInfo struct {
	api      API
	route    Route
	upstream [][]byte // body to send, in pieces; nil: stream the client's body through untouched
	body     *bodyBuf // the pooled buffer the pieces point into (nil: not pooled)
	start    time.Time
	rw       *Rewritten // kept until the Responses state is saved
	status   int
}

// New returns a Server.
func New(opts Options) (*Server, error) {
	if opts.Guard == nil {
		return nil, errors.New("proxy: no guard")
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.StoreTimeout <= 0 {
		opts.StoreTimeout = 2 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Registry == nil {
		opts.Registry = NewRegistry()
	}
	if opts.Store == nil {
		st, err := store.Open(context.Background(), "memory", store.Options{})
		if err != nil {
			return nil, err
		}
		opts.Store = st
	}
	if opts.Transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		opts.Transport = t
	}
	if len(opts.Routes) == 0 {
		return nil, errors.New("proxy: no upstream")
	}
	s := &Server{opts: opts, log: opts.Logger, m: newMetrics(opts.Registry)}
	registerCache(opts.Registry, opts.Guard.cache)
	s.routes = append([]Route(nil), opts.Routes...)
	sort.SliceStable(s.routes, func(i, j int) bool { return rank(s.routes[i]) > rank(s.routes[j]) })
	s.metrics = promhttp.HandlerFor(opts.Registry, promhttp.HandlerOpts{})
	s.rp = &httputil.ReverseProxy{
		Rewrite:        s.rewrite,
		Transport:      timedTransport{next: opts.Transport, m: s.m},
		FlushInterval:  -1, // every write reaches the client at once: streams are never buffered
		BufferPool:     copyBufs,
		ModifyResponse: s.modifyResponse,
		ErrorHandler:   s.upstreamError,
		ErrorLog:       slog.NewLogLogger(opts.Logger.Handler(), slog.LevelWarn),
	}
	return s, nil
}

func rank(r Route) int {
	switch {
	case r.Prefix != "":
		return 2<<20 + len(r.Prefix)
	case r.API != "":
		return 1
	}
	return 0
}

// ServeHTTP answers /healthz, /readyz and /metrics itself and proxies everything else.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/healthz":
		io.WriteString(w, "ok\n")
		return
	case "/readyz":
		s.ready(w, r)
		return
	case "/metrics":
		s.metrics.ServeHTTP(w, r)
		return
	}
	sw := &statusWriter{ResponseWriter: w}
	info := &reqInfo{start: time.Now(), api: Other}
	defer func() {
		s.m.requests.WithLabelValues(string(info.api), strconv.Itoa(sw.code())).Inc()
		if info.rw != nil {
			info.rw.Done()
		}
		if info.body != nil {
			info.body.drop() // the handler's hold: nothing here reads the body any more
		}
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler { // the reverse proxy's way out of a broken stream
				panic(p)
			}
			// A guard never breaks the agent it guards; a bug here must not take the process.
			s.log.Error("internal error", "path", r.URL.Path, "panic", fmt.Sprint(p))
			if sw.status == 0 {
				apiError(sw, info.api, http.StatusBadGateway, "loopguard proxy: internal error")
			}
		}
	}()
	route, api, ok := s.pick(r.Method, r.URL.Path)
	info.api = api
	if !ok {
		apiError(sw, info.api, http.StatusBadGateway, "loopguard proxy: no upstream for "+r.URL.Path)
		return
	}
	info.route = route
	if info.api != Other && !s.guard(sw, r, info) {
		return
	}
	s.rp.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), ctxKey{}, info)))
}

// pick finds the route of a request and the API it speaks: a route whose prefix the path
// starts with (the API is read from the path after the prefix), else the route for the API,
// else the default.
func (s *Server) pick(method, path string) (Route, API, bool) {
	for _, r := range s.routes {
		if r.Prefix != "" && (path == r.Prefix || strings.HasPrefix(path, strings.TrimSuffix(r.Prefix, "/")+"/")) {
			return r, Detect(method, stripPrefix(path, r.Prefix)), true
		}
	}
	api := Detect(method, path)
	for _, r := range s.routes {
		if r.Prefix == "" && (r.API == "" || r.API == api) {
			return r, api, true
		}
	}
	return Route{}, api, false
}

func stripPrefix(path, prefix string) string {
	if path == "" {
		return ""
	}
	return "/" + strings.TrimLeft(strings.TrimPrefix(path, strings.TrimSuffix(prefix, "/")), "/")
}

// guard reads the body and rewrites it; false means it answered the client itself.
func (s *Server) guard(w http.ResponseWriter, r *http.Request, info *reqInfo) bool {
	if ce := r.Header.Get("Content-Encoding"); ce != "" && ce != "identity" {
		s.m.skipped.WithLabelValues("encoded_body").Inc()
		s.log.Info("compressed request body forwarded unguarded", "api", info.api, "path", r.URL.Path, "content_encoding", ce)
		return true
	}
	if r.ContentLength > s.opts.MaxBody {
		s.tooLarge(w, r, info)
		return false
	}
	var body []byte
	var err error
	if r.ContentLength > 0 {
		if info.body, err = readPooledBody(r.Body, r.ContentLength); err == nil {
			body = info.body.b
		}
	} else {
		body, err = readBody(r.Body, r.ContentLength, s.opts.MaxBody)
	}
	r.Body.Close()
	if err != nil {
		s.log.Info("reading request body", "api", info.api, "path", r.URL.Path, "err", err.Error())
		apiError(w, info.api, http.StatusBadRequest, "loopguard proxy: reading the request body failed")
		return false
	}
	if int64(len(body)) > s.opts.MaxBody {
		s.tooLarge(w, r, info)
		return false
	}
	info.upstream = [][]byte{body}
	var prev *State
	if info.api == Responses {
		var ok bool
		if prev, ok = s.previous(r, info, body); !ok {
			return true
		}
	}
	rw, err := s.rewrite1(info.api, body, prev)
	if errors.Is(err, errInternal) {
		s.m.skipped.WithLabelValues("internal_error").Inc()
		s.log.Error("internal error, request forwarded untouched", "api", info.api, "path", r.URL.Path, "err", err.Error())
		return true
	}
	if err != nil {
		s.m.skipped.WithLabelValues("invalid_json").Inc()
		s.log.Warn("request body is not a JSON request, forwarded untouched", "api", info.api, "path", r.URL.Path, "err", err.Error())
		return true
	}
	info.upstream = rw.Segments()
	for _, n := range rw.Notices {
		s.m.notices.WithLabelValues(n.Plugin, n.Kind).Inc()
	}
	if len(rw.Notices) > 0 {
		s.log.Info("notices inserted", "api", info.api, "path", r.URL.Path, "notices", len(rw.Notices))
	}
	if info.api == Responses && rw.Keeps() {
		info.rw = rw // Done after the response, whose state is kept
	} else {
		rw.Done()
	}
	return true
}

var errInternal = errors.New("internal error")

// rewrite1 is Guard.Rewrite with a panic (a bug of ours) turned into an error, so that the
// request is forwarded as the client sent it: a guard never breaks the agent it guards.
func (s *Server) rewrite1(api API, body []byte, prev *State) (rw *Rewritten, err error) {
	defer func() {
		if p := recover(); p != nil {
			rw, err = nil, fmt.Errorf("%w: %v", errInternal, p)
		}
	}()
	return s.opts.Guard.Rewrite(api, body, prev)
}

// previous loads the state kept for a Responses request's previous_response_id. ok=false means
// the request goes on unguarded (unknown id, store down).
func (s *Server) previous(r *http.Request, info *reqInfo, body []byte) (*State, bool) {
	id := previousResponseID(body)
	if id == "" {
		return nil, true
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.StoreTimeout)
	defer cancel()
	v, err := s.opts.Store.Get(ctx, stateKey(id))
	if err != nil {
		s.m.skipped.WithLabelValues("store_error").Inc()
		s.log.Warn("store unavailable, request forwarded unguarded", "api", info.api, "previous_response_id", id, "err", err.Error())
		return nil, false
	}
	if v == nil {
		s.m.skipped.WithLabelValues("unknown_previous_response").Inc()
		s.log.Info("unknown previous_response_id, request forwarded unguarded", "previous_response_id", id)
		return nil, false
	}
	var st State
	if err := json.Unmarshal(v, &st); err != nil {
		s.m.skipped.WithLabelValues("store_error").Inc()
		s.log.Warn("unreadable state, request forwarded unguarded", "previous_response_id", id, "err", err.Error())
		return nil, false
	}
	return &st, true
}

// readBody reads up to limit+1 bytes: in one buffer of the announced length when there is one
// (a 500 KB body read by io.ReadAll is copied several times as its buffer grows).
func readBody(r io.Reader, length, limit int64) ([]byte, error) {
	if length <= 0 || length > limit {
		return io.ReadAll(io.LimitReader(r, limit+1))
	}
	buf := make([]byte, length, length+1)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

func previousResponseID(body []byte) string {
	var v struct {
		ID string `json:"previous_response_id"`
	}
	json.Unmarshal(body, &v) // an invalid body gives "", and is dealt with by Rewrite
	return v.ID
}

func stateKey(id string) string { return "proxy:response:" + id }

func (s *Server) tooLarge(w http.ResponseWriter, r *http.Request, info *reqInfo) {
	s.log.Warn("request body over the limit", "api", info.api, "path", r.URL.Path, "limit_bytes", s.opts.MaxBody)
	apiError(w, info.api, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than the proxy's limit of %d bytes", s.opts.MaxBody))
}

// rewrite is the reverse proxy's request rewrite: the route's upstream, the path without the
// route's prefix, the rewritten body. Headers (auth included), query and method pass through.
func (s *Server) rewrite(pr *httputil.ProxyRequest) {
	info := pr.In.Context().Value(ctxKey{}).(*reqInfo)
	if p := info.route.Prefix; p != "" {
		pr.Out.URL.Path, pr.Out.URL.RawPath = stripPrefix(pr.Out.URL.Path, p), stripPrefix(pr.Out.URL.RawPath, p)
	}
	pr.SetURL(info.route.Upstream)
	if info.upstream != nil {
		segs := info.upstream
		var n int64
		for _, s := range segs {
			n += int64(len(s))
		}
		body := func() io.ReadCloser { return newUpstreamBody(segs, info.body) }
		pr.Out.Body = body()
		pr.Out.ContentLength = n
		pr.Out.GetBody = func() (io.ReadCloser, error) { return body(), nil }
		pr.Out.Header.Del("Content-Length")
		pr.Out.TransferEncoding = nil
	}
	if info.rw != nil {
		// The kept state comes from the response's events, read as they pass: ask for an
		// encoding the Transport undoes (it then removes Content-Encoding for the client).
		pr.Out.Header.Del("Accept-Encoding")
	}
}

// copyBufs lends the reverse proxy its response copy buffers, which it would otherwise allocate
// (32 KB) per request.
var copyBufs = &bufPool{p: sync.Pool{New: func() any { return make([]byte, 32<<10) }}}

type bufPool struct{ p sync.Pool }

func (b *bufPool) Get() []byte { return b.p.Get().([]byte) }

//lint:ignore SA6002 httputil.BufferPool hands back a slice: a pointer to it made here would escape and cost the same allocation as the boxing.
func (b *bufPool) Put(v []byte) { b.p.Put(v) }

// timedTransport records the added latency at the moment the request leaves for upstream.
type timedTransport struct {
	next http.RoundTripper
	m    *metrics
}

func (t timedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if info, ok := r.Context().Value(ctxKey{}).(*reqInfo); ok && info.api != Other {
		t.m.added.WithLabelValues(string(info.api)).Observe(time.Since(info.start).Seconds())
	}
	return t.next.RoundTrip(r)
}

func (s *Server) modifyResponse(resp *http.Response) error {
	info := resp.Request.Context().Value(ctxKey{}).(*reqInfo)
	info.status = resp.StatusCode
	stream := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	if stream {
		s.m.streams.Inc()
		resp.Body = &onClose{ReadCloser: resp.Body, fn: s.m.streams.Dec}
	}
	if info.rw == nil || resp.StatusCode != http.StatusOK {
		return nil
	}
	if stream {
		resp.Body = &stateTee{body: resp.Body, s: s, info: info, ctx: resp.Request.Context(), limit: s.opts.MaxBody, markerAt: -1}
		return nil
	}
	// A whole JSON response is read, its state saved, then sent: the client can only send the
	// next request after it has the response, so any replica finds the state by then.
	body, err := io.ReadAll(io.LimitReader(resp.Body, s.opts.MaxBody+1))
	resp.Body.Close()
	if err != nil {
		return err
	}
	if int64(len(body)) <= s.opts.MaxBody {
		s.save(resp.Request.Context(), info, body)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}

// save keeps the engine state after a Responses response under the response's id.
func (s *Server) save(ctx context.Context, info *reqInfo, body []byte) {
	id, st, ok := info.rw.After(body)
	if !ok {
		return
	}
	v, err := json.Marshal(st)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.StoreTimeout)
	defer cancel()
	if err := s.opts.Store.Update(ctx, stateKey(id), func([]byte) ([]byte, error) { return v, nil }); err != nil {
		s.log.Warn("saving response state failed; a request continuing it will go unguarded", "response_id", id, "err", err.Error())
	}
}

// stateTee relays a Responses SSE stream unchanged while keeping a copy, and saves the state
// as soon as the response.completed event has been read, before that event is handed on to
// the client: a client that sends its next request on seeing it finds the state in the store.
type stateTee struct {
	body     io.ReadCloser
	s        *Server
	info     *reqInfo
	ctx      context.Context
	limit    int64
	buf      []byte
	markerAt int // where response.completed was seen in buf, or -1
	done     bool
	over     bool
}

var completedMarker = []byte(`"response.completed"`)

func (t *stateTee) Read(p []byte) (int, error) {
	n, err := t.body.Read(p)
	if n > 0 && !t.done && !t.over {
		scanFrom := max(0, len(t.buf)-len(completedMarker))
		t.buf = append(t.buf, p[:n]...)
		if int64(len(t.buf)) > t.limit {
			t.over, t.buf = true, nil
		} else {
			if t.markerAt < 0 {
				if i := bytes.Index(t.buf[scanFrom:], completedMarker); i >= 0 {
					t.markerAt = scanFrom + i
				}
			}
			// The event ends at the blank line after it, which may come in a later read.
			if t.markerAt >= 0 {
				rest := t.buf[t.markerAt:]
				if bytes.Contains(rest, []byte("\n\n")) || bytes.Contains(rest, []byte("\r\n\r\n")) {
					t.finish()
				}
			}
		}
	}
	if err == io.EOF && !t.done && !t.over {
		t.finish()
	}
	return n, err
}

func (t *stateTee) finish() {
	t.done = true
	t.s.save(t.ctx, t.info, t.buf)
	t.buf = nil
}

func (t *stateTee) Close() error { return t.body.Close() }

type onClose struct {
	io.ReadCloser
	fn   func()
	done bool
}

func (o *onClose) Close() error {
	if !o.done {
		o.done = true
		o.fn()
	}
	return o.ReadCloser.Close()
}

// upstreamError answers when the upstream could not be reached (or the client went away).
func (s *Server) upstreamError(w http.ResponseWriter, r *http.Request, err error) {
	info := r.Context().Value(ctxKey{}).(*reqInfo)
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		s.log.Info("client went away; upstream request cancelled", "api", info.api, "path", r.URL.Path)
		w.WriteHeader(499) // nobody reads it; the metric says what happened
		return
	}
	s.log.Warn("upstream unreachable", "api", info.api, "upstream", info.route.Upstream.Host, "err", err.Error())
	apiError(w, info.api, http.StatusBadGateway, "loopguard proxy: upstream unreachable")
}

// apiError writes an error in the API's own shape, so that the client shows it as it shows
// the provider's errors.
func apiError(w http.ResponseWriter, api API, code int, msg string) {
	var v any
	switch api {
	case Anthropic:
		typ := "api_error"
		if code == http.StatusRequestEntityTooLarge {
			typ = "request_too_large"
		}
		v = map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}
	case Gemini:
		status := "UNAVAILABLE"
		if code < 500 {
			status = "INVALID_ARGUMENT"
		}
		v = map[string]any{"error": map[string]any{"code": code, "message": msg, "status": status}}
	default:
		codeName := "upstream_error"
		if code == http.StatusRequestEntityTooLarge {
			codeName = "request_too_large"
		}
		v = map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "param": nil, "code": codeName}}
	}
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(code)
	w.Write(b)
}

// ready answers /readyz: 200 when the store answers, else 503 saying why.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	if s.drain.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "not ready: shutting down\n")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.StoreTimeout)
	defer cancel()
	if _, err := s.opts.Store.Get(ctx, "proxy:readyz"); err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "not ready: store: %v (requests pass through unguarded where they need it)\n", err)
		return
	}
	io.WriteString(w, "ready\n")
}

// statusWriter remembers the status sent; Unwrap lets http.ResponseController (and the
// reverse proxy's flushing) reach the real writer.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) code() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}
