package scan

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Meta describes the run, for the reports' headers.
type Meta struct {
	Version string // loopguard's version
	Config  string // where the configuration came from: "--preset default", a file
	Labels  string // the labels file, when scored
}

// Scored is a label scoring, for the reports.
type Scored struct {
	Results []LabelResult
	Score   Score
}

// FileRecord is the JSONL line that opens each file's lines: what was read, so that a file
// read as holding nothing is never a silent zero. Field order is the order of the output.
type FileRecord struct {
	Type     string   `json:"type"` // "file"
	File     string   `json:"file"`
	Format   string   `json:"format,omitempty"`
	Sessions int      `json:"sessions"`
	Agents   int      `json:"agents"`
	Calls    int      `json:"calls"`
	Notices  int      `json:"notices"`
	Error    string   `json:"error,omitempty"`
	Skipped  bool     `json:"not_transcript,omitempty"`
	Parts    []string `json:"parts,omitempty"`
	Note     string   `json:"note,omitempty"`
	Damaged  []string `json:"damaged_lines,omitempty"` // lines passed over, "path:LINE: problem"
}

// Record returns the file's FileRecord.
func (f *File) Record() FileRecord {
	r := FileRecord{Type: "file", File: f.Path, Format: f.Format, Sessions: f.Sessions, Agents: len(f.Agents),
		Calls: f.Calls, Notices: len(f.Notices) - f.Denials, Skipped: f.NotTranscript, Parts: f.Parts, Note: f.Note,
		Damaged: f.Damaged}
	if f.Err != nil {
		r.Error = f.Err.Error()
	}
	return r
}

// Empty says the file was read but holds no tool call: nothing in it could have looped.
func (f *File) Empty() bool { return f.Scanned() && f.Calls == 0 }

// agentName names an agent in reports: its id, preceded by its session in files of many.
func agentName(f *File, session int, id string) string {
	if f.Sessions > 1 {
		return "session " + strconv.Itoa(session) + " " + id
	}
	return id
}

// WriteJSONL writes, file by file in path order, a "file" line (FileRecord), then one line
// per notice (and denial), each agent's in replay order.
func WriteJSONL(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, f := range r.Files {
		rec := f.Record()
		if err := enc.Encode(&rec); err != nil {
			return err
		}
		for i := range f.Notices {
			if err := enc.Encode(&f.Notices[i]); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// WriteEvents writes the events of every file, file by file in the report's order, as lines of
// the event format (docs/events.md): what the scan read and replayed, for a person to check
// and for `loopguard replay` to replay, which gives the same notices. The report must come
// from a scan with Options.Events. Each agent's id is the one the scan replayed it under
// ("path#agent", "path#session#agent"), and its events end with an "end".
func WriteEvents(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	for _, f := range r.Files {
		if _, err := bw.Write(f.Events); err != nil {
			return err
		}
	}
	return bw.Flush()
}

type jsonUsage struct {
	InputTokens      int64   `json:"input_tokens"`
	OutputTokens     int64   `json:"output_tokens"`
	CacheReadTokens  int64   `json:"cache_read_tokens"`
	CacheWriteTokens int64   `json:"cache_write_tokens"`
	CostUSD          float64 `json:"cost_usd"`
	Model            string  `json:"model,omitempty"`
}

type jsonAgent struct {
	ID      string `json:"id"`
	Session int    `json:"session_index"`
	Calls   int    `json:"calls"`
	Notices int    `json:"notices"`
	Wasted  int    `json:"wasted_calls"`
}

type jsonFile struct {
	Path          string      `json:"path"`
	Format        string      `json:"format,omitempty"`
	Error         string      `json:"error,omitempty"`
	NotTranscript bool        `json:"not_transcript,omitempty"`
	Note          string      `json:"note,omitempty"`
	Damaged       []string    `json:"damaged_lines,omitempty"`
	Parts         []string    `json:"parts,omitempty"`
	Sessions      int         `json:"sessions"`
	Agents        []jsonAgent `json:"agents"`
	Calls         int         `json:"calls"`
	Notices       int         `json:"notices"`
	Denials       int         `json:"denials"`
	Loops         []Loop      `json:"loops"`
	Wasted        int         `json:"wasted_calls"`
	Usage         *jsonUsage  `json:"usage,omitempty"`
	WastedTokens  float64     `json:"wasted_tokens_estimate"`
	WastedCostUSD float64     `json:"wasted_cost_usd_estimate"`
}

type jsonLabels struct {
	File    string        `json:"file"`
	Results []LabelResult `json:"results"`
	Score   Score         `json:"score"`
}

type jsonDoc struct {
	Version string      `json:"loopguard"`
	Config  string      `json:"config"`
	Files   []jsonFile  `json:"files"`
	Notices []Notice    `json:"notices"`
	Totals  Totals      `json:"totals"`
	Labels  *jsonLabels `json:"labels,omitempty"`
}

// WriteJSON writes the whole report as one JSON document: files (with their loops), the flat
// list of notices (the objects of WriteJSONL), totals, and the label scores when given.
func WriteJSON(w io.Writer, r *Report, meta Meta, sc *Scored) error {
	doc := jsonDoc{Version: meta.Version, Config: meta.Config, Files: []jsonFile{}, Notices: []Notice{}, Totals: r.Totals}
	for _, f := range r.Files {
		jf := jsonFile{Path: f.Path, Format: f.Format, NotTranscript: f.NotTranscript, Note: f.Note, Damaged: f.Damaged, Parts: f.Parts,
			Sessions: f.Sessions, Agents: []jsonAgent{}, Loops: f.Loops,
			Calls: f.Calls, Notices: len(f.Notices) - f.Denials, Denials: f.Denials, Wasted: f.Wasted,
			WastedTokens: round(f.WastedTokens(), 1), WastedCostUSD: round(f.WastedCostUSD(), 6)}
		if f.Err != nil {
			jf.Error = f.Err.Error()
		}
		if jf.Loops == nil {
			jf.Loops = []Loop{}
		}
		for _, a := range f.Agents {
			jf.Agents = append(jf.Agents, jsonAgent{ID: a.ID, Session: a.Session, Calls: a.Calls(), Notices: a.Notices, Wasted: a.Wasted})
		}
		if u := f.Usage; Tokens(u) > 0 || u.CostUSD > 0 {
			jf.Usage = &jsonUsage{u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens, round(u.CostUSD, 6), u.Model}
		}
		doc.Files = append(doc.Files, jf)
		doc.Notices = append(doc.Notices, f.Notices...)
	}
	doc.Totals.WastedTokens = round(doc.Totals.WastedTokens, 1)
	doc.Totals.WastedCostUSD = round(doc.Totals.WastedCostUSD, 6)
	doc.Totals.CostUSD = round(doc.Totals.CostUSD, 6)
	if sc != nil {
		doc.Labels = &jsonLabels{File: meta.Labels, Results: sc.Results, Score: sc.Score}
		doc.Labels.Score.Recall = round(doc.Labels.Score.Recall, 4)
		doc.Labels.Score.PerKCalls = round(doc.Labels.Score.PerKCalls, 3)
		doc.Labels.Score.PerKOutside = round(doc.Labels.Score.PerKOutside, 3)
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&doc); err != nil {
		return err
	}
	return bw.Flush()
}

func round(x float64, digits int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', digits, 64), 64)
	return v
}

// WriteText writes the terminal summary: each file with loops and its loops, then totals,
// then the label scores when given.
func WriteText(w io.Writer, r *Report, meta Meta, sc *Scored) error {
	bw := bufio.NewWriter(w)
	t := &r.Totals
	for _, f := range r.Files {
		if !f.Scanned() || len(f.Loops) == 0 {
			continue
		}
		fmt.Fprintf(bw, "%s\n  %s\n", f.Path, fileFacts(f))
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		for _, l := range f.Loops {
			fmt.Fprintf(tw, "  %s\t%s/%s\t%s\tcalls %s (%d)\tfirst notice at %d\t%s\twasted %s\n",
				agentName(f, l.Session, l.Agent), l.Plugin, l.Kind, cut(l.Tool, 40), span(l.Start, l.End), l.Calls, l.FirstNotice,
				plural(l.Notices, "notice", "notices"), plural(l.Wasted, "call", "calls"))
		}
		tw.Flush()
		fmt.Fprintf(bw, "  wasted: %s of %s%s\n\n", plural(f.Wasted, "call", "calls"), commas(int64(f.Calls)), fileWasteCost(f))
	}

	// A file read as holding nothing is named: a scan that read nothing must not look clean.
	empty := 0
	for _, f := range r.Files {
		if f.Empty() {
			fmt.Fprintf(bw, "%s\n  read as %s: no tool calls\n", f.Path, f.Format)
			empty++
		}
	}
	if empty > 0 {
		fmt.Fprintln(bw)
	}
	fmt.Fprintf(bw, "scanned %s with %s", plural(t.Files, "file", "files"), meta.Config)
	if empty > 0 {
		fmt.Fprintf(bw, "; %s read with no tool calls (listed above)", plural(empty, "file", "files"))
	}
	if t.Failed > 0 {
		fmt.Fprintf(bw, "; %s could not be read (listed on stderr)", plural(t.Failed, "file", "files"))
	}
	if t.NotTranscript > 0 {
		fmt.Fprintf(bw, "; %s skipped, not transcripts", plural(t.NotTranscript, "file", "files"))
	}
	if n := len(r.PassedOver); n > 0 {
		fmt.Fprintf(bw, "; %s of other kinds in the folders passed over (--verbose names them)", plural(n, "file", "files"))
	}
	fmt.Fprintln(bw)
	fmt.Fprintf(bw, "  agents  %s\n", commas(int64(t.Agents)))
	fmt.Fprintf(bw, "  calls   %s\n", commas(int64(t.Calls)))
	fmt.Fprintf(bw, "  notices %s", commas(int64(t.Notices)))
	if t.Calls > 0 {
		fmt.Fprintf(bw, " (%.1f per 1,000 calls)", 1000*float64(t.Notices)/float64(t.Calls))
	}
	if t.Denials > 0 {
		fmt.Fprintf(bw, ", %s refused", plural(t.Denials, "call", "calls"))
	}
	fmt.Fprintln(bw)
	fmt.Fprintf(bw, "  loops   %s in %s (%s once overlapping loops are merged)\n", commas(int64(t.Loops)),
		plural(t.FilesLoops, "file", "files"), plural(t.Runs, "run of calls", "runs of calls"))
	fmt.Fprintf(bw, "  wasted  %s", plural(t.Wasted, "call", "calls"))
	if t.Calls > 0 {
		fmt.Fprintf(bw, " (%.1f%% of all calls)", 100*float64(t.Wasted)/float64(t.Calls))
	}
	fmt.Fprintln(bw)
	if t.CostUSD > 0 || t.Tokens > 0 {
		fmt.Fprintf(bw, "  wasted cost ≈ %s of %s recorded, ≈ %s of %s tokens (estimate: per file, its cost × wasted calls / calls)\n",
			dollars(t.WastedCostUSD), dollars(t.CostUSD), shortNum(t.WastedTokens), shortNum(float64(t.Tokens)))
	}
	if sc != nil {
		writeLabelsText(bw, meta, sc)
	}
	return bw.Flush()
}

func writeLabelsText(bw *bufio.Writer, meta Meta, sc *Scored) {
	fmt.Fprintf(bw, "\nlabels from %s: %s\n", meta.Labels, plural(len(sc.Results), "row", "rows"))
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  LABEL\tFILE\tAGENT\tCALLS\tRESULT\n")
	for _, res := range sc.Results {
		l := &res.Label
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", l.ManualLabel, filepath.Base(strings.TrimSuffix(l.Path, ".gz")), l.AgentName(), span(l.First(), l.Last()), labelOutcome(&res))
	}
	tw.Flush()
	s := &sc.Score
	fmt.Fprintf(bw, "recall          %d/%d", s.Caught, s.Loops)
	if s.Loops > 0 {
		fmt.Fprintf(bw, " = %.1f%%", 100*s.Recall)
	}
	fmt.Fprintf(bw, " (%s; caught = a notice within [first, last+%d])\n", strings.Join(LoopLabels, ", "), CatchAfter)
	if s.Median >= 0 {
		fmt.Fprintf(bw, "median lateness %s calls (from the loop's first call to the first notice)\n", strconv.FormatFloat(s.Median, 'f', -1, 64))
	} else {
		fmt.Fprintf(bw, "median lateness none (nothing caught)\n")
	}
	fmt.Fprintf(bw, "false alarms    %s in %d of %d legitimate spans (%s)\n", plural(s.FalseAlarm, "reminder", "reminders"), s.Alarmed, s.Legit, strings.Join(LegitLabels, ", "))
	fmt.Fprintf(bw, "notice rate     %.1f per 1,000 calls (%s in %s calls)\n", s.PerKCalls, plural(s.Notices, "notice", "notices"), commas(int64(s.Calls)))
	fmt.Fprintf(bw, "outside loops   %.1f per 1,000 calls (%s in the %s calls no loop label covers)\n", s.PerKOutside, plural(s.NoticesOutside, "notice", "notices"), commas(int64(s.CallsOutside)))
	if s.Unscored > 0 {
		fmt.Fprintf(bw, "not scored      %s (no matching file or agent, or not a scored label)\n", plural(s.Unscored, "label", "labels"))
	}
}

func labelOutcome(res *LabelResult) string {
	switch res.Status {
	case StatusCaught:
		return fmt.Sprintf("caught at call %d (%s late)", res.FirstNotice, plural(res.Lateness, "call", "calls"))
	case StatusFalseAlarm:
		return fmt.Sprintf("false alarm: %s", plural(res.Reminders, "reminder", "reminders"))
	case StatusQuiet:
		return "quiet (no reminder)"
	}
	return res.Status
}

func fileFacts(f *File) string {
	parts := []string{f.Format, plural(len(f.Agents), "agent", "agents"), plural(f.Calls, "call", "calls"),
		plural(len(f.Notices)-f.Denials, "notice", "notices")}
	if f.Denials > 0 {
		parts = append(parts, plural(f.Denials, "call", "calls")+" refused")
	}
	if tok := Tokens(f.Usage); tok > 0 {
		parts = append(parts, shortNum(float64(tok))+" tokens")
	}
	if f.Usage.CostUSD > 0 {
		parts = append(parts, dollars(f.Usage.CostUSD))
	}
	return strings.Join(parts, " · ")
}

func fileWasteCost(f *File) string {
	var parts []string
	if f.Usage.CostUSD > 0 {
		parts = append(parts, "≈ "+dollars(f.WastedCostUSD()))
	}
	if Tokens(f.Usage) > 0 {
		parts = append(parts, "≈ "+shortNum(f.WastedTokens())+" tokens")
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ") + " (estimate)"
}

func span(a, b int) string {
	if a == b {
		return strconv.Itoa(a)
	}
	return strconv.Itoa(a) + "–" + strconv.Itoa(b)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return commas(int64(n)) + " " + many
}

// commas writes an integer with thousands separators.
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func dollars(x float64) string {
	if x < 0.01 && x > 0 {
		return "$" + strconv.FormatFloat(x, 'f', 4, 64)
	}
	return "$" + commasFloat(x)
}

func commasFloat(x float64) string {
	whole := int64(x)
	cents := int64((x-float64(whole))*100 + 0.5)
	if cents == 100 {
		whole, cents = whole+1, 0
	}
	return fmt.Sprintf("%s.%02d", commas(whole), cents)
}

// shortNum writes a count with k/M suffixes: 950, 12.3k, 4.56M.
func shortNum(x float64) string {
	switch {
	case x >= 1e9:
		return strconv.FormatFloat(x/1e9, 'f', 2, 64) + "G"
	case x >= 1e6:
		return strconv.FormatFloat(x/1e6, 'f', 2, 64) + "M"
	case x >= 1e4:
		return strconv.FormatFloat(x/1e3, 'f', 1, 64) + "k"
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}

func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
