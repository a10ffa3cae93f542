package transcript

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// Claude Code's text export, written from the layout its /export and its terminal show: the
// banner, user lines, the model's words, calls whose arguments go on over two lines, a tool
// shown under another name, an MCP tool, a shortened result, a failure.
func TestClaudeCodeTextExport(t *testing.T) {
	const export = `╭───────────────────────────────────────────────────╮
│ ✻ Welcome to Claude Code!                         │
╰───────────────────────────────────────────────────╯

> fix the failing test
  in src/app.test.ts

⏺ I'll run the tests first (quietly).

⏺ Bash(npm test -- --silent)
  ⎿  Error: 1 failed
     FAIL src/app.test.ts

⏺ Bash(find . -name "*.test.ts" |
      sort)
  ⎿  ./src/app.test.ts
     ./src/util.test.ts
     … +12 lines (ctrl+o to expand)

⏺ Update(src/app.ts)
  ⎿  Updated src/app.ts with 1 addition and 1 removal

⏺ Web Search("vitest silent flag")
  ⎿  Did 1 search in 2s

⏺ context7 - resolve-library-id (MCP)(libraryName: "vitest")
  ⎿  Available Libraries: /vitest-dev/vitest

✻ Thinking…

⏺ Let me check (again) the config.
`
	tr, err := ReadFrom("session.txt", strings.NewReader(export))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatClaudeText || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want claude-code-text with one", tr.Format, len(tr.Agents))
	}
	want := []string{
		`user "fix the failing test\nin src/app.…"`,
		`text[model] "I'll run the tests first (quietl…"`,
		`call Bash "npm test -- --silent" => "Error: 1 failed\nFAIL src/app.tes…" FAILED`,
		`call Bash "find . -name \"*.test.ts\" |\nsort" => -`,
		`call Edit "src/app.ts" => "Updated src/app.ts with 1 additi…"`,
		`call WebSearch "\"vitest silent flag\"" => "Did 1 search in 2s"`,
		`call context7 - resolve-library-id "libraryName: \"vitest\"" => "Available Libraries: /vitest-dev…"`,
		`text[model] "Let me check (again) the config."`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("got %s\nwant %s", strings.Join(got, "\n    "), strings.Join(want, "\n     "))
	}
}

// The same failing command four times is told, as it would be from the session's JSONL.
func TestClaudeCodeTextExportRepeatedFailure(t *testing.T) {
	export := "> fix the tests\n\n" + strings.Repeat("⏺ Bash(npm test)\n  ⎿  Error: 1 failed\n\n", 4)
	tr, err := ReadFrom("session.txt", strings.NewReader(export))
	if err != nil {
		t.Fatal(err)
	}
	if _, got := defaultNotices(t, tr.Agents[0]); len(got) == 0 {
		t.Error("four identical failing runs: no notice")
	}
}

// The layouts real exports use (validation round r42a): "●" for "⏺" and "❯" for ">", the
// timeout column beside a Bash call (also when the command wraps), a blank line before a
// result, a result whose text starts one space after "⎿", shortened results in every wording,
// a refused or interrupted call, a second result block, calls drawn without parentheses, a
// subagent under its own name, an edit known by its diff, and the model's words that look
// like a call.
// The research preview drew a call with an ellipsis after it ("⏺ Bash(gh --version)…") and
// left it there in what it exported: still a call, its command without the ellipsis.
func TestClaudeCodeTextCallHeadsWithAnEllipsis(t *testing.T) {
	const export = `> publish the project

⏺ Task(Create GitHub repository)…
  ⎿  No (tell Claude what to do differently)

⏺ Bash(gh --version || echo "GitHub CLI not installed")…
  ⎿  gh version 2.72.0 (2025-04-30)

⏺ I'll check the remote…
`
	tr, err := ReadFrom("2025-05-20-publish.txt", strings.NewReader(export))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range tr.Agents[0].Calls() {
		got = append(got, c.Tool+" "+string(c.Args))
	}
	want := []string{`Task Create GitHub repository`, `Bash gh --version || echo "GitHub CLI not installed"`}
	if tr.Format != FormatClaudeText || !reflect.DeepEqual(got, want) {
		t.Errorf("read as %s: %q, want %q", tr.Format, got, want)
	}
}

// A screen redrawn while it was copied left the input box's rule after a call's closing
// parenthesis (validation round r78c U1): the call is still read, with its result.
func TestClaudeCodeTextCallHeadWithTheInputRuleGluedOn(t *testing.T) {
	const export = `> check the pods

⏺ Bash(kubectl get pods -n logging 2>&1)────────────────────────────────
  ⎿  NAME                 READY   STATUS    RESTARTS   AGE
     fluent-bit-2fb4p     1/1     Running   0          11m

⏺ The pods are running.
`
	tr, err := ReadFrom("2026-03-01-upgrade.txt", strings.NewReader(export))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || calls[0].Tool != "Bash" || string(calls[0].Args) != "kubectl get pods -n logging 2>&1" ||
		!strings.Contains(calls[0].Result, "fluent-bit-2fb4p") {
		t.Errorf("read %+v, want the one Bash call with its result", calls)
	}
}

func TestClaudeCodeTextLayouts(t *testing.T) {
	const export = `❯ run the checks

● Bash(python main.py 2>&1 | head -50) timeout: 30s
  ⎿  Error: Exit code 1
     ModuleNotFoundError: No module named x

● Bash(log show --predicate 'subsystem == "launchd"' --info timeout:
      --last 2h | grep -A 5 "notifier")                    30s

  ⎿  (eval):log:1: too many arguments

● Bash(git status)
  ⎿ On branch main
    Changes not staged for commit:
      modified:   src/a.ts

● Bash(tail -3 deploy.log)
  ⎿  building image
     … +1 line (ctrl+r to expand)

● Bash(tail -9 deploy.log)
  ⎿  building image
     … +3 lines (ctrl+r to see all)

● Update(src/a.ts)
  ⎿  User rejected update to src/a.ts
       10 -  return x
       10 +  return y

● Bash(rm -rf build)
  ⎿  (No content)
  ⎿  Interrupted by user

● Update Todos
  ⎿  ☐ Find the config loader

● Explore(Find config loaders)
  ⎿  Done (3 tool uses · 10.0k tokens · 20s)

● Kill Shell(Kill shell: 3a4df6)
  ⎿  Shell 3a4df6 killed

● Update(src/b.ts)
  ⎿  Updated src/b.ts with 1 addition and 1 removal
       3 -  limit = 10
       3 +  limit = 20

● Bash(sleep 300 && wc -l build.output) timeout: 10m 0s
  ⎿  47 build.output

● Bash(guardkit autobuild feature FEAT-1D98 --max-turns 5 timeout:
      --resume 2>&1)                                      10m 0s
  ⎿  Feature resumed

● Task Output(non-blocking) b647610
  ⎿  INFO: design phase in progress... (2520s elapsed)

● Task Output ba81a0e
  ⎿  INFO: task-work implementation in progress... (1170s elapsed)

● useEffect(() => {...}) runs twice in development because of:
    - React StrictMode double-invoking effects

● Fixed(see the diff above)

● Done.
`
	tr, err := ReadFrom("session.txt", strings.NewReader(export))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatClaudeText {
		t.Fatalf("read as %s", tr.Format)
	}
	type want struct {
		tool, args, result string
		known, failed      bool
	}
	wants := []want{
		{"Bash", "python main.py 2>&1 | head -50", "Error: Exit code 1\nModuleNotFoundError: No module named x", true, true},
		{"Bash", "log show --predicate 'subsystem == \"launchd\"' --info\n--last 2h | grep -A 5 \"notifier\"", "(eval):log:1: too many arguments", true, false},
		{"Bash", "git status", "On branch main\nChanges not staged for commit:\n  modified:   src/a.ts", true, false},
		{"Bash", "tail -3 deploy.log", "", false, false},
		{"Bash", "tail -9 deploy.log", "", false, false},
		{"Edit", "src/a.ts\n  10 -  return x\n  10 +  return y", "User rejected update to src/a.ts\n  10 -  return x\n  10 +  return y", true, true},
		{"Bash", "rm -rf build", "(No content)\nInterrupted by user", true, true},
		{"TodoWrite", "", "☐ Find the config loader", true, false},
		{"Task", "Explore: Find config loaders", "", false, false},
		{"KillShell", "Kill shell: 3a4df6", "Shell 3a4df6 killed", true, false},
		{"Edit", "src/b.ts\n  3 -  limit = 10\n  3 +  limit = 20", "Updated src/b.ts with 1 addition and 1 removal\n  3 -  limit = 10\n  3 +  limit = 20", true, false},
		{"Bash", "sleep 300 && wc -l build.output", "47 build.output", true, false},
		{"Bash", "guardkit autobuild feature FEAT-1D98 --max-turns 5\n--resume 2>&1", "Feature resumed", true, false},
		{"TaskOutput", `{"task_id":"b647610","block":false}`, "INFO: design phase in progress... (2520s elapsed)", true, false},
		{"TaskOutput", `{"task_id":"ba81a0e"}`, "INFO: task-work implementation in progress... (1170s elapsed)", true, false},
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != len(wants) {
		t.Fatalf("%d calls, want %d: %s", len(calls), len(wants), strings.Join(describe(tr.Agents[0].Events), "\n"))
	}
	for i, w := range wants {
		c := calls[i]
		if c.Tool != w.tool || string(c.Args) != w.args || c.HasResult != w.known || c.Failed != w.failed || w.known && c.Result != w.result {
			t.Errorf("call %d: %s %q => %q (known %v, failed %v)\n want %s %q => %q (known %v, failed %v)",
				i, c.Tool, c.Args, c.Result, c.HasResult, c.Failed, w.tool, w.args, w.result, w.known, w.failed)
		}
	}
	users := 0
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventUser {
			users++
		}
	}
	if users != 1 {
		t.Errorf("%d user turns, want the ❯ prompt's", users)
	}
}

// A paste of the screen whose indentation was lost (a Markdown editor's copy: every line at
// the left edge, the user's lines quoted one by one) is read as the screen it was: results
// open with "⎿" at the line's start, wrapped arguments and result lines go on with the block
// above them (validation round r59f U1: five such files, 271 calls, were not read at all).
func TestClaudeCodeTextPasteWithoutIndentation(t *testing.T) {
	const paste = "> There are now 13 documents prefixed PAY-004, might this cause\n" +
		"> confusion for the developer?\n\n" +
		"⏺ Bash(ls -la docs/stories/PAY-004\\* | awk '{print $9}' |\n" +
		"xargs -I {} basename {})\n" +
		"⎿ PAY-004-analysis.md\n" +
		"PAY-004-api-contracts.md\n\n" +
		"⏺ github - Get file or directory contents (MCP)(owner: \"deafjoe\", repo: \"expo-push-supa\", path:\n" +
		"\"/app/_layout.tsx\")\n" +
		"⎿ Error: failed to resolve git reference: 404 Not Found []\n\n" +
		"⏺ Read(docs/stories/PAY-004-deployment-guide.md)\n" +
		"⎿ Read 119 lines (ctrl+r to expand)\n\n" +
		"⏺ Yes, two of them overlap.\n"
	tr, err := ReadFrom("story4-mistakes.md", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatClaudeText {
		t.Fatalf("read as %q, want %q", tr.Format, FormatClaudeText)
	}
	want := []string{
		`user "There are now 13 documents prefi…"`,
		`call Bash "ls -la docs/stories/PAY-004\\* | …" => "PAY-004-analysis.md\nPAY-004-api-…"`,
		`call github - Get file or directory contents "owner: \"deafjoe\", repo: \"expo-pu…" => "Error: failed to resolve git ref…" FAILED`,
		`call Read "docs/stories/PAY-004-deployment-…" => -`, // shortened on screen: unknown
		`text[model] "Yes, two of them overlap."`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	if u := tr.Agents[0].Events[0].Text; !strings.Contains(u, "\nconfusion for the developer?") {
		t.Errorf("the user's quoted lines: %q, want one message", u)
	}
}

// A terminal that drew the whole conversation again and again (anthropics/claude-code#11034)
// is read once, from its last and longest copy; a paste that lost a call's result lines keeps
// the call, its result unknown; a result glued on its call's line is the call's (validation
// round r103a U1, U2).
func TestClaudeCodeTextRedrawsAndLostResultLines(t *testing.T) {
	const box = "╭──────────────────────────────╮\n│ ✻ Welcome to Claude Code!    │\n╰──────────────────────────────╯\n\n"
	const conversation = "> tidy the repo\n\n● Bash(git status --short)\n  ⎿  M a.ts\n\n● Write(.gitignore)\n  ⎿  Wrote 1 lines to .gitignore\n\n"
	tests := []struct {
		name, text string
		want       []string // tool, arguments and what is known of the result
	}{
		{"copies each drawn again after a welcome box are one conversation",
			"     + CategoryInfo : InvalidArgument\n\n● Write(.gitignore)\n  ⎿  Wrote 1 lines to .gitignore\n\n" + // the end of a copy the paste began in
				box + conversation + "● Bash(npm install)\n  ⎿  npm warn EBADENGINE\n" +
				box + conversation + "● Bash(npm install)\n  ⎿  added 12 packages\n\n● Bash(npm run dev)\n  ⎿  ready\n",
			[]string{"Bash git status --short => M a.ts", "Write .gitignore => Wrote 1 lines to .gitignore", "Bash npm install => added 12 packages", "Bash npm run dev => ready"}},
		{"two sessions that open otherwise are both read",
			box + conversation + box + "> run the tests\n\n● Bash(npm test)\n  ⎿  ok\n",
			[]string{"Bash git status --short => M a.ts", "Write .gitignore => Wrote 1 lines to .gitignore", "Bash npm test => ok"}},
		{"a call of Claude Code's tools whose result lines were lost, the model's next line after it",
			"> fix the lint\n\n● Read(a.css)\n  ⎿  Read 45 lines\n\n● Update(src/styles/index.css)\n● Now the duplicates.\n\n● Bash(npx stylelint \"**/*.css\")\n\n● I keep getting the same errors!\n",
			[]string{"Read a.css => Read 45 lines", "Edit src/styles/index.css => ?", "Bash npx stylelint \"**/*.css\" => ?"}},
		{"words shaped like a call, of no tool of Claude Code's, stay words",
			"> what changed?\n\n● Read(a.go)\n  ⎿  Read 45 lines\n\n● Fixed(see the diff above)\n● And the tests pass.\n",
			[]string{"Read a.go => Read 45 lines"}},
		{"a result glued on its call's line",
			"> find it\n\n● Search(pattern: \"needle\", output_mode: \"content\")  ⎿  Found 11 lines (ctrl+o to expand)\n\n● Read(a.go)\n  ⎿  Read 45 lines\n",
			[]string{"Grep pattern: \"needle\", output_mode: \"content\" => ?", "Read a.go => Read 45 lines"}},
		{"a call of Claude Code's tools whose bullet the paste lost, a result under it (r107a U1)",
			"> fix it\n\nUpdate(src/app.ts)\n  ⎿  Error editing file\n\n● Read(src/app.ts)\n  ⎿  Read 45 lines\n\nFixed(see above)\n  ⎿  not a tool of Claude Code's\n",
			[]string{"Edit src/app.ts => Error editing file", "Read src/app.ts => Read 45 lines"}},
		{"a timeout column split over a wrapped command's first two lines is no part of it (r105c U2)",
			"> run it\n\n● Bash(python run_agent.py --competition-set    timeout: 10m\n      experiments/splits/cactus.txt                  0s\n      --container-config env/config…)\n  ⎿  Interrupted · What should Claude do instead?\n",
			[]string{"Bash python run_agent.py --competition-set\nexperiments/splits/cactus.txt\n--container-config env/config… #1 => Interrupted · What should Claude do instead?"}},
		{"a result on the last line of wrapped arguments",
			"> count\n\n● Bash(python -c \"\n      mx = 0…)  ⎿  max: 118 (line 3)\n\n● Bash(ls)\n  ⎿  a.go\n",
			[]string{"Bash python -c \"\nmx = 0… #1 => max: 118 (line 3)", "Bash ls => a.go"}},
		{"scripts the screen cut after their first line are numbered: two of them, answered alike, are not one made twice (r255d)",
			"> parse it\n\n● Bash(python3 << 'EOF'\n      import re…)\n  ⎿  (No output)\n\n● Bash(python3 << 'EOF'\n      import re…)\n  ⎿  (No output)\n",
			[]string{"Bash python3 << 'EOF'\nimport re… #1 => (No output)", "Bash python3 << 'EOF'\nimport re… #2 => (No output)"}},
		{"Claude Code 2.1's summed-up looks are calls whose arguments and results are not shown, numbered (r104a U5)",
			"> look around\n\n● Read 2 files (ctrl+o to expand)\n\n● Let me check the config.\n  Searched for 1 pattern, listed 1 directory (ctrl+o to expand)\n\n● Recalled 1 memory (ctrl+o to expand)\n\n● Bash(ls)\n  ⎿  a.go\n",
			[]string{"Read Read 2 files #1 => ?", "Read Read 2 files #2 => ?", "Grep Searched for 1 pattern #1 => ?", "LS listed 1 directory #1 => ?", "Bash ls => a.go"}},
		{"summed-up commands, a commit and a push are Bash calls; memories written and plan mode's line are none (r126a U1, U2)",
			"> build it\n\n● Build, then smoke-test.\n  Ran 2 shell commands (ctrl+o to expand)\n\n● Read 1 file, ran 1 shell command (ctrl+o to expand)\n\n" +
				"● Committed 8addaf4, pushed to main, ran 1 shell command (ctrl+o to expand)\n\n● Recalled 1 memory, wrote 2 memories (ctrl+o to expand)\n\n" +
				"● Updated plan\n  ⎿  /plan to preview\n\n● Bash(ls)\n  ⎿  a.go\n",
			[]string{"Bash Ran 2 shell commands #1 => ?", "Bash Ran 2 shell commands #2 => ?", "Read Read 1 file #1 => ?", "Bash ran 1 shell command #3 => ?",
				"Bash Committed 8addaf4 #4 => ?", "Bash pushed to main #5 => ?", "Bash ran 1 shell command #6 => ?", "Bash ls => a.go"}},
	}
	for _, tt := range tests {
		tr, err := ReadFrom("session.txt", strings.NewReader(tt.text))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var got []string
		for _, a := range tr.Agents {
			for _, c := range a.Calls() {
				r := "?"
				if c.HasResult {
					r = c.Result
				}
				got = append(got, c.Tool+" "+string(c.Args)+" => "+r)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s:\n got  %q\n want %q", tt.name, got, tt.want)
		}
	}
}

// Claude Code's editor refuses in words of its own, which the research preview drew without
// "Error" before them: such a refusal failed its call (validation round r104a U4).
func TestClaudeCodeTextEditorRefusalsFail(t *testing.T) {
	var b strings.Builder
	b.WriteString("> fix it\n\n")
	refusals := []string{"String to replace not found in file.", "No changes to make: old_string and new_string are exactly the same.",
		"Found 13 matches of the string to replace. For safety, this tool only supports replacing exactly one occurrence at a time.",
		"File has not been read yet. Read it first before writing to it.", "File must be read first"}
	for _, r := range refusals {
		b.WriteString("● Update(file_path: parser.py)…\n  ⎿  " + r + "\n\n")
	}
	b.WriteString("● Update(file_path: parser.py)…\n  ⎿  Updated parser.py with 1 addition and 1 removal\n\n")
	b.WriteString("● Bash(grep -c Found log.txt)\n  ⎿  Found 13 matches in 2 files\n")
	tr, err := ReadFrom("session.txt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var failed []bool
	for _, c := range tr.Agents[0].Calls() {
		failed = append(failed, c.Failed)
	}
	if want := []bool{true, true, true, true, true, false, false}; !slices.Equal(failed, want) {
		t.Errorf("failed %v, want %v", failed, want)
	}
}

// A call Claude Code cancelled names the call of its reply that failed: the calls drawn from
// that one to it were one reply, and the cancelled ones failed (validation round r127a F1, F2).
func TestClaudeCodeTextParallelCallsCancelledWithTheOneThatFailed(t *testing.T) {
	const paste = "> move the tests\n\n● Bash(ls test)\n  ⎿  invalid\n     valid\n\n" +
		"● Bash(git mv test/invalid/test_postfix_increment_member_chain_arrow__7.c\n      test/valid/test_postfix_increment_member_chain_arrow__7.c && echo moved)\n" +
		"  ⎿  Error: Exit code 128\n     fatal: bad source\n\n" +
		"● Write(test/valid/a.c)\n  ⎿  Error writing file\n\n● Write(test/valid/b.c)\n  ⎿  Error writing file\n\n" +
		"● Bash(./test/run_all_tests.sh 2>&1 | tail -25)\n  ⎿  Cancelled: parallel tool call Bash(git mv \n     test/invalid/test_postfix_increme…) errored\n\n" +
		"● Bash(git status --short)\n  ⎿  M a.c\n"
	tr, err := ReadFrom("session.txt", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 6 {
		t.Fatalf("%d calls: %q", len(calls), describe(tr.Agents[0].Events))
	}
	turn := calls[1].Turn
	if turn == "" || calls[2].Turn != turn || calls[3].Turn != turn || calls[4].Turn != turn || calls[0].Turn == turn || calls[5].Turn == turn {
		t.Errorf("turns %q: want calls 1 to 4 one reply, and neither the call before nor the one after", []string{calls[0].Turn, calls[1].Turn, calls[2].Turn, calls[3].Turn, calls[4].Turn, calls[5].Turn})
	}
	if !calls[4].Failed {
		t.Error("the cancelled call is not failed")
	}
}

// A paste may open with a bracketed note of the one who pasted it, which no JSON value is: the
// copy is still read as the session it shows.
func TestClaudeCodeTextPasteOpeningWithANote(t *testing.T) {
	paste := "[everything working fine up until this point]\n● Now let me run the tests.\n\n" + strings.Repeat("● Bash(npm test)\n  ⎿  Error: 1 failed\n\n", 2)
	tr, err := ReadFrom("paste.txt", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatClaudeText || len(tr.Agents[0].Calls()) != 2 {
		t.Errorf("read as %q with %d agents: want Claude Code's text and its two calls", tr.Format, len(tr.Agents))
	}
}
