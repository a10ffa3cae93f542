package store

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// reportPercentiles adds the median and 95th percentile of the per-iteration
// durations to a benchmark's output (ns/op alone is a mean, and hook budgets
// are stated as medians).
func reportPercentiles(b *testing.B, durs []time.Duration) {
	if len(durs) == 0 {
		return
	}
	slices.Sort(durs)
	b.ReportMetric(float64(durs[len(durs)/2].Microseconds()), "p50-us")
	b.ReportMetric(float64(durs[len(durs)*95/100].Microseconds()), "p95-us")
}

// hookValue is a stand-in engine snapshot of about 2 KB.
func hookValue(old []byte) ([]byte, error) {
	v := make([]byte, 2048)
	copy(v, old)
	v[0]++
	return v, nil
}

// BenchmarkBoltHookCycle measures what one hook invocation pays for state:
// Open, one Update of a ~2 KB value, Close.
//
//   - existing-db: a database already holding 20 sessions;
//   - first-use: the directory and file do not exist yet;
//   - existing-db-nosync: as existing-db without fsync, to show what
//     durability costs (not a setting the package offers).
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
				s := mustOpen(b, path, Options{})
				for i := range 20 {
					if err := s.Update(ctx, "session-"+strconv.Itoa(i), hookValue); err != nil {
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
				s, err := Open(ctx, p, Options{})
				if err != nil {
					b.Fatal(err)
				}
				s.(*boltStore).noSync = c.noSync
				if err := s.Update(ctx, "session-7", hookValue); err != nil {
					b.Fatal(err)
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
				durs = append(durs, time.Since(start))
			}
			reportPercentiles(b, durs)
		})
	}
}

// BenchmarkRedisUpdate measures Update of a ~2 KB value against a local
// redis-server: on an open Store (pooled connection), and as a whole hook
// cycle (Open, which dials on first use, Update, Close).
func BenchmarkRedisUpdate(b *testing.B) {
	srv := startRedis(b)
	ctx := context.Background()
	b.Run("open-store", func(b *testing.B) {
		s := mustOpen(b, srv.url, Options{})
		var durs []time.Duration
		for b.Loop() {
			start := time.Now()
			if err := s.Update(ctx, "agent", hookValue); err != nil {
				b.Fatal(err)
			}
			durs = append(durs, time.Since(start))
		}
		reportPercentiles(b, durs)
	})
	b.Run("hook-cycle", func(b *testing.B) {
		var durs []time.Duration
		for b.Loop() {
			start := time.Now()
			s, err := Open(ctx, srv.url, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if err := s.Update(ctx, "agent", hookValue); err != nil {
				b.Fatal(err)
			}
			if err := s.Close(); err != nil {
				b.Fatal(err)
			}
			durs = append(durs, time.Since(start))
		}
		reportPercentiles(b, durs)
	})
}
