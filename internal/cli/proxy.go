package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/loopguard/loopguard/config"
	"github.com/loopguard/loopguard/internal/proxy"
	"github.com/loopguard/loopguard/internal/store"
)

func init() {
	register(command{name: "proxy", summary: "guard any agent through its model API: a proxy that adds the reminders to its requests", run: runProxy})
}

// upstreamFlags collects --upstream URL, --upstream /prefix=URL and --upstream api=URL.
type upstreamFlags []config.ProxyUpstream

func (u *upstreamFlags) String() string { return "" }

func (u *upstreamFlags) Set(v string) error {
	key, target, found := strings.Cut(v, "=")
	if !found || strings.Contains(key, "://") {
		*u = append(*u, config.ProxyUpstream{URL: v})
		return nil
	}
	switch {
	case strings.HasPrefix(key, "/"):
		*u = append(*u, config.ProxyUpstream{Prefix: key, URL: target})
	case slices.Contains(config.ProxyAPIs, key):
		*u = append(*u, config.ProxyUpstream{API: key, URL: target})
	default:
		return fmt.Errorf("want URL, /prefix=URL or API=URL with API one of %s", strings.Join(config.ProxyAPIs, ", "))
	}
	return nil
}

func runProxy(env *Env, args []string) int {
	fs := newFlags(env, "proxy",
		"proxy [--listen ADDR] --upstream URL [--upstream /prefix=URL | API=URL ...] [--store URL] [--preset NAME | --config FILE]",
		`  loopguard proxy --upstream https://api.anthropic.com
      then: ANTHROPIC_BASE_URL=http://127.0.0.1:8787 claude
  loopguard proxy --upstream https://api.openai.com --upstream gemini=https://generativelanguage.googleapis.com
  loopguard proxy --listen 0.0.0.0:8787 --upstream https://api.openai.com --store redis://redis:6379/0

The proxy is advisory: it adds reminders to the model's requests; refusing a call belongs to
the hooks and to the Go agent loop. See docs/proxy.md.
`)
	choice := configFlags(fs)
	listen := fs.String("listen", "", "listen `ADDRESS` (default 127.0.0.1:8787, or the config's proxy.listen)")
	var ups upstreamFlags
	fs.Var(&ups, "upstream", "upstream `URL`, /prefix=URL or API=URL (API: anthropic, chat, responses, gemini); repeatable")
	storeURL := fs.String("store", "", "where Responses API state is kept per response id: bolt (default), a file, memory, redis://…")
	maxBody := fs.Int64("max-body", 0, "largest request body in `BYTES` (default 32 MiB); larger ones get 413")
	drain := fs.Duration("shutdown-timeout", 0, "on SIGTERM, how long to let streams in flight finish (default 2m)")
	logFormat := fs.String("log-format", "text", "log format: text or json")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "loopguard proxy: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	r, ok := resolveConfig(env, choice)
	if !ok {
		return exitUsage
	}
	pc, err := config.ResolveProxy(*choice, env.Getenv)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard: %v\n", err)
		return exitUsage
	}
	// Flags win over the file.
	if *listen != "" {
		pc.Listen = *listen
	}
	if pc.Listen == "" {
		pc.Listen = "127.0.0.1:8787"
	}
	if *storeURL != "" {
		pc.Store = *storeURL
	}
	if *maxBody > 0 {
		pc.MaxBodyBytes = *maxBody
	}
	if *drain > 0 {
		pc.ShutdownTimeout = *drain
	}
	if pc.ShutdownTimeout == 0 {
		pc.ShutdownTimeout = 2 * time.Minute
	}
	var handler slog.Handler
	switch *logFormat {
	case "text":
		handler = slog.NewTextHandler(env.Stderr, nil)
	case "json":
		handler = slog.NewJSONHandler(env.Stderr, nil)
	default:
		fmt.Fprintf(env.Stderr, "loopguard proxy: --log-format must be text or json, got %q\n", *logFormat)
		return exitUsage
	}
	log := slog.New(handler).With("component", "loopguard-proxy")

	routes, err := proxyRoutes(pc, ups)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard proxy: %v\n", err)
		return exitUsage
	}
	cacheLim := proxy.DefaultCacheLimits
	if pc.PrefixCacheEntries != nil {
		cacheLim.Entries = *pc.PrefixCacheEntries
	}
	if pc.PrefixCacheBytes > 0 {
		cacheLim.Bytes = pc.PrefixCacheBytes
	}
	guard, err := proxy.NewGuardCache(r.Config, cacheLim)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard proxy: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The state is loop counters: losing it costs a late reminder at most (Disposable).
	st, err := store.Open(ctx, pc.Store, store.Options{Disposable: true})
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard proxy: %v\n", err)
		return exitFail
	}
	defer st.Close()
	srv, err := proxy.New(proxy.Options{Guard: guard, Routes: routes, MaxBody: pc.MaxBodyBytes, Store: st, Logger: log})
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard proxy: %v\n", err)
		return exitUsage
	}
	ln, err := net.Listen("tcp", pc.Listen)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard proxy: %v\n", err)
		return exitFail
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 30 * time.Second}
	var names []string
	for _, rt := range routes {
		name := rt.Upstream.Redacted()
		switch {
		case rt.Prefix != "":
			name = rt.Prefix + "=" + name
		case rt.API != "":
			name = string(rt.API) + "=" + name
		}
		names = append(names, name)
	}
	log.Info("listening", "addr", "http://"+ln.Addr().String(), "upstreams", strings.Join(names, " "),
		"configuration", r.Source, "store", storeName(storeOrDefault(pc.Store)))
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		srv.Drain() // /readyz now says so, so a balancer stops sending new requests
		log.Info("shutting down: letting requests in flight finish", "timeout", pc.ShutdownTimeout.String())
		shutdown, cancel := context.WithTimeout(context.Background(), pc.ShutdownTimeout)
		defer cancel()
		if err := hs.Shutdown(shutdown); err != nil {
			log.Warn("shutdown timeout reached; closing the remaining connections", "err", err.Error())
			hs.Close()
		}
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(env.Stderr, "loopguard proxy: %v\n", err)
		return exitFail
	}
	<-done
	log.Info("stopped")
	return exitOK
}

func storeOrDefault(u string) string {
	if u == "" {
		return "bolt"
	}
	return u
}

// proxyRoutes merges the config's upstreams with the flags' (flags first, so they win a tie).
func proxyRoutes(pc config.Proxy, flags upstreamFlags) ([]proxy.Route, error) {
	all := append([]config.ProxyUpstream(nil), flags...)
	if pc.Upstream != "" {
		all = append(all, config.ProxyUpstream{URL: pc.Upstream})
	}
	all = append(all, pc.Upstreams...)
	var routes []proxy.Route
	hasDefault := false
	for _, u := range all {
		parsed, err := url.Parse(u.URL)
		if err != nil || (parsed.Scheme != "http" && parsed.Scheme != "https") || parsed.Host == "" {
			return nil, fmt.Errorf("upstream %q is not an http:// or https:// URL", u.URL)
		}
		if u.Prefix == "" && u.API == "" {
			if hasDefault {
				continue // the flag's default wins over the file's
			}
			hasDefault = true
		}
		routes = append(routes, proxy.Route{Prefix: u.Prefix, API: proxy.API(u.API), Upstream: parsed})
	}
	if len(routes) == 0 {
		return nil, errors.New("no upstream: give --upstream URL (e.g. https://api.anthropic.com) or proxy.upstream in the configuration")
	}
	return routes, nil
}
