package redisstore

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/store"
	"github.com/loopguard/loopguard/internal/store/storetest"
	"github.com/loopguard/loopguard/internal/testenv"
)

// fallbackFixture is a Fallback store over a real Redis URL with an embedded (bolt) store as
// its local one, counting how often the local store was opened and what was warned.
type fallbackFixture struct {
	st        store.Store
	localPath string
	opened    int
	warnings  []error
	clock     *storetest.FakeClock
}

func newFallback(t *testing.T, redisURL string) *fallbackFixture {
	t.Helper()
	f := &fallbackFixture{localPath: filepath.Join(t.TempDir(), "state.db"), clock: storetest.NewFakeClock()}
	primary := storetest.MustOpen(t, redisURL, store.Options{})
	f.st = store.Fallback(primary, func() (store.Store, error) {
		f.opened++
		return store.Open(context.Background(), "bolt://"+f.localPath, store.Options{})
	}, store.FallbackOptions{
		RetryPrimary: time.Minute,
		Warn:         func(err error) { f.warnings = append(f.warnings, err) },
		Now:          f.clock.Now,
	})
	t.Cleanup(func() { f.st.Close() })
	return f
}

func (f *fallbackFixture) incr(t *testing.T, key string) {
	t.Helper()
	if err := f.st.Update(context.Background(), key, storetest.Incr); err != nil {
		t.Fatalf("update %s: %v", key, err)
	}
}

// count reads key straight from the store at url (redis or bolt), not through the fallback.
func count(t *testing.T, url, key string) string {
	t.Helper()
	st := storetest.MustOpen(t, url, store.Options{})
	defer st.Close()
	return string(storetest.MustGet(t, st, key))
}

func TestFallbackStore(t *testing.T) {
	ctx := context.Background()

	t.Run("a reachable primary serves every call and the local store is never opened", func(t *testing.T) {
		srv := startRedis(t)
		f := newFallback(t, srv.url)
		for i := 0; i < 3; i++ {
			f.incr(t, "k")
		}
		if got := count(t, srv.url, "k"); got != "3" {
			t.Errorf("redis holds %q, want 3", got)
		}
		if f.opened != 0 || len(f.warnings) != 0 {
			t.Errorf("local store opened %d times, %d warnings; want none", f.opened, len(f.warnings))
		}
	})

	t.Run("an unreachable primary sends the calls to the local store with one warning", func(t *testing.T) {
		f := newFallback(t, "redis://127.0.0.1:1/0")
		for i := 0; i < 3; i++ {
			f.incr(t, "k")
		}
		if f.opened != 1 || len(f.warnings) != 1 {
			t.Fatalf("local store opened %d times, %d warnings; want 1 and 1", f.opened, len(f.warnings))
		}
		if !errors.Is(f.warnings[0], store.ErrUnavailable) {
			t.Errorf("warning %v does not say the primary is unavailable", f.warnings[0])
		}
		f.st.Close() // bolt allows one opener at a time
		if got := count(t, "bolt://"+f.localPath, "k"); got != "3" {
			t.Errorf("the local store holds %q, want 3", got)
		}
	})

	t.Run("the primary is tried again after RetryPrimary and used once it is back", func(t *testing.T) {
		srv := testenv.StartRedis(t)
		f := newFallback(t, srv.URL)
		f.incr(t, "k") // redis: 1
		srv.Stop()
		f.incr(t, "k") // local: 1
		srv.Restart()
		f.incr(t, "k") // still local within RetryPrimary: 2
		if v, err := f.st.Get(ctx, "k"); err != nil || string(v) != "2" {
			t.Errorf("within RetryPrimary: Get = %q, %v; want the local store's 2", v, err)
		}
		f.clock.Advance(time.Minute)
		f.incr(t, "k") // redis again, emptied by the restart: 1
		if got := count(t, srv.URL, "k"); got != "1" {
			t.Errorf("redis holds %q after it came back, want 1", got)
		}
		if f.opened != 1 || len(f.warnings) != 1 {
			t.Errorf("local store opened %d times, %d warnings; want 1 and 1", f.opened, len(f.warnings))
		}
		srv.Stop()
		f.incr(t, "k") // down again: the local store, opened before, goes on from 2
		if len(f.warnings) != 2 {
			t.Errorf("%d warnings after the second outage, want 2", len(f.warnings))
		}
		if v, err := f.st.Get(ctx, "k"); err != nil || string(v) != "3" {
			t.Errorf("second outage: Get = %q, %v; want the local store's 3", v, err)
		}
	})

	t.Run("an error of the update function is returned as it is, without falling back", func(t *testing.T) {
		boom := errors.New("boom")
		f := newFallback(t, startRedis(t).url)
		err := f.st.Update(ctx, "k", func([]byte) ([]byte, error) { return nil, boom })
		if !errors.Is(err, boom) || f.opened != 0 {
			t.Errorf("Update = %v, local opened %d times; want boom and no fallback", err, f.opened)
		}
	})

	t.Run("after Close every call says so", func(t *testing.T) {
		f := newFallback(t, "redis://127.0.0.1:1/0")
		f.incr(t, "k")
		if err := f.st.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := f.st.Get(ctx, "k"); !errors.Is(err, store.ErrClosed) {
			t.Errorf("Get after Close = %v, want ErrClosed", err)
		}
		if err := f.st.Close(); err != nil {
			t.Errorf("second Close = %v", err)
		}
	})
}
