package redisstore

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/loopguard/loopguard/internal/store"
)

// A fleet of proxies shares its state through Redis, and fleets run Redis highly available:
// behind Sentinel or as a Cluster. The URLs are go-redis's own (ParseFailoverURL,
// ParseClusterURL), so every option go-redis documents works:
//
//	redis://host:26379/0?master_name=mymaster&addr=host2:26379   Sentinel (the hosts are sentinels)
//	redis+cluster://host:7000?addr=host2:7000&addr=host3:7000    Cluster (rediss+cluster:// for TLS)
//
// The client is go-redis's UniversalClient interface in both cases, so the store's WATCH/MULTI
// update runs unchanged (one key is one hash slot in a Cluster).

// topology says which kind of deployment a Redis URL names: "sentinel", "cluster" or "" (one node).
func topology(rawURL string) string {
	if strings.HasPrefix(rawURL, "redis+cluster://") || strings.HasPrefix(rawURL, "rediss+cluster://") {
		return "cluster"
	}
	if q, err := url.ParseQuery(queryOf(rawURL)); err == nil && q.Get("master_name") != "" {
		return "sentinel"
	}
	return ""
}

func openRedisTopology(rawURL string, opts store.Options) (*redisStore, error) {
	q, _ := url.ParseQuery(queryOf(rawURL))
	bad := func(err error) (*redisStore, error) {
		if uerr, ok := errors.AsType[*url.Error](err); ok {
			err = uerr.Err
		}
		return nil, fmt.Errorf("store: invalid redis URL %q: %w", store.RedactURL(rawURL), err)
	}
	var (
		client redis.UniversalClient
		addr   string
	)
	switch topology(rawURL) {
	case "sentinel":
		fo, err := redis.ParseFailoverURL(rawURL)
		if err != nil {
			return bad(err)
		}
		if !q.Has("dial_timeout") {
			fo.DialTimeout = redisDialTimeout
		}
		if !q.Has("max_retries") {
			fo.MaxRetries = 1
		}
		if !q.Has("dialer_retries") {
			fo.DialerRetries = 1 // as for one node: a refused connection fails now
		}
		fo.ContextTimeoutEnabled = true
		fo.DisableIdentity = true
		client = redis.NewFailoverClient(fo)
		addr = fmt.Sprintf("master %q via sentinels %s", fo.MasterName, strings.Join(fo.SentinelAddrs, ","))
	case "cluster":
		co, err := redis.ParseClusterURL(strings.Replace(rawURL, "+cluster://", "://", 1))
		if err != nil {
			return bad(err)
		}
		if !q.Has("dial_timeout") {
			co.DialTimeout = redisDialTimeout
		}
		if !q.Has("max_retries") {
			co.MaxRetries = 1
		}
		if !q.Has("dialer_retries") {
			co.DialerRetries = 1
		}
		co.ContextTimeoutEnabled = true
		co.DisableIdentity = true
		co.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
		client = redis.NewClusterClient(co)
		addr = "cluster " + strings.Join(co.Addrs, ",")
	}
	ttl := opts.IdleTTL // Open has applied the defaults
	if ttl < 0 {
		ttl = 0
	}
	return &redisStore{client: client, addr: addr, prefix: opts.KeyPrefix, ttl: ttl, maxAttempts: redisMaxAttempts}, nil
}
