// Package peers re-implements the loop rules that other agents ship, so that they can be
// scored on the same transcripts and labels as loopguard's presets (bench/detection).
//
// Each rule is a function over one agent's events, as internal/transcript produces them
// (EventCall with Tool, Args, Result, HasResult, Failed; EventText, Source "model" for the
// model's own text; EventUser for a user turn), and returns the 0-based call indices at which
// that peer would have spoken: warned, nudged, asked, refused or stopped. A rule that speaks
// on a text event speaks after the last call before it (-1 when there was none), as
// `loopguard scan` places its own notices.
//
// The rules keep their published defaults. They are written from each peer's source where it
// could be read (late 2026; each file names the commit), otherwise from the rule's published
// description (Cline's warn/hard limits, goose's REP-002, Gemini CLI's cycles, OpenClaw's
// argument churn); no peer code is copied. Where a transcript lacks
// what a peer keys on (a message boundary, an exit code, a tool's result object), the doc
// comment of that rule says what stands in for it and in which direction that errs.
//
// The peers act on the first firing (they stop, refuse or ask); the transcripts were written
// without them, so the agent went on. Every rule here keeps evaluating after it fires, as if
// the model had ignored it, which is what a "notices per 1,000 calls" figure needs.
package peers

import (
	"bytes"
	"encoding/json"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/canon"
)

// Rule is one peer's loop rule.
type Rule struct {
	// Name identifies the peer (and the rule, when a peer has several): "gemini-cli".
	Name string
	// Fire returns the call indices at which the rule speaks, in ascending order, for one
	// agent's events.
	Fire func(events []loopguard.Event) []int
}

// All returns every peer rule, in the order of the comparison table.
func All() []Rule {
	return []Rule{
		{"gemini-cli", GeminiCLI},
		{"openhands-v0", OpenHandsV0},
		{"openhands-sdk", OpenHandsSDK},
		{"roo-code", RooCode},
		{"cline", Cline},
		{"goose", Goose},
		{"opencode", Opencode},
		{"openclaw", OpenClaw},
		{"crewai", CrewAI},
	}
}

// sameArgs is a call's identity when a peer compares arguments as values: object member
// order ignored (Roo Code and Cline sort keys; CrewAI and OpenHands compare dicts; OpenClaw
// uses a stable stringify).
type sameArgs struct {
	tool string
	args uint64
}

func valueKey(ev *loopguard.Event) sameArgs {
	return sameArgs{ev.Tool, canon.Fingerprint(ev.Args)}
}

// orderedKey is a call's identity when a peer compares JSON.stringify of the parsed arguments
// (Gemini CLI, opencode): whitespace does not matter, member order does. Text that is not
// JSON is taken as it is.
func orderedKey(ev *loopguard.Event) string {
	args := bytes.TrimSpace(ev.Args)
	if len(args) == 0 {
		return ev.Tool + ":{}"
	}
	var buf bytes.Buffer
	if json.Valid(args) && json.Compact(&buf, args) == nil {
		return ev.Tool + ":" + buf.String()
	}
	return ev.Tool + ":" + string(args)
}

func isModelText(ev *loopguard.Event) bool {
	return ev.Type == loopguard.EventText && ev.Source == "model"
}
