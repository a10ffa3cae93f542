package transcript

import (
	"encoding/json"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
)

// OpenHands llm_completions dumps (log_completions: <eval output>/llm_completions/<instance>/
// <model>-<unix time>.json, or the folder set by LOG_COMPLETIONS_FOLDER): one JSON object per
// model call,
//
//	{"messages": [...], "response": {...}, "args": [...], "kwargs": {...}, "timestamp": 1731.5,
//	 "cost": 0.01, "fncall_messages": [...], "fncall_response": {...}}
//
// messages is the history sent (OpenAI messages) and response the litellm response
// ({choices: [{message}], usage, model}). When the model has no native function calling,
// OpenHands writes the calls into the text (messages and response hold
// "<function=execute_bash>\n<parameter=command>ls</parameter>\n</function>", results come
// back as user messages "EXECUTION RESULT of [execute_bash]:\n...") and keeps the same
// conversation with structured tool_calls in fncall_messages and fncall_response. The
// structured form is read when it is there; the text form is parsed when it is all there is.
//
// The OpenHands SDK (V1) logs completions in the same shape (messages, response, cost,
// timestamp; also tools, kwargs, latency_sec), one file per call in its log_completions
// folder. When it mocks function calling, messages holds the calls as text and raw_messages
// the same history with structured tool_calls, while response is already converted back to
// structured calls (raw_response is the model's text): raw_messages and response are read.
//
// One dump alone is read as a session: its history, then its response. Each dump repeats
// the history so far, so a folder of dumps of one conversation is one session (a conversation
// begun again in the same folder is another: see MergeCompletions), joined by
// MergeCompletions: the earliest dump's history, then each dump's new part (the messages
// after the last assistant message of its history: the results of the previous call, new
// user turns) and its response. Joining by new parts rather than by the longest history also
// keeps the calls from before a condensation (OpenHands shortens the history it sends).
//
// Within a dump, every user message is a user turn; the evaluation harness's "Please continue
// working on the task" reprompt is marked as the harness's (see loopguard.IsKnownReprompt).

// CompletionPart is what MergeCompletions needs of one dump: its new part and response.
type CompletionPart struct {
	time       float64
	newPart    []msg // messages after the last assistant message of the history, then the response
	history    []msg // the whole history and the response; only kept while needed (NeedsHistory)
	textForm   bool
	usage      Usage
	hadEarlier bool // the history holds assistant messages: earlier calls, from dumps not seen
	histLen    int  // how many messages the history holds
	task       string
}

// Conversation names the conversation the dump belongs to: a digest of its first user
// message (the task), which every dump of a conversation repeats. A folder can hold the dumps
// of several conversations (OpenHands' CLI logs them all to one folder).
func (p *CompletionPart) Conversation() string { return p.task }

// Time is the dump's timestamp (Unix seconds), the order of the dumps of a conversation.
func (p *CompletionPart) Time() float64 { return p.time }

// NeedsHistory says the dump's history holds calls made before it: if it is the earliest dump
// of its folder, the merged session must start with that history.
func (p *CompletionPart) NeedsHistory() bool { return p.hadEarlier }

// Trim drops the whole history, keeping only what MergeCompletions needs of a dump that is
// not the earliest (NeedsHistory reports whether a merge could need it back).
func (p *CompletionPart) Trim() { p.history = nil }

// HasHistory says the part still holds its whole history (not trimmed).
func (p *CompletionPart) HasHistory() bool { return p.history != nil }

// completionDoc is the part of a dump the reader uses.
type completionDoc struct {
	Messages, FncallMessages []msg
	RawMessages              []msg // OpenHands SDK: the structured history when messages has the calls as text
	Response, FncallResponse *ohResponse
	Timestamp                float64
	Cost                     float64
}

type ohResponse struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Message *msg `json:"message"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens        int64 `json:"prompt_tokens"`
		CompletionTokens    int64 `json:"completion_tokens"`
		CacheReadTokens     int64 `json:"cache_read_input_tokens"`
		CacheCreationTokens int64 `json:"cache_creation_input_tokens"`
		PromptDetails       *struct {
			CachedTokens int64 `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
}

func (r *ohResponse) message() *msg {
	if r == nil || len(r.Choices) == 0 || r.Choices[0].Message == nil {
		return nil
	}
	m := *r.Choices[0].Message
	if m.Role == "" {
		m.Role = "assistant"
	}
	return &m
}

func (r *ohResponse) usage(cost float64) Usage {
	u := Usage{CostUSD: cost}
	if r == nil {
		return u
	}
	u.Model = r.Model
	if r.Usage != nil {
		cached := r.Usage.CacheReadTokens
		if cached == 0 && r.Usage.PromptDetails != nil {
			cached = r.Usage.PromptDetails.CachedTokens
		}
		u.CacheReadTokens, u.CacheWriteTokens = cached, r.Usage.CacheCreationTokens
		u.InputTokens = max(r.Usage.PromptTokens-cached-r.Usage.CacheCreationTokens, 0)
		u.OutputTokens = r.Usage.CompletionTokens
	}
	return u
}

// buildCompletion reads one dump: its history and response as one session.
func buildCompletion(d *completionDoc) *built {
	history, resp, note := d.Messages, d.Response.message(), ""
	usage := d.Response
	structured := true
	switch {
	case d.FncallMessages != nil || d.FncallResponse != nil:
		history, resp, usage = d.FncallMessages, d.FncallResponse.message(), d.FncallResponse
		if d.Messages != nil {
			note = "read fncall_messages and fncall_response (structured tool calls); messages and response hold the same calls as text"
		}
	case d.RawMessages != nil:
		history = d.RawMessages
		if d.Messages != nil {
			note = "read raw_messages and response (structured tool calls, OpenHands SDK log); messages and raw_response hold the same calls as text"
		}
	default:
		structured = false
	}
	all := append([]msg(nil), history...)
	if resp != nil {
		all = append(all, *resp)
	}
	textForm := !structured && !hasToolCalls(all) && hasTextCalls(all)
	if textForm {
		note = "calls parsed from the text of messages and response (<function=...>): the dump has no structured tool calls"
	}
	last := -1
	for i := range history {
		if history[i].Role == "assistant" {
			last = i
		}
	}
	p := &CompletionPart{time: d.Timestamp, history: all, textForm: textForm, hadEarlier: last >= 0, histLen: len(history)}
	for i := range history {
		if history[i].Role == "user" {
			h := fnv.New64a()
			h.Write([]byte(contentText(history[i].Content)))
			p.task = strconv.FormatUint(h.Sum64(), 16)
			break
		}
	}
	p.newPart = append(p.newPart, history[last+1:]...)
	if resp != nil {
		p.newPart = append(p.newPart, *resp)
	}
	p.usage = usage.usage(d.Cost)
	t := buildOpenHandsMessages(all, textForm, p.usage)
	t.Note = note
	t.Completion = p
	return t
}

// MergeCompletions joins the dumps of one conversation (the parts of the transcripts read
// from a folder of dumps) into one session, named name. The parts are put in time order;
// the earliest must still hold its history (HasHistory) when it NeedsHistory.
//
// A dump whose history holds no reply of the model's, after dumps whose histories did, is a
// conversation begun again: an evaluation that ran the instance once more (a retry after a
// runtime's failure) writes its dumps into the same folder. Each such conversation is a
// session of its own: joined, the second attempt's calls read as the first's made again
// (validation round r199b: a folder of two attempts of sympy-18189, 12 and 18 dumps).
func MergeCompletions(name string, parts []*CompletionPart) *Transcript {
	parts = append([]*CompletionPart(nil), parts...)
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].time < parts[j].time })
	var sessions []*built
	var total Usage
	for len(parts) > 0 {
		n := 1
		for n < len(parts) && !parts[n].beginsAgain(parts[0]) {
			n++
		}
		t, u := mergeConversation(parts[:n])
		sessions = append(sessions, t)
		total.add(u)
		parts = parts[n:]
	}
	t := joinSessions(sessions)
	t.Path = name
	t.Usage = total
	return t.Transcript
}

// beginsAgain says whether the dump begins the conversation that first began anew: its
// history holds no reply of the model's, and is no longer than the first dump's. (A history
// condensed mid-conversation keeps the recent replies, and a summary beside the task.)
func (p *CompletionPart) beginsAgain(first *CompletionPart) bool {
	return !p.hadEarlier && p.histLen <= first.histLen
}

// mergeConversation joins the dumps of one conversation, in time order, into one session.
func mergeConversation(parts []*CompletionPart) (*built, Usage) {
	var all []msg
	var u Usage
	textForm := false
	for i, p := range parts {
		if i == 0 && p.history != nil {
			all = append(all, p.history...)
		} else {
			all = append(all, p.newPart...)
		}
		u.add(p.usage)
		textForm = textForm || p.textForm
	}
	t := buildOpenHandsMessages(all, textForm, u)
	t.Sessions = 1
	return t, u
}

func buildOpenHandsMessages(msgs []msg, textForm bool, u Usage) *built {
	conv := make([]msg, 0, len(msgs))
	refused := 0 // refused calls whose replies the dump did not keep
	for _, m := range msgs {
		switch m.Role {
		case "user":
			text := contentText(m.Content)
			if textForm && strings.HasPrefix(text, "EXECUTION RESULT of [") {
				_, rest, _ := strings.Cut(text, "\n")
				conv = append(conv, msg{Role: "tool", Content: rest})
				continue
			}
			if body, ok := strings.CutSuffix(strings.TrimSpace(text), actionErrorSuffix); ok {
				body = strings.TrimSpace(body)
				if tool := refusedCallTool(body); tool != "" {
					// The harness refused a call before it ran, and the dump kept its refusal
					// alone: the reply that made it is not in the history. It stands for the
					// call, failed, so that ten refusals in a row are ten failed attempts and
					// not ten silent user turns (validation round r56c M1). Its arguments are
					// not kept: each attempt is told apart by its number, so that refusals far
					// apart are not one call made again (the errors rule still sees refusals
					// in a row as one tool failing alike). A refusal right after a reply whose
					// one call is of the tool it names answers that call.
					id := ""
					if n := len(conv); n > 0 && conv[n-1].Role == "assistant" && len(conv[n-1].ToolCalls) == 1 && callName(&conv[n-1].ToolCalls[0]) == tool {
						id = conv[n-1].ToolCalls[0].ID
					} else {
						refused++
						id = "loopguard-refused-" + strconv.Itoa(refused)
						args := json.RawMessage(refusedAttemptArgs(refused))
						conv = append(conv, msg{Role: "assistant", ToolCalls: []oaToolCall{{ID: id, Function: oaFunction{Name: tool, Arguments: args}}}})
					}
					conv = append(conv, msg{Role: "tool", ToolCallID: id, Content: body, Failed: true})
					continue
				}
				// Another error the harness reports on the model's last action: the harness
				// speaking, not a person's new turn.
				m.FromHarness = true
			}
		case "assistant":
			if textForm && len(m.ToolCalls) == 0 {
				m = textCalls(m)
			}
		}
		conv = append(conv, m)
	}
	b := newBuilder(FormatOpenHandsCompletion)
	addMessages(b, conv, func(*msg) string { return MainAgent }, false)
	t := b.done()
	if len(t.Agents) > 0 {
		t.Agents[0].Usage = u
	}
	return t
}

// actionErrorSuffix ends the user message in which OpenHands reports an error on the model's
// last action (an ErrorObservation with no call to answer: a call it could not validate, a
// runtime that failed).
const actionErrorSuffix = "[Error occurred in processing last action]"

// refusedCallTool returns the tool an OpenHands refusal of a call names ("Missing required
// parameters for function 'str_replace_editor': {'security_risk'}", "Tool foo is not
// registered", "Missing required argument \"command\" in tool call execute_bash"), or ""
// when it names none.
func refusedCallTool(body string) string {
	if _, rest, ok := strings.Cut(body, "for function '"); ok {
		if name, _, ok := strings.Cut(rest, "'"); ok {
			return toolName(name)
		}
	}
	if _, rest, ok := strings.Cut(body, "in tool call "); ok {
		return toolName(strings.TrimRight(strings.Fields(rest + " x")[0], ".:,"))
	}
	if rest, ok := strings.CutPrefix(body, "Tool "); ok {
		if name, _, ok := strings.Cut(rest, " is not registered"); ok {
			return toolName(name)
		}
	}
	return ""
}

// refusedAttemptArgs are the arguments of the n-th call a harness refused before it ran, whose
// own arguments no record keeps: numbered, so that refusals far apart are not one call made
// again (the errors rule still sees refusals in a row as one tool failing alike).
func refusedAttemptArgs(n int) []byte {
	return []byte(`{"refused_attempt":` + strconv.Itoa(n) + `}`)
}

// callName is the name of a structured call, wherever its dump put it.
func callName(tc *oaToolCall) string {
	if tc.Function.Name != "" {
		return tc.Function.Name
	}
	return tc.Name
}

// toolName returns name when it can be a tool's name (a word of letters, digits, '_', '-' and
// '.'), else "".
func toolName(name string) string {
	if name == "" || len(name) > 64 {
		return ""
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return ""
		}
	}
	return name
}

func hasToolCalls(msgs []msg) bool {
	for i := range msgs {
		if len(msgs[i].ToolCalls) > 0 {
			return true
		}
	}
	return false
}

func hasTextCalls(msgs []msg) bool {
	for i := range msgs {
		if msgs[i].Role == "assistant" && strings.Contains(contentText(msgs[i].Content), "<function=") {
			return true
		}
	}
	return false
}

// textCalls turns the <function=NAME><parameter=K>V</parameter>...</function> blocks of an
// assistant message into tool calls (arguments: a JSON object of the parameters, in order);
// the text before the first block stays the message's content. A block cut short (the
// model stops at "</function") runs to the end of the text.
func textCalls(m msg) msg {
	text := contentText(m.Content)
	i := strings.Index(text, "<function=")
	if i < 0 {
		return m
	}
	out := msg{Role: m.Role, Content: strings.TrimSpace(text[:i]), ReasoningContent: m.ReasoningContent}
	rest := text[i:]
	for {
		i = strings.Index(rest, "<function=")
		if i < 0 {
			break
		}
		rest = rest[i+len("<function="):]
		nameEnd := strings.IndexByte(rest, '>')
		if nameEnd < 0 {
			break
		}
		name := strings.TrimSpace(rest[:nameEnd])
		rest = rest[nameEnd+1:]
		body := rest
		if j := strings.Index(rest, "</function>"); j >= 0 {
			body, rest = rest[:j], rest[j+len("</function>"):]
		} else {
			rest = ""
		}
		if name == "" {
			// A block that names no function is an attempt that calls nothing: a model writing
			// its calls in another syntax (DeepSeek's own tool-call tokens) ended each reply
			// with an empty "<function=>" block, and the harness answered every one "You forgot
			// to use a function call". Named for what it is, as SWE-agent's steps without a
			// command are, not "".
			name = noActionTool
		}
		out.ToolCalls = append(out.ToolCalls, oaToolCall{Function: oaFunction{Name: name, Arguments: textParams(body)}})
	}
	return out
}

// textParams encodes the <parameter=K>V</parameter> pairs of a text-encoded call as a JSON
// object string, keeping their order; a value's one leading and trailing newline are the
// format's, not the value's.
func textParams(body string) json.RawMessage {
	var sb strings.Builder
	sb.WriteByte('{')
	n := 0
	for {
		i := strings.Index(body, "<parameter=")
		if i < 0 {
			break
		}
		body = body[i+len("<parameter="):]
		kEnd := strings.IndexByte(body, '>')
		if kEnd < 0 {
			break
		}
		key := body[:kEnd]
		body = body[kEnd+1:]
		val := body
		if j := strings.Index(body, "</parameter>"); j >= 0 {
			val, body = body[:j], body[j+len("</parameter>"):]
		} else {
			body = ""
		}
		val = strings.TrimPrefix(val, "\n")
		val = strings.TrimSuffix(val, "\n")
		if n > 0 {
			sb.WriteByte(',')
		}
		n++
		sb.Write(jsonString(key))
		sb.WriteByte(':')
		sb.Write(jsonString(val))
	}
	sb.WriteByte('}')
	return json.RawMessage(sb.String())
}
