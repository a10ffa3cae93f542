package store

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/testenv"
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

// redisServer is a redis-server process owned by one test.
type redisServer struct {
	addr string
	url  string
}

// startRedis runs a private redis-server for the duration of the test (see testenv.Redis:
// skipped without redis-server, failed under CI=true).
func startRedis(tb testing.TB) *redisServer {
	tb.Helper()
	url := testenv.Redis(tb)
	return &redisServer{url: url, addr: strings.TrimSuffix(strings.TrimPrefix(url, "redis://"), "/0")}
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("find a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
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
