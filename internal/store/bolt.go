package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Layout of the embedded database.
var (
	// bucketRecords maps a key to a record: the 8-byte big-endian Unix time
	// in nanoseconds of its last write, then the value itself.
	bucketRecords = []byte("records.v1")
	// bucketMeta holds bookkeeping: metaLastSweep is the 8-byte big-endian
	// Unix time in nanoseconds of the last idle-record sweep.
	bucketMeta    = []byte("meta")
	metaLastSweep = []byte("last_sweep")
)

const (
	recordHeaderLen = 8
	// sweepEvery is how often Update sweeps idle records out of the file.
	sweepEvery = time.Hour
	// Polling interval bounds while another process holds the lock file.
	lockPollMin = 100 * time.Microsecond
	lockPollMax = 2 * time.Millisecond
)

// openMode says what an operation needs from the database file.
type openMode int

const (
	// modeRead opens the file read-only; a missing file reads as empty.
	modeRead openMode = iota
	// modeWrite opens the file read-write; a missing file is left missing
	// and the operation does nothing (Delete, Purge).
	modeWrite
	// modeCreate opens the file read-write, creating it first if needed.
	modeCreate
)

// errMissing tells an operation that the database file does not exist yet.
var errMissing = errors.New("database file does not exist")

// boltStore is the embedded backend. See the package documentation for why it
// opens the database once per operation.
type boltStore struct {
	path string
	opts Options
	// sem serialises operations of this Store: the lock file's flock belongs
	// to the open file description, so it does not exclude other goroutines
	// using the same descriptor. It also guards closed and lockFile.
	sem      chan struct{}
	closed   bool
	lockFile *os.File
	// damaged remembers that bbolt panicked on the file identified by
	// damagedFile (see transact). Guarded by sem.
	damaged     error
	damagedFile os.FileInfo
	// noSync skips fsync on commit; only benchmarks set it, to measure what
	// durability costs.
	noSync bool
}

func openBolt(path string, opts Options) (*boltStore, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("store %s: create directory: %w", path, err)
	}
	lf, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store %s: open lock file: %w", path, err)
	}
	return &boltStore{path: path, opts: opts, sem: make(chan struct{}, 1), lockFile: lf}, nil
}

func (s *boltStore) Update(ctx context.Context, key string, fn func(old []byte) ([]byte, error)) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	var (
		fnErr       error
		fnPanicked  bool
		fnPanicWith any
	)
	err := s.do(ctx, modeCreate, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketRecords)
		if err != nil {
			return err
		}
		now := s.opts.Now()
		old, err := s.live(b.Get([]byte(key)), key, now)
		if err != nil {
			return err
		}
		// old is a private copy: bbolt's slice points into a read-only
		// mapping that fn must neither modify nor hand back to Put.
		next, err := callUser(fn, old, &fnPanicked, &fnPanicWith)
		if fnPanicked {
			return errUserPanic
		}
		if err != nil {
			fnErr = err
			return err
		}
		if next == nil {
			err = b.Delete([]byte(key))
		} else {
			err = b.Put([]byte(key), encodeRecord(now, next))
		}
		if err != nil {
			return err
		}
		return s.maybeSweep(tx, b, now)
	})
	if fnPanicked {
		panic(fnPanicWith)
	}
	if fnErr != nil {
		return fnErr
	}
	return err
}

var errUserPanic = errors.New("update function panicked")

// callUser runs fn, turning a panic into a flag so that the transaction is
// rolled back and the lock released before the panic is re-raised.
func callUser(fn func([]byte) ([]byte, error), old []byte, panicked *bool, with *any) (next []byte, err error) {
	*panicked = true
	defer func() {
		if *panicked {
			*with = recover()
		}
	}()
	next, err = fn(old)
	*panicked = false
	return next, err
}

func (s *boltStore) Get(ctx context.Context, key string) ([]byte, error) {
	if err := CheckKey(key); err != nil {
		return nil, err
	}
	var val []byte
	err := s.do(ctx, modeRead, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRecords)
		if b == nil {
			return nil
		}
		var err error
		val, err = s.live(b.Get([]byte(key)), key, s.opts.Now())
		return err
	})
	if err != nil {
		return nil, err
	}
	return val, nil
}

func (s *boltStore) Delete(ctx context.Context, key string) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	return s.do(ctx, modeWrite, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRecords)
		if b == nil {
			return nil
		}
		return b.Delete([]byte(key))
	})
}

func (s *boltStore) Purge(ctx context.Context, before time.Time) (int, error) {
	n := 0
	err := s.do(ctx, modeWrite, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRecords)
		if b == nil {
			return nil
		}
		var err error
		n, err = sweep(b, before)
		return err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

func (s *boltStore) Close() error {
	s.sem <- struct{}{}
	defer func() { <-s.sem }()
	if s.closed {
		return nil
	}
	s.closed = true
	if err := s.lockFile.Close(); err != nil {
		return fmt.Errorf("store %s: close lock file: %w", s.path, err)
	}
	return nil
}

// live decodes a raw record, returning a private copy of its value, or nil
// when the record is absent or idle past IdleTTL.
func (s *boltStore) live(raw []byte, key string, now time.Time) ([]byte, error) {
	if raw == nil {
		return nil, nil
	}
	updated, val, ok := decodeRecord(raw)
	if !ok {
		return nil, fmt.Errorf("record for key %q is malformed (%d bytes)", key, len(raw))
	}
	if s.opts.expired(updated, now) {
		return nil, nil
	}
	return clone(val), nil
}

// maybeSweep deletes idle records when the last sweep is more than sweepEvery
// ago (or in the future, after a clock step back).
func (s *boltStore) maybeSweep(tx *bolt.Tx, records *bolt.Bucket, now time.Time) error {
	if s.opts.IdleTTL <= 0 {
		return nil
	}
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	if raw := meta.Get(metaLastSweep); len(raw) == 8 {
		last := time.Unix(0, int64(binary.BigEndian.Uint64(raw)))
		if !now.Before(last) && now.Sub(last) < sweepEvery {
			return nil
		}
	}
	if _, err := sweep(records, now.Add(-s.opts.IdleTTL)); err != nil {
		return err
	}
	var stamp [8]byte
	binary.BigEndian.PutUint64(stamp[:], uint64(now.UnixNano()))
	return meta.Put(metaLastSweep, stamp[:])
}

// sweep deletes every well-formed record written before cutoff.
func sweep(b *bolt.Bucket, cutoff time.Time) (int, error) {
	var stale [][]byte
	err := b.ForEach(func(k, v []byte) error {
		if updated, _, ok := decodeRecord(v); ok && updated.Before(cutoff) {
			stale = append(stale, clone(k))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range stale {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(stale), nil
}

func encodeRecord(updated time.Time, val []byte) []byte {
	rec := make([]byte, recordHeaderLen+len(val))
	binary.BigEndian.PutUint64(rec, uint64(updated.UnixNano()))
	copy(rec[recordHeaderLen:], val)
	return rec
}

// decodeRecord splits a record; val aliases raw.
func decodeRecord(raw []byte) (updated time.Time, val []byte, ok bool) {
	if len(raw) < recordHeaderLen {
		return time.Time{}, nil, false
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(raw))), raw[recordHeaderLen:], true
}

// do runs fn in one transaction on a freshly opened database: it takes this
// Store's in-process slot and the cross-process lock file, opens the file,
// runs fn (read-only or read-write per mode) and closes everything again.
// When the file does not exist and mode is not modeCreate, fn is not called
// and do returns nil.
func (s *boltStore) do(ctx context.Context, mode openMode, fn func(*bolt.Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	// Waiting for this process's own earlier transactions is queueing, bounded by ctx (a
	// server's request, a hook's lifetime); LockTimeout bounds only the wait for another
	// process, which may have hung. A server under load would otherwise report its own queue
	// as "another process held the lock".
	if err := s.acquire(ctx); err != nil {
		return err
	}
	defer func() { <-s.sem }()
	if s.closed {
		return ErrClosed
	}
	deadline := time.Now().Add(s.opts.LockTimeout)
	if err := s.lockAcrossProcesses(ctx, deadline); err != nil {
		return err
	}
	defer func() {
		if uerr := unlock(s.lockFile); uerr != nil && err == nil {
			err = fmt.Errorf("store %s: release lock: %w", s.path, uerr)
		}
	}()

	err = s.transact(mode, deadline, fn)
	if err != nil && s.opts.Disposable && isDamage(err) {
		// The state may be thrown away: move the damaged file aside, keep it for a post
		// mortem, and carry on with a fresh one rather than fail every call from now on.
		aside := fmt.Sprintf("%s.damaged-%d", s.path, time.Now().UnixNano())
		if rerr := os.Rename(s.path, aside); rerr == nil {
			s.damaged, s.damagedFile = nil, nil
			if mode == modeRead {
				return nil // nothing stored any more
			}
			err = s.transact(modeCreate, deadline, fn)
		}
	}
	switch {
	case err == nil, errors.Is(err, errMissing):
		return nil
	case errors.Is(err, errUserPanic):
		return err
	case errors.Is(err, berrors.ErrTimeout):
		return &unavailableError{msg: fmt.Sprintf("store %s: database file is locked by a program that does not use %s.lock", s.path, filepath.Base(s.path))}
	default:
		return fmt.Errorf("store %s: %w", s.path, err)
	}
}

// transact opens the database, runs fn in a transaction and closes it. The
// caller holds the lock file.
func (s *boltStore) transact(mode openMode, deadline time.Time, fn func(*bolt.Tx) error) (err error) {
	fi, err := os.Stat(s.path)
	if errors.Is(err, os.ErrNotExist) {
		if mode != modeCreate {
			return errMissing
		}
		if err := s.create(deadline); err != nil {
			return err
		}
		fi, err = os.Stat(s.path)
	}
	if err != nil {
		return err
	}
	if s.damaged != nil && os.SameFile(fi, s.damagedFile) {
		return s.damaged
	}

	// bbolt reads the file through a memory mapping and panics on pages it
	// cannot make sense of. Turn such panics, and faults on a mapping of a
	// file someone truncated, into errors so a damaged file cannot crash a
	// hook. After such a panic bbolt's flock on the file stays held until
	// this process exits (the leaked mapping pins the open file), so the
	// damage is remembered: later operations on the same file fail at once
	// instead of waiting for a lock that will never be released.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w (remove it to start afresh): %v", errDamaged, r)
			s.damaged, s.damagedFile = err, fi
		}
	}()

	db, err := bolt.Open(s.path, 0o600, s.boltOptions(mode == modeRead, deadline))
	if err != nil {
		return err
	}
	checked := func(tx *bolt.Tx) error {
		// bbolt trusts the meta page's high-water mark; a file cut short
		// (a copy interrupted by a full disk, say) would make it read or
		// write pages past the end.
		if fi.Size() < tx.Size() {
			return fmt.Errorf("%w: truncated: %d bytes, its meta page needs %d", errDamaged, fi.Size(), tx.Size())
		}
		return fn(tx)
	}
	if mode == modeRead {
		err = db.View(checked)
	} else {
		err = db.Update(checked)
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

// create builds an empty database under a temporary name and renames it into
// place, so that no process ever sees a half-initialised file, whatever
// instant the creator is killed at. (bbolt writes and fsyncs the initial
// pages on open; the buckets come with the first write transaction.)
func (s *boltStore) create(deadline time.Time) error {
	tmp := s.path + ".tmp"
	if err := os.Remove(tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	db, err := bolt.Open(tmp, 0o600, s.boltOptions(false, deadline))
	if err == nil {
		err = db.Close()
	}
	if err == nil {
		err = os.Rename(tmp, s.path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("create database: %w", err)
	}
	return syncDir(filepath.Dir(s.path))
}

func (s *boltStore) boltOptions(readOnly bool, deadline time.Time) *bolt.Options {
	// bbolt's own lock is uncontended once we hold the lock file; its timeout
	// only matters for foreign programs. Zero would mean "wait forever".
	timeout := max(time.Until(deadline), time.Millisecond)
	return &bolt.Options{
		Timeout:      timeout,
		ReadOnly:     readOnly,
		NoSync:       s.noSync || s.opts.Disposable,
		NoStatistics: true,
		// The freelist stays synced to the file (bbolt's default): without
		// it every open rebuilds the freelist by walking every page, and
		// this store opens the file once per operation.
		NoFreelistSync: false,
		FreelistType:   bolt.FreelistArrayType,
	}
}

// acquire takes this Store's in-process slot.
func (s *boltStore) acquire(ctx context.Context) error {
	select {
	case s.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// lockAcrossProcesses polls the lock file until it is ours, the deadline
// passes or ctx ends. Short, jittered, growing sleeps keep the hand-over
// between processes well under a millisecond without a thundering herd.
func (s *boltStore) lockAcrossProcesses(ctx context.Context, deadline time.Time) error {
	wait := lockPollMin
	var t *time.Timer
	for {
		ok, err := tryLock(s.lockFile)
		if err != nil {
			return fmt.Errorf("store %s: lock: %w", s.path, err)
		}
		if ok {
			return nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return s.lockTimeout()
		}
		sleep := min(wait/2+rand.N(wait/2+1), left)
		if t == nil {
			t = time.NewTimer(sleep)
			defer t.Stop()
		} else {
			t.Reset(sleep)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		wait = min(wait*2, lockPollMax)
	}
}

func (s *boltStore) lockTimeout() error {
	return &unavailableError{msg: fmt.Sprintf("store %s: another process held the database lock for longer than %s", s.path, s.opts.LockTimeout)}
}

// errDamaged marks errors that mean the database file cannot be read as a database.
var errDamaged = errors.New("database file is damaged")

// isDamage reports whether err says the file itself is damaged (rather than locked, say).
func isDamage(err error) bool {
	return errors.Is(err, errDamaged) || errors.Is(err, berrors.ErrInvalid) ||
		errors.Is(err, berrors.ErrChecksum) || errors.Is(err, berrors.ErrVersionMismatch)
}
