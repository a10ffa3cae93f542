package store

import (
	"context"
	"errors"
	"sync"
	"time"
)

// DefaultRetryPrimary is how long a Fallback store stays on its local store after the primary
// was found unavailable, before it tries the primary again.
const DefaultRetryPrimary = 30 * time.Second

// FallbackOptions tunes Fallback. The zero value is ready to use.
type FallbackOptions struct {
	// RetryPrimary is how long to serve from the local store after the primary failed before
	// trying the primary again; zero means DefaultRetryPrimary. A hook process lives for one
	// event, so for it the switch is for good; a server returns to the primary once it is back.
	RetryPrimary time.Duration
	// Warn is told each time the store switches to the local one, with the primary's error.
	Warn func(error)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Fallback returns a Store that serves from primary, and from the store openLocal opens
// (once, on first need) while primary is unavailable: when a call on primary fails with an
// error matching ErrUnavailable, the same call is made on the local store, and the calls
// after it go there too for RetryPrimary.
//
// Why per call and not at Open: a Redis client connects lazily, so an unreachable server is
// only found out by the first command. Why stay on the local store for a while: a refused
// connection is quick, but a dial timeout is not, and a hook must not pay it twice.
//
// State written while primary was away stays in the local store; loop counters restart on the
// primary when it is back, which costs a late reminder, never a wrong one.
func Fallback(primary Store, openLocal func() (Store, error), opts FallbackOptions) Store {
	if opts.RetryPrimary <= 0 {
		opts.RetryPrimary = DefaultRetryPrimary
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &fallbackStore{primary: primary, openLocal: openLocal, opts: opts}
}

type fallbackStore struct {
	primary   Store
	openLocal func() (Store, error)
	opts      FallbackOptions

	mu        sync.Mutex
	local     Store
	localErr  error
	downUntil time.Time // zero while the primary is in use
	closed    bool
}

// onLocal returns the local store while the primary is considered down, else nil.
func (f *fallbackStore) onLocal() (Store, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, ErrClosed
	}
	if f.downUntil.IsZero() {
		return nil, nil
	}
	if !f.opts.Now().Before(f.downUntil) {
		f.downUntil = time.Time{} // time to try the primary again
		return nil, nil
	}
	return f.local, nil
}

// fallBack marks the primary down after err and returns the local store, opening it once.
func (f *fallbackStore) fallBack(err error) (Store, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.downUntil.IsZero() && f.opts.Warn != nil {
		f.opts.Warn(err)
	}
	f.downUntil = f.opts.Now().Add(f.opts.RetryPrimary)
	if f.local == nil && f.localErr == nil {
		f.local, f.localErr = f.openLocal()
	}
	return f.local, f.localErr
}

// do makes one call, on the local store while the primary is down, else on the primary and,
// when the primary turns out to be unavailable, again on the local store.
func (f *fallbackStore) do(call func(Store) error) error {
	local, err := f.onLocal()
	if err != nil {
		return err
	}
	if local != nil {
		return call(local)
	}
	err = call(f.primary)
	if err == nil || !errors.Is(err, ErrUnavailable) {
		return err
	}
	local, lerr := f.fallBack(err)
	if lerr != nil {
		return errors.Join(err, lerr)
	}
	return call(local)
}

func (f *fallbackStore) Update(ctx context.Context, key string, fn func(old []byte) ([]byte, error)) error {
	return f.do(func(s Store) error { return s.Update(ctx, key, fn) })
}

func (f *fallbackStore) Get(ctx context.Context, key string) (v []byte, err error) {
	err = f.do(func(s Store) error {
		v, err = s.Get(ctx, key)
		return err
	})
	return v, err
}

func (f *fallbackStore) Delete(ctx context.Context, key string) error {
	return f.do(func(s Store) error { return s.Delete(ctx, key) })
}

func (f *fallbackStore) Purge(ctx context.Context, before time.Time) (n int, err error) {
	err = f.do(func(s Store) error {
		n, err = s.Purge(ctx, before)
		return err
	})
	return n, err
}

// Close closes both stores.
func (f *fallbackStore) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil
	}
	f.closed = true
	err := f.primary.Close()
	if f.local != nil {
		err = errors.Join(err, f.local.Close())
	}
	return err
}
