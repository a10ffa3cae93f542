package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// AI Inventor (an automated research system whose runs commit their agents' work to public
// repositories, chat/messages/**.md) writes each agent task as a "full, verbatim transcript":
// numbered sections under a heading of their kind, each holding a fenced block.
//
//	## Task: `gen_viz_2` (terminal_claude_agent, claude-sonnet-5)
//
//	### [1] CONFIG · 2026-08-20 21:12:20 UTC
//	### [3] HUMAN-USER prompt · 2026-08-20 21:12:28 UTC
//	### [4] TOOL CALL — Bash · 2026-08-20 21:12:32 UTC
//	### [5] TOOL RESULT — Bash · 2026-08-20 21:12:32 UTC
//	### [57] TOOL RESULT — WebSearch [ERROR] · 2026-08-20 20:09:59 UTC
//
// A TOOL CALL is a call (its block the arguments: JSON, or a command's text), a TOOL RESULT the
// answer to the oldest call of its tool not answered yet (calls made together are answered
// together), failed when its heading says [ERROR] (or OpenHands' record of it says is_error);
// the answer is the text the record holds (aiInventorResult). A HUMAN-USER or SYSTEM-USER prompt is a
// user turn; ASSISTANT and THINKING the model's words. The task's agent restarts on a retry: each
// CONFIG opens a session. The system prompt, hooks and retries' notes are the harness's. The
// agents are Claude Code and OpenHands' software agent SDK, in the same rendering.
//
// Written from ten real transcripts (validation round r117a U1).

// aiInventorHeading reads a section's heading: its number, its kind, the tool it names and its
// error mark, and its time.
var aiInventorHeading = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^### \[(\d+)\] ([A-Z][A-Z -]*?[a-z]*)(?: \(attempt \d+\))?(?: — (\S+?)( \[ERROR\])?)? · (.+)$`)
})

// isAIInventorHead says whether a document's head is such a transcript: a task's heading and a
// numbered section.
func isAIInventorHead(head []byte) bool {
	return bytes.Contains(head, []byte("\n## Task: `")) && bytes.Contains(head, []byte("\n### [1] CONFIG · "))
}

func readAIInventor(name string, br *bufio.Reader) (*built, error) {
	lines, err := readMarkdownLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatAIInventor)
	var a *agentBuf
	type pending struct {
		idx  int
		tool string
	}
	var waiting []pending
	sessions := 0
	// The calls of one reply (Event.Turn) are headed one after the other before any answer,
	// or, where the harness answers each at once, call and answer in turn under one time,
	// with none of the model's words between (a reply's words come before its calls). Four
	// commands of one reply refused at once were told as one command failing four times in a
	// row (validation round r125a F1).
	replies, lastCall, spoke, callTime := 0, false, false, ""
	for i := 0; i < len(lines); i++ {
		m := aiInventorHeading().FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		kind, tool, failed := strings.TrimSpace(m[2]), m[3], m[4] != ""
		body, next := aiInventorBlock(lines, i+1)
		i = next - 1
		call := kind == "TOOL CALL"
		if call && !lastCall && (spoke || m[5] != callTime) {
			replies++
		}
		if call {
			callTime, spoke = m[5], false
		}
		lastCall = call
		spoke = spoke || kind == "ASSISTANT" || kind == "THINKING" || strings.HasSuffix(kind, "prompt") || kind == "CONFIG"
		if kind == "CONFIG" {
			if a != nil && len(a.events) > 0 {
				sessions++
				b.session = sessions
			}
			a, waiting = b.agent(MainAgent), nil
			continue
		}
		if a == nil {
			a = b.agent(MainAgent)
		}
		switch kind {
		case "HUMAN-USER prompt", "SYSTEM-USER prompt":
			a.user(body, 0)
		case "ASSISTANT", "THINKING":
			a.said(body)
		case "TOOL CALL":
			e := loopguard.Call("", tool, jsonOrInput(body))
			e.Turn = "reply-" + strconv.Itoa(replies)
			idx := a.add(e)
			waiting = append(waiting, pending{idx, tool})
		case "TOOL RESULT":
			text, isError := aiInventorResult(body)
			for k, p := range waiting {
				if p.tool == tool {
					waiting = append(waiting[:k], waiting[k+1:]...)
					e := &a.events[p.idx]
					*e = e.WithResult(text, failed || isError)
					break
				}
			}
		}
	}
	if a == nil {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no AI Inventor section", ErrUnknownFormat)}
	}
	t := b.done()
	t.Sessions = sessions + 1
	return t, nil
}

// aiInventorBlock returns the content of the fenced block of the section whose body starts at
// lines[i] ("_(empty)_" for none), and the index of the next section's heading.
func aiInventorBlock(lines []string, i int) (string, int) {
	end := i
	for end < len(lines) && !aiInventorHeading().MatchString(lines[end]) {
		end++
	}
	body := lines[i:end]
	// The block is the section's: its opening fence the first line that opens one, its close
	// the last line that closes it (a tool's output may hold fences of its own).
	open, first := 0, -1
	for k, l := range body {
		if open = nextFence(0, strings.TrimSpace(l)); open > 0 {
			first = k
			break
		}
	}
	if first < 0 {
		return strings.TrimSpace(strings.Join(body, "\n")), end
	}
	fence := strings.Repeat("`", open)
	for k := len(body) - 1; k > first; k-- {
		if strings.TrimSpace(body[k]) == fence {
			return strings.Join(body[first+1:k], "\n"), end
		}
	}
	return strings.Join(body[first+1:], "\n"), end
}

// aiInventorResult is what a tool answered, out of the record the transcript keeps: OpenHands'
// SDK's observation ({"content": [{"type": "text", "text": ...}], "is_error": ...}) is its
// texts, failed when is_error is true or, for a terminal's, its exit_code is above 0 (30
// commands of eight runs that exited 1 or 143, ModuleNotFoundError and "Validation FAILED"
// among them, were read as successes: validation round r125a U1); Claude Code's Bash result
// ({"stdout", "stderr", ...}) its output; any other block is the answer as written. Left as JSON, each answer's text would sit
// among fields that say nothing (cache_prompt), escaped.
func aiInventorResult(body string) (string, bool) {
	t := strings.TrimSpace(body)
	if !strings.HasPrefix(t, "{") {
		return body, false
	}
	var r struct {
		Content *[]struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError  bool    `json:"is_error"`
		ExitCode *int    `json:"exit_code"`
		Stdout   *string `json:"stdout"`
		Stderr   string  `json:"stderr"`
	}
	if json.Unmarshal([]byte(t), &r) != nil {
		return body, false
	}
	switch {
	case r.Content != nil:
		var texts []string
		for _, c := range *r.Content {
			if c.Type == "text" {
				texts = append(texts, c.Text)
			}
		}
		// A terminal's exit code says a command failed where is_error does not; -1 is no code
		// yet (a command still running when the call returned, or stopped for its time).
		return strings.Join(texts, "\n"), r.IsError || r.ExitCode != nil && *r.ExitCode > 0
	case r.Stdout != nil:
		return strings.TrimRight(strings.Join([]string{*r.Stdout, r.Stderr}, "\n"), "\n"), false
	}
	return body, false
}
