package store

import (
	"context"
	"testing"
)

// mustOpen is storetest.MustOpen for the tests inside the package, which cannot import
// storetest (it imports this package).
func mustOpen(tb testing.TB, url string, opts Options) Store {
	tb.Helper()
	s, err := Open(context.Background(), url, opts)
	if err != nil {
		tb.Fatalf("Open(%q): %v", url, err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s
}
