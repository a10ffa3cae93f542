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

// browser-use prints a run to its console through Python's logging, a record a line ("INFO
// [agent] ..."), and people keep that output in notes and issues. Two layouts:
//
//	INFO     [agent] 📍 Step 3                                  (releases of 2025, 0.1 to 0.5)
//	INFO     [agent] 👍 Eval: Success - Accepted cookies on Google.
//	INFO     [agent] 🧠 Memory: Step 2/100: Accepted cookies.
//	INFO     [agent] 🎯 Next goal: Enter the search query.
//	INFO     [agent] 🛠️  Action 1/2: {"input_text":{"index":7,"text":"spanish restaurant Zurich"}}
//	INFO     [controller] ⌨️  Input spanish restaurant Zurich into index 7
//
//	INFO     [Agent] 📍 Step 12:                                (0.7 and after)
//	INFO     [Agent]   👍 Eval: ... Verdict: Failure (goal not achieved)
//	INFO     [Agent]   🎯 Next goal: ...
//	INFO     [Agent]   🦾 [ACTION 1/2] input_text: index: 5, text: recipes, clear_existing: True
//	INFO     [BrowserSession] ⌨️ Typed "recipes" into element with index 5
//
// A step is one reply of agent main: its eval, memory, thinking and next goal are its words; an
// action is a call (the one key of its JSON and the value under it, or the name and its
// "key: value" list as printed, which the log may cut); the records of the controller or the
// tools after an action (and the lines printed under them) answer it, oldest first, but for an
// action on the page (a navigation, click, typing, scroll), whose acknowledgement does not
// show what it brought: its outcome is on the page, which the log does not keep, and is left
// unknown unless it failed. An
// "❌ Result failed" error is the step failing: its action answered by that failure. The task
// ("🚀 Starting task: ...", "🚀 Task: ...") is the user's turn, and opens a session of its own
// when a run came before it in the log. Other records (the browser's, socket servers')
// are passed over. The log keeps no time.
//
// Written from real console logs of browser-use 0.1 and 0.7 runs (validation round r142c U3:
// both layouts were no transcript).

// browserUseRecord reads a logging record: its level, its logger and its message.
var browserUseRecord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(DEBUG|INFO|WARNING|ERROR|CRITICAL) +\[([\w.]+)\] ?(.*)$`)
})

// browserUseStep reads a step's opening: "📍 Step 3", "📍 Step 12:".
var browserUseStep = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\S*\s*Step (\d+):?$`) })

// browserUseAction reads an action: `🛠️  Action 1/2: {...}` or `🦾 [ACTION 1/2] name: args`.
var browserUseAction = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|\s)(?:Action \d+/\d+: (\{.*)|\[ACTION \d+/\d+\] (\w+):? ?(.*))$`)
})

// browserUseWords are the labels of a step's words.
var browserUseWords = []string{"Eval:", "Memory:", "Next goal:", "Thinking:", "Evaluation:"}

// isBrowserUseLogHead says whether a text's head holds browser-use's console output: an agent's
// step and an action of it.
func isBrowserUseLogHead(head []byte) bool {
	if !bytes.Contains(head, []byte("gent] ")) || !bytes.Contains(head, []byte("Step ")) {
		return false // most text: one look
	}
	steps, actions := 0, 0
	for line := range bytes.SplitSeq(head, []byte("\n")) {
		m := browserUseRecord().FindSubmatch(bytes.TrimRight([]byte(renderTerminalLine(line)), " "))
		if m == nil || !strings.EqualFold(string(m[2]), "agent") {
			continue
		}
		msg := strings.TrimSpace(string(m[3]))
		switch {
		case browserUseStep().MatchString(msg):
			steps++
		case steps > 0 && browserUseAction().MatchString(msg):
			actions++
		}
		if actions > 0 {
			return true
		}
	}
	return false
}

func readBrowserUseLog(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	r := &browserUseReader{b: newBuilder(FormatBrowserUseLog)}
	r.a = r.b.agent(MainAgent)
	var logger, msg string
	var more []string
	for _, line := range lines {
		if m := browserUseRecord().FindStringSubmatch(strings.TrimRight(line, " ")); m != nil {
			r.record(logger, msg, more)
			logger, msg, more = m[2], m[3], more[:0]
			if m[1] == "ERROR" && strings.EqualFold(logger, "agent") {
				// the agent's word that a step failed; another logger's error (the browser
				// protocol's, "[cdp_use.client]") is the browser's, which the action got over
				logger = "error:" + logger
			}
			continue
		}
		more = append(more, line)
	}
	r.record(logger, msg, more)
	r.said()
	t := r.b.done()
	t.Sessions = r.b.session + 1
	return t, nil
}

type browserUseReader struct {
	b       *builder
	a       *agentBuf
	step    int
	words   []string // the step's words so far
	waiting []int    // the step's calls not answered yet, oldest first
}

// said adds the step's words gathered so far, as one text.
func (r *browserUseReader) said() {
	if len(r.words) > 0 {
		r.a.said(strings.Join(r.words, "\n"))
		r.words = r.words[:0]
	}
}

// record reads one logging record of logger (prefixed "error:" for an ERROR record).
func (r *browserUseReader) record(logger, msg string, more []string) {
	msg = strings.TrimSpace(msg)
	if logger == "" || msg == "" && len(more) == 0 {
		return
	}
	isAgent := strings.EqualFold(logger, "agent")
	task, opensRun := browserUseTask(msg)
	switch {
	case isAgent && browserUseStep().MatchString(msg):
		r.said()
		r.step++
		r.waiting = nil
	case isAgent && opensRun:
		// a run opens: a session of its own when one ran before it in the log
		r.said()
		if r.step > 0 {
			r.b.session++
			r.a = r.b.agent(MainAgent)
			r.step, r.waiting = 0, nil
		}
		if len(more) > 0 {
			task = strings.TrimSpace(task + "\n" + strings.Join(more, "\n")) // the task's further lines
		}
		if task != "" {
			r.a.user(task, 0)
		}
	case isAgent && browserUseAction().MatchString(msg):
		r.said()
		m := browserUseAction().FindStringSubmatch(msg)
		tool, args := "action", []byte(nil)
		if m[1] != "" {
			var obj map[string]json.RawMessage
			if json.Unmarshal([]byte(m[1]), &obj) == nil && len(obj) == 1 {
				for k, v := range obj {
					tool, args = k, rawArgs(v)
				}
			} else {
				args = []byte(m[1])
			}
		} else {
			tool = m[2]
			if p := strings.TrimSpace(m[3]); p != "" {
				args = marshalArgs(map[string]string{"params": p})
			}
		}
		call := loopguard.Call("", tool, args)
		call.Turn = "step " + strconv.Itoa(r.step) // the actions of one step are one reply
		r.waiting = append(r.waiting, r.a.add(call))
	case isAgent && browserUseStepWords(msg) != "":
		r.words = append(r.words, browserUseStepWords(msg))
	case strings.HasPrefix(logger, "error:") && len(r.waiting) > 0:
		idx := r.waiting[0]
		r.waiting = r.waiting[1:]
		failure := strings.TrimSpace(strings.Join(append([]string{msg}, more...), "\n"))
		r.a.events[idx] = r.a.events[idx].WithResult(failure, true)
	case !isAgent && !strings.HasPrefix(logger, "error:") && browserUseAnswers(logger) && len(r.waiting) > 0:
		idx := r.waiting[0]
		r.waiting = r.waiting[1:]
		answer := msg
		if len(more) > 0 {
			answer = strings.TrimRight(msg+"\n"+strings.Join(more, "\n"), "\n ")
		}
		failed := strings.HasPrefix(strings.TrimLeft(answer, "❌ "), "Error")
		if !failed && browserUseActsOnPage(r.a.events[idx].Tool) {
			// What a browser action did is on the page, which the log does not show: its
			// acknowledgement ("Navigated back to ...", "Clicked element with index 6",
			// "Scrolled down the page by one page") says it ran, not what it brought, and
			// its answer is left unknown, as a computer-use action's is. Known, a sweep of
			// articles, back to the list after each, was "go_back × 3".
			return
		}
		r.a.events[idx] = r.a.events[idx].WithResult(strings.TrimSpace(answer), failed)
	}
}

// browserUseActsOnPage says whether a browser-use action acts on the page (navigates, clicks,
// types, scrolls, switches tabs) rather than reading something back (extracting content,
// reading or writing a file).
func browserUseActsOnPage(tool string) bool {
	for _, w := range [...]string{"click", "scroll", "go_back", "go_forward", "go_to_url", "navigate", "input_text", "send_keys", "switch_tab", "open_tab", "close_tab", "hover", "select_dropdown", "search_google"} {
		if strings.Contains(tool, w) {
			return true
		}
	}
	return false
}

// browserUseTaskLabels open a run's task: "🚀 Starting task: ..." in releases 0.1 to 0.5,
// "🚀 Task: ..." after.
var browserUseTaskLabels = [...]string{"Starting task:", "🚀 Task:"}

// browserUseTask returns the task of a record that opens a run, and whether the record does
// (its task may be on the lines under it).
func browserUseTask(msg string) (string, bool) {
	for _, label := range browserUseTaskLabels {
		if i := strings.Index(msg, label); i >= 0 && i <= 8 {
			return strings.TrimSpace(msg[i+len(label):]), true
		}
	}
	return "", false
}

// browserUseStepWords returns a record's words of the step (its eval, memory, thinking or next
// goal, with the label), or "" when it is none of them.
func browserUseStepWords(msg string) string {
	for _, label := range browserUseWords {
		if i := strings.Index(msg, label); i >= 0 && i <= 12 {
			return strings.TrimSpace(msg[i:])
		}
	}
	return ""
}

// browserUseAnswers says whether a logger's records answer the actions: the controller's, the
// tools' and the browser session's (not a socket server's or the browser's own).
func browserUseAnswers(logger string) bool {
	switch strings.ToLower(logger) {
	case "controller", "tools", "browsersession", "browser_use.controller.service", "browser_use.tools.service":
		return true
	}
	return false
}
