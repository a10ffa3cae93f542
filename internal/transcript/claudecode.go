package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"hash/fnv"
	"hash/maphash"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// Claude Code session JSONL (~/.claude/projects/<project>/<session>.jsonl).
//
// One JSON object per line. Lines of type "user" and "assistant" carry an API message in
// `message`; every other type (summary, system, progress, file-history-snapshot,
// queue-operation, ...) is skipped. An assistant message is often spread over several lines,
// one content block each, that share message.id and repeat its usage.
//
//   - assistant tool_use / server_tool_use blocks: one call each (Tool = name, Args = the
//     `input` JSON as written in the file); text and thinking blocks: EventText, Source "model"
//     (Source "synthetic" for the messages Claude Code writes itself, model "<synthetic>").
//   - user tool_result blocks: the result of the call with that tool_use_id (is_error: Failed);
//     so is a server tool's result block in an assistant message ("advisor_tool_result").
//   - other user text: a user turn when a person typed it (a prompt, a slash command), else
//     injected text with a Source saying what injected it (isMeta lines, command output,
//     task notifications, system reminders, interrupts, compaction summaries).
//
// The same lines, with snake_case session_id and a parent_tool_use_id, are what
// `claude -p --output-format stream-json --verbose` prints (benchmark harnesses keep it as
// agent/claude-code.txt); its "system" and "result" lines are skipped, except that a run's
// "init" line with another session_id than the run before, after that run's messages, opens
// a session of its own: scripts that run `claude -p` in a loop append every run to one file.
//
// Agents: lines that are not sidechain belong to "main"; stream-json lines with a
// parent_tool_use_id belong to "task-<that id>". Sidechain lines (subagents) belong to
// "agent-<agentId>"; recent versions write each subagent to
// <session>/subagents/agent-<id>.jsonl, read as its own file; when a sidechain line has no
// agentId, the agent is taken from such a file name, or else from the chain of parentUuid
// links ("sidechain-1", "sidechain-2", ...).

type ccLine struct {
	Type             string
	UUID             string
	ParentUUID       string
	IsSidechain      bool
	IsMeta           bool
	IsSynthetic      bool // text Claude Code wrote into a user line itself (a skill's instructions)
	IsCompactSummary bool
	AgentID          string
	ParentToolUseID  string // stream-json: the Task call whose subagent wrote the line
	Subtype          string // stream-json's system lines: "init" begins a run
	SessionID        string // stream-json's session_id
	Timestamp        string
	CostUSD          float64
	TotalCostUSD     float64  // stream-json's closing "result" line: what the whole run cost
	RunUsage         *ccUsage // and the run's tokens, all its messages' (theirs are counted when each begins)
	Message          *ccMessage
	Progress         *ccProgress // a "progress" line's data
}

// ccProgress is the data of a "progress" line. Claude Code 2.1 writes each message of a
// subagent into its parent's file as such a line ("agent_progress", the subagent's id, the
// message as a line of its own), besides the subagent's own file.
type ccProgress struct {
	Type    string
	AgentID string
	Line    *ccLine
}

func (p *ccProgress) member(w *walker) memberFunc {
	return func(key []byte, v int) (int, error) {
		switch string(key) {
		case "type":
			return w.str(v, &p.Type)
		case "agentId":
			return w.str(v, &p.AgentID)
		case "message":
			if w.data[v] != '{' {
				return w.skip(v)
			}
			p.Line = &ccLine{}
			return w.object(v, p.Line.member(w))
		}
		return w.skip(v)
	}
}

type ccMessage struct {
	ID      string
	Model   string
	Content ccContent
	Usage   *ccUsage
}

// ccUsage is the tokens of a message, or of a run (stream-json's "result" line).
type ccUsage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
}

// ccContent is a message's content: a string or a list of blocks.
type ccContent struct {
	Text     string
	IsString bool
	Blocks   []ccBlock
}

type ccBlock struct {
	Type      string
	Text      string
	Thinking  string
	ID        string
	Name      string
	Input     json.RawMessage
	ToolUseID string
	Content   any
	IsError   bool
}

func (l *ccLine) member(w *walker) memberFunc {
	return func(key []byte, v int) (int, error) {
		switch string(key) {
		case "type":
			return w.str(v, &l.Type)
		case "uuid":
			return w.str(v, &l.UUID)
		case "parentUuid":
			return w.str(v, &l.ParentUUID)
		case "isSidechain":
			return w.boolean(v, &l.IsSidechain)
		case "isMeta":
			return w.boolean(v, &l.IsMeta)
		case "isSynthetic":
			return w.boolean(v, &l.IsSynthetic)
		case "isCompactSummary":
			return w.boolean(v, &l.IsCompactSummary)
		case "agentId":
			return w.str(v, &l.AgentID)
		case "subtype":
			return w.str(v, &l.Subtype)
		case "session_id":
			return w.str(v, &l.SessionID)
		case "parent_tool_use_id":
			if w.data[v] != '"' {
				return w.skip(v) // null: the main agent
			}
			return w.str(v, &l.ParentToolUseID)
		case "timestamp":
			return w.str(v, &l.Timestamp)
		case "costUSD":
			return w.std(v, &l.CostUSD)
		case "total_cost_usd":
			return w.std(v, &l.TotalCostUSD)
		case "usage":
			if w.data[v] != '{' {
				return w.skip(v)
			}
			l.RunUsage = &ccUsage{}
			return w.std(v, l.RunUsage)
		case "message":
			if w.data[v] != '{' {
				return w.skip(v)
			}
			l.Message = &ccMessage{}
			return w.object(v, l.Message.member(w))
		case "data":
			if l.Type != "" && l.Type != "progress" || w.data[v] != '{' {
				return w.skip(v) // only a progress line's data is read ("type" comes first)
			}
			l.Progress = &ccProgress{}
			return w.object(v, l.Progress.member(w))
		}
		return w.skip(v)
	}
}

func (m *ccMessage) member(w *walker) memberFunc {
	return func(key []byte, v int) (int, error) {
		switch string(key) {
		case "id":
			return w.str(v, &m.ID)
		case "model":
			return w.str(v, &m.Model)
		case "usage":
			return w.std(v, &m.Usage)
		case "content":
			c := &m.Content
			switch w.data[v] {
			case '"':
				c.IsString = true
				return w.str(v, &c.Text)
			case '[':
				return w.array(v, func(e int) (int, error) {
					if w.data[e] != '{' {
						return w.skip(e)
					}
					c.Blocks = append(c.Blocks, ccBlock{})
					return w.object(e, c.Blocks[len(c.Blocks)-1].member(w))
				})
			}
		}
		return w.skip(v)
	}
}

func (b *ccBlock) member(w *walker) memberFunc {
	return func(key []byte, v int) (int, error) {
		switch string(key) {
		case "type":
			return w.str(v, &b.Type)
		case "text":
			return w.str(v, &b.Text)
		case "thinking":
			return w.str(v, &b.Thinking)
		case "id":
			return w.str(v, &b.ID)
		case "name":
			return w.str(v, &b.Name)
		case "input":
			return w.raw(v, &b.Input)
		case "tool_use_id":
			return w.str(v, &b.ToolUseID)
		case "content":
			return w.anyValue(v, &b.Content)
		case "is_error":
			return w.boolean(v, &b.IsError)
		}
		return w.skip(v)
	}
}

type ccCallRef struct {
	agent *agentBuf
	idx   int
}

// ccCopied says whether a call read under an id already seen is a resumed session's copy of
// one of the calls made under it: the same reply (message id), tool and input. Another call
// under the same id is a call of its own: a log whose ids were all redacted to one
// placeholder held 39 calls, read as one (validation round r56a U2), and five runs of the
// same command, each its own reply, are five calls. (Where the message ids were redacted
// too, the same call made again under them cannot be told from a copy, and is read once.)
func ccCopied(made []ccCallRef, tool string, args []byte, msgID string) bool {
	for _, ref := range made {
		if e := &ref.agent.events[ref.idx]; e.Tool == tool && bytes.Equal(e.Args, args) && e.Turn == msgID {
			return true
		}
	}
	return false
}

type ccUsageKey struct {
	agent *agentBuf
	msgID string
}

func readClaudeCode(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatClaudeCode)
	fileAgent := subagentFromFileName(name)
	// Lines written twice (a line's uuid and its bytes), to drop the copy. By uuid alone, the
	// lines `claude -p --output-format stream-json` 2.0 printed for one message, a text and
	// five calls each on a line of its own under one uuid, were read as one line and its calls
	// lost (validation round r56a U1).
	seen := map[ccLineKey]bool{}
	lineSeed := maphash.MakeSeed()    // maphash, not fnv: every line is hashed, some of them long
	chain := map[string]*agentBuf{}   // line uuid -> agent, for sidechains without agentId
	calls := map[string][]ccCallRef{} // tool_use id -> the calls made under it, in order
	// Results written before their call: Claude Code 2.1 may write a result's line a few lines
	// ahead of the call it answers (its parentUuid and its time say which comes first). Held
	// by the call's id until the call is read (validation round r132b U1: an Edit's result was
	// lost).
	early := map[string]ccEarlyResult{}
	// A session resumed or forked is written again into its file from the start: new line
	// uuids, the same message and tool_use ids. The copy is not the model doing it all again
	// (two real files read 23% and 31% more calls than they hold): a model block already read
	// under its message id, a call already read under its id, and a result already given are
	// passed over.
	saidBlocks := map[ccBlockKey]bool{}
	progressSeen := map[string]bool{} // the subagent messages read from progress lines, by uuid
	subagentFiles := subagentFileCache{}
	usage := map[ccUsageKey]Usage{} // per API message: its lines repeat the usage
	var usageOrder []ccUsageKey
	sidechains := 0

	jsonSeen := false
	runCost := 0.0
	var runTokens Usage // the "result" lines' tokens (see ccLine.RunUsage)
	runTokensSeen := false
	runSession, runRead := "", false // stream-json: the run's session id, and whether it said anything
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		if !jsonSeen && line[0] != '{' {
			// Text a captured terminal printed before the CLI's output (stream-json kept as
			// a harness's stdout.txt); after the first JSON line, a line of text is damage.
			return nil
		}
		jsonSeen = true
		var l ccLine
		if err := walkLine(line, l.member); err != nil {
			return err
		}
		if l.Type == "result" && l.TotalCostUSD > 0 {
			runCost += l.TotalCostUSD
			if u := l.RunUsage; u != nil {
				runTokens.add(Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
					CacheReadTokens: u.CacheReadInputTokens, CacheWriteTokens: u.CacheCreationInputTokens})
				runTokensSeen = true
			}
		}
		if l.Type == "system" && l.Subtype == "init" && l.SessionID != "" {
			// A run of `claude -p` begins; another conversation than the run before is a
			// session of its own (validation round r79a U1: seven runs a script appended
			// to one file were read as one session). A resumed run keeps its session id.
			if runSession != "" && l.SessionID != runSession && runRead {
				b.session++
				runRead = false
			}
			runSession = l.SessionID
		}
		if p := l.Progress; p != nil && p.Type == "agent_progress" && p.AgentID != "" && p.Line != nil {
			// A subagent's message, copied into its parent's file: read as the subagent's
			// line when its own file is not beside this one, as when a session is shared
			// without its subagents folder (validation round r132b U2: three subagents'
			// calls went unread). A message is copied once per line that reports it.
			inner := p.Line
			if inner.UUID == "" || progressSeen[inner.UUID] || subagentFiles.has(name, p.AgentID) {
				return nil
			}
			progressSeen[inner.UUID] = true
			l = *inner
			l.IsSidechain, l.AgentID, l.ParentToolUseID = true, p.AgentID, ""
		}
		if (l.Type != "user" && l.Type != "assistant") || l.Message == nil {
			return nil
		}
		runRead = true
		if l.UUID != "" {
			key := ccLineKey{l.UUID, maphash.Bytes(lineSeed, line)}
			if seen[key] {
				return nil
			}
			seen[key] = true
		}

		var a *agentBuf
		switch {
		case l.ParentToolUseID != "":
			// `claude -p --output-format stream-json` marks a subagent's lines with the id of
			// the Task call that started it, not with isSidechain.
			a = b.agent("task-" + l.ParentToolUseID)
		case !l.IsSidechain:
			a = b.agent(MainAgent)
		case l.AgentID != "":
			a = b.agent("agent-" + l.AgentID)
		case fileAgent != "":
			a = b.agent(fileAgent)
		default:
			a = chain[l.ParentUUID]
			if a == nil {
				sidechains++
				a = b.agent("sidechain-" + strconv.Itoa(sidechains))
			}
		}
		if l.UUID != "" && l.IsSidechain {
			chain[l.UUID] = a
		}
		ms := parseTime(l.Timestamp)
		content := &l.Message.Content

		if l.Type == "assistant" {
			if u := l.Message.Usage; u != nil || l.CostUSD != 0 {
				key := ccUsageKey{a, l.Message.ID}
				if key.msgID == "" {
					// No id to merge lines on: the line counts on its own.
					key.msgID = "\x00" + strconv.Itoa(len(usageOrder))
				}
				if _, ok := usage[key]; !ok {
					usageOrder = append(usageOrder, key)
				}
				v := Usage{CostUSD: l.CostUSD}
				if u != nil {
					v.InputTokens, v.OutputTokens = u.InputTokens, u.OutputTokens
					v.CacheReadTokens, v.CacheWriteTokens = u.CacheReadInputTokens, u.CacheCreationInputTokens
				}
				usage[key] = v // the last line of a message has its final counts
			}
			source := "model"
			if m := l.Message.Model; m == "<synthetic>" {
				// Written by Claude Code itself (API errors, "No response requested.").
				source = "synthetic"
			} else if m != "" {
				a.usage.Model = m
			}
			if content.IsString {
				a.text(source, content.Text, l.UUID, ms)
			}
			for i := range content.Blocks {
				bl := &content.Blocks[i]
				switch bl.Type {
				case "text", "thinking":
					from, text := source, bl.Text
					if bl.Type == "thinking" {
						from, text = "model", bl.Thinking
					}
					if l.Message.ID != "" {
						key := ccBlockKey{l.Message.ID, i, hashText(text)}
						if saidBlocks[key] {
							continue // a resumed session's copy
						}
						saidBlocks[key] = true
					}
					a.turn = l.Message.ID // the reply's, as its calls' Turn
					a.text(from, text, blockID(l.UUID, i, len(content.Blocks)), ms)
					a.turn = ""
				case "tool_use", "server_tool_use":
					var args []byte
					if in := bytesTrimSpace(bl.Input); len(in) > 0 && string(in) != "null" {
						args = in
					}
					if bl.ID != "" && ccCopied(calls[bl.ID], bl.Name, args, l.Message.ID) {
						continue // a resumed session's copy of the call
					}
					// The blocks of one message (its lines share the message id) are one
					// reply: parallel calls.
					idx := a.add(loopguard.Event{Type: loopguard.EventCall, Tool: bl.Name, Args: args, Time: ms, Turn: l.Message.ID})
					if bl.ID != "" {
						calls[bl.ID] = append(calls[bl.ID], ccCallRef{a, idx})
						if r, ok := early[bl.ID]; ok {
							e := &a.events[idx]
							e.Result, e.HasResult, e.Failed = r.text, true, r.failed
							delete(early, bl.ID)
						}
					}
				default:
					// A server tool's result comes back in the model's own message, in a block
					// named for the tool ("web_search_tool_result", "advisor_tool_result"):
					// it answers the server_tool_use of its id (validation round r144a U1: an
					// advisor's advice was read as no answer).
					if strings.HasSuffix(bl.Type, "_tool_result") && bl.ToolUseID != "" {
						for _, ref := range calls[bl.ToolUseID] {
							if e := &ref.agent.events[ref.idx]; !e.HasResult {
								e.Result, e.HasResult, e.Failed = ccResultText(bl.Content), true, bl.IsError
								break
							}
						}
					}
				}
			}
			return nil
		}

		// A user line.
		if l.IsCompactSummary {
			a.text("compact-summary", ccText(content), l.UUID, ms)
			return nil
		}
		if l.IsMeta {
			a.text("meta", ccText(content), l.UUID, ms)
			return nil
		}
		if l.IsSynthetic {
			// Not a person speaking: Claude Code loaded it (a skill's instructions after a
			// Skill call), so it ends no chain.
			a.text("synthetic", ccText(content), l.UUID, ms)
			return nil
		}
		if content.IsString {
			ccUserText(a, content.Text, l.UUID, ms)
			return nil
		}
		hasResults := false
		var rest []string
		for i := range content.Blocks {
			bl := &content.Blocks[i]
			switch bl.Type {
			case "tool_result", "web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result":
				hasResults = true
				// The first call under the id still unanswered (ids are unique but in a log whose
				// ids were redacted to one placeholder); a result to calls all answered is a
				// resumed session's copy.
				for _, ref := range calls[bl.ToolUseID] {
					if e := &ref.agent.events[ref.idx]; !e.HasResult {
						e.Result, e.HasResult, e.Failed = ccResultText(bl.Content), true, bl.IsError
						break
					}
				}
				if _, held := early[bl.ToolUseID]; len(calls[bl.ToolUseID]) == 0 && bl.ToolUseID != "" && !held {
					early[bl.ToolUseID] = ccEarlyResult{ccResultText(bl.Content), bl.IsError}
				}
			case "text":
				rest = append(rest, bl.Text)
			case "image", "document":
				rest = append(rest, "["+bl.Type+"]") // pasted by the user
			}
		}
		text := strings.Join(rest, "\n")
		if hasResults {
			// Text sent along with tool results is added by the harness.
			a.text("harness", text, l.UUID, ms)
		} else {
			ccUserText(a, text, l.UUID, ms)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, key := range usageOrder {
		key.agent.usage.add(usage[key])
	}
	t := b.done()
	t.Sessions = b.session + 1
	if runCost > 0 {
		// The tokens are the assistant lines'; the cost, which they do not carry in
		// stream-json, is the run's, all agents together.
		t.hasRunUsage = true
		for _, a := range t.Agents {
			t.runUsage.add(a.Usage)
		}
		if runTokensSeen {
			// stream-json's assistant lines carry a message's usage as it began (a handful
			// of output tokens); the run's closing line counts them all (validation round
			// r114d U2: 33 output tokens read for 22,123).
			model, cost := t.runUsage.Model, t.runUsage.CostUSD
			t.runUsage = runTokens
			t.runUsage.Model, t.runUsage.CostUSD = model, cost
		}
		if t.runUsage.CostUSD == 0 {
			t.runUsage.CostUSD = runCost
		}
	}
	return withDamaged(t, damaged), nil
}

// subagentFileCache says, once per subagent, whether its own transcript is beside a session's
// file: <session>/subagents/agent-<id>.jsonl (Claude Code 2.1), or agent-<id>.jsonl in the
// session's folder (2.0), compressed or not.
type subagentFileCache map[string]bool

func (c subagentFileCache) has(session, agentID string) bool {
	if v, ok := c[agentID]; ok {
		return v
	}
	base := strings.TrimSuffix(strings.TrimSuffix(session, ".gz"), ".jsonl")
	found := false
	for _, dir := range []string{filepath.Join(base, "subagents"), filepath.Dir(session)} {
		for _, ext := range []string{".jsonl", ".jsonl.gz"} {
			if _, err := os.Stat(filepath.Join(dir, "agent-"+agentID+ext)); err == nil {
				found = true
			}
		}
	}
	c[agentID] = found
	return found
}

// ccEarlyResult is a result read before the call it answers.
type ccEarlyResult struct {
	text   string
	failed bool
}

// ccLineKey is a line by its uuid and a hash of its bytes (see seen in readClaudeCode).
type ccLineKey struct {
	uuid string
	line uint64
}

// ccBlockKey names a model's content block by its message, its place in the line, and its
// text's hash.
type ccBlockKey struct {
	msgID string
	i     int
	text  uint64
}

// hashText is a 64-bit FNV-1a hash of s.
func hashText(s string) uint64 {
	h := fnv.New64a()
	io.WriteString(h, s)
	return h.Sum64()
}

func blockID(uuid string, i, n int) string {
	if uuid == "" || n == 1 {
		return uuid
	}
	return uuid + "#" + strconv.Itoa(i)
}

// ccUserText files a user message's text: a user turn when a person typed it, else injected
// text labelled with its origin.
//
// A system reminder is a preface: what follows its closing tag is read on its own, and words
// of a person's after it are a user turn (a memory agent handed each new slice of
// conversation under a reminder was taken never to have been spoken to, and its one answer
// per slice for a call repeated). The other blocks are whole messages of Claude Code's, what
// follows them its own ("Full transcript available at: ..." after a task's notification).
func ccUserText(a *agentBuf, text, id string, ms int64) {
	t := strings.TrimLeft(text, " \t\r\n")
	for _, p := range ccInjected {
		if !strings.HasPrefix(t, p.prefix) {
			continue
		}
		if p.prefix == systemReminder {
			closing := "</" + p.prefix[1:]
			if end := strings.Index(t, closing); end >= 0 {
				end += len(closing)
				if rest := t[end:]; !isBlank(rest) {
					a.text(p.source, t[:end], id, ms)
					ccUserText(a, strings.TrimLeft(rest, " \t\r\n"), "", ms)
					return
				}
			}
		}
		a.text(p.source, text, id, ms)
		return
	}
	if isBlank(text) {
		return
	}
	if ccHookFeedback(t) {
		a.harnessUser(text)
		return
	}
	a.user(text, ms)
}

// ccHookFeedback says whether a user message is Claude Code relaying a hook's answer, not the
// user speaking: "Stop hook feedback:" (a Stop or SubagentStop hook that blocked the end of a
// turn) or "<Tool> operation feedback:" (a PostToolUse hook's). A stop hook that blocks every
// stop sends the same feedback after each reply (validation round r90a M2: eleven times).
func ccHookFeedback(t string) bool {
	first, _, _ := strings.Cut(t, "\n")
	if !strings.HasSuffix(first, " feedback:") {
		return false
	}
	head := strings.TrimSuffix(first, " feedback:")
	if h, ok := strings.CutSuffix(head, " hook"); ok {
		return h == "Stop" || h == "SubagentStop"
	}
	if tool, ok := strings.CutSuffix(head, " operation"); ok {
		return tool != "" && !strings.ContainsAny(tool, " \t")
	}
	return false
}

const systemReminder = "<system-reminder>"

var ccInjected = []struct{ prefix, source string }{
	{"<local-command-stdout>", "local-command"},
	{"<local-command-stderr>", "local-command"},
	{"<local-command-caveat>", "local-command"},
	{"Caveat: The messages below were generated by the user while running local commands", "local-command"},
	{"<bash-stdout>", "local-command"},
	{"<bash-stderr>", "local-command"},
	{"<task-notification>", "task-notification"},
	{"<bash-notification>", "task-notification"}, // a background command finished (older Claude Code)
	{systemReminder, "system-reminder"},
	{"<user-prompt-submit-hook>", "hook"},
	{"[Request interrupted by user", "interrupt"},
	{"This session is being continued from a previous conversation", "compact-summary"},
}

func ccText(c *ccContent) string {
	if c.IsString {
		return c.Text
	}
	var parts []string
	for i := range c.Blocks {
		if c.Blocks[i].Type == "text" {
			parts = append(parts, c.Blocks[i].Text)
		}
	}
	return strings.Join(parts, "\n")
}

// ccResultText is a tool_result's content: a string, or blocks (text kept, images marked).
func ccResultText(c any) string {
	if s, ok := c.(string); ok {
		return s
	}
	return contentText(c)
}

// subagentFromFileName gives "agent-<id>" for a file named agent-<id>.jsonl[.gz], else "".
func subagentFromFileName(name string) string {
	base := filepath.Base(name)
	base = strings.TrimSuffix(base, ".gz")
	base = strings.TrimSuffix(base, ".jsonl")
	if strings.HasPrefix(base, "agent-") && len(base) > len("agent-") {
		return base
	}
	return ""
}
