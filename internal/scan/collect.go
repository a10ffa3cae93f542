package scan

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Target is one file to scan.
type Target struct {
	Path string
	Size int64
	// Walked says the file was found by walking a folder (not named by the user): if its
	// content turns out not to be a transcript at all, it is skipped without failing the scan.
	Walked bool
	// Err is a problem met before reading (the path does not exist, a folder cannot be
	// listed); the file is then reported as failed.
	Err error
}

// transcriptSuffixes are the file names a folder walk picks up: the formats the transcript
// readers know are JSON or JSONL documents, or Markdown (Claude Code exports), possibly
// gzip-compressed; .txt and .log, where benchmark harnesses keep a CLI's headless output
// (agent/claude-code.txt, agent/codex.txt) and terminal recordings, and .out, where a cluster
// job's output goes (Slurm's slurm-<id>.out: ReAct's runs print their steps); Inspect's .eval
// archives;
// Letta's agent files (.af, a JSON document holding the agent's messages); and Jupyter
// notebooks (.ipynb), whose cells' output may be a run's printed steps (ReAct's notebooks);
// and tables (.csv), where benchmarks of agents in games log an episode a step a row (BALROG).
var transcriptSuffixes = []string{".jsonl", ".json", ".traj", ".md", ".txt", ".log", ".out", ".eval", ".af", ".ipynb", ".csv"}

// IsCandidate says whether a file met in a folder walk is read: a name ending in one of
// transcriptSuffixes, optionally followed by .gz; OpenClaw's sessions set aside when the user
// reset or deleted them (<id>.jsonl.reset.<time>, <id>.jsonl.deleted.<time>: real sessions,
// 39% of one user's calls); and opencode.db and crush.db, which are
// reported as what they are (databases: opencode's, which `opencode export` reads; Crush's,
// which scan cannot read) rather than passed over in silence.
func IsCandidate(name string) bool {
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	if name == "opencode.db" || name == "crush.db" {
		return true // to say what it is: these agents keep their sessions in a database
	}
	// OpenClaw keeps a session the user reset or deleted as <id>.jsonl.reset.<time> or
	// <id>.jsonl.deleted.<time> (validation round r81b U1).
	for _, setAside := range [...]string{".jsonl.reset.", ".jsonl.deleted."} {
		if base, _, ok := strings.Cut(name, setAside); ok && base != "" {
			return true
		}
	}
	for _, s := range transcriptSuffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// savedWithoutExtension says whether a file met in a walk of root, whose name has no
// extension, opens as a JSON document: Amazon Q's and Kiro's /save writes the conversation to
// the name the user types, most often without ".json". Only such files are opened to look,
// and none under a hidden folder (.git holds thousands of extensionless objects); the readers
// then decide whether the document is a transcript, and a walked file that is not one is passed
// over.
func savedWithoutExtension(root, path, name string) bool {
	if strings.Contains(name, ".") {
		return false
	}
	if rel, err := filepath.Rel(root, path); err != nil || slices.ContainsFunc(strings.Split(filepath.ToSlash(rel), "/"), func(part string) bool {
		return strings.HasPrefix(part, ".")
	}) {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = bytes.TrimLeft(head[:n], " \t\r\n\ufeff")
	return len(head) > 1 && head[0] == '{' && bytes.IndexByte(head, '"') > 0
}

// Collect turns files and folders into the targets to scan, sorted by path, each once. Files
// named are always read; folders are walked (symbolic links are not followed) for candidate
// names (IsCandidate), and for JSON documents saved without an extension
// (savedWithoutExtension). A path that does not exist, or a folder that cannot be listed, becomes
// a target with its Err set.
func Collect(paths []string) []Target {
	kept, _ := splitMirrors(collect(paths))
	return kept
}

// collect is Collect before the mirrors are left out.
func collect(paths []string) []Target {
	seen := map[string]int{} // index in out
	var out []Target
	add := func(t Target) {
		if i, ok := seen[t.Path]; ok {
			// A file both met in a walk and named is one the user named.
			out[i].Walked = out[i].Walked && t.Walked
			return
		}
		seen[t.Path] = len(out)
		out = append(out, t)
	}
	for _, p := range paths {
		p = filepath.Clean(p)
		st, err := os.Stat(p)
		if err != nil {
			add(Target{Path: p, Err: pathError(err)})
			continue
		}
		if !st.IsDir() {
			add(Target{Path: p, Size: st.Size()})
			continue
		}
		filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				add(Target{Path: q, Err: pathError(err)})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || !IsCandidate(d.Name()) && !savedWithoutExtension(p, q, d.Name()) {
				return nil
			}
			var size int64
			if info, err := d.Info(); err == nil {
				size = info.Size()
			}
			add(Target{Path: q, Size: size, Walked: true})
			return nil
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// A Mirror is a file a folder walk left out (splitMirrors): the session it records is read
// from Of, which records it better.
type Mirror struct {
	Path string
	Of   string // the file read instead
	Why  string // what the left-out file is, in a few words
}

// CollectMirrors is Collect that also returns the files the walks left out as mirrors of
// others, for a report that names what it passed over.
func CollectMirrors(paths []string) ([]Target, []Mirror) {
	return splitMirrors(collect(paths))
}

// splitMirrors leaves out of a folder walk the files that record a session another file of
// the walk records better, so that one session is not read (and told) twice or three times:
//
//   - Cline's and Roo Code's ui_messages.json beside their task's api_conversation_history.json
//     (the history is what the model saw);
//   - in a cctrace export folder, conversation_full.md (its results carry no call ids, so
//     parallel calls get each other's results) beside raw_messages.jsonl, and
//     raw_messages.jsonl beside session/main.jsonl, the Claude Code session itself, which
//     cctrace 2 copies in with its subagents' files;
//   - an OpenHands evaluation's llm_completions/<instance>/ dumps beside its output.jsonl,
//     whose event streams hold the same conversations, with every call's result;
//   - an OpenHands session folder's event_cache/<from>-<to>.json, its own batches of 25 of
//     the events that events/<id>.json holds one a file: read too, every run was read twice,
//     and cut at every 25th event (validation round r154c U1: 190 runs read as 959);
//   - Claude Code's forks of a conversation that it runs for itself, beside the session's
//     file: <session>/subagents/agent-acompact-<id>.jsonl (a compaction) and
//     agent-aside_question-<id>.jsonl (a side question asked with /btw) hold the whole
//     conversation so far, every call with its id, then one request of their own that makes
//     no call. Read as agents, they told every loop of the session again (validation round
//     r71d U1: 735 calls of 2,220 read twice). The subagents the model starts
//     (agent-a<id>.jsonl) are their own work, and are read;
//   - in an Entire checkpoint, the session's compact transcript.jsonl beside full.jsonl, the
//     agent's own transcript of it (validation round r96b U3: sessions read twice); Entire
//     keeps some sessions in the compact form only, and those are read;
//   - a Gemini CLI session kept in two of its project folders: releases since late 2025 name a
//     project's folder under ~/.gemini/tmp after the project, where earlier ones named it by
//     a hash of its path, and the old folder stays with copies of the sessions both held
//     (validation round r72a U1: 40 sessions, 1,427 calls and 12 notices read twice). Of the
//     files of one name in two such folders' chats/, the larger is read (the same session
//     written on for longer);
//   - Terminus's logs of its requests to the model, one an episode (<agent
//     folder>/episode-<N>/debug.json): each holds the whole chat so far, so a run of 25
//     episodes read them all as 25 sessions, the first call told 25 times (validation round
//     r114a U1: 300 calls read for a run of 26). Beside the run's trajectory.json (Harbor's,
//     which holds every step), every episode's log is left out; without it, only the last
//     episode's is read, and the last before each place where the logs shrink: a chat only
//     grows, so a log smaller than the one before it follows a cut (the chat summarised), and
//     the one before the cut is the only one that holds what came before it.
//   - a Terminal-Bench trial's capture of its terminal pane after the agent ran
//     (panes/post-agent.txt) beside the agent's own log (sessions/agent.log): the pane is a
//     copy of the same screen, cut to what tmux kept (validation round r162b U2: 67 calls of
//     mini-swe-agent runs read twice);
//   - AutoCodeRover's task folder, which keeps its chat after each round of context search
//     (conversation_round_<N>.json, each holding the rounds before it) and after each try at a
//     patch (debug_agent_write_patch_<N>.json, each holding the last round and the tries
//     before): a folder of twelve rounds and three tries read one run fourteen times over, a
//     loop told fifteen times (validation round r133b U3). The last try's file is read, else
//     the last round's;
//   - in a Harbor trial's OpenClaw folder, the session kept at the top (openclaw-session.jsonl)
//     is read; its copy and its checkpoints under openclaw-sessions/, and what the CLI printed
//     (command-<n>/stdout.txt), are not (validation round r156b U1: one run read five times);
//   - a Harbor trial's agent folder, which keeps one run in up to three forms: the agent's own
//     session files (under sessions/), what the agent's CLI printed (codex.txt,
//     claude-code.txt, ...) and Harbor's trajectory.json, converted from them (validation
//     round r114d U3: a run read once per form). The agent's own files are read: the session
//     files where the walk holds them, else the printed log; trajectory.json only where
//     neither is there (Terminus, Harbor's own agent, writes nothing else).
//
// Alone, or named by the user, each is read. It returns the files kept, and those left out
// with the file read instead and why.
func splitMirrors(targets []Target) ([]Target, []Mirror) {
	has := map[string]string{} // paths, lower case, without .gz -> the path as found
	for _, t := range targets {
		has[filepath.Join(filepath.Dir(t.Path), base(t.Path))] = t.Path
	}
	beside := func(t Target, rel string) string { return has[filepath.Join(filepath.Dir(t.Path), rel)] }
	// Gemini CLI's sessions by <tmp folder>/<file name>: the largest copy, the first of equals.
	geminiCopy := map[string]Target{}
	for _, t := range targets {
		if key, ok := geminiSessionKey(t); ok {
			if kept, seen := geminiCopy[key]; !seen || t.Size > kept.Size {
				geminiCopy[key] = t
			}
		}
	}
	terminus := terminusEpisodeMirrors(targets, has)
	harbor := harborAgentMirrors(targets, has)
	acr := autoCodeRoverMirrors(targets)
	// OpenHands session folders by path, to a file of their events/ (see the list above).
	eventsOf := map[string]string{}
	for _, t := range targets {
		if dir := filepath.Dir(t.Path); filepath.Base(dir) == "events" && strings.HasSuffix(t.Path, ".json") {
			if session := filepath.Dir(dir); eventsOf[session] == "" {
				eventsOf[session] = t.Path
			}
		}
	}
	mirrorOf := func(t Target) (of, why string) {
		if m, ok := terminus[t.Path]; ok {
			return m.Of, m.Why
		}
		if m, ok := acr[t.Path]; ok {
			return m.Of, m.Why
		}
		if m, ok := harbor[t.Path]; ok {
			return m.Of, m.Why
		}
		if dir, _, ok := strings.Cut(filepath.ToSlash(t.Path), "/llm_completions/"); ok {
			if of := has[filepath.Join(filepath.FromSlash(dir), "output.jsonl")]; of != "" {
				return of, "OpenHands' completion dumps of the evaluation's conversations"
			}
		}
		if dir := filepath.Dir(t.Path); filepath.Base(dir) == "event_cache" {
			if of := eventsOf[filepath.Dir(dir)]; of != "" {
				return of, "OpenHands' cache of the session's events, 25 a file (events/ holds each)"
			}
		}
		if key, ok := geminiSessionKey(t); ok && geminiCopy[key].Path != t.Path {
			return geminiCopy[key].Path, "Gemini CLI's copy of the session in another project folder"
		}
		if isClaudeCodeFork(t.Path) {
			// <project>/<session>/subagents/agent-acompact-<id>.jsonl beside <project>/<session>.jsonl
			session := filepath.Dir(filepath.Dir(t.Path))
			if of := has[filepath.Join(filepath.Dir(session), strings.ToLower(filepath.Base(session))+".jsonl")]; of != "" {
				return of, "Claude Code's fork of the conversation (a compaction or a side question)"
			}
			return "", ""
		}
		switch base(t.Path) {
		case "ui_messages.json":
			return beside(t, "api_conversation_history.json"), "the task's view in the UI"
		case "conversation_full.md":
			if of := beside(t, filepath.Join("session", "main.jsonl")); of != "" {
				return of, "cctrace's Markdown of the session"
			}
			return beside(t, "raw_messages.jsonl"), "cctrace's Markdown of the session"
		case "raw_messages.jsonl":
			return beside(t, filepath.Join("session", "main.jsonl")), "cctrace's copy of the session's messages"
		case "transcript.jsonl":
			return beside(t, "full.jsonl"), "Entire's compact copy of the session"
		case "post-agent.txt":
			if filepath.Base(filepath.Dir(t.Path)) == "panes" {
				return beside(t, filepath.Join("..", "sessions", "agent.log")), "Terminal-Bench's capture of the terminal pane after the agent's run"
			}
		}
		return "", ""
	}
	var mirrors []Mirror
	kept := slices.DeleteFunc(targets, func(t Target) bool {
		if !t.Walked {
			return false
		}
		if of, why := mirrorOf(t); of != "" {
			mirrors = append(mirrors, Mirror{Path: t.Path, Of: of, Why: why})
			return true
		}
		return false
	})
	return kept, mirrors
}

// terminusEpisodeMirrors finds the Terminus episode logs a walk leaves out (see
// splitMirrors), by path; has maps the walk's paths as splitMirrors keys them.
func terminusEpisodeMirrors(targets []Target, has map[string]string) map[string]Mirror {
	type episode struct {
		n int
		t Target
	}
	byAgent := map[string][]episode{} // agent folder -> its episodes' logs
	for _, t := range targets {
		if !t.Walked || base(t.Path) != "debug.json" {
			continue
		}
		dir := filepath.Dir(t.Path)
		digits, ok := strings.CutPrefix(filepath.Base(dir), "episode-")
		n, err := strconv.Atoi(digits)
		if !ok || err != nil || n < 0 {
			continue
		}
		agent := filepath.Dir(dir)
		byAgent[agent] = append(byAgent[agent], episode{n, t})
	}
	out := map[string]Mirror{}
	for agent, eps := range byAgent {
		if trajectory := has[filepath.Join(agent, "trajectory.json")]; trajectory != "" {
			for _, e := range eps {
				out[e.t.Path] = Mirror{Path: e.t.Path, Of: trajectory, Why: "Terminus's log of one episode's request (the run's trajectory.json holds every step)"}
			}
			continue
		}
		slices.SortFunc(eps, func(a, b episode) int { return b.n - a.n }) // the last first
		kept := eps[0].t
		for k := 1; k < len(eps); k++ {
			if eps[k].t.Size > eps[k-1].t.Size {
				kept = eps[k].t // the chat was cut after this episode: its log is the last to hold what came before
				continue
			}
			out[eps[k].t.Path] = Mirror{Path: eps[k].t.Path, Of: kept.Path, Why: "Terminus's log of an earlier episode's request (a later one holds the chat so far)"}
		}
	}
	return out
}

// autoCodeRoverMirrors finds the chats of AutoCodeRover's task folders that a walk leaves out
// (see splitMirrors), by path: in each folder, every round's and every patch try's chat but the
// one that holds them all, the last try's, else the last round's.
func autoCodeRoverMirrors(targets []Target) map[string]Mirror {
	type chat struct {
		try bool // a patch try's chat, which comes after every round's
		n   int
		t   Target
	}
	byDir := map[string][]chat{}
	for _, t := range targets {
		if !t.Walked {
			continue
		}
		name := strings.TrimSuffix(base(t.Path), ".json")
		c := chat{t: t}
		digits, round := strings.CutPrefix(name, "conversation_round_")
		if !round {
			digits, c.try = strings.CutPrefix(name, "debug_agent_write_patch_")
		}
		n, err := strconv.Atoi(digits)
		if !round && !c.try || err != nil || n < 0 {
			continue
		}
		c.n = n
		dir := filepath.Dir(t.Path)
		byDir[dir] = append(byDir[dir], c)
	}
	out := map[string]Mirror{}
	for _, chats := range byDir {
		last := slices.MaxFunc(chats, func(a, b chat) int {
			if a.try != b.try {
				if a.try {
					return 1
				}
				return -1
			}
			return a.n - b.n
		})
		for _, c := range chats {
			if c.t.Path != last.t.Path {
				out[c.t.Path] = Mirror{Path: c.t.Path, Of: last.t.Path, Why: "AutoCodeRover's chat after an earlier round or patch try (a later file holds it)"}
			}
		}
	}
	return out
}

// harborPrintedLogs are the names under which Harbor keeps, in a trial's agent folder, what
// an agent's CLI printed in a format scan reads (codex exec --json, claude -p stream-json,
// cursor-agent and opencode run JSON, pi's JSON mode, mini-swe-agent's trajectory).
var harborPrintedLogs = []string{"codex.txt", "claude-code.txt", "cursor-cli.txt", "opencode.txt", "pi.txt", "mini-swe-agent.trajectory.json"}

// harborAgentMirrors finds the copies of a Harbor run that a walk leaves out (see
// splitMirrors), by path; has maps the walk's paths as splitMirrors keys them.
func harborAgentMirrors(targets []Target, has map[string]string) map[string]Mirror {
	// agent folder -> its largest session file in the walk: a JSONL file under sessions/ (a
	// Codex rollout, a Claude Code session; the folder also keeps the CLI's settings, todos and
	// caches, which are no session)
	sessions := map[string]Target{}
	for _, t := range targets {
		if !t.Walked || !strings.HasSuffix(base(t.Path), ".jsonl") {
			continue
		}
		for d := filepath.Dir(t.Path); filepath.Dir(d) != d; d = filepath.Dir(d) {
			if filepath.Base(d) == "sessions" {
				agent := filepath.Dir(d)
				if has[filepath.Join(agent, "trajectory.json")] != "" || harborPrintedLog(agent, has) != "" {
					if kept, seen := sessions[agent]; !seen || t.Size > kept.Size {
						sessions[agent] = t
					}
				}
				break
			}
		}
	}
	// OpenClaw's agent folder keeps its session at the top, <agent>-session.jsonl, beside
	// <agent>-sessions/ (the same file again, and checkpoints: the session cut short) and
	// command-<n>/stdout.txt (what the CLI printed of it): read them all, one run was five
	// (validation round r156b U1). The session at the top is the run.
	for _, t := range targets {
		agent := filepath.Dir(t.Path)
		if t.Walked && strings.HasSuffix(base(t.Path), "-session.jsonl") && has[filepath.Join(agent, "trajectory.json")] != "" {
			sessions[agent] = t
		}
	}
	out := map[string]Mirror{}
	for _, t := range targets {
		if !t.Walked {
			continue
		}
		agent, name := filepath.Dir(t.Path), base(t.Path)
		own := sessions[agent].Path
		if up := filepath.Dir(agent); own == "" && sessions[up].Path != "" && strings.HasSuffix(base(sessions[up].Path), "-session.jsonl") {
			switch sub := filepath.Base(agent); {
			case strings.HasSuffix(sub, "-sessions") && strings.HasSuffix(name, ".jsonl"):
				out[t.Path] = Mirror{Path: t.Path, Of: sessions[up].Path, Why: "the agent's own copy of its session, or a checkpoint of it"}
			case strings.HasPrefix(sub, "command-") && name == "stdout.txt":
				out[t.Path] = Mirror{Path: t.Path, Of: sessions[up].Path, Why: "what the agent's CLI printed of the run its session file holds"}
			}
			continue
		}
		switch {
		case name == "trajectory.json":
			if own == "" {
				own = harborPrintedLog(agent, has)
			}
			if own != "" {
				out[t.Path] = Mirror{Path: t.Path, Of: own, Why: "Harbor's trajectory of the run, converted from the agent's own log"}
			}
		case slices.Contains(harborPrintedLogs, name) && own != "":
			out[t.Path] = Mirror{Path: t.Path, Of: own, Why: "what the agent's CLI printed of the run its session file holds"}
		}
	}
	return out
}

// harborPrintedLog is the path of the printed log (harborPrintedLogs) in agent folder dir
// that the walk holds, or "".
func harborPrintedLog(dir string, has map[string]string) string {
	for _, n := range harborPrintedLogs {
		if p := has[filepath.Join(dir, n)]; p != "" {
			return p
		}
	}
	return ""
}

// isClaudeCodeFork says whether a path is that of a fork of a Claude Code conversation (see
// splitMirrors): a compaction's or a side question's file in a session's subagents folder.
func isClaudeCodeFork(p string) bool {
	name := base(p)
	return strings.EqualFold(filepath.Base(filepath.Dir(p)), "subagents") &&
		strings.HasSuffix(name, ".jsonl") &&
		(strings.HasPrefix(name, "agent-acompact-") || strings.HasPrefix(name, "agent-aside_question-"))
}

// geminiSessionKey names a Gemini CLI session file met in a walk by its tmp folder and its
// file name (<...>/tmp/<project>/chats/session-*.json[l] gives "<...>/tmp" and the name), so
// that its copies in two project folders share it; ok is false for any other file.
func geminiSessionKey(t Target) (string, bool) {
	name := base(t.Path)
	chats := filepath.Dir(t.Path)
	tmp := filepath.Dir(filepath.Dir(chats))
	if !t.Walked || !strings.HasPrefix(name, "session-") || filepath.Base(chats) != "chats" || filepath.Base(tmp) != "tmp" ||
		!(strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl")) {
		return "", false
	}
	return filepath.Join(tmp, name), true
}

// base is a path's file name in lower case, without a ".gz".
func base(p string) string { return strings.TrimSuffix(strings.ToLower(filepath.Base(p)), ".gz") }

// pathError drops the path from an os error: reports put the path in front themselves.
func pathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &pathErr{op: pe.Op, err: pe.Err, path: pe.Path}
	}
	return err
}

type pathErr struct {
	op, path string
	err      error
}

func (e *pathErr) Error() string { return e.path + ": " + e.op + ": " + e.err.Error() }
func (e *pathErr) Unwrap() error { return e.err }

// DefaultLocations returns the folders where the coding agents installed on this machine keep
// their transcripts, those that exist: Claude Code's projects ($CLAUDE_CONFIG_DIR or
// ~/.claude), Codex's sessions ($CODEX_HOME or ~/.codex), Gemini CLI's tmp (~/.gemini), and
// OpenHands' conversations (~/.openhands/conversations, the 1.x CLI and agent SDK) and
// sessions (~/.openhands/sessions, 0.x), each a folder of event files per conversation, and
// the task folders of Cline and Roo Code in the global storage of VS Code (and of its
// Insiders build, VSCodium and Cursor), on Linux and macOS, and opencode's data folder
// ($XDG_DATA_HOME/opencode or ~/.local/share/opencode: the storage folder of earlier versions,
// the database of current ones, which the walk names and explains), and the session folders
// of Qwen Code (~/.qwen/projects), pi (~/.pi/agent/sessions) and OpenClaw (~/.openclaw/agents),
// GitHub Copilot CLI (~/.copilot/session-state), VS Code's chat panel (see vscodeChatSessions),
// Continue (~/.continue/sessions), Cline CLI
// (~/.cline/data/sessions), Goose ($XDG_DATA_HOME/goose/sessions or
// ~/.local/share/goose/sessions), Kimi CLI (~/.kimi/sessions), Open Interpreter
// (openInterpreterConversations) and Cursor's agent
// (~/.cursor/projects/<project>/agent-transcripts). Two agents keep their
// chats in the repository they work in rather than in the home folder: Aider
// (.aider.chat.history.md) and SpecStory (.specstory/history); those of the current folder
// are scanned too.
// It also returns every location it looked at, for the message given when none exists.
func DefaultLocations(getenv func(string) string) (found, looked []string) {
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	under := func(env, def, sub string) string {
		base := ""
		if env != "" {
			base = getenv(env)
		}
		if base == "" {
			if home == "" {
				return ""
			}
			base = filepath.Join(home, def)
		}
		return filepath.Join(base, sub)
	}
	for _, d := range append([]string{
		under("CLAUDE_CONFIG_DIR", ".claude", "projects"),
		under("CODEX_HOME", ".codex", "sessions"),
		under("", ".gemini", "tmp"),
		under("", ".openhands", "conversations"),
		under("", ".openhands", "sessions"),
		opencodeData(getenv, home),
		under("", ".qwen", "projects"),
		under("", filepath.Join(".pi", "agent"), "sessions"),
		under("", ".openclaw", "agents"),
		under("", ".copilot", "session-state"),
		under("", ".continue", "sessions"),
		under("", filepath.Join(".cline", "data"), "sessions"),
		gooseSessions(getenv, home),
		under("", ".kimi", "sessions"),
	}, append(openInterpreterConversations(getenv, home), vscodeTasks(home)...)...) {
		if d == "" {
			continue
		}
		looked = append(looked, d)
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			found = append(found, d)
		}
	}
	chats, patterns := vscodeChatSessions(home)
	found = append(found, chats...)
	looked = append(looked, patterns...)
	if home != "" {
		// Cursor keeps its agent's chats per project (cursor-transcript, and JSON lines).
		pattern := filepath.Join(home, ".cursor", "projects", "*", "agent-transcripts")
		looked = append(looked, pattern)
		found = append(found, globDirs(pattern)...)
	}
	if cwd, err := os.Getwd(); err == nil {
		for _, p := range []string{filepath.Join(cwd, ".aider.chat.history.md"), filepath.Join(cwd, ".specstory", "history")} {
			looked = append(looked, p)
			if _, err := os.Stat(p); err == nil {
				found = append(found, p)
			}
		}
	}
	return found, looked
}

// vscodeTasks lists where Cline, Roo Code and Kilo Code (a fork of Roo Code, the same task
// files) keep their tasks: <editor user data>/User/globalStorage/<extension id>/tasks.
func vscodeTasks(home string) []string {
	var out []string
	for _, user := range vscodeUserDirs(home) {
		for _, ext := range []string{"saoudrizwan.claude-dev", "rooveterinaryinc.roo-cline", "kilocode.kilo-code"} {
			out = append(out, filepath.Join(user, "globalStorage", ext, "tasks"))
		}
	}
	return out
}

// vscodeUserDirs lists the user data folders of VS Code and the editors built on it, on Linux
// and macOS: <base>/<editor>/User.
func vscodeUserDirs(home string) []string {
	if home == "" {
		return nil
	}
	var out []string
	for _, base := range []string{filepath.Join(home, ".config"), filepath.Join(home, "Library", "Application Support")} {
		for _, editor := range []string{"Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf"} {
			out = append(out, filepath.Join(base, editor, "User"))
		}
	}
	return out
}

// vscodeChatSessions lists the folders where VS Code (and the editors built on it) keeps the
// sessions of its chat panel, GitHub Copilot's agent mode among them: one per workspace,
// <editor user data>/User/workspaceStorage/<hash>/chatSessions, and the one of windows
// without a folder, User/globalStorage/emptyWindowChatSessions. Only those that exist are
// found: there is one workspace folder per project ever opened. looked names them as patterns,
// for the message given when no agent's folder exists.
func vscodeChatSessions(home string) (found, looked []string) {
	for _, user := range vscodeUserDirs(home) {
		for _, pattern := range []string{filepath.Join(user, "workspaceStorage", "*", "chatSessions"), filepath.Join(user, "globalStorage", "emptyWindowChatSessions")} {
			looked = append(looked, pattern)
			found = append(found, globDirs(pattern)...)
		}
	}
	return found, looked
}

// globDirs lists the folders that match pattern.
func globDirs(pattern string) []string {
	var dirs []string
	matches, _ := filepath.Glob(pattern)
	for _, d := range matches {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// gooseSessions is Goose's session folder: $XDG_DATA_HOME/goose/sessions, or
// ~/.local/share/goose/sessions.
func gooseSessions(getenv func(string) string, home string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "goose", "sessions")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share", "goose", "sessions")
}

// openInterpreterConversations are the folders where Open Interpreter saves its conversations:
// its configuration folder's conversations ($XDG_CONFIG_HOME/open-interpreter or
// ~/.config/open-interpreter; "Open Interpreter" up to 0.2.0; on macOS under
// ~/Library/Application Support).
func openInterpreterConversations(getenv func(string) string, home string) []string {
	var out []string
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		out = append(out, filepath.Join(d, "open-interpreter", "conversations"))
	}
	if home == "" {
		return out
	}
	return append(out, filepath.Join(home, ".config", "open-interpreter", "conversations"),
		filepath.Join(home, ".config", "Open Interpreter", "conversations"),
		filepath.Join(home, "Library", "Application Support", "open-interpreter", "conversations"))
}

// opencodeData is opencode's data folder: $XDG_DATA_HOME/opencode, or
// ~/.local/share/opencode.
func opencodeData(getenv func(string) string, home string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "opencode")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share", "opencode")
}
