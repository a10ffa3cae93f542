package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenPicksTheBackendFromTheURL(t *testing.T) {
	state := t.TempDir()
	home := t.TempDir()
	cwd := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("HOME", home)
	t.Chdir(cwd)
	defaultDB := filepath.Join(state, "loopguard", "state.db")
	cases := []struct {
		url      string
		wantPath string // embedded store at this path
		wantMem  bool
	}{
		{url: "", wantPath: defaultDB},
		{url: "bolt", wantPath: defaultDB},
		{url: "bolt://" + filepath.ToSlash(filepath.Join(state, "x", "a.db")), wantPath: filepath.Join(state, "x", "a.db")},
		{url: filepath.Join(state, "plain.db"), wantPath: filepath.Join(state, "plain.db")},
		{url: filepath.Join("rel", "r.db"), wantPath: filepath.Join(cwd, "rel", "r.db")},
		{url: "~/t.db", wantPath: filepath.Join(home, "t.db")},
		{url: "memory", wantMem: true},
	}
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			s := mustOpen(t, c.url, Options{})
			switch st := s.(type) {
			case *boltStore:
				if st.path != c.wantPath {
					t.Fatalf("embedded store at %s, want %s", st.path, c.wantPath)
				}
				if fi, err := os.Stat(filepath.Dir(st.path)); err != nil || !fi.IsDir() {
					t.Fatalf("Open did not create the directory of %s: %v", st.path, err)
				}
			case *memoryStore:
				if !c.wantMem {
					t.Fatal("got the memory store")
				}
				return
			default:
				t.Fatalf("unexpected store type %T", s)
			}
			if c.wantMem {
				t.Fatalf("got %T, want the memory store", s)
			}
		})
	}
}

func TestOpenRejectsBadURLsAndNamesThemWithoutSecrets(t *testing.T) {
	cases := []struct{ url, wantInErr string }{
		{"bolt://somehost/x.db", "bolt://somehost/x.db"},
		{"bolt:relative.db", "bolt:relative.db"},
		{"ftp://example.invalid/x", "ftp://example.invalid/x"},
		{"postgres://admin:hunter2@db.invalid/x", "postgres://xxxxx@db.invalid/x"},
		// Redis is not linked into this package's tests: the error says so, without the password.
		{"redis://admin:hunter2@example.invalid:6379/0", "redis://xxxxx@example.invalid:6379/0"},
	}
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			s, err := Open(context.Background(), c.url, Options{})
			if err == nil {
				s.Close()
				t.Fatalf("Open(%q) succeeded", c.url)
			}
			if !strings.Contains(err.Error(), c.wantInErr) {
				t.Errorf("error %q does not name %q", err, c.wantInErr)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error %q leaks the password", err)
			}
		})
	}
}

func TestDefaultPath(t *testing.T) {
	home := t.TempDir()
	cases := []struct{ xdg, want string }{
		{"/var/state", filepath.Join("/var/state", "loopguard", "state.db")},
		{"", filepath.Join(home, ".local", "state", "loopguard", "state.db")},
		{"relative/ignored", filepath.Join(home, ".local", "state", "loopguard", "state.db")},
	}
	for _, c := range cases {
		t.Run(c.xdg, func(t *testing.T) {
			t.Setenv("HOME", home)
			t.Setenv("XDG_STATE_HOME", c.xdg)
			got, err := DefaultPath()
			if err != nil || got != c.want {
				t.Fatalf("DefaultPath() = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestOpenCreatesAPrivateStateDirectory(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	mustOpen(t, "", Options{})
	fi, err := os.Stat(filepath.Join(state, "loopguard"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Fatalf("state directory mode %v, want 0700", fi.Mode().Perm())
	}
}

func TestOpenErrorNamesThePath(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(blocker, "sub", "state.db") // a directory cannot be made under a file
	_, err := Open(context.Background(), path, Options{})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Open(%q) = %v, want an error naming the path", path, err)
	}
}

func TestARemoteStoreNotLinkedIsNamedAsSuch(t *testing.T) {
	cases := []struct {
		url    string
		linked bool
	}{
		{"", true},
		{"memory", true},
		{"bolt:///tmp/x.db", true},
		{"relative/x.db", true},
		{"redis://127.0.0.1:6379/0", false},
		{"rediss://cache.invalid:6380/0", false},
		{"redis+cluster://127.0.0.1:7000", false},
		{"ftp://example.invalid/x", true}, // not a backend at all: Open's own error, not ErrNotLinked
	}
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			if got := Linked(c.url); got != c.linked {
				t.Fatalf("Linked(%q) = %v, want %v", c.url, got, c.linked)
			}
			if c.linked {
				return
			}
			_, err := Open(context.Background(), c.url, Options{})
			if !errors.Is(err, ErrNotLinked) || !strings.Contains(err.Error(), "redisstore") {
				t.Fatalf("Open(%q) = %v, want ErrNotLinked naming the package", c.url, err)
			}
		})
	}
}
