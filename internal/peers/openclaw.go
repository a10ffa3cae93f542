package peers

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/canon"
)

// OpenClaw's tool-loop-detection defaults.
const (
	clawHistory     = 30 // calls remembered, per run
	clawWarning     = 10 // generic repeat, polling, ping-pong, argument churn: warn
	clawUnknownTool = 10 // the same unknown tool: block
	clawCritical    = 20 // no progress: block
	clawBreaker     = 30 // no progress, any tool: global circuit breaker
	clawWarnBucket  = 10 // a warning is given again only when its count reaches the next 10
)

// OpenClaw is OpenClaw's tool-loop detection (src/agents/tool-loop-detection.ts, read at
// commit 0065530 of openclaw/openclaw, with the warning throttle of
// pi-tools.before-tool-call.ts), evaluated as if enabled (it is off by default). Before each
// call it looks at the run's last 30 calls, each remembered as tool, arguments (stable
// stringify, so member order does not matter) and a hash of its result, and in this order:
//
//   - unknown tool: the last 10 calls were this tool failing with the same "unknown tool X"
//     (or "tool X not found / is not available") error: block;
//   - global circuit breaker: this exact call already gave the same result 30 times (the
//     no-progress streak: the same call's results, newest first, until one differs): block;
//   - known polling tools (command_status; process with action poll or log): no-progress
//     streak 20: block; 10: warn;
//   - ping-pong: the calls alternate between two calls A B A B ... and this call continues
//     the pattern: 20 in the pattern with each side's results unchanged: block; 10: warn;
//   - generic repeat: no-progress streak 20: block; this exact call 10 times among the last
//     30: warn;
//   - argument churn (described for newer versions, late 2026; not in the version read):
//     the tool's last 10 calls, with at least two different argument sets, all returned the
//     same result: warn.
//
// A block speaks at every call it refuses. A warning speaks when its count first reaches 10,
// then again at 20, 30 ... (OpenClaw's per-key warning buckets). A user turn starts a new run
// and an empty history.
//
// Approximations: OpenClaw hashes the structured result (status, exit code, details, text);
// a transcript has the result text, which is canonicalised the way OpenClaw's newer results
// are: timestamps, clock times, durations, pids, attempt counters, UUIDs, long hex ids and
// message ids are replaced by placeholders before hashing; a failed call hashes as
// "error:" + that text. A refused call did run in the transcript; its real result is
// recorded, where OpenClaw records none for its own veto (which keeps a block sticky).
func OpenClaw(events []loopguard.Event) []int {
	var fired []int
	call := -1
	var hist []clawRecord
	buckets := map[string]int{}
	warn := func(key string, count int) bool {
		b := count / clawWarnBucket
		if b <= buckets[key] {
			return false
		}
		buckets[key] = b
		return true
	}
	for i := range events {
		ev := &events[i]
		switch ev.Type {
		case loopguard.EventUser:
			hist = hist[:0]
		case loopguard.EventCall:
			call++
			cur := clawRecord{tool: ev.Tool, args: canon.Fingerprint(ev.Args)}
			if clawSpeaks(hist, cur, clawPoll(ev), warn) {
				fired = append(fired, call)
			}
			cur.result, cur.hasResult = clawResultHash(ev)
			if ev.Failed {
				cur.unknownTool = clawUnknownToolName(ev.Result)
			}
			hist = keepLast(append(hist, cur), clawHistory)
		}
	}
	return fired
}

type clawRecord struct {
	tool        string
	args        uint64
	result      string
	hasResult   bool
	unknownTool string
}

func (r clawRecord) sameCall(o clawRecord) bool { return r.tool == o.tool && r.args == o.args }

func clawSpeaks(hist []clawRecord, cur clawRecord, poll bool, warn func(string, int) bool) bool {
	if clawUnknownStreak(hist, cur.tool) >= clawUnknownTool {
		return true
	}
	noProgress, latest := clawNoProgress(hist, cur)
	if noProgress >= clawBreaker {
		return true
	}
	if poll {
		if noProgress >= clawCritical {
			return true
		}
		if noProgress >= clawWarning && warn("poll:"+cur.tool+latest, noProgress) {
			return true
		}
	}
	count, pair, evidence := clawPingPong(hist, cur)
	if count >= clawCritical && evidence {
		return true
	}
	if count >= clawWarning {
		// A throttled warning does not fall through to the generic rule: OpenClaw returns the
		// ping-pong result either way.
		return warn("pingpong:"+pair, count)
	}
	if !poll && noProgress >= clawCritical {
		return true
	}
	recent := 0
	for _, r := range hist {
		if r.sameCall(cur) {
			recent++
		}
	}
	if !poll && recent >= clawWarning {
		return warn("generic:"+clawCallID(cur), recent)
	}
	if churn := clawChurn(hist, cur.tool); churn >= clawWarning {
		return warn("churn:"+cur.tool, churn)
	}
	return false
}

func clawCallID(r clawRecord) string {
	return r.tool + ":" + strconv.FormatUint(r.args, 16)
}

// clawUnknownStreak counts the newest calls that were tool failing with one same unknown tool.
func clawUnknownStreak(hist []clawRecord, tool string) int {
	n, name := 0, ""
	for i := len(hist) - 1; i >= 0; i-- {
		r := hist[i]
		if r.tool != tool || r.unknownTool == "" || (name != "" && r.unknownTool != name) {
			break
		}
		name = r.unknownTool
		n++
	}
	return n
}

// clawNoProgress counts the same call's results, newest first, while they stay the same.
func clawNoProgress(hist []clawRecord, cur clawRecord) (int, string) {
	n, latest := 0, ""
	for i := len(hist) - 1; i >= 0; i-- {
		r := hist[i]
		if !r.sameCall(cur) || !r.hasResult {
			continue
		}
		if n == 0 {
			latest = r.result
		} else if r.result != latest {
			break
		}
		n++
	}
	return n, latest
}

// clawPingPong measures an A B A B ... tail that cur continues; evidence says both sides'
// results stayed the same over the tail.
func clawPingPong(hist []clawRecord, cur clawRecord) (count int, pair string, evidence bool) {
	if len(hist) == 0 {
		return 0, "", false
	}
	last := hist[len(hist)-1]
	other := -1
	for i := len(hist) - 2; i >= 0; i-- {
		if !hist[i].sameCall(last) {
			other = i
			break
		}
	}
	if other < 0 {
		return 0, "", false
	}
	b := hist[other]
	tail := 0
	for i := len(hist) - 1; i >= 0; i-- {
		want := last
		if tail%2 == 1 {
			want = b
		}
		if !hist[i].sameCall(want) {
			break
		}
		tail++
	}
	if tail < 2 || !cur.sameCall(b) {
		return 0, "", false
	}
	ids := []string{clawCallID(last), clawCallID(b)}
	slices.Sort(ids)
	pair = ids[0] + "|" + ids[1]
	evidence = true
	var resA, resB *string
	for _, r := range hist[len(hist)-tail:] {
		if !r.hasResult {
			evidence = false
			break
		}
		side := &resB
		if r.sameCall(last) {
			side = &resA
		}
		switch {
		case *side == nil:
			res := r.result
			*side = &res
		case **side != r.result:
			evidence = false
		}
	}
	if resA == nil || resB == nil {
		evidence = false
	}
	return tail + 1, pair, evidence
}

// clawChurn counts the tool's newest calls that returned one same result, when they used at
// least two different argument sets (else it is the generic rule's case).
func clawChurn(hist []clawRecord, tool string) int {
	n, result := 0, ""
	args := map[uint64]bool{}
	for i := len(hist) - 1; i >= 0; i-- {
		r := hist[i]
		if r.tool != tool || !r.hasResult {
			continue
		}
		if n > 0 && r.result != result {
			break
		}
		result = r.result
		args[r.args] = true
		n++
	}
	if len(args) < 2 {
		return 0
	}
	return n
}

func clawPoll(ev *loopguard.Event) bool {
	if ev.Tool == "command_status" {
		return true
	}
	if ev.Tool != "process" {
		return false
	}
	var p struct{ Action string }
	if json.Unmarshal(ev.Args, &p) != nil {
		return false
	}
	return p.Action == "poll" || p.Action == "log"
}

var clawVolatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?`), "<timestamp>"},
	{regexp.MustCompile(`\b\d{1,2}:\d{2}:\d{2}(\.\d+)?\b`), "<time>"},
	{regexp.MustCompile(`\b\d+(\.\d+)?\s?(ms|µs|us|ns|s|sec|secs|seconds|m|min|minutes)\b`), "<duration>"},
	{regexp.MustCompile(`(?i)\b(pid|process)[ =:#]*\d+`), "$1 <n>"},
	{regexp.MustCompile(`(?i)\b(attempt|retry|try)[ =:#]*\d+(\s*(/|of)\s*\d+)?`), "$1 <n>"},
	{regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`), "<uuid>"},
	{regexp.MustCompile(`(?i)\b(msg|message|req|request|run|call|toolu)[_-][A-Za-z0-9_-]{6,}`), "$1_<id>"},
	{regexp.MustCompile(`(?i)\b[0-9a-f]{12,}\b`), "<hex>"},
}

// clawCanonical removes from a result text what changes from one identical call to the next
// without saying anything about progress.
func clawCanonical(s string) string {
	for _, v := range clawVolatile {
		s = v.re.ReplaceAllString(s, v.with)
	}
	return s
}

func clawResultHash(ev *loopguard.Event) (string, bool) {
	if !ev.HasResult && !ev.Failed {
		return "", false
	}
	c := clawCanonical(ev.Result)
	if ev.Failed {
		return "error:" + c, true
	}
	return c, true
}

var (
	clawUnknownA = regexp.MustCompile(`(?i)unknown tool[:\s]+["']?([a-z0-9_.-]+)["']?`)
	clawUnknownB = regexp.MustCompile(`(?i)tool\s+["']?([a-z0-9_.-]+)["']?\s+(?:not found|is not available)`)
)

func clawUnknownToolName(errText string) string {
	for _, re := range []*regexp.Regexp{clawUnknownA, clawUnknownB} {
		if m := re.FindStringSubmatch(errText); m != nil {
			return strings.ToLower(m[1])
		}
	}
	return ""
}
