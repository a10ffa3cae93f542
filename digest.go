package loopguard

import (
	"math/bits"
	"strings"
	"unicode/utf8"
	"unsafe"
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
	marks  int    // of them, volatile fields replaced by a marker (short texts only)
	sketch sketch // word pairs of the masked text, for similarity
	lead   uint64 // the first line of two words or more, masked: what an error message says first
}

// sketchSize is how many shingle hashes a sketch keeps: a bottom-k sketch estimates the
// Jaccard similarity of two shingle sets within about ±1/sqrt(k).
const sketchSize = 16

// sketch is a bottom-k sketch: the sketchSize smallest distinct shingle hashes, ascending.
type sketch struct {
	h    [sketchSize]uint64
	n    uint8
	mode uint8 // what its shingles are: sketchWords, sketchLines or sketchEscapedLines
}

// What a sketch's shingles are. Two sketches are comparable only when they are of one mode;
// digest picks the mode by the text's length (longTextBytes), and likeness bridges the seam
// that leaves between two answers either side of it.
const (
	sketchWords        = iota // pairs of words, masked (digestFields of a short text)
	sketchLines               // lines, each hashed by hashLine (digestLong)
	sketchEscapedLines        // lines of a long text with ANSI escapes, hashed field by field (digestFields)
)

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

// shapeWindow is how much of a text shapeSketch reads.
const shapeWindow = 8 << 10

// shapeSketch sketches the lines of a text with their digits and white space left out: two
// views of one place in a file whose lines an insertion renumbered have the same lines, their
// numbers moved. It runs only for the answers of calls that change the workspace.
func shapeSketch(text string) sketch {
	var sk sketch
	text = text[:min(len(text), shapeWindow)]
	h, empty := uint64(fnvOffset64), true
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\n':
			if !empty {
				sk.add(mix64(h))
			}
			h, empty = fnvOffset64, true
		case c >= '0' && c <= '9', c == ' ', c == '\t', c == '\r':
		default:
			h ^= uint64(c)
			h *= fnvPrime64
			empty = false
		}
	}
	if !empty {
		sk.add(mix64(h))
	}
	return sk
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
	used [64]uint8 // the slots filled, so that reset clears those alone (a call fills a few)
	n    int
}

func (e *echoSet) reset() {
	for _, i := range e.used[:e.n] {
		e.slot[i] = 0
	}
	e.n = 0
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
			e.used[e.n] = uint8(i & uint64(len(e.slot)-1))
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

// Byte classes for the one-pass scanner, as bits so that a field's bytes can be OR-ed into
// one summary: most fields hold no digit and no slash, and are hashed without a second look.
const (
	bSpace = 1 << iota // space, tab, other control characters: ends a field
	bNL                // '\n': ends a line
	bCR                // '\r'
	bEsc               // 0x1b: an ANSI escape starts
	bDigit             // 0-9
	bSlash             // '/' or '\\': a path
)

var byteBits = func() (t [256]uint8) {
	for i := 0; i < 0x20; i++ {
		t[i] = bSpace
	}
	t[' '] = bSpace
	t['\n'] = bNL
	t['\r'] = bCR
	t[0x1b] = bEsc
	for c := '0'; c <= '9'; c++ {
		t[c] = bDigit
	}
	t['/'] = bSlash
	t['\\'] = bSlash
	return t
}()

// fieldEnd is the set of bits that end a field.
const fieldEnd = bSpace | bNL | bCR | bEsc

const (
	mixK1 = 0x9e3779b97f4a7c15
	mixK2 = 0xbf58476d1ce4e5b9
)

func mixWord(h, w uint64) uint64 { return bits.RotateLeft64((h^w)*mixK1, 31) }

// wordHash hashes a short string 8 bytes at a time, its length folded in first.
func wordHash(s string) uint64 { return hashChunk(uint64(len(s))*mixK2, s) }

// Markers that stand in for what normalising removes.
var (
	markVolatile = wordHash("\x00volatile")
	markEcho     = wordHash("\x00echo")
)

// digester computes digests. It lives in a detector state so its buffers are reused.
type digester struct {
	echo   echoSet
	lines  []uint64   // hashes of the text's substantial lines, for novelty; capped
	echoed int        // substantial lines left out of lines as made of the call's own words
	wide   []wideLine // those of lines that fill more than one screen row, in order
	spaced []byte     // a thought with its ideographs set apart (spaceIdeographs); small ones reused
}

// maxLines caps the line hashes one result contributes to novelty.
const maxLines = 512

// longTextBytes is the size from which a text is compared line by line rather than word by word:
// a long result's lines are its natural units (a diff counts lines), and pairing every word
// would cost more than the rest of the pass.
const longTextBytes = 1024

// prevWordKind remembers what the previous word said about the number after it.
const (
	prevNone   = iota
	prevCount  // "pid", "attempt", "retry", "elapsed", "took": the number after it is volatile
	prevID     // "ID:", "id": the identifier after it (4 or more hex characters) is volatile
	prevHandle // "shellId:", "request_id": a handle the tool made up, number or hex (see handleLabel)
)

// shellLineWord stands for "line" after a shell's name in digest's word before a number.
const shellLineWord = "\x00shell line"

// shellLineBefore says whether the field at fs follows a shell's "bash: line" (also "sh:",
// "/bin/bash:", "zsh:"): a shell reading commands from a pipe, as SWE-agent's does, numbers
// its errors by the lines it has read so far ("/bin/bash: line 11301: cd: fastjson/: No such
// file or directory"), a count that grows with every command and says nothing of the error.
// A traceback's "line 12" is where the error is, and stays.
func shellLineBefore(line string, fs int) bool {
	if fs < len("sh: line ") || line[fs-1] != ' ' || line[fs-2] != 'e' {
		return false // most numbers: a quick look rules them out
	}
	p := strings.TrimRight(line[:fs], " ")
	if !strings.HasSuffix(p, " line") {
		return false
	}
	return strings.HasSuffix(strings.TrimRight(p[:len(p)-len(" line")], " "), "sh:")
}

// isShellLineCount says whether the field after a shell's "line" is its count ("11301:"), as
// both digest paths judge it.
func isShellLineCount(f string) bool { return isDigits(strings.TrimSuffix(f, ":")) }

// wordKind is what a field says of the number after it (see prevWordKind).
func wordKind(w string) int {
	switch {
	case w == "":
		return prevNone
	case len(labelWord(w)) <= 7:
		// the count words are short; their wrapping does not count ("(attempt 2)")
		return countWord(w)
	case handleLabel(w):
		return prevHandle
	case timeLabel(w):
		return prevCount
	}
	return prevNone
}

// countsNumber says whether the word before a number makes it volatile.
func countsNumber(prev int) bool { return prev == prevCount || prev == prevHandle }

// digest normalises and hashes text in one pass over its fields (runs of non-space bytes).
// When echo is true, fields found in d.echo are masked in the masked hash and the sketch.
// When lines is true, the hashes of lines with at least two fields are collected in d.lines.
func (d *digester) digest(text string, echo, lines bool) digest {
	if len(text) >= longTextBytes && strings.IndexByte(text, 0x1b) < 0 {
		return d.digestLong(text, lines)
	}
	return d.digestFields(text, echo, lines, len(text) >= longTextBytes)
}

// maxThoughtBytes bounds the text digestThought reads: a thought's first 16 KB say what it
// is, and a model's thinking may run to many times that.
const maxThoughtBytes = 16 << 10

// digestThought digests a model's text word by word whatever its length: digestLong's line
// shingles suit a long tool result, where a changed line is news, but a thought of a
// kilobyte or more is often one paragraph, a line, and the same thinking said again with one
// word changed would be another thought. One text a turn is cheap to read word by word.
func (d *digester) digestThought(text string) digest {
	if len(text) > maxThoughtBytes {
		text = text[:maxThoughtBytes]
	}
	return d.digestFields(d.spaceIdeographs(text), false, false, false)
}

// maxSpacedReuse is the largest buffer spaceIdeographs keeps for the next thought: a long
// thought in Chinese is rare, and an agent's state should not hold its copy.
const maxSpacedReuse = 4 << 10

// spaceIdeographs returns text with every character of a script written without spaces
// between its words (Chinese, Japanese kana) set apart as a word of its own, and the
// punctuation of those scripts (、，。：) as a space. Thoughts are compared word by word, as
// shingles of two words: "我需要检查配置文件" had been one word, so two sentences with one
// character changed had nothing in common and only an exact repeat was told, while the same
// sentence in English, a word changed, was. Characters are the words of such a text as far
// as likeness goes (shingles of two characters are how near-duplicate Chinese text is
// usually found), and need no dictionary. Text with none is returned as it is, unread past a
// first look for the lead bytes of U+3000 to U+FFFF.
func (d *digester) spaceIdeographs(text string) string {
	first := -1
	for i := 0; i < len(text); i++ {
		if text[i] >= 0xe3 && text[i] <= 0xef {
			first = i
			break
		}
	}
	if first < 0 {
		return text
	}
	buf := append(d.spaced[:0], text[:first]...)
	for i := first; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isIdeograph(r):
			buf = append(buf, ' ')
			buf = append(buf, text[i:i+size]...)
			buf = append(buf, ' ')
		case isIdeographicPunct(r):
			buf = append(buf, ' ')
		default:
			buf = append(buf, text[i:i+size]...)
		}
		i += size
	}
	if cap(buf) <= maxSpacedReuse {
		d.spaced = buf
	} else {
		d.spaced = nil
	}
	// The digest reads the text and keeps none of it, and buf is not written again before
	// the next thought.
	return unsafe.String(unsafe.SliceData(buf), len(buf))
}

// isIdeograph says whether r is a character of a script written without spaces between
// words: Han (CJK unified ideographs, extension A, compatibility ideographs), hiragana and
// katakana. Hangul is written with spaces between words, and stays as it is.
func isIdeograph(r rune) bool {
	return r >= 0x4e00 && r <= 0x9fff || r >= 0x3400 && r <= 0x4dbf || r >= 0xf900 && r <= 0xfaff ||
		r >= 0x3040 && r <= 0x30ff
}

// isIdeographicPunct says whether r is punctuation of those scripts: the CJK symbols and
// punctuation block (、。「」) and the full-width forms of ASCII punctuation (，：（）！？).
func isIdeographicPunct(r rune) bool {
	if r >= 0x3000 && r <= 0x303f {
		return true
	}
	if r < 0xff01 || r > 0xff65 {
		return false
	}
	return r <= 0xff0f || r >= 0xff1a && r <= 0xff20 || r >= 0xff3b && r <= 0xff40 || r >= 0xff5b
}

// digestFields is digest's pass over fields, for any length of text. A long text (a tool's
// long answer with ANSI escapes) is sketched by its lines, as digestLong sketches it.
func (d *digester) digestFields(text string, echo, lines, long bool) digest {
	var out digest
	// Echo masking is for short answers that restate the request ("The path /x does not
	// exist"); a long result is content, and checking each of its words would cost more than
	// the rest of the pass.
	echo = echo && d.echo.n > 0 && !long
	if lines {
		d.lines, d.wide, d.echoed = d.lines[:0], d.wide[:0], 0
	}
	exact, masked := uint64(mixK2), uint64(mixK2)
	var lineH, lineM, prevField uint64
	lineW := 0
	// The field before, when it was not volatile: what it says of a number after it
	// (wordKind) is worked out only when a number follows, which few fields are.
	prevWord := ""
	inEcho := false
	lineLong := false // the line holds a field of minLineField bytes or more
	dirEntry := false // the line is a directory's in a long listing (isDirMode)
	// Whether the line holds a field the call's arguments do not (lineNews), and one they do
	// (lineEchoed): a line made only of the call's own words (and volatile fields) is no news
	// for the novelty of what a result brought (see noteLines).
	lineNews, lineEchoed := false, false
	// The lead is the first line that says something: a bare label ("ERROR:", OpenHands'
	// editor's first line for every failure) stands for the text only when no line follows.
	leadSaid := false
	lineStart := 0 // where the line's text starts: its hash for novelty is hashLine's
	n := len(text)
	i := 0
	for i < n {
		c := text[i]
		cls := byteBits[c]
		if cls&fieldEnd == 0 {
			// A field: find its end 8 bytes at a time (every byte that ends a field is <= 0x20),
			// noting whether it holds a digit or a path separator.
			j := i
			var acc uint64
			for j+8 <= n {
				w := loadWord(text, j)
				end := (w - 0x2121212121212121) & ^w & 0x8080808080808080 // bytes < 0x21
				keep := ^uint64(0)
				if end != 0 {
					keep = (end & -end) - 1 // the bytes before the first end
				}
				acc |= digitOrSlash(w) & keep
				if end != 0 {
					j += bits.TrailingZeros64(end) >> 3
					goto fieldDone
				}
				j += 8
			}
			for j < n && byteBits[text[j]]&fieldEnd == 0 {
				if byteBits[text[j]]&(bDigit|bSlash) != 0 {
					acc = 1
				}
				j++
			}
		fieldDone:
			f := text[i:j]
			i = j
			lineLong = lineLong || len(f) >= minLineField
			var h uint64
			isEcho := false
			if lineW == 0 {
				dirEntry = isDirMode(f)
			}
			if acc != 0 && (prevWord == shellLineWord && isShellLineCount(f) ||
				dirEntry && isDigits(f) && !lastOnLine(text[j:]) ||
				volatileKind(f, wordKind(prevWord), text[j:]) != fieldPlain) ||
				acc == 0 && len(f) >= 6 && letterIDAfter(prevWord, f) {
				h, prevWord = markVolatile, ""
				out.marks++
			} else {
				h = wordHash(f)
				if echo {
					isEcho = d.echo.has(h) || d.echo.has(wordHash(trimWrap(f))) || (f[0] == '^' || f[0] == '~') && isUnderline(f) ||
						len(f) >= 5 && d.echoedParts(f) || acc != 0 && strings.IndexByte(f, '\\') >= 0 && d.echoedEscaped(trimWrap(f))
				}
				if f == "line" && strings.HasSuffix(prevWord, "sh:") {
					f = shellLineWord // "bash: line 11301:": see shellLineBefore
				}
				prevWord = f
			}
			lineH = mixWord(lineH, h)
			lineW++
			out.words++
			m := h
			if isEcho {
				m, lineEchoed = markEcho, true
			} else if lines && h != markVolatile && (!echo || hasAlnum(f)) {
				lineNews = true // (a field of signs alone, "{}" or "\;" of a find -exec, says nothing)
			}
			if !(isEcho && inEcho) { // a run of echoed fields is one marker
				lineM = mixWord(lineM, m)
				if !long {
					out.sketch.add(mix64(prevField*mixK1 ^ m))
				}
				prevField = m
			}
			inEcho = isEcho
			continue
		}
		switch {
		case cls&bNL != 0:
			if lineW > 0 {
				exact, masked = mixWord(exact, lineH), mixWord(masked, lineM)
				if !leadSaid {
					out.lead, leadSaid = mix64(lineM)|1, lineW >= 2
				}
				if long {
					out.sketch.add(mix64(lineM))
				}
				if lines && (lineW >= 2 || lineLong) && len(d.lines) < maxLines {
					if lineNews || !lineEchoed {
						d.lines = append(d.lines, novelLineHash(text[lineStart:i]))
						d.noteWide(i - lineStart)
					} else {
						d.echoed++
					}
				}
			}
			lineH, lineM, lineW, inEcho, lineLong = 0, 0, 0, false, false
			lineNews, lineEchoed = false, false
			i++
			lineStart = i
		case cls&bCR != 0:
			if i+1 < n && text[i+1] == '\n' {
				i++
				continue
			}
			// A bare carriage return: what follows overwrites the line (a progress bar).
			lineH, lineM, lineW, lineNews, lineEchoed = 0, 0, 0, false, false
			i++
			lineStart = i
		case cls&bEsc != 0:
			i = skipEscape(text, i)
		default:
			i++
		}
	}
	if lineW > 0 {
		exact, masked = mixWord(exact, lineH), mixWord(masked, lineM)
		if !leadSaid {
			out.lead = mix64(lineM) | 1
		}
		if long {
			out.sketch.add(mix64(lineM))
		}
		if lines && (lineW >= 2 || lineLong) && len(d.lines) < maxLines {
			if lineNews || !lineEchoed {
				d.lines = append(d.lines, novelLineHash(text[lineStart:]))
				d.noteWide(n - lineStart)
			} else {
				d.echoed++
			}
		}
	}
	if out.sketch.n == 0 && out.words > 0 {
		out.sketch.add(mix64(exact))
	}
	if long {
		out.sketch.mode = sketchEscapedLines
	}
	out.exact, out.masked = mix64(exact), mix64(masked)
	return out
}

// digestLong is digest for long texts without ANSI escapes, line by line: a line is hashed 8
// bytes at a time, and only the fields around a digit or a path separator are looked at
// (and replaced by a marker when volatile). Its lines are its shingles, and echo masking
// does not apply (see digest). Where lines end and where their digits are is read from a
// byteMap of the text (hashLineIn); a line longer than the map's window is hashed as a short
// text's line is (hashLine), to the same value.
func (d *digester) digestLong(text string, lines bool) digest {
	var out digest
	if lines {
		d.lines, d.wide, d.echoed = d.lines[:0], d.wide[:0], 0
	}
	// Carriage returns are rare in long results; one vectorised look at the whole text spares
	// every line its own.
	hasCR := strings.IndexByte(text, '\r') >= 0
	exact := uint64(mixK2)
	nlines := 0
	leadSaid := false
	var m byteMap
	m.fill(text, 0)
	n := len(text)
	for start := 0; start < n; {
		ls, le := start, m.lineEnd(text, start)
		start = le + 1
		if hasCR && strings.IndexByte(text[ls:le], '\r') >= 0 {
			if text[le-1] == '\r' {
				le--
			}
			if k := strings.LastIndexByte(text[ls:le], '\r'); k >= 0 {
				ls += k + 1 // a progress bar: the last overwrite is what shows
			}
		}
		for le > ls && (text[le-1] == ' ' || text[le-1] == '\t') {
			le--
		}
		if le == ls {
			continue
		}
		line := text[ls:le]
		var h uint64
		if m.covers(ls, le) {
			h = m.hashLineIn(text, ls, le)
		} else {
			h = hashLine(line)
		}
		if n-start < 64 && line[0] == '[' {
			h = trailerHandle(line, h)
		}
		exact = mixWord(exact, h)
		lh := mix64(h)
		keep := lines && len(d.lines) < maxLines
		two := (keep || !leadSaid) && hasTwoFields(line)
		if !leadSaid {
			out.lead, leadSaid = lh|1, two // see digest
		}
		out.sketch.add(lh)
		nlines++
		if keep && (two || len(line) >= minLineField && len(strings.TrimLeft(line, " \t")) >= minLineField) {
			d.lines = append(d.lines, lh)
			d.noteWide(len(line))
		}
	}
	out.sketch.mode = sketchLines
	out.exact = mix64(exact)
	out.masked = out.exact
	out.words = nlines * 2 // not counted word by word; a long text has words enough
	return out
}

// screenWidth is how many bytes a row of a terminal shows, for screenRows.
const screenWidth = 80

// screenRows is how many rows a line of n bytes fills on a terminal screenWidth wide: what a
// result brought is weighed by how much of it there is to read, and one line of a JSON dump
// (a metric's series, 2 KB on one line) is as much to read as a page of code. Counted one a
// line, the series was outweighed by the two lines of its runner's header around it
// ("exitcode: 0 (execution succeeded)", "Code output:"), and four different queries read as
// four answers that brought nothing new (validation round r139c F1).
func screenRows(n int) int { return 1 + n/screenWidth }

// wideLine is a line of d.lines that fills more than one screen row: its index, and its rows.
// Most lines fill one, and only the others are noted, so that the common line costs a
// comparison.
type wideLine struct {
	at   int32
	rows int32
}

// noteWide notes the line just added to d.lines, n bytes long, when it fills more than a row.
func (d *digester) noteWide(n int) {
	if n >= screenWidth {
		d.wide = append(d.wide, wideLine{at: int32(len(d.lines) - 1), rows: int32(screenRows(n))})
	}
}

// novelLineHash is the hash of a line as what a result brought (digest's lines): the same
// for a line of a short answer (digestFields) as of a long one (digestLong), so that a line a
// long listing showed is not new when a short look shows it again. line is the line as
// written: a carriage return before its end and the spaces after it are no part of it.
func novelLineHash(line string) uint64 {
	for len(line) > 0 && (line[len(line)-1] == ' ' || line[len(line)-1] == '\t' || line[len(line)-1] == '\r') {
		line = line[:len(line)-1]
	}
	return mix64(hashLine(line))
}

// minLineField is how long a line's one field must be for the line to count in what a result
// brought (digest's lines): a path ("./src/config.py"), a long name. A brace, "pass", "fi" or
// "return;" recur in every listing of code and say nothing of where it is; a list of files
// (find, ls, grep -l) is all one-field lines, and brought nothing new when it lists the same
// files again.
const minLineField = 8

// hasTwoFields says whether a line holds at least two fields, separated by spaces or tabs as
// digestFields separates them: "    27\t}" of a `cat -n` listing is two fields in both.
func hasTwoFields(line string) bool {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	for j := i + 1; j < len(line); j++ {
		if line[j] == ' ' || line[j] == '\t' {
			return true
		}
	}
	return false
}

// hashLine hashes one line, replacing its volatile fields by a marker. A field is a run of
// bytes above ' '; only those holding a digit or a '/' can be volatile (see digitOrSlashOnly).
// The line's length is not hashed: a volatile field of another length ("in 9ms", "in 12ms")
// is the same line.
func hashLine(line string) uint64 {
	h, seg, j, dirEntry := lineHashStart(line)
	n := len(line)
	for j < n {
		var k int
		if j+8 <= n {
			// the scan of nextDigitOrSlash, in line for the whole words
			m := digitOrSlashOnly(loadWord(line, j))
			if m == 0 {
				j += 8
				continue
			}
			k = j + bits.TrailingZeros64(m)>>3
		} else if k = nextDigitOrSlash(line, j); k >= n {
			break
		}
		fs, fe, verdict := sortField(line, k)
		if !fieldIsPlain(line, fs, fe, verdict, dirEntry) {
			h = hashChunk(h, line[seg:fs])
			h = mixWord(h, markVolatile)
			seg = fe
		}
		j = fe
	}
	return hashChunk(h, line[seg:])
}

// lineHashStart is how hashLine (and hashLineIn, its twin over a byteMap) begin a line: the
// hash so far, where the text not yet hashed starts (seg) and where the look for fields with a
// digit or '/' starts (j), and whether the line is a directory's in a long listing (isDirMode).
func lineHashStart(line string) (h uint64, seg, j int, dirEntry bool) {
	h = uint64(mixK2)
	n := len(line)
	dirEntry = n > 10 && line[0] == 'd' && isDirMode(line[:fieldEndAt(line, 0)])
	// A header's id of letters (leadingLetterID) is looked for only in a line that opens with
	// a word: most lines of a long result open with spaces (code, listings), and cost one test.
	if n >= 9 && line[0] > ' ' {
		if fs, fe := leadingLetterID(line); fe > 0 {
			h = hashChunk(h, line[:fs])
			h = mixWord(h, markVolatile)
			return h, fe, fe, dirEntry
		}
	}
	// A listing's line number ("    27\t", as `cat -n` and the editors' views number their
	// lines) opens most lines of a long result, and is plain as settle judges it: digits
	// only, no word before them that counts them, a tab after them where a unit would need a
	// space. It is passed over without sorting it.
	i := 0
	for i < n && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	d := i
	for d < n && line[d]-'0' < 10 {
		d++
	}
	if d < n && line[d] == '\t' {
		j = d
	}
	return h, 0, j, dirEntry
}

// fieldIsPlain says whether the field line[fs:fe], which holds a digit or a '/', stays as it
// is in a line's hash, given what sortField made of it: a field plain by its look is checked
// for an id label before it only when it could be an id's value (it starts with a hex digit),
// which few fields do; a wrapped number ("3)") with no space after it ends no count ("3
// seconds"); a directory's link count and size are bookkeeping (isDirMode).
func fieldIsPlain(line string, fs, fe, verdict int, dirEntry bool) bool {
	var plain bool
	switch verdict {
	case quickPlain:
		plain = quickClass[line[fs]]&qNotHex != 0 || !idLabelBefore(line, fs) || settle(line, fs, fe, verdict)
	case quickWrappedNumber:
		plain = !(fe+1 < len(line) && line[fe] == ' ') || settle(line, fs, fe, verdict)
	default:
		plain = settle(line, fs, fe, verdict)
	}
	return plain && !(dirEntry && fe < len(line) && isDigits(line[fs:fe]))
}

// settle says whether the field line[fs:fe] is plain, given what sortField made of it: most
// fields are line numbers, counters and names like result_12, settled by that look alone,
// and only the rest pay for the full classification.
func settle(line string, fs, fe, verdict int) bool {
	// A number (digits only, perhaps wrapped) is volatile only after a count word ("pid
	// 4242") or before a spelled unit, which needs a space after it ("12 seconds").
	spaced := fe+1 < len(line) && line[fe] == ' '
	switch verdict {
	case quickPlain:
		// plain by its look, unless an id label names it ("Chunk ID: b19e45")
		return !idLabelBefore(line, fs) || volatileKind(line[fs:fe], prevID, line[fe:]) == fieldPlain
	case quickNumber:
		prev := prevWordKind(line, fs)
		if !spaced && prev == prevNone {
			return true
		}
		return volatileKind(line[fs:fe], prev, line[fe:]) == fieldPlain
	case quickWrappedNumber:
		// the word before counts only for a bare number
		return !spaced || volatileKind(line[fs:fe], prevNone, line[fe:]) == fieldPlain
	}
	f := line[fs:fe]
	if shellLineBefore(line, fs) && isShellLineCount(f) {
		return false
	}
	prev := prevNone
	if digitsOnly := isDigits(f); digitsOnly || quickClass[f[0]]&qNotHex == 0 {
		// a count word speaks for a bare number only, an id label for a bare hex value
		if prev = prevWordKind(line, fs); prev == prevCount && !digitsOnly {
			prev = prevNone
		}
	}
	return volatileKind(f, prev, line[fe:]) == fieldPlain
}

// Bit masks over the 8 bytes of a word, high bit of each byte.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// lowBytes flags exactly the bytes of w that are <= ' ' (white space and control
// characters: what ends a field). Each byte is tested on its own, with no carry between
// bytes, so every flag can be trusted, the highest as well as the lowest.
func lowBytes(w uint64) uint64 {
	// (b & 0x7f) + 0x5f reaches 0x80 exactly when b & 0x7f >= 0x21; bytes >= 0x80 are
	// above ' ' by their own high bit.
	return ^(((w &^ highs) + ones*0x5f) | w) & highs
}

// fieldStartAt returns where the field holding s[k] starts: just after the last byte <= ' '
// before k, or 0.
func fieldStartAt(s string, k int) int {
	for k >= 8 {
		if m := lowBytes(loadWord(s, k-8)); m != 0 {
			return k - 8 + (63-bits.LeadingZeros64(m))>>3 + 1
		}
		k -= 8
	}
	for k > 0 && s[k-1] > ' ' {
		k--
	}
	return k
}

// fieldEndAt returns the index of the first byte <= ' ' at or after k, or len(s), byte by
// byte: sortField's loads find it for lines of 8 bytes and more.
func fieldEndAt(s string, k int) int {
	for k < len(s) && s[k] > ' ' {
		k++
	}
	return k
}

// prevWordKind says what the field before the one at fs announces ("pid 4242"): the count
// word, if the two are separated by spaces or tabs only.
func prevWordKind(line string, fs int) int {
	pe := fs
	for pe > 0 && (line[pe-1] == ' ' || line[pe-1] == '\t') {
		pe--
	}
	// A count word ends in a letter, ':' or '='; most fields before a number (none at the
	// start of a line, a '|' or a '#') are ruled out by their last byte.
	if pe == 0 || quickClass[line[pe-1]]&qCountEnd == 0 {
		return prevNone
	}
	ps := pe
	for ps > 0 && line[ps-1] > ' ' {
		ps--
	}
	if len(labelWord(line[ps:pe])) > 7 { // as wordKind judges it
		if handleLabel(line[ps:pe]) {
			return prevHandle
		}
		if timeLabel(line[ps:pe]) {
			return prevCount
		}
		return prevNone
	}
	return countWord(line[ps:pe])
}

// idLabelBefore says whether the word before the field at fs is an id label ("ID:", "id") or
// a handle's ("shellId:", see handleLabel), as prevWordKind(line, fs) == prevID or prevHandle
// would, in a few byte comparisons: it runs for most fields with a digit, and only a word that
// ends in "id" is looked at further.
func idLabelBefore(line string, fs int) bool {
	pe := fs
	for pe > 0 && (line[pe-1] == ' ' || line[pe-1] == '\t') {
		pe--
	}
	e := pe
	for e > 0 && (line[e-1] == ':' || line[e-1] == '=' || isWrap(line[e-1])) {
		e--
	}
	if e < 2 || line[e-1]|0x20 != 'd' || line[e-2]|0x20 != 'i' {
		return false
	}
	if c := line[pe-1]; c != ':' && c != '=' && pe != e {
		return false // a label ends in a letter, ':' or '=' ("id: 4f3a", [ID]:; not "id" 4f3a)
	}
	// The word is "id" with its wrapping ("(id", "[ID]:"), as labelWord reads it.
	b := e - 2
	for b > 0 && isWrap(line[b-1]) {
		b--
	}
	if b == 0 || line[b-1] <= ' ' {
		return true
	}
	ps := e
	for ps > 0 && line[ps-1] > ' ' {
		ps--
	}
	return handleLabel(line[ps:pe])
}

// What sortField learns of a field.
const (
	quickUnsure        = iota // ask volatileKind
	quickPlain                // volatileKind would call it plain
	quickNumber               // digits only: see settle
	quickWrappedNumber        // digits only once its wrapping is trimmed: "3)", "7],"
)

// sortField finds the field (run of bytes above ' ') around line[k], a digit or '/', and
// sorts it with a look at its bytes 8 at a time: it reaches the verdict volatileKind would
// for the common fields, and answers quickUnsure whenever it cannot be sure. It follows
// volatileKind's own reasoning: trimmed of its wrapping, a field without '/' or '=' that does
// not start with a digit is volatile only as a hex id (8 to 11 bytes, hex digits and '-'
// only) or as a nonce (12 bytes and more, at least 3 digits).
func sortField(line string, k int) (fs, fe, verdict int) {
	fs = fieldStartAt(line, k)
	n := len(line)
	if n < 8 {
		// too short for the loads below; rare, and volatileKind is exact
		return fs, fieldEndAt(line, k), quickUnsure
	}
	// Find the end and look at the bytes in the same loads. A load past the end of the line
	// is taken ending at the end and shifted down; the zeros shifted in end the field.
	var first uint64
	if fs+8 <= n {
		first = loadWord(line, fs)
	} else {
		first = loadWord(line, n-8) >> ((8 * (fs + 8 - n)) & 63)
	}
	if stop := lowBytes(first); stop != 0 {
		// The common case: a field of at most 7 bytes, all in this word.
		r := bits.TrailingZeros64(stop) >> 3
		fe = fs + r
		first &= uint64(1)<<((8*r)&63) - 1
		c0 := quickClass[byte(first)]
		if c0&(qWrap|qDigit) == 0 {
			// Not starting with a digit nor with wrapping, and shorter than 8 bytes: plain
			// unless it is a path or key=value.
			if slashOrEq(first) == 0 {
				return fs, fe, quickPlain
			}
			return fs, fe, quickUnsure
		}
		if c0&qDigit != 0 {
			return fs, fe, sortNumber(first, r)
		}
		return fs, fe, quickUnsure
	}
	// The field fills the first word; the words after it are read in the same loads that find
	// its end, its digits counted on the way (a nonce needs three: see the last case below).
	slashEq := slashOrEq(first)
	digits := bits.OnesCount64(digitBytes(first))
	fe = n // unless a byte <= ' ' ends the field first
	for i := fs + 8; i < n; i += 8 {
		var w uint64
		if i+8 <= n {
			w = loadWord(line, i)
		} else {
			w = loadWord(line, n-8) >> ((8 * (i + 8 - n)) & 63)
		}
		stop := lowBytes(w)
		if stop != 0 {
			r := bits.TrailingZeros64(stop) >> 3
			w &= uint64(1)<<((8*r)&63) - 1
			fe = i + r
		}
		slashEq |= slashOrEq(w)
		digits += bits.OnesCount64(digitBytes(w))
		if stop != 0 {
			break
		}
	}
	size := fe - fs
	c0 := quickClass[byte(first)]
	switch {
	case c0&qWrap != 0:
		return fs, fe, quickUnsure // "(12ms)", "[pid": rarer, left to volatileKind
	case c0&qDigit != 0:
		if size > 8 {
			return fs, fe, quickUnsure
		}
		return fs, fe, sortNumber(first, size)
	case slashEq != 0:
		return fs, fe, quickUnsure // a temporary path or key=value
	case size < 8:
		// Not starting with a digit nor with wrapping, the field's first byte is the trimmed
		// field's, and the trimmed field is no longer than the field.
		return fs, fe, quickPlain
	case c0&qNotHex != 0 && (size < 12 || digits < 3):
		// no hex id (hex through and through), and no nonce (12 bytes and more, 3 digits)
		return fs, fe, quickPlain
	}
	return fs, fe, quickUnsure
}

// sortNumber sorts a field of size <= 8 bytes, w, that starts with a digit: a number,
// perhaps with wrapping after it ("12", "3)", "7],"), or one for volatileKind to look at.
func sortNumber(w uint64, size int) int {
	// The digits it starts with, up to its first other byte (the bytes past size are 0, no
	// digit): a number when they fill it, a wrapped one when wrapping alone follows them.
	d := bits.TrailingZeros64(^digitBytes(w)&highs) >> 3
	if d >= size {
		return quickNumber
	}
	for m := d; m < size; m++ {
		if quickClass[byte(w>>((8*m)&63))]&qWrap == 0 {
			return quickUnsure
		}
	}
	return quickWrappedNumber
}

// digitOrSlashOnly flags exactly the bytes of w that are digits or '/'. A field whose only
// such byte would be a backslash is plain whatever it holds (volatileKind looks for
// temporary paths only in fields with a '/'), so the line scan need not stop at one.
func digitOrSlashOnly(w uint64) uint64 {
	lo := (w | highs) - ones*'/'         // high bit stays set where byte >= '/'
	hi := ones*(0x80+'9') - (w &^ highs) // high bit set where (byte & 0x7f) <= '9'
	return lo & hi & ^w & highs
}

// digitBytes flags exactly the bytes of w that are ASCII digits, each tested on its own.
func digitBytes(w uint64) uint64 {
	lo := (w | highs) - ones*'0'         // high bit stays set where byte >= '0'
	hi := ones*(0x80+'9') - (w &^ highs) // high bit set where (byte & 0x7f) <= '9'
	return lo & hi & ^w & highs
}

// slashOrEq flags the bytes of w that are '/' or '=', each tested on its own.
func slashOrEq(w uint64) uint64 {
	return zeroBytes(w^(ones*'/')) | zeroBytes(w^(ones*'='))
}

// zeroBytes flags exactly the zero bytes of w (no carry between bytes, unlike the shorter
// classic test).
func zeroBytes(x uint64) uint64 {
	return ^(((x &^ highs) + ones*0x7f) | x) & highs
}

// Byte classes for sortField.
const (
	qWrap     = 1 << iota // punctuation that volatileKind trims off a field's ends (isWrap)
	qNotHex               // a byte no hex id holds: not a hex digit, not '-'
	qDigit                // 0-9
	qCountEnd             // what a count word can end with: a letter, ':' or '=' (see countWord)
)

var quickClass = func() (t [256]uint8) {
	for c := range t {
		b := byte(c)
		if isWrap(b) {
			t[c] |= qWrap
		}
		if !isHexByte(b) && b != '-' {
			t[c] |= qNotHex
		}
		if '0' <= b && b <= '9' {
			t[c] |= qDigit
		}
		if ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z') || b == ':' || b == '=' {
			t[c] |= qCountEnd
		}
	}
	return t
}()

// nextDigitOrSlash returns the index of the first digit or '/' at or after from, or len(s).
func nextDigitOrSlash(s string, from int) int {
	j := from
	n := len(s)
	for j+8 <= n {
		if m := digitOrSlashOnly(loadWord(s, j)); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
		j += 8
	}
	if j < n && n >= 8 {
		// The last few bytes in one load ending at the end of s; the zeros shifted in are
		// neither digits nor separators.
		if m := digitOrSlashOnly(loadWord(s, n-8) >> (8 * (8 - (n - j)))); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
		return n
	}
	for ; j < n; j++ {
		if c := s[j]; c-'0' < 10 || c == '/' {
			return j
		}
	}
	return n
}

// hashChunk folds s into h 8 bytes at a time.
func hashChunk(h uint64, s string) uint64 {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		h = mixWord(h, loadWord(s, i))
	}
	r := len(s) - i
	if r == 0 {
		return h
	}
	var w uint64
	if len(s) >= 8 {
		// The last r bytes as a little-endian number: one load that ends at the end of s,
		// shifted down, is the same value as assembling them byte by byte.
		w = loadWord(s, len(s)-8) >> (8 * (8 - r))
	} else {
		for i := 0; i < r; i++ {
			w |= uint64(s[i]) << (8 * i)
		}
	}
	return mixWord(h, w|uint64(r)<<60)
}

// digitOrSlash returns, for each byte of w, its high bit set when the byte is a digit, '/' or
// '\\' (and possibly spuriously set above such a byte, which callers tolerate).
func digitOrSlash(w uint64) uint64 {
	// bytes in 0x2f..0x39: '/' and the digits
	lo := (w | highs) - ones*0x2f    // high bit stays set where byte >= 0x2f
	hi := (ones*0xb9 - (w &^ highs)) // high bit set where (byte & 0x7f) <= 0x39
	between := lo & hi & ^w & highs
	back := w ^ (ones * '\\')
	bs := (back - ones) & ^back & highs
	return between | bs
}

// trimWrap strips the punctuation that wraps a field: quotes, brackets, a trailing comma,
// colon or full stop.
func trimWrap(f string) string {
	for len(f) > 0 && (isWrap(f[0])) {
		f = f[1:]
	}
	for len(f) > 0 && (isWrap(f[len(f)-1]) || f[len(f)-1] == '.' || f[len(f)-1] == ':') {
		f = f[:len(f)-1]
	}
	return f
}

// setEcho fills the echo set with the tokens of a call's arguments: runs between white space
// and JSON punctuation ("/x/y.py", "deploy@10.0.0.3"), each also without its wrapping.
func (d *digester) setEcho(raw []byte) {
	d.echo.reset()
	// Read in place: the arguments are not copied.
	args := unsafe.String(unsafe.SliceData(raw), len(raw))
	for i := 0; i < len(args); {
		// argWordStart, written out: so, a short call costs 170 instructions fewer (callgrind,
		// go1.26), as the compiler lays the loops out.
		if c := args[i]; argSeps[c] {
			i++
			continue
		} else if c == '\\' && escapedSpace(args, i) {
			i += 2
			continue
		}
		j, dots := argWordEnd(args, i+1)
		if j-i >= 2 {
			tok := args[i:j]
			d.echo.add(wordHash(tok))
			if t := trimWrap(tok); len(t) != len(tok) && len(t) >= 2 {
				d.echo.add(wordHash(t))
			}
			if dots >= 2 {
				d.echoParts(tok)
			}
		}
		i = j
	}
}

// echoedParts says whether a field of an answer that holds separators of arguments
// ("内容]<]minimax[>[</intent>", split by arguments at the brackets, by answers at white space
// alone) is made of echoed words only: each of its words as the arguments' words are cut, of
// two bytes or more, is in the echo, and there are two such words at least (one echoed word
// in punctuation is as likely a value the command printed: ['(foo{1,3})']). A model that
// wrote its tool syntax into an argument had the harness quote it back in every refusal,
// unmasked, and four refusals alike but for the arguments were not read as alike (validation
// round r119c M1).
func (d *digester) echoedParts(f string) bool {
	words := 0
	for i := 0; ; {
		if i = argWordStart(f, i); i >= len(f) {
			break
		}
		j, _ := argWordEnd(f, i+1)
		if i == 0 && j == len(f) {
			return false // one word: what the caller looked up already
		}
		if j-i >= 2 {
			if w := f[i:j]; !d.echo.has(wordHash(w)) && !d.echo.has(wordHash(trimWrap(w))) {
				return false
			}
			words++
		}
		i = j
	}
	return words >= 2
}

// argWordStart returns where the next word of arguments starts at or after i: past the
// separators and the escapes that stand for one (see escapedSpace); len(s) when none is left.
// It and argWordEnd are how setEcho cuts arguments, and echoedParts cuts an answer's field the
// same way. Both are small enough to be inlined: a call per word cost a short call 200
// instructions. FuzzEchoCutsAlike keeps the two cuts one.
func argWordStart(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if argSeps[c] {
			i++
			continue
		}
		if c == '\\' && escapedSpace(s, i) {
			i += 2
			continue
		}
		break
	}
	return i
}

// argWordEnd returns the end of the word of arguments that goes on at j (a separator, or an
// escape that stands for one), and how many dots it holds from j on, for echoParts.
func argWordEnd(s string, j int) (end, dots int) {
	for ; j < len(s); j++ {
		c := s[j]
		if !echoStops[c] {
			continue
		}
		if c == '.' {
			dots++
		} else if c != '\\' || escapedSpace(s, j) {
			break
		}
	}
	return j, dots
}

// echoStops flags the bytes setEcho looks at twice in a word: the separators, a backslash (an
// escape may stand for one) and a dot (a dotted path's parts are words too).
var echoStops = func() (t [256]bool) {
	t = argSeps
	t['\\'], t['.'] = true, true
	return t
}()

// echoParts adds to the echo the names of a dotted path in code (apis.supervisor.main_user):
// an error names the part it could not resolve ("No API named 'main_user'"), which the call's
// code holds only inside the path. Only a path of three parts or more, each a name, counts: a
// file's name ("main.py") or a version ("1.2") is said as it is written.
func (d *digester) echoParts(tok string) {
	for pass := 0; pass < 2; pass++ { // look, then add: nothing is added of a path that is none
		rest := tok
		for {
			part, after, more := strings.Cut(rest, ".")
			part = strings.TrimRight(part, "()[]:;")
			if pass == 0 && (len(part) < 3 || !isName(part)) {
				return
			}
			if pass == 1 {
				d.echo.add(wordHash(part))
			}
			if !more {
				break
			}
			rest = after
		}
	}
}

// isName says whether s is a name in code: letters, digits and '_', not starting with a digit.
func isName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '_' && !isWordByte(c) || i == 0 && '0' <= c && c <= '9' {
			return false
		}
	}
	return true
}

// escapedSpace says whether args[i] starts a JSON escape that stands for white space or a quote
// (\n, \t, \r, \"): code sent as a JSON string has its lines joined by "\n", and read as
// part of the word before it, the last word of each line was echoed by no answer that quotes
// the line (validation round r88c M1).
func escapedSpace(args string, i int) bool {
	if args[i] != '\\' || i+1 >= len(args) {
		return false
	}
	switch args[i+1] {
	case 'n', 't', 'r', '"':
		return true
	}
	return false
}

var argSeps = func() (t [256]bool) {
	for _, c := range " \t\n\r\"'{}[],=`" {
		t[c] = true
	}
	return t
}()

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
// "PGID: 24518", "attempt 3", "took 12"), or a generated identifier ("Chunk ID: b19e45": Codex
// numbers every command's output so). A trailing ':' or '=' is ignored.
func countWord(w string) int {
	w = labelWord(w)
	if len(w) == 2 && w[0]|0x20 == 'i' && w[1]|0x20 == 'd' {
		return prevID
	}
	if handleLabel(w) || equalFold(w, "rerun") {
		// ("[rerun: b40]": Claude Code numbers the commands it could run again at each
		// answer's end (releases from 2.1.96), and each of their answers ended otherwise:
		// validation round r128b U1)
		return prevHandle
	}
	if timeLabel(w) {
		return prevCount
	}
	if len(w) < 3 || len(w) > 7 {
		return prevNone
	}
	for _, k := range [...]string{"pid", "pgid", "ppid", "tid", "attempt", "retry", "elapsed", "took"} {
		if equalFold(w, k) {
			return prevCount
		}
	}
	return prevNone
}

// labelWord is a word as a label: without the ':' or '=' that ends it and the quotes or
// brackets around it ("pid": 4242, [shellId=3], elapsed_ms=).
func labelWord(w string) string {
	for len(w) > 0 && (w[len(w)-1] == ':' || w[len(w)-1] == '=' || isWrap(w[len(w)-1])) {
		w = w[:len(w)-1]
	}
	for len(w) > 0 && isWrap(w[0]) {
		w = w[1:]
	}
	return w
}

// timeLabel says whether a label (a JSON key or a key= or key: word) names a moment or a
// span of time, or a process: its last word is a time or a unit of it (duration_seconds,
// elapsed_ms, wall_time, timestamp, durationMs, started_at, createdAt, worker_pid), or its
// first word says it (elapsed_total, latency_p50). The number after it is when or how long
// this run took, which changes from run to run without the answer changing: structured
// results (MCP tools, JSON metadata) carry them as "elapsed_ms": 120 where text says
// "took 120ms". A constant so labelled (a time limit) is the same in every run anyway.
func timeLabel(w string) bool {
	w = labelWord(w)
	if len(w) < 2 || len(w) > 40 {
		return false
	}
	// The last word: after the last '_', '-' or '.', or from the last capital of a camelCase
	// key; the first word: up to the first of those.
	last := len(w)
	for last > 0 {
		c := w[last-1]
		if c == '_' || c == '-' || c == '.' {
			break
		}
		last--
		if 'A' <= c && c <= 'Z' && last > 0 && 'a' <= w[last-1] && w[last-1] <= 'z' {
			break
		}
		if !('a' <= c|0x20 && c|0x20 <= 'z') {
			return false // a word with digits or signs is no label
		}
	}
	for _, k := range timeWords {
		if equalFold(w[last:], k) {
			return true
		}
	}
	if last > 0 {
		// a unit or a moment as the last word of a compound: elapsed_ms, created_at
		for _, k := range timeUnitWords {
			if equalFold(w[last:], k) {
				return true
			}
		}
	}
	first := 0
	for first < len(w) && w[first] != '_' && w[first] != '-' && w[first] != '.' && !(first > 0 && 'A' <= w[first] && w[first] <= 'Z') {
		first++
	}
	if first == len(w) {
		return false
	}
	for _, k := range [...]string{"elapsed", "duration", "latency", "took", "timestamp"} {
		if equalFold(w[:first], k) {
			return true
		}
	}
	return false
}

// timeWords are the words that name a time as a label's last word or the whole label;
// timeUnitWords only as the last word of a compound label ("at 12" and "ms" alone are prose
// or units, not labels).
var (
	timeWords = [...]string{"time", "timestamp", "duration", "elapsed", "latency", "took", "runtime",
		"uptime", "pid", "ppid", "pgid"}
	timeUnitWords = [...]string{"at", "ts", "ms", "millis", "milliseconds", "sec", "secs", "seconds",
		"ns", "nanos", "us", "micros"}
)

// handleLabel says whether w (wrapped, and with a ':' or '=' after it, or not) labels a handle
// that a tool makes up as it runs: a compound id label, camelCase or snake_case, naming a
// runtime thing ("shellId", "sessionID", "request_id", "job-id"). The value after it, a
// sequence number or hex, changes from run to run and says nothing about the answer (Copilot
// CLI ends every command's output with "<shellId: N completed with exit code 0>"). Ids of data
// ("userId", "order_id") are not handles: their values are what a query answered.
func handleLabel(w string) bool {
	w = labelWord(w)
	n := len(w)
	if n < 4 || w[n-1]|0x20 != 'd' {
		return false
	}
	switch {
	case w[n-2]|0x20 == 'i' && (w[n-3] == '_' || w[n-3] == '-'):
		w = w[:n-3]
	case w[n-2] == 'I' && 'a' <= w[n-3] && w[n-3] <= 'z':
		w = w[:n-2]
	default:
		return false
	}
	for _, name := range handleNames {
		if equalFold(w, name) {
			return true
		}
	}
	return false
}

// handleNames are the runtime things whose ids handleLabel masks.
var handleNames = [...]string{"shell", "session", "process", "proc", "request", "req", "task", "job",
	"call", "toolcall", "tool_call", "run", "chunk", "trace", "span", "message", "msg", "thread",
	"conn", "connection", "terminal", "term", "pty", "worker", "container", "exec", "execution",
	"operation", "op", "invocation", "correlation", "interaction", "turn", "response", "result"}

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
	if (prev == prevID || prev == prevHandle) && isIDValue(f) {
		return fieldVolatile // Chunk ID: b19e45, Job ID 48213: a bare value, as tools print them
	}
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
	if prev == prevHandle && isLetterNumber(f) {
		return fieldVolatile // a host's short handle: Claude Code's "[rerun: b40]", "[result-id: r7]"
	}
	if f[0] < '0' || f[0] > '9' {
		// Not starting with a digit, a field can only be a temporary path, a hex id or a nonce
		// (8 characters and more), or key=value.
		if strings.IndexByte(f, '/') >= 0 && isTempPath(f) {
			return fieldVolatile
		}
		if strings.IndexByte(f, '=') < 0 {
			if len(f) < 12 {
				// Only a hex id is left, and it is hex through and through.
				if len(f) >= 8 && isHexID(f, countDigits(f), len(f), len(f)) {
					return fieldVolatile
				}
				return fieldPlain
			}
			if countDigits(f) < 3 {
				return fieldPlain // a nonce mixes at least 3 digits in
			}
		}
	}
	var digits, hexLetters, letters, seps, dots, transitions, slashes int
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
			if c == '/' {
				slashes++
			}
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
	case slashes > 0 && isTempPath(f):
		return fieldVolatile
	case digits == 0:
		return fieldPlain
	case digits == len(f) && !countsNumber(prev):
		// A plain number (a line number, a count): volatile only with a time unit after it.
		if isDuration(f, after) {
			return fieldVolatile
		}
		return fieldPlain
	case letters == 0 && seps >= 2 && digits >= 4:
		return fieldVolatile // 2024-01-02, 12:34:56, 01/02/2024
	case len(f) == 5 && f[2] == ':' && isClockMinutes(f):
		return fieldVolatile // 14:30, a clock time without its seconds
	case len(f) >= 15 && isTimestamp(f):
		return fieldVolatile // 2024-01-02T03:04:05.678Z
	case isDuration(f, after):
		return fieldVolatile // 12ms, 1.5s, 3 seconds
	case letters == 0 && seps == 0 && countsNumber(prev):
		return fieldVolatile // pid 4242, attempt 3, shellId: 2
	case isHexID(f, digits, hexLetters, letters):
		return fieldVolatile // 0x7ffd5e8c, deadbeef01, UUIDs, git hashes
	case len(f) >= 12 && digits >= 3 && letters >= 3 && transitions >= 4:
		return fieldVolatile // msg_01HZX9K2QW7, nonces
	case len(f) >= 12 && transitions == 1 && isSerialID(f):
		return fieldVolatile // certificate_3221322, order-1000457: a record the call made
	}
	if eq := indexByte(f, '='); eq > 0 && eq+1 < len(f) {
		// key=value: pid=4242, id=9f86d081884c
		if k := countWord(f[:eq]); k != prevNone {
			return volatileKind(f[eq+1:], k, after)
		}
	}
	return fieldPlain
}

// isClockMinutes says whether f, of 5 bytes with a ':' in the middle, is a time of day to the
// minute ("14:30", "09:05"): two digits of hours below 24 and two of minutes below 60. Logs
// and prompts write such times ("Last login: Tue Dec  3 14:30"); a ratio or a position is
// seldom written with two digits on each side.
func isClockMinutes(f string) bool {
	for _, i := range [...]int{0, 1, 3, 4} {
		if f[i] < '0' || f[i] > '9' {
			return false
		}
	}
	return (f[0]-'0')*10+(f[1]-'0') < 24 && f[3] < '6'
}

// isSerialID says whether f is a name and a serial number, joined by '_' or '-' (at least 6
// digits: "certificate_3221322", "order-1000457"), as a tool names a record it has just made. Such
// a number says which copy it made, not what happened: three calls that each issued the same
// voucher ("Certificate certificate_3221322 added to user ... with amount 200", then _3221323,
// _3221324) were one write repeated, not three answers (validation round r61b M1). A name
// with fewer digits ("result_12", "python3-11") is no serial; f is trimmed of its wrapping.
func isSerialID(f string) bool {
	i := len(f)
	for i > 0 && f[i-1] >= '0' && f[i-1] <= '9' {
		i--
	}
	if len(f)-i < 6 || i < 2 || (f[i-1] != '_' && f[i-1] != '-') {
		return false
	}
	for j := 0; j < i-1; j++ {
		if c := f[j] | 0x20; (c < 'a' || c > 'z') && f[j] != '_' && f[j] != '-' {
			return false
		}
	}
	return true
}

// letterIDAfter says whether f, a field without a digit, is a generated id all the same: hex
// letters only (see isIDValue), right after an id label that ends in ':' or '=' ("Chunk ID:
// cbdcbe"). Without the ':' a word is more likely ("the id added").
func letterIDAfter(label, f string) bool {
	if len(label) < 3 {
		return false
	}
	if c := label[len(label)-1]; c != ':' && c != '=' {
		return false
	}
	if k := wordKind(label); k != prevID && k != prevHandle {
		return false
	}
	return isIDValue(f)
}

// leadingLetterID finds, in a line that opens with an id label ("Chunk ID: cbdcbe", Codex's
// header above every command's output), a value of hex letters only that letterIDAfter would
// mask: hashLine looks only at fields with a digit or '/', and a header is where tools print
// such ids. It answers fe == 0 when there is none; the label must end within the line's first
// 32 bytes, so most lines cost one short vectorised look.
func leadingLetterID(line string) (fs, fe int) {
	if len(line) < 9 || line[0] <= ' ' {
		return 0, 0
	}
	c := strings.IndexByte(line[:min(len(line), 32)], ':')
	if c < 2 || line[c-1]|0x20 != 'd' || line[c-2]|0x20 != 'i' {
		return 0, 0
	}
	fs = c + 1
	for fs < len(line) && (line[fs] == ' ' || line[fs] == '\t') {
		fs++
	}
	fe = fs
	for fe < len(line) && line[fe] > ' ' {
		fe++
	}
	if fe-fs < 6 || fs == c+1 || !idLabelBefore(line, fs) || !isIDValue(line[fs:fe]) || countDigits(line[fs:fe]) > 0 {
		return 0, 0 // a value with a digit is hashLine's own work
	}
	return fs, fe
}

// isIDValue says whether f, named by an id label, looks like a generated identifier: 4 or
// more hex characters (digits and a-f), at least one a digit, or 6 and more without one. A
// random hex id has no digit often enough to matter (Codex's six-character chunk ids: about 1
// in 360, "Chunk ID: cbdcbe"), while a word of a-f letters after an id label is rare, the more
// the longer it is ("ID: face", "ID: added").
func isIDValue(f string) bool {
	if len(f) < 4 {
		return false
	}
	digit := len(f) >= 6
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case '0' <= c && c <= '9':
			digit = true
		case 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
		default:
			return mixedID(strings.TrimRight(f, ".,;"))
		}
	}
	return digit
}

// mixedID says whether f, named by an id label, is a generated handle of letters and digits:
// 8 characters or more, a digit among letters, going from one kind to the other twice or more
// (a digit inside the word, not only at its end). Claude Code names a command it moves to the background so ("Command running in
// background with ID: bp8u94ums."), and a command launched again while the first still ran
// was a new answer at every launch (validation round r260c). A name a person gave ("user1234",
// "release2024") changes kind once, at its number.
func mixedID(f string) bool {
	if len(f) < 8 {
		return false
	}
	digits, letters, switches := 0, 0, 0
	prevDigit := false
	for i := 0; i < len(f); i++ {
		c := f[i]
		isDigit := '0' <= c && c <= '9'
		if !isDigit && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
		if isDigit {
			digits++
		} else {
			letters++
		}
		if i > 0 && isDigit != prevDigit {
			switches++
		}
		prevDigit = isDigit
	}
	return digits >= 1 && letters >= 2 && switches >= 2
}

// trailerHandle returns the hash of a line at an answer's end that is a host's handle in
// brackets, its value masked as digestFields masks it after its label, else h: Claude Code
// ends answers so since 2.1.96, "[rerun: b40]", "[result-id: r7]", the number going up through
// the session, and no two of its answers were the same (validation round r128b U1).
func trailerHandle(line string, h uint64) uint64 {
	if k := bracketHandle(line); k > 0 {
		return mixWord(hashChunk(mixK2, line[:k]), markVolatile)
	}
	return h
}

// bracketHandle returns where the value starts in a line that is a host's handle in brackets,
// "[rerun: b40]", "[result-id: r7]" (a label volatileKind takes for a handle's, then a short
// handle or a hex id), or 0.
func bracketHandle(line string) int {
	if len(line) < 8 || line[len(line)-1] != ']' {
		return 0
	}
	label, value, ok := strings.Cut(line[1:len(line)-1], ": ")
	if !ok || countWord(label) != prevHandle {
		return 0
	}
	if !isLetterNumber(value) && !isIDValue(value) {
		return 0
	}
	return 1 + len(label) + 2
}

// isLetterNumber says whether f is a letter followed by one to six digits: a short handle
// ("b40", "r7").
func isLetterNumber(f string) bool {
	if len(f) < 2 || len(f) > 7 || !('a' <= f[0]|0x20 && f[0]|0x20 <= 'z') {
		return false
	}
	for i := 1; i < len(f); i++ {
		if f[i] < '0' || f[i] > '9' {
			return false
		}
	}
	return true
}

func countDigits(f string) int {
	n := 0
	for i := 0; i < len(f); i++ {
		if f[i]-'0' < 10 {
			n++
		}
	}
	return n
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

// tempFolders are the folders whose files' names a digest masks as volatile.
var tempFolders = [...]string{"/tmp/", "/var/folders/", "/private/var/", "/var/tmp/", "/dev/shm/", "\\Temp\\", "\\AppData\\Local\\Temp"}

func isTempPath(f string) bool {
	for _, p := range tempFolders {
		if strings.Contains(f, p) {
			return true
		}
	}
	return false
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
	if unit != "" && unit[0] >= 0xe0 {
		return cjkTimeUnits(unit) // 1.5秒, 14时30分05秒, 2025年3月1日
	}
	if unit == "" {
		// The unit may be the next word.
		if len(after) > 3 && after[0] == ' ' && after[1] >= 0xe0 {
			return spelledCJKDuration(after[1:]) // 3 秒; not 3 分, which may be a score
		}
		if len(after) > 1 && after[0] == ' ' {
			k := 1
			for k < len(after) && k < 14 && 'a' <= after[k] && after[k] <= 'z' {
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

// spelledCJKDuration says whether w opens with a Chinese unit of time written apart from its
// number ("3 秒", "10 分钟", "2 小时"), the unit a word of its own: what follows it is no
// other character of the script ("秒，服务仍未就绪" is a second, then a comma).
func spelledCJKDuration(w string) bool {
	for _, u := range [...]string{"毫秒", "秒钟", "秒", "分钟", "小时"} {
		if rest, ok := strings.CutPrefix(w, u); ok {
			r, _ := utf8.DecodeRuneInString(rest)
			return rest == "" || !isIdeograph(r)
		}
	}
	return false
}

// cjkTimeUnits says whether s, what follows a number, is a Chinese or Japanese date, time or
// duration's units and the numbers between them: "秒" (1.5秒), "时30分05秒", "年3月1日",
// "毫秒". It must name a second, an hour, a day or a year (秒, 钟, 时, 日, 年): "分" or "点"
// alone may be a score, "月" alone a count of months. Tools that speak Chinese write times so,
// and a time that moved made two same answers differ (validation round r67c P2).
func cjkTimeUnits(s string) bool {
	strong := false
	for _, r := range s {
		switch r {
		case '秒', '钟', '時', '时', '日', '年':
			strong = true
		case '分', '毫', '月', '点', '小', '天', '.', ':':
		default:
			if r < '0' || r > '9' {
				return false
			}
		}
	}
	return strong
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

// isUnderline says whether a field only underlines the code above it ("^^^^^^^^", "~~~^^^"):
// Python's tracebacks and many compilers mark the expression at fault so, under the line that
// quotes it, and the marks are as long as the expression. When the quoted line echoes the
// call's own code, so do its marks: seven attempts at one failing lookup, each naming another
// attribute, failed alike but for the length of the marks (validation round r88c M1).
func isUnderline(f string) bool {
	if len(f) < 2 || f[0] != '^' && f[0] != '~' {
		return false // most fields: one look
	}
	caret := false
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case '^':
			caret = true
		case '~':
		default:
			return false
		}
	}
	return caret
}

// hasAlnum says whether s holds an ASCII letter or digit, or any byte above ASCII.
func hasAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z' {
			return true
		}
	}
	return false
}

// echoedEscaped says whether a field holding a backslash is in the echo as JSON writes it, its
// backslashes doubled: the arguments are read as their JSON text, so a pattern the answer
// quotes back ("Blueprint.*dot\|dot.*Blueprint") is an argument's word only so written.
func (d *digester) echoedEscaped(f string) bool {
	var buf [128]byte
	n := 0
	for i := 0; i < len(f); i++ {
		if n+2 > len(buf) {
			return false
		}
		if f[i] == '\\' {
			buf[n] = '\\'
			n++
		}
		buf[n] = f[i]
		n++
	}
	return d.echo.has(wordHash(unsafe.String(&buf[0], n)))
}

// isDirMode says whether f is a directory's mode as a long listing shows it ("drwxr-xr-x",
// "drwxrwxrwt", perhaps with ls's '.', '+' or '@' after it). The numbers on such a line
// before its name, the directory's link count and size, are the file system's bookkeeping of
// what is inside it, not what the listing shows: the parent's line ("..") of an `ls -la` in a
// busy /tmp changed its link count every few calls, and the same listing made 51 times read as
// a new answer each time it changed (validation round r258a). Its name, the line's last
// field, stays. A file's size stays too: a log that grows is news.
func isDirMode(f string) bool {
	if len(f) != 10 && (len(f) != 11 || f[10] != '.' && f[10] != '+' && f[10] != '@') || f[0] != 'd' {
		return false
	}
	for i := 1; i < 10; i++ {
		switch f[i] {
		case 'r', 'w', 'x', 's', 'S', 't', 'T', '-':
		default:
			return false
		}
	}
	return true
}

// lastOnLine says whether nothing but white space is left on the line in rest.
func lastOnLine(rest string) bool {
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case ' ', '\t', '\r':
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}
