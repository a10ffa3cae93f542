package transcript

import (
	"bufio"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// Gemini CLI transcripts, three kinds:
//
// Chat recordings (~/.gemini/tmp/<project hash>/chats/session-*.json, a ConversationRecord
// {sessionId, projectHash, startTime, lastUpdated, messages[], kind}; recent versions write
// session-*.jsonl instead: a metadata line, then message records, where a record whose id was
// seen before replaces it, {"$rewindTo": id} drops that message and all later ones, and
// {"$set": {...}} updates the metadata). A message record is {id, timestamp, type, content}
// with type user, gemini, info, error or warning; gemini messages add toolCalls[{id, name,
// args, result, status, timestamp}], thoughts[{subject, description}], tokens and model.
//
//   - user: a user turn. gemini: thoughts and text are EventText "model", then one call per
//     toolCalls entry (Args = the args JSON, Result = the functionResponse's output or error,
//     Failed when the status is error or cancelled). info/error/warning are shown to the user,
//     not the model: skipped.
//
// Checkpoints (/chat save: checkpoint-<tag>.json, a list of API contents or {history: [...]};
// /restore checkpoints hold the same list under clientHistory): contents {role: user|model,
// parts[]} with text, functionCall{id, name, args} and functionResponse{id, name, response}
// parts. Each functionCall is a call; a functionResponse is the result of the call with its id,
// else of the oldest waiting call.
//
// logs.json: a list of {sessionId, messageId, timestamp, type: "user", message}: user turns
// only, one agent per session id.

type gemToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Args      json.RawMessage `json:"args"`
	Result    any             `json:"result"`
	Status    string          `json:"status"`
	Timestamp string          `json:"timestamp"`
}

type gemThought struct {
	Subject     string `json:"subject"`
	Description string `json:"description"`
}

type gemTokens struct {
	Input    int64 `json:"input"`
	Output   int64 `json:"output"`
	Cached   int64 `json:"cached"`
	Thoughts int64 `json:"thoughts"`
}

type gemPart struct {
	Text *string `json:"text"`
	// A part of a Vercel AI SDK UI message, which shares the "parts" name (aisdk.go).
	aiSDKPart
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Response any    `json:"response"`
	} `json:"functionResponse"`
}

func gemAgentID(sessionID, kind string) string {
	if kind == "subagent" && sessionID != "" {
		return "agent-" + sessionID
	}
	return MainAgent
}

func buildGeminiSession(sessionID, kind string, msgs []msg) *built {
	b := newBuilder(FormatGeminiCLI)
	a := b.agent(gemAgentID(sessionID, kind))
	for i := range msgs {
		m := &msgs[i]
		ms := parseTime(m.Timestamp)
		switch m.Type {
		case "user":
			if text := contentText(m.Content); !isBlank(text) {
				a.user(text, ms)
			}
		case "gemini", "model":
			for _, th := range m.Thoughts {
				t := th.Description
				if th.Subject != "" {
					t = th.Subject + "\n" + t
				}
				a.text("model", t, "", ms)
			}
			a.text("model", contentText(m.Content), m.ID, ms)
			turn := m.ID // the calls of one message are one reply
			if turn == "" {
				turn = "m" + strconv.Itoa(i)
			}
			for _, tc := range m.GemToolCalls {
				e := loopguard.Event{Type: loopguard.EventCall, Tool: tc.Name, Args: rawArgs(tc.Args), Time: ms, Turn: turn}
				if t := parseTime(tc.Timestamp); t != 0 {
					e.Time = t
				}
				switch tc.Status {
				case "success", "error", "cancelled":
					e.HasResult = true
				}
				if tc.Result != nil {
					text, failed := gemResultText(tc.Result, tc.ID)
					e.Result, e.HasResult, e.Failed = text, true, failed
				}
				if tc.Status == "error" || tc.Status == "cancelled" || gemShellFailed(tc.Name, e.Result) {
					e.Failed = true
				}
				a.add(e)
			}
			if t := m.Tokens; t != nil {
				a.usage.InputTokens += t.Input - t.Cached
				a.usage.CacheReadTokens += t.Cached
				a.usage.OutputTokens += t.Output + t.Thoughts
			}
			if m.Model != "" {
				a.usage.Model = m.Model
			}
		}
	}
	return b.done()
}

// gemCallIDTime is the time in a call id as Gemini CLI makes them, "<tool>-<Unix
// milliseconds>-<random>" ("run_shell_command-1763392123905-e6d130253e7b5"), or 0: checkpoints
// and shared chats keep no other time (validation round r136b U2).
func gemCallIDTime(id string) int64 {
	end := strings.LastIndexByte(id, '-')
	if end < 0 {
		return 0
	}
	start := strings.LastIndexByte(id[:end], '-')
	digits := id[start+1 : end]
	if start < 0 || len(digits) != 13 || !isDigits(digits) {
		return 0
	}
	ms, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0
	}
	return ms
}

// gemAnswer gives a call of a checkpoint or a shared chat its answer: failed when the answer
// says so or, for the shell tool, by the command's own exit code, as the chat recordings are
// read (validation round r136b U1: failing builds of checkpoints read as successes); and, when
// the call had no time, the one in its answer's id, where the layout keeps the id on the
// answer alone (r136b U2).
func gemAnswer(e *loopguard.Event, text string, failed bool, answerID string) {
	e.Result, e.HasResult, e.Failed = text, true, failed || gemShellFailed(e.Tool, text)
	if e.Time == 0 {
		e.Time = gemCallIDTime(answerID)
	}
}

// gemShellFailed reads the exit code that the shell tool reports in its output
// ("...\nExit Code: N\n..."): the call itself succeeds whatever the command's status.
func gemShellFailed(tool, result string) bool {
	if tool != "run_shell_command" {
		return false
	}
	i := strings.LastIndex(result, "\nExit Code: ")
	if i < 0 {
		return false
	}
	rest := result[i+len("\nExit Code: "):]
	if j := strings.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	rest = strings.TrimSpace(rest)
	return rest != "0" && rest != "(none)" && rest != ""
}

// gemResultText reads a tool call's result: a list of parts with a functionResponse (whose
// response is {output} or {error}) and possibly text. When one of the responses carries the
// call's own id, the responses that carry another id are other calls': a session may copy a
// parallel batch's responses onto each of its calls, and read whole, every call of the batch
// answered alike.
func gemResultText(r any, id string) (string, bool) {
	var parts []any
	switch v := r.(type) {
	case string:
		return v, false
	case []any:
		parts = v
	case map[string]any:
		parts = []any{v}
	}
	own := false // one of the responses is the call's own, by its id
	for _, p := range parts {
		mp, _ := p.(map[string]any)
		if fr, ok := mp["functionResponse"].(map[string]any); ok && id != "" && fr["id"] == id {
			own = true
			break
		}
	}
	var texts []string
	failed := false
	for _, p := range parts {
		mp, _ := p.(map[string]any)
		if fr, ok := mp["functionResponse"].(map[string]any); ok {
			if other, _ := fr["id"].(string); own && other != "" && other != id {
				continue
			}
			t, f := gemResponseText(fr["response"])
			texts = append(texts, t)
			failed = failed || f
			continue
		}
		if t := partText(p); t != "" {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n"), failed
}

func gemResponseText(resp any) (string, bool) {
	m, ok := resp.(map[string]any)
	if !ok {
		if s, ok := resp.(string); ok {
			return s, false
		}
		b, _ := json.Marshal(resp)
		return string(b), false
	}
	if s, ok := m["output"].(string); ok {
		return s, false
	}
	if s, ok := m["error"].(string); ok {
		return s, true
	}
	if s, ok := m["content"].(string); ok {
		return s, false
	}
	b, _ := json.Marshal(m)
	return string(b), false
}

// buildGeminiContents reads a list of Gemini API contents (a checkpoint).
func buildGeminiContents(list []msg) *built {
	b := newBuilder(FormatGeminiCLI)
	addGeminiContents(b.agent(MainAgent), list)
	return b.done()
}

// addGeminiContents reads a list of Gemini API contents into a: functionCall parts are calls,
// answered by the functionResponse part with their id; the model's text parts are its words,
// the other texts a user turn.
func addGeminiContents(a *agentBuf, list []msg) {
	var pending pendingCalls
	for i := range list {
		m := &list[i]
		var texts []string
		for _, p := range m.Parts {
			switch {
			case p.FunctionCall != nil:
				call := loopguard.Call("", p.FunctionCall.Name, rawArgs(p.FunctionCall.Args))
				call.Turn = "c" + strconv.Itoa(i) // the calls of one content are one reply
				call.Time = gemCallIDTime(p.FunctionCall.ID)
				idx := a.add(call)
				pending.add(p.FunctionCall.ID, idx)
			case p.FunctionResponse != nil:
				if idx := pending.take(p.FunctionResponse.ID); idx >= 0 {
					text, failed := gemResponseText(p.FunctionResponse.Response)
					gemAnswer(&a.events[idx], text, failed, p.FunctionResponse.ID)
				}
			case p.Text != nil:
				if m.Role == "model" {
					a.text("model", *p.Text, "", 0)
				} else {
					texts = append(texts, *p.Text)
				}
			}
		}
		if m.Parts == nil && m.Content != nil {
			texts = append(texts, contentText(m.Content))
		}
		if m.Role != "model" {
			if text := strings.Join(texts, "\n"); !isBlank(text) {
				a.user(text, 0)
			}
		}
	}
}

// buildGeminiLogs reads logs.json: user prompts, one agent per session.
func buildGeminiLogs(list []msg) *built {
	b := newBuilder(FormatGeminiCLI)
	for i := range list {
		m := &list[i]
		if m.Type != "" && m.Type != "user" {
			continue
		}
		b.agent(m.SessionID).user(m.Message, parseTime(m.Timestamp))
	}
	return b.done()
}

// gemRecord is one line of a JSONL chat recording.
type gemRecord struct {
	msg
	RewindTo *string
	Set      *struct {
		Messages []msg  `json:"messages"`
		Kind     string `json:"kind"`
	}
	Kind string
}

func (r *gemRecord) member(w *walker) memberFunc {
	m := r.msg.member(w)
	return func(key []byte, v int) (int, error) {
		switch string(key) {
		case "$rewindTo":
			return w.strPtr(v, &r.RewindTo)
		case "$set":
			return w.std(v, &r.Set)
		case "kind":
			return w.str(v, &r.Kind)
		}
		return m(key, v)
	}
}

func readGeminiJSONL(name string, br *bufio.Reader) (*built, error) {
	var order []string
	byID := map[string]int{} // id -> position in records
	var records []msg
	sessionID, kind := "", ""

	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var r gemRecord
		if err := walkLine(line, r.member); err != nil {
			return err
		}
		switch {
		case r.RewindTo != nil:
			pos := -1
			for i, id := range order {
				if id == *r.RewindTo {
					pos = i
					break
				}
			}
			if pos < 0 {
				pos = 0
			}
			for _, id := range order[pos:] {
				delete(byID, id)
			}
			order = order[:pos]
			records = records[:pos]
		case r.Set != nil:
			if r.Set.Messages != nil {
				// $set replaces the message list as it stands now; later records add to it
				// (Gemini CLI 0.61 writes the session context this way, then each message).
				records = append(records[:0:0], r.Set.Messages...)
				order, byID = order[:0], map[string]int{}
				for i, m := range records {
					order = append(order, m.ID)
					byID[m.ID] = i
				}
			}
			if r.Set.Kind != "" {
				kind = r.Set.Kind
			}
		case r.ID != "":
			if i, ok := byID[r.ID]; ok {
				records[i] = r.msg
			} else {
				byID[r.ID] = len(records)
				order = append(order, r.ID)
				records = append(records, r.msg)
			}
		case r.SessionID != "":
			sessionID = r.SessionID
			if r.Kind != "" {
				kind = r.Kind
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return withDamaged(buildGeminiSession(sessionID, kind, records), damaged), nil
}
