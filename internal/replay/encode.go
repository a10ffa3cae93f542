package replay

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/jsonscan"
)

// AppendEvent appends ev to b as one line of the event format (docs/events.md), ending in a
// newline: what Parser.Parse reads back as the same event. scan writes the events it read from
// transcripts so, for a person to see what loopguard read and for `loopguard replay` to replay.
//
// Arguments that are one JSON object or array on one line are written as that JSON value, as a
// person would write them; any others (text that is no JSON, JSON laid out over several lines,
// a bare JSON string) as a JSON string of their bytes, which the format reads as those bytes.
// Either way the engine sees the bytes it saw. A call whose transcript kept no answer has no
// "result": its answer is unknown, whatever flag the transcript set.
func AppendEvent(b []byte, ev loopguard.Event) []byte {
	b = append(b, `{"type":`...)
	b = strconv.AppendQuote(b, ev.Type.String())
	b = appendField(b, "agent", ev.Agent)
	b = append(b, `,"ts":`...)
	b = strconv.AppendInt(b, ev.Time, 10)
	switch ev.Type {
	case loopguard.EventCall:
		b = append(b, `,"tool":`...)
		b = appendString(b, ev.Tool)
		if len(ev.Args) > 0 {
			b = append(b, `,"args":`...)
			if argsAsValue(ev.Args) {
				b = append(b, ev.Args...)
			} else {
				b = appendString(b, string(ev.Args))
			}
		}
		if ev.HasResult {
			b = append(b, `,"result":{"error":`...)
			b = strconv.AppendBool(b, ev.Failed)
			b = append(b, `,"text":`...)
			b = appendString(b, ev.Result)
			b = append(b, '}')
		}
		b = appendField(b, "turn", ev.Turn)
		b = appendField(b, "source", ev.Source)
	case loopguard.EventText:
		b = appendField(b, "id", ev.ID)
		b = appendField(b, "source", ev.Source)
		b = appendField(b, "turn", ev.Turn)
		b = append(b, `,"text":`...)
		b = appendString(b, ev.Text)
	case loopguard.EventUser:
		b = appendField(b, "source", ev.Source)
		if ev.Text != "" {
			b = appendField(b, "text", ev.Text)
		}
	}
	return append(b, "}\n"...)
}

// argsAsValue says whether arguments can be written as the JSON value they are: an object or
// an array, well formed, on one line (Parse keeps a value's bytes as written, and a line break
// would end the event's line).
func argsAsValue(args []byte) bool {
	if args[0] != '{' && args[0] != '[' || bytes.ContainsAny(args, "\n\r") {
		return false
	}
	end, err := jsonscan.Skip(args, 0, jsonscan.Strict, 0)
	return err == nil && end == len(args)
}

// appendField appends `,"key":"value"` when value is not empty.
func appendField(b []byte, key, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendString(b, value)
}

// appendString appends s as a JSON string, '<', '>' and '&' as they are (an answer's
// "<tool_use_error>" stays readable). Bytes that are not UTF-8 become U+FFFD, as
// encoding/json writes them: the format is JSON text.
func appendString(b []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}
