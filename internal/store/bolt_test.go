package store_test

import (
	"context"
	"errors"
	"github.com/loopguard/loopguard/internal/store"
	"github.com/loopguard/loopguard/internal/store/storetest"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func boltURL(path string) string { return "bolt://" + filepath.ToSlash(path) }

// rawKeys lists the keys physically present in the records bucket, expired
// or not, read with bbolt directly.
func rawKeys(t *testing.T, path string) []string {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var keys []string
	err = db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(store.BucketRecords)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error {
			keys = append(keys, string(k))
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

func TestBoltSweepsIdleRecordsAtMostHourly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	clock := storetest.NewFakeClock()
	s := storetest.MustOpen(t, boltURL(path), store.Options{IdleTTL: 2 * time.Hour, Now: clock.Now})
	steps := []struct {
		advance time.Duration
		key     string
		want    string // keys physically present afterwards
	}{
		{0, "a", "a"},                    // first write: sweep runs, stamps t0
		{90 * time.Minute, "b", "a b"},   // sweep due; a is 1h30 idle < 2h: kept
		{40 * time.Minute, "c", "a b c"}, // a is 2h10 idle, but last sweep was 40m ago
		{21 * time.Minute, "c", "b c"},   // 61m since last sweep: a (2h31 idle) swept, b (1h01) kept
	}
	for i, st := range steps {
		clock.Advance(st.advance)
		storetest.Put(t, s, st.key, []byte("v"))
		if got := strings.Join(rawKeys(t, path), " "); got != st.want {
			t.Fatalf("step %d: records in file = %q, want %q", i, got, st.want)
		}
	}
}

func TestBoltNegativeIdleTTLNeverExpires(t *testing.T) {
	clock := storetest.NewFakeClock()
	path := filepath.Join(t.TempDir(), "state.db")
	s := storetest.MustOpen(t, boltURL(path), store.Options{IdleTTL: -1, Now: clock.Now})
	storetest.Put(t, s, "old", []byte("v"))
	clock.Advance(10 * 365 * 24 * time.Hour)
	storetest.Put(t, s, "new", []byte("w"))
	if v := storetest.MustGet(t, s, "old"); string(v) != "v" {
		t.Fatalf("with IdleTTL<0 a 10-year-old key reads %q, want %q", v, "v")
	}
	if got := strings.Join(rawKeys(t, path), " "); got != "new old" {
		t.Fatalf("records = %q, want both kept", got)
	}
}

// holdLock takes the store's lock file as another process would.
func holdLock(t *testing.T, path string) (release func()) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := store.TryLock(f); !ok || err != nil {
		t.Fatalf("tryLock = %v, %v", ok, err)
	}
	var once sync.Once
	release = func() { once.Do(func() { _ = f.Close() }) }
	t.Cleanup(release)
	return release
}

func TestBoltLockTimeoutIsUnavailableAndNamesThePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s := storetest.MustOpen(t, boltURL(path), store.Options{LockTimeout: 150 * time.Millisecond})
	storetest.Put(t, s, "k", []byte("before"))
	release := holdLock(t, path)
	start := time.Now()
	err := s.Update(context.Background(), "k", func([]byte) ([]byte, error) { return []byte("after"), nil })
	waited := time.Since(start)
	if !errors.Is(err, store.ErrUnavailable) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Update while locked = %v, want store.ErrUnavailable naming %s", err, path)
	}
	// The wait is bounded by the option, not by the default: under a loaded machine's
	// scheduling a 150 ms wait has taken 1.3 s, so the bound is the default's 2 s, which a
	// store that ignored the option would wait at least.
	if waited < 150*time.Millisecond || waited >= store.DefaultLockTimeout {
		t.Fatalf("gave up after %v, want the 150ms LockTimeout, well before the default %v", waited, store.DefaultLockTimeout)
	}
	release()
	if v := storetest.MustGet(t, s, "k"); string(v) != "before" {
		t.Fatalf("timed-out Update wrote: %q", v)
	}
}

func TestBoltLockWaitHonoursContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s := storetest.MustOpen(t, boltURL(path), store.Options{LockTimeout: 10 * time.Second})
	holdLock(t, path)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := s.Get(ctx, "k")
	// A store that ignored the context would wait out the 10 s LockTimeout and answer
	// ErrUnavailable; the bound on the time is loose, for a loaded machine's scheduling.
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("Get = %v after %v, want context.DeadlineExceeded after ~50ms", err, time.Since(start))
	}
}

// TestBoltLockIsHandedOverQuickly checks that a waiter gets the lock soon
// after it is released rather than on a coarse polling tick (bbolt's own lock
// polls every 50 ms). It times read-only Gets, which do not fsync, and takes
// the median of several hand-overs to ride out scheduling noise.
func TestBoltLockIsHandedOverQuickly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s := storetest.MustOpen(t, boltURL(path), store.Options{})
	storetest.Put(t, s, "k", []byte("v")) // create the file beforehand
	var lags []time.Duration
	for range 7 {
		release := holdLock(t, path)
		released := make(chan time.Time, 1)
		go func() {
			time.Sleep(30 * time.Millisecond)
			at := time.Now()
			release()
			released <- at
		}()
		storetest.MustGet(t, s, "k")
		lags = append(lags, time.Since(<-released))
	}
	slices.Sort(lags)
	if median := lags[len(lags)/2]; median > 12*time.Millisecond {
		t.Fatalf("median hand-over %v (all: %v), want a few ms", median, lags)
	}
}

func TestBoltReadsAndDeletesDoNotCreateTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s := storetest.MustOpen(t, boltURL(path), store.Options{})
	ctx := context.Background()
	if v, err := s.Get(ctx, "k"); v != nil || err != nil {
		t.Fatalf("Get = %q, %v", v, err)
	}
	if err := s.Delete(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Purge(ctx, time.Now()); n != 0 || err != nil {
		t.Fatalf("Purge = %d, %v", n, err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("database file exists after reads only (stat: %v)", err)
	}
}

func TestBoltCreatesPrivateFilesAtomically(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "state")
	path := filepath.Join(dir, "state.db")
	s := storetest.MustOpen(t, boltURL(path), store.Options{})
	storetest.Put(t, s, "k", []byte("v"))
	for p, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, path: 0o600, path + ".lock": 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s has mode %v, want %v", p, fi.Mode(), want)
		}
	}
	if _, err := os.Stat(path + ".tmp"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary file left behind (stat: %v)", err)
	}
}

func TestBoltDamagedFileIsAnErrorNotACrash(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, path string)
	}{
		{"not a database", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte(strings.Repeat("definitely not bbolt ", 1000)), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"truncated database", func(t *testing.T, path string) {
			s := storetest.MustOpen(t, boltURL(path), store.Options{})
			for i := range 50 {
				storetest.Put(t, s, "k"+strconv.Itoa(i), []byte(strings.Repeat("x", 3000)))
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, fi.Size()/3); err != nil {
				t.Fatal(err)
			}
		}},
		{"garbage in data pages", func(t *testing.T, path string) {
			s := storetest.MustOpen(t, boltURL(path), store.Options{})
			for i := range 50 {
				storetest.Put(t, s, "k"+strconv.Itoa(i), []byte(strings.Repeat("x", 3000)))
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			for i := 2 * os.Getpagesize(); i < len(data); i++ { // keep both meta pages
				data[i] = byte(rng.Uint32())
			}
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.db")
			c.damage(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s := storetest.MustOpen(t, boltURL(path), store.Options{})
			ctx := context.Background()
			errU := s.Update(ctx, "k1", func([]byte) ([]byte, error) { return []byte("v"), nil })
			_, errG := s.Get(ctx, "k1")
			for _, err := range []error{errU, errG} {
				if err == nil || !strings.Contains(err.Error(), path) {
					t.Errorf("operation on damaged file = %v, want an error naming %s", err, path)
				}
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(before) != string(after) {
				t.Errorf("damaged file was modified")
			}
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			storetest.Put(t, s, "k1", []byte("fresh start")) // the same store.Store recovers once the file is gone
		})
	}
}

// TestBoltTwoHandlesOnOneFile uses two Stores on the same file from one
// process: their lock-file descriptors differ, so they exclude each other as
// two processes would.
func TestBoltTwoHandlesOnOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	stores := []store.Store{
		storetest.MustOpen(t, boltURL(path), store.Options{LockTimeout: 30 * time.Second}),
		storetest.MustOpen(t, boltURL(path), store.Options{LockTimeout: 30 * time.Second}),
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 20 {
				if err := stores[i%2].Update(context.Background(), "n", storetest.Incr); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if v := storetest.MustGet(t, stores[0], "n"); string(v) != "160" {
		t.Fatalf("counter = %q, want 160", v)
	}
}

// TestBoltForeignHolderIsUnavailable: a program that opens the file with
// bbolt directly (not using the lock file) holds bbolt's own lock.
func TestBoltForeignHolderIsUnavailable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s := storetest.MustOpen(t, boltURL(path), store.Options{LockTimeout: 200 * time.Millisecond})
	storetest.Put(t, s, "k", []byte("v"))
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = s.Update(context.Background(), "k", func([]byte) ([]byte, error) { return []byte("w"), nil })
	if !errors.Is(err, store.ErrUnavailable) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Update while a foreign program holds the file = %v, want store.ErrUnavailable naming %s", err, path)
	}
}
