package loopguard

// boundedMap keeps at most limit entries keyed by a 64-bit fingerprint, dropping the oldest
// first. With touch set, "oldest" means least recently seen (an LRU); without it, first
// inserted (a FIFO). Per-agent state lives in these, so that memory stays bounded whatever
// the agent does.
//
// It is a map from key to slot index plus a doubly linked list threaded through a slice of
// slots, so that steady-state use allocates nothing.
type boundedMap[V any] struct {
	limit int32
	touch bool
	index map[uint64]int32
	slots []slot[V]
	head  int32 // oldest, or -1
	tail  int32 // newest, or -1
	free  int32 // first free slot, or -1
}

type slot[V any] struct {
	key        uint64
	val        V
	prev, next int32
}

func newBoundedMap[V any](limit int, touch bool) boundedMap[V] {
	return boundedMap[V]{limit: int32(limit), touch: touch, head: -1, tail: -1, free: -1}
}

func (m *boundedMap[V]) Len() int { return len(m.index) }

// Get returns the value for key, marking it as seen when the map is an LRU.
func (m *boundedMap[V]) Get(key uint64) (*V, bool) {
	i, ok := m.index[key]
	if !ok {
		return nil, false
	}
	if m.touch {
		m.moveToTail(i)
	}
	return &m.slots[i].val, true
}

// Peek returns the value for key without marking it as seen.
func (m *boundedMap[V]) Peek(key uint64) (*V, bool) {
	i, ok := m.index[key]
	if !ok {
		return nil, false
	}
	return &m.slots[i].val, true
}

// Put inserts key with a zero value (or returns the existing one, marking it seen) and
// evicts the oldest entry when the map is over its limit.
func (m *boundedMap[V]) Put(key uint64) *V {
	if v, ok := m.Get(key); ok {
		return v
	}
	if m.index == nil {
		m.index = make(map[uint64]int32)
	}
	var i int32
	if m.free >= 0 {
		i = m.free
		m.free = m.slots[i].next
		var zero V
		m.slots[i] = slot[V]{key: key, val: zero}
	} else {
		i = int32(len(m.slots))
		m.slots = append(m.slots, slot[V]{key: key})
	}
	m.index[key] = i
	m.linkTail(i)
	if int32(len(m.index)) > m.limit {
		m.remove(m.head)
	}
	return &m.slots[i].val
}

// reserve makes room for n entries in an empty map, so that restoring a snapshot does not grow
// the index and the slots step by step.
func (m *boundedMap[V]) reserve(n int) {
	n = min(n, int(m.limit))
	if m.index != nil || n <= 0 {
		return
	}
	m.index = make(map[uint64]int32, n)
	m.slots = make([]slot[V], 0, n)
}

// Clear forgets everything but keeps the allocated space: an agent whose user speaks often
// refills its maps at once, and they are bounded anyway.
func (m *boundedMap[V]) Clear() {
	clear(m.index)
	clear(m.slots) // drop references held by values
	m.slots = m.slots[:0]
	m.head, m.tail, m.free = -1, -1, -1
}

// Each calls fn from oldest to newest.
func (m *boundedMap[V]) Each(fn func(key uint64, v *V)) {
	for i := m.head; i >= 0; i = m.slots[i].next {
		fn(m.slots[i].key, &m.slots[i].val)
	}
}

func (m *boundedMap[V]) remove(i int32) {
	m.unlink(i)
	delete(m.index, m.slots[i].key)
	var zero V
	m.slots[i].val = zero
	m.slots[i].next = m.free
	m.free = i
}

func (m *boundedMap[V]) moveToTail(i int32) {
	if m.tail == i {
		return
	}
	m.unlink(i)
	m.linkTail(i)
}

func (m *boundedMap[V]) linkTail(i int32) {
	m.slots[i].prev, m.slots[i].next = m.tail, -1
	if m.tail >= 0 {
		m.slots[m.tail].next = i
	} else {
		m.head = i
	}
	m.tail = i
}

func (m *boundedMap[V]) unlink(i int32) {
	s := &m.slots[i]
	if s.prev >= 0 {
		m.slots[s.prev].next = s.next
	} else {
		m.head = s.next
	}
	if s.next >= 0 {
		m.slots[s.next].prev = s.prev
	} else {
		m.tail = s.prev
	}
}
