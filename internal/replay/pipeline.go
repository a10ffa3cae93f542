package replay

import (
	"bytes"
	"errors"
	"io"

	"github.com/loopguard/loopguard"
)

// Replay runs as two stages joined by a channel, one per core: the reader splits the input
// into chunks of whole lines and parses them, the caller's goroutine steps the engine and
// writes the output. Parsing is about half the work of a replay, so on two cores the stages
// overlap almost completely. Events are still stepped one at a time, in input order, and
// every error (a malformed line, a read error) is acted on at its place in the stream.

// defaultChunkSize is how much input one batch holds: large enough that the channel is touched
// a few hundred lines at a time, small enough to stay in cache. Tests use tiny chunks to put
// chunk boundaries everywhere.
const defaultChunkSize = 64 << 10

// batch is a run of consecutive lines, parsed. The events alias chunk, so a batch goes back to
// the reader only after every event in it has been stepped.
type batch struct {
	chunk []byte
	lines []parsedLine
	err   error // a read error after the lines, or nil
}

type parsedLine struct {
	ok  bool // the line holds an event (false: blank, or malformed if err is set)
	err error
	ev  loopguard.Event
}

// lineReader is the first stage.
type lineReader struct {
	r     io.Reader
	size  int // the chunk size
	p     *Parser
	out   chan *batch
	free  chan *batch
	done  chan struct{} // closed when the caller stops early
	carry []byte        // the start of a line cut by the end of the previous chunk
}

func startReader(r io.Reader, chunkSize int) *lineReader {
	lr := &lineReader{
		r:    r,
		size: chunkSize,
		p:    NewParser(),
		out:  make(chan *batch, 4),
		free: make(chan *batch, 8),
		done: make(chan struct{}),
	}
	go lr.run()
	return lr
}

// stop ends the reader early; it is safe to call after the reader has finished.
func (lr *lineReader) stop() { close(lr.done) }

// recycle hands a stepped batch back for reuse.
func (lr *lineReader) recycle(b *batch) {
	select {
	case lr.free <- b:
	default:
	}
}

func (lr *lineReader) run() {
	defer close(lr.out)
	eof := false
	for !eof {
		b := lr.newBatch()
		b.chunk, eof, b.err = lr.fill(b.chunk)
		lr.parse(b)
		select {
		case lr.out <- b:
		case <-lr.done:
			return
		}
	}
}

func (lr *lineReader) newBatch() *batch {
	select {
	case b := <-lr.free:
		b.lines, b.err = b.lines[:0], nil
		return b
	default:
		return &batch{chunk: make([]byte, 0, lr.size)}
	}
}

// fill reads into chunk, after the carried start of a line, until it holds at least one
// newline and half a chunk, or the input ends (eof, also on a read error). The line cut at the
// end waits in carry for the next chunk.
func (lr *lineReader) fill(chunk []byte) (_ []byte, eof bool, err error) {
	chunk = append(chunk[:0], lr.carry...)
	lr.carry = lr.carry[:0]
	last := bytes.LastIndexByte(chunk, '\n') // -1: no whole line yet
	for last < 0 || len(chunk) < lr.size/2 {
		if len(chunk) == cap(chunk) {
			chunk = append(chunk, 0)[:len(chunk)] // a line longer than the chunk: grow
		}
		n, rerr := lr.r.Read(chunk[len(chunk):cap(chunk)])
		if i := bytes.LastIndexByte(chunk[len(chunk):len(chunk)+n], '\n'); i >= 0 {
			last = len(chunk) + i
		}
		chunk = chunk[:len(chunk)+n]
		if rerr != nil {
			if errors.Is(rerr, io.EOF) {
				rerr = nil
			}
			return chunk, true, rerr
		}
	}
	lr.carry = append(lr.carry, chunk[last+1:]...)
	return chunk[:last+1], false, nil
}

// parse splits the chunk into lines and parses each. At the end of the input the last line
// may lack its newline.
func (lr *lineReader) parse(b *batch) {
	rest := b.chunk
	for len(rest) > 0 {
		line := rest
		if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
			line, rest = rest[:nl], rest[nl+1:]
		} else {
			rest = nil // the last line, without a newline
		}
		b.lines = append(b.lines, parsedLine{})
		pl := &b.lines[len(b.lines)-1]
		pl.ok, pl.err = lr.p.Parse(line, &pl.ev)
	}
}
