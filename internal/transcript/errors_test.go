package transcript

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/testenv"
)

// readErrOf reads data (written to a file named name in a temporary directory) and returns
// the error, which must be an *Error naming the file.
func readErrOf(t *testing.T, name string, data []byte) *Error {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := Read(path)
	if err == nil {
		t.Fatalf("%s: no error, read %d agents", name, len(tr.Agents))
	}
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("%s: error %T %v is not an *Error", name, err, err)
	}
	if fe.Path != path || !strings.HasPrefix(err.Error(), path+":") {
		t.Fatalf("%s: error %q does not start with the path", name, err)
	}
	return fe
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// breakLine replaces line n (1-based) of data with a broken JSON line.
func breakLine(data []byte, n int) []byte {
	lines := bytes.Split(data, []byte("\n"))
	lines[n-1] = append([]byte(nil), lines[n-1][:len(lines[n-1])/2]...)
	return bytes.Join(lines, []byte("\n"))
}

func TestErrorEmpty(t *testing.T) {
	for _, data := range []string{"", "\n \n\t", "\xef\xbb\xbf"} {
		fe := readErrOf(t, "empty.jsonl", []byte(data))
		if !errors.Is(fe, ErrEmpty) {
			t.Errorf("%q: %v, want ErrEmpty", data, fe)
		}
	}
	// An empty gzip stream is an empty file too.
	fe := readErrOf(t, "empty.jsonl.gz", testenv.Gzip(t, nil))
	if !errors.Is(fe, ErrEmpty) {
		t.Errorf("empty gzip: %v, want ErrEmpty", fe)
	}
}

func TestErrorBinary(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00")
	fe := readErrOf(t, "image.png", png)
	if !errors.Is(fe, ErrBinary) {
		t.Errorf("png: %v, want ErrBinary", fe)
	}
	noise := make([]byte, 4096)
	for i := range noise {
		noise[i] = byte(i*7919 + i/3)
	}
	fe = readErrOf(t, "noise.bin", noise)
	if !errors.Is(fe, ErrBinary) {
		t.Errorf("noise: %v, want ErrBinary", fe)
	}
	// Binary content inside gzip.
	fe = readErrOf(t, "noise.jsonl.gz", testenv.Gzip(t, noise))
	if !errors.Is(fe, ErrBinary) {
		t.Errorf("gzipped noise: %v, want ErrBinary", fe)
	}
}

// A transcript that quotes binary bytes past its start is still text: a Cline-style export
// whose read_file result holds a PDF's stream with NUL bytes in it (r111c U1).
func TestBinaryBytesQuotedInATranscriptAreText(t *testing.T) {
	doc := "**User:**\n\n<task>\nsummarise the brief\n</task>\n\n---\n\n**Assistant:**\n\n<read_file>\n<path>brief.pdf</path>\n</read_file>\n\n---\n\n**User:**\n\n[read_file for 'brief.pdf'] Result:\n" +
		strings.Repeat("x", 600) + "%PDF-1.7 stream \x00\x01\x00 endstream\n\n---\n\n**Assistant:**\n\nDone.\n"
	tr, err := ReadFrom("task.md", strings.NewReader(doc))
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if n := len(tr.Agents[0].Events); n == 0 {
		t.Errorf("read as %s with no events", tr.Format)
	}
}

func TestErrorUnknownFormat(t *testing.T) {
	for name, data := range map[string]string{
		"object.json":   `{"hello": "world", "n": [1, 2, 3]}`,
		"array.json":    `[1, 2, 3]`,
		"objects.jsonl": "{\"a\":1}\n{\"a\":2}\n",
		"empty-array":   `[]`,
		"text.txt":      "just some text\nover two lines\n",
	} {
		fe := readErrOf(t, name, []byte(data))
		if !strings.Contains(fe.Error(), "unknown transcript format") {
			t.Errorf("%s: %v, want an unknown format error", name, fe)
		}
	}
}

func TestErrorTruncatedGzip(t *testing.T) {
	for _, name := range []string{
		"claude-code/s1.jsonl",
		"codex/rollout-2025-10-03T12-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl",
		"swe-agent/single.traj",
		"mini-swe-agent/demo.traj.json",
		"gemini/session-2025-09-18T10-00-7c9e6679.json",
	} {
		z := testenv.Gzip(t, fixture(t, name))
		fe := readErrOf(t, filepath.Base(name)+".gz", z[:len(z)*2/3])
		if !errors.Is(fe, io.ErrUnexpectedEOF) {
			t.Errorf("%s: %v, want unexpected EOF", name, fe)
		}
		if strings.HasSuffix(name, ".jsonl") && fe.Line == 0 {
			t.Errorf("%s: %v, want the line where the data stops", name, fe)
		}
		// A gzip file cut inside its header.
		fe = readErrOf(t, filepath.Base(name)+".gz", z[:5])
		if !strings.Contains(fe.Error(), "gzip") && !errors.Is(fe, io.ErrUnexpectedEOF) {
			t.Errorf("%s header: %v", name, fe)
		}
	}
	// Damaged compressed data (a flipped byte in the middle): a gzip error.
	z := testenv.Gzip(t, fixture(t, "swe-agent/single.traj"))
	z[len(z)/2] ^= 0xff
	readErrOf(t, "damaged.traj.gz", z)
}

// damagedLines reads data (written to a file named name) and returns the lines it passed over
// as damaged, each of which must name the file and its line.
func damagedLines(t *testing.T, name string, data []byte) (*Transcript, []int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := Read(path)
	if err != nil {
		t.Fatalf("%s: %v, want the damaged line passed over", name, err)
	}
	var lines []int
	for _, d := range tr.Damaged {
		if d.Path != path || !strings.HasPrefix(d.Error(), path+":") {
			t.Errorf("%s: damaged line %v does not name the file", name, d)
		}
		lines = append(lines, d.Line)
	}
	return tr, lines
}

// A line of a session log that is not JSON (cut short, a bad escape) is passed over and named,
// and the rest of the session is read: a crash, a copy or a redaction script leaves such lines,
// and failing the whole file would lose every call in it.
func TestBrokenSessionLineIsPassedOverAndNamed(t *testing.T) {
	for _, c := range []struct {
		file string
		line int
	}{
		{"claude-code/s1.jsonl", 7},
		{"codex/rollout-2025-10-03T12-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl", 10},
		{"codex/rollout-legacy-2025-07-10.jsonl", 5},
		{"gemini/session-2025-09-18T11-00-7c9e6679.jsonl", 4},
	} {
		whole, err := Read(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		data := breakLine(fixture(t, c.file), c.line)
		for _, name := range []string{filepath.Base(c.file), filepath.Base(c.file) + ".gz"} {
			in := data
			if strings.HasSuffix(name, ".gz") {
				in = testenv.Gzip(t, data)
			}
			tr, lines := damagedLines(t, name, in)
			if len(lines) != 1 || lines[0] != c.line {
				t.Errorf("%s: damaged lines %v, want [%d]", name, lines, c.line)
			}
			if tr.Format != whole.Format || len(tr.Agents) == 0 {
				t.Errorf("%s: read as %q with %d agents, want %q", name, tr.Format, len(tr.Agents), whole.Format)
			}
		}
	}
	// A last line cut short (a file still being written) is passed over too.
	data := fixture(t, "claude-code/s1.jsonl")
	data = data[:len(data)-40]
	if _, lines := damagedLines(t, "s1.jsonl", data); len(lines) != 1 || lines[0] != bytes.Count(data, []byte("\n"))+1 {
		t.Errorf("cut last line: damaged lines %v", lines)
	}
}

// A session line whose strings are JSON only as written (a bad escape such as \* in a tool's
// output, a raw tab) is read, not passed over: its text kept as written, the calls all there.
func TestSessionLineWithABadEscapeIsRead(t *testing.T) {
	for _, file := range []string{"pi/session.jsonl", "codex/rollout-2025-10-03T12-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl", "gemini/session-2025-09-18T11-00-7c9e6679.jsonl"} {
		whole, err := Read(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		data := fixture(t, file)
		// Damage the last string value of the file's middle line that has one.
		lines := bytes.Split(data, []byte("\n"))
		n := len(lines) / 2
		for n < len(lines) && !bytes.Contains(lines[n], []byte(`": "`)) && !bytes.Contains(lines[n], []byte(`":"`)) {
			n++
		}
		line := lines[n]
		k := bytes.LastIndex(line, []byte(`":"`)) + 3
		if k < 3 {
			k = bytes.LastIndex(line, []byte(`": "`)) + 4
		}
		lines[n] = slices.Concat(line[:k], []byte("grep \\* \t"), line[k:])
		tr, damaged := damagedLines(t, filepath.Base(file), bytes.Join(lines, []byte("\n")))
		if len(damaged) != 0 {
			t.Errorf("%s: line %d passed over as damaged, want it read", file, n+1)
		}
		if got, want := countCalls(tr), countCalls(whole); got != want || got == 0 {
			t.Errorf("%s: %d calls read, want %d", file, got, want)
		}
	}
}

func countCalls(tr *Transcript) int {
	n := 0
	for _, a := range tr.Agents {
		for _, e := range a.Events {
			if e.Type == loopguard.EventCall {
				n++
			}
		}
	}
	return n
}

// Our own event format is a contract: a broken line fails the file, naming the line; so does
// a session log whose lines are mostly not JSON (it is not that format).
func TestErrorBrokenLine(t *testing.T) {
	data := breakLine(fixture(t, "events/events.jsonl"), 3)
	if fe := readErrOf(t, "events.jsonl", data); fe.Line != 3 {
		t.Errorf("events: %v, want line 3", fe)
	}
	fe := readErrOf(t, "ev.jsonl", []byte("{\"type\":\"user\",\"agent\":\"a\"}\n{\"type\":\"bogus\",\"agent\":\"a\"}\n"))
	if fe.Line != 2 || !strings.Contains(fe.Error(), "bogus") {
		t.Errorf("bogus event: %v", fe)
	}
	lines := strings.Split(string(fixture(t, "claude-code/s1.jsonl")), "\n")
	var mostly []string
	for i, l := range lines {
		if i > 0 && len(l) > 2 {
			l = l[:len(l)/2]
		}
		mostly = append(mostly, l)
	}
	if fe := readErrOf(t, "s1.jsonl", []byte(strings.Join(mostly, "\n"))); fe.Line < 2 {
		t.Errorf("mostly broken: %v", fe)
	}
}

// JSON documents: errors name the line too.
func TestErrorBrokenDocument(t *testing.T) {
	data := fixture(t, "swe-agent/single.traj")
	lines := bytes.Split(data, []byte("\n"))
	const n = 21 // `"action": ...` of the second step
	lines[n-1] = bytes.Replace(lines[n-1], []byte(":"), []byte(" "), 1)
	fe := readErrOf(t, "single.traj", bytes.Join(lines, []byte("\n")))
	if fe.Line != n {
		t.Errorf("broken line %d: %v", n, fe)
	}

	cut := data[:len(data)/2]
	fe = readErrOf(t, "single.traj", cut)
	if !strings.Contains(fe.Error(), "truncated") || fe.Line == 0 {
		t.Errorf("cut document: %v", fe)
	}

	fe = readErrOf(t, "single.traj", append(append([]byte(nil), data...), "{}"...))
	if !strings.Contains(fe.Error(), "after the JSON document") {
		t.Errorf("trailing data: %v", fe)
	}

	fe = readErrOf(t, "mismatch.json", []byte(`{"messages": [{"role": "user", "content": "x"}}`))
	if fe.Line != 1 {
		t.Errorf("mismatched brackets: %v", fe)
	}
}

func TestErrorPaths(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{filepath.Join(dir, "missing.jsonl"), dir} {
		_, err := Read(p)
		var fe *Error
		if !errors.As(err, &fe) || fe.Path != p {
			t.Errorf("%s: %v, want an *Error naming it", p, err)
		}
	}
}

// A reader that fails midway: the error is reported with the path.
func TestErrorReader(t *testing.T) {
	boom := errors.New("disk on fire")
	r := io.MultiReader(bytes.NewReader(fixture(t, "claude-code/s1.jsonl")[:3000]), &failingReader{boom})
	_, err := ReadFrom("s1.jsonl", r)
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "s1.jsonl:") {
		t.Errorf("got %v", err)
	}
}

type failingReader struct{ err error }

func (f *failingReader) Read([]byte) (int, error) { return 0, f.err }

// A transcript saved as UTF-16 with a byte-order mark (a Windows PowerShell redirect) reads
// as the same transcript in UTF-8, little- and big-endian alike.
func TestUTF16TranscriptReadsAsUTF8(t *testing.T) {
	doc := `[{"role":"user","content":"liste les fichiers – vite"},{"role":"assistant","content":"","tool_calls":[{"id":"a","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls 😀\"}"}}]},{"role":"tool","tool_call_id":"a","content":"a.py"}]`
	want, err := ReadFrom("s.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range []binary.AppendByteOrder{binary.LittleEndian, binary.BigEndian} {
		b := order.AppendUint16(nil, 0xfeff)
		for _, u := range utf16.Encode([]rune(doc)) {
			b = order.AppendUint16(b, u)
		}
		got, err := ReadFrom("s.json", bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%v: %v", order, err)
		}
		if g, w := strings.Join(describe(got.Agents[0].Events), "\n"), strings.Join(describe(want.Agents[0].Events), "\n"); g != w || got.Format != want.Format {
			t.Errorf("%v: read as %s:\n%s\nwant %s:\n%s", order, got.Format, g, want.Format, w)
		}
	}
}

// A transcript that opens with UTF-8's byte-order mark (PowerShell's `Out-File -Encoding
// utf8`, Notepad) reads as the same transcript without it, whatever its format: a document,
// one record a line, Markdown.
func TestUTF8ByteOrderMarkIsPassedOver(t *testing.T) {
	docs := map[string]string{
		"s.json": `[{"role":"user","content":"list"},{"role":"assistant","content":"","tool_calls":[{"id":"a","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},{"role":"tool","tool_call_id":"a","content":"a.py"}]`,
		"s.jsonl": `{"role":"user","content":"list"}
{"role":"assistant","content":"","tool_calls":[{"id":"a","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]}
{"role":"tool","tool_call_id":"a","content":"a.py"}
`,
		".aider.chat.history.md": "\n# aider chat started at 2025-05-10 11:04:57\n\n#### fix the bug  \n\nI will run the tests.\n\n```bash\npytest -q\n```\n\n> Run shell command? (Y)es/(N)o [Yes]: y\n> Running pytest -q\n> 1 passed\n",
	}
	for name, doc := range docs {
		want, err := ReadFrom(name, strings.NewReader(doc))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := ReadFrom(name, strings.NewReader("\xef\xbb\xbf"+doc))
		if err != nil {
			t.Fatalf("%s with a byte-order mark: %v", name, err)
		}
		if g, w := strings.Join(describe(got.Agents[0].Events), "\n"), strings.Join(describe(want.Agents[0].Events), "\n"); g != w || got.Format != want.Format || w == "" {
			t.Errorf("%s with a byte-order mark: read as %s:\n%s\nwant %s:\n%s", name, got.Format, g, want.Format, w)
		}
	}
}

// A UTF-16 byte-order mark over UTF-8 text (with stray NULs, as an editor's bad save leaves
// them) reads as the UTF-8 text: the content decides, not the mark.
func TestUTF16MarkOverUTF8TextReadsAsUTF8(t *testing.T) {
	doc := `[{"role":"user","content":"list"},{"role":"assistant","content":"","tool_calls":[{"id":"a","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},{"role":"tool","tool_call_id":"a","content":"a.py"}]`
	want, err := ReadFrom("s.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	damaged := "\xff\xfe" + doc[:40] + "\x00\x00" + doc[40:] + "\x00"
	got, err := ReadFrom("s.json", strings.NewReader(damaged))
	if err != nil {
		t.Fatalf("a UTF-16 mark over UTF-8: %v", err)
	}
	if g, w := strings.Join(describe(got.Agents[0].Events), "\n"), strings.Join(describe(want.Agents[0].Events), "\n"); g != w || got.Format != want.Format {
		t.Errorf("read as %s:\n%s\nwant %s:\n%s", got.Format, g, want.Format, w)
	}
}
