// Package store keeps loopguard's per-agent engine state between hook
// invocations.
//
// Agent hooks run as one short-lived process per tool call, so the loop
// detector's state (an opaque snapshot of a few KB, one per session or agent
// id) has to live outside the process. A [Store] maps such a key to an opaque
// value and offers one essential operation, [Store.Update]: a read-modify-write
// that is atomic with respect to every other Update of the same key in every
// process sharing the store. Two hooks of the same agent that fire at the same
// moment can therefore never lose each other's update.
//
// # Backends
//
// [Open] picks a backend from a URL:
//
//   - "" or "bolt": an embedded database file at [DefaultPath].
//   - "bolt:///abs/path.db" or a plain file path: an embedded database there.
//   - "redis://host:port/db" or "rediss://…": a Redis server shared by
//     several machines, served by package redisstore when the binary
//     imports it (Register); else Open fails with ErrNotLinked.
//   - "memory": a map inside the current process (tests, library use).
//
// # Why bbolt for the embedded store
//
// The embedded backend is go.etcd.io/bbolt rather than SQLite because it fits
// the "one short-lived process per hook call" shape exactly:
//
//   - It is pure Go, so loopguard stays a static binary built without cgo.
//   - The whole state is a single file.
//   - Transactions are ACID with copy-on-write pages: a commit writes new pages
//     first and switches one of two checksummed meta pages last, so a process
//     killed at any instant leaves the last committed state behind.
//   - Writers are serialised across processes by a file lock, which is the only
//     concurrency control a per-process hook needs.
//
// SQLite would need either cgo or a very large pure-Go translation
// (modernc.org/sqlite) to provide SQL, indexes and a query planner that a
// key-value snapshot store never uses.
//
// # Embedded store: locking and durability
//
// Each operation opens the database file, runs one transaction and closes it
// again, so the file is locked only for the millisecond or two one operation
// takes and a long-lived holder of a Store (the Go library, a test)
// never blocks hooks. Writers are serialised by an exclusive lock on a
// companion file "<db>.lock" (never deleted; deleting it while in use would
// break mutual exclusion). bbolt's own file lock polls every 50 ms, far too
// coarse for a hook whose whole budget is a few milliseconds; the companion
// lock is polled every few hundred microseconds up to Options.LockTimeout and
// also honours the context. Operations of one Store wait for each other without
// that bound (only their context bounds them): it is for another process's lock. bbolt's own lock still guards against foreign
// tools that open the file directly.
//
// The freelist is kept in the file (bbolt's default) rather than rebuilt on
// open (NoFreelistSync): rebuilding walks every page, which costs about 2 ms
// per open at 2,000 sessions against a constant ~0.15 ms with the synced
// freelist, and this store opens the file on every operation. The array
// freelist is kept too: the hashmap variant was no faster at these sizes and
// the array one reuses the lowest pages first, keeping the file compact.
//
// fn runs inside the write transaction, with the lock held, so it must be
// quick; it only transforms a few KB.
//
// By default commits are fsync'ed (bbolt's default: two fdatasync calls, one before and
// one after the meta page is written). SIGKILL alone would not need them,
// since data already handed to the kernel's page cache survives the death of
// the process; a power loss or kernel crash would not, and without the first
// sync the disk may persist the new meta page before the pages it points to,
// leaving a damaged file that disables loop protection until someone removes
// it. The price, measured by BenchmarkBoltHookCycle on a busy 2-core VM, is
// about 1.5-2.5 ms per Open+Update+Close (median) against about 0.15 ms
// without syncing; losing a fraction of the hook budget is the better trade.
// A file that does not exist yet is built under a temporary name and renamed
// into place, so even a crash during creation cannot leave a half-initialised
// file behind.
//
// A damaged file (not a bbolt file, cut short, or with garbage pages) makes
// every operation return an error naming the path instead of crashing the
// process; bbolt's panics on such files are recovered. By default nothing
// deletes or moves the file automatically, since the path may point at a file
// that is not loopguard's.
//
// Options.Disposable changes both for values that may be lost without harm:
// the hooks set it, since their state is loop counters and losing it costs at
// most a late reminder, while every millisecond counts at every tool call.
// Commits then skip fsync (a killed process still loses nothing), and a file
// found damaged is renamed to <path>.damaged-<time> and replaced by a fresh
// one, so that a power loss cannot turn loop protection off for good.
//
// Each record stores the value together with the time it was last written.
// Records idle for longer than Options.IdleTTL read as absent, and an Update
// removes them for good at most once per hour (the time of the last sweep is
// kept in a meta bucket), so the file does not grow with every session ever
// seen.
//
// # Redis
//
// The Redis backend lives in package redisstore, which registers itself with
// [Register] when imported, so that only binaries that import it link the Redis
// client (the hook-only binary does not). Its update is an optimistic WATCH/MULTI
// transaction; see that package.
//
// # Errors
//
// Errors name the database path or the Redis address. Errors that mean "the
// state cannot be had right now" (embedded lock timeout, Redis unreachable,
// Redis contention that outlasted every retry) match [ErrUnavailable] with
// errors.Is; a hook can fail open on them.
package store
