package peers

import (
	"strings"

	"github.com/loopguard/loopguard"
)

// OpenHands works on an event log of actions (tool calls, and in V0 the agent's messages),
// observations (tool results, errors) and messages. Both of its detectors are rebuilt here from
// the transcript's events:
//
//   - a call is an action followed by its observation. The action's identity is the tool,
//     its arguments (as values) and its thought: both versions compare the thought (V0's
//     action dataclasses have a thought field and compare all fields; V1 compares thought
//     explicitly). The thought is the model's text right before the call (the text blocks
//     since the previous call or user turn).
//   - a failed call (Failed) gives an error observation (V0 ErrorObservation, V1
//     AgentErrorEvent); otherwise an ordinary observation.
//   - model text not followed by a call (before the next user turn or call) is an agent
//     message.

type ohKind int

const (
	ohAction ohKind = iota
	ohMessage
	ohObservation
	ohError
)

// ohEvent is one OpenHands event; two events are equal (for the detectors) when their
// ohEvent values are ==.
type ohEvent struct {
	kind ohKind
	call sameArgs // actions
	text string   // thought (actions), content (messages), result (observations, errors)
}

// ohReplay walks the events and calls check after each call (action + observation) and each
// agent message, with the log since the last user turn; where check says stuck, the index of
// the last call so far is a firing point. obs builds a call's observation, which is where the
// two versions differ.
func ohReplay(events []loopguard.Event, obs func(ev *loopguard.Event) ohEvent, check func(log []ohEvent) bool) []int {
	var fired []int
	var log []ohEvent
	var pending []string // model text not yet known to be a thought or a message
	call := -1
	flushMessages := func() {
		for _, t := range pending {
			log = append(log, ohEvent{kind: ohMessage, text: t})
			if check(log) {
				fired = append(fired, call)
			}
		}
		pending = pending[:0]
	}
	for i := range events {
		ev := &events[i]
		switch {
		case ev.Type == loopguard.EventCall:
			call++
			log = append(log, ohEvent{kind: ohAction, call: valueKey(ev), text: strings.Join(pending, "\n")}, obs(ev))
			pending = pending[:0]
			if check(log) {
				fired = append(fired, call)
			}
		case isModelText(ev):
			pending = append(pending, ev.Text)
		case ev.Type == loopguard.EventUser:
			flushMessages()
			log = log[:0] // both versions look only after the last user message
		case ev.Type == loopguard.EventEnd:
			flushMessages()
		}
	}
	flushMessages()
	return fired
}

// lastOf returns up to n of the log's most recent events of the given kinds, newest first.
func lastOf(log []ohEvent, n int, kinds ...ohKind) []ohEvent {
	var out []ohEvent
	for i := len(log) - 1; i >= 0 && len(out) < n; i-- {
		for _, k := range kinds {
			if log[i].kind == k {
				out = append(out, log[i])
				break
			}
		}
	}
	return out
}

func allEqual(evs []ohEvent) bool {
	for _, e := range evs[1:] {
		if e != evs[0] {
			return false
		}
	}
	return true
}

// alternating says whether xs (newest first) repeat with period 2: x0 = x2 = x4, x1 = x3 = x5.
func alternating(xs []ohEvent) bool {
	for i := 0; i+2 < len(xs); i++ {
		if xs[i] != xs[i+2] {
			return false
		}
	}
	return true
}

// shellTools are the tools whose results OpenHands V0 wraps in a CmdOutputObservation, which
// its detector compares by command and exit code only, never by output.
var shellTools = map[string]bool{
	"bash": true, "Bash": true, "execute_bash": true, "shell": true, "run_shell_command": true,
	"exec_command": true, "local_shell": true, "terminal": true, "cmd_run": true,
}

// OpenHandsV0 is the legacy OpenHands StuckDetector (openhands/controller/stuck.py, read at
// commit 331a1a4 of OpenHands/OpenHands). After each step it checks, on the history since the
// last user message (interactive mode; headless runs have no later user turns, so the two
// modes agree on them):
//
//  1. the last 4 actions equal and the last 4 observations equal;
//  2. the last 3 actions equal and the last 3 observations all errors;
//  3. the last 3 agent messages equal, with no observation between the first and the last;
//  4. the last 6 actions and 6 observations alternating (A B A B A B), history of 6 or more.
//
// Agent messages are actions too, so a message among the last actions breaks 1, 2 and 4.
// A command's observation compares by command and exit code (a failed call stands for a
// non-zero exit), other observations by their content. Which tools are commands: the shell
// tools by name (Bash, bash, execute_bash, shell, ...); SWE-agent transcripts name a call by
// its command's first word, so there every result compares by content, which is stricter
// than OpenHands and errs towards fewer firings. Not reproduced: the IPython syntax-error
// variants (no IPython cells in these formats), the context-window (condensation) loop and
// the empty-response loop (transcripts do not record them).
func OpenHandsV0(events []loopguard.Event) []int {
	obs := func(ev *loopguard.Event) ohEvent {
		o := ohEvent{kind: ohObservation, call: valueKey(ev), text: ev.Result}
		if shellTools[ev.Tool] {
			o.text = "" // command and exit code only
		}
		if ev.Failed {
			o.kind = ohError
		}
		return o
	}
	return ohReplay(events, obs, ohV0Stuck)
}

func ohV0Stuck(log []ohEvent) bool {
	if len(log) < 3 {
		return false
	}
	actions := lastOf(log, 4, ohAction, ohMessage)
	observations := lastOf(log, 4, ohObservation, ohError)
	if len(actions) == 4 && len(observations) == 4 && allEqual(actions) && allEqual(observations) {
		return true
	}
	if len(actions) >= 3 && len(observations) >= 3 && allEqual(actions[:3]) {
		errs := true
		for _, o := range observations[:3] {
			errs = errs && o.kind == ohError
		}
		if errs {
			return true
		}
	}
	if ohV0Monologue(log) {
		return true
	}
	if len(log) >= 6 {
		a := lastOf(log, 6, ohAction, ohMessage)
		o := lastOf(log, 6, ohObservation, ohError)
		if len(a) == 6 && len(o) == 6 && alternating(a) && alternating(o) {
			return true
		}
	}
	return false
}

func ohV0Monologue(log []ohEvent) bool {
	var at []int // positions of the last 3 agent messages, newest first
	for i := len(log) - 1; i >= 0 && len(at) < 3; i-- {
		if log[i].kind == ohMessage {
			at = append(at, i)
		}
	}
	if len(at) < 3 || log[at[0]] != log[at[1]] || log[at[0]] != log[at[2]] {
		return false
	}
	for i := at[2] + 1; i < at[0]; i++ {
		if k := log[i].kind; k == ohObservation || k == ohError {
			return false
		}
	}
	return true
}

// OpenHands SDK (V1) defaults, StuckDetectionThresholds.
const (
	ohSDKWindow      = 20 // events scanned
	ohSDKActionObs   = 4
	ohSDKActionError = 3
	ohSDKMonologue   = 3
	ohSDKAlternating = 6
)

// OpenHandsSDK is the OpenHands software-agent-sdk StuckDetector
// (openhands-sdk/openhands/sdk/conversation/stuck_detector.py, read at commit 1c2e6b5), with
// its default thresholds. It looks at the last 20 events of the log (a call is two: action
// and observation), after the last user message, and says stuck when:
//
//  1. the last 4 actions are equal and the last 4 observations are equal (same type too);
//  2. the last 3 actions are equal and the last 3 observations are all errors;
//  3. the log ends with 3 agent messages in a row (equal or not: the SDK only counts them);
//  4. the last 6 actions and 6 observations alternate (A B A B A B).
//
// Actions compare by tool, arguments and thought, observations by tool and content, errors by
// their text. Not reproduced: the context-window check, which the SDK itself leaves unwired.
// The nudge-before-stop described for newer versions is not in the version read; the firing points
// are where is_stuck would say true, which is where a nudge or a stop would happen.
func OpenHandsSDK(events []loopguard.Event) []int {
	obs := func(ev *loopguard.Event) ohEvent {
		if ev.Failed {
			return ohEvent{kind: ohError, text: ev.Result}
		}
		return ohEvent{kind: ohObservation, call: sameArgs{tool: ev.Tool}, text: ev.Result}
	}
	return ohReplay(events, obs, ohSDKStuck)
}

func ohSDKStuck(log []ohEvent) bool {
	if len(log) > ohSDKWindow {
		log = log[len(log)-ohSDKWindow:]
	}
	if len(log) < min(ohSDKActionObs, ohSDKActionError, ohSDKMonologue) {
		return false
	}
	actions := lastOf(log, ohSDKActionObs, ohAction)
	observations := lastOf(log, ohSDKActionObs, ohObservation, ohError)
	if len(actions) >= ohSDKActionObs && len(observations) >= ohSDKActionObs &&
		allEqual(actions[:ohSDKActionObs]) && allEqual(observations[:ohSDKActionObs]) {
		return true
	}
	if len(actions) >= ohSDKActionError && len(observations) >= ohSDKActionError && allEqual(actions[:ohSDKActionError]) {
		errs := true
		for _, o := range observations[:ohSDKActionError] {
			errs = errs && o.kind == ohError
		}
		if errs {
			return true
		}
	}
	messages := 0
	for i := len(log) - 1; i >= 0 && log[i].kind == ohMessage; i-- {
		messages++
	}
	if messages >= ohSDKMonologue {
		return true
	}
	if len(log) >= ohSDKAlternating {
		a := lastOf(log, ohSDKAlternating, ohAction)
		o := lastOf(log, ohSDKAlternating, ohObservation, ohError)
		if len(a) == ohSDKAlternating && len(o) == ohSDKAlternating && alternating(a) && alternating(o) {
			return true
		}
	}
	return false
}
