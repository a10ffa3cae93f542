package scan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Label is one row of a labels file (the format of the shared set's labels.jsonl): a span of
// an agent's calls, checked by hand.
type Label struct {
	Repo  string `json:"repo"`
	Path  string `json:"path"`  // the transcript's original path; matched as a suffix
	Agent string `json:"agent"` // "main" or the CodeR role
	// SessionIndex picks one session of a file that holds several (an entry of a tau-bench
	// list, a record of an OpenHands output.jsonl): the session_index of scan's JSON output.
	// Without it a label covers its agent in every session of the file.
	SessionIndex *int   `json:"session_index,omitempty"`
	CallIndices  []int  `json:"call_indices"`
	ManualLabel  string `json:"manual_label"`
	Note         string `json:"note"`
}

// covers says whether a label about agent (see labelAgent) covers the given session and
// agent.
func (l *Label) covers(agent string, session int, id string) bool {
	return id == agent && (l.SessionIndex == nil || *l.SessionIndex == session)
}

// labelAgent is the agent of f a label is about: the one it names; or, when it names "main"
// (the default) and f has no agent of that name but only one agent in the label's sessions,
// that one, whatever its name: a subagent's transcript scanned alone is agent-<id>, and a
// label on such a file need not know it.
func labelAgent(f *File, l *Label) string {
	only := ""
	for _, a := range f.Agents {
		if l.SessionIndex != nil && *l.SessionIndex != a.Session {
			continue
		}
		if a.ID == l.Agent {
			return l.Agent
		}
		if only != "" && only != a.ID {
			return l.Agent // several agents: the label's name must match one
		}
		only = a.ID
	}
	if l.Agent == MainAgentLabel && only != "" {
		return only
	}
	return l.Agent
}

// MainAgentLabel is the agent a label names when it names none.
const MainAgentLabel = "main"

// AgentName is the label's agent as reports name it, with its session when it has one.
func (l *Label) AgentName() string {
	if l.SessionIndex != nil {
		return "session " + strconv.Itoa(*l.SessionIndex) + " " + l.Agent
	}
	return l.Agent
}

// First and Last are the span's first and last call indices.
func (l *Label) First() int { return l.CallIndices[0] }
func (l *Label) Last() int  { return l.CallIndices[1] }

// Label kinds: loops a guard should notice, and look-alikes it should leave alone. docs/labels.md
// defines each.
var (
	// LoopLabels: the same call with no progress (stuck), a cycle of calls (cycle), the same
	// thought while the arguments sweep (scan_loop), near-identical failures (error_loop), one
	// tool whose arguments churn while its result stays the same (arg_churn), a mutating call
	// retried against the same rejection (edit_loop).
	LoopLabels = []string{"stuck", "cycle", "scan_loop", "error_loop", "arg_churn", "edit_loop"}
	// LegitLabels: paging (legit_navigation), a harness format rejection re-sent once
	// (format_retry), polling whose output advances (polling), a test re-run after an edit
	// (test_rerun), one tool over distinct arguments (batch), waiting with backoff (backoff), a
	// file read again after it was edited (reread_after_edit), a retry that then succeeds
	// (retry_success).
	LegitLabels = []string{"legit_navigation", "format_retry", "polling", "test_rerun", "batch",
		"backoff", "reread_after_edit", "retry_success"}
)

// CatchAfter is how many calls after a labelled loop's last call a notice still counts as
// catching it: the guard speaks after a call ran, and a loop labelled to end at call N may
// have been recognisable only from the calls around N.
const CatchAfter = 3

// ReadLabels reads a labels file: one JSON object per line, blank lines ignored. Errors name
// the file and line.
func ReadLabels(path string) ([]Label, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var labels []Label
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var l Label
		if err := json.Unmarshal(line, &l); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		switch {
		case l.Path == "":
			return nil, fmt.Errorf("%s:%d: a label needs a \"path\"", path, i+1)
		case len(l.CallIndices) != 2 || l.CallIndices[0] < 0 || l.CallIndices[1] < l.CallIndices[0]:
			return nil, fmt.Errorf("%s:%d: \"call_indices\" must be [first, last] with 0 <= first <= last", path, i+1)
		case l.ManualLabel == "":
			return nil, fmt.Errorf("%s:%d: a label needs a \"manual_label\"", path, i+1)
		case l.SessionIndex != nil && *l.SessionIndex < 0:
			return nil, fmt.Errorf("%s:%d: \"session_index\" must be 0 or more", path, i+1)
		}
		if l.Agent == "" {
			l.Agent = MainAgentLabel
		}
		labels = append(labels, l)
	}
	return labels, nil
}

// Label statuses.
const (
	StatusCaught     = "caught"      // a loop label with a notice in its catch window
	StatusMissed     = "missed"      // a loop label without
	StatusQuiet      = "quiet"       // a legitimate span without reminders
	StatusFalseAlarm = "false alarm" // a legitimate span with reminders
	StatusNoFile     = "no file"     // no scanned file matches the label's path
	StatusUnreadable = "unreadable"  // the matching file could not be read
	StatusNoAgent    = "no agent"    // the file has no agent of the label's name
	StatusAmbiguous  = "ambiguous"   // several scanned files match, even with the repo
	StatusOther      = "other"       // a manual_label that is neither a loop nor legitimate
)

// LabelResult is how the guard did on one label.
type LabelResult struct {
	Label Label  `json:"label"`
	File  string `json:"file"` // the scanned file matched, "" when none
	// Agent is the agent of the file the label was scored on (labelAgent): its own agent
	// name, or a single-agent file's agent for a label naming "main".
	Agent  string `json:"agent,omitempty"`
	Status string `json:"status"`
	// FirstNotice is the call index of the first notice in the window (loop labels: [first,
	// last+CatchAfter]; legitimate ones: [first, last]), or -1.
	FirstNotice int `json:"first_notice"`
	// Lateness is how many calls after the loop began the guard first spoke: FirstNotice −
	// first. Set for caught labels only.
	Lateness int `json:"lateness"`
	// Reminders counts the notices inside [first, last]: for a legitimate span, false alarms.
	Reminders int `json:"reminders"`
}

// Score sums up the label results and the scan's notice rate.
type Score struct {
	Labels     int     `json:"labels"`
	Loops      int     `json:"loops"` // loop labels scored (matched to a scanned file and agent)
	Caught     int     `json:"caught"`
	Recall     float64 `json:"recall"`          // Caught / Loops
	Median     float64 `json:"median_lateness"` // over the caught labels; -1 when none
	Legit      int     `json:"legit"`           // legitimate spans scored
	Alarmed    int     `json:"legit_alarmed"`   // legitimate spans with at least one reminder
	FalseAlarm int     `json:"false_alarms"`    // reminders inside legitimate spans
	Unscored   int     `json:"unscored"`        // labels with no file, agent, or a kind not scored
	Calls      int     `json:"calls"`
	Notices    int     `json:"notices"`
	PerKCalls  float64 `json:"notices_per_1000_calls"`

	// Outside the positives: the calls and notices that no loop label's catch window
	// ([first, last+CatchAfter] of that file and agent) covers. A guard that speaks there is
	// either early on an unlabelled loop or nagging legitimate work; the rate is the nagging a
	// user feels on ordinary runs.
	CallsOutside   int     `json:"calls_outside_positives"`
	NoticesOutside int     `json:"notices_outside_positives"`
	PerKOutside    float64 `json:"notices_per_1000_calls_outside_positives"`
}

// ScoreLabels matches each label to a scanned file (the label's path against the file's path
// with ".gz" stripped, as a suffix at a folder boundary; the label's repo, as owner__name in
// the path, settles ties) and scores it.
func ScoreLabels(r *Report, labels []Label) ([]LabelResult, Score) {
	var s Score
	results := make([]LabelResult, 0, len(labels))
	var late []int
	for _, l := range labels {
		res := LabelResult{Label: l, FirstNotice: -1}
		f, status := matchFile(r.Files, &l)
		res.Status = status
		if f != nil {
			res.File = f.Path
			res.Agent = labelAgent(f, &l)
			scoreOne(f, &res)
		}
		s.Labels++
		switch res.Status {
		case StatusCaught:
			s.Loops++
			s.Caught++
			late = append(late, res.Lateness)
		case StatusMissed:
			s.Loops++
		case StatusQuiet, StatusFalseAlarm:
			s.Legit++
			s.FalseAlarm += res.Reminders
			if res.Reminders > 0 {
				s.Alarmed++
			}
		default:
			s.Unscored++
		}
		results = append(results, res)
	}
	if s.Loops > 0 {
		s.Recall = float64(s.Caught) / float64(s.Loops)
	}
	s.Median = median(late)
	s.Calls, s.Notices = r.Totals.Calls, r.Totals.Notices
	if s.Calls > 0 {
		s.PerKCalls = 1000 * float64(s.Notices) / float64(s.Calls)
	}
	s.CallsOutside, s.NoticesOutside = outsidePositives(r, results)
	if s.CallsOutside > 0 {
		s.PerKOutside = 1000 * float64(s.NoticesOutside) / float64(s.CallsOutside)
	}
	return results, s
}

// outsidePositives counts the calls and notices of the scanned files that lie outside every
// loop label's catch window. Notices given before an agent's first call (call index -1) are
// outside. Labels that matched no file or agent cover nothing.
func outsidePositives(r *Report, results []LabelResult) (calls, notices int) {
	type agentKey struct {
		file    string
		session int
		agent   string
	}
	windows := map[agentKey][][2]int{}
	byPath := map[string]*File{}
	for _, f := range r.Files {
		byPath[f.Path] = f
	}
	for i := range results {
		res := &results[i]
		f := byPath[res.File]
		if f == nil || !slices.Contains(LoopLabels, res.Label.ManualLabel) {
			continue
		}
		for _, a := range f.Agents {
			if res.Label.covers(res.Agent, a.Session, a.ID) {
				k := agentKey{f.Path, a.Session, a.ID}
				windows[k] = append(windows[k], [2]int{res.Label.First(), res.Label.Last() + CatchAfter})
			}
		}
	}
	inside := func(ws [][2]int, i int) bool {
		for _, w := range ws {
			if i >= w[0] && i <= w[1] {
				return true
			}
		}
		return false
	}
	for _, f := range r.Files {
		if !f.Scanned() {
			continue
		}
		for _, a := range f.Agents {
			ws := windows[agentKey{f.Path, a.Session, a.ID}]
			for i := 0; i < a.Calls(); i++ {
				if !inside(ws, i) {
					calls++
				}
			}
		}
		for i := range f.Notices {
			n := &f.Notices[i]
			if n.Type == "notice" && !inside(windows[agentKey{f.Path, n.Session, n.Agent}], n.CallIndex) {
				notices++
			}
		}
	}
	return calls, notices
}

func matchFile(files []*File, l *Label) (*File, string) {
	want := filepath.ToSlash(strings.TrimSuffix(l.Path, ".gz"))
	matches := func(path string) bool {
		p := filepath.ToSlash(strings.TrimSuffix(path, ".gz"))
		return p == want || strings.HasSuffix(p, "/"+want)
	}
	var cands []*File
	for _, f := range files {
		// A session read from a folder of files (OpenHands completion dumps, opencode storage)
		// is matched by the folder or by any of its files: a label may name the dump it read.
		if matches(f.Path) || slices.ContainsFunc(f.Parts, matches) {
			cands = append(cands, f)
		}
	}
	if len(cands) > 1 && l.Repo != "" {
		repo := strings.ReplaceAll(l.Repo, "/", "__")
		var narrowed []*File
		for _, f := range cands {
			if slices.Contains(strings.Split(filepath.ToSlash(f.Path), "/"), repo) {
				narrowed = append(narrowed, f)
			}
		}
		if len(narrowed) > 0 {
			cands = narrowed
		}
	}
	switch {
	case len(cands) == 0:
		return nil, StatusNoFile
	case len(cands) > 1:
		return nil, StatusAmbiguous
	case !cands[0].Scanned():
		return nil, StatusUnreadable
	}
	return cands[0], ""
}

func scoreOne(f *File, res *LabelResult) {
	l := &res.Label
	if !slices.ContainsFunc(f.Agents, func(a *Agent) bool { return l.covers(res.Agent, a.Session, a.ID) }) {
		res.Status = StatusNoAgent
		return
	}
	loop := slices.Contains(LoopLabels, l.ManualLabel)
	last := l.Last()
	if loop {
		last += CatchAfter
	}
	for i := range f.Notices {
		n := &f.Notices[i]
		if n.Type != "notice" || !l.covers(res.Agent, n.Session, n.Agent) || n.CallIndex < l.First() || n.CallIndex > last {
			continue
		}
		if res.FirstNotice < 0 {
			res.FirstNotice = n.CallIndex
		}
		if n.CallIndex <= l.Last() {
			res.Reminders++
		}
	}
	switch {
	case loop && res.FirstNotice >= 0:
		res.Status = StatusCaught
		res.Lateness = res.FirstNotice - l.First()
	case loop:
		res.Status = StatusMissed
	case slices.Contains(LegitLabels, l.ManualLabel) && res.Reminders > 0:
		res.Status = StatusFalseAlarm
	case slices.Contains(LegitLabels, l.ManualLabel):
		res.Status = StatusQuiet
	default:
		res.Status = StatusOther
	}
}

// median returns the median of xs (the mean of the middle two for an even count), or -1 for
// none.
func median(xs []int) float64 {
	if len(xs) == 0 {
		return -1
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return float64(s[n/2])
	}
	return float64(s[n/2-1]+s[n/2]) / 2
}
