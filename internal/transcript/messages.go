package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// Message lists: OpenAI chat messages ({role, content, tool_calls[{id, function{name,
// arguments}}]}, tool results as {role: "tool", tool_call_id}), the legacy function_call /
// role "function" pair, Anthropic-style content blocks (tool_use / tool_result) and Goose's
// (toolRequest / toolResponse, goose.go). One call
// per tool call, in order; a result is matched to its call by id, else to the oldest call
// still waiting for one.

func buildMessages(format string, msgs []msg) *built {
	b := newBuilder(format)
	addChat(b, msgs, true)
	return b.done()
}

// addChat reads one chat of agent main. A chat without calls as data may write them in its
// text: results answering calls by name (AutoCodeRover), or calls written by the model
// (addWrittenCalls; with explicitOnly, only in a tool-call syntax, as a harness's request log
// of a Terminus run keeps them, since a chat list of its own may just show code).
func addChat(b *builder, list []msg, explicitOnly bool) {
	list = openInterpreterMessages(autogenMessages(list))
	valueParts(list)
	if hasStructuredCalls(list) || !(addResultOfCalls(b, list) || addWrittenCalls(b, list, explicitOnly)) {
		addMessages(b, list, func(*msg) string { return MainAgent }, false)
	}
}

// readMessagesJSONL reads a chat logged one message a line, as many harnesses and gateways
// log it: OpenAI style (role, content, tool_calls; tool messages by tool_call_id) or
// Anthropic style (content blocks, tool_use and tool_result). It is the messages format, one
// line a message instead of one list.
func readMessagesJSONL(name string, br *bufio.Reader) (*built, error) {
	var list []msg
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		if inner := wrappedMessage(line); inner != nil {
			line = inner
		}
		list = append(list, msg{})
		m := &list[len(list)-1]
		if err := walkLine(line, m.member); err != nil {
			list = list[:len(list)-1] // a damaged line is no message
			return err
		}
		if m.Role == "" {
			m.Role = typedRoles[m.Type]
		}
		if _, agentChat := autogenTypes[m.Type]; m.Role == "" && !(agentChat && m.Source != "") {
			list = list[:len(list)-1] // a record that is no message: a session's header
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return withDamaged(buildMessages(FormatMessages, autogenMessages(list)), damaged), nil
}

// encodedContentText returns the text of a tool's answer that a harness kept as the JSON of
// its content items, as a string ("{\"type\":\"text\",\"text\":\"Query executed
// successfully.\\n...\"}": Toolathlon's MCP tools), or text as it is. Left encoded, its line
// breaks are the two characters \n, and a duration in it ("Execution time: 593ms\n...") is
// glued to the next word, so the same answer read as a new one each time.
func encodedContentText(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, `{"type":`) && !strings.HasPrefix(t, `[{"type":`) {
		return text
	}
	var v any
	if json.Unmarshal([]byte(t), &v) != nil {
		return text
	}
	if decoded := contentText(v); decoded != "" {
		return decoded
	}
	return text
}

// typedRoles are the roles of logs that name a message's role by its "type" (Grok CLI's
// chat_history.jsonl: "user", "assistant", "tool_result" answering by tool_call_id).
var typedRoles = map[string]string{"system": "system", "user": "user", "assistant": "assistant", "tool_result": "tool"}

// wrappedMessage returns the message a log line wraps as {"type": "message", "message":
// {"role", "content"}, ...} (Factory's Droid session store), or as {"role", "message":
// {"content"}} (Cursor's agent transcripts, the role outside), or nil.
func wrappedMessage(line []byte) []byte {
	if !bytes.Contains(line, []byte(`"message":{`)) && !bytes.Contains(line, []byte(`"message": {`)) {
		return nil
	}
	var w struct {
		Role    string          `json:"role"`
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(line, &w) != nil || len(w.Message) == 0 || w.Message[0] != '{' {
		return nil
	}
	if w.Role != "" && !bytes.Contains(w.Message, []byte(`"role"`)) {
		role, _ := json.Marshal(w.Role)
		inner := bytes.TrimSpace(w.Message[1:])
		sep := ","
		if len(inner) > 0 && inner[0] == '}' {
			sep = ""
		}
		return append(append(append([]byte(`{"role":`), role...), sep...), inner...)
	}
	return w.Message
}

// pendingCalls tracks the calls of one agent that wait for a result.
type pendingCalls struct {
	byID    map[string]int
	queue   []int // indices in the agent's events, oldest first
	matched int   // results paired with their call by id
	// early holds results that came before their call, in order: a list sorted by time
	// where a result's stamp is earlier than its call's (a Claude Code session converted to
	// chat messages put 26 of 228 results before their calls, and each took the result of
	// the oldest call waiting: validation round r253b).
	early []earlyResult
}

// earlyResult is a result that came before its call.
type earlyResult struct {
	id, text string
	failed   bool
}

func (p *pendingCalls) add(id string, idx int) {
	if id != "" {
		if p.byID == nil {
			p.byID = map[string]int{}
		}
		p.byID[id] = idx
	}
	p.queue = append(p.queue, idx)
}

// hold keeps a result whose call has not come yet, and says whether it did: a result with an
// id that no call waiting has, from a host that pairs results by id (one has been paired so,
// and every call waiting has an id). Where calls wait without ids, or the ids of calls and
// results are of different kinds, results are paired in order.
func (p *pendingCalls) hold(id, text string, failed bool) bool {
	if id == "" || p.matched == 0 || len(p.byID) != len(p.queue) {
		return false
	}
	if _, ok := p.byID[id]; ok {
		return false
	}
	p.early = append(p.early, earlyResult{id, text, failed})
	return true
}

// heldFor takes the result held for the call with id, if one came before it.
func (p *pendingCalls) heldFor(id string) (earlyResult, bool) {
	if id == "" {
		return earlyResult{}, false
	}
	for i, r := range p.early {
		if r.id == id {
			p.early = append(p.early[:i], p.early[i+1:]...)
			return r, true
		}
	}
	return earlyResult{}, false
}

// take returns the index of the call a result belongs to, or -1.
func (p *pendingCalls) take(id string) int {
	idx := -1
	if id != "" {
		if i, ok := p.byID[id]; ok {
			idx = i
			delete(p.byID, id)
			p.matched++
		}
	}
	if idx < 0 {
		if len(p.queue) == 0 {
			return -1
		}
		idx = p.queue[0]
	}
	for i, q := range p.queue {
		if q == idx {
			p.queue = append(p.queue[:i], p.queue[i+1:]...)
			break
		}
	}
	return idx
}

// addMessages reads a message list into b. agentOf names each message's agent. With
// laterUsersAreHarness, only an agent's first user message is a user turn, the later ones
// being harness text (as in SWE-agent histories); otherwise every user message is a turn.
func addMessages(b *builder, msgs []msg, agentOf func(*msg) string, laterUsersAreHarness bool) {
	pending := map[*agentBuf]*pendingCalls{}
	var waiting []*agentBuf // the agents of pending, in the order they first waited
	pend := func(a *agentBuf) *pendingCalls {
		p := pending[a]
		if p == nil {
			p = &pendingCalls{}
			pending[a] = p
			waiting = append(waiting, a)
		}
		return p
	}
	setResult := func(a *agentBuf, id, text string, failed bool) bool {
		p := pend(a)
		if p.hold(id, text, failed) {
			return true // its call comes later (addPending)
		}
		idx := p.take(id)
		if idx < 0 {
			return false
		}
		e := &a.events[idx]
		e.Result, e.HasResult, e.Failed = text, true, failed
		return true
	}
	// addPending notes that the call at idx waits for its result, or gives it the result that
	// came before it.
	addPending := func(a *agentBuf, id string, idx int) {
		p := pend(a)
		if r, ok := p.heldFor(id); ok {
			e := &a.events[idx]
			e.Result, e.HasResult, e.Failed = r.text, true, r.failed
			return
		}
		p.add(id, idx)
	}
	// Results held for calls that never came are the tool's words, in the order they came.
	defer func() {
		for _, a := range waiting {
			for _, r := range pending[a].early {
				a.text("tool", r.text, "", 0)
			}
		}
	}()

	copies := subagentCopies(msgs)
	// Each message's time, when it has one, is that of the events read from it: a prompt that
	// comes long after the agent's last step is a new turn, not a harness's reprompt (see
	// loopguard's progress detector; validation round r81b U2: an assistant's heartbeat
	// prompts, half an hour apart, were read as one turn reprompted, its "HEARTBEAT_OK" answers
	// a thought said 83 times). stamp dates the events the message before added.
	var stampAgent *agentBuf
	stampFrom, stampMs := 0, int64(0)
	stamp := func() {
		if stampAgent == nil || stampMs == 0 {
			return
		}
		for k := stampFrom; k < len(stampAgent.events); k++ {
			if stampAgent.events[k].Time == 0 {
				stampAgent.events[k].Time = stampMs
			}
		}
	}
	defer stamp()
	for i := range msgs {
		stamp()
		stampAgent = nil
		m := &msgs[i]
		agent := agentOf(m)
		if role, id, ok := strings.Cut(m.Role, "-subagent-"); ok && id != "" {
			if copies[m.Role] {
				continue
			}
			// A subagent's messages kept in the same list ("assistant-subagent-<id>", exports of
			// Claude Code sessions): the subagent is an agent of its own, and its message's
			// role is the one it had (_metadata.original_role), else a result's "tool".
			c := *m
			switch {
			case m.Metadata != nil && m.Metadata.OriginalRole != "":
				c.Role = m.Metadata.OriginalRole
			case m.ToolCallID != "":
				c.Role = "tool"
			default:
				c.Role = role
			}
			m, agent = &c, "agent-"+id
		}
		a := b.agent(agent)
		stamp := m.Timestamp
		if ts, ok := metadataTime(m); ok && stamp == "" {
			// An export of Claude Code sessions keeps each message's time under _metadata
			// (validation round r129a U4: every event of such a file was at time 0).
			stamp = ts
		}
		stampAgent, stampFrom, stampMs = a, len(a.events), parseTime(stamp)
		if m.Data != nil && m.Role == "" {
			// LangChain's messages_to_dict: the message is the data, its kind the type.
			d := *m.Data
			if d.Type == "" {
				d.Type = m.Type
			}
			m = &d
		}
		if isAISDKMessage(m) {
			addAISDKMessage(a, m, i) // a Vercel AI SDK UI message (aisdk.go)
			continue
		}
		switch m.Type {
		case "reasoning":
			// A Responses API reasoning item: its summary is the model's words between its
			// calls (validation round r150b U2: 33 of one file's reasoning items unread).
			if m.Role == "" {
				a.text("model", contentText(m.Summary), "", 0)
				continue
			}
		case "function_call", "custom_tool_call":
			// A Responses API item: the call, with its result in a later function_call_output.
			// The calls between two other items are one reply.
			args := rawArgs(m.Arguments)
			if args == nil && m.Type == "custom_tool_call" {
				args = []byte(contentText(m.Input))
			}
			call := loopguard.Call("", m.Name, args)
			if i > 0 && (msgs[i-1].Type == "function_call" || msgs[i-1].Type == "custom_tool_call") {
				call.Turn = a.lastTurn()
			} else {
				call.Turn = "f" + strconv.Itoa(i)
			}
			addPending(a, m.CallID, a.add(call))
			continue
		case "function_call_output", "custom_tool_call_output":
			text := contentText(m.Output)
			result, failed, _ := mcpResult(text)
			if !setResult(a, m.CallID, result, failed) {
				a.text("tool", text, "", 0)
			}
			continue
		}
		if one, ok := m.Content.(map[string]any); ok && one["type"] != nil {
			// A message flattened to one content block (exports that write a line per block).
			c := *m
			c.Content = []any{one}
			m = &c
		}
		role := m.chatRole()
		if blocks, ok := m.Content.([]any); ok && (role == "tool" || role == "function") && hasBlock(blocks, "tool_result") {
			role = "user" // tool results as Anthropic's user messages carry them
		}
		switch role {
		case "system", "developer", "_system_prompt":
			a.text("system", contentText(m.Content), "", 0)

		case "_checkpoint", "_usage", "meta":
			// Kimi CLI's markers between messages, and the version its print mode's JSON
			// output opens with ({"role": "meta", "type": "system.version"})

		case "user", "human":
			text := contentText(m.Content)
			if blocks, ok := m.Content.([]any); ok && (hasBlock(blocks, "tool_result") || hasBlock(blocks, "toolResponse")) {
				text = ""
				for _, bl := range blocks {
					mb, _ := bl.(map[string]any)
					switch mb["type"] {
					case "tool_result":
						id := stringField(mb, "tool_use_id", "tool_id", "id")
						isErr, _ := mb["is_error"].(bool)
						content := mb["content"]
						if content == nil {
							content = mb["output"]
						}
						setResult(a, id, contentText(content), isErr || anyUnsuccessful(content))
						continue
					case "toolResponse": // Goose (goose.go)
						id, result, failed := gooseResult(mb)
						setResult(a, id, result, failed)
						continue
					}
					if t := partText(bl); t != "" {
						if text != "" {
							text += "\n"
						}
						text += t
					}
				}
				a.text("harness", text, "", 0)
				continue
			}
			switch {
			case m.FromHarness || lettaSystemMessage(text):
				a.harnessUser(text)
			case laterUsersAreHarness:
				a.taskOrHarness(text)
			default:
				ccUserText(a, text, "", 0) // a Claude Code export keeps its injected texts in user messages
			}

		case "assistant", "model", "ai":
			// The calls of one message are one reply; so are the calls of messages that follow
			// one another with no answer between (an export writing each of a reply's parallel
			// calls as a message of its own): the model made them before it saw any result.
			if i == 0 || !makesCalls(&msgs[i-1]) || a.lastTurn() == "" {
				a.turn = "m" + strconv.Itoa(i)
			} else {
				a.turn = a.lastTurn()
			}
			var blockCalls map[string]bool // ids of the calls read from content blocks
			a.text("model", m.ReasoningContent, "", 0)
			if blocks, ok := m.Content.([]any); ok {
				for _, bl := range blocks {
					mb, _ := bl.(map[string]any)
					switch mb["type"] {
					case "tool_use", "server_tool_use":
						name := stringField(mb, "name", "tool_name")
						id := stringField(mb, "id", "tool_id", "tool_use_id", "tool_call_id")
						if id != "" {
							if blockCalls == nil {
								blockCalls = map[string]bool{}
							}
							blockCalls[id] = true
						}
						var args []byte
						if in, ok := mb["input"]; ok && in != nil {
							args = marshalArgs(in)
						} else if s, ok := mb["arguments"].(string); ok {
							args = []byte(s) // arguments as JSON text, as OpenAI writes them
						} else if in, ok := mb["arguments"]; ok && in != nil {
							args = marshalArgs(in)
						}
						idx := a.add(loopguard.Call("", name, args))
						if output, failed, ok := inlineResult(mb); ok {
							e := &a.events[idx]
							e.Result, e.HasResult, e.Failed = output, true, failed
							continue
						}
						addPending(a, id, idx)
					case "tool-call": // the Vercel AI SDK's model messages (aisdk.go)
						var args []byte
						if in, ok := mb["input"]; ok && in != nil {
							args = marshalArgs(in)
						} else if in, ok := mb["args"]; ok && in != nil {
							args = marshalArgs(in)
						}
						id := stringField(mb, "toolCallId")
						addPending(a, id, a.add(loopguard.Call("", stringField(mb, "toolName"), args)))
					case "toolRequest", "frontendToolRequest": // Goose (goose.go)
						addGooseCall(a, pend(a), mb)
					case "toolCall": // pi (pi.go)
						id, name, args := piCall(mb)
						addPending(a, id, a.add(loopguard.Call("", name, args)))
					case "thinking":
						a.text("model", stringField(mb, "thinking", "text"), "", 0)
					case "think": // Kimi CLI
						t, _ := mb["think"].(string)
						a.said(t)
					default:
						a.said(partText(bl))
					}
				}
			} else {
				a.said(contentText(m.Content))
			}
			for _, tc := range m.ToolCalls {
				if tc.ID != "" && blockCalls[tc.ID] {
					continue // the same call, listed as a content block too (opencode's exports)
				}
				name, args := tc.Function.Name, tc.Function.Arguments
				if name == "" {
					name, args = tc.Name, tc.Arguments
				}
				if len(args) == 0 {
					args = tc.Args // LangChain
				}
				idx := a.add(loopguard.Call("", name, rawArgs(args)))
				addPending(a, tc.ID, idx)
			}
			if fc := m.FunctionCall; fc != nil && fc.Name != "" {
				idx := a.add(loopguard.Call("", fc.Name, rawArgs(fc.Arguments)))
				addPending(a, "", idx)
			}
			a.turn = ""

		case "tool-call": // smolagents' memory as messages (smolagentsCalls)
			calls, ok := smolagentsCalls(contentText(m.Content))
			if !ok {
				a.text(m.Role, contentText(m.Content), "", 0)
				continue
			}
			for _, c := range calls {
				addPending(a, c.id, a.add(loopguard.Call("", c.name, c.args)))
			}

		case "tool-response": // smolagents (smolagentsResult)
			id, text, failed := smolagentsResult(contentText(m.Content))
			if !setResult(a, id, text, failed) {
				a.text(m.Role, text, "", 0)
			}

		case "tool", "function", "ipython":
			if blocks, ok := m.Content.([]any); ok && hasBlock(blocks, "tool-result") {
				// The Vercel AI SDK's tool message: a result part for each call (aisdk.go).
				for _, bl := range blocks {
					if mb, _ := bl.(map[string]any); mb["type"] == "tool-result" {
						text, failed := aiSDKResult(mb)
						setResult(a, stringField(mb, "toolCallId"), text, failed)
					}
				}
				continue
			}
			text := encodedContentText(contentText(m.Content))
			raised := m.Role == "tool" && strings.TrimSpace(m.ErrText) != ""
			if raised && strings.TrimSpace(text) == "" {
				text = m.ErrText // the exception is all the model was shown
			}
			if !setResult(a, m.ToolCallID, text, m.Status == "error" || m.Failed || raised || answerObjectFailed(text)) {
				a.text(m.Role, text, "", 0)
			}

		default:
			a.text(m.Role, contentText(m.Content), "", 0)
		}
	}
}

// smolagentsCall is one call of a smolagents "tool-call" message.
type smolagentsCall struct {
	id, name string
	args     []byte
}

// smolagentsCalls reads the calls of a "tool-call" message, as smolagents writes its memory
// as messages (ActionStep.to_messages): "Calling tools:\n" and the Python repr of a list of
// {'id', 'type': 'function', 'function': {'name', 'arguments'}}. A CodeAgent's code is the
// arguments of its python_interpreter call, a string; a tool-calling agent's are a dict.
func smolagentsCalls(text string) ([]smolagentsCall, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), "Calling tools:")
	if !ok {
		return nil, false
	}
	v, _, ok := pyLiteral(rest)
	list, isList := v.([]any)
	if !ok || !isList {
		return nil, false
	}
	var calls []smolagentsCall
	for _, item := range list {
		tc, _ := item.(map[string]any)
		fn, _ := tc["function"].(map[string]any)
		name, _ := fn["name"].(string)
		if name == "" {
			continue
		}
		id, _ := tc["id"].(string)
		var args []byte
		switch a := fn["arguments"].(type) {
		case string:
			args = []byte(a)
		case nil:
		default:
			args = marshalArgs(a)
		}
		calls = append(calls, smolagentsCall{id, name, args})
	}
	return calls, len(calls) > 0
}

// smolagentsResult reads a "tool-response" message: "Observation:\n" and what the call gave
// back, or, for a step that raised, "Call id: <id>\n" then "Error:\n" and the error with
// smolagents' advice to retry. It returns the call's id when the message names one.
func smolagentsResult(text string) (id, result string, failed bool) {
	t := strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(t, "Call id: "); ok {
		id, t, _ = strings.Cut(rest, "\n")
		id = strings.TrimSpace(id)
	}
	if rest, ok := strings.CutPrefix(t, "Observation:"); ok {
		return id, strings.TrimPrefix(rest, "\n"), false
	}
	if rest, ok := strings.CutPrefix(t, "Error:"); ok {
		return id, "Error:" + rest, true
	}
	return id, t, false
}

// lettaSystemMessage says whether a user message is one that Letta (MemGPT) writes itself in
// the user's role, a JSON object whose type is "heartbeat" (a call asked for control back),
// "system_alert" or "login": the harness speaking, not a person's turn. Read as a user's turn,
// each heartbeat between two runs of one call started its count afresh (validation round r93c
// U7: five identical calls were told a call late).
func lettaSystemMessage(text string) bool {
	t := strings.TrimSpace(text)
	if len(t) < 2 || t[0] != '{' || !strings.Contains(t[:min(len(t), 64)], `"type"`) {
		return false
	}
	var packed struct {
		Type string `json:"type"`
	}
	if json.Unmarshal([]byte(t), &packed) != nil {
		return false
	}
	switch packed.Type {
	case "heartbeat", "system_alert", "login":
		return true
	}
	return false
}

// chatRole is the message's role: its role field, or for LangChain's message dicts the role
// its type names.
func (m *msg) chatRole() string {
	if m.Role != "" {
		return m.Role
	}
	switch m.Type {
	case "human", "ai", "tool", "system":
		return m.Type // addMessages takes human and ai as user and assistant
	case "function_call", "custom_tool_call", "function_call_output", "custom_tool_call_output":
		return "tool" // a Responses API item: counts as a message of the list
	}
	if m.Data != nil {
		return m.Data.chatRole()
	}
	return ""
}

func hasBlock(blocks []any, typ string) bool {
	for _, bl := range blocks {
		if mb, ok := bl.(map[string]any); ok && mb["type"] == typ {
			return true
		}
	}
	return false
}

// stringField is the first of keys that m holds as a string, or "": exports spell the same
// field differently ("name" or "tool_name").
func stringField(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if v, ok := m[k].(string); ok {
			return v
		}
	}
	return ""
}

// subagentCopies names the subagent roles ("assistant-subagent-<id>", see addMessages) that
// copy another agent's history rather than do work of their own: most of their calls' ids are
// another role's (Claude Code's compaction agent replays the session it summarises). A call
// id is given once; read twice, the session's calls would count twice.
func subagentCopies(msgs []msg) map[string]bool {
	owner := map[string]string{} // call id -> the first role that made it
	total, shared := map[string]int{}, map[string]int{}
	for i := range msgs {
		m := &msgs[i]
		for _, tc := range m.ToolCalls {
			if tc.ID == "" {
				continue
			}
			if first, ok := owner[tc.ID]; !ok {
				owner[tc.ID] = m.Role
			} else if first != m.Role {
				shared[m.Role]++
			}
			total[m.Role]++
		}
	}
	var copies map[string]bool
	for role, n := range shared {
		if strings.Contains(role, "-subagent-") && 2*n >= total[role] {
			if copies == nil {
				copies = map[string]bool{}
			}
			copies[role] = true
		}
	}
	return copies
}

// makesCalls says whether m is a model's message that makes tool calls.
func makesCalls(m *msg) bool {
	switch m.chatRole() {
	case "assistant", "model", "ai":
	default:
		return false
	}
	if len(m.ToolCalls) > 0 || m.FunctionCall != nil {
		return true
	}
	blocks, _ := m.Content.([]any)
	for _, typ := range [...]string{"tool_use", "tool_call", "toolRequest", "toolCall"} { // a server tool is answered within its own message
		if hasBlock(blocks, typ) {
			return true
		}
	}
	return false
}

// inlineResult reads a call's result kept in the call's own block, as Entire's compact
// transcripts keep it (`{"type": "tool_use", "name": "Bash", "input": {...}, "result":
// {"output": "...", "status": "success" | "error"}}`: no tool_result follows; validation round
// r96b U2, where every result of such files went unread and six identical failing calls were
// six calls of unknown outcome). The call failed when its status says "error".
func inlineResult(block map[string]any) (output string, failed, ok bool) {
	res, _ := block["result"].(map[string]any)
	if res == nil {
		return "", false, false
	}
	output, ok = res["output"].(string)
	status, _ := res["status"].(string)
	return output, ok && strings.EqualFold(status, "error"), ok
}

// metadataTime is a message's time kept under "_metadata", when it is a string.
func metadataTime(m *msg) (string, bool) {
	if m.Metadata == nil {
		return "", false
	}
	ts, ok := m.Metadata.Timestamp.(string)
	return ts, ok
}
