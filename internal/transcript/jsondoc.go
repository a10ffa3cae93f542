package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/loopguard/loopguard/internal/jsonscan"
)

// docObject is the union of the JSON-document formats' top-level fields, decoded in one pass
// by its member method (the JSON names are there); the fields present decide the format.
type docObject struct {
	// SWE-agent; DA-Agent's steps too, with its task and system message beside them
	Trajectory    []sweStep
	Task          string
	SystemMessage string
	// OHTrajectory is a "trajectory" of OpenHands events, as OpenHands Cloud downloads a
	// conversation ({"trajectory": [event, ...]}): the list as written.
	OHTrajectory   []byte
	ohTrajectoryAt int // where it starts in the file
	// History's string contents are decoded when asked for (historyContent): SWE-agent reads
	// only the first few, and the observations repeated there are a tenth of a scan's bytes.
	History      []msg
	Info         *docInfo
	ReplayConfig any

	// mini-swe-agent and message lists
	Messages         []msg
	Traj             []msg
	FncallMessages   []msg
	RawMessages      []msg // OpenHands SDK completion log
	Conversation     []msg // a chat saved as {"conversation": [messages]}
	ChatHistory      []msg // AG2's ChatResult saved as JSON: {"chat_history": [messages]}
	TrajectoryFormat string

	// OpenHands llm_completions dump
	Response, FncallResponse *ohResponse
	Timestamp, Cost          float64

	// Gemini CLI
	SessionID     string
	ProjectHash   string
	Kind          string
	ClientHistory []msg
}

type docInfo struct {
	ModelStats *struct {
		InstanceCost   float64 `json:"instance_cost"`
		TokensSent     float64 `json:"tokens_sent"`
		TokensReceived float64 `json:"tokens_received"`
	} `json:"model_stats"`
	MiniVersion string `json:"mini_version"`
	Config      *struct {
		Agent *struct {
			ActionRegex string `json:"action_regex"`
		} `json:"agent"`
		Model *struct {
			ModelName string `json:"model_name"`
		} `json:"model"`
	} `json:"config"`
}

// info decodes a document's info block as std would. Only a few of its members are read;
// the others (SWE-agent's submission and edited files, a few tens of KB) are only checked.
func (w *walker) info(i int, dst **docInfo) (int, error) {
	end, found, ok := w.stdMembers(i, "model_stats", "mini_version", "config")
	if !ok {
		return w.std(i, dst)
	}
	if *dst == nil {
		*dst = &docInfo{}
	}
	info := *dst
	for _, m := range found {
		var err error
		switch m.name {
		case "model_stats":
			_, err = w.std(m.v, &info.ModelStats)
		case "mini_version":
			_, err = w.std(m.v, &info.MiniVersion)
		case "config":
			_, err = w.std(m.v, &info.Config)
		}
		if err != nil {
			return i, err
		}
	}
	return end, nil
}

// sweStep is one SWE-agent trajectory step.
type sweStep struct {
	Action      string
	Observation string
	Thought     string
	Code        string // DA-Agent's: the code of the action
}

// msg is the union of the message shapes found in the document formats: SWE-agent history,
// mini-swe-agent and OpenAI/Anthropic message lists, Gemini CLI message records, Gemini API
// contents (checkpoints) and Gemini logs.json entries. It is decoded by its member method, and
// by encoding/json (hence the tags) inside values taken whole, like a Gemini "$set".
type msg struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
	// Exports that keep a subagent's messages in the list say what each was
	// (see addMessages).
	Metadata *struct {
		OriginalRole string `json:"original_role"`
		// a message's time, where the export keeps it here (a string, RFC 3339)
		Timestamp any `json:"timestamp"`
	} `json:"_metadata"`

	// SWE-agent history
	Agent  string  `json:"agent"`
	IsDemo bool    `json:"is_demo"`
	Action *string `json:"action"`

	// OpenAI
	ToolCalls        []oaToolCall `json:"tool_calls"`
	ToolCallID       string       `json:"tool_call_id"`
	Name             string       `json:"name"`
	FunctionCall     *oaFunction  `json:"function_call"`
	ReasoningContent string       `json:"reasoning_content"`

	// Gemini API contents
	Parts []gemPart `json:"parts"`

	// OpenAI Responses API items in a message list: function_call (call_id, name, arguments)
	// and function_call_output (call_id, output)
	CallID    string          `json:"call_id"`
	Arguments json.RawMessage `json:"arguments"`
	Output    any             `json:"output"`
	Input     any             `json:"input"` // custom_tool_call: the tool's input as text

	// LangChain's messages_to_dict wraps each message: {"type": "ai", "data": {...}}; a
	// ToolMessage's status is "error" when the tool raised.
	Data   *msg   `json:"data"`
	Status string `json:"status"`
	// A tool message's own failure flag: tau2-bench's "error": true, AutoGen's "is_error".
	Failed bool `json:"-"`
	// A Responses API reasoning item's summary: [{"type": "summary_text", "text"}], the
	// model's words between its calls.
	Summary []any `json:"summary"`
	// A tool message's own error, as text: AgentDojo writes the exception a tool raised there
	// and leaves the content empty (validation round r119a U3: eight failed calls of three
	// runs read as successes with empty answers). Read for tool messages only.
	ErrText string `json:"error_text"`
	// A user message the harness wrote, not a person (Inspect's agent loop: "Your submission
	// was incorrect. Please proceed…"), set by readers that know it: a reprompt, not a new turn.
	FromHarness bool `json:"-"`

	// Gemini CLI message records
	ID           string        `json:"id"`
	Type         string        `json:"type"`
	Timestamp    string        `json:"timestamp"`
	GemToolCalls []gemToolCall `json:"toolCalls"`
	Thoughts     []gemThought  `json:"thoughts"`
	Tokens       *gemTokens    `json:"tokens"`
	Model        string        `json:"model"`

	// Gemini logs.json
	SessionID string `json:"sessionId"`
	MessageID any    `json:"messageId"`
	Message   string `json:"message"`

	// mini-swe-agent
	Extra *miniExtra `json:"extra"`

	// tau-bench results entry: {task_id, reward, info, traj, trial}
	Traj []msg `json:"traj"`

	// AutoGen AgentChat: the agent (or "user") that sent the message
	Source string `json:"source"`

	// Cline and Roo Code: the message's time, Unix milliseconds
	TS float64 `json:"ts"`

	// opencode export: {info, parts}
	HasInfo bool `json:"-"`

	// Open Interpreter: an LMC message's format (a code message's language, a console
	// message's "output"); a 0.1.x code turn's language and code (openInterpreterMessages)
	Format   string `json:"format"`
	Language string `json:"language"`
	Code     string `json:"code"`

	// contentAt, when not 0, is the offset in the document of a string content not decoded
	// yet (the walker's lazyContent); Content is nil until historyContent decodes it.
	contentAt int
}

type oaToolCall struct {
	ID       string     `json:"id"`
	Function oaFunction `json:"function"`
	// Some dumps flatten the function fields into the call.
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	// LangChain's tool calls: {"name", "args": {...}, "id"}
	Args json.RawMessage `json:"args"`
}

type oaFunction struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// UnmarshalJSON reads a call's function as an object ({"name", "arguments"}) or, as AgentDojo
// writes its calls ({"function": "send_email", "args": {...}, "id"}), as the name alone, the
// arguments then in the call's args (validation round r119a U1: every call of 215 runs was
// read with no tool name).
func (f *oaFunction) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		*f = oaFunction{}
		return json.Unmarshal(b, &f.Name)
	}
	type plain oaFunction
	return json.Unmarshal(b, (*plain)(f))
}

// readDocument reads a whole JSON document into memory: its values are needed at once.
// hint, when not 0, is the expected size. The walker's buffer comes from documentBuffers;
// the caller gives it back with release once nothing it built points into it.
func readDocument(name string, br *bufio.Reader, hint int64) (*walker, error) {
	size := int64(br.Buffered()) + 512
	if hint > 0 && hint < 1<<34 {
		size = hint + 512
	}
	var b []byte
	if p, ok := documentBuffers.Get().(*[]byte); ok && int64(cap(*p)) >= size {
		b = (*p)[:0]
	} else {
		// A power of two: documents of all sizes come and go, and a buffer sized for this
		// one alone would be too small for the next slightly bigger one, and be dropped.
		b = make([]byte, 0, 1<<bits.Len64(uint64(size-1)))
	}
	buf := bytes.NewBuffer(b)
	if _, err := buf.ReadFrom(br); err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	data := buf.Bytes()
	// Python's json module writes NaN and ±Infinity unless told not to; they read as null, and
	// the document is read rather than lost (validation round r108b U4).
	if finite, changed := jsonscan.NonFiniteAsNull(data); changed {
		return &walker{data: finite}, nil
	}
	return &walker{data: data, pooled: true}, nil
}

// decodeDocument reads a whole JSON document and decodes it into a T with encoding/json, for
// the readers whose format is one document of a known shape; what names the format in the
// error. The buffer goes back to the pool before the caller builds: encoding/json copies
// what it decodes, raw messages included.
func decodeDocument[T any](name string, br *bufio.Reader, hint int64, what string) (*T, error) {
	w, err := readDocument(name, br, hint)
	if err != nil {
		return nil, err
	}
	defer w.release()
	var v T
	if err := json.Unmarshal(w.data, &v); err != nil && !tolerable(err) {
		return nil, &Error{Path: name, Line: jsonErrorLine(w.data, err), Err: fmt.Errorf("invalid %s: %w", what, err)}
	}
	return &v, nil
}

// documentBuffers keeps the buffers whole documents were read into, for the next document.
// A scan reads hundreds of documents of up to tens of MB, and a new buffer for each is
// cleared by the runtime and faulted in page by page by the kernel (about a twentieth of a
// scan of the shared set). Every reader copies out what it keeps (strings, raw arguments),
// so a buffer is free again once its reader has built the transcript.
var documentBuffers sync.Pool

// maxPooledDocument bounds the buffers kept for reuse: a rare huge file should not stay in
// memory for the rest of the process.
const maxPooledDocument = 64 << 20

// release gives a document's buffer back for reuse. w must not be used afterwards, and
// nothing built from it may point into its bytes (the readers copy what they keep).
func (w *walker) release() {
	if !w.pooled || cap(w.data) > maxPooledDocument || poolDisabled {
		return
	}
	b := w.data[:0]
	w.data, w.pooled = nil, false
	documentBuffers.Put(&b)
}

// poolDisabled turns reuse off (tests compare transcripts read with and without it).
var poolDisabled = false

func readJSONObject(name string, br *bufio.Reader, hint int64) (*built, error) {
	w, err := readDocument(name, br, hint)
	if err != nil {
		return nil, err
	}
	defer w.release()
	start := w.ws(0)
	if start >= len(w.data) || w.data[start] != '{' {
		return nil, &Error{Path: name, Line: 1, Err: ErrUnknownFormat}
	}
	doc, end, err := w.objectDocument(name, start)
	if err != nil {
		return nil, err
	}
	if next := w.ws(end); next < len(w.data) {
		if w.data[next] != '{' {
			return nil, w.lineError(name, w.errAt(next, "unexpected data after the JSON document"))
		}
		if doc.t != nil {
			return w.sameDocuments(name, doc.t, next)
		}
		return w.documents(name, doc.chats, start, next)
	}
	switch {
	case doc.t != nil:
		return doc.t, nil
	case doc.plain:
		return buildMessages(FormatMessages, doc.chats[0]), nil
	case len(doc.chats) == 1 && isGeminiContents(doc.chats[0]):
		// Gemini API contents under a key of their own: the report Gemini CLI writes when a
		// request fails ({"error", "context": [contents]}) holds the chat as a checkpoint
		// does (validation round r85c U2: read as a message list, 65 calls were none).
		return buildGeminiContents(doc.chats[0]), nil
	case hasChat(doc.chats):
		return buildChats(doc.chats), nil
	}
	if t := embeddedRun(name, w.data[start:end]); t != nil {
		return t, nil
	}
	return nil, &Error{Path: name, Err: ErrUnknownFormat}
}

// minEmbeddedRun is the least text a member of a document must hold to be looked at as a run.
const minEmbeddedRun = 1024

// embeddedRun reads a document of no known format whose member holds, as text, a run a text
// reader reads: a harness that runs an agent's CLI often keeps what it printed in a field of
// its own record ({"instance_id", "returncode", "stdout": "👋 This is mini-swe-agent version
// 1.17.3. ..."}; validation round r161b U2: 345 such records of one study read as no
// transcript). The members are tried in the order of their names; the first read with a call
// is the run. Text that is itself JSON is not tried (the document's own search found no chat
// in it), nor is a short one.
func embeddedRun(name string, doc []byte) *built {
	var members map[string]json.RawMessage
	if json.Unmarshal(doc, &members) != nil {
		return nil
	}
	keys := make([]string, 0, len(members))
	for k, v := range members {
		if len(v) >= minEmbeddedRun && v[0] == '"' {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		var text string
		if json.Unmarshal(members[k], &text) != nil {
			continue
		}
		if t := strings.TrimLeft(text, " \t\r\n"); len(t) < minEmbeddedRun || t[0] == '{' || t[0] == '[' {
			continue
		}
		br := getContentReader(strings.NewReader(text))
		t, err := readPlain(name, br, int64(len(text)))
		putContentReader(br)
		if err == nil && t != nil && slices.ContainsFunc(t.Agents, func(a Agent) bool { return len(a.Calls()) > 0 }) {
			return &built{Transcript: t}
		}
	}
	return nil
}

// documents reads the rest of a file of JSON documents one after another, the chats of the
// first given (it starts at first, the rest at i): a JSONL file of runs, one a line, or the
// log of a gateway or proxy, one request a line. Each document's chats are sessions; a chat
// that a later one starts with is a request that the later one repeats (each request of a
// conversation sends its whole history), and only the later one is kept. Documents holding no
// chat are passed over (a response, a row of metadata); one of a single-document format is an
// error at its line. A file whose documents hold no chat but are themselves steps, one a line
// as a home-made agent logs them ({"tool_name", "tool_args", "tool_output"}), is one run of
// those steps, read as a step list is (isStepList).
func (w *walker) documents(name string, chats [][]msg, first, i int) (*built, error) {
	plain := [][2]int{{first, i}} // the documents that held no chat, as spans of w.data
	if len(chats) > 0 {
		plain = plain[:0]
	}
	// Documents of one chat each, one of them going on from the chat before it, are the
	// steps of one conversation (see continuesChat).
	oneEach, goesOn := len(chats) <= 1, false
	for i < len(w.data) {
		if w.data[i] != '{' {
			return nil, w.lineError(name, w.errAt(i, "unexpected data between JSON documents"))
		}
		doc, end, err := w.objectDocument(name, i)
		if err != nil {
			return nil, err
		}
		if doc.t != nil {
			return nil, w.lineError(name, w.errAt(i, "a %s document among chat documents", doc.t.Format))
		}
		if len(doc.chats) == 0 {
			plain = append(plain, [2]int{i, end})
		}
		oneEach = oneEach && len(doc.chats) <= 1
		goesOn = goesOn || len(chats) > 0 && len(doc.chats) == 1 && continuesChat(doc.chats[0])
		chats = append(chats, doc.chats...)
		i = w.ws(end)
	}
	if !hasChat(chats) {
		if runs := w.stepDocuments(plain); len(runs) > 0 {
			for _, r := range runs {
				valueParts(r)
			}
			return buildRuns(runs), nil
		}
		return nil, &Error{Path: name, Line: 1, Err: ErrUnknownFormat}
	}
	if oneEach && goesOn {
		return buildMessages(FormatMessages, slices.Concat(chats...)), nil
	}
	return buildChats(chats), nil
}

// continuesChat says whether a document's chat goes on from a chat before it: it opens with
// the model's turn or a tool's answer, which answer something, where a conversation of its
// own opens with a system prompt or a person's turn. Replit Agent keeps its memory one record
// a line, each the messages one step added ({"memory_id": 8, "messages": [assistant, tool,
// ...]}, a person's later turns records of their own); read one session a line, its 143
// calls were 87 sessions with no repeat between them (gathering for validation round r255).
func continuesChat(list []msg) bool {
	if len(list) == 0 {
		return false
	}
	switch list[0].chatRole() {
	case "assistant", "ai", "tool", "function":
		return true
	}
	return false
}

// stepDocuments reads documents given as spans of w.data as runs: records of calls and of
// their results apart (isEventPairLog), or steps (isStepList); nil when they are neither.
// Records that name the run they belong to (runKey) are read as one run each: a log of a
// thousand runs of an agent appended to one file is a thousand sessions, and a call of one run
// is no repeat of another's.
func (w *walker) stepDocuments(spans [][2]int) [][]msg {
	if len(spans) < 2 {
		return nil
	}
	records := make([]map[string]string, len(spans))
	for k, sp := range spans {
		records[k] = scanTopObject(w.data[sp[0]:sp[1]]).keys
	}
	pairs := isEventPairLog(records)
	// (the records' keys are the sample isStepList reads of a list: listSample)
	if !pairs && !isStepList(records[:min(len(records), listSampleSize)]) {
		return nil
	}
	var runs [][]msg
	for _, run := range groupByRun(records) {
		raw := make([][]byte, len(run))
		keys := make([]map[string]string, len(run))
		for k, r := range run {
			raw[k], keys[k] = w.data[spans[r][0]:spans[r][1]], records[r]
		}
		var list []msg
		if pairs {
			list = decodeEventPairs(raw, keys)
		} else {
			list = decodeSteps(slices.Concat([]byte("["), bytes.Join(raw, []byte(",")), []byte("]")))
		}
		if len(list) > 0 {
			runs = append(runs, list)
		}
	}
	return runs
}

// runKeys name the run a record belongs to, in logs that append many runs to one file.
var runIDKeys = []string{"run_id", "session_id", "sessionId", "session", "conversation_id", "thread_id", "trace_id", "episode_id"}

// runPause is how long a log that names no run may go quiet within one run. An agent's
// calls follow each other within seconds or minutes, the model's time; a log of an app's
// tool calls that then goes on half an hour later, or days later, is someone asking again:
// the same two test questions asked in three runs of an app, ten hours and three days apart,
// read as one run asking the same thing three times (validation round r110c F1).
const runPause = 30 * 60 * 1000

// recordTimeKeys time a record.
var recordTimeKeys = []string{"timestamp", "ts", "time", "created_at", "timestamp_start", "start_time"}

// recordTime is the time of a record, as scanTopObject reads its keys, in Unix milliseconds:
// an RFC 3339 time (or one without its zone, as Python's isoformat writes it), or a number
// of seconds or milliseconds since 1970; 0 when it has none.
func recordTime(keys map[string]string) int64 {
	for _, k := range recordTimeKeys {
		v := keys[k]
		if v == "" {
			continue
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			if f > 1e12 {
				return int64(f) // milliseconds
			}
			return int64(f * 1000)
		}
		if t := parseTime(v); t != 0 {
			return t
		}
	}
	return 0
}

// groupByRun returns the indexes of records grouped by the run each names, the runs in the
// order they first appear: by the first of runIDKeys that at least half the records carry as
// a string. When none does, the records are one run, cut where the log goes quiet for longer
// than runPause.
func groupByRun(records []map[string]string) [][]int {
	key := ""
	for _, k := range runIDKeys {
		n := 0
		for _, r := range records {
			if r[k] != "" {
				n++
			}
		}
		if n*2 >= len(records) {
			key = k
			break
		}
	}
	var runs [][]int
	if key == "" {
		var last int64
		for i, r := range records {
			t := recordTime(r)
			if len(runs) == 0 || t != 0 && last != 0 && t-last > runPause {
				runs = append(runs, nil)
			}
			if t != 0 {
				last = t
			}
			runs[len(runs)-1] = append(runs[len(runs)-1], i)
		}
		return runs
	}
	at := map[string]int{}
	for i, r := range records {
		id := ""
		if key != "" {
			id = r[key]
		}
		g, ok := at[id]
		if !ok {
			g = len(runs)
			at[id] = g
			runs = append(runs, nil)
		}
		runs[g] = append(runs[g], i)
	}
	return runs
}

// listOfDocuments reads a JSON list whose elements are all documents of one object format,
// each a session; it returns nil when they are not.
func (w *walker) listOfDocuments(name string, start int) *built {
	var all []*built
	ok := true
	_, err := w.array(start, func(e int) (int, error) {
		if !ok || w.data[e] != '{' {
			// Once one element is not such a document the list is not a list of them: the
			// rest is skipped, not read (readJSONArray searches it for chats next).
			ok = false
			return w.skip(e)
		}
		doc, end, err := w.objectDocument(name, e)
		if err != nil || doc.t == nil || len(all) > 0 && doc.t.Format != all[0].Format {
			ok = false
			return w.skip(e)
		}
		all = append(all, doc.t)
		return end, nil
	})
	if err != nil || !ok || len(all) == 0 {
		return nil
	}
	return joinSessions(all)
}

// sameDocuments reads the rest of a JSONL file of documents of one format (a dataset of
// SWE-agent trajectories, one a line), the first already read: each is a session. A document
// that is not of the first one's format is an error at its line, as any data after a single
// document is.
func (w *walker) sameDocuments(name string, first *built, i int) (*built, error) {
	all := []*built{first}
	for i < len(w.data) {
		doc, end, err := w.objectDocument(name, i)
		if err == nil && (doc.t == nil || doc.t.Format != first.Format) {
			err = w.lineError(name, w.errAt(i, "unexpected data after the JSON document: not another %s document", first.Format))
		}
		if err != nil {
			return nil, err
		}
		all = append(all, doc.t)
		if i = w.ws(end); i < len(w.data) && w.data[i] != '{' {
			return nil, w.lineError(name, w.errAt(i, "unexpected data between JSON documents"))
		}
	}
	return joinSessions(all), nil
}

// joinSessions puts transcripts one after another as the sessions of one.
func joinSessions(all []*built) *built {
	out := &built{Transcript: &Transcript{Format: all[0].Format}}
	for _, t := range all {
		for _, a := range t.Agents {
			a.Session += out.Sessions
			out.Agents = append(out.Agents, a)
		}
		out.Sessions += max(t.Sessions, 1)
	}
	return out
}

// readDoc is what objectDocument made of a document: a transcript of one of the object
// formats, or the chats it holds. plain says the one chat is the document's own message
// list (messages, traj, conversation), read as the messages format reads it.
type readDoc struct {
	t     *built
	chats [][]msg
	plain bool
}

// objectDocument reads the JSON object at w.data[start] as a document of one of the object
// formats, or, when it is none of them, as a document holding chats (chatsIn); a document
// that is neither gives an empty readDoc. It also returns where the object ends.
func (w *walker) objectDocument(name string, start int) (readDoc, int, error) {
	var d docObject
	end, err := w.object(start, d.member(w))
	if err != nil {
		return readDoc{}, end, w.lineError(name, err)
	}
	switch {
	case d.OHTrajectory != nil:
		var events []json.RawMessage
		if err := json.Unmarshal(d.OHTrajectory, &events); err != nil && !tolerable(err) {
			return readDoc{}, end, w.lineError(name, w.errAt(d.ohTrajectoryAt, "invalid JSON value: %v", err))
		}
		return readDoc{t: buildOpenHandsEvents(events)}, end, nil
	case d.ClientHistory != nil:
		// A /restore checkpoint: clientHistory is the model's view; history is the UI's.
		return readDoc{t: buildGeminiContents(d.ClientHistory)}, end, nil
	case len(d.Trajectory) > 0 && d.History == nil && !stepsSayAnything(d.Trajectory):
		// A "trajectory" of chat messages, as datasets name their rows' chats: not
		// SWE-agent's steps (action, observation, thought).
	case isDAAgent(&d):
		return readDoc{t: buildDAAgent(&d)}, end, nil
	case isMagenticOne(d.History):
		// Before SWE-agent's: its history is no SWE-agent history (validation round r197a G1).
		w.historyContents(d.History)
		return readDoc{t: buildMagenticOne(d.History)}, end, nil
	case isAG2Chat(w, d.History) || isNamedHistory(d.History):
		w.historyContents(d.History)
		return readDoc{t: buildAG2Chat(d.History)}, end, nil // validation round r197a G2
	case isAG2Chat(w, d.Messages):
		return readDoc{t: buildAG2Chat(d.Messages)}, end, nil
	case isAG2Chat(w, d.ChatHistory):
		// AG2's ChatResult saved as JSON keeps the chat as chat_history.
		return readDoc{t: buildAG2Chat(d.ChatHistory)}, end, nil
	case d.Trajectory != nil || (d.History != nil && !isGeminiContents(d.History)):
		return readDoc{t: buildSWEAgent(&d, w)}, end, nil
	case d.SessionID != "" && d.Messages != nil && !hasRoles(d.Messages):
		// Gemini CLI's records have a type and no role; a session of Cline CLI 3 (also
		// {"sessionId", "messages"}) is a message list.
		return readDoc{t: buildGeminiSession(d.SessionID, d.Kind, d.Messages)}, end, nil
	case d.History != nil:
		w.historyContents(d.History)
		return readDoc{t: buildGeminiContents(d.History)}, end, nil
	case (d.Response != nil && d.Messages != nil) || (d.FncallResponse != nil && d.FncallMessages != nil):
		return readDoc{t: buildCompletion(&completionDoc{Messages: d.Messages, FncallMessages: d.FncallMessages,
			RawMessages: d.RawMessages, Response: d.Response, FncallResponse: d.FncallResponse, Timestamp: d.Timestamp, Cost: d.Cost})}, end, nil
	case d.FncallMessages != nil:
		// Structured calls first: messages may hold the same calls written into the text.
		return readDoc{t: buildMessages(FormatMessages, d.FncallMessages)}, end, nil
	case isOpencodeExport(d.Messages):
		t, err := buildOpencodeExport(w.data[start:end])
		if err != nil {
			return readDoc{}, end, w.lineError(name, w.errAt(start, "invalid JSON value: %v", err))
		}
		return readDoc{t: t}, end, nil
	case d.Messages != nil:
		if isMini(&d) {
			return readDoc{t: buildMini(&d)}, end, nil
		}
		return readDoc{chats: [][]msg{d.Messages}, plain: true}, end, nil
	case d.Traj != nil:
		return readDoc{chats: [][]msg{d.Traj}, plain: true}, end, nil
	case d.Conversation != nil:
		if isGooseList(d.Conversation) {
			return readDoc{t: buildMessages(FormatGoose, d.Conversation)}, end, nil
		}
		return readDoc{chats: [][]msg{d.Conversation}, plain: true}, end, nil
	}
	var chats [][]msg
	if _, err := w.chatsIn(start, 0, &chats); err != nil {
		return readDoc{}, end, w.lineError(name, err)
	}
	return readDoc{chats: chats}, end, nil
}

// stepsSayAnything says whether any SWE-agent step has an action, observation or thought.
func stepsSayAnything(steps []sweStep) bool {
	for i := range steps {
		if s := &steps[i]; s.Action != "" || s.Observation != "" || s.Thought != "" {
			return true
		}
	}
	return false
}

func readJSONArray(name string, br *bufio.Reader, hint int64) (*built, error) {
	w, err := readDocument(name, br, hint)
	if err != nil {
		return nil, err
	}
	defer w.release()
	var list []msg
	start := w.ws(0)
	if start >= len(w.data) || w.data[start] != '[' {
		return nil, &Error{Path: name, Line: 1, Err: ErrUnknownFormat}
	}
	// The first element's keys say which list it is; they are read once.
	if first := w.ws(start + 1); first < len(w.data) && w.data[first] == '{' {
		keys := scanTopObject(w.data[first:]).keys
		has := func(k string) bool { _, ok := keys[k]; return ok }
		switch {
		case isOHEvent(keys):
			return readOpenHandsList(name, w, start)
		case isPydanticAIHead(keys):
			return readPydanticAI(name, w.data[start:])
		case isDevAIHead(keys):
			return readDevAI(name, w.data[start:])
		case isATIFHead(keys):
			return readATIFList(name, w.data[start:])
		case isClineUIHead(has):
			var entries []clineUIEntry
			if err := json.Unmarshal(w.data[start:], &entries); err != nil {
				return nil, &Error{Path: name, Line: max(jsonErrorLine(w.data[start:], err)+lineOf(w.data, start)-1, 1), Err: fmt.Errorf("ui_messages.json of Cline or Roo Code: %w", err)}
			}
			return buildClineUI(entries), nil
		case isClaudeStreamRecord(keys) || isClaudeSessionRecord(keys):
			return readClaudeStreamList(name, w.data[start:])
		}
	}
	if first := w.ws(start + 1); first < len(w.data) && w.data[first] == '[' {
		// [[action, observation], ...]: a trajectory of OpenHands' releases of 2024
		if inner := w.ws(first + 1); inner < len(w.data) && w.data[inner] == '{' && isOHPairHead(scanTopObject(w.data[inner:]).keys) {
			return readOpenHandsList(name, w, start)
		}
	}
	end, err := w.msgList(start, &list)
	if err == nil {
		err = w.end(end)
	}
	if err != nil {
		return nil, w.lineError(name, err)
	}
	roles, logs, trajs := 0, 0, 0
	for i := range list {
		m := &list[i]
		if m.Traj != nil {
			trajs++
		}
		if m.SessionID != "" && m.MessageID != nil {
			logs++
		}
		if m.chatRole() != "" {
			roles++
		}
	}
	switch {
	case trajs > 0 && roles == 0:
		return buildTauBench(list), nil
	case logs > 0 && logs == len(list):
		return buildGeminiLogs(list), nil
	case roles > 0 && isCline(list):
		return buildCline(list), nil
	case roles > 0 && isGeminiContents(list):
		return buildGeminiContents(list), nil
	case roles > 0 && isAG2Chat(w, list):
		return buildAG2Chat(list), nil // an AG2 chat_history saved alone
	case roles > 0:
		return buildMessages(FormatMessages, list), nil
	}
	// A list of documents of one object format (SWE-agent trajectories), each a session.
	if t := w.listOfDocuments(name, start); t != nil {
		return t, nil
	}
	// A list of runs, each holding its chat ([{"instance_id", "messages": [...]}, ...]).
	var chats [][]msg
	if _, err := w.chatsIn(start, 0, &chats); err != nil {
		return nil, w.lineError(name, err)
	}
	if hasChat(chats) {
		return buildChats(chats), nil
	}
	return nil, &Error{Path: name, Err: ErrUnknownFormat}
}

// readOpenHandsList reads a JSON list of OpenHands events (a saved trajectory).
func readOpenHandsList(name string, w *walker, start int) (*built, error) {
	end, err := w.skip(start) // structure first, for errors with a line
	if err == nil {
		err = w.end(end)
	}
	if err != nil {
		return nil, w.lineError(name, err)
	}
	var history []json.RawMessage
	if err := json.Unmarshal(w.data[start:end], &history); err != nil && !tolerable(err) {
		return nil, w.lineError(name, w.errAt(start, "invalid JSON value: %v", err))
	}
	return buildOpenHandsEvents(history), nil
}

// readOpenHandsEventFile reads a file holding one OpenHands event.
func readOpenHandsEventFile(name string, br *bufio.Reader, hint int64) (*built, error) {
	w, err := readDocument(name, br, hint)
	if err != nil {
		return nil, err
	}
	defer w.release()
	start := w.ws(0)
	end, err := w.skip(start)
	if err == nil {
		err = w.end(end)
	}
	if err != nil {
		return nil, w.lineError(name, err)
	}
	t, err := buildOpenHandsEventFile(name, w.data[start:end])
	if err != nil {
		return nil, w.lineError(name, w.errAt(start, "invalid JSON value: %v", err))
	}
	return t, nil
}

// buildTauBench reads a tau-bench results list: each entry's traj (an OpenAI message list,
// the user being tau-bench's simulated user) is a session of its own, numbered by its
// position in the list. Its ReAct and Act agents write their calls in their text ("Action:"
// and a JSON object), answered "API output: ..." (validation round r164a U2: such runs read
// with no call); every user message that is no such answer is the simulated user's turn
// (read as the harness's text, the customer's replies after the first ended no chain:
// validation round r256b).
func buildTauBench(list []msg) *built {
	b := newBuilder(FormatTauBench)
	b.peopleAnswer = true
	for i := range list {
		b.session = i
		addChat(b, list[i].Traj, true)
	}
	t := b.done()
	t.Sessions = len(list)
	return t
}

// member decodes the top-level members of a document.
func (d *docObject) member(w *walker) memberFunc {
	return func(key []byte, v int) (int, error) {
		switch string(key) {
		case "trajectory":
			if first := w.ws(v + 1); w.data[v] == '[' && first < len(w.data) && w.data[first] == '{' && isOHEvent(scanTopObject(w.data[first:]).keys) {
				// OpenHands' events, not SWE-agent's steps (validation round r79c U1: every
				// event of a downloaded conversation read as a step, an action and its own
				// observation as two calls, 74 calls as 297 and 13 false cycles).
				end, err := w.skip(v)
				if err == nil {
					d.OHTrajectory, d.ohTrajectoryAt = w.data[v:end], v
				}
				return end, err
			}
			return w.array(v, func(e int) (int, error) {
				d.Trajectory = append(d.Trajectory, sweStep{})
				return w.object(e, d.Trajectory[len(d.Trajectory)-1].member(w))
			})
		case "history":
			w.lazyContent = true
			defer func() { w.lazyContent = false }()
			return w.msgList(v, &d.History)
		case "messages":
			return w.msgList(v, &d.Messages)
		case "conversation":
			return w.msgList(v, &d.Conversation)
		case "chat_history":
			return w.msgList(v, &d.ChatHistory)
		case "traj":
			return w.msgList(v, &d.Traj)
		case "fncall_messages":
			return w.msgList(v, &d.FncallMessages)
		case "raw_messages":
			return w.msgList(v, &d.RawMessages)
		case "response":
			return w.std(v, &d.Response)
		case "fncall_response":
			return w.std(v, &d.FncallResponse)
		case "timestamp":
			return w.std(v, &d.Timestamp)
		case "cost":
			return w.std(v, &d.Cost)
		case "clientHistory":
			return w.msgList(v, &d.ClientHistory)
		case "info":
			return w.info(v, &d.Info)
		case "replay_config":
			return w.anyValue(v, &d.ReplayConfig)
		case "trajectory_format":
			return w.str(v, &d.TrajectoryFormat)
		case "Task":
			return w.str(v, &d.Task)
		case "system_message":
			return w.str(v, &d.SystemMessage)
		case "sessionId":
			return w.str(v, &d.SessionID)
		case "projectHash":
			return w.str(v, &d.ProjectHash)
		case "kind":
			return w.str(v, &d.Kind)
		}
		return w.skip(v)
	}
}

func (s *sweStep) member(w *walker) memberFunc {
	return func(key []byte, v int) (int, error) {
		switch string(key) {
		case "action":
			return w.str(v, &s.Action)
		case "observation":
			return w.str(v, &s.Observation)
		case "thought":
			return w.str(v, &s.Thought)
		case "code":
			return w.str(v, &s.Code)
		}
		return w.skip(v)
	}
}

// msgList decodes a list of messages; a value that is not a list leaves *dst nil, elements
// that are not objects are dropped.
func (w *walker) msgList(i int, dst *[]msg) (int, error) {
	if w.data[i] != '[' {
		return w.skip(i)
	}
	if *dst == nil {
		*dst = []msg{}
	}
	return w.array(i, func(e int) (int, error) {
		if w.data[e] != '{' {
			return w.skip(e)
		}
		*dst = append(*dst, msg{})
		return w.object(e, (*dst)[len(*dst)-1].member(w))
	})
}

func (m *msg) member(w *walker) memberFunc {
	return func(key []byte, v int) (int, error) {
		switch string(key) {
		case "role":
			return w.str(v, &m.Role)
		case "content":
			if w.lazyContent && w.data[v] == '"' {
				// Checked now as str checks it (the string must be closed), for the same
				// errors; decoded by historyContent if a builder wants it.
				end, _, err := jsonscan.String(w.data, v, jsonscan.AsWritten)
				if err != nil {
					return w.fail(v, err)
				}
				m.contentAt = v
				return end, nil
			}
			return w.anyValue(v, &m.Content)
		case "agent":
			return w.str(v, &m.Agent)
		case "source":
			if w.data[v] != '"' {
				return w.skip(v) // another format's source (an object, a list)
			}
			return w.str(v, &m.Source)
		case "is_demo":
			return w.boolean(v, &m.IsDemo)
		case "action":
			return w.strPtr(v, &m.Action)
		case "tool_calls":
			return w.std(v, &m.ToolCalls)
		case "tool_call_id":
			return w.str(v, &m.ToolCallID)
		case "_metadata":
			return w.std(v, &m.Metadata)
		case "name":
			return w.str(v, &m.Name)
		case "function_call":
			return w.std(v, &m.FunctionCall)
		case "reasoning_content":
			return w.str(v, &m.ReasoningContent)
		case "call_id":
			return w.str(v, &m.CallID)
		case "arguments":
			return w.raw(v, &m.Arguments)
		case "output":
			return w.anyValue(v, &m.Output)
		case "input":
			return w.anyValue(v, &m.Input)
		case "status":
			return w.str(v, &m.Status)
		case "error", "is_error":
			// A true flag says so; an error given as text is kept, and says so of a tool's
			// answer (ErrText).
			if w.data[v] == 't' {
				m.Failed = true
			}
			if w.data[v] == '"' && string(key) == "error" {
				return w.str(v, &m.ErrText)
			}
			return w.skip(v)
		case "data":
			if w.data[v] != '{' {
				return w.skip(v)
			}
			m.Data = &msg{}
			return w.object(v, m.Data.member(w))
		case "parts":
			return w.std(v, &m.Parts)
		case "summary":
			if w.data[v] != '[' {
				return w.skip(v)
			}
			return w.std(v, &m.Summary)
		case "id":
			return w.str(v, &m.ID)
		case "type":
			return w.str(v, &m.Type)
		case "timestamp":
			return w.str(v, &m.Timestamp)
		case "toolCalls":
			return w.std(v, &m.GemToolCalls)
		case "thoughts":
			return w.std(v, &m.Thoughts)
		case "tokens":
			return w.std(v, &m.Tokens)
		case "model":
			return w.str(v, &m.Model)
		case "sessionId":
			return w.str(v, &m.SessionID)
		case "messageId":
			return w.anyValue(v, &m.MessageID)
		case "message":
			return w.str(v, &m.Message)
		case "extra":
			m.Extra = &miniExtra{}
			return w.object(v, m.Extra.member(w))
		case "traj":
			return w.msgList(v, &m.Traj)
		case "ts":
			return w.std(v, &m.TS)
		case "info":
			m.HasInfo = true
			return w.skip(v)
		case "format", "language", "code":
			if w.data[v] != '"' {
				return w.skip(v) // another format's member of that name (a number, an object)
			}
			switch key[0] {
			case 'f':
				return w.str(v, &m.Format)
			case 'l':
				return w.str(v, &m.Language)
			}
			return w.str(v, &m.Code)
		}
		return w.skip(v)
	}
}

// historyContent returns m.Content, decoding it from the document first if it was left for
// later (msg.contentAt). w must still hold the document m was read from.
func (w *walker) historyContent(m *msg) any {
	if m.contentAt != 0 {
		var s string
		w.str(m.contentAt, &s) // cannot fail: the string was checked when it was met
		m.Content, m.contentAt = s, 0
	}
	return m.Content
}

// historyContents decodes every content of list left for later, nested lists included.
func (w *walker) historyContents(list []msg) {
	for i := range list {
		w.historyContent(&list[i])
		w.historyContents(list[i].Traj)
		if d := list[i].Data; d != nil { // LangChain's wrapped message
			w.historyContent(d)
			w.historyContents(d.Traj)
		}
	}
}

// isGeminiContents reports a list of Gemini API contents ({role: user|model, parts: [...]}).
func isGeminiContents(list []msg) bool {
	for i := range list {
		if isAISDKMessage(&list[i]) {
			return false // the Vercel AI SDK's UI messages, read as a message list
		}
	}
	for i := range list {
		if list[i].Parts != nil || list[i].Role == "model" {
			return true
		}
	}
	return false
}

// isMini reports a mini-swe-agent trajectory: by its declared format, its info block, or, for
// files that have neither, by its shape (no structured tool calls, observations in
// <returncode> tags).
func isMini(d *docObject) bool {
	if strings.HasPrefix(d.TrajectoryFormat, "mini-swe-agent") {
		return true
	}
	if d.Info != nil && d.Info.MiniVersion != "" {
		return true
	}
	returncodes := 0
	for i := range d.Messages {
		m := &d.Messages[i]
		if m.ToolCalls != nil || m.FunctionCall != nil {
			return false
		}
		if s, ok := m.Content.(string); ok && m.Role == "user" && strings.HasPrefix(s, "<returncode>") {
			returncodes++
		}
	}
	return returncodes > 0
}

// hasRoles says whether a list holds chat messages (with a role), not Gemini CLI's records.
func hasRoles(msgs []msg) bool {
	for i := range msgs {
		if msgs[i].Role != "" {
			return true
		}
	}
	return false
}

// isClaudeStreamRecord says whether the first element of a JSON list is a line of what
// `claude -p --output-format stream-json` prints: its init line, or a message line with the
// run's session_id. claude-code-action keeps a run's lines so, as one list
// (claude-execution-output.json).
func isClaudeStreamRecord(keys map[string]string) bool {
	_, session := keys["session_id"]
	_, message := keys["message"]
	switch keys["type"] {
	case "system":
		_, subtype := keys["subtype"]
		_, tools := keys["tools"]
		return session && (subtype || tools)
	case "user", "assistant":
		return session && message
	}
	return false
}

// isClaudeSessionRecord says whether the first element of a JSON list is a record of a
// Claude Code session as ~/.claude/projects keeps them, one a line: its type, session id and
// uuid. A hook that saves the session at every stop (claude-code-hooks-mastery's `stop.py
// --chat`, logs/chat.json) writes the records as one list (validation round r90a U1: 16
// sessions, 904 calls, were read as message lists with no call).
func isClaudeSessionRecord(keys map[string]string) bool {
	has := func(k string) bool { _, ok := keys[k]; return ok }
	switch keys["type"] {
	case "user", "assistant", "system":
		return has("sessionId") && has("uuid")
	case "summary":
		return has("summary") && has("leafUuid") // a session's file may open with its summaries
	case "file-history-snapshot":
		return has("messageId") && has("snapshot") // or with the file checkpoints of a turn
	}
	return false
}

// readClaudeStreamList reads a list of stream-json lines as the lines themselves: one a line,
// read by readClaudeCode (validation round r79a: claude-code-action's execution output was
// read as a message list with no call).
func readClaudeStreamList(name string, data []byte) (*built, error) {
	var records []json.RawMessage
	if err := json.Unmarshal(data, &records); err != nil {
		return nil, &Error{Path: name, Line: max(jsonErrorLine(data, err), 1), Err: fmt.Errorf("list of Claude Code stream-json lines: %w", err)}
	}
	objects := records[:0]
	for _, r := range records {
		if len(r) > 0 && r[0] == '{' {
			objects = append(objects, r) // anything else is no line of the stream
		}
	}
	return readClaudeCodeRecords(name, objects)
}
