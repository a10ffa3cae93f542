package testenv

import (
	"bytes"
	"compress/gzip"
	"testing"
)

// Gzip returns data gzip-compressed, for tests of readers that take compressed transcripts.
func Gzip(tb testing.TB, data []byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		tb.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
