package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/store"
)

// MustOpen opens url and closes the store when the test ends.
func MustOpen(tb testing.TB, url string, opts store.Options) store.Store {
	tb.Helper()
	s, err := store.Open(context.Background(), url, opts)
	if err != nil {
		tb.Fatalf("Open(%q): %v", url, err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

// Put stores v under key through Update.
func Put(tb testing.TB, s store.Store, key string, v []byte) {
	tb.Helper()
	if err := s.Update(context.Background(), key, func([]byte) ([]byte, error) { return v, nil }); err != nil {
		tb.Fatalf("Update(%q): %v", key, err)
	}
}

// MustGet returns the value of key.
func MustGet(tb testing.TB, s store.Store, key string) []byte {
	tb.Helper()
	v, err := s.Get(context.Background(), key)
	if err != nil {
		tb.Fatalf("Get(%q): %v", key, err)
	}
	return v
}

// FakeClock is a settable Options.Now.
type FakeClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewFakeClock returns a clock stopped at a fixed moment.
func NewFakeClock() *FakeClock {
	return &FakeClock{now: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// Now is the clock's time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
