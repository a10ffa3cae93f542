package store_test

import (
	"context"
	"github.com/loopguard/loopguard/internal/store"
	"github.com/loopguard/loopguard/internal/store/storetest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A disposable store replaces a damaged file instead of failing every later call; the
// damaged file is kept beside it. (That a store that is not disposable reports the damage is
// tested in bolt_test.go.)
func TestDisposableStoreMovesADamagedFileAside(t *testing.T) {
	damages := map[string]func(path string) error{
		"garbage": func(p string) error { return os.WriteFile(p, []byte(strings.Repeat("not a database ", 2000)), 0o600) },
		"truncated": func(p string) error {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(p, b[:len(b)/3], 0o600)
		},
	}
	for name, damage := range damages {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "state.db")
			st := storetest.MustOpen(t, path, store.Options{Disposable: true})
			defer st.Close()
			if err := st.Update(ctx, "k", func([]byte) ([]byte, error) { return []byte("v1"), nil }); err != nil {
				t.Fatal(err)
			}
			if err := damage(path); err != nil {
				t.Fatal(err)
			}

			if err := st.Update(ctx, "k", func(old []byte) ([]byte, error) {
				if old != nil {
					t.Errorf("old value %q survived the damage", old)
				}
				return []byte("v2"), nil
			}); err != nil {
				t.Fatalf("disposable store after damage: %v", err)
			}
			if v, err := st.Get(ctx, "k"); err != nil || string(v) != "v2" {
				t.Errorf("Get = %q, %v", v, err)
			}
			aside, _ := filepath.Glob(path + ".damaged-*")
			if len(aside) != 1 {
				t.Errorf("damaged files kept: %v", aside)
			}
		})
	}
}
