package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"

	"github.com/loopguard/loopguard"
)

// Gemini CLI's `/chat share <file>.md` writes the conversation as Markdown: each turn a
// heading with its role in capitals and an emoji ("## USER 🧑‍💻", "## MODEL ✨"; earlier
// releases put the emoji first, "✨ ## MODEL"), the turns joined by "---" rules. A turn is its
// parts written one after another with nothing between them: text as it is, a function call as
//
//	**Tool Command**:
//	```json
//	{"id": "read_file-1768093682440-e91f688c3263c", "name": "read_file", "args": {...}}
//	```
//
// (indented JSON; releases before mid-2025 wrote no id), and a function's answer, in a USER
// turn, as "**Tool Response**:" and {"id", "name", "response": {"output": ...}} or {...,
// "response": {"error": ...}}.
//
//   - a MODEL turn is one reply: its text the model's words, each Tool Command a call;
//   - a Tool Response answers the call with its id, else the oldest call of its name still
//     waiting, else the oldest call waiting; "error" in its response makes the call failed,
//     "output" is the answer (the response as written when it has neither);
//   - a USER turn's text is the user's, but for the context Gemini CLI sends first ("This is
//     the Gemini CLI. We are setting up the context for our chat.", a <session_context>),
//     which is the harness's; the files a user message includes with @ ("--- Content from
//     referenced files ---" to "--- End of content ---") are its text, whatever headings or
//     blocks they hold (an earlier chat's export, included so, is not this chat).
//
// JSON.stringify writes no line break inside a string, so a block's JSON ends at the first
// line that is its fence: a command's text holding backticks does not end it early.

const (
	geminiMDCommand  = "**Tool Command**:\n```json\n"
	geminiMDResponse = "**Tool Response**:\n```json\n"
	// Gemini CLI writes the files a user message names with @ into it between these lines:
	// an earlier chat's export included so (validation round r73a U1) is text, its headings
	// and blocks none of this chat's.
	geminiMDQuoteStart = "--- Content from referenced files ---"
	geminiMDQuoteEnd   = "--- End of content ---"
)

// geminiMDHeading returns the role of a turn's heading line ("user" or "model"), or "".
func geminiMDHeading(line string) string {
	t := strings.TrimSpace(line)
	if i := strings.Index(t, "## "); i > 0 && i <= 16 && !strings.ContainsFunc(t[:i], isLetterOrDigit) {
		t = t[i:] // the emoji first, as earlier releases wrote it
	}
	rest, ok := strings.CutPrefix(t, "## ")
	if !ok {
		return ""
	}
	for _, role := range []string{"USER", "MODEL"} {
		if tail, ok := strings.CutPrefix(rest, role); ok && (tail == "" || tail[0] == ' ' && !strings.ContainsFunc(tail, isLetterOrDigit)) {
			return strings.ToLower(role)
		}
	}
	return ""
}

func isLetterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// isGeminiMarkdownHead says whether a text opens as a Gemini CLI chat shared as Markdown: a
// turn's heading first, and a MODEL turn or a function call in the head.
func isGeminiMarkdownHead(head []byte) bool {
	// Every file's head is sniffed: a heading opens with '#', or with an emoji (a byte above
	// 0x7f) in earlier releases, which rules most files out at the first byte.
	if len(head) == 0 || head[0] != '#' && head[0] < 0x80 {
		return false
	}
	first, _, _ := bytes.Cut(head, []byte("\n"))
	if geminiMDHeading(string(first)) == "" {
		return false
	}
	return bytes.Contains(head, []byte(geminiMDCommand)) || bytes.Contains(head, []byte("## MODEL"))
}

type geminiMDTurn struct {
	role string
	text string
}

// geminiMDTurns splits the lines into turns: a heading opens one at the start or after a
// rule, and that rule is no part of the turn before.
func geminiMDTurns(lines []string) []geminiMDTurn {
	var turns []geminiMDTurn
	var buf []string
	role := ""
	flush := func() {
		if role != "" {
			// the rule that joins this turn to the next, and the blank lines around it
			for len(buf) > 0 && strings.TrimSpace(buf[len(buf)-1]) == "" {
				buf = buf[:len(buf)-1]
			}
			if len(buf) > 0 && strings.TrimSpace(buf[len(buf)-1]) == "---" {
				buf = buf[:len(buf)-1]
			}
			turns = append(turns, geminiMDTurn{role, strings.TrimSpace(strings.Join(buf, "\n"))})
		}
		buf = buf[:0]
	}
	afterRule := true // the file's start counts as one
	quoted := false   // inside the files a user message includes (@file): their text as is
	for _, line := range lines {
		t := strings.TrimSpace(line)
		switch t {
		case geminiMDQuoteStart:
			quoted = true
		case geminiMDQuoteEnd:
			quoted = false
		}
		if r := geminiMDHeading(line); r != "" && afterRule && !quoted {
			flush()
			role = r
			afterRule = false
			continue
		}
		if t != "" {
			afterRule = t == "---"
		}
		buf = append(buf, line)
	}
	flush()
	return turns
}

// geminiMDBlocks splits a turn's text at its blocks of the given mark: the text before each,
// and each block's JSON; rest is the text after the last.
func geminiMDBlocks(text, mark string) (texts []string, blocks []string, rest string) {
	for {
		i := strings.Index(text, mark)
		if i < 0 {
			return texts, blocks, text
		}
		body := text[i+len(mark):]
		end := strings.Index(body, "\n```")
		if end < 0 {
			end = len(body)
		}
		texts = append(texts, text[:i])
		blocks = append(blocks, body[:end])
		text = body[min(end+len("\n```"), len(body)):]
	}
}

type geminiMDCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type geminiMDAnswer struct {
	ID       string                     `json:"id"`
	Name     string                     `json:"name"`
	Response map[string]json.RawMessage `json:"response"`
}

func readGeminiMarkdown(name string, br *bufio.Reader) (*built, error) {
	lines, err := readMarkdownLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatGeminiMarkdown)
	a := b.agent(MainAgent)
	type waiting struct {
		idx      int
		id, name string
	}
	var pending []waiting
	for n, turn := range geminiMDTurns(lines) {
		if turn.role == "model" {
			texts, blocks, rest := geminiMDBlocks(turn.text, geminiMDCommand)
			for k, block := range blocks {
				a.text("model", strings.TrimSpace(texts[k]), "", 0)
				var c geminiMDCall
				if json.Unmarshal([]byte(block), &c) != nil || c.Name == "" {
					// A block that is no call's JSON: the model's words as written.
					a.text("model", geminiMDCommand+block+"\n```", "", 0)
					continue
				}
				call := loopguard.Call("", c.Name, rawArgs(c.Args))
				call.Turn = "t" + strconv.Itoa(n)
				call.Time = gemCallIDTime(c.ID)
				pending = append(pending, waiting{a.add(call), c.ID, c.Name})
			}
			a.text("model", strings.TrimSpace(rest), "", 0)
			continue
		}
		own, included := geminiMDIncluded(turn.text)
		texts, blocks, rest := geminiMDBlocks(own, geminiMDResponse)
		var said []string
		for k, block := range blocks {
			said = append(said, texts[k])
			var r geminiMDAnswer
			if json.Unmarshal([]byte(block), &r) != nil {
				said = append(said, geminiMDResponse+block+"\n```")
				continue
			}
			at := -1
			for j, w := range pending {
				if r.ID != "" && w.id == r.ID {
					at = j
					break
				}
			}
			for j, w := range pending {
				if at < 0 && w.name == r.Name {
					at = j
				}
			}
			if at < 0 && len(pending) > 0 {
				at = 0
			}
			result, failed := geminiMDResult(r.Response)
			if at < 0 {
				// An answer to no call read: the call is not in the file.
				a.text("tool", result, "", 0)
				continue
			}
			gemAnswer(&a.events[pending[at].idx], result, failed, r.ID)
			pending = append(pending[:at], pending[at+1:]...)
		}
		said = append(said, rest, included)
		text := strings.TrimSpace(strings.Join(said, ""))
		if strings.HasPrefix(text, "This is the Gemini CLI. We are setting up the context") ||
			strings.HasPrefix(text, "<session_context>") {
			a.text("system", text, "", 0)
			continue
		}
		if text != "" {
			a.user(text, 0)
		}
	}
	return b.done(), nil
}

// geminiMDIncluded takes out of a user turn's text the files it includes (between
// geminiMDQuoteStart and geminiMDQuoteEnd, or to the end when the last is not closed): own
// is the rest, whose blocks are answers, and included the files' text.
func geminiMDIncluded(text string) (own, included string) {
	var o, in strings.Builder
	for {
		i := strings.Index(text, geminiMDQuoteStart)
		if i < 0 {
			o.WriteString(text)
			return o.String(), in.String()
		}
		o.WriteString(text[:i])
		rest := text[i:]
		end := strings.Index(rest, geminiMDQuoteEnd)
		if end < 0 {
			in.WriteString(rest)
			return o.String(), in.String()
		}
		end += len(geminiMDQuoteEnd)
		in.WriteString(rest[:end])
		text = rest[end:]
	}
}

// geminiMDResult is what a function's response says: its error (failed) or output as text,
// else the response as written.
func geminiMDResult(resp map[string]json.RawMessage) (string, bool) {
	if e, ok := resp["error"]; ok && len(e) > 0 && string(e) != "null" {
		return jsonText(e), true
	}
	if o, ok := resp["output"]; ok {
		return jsonText(o), false
	}
	if resp == nil {
		return "", false
	}
	return string(marshalArgs(resp)), false
}
