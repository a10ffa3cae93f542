package proxy

import (
	"errors"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/codexcell"
)

// API names a model API the proxy understands.
type API string

// The APIs, as they appear in metrics and logs.
const (
	Anthropic API = "anthropic" // POST /v1/messages
	Chat      API = "chat"      // POST /v1/chat/completions
	Responses API = "responses" // POST /v1/responses
	Gemini    API = "gemini"    // POST /v1beta/models/M:generateContent, :streamGenerateContent
	Other     API = "other"     // anything else: passed through untouched
)

// APIs lists the APIs the proxy rebuilds conversations for.
func APIs() []API { return []API{Anthropic, Chat, Responses, Gemini} }

// Detect says which API a request speaks, from its method and path alone.
func Detect(method, path string) API {
	if method != "POST" {
		return Other
	}
	switch {
	case strings.HasSuffix(path, "/v1/messages"):
		return Anthropic
	case strings.HasSuffix(path, "/chat/completions"):
		return Chat
	case strings.HasSuffix(path, "/responses"):
		return Responses
	case strings.HasSuffix(path, ":generateContent"), strings.HasSuffix(path, ":streamGenerateContent"):
		return Gemini
	}
	return Other
}

// conversation is what a request parser rebuilds from one body.
type conversation struct {
	steps []step
	// Responses only: the response whose server-side history this request continues, whether
	// the provider keeps this response (store, default true), and the calls of the request that
	// were not answered in it (their results come in a later request).
	previousID string
	store      bool
	open       map[string]call

	arena *nodeArena // the tree's nodes, recycled by release
}

// release drops the steps (they point into the parsed tree) and recycles the tree's nodes: what
// is left (the Responses fields) points only into the body.
func (c *conversation) release() {
	c.steps = nil
	if c.arena != nil {
		c.arena.release()
		c.arena = nil
	}
}

var errNotObject = errors.New("the body is not a JSON object")

// requestKeys are the top-level members a parser reads; the others (tools, system prompts,
// generation settings) are skipped over.
func requestKeys(key string) bool {
	switch key {
	case "messages", "input", "contents", "previous_response_id", "store":
		return true
	}
	return false
}

// parse rebuilds the conversation of a body for api. known holds calls made before this body
// (Responses with previous_response_id: the calls of the previous response); it may be nil.
// The caller may call release on the result once it is done with its steps.
func parse(api API, data []byte, known map[string]call) (*conversation, error) {
	// A pooled arena may keep the body it last parsed from being collected until it is
	// reused: only bodies of a size the body pool keeps go into one.
	pooled := len(data) <= maxPooledBody
	arena := &nodeArena{}
	if pooled {
		arena = arenas.Get().(*nodeArena)
	}
	root, err := parseInto(data, requestKeys, arena)
	if err == nil && !root.isObject() {
		err = errNotObject
	}
	if err != nil {
		if pooled {
			arena.release()
		}
		return nil, err
	}
	var c *conversation
	switch api {
	case Anthropic:
		c = parseAnthropic(data, root)
	case Chat:
		c = parseChat(data, root)
	case Responses:
		c = parseResponses(data, root, known)
	case Gemini:
		c = parseGemini(data, root)
	default:
		c = &conversation{}
	}
	if pooled {
		c.arena = arena
	}
	return c, nil
}

// textBlock is a notice as a content element, {"type":"text","text":...}: the shape of an
// Anthropic text block and of a Chat Completions text part alike.
func textBlock(text string) []byte {
	return append(append([]byte(`{"type":"text","text":`), jsonString(text)...), '}')
}

// Anthropic Messages: the notice is a text block after the tool_result blocks of the user
// message that carries the result (the API wants tool_result blocks first in that message).

func parseAnthropic(data []byte, root *node) *conversation {
	c := &conversation{}
	msgs := root.get("messages")
	if !msgs.isArray() {
		return c
	}
	// About one step per message, and a call every other message: sized once, not grown.
	c.steps = make([]step, 0, len(msgs.elems)+8)
	calls := make(map[string]call, len(msgs.elems)/2)
	for _, m := range msgs.elems {
		content := m.get("content")
		switch m.str(data, "role") {
		case "assistant":
			if content.isString() {
				c.steps = append(c.steps, step{ev: modelText(stringValue(data, content))})
				continue
			}
			if !content.isArray() {
				continue
			}
			turn := "" // the message's first call id names its reply
			for _, b := range content.elems {
				switch b.str(data, "type") {
				case "text":
					c.steps = append(c.steps, step{ev: modelText(b.str(data, "text"))})
				case "thinking":
					// The thinking text may be fed; its signature never is, and the block is
					// never touched.
					c.steps = append(c.steps, step{ev: modelText(b.str(data, "thinking"))})
				case "tool_use", "server_tool_use":
					id := b.str(data, "id")
					if turn == "" {
						turn = id
					}
					calls[id] = call{Name: b.str(data, "name"), Args: b.get("input").raw(data), Turn: turn}
				}
			}
		case "user":
			if content.isString() {
				c.steps = append(c.steps, step{ev: userTurn(stringValue(data, content))})
				continue
			}
			if !content.isArray() {
				continue
			}
			last := -1
			for i, b := range content.elems {
				if b.str(data, "type") == "tool_result" {
					last = i
				}
			}
			if last < 0 {
				c.steps = append(c.steps, step{ev: userTurn(textOf(data, content, isType(data, "text")))})
				continue
			}
			s := &site{offset: content.elems[last].end, mode: addElement, elem: textBlock}
			for _, b := range content.elems {
				switch b.str(data, "type") {
				case "tool_result":
					cl, ok := calls[b.str(data, "tool_use_id")]
					if !ok {
						continue // a result for a call this history does not show: nothing to count
					}
					failed := b.get("is_error") != nil && string(b.get("is_error").raw(data)) == "true"
					c.steps = append(c.steps, callStep(cl, b.get("content"), isType(data, "text"), failed, s))
				case "text":
					// Context the client put next to the results (reminders, hook output):
					// dsh-brake counts text that keeps arriving.
					c.steps = append(c.steps, step{ev: loopguard.Event{Type: loopguard.EventText, Source: "context", Text: b.str(data, "text")}, site: s})
				}
			}
		}
	}
	return c
}

func isType(data []byte, t string) func(*node) bool {
	return func(n *node) bool { return n.str(data, "type") == t }
}

// OpenAI Chat Completions: the notice is appended to the tool message's content (as a text
// part when the content is a list), so that no message is added between an assistant's
// tool_calls and their tool messages.

func parseChat(data []byte, root *node) *conversation {
	c := &conversation{}
	msgs := root.get("messages")
	if !msgs.isArray() {
		return c
	}
	// About one step per message, and a call every other message: sized once, not grown.
	c.steps = make([]step, 0, len(msgs.elems)+8)
	calls := make(map[string]call, len(msgs.elems)/2)
	for _, m := range msgs.elems {
		content := m.get("content")
		switch m.str(data, "role") {
		case "user":
			c.steps = append(c.steps, step{ev: userTurn(textOf(data, content, nil))})
		case "assistant":
			if t := textOf(data, content, nil); t != "" {
				c.steps = append(c.steps, step{ev: modelText(t)})
			}
			if tcs := m.get("tool_calls"); tcs.isArray() {
				turn := "" // the message's first call id names its reply
				for _, tc := range tcs.elems {
					fn := tc.get("function")
					id := tc.str(data, "id")
					if turn == "" {
						turn = id
					}
					calls[id] = call{Name: fn.str(data, "name"), Args: []byte(fn.str(data, "arguments")), Turn: turn}
				}
			}
		case "tool":
			cl, ok := calls[m.str(data, "tool_call_id")]
			if !ok {
				continue
			}
			c.steps = append(c.steps, callStep(cl, content, nil, false, contentEnd(content, textBlock)))
		}
	}
	return c
}

// OpenAI Responses: the notice is appended to the function_call_output's output.
func responsesTextPart(text string) []byte {
	return append(append([]byte(`{"type":"input_text","text":`), jsonString(text)...), '}')
}

func parseResponses(data []byte, root *node, known map[string]call) *conversation {
	c := &conversation{store: true, open: map[string]call{}}
	c.previousID = root.str(data, "previous_response_id")
	if st := root.get("store"); st != nil && string(st.raw(data)) == "false" {
		c.store = false
	}
	input := root.get("input")
	if input.isString() {
		c.steps = append(c.steps, step{ev: userTurn(stringValue(data, input))})
		return c
	}
	if !input.isArray() {
		return c
	}
	turn := "" // the first call id of the run of calls being read: one reply
	for _, it := range input.elems {
		typ := it.str(data, "type")
		if typ != "function_call" && typ != "custom_tool_call" {
			turn = ""
		} else if turn == "" {
			turn = it.str(data, "call_id")
		}
		switch {
		case typ == "message" || (typ == "" && it.get("role") != nil):
			content := it.get("content")
			switch it.str(data, "role") {
			case "user":
				c.steps = append(c.steps, step{ev: userTurn(textOf(data, content, nil))})
			case "assistant":
				c.steps = append(c.steps, step{ev: modelText(textOf(data, content, nil))})
			}
		case typ == "function_call":
			c.open[it.str(data, "call_id")] = call{Name: it.str(data, "name"), Args: []byte(it.str(data, "arguments")), Turn: turn}
		case typ == "custom_tool_call":
			c.open[it.str(data, "call_id")] = customCall(it.str(data, "name"), it.str(data, "input"), turn)
		case typ == "function_call_output" || typ == "custom_tool_call_output":
			id := it.str(data, "call_id")
			cl, ok := c.open[id]
			if ok {
				delete(c.open, id)
			} else if cl, ok = known[id]; !ok {
				continue
			}
			out := it.get("output")
			c.steps = append(c.steps, callStep(cl, out, nil, false, contentEnd(out, responsesTextPart)))
		}
	}
	return c
}

// Gemini: the notice is appended to functionResponse.response.output, where Gemini CLI's own
// hooks put theirs; a response without a string output gets a text part after the last part.
func geminiTextPart(text string) []byte {
	return append(append([]byte(`{"text":`), jsonString(text)...), '}')
}

func parseGemini(data []byte, root *node) *conversation {
	c := &conversation{}
	type gcall struct {
		id string
		call
		used bool
	}
	// The calls of the latest model turn, found by id, or by name in order (Gemini CLI's
	// responses may carry no id). Queues with cursors keep matching linear in the number of
	// calls, however hostile the body.
	type queue struct {
		calls []*gcall
		next  int
	}
	first := func(q *queue) *gcall {
		if q == nil {
			return nil
		}
		for q.next < len(q.calls) && q.calls[q.next].used {
			q.next++
		}
		if q.next < len(q.calls) {
			return q.calls[q.next]
		}
		return nil
	}
	var byID, byName, idlessByName map[string]*queue
	add := func(m map[string]*queue, k string, g *gcall) {
		if m[k] == nil {
			m[k] = &queue{}
		}
		m[k].calls = append(m[k].calls, g)
	}
	contents := root.get("contents")
	if !contents.isArray() {
		return c
	}
	for ci, ct := range contents.elems {
		parts := ct.get("parts")
		if !parts.isArray() {
			continue
		}
		if ct.str(data, "role") == "model" {
			byID, byName, idlessByName = map[string]*queue{}, map[string]*queue{}, map[string]*queue{}
			turn := "" // the content's first call id (or its place) names its reply
			for _, p := range parts.elems {
				if t := p.get("text"); t.isString() {
					c.steps = append(c.steps, step{ev: modelText(stringValue(data, t))})
				}
				if fc := p.get("functionCall"); fc.isObject() {
					if turn == "" {
						if turn = fc.str(data, "id"); turn == "" {
							turn = "content " + strconv.Itoa(ci)
						}
					}
					g := &gcall{id: fc.str(data, "id"), call: call{Name: fc.str(data, "name"), Args: fc.get("args").raw(data), Turn: turn}}
					add(byName, g.Name, g)
					if g.id != "" {
						add(byID, g.id, g)
					} else {
						add(idlessByName, g.Name, g)
					}
				}
			}
			continue
		}
		responded := false
		for _, p := range parts.elems {
			fr := p.get("functionResponse")
			if !fr.isObject() {
				continue
			}
			responded = true
			id, name := fr.str(data, "id"), fr.str(data, "name")
			// By id when the response has one (else an id-less call of that name); without
			// an id, the first unanswered call of that name.
			var match *gcall
			if id != "" {
				if match = first(byID[id]); match == nil {
					match = first(idlessByName[name])
				}
			} else {
				match = first(byName[name])
			}
			if match == nil {
				continue
			}
			match.used = true
			resp := fr.get("response")
			var (
				res    string
				failed bool
				s      *site
			)
			if out := resp.get("output"); out.isString() {
				res, s = stringValue(data, out), stringEnd(out)
			} else if e := resp.get("error"); e != nil {
				res, failed = textOrRaw(data, e), true
			} else {
				res = string(resp.raw(data))
			}
			if s == nil {
				s = elementAfter(parts, geminiTextPart)
			}
			ev := loopguard.Call("", match.Name, match.Args).WithResult(res, failed)
			ev.Turn = match.Turn
			c.steps = append(c.steps, step{ev: ev, site: s})
		}
		if !responded {
			c.steps = append(c.steps, step{ev: userTurn(textOf(data, parts, nil))})
		}
	}
	return c
}

func textOrRaw(data []byte, n *node) string {
	if n.isString() {
		return stringValue(data, n)
	}
	return string(n.raw(data))
}

// customCall is a Responses API custom tool's call. A cell of Codex's code mode that makes one
// call is that call (see codexcell), as the rollout reader takes it: the guard compares the
// commands the cells run, not the cells.
func customCall(name, input, turn string) call {
	if name == codexcell.Tool {
		if tool, args, ok := codexcell.Call(input); ok {
			return call{Name: tool, Args: args, Turn: turn}
		}
	}
	return call{Name: name, Args: []byte(input), Turn: turn}
}
