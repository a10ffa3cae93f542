// Package hookcmd is the `loopguard hook` command: one hook event on stdin, the host's answer
// on stdout, always failing open. It lives apart from the rest of the command line so that a
// hook-only binary (cmd/loopguard-hook) links nothing else: a hook runs as a new process per
// tool call, and every package linked is paid for at every start.
package hookcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/loopguard/loopguard/config"
	"github.com/loopguard/loopguard/internal/hook"
	"github.com/loopguard/loopguard/internal/store"
)

// StoreFlags are the flags that choose the store, shared by hook and serve.
type StoreFlags struct {
	url      string
	fallback string
	idle     time.Duration
}

// Add adds --store, --redis-fallback and --idle to fs.
func (s *StoreFlags) Add(fs interface {
	StringVar(*string, string, string, string)
	DurationVar(*time.Duration, string, time.Duration, string)
}, defaultURL string) {
	fs.StringVar(&s.url, "store", defaultURL, "where agent state lives: bolt (the embedded file under $XDG_STATE_HOME/loopguard), bolt:///path.db, redis://host:port/db, or memory; $LOOPGUARD_STORE sets the default")
	fs.StringVar(&s.fallback, "redis-fallback", "open", "when Redis cannot be reached: open (let the call through, say why) or local (use the embedded store)")
	fs.DurationVar(&s.idle, "idle", store.DefaultIdleTTL, "forget sessions idle longer than this")
}

// URL is the store's URL as given (possibly empty: the default).
func (s *StoreFlags) URL() string { return s.url }

// resolvedURL is the store's URL: the flag, else $LOOPGUARD_STORE, else "" (the default).
func (s *StoreFlags) resolvedURL(getenv func(string) string) string {
	if s.url != "" {
		return s.url
	}
	return getenv("LOOPGUARD_STORE")
}

// Open opens the store, applying the Redis fallback policy. Warnings go to stderr.
//
// With --redis-fallback local, a remote store that cannot be reached is replaced by the
// embedded one: at Open when its URL is refused, and otherwise call by call, since a Redis
// client connects lazily and an unreachable server shows only at the first command (see
// store.Fallback).
func (s *StoreFlags) Open(ctx context.Context, getenv func(string) string, stderr io.Writer, opts store.Options) (store.Store, error) {
	if s.fallback != "open" && s.fallback != "local" {
		return nil, fmt.Errorf("--redis-fallback %q: want open or local", s.fallback)
	}
	url := s.resolvedURL(getenv)
	opts.IdleTTL = s.idle
	st, err := store.Open(ctx, url, opts)
	if s.fallback != "local" || !store.IsRemote(url) {
		return st, err
	}
	warn := func(err error) {
		fmt.Fprintf(stderr, "loopguard: %v; using the embedded store instead\n", err)
	}
	openLocal := func() (store.Store, error) { return store.Open(ctx, "", opts) }
	if err != nil {
		warn(err)
		return openLocal()
	}
	return store.Fallback(st, openLocal, store.FallbackOptions{Warn: warn}), nil
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

// Run is `loopguard hook ARGS...` (ARGS without "hook"). It always returns 0: whatever goes
// wrong, the agent carries on, nothing is printed on stdout, and one line says why on stderr
// and in the log. (Exit status 2 means "block" to the hosts; a guard's own failure must never
// block.)
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) (code int) {
	failOpen := func(err error) int {
		msg := "loopguard hook: " + OneLine(err.Error()) + " (the call goes ahead unguarded)"
		fmt.Fprintln(stderr, msg)
		logLine(getenv, msg)
		return 0
	}
	defer func() {
		if p := recover(); p != nil {
			code = failOpen(fmt.Errorf("internal error: %v", p))
		}
	}()

	fs := flag.NewFlagSet("hook", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: loopguard hook claude-code|codex|gemini-cli [--preset NAME | --config FILE] [--store URL] < event.json\n\n")
		fs.PrintDefaults()
		fmt.Fprint(stderr, "\nExamples:\n  loopguard hook claude-code < event.json\n  loopguard hook codex --preset dsh-brake --store redis://127.0.0.1:6379/0\n\n'loopguard install HOST' writes these commands into the host's settings for you.\n")
	}
	choice := config.AddFlags(fs)
	var sf StoreFlags
	sf.Add(fs, "")
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
	resolved, err := config.Resolve(*choice, getenv)
	if err != nil {
		return failOpen(err)
	}
	if url := sf.resolvedURL(getenv); !store.Linked(url) {
		// The hook-only binary does not link Redis; the full binary does.
		if err := handOver(args, stdin, stdout, stderr, getenv); err != nil {
			return failOpen(err)
		}
		return 0
	}
	in, err := io.ReadAll(io.LimitReader(stdin, 64<<20+1))
	if err != nil {
		return failOpen(fmt.Errorf("reading stdin: %w", err))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Hook state is loop counters: losing it costs a late reminder, never an error, so the
	// embedded store may skip fsync and replace a damaged file (store.Options.Disposable).
	st := &lazyStore{open: func() (store.Store, error) {
		return sf.Open(ctx, getenv, stderr, store.Options{Disposable: true})
	}}
	defer st.Close()
	h := &hook.Handler{Config: resolved.Config, Store: st, Warn: func(line string) { fmt.Fprintln(stderr, line) }}
	out, err := h.Handle(ctx, host, in)
	if err != nil {
		return failOpen(err)
	}
	stdout.Write(out)
	return 0
}

// handedOverEnv marks a hook process started by handOver, so that two binaries that both
// lack a backend cannot hand an event back and forth.
const handedOverEnv = "LOOPGUARD_HOOK_HANDED_OVER"

// handOver runs `loopguard hook ARGS` in the full binary, for a store this binary does not
// link: the hook-only binary leaves Redis out to start faster, and Redis users pay one more
// process start instead. The full binary is $LOOPGUARD_FULL_BINARY, else `loopguard` beside
// this executable, else on PATH. stdin, stdout and stderr pass through untouched, so the
// host gets the full binary's answer; that binary fails open by itself.
func handOver(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	if getenv(handedOverEnv) != "" {
		return errors.New("this loopguard binary cannot open the store either (it was handed the event by loopguard-hook)")
	}
	full, err := fullBinary(getenv)
	if err != nil {
		return err
	}
	cmd := exec.Command(full, append([]string{"hook"}, args...)...)
	cmd.Env = append(os.Environ(), handedOverEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("running %s hook for the store: %w", full, err)
	}
	return nil
}

// fullBinary finds the full loopguard binary (see handOver).
func fullBinary(getenv func(string) string) (string, error) {
	if p := getenv("LOOPGUARD_FULL_BINARY"); p != "" {
		return p, nil
	}
	name := "loopguard"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	self, err := os.Executable()
	if err == nil {
		beside := filepath.Join(filepath.Dir(self), name)
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() && !sameFile(beside, self) {
			return beside, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil && !sameFile(p, self) {
		return p, nil
	}
	return "", errors.New("the store is Redis, which loopguard-hook does not link, and the full loopguard binary was found neither beside it nor on PATH (install both: go install ./cmd/..., or set LOOPGUARD_FULL_BINARY)")
}

func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// OneLine keeps a message to one line, so that a failure is one line of a log.
func OneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", " ")
	return strings.ReplaceAll(s, "\n", " ")
}

// logLine appends a line to $XDG_STATE_HOME/loopguard/hook.log (~/.local/state/... when
// unset). Failing to log is not worth failing over.
func logLine(getenv func(string) string, msg string) {
	dir := getenv("XDG_STATE_HOME")
	if dir == "" {
		home := getenv("HOME")
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
