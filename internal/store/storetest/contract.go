// Package storetest holds what every store backend's tests share: the behaviour each Store
// must have (Contract), the cross-process update test, and small helpers. Backends live in
// packages of their own (the embedded ones in store, Redis in redisstore), and each runs
// these against itself.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/store"
)

// Backend describes how the contract reaches one implementation.
type Backend struct {
	Name string
	// Setup prepares the backend for one test (starting a server if needed) and returns a
	// function that opens a new, isolated, empty Store.
	Setup func(t *testing.T) func(t *testing.T, opts store.Options) store.Store
	// RealClock: expiry runs on the server's clock, not Options.Now, and Purge reports 0
	// because the server expires keys itself.
	RealClock bool
}

var errBoom = errors.New("boom")

// Contract runs the behaviour every Store must have against one backend, each case on a
// store of its own from b.Setup.
func Contract(t *testing.T, b Backend) {
	ctx := context.Background()
	cases := []struct {
		name string
		run  func(t *testing.T, b Backend, open func(*testing.T, store.Options) store.Store)
	}{
		{"absent key reads as nil", func(t *testing.T, _ Backend, open func(*testing.T, store.Options) store.Store) {
			s := open(t, store.Options{})
			if v := MustGet(t, s, "nobody"); v != nil {
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
		{"update stores the value and passes it to the next update", func(t *testing.T, _ Backend, open func(*testing.T, store.Options) store.Store) {
			s := open(t, store.Options{})
			Put(t, s, "k", []byte("one"))
			if v := MustGet(t, s, "k"); string(v) != "one" {
				t.Fatalf("Get = %q, want %q", v, "one")
			}
			if err := s.Update(ctx, "k", func(old []byte) ([]byte, error) {
				return append(old, "+two"...), nil
			}); err != nil {
				t.Fatal(err)
			}
			if v := MustGet(t, s, "k"); string(v) != "one+two" {
				t.Fatalf("Get = %q, want %q", v, "one+two")
			}
		}},
		{"fn error writes nothing and is returned unchanged", func(t *testing.T, _ Backend, open func(*testing.T, store.Options) store.Store) {
			s := open(t, store.Options{})
			Put(t, s, "k", []byte("kept"))
			for _, key := range []string{"k", "absent"} {
				err := s.Update(ctx, key, func([]byte) ([]byte, error) { return []byte("lost"), errBoom })
				if err != errBoom { //nolint:errorlint // the very same error value is the contract
					t.Fatalf("Update(%q) error = %v, want errBoom itself", key, err)
				}
			}
			if v := MustGet(t, s, "k"); string(v) != "kept" {
				t.Fatalf("after failed fn Get(k) = %q, want %q", v, "kept")
			}
			if v := MustGet(t, s, "absent"); v != nil {
				t.Fatalf("after failed fn Get(absent) = %q, want nil", v)
			}
		}},
		{"nil return deletes the key", func(t *testing.T, _ Backend, open func(*testing.T, store.Options) store.Store) {
			s := open(t, store.Options{})
			Put(t, s, "k", []byte("v"))
			Put(t, s, "k", nil)
			if v := MustGet(t, s, "k"); v != nil {
				t.Fatalf("Get after nil return = %q, want nil", v)
			}
		}},
		{"empty value is stored and is not absent", func(t *testing.T, _ Backend, open func(*testing.T, store.Options) store.Store) {
			s := open(t, store.Options{})
			Put(t, s, "k", []byte{})
			v := MustGet(t, s, "k")
			if v == nil || len(v) != 0 {
				t.Fatalf("Get after storing empty value = %#v, want non-nil empty", v)
			}
		}},
		{"delete removes the key and ignores absent keys", func(t *testing.T, _ Backend, open func(*testing.T, store.Options) store.Store) {
			s := open(t, store.Options{})
			if err := s.Delete(ctx, "absent"); err != nil {
				t.Fatalf("Delete(absent) = %v", err)
			}
			Put(t, s, "k", []byte("v"))
			Put(t, s, "other", []byte("w"))
			if err := s.Delete(ctx, "k"); err != nil {
				t.Fatal(err)
			}
			if v := MustGet(t, s, "k"); v != nil {
				t.Fatalf("Get after Delete = %q, want nil", v)
			}
			if v := MustGet(t, s, "other"); string(v) != "w" {
				t.Fatalf("Delete(k) touched other key: %q", v)
			}
		}},
		{"values are copied in and out", func(t *testing.T, _ Backend, open func(*testing.T, store.Options) store.Store) {
			s := open(t, store.Options{})
			in := []byte("abc")
			Put(t, s, "k", in)
			in[0] = 'X'
			got := MustGet(t, s, "k")
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
			if v := MustGet(t, s, "k"); string(v) != "abc" {
				t.Fatalf("stored value changed through an alias: %q", v)
			}
		}},
		{"idle keys are purged and fresh ones kept", func(t *testing.T, b Backend, open func(*testing.T, store.Options) store.Store) {
			clock := NewFakeClock()
			ttl, wait1, wait2 := time.Hour, 40*time.Minute, 30*time.Minute
			advance := clock.Advance
			if b.RealClock {
				ttl, wait1, wait2 = 2*time.Second, 1900*time.Millisecond, 300*time.Millisecond // a second and more to spare for the fresh key on a busy machine
				advance = time.Sleep
			}
			s := open(t, store.Options{IdleTTL: ttl, Now: clock.Now})
			Put(t, s, "idle", []byte("old"))
			advance(wait1)
			Put(t, s, "fresh", []byte("new"))
			advance(wait2) // idle: wait1+wait2 > ttl; fresh: wait2 < ttl
			if v := MustGet(t, s, "idle"); v != nil {
				t.Fatalf("idle key still reads %q after %v without update (IdleTTL %v)", v, wait1+wait2, ttl)
			}
			n, err := s.Purge(ctx, clock.Now().Add(-ttl))
			if err != nil {
				t.Fatal(err)
			}
			want := 1
			if b.RealClock {
				want = 0 // the server already expired it
			}
			if n != want {
				t.Fatalf("Purge removed %d keys, want %d", n, want)
			}
			if v := MustGet(t, s, "fresh"); string(v) != "new" {
				t.Fatalf("fresh key = %q after purge, want %q", v, "new")
			}
			if v := MustGet(t, s, "idle"); v != nil {
				t.Fatalf("idle key = %q after purge, want nil", v)
			}
		}},
		{"operations after close fail with store.ErrClosed", func(t *testing.T, _ Backend, open func(*testing.T, store.Options) store.Store) {
			s := open(t, store.Options{})
			Put(t, s, "k", []byte("v"))
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatalf("second Close = %v, want nil", err)
			}
			if _, err := s.Get(ctx, "k"); !errors.Is(err, store.ErrClosed) {
				t.Errorf("Get after Close = %v, want store.ErrClosed", err)
			}
			if err := s.Update(ctx, "k", func(b []byte) ([]byte, error) { return b, nil }); !errors.Is(err, store.ErrClosed) {
				t.Errorf("Update after Close = %v, want store.ErrClosed", err)
			}
			if err := s.Delete(ctx, "k"); !errors.Is(err, store.ErrClosed) {
				t.Errorf("Delete after Close = %v, want store.ErrClosed", err)
			}
			if _, err := s.Purge(ctx, time.Now()); !errors.Is(err, store.ErrClosed) {
				t.Errorf("Purge after Close = %v, want store.ErrClosed", err)
			}
		}},
		{"invalid keys are rejected", func(t *testing.T, _ Backend, open func(*testing.T, store.Options) store.Store) {
			s := open(t, store.Options{})
			for _, key := range []string{"", strings.Repeat("k", store.MaxKeyLen+1)} {
				if err := s.Update(ctx, key, func(b []byte) ([]byte, error) { return []byte("v"), nil }); !errors.Is(err, store.ErrInvalidKey) {
					t.Errorf("Update(len %d) = %v, want store.ErrInvalidKey", len(key), err)
				}
				if _, err := s.Get(ctx, key); !errors.Is(err, store.ErrInvalidKey) {
					t.Errorf("Get(len %d) = %v, want store.ErrInvalidKey", len(key), err)
				}
			}
			Put(t, s, strings.Repeat("k", store.MaxKeyLen), []byte("longest key is fine"))
		}},
		{"cancelled context writes nothing", func(t *testing.T, _ Backend, open func(*testing.T, store.Options) store.Store) {
			s := open(t, store.Options{})
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			err := s.Update(cctx, "k", func([]byte) ([]byte, error) { return []byte("v"), nil })
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Update with cancelled ctx = %v, want context.Canceled", err)
			}
			if v := MustGet(t, s, "k"); v != nil {
				t.Fatalf("cancelled Update wrote %q", v)
			}
		}},
		{"concurrent updates from goroutines are all kept", func(t *testing.T, _ Backend, open func(*testing.T, store.Options) store.Store) {
			s := open(t, store.Options{LockTimeout: 30 * time.Second})
			const workers, each = 8, 25
			var wg sync.WaitGroup
			errs := make(chan error, workers)
			for range workers {
				wg.Go(func() {
					for range each {
						if err := s.Update(ctx, "n", Incr); err != nil {
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
			if v := MustGet(t, s, "n"); string(v) != strconv.Itoa(workers*each) {
				t.Fatalf("counter = %q, want %d", v, workers*each)
			}
		}},
	}
	open := b.Setup(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t, b, open) })
	}
	t.Run("a panicking fn propagates and leaves the store usable", func(t *testing.T) { fnPanicReleasesTheStore(t, open) })
}

// Incr treats the value as a decimal counter and adds one.
func Incr(old []byte) ([]byte, error) {
	n := 0
	if old != nil {
		var err error
		if n, err = strconv.Atoi(string(old)); err != nil {
			return nil, err
		}
	}
	return []byte(strconv.Itoa(n + 1)), nil
}

// fnPanicReleasesTheStore checks that a panicking fn propagates its panic and leaves the
// Store usable, with nothing written.
func fnPanicReleasesTheStore(t *testing.T, open func(*testing.T, store.Options) store.Store) {
	s := open(t, store.Options{LockTimeout: time.Second})
	Put(t, s, "k", []byte("before"))
	func() {
		defer func() {
			if r := recover(); r != "fn exploded" {
				t.Fatalf("recovered %v, want the fn's panic value", r)
			}
		}()
		_ = s.Update(context.Background(), "k", func([]byte) ([]byte, error) { panic("fn exploded") })
	}()
	if v := MustGet(t, s, "k"); !bytes.Equal(v, []byte("before")) {
		t.Fatalf("after panicking fn Get = %q, want %q", v, "before")
	}
	Put(t, s, "k", []byte("after"))
}
