package replay

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/loopguard/loopguard"
)

// runLineByLine is the definition Run must agree with: every line parsed in turn, every event
// stepped in turn, with nothing running beside it. Stepping an event and writing its outputs
// (outWriter.step) is shared with Run; what Run may get wrong is the reading around it.
func runLineByLine(t *testing.T, input []byte, opts Options) (string, Stats, error) {
	t.Helper()
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	eng, err := loopguard.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	var st Stats
	w := outWriter{w: bufio.NewWriter(&out)}
	p := NewParser()
	lines := bytes.Split(input, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1] // the input ends with a newline
	}
	for n, line := range lines {
		st.Lines++
		var ev loopguard.Event
		ok, perr := p.Parse(line, &ev)
		if perr != nil {
			if !opts.SkipInvalid {
				w.w.Flush()
				return out.String(), st, &LineError{Name: "input", Line: n + 1, Err: perr}
			}
			st.Skipped++
			continue
		}
		if ok {
			w.step(eng, ev, n, &st)
		}
	}
	w.w.Flush()
	return out.String(), st, nil
}

// stream builds an event stream that crosses many chunks: repeated calls that give notices,
// blank lines, CRLF endings, a line longer than a chunk, and, if malformedAt >= 0, a malformed
// line there.
func stream(lines, malformedAt int, finalNewline bool) []byte {
	rng := rand.New(rand.NewPCG(7, 8))
	var b bytes.Buffer
	for n := 0; n < lines; n++ {
		if n > 0 {
			b.WriteByte('\n')
		}
		switch {
		case n == malformedAt:
			b.WriteString(`{"type":"call","tool":`)
		case n%97 == 13:
			// blank
		case n%89 == 5:
			fmt.Fprintf(&b, `{"type":"text","agent":"a%d","id":"m%d","source":"injector","text":%q}`, n%3, n, strings.Repeat("the same long text again ", 4000))
		case n%53 == 7:
			fmt.Fprintf(&b, `{"type":"user","agent":"a%d"}`+"\r", n%3)
		default:
			fmt.Fprintf(&b, `{"type":"call","agent":"a%d","tool":"grep","args":{"q":"x%d","path":"/src"},"result":{"text":"no match"}}`, n%3, rng.IntN(4))
		}
	}
	if finalNewline {
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func TestRunAgreesWithLineByLine(t *testing.T) {
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	readers := map[string]func([]byte) io.Reader{
		"whole":          func(b []byte) io.Reader { return bytes.NewReader(b) },
		"one byte reads": func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) },
		"half reads":     func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) },
		"uneven reads":   func(b []byte) io.Reader { return &unevenReader{b: b, rng: rand.New(rand.NewPCG(1, 2))} },
	}
	inputs := map[string][]byte{
		"empty":                      nil,
		"one line without a newline": []byte(`{"type":"call","tool":"t"}`),
		"many chunks":                stream(3000, -1, true),
		"no final newline":           stream(3000, -1, false),
		"malformed line, stop":       stream(3000, 2500, true),
	}
	for iname, input := range inputs {
		for rname, reader := range readers {
			if rname == "one byte reads" && len(input) > 1<<20 {
				continue
			}
			for _, skip := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s, %s, skip invalid %v", iname, rname, skip), func(t *testing.T) {
					opts := Options{SkipInvalid: skip}
					wantOut, wantSt, wantErr := runLineByLine(t, input, opts)
					eng, _ := loopguard.New(cfg)
					var out bytes.Buffer
					st, err := Run(reader(input), &out, eng, opts)
					if fmt.Sprint(err) != fmt.Sprint(wantErr) {
						t.Fatalf("error %v, want %v", err, wantErr)
					}
					if st != wantSt {
						t.Errorf("stats %+v, want %+v", st, wantSt)
					}
					if out.String() != wantOut {
						t.Errorf("output differs: %d bytes, want %d", out.Len(), len(wantOut))
					}
					if iname == "many chunks" && wantSt.Notices == 0 {
						t.Error("the stream gave no notices: it tests nothing")
					}
				})
			}
		}
	}
}

// A read error is reported after the lines read before it have been replayed.
func TestRunReportsReadErrorInPlace(t *testing.T) {
	input := stream(2000, -1, true)
	boom := errors.New("disk on fire")
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	eng, _ := loopguard.New(cfg)
	var out bytes.Buffer
	st, err := Run(io.MultiReader(bytes.NewReader(input), iotest.ErrReader(boom)), &out, eng, Options{})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want %v", err, boom)
	}
	wantOut, wantSt, _ := runLineByLine(t, input, Options{})
	if st != wantSt || out.String() != wantOut {
		t.Errorf("before the error: stats %+v and %d bytes of output, want %+v and %d", st, out.Len(), wantSt, len(wantOut))
	}
}

// unevenReader returns its bytes in reads of random sizes below max (default: one and a half
// chunks), sometimes empty.
type unevenReader struct {
	b   []byte
	rng *rand.Rand
	max int
}

func (u *unevenReader) Read(p []byte) (int, error) {
	if len(u.b) == 0 {
		return 0, io.EOF
	}
	limit := u.max
	if limit == 0 {
		limit = 3 * defaultChunkSize / 2
	}
	n := min(len(p), len(u.b), u.rng.IntN(limit))
	copy(p, u.b[:n])
	u.b = u.b[n:]
	return n, nil
}

// FuzzRunAgreesWithLineByLine puts chunk boundaries everywhere (chunks of 2 to 65 bytes, reads
// of random sizes) and checks that Run still gives exactly the line-by-line output, stats and
// error, whatever the input.
func FuzzRunAgreesWithLineByLine(f *testing.F) {
	f.Add([]byte(`{"type":"call","agent":"a","tool":"t","args":{"q":1}}`+"\n"), uint8(0), uint64(1))
	f.Add([]byte("{\"type\":\"call\",\"tool\":\"t\"}\r\n\n{\"type\":\"call\",\"tool\":\"t\"}\n{\"type\":\"call\",\"tool\":\"t\"}"), uint8(5), uint64(2))
	f.Add([]byte("\n\n{\"type\":\"user\",\"agent\":\"a\"}\n{\"type\":"), uint8(63), uint64(3))
	f.Add(stream(40, 30, false), uint8(17), uint64(4))
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	f.Fuzz(func(t *testing.T, input []byte, chunk uint8, seed uint64) {
		size := 2 + int(chunk%64)
		for _, skip := range []bool{false, true} {
			opts := Options{SkipInvalid: skip}
			wantOut, wantSt, wantErr := runLineByLine(t, input, opts)
			eng, _ := loopguard.New(cfg)
			var out bytes.Buffer
			r := &unevenReader{b: input, rng: rand.New(rand.NewPCG(seed, 0)), max: size}
			st, err := run(r, &out, eng, opts, size)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) || st != wantSt || out.String() != wantOut {
				t.Fatalf("chunks of %d, skip invalid %v: got %v, %+v,\n%s\nwant %v, %+v,\n%s", size, skip, err, st, out.String(), wantErr, wantSt, wantOut)
			}
		}
	})
}
