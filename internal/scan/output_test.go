package scan

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestJSONLLinesKeepTheirFieldOrder(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "run.jsonl", events("a probe probe probe text:x text:x text:x"))
	r, err := Run(Collect([]string{p}), Options{Config: preset(t, "seeds")})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteJSONL(&b, r); err != nil {
		t.Fatal(err)
	}
	file, _ := json.Marshal(p)
	want := `{"type":"file","file":` + string(file) + `,"format":"events","sessions":1,"agents":1,"calls":4,"notices":2}
{"type":"notice","file":` + string(file) + `,"agent":"a1","session_index":0,"call_index":3,"event":"call","plugin":"repeat-tool-reminder","kind":"repeat","summary":"probe × 3"}
{"type":"notice","file":` + string(file) + `,"agent":"a1","session_index":0,"call_index":3,"event":"text","plugin":"dsh-brake","kind":"text","summary":"duplicate text × 3"}
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestJSONDocument(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "b.jsonl", events("a probe probe probe probe b"))
	writeFile(t, dir, "a.jsonl", events("a b c"))
	writeFile(t, dir, "c.jsonl", "{\"type\":\"call\",\"agent\":\"a1\",\"tool\":\"x\"}\n{oops\n")
	r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "repeat-tool-reminder")})
	if err != nil {
		t.Fatal(err)
	}
	labels := []Label{{Path: "b.jsonl", Agent: "a1", CallIndices: []int{1, 4}, ManualLabel: "stuck"}}
	res, score := ScoreLabels(r, labels)
	var b bytes.Buffer
	if err := WriteJSON(&b, r, Meta{Version: "v", Config: "--preset x", Labels: "l.jsonl"}, &Scored{res, score}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Loopguard, Config string
		Files             []struct {
			Path, Format, Error string
			Calls               int
			Loops               []Loop
			Agents              []struct{ ID string }
		}
		Notices []Notice
		Totals  Totals
		Labels  struct {
			Results []LabelResult
			Score   Score
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if doc.Loopguard != "v" || doc.Config != "--preset x" || len(doc.Files) != 3 {
		t.Fatalf("document %+v", doc)
	}
	if filepath.Base(doc.Files[0].Path) != "a.jsonl" || filepath.Base(doc.Files[2].Path) != "c.jsonl" {
		t.Errorf("files not in path order: %s, %s", doc.Files[0].Path, doc.Files[2].Path)
	}
	if !strings.Contains(doc.Files[2].Error, "c.jsonl:2:") || doc.Files[2].Format != "" {
		t.Errorf("failed file: %+v", doc.Files[2])
	}
	if len(doc.Files[1].Loops) != 1 || doc.Files[1].Loops[0].Start != 1 || doc.Files[1].Loops[0].End != 4 {
		t.Errorf("loops of b.jsonl: %+v", doc.Files[1].Loops)
	}
	if len(doc.Notices) != 1 || doc.Notices[0].CallIndex != 3 {
		t.Errorf("notices %+v", doc.Notices)
	}
	if doc.Totals.Files != 2 || doc.Totals.Failed != 1 || doc.Totals.Calls != 9 || doc.Totals.Wasted != 1 {
		t.Errorf("totals %+v", doc.Totals)
	}
	if len(doc.Labels.Results) != 1 || doc.Labels.Results[0].Status != StatusCaught || doc.Labels.Score.Recall != 1 {
		t.Errorf("labels %+v", doc.Labels)
	}
}

func TestTextSummary(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "quiet.jsonl", events("a b c"))
	loud := writeFile(t, dir, "loud.jsonl", events("a probe probe probe probe probe b"))
	r, err := Run(Collect([]string{dir}), Options{Config: preset(t, "repeat-tool-reminder")})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteText(&b, r, Meta{Config: "--preset repeat-tool-reminder"}, nil); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		loud + "\n  events · 1 agent · 7 calls · 2 notices\n",
		"a1  repeat-tool-reminder/repeat  probe  calls 1–5 (5)  first notice at 3  2 notices  wasted 2 calls",
		"wasted: 2 calls of 7\n",
		"scanned 2 files with --preset repeat-tool-reminder\n",
		"  calls   10\n",
		"  notices 2 (200.0 per 1,000 calls)\n",
		"  loops   1 in 1 file (1 run of calls once overlapping loops are merged)\n",
		"  wasted  2 calls (20.0% of all calls)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "quiet.jsonl") {
		t.Errorf("a file without loops is listed:\n%s", out)
	}
}

func TestNumberFormats(t *testing.T) {
	tests := []struct{ got, want string }{
		{commas(0), "0"}, {commas(999), "999"}, {commas(1000), "1,000"}, {commas(-1234567), "-1,234,567"},
		{dollars(0), "$0.00"}, {dollars(0.004), "$0.0040"}, {dollars(1234.567), "$1,234.57"}, {dollars(2.999), "$3.00"},
		{shortNum(950), "950"}, {shortNum(12345), "12.3k"}, {shortNum(4560000), "4.56M"},
		{span(3, 3), "3"}, {span(3, 9), "3–9"},
		{plural(1, "call", "calls"), "1 call"}, {plural(1200, "call", "calls"), "1,200 calls"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
