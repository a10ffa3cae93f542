package proxy

import (
	"container/list"
	"encoding/binary"
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/loopguard/loopguard"
)

// A client resends the whole conversation on every turn, and a conversation grows by a turn or
// two between requests, so replaying every event from a clean engine state repeats work the
// previous request already did. The prefix cache keeps, per step prefix of a conversation, what
// the replay had reached there: the engine's snapshot, the notices planned for the sites seen so
// far (by step index, since byte offsets move when anything before the history changes) and the
// notices still waiting for a site. A request resumes from the longest prefix it shares with a
// cached one.
//
// The key is a hash of everything the replay reads from those steps: each event's fields, the
// raw bytes of a result decoded lazily, and which steps share a notice site. Two step lists with
// the same key therefore give the same engine state and the same plan, and resuming gives the
// bytes a replay from a clean state gives. The hash is seeded per process (maphash): the cache
// lives in one process and is never written anywhere.

// CacheLimits bound a Guard's prefix cache.
type CacheLimits struct {
	// Entries is the most prefixes kept; 0 turns the cache off.
	Entries int
	// Bytes is the most memory the kept states may take (snapshots and planned notices, as
	// counted by the cache); 0 means no bound besides Entries.
	Bytes int64
}

// DefaultCacheLimits hold the recent turns of a few hundred conversations: an entry for a
// 200-message conversation takes a few KB (its engine snapshot is hashes and counters, never
// the text), so the byte bound only bites for very long histories.
var DefaultCacheLimits = CacheLimits{Entries: 1024, Bytes: 32 << 20}

// plan is the replay's state after a prefix of a conversation's steps.
type plan struct {
	snap    []byte             // the engine's state (nil: none yet)
	dues    []plannedDue       // notices planned at sites of the prefix, in order
	pending []loopguard.Notice // notices due after the prefix's last site
}

type plannedDue struct {
	step    int // the step whose site carries the notices
	notices []loopguard.Notice
}

func (p *plan) size() int64 {
	// Struct and slice headers are counted roughly; the text is what grows.
	n := int64(128 + len(p.snap))
	count := func(ns []loopguard.Notice) {
		for _, x := range ns {
			n += int64(96 + len(x.Agent) + len(x.Plugin) + len(x.Kind) + len(x.Summary) + len(x.Text))
		}
	}
	for _, d := range p.dues {
		n += 32
		count(d.notices)
	}
	count(p.pending)
	return n
}

type prefixKey struct {
	hash  uint64
	steps int // a second check besides the hash, and free
}

type cacheEntry struct {
	key  prefixKey
	plan *plan
	size int64
}

// prefixCache is an LRU of plans bounded by entries and bytes, safe for concurrent use.
type prefixCache struct {
	lim  CacheLimits
	seed maphash.Seed

	mu    sync.Mutex
	ll    *list.List // front: most recently used
	index map[prefixKey]*list.Element
	bytes int64

	hits, misses atomic.Int64 // requests that resumed from a prefix, and those that did not
}

func newPrefixCache(lim CacheLimits) *prefixCache {
	if lim.Entries <= 0 {
		return nil
	}
	return &prefixCache{lim: lim, seed: maphash.MakeSeed(), ll: list.New(), index: map[prefixKey]*list.Element{}}
}

// longest returns the plan of the longest prefix of keys (keys[i] is the prefix of i+1 steps)
// the cache holds, with its step count, or (nil, 0).
func (c *prefixCache) longest(keys []prefixKey) (*plan, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(keys) - 1; i >= 0; i-- {
		if el, ok := c.index[keys[i]]; ok {
			c.ll.MoveToFront(el)
			c.hits.Add(1)
			return el.Value.(*cacheEntry).plan, i + 1
		}
	}
	c.misses.Add(1)
	return nil, 0
}

// put keeps p under key, evicting the least recently used entries beyond the bounds. A plan
// larger than the byte bound is not kept at all.
func (c *prefixCache) put(key prefixKey, p *plan) {
	size := p.size()
	if c.lim.Bytes > 0 && size > c.lim.Bytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.index[key]; ok {
		// A concurrent request of the same conversation got here first; its plan is the same.
		c.ll.MoveToFront(el)
		return
	}
	c.index[key] = c.ll.PushFront(&cacheEntry{key: key, plan: p, size: size})
	c.bytes += size
	for c.ll.Len() > c.lim.Entries || (c.lim.Bytes > 0 && c.bytes > c.lim.Bytes) {
		el := c.ll.Back()
		e := el.Value.(*cacheEntry)
		c.ll.Remove(el)
		delete(c.index, e.key)
		c.bytes -= e.size
	}
}

// stats returns the number of entries and their counted bytes.
func (c *prefixCache) stats() (entries int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len(), c.bytes
}

// keys returns the key of every step prefix of steps: keys[i] covers steps[:i+1]. api is part
// of the hash, since the parsers read a result's raw bytes differently.
func (c *prefixCache) keys(api API, data []byte, steps []step) []prefixKey {
	var h maphash.Hash
	h.SetSeed(c.seed)
	h.WriteString(string(api))
	var buf [8]byte
	u64 := func(v uint64) {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	str := func(s string) {
		u64(uint64(len(s)))
		h.WriteString(s)
	}
	// Notices go to a step's site, and notices of consecutive steps with the same site are
	// merged: which earlier step first had a step's site is part of what the replay reads.
	// site.firstStep remembers it (0: not seen yet; the step index plus one).
	keys := make([]prefixKey, len(steps))
	for i := range steps {
		s := &steps[i]
		ev := &s.ev
		flags := byte(0)
		if ev.HasResult {
			flags |= 1
		}
		if ev.Failed {
			flags |= 2
		}
		if s.result != nil {
			flags |= 4
		}
		h.WriteByte(byte(ev.Type))
		h.WriteByte(flags)
		u64(uint64(ev.Time))
		str(ev.Tool)
		u64(uint64(len(ev.Args)))
		h.Write(ev.Args)
		str(ev.Result)
		str(ev.ID)
		str(ev.Source)
		str(ev.Text)
		if s.result != nil {
			// The decoded text is a function of the node's bytes (and of the parser's part
			// filter, fixed per API): hashing the bytes spares decoding them.
			raw := s.result.n.raw(data)
			u64(uint64(len(raw)))
			u64(maphash.Bytes(c.seed, raw))
		}
		switch {
		case s.site == nil:
			u64(0)
		case s.site.firstStep > 0:
			u64(uint64(i - (s.site.firstStep - 1) + 1))
		default:
			s.site.firstStep = i + 1
			u64(1 << 63)
		}
		keys[i] = prefixKey{hash: h.Sum64(), steps: i + 1}
	}
	return keys
}
