package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// The fixture was written for this test from Aider's chat history writer (its terminal I/O
// appends user input as "#### " lines, its own messages as "> " blocks ending in two spaces,
// the model's replies between blank lines): two runs, the first re-submitting a SEARCH block
// that does not match, the second a whole-file edit the linter sends back.
func TestAiderHistoryFixture(t *testing.T) {
	tr, err := Read("testdata/aider/chat.history.md")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatAider || tr.Sessions != 2 || len(tr.Agents) != 2 {
		t.Fatalf("read as %s with %d sessions and %d agents, want aider with two of each", tr.Format, tr.Sessions, len(tr.Agents))
	}
	want := [][]string{{
		`text[harness] "Aider v0.86.1"`,
		`text[harness] "Main model: anthropic/claude-son…"`,
		`text[harness] "Git repo: .git with 12 files"`,
		`user "Rename the helper in util.py to …"`,
		`text[model] "I will rename it."`,
		`call edit "{\"blocks\":\"util.py\\n<<<<<<< SEAR…" => "The LLM did not conform to the e…" FAILED`,
		`text[model] "Sorry, let me try again with the…"`,
		`call edit "{\"blocks\":\"util.py\\n<<<<<<< SEAR…" => "The LLM did not conform to the e…" FAILED`,
		`call edit "{\"blocks\":\"util.py\\n<<<<<<< SEAR…" => "Applied edit to util.py\nCommit 3…"`,
	}, {
		`user "/add app.py"`,
		`text[harness] "Added app.py to the chat"`,
		`user "Print the version at startup"`,
		`call edit "{\"blocks\":\"app.py\\n` + "```" + `python\\nim…" => "Applied edit to app.py"`,
		`call lint "{\"command\":\"/usr/bin/python3 -m …" => "app.py: F821 undefined name 'mai…" FAILED`,
		`text[harness] "Attempt to fix lint errors? (Y)e…"`,
		`text[model] "The function is missing; I will …"`,
	}}
	for i, a := range tr.Agents {
		if got := describe(a.Events); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("run %d:\n got %s\nwant %s", i, strings.Join(got, "\n     "), strings.Join(want[i], "\n     "))
		}
	}
	// The user's two lines are one turn; the retried block is the same call both times.
	if u := tr.Agents[0].Events[3].Text; u != "Rename the helper in util.py to parse_line\nand update its callers." {
		t.Errorf("user turn %q", u)
	}
	first, second := tr.Agents[0].Events[5], tr.Agents[0].Events[7]
	if string(first.Args) != string(second.Args) || first.Result != second.Result {
		t.Errorf("the re-submitted block reads differently:\n%s => %q\n%s => %q", first.Args, first.Result, second.Args, second.Result)
	}
	// aider's accounting lines are the runs' usage, not results.
	if u := tr.Agents[0].Usage; u.InputTokens != 7100 || u.OutputTokens != 308 || u.CostUSD < 0.0265 || u.CostUSD > 0.0267 {
		t.Errorf("run 1 usage %+v, want 7100 in, 308 out, $0.0266", u)
	}
}

// The default preset reminds the model at the third re-submission of a block that keeps
// failing to match, as it does a tool call that keeps failing. A file name is a path
// whatever its separators: the same failing edit sent with Assets/Core/Item.cs once and
// Assets\Core\Item.cs twice is one edit sent three times.
func TestAiderLoopOfFailedEditsIsCaught(t *testing.T) {
	tests := []struct {
		name, block, failure string
		files                []string
		trailer              string
	}{
		{"one block sent three times, aider giving up after the third",
			"```python\n<<<<<<< SEARCH\n    return tokens[:-1]\n=======\n    return tokens\n>>>>>>> REPLACE\n```\n\n",
			"parser.py", []string{"parser.py", "parser.py", "parser.py"},
			// Aider giving up after the third attempt is not part of that attempt's result,
			// which is the same failure as the two before.
			"> Only 3 reflections allowed, stopping.  \n> You can use /undo to undo and discard each aider commit.  \n\n"},
		{"one file named with either separator",
			"```csharp\n<<<<<<< SEARCH\n    int price;\n=======\n    public int price;\n>>>>>>> REPLACE\n```\n\n",
			`Assets\Core\Item.cs`, []string{`Assets/Core/Item.cs`, `Assets\Core\Item.cs`, `Assets\Core\Item.cs`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("# aider chat started at 2026-11-30 10:00:00\n\n#### fix it  \n\n")
			for _, name := range tt.files {
				b.WriteString(name + "\n" + tt.block)
				b.WriteString("> The LLM did not conform to the edit format.  \n> # 1 SEARCH/REPLACE block failed to match!\n\n## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in " + tt.failure + "  \n\n")
			}
			b.WriteString(tt.trailer)
			tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			calls, got := defaultNotices(t, tr.Agents[0])
			if want := []string{"call 3: stuck edit × 3"}; calls != 3 || !reflect.DeepEqual(got, want) {
				t.Errorf("%d calls, notices %q; want 3 calls and %q", calls, got, want)
			}
		})
	}
}

// Replies that edit one file whose SEARCH keeps failing, the block growing and aider's answer
// changing with it ("Did you mean to match some of these actual lines"), are one failure
// however each rejection reads: told at the 4th, as an editor's rejected edits of one file
// are (validation round r79b M3: deepseek-coder sent one wrong line four times, untold).
func TestAiderEditsOfOneFileRejectedAgainAndAgain(t *testing.T) {
	var b strings.Builder
	b.WriteString("# aider chat started at 2024-07-28 10:00:00\n\n#### show the counts as -N/M  \n\n")
	line := "      text = \"#{owned_number}/#{material['number']}\"\n"
	blocks := []string{line, line, line, line + "      if owned_number < material['number']\n        self.contents.font.color = crisis_color\n"}
	for i, search := range blocks {
		if i == 0 { // the first reply also changes a label, which applies
			b.WriteString("window_craftstatus.rb\n```ruby\n<<<<<<< SEARCH\n    draw_text(4, 0, \"Need\")\n=======\n    draw_text(4, 0, \"Uses\")\n>>>>>>> REPLACE\n```\n\n")
		}
		b.WriteString("window_craftstatus.rb\n```ruby\n<<<<<<< SEARCH\n" + search + "=======\n" + strings.Replace(search, `"#{owned`, `"-#{owned`, 1) + ">>>>>>> REPLACE\n```\n\n")
		b.WriteString("> The LLM did not conform to the edit format.  \n> # 1 SEARCH/REPLACE block failed to match!  \n> ## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in window_craftstatus.rb  \n")
		if i == 0 {
			b.WriteString("> # The other 1 SEARCH/REPLACE block were applied successfully.  \n")
		}
		if i == 3 {
			b.WriteString("> Did you mean to match some of these actual lines from window_craftstatus.rb?  \n> text = \"#{owned_number}/#{material[\"number\"]}\"  \n")
		}
		b.WriteString("> The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc  \n\n")
	}
	tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 4 || !strings.Contains(string(calls[0].Args), `"path":"window_craftstatus.rb"`) {
		t.Fatalf("calls %+v; want 4 edits of window_craftstatus.rb", calls)
	}
	if _, got := defaultNotices(t, tr.Agents[0]); len(got) != 1 || !strings.HasPrefix(got[0], "call 4: errors") {
		t.Errorf("notices %q; want one, the errors notice at the 4th rejected edit", got)
	}
}

// A reply that edits several files names none: its rejections are not one file's.
func TestAiderEditOfSeveralFilesNamesNoFile(t *testing.T) {
	reply := "a.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n\nb.py\n```python\n<<<<<<< SEARCH\ny = 1\n=======\ny = 2\n>>>>>>> REPLACE\n```\n"
	_, _, file := aiderEditBlocks(reply)
	if file != "" {
		t.Errorf("file %q, want none for a reply editing a.py and b.py", file)
	}
	if _, _, one := aiderEditBlocks(strings.ReplaceAll(reply, "b.py", "a.py")); one != "a.py" {
		t.Errorf("file %q, want a.py for a reply whose blocks all edit it", one)
	}
}

// One of aider's messages runs to its line that ends in exactly two spaces: the shell commands
// it offers to run are printed in aligned columns, their lines ending in longer runs.
func TestAiderMessageEndsAtItsLineBreak(t *testing.T) {
	doc := "# aider chat started at 2026-11-30 10:00:00\n\n#### write the script  \n\n" +
		"> export GITHUB_TOKEN=your_token\nexport OWNER=owner             \nexport REPO=repo          \n./check.sh  \n" +
		"> Run shell commands? (Y)es/(N)o [Yes]: n  \n\nI left the script as it is.\n"
	tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`user "write the script"`, `text[harness] "export GITHUB_TOKEN=your_token\ne…"`,
		`text[harness] "Run shell commands? (Y)es/(N)o […"`, `text[model] "I left the script as it is."`}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
}

// A line of two spaces and nothing else inside aider's message is a line it quotes (a file's
// indented blank line), not the message's end: aider strips what it says before it ends it
// with two spaces.
func TestAiderMessageGoesOnPastAQuotedLineOfTwoSpaces(t *testing.T) {
	doc := "# aider chat started at 2026-11-30 10:00:00\n\n#### mark the task done  \n\n" +
		"TODO.md\n```markdown\n<<<<<<< SEARCH\n### ACCEPTANCE CRITERIA:\n=======\n### DONE:\n>>>>>>> REPLACE\n```\n\n" +
		"> The LLM did not conform to the edit format.\n# 1 SEARCH/REPLACE block failed to match!\n\n" +
		"Did you mean to match some of these actual lines from TODO.md?\n\n```\n- [x] 7.5 HUD Update:\n  \n### ACCEPTANCE CRITERIA:\n```\n\n" +
		"The SEARCH section must exactly match an existing block of lines  \n\n" +
		"I see. The file has an indented blank line.\n"
	tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var result string
	var said []string
	for _, e := range tr.Agents[0].Events {
		switch e.Type {
		case loopguard.EventCall:
			result = e.Result
		case loopguard.EventText:
			said = append(said, e.Text)
		}
	}
	if !strings.Contains(result, "must exactly match an existing block") {
		t.Errorf("the edit's result stops short of aider's last line:\n%s", result)
	}
	if want := []string{"I see. The file has an indented blank line."}; !reflect.DeepEqual(said, want) {
		t.Errorf("texts %q, want %q", said, want)
	}
}

// Aider's reports on its own commit after an edit (git failing to commit, or to list the
// repository's files) say nothing of the edit: an applied edit stays applied, and the report
// is the harness's text.
func TestAiderGitChoresAreNotTheEditsOutcome(t *testing.T) {
	doc := "# aider chat started at 2026-11-30 10:00:00\n\n#### fix the f-strings  \n\n" +
		"gen.py\n```python\n<<<<<<< SEARCH\nx = f\"{a}\"\n=======\nx = f\"{{a}}\"\n>>>>>>> REPLACE\n```\n\n" +
		"> Applied edit to gen.py  \n" +
		"> Unable to list files in git repo: BadObject: b'0f14010aa32d'  \n" +
		"> Is your git repo corrupted?  \n" +
		"> Unable to commit: Cmd('git') failed due to: exit code(1)  \n" +
		"> cmdline: git commit -m chore: run the linter  \n" +
		">  \n" +
		"> Co-authored-by: aider (claude-sonnet-4-5) <aider@aider.chat> --no-verify -- /w/gen.py  \n" +
		"> stdout: 'On branch master  \n" +
		"> nothing added to commit'  \n" +
		"> Commit ed72cac fix: escape the braces  \n"
	tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	harness := 0
	for _, e := range tr.Agents[0].Events {
		switch {
		case e.Type == loopguard.EventCall:
			calls = append(calls, fmt.Sprintf("%s failed=%v: %q", e.Tool, e.Failed, e.Result))
		case e.Type == loopguard.EventText && e.Source == "harness":
			harness++
		}
	}
	want := []string{`edit failed=false: "Applied edit to gen.py\nCommit ed72cac fix: escape the braces"`}
	if !reflect.DeepEqual(calls, want) || harness != 7 { // the seven reports; the blank line is no text
		t.Errorf("calls %q with %d harness texts, want %q with the 7 reports on git", calls, harness, want)
	}
}

// A history written on Windows ends its lines with "\r\n": it reads as the same history.
func TestMarkdownWithWindowsLineEnds(t *testing.T) {
	for _, path := range []string{"testdata/aider/chat.history.md", "testdata/real/claude-code-markdown/agent-30e7d465-untitled-full.md"} {
		lf, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		crlf, err := ReadFrom(filepath.Base(path), bytes.NewReader(bytes.ReplaceAll(raw, []byte("\n"), []byte("\r\n"))))
		if err != nil {
			t.Fatal(err)
		}
		if len(lf.Agents) == 0 || len(crlf.Agents) != len(lf.Agents) || lf.Format != crlf.Format {
			t.Fatalf("%s: %d agents as %s, with CRLF %d as %s", path, len(lf.Agents), lf.Format, len(crlf.Agents), crlf.Format)
		}
		for i := range lf.Agents {
			if g, w := len(crlf.Agents[i].Calls()), len(lf.Agents[i].Calls()); g != w || w == 0 && i == 0 {
				t.Errorf("%s agent %d: %d calls with CRLF, %d with LF", path, i, g, w)
			}
		}
	}
}

// In architect mode aider hands the architect's reply to the editor model as a user message,
// logged as "#### " lines that repeat the reply word for word. Nobody typed it: it is not a
// user turn (read as one, it doubled every reply and reset the rules between the editor's
// attempts), while a user message of other words stays one.
func TestAiderArchitectHandOffIsNoUserTurn(t *testing.T) {
	doc := "# aider chat started at 2026-11-30 10:00:00\n\n" +
		"> Model: qwen with architect edit format  \n> Editor model: qwen with editor-whole edit format  \n\n" +
		"#### fix the poster attribute  \n\n" +
		"Change the poster:\n\n1. In index.astro  \nuse a plain path.\n\n" +
		"> Tokens: 23k sent, 298 received.  \n\n" +
		"#### Change the poster:  \n####   \n#### 1. In index.astro  \n#### use a plain path.  \n\n" +
		"index.astro\n```astro\n<<<<<<< SEARCH\nposter={img}\n=======\nposter=\"/p.webp\"\n>>>>>>> REPLACE\n```\n\n" +
		"> The LLM did not conform to the edit format.  \n\n" +
		"#### Change the poster, please.  \n\n" +
		"Done.\n"
	tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`text[harness] "Model: qwen with architect edit …"`,
		`text[harness] "Editor model: qwen with editor-w…"`,
		`user "fix the poster attribute"`,
		`text[model] "Change the poster:\n\n1. In index.…"`,
		`call edit "{\"blocks\":\"index.astro\\n<<<<<<< …" => "The LLM did not conform to the e…" FAILED`,
		`user "Change the poster, please."`,
		`text[model] "Done."`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// The user's answer to aider's own question, which aider logs as typed input ("#### Add file to
// the chat? ... [Yes]: all"), is no request of the user's: aider sends the files itself
// (validation round r155c U1).
func TestAiderConfirmAnswerIsNoUserTurn(t *testing.T) {
	doc := "# aider chat started at 2026-03-01 10:00:00\n\n" +
		"#### fix the favicon  \n\n" +
		"Please add src/app/page.tsx to the chat.\n\n" +
		"> src/app/page.tsx  \n" +
		"> Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: a  \n\n" +
		"#### Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: all  \n" +
		"> Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: a  \n\n" +
		"Done.\n\n" +
		"#### Should (Y)es/(N)o be in the docs?  \n\n" +
		"No.\n"
	tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventUser && e.Source != loopguard.SourceHarness {
			users = append(users, e.Text)
		}
	}
	if want := []string{"fix the favicon", "Should (Y)es/(N)o be in the docs?"}; !reflect.DeepEqual(users, want) {
		t.Errorf("user turns %q, want %q\n%s", users, want, strings.Join(describe(tr.Agents[0].Events), "\n"))
	}
}

// Aider hands the editor the architect's reply without the reasoning block it opened with:
// the hand-off is still the reply, no user turn (validation round r132d U2: a plan after a
// thinking block was read again as the user's words).
func TestAiderArchitectHandOffAfterAReasoningBlock(t *testing.T) {
	for _, open := range []string{"thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b", "think"} {
		doc := "# aider chat started at 2026-11-30 10:00:00\n\n> Model: qwen with architect edit format  \n\n#### speed up the renderer  \n\n" +
			"<" + open + ">\nThe user wants a plan. Let me look at the draw loop.\n</" + open + ">\n\n" +
			"Plan:\n\n1. Cache the glyphs.\n2. Batch the draws.\n\n> Tokens: 9k sent, 400 received.  \n\n" +
			"#### Plan:  \n####   \n#### 1. Cache the glyphs.  \n#### 2. Batch the draws.  \n\nI will edit it.\n"
		tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if users := userTurns(tr.Agents[0].Events); users != 1 {
			t.Errorf("<%s>: %d user turns, want 1 (the hand-off is the architect's reply): %s", open, users, strings.Join(describe(tr.Agents[0].Events), "\n"))
		}
	}
}

// An architect's reply with "#### " headings of its own was read in pieces, the headings as
// user messages: handed off, it is one model message again and no user turn at all. Outside
// architect mode, a user typing the model's words back is the user speaking.
func TestAiderArchitectReplyWithHeadingsIsOneMessage(t *testing.T) {
	reply := "Plan:\n\n#### 1. The poster\n\nUse a plain path.\n\n#### 2. The meta tag\n\nSame."
	var handOff strings.Builder
	for _, line := range strings.Split(reply, "\n") {
		handOff.WriteString("#### " + line + "  \n")
	}
	doc := "# aider chat started at 2026-11-30 10:00:00\n\n> Model: m with architect edit format  \n\n#### fix the page  \n\n" +
		reply + "\n\n> Tokens: 1k sent, 90 received.  \n\n" + handOff.String() + "\nI will edit it.\n"
	tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`text[harness] "Model: m with architect edit for…"`, `user "fix the page"`,
		`text[model] "Plan:\n\n#### 1. The poster\n\nUse a…"`, `text[model] "I will edit it."`}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("architect run:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}

	plain := "# aider chat started at 2026-11-30 10:00:00\n\n> Model: m with diff edit format  \n\n#### what next?  \n\n" +
		"Add a retry to test_upload.\n\n#### Add a retry to test_upload.  \n\nDone.\n"
	tr, err = ReadFrom(".aider.chat.history.md", strings.NewReader(plain))
	if err != nil {
		t.Fatal(err)
	}
	users := userTurns(tr.Agents[0].Events)
	if users != 2 {
		t.Errorf("diff-format run: %d user turns, want 2 (the user typed the model's words back)", users)
	}
}

// Aider sets code in the first fence whose marks none of the chat's files hold: a run whose
// files hold Markdown writes its whole-file edits in <source> ... </source> (a real architect
// run of 68 applied edits read as no call at all). Each fence is an edit's; a tag in the
// model's words is not.
func TestAiderEditsInEveryFence(t *testing.T) {
	tests := []struct {
		name  string
		reply string
		want  []string
	}{
		{"backticks", "app.py\n```python\nprint(1)\n```",
			[]string{`call edit "{\"blocks\":\"app.py\\n` + "```" + `python\\npr…" => "Applied edit to app.py"`}},
		{"four backticks", "README.md\n````\n```sh\nmake\n```\n````",
			[]string{`call edit "{\"blocks\":\"README.md\\n` + "````" + `\\n` + "```" + `s…" => "Applied edit to app.py"`}},
		{"source tags", "Here it is.\n\nbackend/app.py\n<source>\nimport os\n</source>",
			[]string{`text[model] "Here it is."`, `call edit "{\"blocks\":\"backend/app.py\\n<sour…" => "Applied edit to app.py"`}},
		{"sourcecode tags with a language", "a.go\n<sourcecode>go\npackage a\n</sourcecode>",
			[]string{`call edit "{\"blocks\":\"a.go\\n<sourcecode>go\\…" => "Applied edit to app.py"`}},
		{"search/replace in tags", "a.py\n<pre>\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n</pre>\nDone.",
			[]string{`text[model] "Done."`, `call edit "{\"blocks\":\"a.py\\n<<<<<<< SEARCH\\…" => "Applied edit to app.py"`}},
		{"html in words is no fence", "Use <code>x</code> here.\n<code>y</code>",
			[]string{`text[model] "Use <code>x</code> here.\n<code>y…"`, `text[harness] "Applied edit to app.py"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "# aider chat started at 2026-11-30 10:00:00\n\n#### go  \n\n" + tt.reply + "\n\n> Applied edit to app.py  \n"
			tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			got := describe(tr.Agents[0].Events)[1:] // after the user turn
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
			}
		})
	}
}

// A fence of four backticks holds blocks of three: it ends at its own mark, not at the first
// line opening with three (which took the next line of the file for a file name, and the
// line before it for the model's words).
func TestAiderFourBacktickFenceEndsAtFour(t *testing.T) {
	doc := "# aider chat started at 2026-11-30 10:00:00\n\n#### document the build  \n\n" +
		"README.md\n````\n# Build\n```sh\nmake\nmake test\n```\n````\n\n> Applied edit to README.md  \n"
	tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := "README.md\n````\n# Build\n```sh\nmake\nmake test\n```\n````"
	calls, words := 0, 0
	for _, e := range tr.Agents[0].Events {
		switch {
		case e.Type == loopguard.EventCall:
			calls++
			var args struct{ Blocks string }
			if err := json.Unmarshal(e.Args, &args); err != nil || args.Blocks != want {
				t.Errorf("the edit's blocks %q, want %q", args.Blocks, want)
			}
		case e.Type == loopguard.EventText && e.Source == "model":
			words++
		}
	}
	if calls != 1 || words != 0 {
		t.Errorf("%d calls and %d model texts, want the one edit and no words", calls, words)
	}
}

// Aider ends every line of the user's input with two spaces; a "#### " line without them is a
// heading of the model's own reply, over a file's edit block (validation round r40a).
func TestAiderModelHeadingsAreTheModels(t *testing.T) {
	doc := "# aider chat started at 2026-11-30 10:00:00\n\n> Model: m with diff edit format  \n\n#### style the carousel  \n\n" +
		"I'll change both files.\n\n#### client/src/App.css\n\n```css\nclient/src/App.css\n<<<<<<< SEARCH\n.a {}\n=======\n.a { gap: 4px; }\n>>>>>>> REPLACE\n```\n\n" +
		"#### client/src/App.js\n\n```js\nclient/src/App.js\n<<<<<<< SEARCH\nconst a = 1;\n=======\nconst a = 2;\n>>>>>>> REPLACE\n```\n\n" +
		"> Tokens: 2k sent, 120 received.  \n> Applied edit to client/src/App.css  \n> Applied edit to client/src/App.js  \n"
	tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	users, calls := 0, tr.Agents[0].Calls()
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventUser {
			users++
		}
	}
	if users != 1 || len(calls) != 1 || calls[0].Failed {
		t.Errorf("%d user turns and calls %v; want the one user turn and one edit that applied", users, calls)
	}
}

// An aider that ended no line with Markdown's line break (v0.50 on Windows): user lines and
// messages without the two trailing spaces, each message one line. Its replies and their
// edits are read, not swallowed by the message before them.
func TestAiderOldLayoutWithoutLineBreaks(t *testing.T) {
	doc := "# aider chat started at 2024-08-20 14:08:19\n\n" +
		"> Aider v0.50.1\n> Git repo: .git with 116 files\n\n" +
		"#### /add app.css\n\n> Added app.css to the chat\n\n" +
		"#### make the accent purple\n\n" +
		"I will change the accent colour.\n\napp.css\n```css\n<<<<<<< SEARCH\n  --color-accent: #e22120;\n=======\n  --color-accent: #8A2BE2;\n>>>>>>> REPLACE\n```\n\n" +
		"> Applied edit to app.css\n> Commit 1a2b3c4 feat: purple accent\n\n" +
		"#### and the heading font\n\n" +
		"Now the heading font.\n\napp.css\n```css\n<<<<<<< SEARCH\nh1 { font-family: serif; }\n=======\nh1 { font-family: 'Oswald', sans-serif; }\n>>>>>>> REPLACE\n```\n\n" +
		"> Applied edit to app.css\n"
	tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var calls, users int
	for _, e := range tr.Agents[0].Events {
		switch e.Type {
		case loopguard.EventCall:
			calls++
			if !strings.Contains(e.Result, "Applied edit to app.css") {
				t.Errorf("call %s answered %q, want aider's applied edit", e.Args, e.Result)
			}
		case loopguard.EventUser:
			users++
		}
	}
	if calls != 2 || users != 3 {
		t.Errorf("read %d calls and %d user messages, want 2 and 3: %v", calls, users, describe(tr.Agents[0].Events))
	}
}

// What aider asks its user after an edit ("Create new file? (Y)es/(N)o [Yes]: y", after the
// file's name) is no part of what the edit did, and the lint aider runs after an applied edit
// is a call of its own, its findings without where in the file they are: four whole-file
// edits each leaving the same lint error, its column moving, are the lint failing alike
// across the edits, and are told (validation rounds r86b M1, r99b U2).
func TestAiderQuestionsAreNotTheEditsOutcome(t *testing.T) {
	lint := func(col int) string {
		return "> Applied edit to kepler.py  \n>  \n> # Fix any errors below, if possible.  \n>  \n" +
			"> ## Running: python -m flake8 --select=E9,F821 --show-source --isolated kepler.py  \n>  \n" +
			fmt.Sprintf("> kepler.py:23:%d: F821 undefined name 'k'  \n", col) + "> return tuple(y0[i] + dt / 6 * sum(k[j][i] for j in range(4)))  \n> ^  \n>  \n" +
			"> Attempt to fix lint errors? (Y)es/(N)o [Yes]: y  \n\n"
	}
	reply := func(n int) string {
		return fmt.Sprintf("kepler.py\n```\nimport math\n\ndef simulate(dt):\n    k1 = %d\n    return tuple(sum(k[j] for j in range(4)))\n```\n\n", n)
	}
	doc := "\n# aider chat started at 2026-05-10 07:55:00\n\n#### Write kepler.py  \n\n" +
		reply(1) + "> kepler.py  \n> Create new file? (Y)es/(N)o [Yes]: y  \n" + lint(43) +
		reply(2) + lint(44) + reply(3) + lint(44) + reply(4) + lint(44) + "> Only 3 reflections allowed, stopping.  \n"
	tr, err := ReadFrom("chat.history.md", strings.NewReader("# aider chat started at 2026-05-10 07:54:00\n"+doc))
	if err != nil {
		t.Fatal(err)
	}
	a := tr.Agents[len(tr.Agents)-1]
	calls := a.Calls()
	if len(calls) != 8 || calls[0].Result != "Applied edit to kepler.py" || calls[0].Result != calls[2].Result || calls[0].Failed ||
		calls[1].Tool != "lint" || !calls[1].Failed || calls[1].Result != "kepler.py: F821 undefined name 'k'" || calls[1].Result != calls[3].Result {
		t.Fatalf("calls %q: want four applied edits, the first answered as the others, each followed by the lint failing alike", describe(calls))
	}
	if _, notices := defaultNotices(t, a); len(notices) == 0 {
		t.Error("four edits leaving one lint error: no notice")
	}
}

// A history may open with a few lines before its first run's title: a sentence saying what
// the file is, or a merge's conflict marker (validation round r99b U1).
func TestAiderHistoryAfterAFewLines(t *testing.T) {
	run := "# aider chat started at 2025-04-15 09:15:00\n\n#### Fix the parser  \n\nparser.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\n> Applied edit to parser.py  \n"
	for _, tt := range []struct {
		name, preface string
		read          bool
	}{
		{"a sentence", "This file contains transcript of a chat with [aider](https://aider.ai).\n\n\n", true},
		{"a conflict marker", "<<<<<<< HEAD\n", true},
		{"a document that only quotes one", strings.Repeat("Some notes about our tools.\n", 6), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("history.md", strings.NewReader(tt.preface+run))
			if read := err == nil && tr.Format == FormatAider && len(tr.Agents) == 1 && len(tr.Agents[0].Calls()) == 1; read != tt.read {
				t.Errorf("read as aider with one edit: %v, want %v (err %v)", read, tt.read, err)
			}
		})
	}
}

// A long architect reply whose paragraphs are set apart by blank lines, each line ending in
// spaces, is its hand-off all the same: the lengths compared leave the blank lines and the
// spaces out, as the comparison does (validation round r121a U4: 34 of 72 architect runs kept
// the hand-off as a user's turn).
func TestAiderArchitectHandOffOfAReplyWithManyBlankLines(t *testing.T) {
	var reply, handOff strings.Builder
	for k := range 20 {
		fmt.Fprintf(&reply, "Step %02d: edit file.   \n\n\n\n\n\n", k)
		fmt.Fprintf(&handOff, "#### Step %02d: edit file.  \n", k)
	}
	doc := "# aider chat started at 2026-11-30 10:00:00\n\n" +
		"> Model: deepseek with architect edit format  \n> Editor model: deepseek with editor-diff edit format  \n\n" +
		"#### do the next task  \n\n" + reply.String() +
		"> Tokens: 23k sent, 298 received.  \n\n" + handOff.String() + "\n" +
		"todo.md\n```\n<<<<<<< SEARCH\n[ ] a\n=======\n[x] a\n>>>>>>> REPLACE\n```\n\n" +
		"> Applied edit to todo.md  \n"
	doc = strings.ReplaceAll(doc, "\n", "\r\n") // as the real history was written, on Windows
	tr := readAiderHistory(t, doc)
	users := userTurns(tr.Agents[0].Events)
	if users != 1 || len(tr.Agents[0].Calls()) != 1 {
		t.Errorf("%d user turns and %d calls, want the one typed and the edit", users, len(tr.Agents[0].Calls()))
	}
}

// Git refusing to add a file an edit wrote (one a .gitignore ignores) says nothing of the
// edit, which was written (validation round r121a U3: two applied edits read as failed).
func TestAiderGitRefusingToAddAFileIsNoFailedEdit(t *testing.T) {
	doc := "# aider chat started at 2026-11-30 10:00:00\n\n#### add the test  \n\n" +
		"test/t.py\n```python\n<<<<<<< SEARCH\n=======\nassert True\n>>>>>>> REPLACE\n```\n\n" +
		"> Applied edit to test/t.py  \n" +
		"> Unable to add C:\\w\\test\\t.py: Cmd('git') failed due to: exit code(1)  \n" +
		"> cmdline: git add C:\\w\\test\\t.py  \n" +
		"> stderr: 'The following paths are ignored by one of your .gitignore files:  \n" +
		"> test  \n" +
		"> hint: Use -f if you really want to add them.'  \n" +
		"> Commit 53f0e98 test: add t.py  \n"
	tr := readAiderHistory(t, doc)
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || calls[0].Failed || !strings.HasPrefix(calls[0].Result, "Applied edit to test/t.py") {
		t.Errorf("calls %+v, want the edit applied", calls)
	}
}

// Inside a fence of the model's reply, a line opening with "> " is the file's own (a Markdown
// quote in a README written whole), not aider speaking: read as aider's, it swallowed the
// rest of the reply, four more files' edits and aider's answers (validation round r121a U2).
func TestAiderQuoteInsideAFencedFileIsTheFiles(t *testing.T) {
	doc := "# aider chat started at 2026-11-30 10:00:00\n\n#### write the readme and the test  \n\n" +
		"README.md\n````\n# Señales\n\n> **Crear una biblioteca modular**\n\nEl objetivo.\n````\n\n" +
		"test/t.py\n````\nassert True\n````\n\n" +
		"> Applied edit to README.md  \n> Applied edit to test/t.py  \n"
	tr := readAiderHistory(t, doc)
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || !strings.Contains(string(calls[0].Args), "El objetivo.") || !strings.Contains(string(calls[0].Args), "assert True") ||
		!strings.HasPrefix(calls[0].Result, "Applied edit to README.md") {
		t.Errorf("calls %+v, want one reply's edit of both files, answered by aider", calls)
	}
}

// A history of the old layout ends no line with two spaces, so nothing tells a reply cut short
// inside its fence from aider's words after it: such a reply ends at aider's next message, as
// before (an overloaded API cut one, and aider's retries followed).
func TestAiderOldLayoutReplyCutInsideItsFence(t *testing.T) {
	doc := "# aider chat started at 2024-11-30 10:00:00\n\n#### fix init_memory\n\n" +
		"src/bare.cpp\n```cpp\n<<<<<<< SEARCH\nvoid init_memory() {\n=======\nvoid init_memory() {\n    for(index = 0;\n\n" +
		"> litellm.InternalServerError: AnthropicException - Overloaded.\n> Retrying in 0.2 seconds...\n\n" +
		"#### what specification does it follow?\n\nThe 6502's.\n"
	tr := readAiderHistory(t, doc)
	users := userTurns(tr.Agents[0].Events)
	if users != 2 {
		t.Errorf("%d user turns, want the two typed: the cut reply swallowed what came after it", users)
	}
}

// readAiderHistory reads doc as an aider chat history.
func readAiderHistory(t *testing.T, doc string) *Transcript {
	t.Helper()
	tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// userTurns counts the user's turns among events.
func userTurns(events []loopguard.Event) int {
	n := 0
	for _, e := range events {
		if e.Type == loopguard.EventUser {
			n++
		}
	}
	return n
}

// aiderBenchmarkTry is one try of aider's benchmark harness: the model's edit, aider's word
// that it applied, the harness's run of the tests, and (unless it is the last try) the output
// sent back as the next request.
func aiderBenchmarkTry(n int, output string, last bool) string {
	try := "```python\npov.py\n<<<<<<< SEARCH\nreturn None\n=======\nreturn " + strconv.Itoa(n) + "\n>>>>>>> REPLACE\n```\n\n" +
		"> Tokens: 3.9k sent, 1.5k received.\nCost: $0.03 message, $0.03 session.  \n> Applied edit to pov.py  \n" +
		"```\n" + output + "\n```\n"
	if last {
		return try
	}
	var b strings.Builder
	for line := range strings.SplitSeq(output, "\n") {
		b.WriteString("#### " + line + "  \n")
	}
	return try + b.String() + "####  \n#### See the testing errors above.  \n#### Fix the code in pov.py to resolve the errors.  \n\n"
}

// In a history of aider's benchmark, the harness's run of the tests after each edit is a call
// (failed when the harness sent its output back), and the output sent back is the harness's,
// not a user's turn: a test failing the same way after every edit is told.
func TestAiderBenchmarkTestRunsAreCalls(t *testing.T) {
	failing := "EEF\n====\nERROR: test_path (pov_test.PovTest)\n----\nValueError: No path found\n----\nRan 3 tests in 0.001s\n\nFAILED (failures=1, errors=2)"
	doc := "\n# aider chat started at 2024-12-20 10:00:00\n\n> Aider v0.69.0  \n\n#### Reparent a tree on a selected node.  \n#### Use the above instructions to modify the supplied files: pov.py  \n\n"
	for i := 1; i <= 4; i++ {
		doc += aiderBenchmarkTry(i, failing, i == 4)
	}
	tr, err := ReadFrom("pov.aider.chat.history.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var tests, users, fedBack int
	for _, e := range tr.Agents[0].Events {
		switch {
		case e.Type == loopguard.EventCall && e.Tool == "test":
			tests++
			if !e.Failed {
				t.Errorf("test run %d read as passing: its output ends FAILED", tests)
			}
			if e.Result != failing {
				t.Errorf("test result %q, want the fenced output", e.Result)
			}
		case e.Type == loopguard.EventUser && e.Source == loopguard.SourceHarness:
			fedBack++
		case e.Type == loopguard.EventUser:
			users++
		}
	}
	if tests != 4 || users != 1 || fedBack != 3 {
		t.Errorf("%d test calls, %d user turns, %d outputs sent back; want 4, 1 (the task), 3", tests, users, fedBack)
	}
	if _, notices := defaultNotices(t, tr.Agents[0]); len(notices) == 0 {
		t.Error("the same test failure after each of four edits: no notice")
	}
}

// A test run's last line says whether it failed, for the benchmark's last try, whose output
// is sent back to no one.
func TestTestsSayFailed(t *testing.T) {
	for _, tt := range []struct {
		output string
		failed bool
	}{
		{"EEF\n----\nRan 3 tests in 0.001s\n\nFAILED (failures=1, errors=2)\n", true},
		{"..F\n=========== 1 failed, 2 passed in 0.12s ===========", true},
		{"--- FAIL: TestX (0.00s)\nFAIL", true},
		{"...\n----\nRan 3 tests in 0.001s\n\nOK", false},
		{"=========== 3 passed in 0.12s ===========", false},
		{"ok  \tpkg\t0.01s", false},
	} {
		if got := testsSayFailed(tt.output); got != tt.failed {
			t.Errorf("testsSayFailed(%q) = %v, want %v", tt.output, got, tt.failed)
		}
	}
}

// What a reply's edit blocks are known by, and what aider said of them (validation round
// r182a): the model's words before a block are no part of it, and blocks aider neither applied
// nor refused have no answer in the history.
func TestAiderEditsAreTheirBlocksAndTheirOutcome(t *testing.T) {
	tests := []struct {
		name, reply, after string
		want               []string
	}{
		{"the words before a diff are the model's (G5)", "Here's the diff to fix this issue:\n```diff\n--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n```", "> Applied edit to app.py  \n",
			[]string{`text[model] "Here's the diff to fix this issu…"`, `call edit "{\"blocks\":\"` + "```" + `diff\\n--- a/app.py…" => "Applied edit to app.py"`}},
		{"the words before a search/replace block are the model's (G5)", "Here is the corrected block for `src/app.py`:\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE", "> Applied edit to src/app.py  \n",
			[]string{`text[model] "Here is the corrected block for …"`, `call edit "{\"blocks\":\"<<<<<<< SEARCH\\nx = 1…" => "Applied edit to src/app.py"`}},
		{"a file named with aider's own marks around it is still named", "### src/app.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE", "> Applied edit to src/app.py  \n",
			[]string{`call edit "{\"blocks\":\"### src/app.py\\n<<<<<…" => "Applied edit to src/app.py"`}},
		{"blocks aider neither applied nor refused have no answer (G3)", "app.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE", "> Processing your request...  \n",
			[]string{`call edit "{\"blocks\":\"app.py\\n<<<<<<< SEARC…" => -`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "# aider chat started at 2026-11-30 10:00:00\n\n#### go  \n\n" + tt.reply + "\n\n" + tt.after
			tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range describe(tr.Agents[0].Events)[1:] { // after the user turn
				if !strings.HasPrefix(d, "text[harness]") {
					got = append(got, d)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
			}
		})
	}
}

// What aider says after a reply that is not what the edit did, its end of the retries among
// it, comes after the reply's call, as in the file (validation round r248b: "Only 3
// reflections allowed, stopping." came before the reply it ends).
func TestAiderStopComesAfterTheReplyItEnds(t *testing.T) {
	doc := "# aider chat started at 2026-11-30 10:00:00\n\n#### fix it  \n\n" +
		"a.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n\n" +
		"> The LLM did not conform to the edit format.  \n> # 1 SEARCH/REPLACE block failed to match!\n\n" +
		"## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in a.py  \n\n" +
		"> Only 3 reflections allowed, stopping.  \n"
	tr, err := ReadFrom(".aider.chat.history.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, e := range tr.Agents[0].Events {
		switch {
		case e.Type == loopguard.EventCall:
			order = append(order, "call "+e.Tool)
		case e.Type == loopguard.EventText && strings.Contains(e.Text, "reflections allowed"):
			order = append(order, "stop")
		}
	}
	if want := []string{"call edit", "stop"}; !reflect.DeepEqual(order, want) {
		t.Errorf("order %q, want %q", order, want)
	}
}
