package transcript

import (
	"bufio"
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// What `codex exec` prints when it runs without --json, which CI jobs and benchmark harnesses
// keep as the run's log:
//
//	OpenAI Codex v0.114.0 (research preview)
//	--------
//	workdir: /repo
//	model: gpt-5.4
//	--------
//	user
//	fix the build
//	codex
//	I'll look at the failing step first.
//	exec
//	/bin/zsh -lc 'npm run build' in /repo exited 2 in 1.52s:
//	error TS2304: Cannot find name 'x'.
//	tool github.get_issue({"number":12})
//	github.get_issue({"number":12}) success in 312ms:
//	{ ... }
//	file update
//	M /repo/src/a.ts
//	@@ ...
//	apply_patch(auto_approved=true) exited 0 in 12ms:
//	Success. Updated the following files:
//	tokens used
//	12,345
//
// Each block opens with a header line of its own ("user", "codex", "thinking", "exec", "file
// update", "tokens used"...). A command's line names it, the folder it ran in, and its exit
// status; Codex prints at most the first 20 lines of what it wrote, with no mark that it cut,
// so an output of 20 lines may say more than is shown and is left unknown. An MCP tool's call
// is "tool server.tool(arguments)" and then its invocation again with "success" or "failed".
// A patch is the changes under "file update", then apply_patch's exit status and its words.
// A web search is "🌐 Searched: <query>", what it found not printed. A subagent operation
// ("collab spawn_agent(...)", "collab wait(...)") is a call whose end, named by its call id,
// may come much later. Commands begun together
// are printed glued ("... in /repo" + "exec"), and their ends name no command: what each said
// is not known.
// Releases before the autumn of 2025 put the time before each header ("[2025-08-31T12:37:08]
// exec bash -lc 'ls' in /repo", its end "[...] bash -lc 'ls' succeeded in 5ms:") and the
// user's prompt under "User instructions:"; both layouts are read.
// From v0.117 (validation round r195b G2) a command's output is printed whole, the diff of the
// turn so far ("diff --git ...") is printed after outputs and the model's words with no header
// of its own, and a patch is "apply patch", "patch: completed", the files and their diff.

// codexExecShownLines is how many lines of an output codex exec prints, before v0.117.
const codexExecShownLines = 20

// codexExecPrintsWholeOutput says whether the release named by the banner line prints a
// command's whole output and the turn's diff after it: v0.117 prints outputs of more than 20
// lines (validation round r195b G2), so from it on an output is not cut.
func codexExecPrintsWholeOutput(banner string) bool {
	version, _, _ := strings.Cut(strings.TrimPrefix(banner, "OpenAI Codex v"), " ")
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		return false
	}
	major, errMajor := strconv.Atoi(parts[0])
	minor, errMinor := strconv.Atoi(parts[1])
	return errMajor == nil && errMinor == nil && (major > 0 || minor >= 117)
}

// codexExecStamp is the time an older release put before each header.
var codexExecStamp = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[\d{4}-\d\d-\d\dT[0-9:.]+Z?\] `) })

// codexExecEnd reads a command's or a patch's closing words: " succeeded in 5ms:", " exited 1
// in 1.2s:", " declined in 0ms:". A command the sandbox's policy refused ends "declined", the
// refusal under it ("`...` rejected: blocked by policy"): a failure, and an end all the same,
// else the refused command stays running and every later end is taken for one of a batch
// (validation round r196a R1: 92 calls read with no result).
var codexExecEnd = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(` (succeeded|exited (-?\d+)|declined) in [0-9][^:]*:$`)
})

// codexExecToolEnd reads an MCP call's closing words: "server.tool({...}) success in 12ms:".
var codexExecToolEnd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\) (success|failed) in [0-9][^:]*:$`) })

// isCodexExecHead says whether a file holds codex exec's banner: "OpenAI Codex v" and a
// version at the start of a line (after "Reading prompt from stdin...", a title and notes, or
// in a fenced block of a Markdown note), then the "--------" that opens its settings and a
// setting ("workdir: ").
func isCodexExecHead(head []byte) bool {
	for at := 0; at < len(head); {
		k := bytes.Index(head[at:], []byte("OpenAI Codex v"))
		if k < 0 {
			return false
		}
		k += at
		at = k + 1
		if k > 0 && head[k-1] != '\n' && !codexExecStamp().Match(head[max(0, bytes.LastIndexByte(head[:k], '\n')+1):k]) {
			continue // not at a line's start
		}
		rest := head[k:]
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 || len(rest) < 15 || rest[14] < '0' || rest[14] > '9' {
			continue
		}
		next := bytes.TrimLeft(rest[nl+1:], "\r")
		if bytes.HasPrefix(next, []byte("--------")) && bytes.Contains(next[:min(len(next), 200)], []byte("workdir: ")) {
			return true
		}
	}
	return false
}

// codexExecRunEnd stands for the line that closes a fenced block holding a run.
const codexExecRunEnd = "\x00end of run"

// codexExecHeader says whether l (its time cut off) opens a block.
func codexExecHeader(l string) bool {
	switch l {
	case "user", "codex", "thinking", "exec", "file update", "file update:", "tokens used", "Plan update",
		"context compacted", "task interrupted", "User instructions:", "apply patch", codexExecRunEnd:
		return true
	}
	// (Not Codex's "ERROR: " and "warning: " lines, which a program's output has too.)
	for _, p := range [...]string{"mcp startup:", "mcp: ", "collab ", "tokens used:", "apply_patch(",
		"apply_patch auto_approved=", "🌐 ", "viewed image ", "codex session "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	if isCodexExecToolHeader(l) || strings.HasPrefix(l, "exec ") && strings.Contains(l, " in ") ||
		isCodexExecHookLine(l) || isCodexExecWebSearch(l) || codexExecCollabEnd().MatchString(l) {
		return true
	}
	return codexExecEnd().MatchString(l) || codexExecToolEnd().MatchString(l)
}

// isCodexExecToolHeader says whether l opens an MCP call: "tool server.tool(arguments)", the
// server and the tool joined by a dot right before the parenthesis. A printed file's line
// "tool = shutil.which(\"codex\")" is no call (validation round r196a R5: a phantom call that
// cut the real output above it).
func isCodexExecToolHeader(l string) bool {
	invocation, ok := strings.CutPrefix(l, "tool ")
	if !ok || !strings.HasSuffix(invocation, ")") {
		return false
	}
	name, _, ok := strings.Cut(invocation, "(")
	server, tool, dotted := strings.Cut(name, ".")
	isName := func(s string, dots bool) bool {
		for _, c := range s {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || dots && c == '.') {
				return false
			}
		}
		return s != ""
	}
	return ok && dotted && isName(server, false) && isName(tool, true)
}

// isCodexExecHookLine says whether l is v0.128's word that a hook ran: "hook: PreToolUse",
// "hook: Stop Completed". It carries nothing, and is a header so that it is no part of the
// output or the model's words before it (validation round r196a R3: results and words that
// ended with runs of hook lines, so two like outputs compared as different).
func isCodexExecHookLine(l string) bool {
	event, ok := strings.CutPrefix(l, "hook: ")
	if !ok {
		return false
	}
	event = strings.TrimSuffix(strings.TrimSuffix(event, " Completed"), " Failed")
	for _, c := range event {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return event != ""
}

// isCodexExecWebSearch says whether l is v0.128's line of a web search: "web search:" as it
// starts (its trailing space cut off), or "web search: <query>".
func isCodexExecWebSearch(l string) bool {
	return l == "web search:" || strings.HasPrefix(l, "web search: ")
}

// isCodexLogLine says whether l is a line of Codex's own log on stderr: a time, a level and
// the Rust module that wrote it ("2026-05-11T15:28:35.686679Z ERROR codex_core::tools::router:
// error=..."). It is neither the model's words nor a command's output (validation round r196a
// R8: the model's words carried the router's refusals).
func isCodexLogLine(l string) bool {
	if len(l) < 21 || l[4] != '-' || l[7] != '-' || l[10] != 'T' {
		return false
	}
	for _, k := range [...]int{0, 1, 2, 3, 5, 6, 8, 9} {
		if l[k] < '0' || l[k] > '9' {
			return false
		}
	}
	_, rest, ok := strings.Cut(l, "Z ")
	if !ok {
		return false
	}
	level, module, _ := strings.Cut(rest, " ")
	switch level {
	case "ERROR", "WARN", "INFO", "DEBUG", "TRACE":
		return strings.Contains(module, "::")
	}
	return false
}

// codexLogLineEnd returns the index of the last line of the log line at raw[k]: a refused
// command it quotes ("error=`pwsh -Command \"@(" ... "...` rejected: blocked by policy") goes on
// over the lines of the command, up to the line that closes the quote.
func codexLogLineEnd(raw [][]byte, k int) int {
	if !bytes.Contains(raw[k], []byte("error=`")) || bytes.Count(raw[k], []byte("`"))%2 == 0 {
		return k // one line: a JSON answer ("error={...}") keeps its line breaks escaped
	}
	for j := k + 1; j < len(raw) && j <= k+codexExecMaxCommandLines; j++ {
		if bytes.Count(raw[j], []byte("`"))%2 == 1 {
			return j
		}
	}
	return k
}

func readCodexExecText(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	raw := bytes.Split(lfLines(data), []byte("\n"))
	lines := make([]string, len(raw))
	stamps := make([]bool, len(raw)) // the older layout's time before a header
	kept := 0
	for k := 0; k < len(raw); k++ {
		line := renderTerminalLine(raw[k])
		if isCodexLogLine(line) {
			k = codexLogLineEnd(raw, k)
			continue
		}
		lines[kept] = codexExecStamp().ReplaceAllString(line, "")
		stamps[kept] = len(lines[kept]) != len(line)
		kept++
	}
	lines, stamps = lines[:kept], stamps[:kept]
	lines = joinStampedCommands(lines, stamps)
	b := newBuilder(FormatCodexExecText)
	r := codexExecRun{lines: lines}
	var patch []string // the changes of the patch under way ("file update")
	sessions := 0
	for i := 0; i < len(lines); {
		l := lines[i]
		if l == codexExecRunEnd {
			r.a = nil // the fence around a run closed: notes until the next banner
			i++
			continue
		}
		if isCodexExecBanner(lines, i) {
			// A run: its settings between two rules. A file may keep several runs one after
			// another (a loop runner's ledger): each is a session. A run kept in a fenced
			// block of a note ends where the block does.
			b.session, sessions = sessions, sessions+1
			r.a, r.pending, r.ambiguous, r.collabs = b.agent(MainAgent), nil, false, map[string]int{}
			r.wholeOutput = codexExecPrintsWholeOutput(l)
			if i > 0 && strings.HasPrefix(strings.TrimSpace(lines[i-1]), "```") {
				if k := codexExecFenceEnd(lines, i+1, strings.TrimSpace(lines[i-1])); k >= 0 {
					lines[k] = codexExecRunEnd
				}
			}
			for rules := 0; i < len(lines) && rules < 2; i++ {
				if strings.HasPrefix(lines[i], "--------") {
					rules++
				}
			}
			continue
		}
		if r.a == nil {
			i++ // before the first banner: a title, notes, a harness's words
			continue
		}
		a := r.a
		switch {
		case l == "user" || l == "User instructions:":
			said, next := codexExecBody(lines, i+1)
			a.user(said, 0)
			i = next
		case l == "codex" || l == "thinking":
			said, next := codexExecBody(lines, i+1)
			if r.wholeOutput {
				said = strings.TrimSpace(strings.Join(codexExecCutTurnDiff(strings.Split(said, "\n")), "\n"))
			}
			if said != "" {
				a.text("model", said, "", 0)
			}
			i = next
		case l == "exec" && i+1 < len(lines):
			i = r.begin(i + 1)
		case strings.HasPrefix(l, "exec ") && strings.Contains(l, " in "):
			// the older layout: the command on the header's line, its end on a line of its own
			r.start(codexExecCommandText(nil, strings.TrimPrefix(l, "exec ")))
			i++
		case codexExecEnd().MatchString(l) && !strings.HasPrefix(l, "apply_patch(") &&
			(len(r.pending) > 0 || strings.TrimSpace(l[:codexExecEnd().FindStringIndex(l)[0]]) == ""):
			// the end of a command begun before, printed on a line of its own (in the older
			// layout, after the command again)
			i = r.end(i, l[codexExecEnd().FindStringIndex(l)[0]:])
		case strings.HasPrefix(l, "collab ") && codexExecCollab().MatchString(l[len("collab "):]):
			i = r.collab(i, l[len("collab "):])
		case codexExecCollabEnd().MatchString(l) && r.collabs[codexExecCollabEnd().FindStringSubmatch(l)[2]] != 0:
			i = r.collabEnd(i, l)
		case isCodexExecToolHeader(l):
			i = codexExecTool(a, lines, i, strings.TrimPrefix(l, "tool "))
		case l == "file update" || strings.HasPrefix(l, "apply_patch auto_approved="):
			patch, i = nil, i+1
			for i < len(lines) && !codexExecHeader(lines[i]) {
				patch = append(patch, lines[i])
				i++
			}
		case strings.HasPrefix(l, "apply_patch(") && codexExecEnd().MatchString(l):
			m := codexExecEnd().FindStringSubmatch(l)
			said, next := codexExecBody(lines, i+1)
			call := loopguard.Call("", "apply_patch", []byte(strings.Join(patch, "\n")))
			a.add(call.WithResult(said, m[1] != "succeeded" && m[2] != "0"))
			patch, i = nil, next
		case l == "apply patch":
			i = r.applyPatch(i)
		case strings.HasPrefix(l, "🌐 Searched: "):
			// a web search, what it found not printed
			a.add(loopguard.Call("", "web_search", marshalArgs(map[string]string{"query": strings.TrimPrefix(l, "🌐 Searched: ")})))
			i++
		case isCodexExecWebSearch(l):
			// v0.128's web search: "web search:" as it starts, then "web search: <query>", what
			// it found not printed (validation round r196a R4: searches lost in the output above)
			if query := strings.TrimSpace(strings.TrimPrefix(l, "web search:")); query != "" {
				a.add(loopguard.Call("", "web_search", marshalArgs(map[string]string{"query": query})))
			}
			i++
		default:
			i++ // a header of what is no call ("tokens used", "mcp startup: ..."), or its lines
		}
	}
	t := b.done()
	t.Sessions = max(sessions, 1)
	return t, nil
}

// joinStampedCommands joins, in the older layout, a command printed over several lines (a
// script given as a heredoc) into one line, as its header line and its end line each hold a
// one-line command: "exec bash -lc \"python3 - <<'PY'", the script, "PY\" in /repo", and
// later the command again, its last line closing with " exited 1 in 5ms:". Only a line with a
// time before it starts a header (stamps), so one without is a command's going on.
func joinStampedCommands(lines []string, stamps []bool) []string {
	out := make([]string, 0, len(lines))
	for k := 0; k < len(lines); k++ {
		l := lines[k]
		var done func(string) bool
		switch {
		case !stamps[k] || codexExecHeader(l) && !strings.HasPrefix(l, "exec "):
		case strings.HasPrefix(l, "exec ") && !strings.Contains(l, " in "):
			done = func(s string) bool { return strings.Contains(s, " in /") } // a start, up to its folder
		case !strings.HasPrefix(l, "exec ") && !codexExecEnd().MatchString(l) && k > 0 && strings.Contains(out[len(out)-1], " in "):
			done = codexExecEnd().MatchString // an end, the command again, up to its status
		}
		if done != nil {
			j, joined := k, l
			for j+1 < len(lines) && !stamps[j+1] && j-k < codexExecMaxCommandLines && !done(joined) {
				j++
				joined += "\n" + lines[j]
			}
			if done(joined) {
				out = append(out, joined)
				k = j
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// isCodexExecBanner says whether lines[i] is codex exec's banner: "OpenAI Codex v" and its
// version, then the rule that opens its settings.
func isCodexExecBanner(lines []string, i int) bool {
	l := lines[i]
	return strings.HasPrefix(l, "OpenAI Codex v") && len(l) > 14 && '0' <= l[14] && l[14] <= '9' &&
		i+1 < len(lines) && strings.HasPrefix(lines[i+1], "--------")
}

// codexExecRun follows the commands of one run. codex exec prints a command's start when it
// begins and its end when it is done; commands that run at once print their starts together
// and their ends as they finish, and an end names no command. So an end is known to be a
// command's only while that command alone is running.
type codexExecRun struct {
	lines     []string
	a         *agentBuf
	pending   []int          // the events of the commands begun and not ended
	ambiguous bool           // several ran at once since the last time none ran: no end can be placed
	collabs   map[string]int // the subagent operations begun, by call id: their events, plus one
	// wholeOutput: the run's release (v0.117 on) prints outputs whole, then the turn's diff
	wholeOutput bool
}

// A subagent operation ("collab"): its start, "collab spawn_agent(call_X, prompt="...")" or
// "collab wait(call_X)" with "  receivers: <ids>" under it, and its end, much later, named by
// the same call id: "spawn_agent(call_X, ...) pending init:", "wait(call_X) timed out:".
var (
	codexExecCollab = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(spawn_agent|send_input|wait|close_agent|resume_agent)\((call_[A-Za-z0-9_-]+)(?:, (.*))?\)$`)
	})
	codexExecCollabEnd = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(spawn_agent|send_input|wait|close_agent|resume_agent)\((call_[A-Za-z0-9_-]+).*:$`)
	})
)

// collab reads the start of a subagent operation at lines[i] (op: its invocation), adds its
// call, its arguments what it sends and to whom, not its call id, and returns the index after.
func (r *codexExecRun) collab(i int, op string) int {
	m := codexExecCollab().FindStringSubmatch(op)
	args := map[string]string{}
	if prompt, ok := strings.CutPrefix(m[3], "prompt="); ok {
		args["prompt"] = strings.Trim(prompt, `"`)
	}
	j := i + 1
	for ; j < len(r.lines) && strings.HasPrefix(r.lines[j], "  "); j++ {
		if k, v, ok := strings.Cut(strings.TrimSpace(r.lines[j]), ": "); ok {
			args[k] = v // receiver, receivers
		}
	}
	r.collabs[m[2]] = r.a.add(loopguard.Call("", m[1], marshalArgs(args))) + 1
	return j
}

// collabEnd gives the end of a subagent operation at lines[i] (its status, and the lines
// indented under it) to the operation's call, and returns the index after.
func (r *codexExecRun) collabEnd(i int, l string) int {
	m := codexExecCollabEnd().FindStringSubmatch(l)
	idx := r.collabs[m[2]] - 1
	delete(r.collabs, m[2])
	status := l
	if k := strings.LastIndex(l, ") "); k >= 0 {
		status = l[k+2:]
	}
	said := []string{strings.TrimSuffix(status, ":")}
	j := i + 1
	for ; j < len(r.lines) && strings.HasPrefix(r.lines[j], "  "); j++ {
		said = append(said, strings.TrimSpace(r.lines[j]))
	}
	e := &r.a.events[idx]
	*e = e.WithResult(strings.Join(said, "\n"), strings.Contains(status, "failed") || strings.Contains(status, "errored"))
	return j
}

// codexExecGlues are the headers that a command's start, printed with no line break after
// it, may have glued to its end: the next command's "exec", the diff of the turn so far.
var codexExecGlues = []string{"exec", "file update:", "file update", "codex", "thinking"}

// codexExecMaxCommandLines bounds how far a command printed over several lines (a heredoc)
// is followed for its end.
const codexExecMaxCommandLines = 400

// begin reads the command whose text starts at lines[i], over as many lines as it takes
// (a script given as a heredoc), up to its folder and, when it ended before anything else
// was printed, its end on the same line. From v0.120 the end is on a line of its own, so a
// command over several lines ends at the line that ends with its folder right before a
// header (its end, the next "exec"), not at its first line (validation round r196a R2:
// four different heredoc scripts read as the same first line). It returns the index of the
// line after what it read.
func (r *codexExecRun) begin(i int) int {
	lines := r.lines
	for k := i; k < len(lines) && k < i+codexExecMaxCommandLines; k++ {
		l := lines[k]
		if m := codexExecEnd().FindStringIndex(l); m != nil && strings.Contains(l[:m[0]], " in ") {
			r.start(codexExecCommandText(lines[i:k], l[:m[0]]))
			return r.end(k, l[m[0]:])
		}
		for _, g := range codexExecGlues {
			if head, ok := strings.CutSuffix(l, g); ok && strings.Contains(head, " in ") {
				r.start(codexExecCommandText(lines[i:k], head))
				lines[k] = g // the glued header, read next
				return k
			}
		}
		if k > i && codexExecHeader(l) {
			break // a header before any end: the start alone, on the lines before it
		}
		if k+1 < len(lines) && codexExecHeader(lines[k+1]) && endsWithFolder(l) {
			r.start(codexExecCommandText(lines[i:k], l))
			return k + 1
		}
	}
	r.start(codexExecCommandText(nil, lines[i]))
	return i + 1
}

// endsWithFolder says whether a command's line ends with the folder it ran in: " in " and an
// absolute path ("/repo", "~/x", "Q:\\work").
func endsWithFolder(l string) bool {
	k := strings.LastIndex(l, " in ")
	if k < 0 {
		return false
	}
	dir := l[k+len(" in "):]
	if strings.HasPrefix(dir, "/") || strings.HasPrefix(dir, "~") {
		return true
	}
	return len(dir) >= 3 && ('A' <= dir[0] && dir[0] <= 'Z' || 'a' <= dir[0] && dir[0] <= 'z') &&
		dir[1] == ':' && (dir[2] == '\\' || dir[2] == '/')
}

// codexExecCommandText is a command printed over lines before and the last line's text
// (its end, if any, already cut off), without the folder it ran in.
func codexExecCommandText(before []string, last string) string {
	cmd := strings.Join(append(append([]string(nil), before...), last), "\n")
	if k := strings.LastIndex(cmd, " in "); k >= 0 {
		cmd = cmd[:k]
	}
	return cmd
}

// start adds a command begun, its end not known yet. Commands running at once were sent
// together: one reply.
func (r *codexExecRun) start(cmd string) {
	call := loopguard.Call("", "exec_command", codexExecArgs(cmd))
	if len(r.pending) > 0 {
		r.ambiguous = true
		first := &r.a.events[r.pending[0]]
		if first.Turn == "" {
			first.Turn = "p" + strconv.Itoa(r.pending[0])
		}
		call.Turn = first.Turn
	}
	r.pending = append(r.pending, r.a.add(call))
}

// end reads the end at lines[i] (end: " succeeded in 5ms:", " exited 2 in 1.5s:") and the
// output under it, gives them to the command running when only one runs, and returns the
// index after the output.
func (r *codexExecRun) end(i int, end string) int {
	m := codexExecEnd().FindStringSubmatch(end)
	failed := m != nil && m[1] != "succeeded" && m[2] != "0"
	shown, j, whole := codexExecOutput(r.lines, i+1)
	if len(r.pending) == 0 {
		return j
	}
	idx := r.pending[0]
	if r.wholeOutput {
		shown, whole = r.cutTurnDiff(idx, shown)
	}
	r.pending = r.pending[1:]
	if e := &r.a.events[idx]; !r.ambiguous && whole {
		*e = e.WithResult(strings.TrimRight(strings.Join(shown, "\n"), "\n "), failed)
	} else if !r.ambiguous && failed {
		// Its text is not known (cut, or not to be told from the turn's diff), but its
		// exit status is: a failure counts without its words (validation round r196a R7).
		e.Failed = true
	}
	if len(r.pending) == 0 {
		r.ambiguous = false
	}
	return j
}

// codexExecBody returns the lines from lines[i] up to the next header, joined, and the index
// of that header.
func codexExecBody(lines []string, i int) (string, int) {
	j := i
	for j < len(lines) && !codexExecHeader(lines[j]) {
		j++
	}
	return strings.TrimSpace(strings.Join(lines[i:j], "\n")), j
}

// codexExecArgs is the arguments of a command as codex exec prints it: a shell's `-lc` and the
// script, unquoted ("/bin/zsh -lc 'rg --files'"), as Codex's rollouts keep it, or else the
// command line.
func codexExecArgs(cmd string) []byte {
	for _, sh := range [...]string{"/bin/zsh -lc ", "/bin/bash -lc ", "bash -lc ", "zsh -lc ", "/bin/sh -lc ", "sh -lc ", "/usr/bin/bash -lc "} {
		if script, ok := strings.CutPrefix(cmd, sh); ok {
			return marshalArgs(map[string]any{"command": []string{strings.TrimSuffix(strings.TrimSuffix(sh, " "), " -lc"), "-lc", shellWord(script)}})
		}
	}
	return marshalArgs(map[string]any{"command": cmd})
}

// shellWord reads s as one word of a shell's command line: quoted parts unquoted, escapes in
// double quotes and outside quotes resolved. What follows the word, if anything, is kept as
// it is written.
func shellWord(s string) string {
	var b strings.Builder
	i := 0
	for i < len(s) {
		switch c := s[i]; c {
		case '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return s // not one word after all
			}
			b.WriteString(s[i+1 : i+1+end])
			i += end + 2
		case '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' && j+1 < len(s) && strings.IndexByte("\"\\$`\n", s[j+1]) >= 0 {
					j++
				}
				b.WriteByte(s[j])
				j++
			}
			if j >= len(s) {
				return s
			}
			i = j + 1
		case '\\':
			if i+1 < len(s) {
				b.WriteByte(s[i+1])
			}
			i += 2
		case ' ', '\t':
			return b.String() + s[i:]
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// codexExecTool reads the MCP call at lines[i] (invocation: "server.tool({...})"), adds it,
// and returns the index after its result.
func codexExecTool(a *agentBuf, lines []string, i int, invocation string) int {
	open := strings.IndexByte(invocation, '(')
	if open <= 0 {
		return i + 1
	}
	call := loopguard.Call("", invocation[:open], []byte(strings.TrimSpace(invocation[open+1:len(invocation)-1])))
	j := i + 1
	for j < len(lines) && !codexExecHeader(lines[j]) {
		j++ // what came between (nothing, as a rule)
	}
	if j >= len(lines) || !strings.HasPrefix(lines[j], invocation[:open+1]) || !codexExecToolEnd().MatchString(lines[j]) {
		a.add(call) // its end not printed
		return j
	}
	failed := codexExecToolEnd().FindStringSubmatch(lines[j])[1] == "failed"
	shown, k, whole := codexExecOutput(lines, j+1)
	if !whole {
		a.add(call) // its first 20 lines printed: the rest not known
		return k
	}
	a.add(call.WithResult(strings.TrimSpace(strings.Join(shown, "\n")), failed))
	return k
}

// codexExecOutput reads what a command or a tool printed, from lines[i] up to the next header:
// the lines shown, the index of that header, and whether they are the whole output. Codex
// prints at most the first 20 lines, with no mark that it cut, so an output of 20 lines may
// have said more.
func codexExecOutput(lines []string, i int) (shown []string, next int, whole bool) {
	j := i
	for j < len(lines) && !codexExecHeader(lines[j]) {
		j++
	}
	return lines[i:j], j, j-i < codexExecShownLines
}

// codexExecFenceEnd returns the index of the line that closes the fenced block opened by
// opening (its line, trimmed) and holding the run from lines[from], or -1. The run's own
// prompt and its outputs may hold fenced blocks ("```bash" ... "```"), so a bare fence inside
// the run need not close it (validation round r195b G1):
//   - a fence of more backticks is closed by a line of as many;
//   - a run that ran to its end closes with "tokens used" and the count: the first bare fence
//     after them closes the block;
//   - else a fence with an info string opens an inner block that the next bare fence closes,
//     and a bare fence outside any inner block closes the run; when the inner blocks do not
//     balance, the first bare fence closes it, as before.
func codexExecFenceEnd(lines []string, from int, opening string) int {
	ticks := len(opening) - len(strings.TrimLeft(opening, "`"))
	if ticks > 3 {
		for k := from; k < len(lines); k++ {
			if l := strings.TrimSpace(lines[k]); len(l) >= ticks && strings.Trim(l, "`") == "" {
				return k
			}
		}
		return -1
	}
	for k := from; k < len(lines) && !isCodexExecBanner(lines, k); k++ {
		if lines[k] != "tokens used" {
			continue
		}
		for end := k + 1; end < len(lines) && !isCodexExecBanner(lines, end); end++ {
			if strings.TrimSpace(lines[end]) == "```" {
				return end
			}
		}
		break
	}
	firstBare, depth := -1, 0
	for k := from; k < len(lines); k++ {
		l := strings.TrimSpace(lines[k])
		if !strings.HasPrefix(l, "```") {
			continue
		}
		switch info := strings.TrimLeft(l, "`"); {
		case info != "":
			depth++
		case depth > 0:
			depth--
			if firstBare < 0 {
				firstBare = k
			}
		default:
			return k
		}
	}
	return firstBare
}

// isCodexExecTurnDiffStart says whether lines[k] starts the diff of the turn that v0.117
// prints after an output or the model's words: "diff --git " at the start of what was printed
// or after an empty line.
func isCodexExecTurnDiffStart(lines []string, k int) bool {
	return strings.HasPrefix(lines[k], "diff --git ") && (k == 0 || lines[k-1] == "")
}

// codexExecCutTurnDiff returns printed (an output, the model's words) without the turn's diff
// that v0.117 prints after it, and what follows that diff up to the next header (the model's
// reasoning), which is no part of it.
func codexExecCutTurnDiff(printed []string) []string {
	for k := range printed {
		if isCodexExecTurnDiffStart(printed, k) {
			return printed[:k]
		}
	}
	return printed
}

// cutTurnDiff cuts the turn's diff off the output shown for the command of event idx, and
// says whether what is left is known to be the command's whole output. A command that prints
// diffs of its own (git diff, git show) cannot be told from the turn's diff after it: its
// output is left unknown (validation round r195b G2).
func (r *codexExecRun) cutTurnDiff(idx int, shown []string) ([]string, bool) {
	own := codexExecCutTurnDiff(shown)
	if len(own) == len(shown) {
		return shown, true
	}
	command := string(r.a.events[idx].Args)
	for _, printsDiffs := range [...]string{"diff", "git show", "git log", "git stash show"} {
		if strings.Contains(command, printsDiffs) {
			return shown, false
		}
	}
	return own, true
}

// applyPatch reads v0.117's patch at lines[i] ("apply patch"): its status ("patch:
// completed"), the files it changed and their diff, then the turn's diff, which is not the
// patch's. It adds an apply_patch call whose arguments are the files and the patch's diff,
// and returns the index of the next header (validation round r195b G2).
func (r *codexExecRun) applyPatch(i int) int {
	lines := r.lines
	j := i + 1
	status := ""
	if j < len(lines) {
		if s, ok := strings.CutPrefix(lines[j], "patch: "); ok {
			status = s
			j++
		}
	}
	start := j
	for j < len(lines) && !codexExecHeader(lines[j]) && !strings.HasPrefix(lines[j], "diff --git ") {
		j++ // the files changed
	}
	j = codexExecDiffEnd(lines, j)
	call := loopguard.Call("", "apply_patch", []byte(strings.TrimRight(strings.Join(lines[start:j], "\n"), "\n")))
	if status != "" {
		call = call.WithResult(status, status != "completed")
	}
	r.a.add(call)
	for j < len(lines) && !codexExecHeader(lines[j]) {
		j++ // the turn's diff, the model's reasoning
	}
	return j
}

// codexExecDiffEnd returns the index after the diff of one or more files that starts at
// lines[k] ("diff --git ..."), following each hunk by the line counts of its header, as its
// context lines may print empty (their space cut off).
func codexExecDiffEnd(lines []string, k int) int {
	for k < len(lines) && strings.HasPrefix(lines[k], "diff --git ") {
		k++
		for k < len(lines) && !strings.HasPrefix(lines[k], "@@ ") && !strings.HasPrefix(lines[k], "diff --git ") &&
			!codexExecHeader(lines[k]) && lines[k] != "" {
			k++ // index, mode, ---, +++
		}
		for k < len(lines) && strings.HasPrefix(lines[k], "@@ ") {
			old, added := codexExecHunkLengths(lines[k])
			k++
			for k < len(lines) && (old > 0 || added > 0) {
				switch l := lines[k]; {
				case strings.HasPrefix(l, "-"):
					old--
				case strings.HasPrefix(l, "+"):
					added--
				case strings.HasPrefix(l, "\\"): // "\ No newline at end of file"
				default:
					old, added = old-1, added-1
				}
				k++
			}
			for k < len(lines) && strings.HasPrefix(lines[k], "\\") {
				k++
			}
		}
	}
	return k
}

// codexExecHunkLengths reads a hunk header, "@@ -12,7 +12,9 @@", as its old and new line
// counts (a count left out is 1).
func codexExecHunkLengths(header string) (old, added int) {
	fields := strings.Fields(header)
	if len(fields) < 3 {
		return 0, 0
	}
	count := func(r string) int {
		_, n, ok := strings.Cut(r, ",")
		if !ok {
			return 1
		}
		v, err := strconv.Atoi(n)
		if err != nil {
			return 0
		}
		return v
	}
	return count(fields[1]), count(fields[2])
}
