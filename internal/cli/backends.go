package cli

// The full binary serves every store URL: serve and proxy fleets share state through Redis,
// and a hook whose store is Redis runs here (the hook-only binary hands it over; see
// internal/hookcmd).
import _ "github.com/loopguard/loopguard/internal/store/redisstore"
