package scan

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/transcript"
)

// Tests on the labelled corpus in testdata/labels (docs/labels.md): real agent runs, committed
// gzip-compressed, with a manifest of where each file came from and hand-checked labels. These
// tests check the corpus is whole and consistent, not how well the guard does on it.

const corpusDir = "../../testdata/labels"

// agentsCorpusDir holds the same kind of corpus for agents other than SWE-agent
// (testdata/labels-agents/README.md): the tests that check a corpus is whole and consistent
// run on both.
const agentsCorpusDir = "../../testdata/labels-agents"

// eachCorpus runs f for each corpus folder, as a subtest named after it.
func eachCorpus(t *testing.T, f func(t *testing.T, dir string)) {
	for _, dir := range []string{corpusDir, agentsCorpusDir} {
		t.Run(filepath.Base(dir), func(t *testing.T) { f(t, dir) })
	}
}

// corpusRow is one manifest.jsonl row.
type corpusRow struct {
	Repo           string  `json:"repo"`
	Commit         string  `json:"commit"`
	Path           string  `json:"path"`
	SHA256Original string  `json:"sha256_original"`
	BytesOriginal  int64   `json:"bytes_original"`
	CuratedFile    string  `json:"curated_file"`
	SHA256         string  `json:"sha256_committed"`
	Trimmed        *string `json:"trimmed"`
	Format         string  `json:"format"`
	Agent          string  `json:"agent"`
	Model          string  `json:"model"`
	Licence        string  `json:"licence"`
}

// corpusLabelExtra holds the fields a corpus label has beyond Label.
type corpusLabelExtra struct {
	Model  string `json:"model"`
	Format string `json:"format"`
}

// Corpus minimums, from the issue that asked for the corpus (docs/labels.md).
const (
	minLabels       = 120
	minLegit        = 50
	minAgentsOrFmts = 4
	minModels       = 3
)

func readCorpusManifest(t *testing.T, dir string) []corpusRow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "manifest.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []corpusRow
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var row corpusRow
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&row); err != nil {
			t.Fatalf("manifest.jsonl:%d: %v", n, err)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// readCorpusLabels reads labels.jsonl twice: as scan.ReadLabels reads any labels file, and for
// the corpus's extra fields, line for line.
func readCorpusLabels(t *testing.T, dir string) ([]Label, []corpusLabelExtra) {
	t.Helper()
	path := filepath.Join(dir, "labels.jsonl")
	labels, err := ReadLabels(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var extras []corpusLabelExtra
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var x corpusLabelExtra
		if err := json.Unmarshal(line, &x); err != nil {
			t.Fatal(err)
		}
		extras = append(extras, x)
	}
	if len(extras) != len(labels) {
		t.Fatalf("%d labels read by ReadLabels, %d lines", len(labels), len(extras))
	}
	return labels, extras
}

func TestCorpusManifestMatchesTheCommittedFiles(t *testing.T) {
	eachCorpus(t, corpusManifestMatchesTheCommittedFiles)
}

func corpusManifestMatchesTheCommittedFiles(t *testing.T, corpusDir string) {
	rows := readCorpusManifest(t, corpusDir)
	if len(rows) == 0 {
		t.Fatal("empty manifest")
	}
	seen := map[string]bool{}
	for _, row := range rows {
		name := row.CuratedFile
		switch {
		case seen[name]:
			t.Errorf("%s: listed twice", name)
		case len(row.Commit) != 40 || strings.Trim(row.Commit, "0123456789abcdef") != "":
			t.Errorf("%s: commit %q is not 40 hex digits", name, row.Commit)
		case len(row.SHA256Original) != 64 || row.BytesOriginal <= 0:
			t.Errorf("%s: sha256_original %q, bytes_original %d", name, row.SHA256Original, row.BytesOriginal)
		case row.Repo == "" || row.Path == "" || row.Format == "" || row.Agent == "" || row.Model == "" || row.Licence == "":
			t.Errorf("%s: a source field is empty: %+v", name, row)
		case name != strings.ReplaceAll(row.Repo, "/", "__")+"/"+row.Path+".gz":
			t.Errorf("%s: not laid out as <owner>__<repo>/<original path>.gz", name)
		}
		seen[name] = true
		data, err := os.ReadFile(filepath.Join(corpusDir, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != row.SHA256 {
			t.Errorf("%s: sha256 %s, the manifest says %s", name, got, row.SHA256)
		}
	}
	// Nothing in the folder that the manifest does not account for.
	err := filepath.WalkDir(corpusDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(corpusDir, path)
		rel = filepath.ToSlash(rel)
		if rel != "manifest.jsonl" && rel != "labels.jsonl" && rel != "README.md" && !seen[rel] {
			t.Errorf("%s: in %s but not in the manifest", rel, corpusDir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// matchCorpusRow finds the manifest rows a label's path names, as ScoreLabels matches scanned
// files: the path as a suffix at a folder boundary, the repo settling ties.
func matchCorpusRow(rows []corpusRow, l *Label) []corpusRow {
	var cands []corpusRow
	for _, row := range rows {
		p := strings.TrimSuffix(row.CuratedFile, ".gz")
		if p == l.Path || strings.HasSuffix(p, "/"+l.Path) {
			cands = append(cands, row)
		}
	}
	if len(cands) > 1 && l.Repo != "" {
		cands = slices.DeleteFunc(cands, func(r corpusRow) bool { return r.Repo != l.Repo })
	}
	return cands
}

func TestCorpusLabelsPointIntoTheirTranscripts(t *testing.T) {
	eachCorpus(t, corpusLabelsPointIntoTheirTranscripts)
}

func corpusLabelsPointIntoTheirTranscripts(t *testing.T, corpusDir string) {
	rows := readCorpusManifest(t, corpusDir)
	labels, extras := readCorpusLabels(t, corpusDir)
	read := map[string]*transcript.Transcript{}
	used := map[string]bool{}
	for i := range labels {
		l := &labels[i]
		where := l.Path + " " + l.Agent + " " + l.ManualLabel
		if !slices.Contains(LoopLabels, l.ManualLabel) && !slices.Contains(LegitLabels, l.ManualLabel) {
			t.Errorf("%s: %q is neither a loop nor a legitimate label", where, l.ManualLabel)
		}
		if strings.TrimSpace(l.Note) == "" {
			t.Errorf("%s: no note says why", where)
		}
		cands := matchCorpusRow(rows, l)
		if len(cands) != 1 {
			t.Errorf("%s: matches %d manifest files, want exactly 1", where, len(cands))
			continue
		}
		row := cands[0]
		used[row.CuratedFile] = true
		if l.Repo != row.Repo || extras[i].Model != row.Model || extras[i].Format != row.Format {
			t.Errorf("%s: repo/model/format %q/%q/%q, the manifest says %q/%q/%q", where,
				l.Repo, extras[i].Model, extras[i].Format, row.Repo, row.Model, row.Format)
		}
		tr, ok := read[row.CuratedFile]
		if !ok {
			var err error
			tr, err = transcript.Read(filepath.Join(corpusDir, filepath.FromSlash(row.CuratedFile)))
			if err != nil {
				t.Errorf("%s: %v", where, err)
			}
			read[row.CuratedFile] = tr
		}
		if tr == nil {
			continue
		}
		n, found := 0, false // the most calls of the label's agent in its sessions
		for _, a := range tr.Agents {
			if a.ID == l.Agent && (l.SessionIndex == nil || *l.SessionIndex == a.Session) {
				n, found = max(n, len(a.Calls())), true
			}
		}
		if !found {
			t.Errorf("%s: %s has no agent %q", where, row.CuratedFile, l.Agent)
			continue
		}
		if l.Last() >= n {
			t.Errorf("%s: call_indices %v, but agent %q has %d calls", where, l.CallIndices, l.Agent, n)
		}
	}
	for _, row := range rows {
		if !used[row.CuratedFile] {
			t.Errorf("%s: no label points into it", row.CuratedFile)
		}
	}
}

// A call is never both in a loop span and in a legitimate span of the same agent: the labels
// would contradict each other. (Legitimate spans may nest: a re-read after an edit inside a
// run of test re-runs.)
func TestCorpusLoopAndLegitSpansDoNotOverlap(t *testing.T) {
	eachCorpus(t, func(t *testing.T, dir string) {
		corpusLoopAndLegitSpansDoNotOverlap(t, dir)
	})
}

func corpusLoopAndLegitSpansDoNotOverlap(t *testing.T, dir string) {
	labels, _ := readCorpusLabels(t, dir)
	type key struct {
		repo, path, agent string
		session           int
	}
	sessionOf := func(l Label) int {
		if l.SessionIndex == nil {
			return -1
		}
		return *l.SessionIndex
	}
	loops := map[key][]Label{}
	for _, l := range labels {
		if slices.Contains(LoopLabels, l.ManualLabel) {
			k := key{l.Repo, l.Path, l.Agent, sessionOf(l)}
			loops[k] = append(loops[k], l)
		}
	}
	for _, l := range labels {
		if !slices.Contains(LegitLabels, l.ManualLabel) {
			continue
		}
		for _, loop := range loops[key{l.Repo, l.Path, l.Agent, sessionOf(l)}] {
			if l.First() <= loop.Last() && loop.First() <= l.Last() {
				t.Errorf("%s %s: %s %v overlaps %s %v", l.Path, l.Agent,
					l.ManualLabel, l.CallIndices, loop.ManualLabel, loop.CallIndices)
			}
		}
	}
}

func TestCorpusMeetsItsMinimums(t *testing.T) {
	rows := readCorpusManifest(t, corpusDir)
	labels, _ := readCorpusLabels(t, corpusDir)
	legit, loops := 0, 0
	agents, formats, models := map[string]bool{}, map[string]bool{}, map[string]bool{}
	kinds := map[string]int{}
	for i := range labels {
		l := &labels[i]
		switch {
		case slices.Contains(LegitLabels, l.ManualLabel):
			legit++
		case slices.Contains(LoopLabels, l.ManualLabel):
			loops++
		}
		kinds[l.ManualLabel]++
		if cands := matchCorpusRow(rows, l); len(cands) == 1 {
			agents[cands[0].Agent] = true
			formats[cands[0].Format] = true
			models[cands[0].Model] = true
		}
	}
	t.Logf("%d labels (%d loops, %d legitimate) by kind %v; %d agents, %d formats, %d models",
		len(labels), loops, legit, kinds, len(agents), len(formats), len(models))
	if len(labels) < minLabels {
		t.Errorf("%d labels, want at least %d", len(labels), minLabels)
	}
	if legit < minLegit {
		t.Errorf("%d legitimate labels, want at least %d", legit, minLegit)
	}
	if max(len(agents), len(formats)) < minAgentsOrFmts {
		t.Errorf("%d agents and %d formats, want at least %d of one", len(agents), len(formats), minAgentsOrFmts)
	}
	if len(models) < minModels {
		t.Errorf("%d models, want at least %d", len(models), minModels)
	}
}

// The corpus holds other files than the shared development set: a file of the shared set
// (same original bytes) here would let a detector tuned on one be scored on the same data.
func TestCorpusDoesNotRepeatTheSharedSet(t *testing.T) {
	dir := sharedDir(t)
	data, err := os.ReadFile(filepath.Join(dir, "manifest.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	shared := map[string]bool{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		var row struct {
			SHA256 string `json:"sha256_original"`
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := json.Unmarshal(line, &row); err != nil {
			t.Fatal(err)
		}
		shared[row.SHA256] = true
	}
	if len(shared) == 0 {
		t.Fatal("the shared manifest lists no sha256")
	}
	for _, dir := range []string{corpusDir, agentsCorpusDir} {
		for _, row := range readCorpusManifest(t, dir) {
			if shared[row.SHA256Original] {
				t.Errorf("%s: the same file is in the shared set", row.CuratedFile)
			}
		}
	}
}

// scoreCorpus scans a corpus folder with the default preset and scores it against its labels.
func scoreCorpus(t *testing.T, dir string) ([]LabelResult, Score) {
	t.Helper()
	cfg, err := loopguard.Preset("default")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(Collect([]string{dir}), Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	labels, err := ReadLabels(filepath.Join(dir, "labels.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	results, s := ScoreLabels(r, labels)
	t.Logf("recall %d/%d, median lateness %v, %d of %d legitimate spans alarmed, %.1f notices per 1,000 calls outside the loops",
		s.Caught, s.Loops, s.Median, s.Alarmed, s.Legit, s.PerKOutside)
	return results, s
}

// The default preset's scores on our corpus (docs/detection.md, "Scores"), held as a floor so
// that a change of a rule cannot quietly lose a loop or start nagging legitimate work. The
// issue's limits are 5% of legitimate spans and 2 notices per 1,000 calls outside the loops;
// recall is held at what the rules reach today (23 of 24).
func TestCorpusDefaultPresetScores(t *testing.T) {
	results, s := scoreCorpus(t, corpusDir)
	if s.Caught < 23 || s.Alarmed*20 > s.Legit || s.PerKOutside > 2 {
		for _, res := range results {
			t.Logf("%s %s %s %v: %s first notice %d", res.Label.ManualLabel, res.Label.Path, res.Label.Agent, res.Label.CallIndices, res.Status, res.FirstNotice)
		}
		t.Errorf("caught %d of %d (want at least 23), %d of %d legitimate spans alarmed (want at most 5%%), %.1f per 1,000 outside (want at most 2)",
			s.Caught, s.Loops, s.Alarmed, s.Legit, s.PerKOutside)
	}
}

// The same floor on the corpus of other agents (testdata/labels-agents): what the rules reach
// there today (10 of 13 loops, no legitimate span alarmed, 1.1 per 1,000 outside), so that a
// change made for one agent's runs cannot quietly cost another's. Three of the four notices
// outside the loops are on Aider replies that repeat themselves (SupplyChainTracker2,
// sessions 6 and 15: the same steps or list items written 10 to 21 times over), real loops
// that no label covers: the labels are spans of calls, and two of the replies come before
// their session's first call.
func TestAgentsCorpusDefaultPresetScores(t *testing.T) {
	results, s := scoreCorpus(t, agentsCorpusDir)
	if s.Caught < 10 || s.Alarmed > 0 || s.PerKOutside > 1.5 {
		for _, res := range results {
			t.Logf("%s %s %s %v: %s first notice %d", res.Label.ManualLabel, res.Label.Path, res.Label.Agent, res.Label.CallIndices, res.Status, res.FirstNotice)
		}
		t.Errorf("caught %d of %d (want at least 10), %d of %d legitimate spans alarmed (want none), %.1f per 1,000 outside (want at most 1.5)",
			s.Caught, s.Loops, s.Alarmed, s.Legit, s.PerKOutside)
	}
}
