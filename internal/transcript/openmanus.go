package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// OpenManus (2025) logs a run with loguru, one record a line, a record's further lines under
// it unprefixed:
//
//	2025-03-25 21:01:50.594 | INFO     | app.agent.base:run:140 - Executing step 1/20
//	2025-03-25 21:01:54.447 | INFO     | app.agent.toolcall:think:80 - ✨ Manus's thoughts: I will search
//	2025-03-25 21:01:54.447 | INFO     | app.agent.toolcall:think:81 - 🛠️ Manus selected 1 tools to use
//	2025-03-25 21:01:54.448 | INFO     | app.agent.toolcall:think:85 - 🧰 Tools being prepared: ['browser_use']
//	2025-03-25 21:01:54.448 | INFO     | app.agent.toolcall:think:88 - 🔧 Tool arguments: {"action":"web_search","query":"..."}
//	2025-03-25 21:01:57.206 | INFO     | app.agent.toolcall:act:149 - 🎯 Tool 'browser_use' completed its mission! Result: Observed output of cmd `browser_use` executed:
//	Error: Browser action 'web_search' failed: ...
//
// Each step is a turn of the agent named in its thoughts ("Manus"): the harness prompts it
// ("Executing step N/M", read as the harness's words, so that a step whose reply makes no call
// is a turn of its own), its thoughts are its words, each tool prepared is a call with the
// arguments logged for it in order, and a tool's "completed its mission! Result:" answers the
// oldest call of that tool, failed when the output opens with "Error". OpenManus's own loop
// warning ("Agent detected stuck state. Added prompt: ...") is the harness's words too. Other
// records (token counts, browser state, debugging) are passed over.
//
// Written from real logs of OpenManus runs of March 2025 (validation round r142c U2: such logs
// were no transcript, and runs that restated one reply for fifteen steps went unread).

// openmanusRecord reads a loguru record's first line: its time, its level and its message.
var openmanusRecord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}) \| ([A-Z]+) *\| [\w.<>]+:[\w<>]+:\d+ - (.*)$`)
})

// openmanusThoughts reads the agent's thoughts: "✨ Manus's thoughts: ...".
var openmanusThoughts = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^✨ (.+?)'s thoughts:\s?(.*)$`) })

// isOpenManusHead says whether a text holds OpenManus's log in its head: a loguru record, and a
// step of its agent.
func isOpenManusHead(head []byte) bool {
	if !bytes.Contains(head, []byte("app.agent.base:run:")) || !bytes.Contains(head, []byte(" - Executing step ")) {
		return false
	}
	// A terminal's copy may open with the shell's prompt or a banner before the first record
	// (validation round r143a U1).
	for line := range bytes.SplitSeq(head, []byte("\n")) {
		if openmanusRecord().Match(bytes.TrimRight(line, "\r")) {
			return true
		}
	}
	return false
}

func readOpenManus(name string, br *bufio.Reader) (*built, error) {
	r := &openmanusReader{b: newBuilder(FormatOpenManus)}
	err := eachLogRecord(name, br, openmanusRecord(), func(m, more []string) { r.record(m[1], m[3], more) })
	if err != nil {
		return nil, err
	}
	return r.b.done(), nil
}

type openmanusReader struct {
	b       *builder
	a       *agentBuf
	tools   []string // the tools prepared in the step, waiting for their arguments
	waiting []int    // the calls made, waiting for their results, oldest first
}

// agent is the agent of the run: the one named in its thoughts, "Manus" until then.
func (r *openmanusReader) agent() *agentBuf {
	if r.a == nil {
		r.a = r.b.agent("Manus")
	}
	return r.a
}

// record reads one loguru record.
func (r *openmanusReader) record(stamp, msg string, more []string) {
	if stamp == "" {
		return
	}
	ms := openmanusTime(stamp)
	body := msg
	if len(more) > 0 {
		body = strings.TrimRight(msg+"\n"+strings.Join(more, "\n"), "\n ")
	}
	switch {
	case strings.HasPrefix(msg, "Executing step "):
		r.tools, r.waiting = nil, nil
		r.agent().text("harness", strings.TrimSpace(msg), "", ms)
	case openmanusThoughts().MatchString(msg):
		m := openmanusThoughts().FindStringSubmatch(msg)
		if r.a == nil || r.a.id != m[1] {
			r.a = r.b.agent(m[1])
		}
		if said := strings.TrimSpace(body[strings.Index(body, "thoughts:")+len("thoughts:"):]); said != "" {
			r.a.saidAt(said, ms)
		}
	case strings.HasPrefix(msg, "🧰 Tools being prepared: "):
		r.tools = openmanusToolNames(strings.TrimPrefix(msg, "🧰 Tools being prepared: "))
	case strings.HasPrefix(msg, "🔧 Tool arguments: "):
		tool := "tool"
		if len(r.tools) > 0 {
			tool, r.tools = r.tools[0], r.tools[1:]
		}
		args := strings.TrimSpace(strings.TrimPrefix(body, "🔧 Tool arguments: "))
		idx := r.agent().add(loopguard.Event{Type: loopguard.EventCall, Tool: tool, Args: jsonOrInput(args), Time: ms})
		r.waiting = append(r.waiting, idx)
	case strings.HasPrefix(msg, "🎯 Tool '"):
		rest := strings.TrimPrefix(body, "🎯 Tool '")
		tool, rest, ok := strings.Cut(rest, "' completed its mission! Result:")
		if !ok {
			return
		}
		a := r.agent()
		for k, idx := range r.waiting {
			if a.events[idx].Tool != tool {
				continue
			}
			r.waiting = append(r.waiting[:k], r.waiting[k+1:]...)
			result := strings.TrimSpace(rest)
			// "Observed output of cmd `browser_use` executed:" heads every output
			if head, out, ok := strings.Cut(result, "\n"); ok && strings.HasPrefix(head, "Observed output of cmd ") {
				result = strings.TrimSpace(out)
			}
			e := &a.events[idx]
			*e = e.WithResult(result, strings.HasPrefix(result, "Error"))
			return
		}
	case strings.Contains(msg, "Agent detected stuck state."):
		r.agent().text("harness", strings.TrimSpace(body), "", ms)
	}
}

// openmanusToolNames reads the Python list of tool names a step prepares: "['browser_use',
// 'python_execute']".
func openmanusToolNames(list string) []string {
	var names []string
	if v, rest, ok := pyLiteral(list); ok && strings.TrimSpace(rest) == "" {
		if items, ok := v.([]any); ok {
			for _, it := range items {
				if s, ok := it.(string); ok {
					names = append(names, s)
				}
			}
			return names
		}
	}
	_ = json.Unmarshal([]byte(list), &names)
	return names
}

// openmanusTime reads a record's time ("2025-03-25 21:01:54.447", the run's local time, read
// as UTC) as Unix milliseconds; 0 when unreadable.
func openmanusTime(stamp string) int64 { return layoutMillis("2006-01-02 15:04:05.000", stamp) }
