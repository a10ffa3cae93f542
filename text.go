package loopguard

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"
)

// textFingerprint identifies a text block for duplicate-text counting: line endings are
// normalised (\r\n and \r become \n), spaces and tabs before a line break are dropped, and the
// whole is trimmed. It hashes as it normalises, a line at a time, so it allocates nothing; tool
// results are often long, and this runs on every one of them.
func textFingerprint(s string) uint64 {
	s = strings.TrimFunc(s, unicode.IsSpace)
	var h textHasher
	if strings.IndexByte(s, '\r') < 0 {
		// The common case: only \n line breaks. Feed each line without its trailing blanks.
		for {
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				h.write(s) // the last line: already trimmed
				break
			}
			h.write(strings.TrimRight(s[:i], " \t"))
			h.writeByte('\n')
			s = s[i+1:]
		}
		return h.sum()
	}
	pending := -1 // start of a run of spaces and tabs not yet fed
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t':
			if pending < 0 {
				pending = i
			}
			continue
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			c = '\n'
		}
		if c == '\n' {
			pending = -1 // trailing spaces of the line are dropped
		} else if pending >= 0 {
			h.write(s[pending:i])
			pending = -1
		}
		h.writeByte(c)
	}
	return h.sum()
}

// textHasher is a streaming 64-bit hash that takes its input 8 bytes at a time, however the
// input is split into writes. Not cryptographic: it tells texts apart, it does not resist
// crafted collisions.
type textHasher struct {
	h   uint64
	n   uint64 // bytes written
	buf [8]byte
	nb  int // bytes waiting in buf
}

const textPrime = 0x9e3779b97f4a7c15

func (t *textHasher) word(w uint64) {
	t.h = bits.RotateLeft64((t.h^w)*textPrime, 29)
}

func (t *textHasher) writeByte(c byte) {
	t.buf[t.nb] = c
	t.nb++
	t.n++
	if t.nb == 8 {
		t.word(binary.LittleEndian.Uint64(t.buf[:]))
		t.nb = 0
	}
}

func (t *textHasher) write(s string) { writeText(t, s) }

// writeBytes is write for a byte slice.
func (t *textHasher) writeBytes(s []byte) { writeText(t, s) }

// writeText feeds s to t 8 bytes at a time, the bytes left over from the last call first.
func writeText[T string | []byte](t *textHasher, s T) {
	t.n += uint64(len(s))
	if t.nb > 0 {
		for len(s) > 0 && t.nb < 8 {
			t.buf[t.nb] = s[0]
			t.nb++
			s = s[1:]
		}
		if t.nb < 8 {
			return
		}
		t.word(binary.LittleEndian.Uint64(t.buf[:]))
		t.nb = 0
	}
	for len(s) >= 8 {
		t.word(uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56)
		s = s[8:]
	}
	t.nb = copy(t.buf[:], s)
}

func (t *textHasher) sum() uint64 {
	h := t.h
	if t.nb > 0 {
		var tail [8]byte
		copy(tail[:], t.buf[:t.nb])
		h = bits.RotateLeft64((h^binary.LittleEndian.Uint64(tail[:]))*textPrime, 29)
	}
	return mix64(h ^ t.n*0xff51afd7ed558ccd)
}

// textPreview collapses runs of white space to one space, trims, and cuts to limit code points
// with a trailing ellipsis: enough of a text for a model to recognise it.
func textPreview(s string, limit int) string {
	var b strings.Builder
	n := 0
	space := false
	for _, r := range strings.TrimFunc(s, unicode.IsSpace) {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			if n == limit {
				b.WriteString("…")
				return b.String()
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		if n == limit {
			b.WriteString("…")
			return b.String()
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// cutPreview returns s whole when it has at most limit code points, else its first limit code
// points and the catalogue's "… (+N more chars)" tail. It never splits a code point.
func cutPreview(s string, limit int, cat *catalogue) string {
	total := utf8.RuneCountInString(s)
	if total <= limit {
		return s
	}
	end := 0
	for i := 0; i < limit; i++ {
		_, size := utf8.DecodeRuneInString(s[end:])
		end += size
	}
	return s[:end] + fill(cat.moreChars, "n", itoa(total-limit))
}
