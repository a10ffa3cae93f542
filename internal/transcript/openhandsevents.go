package transcript

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// OpenHands event streams: what an OpenHands conversation is made of, as OpenHands saves it.
//
//   - Evaluation output (<eval output>/output.jsonl): one line per instance, {instance_id,
//     instruction, history, metrics, ...}; history is the conversation's event list. Each
//     line is a session of its own (Agent.Session is the line's 0-based index among them).
//   - A saved trajectory: the event list alone (a JSON list).
//   - Event folders, one JSON file per event: ~/.openhands/sessions/<id>/events/<n>.json
//     (OpenHands 0.x) and ~/.openhands/conversations/<id>/events/event-*.json (1.x, the
//     agent SDK). A folder is one session (MergeEvents); one event file alone is read too.
//
// OpenHands 0.x events are actions {id, source, action, args, tool_call_metadata{
// function_name, tool_call_id, model_response}} and observations {id, source, observation,
// cause, content, extras}. An agent action that runs something (run, read, edit, think,
// finish, browse, ...: every action but message, system, recall and agent-state changes) is a
// call: tool = the function name (else the action), arguments = the tool call's arguments from
// the model response (else the action's args); its result is the observation whose cause is
// the action's id, failed when the observation is an error or its exit code is not 0. The
// action's thought is model text. A user message action is a user turn; an agent message is
// model text; the system prompt is system text.
//
// OpenHands 1.x events carry a kind: ActionEvent {thought, reasoning_content, tool_name,
// tool_call_id, tool_call{function{name, arguments}}} is a call; ObservationEvent
// {tool_call_id, observation{content, is_error, exit_code}} its result; AgentErrorEvent and
// UserRejectObservation a failed result; MessageEvent {source, llm_message} a user turn or
// model text; SystemPromptEvent system text. Other events (state updates, condensations,
// pauses) are ignored.

type ohEvent struct {
	ID          any             `json:"id"`
	Timestamp   string          `json:"timestamp"`
	Source      string          `json:"source"`
	Message     string          `json:"message"`
	Action      json.RawMessage `json:"action"` // 0.x: a name; 1.x: an object
	Observation json.RawMessage `json:"observation"`
	Cause       *json.Number    `json:"cause"`
	Content     any             `json:"content"`
	Args        json.RawMessage `json:"args"`
	ExitCode    *int            `json:"exit_code"` // a flat observation's (see addFlat)
	// a flat observation of the issue resolver's output.jsonl keeps it here (validation
	// round r102b U1: commands that exited with 1, 2 and 100 read as successes)
	Metadata *struct {
		ExitCode *int `json:"exit_code"`
	} `json:"metadata"`
	Extras *struct {
		ExitCode *int `json:"exit_code"`
		// Error is a browser observation's word that its actions failed (an element not
		// found, a timeout): the page it shows is what was there before.
		Error    any `json:"error"`
		Metadata *struct {
			ExitCode *int `json:"exit_code"`
			// What OpenHands sets around a command's output when it shows it to the model:
			// "[The command has no new output after 10 seconds. ...]" after the output of
			// one still running, "[Below is the output of the previous command.]" before a
			// later look at it.
			Prefix string `json:"prefix"`
			Suffix string `json:"suffix"`
		} `json:"metadata"`
	} `json:"extras"`
	ToolCallMetadata *struct {
		FunctionName  string      `json:"function_name"`
		ToolCallID    string      `json:"tool_call_id"`
		ModelResponse *ohResponse `json:"model_response"`
	} `json:"tool_call_metadata"`

	// 1.x
	Kind             string `json:"kind"`
	Thought          any    `json:"thought"`
	ReasoningContent string `json:"reasoning_content"`
	ToolName         string `json:"tool_name"`
	ToolCallID       string `json:"tool_call_id"`
	LLMResponseID    string `json:"llm_response_id"` // shared by the calls of one reply
	ToolCall         *struct {
		Function oaFunction `json:"function"`
		// The SDK's own MessageToolCall (2026) holds the name and the arguments the model
		// wrote at its top, without the OpenAI "function" around them.
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"tool_call"`
	LLMMessage   *msg   `json:"llm_message"`
	Error        string `json:"error"`
	RejectReason string `json:"rejection_reason"`
	SystemPrompt any    `json:"system_prompt"`
}

// isOHEvent reports the top-level keys of an OpenHands event.
func isOHEvent(keys map[string]string) bool {
	_, src := keys["source"]
	_, act := keys["action"]
	_, obs := keys["observation"]
	_, kind := keys["kind"]
	_, id := keys["id"]
	_, ts := keys["timestamp"]
	return src && id && ts && (act || obs || kind)
}

// isOHEventKind says whether an event names its kind as the agent SDK does ("ActionEvent",
// "ConversationStateUpdateEvent"), or is a 0.x action or observation. A file of many objects
// with an id, a source and a time could be any log; these kinds are OpenHands' own.
func isOHEventKind(keys map[string]string) bool {
	_, act := keys["action"]
	_, obs := keys["observation"]
	return act || obs || strings.HasSuffix(keys["kind"], "Event")
}

// isOHPairHead says whether an object opens an [action, observation] pair of OpenHands'
// releases of 2024: an action with its arguments (some wrote no timestamp or source).
func isOHPairHead(keys map[string]string) bool {
	_, act := keys["action"]
	_, args := keys["args"]
	return act && args
}

// ohActionName is a 0.x action's name ("" for a 1.x action object).
func ohName(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// ohNotCalls are the 0.x actions that run nothing.
var ohNotCalls = map[string]bool{
	"message": true, "system": true, "recall": true, "change_agent_state": true, "null": true,
	"condensation": true, "condensation_request": true, "reject": true, "": true,
}

// ohSession builds one session's events into b.
type ohSession struct {
	b        *builder
	a        *agentBuf
	byAction map[string]int // 0.x action id -> call event index
	byTool   *pendingCalls  // tool call id -> call event index
	usage    Usage
	seenResp map[string]bool
	refused  int // calls refused before they ran, numbered (see add)
	// flat histories (addFlat)
	flatUserSeen bool
	flatPending  []flatCall
}

func newOHSession(b *builder) *ohSession {
	return &ohSession{b: b, a: b.agent(MainAgent), byAction: map[string]int{}, byTool: &pendingCalls{}, seenResp: map[string]bool{}}
}

func ohText(c any) string {
	if s, ok := c.(string); ok {
		return s
	}
	return contentText(c)
}

// idKey is an event id as a map key: numbers as JSON writes integers ("3").
func idKey(id any) string {
	switch v := id.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

func jsonNum(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

func (s *ohSession) add(e *ohEvent) {
	a := s.a
	if e.Kind != "" {
		s.addV1(e)
		return
	}
	if name := ohName(e.Action); len(e.Action) > 0 {
		var args map[string]json.RawMessage
		_ = json.Unmarshal(e.Args, &args)
		str := func(k string) string {
			var v string
			_ = json.Unmarshal(args[k], &v)
			return v
		}
		switch {
		case e.Source == "user" && name == "message":
			text := str("content")
			if text == "" {
				text = e.Message
			}
			a.user(text, parseTime(e.Timestamp))
		case name == "system":
			a.text("system", str("content"), "", parseTime(e.Timestamp))
		case name == "message":
			// The event's time, as calls and user turns have theirs (validation round
			// r154c U3: the model's words were all at time 0).
			a.text("model", str("content"), "", parseTime(e.Timestamp))
		case e.Source == "agent" && (!ohNotCalls[name] || e.ToolCallMetadata != nil):
			if name == "think" && e.ToolCallMetadata == nil {
				a.text("model", str("thought"), "", parseTime(e.Timestamp))
				return
			}
			a.text("model", str("thought"), "", parseTime(e.Timestamp))
			tool, callArgs := name, []byte(nil)
			if md := e.ToolCallMetadata; md != nil {
				if md.FunctionName != "" {
					tool = md.FunctionName
				}
				if r := md.ModelResponse.message(); r != nil {
					for _, tc := range r.ToolCalls {
						if tc.ID == md.ToolCallID {
							callArgs = rawArgs(tc.Function.Arguments)
						}
					}
				}
				s.addUsage(md.ModelResponse)
			}
			if callArgs == nil {
				delete(args, "thought")
				callArgs, _ = json.Marshal(args)
			}
			idx := a.add(loopguard.Call("", tool, callArgs))
			a.events[idx].Time = parseTime(e.Timestamp)
			if md := e.ToolCallMetadata; md != nil && md.ModelResponse != nil {
				a.events[idx].Turn = md.ModelResponse.ID // shared by the calls of one reply
			}
			s.byAction[idKey(e.ID)] = idx
		}
		return
	}
	if name := ohName(e.Observation); name != "" && e.Cause != nil {
		cause, _ := e.Cause.Float64()
		if idx, ok := s.byAction[idKey(cause)]; ok {
			s.observe(idx, e)
		}
		return
	}
	if ohName(e.Observation) == "error" && e.Source == "agent" {
		// OpenHands refused a call before it ran ("Missing required parameters for function
		// 'str_replace_editor': {'security_risk'}"): no action was written, only this error,
		// with no cause. It stands for the call, failed, numbered as the completion dumps'
		// reader numbers such refusals (its arguments are not kept), so that eight refusals in
		// a row are eight failed attempts (validation round r133a U1: 41 refusals of one
		// session went unread, and the two readers of one run numbered its calls apart).
		text := ohText(e.Content)
		if text == "" {
			text = e.Message
		}
		if tool := refusedCallTool(text); tool != "" {
			s.refused++
			idx := s.a.add(loopguard.Call("", tool, refusedAttemptArgs(s.refused)).WithResult(text, true))
			s.a.events[idx].Time = parseTime(e.Timestamp)
		}
	}
}

// addPair adds one step of the history of OpenHands' releases of 2024 (OpenDevin): a pair
// [action, observation]. An observation that names no cause answers the action of its pair.
func (s *ohSession) addPair(act, obs *ohEvent) {
	before := len(s.a.events)
	s.add(act)
	if obs == nil {
		return
	}
	if obs.Cause != nil || ohName(obs.Observation) == "" {
		s.add(obs)
		return
	}
	for i := len(s.a.events) - 1; i >= before; i-- {
		if s.a.events[i].Type == loopguard.EventCall {
			s.observe(i, obs)
			return
		}
	}
}

// observe gives the call at idx the observation e as its result, unless it has one.
func (s *ohSession) observe(idx int, e *ohEvent) {
	ev := &s.a.events[idx]
	if ev.HasResult {
		return
	}
	failed := ohName(e.Observation) == "error"
	if x := e.Extras; x != nil {
		code := x.ExitCode
		if code == nil && x.Metadata != nil {
			code = x.Metadata.ExitCode
		}
		// -1: the command has not exited (a server started, output still coming), which is
		// not a failure.
		failed = failed || (code != nil && *code != 0 && *code != -1)
		// A browser's actions that failed (OpenHands' browse observation, "error": true):
		// a Gemini agent clicked and filled one chat's field 27 times, every answer the
		// same page with its error set, and the reader had dropped the flag (validation
		// round r260g).
		failed = failed || x.Error == true
	} else if code := e.ExitCode; code != nil {
		failed = failed || *code != 0 && *code != -1
	} else if e.Metadata != nil && e.Metadata.ExitCode != nil {
		code := *e.Metadata.ExitCode
		failed = failed || code != 0 && code != -1
	}
	text := ohText(e.Content)
	if x := e.Extras; x != nil && x.Metadata != nil && (x.Metadata.Prefix != "" || x.Metadata.Suffix != "") {
		// The output as the model was shown it: a command still running that printed nothing
		// new read as one that finished having printed nothing (validation round r254a).
		text = x.Metadata.Prefix + text + x.Metadata.Suffix
	}
	if kind := ohName(e.Observation); (kind == "edit" || kind == "read") && strings.HasPrefix(text, "ERROR:") {
		// OpenHands' file editor says it refused the command so, in its answer alone
		// ("ERROR:\nNo replacement was performed, old_str ... did not appear verbatim"), with
		// no error observation and no exit code (validation round r154c U2).
		failed = true
	}
	ev.Result, ev.HasResult, ev.Failed = text, true, failed
}

func (s *ohSession) addUsage(r *ohResponse) {
	if r == nil || r.Usage == nil {
		return
	}
	key := r.Model + "\x00" + jsonNum(float64(r.Usage.PromptTokens)) + "\x00" + jsonNum(float64(r.Usage.CompletionTokens))
	if s.seenResp[key] { // the actions of one response share it
		return
	}
	s.seenResp[key] = true
	s.usage.add(r.usage(0))
}

func (s *ohSession) addV1(e *ohEvent) {
	a := s.a
	switch e.Kind {
	case "ActionEvent":
		at := parseTime(e.Timestamp)
		a.text("model", e.ReasoningContent, "", at)
		a.text("model", ohText(e.Thought), "", at)
		tool, args := e.ToolName, []byte(nil)
		if tc := e.ToolCall; tc != nil {
			name, raw := tc.Function.Name, tc.Function.Arguments
			if name == "" && len(raw) == 0 {
				name, raw = tc.Name, tc.Arguments
			}
			if tool == "" {
				tool = name
			}
			args = rawArgs(raw)
		}
		if args == nil && len(e.Action) > 0 && e.Action[0] == '{' {
			args = rawArgs(e.Action)
		}
		idx := a.add(loopguard.Call("", tool, args))
		a.events[idx].Time, a.events[idx].Turn = at, e.LLMResponseID
		s.byTool.add(e.ToolCallID, idx)
	case "ObservationEvent", "AgentErrorEvent", "UserRejectObservation":
		idx := s.byTool.take(e.ToolCallID)
		if idx < 0 {
			return
		}
		text, failed := "", e.Kind != "ObservationEvent"
		switch e.Kind {
		case "ObservationEvent":
			text, failed = ohObservation(e.Observation)
		case "AgentErrorEvent":
			text = e.Error
		default:
			text = e.RejectReason
		}
		ev := &a.events[idx]
		ev.Result, ev.HasResult, ev.Failed = text, true, failed
	case "MessageEvent":
		if e.LLMMessage == nil {
			return
		}
		text, at := contentText(e.LLMMessage.Content), parseTime(e.Timestamp)
		if e.Source == "user" {
			a.user(text, at)
		} else {
			a.text("model", e.LLMMessage.ReasoningContent, "", at)
			a.text("model", text, "", at)
		}
	case "SystemPromptEvent":
		a.text("system", ohText(e.SystemPrompt), "", parseTime(e.Timestamp))
	}
}

// ohObservation reads an SDK observation's text and whether it reports a failure. The SDK
// has written them two ways: {content, is_error, exit_code}, and, per kind, the text in
// "output" (a command's, a browser's, an editor's), "message" (FinishObservation) or
// "content" (ThinkObservation), with a command's exit code in metadata.exit_code when the
// top-level one is null, and "error" true or an error's text. An exit code of -1 says the
// command has not exited (it timed out or runs on): no failure by itself.
func ohObservation(raw json.RawMessage) (text string, failed bool) {
	var o struct {
		Content  any             `json:"content"`
		Output   any             `json:"output"`
		Message  any             `json:"message"`
		IsError  bool            `json:"is_error"`
		Error    json.RawMessage `json:"error"`
		ExitCode *int            `json:"exit_code"`
		Metadata struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(raw, &o)
	for _, c := range []any{o.Content, o.Output, o.Message} {
		if text = ohText(c); text != "" {
			break
		}
	}
	code := o.ExitCode
	if code == nil {
		code = o.Metadata.ExitCode
	}
	failed = o.IsError || code != nil && *code != 0 && *code != -1
	var errText string
	switch e := strings.TrimSpace(string(o.Error)); {
	case e == "true":
		failed = true
	case json.Unmarshal(o.Error, &errText) == nil && errText != "":
		failed = true
		if text == "" {
			text = errText
		}
	}
	return text, failed
}

// ohRecord is one line of an evaluation output.jsonl.
type ohRecord struct {
	InstanceID any `json:"instance_id"`
	// History holds events, or in the releases of 2024 [action, observation] pairs.
	History []json.RawMessage `json:"history"`
	Metrics *struct {
		AccumulatedCost  float64 `json:"accumulated_cost"`
		AccumulatedUsage *struct {
			PromptTokens     int64  `json:"prompt_tokens"`
			CompletionTokens int64  `json:"completion_tokens"`
			CacheReadTokens  int64  `json:"cache_read_tokens"`
			CacheWriteTokens int64  `json:"cache_write_tokens"`
			Model            string `json:"model"`
		} `json:"accumulated_token_usage"`
	} `json:"metrics"`
}

// readOpenHandsOutput reads an evaluation output.jsonl: one session per line.
func readOpenHandsOutput(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatOpenHands)
	n := 0
	// Records one a line, as OpenHands writes them, or indented (a record saved with jq):
	// read as a stream of JSON values.
	err := eachJSONValue(name, br, func(data []byte) error {
		var r ohRecord
		if data[0] != '{' {
			return errors.New("an output record must be a JSON object")
		}
		// Values of unexpected types are read as absent, as elsewhere.
		if err := json.Unmarshal(data, &r); err != nil && !tolerable(err) {
			return errors.New("invalid JSON value: " + err.Error())
		}
		b.session = n
		n++
		s := newOHSession(b)
		s.addHistory(r.History)
		u := s.usage
		if m := r.Metrics; m != nil && m.AccumulatedUsage != nil {
			cu := m.AccumulatedUsage
			u = Usage{InputTokens: cu.PromptTokens, OutputTokens: cu.CompletionTokens,
				CacheReadTokens: cu.CacheReadTokens, CacheWriteTokens: cu.CacheWriteTokens, Model: cu.Model}
		}
		if r.Metrics != nil {
			u.CostUSD = r.Metrics.AccumulatedCost
		}
		s.a.usage = u
		return nil
	})
	if err != nil {
		return nil, err
	}
	t := b.done()
	t.Sessions = max(n, 1)
	return t, nil
}

// eachJSONValue calls fn with each JSON value of a stream of them (JSONL, or indented values
// one after the other). Errors name the line where the value starts, or where the syntax
// breaks.
func eachJSONValue(name string, br *bufio.Reader, fn func(data []byte) error) error {
	data, err := io.ReadAll(br)
	if err != nil {
		return &Error{Path: name, Err: readErr(err)}
	}
	w := &walker{data: data}
	for i := w.ws(0); i < len(data); i = w.ws(i) {
		end, err := w.skip(i)
		if err != nil {
			return w.lineError(name, err)
		}
		if err := fn(data[i:end]); err != nil {
			return &Error{Path: name, Line: lineOf(data, i), Err: err}
		}
		i = end
	}
	return nil
}

// readOpenHandsEventLines reads events one after the other, one a line as the agent SDK's
// event log keeps them (validation round r131a U3: such a file was no transcript at all), as
// one session, the same as the folder of their files.
func readOpenHandsEventLines(name string, br *bufio.Reader) (*built, error) {
	var history []json.RawMessage
	err := eachJSONValue(name, br, func(data []byte) error {
		history = append(history, data)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return buildOpenHandsEvents(history), nil
}

// buildOpenHandsEvents reads an event list (a saved trajectory) as one session.
func buildOpenHandsEvents(history []json.RawMessage) *built {
	b := newBuilder(FormatOpenHands)
	s := newOHSession(b)
	s.addHistory(history)
	s.a.usage = s.usage
	return b.done()
}

// addHistory adds a history's events, or its [action, observation] pairs (OpenHands' releases
// of 2024). An element that is neither is passed over, as values of unexpected types are.
func (s *ohSession) addHistory(history []json.RawMessage) {
	for _, raw := range history {
		if raw = bytesTrimSpace(raw); len(raw) > 0 && raw[0] == '[' {
			var pair []ohEvent
			if err := json.Unmarshal(raw, &pair); err != nil && !tolerable(err) || len(pair) == 0 {
				continue
			}
			var obs *ohEvent
			if len(pair) > 1 {
				obs = &pair[1]
			}
			s.addPair(&pair[0], obs)
			continue
		}
		var e ohEvent
		if err := json.Unmarshal(raw, &e); err != nil && !tolerable(err) {
			continue
		}
		if e.Kind == "" && e.ID == nil && len(e.Args) == 0 && e.Extras == nil && e.Cause == nil {
			s.addFlat(raw, &e)
			continue
		}
		s.add(&e)
	}
}

// flatMeta are the members of a flat action that say how it was run, not what it asked.
var flatMeta = []string{"action", "action_risk", "security_risk", "is_confirmed", "confirmation_state",
	"keep_prompt", "kernel_init_code", "wait_for_response", "images_urls", "image_urls", "blocking", "hidden",
	"timeout", "source", "message"}

// addFlat adds an event of OpenHands' releases of mid-2024 as its GitHub issue resolver saved
// them: the fields at the event's top level (no args, no extras), no id, no cause, no source.
// An action's arguments are its fields but flatMeta; the first message is the user's (the
// task), later ones the model's; an observation answers the latest call of its own kind that
// has no result yet ("run" answers "run"; an error answers the latest call).
func (s *ohSession) addFlat(raw json.RawMessage, e *ohEvent) {
	if name := ohName(e.Action); name != "" {
		var fields map[string]json.RawMessage
		if json.Unmarshal(raw, &fields) != nil {
			return
		}
		for _, k := range flatMeta {
			delete(fields, k)
		}
		e.Args, _ = json.Marshal(fields)
		e.Source = "agent"
		if name == "message" && !s.flatUserSeen {
			e.Source, s.flatUserSeen = "user", true
		} else if text, ok := e.Content.(string); name == "message" && ok && loopguard.IsKnownReprompt(text) {
			// OpenHands' own "Please continue working on the task…", which it sends in the
			// user's place: the harness, not the model (validation round r102b U2).
			e.Source = "user"
		}
		before := len(s.a.events)
		s.add(e)
		if n := len(s.a.events); n > before && s.a.events[n-1].Type == loopguard.EventCall {
			s.flatPending = append(s.flatPending, flatCall{idx: n - 1, kind: name})
		}
		return
	}
	kind := ohName(e.Observation)
	switch kind {
	case "", "null", "agent_state_changed", "recall":
		return // no call's answer
	}
	// Of its own kind first ("browse" answers a browse_interactive too), else the latest call
	// still waiting: observations follow their actions.
	at := -1
	for i := len(s.flatPending) - 1; i >= 0 && at < 0; i-- {
		if p := s.flatPending[i]; p.kind == kind || strings.HasPrefix(p.kind, kind+"_") || kind == "error" {
			at = i
		}
	}
	if at < 0 && len(s.flatPending) > 0 {
		at = len(s.flatPending) - 1
	}
	if at >= 0 {
		s.observe(s.flatPending[at].idx, e)
		s.flatPending = append(s.flatPending[:at], s.flatPending[at+1:]...)
	}
}

// flatCall is a call of a flat history still waiting for its observation.
type flatCall struct {
	idx  int
	kind string
}

// EventPart is one event file of an OpenHands event folder, for MergeEvents.
type EventPart struct {
	event ohEvent
	name  string
}

// MergeEvents joins the event files of one OpenHands conversation folder into one session,
// named name: events in the order of their ids when they are numbers (0.x), else of their
// timestamps, then of their file names.
func MergeEvents(name string, parts []*EventPart) *Transcript {
	parts = append([]*EventPart(nil), parts...)
	sort.SliceStable(parts, func(i, j int) bool {
		a, b := parts[i], parts[j]
		ai, aok := a.event.ID.(float64)
		bi, bok := b.event.ID.(float64)
		if aok && bok && ai != bi {
			return ai < bi
		}
		if a.event.Timestamp != b.event.Timestamp {
			return a.event.Timestamp < b.event.Timestamp
		}
		return a.name < b.name
	})
	b := newBuilder(FormatOpenHands)
	s := newOHSession(b)
	for _, p := range parts {
		s.add(&p.event)
	}
	s.a.usage = s.usage
	t := b.done()
	t.Path = name
	t.Sessions = 1
	for _, a := range t.Agents {
		t.Usage.add(a.Usage)
	}
	return t.Transcript
}

// buildOpenHandsEventFile reads one event file.
func buildOpenHandsEventFile(name string, data []byte) (*built, error) {
	var e ohEvent
	if err := json.Unmarshal(data, &e); err != nil && !tolerable(err) {
		return nil, err
	}
	t := buildOpenHandsEvents([]json.RawMessage{data})
	t.Event = &EventPart{event: e, name: name}
	return t, nil
}
