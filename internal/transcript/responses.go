package transcript

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// An agent run through OpenAI's Responses API may be kept as the request and the response,
// one run a line, as NVIDIA's NeMo Gym keeps its rollouts (of Claude Code, Hermes and
// mini-swe-agent on SWE tasks, among others):
//
//	{"responses_create_params": {"input": [items...] or "a prompt", ...},
//	 "response": {"output": [items...], ...}, "reward": 1.0, ...}
//
// The run is the input's items followed by the output's, read as a message list
// (addMessages): messages by role, function_call items as calls, their function_call_output
// items by call_id as results. Each line is a session.

// An environment that takes the model's words as its action (a text game, a puzzle: "Reply
// with exactly one move using <action>Up</action>...") answers each reply with a message of
// its own, which the rollout keeps as a user item inside the response's output: the model's
// own turn, which no person speaks in. Such a reply is a call, "act", its action the text in
// its <action> tag (or the whole reply), and the environment's message its answer; the
// reply's other words are the model's. Read as talk, a game whose 13 moves in a row met the
// same board, and one whose 24 commands all met "Nothing happens.", made no call at all
// (validation round r146a U1). Only a rollout whose model was given no tools and called none
// is read so: tau2-bench's simulated customer answers inside the output too, and the agent's
// words to it are talk.

// makesToolCalls says whether items hold a call of a tool.
func makesToolCalls(items []msg) bool {
	for i := range items {
		if items[i].Type == "function_call" || items[i].Type == "custom_tool_call" || len(items[i].ToolCalls) > 0 {
			return true
		}
	}
	return false
}

// textActions returns a response's output items with each assistant message that a user
// item answers (nothing but reasoning between them) made a call of "act", and that user item
// its result.
func textActions(out []msg) []msg {
	answered := false
	for i := 1; i < len(out); i++ {
		if out[i].chatRole() == "user" && out[i].Type != "function_call_output" && actionBefore(out, i) >= 0 {
			answered = true
			break
		}
	}
	if !answered {
		return out
	}
	list := make([]msg, 0, len(out)+8)
	n := 0
	for i := range out {
		if out[i].chatRole() != "user" || out[i].Type == "function_call_output" {
			list = append(list, out[i])
			continue
		}
		j := actionBefore(list, len(list))
		if j < 0 {
			list = append(list, out[i])
			continue
		}
		n++
		id := "act-" + strconv.Itoa(n)
		list = replyAsAction(list, j, id)
		list = append(list, msg{Type: "function_call_output", CallID: id, Output: contentText(out[i].Content)})
	}
	// The reply after the environment's last message is an action too, one whose answer the
	// rollout keeps outside the output (its "terminated" and "info"): read as words, each
	// episode's last move was lost, and a loop that ended the episode was told a move late
	// (validation round r149c U4).
	if j := lastReply(list); j >= 0 && n > 0 {
		list = replyAsAction(list, j, "act-last")
	}
	return list
}

// replyAsAction makes the reply list[j] the call of its action, id its call id: the call in its
// place, after the reply's other words when it has any.
func replyAsAction(list []msg, j int, id string) []msg {
	action, words := textAction(contentText(list[j].Content))
	args, _ := json.Marshal(map[string]string{"action": action})
	call := msg{Type: "function_call", Name: textActionTool(action), CallID: id, Arguments: args}
	if words == "" {
		list[j] = call
		return list
	}
	said := list[j]
	said.Content = words
	list = append(list[:j+1], append([]msg{call}, list[j+1:]...)...)
	list[j] = said
	return list
}

// lastReply returns the index of the reply in words that ends the items, reasoning passed
// over, when it comes right after an environment's answer (a function_call_output); -1
// otherwise.
func lastReply(items []msg) int {
	j := before(items, len(items))
	if j < 0 || !isTextReply(&items[j]) {
		return -1
	}
	if k := before(items, j); k >= 0 && items[k].Type == "function_call_output" {
		return j
	}
	return -1
}

// actionBefore returns the index of the assistant message items[i] answers: the item before
// it, reasoning passed over, when that is a reply in words (isTextReply); -1 otherwise.
func actionBefore(items []msg, i int) int {
	if j := before(items, i); j >= 0 && isTextReply(&items[j]) {
		return j
	}
	return -1
}

// before returns the index of the item before items[i], reasoning passed over, or -1.
func before(items []msg, i int) int {
	for j := i - 1; j >= 0; j-- {
		if items[j].Type != "reasoning" {
			return j
		}
	}
	return -1
}

// isTextReply says whether an item is the model's reply in words alone: an assistant message
// with text and no call.
func isTextReply(m *msg) bool {
	return m.chatRole() == "assistant" && m.Type != "function_call" && len(m.ToolCalls) == 0 &&
		strings.TrimSpace(contentText(m.Content)) != ""
}

// textAction splits a reply into the action it takes (the text of its <action> tag, or the
// whole reply) and its other words.
func textAction(reply string) (action, words string) {
	if open := strings.Index(reply, "<action>"); open >= 0 {
		if end := strings.Index(reply[open:], "</action>"); end >= 0 {
			action = strings.TrimSpace(reply[open+len("<action>") : open+end])
			words = strings.TrimSpace(reply[:open] + reply[open+end+len("</action>"):])
			return action, words
		}
	}
	return strings.TrimSpace(reply), ""
}

// isResponsesRolloutHead says whether a document's (or a line's) top-level keys are a
// Responses API request and its response.
func isResponsesRolloutHead(has func(string) bool) bool {
	return has("responses_create_params") && has("response")
}

type responsesRollout struct {
	Params struct {
		Input json.RawMessage   `json:"input"`
		Tools []json.RawMessage `json:"tools"`
	} `json:"responses_create_params"`
	Response struct {
		Output []msg `json:"output"`
	} `json:"response"`
}

func readResponsesRollouts(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatMessages)
	sessions := 0
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var r responsesRollout
		// A member of an unexpected type is left empty, as encoding/json leaves it; the rest
		// of the run is read.
		if err := json.Unmarshal(line, &r); err != nil && !tolerable(err) {
			return fmt.Errorf("responses API rollout: %w", err)
		}
		var list []msg
		switch in := bytesTrimSpace(r.Params.Input); {
		case len(in) > 0 && in[0] == '[':
			_ = json.Unmarshal(in, &list) // items of unexpected shapes are left zero
		case len(in) > 0 && in[0] == '"':
			var prompt string
			if json.Unmarshal(in, &prompt) == nil {
				list = append(list, msg{Role: "user", Content: prompt})
			}
		}
		out := r.Response.Output
		if len(r.Params.Tools) == 0 && !makesToolCalls(list) && !makesToolCalls(out) {
			// A model given no tools, and calling none, acts in words (see textActions);
			// one that calls tools talks to a person in words (tau2-bench's simulated
			// customer answers inside the output too).
			out = textActions(out)
		}
		list = append(list, out...)
		b.session = sessions
		sessions++
		addMessages(b, list, func(*msg) string { return MainAgent }, false)
		return nil
	})
	if err != nil {
		return nil, err
	}
	t := b.done()
	t.Sessions = max(sessions, 1)
	return withDamaged(t, damaged), nil
}
