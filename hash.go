package loopguard

// Fingerprints here must be stable across processes and machines: they go into snapshots
// that a hook process saves and the next one loads. So no hash/maphash with random seeds.

const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// hashString is FNV-1a over the bytes of s, finished with a strong mix.
func hashString(s string) uint64 {
	h := uint64(fnvOffset64)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime64
	}
	return mix64(h)
}

// mix64 is a 64-bit finaliser (the MurmurHash3 fmix64 constants): every input bit affects
// every output bit, so combining fingerprints by xor-and-mix does not cancel structure.
func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// combine folds b into a in an order-dependent way.
func combine(a, b uint64) uint64 {
	return mix64(a*0x9e3779b97f4a7c15 ^ (b + 0x632be59bd9b4e019))
}
