package loopguard

import (
	"math/bits"
	"strings"
	"unsafe"
)

// A byteMap says, for each byte of a window of a text, which of the few classes the long-text
// digest asks about it is in, as one bit a byte. Built in one pass over the window (by SSE2 on
// amd64, 16 bytes an instruction), it turns the questions digestLong asks of every line (where
// does it end, where is its next digit or '/', where does that field start and end, does the
// field hold a '/' or a '=', how many digits) into a few instructions on words of bits. Asked
// of the bytes themselves, 8 at a time, the same questions cost about three quarters of the
// digest of a long result (session 59's profile: sortField and hashLine's own scan).
//
// The map covers scanWindow bytes from base; digestLong moves it to the start of the line
// that runs past its end, and a line longer than a window is hashed without it (hashLine).
type byteMap struct {
	base, end int // the window: text[base:end]
	// one bit a byte of the window, bit i of word i/64 for text[base+i]
	low     bitRow // <= ' ': white space and control characters, what ends a field
	nl      bitRow // '\n'
	digit   bitRow // '0' to '9'
	dos     bitRow // a digit or '/': where a field may be volatile (digitOrSlashOnly)
	slashEq bitRow // '/' or '=': a path or key=value (slashOrEq)
}

// scanWindow is how many bytes a byteMap covers: a 4 KB result in one window, 2.5 KB of
// bits on the stack of digestLong.
const scanWindow = 4096

// bitRow is one class's bits over a window.
type bitRow [scanWindow / 64]uint64

// fill maps text[base:], up to scanWindow bytes of it.
func (m *byteMap) fill(text string, base int) {
	end := min(base+scanWindow, len(text))
	m.base, m.end = base, end
	blocks := (end - base) / 64
	if blocks > 0 {
		classifyBlocks(unsafe.StringData(text[base:]), blocks, &m.low[0], &m.nl[0], &m.digit[0], &m.dos[0], &m.slashEq[0])
	}
	rest := end - base - blocks*64
	if rest == 0 {
		return
	}
	// The last bytes, fewer than a block, through the same code: copied into a block of
	// zeros, whose zeros (low bytes) are then cut off.
	var tail [64]byte
	copy(tail[:], text[base+blocks*64:end])
	classifyBlocks(&tail[0], 1, &m.low[blocks], &m.nl[blocks], &m.digit[blocks], &m.dos[blocks], &m.slashEq[blocks])
	m.low[blocks] &= 1<<uint(rest) - 1
}

// lineEnd returns the index of the first '\n' at or after start, or len(text), moving the
// window to start when the line runs past it.
func (m *byteMap) lineEnd(text string, start int) int {
	if start < m.end {
		if e := m.base + m.nl.next(start-m.base, m.end-m.base); e < m.end || m.end == len(text) {
			return e
		}
	}
	m.fill(text, start)
	if e := m.base + m.nl.next(0, m.end-m.base); e < m.end {
		return e
	}
	// A line longer than a window, or the text's last: found without the map, and hashed
	// without it if it is longer.
	if k := strings.IndexByte(text[m.end:], '\n'); k >= 0 {
		return m.end + k
	}
	return len(text)
}

// covers says whether text[ls:le] lies within the window.
func (m *byteMap) covers(ls, le int) bool { return ls >= m.base && le <= m.end }

// next returns the first set bit in [from, to), or to.
func (r *bitRow) next(from, to int) int {
	if from >= to {
		return to
	}
	w := from >> 6
	if x := r[w] >> (uint(from) & 63); x != 0 {
		return min(from+bits.TrailingZeros64(x), to)
	}
	for w++; w<<6 < to; w++ {
		if r[w] != 0 {
			return min(w<<6+bits.TrailingZeros64(r[w]), to)
		}
	}
	return to
}

// after returns the position just after the last set bit in [from, to), or from when none
// is set: where a field starts, given the bytes that end fields.
func (r *bitRow) after(from, to int) int {
	if to <= from {
		return from
	}
	w := (to - 1) >> 6
	x := r[w] & (^uint64(0) >> (63 - uint(to-1)&63)) // the bits up to to-1
	for {
		if x != 0 {
			return max(w<<6+64-bits.LeadingZeros64(x), from)
		}
		if w<<6 <= from {
			return from
		}
		w--
		x = r[w]
	}
}

// count returns how many bits are set in [from, to).
func (r *bitRow) count(from, to int) int {
	n := 0
	for from < to {
		w := from >> 6
		x := r[w] >> (uint(from) & 63)
		if take := to - from; take < 64-from&63 {
			x &= 1<<uint(take) - 1
		}
		n += bits.OnesCount64(x)
		from = (w + 1) << 6
	}
	return n
}

// any says whether a bit is set in [from, to).
func (r *bitRow) any(from, to int) bool { return r.next(from, to) < to }

// classifyBlocksGeneric is classifyBlocks in portable Go, 8 bytes at a time: each class's
// flags (the high bit of each byte, as the word tests of digest.go give them) gathered into
// 8 bits by one multiplication.
func classifyBlocksGeneric(p *byte, blocks int, low, nl, digit, dos, slashEq *uint64) {
	text := unsafe.String(p, blocks*64)
	lows := unsafe.Slice(low, blocks)
	nls := unsafe.Slice(nl, blocks)
	digits := unsafe.Slice(digit, blocks)
	doss := unsafe.Slice(dos, blocks)
	ses := unsafe.Slice(slashEq, blocks)
	for b := 0; b < blocks; b++ {
		var l, n, d, s, e uint64
		for k := 0; k < 8; k++ {
			w := loadWord(text, b*64+k*8)
			shift := uint(8 * k)
			l |= gatherHighs(lowBytes(w)) << shift
			n |= gatherHighs(zeroBytes(w^(ones*'\n'))) << shift
			d |= gatherHighs(digitBytes(w)) << shift
			s |= gatherHighs(zeroBytes(w^(ones*'/'))) << shift
			e |= gatherHighs(zeroBytes(w^(ones*'='))) << shift
		}
		lows[b], nls[b], digits[b], doss[b], ses[b] = l, n, d, d|s, s|e
	}
}

// gatherHighs gathers the high bits of w's bytes into its low 8 bits, byte i's as bit i: the
// multiplier puts byte i's bit at bit 56+i, and no two of the products overlap.
func gatherHighs(m uint64) uint64 { return (m >> 7) * 0x0102040810204080 >> 56 }

// hashLineIn is hashLine(text[ls:le]) for a line within the window, its fields found in the
// map: the same value, by the same reasoning, with the bytes looked at only where a field
// holds a digit or a '/'.
func (m *byteMap) hashLineIn(text string, ls, le int) uint64 {
	line := text[ls:le]
	h, seg, j, dirEntry := lineHashStart(line)
	n := len(line)
	off := ls - m.base // the line's start in the map
	for j < n {
		k := m.dos.next(off+j, off+n) - off
		if k >= n {
			break
		}
		fs, fe, verdict := m.sortField(line, off, k)
		// fieldIsPlain, written out: this loop runs for every field with a digit of every long
		// result, and the call cost 4% of the digest of one (session 59).
		var plain bool
		switch verdict {
		case quickPlain:
			plain = quickClass[line[fs]]&qNotHex != 0 || !idLabelBefore(line, fs) || settle(line, fs, fe, verdict)
		case quickWrappedNumber:
			plain = !(fe+1 < n && line[fe] == ' ') || settle(line, fs, fe, verdict)
		default:
			plain = settle(line, fs, fe, verdict)
		}
		if !plain || dirEntry && fe < n && isDigits(line[fs:fe]) {
			h = hashChunk(h, line[seg:fs])
			h = mixWord(h, markVolatile)
			seg = fe
		}
		j = fe
	}
	return hashChunk(h, line[seg:])
}

// sortField is the package's sortField(line, k) for a line at off in the map: the field's
// bounds and a digit count come from the map's rows instead of loads of its bytes.
func (m *byteMap) sortField(line string, off, k int) (fs, fe, verdict int) {
	n := len(line)
	// Most fields lie within the word of bits that holds k: both ends are found in it. (A
	// line follows a byte that ends fields, '\n' or the '\r' of a progress bar, or starts the
	// window, so the start found is never before the line's; max says so.)
	p := off + k
	x := m.low[p>>6]
	if below := x & (1<<(uint(p)&63) - 1); below != 0 {
		fs = max(p&^63+64-bits.LeadingZeros64(below), off) - off
	} else {
		fs = m.low.after(off, p) - off
	}
	if above := x >> (uint(p) & 63); above != 0 {
		fe = min(p+bits.TrailingZeros64(above), off+n) - off
	} else {
		fe = m.low.next(p, off+n) - off
	}
	if n < 8 {
		return fs, fe, quickUnsure // as sortField: volatileKind is exact
	}
	size := fe - fs
	c0 := quickClass[line[fs]]
	if size < 8 {
		switch {
		case c0&(qWrap|qDigit) == 0:
			// plain unless it is a path or key=value
			if !m.slashEq.any(off+fs, off+fe) {
				return fs, fe, quickPlain
			}
		case c0&qDigit != 0:
			var w uint64
			if fs+8 <= n {
				w = loadWord(line, fs)
			} else {
				w = loadWord(line, n-8) >> ((8 * (fs + 8 - n)) & 63)
			}
			return fs, fe, sortNumber(w&(uint64(1)<<((8*size)&63)-1), size)
		}
		return fs, fe, quickUnsure
	}
	switch {
	case c0&qWrap != 0:
		return fs, fe, quickUnsure
	case c0&qDigit != 0:
		if size > 8 {
			return fs, fe, quickUnsure
		}
		return fs, fe, sortNumber(loadWord(line, fs), size)
	case m.slashEq.any(off+fs, off+fe):
		return fs, fe, quickUnsure
	case c0&qNotHex != 0 && (size < 12 || m.digit.count(off+fs, off+fe) < 3):
		return fs, fe, quickPlain
	}
	return fs, fe, quickUnsure
}
