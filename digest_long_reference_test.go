package loopguard

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// digestLongReference is digestLong as it was before the byteMap (session 58): digest for long texts without ANSI escapes, line by line: a line is hashed 8
// bytes at a time, and only the fields around a digit or a path separator are looked at
// (and replaced by a marker when volatile). Its lines are its shingles, and echo masking
// does not apply (see digest).
func (d *digester) digestLongReference(text string, lines bool) digest {
	var out digest
	if lines {
		d.lines, d.wide, d.echoed = d.lines[:0], d.wide[:0], 0
	}
	// Carriage returns are rare in long results; one vectorised look at the whole text spares
	// every line its own.
	hasCR := strings.IndexByte(text, '\r') >= 0
	exact := uint64(mixK2)
	nlines := 0
	leadSaid := false
	for len(text) > 0 {
		var line string
		if nl := strings.IndexByte(text, '\n'); nl >= 0 {
			line, text = text[:nl], text[nl+1:]
		} else {
			line, text = text, ""
		}
		if hasCR && strings.IndexByte(line, '\r') >= 0 {
			line = strings.TrimSuffix(line, "\r")
			if k := strings.LastIndexByte(line, '\r'); k >= 0 {
				line = line[k+1:] // a progress bar: the last overwrite is what shows
			}
		}
		for len(line) > 0 && (line[len(line)-1] == ' ' || line[len(line)-1] == '\t') {
			line = line[:len(line)-1]
		}
		if line == "" {
			continue
		}
		h := hashLine(line)
		if len(text) < 64 && line[0] == '[' {
			h = trailerHandle(line, h)
		}
		exact = mixWord(exact, h)
		lh := mix64(h)
		keep := lines && len(d.lines) < maxLines
		two := (keep || !leadSaid) && hasTwoFields(line)
		if !leadSaid {
			out.lead, leadSaid = lh|1, two // see digest
		}
		out.sketch.add(lh)
		nlines++
		if keep && (two || len(line) >= minLineField && len(strings.TrimLeft(line, " \t")) >= minLineField) {
			d.lines = append(d.lines, lh)
			d.noteWide(len(line))
		}
	}
	out.sketch.mode = sketchLines
	out.exact = mix64(exact)
	out.masked = out.exact
	out.words = nlines * 2 // not counted word by word; a long text has words enough
	return out
}

// longTextsOfTheCorpus returns the strings of 1 KB and more in the JSON of the labelled
// corpus's runs (tool results, mostly), for comparing digestLong with its reference on real
// text.
func longTextsOfTheCorpus(t *testing.T) []string {
	t.Helper()
	var texts []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if len(v) >= longTextBytes {
				texts = append(texts, v)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	for _, dir := range []string{"testdata/labels", "testdata/labels-agents"} {
		err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(path, ".gz") {
				return err
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			z, err := gzip.NewReader(f)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			dec := json.NewDecoder(z)
			for {
				var v any
				if err := dec.Decode(&v); err != nil {
					break // JSONL ends, or a file is not JSON: the strings so far are enough
				}
				walk(v)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return texts
}

// sameLongDigest fails t when digestLong and digestLongReference disagree on text, in the
// digest or in the lines gathered for novelty.
func sameLongDigest(t testing.TB, text string) {
	t.Helper()
	var fast, ref digester
	got := fast.digestLong(text, true)
	want := ref.digestLongReference(text, true)
	if got != want || !slices.Equal(fast.lines, ref.lines) || !slices.Equal(fast.wide, ref.wide) || fast.echoed != ref.echoed {
		t.Fatalf("digestLong differs from the reference on a %d-byte text %.120q…:\n got %+v (%d lines)\nwant %+v (%d lines)",
			len(text), text, got, len(fast.lines), want, len(ref.lines))
	}
}

func TestDigestLongMatchesItsReferenceOnTheCorpus(t *testing.T) {
	texts := longTextsOfTheCorpus(t)
	if len(texts) < 1000 {
		t.Fatalf("only %d long texts in the corpus; expected thousands", len(texts))
	}
	for _, text := range texts {
		sameLongDigest(t, text)
	}
}

func TestDigestLongMatchesItsReferenceAcrossWindows(t *testing.T) {
	listing := func(n int) string {
		var b strings.Builder
		for i := 1; b.Len() < n; i++ {
			fmt.Fprintf(&b, "%6d\t    x_%d = call(items[%d], pid=%d)  \n", i, i, i, 4000+i)
		}
		return b.String()[:n]
	}
	long := strings.Repeat("abc/def 12 ", 500) // one line of 5,500 bytes, longer than a window
	cases := map[string]string{
		"one window exactly":              listing(scanWindow),
		"a byte more than a window":       listing(scanWindow + 1),
		"lines across three windows":      listing(3*scanWindow + 777),
		"a line longer than a window":     "head line here\n" + long + "\ntail line 1\n" + listing(2000),
		"the text one long line":          long,
		"a long line last, no newline":    listing(3000) + long,
		"progress bars":                   strings.Repeat("building 12%\rbuilding 57%\rbuilding 100%\r\n", 60),
		"a trailer at the end":            listing(2000) + "\n[rerun: b40]",
		"header ids":                      strings.Repeat("Chunk ID: cbdcbe\nWall time: 0.0512 seconds\nProcess exited with code 0\n", 30),
		"short lines and digits":          strings.Repeat("a 1\n/x\n12\n7)\n\n   \n", 200),
		"temporary paths and key=value":   strings.Repeat("wrote /tmp/tmpab12cd/out.txt key=17 run_id=4f3a9e21 at 2026-12-01T10:00:00Z\n", 40),
		"the benchmark's result":          progressResult(7),
		"tabs and carriage returns mixed": strings.Repeat("\tcol 1\t2 \t\r\n", 300),
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) { sameLongDigest(t, text) })
	}
}

func FuzzDigestLongMatchesItsReference(f *testing.F) {
	f.Add(progressResult(3))
	f.Add(strings.Repeat("line 12 of /tmp/x=1\r\n", 80))
	f.Add(strings.Repeat("Chunk ID: cbdcbe\n", 80) + "[rerun: b40]")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) < longTextBytes {
			text = strings.Repeat(text+"\n", longTextBytes/(len(text)+1)+1)
		}
		sameLongDigest(t, text)
	})
}
