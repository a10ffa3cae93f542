package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/loopguard/loopguard/internal/store"
	"github.com/loopguard/loopguard/internal/store/storetest"
)

// TestContract runs the behaviour every Store must have against Redis, each case under a key
// prefix of its own on one server.
func TestContract(t *testing.T) {
	storetest.Contract(t, storetest.Backend{
		Name:      "redis",
		RealClock: true,
		Setup: func(t *testing.T) func(*testing.T, store.Options) store.Store {
			srv := startRedis(t)
			var n atomic.Int64
			return func(t *testing.T, opts store.Options) store.Store {
				opts.KeyPrefix = fmt.Sprintf("contract%d:", n.Add(1))
				return mustOpen(t, srv.url, opts)
			}
		},
	})
}

// TestUpdateAcrossProcesses starts 64 processes at once that each add one to the same key.
func TestUpdateAcrossProcesses(t *testing.T) {
	storetest.UpdateAcrossProcesses(t, startRedis(t).url)
}

func TestOpenReadsTheRedisURL(t *testing.T) {
	cases := []struct {
		url      string
		wantAddr string
		wantTLS  bool
	}{
		{url: "redis://127.0.0.1:6390/2", wantAddr: "127.0.0.1:6390"},
		{url: "redis://:secret@example.invalid", wantAddr: "example.invalid:6379"},
		{url: "rediss://cache.example.invalid:6380/0", wantAddr: "cache.example.invalid:6380", wantTLS: true},
	}
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			st, ok := mustOpen(t, c.url, store.Options{}).(*redisStore)
			if !ok {
				t.Fatalf("Open(%q) is not the Redis store", c.url)
			}
			if st.addr != c.wantAddr {
				t.Fatalf("redis at %s, want %s", st.addr, c.wantAddr)
			}
			if got := st.client.(*redis.Client).Options().TLSConfig != nil; got != c.wantTLS {
				t.Fatalf("TLS = %v, want %v", got, c.wantTLS)
			}
			if st.prefix != store.DefaultKeyPrefix || st.ttl != store.DefaultIdleTTL {
				t.Fatalf("prefix %q ttl %v, want defaults", st.prefix, st.ttl)
			}
		})
	}
}

func TestBadRedisURLsAreNamedWithoutSecrets(t *testing.T) {
	cases := []struct{ url, wantInErr string }{
		{"redis://admin:hunter2@example.invalid/notanumber", "redis://xxxxx@example.invalid/notanumber"},
		{"redis://admin:hunter2@example.invalid:port/0", "redis://xxxxx@example.invalid:port/0"},
	}
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			s, err := store.Open(context.Background(), c.url, store.Options{})
			if err == nil {
				s.Close()
				t.Fatalf("Open(%q) succeeded", c.url)
			}
			if errors.Is(err, store.ErrNotLinked) {
				t.Fatalf("Open(%q) = %v: the Redis backend did not register", c.url, err)
			}
			if !strings.Contains(err.Error(), c.wantInErr) {
				t.Errorf("error %q does not name %q", err, c.wantInErr)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error %q leaks the password", err)
			}
		})
	}
}
