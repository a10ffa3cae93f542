package loopguard

// Version is loopguard's release, printed by `loopguard --version`.
const Version = "0.1.0-dev"
