package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// Amazon Q Developer CLI (`q chat`) and Kiro CLI, its successor, save a conversation with
// `/save <file>` as one JSON document, the chat's ConversationState: {"conversation_id",
// "next_message", "history", "valid_history_range", "transcript", "tools",
// "context_manager", "latest_summary", "model", ...}.
//
//   - history is the exchanges in order, each a user message and the assistant's reply: a
//     pair [user, assistant] in Q CLI, {"user", "assistant", "request_metadata"} in later
//     releases and Kiro CLI;
//   - a user message's content is one of {"Prompt": {"prompt"}} (a user turn),
//     {"ToolUseResults": {"tool_use_results": [...]}} (the results of the calls of the reply
//     before it) or {"CancelledToolUses": {"prompt", "tool_use_results"}} (the user stopped
//     the calls, then said something: results, then a user turn);
//   - a reply is {"Response": {"content"}} (the model's words) or {"ToolUse": {"content",
//     "tool_uses": [{"id", "name", "args"}]}}: words, then calls made together;
//   - a result is {"tool_use_id", "content": [{"Text": "..."} | {"Json": {...}}], "status"}:
//     its texts, a Json part as written (a command's {"exit_status", "stdout", "stderr"}),
//     failed when the status is "Error" or a command's exit_status is not 0 (Q reports a
//     command that ran as a success, whatever its exit status);
//   - next_message, when set, is the user message not yet sent: the results of the last
//     reply's calls when the save came before the model answered them.
//
// valid_history_range only says which exchanges the model still sees; all of history ran
// and is read. transcript is the terminal's view of the same, read only to say why a save
// whose history was cleared (by /compact or /clear) reads no calls: the calls it names there
// have no arguments and no results.

type amazonQConversation struct {
	NextMessage *amazonQUser      `json:"next_message"`
	History     []json.RawMessage `json:"history"`
	Transcript  []json.RawMessage `json:"transcript"`
	Model       any               `json:"model"` // a model id; an object in some releases
}

type amazonQUser struct {
	Content struct {
		Prompt *struct {
			Prompt string `json:"prompt"`
		} `json:"Prompt"`
		ToolUseResults *struct {
			Results []amazonQResult `json:"tool_use_results"`
		} `json:"ToolUseResults"`
		CancelledToolUses *struct {
			Prompt  string          `json:"prompt"`
			Results []amazonQResult `json:"tool_use_results"`
		} `json:"CancelledToolUses"`
	} `json:"content"`
	Timestamp string `json:"timestamp"`
}

type amazonQResult struct {
	ToolUseID string                       `json:"tool_use_id"`
	Content   []map[string]json.RawMessage `json:"content"`
	Status    string                       `json:"status"`
}

type amazonQAssistant struct {
	Response *struct {
		Content string `json:"content"`
	} `json:"Response"`
	ToolUse *struct {
		MessageID string `json:"message_id"`
		Content   string `json:"content"`
		ToolUses  []struct {
			ID       string          `json:"id"`
			Name     string          `json:"name"`
			OrigName string          `json:"orig_name"`
			Args     json.RawMessage `json:"args"`
		} `json:"tool_uses"`
	} `json:"ToolUse"`
}

// amazonQEntry is one exchange of the history, whichever its layout.
type amazonQEntry struct {
	User      *amazonQUser      `json:"user"`
	Assistant *amazonQAssistant `json:"assistant"`
	Metadata  *struct {
		ModelID string `json:"model_id"`
	} `json:"request_metadata"`
}

// isAmazonQHead says whether a document's top-level keys are a saved Q CLI or Kiro CLI
// conversation's: its id, and next_message (which comes before the history, whose length can
// put the other keys past the head) or valid_history_range.
//
// Other chat documents may have such keys too (a conversation_id beside OpenAI messages): the
// head must also hold one of Q's own message kinds, or a history still empty.
func isAmazonQHead(has func(string) bool, head []byte) bool {
	if !has("conversation_id") || !(has("next_message") || has("valid_history_range") || has("history") && has("transcript")) {
		return false
	}
	for _, k := range amazonQKinds {
		if bytes.Contains(head, k) {
			return true
		}
	}
	return amazonQEmptyHistory().Match(head)
}

// amazonQKinds are the tags of Q's user messages and replies, as they open a message's content.
var amazonQKinds = [][]byte{[]byte(`"Prompt":`), []byte(`"ToolUseResults":`), []byte(`"CancelledToolUses":`),
	[]byte(`"ToolUse":`), []byte(`"Response":`)}

// amazonQEmptyHistory matches a history with no exchange yet.
var amazonQEmptyHistory = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"history"\s*:\s*\[\s*\]`) })

func readAmazonQ(name string, br *bufio.Reader, hint int64) (*built, error) {
	c, err := decodeDocument[amazonQConversation](name, br, hint, "Amazon Q conversation")
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatAmazonQ)
	a := b.agent(MainAgent)
	if m, ok := c.Model.(string); ok {
		a.usage.Model = m
	}
	calls := map[string]int{} // tool_use id -> index of the call in a.events
	for i, raw := range c.History {
		e := amazonQDecodeEntry(raw)
		if e.Metadata != nil && e.Metadata.ModelID != "" {
			a.usage.Model = e.Metadata.ModelID
		}
		if e.User != nil {
			amazonQUserMessage(a, e.User, calls)
		}
		r := e.Assistant
		switch {
		case r == nil:
		case r.ToolUse != nil:
			a.text("model", r.ToolUse.Content, "", 0)
			turn := "entry " + strconv.Itoa(i) // the calls of one reply are made together
			for _, u := range r.ToolUse.ToolUses {
				tool := u.Name
				if tool == "" {
					tool = u.OrigName
				}
				call := loopguard.Call("", tool, rawArgs(u.Args))
				call.Turn = turn
				idx := a.add(call)
				if u.ID != "" {
					calls[u.ID] = idx
				}
			}
		case r.Response != nil:
			a.text("model", r.Response.Content, "", 0)
		}
	}
	if c.NextMessage != nil {
		amazonQUserMessage(a, c.NextMessage, calls)
	}
	out := b.done()
	if len(c.History) == 0 && len(c.Transcript) > 0 {
		out.Note = "history empty (cleared or compacted): its transcript names calls without their arguments, not read"
	}
	return out, nil
}

// amazonQDecodeEntry decodes an exchange of either layout; what is not one is an empty
// exchange.
func amazonQDecodeEntry(raw json.RawMessage) amazonQEntry {
	var e amazonQEntry
	raw = bytesTrimSpace(raw)
	if len(raw) == 0 {
		return e
	}
	switch raw[0] {
	case '[':
		var pair []json.RawMessage
		if json.Unmarshal(raw, &pair) != nil {
			return e
		}
		if len(pair) > 0 {
			_ = json.Unmarshal(pair[0], &e.User) // a member of another type is left empty
		}
		if len(pair) > 1 {
			_ = json.Unmarshal(pair[1], &e.Assistant)
		}
	case '{':
		_ = json.Unmarshal(raw, &e)
	}
	return e
}

// amazonQUserMessage adds what a user message says: results for the calls waiting for them,
// and the user's words.
func amazonQUserMessage(a *agentBuf, u *amazonQUser, calls map[string]int) {
	ct := &u.Content
	if r := ct.ToolUseResults; r != nil {
		amazonQResults(a, r.Results, calls)
	}
	prompt := ""
	if r := ct.CancelledToolUses; r != nil {
		amazonQResults(a, r.Results, calls)
		prompt = r.Prompt
	}
	if p := ct.Prompt; p != nil {
		prompt = p.Prompt
	}
	if !isBlank(prompt) {
		a.user(prompt, parseTime(u.Timestamp))
	}
}

func amazonQResults(a *agentBuf, results []amazonQResult, calls map[string]int) {
	for _, r := range results {
		idx, ok := calls[r.ToolUseID]
		if !ok || r.ToolUseID == "" {
			continue
		}
		failed := strings.EqualFold(r.Status, "Error")
		texts := make([]string, 0, len(r.Content))
		for _, part := range r.Content {
			if t, ok := part["Text"]; ok {
				texts = append(texts, rawString(t))
			}
			if j, ok := part["Json"]; ok {
				texts = append(texts, string(rawArgs(j)))
				failed = failed || amazonQExitFailed(j)
			}
			if _, ok := part["Image"]; ok {
				texts = append(texts, "[image]")
			}
		}
		e := &a.events[idx]
		e.Result, e.HasResult, e.Failed = strings.Join(texts, "\n"), true, failed
	}
}

// amazonQExitFailed says whether a Json result is a command's that exited with a status other
// than 0 (execute_bash writes it as a string, "1").
func amazonQExitFailed(j json.RawMessage) bool {
	var r struct {
		ExitStatus json.RawMessage `json:"exit_status"`
	}
	if j = bytesTrimSpace(j); len(j) == 0 || j[0] != '{' {
		return false
	}
	_ = json.Unmarshal(j, &r)
	s := strings.TrimSpace(jsonText(bytesTrimSpace(r.ExitStatus)))
	return s != "" && s != "0" && s != "null"
}
