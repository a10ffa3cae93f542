package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/loopguard/loopguard/internal/api"
	"github.com/loopguard/loopguard/internal/hook"
	"github.com/loopguard/loopguard/internal/hookcmd"
	"github.com/loopguard/loopguard/internal/store"
)

func init() {
	register(command{name: "serve", summary: "answer Claude Code's http hooks (and the other hosts') from one long-lived process", run: runServe})
}

// serveHandler answers POST /hook/{host} (and POST / as claude-code) with the same JSON a
// hook process would print. Like the hook, it fails open: an error gives 200 with no decision.
func serveHandler(h *hook.Handler, logf func(string, ...any)) *http.ServeMux {
	mux := http.NewServeMux()
	answer := func(host hook.Host) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if p := recover(); p != nil {
					logf("loopguard serve: internal error: %v (the call goes ahead unguarded)", p)
				}
			}()
			body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20+1))
			if err != nil {
				logf("loopguard serve: reading request: %v", err)
				return
			}
			out, err := h.Handle(r.Context(), host, body)
			if err != nil {
				logf("loopguard serve: %s: %s (the call goes ahead unguarded)", host, hookcmd.OneLine(err.Error()))
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(out)
		}
	}
	for _, host := range hook.Hosts() {
		mux.HandleFunc("POST /hook/"+string(host), answer(host))
	}
	mux.HandleFunc("POST /{$}", answer(hook.ClaudeCode))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
	return mux
}

func runServe(env *Env, args []string) int {
	fs := newFlags(env, "serve [--addr 127.0.0.1:8417] [--preset NAME | --config FILE] [--store URL] [--token-file FILE]",
		"serve [--addr ADDR] [--preset NAME | --config FILE] [--store URL] [--token-file FILE]",
		`  loopguard serve
  loopguard serve --addr 127.0.0.1:9000 --store redis://127.0.0.1:6379/0

Claude Code settings for it (an "http" hook):
  {"hooks": {"PostToolUse": [{"matcher": "*", "hooks": [{"type": "http", "url": "http://127.0.0.1:8417/hook/claude-code"}]}]}}
`)
	choice := configFlags(fs)
	addr := fs.String("addr", "127.0.0.1:8417", "listen `ADDRESS` (loopback by default)")
	tokenFile := fs.String("token-file", "", "require \"Authorization: Bearer TOKEN\" with the token in `FILE` (default: $"+api.TokenEnv+"; required beyond loopback)")
	var sf hookcmd.StoreFlags
	sf.Add(fs, "memory")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	r, ok := resolveConfig(env, choice)
	if !ok {
		return exitUsage
	}
	token, err := api.LoadToken(*tokenFile, env.Getenv)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard serve: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := sf.Open(ctx, env.Getenv, env.Stderr, store.Options{})
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard serve: %v\n", err)
		return exitFail
	}
	defer st.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard serve: %v\n", err)
		return exitFail
	}
	if err := api.CheckExposure(ln.Addr(), token); err != nil {
		ln.Close()
		fmt.Fprintf(env.Stderr, "loopguard serve: %v\n", err)
		return exitUsage
	}
	logf := func(format string, a ...any) { fmt.Fprintf(env.Stderr, format+"\n", a...) }
	warn := func(line string) { logf("%s", line) }
	mux := serveHandler(&hook.Handler{Config: r.Config, Store: st, Warn: warn}, logf)
	(&api.Server{Config: r.Config, Store: st, Warn: warn}).Mount(mux) // POST /v1/events, /v1/check
	var handler http.Handler = mux
	if token != "" {
		handler = api.RequireToken(token, mux)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(env.Stderr, "loopguard serve: listening on http://%s (configuration: %s; store: %s)\n", ln.Addr(), r.Source, storeName(sf.URL()))
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(env.Stderr, "loopguard serve: %v\n", err)
		return exitFail
	}
	return exitOK
}

func storeName(url string) string {
	if i := strings.Index(url, "@"); i >= 0 { // hide credentials in redis://user:pass@host
		return url[:strings.Index(url, "//")+2] + "…" + url[i:]
	}
	return url
}
