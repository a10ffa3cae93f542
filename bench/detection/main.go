// Command detection scores loop detectors on hand-labelled transcripts and prints one
// Markdown table: loopguard's presets, replayed through the engine exactly as `loopguard scan`
// replays them (scan.Run), and the peers' published loop rules (internal/peers), turned into
// scan reports (scan.RunRules). Every row is scored by scan.ScoreLabels, the code behind
// `loopguard scan --labels`, so the rows differ only in the detector.
//
//	go run ./bench/detection --labels FILE DIR...
//
// bench/detection.sh runs it on the shared set and on testdata/labels when present;
// BENCHMARKS.md ("Detection quality: peers and presets") keeps its tables.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/peers"
	"github.com/loopguard/loopguard/internal/scan"
)

// defaultPresets are the engine configurations compared: the default (progress-aware)
// detector, the two seed plugins together, then each alone.
const defaultPresets = "default,seeds,repeat-tool-reminder,dsh-brake"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("detection", flag.ContinueOnError)
	fs.SetOutput(stderr)
	labelsPath := fs.String("labels", "", "labels `files`, comma-separated (JSONL: repo, path, agent, call_indices, manual_label); their labels are scored together")
	presets := fs.String("presets", defaultPresets, "comma-separated loopguard `presets` to score")
	workers := fs.Int("j", 0, "files read at once (0: one per CPU)")
	detail := fs.Bool("detail", false, "also print each label's result for each detector")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: detection --labels FILE [--presets LIST] [-j N] DIR|FILE...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *labelsPath == "" || fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	var labels []scan.Label
	for _, path := range strings.Split(*labelsPath, ",") {
		more, err := scan.ReadLabels(path)
		if err != nil {
			fmt.Fprintln(stderr, "detection:", err)
			return 1
		}
		labels = append(labels, more...)
	}
	var names []string
	for _, n := range strings.Split(*presets, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	targets := scan.Collect(fs.Args())
	rows, err := evaluate(targets, labels, names, peers.All(), *workers)
	if err != nil {
		fmt.Fprintln(stderr, "detection:", err)
		return 1
	}
	reportFailures(stderr, rows[0].report)
	writeTable(stdout, rows, len(labels))
	if *detail {
		writeDetail(stdout, rows)
	}
	return 0
}

// row is one detector's result.
type row struct {
	name    string
	report  *scan.Report
	results []scan.LabelResult
	score   scan.Score
}

// evaluate scans the targets with each preset and each peer rule and scores every report
// against the labels.
func evaluate(targets []scan.Target, labels []scan.Label, presets []string, rules []peers.Rule, workers int) ([]row, error) {
	var rows []row
	for _, name := range presets {
		cfg, err := loopguard.Preset(name)
		if err != nil {
			return nil, fmt.Errorf("--presets: %w", err)
		}
		rep, err := scan.Run(targets, scan.Options{Config: cfg, Workers: workers})
		if err != nil {
			return nil, fmt.Errorf("preset %s: %w", name, err)
		}
		rows = append(rows, scoreRow("loopguard "+name, rep, labels))
	}
	sr := make([]scan.Rule, len(rules))
	for i, r := range rules {
		sr[i] = scan.Rule{Name: r.Name, Fire: r.Fire}
	}
	for i, rep := range scan.RunRules(targets, sr, workers) {
		rows = append(rows, scoreRow(rules[i].Name, rep, labels))
	}
	if len(rows) == 0 {
		return nil, errors.New("nothing to score: no presets and no rules")
	}
	return rows, nil
}

func scoreRow(name string, rep *scan.Report, labels []scan.Label) row {
	results, score := scan.ScoreLabels(rep, labels)
	return row{name: name, report: rep, results: results, score: score}
}

// reportFailures names every file that could not be read, so that a smaller table is never
// mistaken for the whole set.
func reportFailures(w io.Writer, r *scan.Report) {
	for _, f := range r.Files {
		if f.Failed() {
			fmt.Fprintf(w, "detection: skipped (unreadable): %v\n", f.Err)
		}
	}
}

func writeTable(w io.Writer, rows []row, nLabels int) {
	t := rows[0].report.Totals
	s := rows[0].score
	fmt.Fprintf(w, "%d transcripts, %d agents, %s tool calls; %d labels: %d loops and %d legitimate spans scored, %d unscored.\n",
		t.Files, t.Agents, thousands(t.Calls), nLabels, s.Loops, s.Legit, s.Unscored)
	fmt.Fprintf(w, "Calls outside the loop labels' catch windows: %s.\n\n", thousands(s.CallsOutside))
	fmt.Fprintln(w, "| rule | loops caught | median lateness | legitimate spans with a notice | notices per 1,000 calls | notices per 1,000 calls outside loops |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range rows {
		s := r.score
		recall := "–"
		if s.Loops > 0 {
			recall = fmt.Sprintf("%d/%d (%.1f%%)", s.Caught, s.Loops, 100*s.Recall)
		}
		late := "–"
		if s.Median >= 0 {
			late = strings.TrimSuffix(fmt.Sprintf("%.1f", s.Median), ".0") + " calls"
			if s.Median == 1 {
				late = "1 call"
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d/%d | %.1f | %.1f |\n",
			r.name, recall, late, s.Alarmed, s.Legit, s.PerKCalls, s.PerKOutside)
	}
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// writeDetail prints one line per label and one column per detector: "+N" for a loop caught N
// calls after it began, "missed", "quiet", "N alarms" for a legitimate span, or the reason a
// label was not scored.
func writeDetail(w io.Writer, rows []row) {
	fmt.Fprintln(w)
	fmt.Fprint(w, "| label | file | agent | calls |")
	for _, r := range rows {
		fmt.Fprintf(w, " %s |", r.name)
	}
	fmt.Fprint(w, "\n|---|---|---|---|")
	fmt.Fprintln(w, strings.Repeat("---|", len(rows)))
	for i, res := range rows[0].results {
		l := res.Label
		fmt.Fprintf(w, "| %s | %s | %s | %d–%d |", l.ManualLabel, path.Base(l.Path), l.Agent, l.First(), l.Last())
		for _, r := range rows {
			res := r.results[i]
			cell := res.Status
			switch res.Status {
			case scan.StatusCaught:
				cell = fmt.Sprintf("+%d", res.Lateness)
			case scan.StatusFalseAlarm:
				cell = fmt.Sprintf("%d alarms", res.Reminders)
				if res.Reminders == 1 {
					cell = "1 alarm"
				}
			}
			fmt.Fprintf(w, " %s |", cell)
		}
		fmt.Fprintln(w)
	}
}
