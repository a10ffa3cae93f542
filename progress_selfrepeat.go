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

// selfRepeats returns how many times the text's most repeated block of lines follows itself
// back to back, and the block's length in lines. Lines are compared trimmed, with the line's
// first run of digits taken as any number ("Step 7: retry the edit", "Step 8: retry the edit"
// are the same line: a loop renumbers what it repeats) and the others as written (a list of
// dividends paid, "1. On 2023-05-12, $0.23 was paid", "2. On 2023-02-10, ...", is data whose
// values differ line by line, not the same line ten times); blank lines, table
// rows, lines without a letter (a grid's rows of numbers) and code blocks (fenced by ```) are
// passed over: code, data, and a command's output quoted in a block, repeat lines by nature.
// hashes and sizes are scratch space, returned grown for the next text.
func selfRepeats(text string, hashes []uint64, sizes []int) (rounds, period int, h []uint64, sz []int) {
	hashes, sizes = hashes[:0], sizes[:0]
	if len(text) < selfRepeatRounds*selfRepeatMinBlock {
		return 0, 0, hashes, sizes // too short to hold ten rounds of a block long enough
	}
	fenced := false // inside a code block: code and quoted output repeat lines by nature
	for len(text) > 0 {
		line := text
		if nl := indexByte(text, '\n'); nl >= 0 {
			line, text = text[:nl], text[nl+1:]
		} else {
			text = ""
		}
		line = strings.Trim(line, " \t\r")
		if len(line) >= 3 && line[:3] == "```" {
			fenced = !fenced
			continue
		}
		if fenced || line == "" || line[0] == '|' {
			continue
		}
		var th textHasher
		words, counted := false, false
		for i := 0; i < len(line); i++ {
			c := line[i]
			words = words || 'a' <= c|0x20 && c|0x20 <= 'z' || c >= 0x80
			if c >= '0' && c <= '9' && !counted {
				for i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9' {
					i++
				}
				c, counted = '#', true
			}
			th.writeByte(c)
		}
		if !words {
			continue // a row of numbers or marks (a grid, a matrix, a rule) is data, not prose
		}
		if len(hashes) == selfRepeatMaxLines {
			// keep the last lines: shift by half, once per half
			n := copy(hashes, hashes[selfRepeatMaxLines/2:])
			copy(sizes, sizes[selfRepeatMaxLines/2:])
			hashes, sizes = hashes[:n], sizes[:n]
		}
		hashes = append(hashes, th.sum())
		// sizes holds running totals, so that a block's size is one subtraction
		total := len(line)
		if k := len(sizes); k > 0 {
			total += sizes[k-1]
		}
		sizes = append(sizes, total)
	}
	n := len(hashes)
	for p := 1; p <= selfRepeatMaxPeriod && 2*p <= n; p++ {
		run := 0
		for i := p; i < n; i++ {
			if hashes[i] != hashes[i-p] {
				run = 0
				continue
			}
			run++
			r := run/p + 1
			if r <= rounds {
				continue
			}
			if d := smallestPeriod(hashes[i-p+1 : i+1]); sizes[i]-sizes[i-d] >= selfRepeatMinBlock {
				// what repeats is the block's own smallest unit: three copies of a short list
				// item make a block long enough, but the item is what is said again
				rounds, period = r, p
			}
		}
	}
	return rounds, period, hashes, sizes
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
