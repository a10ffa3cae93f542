package store

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable Options.Now.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func mustOpen(tb testing.TB, url string, opts Options) Store {
	tb.Helper()
	s, err := Open(context.Background(), url, opts)
	if err != nil {
		tb.Fatalf("Open(%q): %v", url, err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

// put stores v under key through Update.
func put(tb testing.TB, s Store, key string, v []byte) {
	tb.Helper()
	if err := s.Update(context.Background(), key, func([]byte) ([]byte, error) { return v, nil }); err != nil {
		tb.Fatalf("Update(%q): %v", key, err)
	}
}

func mustGet(tb testing.TB, s Store, key string) []byte {
	tb.Helper()
	v, err := s.Get(context.Background(), key)
	if err != nil {
		tb.Fatalf("Get(%q): %v", key, err)
	}
	return v
}

// incr treats the value as a decimal counter and adds one.
func incr(old []byte) ([]byte, error) {
	n := 0
	if old != nil {
		var err error
		if n, err = strconv.Atoi(string(old)); err != nil {
			return nil, err
		}
	}
	return []byte(strconv.Itoa(n + 1)), nil
}
