package transcript

import (
	"strings"

	"github.com/loopguard/loopguard"
)

// An AG2 group chat kept as its message list: [{"content", "name", "role"}], as AG2's
// ChatResult.chat_history is saved, and as the Who&When benchmark keeps CaptainAgent's expert
// teams ("Algorithm-Generated": {"history": [...], "question", "mistake_agent", ...}). Read as
// SWE-agent's because of the history, each run was one agent with no call (validation round
// r197a G2: 126 runs, 303 executions read as none).
//
// name is the speaker; role is AG2's view from one agent (assistant for the one whose turn it
// is, user for the others) and says nothing of who spoke. It is the conversation the ag2-console
// reader reads in its printed form, and is read alike: a message is its sender's words (the
// first is the task, as is a user proxy's message); a message holding fenced code answered by
// the executor's next message ("exitcode: 1 (execution failed)\nCode output: ...") is also a
// call of execute_code by its sender, its arguments the code, failed unless the exit code is 0.

// isAG2Chat says whether a message list is an AG2 chat: messages carry their sender's name,
// some content is an executor's answer ("exitcode: 0 (execution succeeded)"), and no message
// holds structured tool calls (a chat of those is a message list, read as such).
func isAG2Chat(w *walker, list []msg) bool {
	if !anyNamedSender(list) {
		return false // most histories: no content decoded to find out
	}
	answered := false
	for i := range list {
		m := &list[i]
		if len(m.ToolCalls) > 0 || m.ToolCallID != "" || m.FunctionCall != nil {
			return false
		}
		if s, ok := w.historyContent(m).(string); ok && m.Name != "" && ag2ExitCode().MatchString(s) {
			answered = true
		}
	}
	return answered
}

// isNamedHistory says whether a document's history is a chat whose every message names its
// sender, with none of SWE-agent's own members (agent, action, is_demo): an AG2 chat in which
// no code was run. A quarter of Who&When's CaptainAgent runs (validation round r197a G2) are
// experts talking, with no execution or only the executor's "There is no code from the last 1
// message...": still a chat of named agents, not a SWE-agent history. Only a history is taken
// on names alone: a "messages" list that names its senders is as often OpenAI's.
func isNamedHistory(history []msg) bool {
	for i := range history {
		if m := &history[i]; m.Name == "" || m.Agent != "" || m.Action != nil || m.IsDemo {
			return false
		}
	}
	return len(history) > 0
}

// anyNamedSender says whether some message of list names its sender.
func anyNamedSender(list []msg) bool {
	for i := range list {
		if list[i].Name != "" {
			return true
		}
	}
	return false
}

// buildAG2Chat reads an AG2 chat whose contents are decoded (isAG2Chat decodes them).
func buildAG2Chat(list []msg) *built {
	b := newBuilder(FormatAG2Chat)
	// The executors are the senders of the code's answers. Their other messages answer nothing
	// ("There is no code from the last 1 message for me to execute. Group chat manager should
	// let other participants to continue..."): AG2's canned words, no model's and no person's,
	// the same each time; read as words they would be an agent repeating itself, and as the
	// user's a turn no one took. They are passed over.
	executors := map[string]bool{}
	for i := range list {
		if ag2ExitCode().MatchString(contentText(list[i].Content)) {
			executors[list[i].Name] = true
		}
	}
	var pending *ag2Call // the call waiting for the executor's answer
	for i := range list {
		m := &list[i]
		text := strings.TrimSpace(contentText(m.Content))
		if pending != nil {
			if c := ag2ExitCode().FindStringSubmatch(text); c != nil {
				e := &pending.a.events[pending.idx]
				*e = e.WithResult(text, c[1] != "0")
				pending = nil
				continue
			}
			pending = nil
		}
		sender := m.Name
		if sender == "" {
			sender = MainAgent
		}
		if executors[sender] || text == "" {
			continue
		}
		a := b.agent(sender)
		if i == 0 || ag2IsUser(sender) {
			a.user(text, 0)
		} else {
			a.said(text)
		}
		code := fencedCode(text)
		if code == "" || i+1 >= len(list) || !ag2ExitCode().MatchString(strings.TrimSpace(contentText(list[i+1].Content))) {
			continue
		}
		idx := a.add(loopguard.Call("", "execute_code", marshalArgs(map[string]string{"code": code})))
		pending = &ag2Call{a: a, idx: idx, tool: "execute_code"}
	}
	return b.done()
}
