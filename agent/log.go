package agent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"
)

// Record is one line of the session log: a message the model was shown (or, for the model's
// own messages, said), with the session and the step it belongs to.
//
// The log is JSON Lines, one Record per line, in the order the model was shown the messages:
//
//	{"session":"s1","step":1,"role":"user","id":"m1","time":"…","source":{"kind":"user"},"text":"…"}
//	{"session":"s1","step":4,"role":"user","id":"m9","time":"…","source":{"kind":"plugin","plugin":"repeat-tool-reminder","form":"notice","summary":"todo_write × 3"},"text":"…"}
//
// Step is the step whose model call first showed the message, or, for a model message, the
// step that produced it. Role is the chat role the message was sent in.
type Record struct {
	Session string `json:"session"`
	Step    int    `json:"step"`
	Role    Role   `json:"role"`
	Message
}

func (a *Agent) record(step int, msgs ...Message) error {
	if len(msgs) == 0 {
		return nil
	}
	var buf []byte
	msgs = slices.Clone(msgs)
	for i, m := range msgs {
		b, err := json.Marshal(Record{Session: a.session, Step: step, Role: m.Role(), Message: m})
		if err != nil {
			return fmt.Errorf("agent: session log: %w", err)
		}
		if !validUTF8(m) {
			// JSON cannot hold invalid UTF-8: the log has U+FFFD where the text had bad bytes.
			// Keep what the log says, so that the model is shown exactly that.
			var back Record
			if err := json.Unmarshal(b, &back); err != nil {
				return fmt.Errorf("agent: session log: %w", err)
			}
			msgs[i] = back.Message
		}
		buf = append(append(buf, b...), '\n')
	}
	// One write for the whole batch, and the history grows only if it succeeded: a message the
	// log could not take is never shown.
	if err := a.loop.writeLog(buf); err != nil {
		return fmt.Errorf("agent: session log: %w", err)
	}
	a.hmu.Lock()
	a.history = append(a.history, msgs...)
	a.hmu.Unlock()
	return nil
}

func validUTF8(m Message) bool {
	ok := utf8.ValidString
	if !ok(m.ID) || !ok(m.Text) || !ok(m.ToolCallID) || !ok(m.Tool) ||
		!ok(m.Source.Plugin) || !ok(string(m.Source.Form)) || !ok(m.Source.Summary) {
		return false
	}
	for _, c := range m.ToolCalls {
		if !ok(c.ID) || !ok(c.Name) || !ok(c.Args) {
			return false
		}
	}
	return true
}

// LogReader reads a session log written by a Loop.
type LogReader struct {
	r    *bufio.Reader
	line int
}

// NewLogReader returns a reader of the session log in r.
func NewLogReader(r io.Reader) *LogReader {
	return &LogReader{r: bufio.NewReader(r)}
}

// Next returns the next record, or io.EOF after the last. Blank lines are skipped. A line that
// is not a valid record is an error naming its line number.
func (lr *LogReader) Next() (Record, error) {
	for {
		line, err := lr.r.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			return Record{}, err
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return Record{}, err
		}
		lr.line++
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var rec Record
		if err := json.Unmarshal(line, &rec); err != nil {
			return Record{}, fmt.Errorf("session log line %d: %w", lr.line, err)
		}
		if err := rec.Message.Validate(); err != nil {
			return Record{}, fmt.Errorf("session log line %d: %w", lr.line, err)
		}
		if rec.Role != rec.Message.Role() {
			return Record{}, fmt.Errorf("session log line %d: role %q does not match a %s message", lr.line, rec.Role, rec.Source)
		}
		return rec, nil
	}
}

// ReadLog reads a whole session log.
func ReadLog(r io.Reader) ([]Record, error) {
	lr := NewLogReader(r)
	var out []Record
	for {
		rec, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, rec)
	}
}
