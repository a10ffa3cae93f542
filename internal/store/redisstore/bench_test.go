package redisstore

import (
	"context"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/store"
	"github.com/loopguard/loopguard/internal/store/storetest"
)

// BenchmarkRedisUpdate measures Update of a ~2 KB value against a local
// redis-server: on an open Store (pooled connection), and as a whole hook
// cycle (Open, which dials on first use, Update, Close).
func BenchmarkRedisUpdate(b *testing.B) {
	srv := startRedis(b)
	ctx := context.Background()
	b.Run("open-store", func(b *testing.B) {
		s := mustOpen(b, srv.url, store.Options{})
		var durs []time.Duration
		for b.Loop() {
			start := time.Now()
			if err := s.Update(ctx, "agent", storetest.HookValue); err != nil {
				b.Fatal(err)
			}
			durs = append(durs, time.Since(start))
		}
		storetest.ReportPercentiles(b, durs)
	})
	b.Run("hook-cycle", func(b *testing.B) {
		var durs []time.Duration
		for b.Loop() {
			start := time.Now()
			s, err := store.Open(ctx, srv.url, store.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if err := s.Update(ctx, "agent", storetest.HookValue); err != nil {
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
