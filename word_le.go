//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package loopguard

import "unsafe"

// loadWord reads the little-endian word at s[i:i+8]. The caller has checked that
// i+8 <= len(s): the result normaliser reads every byte of every result this way, and the
// bounds checks the compiler cannot prove away cost more than the load. On a little-endian
// machine it is one unaligned load.
func loadWord(s string, i int) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))
}
