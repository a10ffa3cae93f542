package transcript

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"github.com/loopguard/loopguard/internal/testenv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/loopguard/loopguard"
)

// Tests on the real transcripts of the shared development set. They are read in place, from
// ../../../shared/data/trajectories relative to this package, and never copied into the
// repository.

func sharedDir(t testing.TB) string {
	t.Helper()
	return testenv.SharedTrajectories(t, "manifest.jsonl")
}

type manifestRow struct {
	Repo        string `json:"repo"`
	Path        string `json:"path"`
	CuratedFile string `json:"curated_file"`
	Format      string `json:"format"`
}

func readJSONL[T any](t testing.TB, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// expectedFormat maps the manifest's description of a file to a Format.
func expectedFormat(desc string) string {
	switch {
	case strings.HasPrefix(desc, "mini-swe-agent"):
		return FormatMiniSWEAgent
	case strings.Contains(desc, "SWE-agent"):
		return FormatSWEAgent
	case strings.HasPrefix(desc, "Claude Code"):
		return FormatClaudeCode
	}
	return ""
}

func gunzip(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// independentCalls counts each agent's calls straight from the raw file, with encoding/json
// and the format's rule, to check the readers against.
func independentCalls(t testing.TB, format string, data []byte, name string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	switch format {
	case FormatSWEAgent:
		// One call per trajectory step. Multi-agent runs: the k-th assistant message of the
		// history (tagged with its role) is the k-th step.
		var d struct {
			Trajectory []json.RawMessage `json:"trajectory"`
			History    []struct {
				Role  string `json:"role"`
				Agent string `json:"agent"`
			} `json:"history"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatal(err)
		}
		var roles []string
		for _, h := range d.History {
			if h.Role == "assistant" {
				roles = append(roles, h.Agent)
			}
		}
		if len(roles) != len(d.Trajectory) {
			t.Fatalf("%s: %d assistant messages for %d steps", name, len(roles), len(d.Trajectory))
		}
		for _, r := range roles {
			if r == "" || r == "primary" {
				r = "main"
			}
			counts[r]++
		}
	case FormatMiniSWEAgent:
		// One call per assistant message (a format error is a refused call).
		var d struct {
			Messages []struct {
				Role string `json:"role"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatal(err)
		}
		for _, m := range d.Messages {
			if m.Role == "assistant" {
				counts["main"]++
			}
		}
	case FormatClaudeCode:
		// One call per tool_use block; sidechain lines belong to agent-<agentId>.
		seen := map[string]bool{}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			var l struct {
				Type        string `json:"type"`
				UUID        string `json:"uuid"`
				IsSidechain bool   `json:"isSidechain"`
				AgentID     string `json:"agentId"`
				Message     struct {
					Content json.RawMessage `json:"content"`
				} `json:"message"`
			}
			if err := json.Unmarshal([]byte(line), &l); err != nil {
				t.Fatal(err)
			}
			if l.Type != "assistant" || seen[l.UUID] {
				continue
			}
			seen[l.UUID] = true
			var blocks []struct {
				Type string `json:"type"`
			}
			_ = json.Unmarshal(l.Message.Content, &blocks)
			agent := "main"
			if l.IsSidechain {
				agent = "agent-" + l.AgentID
			}
			for _, b := range blocks {
				if b.Type == "tool_use" {
					counts[agent]++
				}
			}
		}
	default:
		t.Fatalf("no independent count for %s", format)
	}
	return counts
}

// TestSharedSet reads every real transcript and checks agents and call counts against an
// independent count from the raw file.
func TestSharedSet(t *testing.T) {
	dir := sharedDir(t)
	rows := readJSONL[manifestRow](t, filepath.Join(dir, "manifest.jsonl"))
	inManifest := map[string]bool{}
	for _, r := range rows {
		inManifest[filepath.FromSlash(r.CuratedFile)] = true
	}
	var onDisk int
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".gz") {
			return err
		}
		onDisk++
		rel, _ := filepath.Rel(dir, p)
		if !inManifest[rel] {
			t.Errorf("%s is not in the manifest", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if onDisk != len(rows) || onDisk == 0 {
		t.Errorf("%d files on disk, %d in the manifest", onDisk, len(rows))
	}

	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, r := range rows {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			path := filepath.Join(dir, filepath.FromSlash(r.CuratedFile))
			tr, err := Read(path)
			if err != nil {
				t.Errorf("%v", err)
				return
			}
			want := expectedFormat(r.Format)
			if tr.Format != want {
				t.Errorf("%s: format %q, want %q", r.CuratedFile, tr.Format, want)
				return
			}
			counts := independentCalls(t, tr.Format, gunzip(t, path), r.CuratedFile)
			got := map[string]int{}
			for _, a := range tr.Agents {
				if n := len(a.Calls()); n > 0 {
					got[a.ID] = n
				}
				for _, e := range a.Events {
					if e.Agent != a.ID {
						t.Errorf("%s: agent %q holds an event of %q", r.CuratedFile, a.ID, e.Agent)
						break
					}
				}
			}
			for id, n := range counts {
				if n == 0 {
					delete(counts, id)
				}
			}
			if !reflect.DeepEqual(got, counts) {
				t.Errorf("%s: calls per agent %v, independent count %v", r.CuratedFile, got, counts)
			}
		}()
	}
	wg.Wait()
}

type labelRow struct {
	Repo          string `json:"repo"`
	Path          string `json:"path"`
	Agent         string `json:"agent"`
	CallIndices   [2]int `json:"call_indices"`
	ManualLabel   string `json:"manual_label"`
	Note          string `json:"note"`
	SrcIndexStart int    `json:"src_index_start"`
}

var miniBlock = regexp.MustCompile("(?s)```bash\\s*\\n(.*?)\\n```")

// TestLabels checks every hand label: the agent exists, both call indices are in range, the
// first index lands on the source step or message the label names, and the calls look like
// what the label and its note describe.
func TestLabels(t *testing.T) {
	dir := sharedDir(t)
	labels := readJSONL[labelRow](t, filepath.Join(dir, "labels.jsonl"))
	if len(labels) == 0 {
		t.Fatal("no labels")
	}
	for i, l := range labels {
		path := filepath.Join(dir, strings.ReplaceAll(l.Repo, "/", "__"), filepath.FromSlash(l.Path)+".gz")
		tr, err := Read(path)
		if err != nil {
			t.Errorf("label %d: %v", i, err)
			continue
		}
		a := tr.Agent(l.Agent)
		if a == nil {
			t.Errorf("label %d: %s has no agent %q", i, l.Path, l.Agent)
			continue
		}
		calls := a.Calls()
		first, last := l.CallIndices[0], l.CallIndices[1]
		if first < 0 || last < first || last >= len(calls) {
			t.Errorf("label %d: call indices %v out of range (%d calls)", i, l.CallIndices, len(calls))
			continue
		}
		checkSource(t, i, l, tr.Format, gunzip(t, path), calls)
		checkLabel(t, i, l, a, calls[first:last+1])
	}
}

// checkSource checks that call first is the one at the label's source index: the trajectory
// step (SWE-agent) or message (mini-swe-agent), found independently from the raw file.
func checkSource(t *testing.T, i int, l labelRow, format string, data []byte, calls []loopguard.Event) {
	first := l.CallIndices[0]
	switch format {
	case FormatSWEAgent:
		var d struct {
			Trajectory []struct {
				Action string `json:"action"`
			} `json:"trajectory"`
			History []struct {
				Role  string `json:"role"`
				Agent string `json:"agent"`
			} `json:"history"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatal(err)
		}
		var steps []int // the agent's steps, as indices in trajectory
		k := 0
		for _, h := range d.History {
			if h.Role != "assistant" {
				continue
			}
			if h.Agent == l.Agent {
				steps = append(steps, k)
			}
			k++
		}
		if first >= len(steps) || steps[first] != l.SrcIndexStart {
			t.Errorf("label %d: call %d of %s is not step %d", i, first, l.Agent, l.SrcIndexStart)
			return
		}
		if got, want := string(calls[first].Args), d.Trajectory[l.SrcIndexStart].Action; got != want {
			t.Errorf("label %d: call %d args %q, step %d action %q", i, first, got, l.SrcIndexStart, want)
		}
	case FormatMiniSWEAgent:
		var d struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range d.Messages[:l.SrcIndexStart] {
			if m.Role == "assistant" {
				n++
			}
		}
		m := d.Messages[l.SrcIndexStart]
		if m.Role != "assistant" || n != first {
			t.Errorf("label %d: message %d is the %d-th assistant message (%s), label says call %d", i, l.SrcIndexStart, n, m.Role, first)
			return
		}
		blocks := miniBlock.FindAllStringSubmatch(m.Content, -1)
		if len(blocks) == 0 || string(calls[first].Args) != strings.TrimSpace(blocks[0][1]) {
			t.Errorf("label %d: call %d args %q are not the message's command", i, first, calls[first].Args)
		}
	}
}

// checkLabel checks that the labelled calls are what the label describes.
func checkLabel(t *testing.T, i int, l labelRow, a *Agent, span []loopguard.Event) {
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("label %d (%s %s %v): "+format, append([]any{i, l.ManualLabel, l.Agent, l.CallIndices}, args...)...)
	}
	sameArgs := func() bool {
		for _, c := range span[1:] {
			if !reflect.DeepEqual(c.Args, span[0].Args) || c.Tool != span[0].Tool {
				return false
			}
		}
		return true
	}
	switch l.ManualLabel {
	case "stuck":
		// "the same call (or the same rejected edit) repeated". The hand labels call
		// "identical" calls that differ only in white space (an edit's indentation, an
		// empty line), so compare the words.
		words := strings.Join(strings.Fields(string(span[0].Args)), " ")
		for k, c := range span {
			if c.Tool != span[0].Tool || strings.Join(strings.Fields(string(c.Args)), " ") != words {
				fail("call %d differs: %q", k, short(string(c.Args)))
				break
			}
		}
		if strings.Contains(l.Note, "rejected") {
			for _, c := range span {
				if !c.Failed || !strings.HasPrefix(c.Result, "Your proposed edit has introduced new syntax error") {
					fail("a call is not a rejected edit: %q", short(c.Result))
					break
				}
			}
		}
	case "cycle":
		m := regexp.MustCompile(`period-(\d)`).FindStringSubmatch(l.Note)
		if m == nil {
			fail("no period in note %q", l.Note)
			return
		}
		p := int(m[1][0] - '0')
		for k := p; k < len(span); k++ {
			if string(span[k].Args) != string(span[k-p].Args) {
				fail("call %d breaks the period-%d cycle", k, p)
				break
			}
		}
		seen := map[string]bool{}
		for _, c := range span[:p] {
			seen[string(c.Args)] = true
		}
		if len(seen) != p {
			fail("a period has %d distinct calls, want %d", len(seen), p)
		}
	case "legit_navigation":
		for k, c := range span {
			if c.Tool != "scroll_down" {
				fail("call %d is %q, not scroll_down", k, c.Tool)
				break
			}
			if k > 0 && c.Result == span[k-1].Result {
				fail("call %d repeats the previous page", k)
				break
			}
		}
	case "format_retry":
		// The same command in every reply of the span; the harness ran it once and refused
		// the other replies (several commands in one reply).
		if !sameArgs() {
			fail("the retried command changed")
		}
		ran := 0
		for k, c := range span {
			switch {
			case strings.HasPrefix(c.Result, "<returncode>"):
				ran++
			case !c.Failed || !strings.HasPrefix(c.Result, "Please always provide EXACTLY ONE action"):
				fail("call %d is neither run nor refused: %q", k, short(c.Result))
			}
		}
		if ran != 1 {
			fail("the command ran %d times, the note says once", ran)
		}
	case "scan_loop":
		// The same thought before the calls ("same thought xN") while the arguments sweep.
		thoughts := thoughtsBeforeCalls(a)
		first := l.CallIndices[0]
		same := 0
		for k := range span {
			if thoughts[first+k] == thoughts[first] {
				same++
			}
		}
		if n := noteCount(l.Note); same < n {
			fail("the thought repeats %d times, the note says %d", same, n)
		}
		if thoughts[first] == "" || sameArgs() {
			fail("want a repeated thought with changing arguments")
		}
	default:
		fail("unknown label")
	}
	// The note's repetition count is the span: "xN" calls, or N periods of a cycle.
	if n := noteCount(l.Note); n > 0 {
		want := n
		switch l.ManualLabel {
		case "cycle":
			m := regexp.MustCompile(`period-(\d)`).FindStringSubmatch(l.Note)
			want = n * int(m[1][0]-'0')
		case "scan_loop", "format_retry":
			want = len(span)
		}
		if want != len(span) {
			fail("the note counts %d calls, the span has %d", want, len(span))
		}
	}
	// Note-specific spot checks.
	switch {
	case strings.Contains(l.Note, "s/return mmsubsup/return mmsubsup/"):
		if !strings.HasPrefix(string(span[0].Args), "sed ") || !strings.Contains(string(span[0].Args), "s/return mmsubsup/return mmsubsup/") {
			fail("call is %q, want the no-op sed", span[0].Args)
		}
		refused := 0
		for _, c := range span {
			if c.Failed && strings.HasPrefix(c.Result, "Please always provide EXACTLY ONE action") {
				refused++
			}
		}
		if refused != 1 {
			fail("%d repetitions hit a format error, the note says one", refused)
		}
	case strings.Contains(l.Note, "edit 264:265"):
		if span[0].Tool != "edit" || !strings.HasPrefix(string(span[0].Args), "edit 264:265") {
			fail("call is %q", span[0].Args)
		}
	case strings.Contains(l.Note, `"edit 90:90 / end_of_edit"`):
		if string(span[0].Args) != "edit 90:90\nend_of_edit\n" {
			fail("call is %q", span[0].Args)
		}
	case strings.Contains(l.Note, `"python reproduce.py"`):
		if string(span[0].Args) != "python reproduce.py\n" || span[0].Result != "2\n" {
			fail("call is %q => %q", span[0].Args, span[0].Result)
		}
	case strings.Contains(l.Note, `grep -n "get_legend_data" scales.py`):
		if !strings.HasPrefix(string(span[0].Args), `grep -n "get_legend_data"`) || !strings.HasSuffix(string(span[0].Args), "scales.py") {
			fail("call is %q", span[0].Args)
		}
	case strings.Contains(l.Note, "find | grep"):
		if !strings.HasPrefix(string(span[0].Args), "find ") || !strings.Contains(string(span[0].Args), "| grep") {
			fail("call is %q", span[0].Args)
		}
	case strings.Contains(l.Note, "view calls"), strings.Contains(l.Note, "view_range"):
		if span[0].Tool != "str_replace_editor" || !strings.Contains(string(span[0].Args), " view ") {
			fail("call is %q", span[0].Args)
		}
	case strings.Contains(l.Note, "grep variants"):
		if span[0].Tool != "grep" {
			fail("call is %q", span[0].Args)
		}
	}
}

// thoughtsBeforeCalls gives, for each call of the agent, the model text just before it.
func thoughtsBeforeCalls(a *Agent) []string {
	var out []string
	last := ""
	for _, e := range a.Events {
		switch e.Type {
		case loopguard.EventText:
			if e.Source == "model" {
				last = e.Text
			}
		case loopguard.EventCall:
			out = append(out, last)
			last = ""
		}
	}
	return out
}

// noteCount reads the repetition count "xN" of a label's note.
func noteCount(note string) int {
	m := regexp.MustCompile(`\bx(\d+)\b`).FindStringSubmatch(note)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestSharedMiniFormatErrors checks, on every real mini-swe-agent file, that the refused
// calls are exactly the harness's format-error reprompts and that the other calls are the
// messages' single commands.
func TestSharedMiniFormatErrors(t *testing.T) {
	dir := sharedDir(t)
	rows := readJSONL[manifestRow](t, filepath.Join(dir, "manifest.jsonl"))
	checked := 0
	for _, r := range rows {
		if expectedFormat(r.Format) != FormatMiniSWEAgent {
			continue
		}
		path := filepath.Join(dir, filepath.FromSlash(r.CuratedFile))
		tr, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		var d struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(gunzip(t, path), &d); err != nil {
			t.Fatal(err)
		}
		calls := tr.Agent("main").Calls()
		k := 0
		for j, m := range d.Messages {
			if m.Role != "assistant" {
				continue
			}
			blocks := miniBlock.FindAllStringSubmatch(m.Content, -1)
			c := calls[k]
			k++
			reprompt := j+1 < len(d.Messages) && strings.HasPrefix(d.Messages[j+1].Content, "Please always provide EXACTLY ONE action")
			if (len(blocks) != 1) != reprompt {
				t.Errorf("%s message %d: %d blocks, reprompt %v", r.CuratedFile, j, len(blocks), reprompt)
			}
			if reprompt && !c.Failed {
				t.Errorf("%s message %d: refused reply not Failed", r.CuratedFile, j)
			}
			if len(blocks) == 1 && string(c.Args) != strings.TrimSpace(blocks[0][1]) {
				t.Errorf("%s message %d: args %q", r.CuratedFile, j, c.Args)
			}
			if len(blocks) == 0 && (c.Tool != noActionTool || len(c.Args) != 0) {
				t.Errorf("%s message %d: a reply without an action is %s %q, not (no action) with no arguments", r.CuratedFile, j, c.Tool, c.Args)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no mini-swe-agent files checked")
	}
}

// TestSharedReadErrorsAreErrors makes sure that the real files, damaged, give errors naming
// the file (and never a panic).
func TestSharedDamaged(t *testing.T) {
	dir := sharedDir(t)
	rows := readJSONL[manifestRow](t, filepath.Join(dir, "manifest.jsonl"))
	seen := map[string]bool{}
	for _, r := range rows {
		f := expectedFormat(r.Format)
		if seen[f] {
			continue
		}
		seen[f] = true
		path := filepath.Join(dir, filepath.FromSlash(r.CuratedFile))
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ReadFrom(r.CuratedFile, strings.NewReader(string(raw[:len(raw)/2])))
		var fe *Error
		if !errors.As(err, &fe) || fe.Path != r.CuratedFile {
			t.Errorf("%s cut in half: error %v, want an *Error naming the file", r.CuratedFile, err)
		}
	}
}
