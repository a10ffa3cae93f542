package replay

import (
	"bufio"
	"io"

	"github.com/loopguard/loopguard"
)

// NewParserAt returns a parser at the start of a stream whose events without "ts" take the time
// ms until one carries its own. A long-lived host (the HTTP API) uses it to give such events
// the time they arrived, where a replay from a file starts at 0.
func NewParserAt(ms int64) *Parser {
	p := NewParser()
	p.lastTime = ms
	return p
}

// Writer writes the output lines of the event format (docs/events.md) to an underlying writer,
// for hosts other than Run that answer in the same format. Call Flush when done.
type Writer struct {
	out outWriter
}

// NewWriter returns a Writer that writes to w through a buffer.
func NewWriter(w io.Writer) *Writer { return &Writer{out: outWriter{w: bufio.NewWriterSize(w, 1<<12)}} }

// Notice writes the line for a notice caused by input event number event (0-based).
func (w *Writer) Notice(event int, n loopguard.Notice) { w.out.notice(event, n) }

// Deny writes the line for a refusal caused by input event number event (0-based).
func (w *Writer) Deny(event int, d loopguard.Denial) { w.out.deny(event, d) }

// Flush writes what is buffered.
func (w *Writer) Flush() error { return w.out.w.Flush() }
