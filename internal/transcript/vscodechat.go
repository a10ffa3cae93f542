package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// VS Code's chat panel (GitHub Copilot, agent mode included) saves a session as one JSON
// document: what "Chat: Export Chat..." writes (chat.json), and what VS Code keeps of each
// session (workspaceStorage/<hash>/chatSessions/<id>.json). {"requesterUsername",
// "responderUsername", "initialLocation", "requests": [request, ...]}, each request one user
// turn:
//
//   - message.text is what the user typed;
//   - result.metadata.toolCallRounds are the model's replies in order, one a round:
//     {"response" (its words), "thinking": {"text"}, "toolCalls": [{"name", "arguments" (a
//     JSON string), "id"}]}; the last round, without calls, is the answer;
//   - result.metadata.toolCallResults, keyed by call id, are what each call gave the model:
//     {"content": [part, ...]}, a part a text ({"value": "..."}), a prompt-tsx tree
//     ({"value": {"node": ...}}, rendered as prompt-tsx renders it: its text pieces in order,
//     a line break before those that ask for one) or data (an image);
//   - response is the panel's view of the same: markdown, thinking, and a
//     toolInvocationSerialized part for each call, under ids of its own. The calls are read
//     from the rounds, never twice; the view is read only for what the rounds do not say: an
//     MCP tool's error (resultDetails.isError) and a terminal command's exit code, matched to
//     the calls by position when the view shows as many calls as the rounds hold (the view
//     also shows a subagent's calls, marked fromSubAgent or, in newer releases, with the
//     subagent's subAgentInvocationId, which the rounds do not; they are passed over). A
//     request without rounds (ask mode, older releases) is read from the view: markdown is
//     the model's words, each tool invocation a call.
//
// A call failed when Copilot reports it so in its result: "ERROR while calling tool: ...",
// an input that did not validate ("ERROR: Your input to the tool was invalid (...)"), both
// ending "Please check your input and try again.", "The user cancelled the tool call.", a
// patch that did not apply ("Applying patch failed with error: ..."), a VS Code command that
// does not exist ("Failed to find command `...`."), or a terminal command whose output ends
// "Command exited with code N" (N > 0; VS Code writes no line for 0). A request that failed
// itself (result.errorDetails) adds the harness's words as an error text.
//
// The Copilot extension also exports its request log as a chat replay (*.chatreplay.json):
// {"exportedAt", "totalPrompts", "totalLogEntries", "prompts": [{"prompt", "logs": [entry,
// ...]}]}. A prompt entry is one capture of the agent loop, so the same prompt comes once per
// round: a user turn is where the prompt's text changes. The log entries are in order:
//
//   - "request": one model request; its response.message (a text or a list of texts) is the
//     model's words, its thinking.text its reasoning, and a response of another type than
//     success (failure, cancelled) the harness's error text. Only the agent's own requests
//     are read (named panel/..., or sending tools): the side requests of the panel (a title,
//     a summary of the history) are not the agent's words;
//   - "toolCall": a call and its result in one: tool, args, response (a list of texts), the
//     calls after a request being its reply;
//   - "element" (the prompt's pieces and their token counts) and "error" (an entry the export
//     could not write) are passed over.

type vscodeChatSession struct {
	Requests []vscodeRequest `json:"requests"`
}

type vscodeRequest struct {
	Message   json.RawMessage `json:"message"` // {"text", "parts"}; a string in early releases
	Timestamp float64         `json:"timestamp"`
	ModelID   string          `json:"modelId"`
	Response  []vscodePart    `json:"response"`
	Result    *struct {
		// ErrorDetails say why a request failed or was cancelled (a rate limit, a filtered
		// response): the harness's words, read after the rounds that came before it.
		ErrorDetails *struct {
			Message string `json:"message"`
		} `json:"errorDetails"`
		Metadata *struct {
			ToolCallRounds []struct {
				Response string `json:"response"`
				Thinking *struct {
					Text any `json:"text"` // a text, or a list of texts
				} `json:"thinking"`
				ToolCalls []struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
					ID        string          `json:"id"`
				} `json:"toolCalls"`
			} `json:"toolCallRounds"`
			ToolCallResults map[string]struct {
				Content []json.RawMessage `json:"content"`
			} `json:"toolCallResults"`
		} `json:"metadata"`
	} `json:"result"`
}

// vscodePart is one part of a request's response as the panel shows it.
type vscodePart struct {
	Kind              string          `json:"kind"` // absent (null) for markdown
	Value             json.RawMessage `json:"value"`
	ToolID            string          `json:"toolId"`
	FromSubAgent      bool            `json:"fromSubAgent"`
	SubAgentID        string          `json:"subAgentInvocationId"` // newer releases' mark
	InvocationMessage json.RawMessage `json:"invocationMessage"`    // a text or {"value"}
	PastTenseMessage  json.RawMessage `json:"pastTenseMessage"`
	// ResultDetails is {"input", "output": [{"value"}], "isError"} for most tools, a list of
	// the places found for a search.
	ResultDetails    json.RawMessage `json:"resultDetails"`
	ToolSpecificData *struct {
		Kind        string `json:"kind"`
		CommandLine *struct {
			Original   string `json:"original"`
			ToolEdited string `json:"toolEdited"`
		} `json:"commandLine"`
		TerminalCommandState *struct {
			ExitCode *int `json:"exitCode"`
		} `json:"terminalCommandState"`
		TerminalCommandOutput *struct {
			Text string `json:"text"`
		} `json:"terminalCommandOutput"`
	} `json:"toolSpecificData"`
}

// bySubagent says whether the panel shows the part for a subagent the request started
// (runSubagent): its calls are not among the request's rounds (validation round r78d U1: 20
// of a request's 36 parts, marked only with subAgentInvocationId, kept the panel's view from
// being matched to the rounds' 16 calls).
func (p *vscodePart) bySubagent() bool { return p.FromSubAgent || p.SubAgentID != "" }

type vscodeResultDetails struct {
	Input  json.RawMessage `json:"input"`
	Output []struct {
		Value json.RawMessage `json:"value"`
	} `json:"output"`
	IsError bool `json:"isError"`
}

// details returns the part's result details when they are the object form.
func (p *vscodePart) details() *vscodeResultDetails {
	d := bytesTrimSpace(p.ResultDetails)
	if len(d) == 0 || d[0] != '{' {
		return nil
	}
	var rd vscodeResultDetails
	if err := json.Unmarshal(d, &rd); err != nil && !tolerable(err) {
		return nil
	}
	return &rd
}

// failed says whether the panel shows the call failing: an MCP tool's error, or a terminal
// command's non-zero exit code.
func (p *vscodePart) failed() bool {
	if d := p.details(); d != nil && d.IsError {
		return true
	}
	if sd := p.ToolSpecificData; sd != nil && sd.TerminalCommandState != nil {
		if c := sd.TerminalCommandState.ExitCode; c != nil && *c != 0 {
			return true
		}
	}
	return false
}

// isVSCodeChatHead says whether a document's top-level keys are a VS Code chat session's:
// its requests, with the names of the two sides (which come first).
func isVSCodeChatHead(has func(string) bool) bool {
	return has("requests") && (has("responderUsername") || has("requesterUsername"))
}

// isVSCodeReplayHead says whether a document is a Copilot chat replay: the export's counts and
// its prompts, or one prompt exported alone.
func isVSCodeReplayHead(has func(string) bool) bool {
	return has("prompts") && (has("totalPrompts") || has("totalLogEntries")) ||
		has("prompt") && has("logs") && has("logCount")
}

func readVSCodeChat(name string, br *bufio.Reader, hint int64) (*built, error) {
	s, err := decodeDocument[vscodeChatSession](name, br, hint, "VS Code chat session")
	if err != nil {
		return nil, err
	}
	return vscodeChatEvents(s), nil
}

// vscodeChatEvents turns a chat session into its events.
func vscodeChatEvents(s *vscodeChatSession) *built {
	b := newBuilder(FormatVSCodeChat)
	a := b.agent(MainAgent)
	for i, r := range s.Requests {
		if text := vscodeMessageText(r.Message); !isBlank(text) {
			a.user(text, int64(r.Timestamp))
		}
		if r.ModelID != "" {
			a.usage.Model = r.ModelID
		}
		var invocations []*vscodePart
		for k := range r.Response {
			if p := &r.Response[k]; p.Kind == "toolInvocationSerialized" && !p.bySubagent() {
				invocations = append(invocations, p)
			}
		}
		if r.Result == nil || r.Result.Metadata == nil || r.Result.Metadata.ToolCallRounds == nil {
			vscodeFromView(a, r.Response, "request "+strconv.Itoa(i))
			vscodeRequestError(a, &r)
			continue
		}
		md := r.Result.Metadata
		var calls []int
		for j, round := range md.ToolCallRounds {
			if round.Thinking != nil {
				a.text("reasoning", contentText(round.Thinking.Text), "", 0)
			}
			a.text("model", round.Response, "", 0)
			turn := "request " + strconv.Itoa(i) + " round " + strconv.Itoa(j)
			for _, c := range round.ToolCalls {
				call := loopguard.Call("", c.Name, rawArgs(c.Arguments))
				call.Turn = turn // the calls of one round are one reply
				if res, ok := md.ToolCallResults[c.ID]; ok && c.ID != "" {
					text := vscodeResultText(res.Content)
					call = call.WithResult(text, vscodeToolFailed(text))
				}
				calls = append(calls, a.add(call))
			}
		}
		if len(invocations) == len(calls) {
			for k, idx := range calls {
				if invocations[k].failed() {
					a.events[idx].Failed = true
				}
			}
		}
		vscodeRequestError(a, &r)
	}
	return b.done()
}

// vscodeRequestError adds why a request failed, when it did, as the harness's error text.
func vscodeRequestError(a *agentBuf, r *vscodeRequest) {
	if r.Result != nil && r.Result.ErrorDetails != nil {
		a.text("error", r.Result.ErrorDetails.Message, "", 0)
	}
}

// Current VS Code releases keep a session in chatSessions/<id>.jsonl as an operation log
// instead: the first line {"kind": 0, "v": <the session, as above>}, then one change a line,
// each at a path k of keys and list indexes into the session: {"kind": 1, "k", "v"} sets the
// value there, {"kind": 2, "k", "v": [items], "i"} cuts the list there to i items (when i is
// given) and appends the items, {"kind": 3, "k"} deletes it. The log is replayed, and the
// session it leaves is read as above.

// vscodeJournalHead matches a journal's first line.
var vscodeJournalHead = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\{\s*"kind"\s*:\s*0\s*,\s*"v"\s*:\s*\{`) })

// isVSCodeJournalHead says whether head opens a chat session's operation log: its snapshot
// line, holding a session's requests.
func isVSCodeJournalHead(head []byte) bool {
	if !vscodeJournalHead().Match(head) {
		return false
	}
	first := head
	if nl := bytes.IndexByte(head, '\n'); nl >= 0 {
		first = head[:nl]
	}
	return bytes.Contains(first, []byte(`"requests"`)) && (bytes.Contains(first, []byte(`"responderUsername"`)) ||
		bytes.Contains(first, []byte(`"requesterUsername"`)) || bytes.Contains(first, []byte(`"sessionId"`)))
}

// vscodeJournalLine is one line of the log.
type vscodeJournalLine struct {
	Kind *int            `json:"kind"`
	K    []any           `json:"k"`
	V    json.RawMessage `json:"v"`
	I    *int            `json:"i"`
}

func readVSCodeJournal(name string, br *bufio.Reader) (*built, error) {
	var state any
	started := false
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var l vscodeJournalLine
		if ok, err := decodeEventLine(line, &l); !ok {
			return err
		}
		if l.Kind == nil {
			return errors.New(`a change without its "kind"`)
		}
		if *l.Kind == 0 {
			started = true
			return json.Unmarshal(orNull(l.V), &state)
		}
		if !started {
			return errors.New("a change before the session's snapshot")
		}
		var err error
		state, err = vscodeApply(state, l.K, func(old any) (any, error) {
			switch *l.Kind {
			case 1:
				var v any
				return v, json.Unmarshal(orNull(l.V), &v)
			case 2:
				list, ok := old.([]any)
				if !ok && old != nil {
					return nil, errors.New("not a list")
				}
				if l.I != nil && *l.I >= 0 && *l.I <= len(list) {
					list = list[:*l.I]
				}
				var items []any
				if len(l.V) > 0 {
					if err := json.Unmarshal(l.V, &items); err != nil {
						return nil, err
					}
				}
				return append(list, items...), nil
			case 3:
				return vscodeDeletion{}, nil
			}
			return nil, fmt.Errorf("unknown kind %d", *l.Kind)
		})
		if err != nil {
			return fmt.Errorf("change of kind %d at %v: %w", *l.Kind, l.K, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var s vscodeChatSession
	if state != nil {
		raw, err := json.Marshal(state)
		if err != nil {
			return nil, &Error{Path: name, Err: err}
		}
		if err := json.Unmarshal(raw, &s); err != nil && !tolerable(err) {
			return nil, &Error{Path: name, Err: fmt.Errorf("the session the log leaves: %w", err)}
		}
	}
	return withDamaged(vscodeChatEvents(&s), damaged), nil
}

// vscodeDeletion is what a deletion leaves in place of a value, for its container to drop.
type vscodeDeletion struct{}

// vscodeApply replaces the value at path in node by what change makes of it, and returns the
// node changed. A path that leads nowhere (a key into a list, an index past its end) is an
// error; a missing key of an object is a value not set yet.
func vscodeApply(node any, path []any, change func(old any) (any, error)) (any, error) {
	if len(path) == 0 {
		return change(node)
	}
	switch n := node.(type) {
	case map[string]any:
		key, ok := path[0].(string)
		if !ok {
			return nil, fmt.Errorf("%v is no key of an object", path[0])
		}
		v, err := vscodeApply(n[key], path[1:], change)
		if err != nil {
			return nil, err
		}
		if _, gone := v.(vscodeDeletion); gone {
			delete(n, key)
		} else {
			n[key] = v
		}
		return n, nil
	case []any:
		f, ok := path[0].(float64)
		k := int(f)
		if !ok || float64(k) != f || k < 0 || k > len(n) || k == len(n) && len(path) > 1 {
			return nil, fmt.Errorf("%v is no index of a list of %d", path[0], len(n))
		}
		var old any
		if k < len(n) {
			old = n[k]
		}
		v, err := vscodeApply(old, path[1:], change)
		if err != nil {
			return nil, err
		}
		_, gone := v.(vscodeDeletion)
		switch {
		case gone && k < len(n):
			return append(n[:k], n[k+1:]...), nil
		case gone:
			return n, nil
		case k == len(n):
			return append(n, v), nil
		}
		n[k] = v
		return n, nil
	case nil:
		if key, ok := path[0].(string); ok {
			return vscodeApply(map[string]any{}, []any{key}, func(any) (any, error) {
				return vscodeApply(nil, path[1:], change)
			})
		}
	}
	return nil, fmt.Errorf("%v leads into a value that holds none", path[0])
}

// vscodeFromView reads a request that holds no rounds from the panel's view of it: markdown
// is the model's words (one text up to each call), thinking its reasoning, and each tool
// invocation a call: its input as the arguments (a command line for the terminal, else what
// the panel says it did, which tells one read from another), its output (or the terminal's)
// as the result.
func vscodeFromView(a *agentBuf, parts []vscodePart, turn string) {
	var said strings.Builder
	flush := func() {
		a.text("model", said.String(), "", 0)
		said.Reset()
	}
	for k := range parts {
		p := &parts[k]
		switch p.Kind {
		case "", "markdownContent":
			said.WriteString(rawString(p.Value))
		case "thinking":
			flush()
			a.text("reasoning", contentText(anyJSON(p.Value)), "", 0)
		case "toolInvocationSerialized":
			if p.bySubagent() {
				continue
			}
			flush()
			var args []byte
			d := p.details()
			switch {
			case d != nil && len(rawArgs(d.Input)) > 0:
				args = rawArgs(d.Input)
			case p.ToolSpecificData != nil && p.ToolSpecificData.CommandLine != nil:
				cl := p.ToolSpecificData.CommandLine
				cmd := cl.Original // the model's command; toolEdited is what VS Code made of it
				if cmd == "" {
					cmd = cl.ToolEdited
				}
				args = marshalArgs(map[string]string{"command": cmd})
			default:
				msg := vscodeMessageText(p.PastTenseMessage)
				if msg == "" {
					msg = vscodeMessageText(p.InvocationMessage)
				}
				if msg != "" {
					args = marshalArgs(map[string]string{"message": msg})
				}
			}
			call := loopguard.Call("", p.ToolID, args)
			call.Turn = turn
			result, known := "", false
			switch sd := p.ToolSpecificData; {
			case d != nil && d.Output != nil:
				out := make([]string, 0, len(d.Output))
				for _, o := range d.Output {
					if text, ok := vscodeValueText(o.Value); ok {
						out = append(out, text)
					}
				}
				result, known = strings.Join(out, "\n"), true
			case sd != nil && sd.TerminalCommandOutput != nil:
				result, known = sd.TerminalCommandOutput.Text, true
			}
			if failed := p.failed(); known || failed {
				call = call.WithResult(result, failed)
			}
			a.add(call)
		}
	}
	flush()
}

// vscodeMessageText is the text of a message: {"text"} or {"value"} (a request's message, a
// panel's markdown), or a bare string.
func vscodeMessageText(raw json.RawMessage) string {
	raw = bytesTrimSpace(raw)
	switch {
	case len(raw) == 0:
		return ""
	case raw[0] == '"':
		return rawString(raw)
	case raw[0] != '{':
		return ""
	}
	var m struct {
		Text  *string `json:"text"`
		Value *string `json:"value"`
	}
	_ = json.Unmarshal(raw, &m) // a member of another type is left nil
	switch {
	case m.Text != nil:
		return *m.Text
	case m.Value != nil:
		return *m.Value
	}
	return ""
}

// rawString is a JSON string's text, "" for any other value.
func rawString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// vscodeResultText renders a tool result's content parts as the model was given them, a line
// between parts: a text part's value, a prompt-tsx part's tree, "[image]" for an image.
func vscodeResultText(content []json.RawMessage) string {
	out := make([]string, 0, len(content))
	for _, raw := range content {
		var p struct {
			Value    json.RawMessage `json:"value"`
			MimeType string          `json:"mimeType"`
		}
		if raw = bytesTrimSpace(raw); len(raw) == 0 || raw[0] != '{' {
			continue
		}
		_ = json.Unmarshal(raw, &p) // a member of another type is left empty
		if text, ok := vscodeValueText(p.Value); ok {
			out = append(out, text)
		} else if strings.HasPrefix(p.MimeType, "image/") {
			out = append(out, "[image]")
		}
	}
	return strings.Join(out, "\n")
}

// vscodeValueText renders one value of a tool result: a text, or a prompt-tsx tree
// ({"node": ...}). ok is false for anything else.
func vscodeValueText(v json.RawMessage) (text string, ok bool) {
	v = bytesTrimSpace(v)
	switch {
	case len(v) == 0:
		return "", false
	case v[0] == '"':
		return rawString(v), true
	case v[0] != '{':
		return "", false
	}
	var tsx struct {
		Node *tsxNode `json:"node"`
	}
	if err := json.Unmarshal(v, &tsx); err != nil && !tolerable(err) || tsx.Node == nil {
		return "", false
	}
	var sb strings.Builder
	tsx.Node.render(&sb)
	return sb.String(), true
}

// tsxNode is a prompt-tsx element as JSON (@vscode/prompt-tsx's jsonTypes): a piece (type 1)
// holding children, or a text (type 2).
type tsxNode struct {
	Type            int       `json:"type"`
	Ctor            int       `json:"ctor"`
	Text            string    `json:"text"`
	LineBreakBefore bool      `json:"lineBreakBefore"`
	Children        []tsxNode `json:"children"`
}

// render writes the node's text as prompt-tsx renders it for the model. A text set on a line
// of its own (lineBreakBefore) gets a line break only where the text before it does not end
// one and is not empty: Copilot's read_file sends a file as one text a line, each ending in
// its own line break, and a break before each doubled every line break of the file
// (validation round r251c).
func (n *tsxNode) render(sb *strings.Builder) {
	switch {
	case n.Type == 2:
		if s := sb.String(); n.LineBreakBefore && s != "" && s[len(s)-1] != '\n' {
			sb.WriteByte('\n')
		}
		sb.WriteString(n.Text)
	case n.Ctor == 3:
		sb.WriteString("[image]")
	default:
		for i := range n.Children {
			n.Children[i].render(sb)
		}
	}
}

// vscodeToolFailed says whether a tool result is Copilot's report of a call that failed (see
// toolCalling.tsx in the Copilot extension): the tool threw, its input did not validate, the
// user cancelled it, or the tool's own words say so (a patch, a command, a terminal's exit code).
func vscodeToolFailed(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "ERROR while calling tool") ||
		strings.HasPrefix(t, "ERROR: Your input to the tool was invalid") ||
		strings.HasSuffix(t, "Please check your input and try again.") ||
		t == "The user cancelled the tool call." ||
		strings.HasPrefix(t, "Applying patch failed with error:") ||
		strings.HasPrefix(t, "Failed to find command `") && !strings.Contains(t, "\n") ||
		strings.Contains(t, "Command exited with code ") && vscodeTerminalExitCode().MatchString(t)
}

// vscodeTerminalExitCode matches the line VS Code's terminal tool adds, after a blank line, to
// the output of a command that exited with a code other than 0 (more notes may follow it).
// A command's own output seldom holds the line so set apart; the code 0 is never written.
var vscodeTerminalExitCode = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:\A|\n\r?\n)Command exited with code [1-9][0-9]*\r?$`)
})

type vscodeReplay struct {
	Prompts            []vscodeReplayPrompt `json:"prompts"`
	vscodeReplayPrompt                      // one prompt exported alone
}

type vscodeReplayPrompt struct {
	Prompt string `json:"prompt"`
	Logs   []struct {
		Kind     string          `json:"kind"`
		Name     string          `json:"name"`
		Type     string          `json:"type"`
		Tool     string          `json:"tool"`
		Args     json.RawMessage `json:"args"`
		Response json.RawMessage `json:"response"`
		Time     string          `json:"time"`
		Thinking *struct {
			Text any `json:"text"`
		} `json:"thinking"`
		Metadata *struct {
			Tools     []json.RawMessage `json:"tools"`
			Model     string            `json:"model"`
			StartTime string            `json:"startTime"`
		} `json:"metadata"`
	} `json:"logs"`
}

func readVSCodeReplay(name string, br *bufio.Reader, hint int64) (*built, error) {
	r, err := decodeDocument[vscodeReplay](name, br, hint, "Copilot chat replay")
	if err != nil {
		return nil, err
	}
	prompts := r.Prompts
	if prompts == nil && r.Logs != nil {
		prompts = []vscodeReplayPrompt{r.vscodeReplayPrompt}
	}
	b := newBuilder(FormatVSCodeChat)
	a := b.agent(MainAgent)
	last, turn, requests := "", "", 0
	for _, p := range prompts {
		if strings.TrimSpace(p.Prompt) != strings.TrimSpace(last) && !isBlank(p.Prompt) {
			ms := int64(0)
			for _, l := range p.Logs { // the time of its first request or call
				if ms = parseTime(l.Time); ms == 0 && l.Metadata != nil {
					ms = parseTime(l.Metadata.StartTime)
				}
				if ms != 0 {
					break
				}
			}
			a.user(p.Prompt, ms)
		}
		last = p.Prompt
		for _, l := range p.Logs {
			switch l.Kind {
			case "request":
				md := l.Metadata
				if !strings.HasPrefix(l.Name, "panel/") && (md == nil || len(md.Tools) == 0) {
					continue // a side request: a title, a summary
				}
				if md != nil && md.Model != "" {
					a.usage.Model = md.Model
				}
				requests++
				turn = "request " + strconv.Itoa(requests) // the calls it asked for come next
				if l.Thinking != nil {
					a.text("reasoning", contentText(l.Thinking.Text), "", 0)
				}
				var resp struct {
					Type    string `json:"type"`
					Message any    `json:"message"`
					Reason  string `json:"reason"`
				}
				if r := bytesTrimSpace(l.Response); len(r) > 0 && r[0] == '{' {
					_ = json.Unmarshal(r, &resp) // a member of another type is left empty
				}
				if resp.Type == "success" || resp.Type == "" {
					a.text("model", contentText(resp.Message), "", 0)
					continue
				}
				reason := resp.Reason
				if reason == "" {
					reason = resp.Type
				}
				a.text("error", strings.TrimPrefix(l.Type+": ", ": ")+reason, "", 0)
			case "toolCall":
				call := loopguard.Call("", l.Tool, rawArgs(l.Args))
				call.Turn = turn
				call.Time = parseTime(l.Time)
				if r := bytesTrimSpace(l.Response); len(r) > 0 && string(r) != "null" {
					text := vscodeReplayResult(l.Response)
					call = call.WithResult(text, vscodeToolFailed(text))
				}
				a.add(call)
			}
		}
	}
	return b.done(), nil
}

// vscodeReplayResult is a tool call's response in a chat replay: its texts, a line between
// them (a prompt-tsx tree or a {"value"} part rendered as in a session).
func vscodeReplayResult(raw json.RawMessage) string {
	raw = bytesTrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		if text, ok := vscodeValueText(raw); ok {
			return text
		}
		return vscodeResultText([]json.RawMessage{raw})
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return ""
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		if text, ok := vscodeValueText(it); ok {
			out = append(out, text)
		} else if text := vscodeResultText([]json.RawMessage{it}); text != "" {
			out = append(out, text)
		}
	}
	return strings.Join(out, "\n")
}
