package storetest

import (
	"slices"
	"testing"
	"time"
)

// ReportPercentiles adds the median and 95th percentile of the per-iteration
// durations to a benchmark's output (ns/op alone is a mean, and hook budgets
// are stated as medians).
func ReportPercentiles(b *testing.B, durs []time.Duration) {
	if len(durs) == 0 {
		return
	}
	slices.Sort(durs)
	b.ReportMetric(float64(durs[len(durs)/2].Microseconds()), "p50-us")
	b.ReportMetric(float64(durs[len(durs)*95/100].Microseconds()), "p95-us")
}

// HookValue is a stand-in engine snapshot of about 2 KB.
func HookValue(old []byte) ([]byte, error) {
	v := make([]byte, 2048)
	copy(v, old)
	v[0]++
	return v, nil
}
