package loopguard

import "strings"

// A reply that repeats itself: the model's generation caught in a loop inside one text, the
// same lines written again and again until the output runs out ("Wait, I am confused. / Is
// it `msubsup` or `msubsup`?" 900 times in one real reply; an Aider reply restating the
// same three SEARCH/REPLACE steps, renumbered, a dozen times). The thought rule compares whole
// turns, so it never sees this: the loop is inside one of them.

// selfRepeatRounds is how many times a block of lines must follow itself back to back for a
// text to be repeating itself: a degenerate generation goes on until the output limit, far
// past it, while a list, a log quoted or code written line by line seldom repeats a block
// of forty characters or more ten times in a row. (Gemini CLI's rule for streamed content
// also asks for ten repeats, of 50-character chunks.)
const selfRepeatRounds = 10

// selfRepeatMinBlock is the least text, in bytes, a repeated block must hold: shorter blocks
// ("}", "end", a rule of dashes) repeat in ordinary output.
const selfRepeatMinBlock = 40

// selfRepeatMaxPeriod is the longest block looked for, in lines.
const selfRepeatMaxPeriod = 64

// selfRepeatMaxLines bounds the lines compared: a looping generation runs to the end of the
// text, so its last lines are enough.
const selfRepeatMaxLines = 4096

// lineScratch is selfRepeats' scratch space, kept between texts: each kept line's hash, the
// running total of their sizes (so that a block's size is one subtraction), and where each
// starts and ends in the text. A "line" is a line of the text, or a sentence of a long one
// (paragraphUnits).
type lineScratch struct {
	hashes []uint64
	sizes  []int
	starts []int
	ends   []int
}

func (l lineScratch) reset() lineScratch {
	return lineScratch{hashes: l.hashes[:0], sizes: l.sizes[:0], starts: l.starts[:0], ends: l.ends[:0]}
}

// selfRepeatParagraph is the length from which a line is a paragraph, read sentence by
// sentence: a generation caught in a loop may write it without a line break, one sentence
// pair 24 to 49 times until the output ran out (validation round r194b M1, M2: a Qwen2-72B
// data agent, four replies in a row, untold while lines alone were compared). A line this long
// can hold ten rounds of a 40-byte block; a shorter one cannot.
const selfRepeatParagraph = selfRepeatRounds * selfRepeatMinBlock

// nextSentence returns the length of the sentence that line opens with: up to and with its
// closing '.', '?' or '!' followed by a space, or its closing "。", "？" or "！"; the whole
// line when none closes it.
func nextSentence(line string) int {
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case (c == '.' || c == '?' || c == '!') && i+1 < len(line) && line[i+1] == ' ':
			return i + 1
		case c == 0xE3 && strings.HasPrefix(line[i:], "。"),
			c == 0xEF && (strings.HasPrefix(line[i:], "？") || strings.HasPrefix(line[i:], "！")):
			return i + 3
		}
	}
	return len(line)
}

// keep adds a line (or a sentence of a long one) that starts at start in the text, unless it
// is a row of numbers or marks (a grid, a matrix, a rule): data, not prose. Digits are hashed
// as one mark a run, so that a loop that renumbers what it repeats is seen.
func (sc *lineScratch) keep(line string, start int) {
	var th textHasher
	words := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		words = words || 'a' <= c|0x20 && c|0x20 <= 'z' || c >= 0x80
		if c >= '0' && c <= '9' {
			for i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9' {
				i++
			}
			c = '#'
		}
		th.writeByte(c)
	}
	if !words {
		return
	}
	if len(sc.hashes) == selfRepeatMaxLines {
		// keep the last lines: shift by half, once per half
		n := copy(sc.hashes, sc.hashes[selfRepeatMaxLines/2:])
		copy(sc.sizes, sc.sizes[selfRepeatMaxLines/2:])
		copy(sc.starts, sc.starts[selfRepeatMaxLines/2:])
		copy(sc.ends, sc.ends[selfRepeatMaxLines/2:])
		sc.hashes, sc.sizes, sc.starts, sc.ends = sc.hashes[:n], sc.sizes[:n], sc.starts[:n], sc.ends[:n]
	}
	sc.hashes = append(sc.hashes, th.sum())
	sc.starts = append(sc.starts, start)
	sc.ends = append(sc.ends, start+len(line))
	total := len(line)
	if k := len(sc.sizes); k > 0 {
		total += sc.sizes[k-1]
	}
	sc.sizes = append(sc.sizes, total)
}

// selfRepeats returns how many times the text's most repeated block of lines follows itself
// back to back, and the block's length in lines. Lines are compared trimmed, with every run
// of digits taken as one digit ("Step 7", "Step 8" are the same line: a loop renumbers what it
// repeats); blank lines, table rows, lines without a letter (a grid's rows of numbers) and
// code blocks (fenced by ```) are passed over: code, data, and a command's output quoted in a
// block, repeat lines by nature. A block whose numbers move unevenly from one round to the
// next is data, not a loop (a list of dividends paid on ten dates, "1. On 2023-05-12, $0.23
// was paid", "2. On 2023-02-10, ..."): a loop's numbers stay or count on by the same step.
// When no block repeats ten times, a line said again every period lines up to the text's
// end, ten times or more, is such a loop too (recurringLine): spread is then true, and period
// is how many lines apart its sayings are.
func selfRepeats(text string, sc *lineScratch) (rounds, period int, spread bool) {
	*sc = sc.reset()
	if len(text) < selfRepeatRounds*selfRepeatMinBlock {
		return 0, 0, false // too short to hold ten rounds of a block long enough
	}
	var fence byte // '`' or '~' inside a code block: code and quoted output repeat lines by nature
	for off := 0; off < len(text); {
		start := off
		line := text[off:]
		if nl := indexByte(line, '\n'); nl >= 0 {
			line, off = line[:nl], off+nl+1
		} else {
			off = len(text)
		}
		lead := len(line) - len(strings.TrimLeft(line, " \t\r"))
		line = strings.Trim(line, " \t\r")
		if len(line) >= 3 && (line[:3] == "```" || line[:3] == "~~~") {
			// A block closes with the fence it opened with: "~~~" inside "```" is code.
			switch fence {
			case 0:
				fence = line[0]
			case line[0]:
				fence = 0
			}
			continue
		}
		if fence != 0 || line == "" || line[0] == '|' {
			continue
		}
		start += lead
		paragraph := len(line) >= selfRepeatParagraph
		for line != "" {
			unit := line
			if paragraph {
				unit = line[:nextSentence(line)]
			}
			rest := line[len(unit):]
			skip := len(rest) - len(strings.TrimLeft(rest, " \t"))
			sc.keep(unit, start)
			start += len(unit) + skip
			line = rest[skip:]
		}
	}
	hashes, sizes := sc.hashes, sc.sizes
	n := len(hashes)
	for p := 1; p <= selfRepeatMaxPeriod && 2*p <= n; p++ {
		run := 0
		for i := p; i <= n; i++ {
			if i < n && hashes[i] == hashes[i-p] {
				run++
				continue
			}
			// A run of copies of the block of p lines before it ended at line i-1; end is the
			// last line of its last whole round.
			r, end := run/p+1, i-1-run%p
			run = 0
			if r <= rounds || r < 2 {
				continue
			}
			// What repeats is the block's own smallest unit: three copies of a short list
			// item make a block long enough, but the item is what is said again. A block
			// whose numbers move unevenly is data (a list of dividends); it does not count,
			// and it hides no loop said elsewhere in the text.
			// (Data is judged by that unit's rounds: two rounds of five dividends are ten.)
			d := smallestPeriod(hashes[end-p+1 : end+1])
			if ru := r * p / d; sizes[end]-sizes[end-d] >= selfRepeatMinBlock && (ru < 3 || !numbersMoveUnevenly(text, sc, end, ru, d, d)) {
				rounds, period = r, p
			}
		}
	}
	if rounds < selfRepeatRounds {
		if r, p := recurringLine(text, sc); r > 0 {
			return r, p, true
		}
	}
	return rounds, period, false
}

// recurringLine finds a line the text says again every period lines, the lines between
// changing, ten times or more in a row up to its end: a generation caught in a loop that
// varies one part of what it repeats. A fine-tuned model wrote "Thought: The search result
// still does not provide the specific information I need. I should try a different
// search." before each of 28 made-up searches, each a new query, until its output ran out:
// no block of lines followed itself, and the back-to-back rule saw nothing. The line must
// hold 40 bytes or more of words (a heading, a label or a rule says too little), and its
// numbers may only count on by an even step. The rounds must run to the text's end, the lines
// after the last saying opening as the lines of the round before did (the last one perhaps
// cut short): a looping generation goes on until its output is cut, while a template filled
// in for each of a list of things (a verdict under each file's name) ends, and is followed by
// what it was for.
func recurringLine(text string, sc *lineScratch) (rounds, period int) {
	hashes, sizes, n := sc.hashes, sc.sizes, len(sc.hashes)
	for p := 2; p <= selfRepeatMaxPeriod && (selfRepeatRounds-1)*p < n; p++ {
		// the last saying, with at most one round after it, perhaps cut short
		for last := max(n-1-p, 0); last < n; last++ {
			size := sizes[last]
			if last > 0 {
				size -= sizes[last-1]
			}
			if size < selfRepeatMinBlock {
				continue
			}
			r := 1
			for k := last - p; k >= 0 && hashes[k] == hashes[last]; k -= p {
				r++
			}
			if r <= rounds || r < selfRepeatRounds {
				continue
			}
			ends := true
			for later := last + 1; later < n && ends; later++ {
				ends = opensAsBefore(text, sc, later, later-p)
			}
			if ends && !numbersMoveUnevenly(text, sc, last+p-1, r, p, 1) {
				rounds, period = r, p
			}
		}
	}
	return rounds, period
}

// opensAsBefore says whether the kept line later opens as the kept line earlier does: its
// first word is the other's, or the start of it (a line cut short where the output ran out).
func opensAsBefore(text string, sc *lineScratch, later, earlier int) bool {
	firstWord := func(i int) string {
		line := text[sc.starts[i]:sc.ends[i]]
		if k := strings.IndexAny(line, " \t\r\n"); k >= 0 {
			line = line[:k]
		}
		return line
	}
	w := firstWord(later)
	return w != "" && strings.HasPrefix(firstWord(earlier), w)
}

// numbersMoveUnevenly says whether, in the run of rounds copies of a block of period lines
// ending at line end, some number of one of each round's first lines lines moves by
// different steps from one round to the next: the block is a template filled with data, not
// a loop. (For a block repeated whole every line is looked at; for a line said again every
// period lines, that line alone.)
func numbersMoveUnevenly(text string, sc *lineScratch, end, rounds, period, lines int) bool {
	first := end - rounds*period + 1
	for o := 0; o < lines; o++ {
		var prev, step [8]int64
		for r := 0; r < rounds; r++ {
			at := first + r*period + o
			line := text[sc.starts[at]:sc.ends[at]]
			var nums [8]int64
			k := 0
			for i := 0; i < len(line) && k < len(nums); i++ {
				if line[i] < '0' || line[i] > '9' {
					continue
				}
				v := int64(0)
				for ; i < len(line) && line[i] >= '0' && line[i] <= '9'; i++ {
					if v < 1e15 {
						v = v*10 + int64(line[i]-'0')
					}
				}
				nums[k] = v
				k++
			}
			for j := 0; j < k; j++ {
				switch {
				case r >= 2 && nums[j]-prev[j] != step[j]:
					return true
				case r >= 1:
					step[j] = nums[j] - prev[j]
				}
				prev[j] = nums[j]
			}
		}
	}
	return false
}

// smallestPeriod returns the smallest d dividing len(block) such that the block is copies of
// its first d lines.
func smallestPeriod(block []uint64) int {
	p := len(block)
	for d := 1; d < p; d++ {
		if p%d != 0 {
			continue
		}
		periodic := true
		for k := d; k < p && periodic; k++ {
			periodic = block[k] == block[k-d]
		}
		if periodic {
			return d
		}
	}
	return p
}
