package replay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/loopguard/loopguard"
)

// LineError is a malformed input line. Line is 1-based.
type LineError struct {
	Name string
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.Name, e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Options tune Run.
type Options struct {
	Name        string           // the input's name in error messages, e.g. "stdin"
	SkipInvalid bool             // report malformed lines to Invalid and go on, instead of stopping
	Invalid     func(*LineError) // called for each skipped line when SkipInvalid is set
}

// Stats counts what Run did.
type Stats struct {
	Lines, Events, Notices, Denials, Skipped int
}

// Run replays events from r through eng and writes one JSON line per denial or notice to w.
// A malformed line stops the replay with a *LineError unless opts.SkipInvalid is set.
//
// Lines are read and parsed on a goroutine of their own while the engine works (see
// pipeline.go); the events still reach eng one at a time, in order. When Run stops early, that
// goroutine may still be inside a Read of r, and ends when the Read returns.
func Run(r io.Reader, w io.Writer, eng *loopguard.Engine, opts Options) (Stats, error) {
	return run(r, w, eng, opts, defaultChunkSize)
}

func run(r io.Reader, w io.Writer, eng *loopguard.Engine, opts Options, chunkSize int) (Stats, error) {
	if opts.Name == "" {
		opts.Name = "input"
	}
	var st Stats
	bw := bufio.NewWriterSize(w, 1<<16)
	out := outWriter{w: bw}
	lr := startReader(r, chunkSize)
	defer lr.stop()
	for b := range lr.out {
		for i := range b.lines {
			pl := &b.lines[i]
			n := st.Lines // 0-based line number
			st.Lines++
			if pl.err != nil {
				le := &LineError{Name: opts.Name, Line: n + 1, Err: pl.err}
				if !opts.SkipInvalid {
					bw.Flush()
					return st, le
				}
				st.Skipped++
				if opts.Invalid != nil {
					opts.Invalid(le)
				}
			} else if pl.ok {
				out.step(eng, pl.ev, n, &st)
			}
		}
		if b.err != nil {
			bw.Flush()
			return st, b.err
		}
		lr.recycle(b)
	}
	return st, bw.Flush()
}

// The output lines, with their fields in a fixed order.
type noticeLine struct {
	Type    string `json:"type"`
	Event   int    `json:"event"`
	Agent   string `json:"agent"`
	Plugin  string `json:"plugin"`
	Kind    string `json:"kind"`
	Summary string `json:"summary"`
	Text    string `json:"text"`
}

type denyLine struct {
	Type   string `json:"type"`
	Event  int    `json:"event"`
	Agent  string `json:"agent"`
	Plugin string `json:"plugin"`
	Reason string `json:"reason"`
}

type outWriter struct {
	w   *bufio.Writer
	enc *json.Encoder
}

func (o *outWriter) encoder() *json.Encoder {
	if o.enc == nil {
		o.enc = json.NewEncoder(o.w)
		o.enc.SetEscapeHTML(false) // notices quote code; keep <, > and & readable
	}
	return o.enc
}

// step puts the event on line n to the engine, writes the denial and notices it gives, and
// counts them in st.
func (o *outWriter) step(eng *loopguard.Engine, ev loopguard.Event, n int, st *Stats) {
	st.Events++
	out := eng.Step(ev)
	if out.Denied {
		st.Denials++
		o.deny(n, out.Denial)
	}
	for _, nt := range out.Notices {
		st.Notices++
		o.notice(n, nt)
	}
}

func (o *outWriter) notice(event int, n loopguard.Notice) {
	_ = o.encoder().Encode(noticeLine{"notice", event, n.Agent, n.Plugin, n.Kind, n.Summary, n.Text})
}

func (o *outWriter) deny(event int, d loopguard.Denial) {
	_ = o.encoder().Encode(denyLine{"deny", event, d.Agent, d.Plugin, d.Reason})
}

// FormatSkipped is the closing line for skipped input, e.g. "skipped 3 invalid lines".
func FormatSkipped(n int) string {
	if n == 1 {
		return "skipped 1 invalid line"
	}
	return "skipped " + strconv.Itoa(n) + " invalid lines"
}
