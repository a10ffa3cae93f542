package transcript

import (
	"reflect"
	"strings"
	"testing"
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
