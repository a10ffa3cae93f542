package transcript

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkReadAll reads the whole shared set of real transcripts; the throughput is in
// uncompressed bytes.
func BenchmarkReadAll(b *testing.B) {
	dir := sharedDir(b)
	var files []string
	var size int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".gz") {
			return err
		}
		files = append(files, p)
		size += int64(len(gunzip(b, p)))
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, p := range files {
			if _, err := Read(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}
