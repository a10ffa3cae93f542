package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// Agent Zero saves each chat as one JSON object (tmp/chats/<id>/chat.json from 0.8.1,
// usr/chats/<id>/chat.json from 0.9.8; tmp/chats/<id>.json in 0.8.0): the chat's id and name,
// its "agents" (agent 0 first, then the subordinate it delegated to, and that one's, the chain
// running when the chat was saved), and the UI's log. Each agent's "history" is a JSON
// document written into a string: its old topics merged into bulks, its topics, and the
// current topic, each a list of messages {"ai", "content"}.
//
// The model answers with a JSON object, {"thoughts": [...], "headline", "tool_name",
// "tool_args": {...}}, kept as the text it wrote (fenced or not), and the framework answers
// with objects named by what they are:
//
//   - {"tool_name", "tool_result"}: the named tool's answer to the reply before it, a call;
//   - {"user_message"} and {"user_intervention"} (typed while the agent worked): the user's
//     turn; a user message that is the framework's nudge ({"system_message": "Nudged -
//     continue"}) is the host's;
//   - {"system_warning"}: the framework's word on the reply before it, which it did not run:
//     "You have sent the same message again. You have to do something else!" (its own repeat
//     check), "You have misformatted your message. ..." (no tool request found), a tool it
//     does not know, an error the tool raised. The reply is a call that failed, refused by the
//     harness; a reply with no tool request is the call "(no action)";
//   - {"messages_summary"}: what older messages said, written over them to save room.
//
// The reply calling "response" (or "task_done") is the agent's answer, which ends its turn:
// the model's words, not a call. A subordinate is an agent of its own ("subordinate-1", ...),
// its task the superior's message; its answer comes back to the superior as
// call_subordinate's result. The UI's log, a copy of the last thousand steps, is not read.
// Written from Agent Zero's code (0.6 to 0.9.x and its current release) and the ten real chats
// found in three public repositories.

// isAgentZeroHead says whether a JSON document opens as an Agent Zero chat: its agents listed
// from number 0, as Python's json.dumps writes them.
func isAgentZeroHead(has func(string) bool, head []byte) bool {
	return has("agents") && bytes.Contains(head, []byte(`"agents": [{"number": 0, `))
}

type azChat struct {
	ID     string `json:"id"`
	Agents []struct {
		Number  int    `json:"number"`
		History string `json:"history"`
	} `json:"agents"`
}

// azNode is a bulk (records: topics and older bulks) or a topic (messages) of a history.
type azNode struct {
	Records  []azNode    `json:"records"`
	Messages []azMessage `json:"messages"`
}

type azMessage struct {
	AI      bool            `json:"ai"`
	Content json.RawMessage `json:"content"`
}

// messages appends the node's messages, in the order they were said.
func (n *azNode) messages(out []azMessage) []azMessage {
	for i := range n.Records {
		out = n.Records[i].messages(out)
	}
	return append(out, n.Messages...)
}

func readAgentZero(name string, br *bufio.Reader, hint int64) (*built, error) {
	chat, err := decodeDocument[azChat](name, br, hint, "Agent Zero chat")
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatAgentZero)
	for _, ag := range chat.Agents {
		var h struct {
			Bulks   []azNode `json:"bulks"`
			Topics  []azNode `json:"topics"`
			Current *azNode  `json:"current"`
		}
		if json.Unmarshal([]byte(ag.History), &h) != nil {
			continue // a history that is no document: nothing of this agent can be read
		}
		var list []azMessage
		for i := range h.Bulks {
			list = h.Bulks[i].messages(list)
		}
		for i := range h.Topics {
			list = h.Topics[i].messages(list)
		}
		if h.Current != nil {
			list = h.Current.messages(list)
		}
		id := MainAgent
		if ag.Number > 0 {
			id = "subordinate-" + strconv.Itoa(ag.Number)
		}
		addAgentZeroMessages(b.agent(id), list)
	}
	return b.done(), nil
}

// addAgentZeroMessages reads one agent's history.
func addAgentZeroMessages(a *agentBuf, list []azMessage) {
	pending := -1 // the reply's call, while nothing answered it
	replies := 0
	for i, m := range list {
		if m.AI {
			var text string
			if json.Unmarshal(m.Content, &text) != nil {
				continue
			}
			replies++
			turn := "reply " + strconv.Itoa(replies)
			r, ok := azReply(text)
			if !ok {
				// No tool request the framework could read: refused, if it said so next.
				a.text("model", strings.TrimSpace(text), "", 0)
				pending = -1
				if i+1 < len(list) && azKind(azFields(list[i+1].Content)) == "system_warning" {
					pending = a.add(loopguard.Event{Type: loopguard.EventCall, Tool: noActionTool, Turn: turn})
				}
				continue
			}
			azSaid(a, r.thoughts, turn)
			switch r.tool {
			case "response", "task_done":
				azSaid(a, r.answer, turn)
				pending = -1
			default:
				call := loopguard.Call("", r.tool, r.args)
				call.Turn = turn
				pending = a.add(call)
			}
			continue
		}
		fields := azFields(m.Content)
		if fields == nil {
			var text string
			if json.Unmarshal(m.Content, &text) == nil {
				a.text(loopguard.SourceHarness, text, "", 0)
			}
			continue
		}
		str := func(key string) string {
			var s string
			if json.Unmarshal(fields[key], &s) != nil {
				return strings.TrimSpace(string(fields[key]))
			}
			return s
		}
		switch azKind(fields) {
		case "tool_result":
			if pending >= 0 {
				e := &a.events[pending]
				e.Result, e.HasResult = str("tool_result"), true
				pending = -1
			} else {
				// The call was written over by a summary: its answer alone is left.
				a.text("tool", str("tool_result"), "", 0)
			}
		case "system_warning":
			if pending >= 0 {
				e := &a.events[pending]
				e.Result, e.HasResult, e.Failed, e.Source = str("system_warning"), true, true, loopguard.SourceHarness
				pending = -1
			} else {
				a.text(loopguard.SourceHarness, str("system_warning"), "", 0)
			}
		case "user_message":
			if text := str("user_message"); azNudge(text) {
				a.harnessUser(text)
			} else {
				a.user(text, 0)
			}
			pending = -1
		case "user_intervention":
			a.user(str("user_intervention"), 0)
			pending = -1
		case "messages_summary":
			a.text("summary", str("messages_summary"), "", 0)
		}
	}
}

// azSaid adds the model's words of a reply, unless blank.
func azSaid(a *agentBuf, text, turn string) {
	if !isBlank(text) {
		a.add(loopguard.Event{Type: loopguard.EventText, Source: "model", Text: text, Turn: turn})
	}
}

// azFields decodes a framework message's object; nil for any other content.
func azFields(content json.RawMessage) map[string]json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(content, &fields) != nil {
		return nil
	}
	return fields
}

// azKind names a framework message, decoded by azFields, by the key that says what it is.
func azKind(fields map[string]json.RawMessage) string {
	for _, k := range [...]string{"tool_result", "system_warning", "user_intervention", "user_message", "messages_summary"} {
		if _, ok := fields[k]; ok {
			return k
		}
	}
	return ""
}

// azNudge says whether a user message is the framework's nudge of a stalled agent, written as
// a JSON object with a "system_message".
func azNudge(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "{") && strings.Contains(t, `"system_message"`)
}

// azParsedReply is what a reply asks for.
type azParsedReply struct {
	thoughts, tool, answer string
	args                   []byte
}

// azReply reads a reply's JSON object, as the framework finds it in the text (after a fence's
// opening, past words before it): its thoughts and headline, the tool and its arguments, and
// for the answer ("response"), its text. ok is false when the text holds no object naming a
// tool.
func azReply(text string) (r azParsedReply, ok bool) {
	start := strings.IndexByte(text, '{')
	if start < 0 {
		return r, false
	}
	var v struct {
		Thoughts any             `json:"thoughts"`
		Headline string          `json:"headline"`
		ToolName string          `json:"tool_name"`
		ToolArgs json.RawMessage `json:"tool_args"`
	}
	dec := json.NewDecoder(strings.NewReader(text[start:]))
	if err := dec.Decode(&v); err != nil {
		return azLenientReply(text)
	}
	if v.ToolName == "" {
		return r, false
	}
	var said []string
	switch t := v.Thoughts.(type) {
	case string:
		said = append(said, t)
	case []any:
		for _, x := range t {
			if s, isStr := x.(string); isStr {
				said = append(said, s)
			}
		}
	}
	if v.Headline != "" {
		said = append(said, v.Headline)
	}
	r.thoughts, r.tool = strings.Join(said, "\n"), v.ToolName
	r.args = bytes.TrimSpace(v.ToolArgs)
	if len(r.args) == 0 || string(r.args) == "null" {
		r.args = []byte("{}")
	}
	if r.tool == "response" || r.tool == "task_done" {
		var a struct {
			Text string `json:"text"`
		}
		if json.Unmarshal(r.args, &a) == nil {
			r.answer = a.Text
		}
	}
	return r, true
}

// azLenientReply reads a reply that is no valid JSON (a quote left unescaped, a line break in
// a string), as Agent Zero's forgiving parser still does: the tool named after "tool_name",
// its arguments the object after "tool_args" (braces counted outside strings), the text
// before the tool's name the model's words.
func azLenientReply(text string) (r azParsedReply, ok bool) {
	at := strings.Index(text, `"tool_name"`)
	if at < 0 {
		return r, false
	}
	rest := strings.TrimLeft(text[at+len(`"tool_name"`):], " \t\r\n")
	rest, ok = strings.CutPrefix(rest, ":")
	if !ok {
		return r, false
	}
	rest = strings.TrimLeft(rest, " \t\r\n")
	if !strings.HasPrefix(rest, `"`) {
		return r, false
	}
	end := strings.IndexByte(rest[1:], '"')
	if end <= 0 {
		return r, false
	}
	r.tool = rest[1 : 1+end]
	r.thoughts = strings.TrimSpace(text[:at])
	r.args = []byte("{}")
	if k := strings.Index(text, `"tool_args"`); k >= 0 {
		if open := strings.IndexByte(text[k:], '{'); open >= 0 {
			r.args = []byte(balancedObject(text[k+open:]))
		}
	}
	return r, true
}

// balancedObject returns the object s opens with, up to the brace that closes it (braces in
// strings not counted), or all of s when it is never closed.
func balancedObject(s string) string {
	depth, inString := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{':
			depth++
		case c == '}':
			if depth--; depth == 0 {
				return s[:i+1]
			}
		}
	}
	return s
}
