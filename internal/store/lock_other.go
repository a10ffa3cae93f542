//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly || windows)

package store

import (
	"fmt"
	"os"
	"runtime"
)

// tryLock fails: the embedded store needs an inter-process file lock, which
// this package implements only for Unix-like systems and Windows.
func tryLock(*os.File) (bool, error) {
	return false, fmt.Errorf("file locking is not implemented on %s", runtime.GOOS)
}

func unlock(*os.File) error { return nil }

func syncDir(string) error { return nil }
