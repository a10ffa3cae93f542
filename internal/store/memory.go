package store

import (
	"context"
	"sync"
	"time"
)

// memoryStore is the "memory" backend: a map guarded by a mutex. It lives as
// long as the process and is shared only by goroutines holding the same Store.
type memoryStore struct {
	opts   Options
	mu     sync.Mutex
	closed bool
	recs   map[string]memRecord
}

type memRecord struct {
	value   []byte
	updated time.Time
}

func newMemory(opts Options) *memoryStore {
	return &memoryStore{opts: opts, recs: make(map[string]memRecord)}
}

// lookup returns the live value of key; the caller holds s.mu.
func (s *memoryStore) lookup(key string, now time.Time) []byte {
	r, ok := s.recs[key]
	if !ok || s.opts.expired(r.updated, now) {
		return nil
	}
	return r.value
}

// begin checks the context, the key and the closed flag, and locks s.mu on
// success.
func (s *memoryStore) begin(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := CheckKey(key); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	return nil
}

func (s *memoryStore) Update(ctx context.Context, key string, fn func(old []byte) ([]byte, error)) error {
	if err := s.begin(ctx, key); err != nil {
		return err
	}
	defer s.mu.Unlock()
	now := s.opts.Now()
	next, err := fn(clone(s.lookup(key, now)))
	if err != nil {
		return err
	}
	if next == nil {
		delete(s.recs, key)
		return nil
	}
	s.recs[key] = memRecord{value: clone(next), updated: now}
	return nil
}

func (s *memoryStore) Get(ctx context.Context, key string) ([]byte, error) {
	if err := s.begin(ctx, key); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	return clone(s.lookup(key, s.opts.Now())), nil
}

func (s *memoryStore) Delete(ctx context.Context, key string) error {
	if err := s.begin(ctx, key); err != nil {
		return err
	}
	defer s.mu.Unlock()
	delete(s.recs, key)
	return nil
}

func (s *memoryStore) Purge(ctx context.Context, before time.Time) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, ErrClosed
	}
	n := 0
	for k, r := range s.recs {
		if r.updated.Before(before) {
			delete(s.recs, k)
			n++
		}
	}
	return n, nil
}

func (s *memoryStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.recs = nil
	return nil
}
