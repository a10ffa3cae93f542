package loopguard

import "strings"

// EventType says what happened in an agent's run.
type EventType uint8

const (
	// EventCall is a tool call, observed after it ran (or was refused), with its result.
	EventCall EventType = iota + 1
	// EventUser is a new message from the user: a prompt, or steering mid-turn.
	// It resets every counter of that agent, except a harness's reprompt (Source "harness",
	// a Text repeating the previous user message, or one IsKnownReprompt knows), which the
	// progress detector does not take as a turn of the user's.
	EventUser
	// EventText is a block of text shown to the model that is not a tool result:
	// injected context, a plugin's message, the model's own text.
	EventText
	// EventEnd says the agent is gone. After it, the same agent id names a new agent.
	EventEnd
)

// SourceHarness is the Source of what an agent's harness said or did by itself: a reprompt
// it sent (EventUser), a reply it refused for its form (EventCall).
const SourceHarness = "harness"

// IsKnownReprompt says whether a user message's text is one a harness is known to send by
// itself when the model's reply ends without a call: OpenHands' evaluation harness's "Please
// continue working on the task on whatever approach you think is suitable…", Gemini CLI's
// "System: Please continue.", mini-swe-agent 2's "No tool calls found in the response. Every
// response MUST include at least one tool call." (live-SWE-agent runs hold it 69 times in
// one run, validation round r224a). The progress detector takes such a message as the harness's
// whatever its Source says, so that a host that cannot tell who sent a message (a proxy
// reading a request's messages) does not take it for a person's new turn; a transcript
// reader marks it with SourceHarness.
func IsKnownReprompt(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "Please continue working on the task") || t == "System: Please continue." ||
		strings.HasPrefix(t, "No tool calls found in the response.")
}

// String returns the name used for the type in the replay format.
func (t EventType) String() string {
	switch t {
	case EventCall:
		return "call"
	case EventUser:
		return "user"
	case EventText:
		return "text"
	case EventEnd:
		return "end"
	}
	return "unknown"
}

// Event is one input to the engine. Which fields matter depends on Type; the others are ignored.
//
// Events carry their own time (Time, in milliseconds): the engine never reads a clock, so the
// same events always give the same notices.
//
// The engine keeps no reference to Args, Result, Text or ID once Observe (or Check, or Step)
// returns, so a host may reuse the memory behind them.
type Event struct {
	Type EventType

	// Agent identifies the agent (a session, a subagent). Empty means a call with no agent:
	// it is legal, never counted and never refused.
	Agent string

	// Time is the event's timestamp in milliseconds. Only duplicate-text windows use it.
	Time int64

	// Tool is the called tool's name (EventCall).
	Tool string

	// Args are the call's raw arguments as the model produced them (EventCall): usually JSON,
	// but any text is allowed and then compares as that text. Empty means {}.
	Args []byte

	// Result is the call's result text (EventCall); HasResult says whether there was one.
	Result    string
	HasResult bool

	// Failed says the call failed or was refused (EventCall).
	Failed bool

	// Turn names the model reply that made the call (EventCall), such as the assistant
	// message's id. Calls of one reply were made together, before the model saw any of their
	// results (parallel tool calls): four reads that fail alike in one reply are one decision,
	// not a model failing four times in a row. Empty means the call is a reply of its own.
	// On a model's text (EventText) it names the reply that wrote the text: a text written
	// after a call of its own reply is no new turn, the reply's first text standing for it.
	Turn string

	// ID is the message id of a text block (EventText). A block seen again with the same id is
	// counted once; an empty id is never deduplicated.
	ID string

	// Source labels where a text block came from (EventText), e.g. the injector's name. For
	// EventUser, "harness" marks a message the agent's harness sent by itself (a canned
	// reprompt after a reply without a call), not a person's. For EventCall, "harness" says
	// the harness answered in the tool's place: it refused the reply for its form (no
	// action, or several where it runs one) and ran nothing, and Result is its reprompt.
	Source string

	// Text is the text block's content (EventText), or what the user said (EventUser,
	// optional: it tells a reprompt, the same message again, from a new turn).
	Text string
}

// Call returns a call event: the usual way for a host to build one.
func Call(agent, tool string, args []byte) Event {
	return Event{Type: EventCall, Agent: agent, Tool: tool, Args: args}
}

// WithResult returns a copy of the call event with its result attached.
func (e Event) WithResult(text string, failed bool) Event {
	e.Result, e.HasResult, e.Failed = text, true, failed
	return e
}
