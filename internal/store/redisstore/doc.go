// Package redisstore is the Redis backend of package store: importing it makes store.Open
// serve redis://, rediss://, Sentinel (?master_name=) and redis+cluster:// URLs.
//
// It lives apart from store so that a binary links go-redis only when it imports this
// package: the full loopguard binary does (serve, proxy and hook all accept a Redis store);
// the hook-only binary, cmd/loopguard-hook, does not, and hands a Redis-backed hook event to
// the full binary instead (see internal/hookcmd).
//
// Update is WATCH key, GET, fn, MULTI, SET with an expiry of IdleTTL (or DEL), EXEC, retried
// with a small jittered backoff when another client changed the key in between (up to 200
// attempts). Every write refreshes the key's expiry, so idle sessions disappear by themselves
// and Purge has nothing to do. Transport failures match store.ErrUnavailable; an error reply
// from the server (NOAUTH, WRONGTYPE) does not, because the server was reached.
package redisstore
