package loopguard

import (
	"math/bits"
)

// A digest is what the progress detector keeps of one text: a tool's result or the model's
// own words. It is computed in one pass that normalises as it hashes, so it allocates nothing
// and never holds the text.
//
// Normalising removes what changes between two runs of the same command without meaning
// anything: ANSI escapes, lines overwritten by a carriage return (progress bars), runs of
// white space, timestamps and dates, durations, process ids and attempt counters, hex ids and
// UUIDs, message ids and nonces, temporary paths. What is left is compared for equality
// (exact) and for similarity (sketch).
//
// The masked hash and the sketch also drop the words that merely echo the call's own
// arguments ("The path /x/y does not exist" is the same answer for every path): two calls
// with different arguments whose masked results agree have learnt the same thing.
type digest struct {
	exact  uint64 // the normalised text
	masked uint64 // the normalised text with echoed argument words collapsed to one marker
	words  int    // words in the normalised text
	sketch sketch // word pairs of the masked text, for similarity
}

// sketchSize is how many shingle hashes a sketch keeps: a bottom-k sketch estimates the
// Jaccard similarity of two shingle sets within about ±1/sqrt(k).
const sketchSize = 16

// sketch is a bottom-k sketch: the sketchSize smallest distinct shingle hashes, ascending.
type sketch struct {
	h [sketchSize]uint64
	n uint8
}

func (s *sketch) add(h uint64) {
	n := int(s.n)
	if n == sketchSize && h >= s.h[n-1] {
		return
	}
	// Find the place, refusing duplicates; k is small, so a linear scan from the top wins.
	i := n
	for i > 0 && s.h[i-1] > h {
		i--
	}
	if i > 0 && s.h[i-1] == h {
		return
	}
	if n < sketchSize {
		n++
		s.n++
	}
	copy(s.h[i+1:n], s.h[i:n-1])
	s.h[i] = h
}

// similarity estimates the Jaccard similarity of the shingle sets behind two sketches: 1 for
// two empty texts, 0 when one is empty.
func similarity(a, b *sketch) float64 {
	if a.n == 0 || b.n == 0 {
		if a.n == b.n {
			return 1
		}
		return 0
	}
	i, j, union, common := 0, 0, 0, 0
	for union < sketchSize && (i < int(a.n) || j < int(b.n)) {
		switch {
		case j >= int(b.n) || (i < int(a.n) && a.h[i] < b.h[j]):
			i++
		case i >= int(a.n) || b.h[j] < a.h[i]:
			j++
		default:
			i++
			j++
			common++
		}
		union++
	}
	return float64(common) / float64(union)
}

// echoSet holds the words of a call's arguments, for masking their echo in its result.
// Open addressing over a fixed table: arguments are short, and the table lives in the
// detector's scratch space, so building it allocates nothing.
type echoSet struct {
	slot [128]uint64
	n    int
}

func (e *echoSet) reset() {
	if e.n > 0 {
		e.slot = [128]uint64{}
		e.n = 0
	}
}

func (e *echoSet) add(h uint64) {
	if e.n >= len(e.slot)/2 {
		return // full enough: further words are simply not masked
	}
	h |= 1 // 0 marks an empty slot
	for i := h; ; i++ {
		p := &e.slot[i&uint64(len(e.slot)-1)]
		if *p == h {
			return
		}
		if *p == 0 {
			*p = h
			e.n++
			return
		}
	}
}

func (e *echoSet) has(h uint64) bool {
	if e.n == 0 {
		return false
	}
	h |= 1
	for i := h; ; i++ {
		p := e.slot[i&uint64(len(e.slot)-1)]
		if p == h {
			return true
		}
		if p == 0 {
			return false
		}
	}
}

// Character classes for the one-pass scanner.
const (
	cSpace = iota // space, tab, form feed, vertical tab
	cWord         // letters, digits, '_', and every byte of a multi-byte UTF-8 character
	cPunct        // everything else that is printable
	cNL           // '\n'
	cCR           // '\r'
	cEsc          // 0x1b, the start of an ANSI escape
)

var charClass = func() (t [256]uint8) {
	for i := range t {
		t[i] = cPunct
	}
	for _, c := range " \t\f\v" {
		t[c] = cSpace
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = cWord
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = cWord
		t[c-'a'+'A'] = cWord
	}
	t['_'] = cWord
	for i := 0x80; i < 256; i++ {
		t[i] = cWord
	}
	t['\n'] = cNL
	t['\r'] = cCR
	t[0x1b] = cEsc
	for i := 0; i < 0x20; i++ {
		if t[i] == cPunct {
			t[i] = cSpace // other control characters are noise
		}
	}
	return t
}()

const (
	mixK1 = 0x9e3779b97f4a7c15
	mixK2 = 0xbf58476d1ce4e5b9
)

func mixWord(h, w uint64) uint64 { return bits.RotateLeft64((h^w)*mixK1, 31) }

// wordHash hashes a short string 8 bytes at a time.
func wordHash(s string) uint64 {
	h := uint64(len(s)) * mixK2
	for len(s) >= 8 {
		h = mixWord(h, uint64(s[0])|uint64(s[1])<<8|uint64(s[2])<<16|uint64(s[3])<<24|
			uint64(s[4])<<32|uint64(s[5])<<40|uint64(s[6])<<48|uint64(s[7])<<56)
		s = s[8:]
	}
	var w uint64
	for i := 0; i < len(s); i++ {
		w |= uint64(s[i]) << (8 * i)
	}
	return mix64(mixWord(h, w))
}

// Markers that stand in for what normalising removes.
var (
	markVolatile = wordHash("\x00volatile")
	markEcho     = wordHash("\x00echo")
)

// digester computes digests. It lives in a detector state so its buffers are reused.
type digester struct {
	echo  echoSet
	lines []uint64 // hashes of the result's substantial lines, for novelty; capped
}

// maxLines caps the line hashes one result contributes to novelty.
const maxLines = 512

// prevWordKind remembers what the previous word said about the number after it.
const (
	prevNone  = iota
	prevCount // "pid", "attempt", "retry", "elapsed", "took": the number after it is volatile
)

// digest normalises and hashes text. When echo is true, words found in d.echo are masked in
// the masked hash and the sketch. When lines is true, the hashes of lines with at least two
// words are collected in d.lines.
func (d *digester) digest(text string, echo, lines bool) digest {
	var (
		out      digest
		exact    uint64 = mixK2
		masked   uint64 = mixK2
		lineH    uint64 // the current line's exact hash
		lineM    uint64
		lineW    int // words on the current line
		prevWord uint64
		inEcho   bool
		prevKind int
	)
	if lines {
		d.lines = d.lines[:0]
	}
	endLine := func() {
		if lineW > 0 {
			exact = mixWord(exact, lineH)
			masked = mixWord(masked, lineM)
			if lines && lineW >= 2 && len(d.lines) < maxLines {
				d.lines = append(d.lines, mix64(lineH))
			}
		}
		lineH, lineM, lineW = 0, 0, 0
		inEcho = false
	}
	emit := func(h uint64, isEcho bool) {
		lineH = mixWord(lineH, h)
		lineW++
		out.words++
		m := h
		if isEcho {
			if inEcho {
				return // a run of echoed words is one marker
			}
			m = markEcho
		}
		inEcho = isEcho
		lineM = mixWord(lineM, m)
		out.sketch.add(mix64(prevWord*mixK1 ^ m))
		prevWord = m
	}
	n := len(text)
	for i := 0; i < n; {
		switch charClass[text[i]] {
		case cSpace:
			i++
		case cNL:
			endLine()
			i++
		case cCR:
			if i+1 < n && text[i+1] == '\n' {
				i++
				continue
			}
			// A bare carriage return: what follows overwrites the line (a progress bar).
			lineH, lineM, lineW = 0, 0, 0
			i++
		case cEsc:
			i = skipEscape(text, i)
		default:
			// A field: a run of printable, non-space bytes. Classify it whole (timestamps, ids
			// and paths span punctuation), then hash its words.
			j := i
			for j < n && (charClass[text[j]] == cWord || charClass[text[j]] == cPunct) {
				j++
			}
			field := text[i:j]
			i = j
			kind := volatileKind(field, prevKind, text[j:])
			if kind != fieldPlain {
				emit(markVolatile, false)
				prevKind = prevNone
				continue
			}
			// Hash the field's words; punctuation between them joins the exact hash only.
			for k := 0; k < len(field); {
				c := charClass[field[k]]
				if c != cWord {
					lineH = mixWord(lineH, uint64(field[k]))
					k++
					continue
				}
				m := k
				for m < len(field) && charClass[field[m]] == cWord {
					m++
				}
				w := field[k:m]
				h := wordHash(w)
				emit(h, echo && d.echo.has(h))
				prevKind = countWord(w)
				k = m
			}
		}
	}
	endLine()
	if out.sketch.n == 0 && out.words > 0 {
		out.sketch.add(mix64(exact))
	}
	out.exact, out.masked = mix64(exact), mix64(masked)
	return out
}

// setEcho fills the echo set with the words of a call's arguments.
func (d *digester) setEcho(args []byte) {
	d.echo.reset()
	n := len(args)
	for i := 0; i < n; {
		if charClass[args[i]] != cWord {
			i++
			continue
		}
		j := i
		for j < n && charClass[args[j]] == cWord {
			j++
		}
		d.echo.add(wordHash(string(args[i:j])))
		i = j
	}
}

// skipEscape returns the index after the ANSI escape sequence at text[i] (an ESC byte):
// CSI sequences (ESC [ ... final byte), OSC sequences (ESC ] ... BEL or ESC \), and two-byte
// escapes.
func skipEscape(text string, i int) int {
	n := len(text)
	if i+1 >= n {
		return n
	}
	switch text[i+1] {
	case '[':
		j := i + 2
		for j < n && (text[j] < 0x40 || text[j] > 0x7e) {
			j++
		}
		return min(j+1, n)
	case ']':
		j := i + 2
		for j < n && text[j] != 0x07 && !(text[j] == 0x1b && j+1 < n && text[j+1] == '\\') {
			j++
		}
		if j < n && text[j] == 0x1b {
			j++
		}
		return min(j+1, n)
	}
	return i + 2
}

// countWord says whether a word announces a volatile number after it ("pid 4242",
// "attempt 3", "took 12").
func countWord(w string) int {
	if len(w) < 3 || len(w) > 7 {
		return prevNone
	}
	if equalFold(w, "pid") || equalFold(w, "attempt") || equalFold(w, "retry") ||
		equalFold(w, "elapsed") || equalFold(w, "took") {
		return prevCount
	}
	return prevNone
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		c := a[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != b[i] {
			return false
		}
	}
	return true
}

const (
	fieldPlain = iota
	fieldVolatile
)

// volatileKind classifies a field (a run of non-space characters). after is the text that
// follows it, for a unit separated by a space ("1.5 s"). prev says what the word before it
// announced.
func volatileKind(f string, prev int, after string) int {
	// Trim the punctuation that wraps a field: (12ms), "2024-01-02", [pid 7], <0x1f>.
	for len(f) > 0 && isWrap(f[0]) {
		f = f[1:]
	}
	for len(f) > 0 && isWrap(f[len(f)-1]) {
		f = f[:len(f)-1]
	}
	if len(f) == 0 {
		return fieldPlain
	}
	var digits, hexLetters, letters, seps, dots, transitions int
	lastDigit := -1
	for i := 0; i < len(f); i++ {
		c := f[i]
		isDigit := 0
		switch {
		case '0' <= c && c <= '9':
			digits++
			isDigit = 1
		case ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'):
			hexLetters++
			letters++
		case ('g' <= c && c <= 'z') || ('G' <= c && c <= 'Z'):
			letters++
		case c == ':' || c == '-' || c == '/':
			seps++
			continue
		case c == '.':
			dots++
			continue
		default:
			continue
		}
		if lastDigit >= 0 && lastDigit != isDigit {
			transitions++
		}
		lastDigit = isDigit
	}
	switch {
	case isTempPath(f):
		return fieldVolatile
	case digits == 0:
		return fieldPlain
	case letters == 0 && seps >= 2 && digits >= 4:
		return fieldVolatile // 2024-01-02, 12:34:56, 01/02/2024
	case isTimestamp(f):
		return fieldVolatile // 2024-01-02T03:04:05.678Z
	case isDuration(f, after):
		return fieldVolatile // 12ms, 1.5s, 3 seconds
	case letters == 0 && seps == 0 && prev == prevCount:
		return fieldVolatile // pid 4242, attempt 3
	case isHexID(f, digits, hexLetters, letters):
		return fieldVolatile // 0x7ffd5e8c, deadbeef01, UUIDs, git hashes
	case len(f) >= 12 && digits >= 3 && letters >= 3 && transitions >= 4:
		return fieldVolatile // msg_01HZX9K2QW7, nonces
	}
	if eq := indexByte(f, '='); eq > 0 && eq+1 < len(f) {
		// key=value: pid=4242, id=9f86d081884c
		if countWord(f[:eq]) == prevCount {
			return volatileKind(f[eq+1:], prevCount, after)
		}
	}
	return fieldPlain
}

func isWrap(c byte) bool {
	switch c {
	case '(', ')', '[', ']', '{', '}', '<', '>', '"', '\'', '`', ',', ';':
		return true
	}
	return false
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

func isTempPath(f string) bool {
	for _, p := range [...]string{"/tmp/", "/var/folders/", "/private/var/folders/", "/var/tmp/", "\\Temp\\", "/dev/shm/"} {
		if containsFold(f, p) {
			return true
		}
	}
	return false
}

func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if equalFold(s[i:i+len(sub)], lowerASCII(sub)) {
			return true
		}
	}
	return false
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// isTimestamp recognises an ISO 8601 date-time: digits, then 'T' or ' ', then a time.
func isTimestamp(f string) bool {
	if len(f) < 15 || !isDigits(f[:4]) || f[4] != '-' {
		return false
	}
	t := indexByte(f, 'T')
	return t == 10 && len(f) > 13 && f[13] == ':'
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) > 0
}

// isDuration recognises a number with a time unit, attached (12ms, 1.5s, 2m30s) or after one
// space (3 seconds).
func isDuration(f string, after string) bool {
	i := 0
	for i < len(f) && (('0' <= f[i] && f[i] <= '9') || f[i] == '.') {
		i++
	}
	if i == 0 {
		return false
	}
	unit := f[i:]
	if unit == "" {
		// The unit may be the next word.
		if len(after) > 1 && after[0] == ' ' {
			k := 1
			for k < len(after) && charClass[after[k]] == cWord {
				k++
			}
			return isTimeUnit(after[1:k], true)
		}
		return false
	}
	// Compound durations: 2m30s, 1h2m3.5s.
	for unit != "" {
		k := 0
		for k < len(unit) && (('a' <= unit[k] && unit[k] <= 'z') || unit[k] == 0xc2 || unit[k] == 0xb5) {
			k++
		}
		if k == 0 || !isTimeUnit(unit[:k], false) {
			return false
		}
		unit = unit[k:]
		k = 0
		for k < len(unit) && (('0' <= unit[k] && unit[k] <= '9') || unit[k] == '.') {
			k++
		}
		unit = unit[k:]
	}
	return true
}

func isTimeUnit(u string, spelled bool) bool {
	switch u {
	case "ns", "us", "µs", "ms", "s", "m", "h":
		return !spelled || u == "s" || u == "ms"
	case "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes",
		"millisecond", "milliseconds", "hour", "hours":
		return true
	}
	return false
}

// isHexID recognises hexadecimal identifiers: 0x-prefixed numbers, runs of at least 8 hex
// digits that mix digits and letters (git hashes, object ids), and UUIDs.
func isHexID(f string, digits, hexLetters, letters int) bool {
	if len(f) > 2 && f[0] == '0' && (f[1] == 'x' || f[1] == 'X') {
		return allHex(f[2:])
	}
	if letters != hexLetters || hexLetters == 0 {
		return false
	}
	hex := 0
	for i := 0; i < len(f); i++ {
		if f[i] == '-' {
			continue
		}
		if !isHexByte(f[i]) {
			return false
		}
		hex++
	}
	return hex >= 8 && digits > 0
}

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHexByte(s[i]) {
			return false
		}
	}
	return len(s) > 0
}

func isHexByte(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}
