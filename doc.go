// Package loopguard notices when an AI agent repeats itself and says so to the model, in
// words the model can act on; where asked, it refuses the confirmed repeat before it runs.
//
// # The engine
//
// An [Engine] is a pure function of the events it is given. A host (an agent loop, a CLI hook,
// a transcript reader, the replay command) turns what it sees into [Event] values:
//
//   - a tool call, after it ran: [EventCall] with the agent, tool name, raw arguments and the
//     result (failed or refused calls too);
//   - a user message: [EventUser], which resets that agent's counters;
//   - a text block shown to the model that is not a tool result: [EventText];
//   - the end of an agent: [EventEnd]; the same id then names a new agent.
//
// [Engine.Observe] returns the [Notice] values due after an event: advice for the model, to be
// shown as a separate message tagged with its plugin, never as a rewrite of a tool's result.
// In deny mode, [Engine.Check] answers "would this call be refused now?" before it runs;
// [Engine.Step] does both the way the replay format defines.
//
// Time is an input (Event.Time, in milliseconds); the engine reads no clock and does no I/O,
// so the same events always give the same notices, byte for byte, whatever the host.
//
// # The detectors
//
// Two plugins of the DeepSeek Harness, with their exact semantics, configured by a [Config]:
//
//   - repeat-tool-reminder counts consecutive identical calls (same tool, same canonical
//     arguments) of each agent and reminds the model at each threshold (default 3, 5, 8):
//     gently at the first, in detail (tool, count, arguments) after. Tools can be included or
//     excluded by pattern; untracked calls are transparent.
//   - dsh-brake counts identical calls cumulatively since the user last spoke (first notice at
//     callWarnCount, then every callReWarnEvery more), repeated windows of calls (sequences), and
//     the same text block arriving again from tool results or injected context. In deny mode it
//     refuses a call identity once it has been made callDenyCount times, until the user speaks.
//
// Two calls are the same when their tool names are equal and their arguments are the same
// JSON value: key order, number spelling and string escapes never matter; arguments that are
// not JSON compare as text. See docs/events.md for the exact rules.
//
// # State
//
// State is kept per agent and is bounded: at most 4,096 call identities and 256 text entries
// (least recently seen dropped first), 128 sequences and 512 message ids (first inserted
// dropped first). Arguments are kept as 64-bit fingerprints, never as payloads.
// [Engine.Snapshot] and [Engine.Restore] save and load one agent's state, so that a host that
// runs one process per tool call (a CLI hook) behaves exactly like a long-lived one. A
// snapshot carries a format version, which changes whenever the fingerprint does: one written by
// a build with other fingerprints is refused with [ErrBadSnapshot] (the hooks then start that
// agent afresh) rather than read with identities that no longer match.
//
// An Engine is safe for concurrent use by many agents at once. Events of one agent must come
// in order.
//
// # Configuration
//
// [Preset] gives the built-in configurations ("default", "repeat-tool-reminder",
// "dsh-brake"); package github.com/loopguard/loopguard/config reads the YAML or JSON document
// with errors that name the file, line and column. Locale "zh" gives the Chinese notices.
package loopguard
