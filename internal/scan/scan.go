// Package scan replays agent transcripts through the loopguard engine, as a live guard would
// have seen them, and reports what it would have said: the notices, the loops they point at,
// the calls and money those loops wasted, and, against hand labels, how well it did.
//
// The command `loopguard scan` (internal/cli/scan.go) is a thin layer over Run and the report
// writers here; docs/scan.md is the user's manual.
package scan

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/replay"
	"github.com/loopguard/loopguard/internal/transcript"
)

// Options configure a scan.
type Options struct {
	// Config is the engine configuration every file is replayed with (a fresh engine per file).
	Config loopguard.Config
	// Workers is how many files are read and replayed at once; 0 means GOMAXPROCS.
	Workers int
	// Done, when set, is called once per file as it finishes, from any worker goroutine.
	Done func(f *File)
	// Outcomes reads each call's outcome as the guard does (Engine.CallFailed: its result's
	// text as well as the transcript's flag) for Mark.Failed, at the cost of another look at
	// every result: the HTML report, which marks failed calls, asks for it.
	Outcomes bool
	// Events keeps every event replayed, in the event format (File.Events).
	Events bool
}

// replaySettings is what every file is replayed with.
type replaySettings struct {
	cfg      loopguard.Config
	outcomes bool // see Options.Outcomes
	events   bool // see Options.Events
}

// Report is the result of a scan. Files are sorted by path.
type Report struct {
	Files  []*File
	Totals Totals
	// PassedOver are the files met in folder walks that are of another kind (documentation,
	// logs, the index files agents keep beside their transcripts) and are left out of Files
	// without a word: a scan that read none of them says how many it passed over.
	PassedOver []string
}

// File is one file's result.
type File struct {
	Path   string
	Format string // transcript format, "" when the file could not be read
	// Err is the reason the file could not be read ("path:LINE: problem"), or nil.
	Err error
	// NotTranscript says the file was met while walking a folder and its content is not a
	// transcript format: it is skipped without counting as a failure.
	NotTranscript bool
	// Size is the file's size on disk (compressed, for gzip files).
	Size int64
	// Sessions is how many sessions the file holds (a tau-bench list: one per entry); Agent.Session
	// numbers them.
	Sessions int
	// Note says how the file was read when it could have been read another way (--verbose).
	Note string
	// Damaged names the lines that were not JSON and were passed over ("path:LINE: problem",
	// or "path:FIRST-LAST: problem (N lines)" for consecutive lines with the same problem);
	// the rest of the file was read.
	Damaged []string
	// Parts lists the files read as this one session, when it is a folder of OpenHands
	// llm_completions dumps (then Path is the folder); nil otherwise.
	Parts []string
	// part (an OpenHands dump) and event (a file of an OpenHands event folder) are kept until
	// the files of a folder are grouped into one session.
	part     *transcript.CompletionPart
	event    *transcript.EventPart
	opencode *transcript.OpencodePart

	Agents  []*Agent
	Notices []Notice // in replay order: agent by agent, event by event
	Loops   []Loop   // agent by agent, each agent's by first call
	Usage   transcript.Usage

	Calls   int
	Denials int
	Wasted  int // calls wasted, over all agents (see Loop)
	Runs    int // distinct runs of calls covered by loops, over all agents

	// Events are the events replayed, agent by agent, as lines of the event format
	// (docs/events.md), each agent's ended by an "end": kept with Options.Events only.
	Events []byte
}

// Failed says the file could not be read (and is not merely a non-transcript met in a walk).
func (f *File) Failed() bool { return f.Err != nil && !f.NotTranscript }

// Scanned says the file was read and replayed.
func (f *File) Scanned() bool { return f.Err == nil }

// Agent is one agent of a file.
type Agent struct {
	ID string // the transcript's agent id: "main", a CodeR role, "agent-<id>"
	// Session is the 0-based index of the agent's session in the file (File.Sessions).
	Session int
	Usage   transcript.Usage
	// Marks has one entry per tool call, in the agent's call order (the call-index list).
	Marks   []Mark
	Notices int
	Wasted  int // calls wasted in the agent's loops, each call once
	Runs    int // distinct runs of calls covered by the agent's loops
}

// Calls returns how many tool calls the agent made.
func (a *Agent) Calls() int { return len(a.Marks) }

// Mark is one tool call, as the report draws it.
type Mark struct {
	Tool   string
	Failed bool // the call failed (or was refused)
	Denied bool // the guard would have refused it (deny mode)
	seg    int32
	args   uint64 // loopguard.ArgumentsKey: the canonical arguments less their captions
}

// Notice is one thing the guard would have said (or, Type "deny", refused), placed in the
// transcript. Field order is the order of the JSON output and is kept stable.
type Notice struct {
	Type  string `json:"type"` // "notice", or "deny" for a call refused in deny mode
	File  string `json:"file"`
	Agent string `json:"agent"`
	// Session is the 0-based index of the agent's session in the file: the position of the
	// entry in a tau-bench list; 0 in files that hold one session.
	Session int `json:"session_index"`
	// CallIndex is the 0-based position of the call in the agent's list of tool calls, in file
	// order. For a notice given on a text event it is the index of the last call before that
	// text, or -1 when the agent had made no call yet.
	CallIndex int    `json:"call_index"`
	Event     string `json:"event"` // the type of event the guard was answering: "call" or "text"
	Plugin    string `json:"plugin"`
	Kind      string `json:"kind"` // repeat, call, sequence, text; "deny" for a refusal
	Summary   string `json:"summary"`
}

// Totals are sums over the scanned files.
type Totals struct {
	Files         int     `json:"files"` // files scanned (read and replayed)
	Failed        int     `json:"failed"`
	NotTranscript int     `json:"not_transcripts"`
	Agents        int     `json:"agents"`
	Calls         int     `json:"calls"`
	Notices       int     `json:"notices"`
	Denials       int     `json:"denials"`
	Loops         int     `json:"loops"`
	Runs          int     `json:"loop_runs"` // distinct runs of calls in loops: overlapping loops of an agent count once
	FilesLoops    int     `json:"files_with_loops"`
	Wasted        int     `json:"wasted_calls"`
	Tokens        int64   `json:"tokens"`          // over the files that record usage
	CostUSD       float64 `json:"cost_usd"`        // over the files that record a cost
	WastedTokens  float64 `json:"wasted_tokens"`   // estimate, see File.WastedTokens
	WastedCostUSD float64 `json:"wasted_cost_usd"` // estimate, see File.WastedCostUSD
	Bytes         int64   `json:"bytes_on_disk"`   // size on disk of the files scanned
}

// Tokens returns all the tokens a usage records: input, output, cache reads and writes.
func Tokens(u transcript.Usage) int64 {
	return u.InputTokens + u.OutputTokens + u.CacheReadTokens + u.CacheWriteTokens
}

// WastedCostUSD estimates the cost of the file's wasted calls: its recorded cost times the
// share of its calls that were wasted. Calls differ in cost (later ones carry a longer
// context), so this is an estimate, not an accounting.
func (f *File) WastedCostUSD() float64 {
	if f.Calls == 0 {
		return 0
	}
	return f.Usage.CostUSD * float64(f.Wasted) / float64(f.Calls)
}

// WastedTokens estimates the tokens of the file's wasted calls, the same way as WastedCostUSD.
func (f *File) WastedTokens() float64 {
	if f.Calls == 0 {
		return 0
	}
	return float64(Tokens(f.Usage)) * float64(f.Wasted) / float64(f.Calls)
}

// Run reads and replays the targets with a bounded pool of workers and returns the report,
// with files in the order of targets (Collect sorts them by path). Files that cannot be read
// are in the report with their error; the others are unaffected.
func Run(targets []Target, opt Options) (*Report, error) {
	if _, err := loopguard.New(opt.Config); err != nil {
		return nil, err
	}
	files := make([]*File, len(targets))
	// Largest first, so that one big file does not finish alone at the end.
	order := make([]int, len(targets))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case targets[a].Size > targets[b].Size:
			return -1
		case targets[a].Size < targets[b].Size:
			return 1
		}
		return 0
	})
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(len(targets), 1))
	rp := replaySettings{cfg: opt.Config, outcomes: opt.Outcomes, events: opt.Events}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= len(order) {
					return
				}
				i := order[k]
				f := scanFileSafely(targets[i], rp)
				files[i] = f
				if opt.Done != nil {
					opt.Done(f)
				}
			}
		})
	}
	wg.Wait()
	files = groupCompletions(files, rp)
	var passed []string
	files = slices.DeleteFunc(files, func(f *File) bool {
		if isOtherMarkdown(f) {
			passed = append(passed, f.Path)
			return true
		}
		return false
	})
	r := &Report{Files: files, PassedOver: passed}
	r.Totals = total(files)
	return r, nil
}

func total(files []*File) Totals {
	var t Totals
	for _, f := range files {
		switch {
		case f.NotTranscript:
			t.NotTranscript++
			continue
		case f.Err != nil:
			t.Failed++
			continue
		}
		t.Files++
		t.Bytes += f.Size
		t.Agents += len(f.Agents)
		t.Calls += f.Calls
		t.Denials += f.Denials
		t.Notices += len(f.Notices) - f.Denials
		t.Loops += len(f.Loops)
		t.Runs += f.Runs
		if len(f.Loops) > 0 {
			t.FilesLoops++
		}
		t.Wasted += f.Wasted
		t.Tokens += Tokens(f.Usage)
		t.CostUSD += f.Usage.CostUSD
		t.WastedTokens += f.WastedTokens()
		t.WastedCostUSD += f.WastedCostUSD()
	}
	return t
}

// scanFileSafely is scanFile, with a panic (a bug) turned into an error for that file, so
// that one file never takes a whole scan down.
func scanFileSafely(tg Target, rp replaySettings) (f *File) {
	defer func() {
		if p := recover(); p != nil {
			f = &File{Path: tg.Path, Size: tg.Size, Err: fmt.Errorf("%s: internal error while scanning: %v", tg.Path, p)}
		}
	}()
	return scanFile(tg, rp)
}

// scanFile reads one file and replays it through a fresh engine.
func scanFile(tg Target, rp replaySettings) *File {
	f := &File{Path: tg.Path, Size: tg.Size}
	if tg.Err != nil {
		f.Err = tg.Err
		return f
	}
	t, err := readTranscript(tg.Path)
	if err != nil {
		f.Err = err
		f.NotTranscript = passedOver(tg, err)
		return f
	}
	eng, err := loopguard.New(rp.cfg)
	if err != nil {
		f.Err = err // cannot happen: Run validated the configuration
		return f
	}
	replayTranscript(f, t, eng, rp)
	if t.Completion != nil {
		f.part = t.Completion
		f.part.Trim() // what a merge needs is small; a dump's history is not
	}
	f.event, f.opencode = t.Event, t.Opencode
	return f
}

// passedOver says whether a file that could not be read as a transcript is no failure of the
// scan: one met in a folder walk whose content is no transcript, or a text file of the kinds a
// walk opens only to look for a CLI's output (.txt, .log, .md, .out) that is empty (a tool's
// output Gemini CLI left empty: validation round r72a, where one such file in a home folder
// made the whole scan exit with status 1). An empty .json or .jsonl file in a walk may be a
// session lost to a crash, and is still reported; named by the user, each is an error.
func passedOver(tg Target, err error) bool {
	if !tg.Walked {
		return false
	}
	if errors.Is(err, transcript.ErrUnknownFormat) {
		return true
	}
	name := strings.TrimSuffix(strings.ToLower(tg.Path), ".gz")
	return errors.Is(err, transcript.ErrEmpty) && (strings.HasSuffix(name, ".txt") || strings.HasSuffix(name, ".log") ||
		strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".out"))
}

// isOtherMarkdown says f is a file met in a folder walk that is no transcript and that is
// passed over without a word, as files of other names are, rather than reported as "not a
// transcript": Markdown that is not a Claude Code export (documentation, most likely: a
// README next to the runs), text and log files that are not a CLI's JSON output (a
// harness's stdout.txt), and the files that agents keep next to their transcripts
// (companionFiles).
func isOtherMarkdown(f *File) bool {
	name := strings.TrimSuffix(strings.ToLower(f.Path), ".gz")
	return f.NotTranscript && (strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".txt") ||
		strings.HasSuffix(name, ".log") || companionFiles[filepath.Base(name)])
}

// companionFiles are files that agents keep in their transcript folders and that hold no
// conversation: Cline and Roo Code's task metadata, OpenHands' conversation state (and its
// agent server's event_service/meta.json beside it: validation round r161c), the session
// indexes of Continue and OpenClaw (sessions.json); and Cline's UI messages when they are
// not readable as a task (a walk leaves them out beside the task's history: Collect).
var companionFiles = map[string]bool{
	"ui_messages.json": true, "task_metadata.json": true, "base_state.json": true, "metadata.json": true,
	"meta.json": true, "sessions.json": true,
}

// groupCompletions replaces the OpenHands files of each folder that are parts of one
// conversation (two or more) by one file for the folder: the llm_completions dumps (each
// repeats the conversation so far: transcript.MergeCompletions) and the files of an event
// folder (one event each: transcript.MergeEvents). The folder, not the file, is the session.
// The folder's file takes the place of its first part; the others leave the list.
func groupCompletions(files []*File, rp replaySettings) []*File {
	type group struct {
		dir  string // the folder; for opencode, the session's folder of messages
		kind int    // 0: dumps, 1: events, 2: opencode
		conv string // dumps: the conversation (a folder may hold several)
	}
	byDir := map[group][]int{}
	var order []group
	for i, f := range files {
		var g group
		switch {
		case f.part != nil:
			g = group{filepath.Dir(f.Path), 0, f.part.Conversation()}
		case f.event != nil:
			g = group{filepath.Dir(f.Path), 1, ""}
		case f.opencode != nil:
			// storage/{message,part}/<id>/<file>.json: the session's files are in several
			// folders; they are named after the session's folder of messages.
			root := filepath.Dir(filepath.Dir(filepath.Dir(f.Path)))
			g = group{filepath.Join(root, "message", f.opencode.Session), 2, ""}
		default:
			continue
		}
		if byDir[g] == nil {
			order = append(order, g)
		}
		byDir[g] = append(byDir[g], i)
	}
	// A folder holding the dumps of several conversations gives one file per conversation,
	// named "<folder>#<the conversation's first dump>".
	convs := map[string]int{}
	for _, g := range order {
		if g.kind == 0 {
			convs[g.dir]++
		}
	}
	drop := map[int]bool{}
	for _, g := range order {
		idx := byDir[g]
		if len(idx) < 2 {
			files[idx[0]].part, files[idx[0]].event, files[idx[0]].opencode = nil, nil, nil
			continue
		}
		var merged *File
		switch g.kind {
		case 0:
			name := g.dir
			if convs[g.dir] > 1 {
				name = g.dir + "#" + filepath.Base(files[idx[0]].Path)
			}
			merged = mergeDumps(name, files, idx, rp)
		case 1:
			merged = mergeEvents(g.dir, files, idx, rp)
		default:
			m := &File{Path: g.dir}
			parts := make([]*transcript.OpencodePart, len(idx))
			for k, i := range idx {
				m.Parts = append(m.Parts, files[i].Path)
				m.Size += files[i].Size
				parts[k] = files[i].opencode
			}
			merged = replayMerged(m, transcript.MergeOpencode(g.dir, parts), rp)
		}
		files[idx[0]] = merged
		for _, i := range idx[1:] {
			drop[i] = true
		}
	}
	if len(drop) == 0 {
		return files
	}
	out := files[:0]
	for i, f := range files {
		if !drop[i] {
			out = append(out, f)
		}
	}
	return out
}

func mergeEvents(dir string, files []*File, idx []int, rp replaySettings) *File {
	m := &File{Path: dir}
	parts := make([]*transcript.EventPart, len(idx))
	for k, i := range idx {
		m.Parts = append(m.Parts, files[i].Path)
		m.Size += files[i].Size
		parts[k] = files[i].event
	}
	return replayMerged(m, transcript.MergeEvents(dir, parts), rp)
}

func replayMerged(m *File, t *transcript.Transcript, rp replaySettings) *File {
	eng, err := loopguard.New(rp.cfg)
	if err != nil {
		m.Err = err // cannot happen: Run validated the configuration
		return m
	}
	replayTranscript(m, t, eng, rp)
	return m
}

func mergeDumps(dir string, files []*File, idx []int, rp replaySettings) *File {
	m := &File{Path: dir}
	parts := make([]*transcript.CompletionPart, len(idx))
	first := 0
	for k, i := range idx {
		f := files[i]
		m.Parts = append(m.Parts, f.Path)
		m.Size += f.Size
		parts[k] = f.part
		if f.part.Time() < parts[first].Time() {
			first = k
		}
	}
	if p := parts[first]; p.NeedsHistory() && !p.HasHistory() {
		// The earliest dump already holds calls (the dumps before it are missing): read its
		// history again, as the session starts with it.
		if t, err := readTranscript(files[idx[first]].Path); err == nil && t.Completion != nil {
			parts[first] = t.Completion
		}
	}
	return replayMerged(m, transcript.MergeCompletions(dir, parts), rp)
}

// replayTranscript replays every agent of t into f.
func replayTranscript(f *File, t *transcript.Transcript, eng *loopguard.Engine, rp replaySettings) {
	f.Format = t.Format
	f.Sessions = max(t.Sessions, 1)
	f.Note = t.Note
	f.Damaged = damagedRuns(t.Damaged)
	f.Usage = t.Usage
	f.Usage.Model = strings.Clone(f.Usage.Model)
	intern := map[string]string{}
	clone := func(s string) string {
		if c, ok := intern[s]; ok {
			return c
		}
		c := strings.Clone(s)
		intern[c] = c
		return c
	}
	for ai := range t.Agents {
		ta := &t.Agents[ai]
		a := &Agent{ID: clone(ta.ID), Session: ta.Session, Usage: ta.Usage}
		a.Usage.Model = clone(a.Usage.Model)
		replayAgent(f, a, ta, eng, rp, clone)
		f.Agents = append(f.Agents, a)
		f.Calls += a.Calls()
	}
	f.Loops = findLoops(f)
	for _, a := range f.Agents {
		f.Wasted += a.Wasted
		f.Runs += a.Runs
	}
}

// replayAgent steps the agent's events through the engine in order, under an engine agent id
// that is unique to the file ("path#agent"), and records calls and notices (and, with
// rp.events, the events, ended by an "end" as the engine forgets the agent).
func replayAgent(f *File, a *Agent, ta *transcript.Agent, eng *loopguard.Engine, rp replaySettings, clone func(string) string) {
	key := "" // a call with no agent is never counted, as in replay
	if ta.ID != "" {
		key = f.Path + "#" + ta.ID
		if ta.Session != 0 {
			key = f.Path + "#" + strconv.Itoa(ta.Session) + "#" + ta.ID
		}
	}
	callIndex := -1
	seg := int32(0)
	a.Marks = make([]Mark, 0, len(ta.Events)/2+1)
	// The loop of an errors notice is its tool's failed calls (chainStart, chainEnd), failed
	// as the guard read them: a failure the transcript does not flag, which the guard reads
	// in the text (PowerShell's ParserError, a traceback), counts too (validation round r123a
	// U1: four such failures told at the 4th made a loop of one call). Reading every call's
	// outcome costs another look at every result, so only the calls of a tool an errors
	// notice named are read so: those before it at the notice, those after as they come.
	var errorTools map[string]bool
	for i := range ta.Events {
		ev := ta.Events[i]
		ev.Agent = key
		evName := ""
		switch ev.Type {
		case loopguard.EventCall:
			callIndex++
			evName = "call"
			failed := ev.Failed
			if rp.outcomes || errorTools[ev.Tool] {
				failed = eng.CallFailed(ev)
			}
			a.Marks = append(a.Marks, Mark{Tool: clone(ev.Tool), Failed: failed, seg: seg, args: loopguard.ArgumentsKey(ev.Args)})
		case loopguard.EventText:
			evName = "text"
		case loopguard.EventUser, loopguard.EventEnd:
			seg++ // counters start again: loops never span this point
		}
		if rp.events {
			f.Events = replay.AppendEvent(f.Events, ev)
		}
		out := eng.Step(ev)
		if out.Denied {
			m := &a.Marks[callIndex]
			m.Denied, m.Failed = true, true
			f.Denials++
			f.Notices = append(f.Notices, Notice{
				Type: "deny", File: f.Path, Agent: a.ID, Session: a.Session, CallIndex: callIndex, Event: evName,
				Plugin: clone(out.Denial.Plugin), Kind: "deny", Summary: m.Tool + " refused",
			})
		}
		for _, n := range out.Notices {
			if n.Kind == "errors" && ev.Type == loopguard.EventCall && !rp.outcomes && !errorTools[ev.Tool] {
				if errorTools == nil {
					errorTools = map[string]bool{}
				}
				errorTools[ev.Tool] = true
				k := 0 // the calls so far, in order, are the marks
				for _, e := range ta.Events[:i+1] {
					if e.Type != loopguard.EventCall {
						continue
					}
					if m := &a.Marks[k]; m.Tool == ev.Tool && !m.Denied {
						m.Failed = eng.CallFailed(e)
					}
					k++
				}
			}
			a.Notices++
			f.Notices = append(f.Notices, Notice{
				Type: "notice", File: f.Path, Agent: a.ID, Session: a.Session, CallIndex: callIndex, Event: evName,
				Plugin: clone(n.Plugin), Kind: clone(n.Kind), Summary: n.Summary,
			})
		}
	}
	if key != "" {
		eng.Forget(key)
		if rp.events {
			f.Events = replay.AppendEvent(f.Events, loopguard.Event{Type: loopguard.EventEnd, Agent: key})
		}
	}
}

// damagedRuns names the damaged lines of a file, one entry for each run of consecutive lines
// with the same problem: a CLI that printed a stack trace into its JSON stream leaves ten lines
// of it, and ten warnings that say one thing bury the rest of stderr. The range keeps every
// line's place.
func damagedRuns(damaged []*transcript.Error) []string {
	var out []string
	for i := 0; i < len(damaged); {
		d := damaged[i]
		j := i + 1
		for j < len(damaged) && damaged[j].Path == d.Path && damaged[j].Line == damaged[j-1].Line+1 &&
			d.Line > 0 && damaged[j].Err.Error() == d.Err.Error() {
			j++
		}
		if j-i == 1 {
			out = append(out, d.Error())
		} else {
			out = append(out, fmt.Sprintf("%s:%d-%d: %v (%d lines)", d.Path, d.Line, damaged[j-1].Line, d.Err, j-i))
		}
		i = j
	}
	return out
}
