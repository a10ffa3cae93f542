package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// BackupSuffix starts the name of the copy of a file kept before loopguard
// changes it: FILE.loopguard-backup-20260102T150405Z (UTC; "-2", "-3"... when
// that name is taken). Backups are never removed by loopguard.
const BackupSuffix = ".loopguard-backup-"

// readTarget reads the file a setting lives in. A symbolic link is followed,
// so that the file it points to is the one edited (and the link stays).
// exists is false when there is no file yet.
func readTarget(path string) (real string, data []byte, perm fs.FileMode, exists bool, err error) {
	real = path
	if r, err := filepath.EvalSymlinks(path); err == nil {
		real = r
	}
	st, err := os.Stat(real)
	if errors.Is(err, fs.ErrNotExist) {
		return real, nil, 0, false, nil
	}
	if err != nil {
		return real, nil, 0, false, err
	}
	if !st.Mode().IsRegular() {
		return real, nil, 0, false, fmt.Errorf("%s is not a regular file", real)
	}
	data, err = os.ReadFile(real)
	return real, data, st.Mode().Perm(), true, err
}

// backupName returns a name for a backup of path that is not taken yet.
func backupName(path string, now time.Time) string {
	base := path + BackupSuffix + now.UTC().Format("20060102T150405Z")
	name := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name
		}
		name = base + "-" + strconv.Itoa(i)
	}
}

// writeAtomic replaces path with data: a temporary file in the same directory
// is written, synced and renamed over it, and the directory synced, so that
// path holds either the old content or the new, never part of it. old is what
// the file held when the change was planned (nil: it did not exist); if it
// holds something else now, nothing is written.
func writeAtomic(path string, data []byte, perm fs.FileMode, old []byte, existed bool) error {
	dir := filepath.Dir(path)
	cur, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if existed {
			return fmt.Errorf("%s was removed since loopguard read it; nothing written, run again", path)
		}
	case err != nil:
		return err
	case !existed || !bytes.Equal(cur, old):
		return fmt.Errorf("%s changed since loopguard read it; nothing written, run again", path)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".loopguard-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	syncDir(dir)
	return nil
}

// writeBackup copies data to a new file next to path and returns its name.
func writeBackup(path string, data []byte, perm fs.FileMode, now time.Time) (string, error) {
	name := backupName(path, now)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(name)
		return "", err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(name)
		return "", err
	}
	if err := f.Close(); err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync() // best effort: not every file system can
		d.Close()
	}
}
