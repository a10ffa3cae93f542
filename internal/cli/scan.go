package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/scan"
	"github.com/loopguard/loopguard/internal/transcript"
	"golang.org/x/term"
)

func init() {
	register(command{name: "scan", summary: "replay agent transcripts (files, folders, or this machine's) and report the loops the guard would have caught", run: runScan})
}

func runScan(env *Env, args []string) int {
	fs := newFlags(env, "scan", "scan [--preset NAME | --config FILE] [--format text|json|jsonl|events] [--html FILE] [--labels FILE]... [PATH...]",
		`  loopguard scan                                  # the transcripts of the agents on this machine
  loopguard scan ~/.claude/projects --html report.html
  loopguard scan --preset dsh-brake --format jsonl runs/ > notices.jsonl
  loopguard scan --labels labels.jsonl ../shared/data/trajectories
  loopguard scan --labels labels.jsonl --labels more.jsonl runs/   # the labels of both files
  loopguard scan --format events run.jsonl | loopguard replay      # what was read, replayed

PATHs are transcript files or folders (walked for *.jsonl, *.json, *.traj, *.md, *.txt, *.log, *.out, *.eval, *.af,
optionally .gz). Without PATH: where the agents on this machine keep their transcripts (docs/scan.md).
Exit status: 0, or 1 when a file could not be read (it is reported and skipped) or, with
--strict, was read with no tool calls; 2 for bad flags, configuration or labels. The output
is described in docs/scan.md.
`)
	choice := configFlags(fs)
	format := fs.String("format", "text", "output `FORMAT`: text (a summary), json (one document), jsonl (one line per notice) or events (the events read, in the event format replay reads)")
	htmlOut := fs.String("html", "", "also write a self-contained HTML report to `FILE`")
	var labelFiles fileList
	fs.Var(&labelFiles, "labels", "score the notices against hand labels in `FILE` (JSONL, as the shared set's labels.jsonl); repeat to add the labels of several files")
	jobs := fs.Int("jobs", 0, "files scanned at once (`N`; default GOMAXPROCS)")
	strict := fs.Bool("strict", false, "treat a file read with no tool calls as an error (exit status 1)")
	verbose := fs.Bool("verbose", false, "say on stderr how each file was read (format, sessions, agents, calls, choices made)")
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if *format != "text" && *format != "json" && *format != "jsonl" && *format != "events" {
		fmt.Fprintf(env.Stderr, "loopguard scan: unknown --format %q (text, json, jsonl or events)\n", *format)
		return exitUsage
	}
	if *jobs < 0 {
		fmt.Fprintf(env.Stderr, "loopguard scan: --jobs must be >= 0\n")
		return exitUsage
	}
	r, ok := resolveConfig(env, choice)
	if !ok {
		return exitUsage
	}
	if err := r.Config.Validate(); err != nil {
		fmt.Fprintf(env.Stderr, "loopguard scan: %v\n", err)
		return exitUsage
	}
	var labels []scan.Label
	for _, f := range labelFiles {
		more, err := scan.ReadLabels(f)
		if err != nil {
			fmt.Fprintf(env.Stderr, "loopguard scan: labels: %v\n", err)
			return exitUsage
		}
		labels = append(labels, more...)
	}

	if len(paths) == 0 {
		found, looked := scan.DefaultLocations(env.Getenv)
		if len(found) == 0 {
			msg := "loopguard scan: no agent transcripts found on this machine (looked in " + strings.Join(looked, ", ") +
				"); give files or folders to scan\n"
			if *format == "text" {
				fmt.Fprint(env.Stdout, msg)
			} else {
				fmt.Fprint(env.Stderr, msg)
			}
			return exitOK
		}
		paths = found
	}

	defer tuneGC(env.Getenv)()
	targets, mirrors := scan.CollectMirrors(paths)
	bar := newProgress(env.Stderr, len(targets))
	rep, err := scan.Run(targets, scan.Options{Config: r.Config, Workers: *jobs, Done: bar.done, Outcomes: *htmlOut != "", Events: *format == "events"})
	bar.stop()
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard scan: %v\n", err)
		return exitUsage
	}
	status := exitOK
	for _, f := range rep.Files {
		switch {
		case f.NotTranscript:
			fmt.Fprintf(env.Stderr, "loopguard scan: skipped %s: not a transcript%s\n", f.Path, whyNotTranscript(f.Err))
		case f.Err != nil:
			fmt.Fprintf(env.Stderr, "loopguard scan: %v (skipped)\n", f.Err)
			status = exitFail
		case f.Empty() && *strict:
			fmt.Fprintf(env.Stderr, "loopguard scan: %s: read as %s: no tool calls (--strict)\n", f.Path, f.Format)
			status = exitFail
		}
		for _, d := range f.Damaged {
			fmt.Fprintf(env.Stderr, "loopguard scan: %s (passed over, the rest of the file read)\n", d)
		}
		if *verbose && f.Scanned() {
			fmt.Fprintf(env.Stderr, "loopguard scan: %s\n", describeFile(f))
		}
	}

	if *verbose {
		for _, p := range rep.PassedOver {
			fmt.Fprintf(env.Stderr, "loopguard scan: %s: passed over, not a transcript (a folder's file of another kind)\n", p)
		}
		for _, m := range mirrors {
			fmt.Fprintf(env.Stderr, "loopguard scan: %s: passed over, %s: %s is read\n", m.Path, m.Why, m.Of)
		}
	}

	meta := scan.Meta{Version: loopguard.Version, Config: r.Source, Labels: strings.Join(labelFiles, ", ")}
	var scored *scan.Scored
	if len(labelFiles) > 0 {
		res, score := scan.ScoreLabels(rep, labels)
		scored = &scan.Scored{Results: res, Score: score}
	}
	switch *format {
	case "text":
		err = scan.WriteText(env.Stdout, rep, meta, scored)
	case "json":
		err = scan.WriteJSON(env.Stdout, rep, meta, scored)
	case "jsonl", "events":
		if *format == "jsonl" {
			err = scan.WriteJSONL(env.Stdout, rep)
		} else {
			err = scan.WriteEvents(env.Stdout, rep)
		}
		if err == nil && scored != nil {
			// The scores are not notices: on stderr, so that stdout stays one notice per line.
			err = scan.WriteText(env.Stderr, &scan.Report{Totals: rep.Totals}, meta, scored)
		}
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "loopguard scan: writing the report: %v\n", err)
		return exitFail
	}
	if *htmlOut != "" {
		if err := writeHTMLFile(*htmlOut, rep, meta, scored); err != nil {
			fmt.Fprintf(env.Stderr, "loopguard scan: %v\n", err)
			return exitFail
		}
	}
	return status
}

// describeFile says how a file was read, for --verbose.
func describeFile(f *scan.File) string {
	s := fmt.Sprintf("%s: read as %s: %d session(s), %d agent(s), %d call(s)", f.Path, f.Format, f.Sessions, len(f.Agents), f.Calls)
	if len(f.Parts) > 0 {
		if f.Sessions > 1 {
			// a conversation begun again in the same folder (an instance run once more)
			s += fmt.Sprintf(", joined from %d dumps of %d conversations", len(f.Parts), f.Sessions)
		} else {
			s += fmt.Sprintf(", joined from %d dumps of one conversation", len(f.Parts))
		}
	}
	if f.Note != "" {
		s += "; " + f.Note
	}
	return s
}

// parseInterspersed parses flags that may come before, between or after the PATHs
// (`loopguard scan runs/ --format json`), and returns the PATHs. "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var paths []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return paths, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(paths, rest...), nil
		}
		paths = append(paths, rest[0])
		args = rest[1:]
	}
}

func writeHTMLFile(path string, rep *scan.Report, meta scan.Meta, scored *scan.Scored) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := scan.WriteHTML(f, rep, meta, scored); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// tuneGC makes the garbage collector run less often during a scan, unless GOGC or GOMEMLIMIT
// say otherwise, and returns a function that restores the settings. A scan allocates a whole
// transcript per file and keeps little of it, so the live heap is small and the default
// (collect when the heap doubles) spends a fifth of the scan collecting. With 8× growth and a
// 1 GiB soft limit the shared set peaks near 100 MB; a transcript larger than the limit only
// makes the collector run more often.
func tuneGC(getenv func(string) string) (restore func()) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	pct := debug.SetGCPercent(800)
	limit := debug.SetMemoryLimit(1 << 30)
	return func() {
		debug.SetGCPercent(pct)
		debug.SetMemoryLimit(limit)
	}
}

// progress draws a progress bar on stderr while files are scanned, when stderr is a terminal;
// otherwise it does nothing.
type progress struct {
	w     io.Writer
	total int
	n     atomic.Int64
	bytes atomic.Int64
	quit  chan struct{}
	wg    sync.WaitGroup
	start time.Time
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, total: total}
	f, ok := w.(*os.File)
	if !ok || total == 0 || !term.IsTerminal(int(f.Fd())) {
		return p
	}
	p.quit = make(chan struct{})
	p.start = time.Now()
	p.wg.Go(func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.quit:
				fmt.Fprint(p.w, "\r\033[K")
				return
			case <-t.C:
				p.draw()
			}
		}
	})
	return p
}

func (p *progress) done(f *scan.File) {
	p.n.Add(1)
	p.bytes.Add(f.Size)
}

func (p *progress) draw() {
	const width = 30
	n := int(p.n.Load())
	filled := width * n / p.total
	fmt.Fprintf(p.w, "\r\033[Kscanning [%s%s] %d/%d files, %.1f MB read, %.1fs",
		strings.Repeat("█", filled), strings.Repeat("·", width-filled), n, p.total,
		float64(p.bytes.Load())/1e6, time.Since(p.start).Seconds())
}

func (p *progress) stop() {
	if p.quit != nil {
		close(p.quit)
		p.wg.Wait()
	}
}

// fileList is a flag given once per file.
type fileList []string

func (l *fileList) String() string { return strings.Join(*l, ", ") }

func (l *fileList) Set(v string) error {
	if v == "" {
		return fmt.Errorf("empty file name")
	}
	*l = append(*l, v)
	return nil
}

// whyNotTranscript is what a reader said beyond "unknown transcript format" about a file it
// skipped (an opencode database, say), in brackets, or "".
func whyNotTranscript(err error) string {
	var te *transcript.Error
	if !errors.As(err, &te) {
		return ""
	}
	why := strings.TrimPrefix(te.Err.Error(), transcript.ErrUnknownFormat.Error())
	why = strings.TrimPrefix(why, ": ")
	if why == "" || why == te.Err.Error() {
		return ""
	}
	return " (" + why + ")"
}
