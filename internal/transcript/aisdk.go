package transcript

import (
	"bufio"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// The Vercel AI SDK (TypeScript) keeps a chat as messages in one of two shapes, which apps
// built on it (Mastra, VoltAgent, chat front ends) save as JSON:
//
//   - UI messages, {"id", "role", "parts": [...]}: a part {"type": "text", "text"}, "reasoning",
//     "step-start" (the model's next step, after the results of the last); a call in AI SDK 4
//     as {"type": "tool-invocation", "toolInvocation": {"toolCallId", "toolName", "args",
//     "state": "call" | "result", "result"}}, and in AI SDK 5 as {"type": "tool-<name>"
//     (or "dynamic-tool" with "toolName"), "toolCallId", "state": "input-available" |
//     "output-available" | "output-error", "input", "output", "errorText"}: the call and its
//     answer in one part;
//   - model messages (CoreMessage), as sent to the model: an assistant message's content
//     parts {"type": "tool-call", "toolCallId", "toolName", "args" (4) or "input" (5)}, and a
//     "tool" message's {"type": "tool-result", "toolCallId", "result" (4, "isError") or
//     "output" (5: {"type": "text" | "json" | "error-text" | "error-json", "value"})}.
//
// Read as a message list: a part's state says whether its call was answered and whether it
// failed ("output-error", an "error-" output).

// aiSDKPart is what a UI message's part holds beyond its text.
type aiSDKPart struct {
	Type           string          `json:"type"`
	ToolInvocation *aiSDKToolPart  `json:"toolInvocation"`
	ToolCallID     string          `json:"toolCallId"`
	ToolName       string          `json:"toolName"`
	State          string          `json:"state"`
	Input          json.RawMessage `json:"input"`
	Output         json.RawMessage `json:"output"`
	ErrorText      string          `json:"errorText"`
	Reasoning      string          `json:"reasoning"`
	// RawInput is what the model wrote when the SDK could not parse it as the input.
	RawInput json.RawMessage `json:"rawInput"`
	// at is when a streamed part was first written (Unix milliseconds, 0 when not known):
	// a chat streamed as message parts times each record, not each message.
	at int64
}

// aiSDKToolPart is AI SDK 4's toolInvocation.
type aiSDKToolPart struct {
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Args       json.RawMessage `json:"args"`
	State      string          `json:"state"`
	Result     json.RawMessage `json:"result"`
}

// isAISDKMessage says whether a message's parts are a UI message's (typed, as Gemini's are not).
func isAISDKMessage(m *msg) bool {
	for i := range m.Parts {
		if m.Parts[i].Type != "" {
			return true
		}
	}
	return false
}

// addAISDKMessage reads a UI message's parts into a: its words, and each call with its answer
// when its state has one. Each "step-start" opens the model's next reply.
func addAISDKMessage(a *agentBuf, m *msg, index int) {
	role := m.chatRole()
	step := 0
	turn := func() string { return "m" + strconv.Itoa(index) + "." + strconv.Itoa(step) }
	var userText []string
	for i := range m.Parts {
		p := &m.Parts[i]
		text := ""
		if p.Text != nil {
			text = *p.Text
		}
		switch {
		case p.Type == "step-start":
			step++
		case p.Type == "text" || p.Type == "" && p.Text != nil:
			if role == "assistant" {
				a.turn = turn()
				a.saidAt(text, p.at)
				a.turn = ""
			} else {
				userText = append(userText, text)
			}
		case p.Type == "reasoning":
			if text == "" {
				text = p.Reasoning
			}
			a.turn = turn()
			a.text("model", text, "", p.at)
			a.turn = ""
		case p.Type == "tool-invocation" && p.ToolInvocation != nil:
			t := p.ToolInvocation
			call := loopguard.Call("", t.ToolName, rawArgs(t.Args))
			call.Turn, call.Time = turn(), p.at
			if t.State == "result" {
				call = call.WithResult(aiSDKValue(t.Result), false)
			}
			a.add(call)
		case strings.HasPrefix(p.Type, "tool-") || p.Type == "dynamic-tool":
			name := p.ToolName
			if name == "" {
				name = strings.TrimPrefix(p.Type, "tool-")
			}
			input := p.Input
			if len(bytesTrimSpace(input)) == 0 || string(bytesTrimSpace(input)) == "null" {
				input = p.RawInput
			}
			call := loopguard.Call("", name, rawArgs(input))
			call.Turn, call.Time = turn(), p.at
			switch p.State {
			case "output-available":
				out, failed := aiSDKOutput(p.Output)
				call = call.WithResult(out, failed)
			case "output-error":
				call = call.WithResult(p.ErrorText, true)
			}
			a.add(call)
		}
	}
	if text := strings.Join(userText, "\n"); !isBlank(text) {
		switch role {
		case "system":
			a.text("system", text, "", 0)
		default:
			// An agent built on the SDK wraps what it adds by itself as Claude Code does:
			// pochi opens every task with its system information so wrapped, and answers a
			// reply that made no call with `<system-reminder># GIT STATUS ...` alone. The
			// wrapped part is context; a message that is nothing else is the host speaking
			// in the user's place, as a harness's reprompt does, not a person's new turn:
			// three replies saying the same words, each answered by that reminder alone,
			// were three turns of a conversation (validation round r158a U1, M1).
			if onlySystemReminders(text) {
				a.harnessUser(text)
			} else {
				ccUserText(a, text, "", 0)
			}
		}
	}
}

// onlySystemReminders says whether text is one or more `<system-reminder>` blocks and nothing
// else.
func onlySystemReminders(text string) bool {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, systemReminder) {
		return false
	}
	for strings.HasPrefix(t, systemReminder) {
		_, rest, ok := strings.Cut(t, "</system-reminder>")
		if !ok {
			return false
		}
		t = strings.TrimSpace(rest)
	}
	return t == ""
}

// aiSDKValue is a tool's answer as text: a string as it is, any other value as its JSON.
func aiSDKValue(raw json.RawMessage) string {
	raw = bytesTrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// aiSDKOutput is a tool's answer and whether it failed. A command's run wrapped as
// {"output": "<what it printed>", "isTruncated": false, "error": "Command exited with code 1"}
// (pochi's executeCommand) is what it printed, its error a last line that fails the call: left
// wrapped, the envelope made different commands' failures look alike (validation round
// r151a F3). Any other value is its JSON, failed when it reports an exit code other than 0.
func aiSDKOutput(raw json.RawMessage) (string, bool) {
	text := aiSDKValue(raw)
	var wrapped map[string]json.RawMessage
	if len(text) == 0 || text[0] != '{' || json.Unmarshal([]byte(text), &wrapped) != nil {
		return text, false
	}
	var printed string
	if json.Unmarshal(wrapped["output"], &printed) != nil {
		return text, exitCodeFailed(wrapped)
	}
	for k := range wrapped {
		switch k {
		case "output", "isTruncated", "truncated", "error", "exitCode", "exit_code":
		default:
			return text, exitCodeFailed(wrapped) // an object of its own, not a run's wrapper
		}
	}
	var errText string
	_ = json.Unmarshal(wrapped["error"], &errText)
	failed := strings.TrimSpace(errText) != "" || exitCodeFailed(wrapped)
	if strings.TrimSpace(errText) != "" {
		printed = strings.TrimRight(printed, "\r\n") + "\n" + errText
	}
	return printed, failed
}

// aiSDKResult reads a model message's tool-result part: its answer as text and whether it
// failed (AI SDK 4's "isError"; AI SDK 5's output of an "error-" type).
func aiSDKResult(part map[string]any) (text string, failed bool) {
	failed, _ = part["isError"].(bool)
	if out, ok := part["output"].(map[string]any); ok {
		typ, _ := out["type"].(string)
		failed = failed || strings.HasPrefix(typ, "error-")
		if v, ok := out["value"].(string); ok {
			return v, failed
		}
		return string(marshalArgs(out["value"])), failed
	}
	switch v := part["result"].(type) {
	case string:
		return v, failed
	case nil:
		return "", failed
	default:
		return string(marshalArgs(v)), failed
	}
}

// Apps built on the AI SDK may stream a chat to a file as its messages' parts, one record a
// line, as TabbyML's pochi agent does in its benchmark jobs:
//
//	{"type": "message-part", "messageId", "role", "index", "part": {<a UI message's part>}}
//
// a part written again as it streams (the last record of a message's index is the part), a
// "message-metadata" record between. Read as the UI messages they build, in the order their
// first parts came (validation round r148b U1: 2,118 such files were taken for Claude Code's
// and read no call).

// isAISDKStreamHead says whether a JSON line's top-level keys are a streamed message part's.
func isAISDKStreamHead(has func(string) bool, typ string) bool {
	return typ == "message-part" && has("part") && has("messageId")
}

// aiSDKStreamRecord is a line of such a stream.
type aiSDKStreamRecord struct {
	Type      string  `json:"type"`
	Timestamp string  `json:"timestamp"` // when the record was written (pochi's later jobs)
	MessageID string  `json:"messageId"`
	Role      string  `json:"role"`
	Index     int     `json:"index"`
	Part      gemPart `json:"part"`
}

func readAISDKStream(name string, br *bufio.Reader) (*built, error) {
	type message struct {
		role  string
		parts map[int]gemPart
	}
	var order []string
	byID := map[string]*message{}
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var r aiSDKStreamRecord
		if err := json.Unmarshal(line, &r); err != nil && !tolerable(err) {
			return fmt.Errorf("message part: %w", err)
		}
		if r.Type != "message-part" || r.MessageID == "" || r.Index < 0 {
			return nil // metadata, or another record
		}
		m := byID[r.MessageID]
		if m == nil {
			m = &message{role: r.Role, parts: map[int]gemPart{}}
			byID[r.MessageID] = m
			order = append(order, r.MessageID)
		}
		// The part as it last stood, at the time it was first written: a call is made when
		// the model writes it, and rewritten as its input streams and its output comes.
		at := parseTime(r.Timestamp)
		if old, seen := m.parts[r.Index]; seen && old.at != 0 {
			at = old.at
		}
		r.Part.at = at
		m.parts[r.Index] = r.Part
		return nil
	})
	if err != nil {
		return nil, err
	}
	list := make([]msg, 0, len(order))
	for _, id := range order {
		m := byID[id]
		indexes := make([]int, 0, len(m.parts))
		for k := range m.parts {
			indexes = append(indexes, k)
		}
		slices.Sort(indexes)
		mm := msg{Role: m.role}
		for _, k := range indexes {
			p := m.parts[k]
			if p.Type == "" {
				p.Type = "text" // so that the message reads as the SDK's
			}
			mm.Parts = append(mm.Parts, p)
		}
		list = append(list, mm)
	}
	b := newBuilder(FormatMessages)
	addMessages(b, list, func(*msg) string { return MainAgent }, false)
	return withDamaged(b.done(), damaged), nil
}
