package canon

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unicode/utf8"
)

// The hash is persisted (fingerprints end up in snapshots), so everything in
// this file is fixed: explicit little-endian loads, fixed constants, no
// per-process seeds. Changing any constant or step changes every fingerprint;
// TestFingerprintIsStable pins a few values so that cannot happen by accident.
//
// Construction. The workhorse is mul128fold: the full 128-bit product of two
// 64-bit words with its halves xor-ed together. The high half depends on the
// carries of the whole product, so a difference in one input bit spreads
// through the output in a data-dependent way (unlike a plain 64-bit multiply,
// where a difference in bit 63 stays a difference in bit 63).
//
//   - byte strings of 16 bytes or more: the bytes are cut into 16-byte
//     blocks, read as two little-endian words (a, b), the last block zero
//     padded. Each block is absorbed as h = fold(h^a^blockKeyA, b^blockKeyB),
//     and the byte length is folded in at the end, which makes the padding
//     unambiguous. The same function is computed in one pass while a plain
//     string is being scanned (fingerprintJSON) and, piece by piece, by
//     pieces when a string has to be decoded first, so no string is ever
//     copied.
//   - byte strings shorter than 16 bytes (most object keys) take a single
//     multiplication: the one block, with the length in its top byte, which
//     the zero padding leaves free. A long string ends with a different
//     step (the length fold), so the two shapes do not meet by construction.
//   - numbers: a bijective xorshift-multiply mixer over the float64 bits, so
//     two different doubles never share a number hash.
//   - arrays: a sequential fold of the elements' hashes, the element count
//     folded in at the end.
//   - objects: each member is hashed on its own, fold(key, value), and the
//     member hashes are added up. Addition does not care about order, so an
//     object needs no sorting, and the members' multiplications do not wait
//     on one another. A repeated key replaces its member's term (subtract
//     the old, add the new), which is "the last one wins". The sum and the
//     member count are folded at the end.
//
// Every kind of value starts from its own constant, which is what keeps
// ["a","b"], ["ab"], {"a":"b"}, "1" and 1 apart.
//
// A block step can only lose the state if one of its two factors is zero.
// blockKeyB contains the byte 0xFD, which never occurs in UTF-8, and every
// byte string hashed here is valid UTF-8 (or ASCII, for number literals),
// so b^blockKeyB is never zero. For the first block h is a seed, and
// seed^blockKeyA likewise contains a byte in 0xF5..0xFF, so h^a^blockKeyA is
// not zero either (TestSeedsCannotBeCancelledByText checks both); after the
// first block h is effectively random.

const (
	blockKeyA = 0xd9b93cb29c97bbe3
	blockKeyB = 0xc50d34c473fd0cdd // contains 0xFD
	lenKey    = 0x9928dcaebac54561
	lenMul    = 0x4b527b1de7797311

	seedString = 0x1fe0a44e63d840bb
	seedBigNum = 0x788fb04dd91d12f3 // number literals that overflow float64
	seedNumber = 0xed5c4244b426919f

	seedArray = 0xf05d918c87900b2f
	stepArray = 0x77691ef03a766fbd
	endArray  = 0x804064a4f52764bd

	seedObject = 0x0b6e91ea68db7fed
	memberKey  = 0x1e0b0c1e78504083
	memberVal  = 0x2f324a534963b717
	endObject  = 0xe8e6ab54c1e22297

	hashNull  = 0xc70a721a705cba07
	hashTrue  = 0xe6fde85aa9d1c349
	hashFalse = 0xd510bda634627d1f

	mixMulA = 0x94c54ac4e94d496f
	mixMulB = 0xa1cbdbda8dd96755
)

// mul128fold multiplies a and b as 128-bit numbers and xors the halves.
func mul128fold(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// absorb folds one 16-byte block (a, b) of string content into h.
func absorb(h, a, b uint64) uint64 { return mul128fold(h^a^blockKeyA, b^blockKeyB) }

// hashShort is the hash of a byte string of n < 16 bytes, held zero padded
// in (w0, w1): one block, with n in the top byte that the padding leaves
// free. The first factor is the first block's, so the argument that keeps it
// from zero (see above) holds here too; the second contains 0xFD.
func hashShort(seed, w0, w1 uint64, n int) uint64 {
	return mul128fold(seed^w0^blockKeyA, w1^blockKeyB^uint64(n)<<56)
}

// finish closes a byte-string hash over n >= 16 bytes.
func finish(h uint64, n int) uint64 { return mul128fold(h^uint64(n)^lenKey, lenMul) }

// mix is a bijection on uint64 with good avalanche (xorshift, odd multiply,
// xorshift, odd multiply, xorshift; each step is invertible).
func mix(x uint64) uint64 {
	x ^= x >> 31
	x *= mixMulA
	x ^= x >> 27
	x *= mixMulB
	x ^= x >> 33
	return x
}

// absorbBlocks absorbs p, whose length must be a multiple of 16.
func absorbBlocks(h uint64, p []byte) uint64 {
	for i := 0; len(p)-i >= 16; i += 16 {
		h = absorb(h, word(p, i), word(p, i+8))
	}
	return h
}

// finishTail absorbs the final partial block tail (shorter than 16 bytes,
// possibly empty) and closes the hash of n bytes in total. h must be the
// seed if n < 16.
func finishTail(h uint64, tail []byte, n int) uint64 {
	if n < 16 {
		w0, w1 := loadPadded16(tail)
		return hashShort(h, w0, w1, n)
	}
	if len(tail) > 0 {
		w0, w1 := loadPadded16(tail)
		h = absorb(h, w0, w1)
	}
	return finish(h, n)
}

// pieceBuf holds content waiting to be absorbed: up to 64 bytes, plus room
// for one whole 16-byte store past them.
type pieceBuf [64 + 16]byte

// pieces hashes content that arrives in pieces (plain runs, decoded
// escapes) exactly as hashBytes hashes it in one piece. Pieces are written
// into buf with whole-word stores that may run past the piece (the excess
// is overwritten by the next piece or ignored), and whole 16-byte blocks
// are absorbed once 64 bytes have gathered.
type pieces struct {
	h   uint64 // hash of the n bytes absorbed so far
	n   int    // a multiple of 16
	k   int    // bytes waiting in buf; < 64 between calls
	buf pieceBuf
}

// put16 appends the first l bytes (0 <= l <= 16) of the little-endian words
// x0, x1.
func (p *pieces) put16(x0, x1 uint64, l int) {
	k := p.k & 63 // p.k < 64 always holds here
	binary.LittleEndian.PutUint64(p.buf[k:], x0)
	binary.LittleEndian.PutUint64(p.buf[k+8:], x1)
	if p.k += l; p.k >= 64 {
		p.flush()
	}
}

// putRune appends the UTF-8 encoding of r.
func (p *pieces) putRune(r rune) {
	if r < utf8.RuneSelf {
		p.put16(uint64(r), 0, 1)
		return
	}
	var b [8]byte
	n := utf8.EncodeRune(b[:], r)
	p.put16(binary.LittleEndian.Uint64(b[:]), 0, n)
}

// putBytes appends b.
func (p *pieces) putBytes(b []byte) {
	for len(b) >= 16 {
		p.put16(binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:]), 16)
		b = b[16:]
	}
	x0, x1 := loadPadded16(b)
	p.put16(x0, x1, len(b))
}

// flush absorbs the 64 bytes at the front of buf and moves the rest (fewer
// than 16 bytes, stored as a whole 16-byte copy) to the front.
func (p *pieces) flush() {
	p.h = flushPieces(p.h, &p.buf)
	p.n += 64
	p.k -= 64
}

// flushPieces absorbs the 64 bytes at the front of buf into h and moves the
// bytes after them to the front.
func flushPieces(h uint64, buf *pieceBuf) uint64 {
	h = absorbBlocks(h, buf[:64])
	copy(buf[:16], buf[64:])
	return h
}

// sum returns the hash of all bytes put.
func (p *pieces) sum() uint64 { return sumPieces(p.h, p.n, &p.buf, p.k) }

// sumPieces closes a hash kept as pieces keeps it: h covers n bytes (a
// multiple of 16), and k < 64 more bytes wait at the front of buf. Whole
// words are read from buf and the bytes past the k are masked off.
func sumPieces(h uint64, n int, buf *pieceBuf, k int) uint64 {
	total := n + k
	full := k &^ 15
	h = absorbBlocks(h, buf[:full])
	w0, w1 := firstBytes(word(buf[:], full), word(buf[:], full+8), k-full)
	if total < 16 {
		return hashShort(h, w0, w1, total)
	}
	if k > full {
		h = absorb(h, w0, w1)
	}
	return finish(h, total)
}

// firstBytes keeps the first t (0..16) bytes of the little-endian words
// w0, w1 and zeroes the rest.
func firstBytes(w0, w1 uint64, t int) (uint64, uint64) {
	if t <= 8 {
		return w0 & (1<<(8*uint(t)&63) - 1 | -(uint64(t) >> 3)), 0
	}
	return w0, w1 & (1<<(8*uint(t-8)&63) - 1 | -(uint64(t) >> 4))
}

// hashBytes hashes p in one piece, starting from seed.
func hashBytes(seed uint64, p []byte) uint64 {
	full := len(p) &^ 15
	return finishTail(absorbBlocks(seed, p[:full]), p[full:], len(p))
}

// loadPadded16 reads up to 16 bytes as two little-endian words, zero padded.
func loadPadded16(p []byte) (w0, w1 uint64) {
	if len(p) > 8 {
		return binary.LittleEndian.Uint64(p), loadPadded(p[8:])
	}
	return loadPadded(p), 0
}

// loadPadded reads up to 8 bytes as a little-endian word, zero padded.
func loadPadded(p []byte) uint64 {
	if len(p) >= 8 {
		return binary.LittleEndian.Uint64(p)
	}
	var v uint64
	var shift uint
	if len(p) >= 4 {
		v = uint64(binary.LittleEndian.Uint32(p))
		p = p[4:]
		shift = 32
	}
	if len(p) >= 2 {
		v |= uint64(binary.LittleEndian.Uint16(p)) << shift
		p = p[2:]
		shift += 16
	}
	if len(p) == 1 {
		v |= uint64(p[0]) << shift
	}
	return v
}

// hashFloat is the identity of a JSON number whose value is the finite double f.
func hashFloat(f float64) uint64 {
	if f == 0 {
		f = 0 // -0 and +0 are the same number
	}
	return mix(math.Float64bits(f) ^ seedNumber)
}

// Arrays: h starts at seedArray, each element e folds in, the count closes.
func hashArrayStep(h, e uint64) uint64    { return mul128fold(h^e, stepArray) }
func hashArrayEnd(h uint64, n int) uint64 { return mul128fold(h^uint64(n), endArray) }

// Objects: the sum starts at seedObject and each member's hash is added;
// the sum and the member count close it. A factor of hashMember is zero
// only if a key or value hash equals one of the constants, which none of
// the constant hashes here does and a computed hash does with probability
// 2^-64. Starting the sum from a seed keeps the empty object's first factor
// from zero.
func hashMember(key, val uint64) uint64      { return mul128fold(key^memberKey, val^memberVal) }
func hashObjectEnd(sum uint64, n int) uint64 { return mul128fold(sum^uint64(n), endObject) }
