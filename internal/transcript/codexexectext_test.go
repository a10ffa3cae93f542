package transcript

import (
	"reflect"
	"strings"
	"testing"
)

const codexExecBanner = "OpenAI Codex v0.114.0 (research preview)\n--------\nworkdir: /repo\nmodel: gpt-5.4\nsession id: 019d0c6d-a9dc-7781-90b2-b89b181cd3ff\n--------\n"

// codex exec's output without --json is read: the user's prompt, the model's words, commands
// with their exit status and output, MCP calls, patches and web searches.
func TestCodexExecText(t *testing.T) {
	twenty := strings.Repeat("line\n", 20)
	tests := []struct {
		name, log string
		want      []string
	}{
		{"a command that failed, one that succeeded, the model's words between",
			codexExecBanner + "user\nfix the build\nmcp startup: no servers\ncodex\nI'll build first.\nexec\n/bin/zsh -lc 'npm run build' in /repo exited 2 in 1.52s:\nerror TS2304: Cannot find name 'x'.\nexec\n/bin/zsh -lc pwd in /repo succeeded in 0ms:\n/repo\ntokens used\n1,377\n",
			[]string{`user "fix the build"`, `text[model] "I'll build first."`,
				`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"np…" => "error TS2304: Cannot find name '…" FAILED`,
				`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"pw…" => "/repo"`}},
		{"an output of 20 lines may have been cut, and is not known; a double-quoted script unquoted",
			codexExecBanner + "exec\n/bin/zsh -lc \"sed -n '1,220p' a.md\" in /repo succeeded in 0ms:\n" + twenty + "more\ncodex\ndone\n",
			[]string{`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"se…" => -`, `text[model] "done"`}},
		{"commands begun together: their ends name none, so no output is known",
			codexExecBanner + "exec\n/bin/zsh -lc 'cat a' in /repoexec\n/bin/zsh -lc 'cat b' in /repo succeeded in 0ms:\nA\n succeeded in 0ms:\nB\ncodex\nread both\n",
			[]string{`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"ca…" => -`, `call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"ca…" => -`, `text[model] "read both"`}},
		{"a script over several lines is one command, read whole",
			codexExecBanner + "exec\n/bin/zsh -lc \"python3 - <<'PY'\nprint(1)\nPY\" in /repo succeeded in 20ms:\n1\ncodex\nok\n",
			[]string{`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"py…" => "1"`, `text[model] "ok"`}},
		{"a start glued to the turn's diff: its end, on a line of its own later, is its own",
			codexExecBanner + "exec\n/bin/zsh -lc 'cmake --build ./build' in /repofile update:\ndiff --git a/x b/x\n+y\n exited 2 in 3.1s:\nerror: no target\ncodex\nbroken\n",
			[]string{`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"cm…" => "error: no target" FAILED`, `text[model] "broken"`}},
		{"subagent operations, their ends named by call id and coming later",
			codexExecBanner + "collab spawn_agent(call_A1, prompt=\"Inspect the parser\")\nexec\n/bin/zsh -lc pwd in /repo succeeded in 0ms:\n/repo\nspawn_agent(call_A1, prompt=\"Inspect the parser\") pending init:\n  agent: 019d-aa\ncollab wait(call_B2)\n  receivers: 019d-aa\nwait(call_B2) timed out:\n",
			[]string{`call spawn_agent "{\"prompt\":\"Inspect the parser\"}" => "pending init\nagent: 019d-aa"`,
				`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"pw…" => "/repo"`,
				`call wait "{\"receivers\":\"019d-aa\"}" => "timed out"`}},
		{"an MCP call, a patch and a web search",
			codexExecBanner + "tool github.get_issue({\"number\":12})\ngithub.get_issue({\"number\":12}) failed in 312ms:\n{\n  \"error\": \"not found\"\n}\nfile update\nM /repo/a.ts\n@@ -1 +1 @@\n-x\n+y\napply_patch(auto_approved=true) exited 0 in 12ms:\nSuccess. Updated the following files:\nM a.ts\n🌐 Searching the web...\n🌐 Searched: tsc TS2304\n",
			[]string{`call github.get_issue "{\"number\":12}" => "{\n  \"error\": \"not found\"\n}" FAILED`,
				`call apply_patch "M /repo/a.ts\n@@ -1 +1 @@\n-x\n+y" => "Success. Updated the following f…"`,
				`call web_search "{\"query\":\"tsc TS2304\"}" => -`}},
		{"the older layout: a script over several lines, in its start and again in its end",
			"[2025-12-11T10:21:37] OpenAI Codex v0.38.0 (research preview)\n--------\nworkdir: /m\n--------\n[2025-12-11T10:21:37] exec bash -lc \"python3 - <<'PY'\nprint(1)\nPY\" in /m\n[2025-12-11T10:21:37] bash -lc \"python3 - <<'PY'\nprint(1)\nPY\" exited -1 in 0ms:\nbrew.sh: line 60: cannot create\n[2025-12-11T10:21:38] tokens used: 103,040\n",
			[]string{`call exec_command "{\"command\":[\"bash\",\"-lc\",\"python…" => "brew.sh: line 60: cannot create" FAILED`}},
		{"the older layout: times before the headers, the end of a command on a line of its own",
			"[2025-08-31T12:37:08] OpenAI Codex v0.27.0 (research preview)\n--------\nworkdir: /test\n--------\n[2025-08-31T12:37:08] User instructions:\nlist it\n[2025-08-31T12:38:40] exec bash -lc 'ls' in /test\n[2025-08-31T12:38:40] bash -lc 'ls' succeeded in 5ms:\na.py\n[2025-08-31T12:38:41] tokens used: 1234\n",
			[]string{`user "list it"`, `call exec_command "{\"command\":[\"bash\",\"-lc\",\"ls\"]}" => "a.py"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := ReadFrom("codex.log", strings.NewReader(tc.log))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatCodexExecText || len(tr.Agents) != 1 {
				t.Fatalf("read as %s with %d agents, want codex-exec-text with 1", tr.Format, len(tr.Agents))
			}
			if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("events:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// A command's output that prints another agent's JSONL records is still codex exec's log: the
// banner decides, not the JSON lines (r110b U1: read as Claude Code with 4 agents and 31 calls).
func TestCodexExecTextIsNotTheJSONItPrints(t *testing.T) {
	log := codexExecBanner + "exec\n/bin/zsh -lc 'cat s.jsonl' in /repo succeeded in 0ms:\n" +
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}` + "\n"
	tr, err := ReadFrom("codex.log", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCodexExecText || len(tr.Agents) != 1 || len(tr.Agents[0].Events) != 1 {
		t.Fatalf("read as %s with %d agents; want codex-exec-text, one agent, one call", tr.Format, len(tr.Agents))
	}
}

// A command printed as a shell's -lc and a quoted script is the script, unquoted, as Codex's
// rollouts keep it; anything else is the command line as printed.
func TestCodexExecArgsUnquoteTheScript(t *testing.T) {
	tests := []struct{ printed, want string }{
		{`/bin/zsh -lc pwd`, `{"command":["/bin/zsh","-lc","pwd"]}`},
		{`/bin/zsh -lc 'rg --files'`, `{"command":["/bin/zsh","-lc","rg --files"]}`},
		{`/bin/zsh -lc "sed -n '1,220p' a.md"`, `{"command":["/bin/zsh","-lc","sed -n '1,220p' a.md"]}`},
		{`bash -lc "echo \"\$HOME\""`, `{"command":["bash","-lc","echo \"$HOME\""]}`},
		{`bash -lc 'it'"'"'s'`, `{"command":["bash","-lc","it's"]}`},
		{`bash -lc 'unclosed`, `{"command":["bash","-lc","'unclosed"]}`},
		{`python3 x.py`, `{"command":"python3 x.py"}`},
	}
	for _, tt := range tests {
		if got := string(codexExecArgs(tt.printed)); got != tt.want {
			t.Errorf("codexExecArgs(%q) = %s, want %s", tt.printed, got, tt.want)
		}
	}
}

// The script's text is kept whole: nine different scripts given as heredocs are nine
// commands, not one (r112a U4).
func TestCodexExecTextKeepsAHeredocWhole(t *testing.T) {
	log := codexExecBanner + "exec\n/bin/zsh -lc \"python3 - <<'PY'\nprint(1)\nPY\" in /repo succeeded in 20ms:\n1\n"
	tr, err := ReadFrom("codex.log", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(tr.Agents[0].Events[0].Args), `{"command":["/bin/zsh","-lc","python3 - <<'PY'\nprint(1)\nPY"]}`; got != want {
		t.Errorf("arguments %s, want %s", got, want)
	}
}

// The banner may come after a title and notes, or inside a fenced block of a note; a file
// that keeps several runs (a loop runner's ledger) holds a session a run (r112a U1).
func TestCodexExecTextRunsAfterNotes(t *testing.T) {
	run := codexExecBanner + "exec\n/bin/zsh -lc 'sv task ready' in /repo succeeded in 52ms:\n{\"total\": 0}\n"
	log := "# Loop Ledger\n\n- run_id: a\n- status: success\n\n```\n" + run + "```\n\n## run b\n\n```\n" + run + "```\n"
	tr, err := ReadFrom("ledger.md", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCodexExecText || tr.Sessions != 2 || len(tr.Agents) != 2 {
		t.Fatalf("read as %s with %d sessions and %d agents; want codex-exec-text, 2 sessions of one agent", tr.Format, tr.Sessions, len(tr.Agents))
	}
	for _, a := range tr.Agents {
		if got := describe(a.Events); len(got) != 1 || !strings.HasSuffix(got[0], `=> "{\"total\": 0}"`) {
			t.Errorf("session %d: %q", a.Session, got)
		}
	}
}

// codexExec117Banner is the banner of v0.117, the release that prints outputs whole and the
// turn's diff after them.
const codexExec117Banner = "OpenAI Codex v0.117.0 (research preview)\n--------\nworkdir: C:\\work\nmodel: gpt-5.5\n--------\n"

// A run kept in a fenced block of a note ends at the note's closing fence, not at the bare
// fence that closes a block inside the run's own prompt (validation round r195b G1: read with
// no calls).
func TestCodexExecTextFencedRunOutlivesItsPromptsFences(t *testing.T) {
	prompt := "user\nRun the checks:\n```bash\npython check.py\n```\n"
	command := "exec\npowershell.exe -Command 'python check.py' in C:\\work\n exited 1 in 210ms:\nno python here\n"
	read := []string{"user \"Run the checks:\\n```bash\\npython c…\"",
		`call exec_command "{\"command\":\"powershell.exe -Comm…" => "no python here" FAILED`}
	tests := []struct {
		name, note string
		want       []string
	}{
		{"a run that ran to its end closes after its tokens",
			"## Codex stderr\n\n```\n" + codexExec117Banner + prompt + command + "codex\nBLOCKER: no python\ntokens used\n1,234\n```\n\n## After\n\n```\ncodex\nnot the run\n```\n",
			append(read, `text[model] "BLOCKER: no python"`)},
		{"a run cut short closes at the first bare fence outside the prompt's blocks",
			"## Codex stderr\n\n```\n" + codexExec117Banner + prompt + command + "```\n\ncodex\nnot the run\n",
			read},
		{"a fence of four backticks is closed by four",
			"````\n" + codexExec117Banner + prompt + "```\n" + command + "````\ncodex\nnot the run\n",
			[]string{"user \"Run the checks:\\n```bash\\npython c…\"",
				`call exec_command "{\"command\":\"powershell.exe -Comm…" => "no python here" FAILED`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectEvents(t, "task-result.md", tc.note, FormatCodexExecText, tc.want)
		})
	}
}

// From v0.117 a command's output is printed whole, and the diff of the turn so far comes after
// it with no header; a patch is "apply patch", its status, the files and their diff
// (validation round r195b G2: every output left unknown, the patch read as the model's words).
func TestCodexExecText117PrintsWholeOutputsAndTheTurnsDiff(t *testing.T) {
	long := strings.TrimSuffix(strings.Repeat("line\n", 25), "\n")
	turnDiff := "diff --git a/a.py b/a.py\nnew file mode 100644\n--- /dev/null\n+++ b/a.py\n@@ -0,0 +1,3 @@\n+import sys\n+\n+print(sys.argv)\n"
	patch := "apply patch\npatch: completed\nC:\\work\\a.py\n" + turnDiff + "\n" + turnDiff + "\n**Checking the script**\n\n"
	log := codexExec117Banner + "user\nwrite a.py\n" +
		"exec\npowershell.exe -Command 'Get-Content SKILL.md' in C:\\work\n succeeded in 437ms:\n" + long + "\n\n" +
		patch + "codex\nScript is in place.\n\n" + turnDiff +
		"exec\npowershell.exe -Command 'python a.py' in C:\\work\n exited 1 in 90ms:\npython: not found\n\n" + turnDiff +
		"exec\npowershell.exe -Command 'git diff' in C:\\work\n succeeded in 40ms:\n" + turnDiff + "\n" + turnDiff +
		"exec\npowershell.exe -Command 'git add -N a.py' in C:\\work\n succeeded in 40ms:\n" + turnDiff + "tokens used\n9,000\n"
	tr := expectEvents(t, "codex.log", log, FormatCodexExecText, []string{
		`user "write a.py"`,
		`call exec_command "{\"command\":\"powershell.exe -Comm…" => "line\nline\nline\nline\nline\nline\nli…"`,
		`call apply_patch "C:\\work\\a.py\ndiff --git a/a.py b…" => "completed"`,
		`text[model] "Script is in place."`,
		`call exec_command "{\"command\":\"powershell.exe -Comm…" => "python: not found" FAILED`,
		`call exec_command "{\"command\":\"powershell.exe -Comm…" => -`,
		`call exec_command "{\"command\":\"powershell.exe -Comm…" => ""`,
	})
	events := tr.Agents[0].Events
	if got, want := events[1].Result, long; got != want {
		t.Errorf("the long output read as %q, want its %d lines whole", got, 25)
	}
	if got, want := string(events[2].Args), "C:\\work\\a.py\n"+strings.TrimSuffix(turnDiff, "\n"); got != want {
		t.Errorf("the patch's arguments %q, want the file and its diff once: %q", got, want)
	}
}

// Before v0.117 an output is shown up to 20 lines and a "diff --git" line in it is the
// command's own: the turn's diff came under a "file update:" header.
func TestCodexExecTextBefore117KeepsADiffInTheOutput(t *testing.T) {
	log := codexExecBanner + "exec\n/bin/zsh -lc 'git diff' in /repo succeeded in 9ms:\n\ndiff --git a/x b/x\n+y\ncodex\nseen\n"
	expectEvents(t, "codex.log", log, FormatCodexExecText, []string{
		`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"gi…" => "\ndiff --git a/x b/x\n+y"`,
		`text[model] "seen"`,
	})
}

// codexExec128Banner is the banner of a 2026 release: ends on lines of their own, hooks, web
// searches, and refusals by the sandbox's policy.
const codexExec128Banner = "OpenAI Codex v0.128.0 (research preview)\n--------\nworkdir: /repo\nmodel: gpt-5.5\n--------\n"

// The layouts of v0.120 to v0.146 (validation round r196a R1–R5, R7, R8).
func TestCodexExecText2026Layouts(t *testing.T) {
	turnDiff := "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n"
	tests := []struct {
		name, log string
		want      []string
	}{
		{"a command the policy declined is a failed call, and the next command's end is its own (R1)",
			codexExec128Banner + "exec\n/bin/zsh -lc 'rm -rf build' in /repo\n declined in 0ms:\n`/bin/zsh -lc 'rm -rf build'` rejected: blocked by policy\n" +
				"exec\n/bin/zsh -lc 'ls build' in /repo\n succeeded in 3ms:\nout.o\n",
			[]string{`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"rm…" => "` + "`" + `/bin/zsh -lc 'rm -rf build'` + "`" + ` re…" FAILED`,
				`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"ls…" => "out.o"`}},
		{"a command over two lines, its end on a line of its own, is read whole (R2)",
			codexExec128Banner + "exec\n/bin/zsh -lc \"git show a:x.swift | sed -n '1,9p'\ngit show a:y.swift | sed -n '1,9p'\" in /repo\n succeeded in 9ms:\nlet x = 1\n",
			[]string{`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"gi…" => "let x = 1"`}},
		{"hook lines are neither an output nor the model's words (R3)",
			codexExec128Banner + "codex\nLooking first.\nhook: PreToolUse\nhook: PreToolUse Completed\nexec\n/bin/zsh -lc 'git log -1' in /repo\n succeeded in 0ms:\nabc fix\n\nhook: PostToolUse\nhook: PostToolUse Completed\n",
			[]string{`text[model] "Looking first."`, `call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"gi…" => "abc fix"`}},
		{"a web search ends the output above it and is a call (R4)",
			codexExec128Banner + "exec\n/bin/zsh -lc ls in /repo\n succeeded in 0ms:\na.py\n\nweb search: \nweb search: remotion watchStaticFile\ncodex\nFound it.\n",
			[]string{`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"ls…" => "a.py"`,
				`call web_search "{\"query\":\"remotion watchStaticFi…" => -`, `text[model] "Found it."`}},
		{"a printed line that starts with tool is no MCP call (R5)",
			codexExec128Banner + "exec\n/bin/zsh -lc 'cat run.py' in /repo\n succeeded in 0ms:\nimport shutil\ntool = shutil.which(\"codex\")\n",
			[]string{`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"ca…" => "import shutil\ntool = shutil.whic…"`}},
		{"a failed command whose text is not known keeps its failure (R7)",
			codexExec128Banner + "exec\n/bin/zsh -lc 'git diff --stat' in /repo\n exited 1 in 40ms:\n\n" + turnDiff + "codex\nNo diff.\n",
			[]string{`call exec_command "{\"command\":[\"/bin/zsh\",\"-lc\",\"gi…" => - FAILED`, `text[model] "No diff."`}},
		{"Codex's own log lines, one quoting a refused command over lines, are not the model's words (R8)",
			codexExec128Banner + "codex\nReading the files.\n2026-05-11T15:28:35.686679Z ERROR codex_core::tools::router: error=`pwsh -Command \"@(\n'a.py'\n)\"` rejected: blocked by policy\n" +
				"2026-05-11T15:28:36.000000Z ERROR codex_core::tools::router: error={\"output\":\"x`y\"}\ncodex\nDone.\n",
			[]string{`text[model] "Reading the files."`, `text[model] "Done."`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := expectEvents(t, "codex.log", tc.log, FormatCodexExecText, tc.want)
			if strings.Contains(tc.name, "(R2)") {
				if got, want := string(tr.Agents[0].Events[0].Args), `{"command":["/bin/zsh","-lc","git show a:x.swift | sed -n '1,9p'\ngit show a:y.swift | sed -n '1,9p'"]}`; got != want {
					t.Errorf("arguments %s, want %s", got, want)
				}
			}
		})
	}
}
