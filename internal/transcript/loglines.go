package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// claude-code-transcripts (a tool that publishes Claude Code sessions as HTML) keeps a session,
// and saves the sessions of Claude Code on the web, as one JSON document: {"loglines": [line,
// ...]}, each line one of Claude Code's session lines (type, timestamp, message with its
// content blocks), without their uuids. It is read as the Claude Code session those lines
// make.

// isLoglinesHead says whether a document's top-level keys are claude-code-transcripts' session.
func isLoglinesHead(has func(string) bool) bool { return has("loglines") }

func readLoglines(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	var doc struct {
		Loglines []json.RawMessage `json:"loglines"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, &Error{Path: name, Line: jsonErrorLine(data, err), Err: fmt.Errorf("claude-code-transcripts session: %w", err)}
	}
	return readClaudeCodeRecords(name, doc.Loglines)
}

// readClaudeCodeRecords reads the values of a JSON document that are the lines of a Claude
// Code session (claude-code-transcripts' loglines, claude-code-action's list of stream-json
// lines) as the session file they came from: one a line, read by readClaudeCode.
func readClaudeCodeRecords(name string, records []json.RawMessage) (*built, error) {
	var lines bytes.Buffer
	for _, r := range records {
		if err := json.Compact(&lines, r); err != nil {
			continue // a value that is not JSON cannot be in a document that parsed
		}
		lines.WriteByte('\n')
	}
	return readClaudeCode(name, bufio.NewReader(&lines))
}
