// Package jsonscan is loopguard's one JSON scanner: the lexical layer (white space,
// strings, numbers, literals), a value skipper, an object and array walker, and string
// unescaping. canon, replay, transcript and the proxy read JSON through it, so a byte
// sequence means the same thing in all of them, and the places where they deliberately
// differ are named here instead of being hidden in four private copies.
//
// Nothing here builds a tree, and on valid input nothing allocates except the skipper's
// bracket stack past 64 open containers (errors are allocated when they happen). Callers keep their own parsers (canon's hashing state
// machine, the proxy's offset tree, replay's event reader, transcript's walker) and call
// into this package for every lexical decision.
//
// # Grammar
//
// Valid input is RFC 8259 JSON, exactly what encoding/json accepts: the same white space
// (space, tab, LF, CR), the same number grammar (no leading zeros, no '+', no bare '.'),
// the same escapes, and no unescaped control byte (< 0x20) inside a string. Number and
// literal scanning only checks the grammar; whether the next byte may follow a value is
// the caller's decision ("01" is the number 0 followed by a stray 1).
//
// # Invalid input: the contract
//
// Two policies decide what happens to input that is not valid JSON inside a string. Every
// caller picks one explicitly; there is no default.
//
//	                          Strict                  AsWritten
//	bad escape (\x, \u12G4)   error                   kept as written, backslash included
//	control byte < 0x20       error                   kept as it is
//	invalid UTF-8             each bad byte → U+FFFD  kept as it is
//	lone surrogate \uD800     U+FFFD                  U+FFFD
//	string end                first unescaped quote   first quote preceded by an even
//	                          after a valid body      number of backslashes
//
// Strict is encoding/json's reading, byte for byte: a string encoding/json accepts decodes
// to the same bytes, and a string it refuses is an error. Invalid UTF-8 and lone surrogate
// escapes are not errors in either policy, because encoding/json accepts both (replacing
// them with U+FFFD) and tool-call arguments containing them are real.
//
// AsWritten is for readers that must not lose text: damaged transcript files, and request
// bodies the proxy forwards as the client sent them. It decodes every valid escape as
// Strict does and leaves everything else alone. A lone surrogate escape is the one thing it
// changes that was not an escape error: it is well-formed JSON, but UTF-8 cannot hold it,
// so it becomes U+FFFD as in Strict. Under AsWritten, strings are only checked to be closed;
// brackets, commas, colons, numbers and literals are checked as in Strict.
//
// Who uses which, and why:
//
//   - canon (fingerprints, canonical text): Strict. Two arguments are the same exactly when
//     encoding/json decodes them to the same value, so its grammar must be encoding/json's.
//   - replay (event lines): Strict. The event format is a public contract; a line that is
//     not JSON is reported, never half-read.
//   - transcript (agent session files): AsWritten. Files are cut short or hand-edited; a
//     stray \x in one tool output must not lose the session, and text is kept as written.
//   - proxy (request bodies): AsWritten. A body is forwarded byte for byte; what the proxy
//     decodes (roles, tool names, text) is read as the client wrote it, and the provider
//     decides whether the body is acceptable.
//
// # Depth
//
// Skip, the only function here that follows nesting, takes a depth limit. Past it, the
// value is an error (ErrDepth). A limit of 0 or less means no limit: the skipper keeps one
// byte per open container, so memory stays proportional to the input and the goroutine
// stack does not grow (there is no recursion). MaxDepth is encoding/json's own limit;
// canon uses it so that "valid JSON" means the same in both. replay and transcript skip
// without a limit, because a deep value they only pass along (replay's arguments, a
// transcript member nobody reads) is not theirs to refuse; what they decode with
// encoding/json is refused there, at encoding/json's limit.
// The proxy bounds the tree it builds at 256 levels itself and skips the members it does not
// read without a limit, for the same reason.
//
// # Errors
//
// Scanning errors are *SyntaxError, carrying the byte offset of the problem. An offset equal
// to the input's length means the input ended early (a truncated file or line), which is
// the one distinction callers make in their messages.
package jsonscan
