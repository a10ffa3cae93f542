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
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// LoopguardBinary builds cmd/loopguard once per test binary and returns its path: hooks run
// as separate processes, and what tests check of them (failing open, no lost update, what
// the real agent CLIs see) is about processes. Call Cleanup from TestMain to remove it.
func LoopguardBinary(tb testing.TB) string {
	tb.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "loopguard-bin-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "loopguard")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/loopguard/loopguard/cmd/loopguard").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		tb.Fatal(binErr)
	}
	return binPath
}

// Cleanup removes what LoopguardBinary built.
func Cleanup() {
	if binDir != "" {
		os.RemoveAll(binDir)
	}
}
