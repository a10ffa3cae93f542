package loopguard

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// byteClassesByHand is the byteMap's classes of one byte, written out plainly.
func byteClassesByHand(c byte) (low, nl, digit, dos, slashEq bool) {
	digit = '0' <= c && c <= '9'
	return c <= ' ', c == '\n', digit, digit || c == '/', c == '/' || c == '='
}

// checkByteMap compares every bit of m's window of text with byteClassesByHand.
func checkByteMap(t *testing.T, m *byteMap, text string) {
	t.Helper()
	for i := m.base; i < m.end; i++ {
		b := i - m.base
		bit := func(r *bitRow) bool { return r[b>>6]>>(uint(b)&63)&1 == 1 }
		low, nl, digit, dos, slashEq := byteClassesByHand(text[i])
		if bit(&m.low) != low || bit(&m.nl) != nl || bit(&m.digit) != digit || bit(&m.dos) != dos || bit(&m.slashEq) != slashEq {
			t.Fatalf("byte %d (%q) of a %d-byte text: low %v nl %v digit %v dos %v slashEq %v, want %v %v %v %v %v",
				i, text[i], len(text), bit(&m.low), bit(&m.nl), bit(&m.digit), bit(&m.dos), bit(&m.slashEq), low, nl, digit, dos, slashEq)
		}
	}
	// Past the text's end within the last word, no byte ends a field: the map must not make
	// one up from the padding.
	if rest := (m.end - m.base) & 63; rest != 0 {
		if extra := m.low[(m.end-m.base)>>6] >> uint(rest); extra != 0 {
			t.Fatalf("low bits past the end of a %d-byte window: %b", m.end-m.base, extra)
		}
	}
}

// randomBytes draws n bytes biased to the ones the classes tell apart, with every byte value
// possible.
func randomBytes(r *rand.Rand, n int) string {
	const usual = " \t\n\r/=09az.-_\x00\x1b\x7f\x80\xff:[]"
	b := make([]byte, n)
	for i := range b {
		if r.IntN(3) == 0 {
			b[i] = byte(r.IntN(256))
		} else {
			b[i] = usual[r.IntN(len(usual))]
		}
	}
	return string(b)
}

func TestByteMapClassesEveryByteAsWrittenOut(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 59))
	var every strings.Builder
	for c := 0; c < 256; c++ {
		every.WriteByte(byte(c))
	}
	texts := []string{every.String(), strings.Repeat(every.String(), 20)}
	for _, n := range []int{1, 7, 63, 64, 65, 127, 128, 1000, 4095, 4096, 4097, 9000} {
		texts = append(texts, randomBytes(r, n))
	}
	for _, text := range texts {
		var m byteMap
		for base := 0; base < len(text); base += scanWindow - 37 {
			m.fill(text, base)
			checkByteMap(t, &m, text)
		}
	}
}

func TestClassifyBlocksMatchesThePortableCode(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 59))
	for try := 0; try < 200; try++ {
		blocks := 1 + r.IntN(70)
		text := randomBytes(r, blocks*64)
		var fast, portable [5][80]uint64
		p := []byte(text)
		classifyBlocks(&p[0], blocks, &fast[0][0], &fast[1][0], &fast[2][0], &fast[3][0], &fast[4][0])
		classifyBlocksGeneric(&p[0], blocks, &portable[0][0], &portable[1][0], &portable[2][0], &portable[3][0], &portable[4][0])
		if fast != portable {
			t.Fatalf("%d blocks: classifyBlocks and classifyBlocksGeneric disagree", blocks)
		}
	}
}

func TestBitRowQueriesMatchABitByBitLook(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 59))
	for try := 0; try < 300; try++ {
		var row bitRow
		density := 1 + r.IntN(40)
		for i := 0; i < scanWindow; i++ {
			if r.IntN(density) == 0 {
				row[i>>6] |= 1 << (uint(i) & 63)
			}
		}
		set := func(i int) bool { return row[i>>6]>>(uint(i)&63)&1 == 1 }
		for q := 0; q < 50; q++ {
			from := r.IntN(scanWindow)
			to := from + r.IntN(min(300, scanWindow-from)+1)
			wantNext, wantAfter, wantCount := to, from, 0
			for i := from; i < to; i++ {
				if set(i) {
					if wantNext == to {
						wantNext = i
					}
					wantAfter = i + 1
					wantCount++
				}
			}
			if got := row.next(from, to); got != wantNext {
				t.Fatalf("next(%d, %d) = %d, want %d", from, to, got, wantNext)
			}
			if got := row.after(from, to); got != wantAfter {
				t.Fatalf("after(%d, %d) = %d, want %d", from, to, got, wantAfter)
			}
			if got := row.count(from, to); got != wantCount {
				t.Fatalf("count(%d, %d) = %d, want %d", from, to, got, wantCount)
			}
			if got := row.any(from, to); got != (wantCount > 0) {
				t.Fatalf("any(%d, %d) = %v, want %v", from, to, got, wantCount > 0)
			}
		}
	}
}
