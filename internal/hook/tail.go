package hook

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// The model's own words beside a call (its reasoning, a plan restated) are what the progress
// detector's thought rule reads, and hook events do not carry them. Claude Code, Codex and
// Gemini CLI append their transcript one JSON object per line as the turn goes, and hand its
// path to every hook, so by the time a tool has run, the message that asked for it is near the
// end of the file. modelText reads only that tail, so a hook stays within its few milliseconds
// whatever the session's length. (Gemini CLI before its JSONL recordings rewrote one JSON
// document per session; such a path ends in .json, and is not read.)

// tailBytes is how much of a transcript's end is read.
const tailBytes = 64 << 10

// tailRetryWaits are the pauses before the transcript is read again when the call is not in
// it yet: 75 ms at most, and only then (BenchmarkModelText finds the call on the first read).
// Claude Code 2.1 writes the message that asked for a call a few tens of milliseconds after
// it has started the call's hooks on a busy machine: with 15 ms at most, every message of a
// real session was missed in 1 run of 3 here, and in every run of six at another time, so
// the model was never told it repeats itself; with 75 ms, none of twelve.
var tailRetryWaits = [...]time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond}

// tailWait pauses between two reads of a transcript; tests replace it.
var tailWait = time.Sleep

// readTail reads the last tailBytes of f and says where they start.
func readTail(f *os.File) ([]byte, int64, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	start := max(st.Size()-tailBytes, 0)
	buf := make([]byte, st.Size()-start)
	if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
		return nil, 0, err
	}
	return buf, start, nil
}

// modelText returns the model's text that came with call callID, and an id that is the same for
// every call of that model message (so that the text is observed once). It returns "" on any
// problem: the call is still observed, just without the words around it.
func modelText(host Host, path, callID string) (text, id string) {
	switch {
	case path == "":
		return "", ""
	case host == GeminiCLI:
		// Gemini CLI's hook events name no call; the latest model message is the call's.
		if !strings.HasSuffix(path, ".jsonl") {
			return "", ""
		}
	case callID == "" || (host != ClaudeCode && host != Codex):
		return "", ""
	}
	f, err := os.Open(path)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	var buf []byte
	var start int64
	for attempt := 0; ; attempt++ {
		if buf, start, err = readTail(f); err != nil {
			return "", ""
		}
		// The CLI writes its transcript a moment after the call, and on a loaded machine
		// sometimes after the hook has started: a call not in the file yet is looked for
		// again, a few milliseconds later, before the text is given up.
		if host == GeminiCLI || attempt == len(tailRetryWaits) || bytes.Contains(buf, []byte(callID)) {
			break
		}
		tailWait(tailRetryWaits[attempt])
	}
	lines := bytes.Split(buf, []byte("\n"))
	if start > 0 && len(lines) > 0 {
		lines = lines[1:] // the first line is cut
	}
	switch host {
	case ClaudeCode:
		return claudeText(lines, callID)
	case GeminiCLI:
		return geminiText(lines)
	}
	return codexText(lines, callID, path, start, buf)
}

type geminiLine struct {
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Content  json.RawMessage `json:"content"`
	Thoughts []struct {
		Subject     string `json:"subject"`
		Description string `json:"description"`
	} `json:"thoughts"`
}

// geminiText returns the text of the latest message in a Gemini CLI chat recording, if the
// model wrote it: Gemini CLI records the model's message (its text and thought summaries) when
// the response ends, before it runs the calls the response asked for, and records it again
// under the same id as the calls complete. A user message after it means the model has not
// spoken since. As in scan, the first thought summary stands for the turn, else the text.
func geminiText(lines [][]byte) (string, string) {
	for i := len(lines) - 1; i >= 0; i-- {
		if !bytes.Contains(lines[i], []byte(`"type"`)) {
			continue // metadata updates ({"$set": ...}), blank lines
		}
		var l geminiLine
		if json.Unmarshal(lines[i], &l) != nil {
			continue
		}
		switch l.Type {
		case "user":
			return "", ""
		case "gemini":
		default:
			continue // info, error and warning notes
		}
		text := ""
		for _, th := range l.Thoughts {
			if t := strings.TrimSpace(th.Subject + "\n" + th.Description); t != "" {
				text = t
				break
			}
		}
		if text == "" {
			var s string
			if json.Unmarshal(l.Content, &s) == nil {
				text = strings.TrimSpace(s)
			}
		}
		if text == "" || l.ID == "" {
			return "", ""
		}
		return text, "gemini:" + l.ID
	}
	return "", ""
}

type claudeLine struct {
	Type    string `json:"type"`
	Message struct {
		ID      string          `json:"id"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type claudeBlock struct {
	Type     string `json:"type"`
	ID       string `json:"id"`
	Text     string `json:"text"`
	Thinking string `json:"thinking"`
}

// claudeText finds the assistant message holding tool_use callID (Claude Code writes one line
// per content block, all with the message's id) and joins its text and thinking blocks.
func claudeText(lines [][]byte, callID string) (string, string) {
	var needle = []byte(`"` + callID + `"`)
	msgID := ""
	for i := len(lines) - 1; i >= 0 && msgID == ""; i-- {
		if !bytes.Contains(lines[i], needle) || !bytes.Contains(lines[i], []byte(`"tool_use"`)) {
			continue
		}
		var l claudeLine
		if json.Unmarshal(lines[i], &l) != nil || l.Type != "assistant" {
			continue
		}
		var blocks []claudeBlock
		json.Unmarshal(l.Message.Content, &blocks)
		for _, b := range blocks {
			if b.Type == "tool_use" && b.ID == callID {
				msgID = l.Message.ID
			}
		}
	}
	if msgID == "" {
		return "", ""
	}
	var parts []string
	idNeedle := []byte(`"` + msgID + `"`)
	for _, line := range lines {
		if !bytes.Contains(line, idNeedle) {
			continue
		}
		var l claudeLine
		if json.Unmarshal(line, &l) != nil || l.Type != "assistant" || l.Message.ID != msgID {
			continue
		}
		var blocks []claudeBlock
		json.Unmarshal(l.Message.Content, &blocks)
		for _, b := range blocks {
			switch {
			case b.Type == "text" && strings.TrimSpace(b.Text) != "":
				parts = append(parts, b.Text)
			case b.Type == "thinking" && strings.TrimSpace(b.Thinking) != "":
				parts = append(parts, b.Thinking)
			}
		}
	}
	return strings.Join(parts, "\n\n"), msgID
}

type codexLine struct {
	Type    string `json:"type"`
	Payload struct {
		Type    string `json:"type"`
		Role    string `json:"role"`
		CallID  string `json:"call_id"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Summary []struct {
			Text string `json:"text"`
		} `json:"summary"`
	} `json:"payload"`
}

// codexText finds the call's function_call item and gathers the assistant messages and
// reasoning summaries written just before it in the same turn (back to the previous call's
// output or the user's message). Its id is the offset of the first such item in the file.
func codexText(lines [][]byte, callID, path string, start int64, buf []byte) (string, string) {
	needle := []byte(`"` + callID + `"`)
	at := -1
	for i := len(lines) - 1; i >= 0; i-- {
		if !bytes.Contains(lines[i], needle) {
			continue
		}
		var l codexLine
		if json.Unmarshal(lines[i], &l) == nil && l.Type == "response_item" && l.Payload.CallID == callID &&
			strings.HasSuffix(l.Payload.Type, "call") {
			at = i
			break
		}
	}
	if at < 0 {
		return "", ""
	}
	var parts []string
	first := -1
	for i := at - 1; i >= 0; i-- {
		var l codexLine
		if json.Unmarshal(lines[i], &l) != nil || l.Type != "response_item" {
			continue
		}
		p := &l.Payload
		switch {
		case strings.HasSuffix(p.Type, "call"):
			continue // a parallel call of the same turn
		case strings.HasSuffix(p.Type, "output"), p.Type == "message" && p.Role == "user":
			i = -1 // the turn began here
			continue
		case p.Type == "message" && p.Role == "assistant":
			for _, c := range p.Content {
				if strings.TrimSpace(c.Text) != "" {
					parts = append([]string{c.Text}, parts...)
				}
			}
			first = i
		case p.Type == "reasoning":
			for _, s := range p.Summary {
				if strings.TrimSpace(s.Text) != "" {
					parts = append([]string{s.Text}, parts...)
				}
			}
			first = i
		}
	}
	if first < 0 {
		return "", ""
	}
	// The item's byte offset names the turn's text the same way for every call of the turn.
	off := start + int64(bytes.Index(buf, lines[first]))
	return strings.Join(parts, "\n\n"), path + "@" + strconv.FormatInt(off, 10)
}
