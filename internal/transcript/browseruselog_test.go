package transcript

import (
	"bufio"
	"strings"
	"testing"
)

// browserUseLogOld is a run in the layout browser-use 0.1 printed, cut down, with a socket
// server's records between.
const browserUseLogOld = `INFO     [agent] 🚀 Starting task: search for a spanish restaurant in Zurich
INFO     [agent] 📍 Step 1
INFO     [agent] 🤷 Eval: Unknown - This is the first step.
INFO     [agent] 🎯 Next goal: Open Google.
INFO     [agent] 🛠️  Action 1/1: {"go_to_url":{"url":"https://www.google.com"}}
INFO     [controller] 🔗  Navigated to https://www.google.com
INFO     [socketio.server] emitting event "session_update"
INFO     [agent] 📍 Step 2
INFO     [agent] 👍 Eval: Success - Opened Google.
INFO     [agent] 🎯 Next goal: Read the results.
INFO     [agent] 🛠️  Action 1/2: {"extract_content":{"goal":"restaurant names"}}
INFO     [agent] 🛠️  Action 2/2: {"click_element_by_index":{"index":10}}
INFO     [controller] 📄  Extracted from page
: Bodega Española, Casa Aurelio
ERROR    [agent] ❌ Result failed 1/3 times:
 Element with index 10 does not exist - retry or use alternative actions
`

// browserUseLogNew is the same in the layout of browser-use 0.7, with its ANSI colours.
const browserUseLogNew = "INFO     [Agent] \n\nINFO     [Agent] 📍 Step 12:\n" +
	"INFO     [Agent]   \x1b[32m👍 Eval: Scrolled down. Verdict: Failure (goal not achieved)\x1b[0m\n" +
	"INFO     [Agent]   \x1b[34m🎯 Next goal: Search for recipes.\x1b[0m\n" +
	"INFO     [Agent]   🦾 \x1b[34m[ACTION 1/2]\x1b[0m input_text: index: 5, text: recipes, clear_existing: True\n" +
	"INFO     [BrowserSession] ⌨️ Typed \"recipes\" into element with index 5\n" +
	"INFO     [Agent]   🦾 \x1b[34m[ACTION 2/2]\x1b[0m read_file: file_name: todo.md\n" +
	"INFO     [tools] 💾 Read from file todo.md.\n<content>\n- [ ] recipes\n</content>\n"

// A browser-use console log is read as its steps: the task is the user's turn, a step's words
// one text, each action a call answered by the controller's record after it; an action on the
// page (its outcome on the page, which the log does not keep) is left unknown unless it failed,
// and an error of the step fails the action it answers.
func TestBrowserUseLogReadsBothLayouts(t *testing.T) {
	expectEvents(t, "run.md", browserUseLogOld, FormatBrowserUseLog, []string{
		`user "search for a spanish restaurant …"`,
		`text[model] "Eval: Unknown - This is the firs…"`,
		`call go_to_url "{\"url\":\"https://www.google.com\"}" => -`,
		`text[model] "Eval: Success - Opened Google.\nN…"`,
		`call extract_content "{\"goal\":\"restaurant names\"}" => "📄  Extracted from page\n: Bode…"`,
		`call click_element_by_index "{\"index\":10}" => "❌ Result failed 1/3 times:\n El…" FAILED`,
	})
	expectEvents(t, "run.log", browserUseLogNew, FormatBrowserUseLog, []string{
		`text[model] "Eval: Scrolled down. Verdict: Fa…"`,
		`call input_text "{\"params\":\"index: 5, text: recip…" => -`,
		`call read_file "{\"params\":\"file_name: todo.md\"}" => "💾 Read from file todo.md.\n<co…"`,
	})
}

// A log of several runs, each opened by its task, is a session a run; an error of the
// browser's own protocol ("[cdp_use.client]") is no failure of the action.
func TestBrowserUseLogRunsAreSessions(t *testing.T) {
	run := func(task string) string {
		return "INFO     [Agent] 🚀 Task: " + task + "\nINFO     [Agent] 📍 Step 1:\n" +
			"INFO     [Agent]   🦾 [ACTION 1/1] read_file: file_name: todo.md\n" +
			"ERROR    [cdp_use.client] Target closed\n" +
			"INFO     [tools] 💾 Read from file todo.md.\n"
	}
	tr, err := ReadFrom("runs.log", strings.NewReader(run("find recipes")+run("find wines")))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatBrowserUseLog || tr.Sessions != 2 || len(tr.Agents) != 2 {
		t.Fatalf("read as %q, %d sessions, %d agents: want two runs", tr.Format, tr.Sessions, len(tr.Agents))
	}
	for _, a := range tr.Agents {
		if got := describe(a.Events); len(got) != 2 || !strings.HasPrefix(got[0], "user ") || strings.HasSuffix(got[1], "FAILED") {
			t.Errorf("a run's events %q: want its task, then the read answered", got)
		}
	}
}

// Text that only mentions an agent's step, with no action of it, is not browser-use's log.
func TestBrowserUseLogHeadNeedsAnAction(t *testing.T) {
	for _, tt := range []struct {
		head string
		want bool
	}{
		{browserUseLogOld, true},
		{browserUseLogNew, true},
		{"INFO     [agent] 📍 Step 1\nINFO     [agent] 👍 Eval: fine\n", false},
		{"Step 1: open the agent] config\nAction 1/1: {\"x\":{}}\n", false},
	} {
		if got := isBrowserUseLogHead([]byte(tt.head)); got != tt.want {
			t.Errorf("isBrowserUseLogHead(%.60q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func FuzzBrowserUseLog(f *testing.F) {
	f.Add([]byte(browserUseLogOld))
	f.Add([]byte(browserUseLogNew))
	f.Add([]byte("INFO     [agent] 📍 Step 1\nINFO     [agent] Action 1/1: {\"a\":\nERROR    [agent] x\nINFO     [tools] y\n"))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readBrowserUseLog(name, br) })
}
