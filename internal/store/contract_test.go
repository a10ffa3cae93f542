package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// backend describes how the contract tests reach one implementation.
type backend struct {
	name string
	// setup prepares the backend for one test (starting a server if needed)
	// and returns a function that opens a new, isolated, empty Store.
	setup func(t *testing.T) func(t *testing.T, opts Options) Store
	// realClock: expiry runs on the server's clock, not Options.Now, and
	// Purge reports 0 because the server expires keys itself.
	realClock bool
}

func backends() []backend {
	return []backend{
		{
			name: "memory",
			setup: func(*testing.T) func(*testing.T, Options) Store {
				return func(t *testing.T, opts Options) Store { return mustOpen(t, "memory", opts) }
			},
		},
		{
			name: "bolt",
			setup: func(*testing.T) func(*testing.T, Options) Store {
				return func(t *testing.T, opts Options) Store {
					return mustOpen(t, "bolt://"+filepath.ToSlash(filepath.Join(t.TempDir(), "state.db")), opts)
				}
			},
		},
		{
			name:      "redis",
			realClock: true,
			setup: func(t *testing.T) func(*testing.T, Options) Store {
				srv := startRedis(t)
				var n atomic.Int64
				return func(t *testing.T, opts Options) Store {
					opts.KeyPrefix = fmt.Sprintf("contract%d:", n.Add(1))
					return mustOpen(t, srv.url, opts)
				}
			},
		},
	}
}

var errBoom = errors.New("boom")

func TestContract(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		run  func(t *testing.T, b backend, open func(*testing.T, Options) Store)
	}{
		{"absent key reads as nil", func(t *testing.T, _ backend, open func(*testing.T, Options) Store) {
			s := open(t, Options{})
			if v := mustGet(t, s, "nobody"); v != nil {
				t.Fatalf("Get of absent key = %q, want nil", v)
			}
			var seen []byte
			called := false
			if err := s.Update(ctx, "nobody", func(old []byte) ([]byte, error) {
				called, seen = true, old
				return nil, nil
			}); err != nil {
				t.Fatal(err)
			}
			if !called || seen != nil {
				t.Fatalf("fn called=%v with old=%q, want called with nil", called, seen)
			}
		}},
		{"update stores the value and passes it to the next update", func(t *testing.T, _ backend, open func(*testing.T, Options) Store) {
			s := open(t, Options{})
			put(t, s, "k", []byte("one"))
			if v := mustGet(t, s, "k"); string(v) != "one" {
				t.Fatalf("Get = %q, want %q", v, "one")
			}
			if err := s.Update(ctx, "k", func(old []byte) ([]byte, error) {
				return append(old, "+two"...), nil
			}); err != nil {
				t.Fatal(err)
			}
			if v := mustGet(t, s, "k"); string(v) != "one+two" {
				t.Fatalf("Get = %q, want %q", v, "one+two")
			}
		}},
		{"fn error writes nothing and is returned unchanged", func(t *testing.T, _ backend, open func(*testing.T, Options) Store) {
			s := open(t, Options{})
			put(t, s, "k", []byte("kept"))
			for _, key := range []string{"k", "absent"} {
				err := s.Update(ctx, key, func([]byte) ([]byte, error) { return []byte("lost"), errBoom })
				if err != errBoom { //nolint:errorlint // the very same error value is the contract
					t.Fatalf("Update(%q) error = %v, want errBoom itself", key, err)
				}
			}
			if v := mustGet(t, s, "k"); string(v) != "kept" {
				t.Fatalf("after failed fn Get(k) = %q, want %q", v, "kept")
			}
			if v := mustGet(t, s, "absent"); v != nil {
				t.Fatalf("after failed fn Get(absent) = %q, want nil", v)
			}
		}},
		{"nil return deletes the key", func(t *testing.T, _ backend, open func(*testing.T, Options) Store) {
			s := open(t, Options{})
			put(t, s, "k", []byte("v"))
			put(t, s, "k", nil)
			if v := mustGet(t, s, "k"); v != nil {
				t.Fatalf("Get after nil return = %q, want nil", v)
			}
		}},
		{"empty value is stored and is not absent", func(t *testing.T, _ backend, open func(*testing.T, Options) Store) {
			s := open(t, Options{})
			put(t, s, "k", []byte{})
			v := mustGet(t, s, "k")
			if v == nil || len(v) != 0 {
				t.Fatalf("Get after storing empty value = %#v, want non-nil empty", v)
			}
		}},
		{"delete removes the key and ignores absent keys", func(t *testing.T, _ backend, open func(*testing.T, Options) Store) {
			s := open(t, Options{})
			if err := s.Delete(ctx, "absent"); err != nil {
				t.Fatalf("Delete(absent) = %v", err)
			}
			put(t, s, "k", []byte("v"))
			put(t, s, "other", []byte("w"))
			if err := s.Delete(ctx, "k"); err != nil {
				t.Fatal(err)
			}
			if v := mustGet(t, s, "k"); v != nil {
				t.Fatalf("Get after Delete = %q, want nil", v)
			}
			if v := mustGet(t, s, "other"); string(v) != "w" {
				t.Fatalf("Delete(k) touched other key: %q", v)
			}
		}},
		{"values are copied in and out", func(t *testing.T, _ backend, open func(*testing.T, Options) Store) {
			s := open(t, Options{})
			in := []byte("abc")
			put(t, s, "k", in)
			in[0] = 'X'
			got := mustGet(t, s, "k")
			got[1] = 'Y'
			if err := s.Update(ctx, "k", func(old []byte) ([]byte, error) {
				if string(old) != "abc" {
					t.Errorf("old = %q, want %q", old, "abc")
				}
				old[2] = 'Z' // fn owns old
				return []byte("abc"), nil
			}); err != nil {
				t.Fatal(err)
			}
			if v := mustGet(t, s, "k"); string(v) != "abc" {
				t.Fatalf("stored value changed through an alias: %q", v)
			}
		}},
		{"idle keys are purged and fresh ones kept", func(t *testing.T, b backend, open func(*testing.T, Options) Store) {
			clock := newFakeClock()
			ttl, wait1, wait2 := time.Hour, 40*time.Minute, 30*time.Minute
			advance := clock.Advance
			if b.realClock {
				ttl, wait1, wait2 = time.Second, 600*time.Millisecond, 600*time.Millisecond
				advance = time.Sleep
			}
			s := open(t, Options{IdleTTL: ttl, Now: clock.Now})
			put(t, s, "idle", []byte("old"))
			advance(wait1)
			put(t, s, "fresh", []byte("new"))
			advance(wait2) // idle: wait1+wait2 > ttl; fresh: wait2 < ttl
			if v := mustGet(t, s, "idle"); v != nil {
				t.Fatalf("idle key still reads %q after %v without update (IdleTTL %v)", v, wait1+wait2, ttl)
			}
			n, err := s.Purge(ctx, clock.Now().Add(-ttl))
			if err != nil {
				t.Fatal(err)
			}
			want := 1
			if b.realClock {
				want = 0 // the server already expired it
			}
			if n != want {
				t.Fatalf("Purge removed %d keys, want %d", n, want)
			}
			if v := mustGet(t, s, "fresh"); string(v) != "new" {
				t.Fatalf("fresh key = %q after purge, want %q", v, "new")
			}
			if v := mustGet(t, s, "idle"); v != nil {
				t.Fatalf("idle key = %q after purge, want nil", v)
			}
		}},
		{"operations after close fail with ErrClosed", func(t *testing.T, _ backend, open func(*testing.T, Options) Store) {
			s := open(t, Options{})
			put(t, s, "k", []byte("v"))
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatalf("second Close = %v, want nil", err)
			}
			if _, err := s.Get(ctx, "k"); !errors.Is(err, ErrClosed) {
				t.Errorf("Get after Close = %v, want ErrClosed", err)
			}
			if err := s.Update(ctx, "k", func(b []byte) ([]byte, error) { return b, nil }); !errors.Is(err, ErrClosed) {
				t.Errorf("Update after Close = %v, want ErrClosed", err)
			}
			if err := s.Delete(ctx, "k"); !errors.Is(err, ErrClosed) {
				t.Errorf("Delete after Close = %v, want ErrClosed", err)
			}
			if _, err := s.Purge(ctx, time.Now()); !errors.Is(err, ErrClosed) {
				t.Errorf("Purge after Close = %v, want ErrClosed", err)
			}
		}},
		{"invalid keys are rejected", func(t *testing.T, _ backend, open func(*testing.T, Options) Store) {
			s := open(t, Options{})
			for _, key := range []string{"", strings.Repeat("k", MaxKeyLen+1)} {
				if err := s.Update(ctx, key, func(b []byte) ([]byte, error) { return []byte("v"), nil }); !errors.Is(err, ErrInvalidKey) {
					t.Errorf("Update(len %d) = %v, want ErrInvalidKey", len(key), err)
				}
				if _, err := s.Get(ctx, key); !errors.Is(err, ErrInvalidKey) {
					t.Errorf("Get(len %d) = %v, want ErrInvalidKey", len(key), err)
				}
			}
			put(t, s, strings.Repeat("k", MaxKeyLen), []byte("longest key is fine"))
		}},
		{"cancelled context writes nothing", func(t *testing.T, _ backend, open func(*testing.T, Options) Store) {
			s := open(t, Options{})
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			err := s.Update(cctx, "k", func([]byte) ([]byte, error) { return []byte("v"), nil })
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Update with cancelled ctx = %v, want context.Canceled", err)
			}
			if v := mustGet(t, s, "k"); v != nil {
				t.Fatalf("cancelled Update wrote %q", v)
			}
		}},
		{"concurrent updates from goroutines are all kept", func(t *testing.T, _ backend, open func(*testing.T, Options) Store) {
			s := open(t, Options{LockTimeout: 30 * time.Second})
			const workers, each = 8, 25
			var wg sync.WaitGroup
			errs := make(chan error, workers)
			for range workers {
				wg.Go(func() {
					for range each {
						if err := s.Update(ctx, "n", incr); err != nil {
							errs <- err
							return
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			if v := mustGet(t, s, "n"); string(v) != strconv.Itoa(workers*each) {
				t.Fatalf("counter = %q, want %d", v, workers*each)
			}
		}},
	}
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			open := b.setup(t)
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { c.run(t, b, open) })
			}
		})
	}
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

// TestFnPanicReleasesTheStore checks that a panicking fn propagates its panic
// and leaves the Store usable, with nothing written.
func TestFnPanicReleasesTheStore(t *testing.T) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) {
			s := b.setup(t)(t, Options{LockTimeout: time.Second})
			put(t, s, "k", []byte("before"))
			func() {
				defer func() {
					if r := recover(); r != "fn exploded" {
						t.Fatalf("recovered %v, want the fn's panic value", r)
					}
				}()
				_ = s.Update(context.Background(), "k", func([]byte) ([]byte, error) { panic("fn exploded") })
			}()
			if v := mustGet(t, s, "k"); !bytes.Equal(v, []byte("before")) {
				t.Fatalf("after panicking fn Get = %q, want %q", v, "before")
			}
			put(t, s, "k", []byte("after"))
		})
	}
}
