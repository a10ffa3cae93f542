package transcript

import (
	"bufio"
	"encoding/json"

	"github.com/loopguard/loopguard"
)

// Kimi Code CLI logs a session one record a line ({"type": "metadata", "protocol_version"}
// first), the agent loop's events wrapped as {"type": "context.append_loop_event", "event":
// {...}}:
//
//   - "turn.prompt" with origin.kind "user": the user's turn, its input's text parts;
//   - event "content.part": the model's words (part.type "text", part.text) or thinking
//     (part.type "think", part.think);
//   - event "tool.call": a call, {toolCallId, name, args, stepUuid}; the calls of one step
//     (stepUuid) are one reply;
//   - event "tool.result": its result by toolCallId, result.output, failed when
//     result.isError.
//
// Everything else (requests to the model, usage, configuration, compaction) is passed over.
// (Kimi CLI's older context.jsonl, a message list, is read by the messages format.)

type kimiWireLine struct {
	Type   string `json:"type"`
	Input  any    `json:"input"`
	Origin *struct {
		Kind string `json:"kind"`
	} `json:"origin"`
	Event *struct {
		Type       string          `json:"type"`
		ToolCallID string          `json:"toolCallId"`
		Name       string          `json:"name"`
		Args       json.RawMessage `json:"args"`
		StepUUID   string          `json:"stepUuid"`
		Part       *struct {
			Type  string `json:"type"`
			Text  string `json:"text"`
			Think string `json:"think"`
		} `json:"part"`
		Result *struct {
			Output  any  `json:"output"`
			IsError bool `json:"isError"`
		} `json:"result"`
	} `json:"event"`
}

// isKimiWireHead says whether a file's first line is a Kimi Code CLI wire record.
func isKimiWireHead(typ string, has func(string) bool) bool {
	return typ == "metadata" && has("protocol_version") ||
		typ == "context.append_loop_event" && has("event") || typ == "turn.prompt" && has("input")
}

func readKimiWire(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatKimi)
	a := b.agent(MainAgent)
	calls := map[string]int{}
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var l kimiWireLine
		if ok, err := decodeEventLine(line, &l); !ok {
			return err
		}
		switch {
		case l.Type == "turn.prompt":
			if l.Origin == nil || l.Origin.Kind == "user" {
				a.user(contentText(l.Input), 0)
			}
		case l.Type != "context.append_loop_event" || l.Event == nil:
		case l.Event.Type == "content.part" && l.Event.Part != nil:
			switch p := l.Event.Part; p.Type {
			case "text":
				a.text("model", p.Text, "", 0)
			case "think":
				a.text("thinking", p.Think, "", 0)
			}
		case l.Event.Type == "tool.call":
			call := loopguard.Call("", l.Event.Name, rawArgs(l.Event.Args))
			call.Turn = l.Event.StepUUID
			idx := a.add(call)
			if l.Event.ToolCallID != "" {
				calls[l.Event.ToolCallID] = idx
			}
		case l.Event.Type == "tool.result" && l.Event.Result != nil:
			idx, ok := calls[l.Event.ToolCallID]
			if !ok {
				return nil
			}
			delete(calls, l.Event.ToolCallID)
			e := &a.events[idx]
			e.Result, e.HasResult, e.Failed = contentText(l.Event.Result.Output), true, l.Event.Result.IsError
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return withDamaged(b.done(), damaged), nil
}
