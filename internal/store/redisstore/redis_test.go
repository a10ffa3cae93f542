package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/loopguard/loopguard/internal/store"
	"github.com/loopguard/loopguard/internal/store/storetest"
)

// rawRedis is a plain client to inspect and disturb the server behind a
// store.Store.
func rawRedis(t *testing.T, srv *redisServer) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: srv.addr})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestRedisUnreachableIsUnavailableAndNamesTheAddress(t *testing.T) {
	addr := "127.0.0.1:" + strconv.Itoa(freePort(t)) // nothing listens there
	s := mustOpen(t, "redis://"+addr+"/0", store.Options{})
	ctx := context.Background()
	start := time.Now()
	errs := map[string]error{
		"Update": s.Update(ctx, "k", func([]byte) ([]byte, error) { return []byte("v"), nil }),
		"Delete": s.Delete(ctx, "k"),
	}
	_, errs["Get"] = s.Get(ctx, "k")
	for op, err := range errs {
		if !errors.Is(err, store.ErrUnavailable) || !strings.Contains(err.Error(), "could not reach redis at "+addr) {
			t.Errorf("%s with redis down = %v, want store.ErrUnavailable saying it could not reach redis at %s", op, err, addr)
		}
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("three operations against a closed port took %v; a hook needs to fail open fast", took)
	}
}

func TestRedisWritesSetTheIdleExpiryUnderThePrefix(t *testing.T) {
	srv := startRedis(t)
	raw := rawRedis(t, srv)
	ctx := context.Background()
	cases := []struct {
		name    string
		opts    store.Options
		rawKey  string
		wantTTL time.Duration // -1: no expiry
	}{
		{"defaults", store.Options{}, "loopguard:agent", store.DefaultIdleTTL},
		{"custom prefix and ttl", store.Options{KeyPrefix: "lg-test/", IdleTTL: time.Hour}, "lg-test/agent", time.Hour},
		{"negative ttl never expires", store.Options{KeyPrefix: "forever:", IdleTTL: -1}, "forever:agent", -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mustOpen(t, srv.url, c.opts)
			put(t, s, "agent", []byte("state"))
			if v, err := raw.Get(ctx, c.rawKey).Result(); err != nil || v != "state" {
				t.Fatalf("raw GET %s = %q, %v", c.rawKey, v, err)
			}
			ttl, err := raw.PTTL(ctx, c.rawKey).Result()
			if err != nil {
				t.Fatal(err)
			}
			if c.wantTTL < 0 {
				if ttl >= 0 {
					t.Fatalf("PTTL = %v, want no expiry", ttl)
				}
				return
			}
			if ttl <= c.wantTTL-time.Minute || ttl > c.wantTTL {
				t.Fatalf("PTTL = %v, want about %v", ttl, c.wantTTL)
			}
		})
	}
}

// TestRedisRetriesWhenTheKeyChangesUnderneath makes another client write the
// key while fn runs, so EXEC fails and Update has to run fn again.
func TestRedisRetriesWhenTheKeyChangesUnderneath(t *testing.T) {
	srv := startRedis(t)
	raw := rawRedis(t, srv)
	ctx := context.Background()

	t.Run("one conflict then success", func(t *testing.T) {
		s := mustOpen(t, srv.url, store.Options{KeyPrefix: "once:"})
		var olds []string
		err := s.Update(ctx, "n", func(old []byte) ([]byte, error) {
			olds = append(olds, string(old))
			if len(olds) == 1 {
				if err := raw.Set(ctx, "once:n", "41", 0).Err(); err != nil {
					return nil, err
				}
			}
			return storetest.Incr(old)
		})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(olds) != "[ 41]" {
			t.Fatalf("fn saw %q, want a first call with nothing and a retry seeing the other write", olds)
		}
		if v := mustGet(t, s, "n"); string(v) != "42" {
			t.Fatalf("value = %q, want 42 (the other client's write was not lost)", v)
		}
	})

	t.Run("gives up after the attempt limit", func(t *testing.T) {
		s := mustOpen(t, srv.url, store.Options{KeyPrefix: "always:"})
		s.(*redisStore).maxAttempts = 5
		calls := 0
		err := s.Update(ctx, "n", func([]byte) ([]byte, error) {
			calls++
			return []byte("mine"), raw.Set(ctx, "always:n", "theirs-"+strconv.Itoa(calls), 0).Err()
		})
		if !errors.Is(err, store.ErrUnavailable) || !strings.Contains(err.Error(), "5 attempts") || !strings.Contains(err.Error(), srv.addr) {
			t.Fatalf("Update under endless conflict = %v, want store.ErrUnavailable after 5 attempts naming %s", err, srv.addr)
		}
		if calls != 5 {
			t.Fatalf("fn ran %d times, want 5", calls)
		}
		if v := mustGet(t, s, "n"); string(v) != "theirs-5" {
			t.Fatalf("value = %q, want the other client's last write", v)
		}
	})
}

func TestRedisServerErrorIsNotUnavailable(t *testing.T) {
	srv := startRedis(t)
	raw := rawRedis(t, srv)
	ctx := context.Background()
	if err := raw.LPush(ctx, "loopguard:list", "x").Err(); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, srv.url, store.Options{})
	_, err := s.Get(ctx, "list")
	if err == nil || errors.Is(err, store.ErrUnavailable) || !strings.Contains(err.Error(), "WRONGTYPE") || !strings.Contains(err.Error(), srv.addr) {
		t.Fatalf("Get of a list = %v, want a WRONGTYPE error naming %s that is not store.ErrUnavailable", err, srv.addr)
	}
}

// Sentinel and Cluster URLs open go-redis's failover and cluster clients, named by what they
// reach; a bad option is an error naming the URL without its password.
func TestRedisTopologyURLs(t *testing.T) {
	cases := []struct {
		url, wantAddr, wantErr string
	}{
		{"redis://s1:26379/0?master_name=mymaster&addr=s2:26379", `master "mymaster" via sentinels s1:26379,s2:26379`, ""},
		{"redis+cluster://n1:7000?addr=n2:7000&addr=n3:7000", "cluster n1:7000,n2:7000,n3:7000", ""},
		{"rediss+cluster://u:secret@n1:7000", "cluster n1:7000", ""},
		{"redis://u:secret@s1:26379/0?master_name=m&bogus=1", "", "xxxxx@s1:26379"},
	}
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			s, err := store.Open(context.Background(), c.url, store.Options{})
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || strings.Contains(err.Error(), "secret") {
					t.Fatalf("err = %v, want one naming %s without the password", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got := s.(*redisStore).addr; got != c.wantAddr {
				t.Errorf("addr = %q, want %q", got, c.wantAddr)
			}
		})
	}
}

// A real Sentinel in front of a real redis-server: the store finds the master through it.
func TestRedisThroughSentinel(t *testing.T) {
	master := startRedis(t)
	sentinel := startSentinel(t, master.addr)
	s := mustOpen(t, "redis://"+sentinel+"/0?master_name=lgmaster", store.Options{})
	put(t, s, "k", []byte("via sentinel"))
	if got := mustGet(t, mustOpen(t, master.url, store.Options{}), "k"); string(got) != "via sentinel" {
		t.Fatalf("the master holds %q", got)
	}
}
