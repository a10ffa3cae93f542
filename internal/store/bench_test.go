package store_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/store"
	"github.com/loopguard/loopguard/internal/store/storetest"
)

// BenchmarkBoltHookCycle measures what one hook invocation pays for state:
// Open, one Update of a ~2 KB value, Close.
//
//   - existing-db: a database already holding 20 sessions;
//   - first-use: the directory and file do not exist yet;
//   - existing-db-nosync: as existing-db without fsync (Options.Disposable, as
//     hooks open it), to show what durability costs.
func BenchmarkBoltHookCycle(b *testing.B) {
	ctx := context.Background()
	cases := []struct {
		name   string
		fresh  bool
		noSync bool
	}{
		{"existing-db", false, false},
		{"first-use", true, false},
		{"existing-db-nosync", false, true},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			path := filepath.Join(dir, "state.db")
			if !c.fresh {
				s := storetest.MustOpen(b, path, store.Options{})
				for i := range 20 {
					if err := s.Update(ctx, "session-"+strconv.Itoa(i), storetest.HookValue); err != nil {
						b.Fatal(err)
					}
				}
				_ = s.Close()
			}
			var durs []time.Duration
			for i := 0; b.Loop(); i++ {
				p := path
				if c.fresh {
					p = filepath.Join(dir, strconv.Itoa(i), "state.db")
				}
				start := time.Now()
				s, err := store.Open(ctx, p, store.Options{Disposable: c.noSync})
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Update(ctx, "session-7", storetest.HookValue); err != nil {
					b.Fatal(err)
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
				durs = append(durs, time.Since(start))
			}
			storetest.ReportPercentiles(b, durs)
		})
	}
}
