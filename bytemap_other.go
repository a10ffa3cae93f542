//go:build !amd64 || purego

package loopguard

// classifyBlocks maps blocks*64 bytes from p (see byteMap), a word of each class a block.
func classifyBlocks(p *byte, blocks int, low, nl, digit, dos, slashEq *uint64) {
	classifyBlocksGeneric(p, blocks, low, nl, digit, dos, slashEq)
}
