//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package canon

import "unsafe"

// word reads the little-endian word at s[i:i+8]. The caller has checked that
// i+8 <= len(s): this is the innermost loop of the fingerprint, and the
// bounds checks the compiler cannot prove away cost more than the load. On a
// little-endian machine that is one unaligned load.
func word(s []byte, i int) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), i))
}
