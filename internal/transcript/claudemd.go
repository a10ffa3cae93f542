package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/loopguard/loopguard"
)

// Claude Code sessions exported as Markdown, as people share them:
//
//	# Claude Session Export
//
//	## Session Information
//
//	- **Session ID**: `e840880f-...` (or `agent-30e7d465` for a subagent's file)
//	- ...
//
//	---
//
//	## Conversation
//
//	### User
//	> 12/1/2025, 2:12:19 PM
//
//	[ { "type": "text", "text": "..." } ]      (the API's content blocks, as JSON)
//
//	---
//
//	### Assistant
//	> 12/1/2025, 2:12:50 PM
//
//	plain text, when the message was a plain string
//
// A section starts at a "### User" or "### Assistant" line that follows a "---" line (or the
// "## Conversation" heading), so that a heading inside a plain-text message is not taken for
// one; its body runs to the separator before the next section. A body that opens with "[" on
// a line of its own is the message's content blocks and must be valid JSON (a damaged one is
// an error with its line); any other body is the message's text. The timestamp line is the
// message's time (mdStamp): the exporter's local time without a zone, read as UTC, since the
// rules need the spans between a run's events and one zone for the whole file keeps them.
//
// Blocks are read as in the JSONL reader: tool_use is a call, tool_result its result
// (is_error marks a failure), text and thinking of the assistant are model text, user text is
// a user turn unless Claude Code injected it (command output, reminders). A file whose
// Session ID is "agent-<id>" is that subagent's.
//
// Some exports write a run of messages twice, the copy with the same timestamps and tool_use
// ids as the first, sometimes split a block a message: a message equal to an earlier one in
// role, timestamp and body, a call (or a result) whose tool_use id was already read, or a
// block of text equal to an earlier one in role, timestamp and text, is that copy and is
// passed over. Read twice, twenty calls of a real export looked made again; a shorter copy
// would look like a loop, and the model's words copied (a reply's text, then its calls, each
// a message of its own) looked said again (validation round r139b U2).

type mdSection struct {
	role  string
	line  int    // of the body's first line
	stamp string // the timestamp line, "" when there is none
	body  []byte
}

func readClaudeMarkdown(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	data = lfLines(data)
	agentID := MainAgent
	var sections []mdSection
	var cur *mdSection
	var bodyStart int
	lastNonBlank := ""
	lineNo := 0
	flush := func(end int) {
		if cur == nil {
			return
		}
		body := bytes.TrimRight(data[bodyStart:end], " \t\r\n")
		body = bytes.TrimSuffix(body, []byte("---"))
		cur.body = bytes.TrimSpace(body)
		sections = append(sections, *cur)
		cur = nil
	}
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			end += off
			next = end + 1
		} else {
			end = len(data)
		}
		lineNo++
		line := strings.TrimRight(string(data[off:end]), " \t\r")
		switch {
		case (line == "### User" || line == "### Assistant") && (lastNonBlank == "---" || lastNonBlank == "## Conversation"):
			flush(off)
			cur = &mdSection{role: strings.ToLower(strings.TrimPrefix(line, "### "))}
			bodyStart = next
			cur.line = lineNo + 1
			// The timestamp line is part of the section's head, not of its body.
			if tsEnd, ok := mdTimestampLine(data, next); ok {
				cur.stamp = strings.TrimSpace(string(data[next:tsEnd]))
				bodyStart = tsEnd
				cur.line++
			}
		case cur == nil && strings.HasPrefix(line, "- **Session ID**:"):
			id := strings.Trim(strings.TrimSpace(strings.TrimPrefix(line, "- **Session ID**:")), "`")
			if strings.HasPrefix(id, "agent-") && len(id) > len("agent-") {
				agentID = id
			}
		}
		if strings.TrimSpace(line) != "" {
			lastNonBlank = strings.TrimSpace(line)
		}
		off = next
	}
	flush(len(data))

	b := newBuilder(FormatClaudeCodeMarkdown)
	a := b.agent(agentID)
	pending := &pendingCalls{}
	seenSections := map[string]bool{}
	seenIDs := map[string]bool{} // tool_use ids of the calls read, and "result:"+id of their results
	// copied says whether a text of the section at hand was read before with its role and
	// time: the exporter's copy. Without a time nothing tells a copy from a repeat.
	copied := func(s *mdSection, kind, text string) bool {
		if s.stamp == "" {
			return false
		}
		key := s.role + "\x00" + s.stamp + "\x00" + kind + "\x00" + text
		if seenSections[key] {
			return true
		}
		seenSections[key] = true
		return false
	}
	for i := range sections {
		s := &sections[i]
		if copied(s, "message", string(s.body)) {
			continue // the exporter's copy of an earlier message
		}
		ms := mdStamp(s.stamp)
		blocks, isJSON, err := mdBlocks(s.body)
		if err != nil {
			var se *json.SyntaxError
			line := s.line
			if errors.As(err, &se) {
				line += bytes.Count(s.body[:min(int(se.Offset), len(s.body))], []byte{'\n'})
			}
			return nil, &Error{Path: name, Line: line, Err: fmt.Errorf("%s message: content blocks are not valid JSON: %w", s.role, err)}
		}
		if !isJSON {
			text := string(s.body)
			if copied(s, "text", text) {
				continue // the same words written as content blocks before, or after (see copied)
			}
			if s.role == "assistant" {
				a.saidAt(text, ms)
			} else {
				ccUserText(a, text, "", ms)
			}
			continue
		}
		if s.role == "assistant" {
			for _, bl := range blocks {
				switch bl["type"] {
				case "tool_use", "server_tool_use":
					name, _ := bl["name"].(string)
					id, _ := bl["id"].(string)
					if id != "" && seenIDs[id] {
						continue // a copy of a call already read
					}
					seenIDs[id] = true
					var args []byte
					if in, ok := bl["input"]; ok && in != nil {
						args = marshalArgs(in)
					}
					pending.add(id, a.add(loopguard.Event{Type: loopguard.EventCall, Tool: name, Args: args, Time: ms}))
				case "thinking":
					if t, _ := bl["thinking"].(string); !copied(s, "thinking", t) {
						a.text("model", t, "", ms)
					}
				default:
					if t := partText(bl); !copied(s, "text", t) {
						a.saidAt(t, ms)
					}
				}
			}
			continue
		}
		hasResult := false
		var texts []string
		for _, bl := range blocks {
			if bl["type"] == "tool_result" {
				hasResult = true
				id, _ := bl["tool_use_id"].(string)
				isErr, _ := bl["is_error"].(bool)
				if id != "" && seenIDs["result:"+id] {
					continue // a copy of a result already read
				}
				seenIDs["result:"+id] = true
				if idx := pending.take(id); idx >= 0 {
					e := &a.events[idx]
					e.Result, e.HasResult, e.Failed = ccResultText(bl["content"]), true, isErr
				}
				continue
			}
			if t := partText(bl); t != "" {
				texts = append(texts, t)
			}
		}
		text := strings.Join(texts, "\n")
		if copied(s, "text", text) {
			continue
		}
		if hasResult {
			a.text("harness", text, "", ms) // text sent along with tool results is the harness's
		} else {
			ccUserText(a, text, "", ms)
		}
	}
	return b.done(), nil
}

// mdStampLayouts are the times an export's "> " line holds, as JavaScript's toLocaleString
// writes them: en-US, month first with a 12-hour clock ("11/30/2025, 3:50:15 PM"), and the
// day-first 24-hour form of most other locales ("30/11/2025, 15:50:15", "30.11.2025, 15:50:15").
var mdStampLayouts = [...]string{"1/2/2006, 3:04:05 PM", "2/1/2006, 15:04:05", "2.1.2006, 15:04:05"}

// mdStamp reads a message's time line as Unix milliseconds, 0 when it is none of
// mdStampLayouts or ISO 8601 (parseTime).
func mdStamp(stamp string) int64 {
	stamp = strings.TrimSpace(strings.TrimPrefix(stamp, ">"))
	if stamp == "" {
		return 0
	}
	for _, layout := range mdStampLayouts {
		if t, err := time.Parse(layout, stamp); err == nil {
			return t.UnixMilli()
		}
	}
	return parseTime(stamp)
}

// mdTimestampLine reports a "> ..." line at off and returns the offset past it.
func mdTimestampLine(data []byte, off int) (int, bool) {
	if off >= len(data) || data[off] != '>' {
		return off, false
	}
	end := bytes.IndexByte(data[off:], '\n')
	if end < 0 {
		return len(data), true
	}
	return off + end + 1, true
}

// mdBlocks decodes a section body that holds content blocks ("[" alone on its first line).
// Blocks that are not objects are dropped.
func mdBlocks(body []byte) ([]map[string]any, bool, error) {
	first, _, _ := bytes.Cut(body, []byte{'\n'})
	if string(bytes.TrimSpace(first)) != "[" && string(body) != "[]" {
		return nil, false, nil
	}
	var raw []any
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, true, err
	}
	blocks := make([]map[string]any, 0, len(raw))
	for _, r := range raw {
		if m, ok := r.(map[string]any); ok {
			blocks = append(blocks, m)
		}
	}
	return blocks, true, nil
}
