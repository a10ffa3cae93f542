package transcript

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Open Interpreter saves each conversation as one JSON list of its messages
// (conversations/<first words>__<Month>_<DD>_<YYYY>_<HH-MM-SS>.json), rewritten whole after
// every turn, without a system message or times. Two layouts:
//
//   - LMC messages (0.2 and later): {"role": "user" | "assistant" | "computer", "type":
//     "message" | "code" | "console" | "image", "format", "content"}. The code the model runs is
//     an assistant "code" message whose format names its language (python, shell, javascript,
//     ...); what running it printed comes after it as the computer's "console" messages
//     (format "output"), saved whole, one message for code that printed nothing. A computer
//     message with no code before it since anyone last spoke is the host speaking (the 01
//     server's scheduled reminders).
//   - 0.1.x: {"role", "message"}, and a code turn is one assistant entry holding its words,
//     "language", "code" and "output" together ("output" missing when the run was declined or
//     cut short).
//
// openInterpreterMessages turns such a list into the chat it stands for, each run of code a
// call of the tool "execute" (the function Open Interpreter gives models that call tools): a
// shell's code as {"language", "command"}, so that it is read as a command line, any other
// language's as {"language", "code"}. Nothing says whether code failed (no exit status is
// kept): its output says so, a traceback or a shell's complaint, as any result's text does.
// The message its loop mode sends in the user's place (oiLoopMessage) is the host's. Any other
// list is returned as it is.
func openInterpreterMessages(list []msg) []msg {
	lmc, old := false, false
	for i := range list {
		m := &list[i]
		switch {
		case m.Role == "assistant" && m.Type == "code" && m.Format != "", m.Role == "computer" && m.Type == "console":
			lmc = true
		case m.Role == "assistant" && m.Type == "" && m.Code != "" && m.Language != "":
			old = true
		}
	}
	if !lmc && !old {
		return list
	}
	out := make([]msg, 0, len(list)+len(list)/2)
	calls := 0
	call := func(language, code string) msg {
		calls++
		return msg{Role: "assistant", ToolCalls: []oaToolCall{{
			ID:       "oi-" + strconv.Itoa(calls),
			Function: oaFunction{Name: "execute", Arguments: oiArgs(language, code)},
		}}}
	}
	answering := -1 // the call whose output the computer's messages are, while nobody spoke since
	for _, m := range list {
		switch {
		case old && m.Role == "assistant" && m.Type == "" && m.Content == nil:
			// 0.1.x: words, code and output in one entry
			if m.Message != "" {
				out = append(out, msg{Role: "assistant", Content: m.Message})
			}
			if m.Code != "" {
				out = append(out, call(m.Language, m.Code))
				if m.Output != nil {
					out = append(out, msg{Role: "tool", ToolCallID: "oi-" + strconv.Itoa(calls), Content: contentText(m.Output)})
				}
			}
			answering = -1
		case old && m.Type == "" && m.Content == nil && m.Message != "":
			out = append(out, msg{Role: m.Role, Content: m.Message})
			answering = -1
		case m.Role == "assistant" && m.Type == "code":
			out = append(out, call(m.Format, contentText(m.Content)))
			answering = len(out) // the output, when it comes, goes here
		case m.Role == "computer":
			text := oiComputerText(&m)
			if answering >= 0 {
				if answering == len(out) {
					out = append(out, msg{Role: "tool", ToolCallID: "oi-" + strconv.Itoa(calls), Content: text})
				} else if prev := contentText(out[answering].Content); text != "" {
					// more of the same run's output (an image after the text)
					out[answering].Content = strings.TrimSuffix(prev, "\n") + "\n" + text
				}
				continue
			}
			// No code runs: the host speaks (a reminder it was asked to send).
			out = append(out, msg{Role: "user", Content: text, FromHarness: true})
		default:
			if m.Type == "image" {
				m.Content = "[image]"
			}
			said := msg{Role: m.Role, Content: m.Content}
			if m.Role == "user" && oiLoopMessage(contentText(m.Content)) {
				said.FromHarness = true
			}
			out = append(out, said)
			answering = -1
		}
	}
	return out
}

// oiLoopMessage says whether a user message is the one Open Interpreter sends in the user's
// place to keep a model going (its loop mode's "Proceed. You CAN run code on my machine. ...",
// the 01 server's "Did you need to run code? ..."): the host speaking, not a person.
func oiLoopMessage(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "Proceed. You CAN run code on my machine.") ||
		strings.HasPrefix(t, "Did you need to run code? It's okay if not, but please do if you did.")
}

// oiShells are the languages Open Interpreter runs as a shell's command lines.
var oiShells = map[string]bool{"shell": true, "bash": true, "sh": true, "zsh": true, "powershell": true}

// oiArgs are the arguments of a run of code in language, as JSON.
func oiArgs(language, code string) json.RawMessage {
	args := struct {
		Language string `json:"language"`
		Code     string `json:"code,omitempty"`
		Command  string `json:"command,omitempty"`
	}{Language: language}
	if oiShells[strings.ToLower(language)] {
		args.Command = strings.TrimSpace(code)
	} else {
		args.Code = strings.TrimSpace(code)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // a shell's '>' and '&' stay as written
	enc.Encode(args)         // cannot fail: strings only
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// oiComputerText is what a computer message shows the model: its text, or a mark for an image
// (base64 that would only weigh on the comparison of results).
func oiComputerText(m *msg) string {
	if m.Type == "image" {
		return "[image]"
	}
	return contentText(m.Content)
}
