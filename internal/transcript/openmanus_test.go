package transcript

import (
	"bufio"
	"testing"
)

// openmanusLog is a run logged in the layout of OpenManus's loguru records (March 2025), cut
// down: a step whose search fails, then steps that make no call and restate one reply, and
// OpenManus's own warning that it is stuck.
const openmanusLog = `2025-03-25 21:01:50.594 | WARNING  | __main__:main:15 - Processing your request...
2025-03-25 21:01:50.594 | INFO     | app.agent.base:run:140 - Executing step 1/20
2025-03-25 21:01:54.447 | INFO     | app.llm:update_token_count:250 - Token usage: Input=1564, Completion=28
2025-03-25 21:01:54.447 | INFO     | app.agent.toolcall:think:80 - ✨ Manus's thoughts: I will search the web.
2025-03-25 21:01:54.447 | INFO     | app.agent.toolcall:think:81 - 🛠️ Manus selected 1 tools to use
2025-03-25 21:01:54.448 | INFO     | app.agent.toolcall:think:85 - 🧰 Tools being prepared: ['browser_use']
2025-03-25 21:01:54.448 | INFO     | app.agent.toolcall:think:88 - 🔧 Tool arguments: {"action":"web_search","query":"Tesla stock"}
2025-03-25 21:01:54.449 | INFO     | app.agent.toolcall:execute_tool:179 - 🔧 Activating tool: 'browser_use'...
2025-03-25 21:01:57.206 | INFO     | app.agent.toolcall:act:149 - 🎯 Tool 'browser_use' completed its mission! Result: Observed output of cmd ` + "`browser_use`" + ` executed:
Error: Browser action 'web_search' failed: Executable doesn't exist
2025-03-25 21:01:57.207 | INFO     | app.agent.base:run:140 - Executing step 2/20
2025-03-25 21:01:59.556 | INFO     | app.agent.toolcall:think:80 - ✨ Manus's thoughts: To achieve your goal you can follow these steps:
1. Open your web browser.
2025-03-25 21:01:59.556 | INFO     | app.agent.toolcall:think:81 - 🛠️ Manus selected 0 tools to use
2025-03-25 21:01:59.600 | INFO     | app.agent.base:run:140 - Executing step 3/20
2025-03-25 21:02:01.556 | INFO     | app.agent.toolcall:think:80 - ✨ Manus's thoughts: To achieve your goal you can follow these steps:
1. Open your web browser.
2025-03-25 21:02:01.556 | INFO     | app.agent.toolcall:think:81 - 🛠️ Manus selected 0 tools to use
2025-03-25 21:02:01.600 | WARNING  | app.agent.base:handle_stuck_state:168 - Agent detected stuck state. Added prompt:         Observed duplicate responses.
2025-03-25 21:02:01.700 | INFO     | app.agent.base:run:140 - Executing step 4/20
2025-03-25 21:02:03.556 | INFO     | app.agent.toolcall:think:80 - ✨ Manus's thoughts: To achieve your goal you can follow these steps:
1. Open your web browser.
`

// An OpenManus log is read as its agent's steps: each step the harness's prompt, the agent's
// thoughts its words, a prepared tool a call with its logged arguments, answered by the tool's
// result (failed when it opens with "Error"); a reply restated step after step with no call is
// told as the same thought.
func TestOpenManusReadsStepsThoughtsAndTools(t *testing.T) {
	tr := expectEvents(t, "run.log", openmanusLog, FormatOpenManus, []string{
		`text[harness] "Executing step 1/20"`,
		`text[model] "I will search the web."`,
		`call browser_use "{\"action\":\"web_search\",\"query\":\"…" => "Error: Browser action 'web_searc…" FAILED`,
		`text[harness] "Executing step 2/20"`,
		`text[model] "To achieve your goal you can fol…"`,
		`text[harness] "Executing step 3/20"`,
		`text[model] "To achieve your goal you can fol…"`,
		`text[harness] "Agent detected stuck state. Adde…"`,
		`text[harness] "Executing step 4/20"`,
		`text[model] "To achieve your goal you can fol…"`,
	})
	if tr.Agents[0].ID != "Manus" || tr.Agents[0].Events[0].Time == 0 {
		t.Errorf("agent %q, first time %d: want Manus, with the record's time", tr.Agents[0].ID, tr.Agents[0].Events[0].Time)
	}
	if _, notices := defaultNotices(t, tr.Agents[0]); len(notices) == 0 {
		t.Error("one reply restated three steps running with no call: no notice")
	}
}

// A loguru log of another program is not OpenManus's.
func TestOpenManusHeadNeedsItsSteps(t *testing.T) {
	for _, tt := range []struct {
		head string
		want bool
	}{
		{openmanusLog, true},
		{"2025-03-25 21:01:50.594 | INFO     | app.server:start:12 - Listening on :8080\n", false},
		{"Executing step 1/20\napp.agent.base:run:\n", false},
		{"(venv) $ python main.py\n" + openmanusLog, true}, // a terminal's copy, its prompt first
	} {
		if got := isOpenManusHead([]byte(tt.head)); got != tt.want {
			t.Errorf("isOpenManusHead(%.60q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func FuzzOpenManus(f *testing.F) {
	f.Add([]byte(openmanusLog))
	f.Add([]byte("2025-03-25 21:01:50.594 | INFO     | app.agent.base:run:140 - Executing step 1/20\n2025-03-25 21:01:54.447 | INFO     | a:b:1 - 🎯 Tool 'x' completed its mission! Result:\n2025-03-25 21:01:54.447 | INFO     | a:b:1 - 🔧 Tool arguments: {\n"))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readOpenManus(name, br) })
}
