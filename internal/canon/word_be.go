//go:build !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package canon

import "encoding/binary"

// word reads the little-endian word at s[i:i+8] (see word_le.go). On a
// big-endian machine the bytes are swapped, so fingerprints agree everywhere.
func word(s []byte, i int) uint64 {
	return binary.LittleEndian.Uint64(s[i:])
}
