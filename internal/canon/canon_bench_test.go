package canon

import (
	"encoding/json"
	"hash/fnv"
	"testing"
)

// benchArgs is a realistic 294-byte tool-call argument object.
const benchArgs = `{"command":"grep -rn \"get_legend_data\" /testbed/seaborn --include=*.py","description":"Search for legend data usage in seaborn sources","timeout":120000,"run_in_background":false,"options":{"ignore_case":true,"context":[2,3],"paths":["/testbed/seaborn/_core","/testbed/seaborn/axisgrid.py"]}}`

var benchSink uint64

func BenchmarkFingerprint(b *testing.B) {
	args := []byte(benchArgs)
	b.SetBytes(int64(len(args)))
	b.ReportAllocs()
	for b.Loop() {
		benchSink = Fingerprint(args)
	}
}

func BenchmarkFingerprintString(b *testing.B) {
	b.SetBytes(int64(len(benchArgs)))
	b.ReportAllocs()
	for b.Loop() {
		benchSink = FingerprintString(benchArgs)
	}
}

func BenchmarkFingerprintRawText(b *testing.B) {
	args := []byte(`grep -rn "get_legend_data" /testbed/seaborn --include=*.py`)
	b.SetBytes(int64(len(args)))
	b.ReportAllocs()
	for b.Loop() {
		benchSink = Fingerprint(args)
	}
}

func BenchmarkCanonical(b *testing.B) {
	args := []byte(benchArgs)
	b.SetBytes(int64(len(args)))
	b.ReportAllocs()
	for b.Loop() {
		benchSink += uint64(len(Canonical(args)))
	}
}

// BenchmarkEncodingJSONAnchor is the straightforward alternative this
// package replaces: decode into any, re-marshal (encoding/json sorts map
// keys) and hash the result. It is not RFC 8785 exact (it rewrites numbers
// through float64 and escapes HTML), it only anchors the cost.
func BenchmarkEncodingJSONAnchor(b *testing.B) {
	args := []byte(benchArgs)
	b.SetBytes(int64(len(args)))
	b.ReportAllocs()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(args, &v); err != nil {
			b.Fatal(err)
		}
		out, err := json.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		h := fnv.New64a()
		h.Write(out)
		benchSink = h.Sum64()
	}
}
