package scan

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/loopguard/loopguard/internal/transcript"
)

// readTranscript reads one file as transcript.Read does, with one difference: a gzip file is
// decompressed by klauspost/compress, whose inflater is about a quarter faster than the
// standard library's. Decompression is half the time of a scan of gzip-compressed
// transcripts. Errors have the same form ("path: gzip: ...", "path:LINE: ...").
func readTranscript(path string) (*transcript.Transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return transcript.Read(path) // the same error, in transcript's words
	}
	defer f.Close()
	g := gunzippers.Get().(*gunzipper)
	defer g.release()
	g.br.Reset(f)
	magic, _ := g.br.Peek(2)
	if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		f.Close()
		return transcript.Read(path) // plain files: Read sizes its buffers from the file
	}
	if err := g.reset(); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = fmt.Errorf("unexpected end of data (truncated file?): %w", io.ErrUnexpectedEOF)
		}
		return nil, &transcript.Error{Path: path, Err: fmt.Errorf("gzip: %w", err)}
	}
	defer g.zr.Close()
	return transcript.ReadFromSized(path, g.zr, transcript.SizeHint(f))
}

// gunzipper is a file buffer and a gzip reader, kept for the next file: a new inflater
// allocates its window and tables, and a scan opens hundreds of files.
type gunzipper struct {
	br *bufio.Reader
	zr *gzip.Reader // nil until the first gzip file
}

var gunzippers = sync.Pool{New: func() any {
	return &gunzipper{br: bufio.NewReaderSize(nil, 64<<10)}
}}

// reset starts reading the gzip stream in br.
func (g *gunzipper) reset() error {
	if g.zr == nil {
		zr, err := gzip.NewReader(g.br)
		if err != nil {
			return err
		}
		g.zr = zr
		return nil
	}
	return g.zr.Reset(g.br)
}

// release gives g back once its file is read: the transcript keeps nothing of its buffers.
func (g *gunzipper) release() {
	g.br.Reset(nil)
	gunzippers.Put(g)
}
