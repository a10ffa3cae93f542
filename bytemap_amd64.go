//go:build amd64 && !purego

package loopguard

// classifyBlocks maps blocks*64 bytes from p (see byteMap), a word of each class a block: SSE2,
// which every amd64 processor has, compares 16 bytes an instruction (bytemap_amd64.s).
//
//go:noescape
func classifyBlocks(p *byte, blocks int, low, nl, digit, dos, slashEq *uint64)
