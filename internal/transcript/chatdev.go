package transcript

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/loopguard/loopguard"
)

// ChatDev (OpenBMB's software company of role-playing agents) logs a run to one text file
// beside the software it writes, WareHouse/<project>/<project>.log, an entry at a time:
//
//	[2024-22-12 13:08:01 INFO] **[Preprocessing]**
//	...
//	**task_prompt**: Simple to-do app ...
//
//	[2024-22-12 13:09:28 INFO] Programmer: **Programmer<->Software Test Engineer on : TestErrorSummary, turn 0**
//
//	[ChatDev is a software company ... You are Software Test Engineer. ...]
//
//	<what the Programmer said>
//
//	[2024-22-12 13:09:36 INFO] **[Update Codes]**
//
//	tasks.py updated.
//	<a unified diff of the file>
//
//	[2024-22-12 13:09:39 INFO] **[Test Reports]**:
//
//	Traceback (most recent call last): ...
//
// The roles' messages are their words, each role an agent. ChatDev itself does the work the
// messages ask for, on the Programmer's behalf, so its writes and runs are the Programmer's
// calls: an "[Update Codes]" entry writes the file it names (write_file), answered by its
// diff, and a "[Test Reports]" entry is a run of the software (run_software), failed unless it
// is ChatDev's sentence of success ("The software run successfully without errors."). The
// bracketed paragraph that opens a message is the other role's prompt, said before every
// message alike, and is left out. The task prompt is the Programmer's user turn. The entry's
// time is the run's local time (read as UTC), written year, day, month. Other entries (the
// phases' prompts and parameters, usage, conclusions that repeat a message) are passed over.
//
// Written from real logs of OpenBMB/ChatDev's WareHouse, 2023 and 2024 (validation round r139c
// U1: two runs whose software failed six times alike were not read at all).

// chatdevEntry reads an entry's first line: its time and what follows it.
var chatdevEntry = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\[(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) INFO\] (.*)$`)
})

// chatdevMessage reads a role's message head: "Programmer: **Programmer<->Code Reviewer on :
// CodeReviewModification, turn 0**".
var chatdevMessage = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([^:*]+): \*\*[^*]*<->[^*]* on : ([^,*]+), turn \d+\*\*$`)
})

// chatdevSuccess is what ChatDev reports of a run of the software that raised nothing.
const chatdevSuccess = "The software run successfully without errors."

// chatdevProgrammer is the role whose code ChatDev writes and runs.
const chatdevProgrammer = "Programmer"

// isChatDevHead says whether a text opens as ChatDev's log: its first entry, the run's
// preprocessing, and ChatDev's banner.
func isChatDevHead(head []byte) bool {
	nl := bytes.IndexByte(head, '\n')
	if nl < 0 {
		return false
	}
	m := chatdevEntry().FindSubmatch(bytes.TrimRight(head[:nl], "\r"))
	return m != nil && string(m[2]) == "**[Preprocessing]**" && bytes.Contains(head, []byte("**ChatDev Starts**"))
}

func readChatDev(name string, br *bufio.Reader) (*built, error) {
	r := &chatdevReader{b: newBuilder(FormatChatDev)}
	err := eachLogRecord(name, br, chatdevEntry(), func(m, body []string) {
		if head := strings.TrimSpace(m[2]); head != "" {
			r.entry(m[1], head, strings.TrimSpace(strings.Join(body, "\n")))
		}
	})
	if err != nil {
		return nil, err
	}
	return r.b.done(), nil
}

// chatdevReader is readChatDev's state between entries.
type chatdevReader struct {
	b *builder
	// the last test report, while nothing else has happened since: ChatDev runs the software
	// a second time to decide whether the test cycle ends, seconds after the first run and
	// with no one acting between, and that check is not the Programmer's call made again
	lastReport string
}

// entry adds what one entry of the log says.
func (r *chatdevReader) entry(stamp, head, body string) {
	b := r.b
	ms := chatdevTime(stamp)
	if head == "**[Test Reports]**:" && body == r.lastReport {
		return // ChatDev's own second run of the same step (see lastReport)
	}
	switch {
	case head == "**[Preprocessing]**":
		for line := range strings.SplitSeq(body, "\n") {
			if task, ok := strings.CutPrefix(line, "**task_prompt**: "); ok {
				b.agent(chatdevProgrammer).user(strings.TrimSpace(task), ms)
			}
		}
	case head == "**[Update Codes]**":
		r.lastReport = ""
		file, diff, _ := strings.Cut(body, "\n")
		file = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(file), " updated."))
		b.agent(chatdevProgrammer).add(loopguard.Event{Type: loopguard.EventCall, Tool: "write_file",
			Args: marshalArgs(map[string]string{"path": file}), Result: strings.TrimSpace(diff), HasResult: true, Time: ms})
	case head == "**[Test Reports]**:":
		r.lastReport = body
		b.agent(chatdevProgrammer).add(loopguard.Event{Type: loopguard.EventCall, Tool: "run_software",
			Result: body, HasResult: true, Failed: body != chatdevSuccess, Time: ms})
	case head == "**[User Provided Comments]**":
		// A person's comment on the software, in ChatDev's human-agent interaction mode:
		// " In the #1 of total 5 comments: " over what they typed.
		if _, said, ok := strings.Cut(body, "comments:"); ok && strings.TrimSpace(said) != "" {
			r.lastReport = ""
			b.agent(chatdevProgrammer).user(strings.TrimSpace(said), ms)
		}
	default:
		if m := chatdevMessage().FindStringSubmatch(head); m != nil {
			if text := withoutRolePrompt(body); text != "" {
				r.lastReport = ""
				b.agent(strings.TrimSpace(m[1])).text("model", text, "", ms)
			}
		}
	}
}

// withoutRolePrompt returns a message without the bracketed prompt ChatDev writes before it
// ("[ChatDev is a software company ... ]" and a blank line).
func withoutRolePrompt(body string) string {
	if !strings.HasPrefix(body, "[") {
		return body
	}
	if end := strings.Index(body, "]\n\n"); end >= 0 {
		return strings.TrimSpace(body[end+3:])
	}
	if strings.HasSuffix(body, "]") {
		return "" // the prompt alone
	}
	return body
}

// chatdevTime reads an entry's time, year, day and month ("2024-22-12 13:08:01" is the 22nd
// of December), as Unix milliseconds; 0 when unreadable.
func chatdevTime(stamp string) int64 {
	if len(stamp) < len("2006-02-01") {
		return 0
	}
	return layoutMillis(time.DateTime, stamp[:5]+stamp[8:10]+stamp[7:8]+stamp[5:7]+stamp[10:])
}
