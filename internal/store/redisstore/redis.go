package redisstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/loopguard/loopguard/internal/store"
)

func init() {
	for _, scheme := range []string{"redis", "rediss", "redis+cluster", "rediss+cluster"} {
		store.Register(scheme, func(rawURL string, opts store.Options) (store.Store, error) {
			s, err := openRedis(rawURL, opts)
			if err != nil {
				return nil, err // not a nil *redisStore in a non-nil interface
			}
			return s, nil
		})
	}
}

const (
	// redisMaxAttempts bounds the optimistic WATCH/MULTI/EXEC retries of one
	// Update.
	redisMaxAttempts = 200
	// Backoff between conflicting attempts: a random sleep in
	// [0, min(redisBackoffMax, redisBackoffBase<<attempt)).
	redisBackoffBase = 250 * time.Microsecond
	redisBackoffMax  = 8 * time.Millisecond
	// Connection defaults applied unless the URL sets them: a hook has a few
	// milliseconds, not the client library's 5 s dial timeout and retries.
	redisDialTimeout = 2 * time.Second
)

// redisStore is the shared backend.
type redisStore struct {
	client      redis.UniversalClient // a single node, a Sentinel-managed master or a Cluster
	addr        string                // host:port, for error messages; never the password
	prefix      string
	ttl         time.Duration // 0: no expiry
	maxAttempts int
	closed      atomic.Bool
}

// quietLogger discards go-redis's own log lines.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

var silenceRedisLog sync.Once

func openRedis(rawURL string, opts store.Options) (*redisStore, error) {
	// go-redis logs failed dials to stderr. Every failure already comes back
	// as an error, and a hook's stderr can end up in front of the agent or
	// the user, so the (process-wide) library logger is silenced.
	silenceRedisLog.Do(func() { redis.SetLogger(quietLogger{}) })
	if topology(rawURL) != "" {
		return openRedisTopology(rawURL, opts)
	}
	ro, err := redis.ParseURL(rawURL)
	if err != nil {
		// A *url.Error quotes the whole URL, password included.
		if uerr, ok := errors.AsType[*url.Error](err); ok {
			err = uerr.Err
		}
		return nil, fmt.Errorf("store: invalid redis URL %q: %w", store.RedactURL(rawURL), err)
	}
	q, _ := url.ParseQuery(queryOf(rawURL))
	if !q.Has("dial_timeout") {
		ro.DialTimeout = redisDialTimeout
	}
	if !q.Has("max_retries") {
		// One retry rides over a pooled connection the server closed; more
		// only delays the hook's fail-open when the server is gone.
		ro.MaxRetries = 1
	}
	// A refused connection should fail now, not after five 100 ms retries.
	ro.DialerRetries = 1
	// Let ctx deadlines bound reads and writes.
	ro.ContextTimeoutEnabled = true
	// Skip the connect-time CLIENT SETINFO and CLIENT MAINT_NOTIFICATIONS
	// round trips: a hook process makes one connection and a few commands.
	ro.DisableIdentity = true
	ro.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}

	ttl := opts.IdleTTL
	if ttl < 0 {
		ttl = 0
	}
	return &redisStore{
		client:      redis.NewClient(ro),
		addr:        ro.Addr,
		prefix:      opts.KeyPrefix,
		ttl:         ttl,
		maxAttempts: redisMaxAttempts,
	}, nil
}

// queryOf returns the raw query of a URL that redis.ParseURL accepted.
func queryOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return u.RawQuery
}

func (s *redisStore) begin(ctx context.Context, key string) error {
	if err := store.CheckKey(key); err != nil {
		return err
	}
	if s.closed.Load() {
		return store.ErrClosed
	}
	return ctx.Err()
}

func (s *redisStore) Update(ctx context.Context, key string, fn func(old []byte) ([]byte, error)) error {
	if err := s.begin(ctx, key); err != nil {
		return err
	}
	k := s.prefix + key
	var fnErr error
	txn := func(tx *redis.Tx) error {
		old, err := getValue(ctx, tx, k)
		if err != nil {
			return err
		}
		next, err := fn(old)
		if err != nil {
			fnErr = err
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			if next == nil {
				p.Del(ctx, k)
			} else {
				p.Set(ctx, k, next, s.ttl)
			}
			return nil
		})
		return err
	}
	for attempt := 1; ; attempt++ {
		err := s.client.Watch(ctx, txn, k)
		switch {
		case fnErr != nil:
			return fnErr
		case err == nil:
			return nil
		case !errors.Is(err, redis.TxFailedErr):
			return s.wrap(err)
		case attempt >= s.maxAttempts:
			return store.Unavailable(fmt.Sprintf(
				"store: redis at %s: key %q changed under every one of %d attempts to update it", s.addr, key, attempt), nil)
		}
		backoff := rand.N(min(redisBackoffMax, redisBackoffBase<<min(attempt, 10)))
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// getValue reads k, mapping a missing key to nil and copying the reply (the
// client's byte view aliases an immutable string).
func getValue(ctx context.Context, c redis.Cmdable, k string) ([]byte, error) {
	v, err := c.Get(ctx, k).Result()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return append(make([]byte, 0, len(v)), v...), nil
}

func (s *redisStore) Get(ctx context.Context, key string) ([]byte, error) {
	if err := s.begin(ctx, key); err != nil {
		return nil, err
	}
	v, err := getValue(ctx, s.client, s.prefix+key)
	if err != nil {
		return nil, s.wrap(err)
	}
	return v, nil
}

func (s *redisStore) Delete(ctx context.Context, key string) error {
	if err := s.begin(ctx, key); err != nil {
		return err
	}
	if err := s.client.Del(ctx, s.prefix+key).Err(); err != nil {
		return s.wrap(err)
	}
	return nil
}

// Purge returns 0: every write sets the key's expiry to IdleTTL, so Redis
// removes idle keys by itself.
func (s *redisStore) Purge(ctx context.Context, _ time.Time) (int, error) {
	if s.closed.Load() {
		return 0, store.ErrClosed
	}
	return 0, ctx.Err()
}

func (s *redisStore) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	if err := s.client.Close(); err != nil {
		return fmt.Errorf("store: redis at %s: close: %w", s.addr, err)
	}
	return nil
}

// wrap names the server in err and marks transport failures as
// ErrUnavailable. A reply the server sent (an error reply such as NOAUTH or
// WRONGTYPE) means it was reached.
func (s *redisStore) wrap(err error) error {
	if errors.Is(err, redis.ErrClosed) && s.closed.Load() {
		return store.ErrClosed
	}
	if _, ok := errors.AsType[redis.Error](err); ok {
		return fmt.Errorf("store: redis at %s: %w", s.addr, err)
	}
	return store.Unavailable("store: could not reach redis at "+s.addr, err)
}
