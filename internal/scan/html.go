package scan

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

//go:embed report.html
var reportHTML string

// reportTemplate is parsed on first use, not at start-up: every loopguard process links this
// package, and a hook process must not pay half a millisecond for a report it never writes.
var reportTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"f1": func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) },
	}).Parse(reportHTML))
})

// Kinds of marks in the report, in legend order, with their colours (a palette that stays
// distinct for colour-blind readers).
var kindColours = []struct{ Kind, Colour string }{
	{"repeat-tool-reminder/repeat", "#e69f00"},
	{"dsh-brake/call", "#d55e00"},
	{"dsh-brake/sequence", "#8060d0"},
	{"dsh-brake/text", "#009e8f"},
	{"dsh-brake/deny", "#333333"},
}

func kindOf(plugin, kind string) string { return plugin + "/" + kind }

type htmlCard struct{ Value, Label, Note string }

type htmlBar struct {
	Label, Title, Href, Colour, Value string
	Y, W, VX                          float64 // in the chart's viewBox: top, bar length, value's x
}

type htmlChart struct {
	Title, Empty string
	Height       float64
	Bars         []htmlBar
}

type htmlLoop struct {
	Loop
	AgentName, KindName, Colour, Span string
}

type htmlSession struct {
	ID, Path, Short, Facts, Waste string
	Index                         int
	Loops                         []htmlLoop
}

type htmlFileRow struct {
	Path, Short, Format, Err string
	Agents, Calls, Notices   int
}

type htmlLabelRow struct {
	Label, File, Path, Agent, Span, Outcome, Class, Note string
}

type htmlLabels struct {
	File                                string
	Rows                                []htmlLabelRow
	Recall, Lateness, FalseAlarms, PerK string
	Unscored                            int
}

type htmlLegend struct{ Kind, Colour string }

type htmlData struct {
	Meta      Meta
	Title     string
	Cards     []htmlCard
	ChartCols [][]htmlChart
	Legend    []htmlLegend
	Sessions  []htmlSession
	Quiet     []htmlFileRow
	Failed    []htmlFileRow
	Labels    *htmlLabels
	Data      tlData
}

// tlData is what the page's script draws the timelines from, kept compact: the whole shared
// set is a few tens of kilobytes.
type tlData struct {
	Kinds    []string    `json:"kinds"`
	Colours  []string    `json:"colours"`
	Sessions []tlSession `json:"sessions"`
}

type tlSession struct {
	ID      string     `json:"id"`
	Tools   []string   `json:"tools"`
	Agents  []tlAgent  `json:"agents"`
	Loops   []tlLoop   `json:"loops"`
	Notices []tlNotice `json:"notices"`
}

type tlAgent struct {
	ID    string `json:"id"`
	Tools []int  `json:"t"` // per call, an index into the session's tools
	State string `json:"s"` // per call: 0 ran, 1 failed, 2 refused
}

type tlLoop struct {
	Agent   int    `json:"a"`
	Start   int    `json:"s"`
	End     int    `json:"e"`
	First   int    `json:"f"`
	Kind    int    `json:"k"`
	Tool    string `json:"t"`
	Notices int    `json:"n"`
	Wasted  int    `json:"w"`
}

type tlNotice struct {
	Agent   int    `json:"a"`
	Call    int    `json:"c"`
	Kind    int    `json:"k"`
	Summary string `json:"s"`
	Event   string `json:"e"`
}

// WriteHTML writes the report as one self-contained HTML page (inline CSS, script and SVG;
// nothing is fetched): totals, charts, the label scores when given, and a timeline of every
// session with loops.
func WriteHTML(w io.Writer, r *Report, meta Meta, sc *Scored) error {
	d := buildHTML(r, meta, sc)
	bw := bufio.NewWriter(w)
	if err := reportTemplate().Execute(bw, d); err != nil {
		return err
	}
	return bw.Flush()
}

func buildHTML(r *Report, meta Meta, sc *Scored) *htmlData {
	t := &r.Totals
	d := &htmlData{Meta: meta}
	prefix := commonDir(r.Files)
	short := func(p string) string {
		s := strings.TrimPrefix(filepath.ToSlash(p), prefix)
		if s == "" {
			return filepath.Base(p)
		}
		return s
	}
	d.Title = plural(t.Files, "file", "files")
	if prefix != "" {
		d.Title += " in " + strings.TrimSuffix(prefix, "/")
	}

	kindIndex := map[string]int{}
	for _, k := range kindColours {
		kindIndex[k.Kind] = len(d.Data.Kinds)
		d.Data.Kinds = append(d.Data.Kinds, k.Kind)
		d.Data.Colours = append(d.Data.Colours, k.Colour)
	}
	kindID := func(plugin, kind string) int {
		name := kindOf(plugin, kind)
		if i, ok := kindIndex[name]; ok {
			return i
		}
		kindIndex[name] = len(d.Data.Kinds)
		d.Data.Kinds = append(d.Data.Kinds, name)
		d.Data.Colours = append(d.Data.Colours, "#777777")
		return kindIndex[name]
	}

	noticesByKind := map[string]int{}
	type wasteRow struct {
		f  *File
		id string
	}
	var waste []wasteRow
	for i, f := range r.Files {
		switch {
		case f.NotTranscript:
			continue
		case f.Err != nil:
			d.Failed = append(d.Failed, htmlFileRow{Path: f.Path, Short: short(f.Path), Err: f.Err.Error()})
			continue
		}
		for _, n := range f.Notices {
			noticesByKind[kindOf(n.Plugin, n.Kind)]++
		}
		if len(f.Loops) == 0 {
			d.Quiet = append(d.Quiet, htmlFileRow{Path: f.Path, Short: short(f.Path), Format: f.Format,
				Agents: len(f.Agents), Calls: f.Calls, Notices: len(f.Notices) - f.Denials})
			continue
		}
		s := htmlSession{ID: "s" + strconv.Itoa(i), Path: f.Path, Short: short(f.Path), Facts: fileFacts(f), Index: len(d.Sessions)}
		s.Waste = fmt.Sprintf("wasted %s of %s", plural(f.Wasted, "call", "calls"), commas(int64(f.Calls))) + fileWasteCost(f)
		ts := tlSession{ID: s.ID, Tools: []string{}, Loops: []tlLoop{}, Notices: []tlNotice{}}
		toolIndex := map[string]int{}
		agentIndex := map[agentKey]int{}
		for _, a := range f.Agents {
			if a.Calls() == 0 && a.Notices == 0 {
				continue
			}
			agentIndex[agentKey{a.Session, a.ID}] = len(ts.Agents)
			ta := tlAgent{ID: agentName(f, a.Session, a.ID), Tools: make([]int, len(a.Marks))}
			state := make([]byte, len(a.Marks))
			for j, m := range a.Marks {
				k, ok := toolIndex[m.Tool]
				if !ok {
					k = len(ts.Tools)
					toolIndex[m.Tool] = k
					ts.Tools = append(ts.Tools, m.Tool)
				}
				ta.Tools[j] = k
				switch {
				case m.Denied:
					state[j] = '2'
				case m.Failed:
					state[j] = '1'
				default:
					state[j] = '0'
				}
			}
			ta.State = string(state)
			ts.Agents = append(ts.Agents, ta)
		}
		for _, l := range f.Loops {
			k := kindID(l.Plugin, l.Kind)
			ts.Loops = append(ts.Loops, tlLoop{Agent: agentIndex[agentKey{l.Session, l.Agent}], Start: l.Start, End: l.End, First: l.FirstNotice,
				Kind: k, Tool: l.Tool, Notices: l.Notices, Wasted: l.Wasted})
			s.Loops = append(s.Loops, htmlLoop{Loop: l, AgentName: agentName(f, l.Session, l.Agent), KindName: kindOf(l.Plugin, l.Kind), Colour: d.Data.Colours[k], Span: span(l.Start, l.End)})
		}
		for _, n := range f.Notices {
			ts.Notices = append(ts.Notices, tlNotice{Agent: agentIndex[agentKey{n.Session, n.Agent}], Call: n.CallIndex, Kind: kindID(n.Plugin, n.Kind),
				Summary: n.Summary, Event: n.Event})
		}
		d.Sessions = append(d.Sessions, s)
		d.Data.Sessions = append(d.Data.Sessions, ts)
		if f.Wasted > 0 {
			waste = append(waste, wasteRow{f, s.ID})
		}
	}
	for i, k := range d.Data.Kinds {
		if noticesByKind[k] > 0 || i < 4 {
			d.Legend = append(d.Legend, htmlLegend{k, d.Data.Colours[i]})
		}
	}

	pct := func(a, b int) string {
		if b == 0 {
			return ""
		}
		return strconv.FormatFloat(100*float64(a)/float64(b), 'f', 1, 64) + "% of calls"
	}
	d.Cards = []htmlCard{
		{commas(int64(t.Files)), "files scanned", failedNote(t)},
		{commas(int64(t.Agents)), "agents", ""},
		{commas(int64(t.Calls)), "tool calls", ""},
		{commas(int64(t.Notices)), "notices", perK(t.Notices, t.Calls)},
		{commas(int64(t.Loops)), "loops", fmt.Sprintf("%s in %s", plural(t.Runs, "run", "runs"), plural(t.FilesLoops, "file", "files"))},
		{commas(int64(t.Wasted)), "wasted calls", pct(t.Wasted, t.Calls)},
	}
	if t.CostUSD > 0 {
		d.Cards = append(d.Cards, htmlCard{"≈ " + dollars(t.WastedCostUSD), "wasted cost (estimate)", "of " + dollars(t.CostUSD) + " recorded"})
	} else if t.Tokens > 0 {
		d.Cards = append(d.Cards, htmlCard{"≈ " + shortNum(t.WastedTokens), "wasted tokens (estimate)", "of " + shortNum(float64(t.Tokens))})
	}
	if t.Denials > 0 {
		d.Cards = append(d.Cards, htmlCard{commas(int64(t.Denials)), "calls refused", "deny mode"})
	}

	// Chart: notices by plugin and kind.
	kinds := htmlChart{Title: "Notices by plugin and kind", Empty: "no notices"}
	maxN := 0
	for _, k := range d.Data.Kinds {
		maxN = max(maxN, noticesByKind[k])
	}
	for i, k := range d.Data.Kinds {
		n := noticesByKind[k]
		if n == 0 {
			continue
		}
		kinds.Bars = append(kinds.Bars, htmlBar{Label: k, Title: fmt.Sprintf("%s: %s", k, plural(n, "notice", "notices")),
			Colour: d.Data.Colours[i], Value: commas(int64(n)), W: barWidth(n, maxN)})
	}
	// Chart: wasted calls by file, the most first.
	slices.SortStableFunc(waste, func(a, b wasteRow) int { return b.f.Wasted - a.f.Wasted })
	const topFiles = 15
	wc := htmlChart{Title: "Wasted calls by file", Empty: "no wasted calls"}
	if len(waste) > topFiles {
		wc.Title = fmt.Sprintf("Wasted calls by file (top %d of %d)", topFiles, len(waste))
		waste = waste[:topFiles]
	}
	for _, w := range waste {
		name := strings.TrimSuffix(filepath.Base(w.f.Path), ".gz")
		wc.Bars = append(wc.Bars, htmlBar{Label: cut(name, 34), Title: fmt.Sprintf("%s: %s of %s", short(w.f.Path), plural(w.f.Wasted, "wasted call", "wasted calls"), commas(int64(w.f.Calls))),
			Href: "#" + w.id, Colour: "#d55e00", Value: commas(int64(w.f.Wasted)), W: barWidth(w.f.Wasted, waste[0].f.Wasted)})
	}
	// Chart: notices per 1,000 calls by transcript format.
	byFormat := map[string][2]int{} // calls, notices
	var formats []string
	for _, f := range r.Files {
		if !f.Scanned() {
			continue
		}
		v, ok := byFormat[f.Format]
		if !ok {
			formats = append(formats, f.Format)
		}
		byFormat[f.Format] = [2]int{v[0] + f.Calls, v[1] + len(f.Notices) - f.Denials}
	}
	slices.Sort(formats)
	rate := htmlChart{Title: "Notices per 1,000 calls, by transcript format", Empty: "no calls"}
	maxRate := 0.0
	rates := map[string]float64{}
	for _, fm := range formats {
		if v := byFormat[fm]; v[0] > 0 {
			rates[fm] = 1000 * float64(v[1]) / float64(v[0])
			maxRate = max(maxRate, rates[fm])
		}
	}
	for _, fm := range formats {
		v := byFormat[fm]
		if v[0] == 0 {
			continue
		}
		w := 1.0
		if maxRate > 0 {
			w = max(1, chartBarMax*rates[fm]/maxRate)
		}
		rate.Bars = append(rate.Bars, htmlBar{Label: fmt.Sprintf("%s (%s calls)", fm, commas(int64(v[0]))),
			Title:  fmt.Sprintf("%s: %s in %s calls", fm, plural(v[1], "notice", "notices"), commas(int64(v[0]))),
			Colour: "#56708f", Value: strconv.FormatFloat(rates[fm], 'f', 1, 64), W: w})
	}
	for _, c := range []*htmlChart{&kinds, &rate, &wc} {
		for i := range c.Bars {
			c.Bars[i].Y = float64(i) * chartRow
			c.Bars[i].VX = chartLabelW + c.Bars[i].W + 6
		}
		c.Height = float64(max(len(c.Bars), 1)) * chartRow
	}
	d.ChartCols = [][]htmlChart{{kinds, rate}, {wc}}

	if sc != nil {
		hl := &htmlLabels{File: meta.Labels, Unscored: sc.Score.Unscored}
		s := &sc.Score
		hl.Recall = fmt.Sprintf("%d / %d", s.Caught, s.Loops)
		if s.Loops > 0 {
			hl.Recall += fmt.Sprintf(" = %.1f%%", 100*s.Recall)
		}
		hl.Lateness = "–"
		if s.Median >= 0 {
			hl.Lateness = strconv.FormatFloat(s.Median, 'f', -1, 64) + " calls"
		}
		hl.FalseAlarms = fmt.Sprintf("%s in %d of %d spans", plural(s.FalseAlarm, "reminder", "reminders"), s.Alarmed, s.Legit)
		hl.PerK = strconv.FormatFloat(s.PerKCalls, 'f', 1, 64)
		for _, res := range sc.Results {
			class := "neutral"
			switch res.Status {
			case StatusCaught, StatusQuiet:
				class = "good"
			case StatusMissed, StatusFalseAlarm:
				class = "bad"
			}
			hl.Rows = append(hl.Rows, htmlLabelRow{Label: res.Label.ManualLabel, File: strings.TrimSuffix(filepath.Base(res.Label.Path), ".gz"), Path: res.Label.Path,
				Agent: res.Label.AgentName(), Span: span(res.Label.First(), res.Label.Last()), Outcome: labelOutcome(&res), Class: class, Note: res.Label.Note})
		}
		d.Labels = hl
	}
	return d
}

func failedNote(t *Totals) string {
	if t.Failed > 0 {
		return plural(t.Failed, "file", "files") + " unreadable"
	}
	return ""
}

func perK(n, calls int) string {
	if calls == 0 {
		return ""
	}
	return strconv.FormatFloat(1000*float64(n)/float64(calls), 'f', 1, 64) + " per 1,000 calls"
}

// Chart geometry, in the charts' viewBox (600 wide): a column of labels, then the bars.
const (
	chartLabelW = 230.0
	chartBarMax = 310.0
	chartRow    = 24.0
)

// barWidth is a bar's length, at least a sliver for any value.
func barWidth(v, maxV int) float64 {
	if maxV <= 0 {
		return 0
	}
	return max(1, chartBarMax*float64(v)/float64(maxV))
}

// commonDir returns the longest folder prefix (ending in "/") shared by every file's path.
func commonDir(files []*File) string {
	prefix := ""
	for i, f := range files {
		dir := filepath.ToSlash(filepath.Dir(f.Path)) + "/"
		if i == 0 {
			prefix = dir
			continue
		}
		for !strings.HasPrefix(dir, prefix) {
			j := strings.LastIndex(strings.TrimSuffix(prefix, "/"), "/")
			if j < 0 {
				return ""
			}
			prefix = prefix[:j+1]
		}
	}
	if prefix == "./" {
		return ""
	}
	return prefix
}
