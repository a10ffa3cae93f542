package store_test

import (
	"path/filepath"
	"testing"

	"github.com/loopguard/loopguard/internal/store"
	"github.com/loopguard/loopguard/internal/store/storetest"
)

// TestContract runs the behaviour every Store must have against the two backends of this
// package; Redis runs the same in redisstore.
func TestContract(t *testing.T) {
	for _, b := range []storetest.Backend{
		{
			Name: "memory",
			Setup: func(*testing.T) func(*testing.T, store.Options) store.Store {
				return func(t *testing.T, opts store.Options) store.Store { return storetest.MustOpen(t, "memory", opts) }
			},
		},
		{
			Name: "bolt",
			Setup: func(*testing.T) func(*testing.T, store.Options) store.Store {
				return func(t *testing.T, opts store.Options) store.Store {
					return storetest.MustOpen(t, "bolt://"+filepath.ToSlash(filepath.Join(t.TempDir(), "state.db")), opts)
				}
			},
		},
	} {
		t.Run(b.Name, func(t *testing.T) { storetest.Contract(t, b) })
	}
}
