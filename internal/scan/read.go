package scan

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

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
	br := bufio.NewReaderSize(f, 64<<10)
	magic, _ := br.Peek(2)
	if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		f.Close()
		return transcript.Read(path) // plain files: Read sizes its buffers from the file
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = fmt.Errorf("unexpected end of data (truncated file?): %w", io.ErrUnexpectedEOF)
		}
		return nil, &transcript.Error{Path: path, Err: fmt.Errorf("gzip: %w", err)}
	}
	defer zr.Close()
	return transcript.ReadFromSized(path, zr, transcript.SizeHint(f))
}
