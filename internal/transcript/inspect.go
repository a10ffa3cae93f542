package transcript

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// Inspect (the UK AI Security Institute's evaluation framework, inspect_ai) writes each run
// of an eval as a log: one JSON document ({"version", "status", "eval", "plan", "results",
// "stats", "samples"}) or, the default since 2025, a ".eval" zip archive holding header.json
// and one samples/<id>_epoch_<n>.json per sample (an id holding "/", as
// "intercode-ctf_crypto/task_5", puts its sample in a folder under samples/). Each sample is a
// session:
//
//   - its messages are a chat: system, user, assistant ({"content", "tool_calls": [{"id",
//     "function": name, "arguments": {...}}]}) and tool ({"tool_call_id", "function",
//     "content", "error": {"type", "message"}}) messages;
//   - a content is a string or a list of parts: {"type": "text", "text"}, {"type":
//     "reasoning", "reasoning"}, images and others;
//   - a tool message with an error failed (a timeout, a parse error, a permission error);
//     older logs wrote the error's message as "tool_error";
//   - a long string may be stored once in the sample's attachments and written in its place
//     as "attachment://<hash>" (always for images, in some versions for long texts too);
//   - the sample's input is its first user message, marked "source": "input" by recent
//     versions; every user message after it is the agent loop's own (react(), basic_agent:
//     "Your submission was incorrect. Please proceed…", "Please proceed to the next step
//     using your best judgement…"), with no source. Nobody types in an evaluation, so those
//     are the harness's (msg.FromHarness: user events with Source "harness").
//
// Inspect's tool calls name their function by a string, where OpenAI's wrap it in an object,
// so the messages are read here and given to the message-list builder as OpenAI's.

type inspectLog struct {
	Samples []inspectSample `json:"samples"`
}

type inspectSample struct {
	Messages    []inspectMessage  `json:"messages"`
	Attachments map[string]string `json:"attachments"`
	// Events are read for the tool calls that Inspect ran and messages no longer hold:
	// react() removes its submit calls and their answers from the conversation it keeps.
	Events []inspectEvent `json:"events"`
}

// inspectEvent is what is read of a sample's event: a tool event's call and answer, a model
// event's reply (its text, to find the message it became). The rest (a model event's whole
// input, above all) is skipped.
type inspectEvent struct {
	Event     string          `json:"event"`
	ID        string          `json:"id"`
	Function  string          `json:"function"`
	Arguments json.RawMessage `json:"arguments"`
	Result    any             `json:"result"`
	Error     *struct {
		Message string `json:"message"`
	} `json:"error"`
	Output *struct {
		Choices []struct {
			Message struct {
				Content   any `json:"content"`
				ToolCalls []struct {
					ID string `json:"id"`
				} `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
	} `json:"output"`
}

type inspectMessage struct {
	Role      string `json:"role"`
	Content   any    `json:"content"`
	Source    string `json:"source"` // "input" for the sample's input, "generate" for the model's
	ToolCalls []struct {
		ID        string          `json:"id"`
		Function  string          `json:"function"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"tool_calls"`
	ToolCallID string `json:"tool_call_id"`
	Error      *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	ToolError string `json:"tool_error"`
}

// isInspectHead says whether a JSON document's top-level keys are an Inspect log's. Its
// first members are version, status and eval (the task, model and configuration).
func isInspectHead(has func(string) bool) bool {
	return has("version") && has("eval") && (has("status") || has("samples"))
}

// zipMagic opens a zip archive, as an Inspect .eval log is.
var zipMagic = []byte("PK\x03\x04")

func readInspectJSON(name string, br *bufio.Reader, hint int64) (*built, error) {
	l, err := decodeDocument[inspectLog](name, br, hint, "Inspect log")
	if err != nil {
		return nil, err
	}
	return buildInspect(l.Samples), nil
}

// maxEvalArchive bounds what is read of a .eval archive into memory (a zip is read from its
// end, so it is read whole).
const maxEvalArchive = 1 << 30

func readInspectEval(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(io.LimitReader(br, maxEvalArchive+1))
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	if len(data) > maxEvalArchive {
		return nil, &Error{Path: name, Err: fmt.Errorf("a zip archive over %d bytes", maxEvalArchive)}
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, &Error{Path: name, Err: fmt.Errorf("%w: a zip archive that cannot be read: %v", ErrUnknownFormat, err)}
	}
	var samples []inspectSample
	isLog := false
	// firstEntry and firstSample are the first member under samples/ and the first sample
	// read, withMessages counts the samples that hold messages: an archive whose samples/
	// gives no session is an error, not a log read with no calls (a layout or a schema not
	// read here would otherwise pass for an empty run).
	firstEntry, firstSample, withMessages := "", "", 0
	for _, f := range zr.File {
		inSamples := strings.HasPrefix(path.Clean(f.Name), "samples/") && !strings.HasSuffix(f.Name, "/")
		if inSamples && firstEntry == "" {
			firstEntry = f.Name
		}
		switch {
		case f.Name == "header.json" || strings.HasPrefix(f.Name, "_journal/"):
			isLog = true
		case inSamples && strings.HasSuffix(f.Name, ".json"):
			// A sample at any depth, in the archive's order: Inspect names it
			// samples/<id>_epoch_<n>.json with the id as it is, "/" included, and reads back
			// every .json under samples/.
			isLog = true
			s, line, err := readZipSample(f)
			if err != nil {
				// The place is the member and its line: the archive has no lines of its own.
				at := f.Name
				if line > 0 {
					at += ":" + strconv.Itoa(line)
				}
				return nil, &Error{Path: name, Err: fmt.Errorf("%s: %w", at, err)}
			}
			if firstSample == "" {
				firstSample = f.Name
			}
			if s.Messages != nil {
				withMessages++
			}
			samples = append(samples, s)
		}
	}
	if !isLog {
		return nil, &Error{Path: name, Err: fmt.Errorf("%w: a zip archive without an Inspect log's header.json or samples/", ErrUnknownFormat)}
	}
	// Not ErrUnknownFormat: it is an Inspect log, and a folder's scan must report it.
	switch {
	case firstEntry != "" && firstSample == "":
		return nil, &Error{Path: name, Err: fmt.Errorf("%s: no Inspect sample read: nothing under samples/ is a sample's JSON (samples/<id>_epoch_<n>.json)", firstEntry)}
	case firstSample != "" && withMessages == 0:
		return nil, &Error{Path: name, Err: fmt.Errorf("%s: no Inspect sample read: no sample holds messages", firstSample)}
	}
	return buildInspect(samples), nil
}

func readZipSample(f *zip.File) (s inspectSample, line int, err error) {
	rc, err := f.Open()
	if err != nil {
		return s, 0, err
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return s, 0, readErr(err)
	}
	if err := json.Unmarshal(data, &s); err != nil && !tolerable(err) {
		return s, jsonErrorLine(data, err), fmt.Errorf("invalid Inspect sample: %w", err)
	}
	return s, 0, nil
}

// buildInspect makes each sample a session of one agent.
func buildInspect(samples []inspectSample) *built {
	b := newBuilder(FormatInspect)
	for i := range samples {
		b.session = i
		addMessages(b, inspectMessages(&samples[i]), func(*msg) string { return MainAgent }, false)
	}
	t := b.done()
	t.Sessions = max(len(samples), 1)
	return t
}

// inspectMessages turns a sample's messages into the OpenAI-style list addMessages reads.
func inspectMessages(s *inspectSample) []msg {
	resolve := func(text string) string {
		if h, ok := strings.CutPrefix(text, "attachment://"); ok {
			if full, ok := s.Attachments[h]; ok {
				return full
			}
		}
		return text
	}
	list := make([]msg, 0, len(s.Messages))
	removed := removedCallsOf(s, resolve)
	users := 0
	for _, m := range s.Messages {
		text, reasoning := inspectContent(m.Content, resolve)
		out := msg{Role: m.Role, Content: text, ReasoningContent: reasoning, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			out.ToolCalls = append(out.ToolCalls, oaToolCall{ID: tc.ID, Name: tc.Function, Arguments: resolveArgs(tc.Arguments, resolve)})
		}
		switch m.Role {
		case "user":
			// The task is the input (source "input"); a message of another source, or with
			// none after the first user message (logs older than the source field), is the
			// agent loop's.
			out.FromHarness = !(m.Source == "input" || m.Source == "" && users == 0)
			users++
		case "tool":
			msgText := m.ToolError
			if m.Error != nil {
				msgText = m.Error.Message
			}
			if msgText != "" || m.Error != nil {
				out.Status = "error"
				if !strings.Contains(text, msgText) {
					// The model is shown the error's message; the content is often empty then.
					out.Content = strings.TrimSpace(text + "\n" + msgText)
				}
			}
		}
		var answers []msg
		if m.Role == "assistant" {
			// Answers the conversation lost of calls it holds (see removedCalls.lost).
			for _, tc := range out.ToolCalls {
				if a, ok := removed.lost[tc.ID]; ok {
					answers = append(answers, a)
				}
			}
			// The calls Inspect ran for this reply that the conversation no longer holds.
			var more []msg
			out.ToolCalls, more = removed.after(text, out.ToolCalls)
			answers = append(answers, more...)
		}
		list = append(list, out)
		list = append(list, answers...)
	}
	return append(list, removed.rest()...)
}

// removedCalls are the tool calls Inspect ran whose messages the sample's conversation no
// longer holds (react() drops its submit calls and their answers: a CTF agent submitting
// the same wrong flag again and again was invisible). Each is put back after the assistant
// message of the model's reply that made it: a message holding calls is the reply whose
// output named its first call, a message of text alone the next reply that said that text.
//
// A call the conversation holds may have lost its answer: a sample stopped at its message
// limit keeps the last reply's calls but not the tool messages that answered them. Their
// answers are the tool events' (lost): 698 calls of five real logs, 559 of them failed, were
// read unanswered (validation round r119b U1).
type removedCalls struct {
	lost    map[string]msg // the answers of held calls that no tool message holds, by call id
	calls   []removedCall
	turnOf  map[string]int // the model event (counted from 1) whose output named each call
	replies []string       // the text of each model event's reply, by its count - 1
	next    int            // the first removed call not yet put back
	turn    int            // the reply of the last assistant message placed
}

type removedCall struct {
	turn   int        // the model event that made the call, counted from 1
	call   oaToolCall // the call
	answer msg        // the tool's answer
}

// removedCallsOf lists the tool events of s whose call no message holds, in order, with
// the model events' replies.
func removedCallsOf(s *inspectSample, resolve func(string) string) removedCalls {
	held := map[string]bool{}
	answered := map[string]bool{}
	for _, m := range s.Messages {
		for _, tc := range m.ToolCalls {
			held[tc.ID] = true
		}
		if m.Role == "tool" && m.ToolCallID != "" {
			answered[m.ToolCallID] = true
		}
	}
	r := removedCalls{turnOf: map[string]int{}, lost: map[string]msg{}}
	for _, e := range s.Events {
		switch e.Event {
		case "model":
			reply := ""
			if e.Output != nil && len(e.Output.Choices) > 0 {
				m := &e.Output.Choices[0].Message
				reply, _ = inspectContent(m.Content, resolve)
				for _, tc := range m.ToolCalls {
					r.turnOf[tc.ID] = len(r.replies) + 1
				}
			}
			r.replies = append(r.replies, reply)
		case "tool":
			if e.ID == "" || answered[e.ID] {
				continue
			}
			result, _ := inspectContent(e.Result, resolve)
			answer := msg{Role: "tool", ToolCallID: e.ID, Content: result}
			if e.Error != nil {
				answer.Status = "error"
				if !strings.Contains(result, e.Error.Message) {
					answer.Content = strings.TrimSpace(result + "\n" + e.Error.Message)
				}
			}
			if held[e.ID] {
				r.lost[e.ID] = answer
				continue
			}
			turn := r.turnOf[e.ID]
			if turn == 0 {
				turn = len(r.replies) // the call names no reply: the last one made it
			}
			r.calls = append(r.calls, removedCall{turn: turn,
				call:   oaToolCall{ID: e.ID, Name: e.Function, Arguments: resolveArgs(e.Arguments, resolve)},
				answer: answer})
		}
	}
	return r
}

// after adds to calls, those of an assistant message that says text, the removed calls of
// its reply and of the replies before it that no message kept, and returns their answers:
// the tool messages to follow it.
func (r *removedCalls) after(text string, calls []oaToolCall) ([]oaToolCall, []msg) {
	if r.next == len(r.calls) {
		return calls, nil
	}
	turn := 0
	if len(calls) > 0 {
		turn = r.turnOf[calls[0].ID]
	} else {
		for t := r.turn + 1; t <= len(r.replies); t++ {
			if r.replies[t-1] == text {
				turn = t
				break
			}
		}
	}
	if turn <= r.turn {
		return calls, nil // a message no reply is known to have made: nothing to put back
	}
	r.turn = turn
	var answers []msg
	for ; r.next < len(r.calls) && r.calls[r.next].turn <= turn; r.next++ {
		calls = append(calls, r.calls[r.next].call)
		answers = append(answers, r.calls[r.next].answer)
	}
	return calls, answers
}

// rest returns the removed calls no message was found for, as an assistant message and its
// answers: put last rather than lost.
func (r *removedCalls) rest() []msg {
	if r.next == len(r.calls) {
		return nil
	}
	reply := msg{Role: "assistant"}
	var answers []msg
	for _, c := range r.calls[r.next:] {
		reply.ToolCalls = append(reply.ToolCalls, c.call)
		answers = append(answers, c.answer)
	}
	r.next = len(r.calls)
	return append([]msg{reply}, answers...)
}

// inspectContent is a message's text and its reasoning, from a string or a list of parts.
func inspectContent(c any, resolve func(string) string) (text, reasoning string) {
	switch v := c.(type) {
	case string:
		return resolve(v), ""
	case []any:
		var t, r []string
		for _, p := range v {
			part, _ := p.(map[string]any)
			switch part["type"] {
			case "text":
				s, _ := part["text"].(string)
				t = append(t, resolve(s))
			case "reasoning":
				s, _ := part["reasoning"].(string)
				r = append(r, resolve(s))
			}
		}
		return strings.Join(t, "\n"), strings.Join(r, "\n")
	}
	return "", ""
}

// resolveArgs puts back the attachments of a call's arguments (long strings of a tool
// call's arguments may be stored apart, as other long texts are).
func resolveArgs(raw json.RawMessage, resolve func(string) string) json.RawMessage {
	if !bytes.Contains(raw, []byte(`"attachment://`)) {
		return raw
	}
	var v map[string]any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	for k, x := range v {
		if s, ok := x.(string); ok {
			v[k] = resolve(s)
		}
	}
	return marshalArgs(v)
}
