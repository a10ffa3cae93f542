package loopguard

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// textFingerprint identifies a text block for duplicate-text counting: line endings are
// normalised (\r\n and \r become \n), spaces and tabs before a line break are dropped, and the
// whole is trimmed. It hashes as it normalises, so it allocates nothing.
func textFingerprint(s string) uint64 {
	s = strings.TrimFunc(s, unicode.IsSpace)
	h := uint64(fnvOffset64)
	feed := func(b byte) {
		h ^= uint64(b)
		h *= fnvPrime64
	}
	pending := 0 // start of a run of spaces and tabs not yet fed, or -1
	pending = -1
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
			for j := pending; j < i; j++ {
				feed(s[j])
			}
			pending = -1
		}
		feed(c)
	}
	return mix64(h)
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
