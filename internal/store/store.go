package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Store keeps one opaque value per key (key = a session/agent id) that
// outlives the process.
//
// A Store is safe for concurrent use by several goroutines. Values passed to
// and returned from a Store are never retained or aliased by it.
type Store interface {
	// Update reads the current value of key (nil if absent), calls fn, and
	// stores what fn returns, atomically with respect to every other Update of
	// the same key in any process sharing the store.
	//
	// fn may be called more than once (optimistic retry); it must be a pure
	// function of its input and must not call back into the Store. fn owns
	// the slice it is given and may modify it. If fn returns a nil slice the
	// key is deleted (a non-nil empty slice is stored as an empty value). If
	// fn returns an error, nothing is written and Update returns that error
	// unchanged.
	Update(ctx context.Context, key string, fn func(old []byte) ([]byte, error)) error

	// Get returns the current value of key, or nil, nil when it is absent.
	Get(ctx context.Context, key string) ([]byte, error)

	// Delete removes key. Deleting an absent key is not an error.
	Delete(ctx context.Context, key string) error

	// Purge removes keys not updated since before (idle sessions) and
	// returns how many it removed. Backends that expire keys by themselves
	// (Redis) return 0.
	Purge(ctx context.Context, before time.Time) (int, error)

	// Close releases the Store. Every later call returns ErrClosed. Close is
	// idempotent.
	Close() error
}

// Options tunes a Store. The zero value is ready to use.
type Options struct {
	// IdleTTL is how long a key may go without an Update before it is
	// considered abandoned. Zero means DefaultIdleTTL; a negative value
	// disables expiry. The embedded store hides records older than IdleTTL
	// and sweeps them at most once per hour during an Update; Redis sets the
	// key's expiry to IdleTTL on every write; the memory store hides them.
	IdleTTL time.Duration

	// LockTimeout bounds how long an embedded-store operation waits for the
	// database file lock held by another process. Operations of this process
	// queue behind each other without that bound (their context bounds them).
	// Zero means DefaultLockTimeout.
	LockTimeout time.Duration

	// KeyPrefix is prepended to every key on Redis. Empty means
	// DefaultKeyPrefix.
	KeyPrefix string

	// Disposable says the values may be lost without harm (loop counters, say), which lets
	// the embedded store trade durability for speed: commits skip fsync, which a process
	// kill never needs (the page cache keeps the writes) but a power loss might, and a file
	// found damaged is moved aside (<path>.damaged-<time>) and replaced by a fresh one instead
	// of failing every later call.
	Disposable bool

	// Now replaces time.Now (tests). It stamps writes and drives expiry in
	// the embedded and memory stores; Redis expiry runs on the server clock.
	Now func() time.Time
}

const (
	// DefaultIdleTTL is the purge horizon used when Options.IdleTTL is 0.
	DefaultIdleTTL = 7 * 24 * time.Hour
	// DefaultLockTimeout is the embedded lock wait used when
	// Options.LockTimeout is 0.
	DefaultLockTimeout = 2 * time.Second
	// DefaultKeyPrefix is the Redis key prefix used when Options.KeyPrefix is
	// empty.
	DefaultKeyPrefix = "loopguard:"
	// MaxKeyLen is the longest key a Store accepts, in bytes.
	MaxKeyLen = 1024
)

var (
	// ErrClosed is returned by every method of a Store after Close.
	ErrClosed = errors.New("store: closed")
	// ErrUnavailable marks errors that mean the state cannot be reached right
	// now: the embedded file lock was not obtained within LockTimeout, Redis
	// could not be reached, or Redis contention outlasted every retry. Nothing
	// was written. Test with errors.Is.
	ErrUnavailable = errors.New("store unavailable")
	// ErrInvalidKey is returned for an empty key or one longer than MaxKeyLen.
	ErrInvalidKey = errors.New("store: invalid key")
	// ErrNotLinked is returned by Open for a URL whose backend is not linked into this
	// binary (see Register). Test with errors.Is.
	ErrNotLinked = errors.New("store: backend not linked into this binary")
)

// An Opener opens a store of a backend that lives in a package of its own. opts has its
// defaults applied.
type Opener func(rawURL string, opts Options) (Store, error)

// Backends other than the embedded ones live in packages of their own and Register
// themselves when imported, the way database/sql drivers do, so that a binary links only
// the backends it imports. The hook-only binary (cmd/loopguard-hook) imports none: the Redis
// client and the TLS stack it pulls in more than doubled the binary (5.5 against 12.7 MB) and
// cost a tenth of every hook's start (BENCHMARKS.md, "Hook latency").
var (
	registryMu sync.RWMutex
	registry   = map[string]Opener{}
)

// remoteSchemes are the URL schemes Open knows of but does not serve itself, and the
// package that serves them.
var remoteSchemes = map[string]string{
	"redis":          "internal/store/redisstore",
	"rediss":         "internal/store/redisstore",
	"redis+cluster":  "internal/store/redisstore",
	"rediss+cluster": "internal/store/redisstore",
}

// Register makes Open serve URLs of the given scheme with open. It panics if the scheme is
// not one Open knows of or is registered twice: both are programming errors.
func Register(scheme string, open Opener) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, known := remoteSchemes[scheme]; !known {
		panic("store: Register of unknown scheme " + scheme)
	}
	if _, dup := registry[scheme]; dup {
		panic("store: Register called twice for " + scheme)
	}
	registry[scheme] = open
}

// remoteScheme returns the scheme of rawURL when it is one of remoteSchemes.
func remoteScheme(rawURL string) (string, bool) {
	i := strings.Index(rawURL, "://")
	if i < 0 {
		return "", false
	}
	_, ok := remoteSchemes[rawURL[:i]]
	return rawURL[:i], ok
}

// remoteOpener returns the registered Opener for a remote URL (nil when its package is not
// linked), and whether the URL is remote at all.
func remoteOpener(rawURL string) (open Opener, scheme string, remote bool) {
	scheme, remote = remoteScheme(rawURL)
	if !remote {
		return nil, "", false
	}
	registryMu.RLock()
	defer registryMu.RUnlock()
	return registry[scheme], scheme, true
}

// Linked reports whether Open can serve rawURL in this binary: true for the embedded and
// memory stores and for registered backends, false for a known remote scheme whose package
// is not linked. Open's other errors (a malformed URL) are not foreseen here.
func Linked(rawURL string) bool {
	open, _, remote := remoteOpener(rawURL)
	return !remote || open != nil
}

// Unavailable returns an error with message msg that matches ErrUnavailable and cause (which
// may be nil), for backends to say the state cannot be had right now.
func Unavailable(msg string, cause error) error {
	return &unavailableError{msg: msg, cause: cause}
}

// unavailableError is an error that matches ErrUnavailable and its cause.
type unavailableError struct {
	msg   string
	cause error
}

func (e *unavailableError) Error() string {
	if e.cause == nil {
		return e.msg
	}
	return e.msg + ": " + e.cause.Error()
}

func (e *unavailableError) Unwrap() []error {
	if e.cause == nil {
		return []error{ErrUnavailable}
	}
	return []error{ErrUnavailable, e.cause}
}

// withDefaults fills in the zero fields of o.
func (o Options) withDefaults() Options {
	if o.IdleTTL == 0 {
		o.IdleTTL = DefaultIdleTTL
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = DefaultLockTimeout
	}
	if o.KeyPrefix == "" {
		o.KeyPrefix = DefaultKeyPrefix
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// expired reports whether a record last written at updated is past the idle
// horizon at now.
func (o Options) expired(updated, now time.Time) bool {
	return o.IdleTTL > 0 && updated.Before(now.Add(-o.IdleTTL))
}

// Open opens the store named by rawURL:
//
//   - "" or "bolt": the embedded store at DefaultPath();
//   - "bolt:///abs/path.db", or a plain file path (absolute, relative to the
//     working directory, or starting with "~/"): the embedded store there;
//   - "redis://[user:pass@]host:port/db" or "rediss://…": Redis (go-redis URL
//     query parameters such as dial_timeout are honoured); with
//     ?master_name=NAME the host is a Sentinel (more with &addr=host:port);
//     "redis+cluster://host:port?addr=host2:port" is a Redis Cluster. Served
//     by package internal/store/redisstore when the binary imports it; else
//     Open returns an error matching ErrNotLinked;
//   - "memory": a new, empty in-process store, independent of any other.
//
// Opening the embedded store creates its directory (0700) but not yet the
// database file; Opening Redis does not connect. Both happen on first use, so
// Open stays cheap inside a hook.
func Open(ctx context.Context, rawURL string, opts Options) (Store, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	switch {
	case rawURL == "" || rawURL == "bolt":
		p, err := DefaultPath()
		if err != nil {
			return nil, err
		}
		return openBolt(p, opts)
	case rawURL == "memory":
		return newMemory(opts), nil
	case IsRemote(rawURL):
		open, scheme, _ := remoteOpener(rawURL)
		if open == nil {
			return nil, fmt.Errorf("%w: %q needs package %s (the full loopguard binary has it)", ErrNotLinked, RedactURL(rawURL), remoteSchemes[scheme])
		}
		return open(rawURL, opts)
	case strings.HasPrefix(rawURL, "bolt:"):
		u, err := url.Parse(rawURL)
		if err != nil {
			return nil, fmt.Errorf("store: invalid store URL %q: %w", RedactURL(rawURL), err)
		}
		p := u.Path
		if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
			p = p[1:] // bolt:///C:/state.db
		}
		p = filepath.FromSlash(p)
		if u.Host != "" || u.Opaque != "" || !filepath.IsAbs(p) {
			return nil, fmt.Errorf("store: invalid store URL %q: want bolt:///absolute/path.db", RedactURL(rawURL))
		}
		return openBolt(p, opts)
	case strings.Contains(rawURL, "://"):
		return nil, fmt.Errorf("store: unsupported store URL %q: want \"bolt\", bolt:///path, a file path, redis://, rediss:// or \"memory\"", RedactURL(rawURL))
	default:
		p, err := expandPath(rawURL)
		if err != nil {
			return nil, fmt.Errorf("store: store path %q: %w", rawURL, err)
		}
		return openBolt(p, opts)
	}
}

// DefaultPath returns where the embedded store lives by default:
// $XDG_STATE_HOME/loopguard/state.db, or ~/.local/state/loopguard/state.db
// when XDG_STATE_HOME is unset or not absolute (as the XDG base directory
// specification requires relative values to be ignored).
func DefaultPath() (string, error) {
	if dir := os.Getenv("XDG_STATE_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "loopguard", "state.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("store: cannot find the default state path (set XDG_STATE_HOME or HOME): %w", err)
	}
	return filepath.Join(home, ".local", "state", "loopguard", "state.db"), nil
}

// expandPath makes p absolute, expanding a leading "~/".
func expandPath(p string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		p = filepath.Join(home, p[1:])
	}
	return filepath.Abs(p)
}

// IsRemote reports whether rawURL names a backend that lives outside this package (Redis),
// which a binary serves only when it imports the backend's package.
func IsRemote(rawURL string) bool {
	_, ok := remoteScheme(rawURL)
	return ok
}

// CheckKey validates a key the same way for every backend.
func CheckKey(key string) error {
	if key == "" || len(key) > MaxKeyLen {
		return fmt.Errorf("%w: length %d, want 1..%d bytes", ErrInvalidKey, len(key), MaxKeyLen)
	}
	return nil
}

// clone copies b, keeping nil as nil and empty as non-nil empty.
func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append(make([]byte, 0, len(b)), b...)
}

// RedactURL hides the user-info part (user name and password) of a URL so a
// secret never reaches an error message or a log. It works on the raw text, so
// it also redacts URLs that net/url would reject.
func RedactURL(raw string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return raw
	}
	rest := raw[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	at := strings.LastIndex(rest[:end], "@")
	if at < 0 {
		return raw
	}
	return raw[:i+3] + "xxxxx" + rest[at:]
}
