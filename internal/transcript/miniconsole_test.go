package transcript

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

func TestRenderTerminalLineShowsWhatTheScreenShowsLast(t *testing.T) {
	tests := []struct {
		name, raw, want string
	}{
		{"plain text", "ls -la", "ls -la"},
		{"colours", "\x1b[1;31mmini-swe-agent\x1b[0m\x1b[31m (step \x1b[0m\x1b[1;31m1\x1b[0m\x1b[31m, \x1b[0m\x1b[1;31m$0.00\x1b[0m\x1b[31m):\x1b[0m\r", "mini-swe-agent (step 1, $0.00):"},
		{"a spinner overwritten by the reply", "\x1b[32m⠙\x1b[0m Waiting for the LM to respond...\r\x1b[2KTHOUGHT: look first.\r", "THOUGHT: look first."},
		{"the cursor shown and a line erased", "\x1b[?25h\r\x1b[1A\x1b[2K\r", ""},
		{"a window title (OSC) ended by BEL", "\x1b]0;root@host: /app\x07root@host:/app# ", "root@host:/app#"},
		{"an escape cut short at the line's end", "done\x1b[", "done"},
		{"invalid UTF-8 replaced", "a\xffb", "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := renderTerminalLine([]byte(tt.raw)); got != tt.want {
				t.Errorf("renderTerminalLine(%q) = %q, want %q", tt.raw, got, tt.want)
			}
		})
	}
}

// What mini prints, pasted: the install before the banner is not the run, a reply without a
// bash block is refused, the model API's retries printed after an answer's rule belong to no
// message, and the run ends where mini saves its trajectory.
const miniPasted = `Collecting mini-swe-agent
User:
not mini's yet
👋 This is mini-swe-agent version 1.9.0.

System:
You are a helpful assistant that can interact with a computer.

User:
Please solve this issue: the tests fail.

mini-swe-agent (step 1, $0.00):
THOUGHT: Run the tests first.

` + "```bash\npytest -q\n```" + `

User:
<returncode>1</returncode>
<output>
FAILED test_a.py::test_one - assert 1 == 2
</output>
────────────────────────────────────────
Retrying minisweagent.models.litellm_model.LitellmModel._query in 8.0 seconds
⠙ Waiting for the LM to respond...

mini-swe-agent (step 2, $0.01):
I will fix it now.

User:
Please always provide EXACTLY ONE action in triple backticks, found 0 actions.
────────────────────────────────────────

mini-swe-agent (step 3, $0.02):
THOUGHT: Done.

` + "```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```" + `

User:

Saved trajectory to '/root/.config/mini-swe-agent/last_mini_run.traj.json'
root@host:/app# exit
`

func TestMiniConsoleReadsTheRunAsItsTrajectory(t *testing.T) {
	tr := mustRead(t, writeTemp(t, "agent.log", miniPasted))
	if tr.Format != FormatMiniConsole {
		t.Fatalf("format %q", tr.Format)
	}
	got := describe(tr.Agents[0].Events)
	want := []string{
		`text[system] "You are a helpful assistant that…"`,
		`user "Please solve this issue: the tes…"`,
		`text[model] "THOUGHT: Run the tests first."`,
		`call bash "pytest -q" => "<returncode>1</returncode>\n<outp…" FAILED`,
		`text[model] "I will fix it now."`,
		`call[harness] (no action) "" => "Please always provide EXACTLY ON…" FAILED`,
		`text[model] "THOUGHT: Done."`,
		`call bash "echo COMPLETE_TASK_AND_SUBMIT_FI…" => ""`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var sources []string
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventCall {
			sources = append(sources, e.Source)
		}
		if strings.Contains(e.Result, "Retrying") || strings.Contains(e.Text, "Retrying") {
			t.Errorf("the retry line after a rule was read into %q", e.Text+e.Result)
		}
	}
	if want := []string{"", loopguard.SourceHarness, ""}; !slices.Equal(sources, want) {
		t.Errorf("sources of the calls %q, want %q (the refused reply is the harness's refusal)", sources, want)
	}
}

// A harness's record of a run that keeps what the agent printed in a field of its own (its
// stdout) is read as that run (validation round r161b U2); a record whose long text is no run
// stays no transcript.
func TestARunPrintedIntoAFieldOfARecordIsRead(t *testing.T) {
	padding := strings.Repeat("Loading dataset and agent config ...\n", 30)
	stdout, _ := json.Marshal(padding + miniPasted)
	record := `{"instance_id": "astropy__astropy-7166", "status": "done", "returncode": 0, "stdout": ` + string(stdout) + `, "stderr": ""}`
	tr := mustRead(t, writeTemp(t, "meta.json", record))
	if tr.Format != FormatMiniConsole || len(tr.Agents) != 1 || len(tr.Agents[0].Calls()) != 3 {
		t.Fatalf("read as %s, %d agents, want the console's run of 3 calls", tr.Format, len(tr.Agents))
	}
	notes, _ := json.Marshal(strings.Repeat("The run went well and nothing more is said here.\n", 40))
	_, err := ReadFrom("meta.json", strings.NewReader(`{"instance_id": "x", "notes": `+string(notes)+`}`))
	if !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("a record of prose: err %v, want ErrUnknownFormat", err)
	}
}

// A text that names mini-swe-agent but is not its console (a README, a log of installing
// it) is no transcript, as any other text is.
func TestTextNamingMiniSWEAgentIsNotItsConsole(t *testing.T) {
	for _, text := range []string{
		"# Runs\n\nThese runs used mini-swe-agent with Claude.\n",
		"Collecting mini-swe-agent\n  Downloading mini_swe_agent-1.9.0-py3-none-any.whl\nbash: mini: command not found\n",
	} {
		_, err := Read(writeTemp(t, "notes.txt", text))
		if !errors.Is(err, ErrUnknownFormat) {
			t.Errorf("Read(%q): %v, want an unknown format", text, err)
		}
	}
}

// Colours as a terminal recording keeps mini-swe-agent's speaker lines and rules (rich's
// markup "[bold green]User[/bold green]:" and Rule()); the messages themselves are printed
// with markup=False, so a line the model or a command wrote is never coloured.
const (
	recUser   = "\x1b[1;32mUser\x1b[0m:\r"
	recSystem = "\x1b[1;32mSystem\x1b[0m:\r"
	recRule   = "\x1b[92m────────────────────────────────────────────────────────────\x1b[0m\r"
	recBanner = "\xf0\x9f\x91\x8b This is \x1b[1;32mmini-swe-agent\x1b[0m version \x1b[1;32m1.8.1\x1b[0m.\r"
)

func recStep(n int) string {
	return "\x1b[1;31mmini-swe-agent\x1b[0m\x1b[31m (step \x1b[0m\x1b[1;31m" + string(rune('0'+n)) + "\x1b[0m\x1b[31m, \x1b[0m\x1b[1;31m$0.0" + string(rune('0'+n)) + "\x1b[0m\x1b[31m):\x1b[0m\r"
}

// recordedRun is a 1.x run as Terminal-Bench's agent.log keeps it: a step whose reply is
// reply1 and whose command printed output1, then a second step running `git status`.
func recordedRun(reply1, output1 string) string {
	lines := []string{
		recBanner, "", recSystem, "You are a helpful assistant that can interact with a computer.\r", "",
		recUser, "Please solve this issue: the tests fail.\r", "", recRule, "",
		recStep(1), reply1, "", recUser, "<returncode>0</returncode>\r", "<output>\r", output1, "</output>\r", recRule, "",
		recStep(2), "THOUGHT: Check the tree.\r", "", "```bash\r", "git status\r", "```\r", "",
		recUser, "<returncode>0</returncode>\r", "<output>\r", "nothing to commit\r", "</output>\r", recRule, "",
		"Saved trajectory to '/root/.config/mini-swe-agent/last_mini_run.traj.json'\r",
	}
	return strings.Join(lines, "\n")
}

func callsOf(tr *Transcript) []loopguard.Event {
	var calls []loopguard.Event
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventCall {
			calls = append(calls, e)
		}
	}
	return calls
}

// A line the model or a command printed is content, whatever it says: only mini's own
// speaker lines (coloured in a recording), its rule and its last line end a message or the
// run. Each case must read as two calls, `cat notes.txt` answered with its whole output (the
// line "END" included) and `git status`.
func TestMiniConsoleContentThatLooksLikeMinisOwnLinesIsContent(t *testing.T) {
	reply := "THOUGHT: Read the notes.\r\n\r\n```bash\r\ncat notes.txt\r\n```\r"
	tests := []struct {
		name, reply, output string
	}{
		{"the model writes a line User: in its reply",
			"THOUGHT: The log reads\r\nUser:\r\nhello\r\nso the chat works. Read the notes.\r\n\r\n```bash\r\ncat notes.txt\r\n```\r", "END\r"},
		{"a command prints a line User:", reply, "User:\r\nhi there\r\nEND\r"},
		{"a command prints a line System:", reply, "System:\r\nboot\r\nEND\r"},
		{"a command prints a rule of box-drawing lines", reply, "Results\r\n────────────────────────────────────────\r\nEND\r"},
		{"a command prints mini's last line", reply, "Saved trajectory to '/tmp/t.traj.json'\r\nEND\r"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := mustRead(t, writeTemp(t, "agent.log", recordedRun(tt.reply, tt.output)))
			calls := callsOf(tr)
			if len(calls) != 2 {
				t.Fatalf("%d calls, want 2 (one a step): %q", len(calls), describe(tr.Agents[0].Events))
			}
			if string(calls[0].Args) != "cat notes.txt" || calls[0].Source != "" {
				t.Errorf("first call %q (source %q), want `cat notes.txt` run: %q", calls[0].Args, calls[0].Source, describe(tr.Agents[0].Events))
			}
			if !strings.Contains(calls[0].Result, "END") {
				t.Errorf("first call's result %q lost the end of the output", calls[0].Result)
			}
			if string(calls[1].Args) != "git status" {
				t.Errorf("second call %q, want `git status`", calls[1].Args)
			}
		})
	}
}

// mini-swe-agent 2 (its default mini.yaml) has the model call a bash tool: the console prints
// the call's command in a plain ``` fence, and its answer under "Tool:", as a JSON
// observation turned into lines (<returncode>, the code, <output>, the output). The run
// ends with an "Exit:" message. Each step is one call, answered by the Tool message after it.
func TestMiniConsoleReadsAMiniSWEAgent2ToolCallingRun(t *testing.T) {
	run := strings.Join([]string{
		"This is mini-swe-agent version 2.0.0.",
		"Building agent config from specs: ['mini.yaml']",
		"",
		"System:",
		"You are a helpful assistant that can interact with a computer.",
		"",
		"User:",
		"Please solve this issue: the tests fail.",
		"────────────────────────────────────────────────────────────",
		"",
		"mini-swe-agent (step 1, $0.01):",
		"Let me run the tests first.",
		"",
		"```",
		"pytest -q",
		"```",
		"",
		"Tool:",
		"<returncode>",
		"1",
		"<output>",
		"FAILED test_a.py::test_one - assert 1 == 2",
		"",
		"────────────────────────────────────────────────────────────",
		"",
		"mini-swe-agent (step 2, $0.02):",
		"Done.",
		"",
		"```",
		"echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT",
		"```",
		"",
		"Exit:",
		"",
		"Saved trajectory to '/root/.config/mini-swe-agent/last_mini_run.traj.json'",
	}, "\n")
	tr := mustRead(t, writeTemp(t, "agent.log", run))
	calls := callsOf(tr)
	var args []string
	for _, c := range calls {
		args = append(args, string(c.Args))
	}
	if len(calls) != 2 || args[0] != "pytest -q" || args[1] != "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" {
		t.Fatalf("calls %q, want `pytest -q` and the submission: %q", args, describe(tr.Agents[0].Events))
	}
	if calls[0].Source == loopguard.SourceHarness || !strings.Contains(calls[0].Result, "FAILED test_a.py") || !calls[0].Failed {
		t.Errorf("first call: source %q, result %q, failed %v; want run, answered by the Tool message, failed (return code 1)",
			calls[0].Source, calls[0].Result, calls[0].Failed)
	}
	if strings.Contains(calls[0].Result+string(calls[0].Args), "Let me run") {
		t.Errorf("the reply's words are in the call: %q", describe(tr.Agents[0].Events))
	}
}

// In mini's default confirm mode it asks before each command ("Execute? Enter to confirm, ...")
// under the model's reply. The prompt is the program's, not the model's: the model's text is
// its THOUGHT alone (the same 15 words of prompt in every reply would make different short
// thoughts alike for the thought rule).
func TestMiniConsoleConfirmPromptIsNotTheModelsText(t *testing.T) {
	run := strings.Join([]string{
		"👋 This is mini-swe-agent version 1.17.5.",
		"System:", "You are a helpful assistant.", "",
		"User:", "Please solve this issue: x", "",
		"────────────────────────────────────────────────────────────",
		"mini-swe-agent (step 1, $0.00):",
		"THOUGHT: List the files.", "", "```bash", "ls", "```",
		"Execute? Enter to confirm, or Type a comment/command (/h for available commands)",
		"> ",
		"",
		"User:", "<returncode>0</returncode>", "<output>", "a.py", "</output>",
		"────────────────────────────────────────────────────────────",
	}, "\n")
	tr := mustRead(t, writeTemp(t, "agent.log", run))
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventText && e.Source == "model" && e.Text != "THOUGHT: List the files." {
			t.Errorf("model text %q, want the THOUGHT alone", e.Text)
		}
	}
}

// A run pasted from its first message on, without the banner (people paste the part that
// matters), keeps its task: the System and User messages before the first step are mini's.
func TestMiniConsolePastedFromItsFirstMessageKeepsTheTask(t *testing.T) {
	run := strings.Join([]string{
		"System:", "You are a helpful assistant that can interact with a computer.", "",
		"User:", "Please solve this issue: the tests fail.", "",
		"mini-swe-agent (step 1, $0.00):", "THOUGHT: Run them.", "", "```bash", "pytest -q", "```", "",
		"User:", "<returncode>0</returncode>", "<output>", "1 passed", "</output>",
	}, "\r\n")
	tr := mustRead(t, writeTemp(t, "pasted.txt", "mini-swe-agent run\r\n"+run))
	var task bool
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventUser && strings.HasPrefix(e.Text, "Please solve this issue") {
			task = true
		}
	}
	if !task {
		t.Errorf("the task was dropped: %q", describe(tr.Agents[0].Events))
	}
}

// Escape sequences of more than one character after ESC that are not CSI or OSC are dropped
// whole: a character set designation (tput sgr0 prints "\x1b(B\x1b[m"), a device control
// string (tmux's passthrough, ESC P ... ESC \).
func TestRenderTerminalLineDropsEveryEscapeSequence(t *testing.T) {
	tests := []struct{ name, raw, want string }{
		{"a character set designation", "\x1b(B\x1b[mok", "ok"},
		{"a device control string", "\x1bPtmux;\x1b\x1b]0;x\x07\x1b\\ok", "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := renderTerminalLine([]byte(tt.raw)); got != tt.want {
				t.Errorf("renderTerminalLine(%q) = %q, want %q", tt.raw, got, tt.want)
			}
		})
	}
}

// A recording cut off while mini printed a reply (the harness killed the session at its
// timeout) ends inside the reply: nothing says the harness refused it, so its last call is
// not a refusal of the reply's form, nor failed.
func TestMiniConsoleCutOffInAReplyIsNoRefusal(t *testing.T) {
	run := strings.Join([]string{
		"👋 This is mini-swe-agent version 1.17.5.",
		"User:", "Please solve this issue: x", "",
		"mini-swe-agent (step 1, $0.00):",
		"THOUGHT: Build it.", "", "```bash", "make -j8 2>&1 | tail -",
	}, "\n")
	tr := mustRead(t, writeTemp(t, "agent.log", run))
	calls := callsOf(tr)
	if len(calls) != 1 {
		t.Fatalf("calls: %q", describe(tr.Agents[0].Events))
	}
	if calls[0].Source == loopguard.SourceHarness || calls[0].Failed {
		t.Errorf("the cut-off reply read as source %q, failed %v: %q", calls[0].Source, calls[0].Failed, describe(tr.Agents[0].Events))
	}
}

// In pasted text a fence is the model's, and a reply's block is not always closed: one never
// closed, or closed on a line of code ("PY```"), is refused for its form, and mini's refusal,
// whose example holds a block of its own, is mini's answer all the same. Each step is one
// call, whatever the fences before it did (validation round r162b U1, U3, U4: ten runs lost
// 60 steps, and a refusal was read as a command's result, once failed and once not).
func TestMiniConsoleAReplysUnclosedBlockEndsWithTheReply(t *testing.T) {
	refusal := []string{
		"User:", "Please always provide EXACTLY ONE action in triple backticks, found 0 actions.", "",
		"<response_example>", "Here are some thoughts.", "", "```bash", "<action>", "```", "</response_example>",
		"────────────────────────────────────────────────────────────", "",
	}
	step := func(n int, reply ...string) []string {
		return append([]string{"mini-swe-agent (step " + string(rune('0'+n)) + ", $0.01):"}, reply...)
	}
	answer := func(out string) []string {
		return []string{"", "User:", "<returncode>0</returncode>", "<output>", out + "</output>", "────────────────────────────────────────────────────────────", ""}
	}
	tests := []struct {
		name string
		run  [][]string
		want []string
	}{
		{"a block never closed, then one closed", [][]string{
			step(1, "THOUGHT: Patch it.", "", "```bash", "python - <<'PY'", "print(1)", "PY", ""), refusal,
			step(2, "THOUGHT: Run it.", "", "```bash", "python t.py", "```"), answer("ok"),
		}, []string{
			"text[model] \"THOUGHT: Patch it.\\n\\n```bash\\npyth…\"",
			`call[harness] (no action) "" => "Please always provide EXACTLY ON…" FAILED`,
			`text[model] "THOUGHT: Run it."`,
			`call bash "python t.py" => "<returncode>0</returncode>\n<outp…"`,
		}},
		{"blocks closed on a line of code, three in a row", [][]string{
			step(1, "THOUGHT: Patch it.", "", "```bash", "python - <<'PY'", "print(1)", "PY```", ""), refusal,
			step(2, "THOUGHT: Patch it.", "", "```bash", "python - <<'PY'", "print(2)", "PY```", ""), refusal,
			step(3, "THOUGHT: Patch it.", "", "```bash", "python - <<'PY'", "print(3)", "PY```", ""), refusal,
			step(4, "THOUGHT: Run it.", "", "```bash", "python t.py", "```"), answer("ok"),
		}, []string{
			"text[model] \"THOUGHT: Patch it.\\n\\n```bash\\npyth…\"",
			`call[harness] (no action) "" => "Please always provide EXACTLY ON…" FAILED`,
			"text[model] \"THOUGHT: Patch it.\\n\\n```bash\\npyth…\"",
			`call[harness] (no action) "" => "Please always provide EXACTLY ON…" FAILED`,
			"text[model] \"THOUGHT: Patch it.\\n\\n```bash\\npyth…\"",
			`call[harness] (no action) "" => "Please always provide EXACTLY ON…" FAILED`,
			`text[model] "THOUGHT: Run it."`,
			`call bash "python t.py" => "<returncode>0</returncode>\n<outp…"`,
		}},
		{"a heredoc in a closed block writes a line User:", [][]string{
			step(1, "THOUGHT: Write the chat.", "", "```bash", "cat > chat.txt <<'EOF'", "User:", "hello", "EOF", "```"), answer(""),
			step(2, "THOUGHT: Run it.", "", "```bash", "python t.py", "```"), answer("ok"),
		}, []string{
			`text[model] "THOUGHT: Write the chat."`,
			`call bash "cat > chat.txt <<'EOF'\nUser:\nhel…" => "<returncode>0</returncode>\n<outp…"`,
			`text[model] "THOUGHT: Run it."`,
			`call bash "python t.py" => "<returncode>0</returncode>\n<outp…"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := []string{"👋 This is mini-swe-agent version 1.17.3.", "", "User:", "Please solve this issue: x", "", "────────────────────────────────────────────────────────────", ""}
			for _, part := range tt.run {
				lines = append(lines, part...)
			}
			tr := mustRead(t, writeTemp(t, "meta.txt", strings.Join(lines, "\n")))
			got := describe(tr.Agents[0].Events)[1:] // after the task
			if !slices.Equal(got, tt.want) {
				t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// A fence that opens in the middle of a prompt's line (mini's own instance template has
// "### Edit files with sed:```bash") does not reach past the rule under the prompt, and an
// output whose last line runs into "</output>" ends there: a pane's text, without colours to
// tell mini's lines, is read step by step (validation round r162b U3: 21 panes read no call).
func TestMiniConsolePastedPromptsOddFenceStaysInThePrompt(t *testing.T) {
	run := strings.Join([]string{
		"👋 This is mini-swe-agent version 1.9.0.", "",
		"User:", "Please solve this issue: x", "", "### Edit files with sed:```bash", "sed -i 's/a/b/' f.py", "```", "",
		"────────────────────────────────────────────────────────────", "",
		"mini-swe-agent (step 1, $0.00):", "THOUGHT: Look.", "", "```bash", "head -3 a.csv", "```", "",
		"User:", "<returncode>0</returncode>", "<output>", "date,t", "2025-04-19,64</output>",
		"────────────────────────────────────────────────────────────",
		"LiteLLM:ERROR: logging failed", "",
		"mini-swe-agent (step 2, $0.01):", "THOUGHT: Again.", "", "```bash", "head -3 b.csv", "```", "",
		"User:", "<returncode>0</returncode>", "<output>", "date,t", "</output>",
		"────────────────────────────────────────────────────────────",
	}, "\n")
	tr := mustRead(t, writeTemp(t, "post-agent.txt", run))
	calls := callsOf(tr)
	if len(calls) != 2 || string(calls[0].Args) != "head -3 a.csv" || string(calls[1].Args) != "head -3 b.csv" {
		t.Fatalf("calls: %q", describe(tr.Agents[0].Events))
	}
	if strings.Contains(calls[0].Result, "LiteLLM") {
		t.Errorf("what was printed after the answer's rule is in its result: %q", calls[0].Result)
	}
}

// In a recording, the lines the terminal drew after a reply's command and before its answer
// are the program's or a screen's, not the model's words: a library's coloured error log
// printed while mini waited, a `tmux attach` redrawing its panes (validation round r194b: a
// monitor's status line, redrawn 29 times, read as a reply repeating itself).
func TestMiniConsoleRecordingKeepsTheConsolesLinesOutOfTheReply(t *testing.T) {
	reply := "THOUGHT: Attach to the session to check it.\r\n\r\n```bash\r\ntmux attach-session -t workflow\r\n```\r\n" +
		"\x1b[?25h\x1b[1A\x1b[2K\x1b[92m05:51:21 - LiteLLM:ERROR\x1b[0m: litellm_logging.py:4483 - Error creating standard logging object\r\n" +
		"Traceback (most recent call last):\r\nModuleNotFoundError: No module named 'backoff'\r\n" +
		"\x1b[?1049h\x1b[H\x1b[J" + strings.Repeat("[05:51:44] Monitoring... (File size: 183 bytes)\x1b[K", 30) + "\r"
	tr := mustRead(t, writeTemp(t, "agent.log", recordedRun(reply, "attached\r")))
	var said []string
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventText && e.Source == "model" {
			said = append(said, e.Text)
		}
	}
	if len(said) == 0 || !strings.Contains(said[0], "Attach to the session") {
		t.Fatalf("the model's words %q, want the reply's THOUGHT", said)
	}
	for _, s := range said {
		if strings.Contains(s, "LiteLLM") || strings.Contains(s, "Monitoring...") || strings.Contains(s, "backoff") {
			t.Errorf("the console's lines read as the model's words: %q", s)
		}
	}
	if calls := callsOf(tr); len(calls) != 2 || string(calls[0].Args) != "tmux attach-session -t workflow" {
		t.Errorf("calls %q, want the attach and git status", describe(tr.Agents[0].Events))
	}
}
