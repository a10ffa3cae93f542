package loopguard

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Snapshots: a compact binary image of one agent's state, so that a host living one process per
// tool call (a hook) can load it, observe one event and save it. Layout:
//
//	"LG" version(1) then, per detector: tag(1) length(uvarint) payload
//
// Unknown tags are skipped and missing detectors start fresh, so a snapshot survives a change of
// configuration. Fingerprints are stored, never argument payloads, so the version changes when
// the fingerprint does: version 2 came with the order-free object hash of internal/canon, and a
// version 1 snapshot is refused rather than read with fingerprints that no longer match.
const snapshotVersion = 2

// ErrBadSnapshot is returned (wrapped) for a snapshot that cannot be read.
var ErrBadSnapshot = errors.New("loopguard: bad snapshot")

// Snapshot returns the state of one agent, or nil when the engine holds none for it.
func (e *Engine) Snapshot(agent string) []byte {
	a := e.agent(agent, false)
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	b := []byte{'L', 'G', snapshotVersion}
	var payload []byte
	for i, s := range a.states {
		payload = s.appendSnapshot(payload[:0])
		b = append(b, e.detectors[i].id())
		b = binary.AppendUvarint(b, uint64(len(payload)))
		b = append(b, payload...)
	}
	return b
}

// Restore replaces the state of one agent with a snapshot taken by Snapshot. An empty snapshot
// forgets the agent. On error the agent is left as it was.
func (e *Engine) Restore(agent string, snap []byte) error {
	if len(snap) == 0 {
		e.Forget(agent)
		return nil
	}
	if len(snap) < 3 || snap[0] != 'L' || snap[1] != 'G' {
		return fmt.Errorf("%w: missing header", ErrBadSnapshot)
	}
	if snap[2] != snapshotVersion {
		return fmt.Errorf("%w: version %d, want %d", ErrBadSnapshot, snap[2], snapshotVersion)
	}
	fresh := &agentState{states: make([]detectorState, len(e.detectors))}
	for i, d := range e.detectors {
		fresh.states[i] = d.newState()
	}
	r := &snapReader{b: snap[3:]}
	for len(r.b) > 0 {
		tag := r.byte()
		n := r.uvarint()
		if r.err != nil || n > uint64(len(r.b)) {
			return fmt.Errorf("%w: truncated", ErrBadSnapshot)
		}
		part := &snapReader{b: r.b[:n]}
		r.b = r.b[n:]
		for i, d := range e.detectors {
			if d.id() != tag {
				continue
			}
			if err := fresh.states[i].restore(part); err != nil {
				return fmt.Errorf("%w: %s: %v", ErrBadSnapshot, d.plugin(), err)
			}
			if part.err != nil {
				return fmt.Errorf("%w: %s: %v", ErrBadSnapshot, d.plugin(), part.err)
			}
		}
	}
	e.mu.Lock()
	e.agents[agent] = fresh
	e.mu.Unlock()
	return nil
}

// snapReader reads what the append functions wrote; the first error sticks.
type snapReader struct {
	b   []byte
	err error
}

var errShort = errors.New("truncated")

// take returns the next n bytes, or nil (and the error) when fewer are left: the one bounds
// check of the fixed-width fields.
func (r *snapReader) take(n int) []byte {
	if r.err != nil || len(r.b) < n {
		r.err = errShort
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}

func (r *snapReader) byte() byte {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *snapReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *snapReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *snapReader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *snapReader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *snapReader) u16() uint16 {
	if b := r.take(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (r *snapReader) string() string {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = errShort
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// count reads a collection length, refusing lengths the remaining bytes cannot hold, so a
// corrupt snapshot cannot make us allocate without bound.
func (r *snapReader) count(limit int) int {
	n := r.uvarint()
	if r.err == nil && (n > uint64(limit) || n > uint64(len(r.b))) {
		r.err = fmt.Errorf("count %d out of range", n)
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func (s *repeatState) appendSnapshot(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, s.last)
	return binary.AppendUvarint(b, uint64(s.count))
}

func (s *repeatState) restore(r *snapReader) error {
	s.last = r.u64()
	s.count = int(r.uvarint())
	return r.err
}

func appendCounts(b []byte, m *boundedMap[countEntry]) []byte {
	b = binary.AppendUvarint(b, uint64(m.Len()))
	m.Each(func(key uint64, v *countEntry) {
		b = binary.LittleEndian.AppendUint64(b, key)
		b = binary.AppendUvarint(b, uint64(v.count))
		b = binary.AppendUvarint(b, uint64(v.warnedAt))
	})
	return b
}

func readCounts(r *snapReader, m *boundedMap[countEntry], limit int) {
	n := r.count(limit)
	m.reserve(n)
	for i := 0; i < n && r.err == nil; i++ {
		key := r.u64()
		v := m.Put(key)
		v.count = int32(r.uvarint())
		v.warnedAt = int32(r.uvarint())
	}
}

func (s *brakeState) appendSnapshot(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(s.window)))
	for _, w := range s.window {
		b = binary.LittleEndian.AppendUint64(b, w.id)
		b = appendString(b, w.tool)
	}
	b = appendCounts(b, &s.calls)
	b = appendCounts(b, &s.seqs)
	b = binary.AppendUvarint(b, uint64(s.texts.Len()))
	s.texts.Each(func(key uint64, t *textEntry) {
		b = binary.LittleEndian.AppendUint64(b, key)
		b = binary.AppendUvarint(b, uint64(t.count))
		b = binary.AppendVarint(b, t.firstTime)
		if t.warned {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		b = binary.AppendVarint(b, t.lastWarned)
		b = binary.AppendUvarint(b, uint64(t.nsrc))
		for _, src := range t.sources[:t.nsrc] {
			b = appendString(b, src)
		}
	})
	b = binary.AppendUvarint(b, uint64(s.seen.Len()))
	s.seen.Each(func(key uint64, _ *struct{}) {
		b = binary.LittleEndian.AppendUint64(b, key)
	})
	return b
}

func (s *brakeState) restore(r *snapReader) error {
	n := r.count(1 << 16)
	for i := 0; i < n && r.err == nil; i++ {
		w := windowCall{id: r.u64(), tool: r.string()}
		if len(s.window) == s.d.cfg.SequenceLength {
			copy(s.window, s.window[1:])
			s.window = s.window[:len(s.window)-1]
		}
		s.window = append(s.window, w)
	}
	readCounts(r, &s.calls, 1<<20)
	readCounts(r, &s.seqs, 1<<20)
	n = r.count(1 << 20)
	s.texts.reserve(n)
	for i := 0; i < n && r.err == nil; i++ {
		t := s.texts.Put(r.u64())
		t.count = int32(r.uvarint())
		t.firstTime = r.varint()
		t.warned = r.byte() == 1
		t.lastWarned = r.varint()
		ns := r.count(maxTextSources)
		for j := 0; j < ns && r.err == nil; j++ {
			t.addSource(r.string())
		}
	}
	n = r.count(1 << 20)
	s.seen.reserve(n)
	for i := 0; i < n && r.err == nil; i++ {
		s.seen.Put(r.u64())
	}
	return r.err
}
