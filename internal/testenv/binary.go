package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	buildMu  sync.Mutex
	buildDir string
	built    = map[string]string{} // command name -> path
)

// LoopguardBinary builds cmd/loopguard once per test binary and returns its path: hooks run
// as separate processes, and what tests check of them (failing open, no lost update, what
// the real agent CLIs see) is about processes. Call Cleanup from TestMain to remove it.
func LoopguardBinary(tb testing.TB) string { return Command(tb, "loopguard") }

// Command builds cmd/NAME of this module once per test binary and returns its path.
func Command(tb testing.TB, name string) string {
	tb.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if p, ok := built[name]; ok {
		return p
	}
	if buildDir == "" {
		dir, err := os.MkdirTemp("", "loopguard-bin-")
		if err != nil {
			tb.Fatal(err)
		}
		buildDir = dir
	}
	p := filepath.Join(buildDir, name)
	out, err := exec.Command("go", "build", "-o", p, "github.com/loopguard/loopguard/cmd/"+name).CombinedOutput()
	if err != nil {
		tb.Fatal(fmt.Errorf("go build cmd/%s: %v\n%s", name, err, out))
	}
	built[name] = p
	return p
}

// Cleanup removes what Command built.
func Cleanup() {
	buildMu.Lock()
	defer buildMu.Unlock()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
}
