package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/loopguard/loopguard/internal/hook"
	"github.com/loopguard/loopguard/internal/store"
)

func init() {
	register(command{name: "hook", summary: "answer one hook event of Claude Code, Codex or Gemini CLI (JSON on stdin); always fails open", run: runHook})
}

// Store flags, shared by hook and serve.
type storeFlags struct {
	url      string
	fallback string
	idle     time.Duration
}

func (s *storeFlags) add(fs interface {
	StringVar(*string, string, string, string)
	DurationVar(*time.Duration, string, time.Duration, string)
}, defaultURL string) {
	fs.StringVar(&s.url, "store", defaultURL, "where agent state lives: bolt (the embedded file under $XDG_STATE_HOME/loopguard), bolt:///path.db, redis://host:port/db, or memory; $LOOPGUARD_STORE sets the default")
	fs.StringVar(&s.fallback, "redis-fallback", "open", "when Redis cannot be reached: open (let the call through, say why) or local (use the embedded store)")
	fs.DurationVar(&s.idle, "idle", store.DefaultIdleTTL, "forget sessions idle longer than this")
}

// open opens the store, applying the Redis fallback policy.
func (s *storeFlags) open(ctx context.Context, env *Env) (store.Store, error) {
	url := s.url
	if url == "" {
		url = env.Getenv("LOOPGUARD_STORE")
	}
	opts := store.Options{IdleTTL: s.idle}
	st, err := store.Open(ctx, url, opts)
	if err != nil && isRedis(url) && s.fallback == "local" {
		fmt.Fprintf(env.Stderr, "loopguard: %v; using the embedded store instead\n", err)
		return store.Open(ctx, "", opts)
	}
	return st, err
}

func isRedis(url string) bool {
	return strings.HasPrefix(url, "redis://") || strings.HasPrefix(url, "rediss://")
}

// lazyStore opens the store on first use: most hook events (a PreToolUse in remind mode, a
// Stop) never touch it, and opening it is the dearest part of a hook.
type lazyStore struct {
	open func() (store.Store, error)
	st   store.Store
	err  error
}

func (l *lazyStore) get() (store.Store, error) {
	if l.st == nil && l.err == nil {
		l.st, l.err = l.open()
	}
	return l.st, l.err
}

func (l *lazyStore) Update(ctx context.Context, key string, fn func([]byte) ([]byte, error)) error {
	st, err := l.get()
	if err != nil {
		return err
	}
	return st.Update(ctx, key, fn)
}

func (l *lazyStore) Get(ctx context.Context, key string) ([]byte, error) {
	st, err := l.get()
	if err != nil {
		return nil, err
	}
	return st.Get(ctx, key)
}

func (l *lazyStore) Delete(ctx context.Context, key string) error {
	st, err := l.get()
	if err != nil {
		return err
	}
	return st.Delete(ctx, key)
}

func (l *lazyStore) Purge(ctx context.Context, before time.Time) (int, error) {
	st, err := l.get()
	if err != nil {
		return 0, err
	}
	return st.Purge(ctx, before)
}

func (l *lazyStore) Close() error {
	if l.st == nil {
		return nil
	}
	return l.st.Close()
}

func runHook(env *Env, args []string) (code int) {
	// Fail open, always: whatever happens below, the agent carries on. Exit status 0, nothing
	// on stdout, one line on stderr and in the log. (Exit status 2 means "block" to the hosts;
	// we never use it.)
	failOpen := func(err error) int {
		msg := "loopguard hook: " + oneLine(err.Error()) + " (the call goes ahead unguarded)"
		fmt.Fprintln(env.Stderr, msg)
		logLine(env, msg)
		return exitOK
	}
	defer func() {
		if p := recover(); p != nil {
			code = failOpen(fmt.Errorf("internal error: %v", p))
		}
	}()

	fs := newFlags(env, "hook", "hook claude-code|codex|gemini-cli [--preset NAME | --config FILE] [--store URL] < event.json",
		`  loopguard hook claude-code < event.json
  loopguard hook codex --preset dsh-brake --store redis://127.0.0.1:6379/0

'loopguard install HOST' writes these commands into the host's settings for you.
`)
	choice := configFlags(fs)
	var sf storeFlags
	sf.add(fs, "")
	if len(args) == 0 {
		return failOpen(errors.New("no host given (want claude-code, codex or gemini-cli)"))
	}
	host, err := hook.ParseHost(args[0])
	if err != nil {
		return failOpen(err)
	}
	if err := fs.Parse(args[1:]); err != nil {
		return failOpen(err)
	}
	resolved, err := configQuiet(env, choice)
	if err != nil {
		return failOpen(err)
	}
	stdin, err := io.ReadAll(io.LimitReader(env.Stdin, 64<<20+1))
	if err != nil {
		return failOpen(fmt.Errorf("reading stdin: %w", err))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st := &lazyStore{open: func() (store.Store, error) { return sf.open(ctx, env) }}
	defer st.Close()
	h := &hook.Handler{Config: resolved, Store: st}
	out, err := h.Handle(ctx, host, stdin)
	if err != nil {
		return failOpen(err)
	}
	env.Stdout.Write(out)
	return exitOK
}

// oneLine keeps a message to one line, so that a failure is one line of a log.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", " ")
	return strings.ReplaceAll(s, "\n", " ")
}

// logLine appends a line to $XDG_STATE_HOME/loopguard/hook.log (~/.local/state/... when
// unset). Failing to log is not worth failing over.
func logLine(env *Env, msg string) {
	dir := env.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home := env.Getenv("HOME")
		if home == "" {
			return
		}
		dir = filepath.Join(home, ".local", "state")
	}
	dir = filepath.Join(dir, "loopguard")
	if os.MkdirAll(dir, 0o700) != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "hook.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s\n", time.Now().UTC().Format(time.RFC3339), msg)
}
