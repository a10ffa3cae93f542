package transcript

import (
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
		`call bash "I will fix it now." => "Please always provide EXACTLY ON…" FAILED`,
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
