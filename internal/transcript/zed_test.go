package transcript

import (
	"reflect"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// zedThread is written for these tests from Zed's Markdown writer for agent threads: a title,
// "## User" and "## Agent" headings, calls as "**Use Tool: name (id)**" with a fenced JSON
// block, results as "**Tool Results: id**", a failure's with " (Error)" after the id.
const zedThread = "# Fix the failing test\n\n## User\n\n<context>\nThe following items were attached by the user.\n</context>\n\nMake `cargo test` pass.\n\n" +
	"## Agent\n\n<think>\nThe test output first.\n</think>\n\nLet me run the tests and read the crate.\n\n" +
	"**Use Tool: terminal (toolu_01)**\n```json\n{\n  \"cd\": \"app\",\n  \"command\": \"cargo test\"\n}\n```\n\n" +
	"**Use Tool: read_file (toolu_02)**\n```json\n{\n  \"path\": \"app/src/lib.rs\"\n}\n```\n\n" +
	"**Tool Results: toolu_01 (Error)**\n\nerror[E0425]: cannot find value `x` in this scope\n\n" +
	"**Tool Results: toolu_02**\n\npub fn f() -> i32 {\n    x\n}\n\n## Phase two\n\n" +
	"## Agent\n\nDone.\n"

// A Zed thread reads as its user turn, the model's words and thinking, and its calls with
// their arguments and results; the calls of one message are one reply, a result marked
// (Error) failed, and a Markdown heading inside a result stays in it.
func TestZedThread(t *testing.T) {
	tr := expectEvents(t, "thread.md", zedThread, FormatZed, []string{
		`user "<context>\nThe following items we…"`,
		`text[thinking] "The test output first."`,
		`text[model] "Let me run the tests and read th…"`,
		`call terminal "{\"cd\":\"app\",\"command\":\"cargo tes…" => "error[E0425]: cannot find value …" FAILED`,
		`call read_file "{\"path\":\"app/src/lib.rs\"}" => "pub fn f() -> i32 {\n    x\n}\n\n## …"`,
		`text[model] "Done."`,
	})
	calls := tr.Agents[0].Calls()
	if calls[0].Turn == "" || calls[0].Turn != calls[1].Turn {
		t.Errorf("the two calls of one message have turns %q and %q, want one", calls[0].Turn, calls[1].Turn)
	}
}

// A command failing the same way three times in a Zed thread is told, as in any transcript.
func TestZedLoopIsCaught(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Build\n\n## User\n\nBuild it.\n\n")
	for i := 0; i < 3; i++ {
		id := "toolu_" + string(rune('a'+i))
		b.WriteString("## Agent\n\nTrying the build again.\n\n**Use Tool: terminal (" + id + ")**\n```json\n{\n  \"command\": \"make\"\n}\n```\n\n")
		b.WriteString("**Tool Results: " + id + " (Error)**\n\nmake: *** No rule to make target 'all'.  Stop.\n\n")
	}
	tr, err := ReadFrom("build.md", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	calls, got := defaultNotices(t, tr.Agents[0])
	if calls != 3 || len(got) == 0 || !strings.HasPrefix(got[0], "call 3: ") {
		t.Errorf("%d calls, notices %q; want 3 calls and a notice at the third", calls, got)
	}
}

// Markdown that only looks like a thread (a "## User" section in a document with no model
// heading) is not read as one.
func TestZedThreadNeedsTheModelsHeading(t *testing.T) {
	for _, doc := range []string{
		"# Guide\n\n## User\n\nHow users log in.\n\n## Admin\n\nHow admins do.\n",
		"## Users\n\n## Agent\n",
	} {
		if isZedThread([]byte(doc), true) {
			t.Errorf("%q read as a Zed thread", doc)
		}
	}
	if !isZedThread([]byte("## User\n\nhi\n\n## Assistant\n\nhello\n"), true) {
		t.Error("a thread without a title is not recognised")
	}
	if got, want := jsonOrInput("not json"), []byte(`{"input":"not json"}`); !reflect.DeepEqual(got, want) {
		t.Errorf("arguments that are not JSON: %s, want %s", got, want)
	}
}

// What only looks like the thread's marks stays where it is: role headings in a fenced block
// of the model's words or in a result while more results are due, a quoted call or result
// inside a result; a tool id used twice answers its calls in order; a thread whose first
// message outgrows the sniffing window is still one.
func TestZedThreadQuotingItsOwnMarks(t *testing.T) {
	doc := "## User\n\nExplain the roles.\n\n## Agent\n\nHere it is:\n\n```markdown\n## User\n\nUsers log in.\n```\n\n" +
		"**Use Tool: read_file (read_file)**\n```json\n{\"path\": \"ROLES.md\"}\n```\n\n" +
		"**Use Tool: read_file (read_file)**\n```json\n{\"path\": \"OLD.md\"}\n```\n\n" +
		"**Tool Results: read_file**\n\n# Roles\n\n## User\n\nA user can log in.\n**Use Tool: terminal (old1)**\n```json\n{\"command\": \"rm -rf build\"}\n```\n**Tool Results: zz**\nline three\n\n" +
		"**Tool Results: read_file**\n\nB\n\n## Agent\n\nDone.\n"
	tr := expectEvents(t, "thread.md", doc, FormatZed, []string{
		`user "Explain the roles."`,
		"text[model] \"Here it is:\\n\\n```markdown\\n## User…\"",
		`call read_file "{\"path\":\"ROLES.md\"}" => "# Roles\n\n## User\n\nA user can log…"`,
		`call read_file "{\"path\":\"OLD.md\"}" => "B"`,
		`text[model] "Done."`,
	})
	if r := tr.Agents[0].Events[2].Result; !strings.Contains(r, "rm -rf build") || !strings.HasSuffix(r, "line three") {
		t.Errorf("the quoted call and result left the first result: %q", r)
	}
	big := "# T\n\n## User\n\n<context>\n" + strings.Repeat("attached file line\n", 20000) + "</context>\n\nhi\n\n## Agent\n\nhello\n"
	if tr, err := ReadFrom("big.md", strings.NewReader(big)); err != nil || tr.Format != FormatZed {
		t.Errorf("a thread with a large first message: %v", err)
	}
}

// zedACPThread is written for TestZedACPThread from Zed's Markdown writer for threads of
// agents it drives over the Agent Client Protocol: "**Tool Call: <title>**", a "Status:" line,
// then the call's content ("Terminal:" and a fenced block for a command, "Diff: <path>" for an
// edit, a fenced file for a read); the title is Markdown, escaped.
const zedACPThread = "## User\n\nThe install fails.\n\n" +
	"## Assistant\n\nI will read the manifest.\n\n" +
	"**Tool Call: Read file `app/package.json` (lines 1-20)**\nStatus: Completed\n\n```app/package.json\n     1\t{\n     2\t  \"name\": \"app\"\n```\n\n" +
	"**Tool Call: npm install jszip**\nStatus: Completed\n\nTerminal:\n```\nnpm error code ERESOLVE\nnpm error ERESOLVE could not resolve\n\n```\n\n" +
	"## Assistant\n\nSearching for the export.\n\n" +
	"**Tool Call: No matches**\nStatus: Completed\n\n```json\n{\n  \"all_matches_len\": 0\n}\n```\n\n" +
	"**Tool Call: No matches**\nStatus: Completed\n\n```json\n{\n  \"all_matches_len\": 0\n}\n```\n\n" +
	"**Tool Call: Search files for regex `export`**\nStatus: Completed\n\nFound 1 match:\n\n## Matches in app/a.md\n\n```\n```\nexport x\n```\n\n" +
	"## Assistant\n\nNow the fix.\n\n" +
	"**Tool Call: app\\_src/page\\-x.tsx**\nStatus: Failed\n\nDiff: app_src/page-x.tsx\n```\n-a\n+b\n```\n\n" +
	"**Tool Call: cargo build**\nStatus: In Progress\n\n"

// An ACP thread's calls are read from their titles, status lines and contents: a command is
// the terminal run on its title (a failing npm install is a command that failed, read from its
// output); a read or a search keeps its title; a title that only reports what a search found
// names no input, so two of them are two calls; a Failed status fails the call; an unfinished
// one has no result; fences that do not pair up inside a call's content do not hide the next
// heading (validation round r91c U1: a real thread of 26 such calls was read with none).
func TestZedACPThread(t *testing.T) {
	tr := expectEvents(t, "acp-thread.md", zedACPThread, FormatZed, []string{
		`user "The install fails."`,
		`text[model] "I will read the manifest."`,
		`call read_file "{\"path\":\"app/package.json\",\"titl…" => "` + "```" + `app/package.json\n     1\t{\n   …"`,
		`call terminal "{\"command\":\"npm install jszip\"}" => "npm error code ERESOLVE\nnpm erro…"`,
		`text[model] "Searching for the export."`,
		`call grep "{\"call\":\"3\",\"title\":\"No matches\"…" => "` + "```" + `json\n{\n  \"all_matches_len\": 0…"`,
		`call grep "{\"call\":\"4\",\"title\":\"No matches\"…" => "` + "```" + `json\n{\n  \"all_matches_len\": 0…"`,
		`call grep "{\"title\":\"Search files for regex…" => "Found 1 match:\n\n## Matches in ap…"`,
		`text[model] "Now the fix."`,
		`call edit_file "{\"diff\":\"` + "```" + `\\n-a\\n+b\\n` + "```" + `\",\"path…" => "Diff: app_src/page-x.tsx\n` + "```" + `\n-a\n…" FAILED`,
		`call tool "{\"title\":\"cargo build\"}" => -`,
	})
	for _, c := range tr.Agents[0].Calls() {
		if c.Turn != "" {
			t.Errorf("call %s has turn %q; an ACP thread does not say which calls one reply made", c.Tool, c.Turn)
		}
	}
}

// An ACP call's arguments are written as the model wrote them, as every reader's are
// (marshalArgs): a command's "&&" is not turned into "\u0026\u0026" in the notices that quote it.
func TestZedACPArgumentsAreWrittenAsWritten(t *testing.T) {
	tool, args, result := acpCall("cd app && make 2>&1", "Terminal:\n```\nok\n```", 1)
	if tool != "terminal" || string(args) != `{"command":"cd app && make 2>&1"}` || result != "ok" {
		t.Errorf("acpCall = %s %s %q", tool, args, result)
	}
}

// A thread of an agent behind Zed (r112c): the user's message Zed kept a checkpoint at opens
// it; each edit is what its diff wrote, so edits of one file are different edits; a title that
// names no input stands for a call of its own; Zed's "thinking" is its own tool.
func TestZedACPEditsAndUntitledCalls(t *testing.T) {
	doc := "## User (checkpoint)\n\nconvert the tests\n\n## Assistant\n\nOne test at a time.\n\n" +
		"**Tool Call: Edit `/r/t.test.ts`**\nStatus: Completed\n\nDiff: /r/t.test.ts\n```\nexpect(a.split(\"\\n\")).toEqual(b);\nconst onError = (error) => log(error);\n```\n\n" +
		"**Tool Call: Edit `/r/t.test.ts`**\nStatus: Completed\n\nDiff: /r/t.test.ts\n```\nexpect(c.split(\"\\n\")).toEqual(d);\n```\n\n" +
		"**Tool Call: Ran command**\nStatus: Completed\n\nTerminal:\n```\nok\n```\n\n" +
		"**Tool Call: Ran command**\nStatus: Completed\n\nTerminal:\n```\nok\n```\n\n" +
		"**Tool Call: thinking**\nStatus: Completed\n\nFinished thinking.\n\n"
	tr, err := ReadFrom("thread.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatZed {
		t.Fatalf("read as %s, want zed", tr.Format)
	}
	var calls []loopguard.Event
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventCall {
			calls = append(calls, e)
		}
	}
	if len(calls) != 5 {
		t.Fatalf("%d calls, want 5", len(calls))
	}
	if string(calls[0].Args) == string(calls[1].Args) {
		t.Errorf("two edits that wrote different text have the same arguments %s", calls[0].Args)
	}
	if string(calls[2].Args) == string(calls[3].Args) {
		t.Errorf("two calls titled %q with no input have the same arguments %s", "Ran command", calls[2].Args)
	}
	if calls[4].Tool != "thinking" {
		t.Errorf("Zed's thinking read as tool %q", calls[4].Tool)
	}
	// An edit Zed completed did not fail, whatever the code it shows says.
	cfg, _ := loopguard.Preset(loopguard.PresetDefault)
	eng, _ := loopguard.New(cfg)
	if eng.CallFailed(calls[0]) {
		t.Errorf("a completed edit whose code holds %q read as failed", "error")
	}
}

// A command's title may go on over several lines (a heredoc, a quoted script): the call is
// read whole, not dropped, and its output is not the call before's (r112c U2).
func TestZedACPTitleOverSeveralLines(t *testing.T) {
	doc := "## User\n\nparse it\n\n## Assistant\n\n" +
		"**Tool Call: ls lib**\nStatus: Completed\n\nTerminal:\n```\nparser.dart\n```\n\n" +
		"**Tool Call: python3 -c \"\nprint(1)\n\"**\nStatus: Completed\n\nTerminal:\n```\n1\n```\n\n"
	tr, err := ReadFrom("thread.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`call terminal "{\"command\":\"ls lib\"}" => "parser.dart"`, `call terminal "{\"command\":\"python3 -c \\\"\\nprint…" => "1"`}
	var got []string
	for _, d := range describe(tr.Agents[0].Events) {
		if strings.HasPrefix(d, "call ") {
			got = append(got, d)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("calls:\n got %q\nwant %q", got, want)
	}
}

// A terminal call whose answer opens with Zed's word that the call's own command exited with
// a failure failed, though its results heading has no "(Error)"; the same words about another
// command, or printed lower down, are the program's output.
func TestZedTerminalExitCodeFailsTheCall(t *testing.T) {
	call := func(id, command, answer string) string {
		return "## Agent\n\n**Use Tool: terminal (" + id + ")**\n```json\n{\n  \"cd\": \"app\",\n  \"command\": \"" + command + "\"\n}\n```\n\n" +
			"**Tool Results: " + id + "**\n\n" + answer + "\n\n"
	}
	doc := "# Build\n\n## User\n\nBuild it.\n\n" +
		call("t1", "cargo build --release", "Command \"cargo build --release\" failed with exit code 101.\n\n```\nerror[E0425]: cannot find value\n```") +
		call("t2", "cargo build", "Command \"make\" failed with exit code 2.") +
		call("t3", "cargo run", "Building...\nCommand \"cargo run\" failed with exit code 1.") +
		call("t4", "cargo test", "Command \"cargo test\" failed with exit code one.")
	tr, err := ReadFrom("build.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var failed []bool
	for _, c := range tr.Agents[0].Calls() {
		failed = append(failed, c.Failed)
	}
	if want := []bool{true, false, false, false}; !reflect.DeepEqual(failed, want) {
		t.Errorf("failed %v, want %v", failed, want)
	}
}
