// Package loopguard notices when an AI agent repeats itself and says so to the model, in
// words the model can act on; where asked, it refuses the confirmed repeat before it runs.
//
// # The engine
//
// An [Engine] is a pure function of the events it is given. A host (an agent loop, a CLI hook,
// a transcript reader, the replay command) turns what it sees into [Event] values:
//
//   - a tool call, after it ran: [EventCall] with the agent, tool name, raw arguments and the
//     result (failed or refused calls too), and, when the model made several calls in one
//     reply, the reply's id in Event.Turn; a reply the harness refused for its form (no
//     action, or several where it runs one) is a call with Source [SourceHarness];
//   - a user message: [EventUser], which resets that agent's counters (the progress detector
//     keeps its chains of calls failing the same way, and takes a harness's reprompt, the
//     same message again or one [IsKnownReprompt] knows, as no turn at all);
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
// The default preset runs the progress-aware detector ([ProgressConfig], plugin "progress").
// It asks whether a call brought anything new: each result is compared, after normalising
// away timestamps, durations, process ids, hex ids, UUIDs, nonces, serial numbers, temporary
// paths and terminal noise, with the results of earlier calls, and a call repeated after a
// successful mutating call (an edit, a write, a shell command that writes, a tool named for
// an action such as toggle_wifi or cancel_order) is progress. It reminds:
//
//   - stuck: the same call returning the same result with nothing changed, at the 3rd and 6th
//     (a failing call however far apart its runs; the copies of a call in one reply count once,
//     and ten of them answered alike are told on their own); or pages of a file read a third
//     time in 32 calls, answered exactly as before, one such read after another;
//   - cycle: a cycle of 2 to 32 calls whose results do not change, once it has come round 3 times;
//     or a stretch of 7 to 32 calls made again in order, answered alike, the model writing the
//     same words before each call as the first time, at the stretch's 4th call, once a loop;
//   - errors: one tool failing again and again with near-identical errors while its arguments
//     change (a failure that comes back after one other failure takes up its count), or the
//     same failure returning across edits that do not alter it, or the same command's
//     failures coming back across edits, the edits going round failures already met, or the
//     same command failing alike with nothing changed between its runs, whatever calls come
//     between, or commands that need a program the shell does not find (at the 3rd, nothing
//     installed between), or the same failure answering attempts made by three different
//     commands or more, however they are spaced by other work;
//   - churn: one tool called with many arguments and answering the same every time;
//   - poll: polling that advances, past its budget (one gentle note), a poll checked again at
//     once with the same answer each time, or calls in a row that only sleep;
//   - thought: the model repeating itself (text events with source "model") while its calls
//     bring back nothing it has not already seen, or one reply writing the same lines ten
//     times over (or one line, every few lines, what lies between changing), or a check the
//     model runs after each edit answering exactly as before it (at the 4th run with the same
//     words said before each, at the 5th whatever was said; a script printing nothing, run
//     straight after each edit, too), or runs after edits failing through another copy of the
//     edited file, a path that ends as the edited file's but starts elsewhere (at the 2nd), or
//     a thinking tool (think, sequentialthinking) called again and again with the same thought,
//     or two by turns, nothing else done between (at the 3rd).
//
// Paging, batches of distinct arguments, ping-pong whose outcomes progress and test re-runs
// after edits are left alone. In deny mode it refuses only a confirmed no-progress repeat.
// docs/detection.md has each rule's reason, defaults and scores. A call failed when its host
// says so (Event.Failed) or its result reads as a failure; [Engine.CallFailed] gives a host
// that shows calls the same reading, and [ArgumentsKey] the detector's identity of a call's
// arguments (less the captions that narrate it for a person).
//
// Two plugins of the DeepSeek Harness, with their exact semantics, are presets of their own
// ("repeat-tool-reminder", "dsh-brake", and "seeds" for both):
//
//   - repeat-tool-reminder counts consecutive identical calls (same tool, same canonical
//     arguments) of each agent and reminds the model at each threshold (default 3, 5, 8):
//     gently at the first, in detail (tool, count, arguments) after. Tools can be included or
//     excluded by pattern; untracked calls are transparent.
//   - dsh-brake counts identical calls cumulatively since the user last spoke (first notice at
//     callWarnCount, then every callReWarnEvery more), repeated windows of calls (sequences), and
//     the same text block arriving again from tool results or injected context (never the
//     model's own text, which upstream does not see). In deny mode it
//     refuses a call identity once it has been made callDenyCount times, until the user speaks.
//
// Two calls are the same when their tool names are equal and their arguments are the same
// JSON value: key order, number spelling and string escapes never matter; arguments that are
// not JSON compare as text. See docs/events.md for the exact rules.
//
// # State
//
// State is kept per agent and is bounded: for the seeds, at most 4,096 call identities and 256
// text entries (least recently seen dropped first), 128 sequences and 512 message ids (first
// inserted dropped first); for the progress detector, the last 8 calls, 8 per-tool chains,
// 4 same-failure chains, a cycle ring with the model's words before each call and an 8,192-bit
// filter of lines seen (at most about 7.5 KB in a snapshot). Arguments and results are kept as 64-bit fingerprints and small sketches, never
// as payloads.
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
// "dsh-brake", "seeds"); package github.com/loopguard/loopguard/config reads the YAML or JSON document
// with errors that name the file, line and column. Locale "zh" gives the Chinese notices.
package loopguard
