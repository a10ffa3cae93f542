package replay

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/loopguard/loopguard"
)

// benchEvents generates events with bench/genevents (the same stream bench/replay.sh uses).
func benchEvents(b *testing.B, n string) []byte {
	b.Helper()
	out, err := exec.Command("go", "run", filepath.Join("..", "..", "bench", "genevents"), "-n", n).Output()
	if err != nil {
		b.Fatalf("genevents: %v", err)
	}
	return out
}

// BenchmarkReplay measures `loopguard replay` without process start or I/O: parse every line,
// run the default preset, encode the outputs. Reported per event.
func BenchmarkReplay(b *testing.B) {
	data := benchEvents(b, "100000")
	lines := bytes.Count(data, []byte("\n"))
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		eng, _ := loopguard.New(cfg)
		if _, err := Run(bytes.NewReader(data), io.Discard, eng, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lines), "ns/event")
}

// BenchmarkParse is the parser alone.
func BenchmarkParse(b *testing.B) {
	data := benchEvents(b, "100000")
	lines := bytes.Split(data, []byte("\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	var ev loopguard.Event
	for i := 0; i < b.N; i++ {
		p := NewParser()
		for _, l := range lines {
			if _, err := p.Parse(l, &ev); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(lines)), "ns/event")
}

var _ = os.Stderr
