package loopguard

// The progress detector's state in a snapshot.

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Snapshot layout of the progress detector: a format byte, then the fields in the order below.
// Names are interned again on restore.
const progressSnapFormat = 53

// A sketch's count (at most sketchSize, 16) takes the low five bits of its first byte, and its
// mode the two above them.
func appendSketch(b []byte, s *sketch) []byte {
	b = append(b, s.n|s.mode<<5)
	for _, h := range s.h[:s.n] {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	return b
}

func readSketch(r *snapReader, s *sketch) {
	first := r.byte()
	n, mode := int(first&0x1f), first>>5
	if n > sketchSize || mode > sketchEscapedLines {
		r.err = fmt.Errorf("sketch of %d in mode %d", n, mode)
		return
	}
	s.n, s.mode = uint8(n), mode
	for i := 0; i < n; i++ {
		s.h[i] = r.u64()
	}
}

// appendLineFilter writes a line filter's non-empty words, as (index, word).
func appendLineFilter(b []byte, f *lineFilter) []byte {
	n := 0
	for _, w := range f.bits {
		if w != 0 {
			n++
		}
	}
	b = append(b, byte(n))
	for i, w := range f.bits {
		if w != 0 {
			b = append(b, byte(i))
			b = binary.LittleEndian.AppendUint64(b, w)
		}
	}
	return b
}

func readLineFilter(r *snapReader, f *lineFilter) {
	f.reset()
	n := int(r.byte())
	if n > len(f.bits) {
		r.err = fmt.Errorf("line filter of %d words", n)
		return
	}
	for i := 0; i < n && r.err == nil; i++ {
		idx := int(r.byte())
		if idx >= len(f.bits) {
			r.err = fmt.Errorf("line filter word %d", idx)
			return
		}
		f.bits[idx] = r.u64()
	}
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func (s *progressState) appendSnapshot(b []byte) []byte {
	b = append(b, progressSnapFormat)
	b = binary.AppendUvarint(b, uint64(s.epoch))
	b = binary.AppendUvarint(b, uint64(s.calls))
	b = appendBool(b, s.hasLast)
	b = binary.LittleEndian.AppendUint64(b, s.last.id)
	b = binary.LittleEndian.AppendUint64(b, s.last.result)
	b = appendSketch(b, &s.last.sketch)
	b = binary.AppendUvarint(b, uint64(s.last.epochAfter))
	b = binary.AppendUvarint(b, uint64(s.stuck))
	b = binary.AppendUvarint(b, uint64(s.copies))
	b = binary.AppendUvarint(b, uint64(s.polls))
	b = binary.AppendUvarint(b, uint64(s.pollSaidAt))
	b = binary.AppendUvarint(b, uint64(s.pollRun))
	b = appendBool(b, s.pollMoved)
	b = appendBool(b, s.pollPaused)
	b = binary.AppendUvarint(b, uint64(s.lastPause))
	b = binary.AppendUvarint(b, uint64(len(s.chains)))
	for i := range s.chains {
		c := &s.chains[i]
		b = binary.LittleEndian.AppendUint64(b, c.tool)
		b = appendShape(b, &c.chainShape)
		b = appendBool(b, c.hasOther)
		if c.hasOther {
			b = appendShape(b, &c.other)
		}
		b = appendBool(b, c.alternated)
		b = binary.AppendUvarint(b, uint64(c.epoch))
		b = binary.LittleEndian.AppendUint64(b, c.lastID)
		b = binary.LittleEndian.AppendUint64(b, c.turn)
		// Whether every call failed and the fewest errors a linter listed (at most 127) share
		// a byte: the bit below, the count above it.
		failed := byte(0)
		if c.failed {
			failed = 1
		}
		b = append(b, failed|c.lintFewest<<1)
		b = append(b, c.nFails)
		for _, f := range c.fails[:c.nFails] {
			b = binary.LittleEndian.AppendUint64(b, f)
		}
		b = binary.LittleEndian.AppendUint64(b, c.recurSaid)
	}
	b = binary.AppendUvarint(b, uint64(s.refailSeq))
	live := 0
	for i := range s.refail {
		if s.refail[i].count > 0 {
			live++
		}
	}
	b = binary.AppendUvarint(b, uint64(live))
	for i := range s.refail {
		f := &s.refail[i]
		if f.count == 0 {
			continue // a free slot: restored as the zero chain
		}
		b = binary.AppendUvarint(b, uint64(f.seq))
		b = binary.AppendUvarint(b, uint64(f.start))
		b = binary.LittleEndian.AppendUint64(b, f.id)
		b = binary.LittleEndian.AppendUint64(b, f.result)
		b = binary.LittleEndian.AppendUint64(b, f.sig)
		b = binary.LittleEndian.AppendUint64(b, f.prev)
		b = binary.LittleEndian.AppendUint64(b, f.prevSig)
		b = appendBool(b, f.hasPrev)
		b = binary.AppendUvarint(b, uint64(f.prevCount))
		b = binary.AppendUvarint(b, uint64(f.prevEpochs))
		b = appendBool(b, f.weak)
		b = appendSketch(b, &f.sketch)
		b = binary.AppendUvarint(b, uint64(f.count))
		b = binary.AppendUvarint(b, uint64(f.epochs))
		b = binary.AppendUvarint(b, uint64(f.epoch))
		b = binary.AppendUvarint(b, uint64(f.saidAt))
		b = binary.LittleEndian.AppendUint64(b, f.turn)
		b = binary.LittleEndian.AppendUint64(b, f.places)
		b = binary.LittleEndian.AppendUint64(b, f.last)
		b = binary.AppendUvarint(b, uint64(f.same))
	}
	for i := range s.recent {
		r := &s.recent[i]
		b = binary.LittleEndian.AppendUint64(b, r.id)
		b = binary.AppendUvarint(b, r.scope) // 0, one byte, for most calls
		b = binary.LittleEndian.AppendUint64(b, r.result)
		b = binary.LittleEndian.AppendUint64(b, r.raw)
		b = binary.AppendUvarint(b, uint64(r.epochAfter))
		b = binary.LittleEndian.AppendUint32(b, r.said)
		b = binary.AppendUvarint(b, uint64(r.count))
		b = appendBool(b, r.failed)
		b = appendBool(b, r.broke)
		b = appendBool(b, r.cutShort)
		b = binary.LittleEndian.AppendUint64(b, r.turn)
	}
	for _, k := range s.ring {
		b = binary.LittleEndian.AppendUint64(b, k)
	}
	for _, m := range s.marks {
		b = binary.LittleEndian.AppendUint32(b, uint32(m.said)|uint32(m.call)<<16)
	}
	b = binary.LittleEndian.AppendUint64(b, s.changes)
	b = binary.LittleEndian.AppendUint64(b, s.fails)
	// The identities of the failures the ring holds, after the bits saying which calls failed:
	// a call that worked has none.
	for i := range s.marks {
		if s.fails&(1<<i) != 0 {
			b = binary.LittleEndian.AppendUint16(b, s.marks[i].fail)
		}
	}
	for _, r := range s.runs {
		b = binary.AppendUvarint(b, uint64(r))
	}
	b = binary.LittleEndian.AppendUint64(b, s.thought.exact)
	b = binary.AppendUvarint(b, uint64(s.thought.words))
	b = binary.AppendUvarint(b, uint64(s.thought.marks)) // a thought of only volatile fields is compared by its words
	b = appendSketch(b, &s.thought.sketch)
	b = binary.AppendUvarint(b, uint64(s.thoughtN))
	b = appendBool(b, s.thoughtSeen)
	b = binary.LittleEndian.AppendUint64(b, s.callTurn)
	b = binary.AppendUvarint(b, uint64(s.stale))
	b = appendBool(b, s.paging)
	b = binary.LittleEndian.AppendUint64(b, s.pagingID)
	b = binary.AppendUvarint(b, uint64(s.backs))
	b = binary.AppendUvarint(b, uint64(s.backsSaid))
	b = binary.LittleEndian.AppendUint64(b, s.backTurn)
	b = binary.LittleEndian.AppendUint64(b, uint64(s.lastAt))
	for _, m := range s.pages {
		b = binary.LittleEndian.AppendUint64(b, m.shape)
		for _, v := range m.at {
			b = binary.AppendUvarint(b, v)
		}
	}
	b = append(b, s.pageNext)
	b = binary.AppendUvarint(b, uint64(s.thoughtSaid))
	b = binary.LittleEndian.AppendUint64(b, s.lastTextID)
	b = appendBool(b, s.callSaid)
	b = appendBool(b, s.spoke)
	b = binary.LittleEndian.AppendUint64(b, s.declinedTool)
	b = binary.LittleEndian.AppendUint64(b, s.declinedKey)
	b = binary.AppendUvarint(b, uint64(s.saidAt))
	b = binary.AppendUvarint(b, uint64(s.replayAt))
	b = append(b, s.replayPeriod, s.cycleHeld)
	b = appendString(b, s.thoughtPreview)
	for _, k := range s.unmoved {
		b = binary.LittleEndian.AppendUint64(b, k.id)
		b = binary.AppendUvarint(b, uint64(k.runs))
		b = binary.AppendUvarint(b, uint64(k.words))
	}
	b = binary.LittleEndian.AppendUint64(b, s.unmovedSaid)
	b = binary.AppendUvarint(b, uint64(s.unmovedSaidAt))
	b = binary.AppendUvarint(b, uint64(s.rereadAt))
	b = append(b, s.probeLen)
	b = append(b, s.probe[:s.probeLen]...)
	b = binary.AppendUvarint(b, uint64(s.probeEpoch))
	n := 0
	for _, e := range s.edited {
		if e.path != 0 {
			n++
		}
	}
	b = append(b, byte(n))
	for _, e := range s.edited {
		if e.path != 0 {
			b = binary.LittleEndian.AppendUint32(b, e.path)
			b = binary.LittleEndian.AppendUint32(b, e.tail)
			b = binary.AppendUvarint(b, uint64(e.epoch))
			b = binary.AppendUvarint(b, uint64(e.hitEpoch))
			b = append(b, e.hits)
		}
	}
	for _, m := range s.missing {
		b = binary.LittleEndian.AppendUint32(b, m.name)
		b = append(b, m.count)
		b = appendBool(b, m.said)
	}
	for _, l := range s.lasting {
		b = binary.LittleEndian.AppendUint32(b, l.identity)
		for _, c := range l.commands {
			b = binary.LittleEndian.AppendUint16(b, c)
		}
		b = append(b, l.count)
		b = binary.LittleEndian.AppendUint16(b, l.turn)
		b = binary.AppendUvarint(b, uint64(l.epoch))
		b = binary.AppendUvarint(b, uint64(l.first))
		b = binary.AppendUvarint(b, uint64(l.last))
	}
	b = binary.AppendUvarint(b, uint64(s.tools.n))
	for _, name := range s.tools.names {
		b = appendString(b, name)
	}
	// The Bloom filter: only its non-empty words, as (index, word).
	b = binary.AppendUvarint(b, uint64(s.seen.n))
	nonzero := 0
	for _, w := range s.seen.bits {
		if w != 0 {
			nonzero++
		}
	}
	b = binary.AppendUvarint(b, uint64(nonzero))
	for i, w := range s.seen.bits {
		if w != 0 {
			b = append(b, byte(i))
			b = binary.LittleEndian.AppendUint64(b, w)
		}
	}
	b = appendLineFilter(b, &s.answered)
	b = appendLineFilter(b, &s.began)
	b = binary.AppendUvarint(b, uint64(s.lastWait))
	b = binary.AppendUvarint(b, uint64(s.lastMoved))
	b = binary.AppendUvarint(b, uint64(s.thoughtAt))
	b = binary.LittleEndian.AppendUint64(b, s.changedBy)
	b = binary.AppendUvarint(b, uint64(s.changedAt))
	b = binary.AppendUvarint(b, uint64(s.reapplied))
	b = appendSketch(b, &s.changedShape)
	b = binary.LittleEndian.AppendUint64(b, s.changedShown)
	kept := 0 // the changes kept, the newest first: the rest are 0
	for kept < len(s.latestChanges) && s.latestChanges[kept] != 0 {
		kept++
	}
	b = binary.AppendUvarint(b, uint64(kept))
	for _, m := range s.latestChanges[:kept] {
		b = binary.LittleEndian.AppendUint64(b, m)
	}
	b = binary.LittleEndian.AppendUint64(b, s.lastUser)
	b = binary.AppendUvarint(b, uint64(len(s.refused)))
	for _, r := range s.refused {
		b = binary.LittleEndian.AppendUint64(b, r.id)
		b = binary.AppendUvarint(b, uint64(r.epoch))
	}
	b = binary.AppendUvarint(b, uint64(s.idle))
	for _, n := range [...]int32{s.selfHeld, s.selfHeldLines} {
		b = binary.AppendUvarint(b, uint64(n))
	}
	b = appendBool(b, s.selfHeldSpread)
	b = binary.LittleEndian.AppendUint64(b, s.stuckHeld)
	b = binary.LittleEndian.AppendUint64(b, s.resent)
	b = binary.AppendUvarint(b, uint64(s.resentN))
	b = binary.AppendUvarint(b, uint64(s.resentSaidAt))
	b = appendBool(b, s.resentAnswered)
	b = appendString(b, s.resentPreview)
	b = binary.AppendUvarint(b, uint64(s.musingN))
	if s.musingN > 0 { // the thoughts a thinking tool keeps recording (observeMusing)
		b = append(b, s.musingKept)
		for i := range s.musing[:s.musingKept] {
			b = binary.LittleEndian.AppendUint64(b, s.musing[i].exact)
			b = binary.AppendUvarint(b, uint64(s.musing[i].words))
			b = appendSketch(b, &s.musing[i].sketch)
		}
		b = binary.LittleEndian.AppendUint64(b, s.musingAnswer)
		b = binary.LittleEndian.AppendUint64(b, s.musingTurn) // its preview is taken again from the next thought
	}
	return b
}

// appendShape appends one outcome of a tool chain (readShape reads it).
func appendShape(b []byte, c *chainShape) []byte {
	b = binary.LittleEndian.AppendUint64(b, c.head)
	b = binary.LittleEndian.AppendUint64(b, c.exact)
	b = binary.LittleEndian.AppendUint64(b, c.joined)
	b = binary.LittleEndian.AppendUint64(b, c.lead)
	b = binary.LittleEndian.AppendUint64(b, c.leadExact)
	b = binary.LittleEndian.AppendUint64(b, c.kind)
	b = binary.LittleEndian.AppendUint64(b, c.sig)
	b = binary.LittleEndian.AppendUint64(b, c.site)
	b = appendSketch(b, &c.sketch)
	for _, n := range [...]int32{c.count, c.variants, c.guesses, c.saidAt, c.nothing} {
		b = binary.AppendUvarint(b, uint64(n))
	}
	b = binary.LittleEndian.AppendUint32(b, c.query)
	b = binary.LittleEndian.AppendUint64(b, c.file)
	b = appendBool(b, c.ranNothing)
	return appendBool(b, c.mixed)
}

func readShape(r *snapReader, c *chainShape) error {
	c.head, c.exact, c.joined, c.lead, c.leadExact, c.kind, c.sig, c.site = r.u64(), r.u64(), r.u64(), r.u64(), r.u64(), r.u64(), r.u64(), r.u64()
	readSketch(r, &c.sketch)
	for _, n := range [...]*int32{&c.count, &c.variants, &c.guesses, &c.saidAt, &c.nothing} {
		v := r.uvarint()
		if v > 1<<31-1 {
			return errors.New("count out of range")
		}
		*n = int32(v)
	}
	c.query = r.u32()
	c.file = r.u64()
	c.ranNothing = r.byte() == 1
	c.mixed = r.byte() == 1
	return r.err
}

func (s *progressState) restore(r *snapReader) error {
	if f := r.byte(); r.err == nil && f != progressSnapFormat {
		return fmt.Errorf("progress state format %d, want %d", f, progressSnapFormat)
	}
	u32 := func() uint32 { return uint32(r.uvarint()) }
	i32 := func() int32 { return int32(r.uvarint()) }
	boolean := func() bool { return r.byte() == 1 }
	s.epoch = u32()
	s.calls = i32()
	s.hasLast = boolean()
	s.last.id, s.last.result = r.u64(), r.u64()
	readSketch(r, &s.last.sketch)
	s.last.epochAfter = u32()
	s.stuck, s.copies, s.polls = i32(), i32(), i32()
	s.pollSaidAt = i32()
	s.pollRun = i32()
	s.pollMoved = boolean()
	s.pollPaused = boolean()
	s.lastPause = i32()
	n := r.count(maxChains)
	s.chains = s.chains[:0]
	for i := 0; i < n && r.err == nil; i++ {
		var c toolChain
		c.tool = r.u64()
		if err := readShape(r, &c.chainShape); err != nil {
			return err
		}
		if c.hasOther = boolean(); c.hasOther {
			if err := readShape(r, &c.other); err != nil {
				return err
			}
		}
		c.alternated = boolean()
		c.epoch = u32()
		c.lastID, c.turn = r.u64(), r.u64()
		failed := r.byte()
		c.failed, c.lintFewest = failed&1 == 1, failed>>1
		if c.nFails = r.byte(); int(c.nFails) > len(c.fails) {
			return fmt.Errorf("%d failures kept, at most %d", c.nFails, len(c.fails))
		}
		for i := range c.fails[:c.nFails] {
			c.fails[i] = r.u64()
		}
		c.recurSaid = r.u64()
		s.chains = append(s.chains, c)
	}
	s.refailSeq = u32()
	live := r.uvarint()
	if live > maxRefail {
		return fmt.Errorf("%d same-failure chains, at most %d", live, maxRefail)
	}
	s.refail = [maxRefail]refailChain{}
	for i := range s.refail[:live] {
		f := &s.refail[i]
		f.seq = u32()
		f.start = i32()
		f.id, f.result = r.u64(), r.u64()
		f.sig = r.u64()
		f.prev, f.prevSig = r.u64(), r.u64()
		f.hasPrev = boolean()
		f.prevCount, f.prevEpochs = i32(), i32()
		f.weak = boolean()
		readSketch(r, &f.sketch)
		f.count, f.epochs, f.epoch = i32(), i32(), u32()
		f.saidAt = i32()
		f.turn, f.places = r.u64(), r.u64()
		f.last, f.same = r.u64(), i32()
		if f.same < 0 {
			return errors.New("negative count")
		}
		if f.count <= 0 && r.err == nil {
			return errors.New("a same-failure chain with no failure")
		}
	}
	for i := range s.recent {
		rc := &s.recent[i]
		rc.id = r.u64()
		rc.scope = r.uvarint()
		rc.result, rc.raw = r.u64(), r.u64()
		rc.epochAfter = u32()
		rc.said = r.u32()
		rc.count = i32()
		rc.failed = boolean()
		rc.broke = boolean()
		rc.cutShort = boolean()
		rc.turn = r.u64()
	}
	for i := range s.ring {
		s.ring[i] = r.u64()
	}
	for i := range s.marks {
		m := r.u32()
		s.marks[i] = replayMark{said: uint16(m), call: uint16(m >> 16)}
	}
	s.changes, s.fails = r.u64(), r.u64()
	for i := range s.marks {
		if s.fails&(1<<i) != 0 {
			s.marks[i].fail = r.u16()
		}
	}
	for i := range s.runs {
		s.runs[i] = i32()
	}
	// Not kept: followCycles sets it at the next call. Until then cyclePeriod looks at every
	// period, as a text before that call may ask it (thoughtCheck).
	s.cycleDue = true
	s.thought.exact = r.u64()
	s.thought.words = int(r.uvarint())
	s.thought.marks = int(r.uvarint())
	readSketch(r, &s.thought.sketch)
	s.thoughtN = i32()
	s.thoughtSeen = boolean()
	s.callTurn = r.u64()
	s.stale = i32()
	s.paging = boolean()
	s.pagingID = r.u64()
	s.backs = i32()
	s.backsSaid = i32()
	s.backTurn = r.u64()
	s.lastAt = int64(r.u64())
	for i := range s.pages {
		s.pages[i].shape = r.u64()
		for j := range s.pages[i].at {
			s.pages[i].at[j] = r.uvarint()
		}
	}
	if s.pageNext = r.byte(); s.pageNext >= pageMemory {
		return errors.New("page mark out of range")
	}
	s.thoughtSaid = i32()
	s.lastTextID = r.u64()
	s.callSaid = boolean()
	s.spoke = boolean()
	s.declinedTool = r.u64()
	s.declinedKey = r.u64()
	s.saidAt = i32()
	s.replayAt = i32()
	if s.replayPeriod = r.byte(); s.replayPeriod > maxPeriod {
		return errors.New("replay period out of range")
	}
	if s.cycleHeld = r.byte(); s.cycleHeld > maxPeriod {
		return errors.New("held cycle period out of range")
	}
	s.thoughtPreview = r.string()
	for i := range s.unmoved {
		k := &s.unmoved[i]
		k.id = r.u64()
		k.runs = i32()
		k.words = i32()
	}
	s.unmovedSaid = r.u64()
	s.unmovedSaidAt = i32()
	s.rereadAt = i32()
	if s.probeLen = r.byte(); s.probeLen > maxProbe {
		return errors.New("print text out of range")
	}
	for i := range s.probe[:s.probeLen] {
		s.probe[i] = r.byte()
	}
	s.probeEpoch = uint32(r.uvarint())
	s.edited = [maxEdited]editedFile{}
	n = r.count(maxEdited)
	for i := 0; i < n && r.err == nil; i++ {
		e := &s.edited[i]
		e.path, e.tail = r.u32(), r.u32()
		e.epoch, e.hitEpoch = uint32(r.uvarint()), uint32(r.uvarint())
		e.hits = r.byte()
		if e.path == 0 {
			return errors.New("edited file without a path")
		}
	}
	for i := range s.missing {
		m := &s.missing[i]
		m.name, m.count = r.u32(), r.byte()
		m.said = boolean()
	}
	for i := range s.lasting {
		l := &s.lasting[i]
		l.identity = r.u32()
		for j := range l.commands {
			l.commands[j] = r.u16()
		}
		l.count = r.byte()
		l.turn, l.epoch = r.u16(), uint32(r.uvarint())
		l.first, l.last = i32(), i32()
	}
	s.tools.n = i32()
	for i := range s.tools.names {
		if name := r.string(); name != "" {
			s.tools.names[i] = s.class(name).name
		}
	}
	s.seen.reset()
	s.seen.n = i32()
	n = r.count(len(s.seen.bits))
	for i := 0; i < n && r.err == nil; i++ {
		idx := int(r.byte())
		if idx >= len(s.seen.bits) {
			return fmt.Errorf("bloom word %d", idx)
		}
		s.seen.bits[idx] = r.u64()
	}
	readLineFilter(r, &s.answered)
	readLineFilter(r, &s.began)
	s.lastWait = i32()
	s.lastMoved = i32()
	s.thoughtAt = i32()
	s.changedBy = r.u64()
	s.changedAt, s.reapplied = i32(), i32()
	readSketch(r, &s.changedShape)
	s.changedShown = r.u64()
	kept := r.count(changeMemory)
	s.latestChanges = [changeMemory]uint64{}
	for i := 0; i < kept && r.err == nil; i++ {
		s.latestChanges[i] = r.u64()
	}
	s.lastUser = r.u64()
	n = r.count(64)
	s.refused = s.refused[:0]
	for i := 0; i < n && r.err == nil; i++ {
		s.refused = append(s.refused, refusal{id: r.u64(), epoch: u32()})
	}
	s.idle = i32()
	for _, n := range [...]*int32{&s.selfHeld, &s.selfHeldLines} {
		if *n = i32(); *n < 0 {
			return errors.New("negative count")
		}
	}
	s.selfHeldSpread = boolean()
	s.stuckHeld = r.u64()
	s.resent = r.u64()
	s.resentN, s.resentSaidAt = i32(), i32()
	s.resentAnswered = boolean()
	s.resentPreview = r.string()
	if s.musingN = i32(); s.musingN > 0 {
		if s.musingKept = r.byte(); s.musingKept < 1 || s.musingKept > 2 {
			return errors.New("bad count of thoughts")
		}
		for i := range s.musing[:s.musingKept] {
			s.musing[i].exact = r.u64()
			s.musing[i].words = int(r.uvarint())
			readSketch(r, &s.musing[i].sketch)
		}
		s.musingAnswer = r.u64()
		s.musingTurn = r.u64()
	}
	if s.musingN < 0 || s.resentN < 0 || s.resentSaidAt < 0 || s.idle < 0 || s.stuck < 0 || s.copies < 0 || s.polls < 0 || s.pollSaidAt < 0 || s.pollRun < 0 || s.pollRun > s.polls || s.changedAt < 0 || s.reapplied < 0 || s.calls < 0 || s.thoughtN < 0 || s.lastWait < 0 || s.lastMoved < 0 || s.lastPause < 0 || s.thoughtAt < 0 || s.thoughtAt > s.calls {
		return errors.New("negative count")
	}
	return r.err
}
