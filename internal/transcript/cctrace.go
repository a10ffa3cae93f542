package transcript

import (
	"bufio"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// cctrace (a tool that exports Claude Code sessions) writes a session as Markdown under the
// title "# Claude Code Session Export":
//
//	**[2025-07-02 21:56:17]**
//
//	### 🤖 Assistant (claude-opus-4-20250514)
//
//	🔧 **Tool Use: WebSearch** (ID: toolu_018AXs…)
//	```json
//	{"query": "..."}
//	```
//
//	---
//
//	**[2025-07-02 21:56:17]**
//
//	### 👤 User
//
//	📊 **Tool Result:**
//	```
//	Web search results for query: ...
//	```
//
// A message opens with a "### 👤 User" or "### 🤖 Assistant" heading after its time. In an
// assistant message a "🔧 **Tool Use: NAME**" line and the JSON block after it are a call;
// "<details>" headed "Internal Reasoning" is the model's thinking; the rest its words. In a
// user message "📊 **Tool Result:**" and the block after it answer the oldest call waiting
// (the export keeps no result ids); a user message holding no result is a user turn. A
// result's block can hold fences of its own (a search result quoting a code block), so it runs
// to its message's last closing fence. The export keeps no failure flag: a result is failed
// when it reads as one (Claude Code's own refusals, such as "File has not been read yet",
// are only text here).

// ccTraceTitle opens a cctrace export.
const ccTraceTitle = "# Claude Code Session Export"

var (
	ccTraceHeading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^### (👤 User|🤖 Assistant)\b`) })
	ccTraceToolUse = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^🔧 \*\*Tool Use: ([^*]+)\*\*`) })
)

const ccTraceResult = "📊 **Tool Result:**"

// ccTraceRefusals are Claude Code's answers to a call it would not run, which a cctrace export
// keeps as plain text.
var ccTraceRefusals = []string{"File has not been read yet", "File has been modified since read",
	"String to replace not found", "Found 2 matches of the string to replace", "<tool_use_error>"}

func readCCTrace(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	data = lfLines(data)
	b := newBuilder(FormatClaudeCodeMarkdown)
	a := b.agent(MainAgent)
	var waiting []int
	for _, m := range ccTraceMessages(string(data)) {
		if m.user {
			results := ccTraceResults(m.body)
			if len(results) == 0 {
				if text := strings.TrimSpace(m.body); text != "" {
					waiting = waiting[:0]
					a.user(text, 0)
				}
				continue
			}
			for _, r := range results {
				if len(waiting) == 0 {
					break
				}
				e := &a.events[waiting[0]]
				waiting = waiting[1:]
				e.Result, e.HasResult, e.Failed = r, true, ccTraceRefused(r)
			}
			continue
		}
		waiting = append(waiting, ccTraceAssistant(a, m.body)...)
	}
	return b.done(), nil
}

type ccTraceMessage struct {
	user bool
	body string
}

// ccTraceMessages splits an export into its messages: a heading line opens one wherever it
// stands, since the fences inside results do not always pair.
func ccTraceMessages(s string) []ccTraceMessage {
	var out []ccTraceMessage
	var body []string
	cur := -1
	flush := func() {
		if cur >= 0 {
			out[cur].body = strings.Join(body, "\n")
		}
		body = body[:0]
	}
	for _, line := range strings.Split(s, "\n") {
		if m := ccTraceHeading().FindStringSubmatch(line); m != nil {
			flush()
			out = append(out, ccTraceMessage{user: strings.HasPrefix(m[1], "👤")})
			cur = len(out) - 1
			continue
		}
		if cur >= 0 {
			body = append(body, line)
		}
	}
	flush()
	// A message's body ends with the rule and the time line of the next one.
	for i := range out {
		out[i].body = ccTraceTrimTail(out[i].body)
	}
	return out
}

var ccTraceTime = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\n---\s*\n+\*\*\[[^\]]*\]\*\*\s*$`) })

func ccTraceTrimTail(body string) string {
	body = strings.TrimRight(body, " \t\r\n")
	if loc := ccTraceTime().FindStringIndex(body); loc != nil {
		body = body[:loc[0]]
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimRight(body, " \t\r\n"), "---"))
}

// ccTraceResults returns the results a user message holds, in order: what follows each "📊
// **Tool Result:**" line up to the next, without the fence around it.
func ccTraceResults(body string) []string {
	parts := strings.Split(body, ccTraceResult)
	if len(parts) < 2 {
		return nil
	}
	var out []string
	for _, p := range parts[1:] {
		p = strings.TrimSpace(p)
		if strings.HasPrefix(p, "```") {
			if nl := strings.IndexByte(p, '\n'); nl >= 0 {
				p = p[nl+1:]
			} else {
				p = ""
			}
			if end := strings.LastIndex(p, "```"); end >= 0 {
				p = p[:end]
			}
		}
		out = append(out, strings.TrimSpace(p))
	}
	return out
}

// ccTraceAssistant reads an assistant message's thinking, words and calls, and returns the
// indexes of its calls.
func ccTraceAssistant(a *agentBuf, body string) []int {
	var calls []int
	var words []string
	say := func() {
		if text := strings.TrimSpace(strings.Join(words, "\n")); text != "" {
			a.text("model", text, "", 0)
		}
		words = words[:0]
	}
	lines := strings.Split(body, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "<details>") && i+1 < len(lines) && strings.Contains(lines[i+1], "Internal Reasoning"):
			say()
			var thought []string
			for i += 2; i < len(lines) && strings.TrimSpace(lines[i]) != "</details>"; i++ {
				if t := strings.TrimSpace(lines[i]); !strings.HasPrefix(t, "```") {
					thought = append(thought, lines[i])
				}
			}
			a.text("thinking", strings.TrimSpace(strings.Join(thought, "\n")), "", 0)
		case ccTraceToolUse().MatchString(line):
			say()
			tool := strings.TrimSpace(ccTraceToolUse().FindStringSubmatch(line)[1])
			var args []string
			if i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "```") {
				for i += 2; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
					args = append(args, lines[i])
				}
			}
			calls = append(calls, a.add(loopguard.Call("", tool, []byte(strings.TrimSpace(strings.Join(args, "\n"))))))
		default:
			words = append(words, line)
		}
	}
	say()
	return calls
}

// ccTraceRefused says whether a result is Claude Code refusing the call or reporting it failed.
func ccTraceRefused(result string) bool {
	for _, r := range ccTraceRefusals {
		if strings.HasPrefix(result, r) {
			return true
		}
	}
	return strings.HasPrefix(result, "Error:") || strings.HasPrefix(result, "Error ")
}
