package transcript

import (
	"slices"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// Gemini CLI's screen, as people paste it: the calls of a reply in one box, each with the lines
// under it; a failed call's JSON arguments; a failure an early release drew with the mark of
// success; a cancelled call; an output whose head was hidden; the user's words in a box of
// their own; and the model's words (validation round r105a U1).
func TestGeminiTextPaste(t *testing.T) {
	const paste = `Tips for getting started:
1. Ask questions, edit files, or run commands.

> fix the parser
  and run the tests

✦ I will read the parser and run the tests.
╭──────────────────────────────────────────────╮
│ ✓  ReadFile coretext/parser.py               │
│                                              │
│                                              │
│ ✓  Shell python3 -m pytest -q [current working directory /app] (Run the tests) │
│                                              │
│ ... first 33 lines hidden (Ctrl+O to show) ...│
│ FAILED tests/test_parser.py::test_links      │
│ 1 failed, 2 passed in 0.17s                  │
╰──────────────────────────────────────────────╯
✦ The edit did not apply.
╭──────────────────────────────────────────────╮
│ x  Edit {"file_path":"a.py","old_string":"x = 1","new_string":"x = 2"} │
│                                              │
│ Failed to edit, 0 occurrences found for old_string (x = 1). │
╰──────────────────────────────────────────────╯
 ╭──────────────────────────────────────────────╮
 │ ✔  Edit a.py: x = 1 => x = 2                 │
 │                                              │
 │    Error: Failed to edit, could not find the string to replace. │
 ╰──────────────────────────────────────────────╯
╭──────────────────────────────────────────────╮
│ -  WriteFile Writing to docs/debt.md         │
│                                              │
│  1 # Technical Debt                          │
╰──────────────────────────────────────────────╯
ℹ Request cancelled.
 ╭────────────────────────╮
 │  > what is left to do? │
 ╰────────────────────────╯
`
	tr, err := ReadFrom("gemini.txt", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatGeminiText || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want gemini-text with one", tr.Format, len(tr.Agents))
	}
	var got []string
	for _, e := range tr.Agents[0].Events {
		switch e.Type {
		case loopguard.EventCall:
			r := "?"
			if e.HasResult {
				r = e.Result
			}
			f := ""
			if e.Failed {
				f = " (failed)"
			}
			got = append(got, e.Tool+" "+string(e.Args)+" => "+r+f+" ["+e.Turn+"]")
		case loopguard.EventUser:
			got = append(got, "user: "+e.Text)
		case loopguard.EventText:
			got = append(got, "model: "+e.Text)
		}
	}
	want := []string{
		"user: fix the parser\nand run the tests",
		"model: I will read the parser and run the tests.",
		"ReadFile coretext/parser.py => ? [b1]", // Gemini CLI does not draw what it read
		`Shell {"command":"python3 -m pytest -q"} => FAILED tests/test_parser.py::test_links` + "\n1 failed, 2 passed in 0.17s [b1]",
		"model: The edit did not apply.",
		`Edit {"file_path":"a.py","old_string":"x = 1","new_string":"x = 2"} => Failed to edit, 0 occurrences found for old_string (x = 1). (failed) [b2]`,
		"Edit a.py: x = 1 => x = 2 => Error: Failed to edit, could not find the string to replace. [b3]",
		"WriteFile Writing to docs/debt.md => ? [b4]",
		"user: what is left to do?",
	}
	if !slices.Equal(got, want) {
		t.Errorf("read:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A terminal that drew the conversation again after its banner, at another width, is read
// once; a session after /quit that opens alike is a session of its own.
func TestGeminiTextRedrawnConversation(t *testing.T) {
	box := func(cmd, out string) string { return geminiShellBox("✓", cmd, out) }
	first := "> /review\n\n✦ I will list the tasks folder to locate the workflow file\n" + box("ls tasks", "workflow.xml")
	redrawn := "> /review\n\n✦ I will list the tasks folder to locate the\n  workflow file\n" + box("ls tasks", "workflow.xml") +
		"✦ Now the diff.\n" + box("git diff", "a.py | 2 +-")
	paste := "Tips for getting started:\n\n" + first + "Tips for getting started:\n\n" + redrawn + "\n> /quit\n\nTips for getting started:\n\n" + first
	tr, err := ReadFrom("gemini.txt", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	got := callArgs(tr.Agents[0])
	want := []string{`{"command":"ls tasks"}`, `{"command":"git diff"}`, `{"command":"ls tasks"}`}
	if !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
}

// An excerpt that opens inside a box, with no corner and no words of the model's, is still
// Gemini CLI's screen when it shows two call lines (validation round r107a U2).
func TestGeminiTextExcerptInsideABox(t *testing.T) {
	const paste = "│ ✓  ReadFile src/app.ts                 │\n│                                         │\n" +
		"│ x  Edit {\"file_path\":\"src/app.ts\",\"old_string\":\"a\"}  │\n│                                         │\n│ Failed to edit, 0 occurrences found  │\n╰──────╯\n"
	tr, err := ReadFrom("gemini.txt", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatGeminiText || len(tr.Agents[0].Calls()) != 2 || !tr.Agents[0].Calls()[1].Failed {
		t.Errorf("read as %s: %q", tr.Format, describe(tr.Agents[0].Events))
	}
}

// Releases of mid-2025 and Qwen Code draw a call that ran with one space after its mark, its
// result indented under it; where calls that ran have two spaces, a result's own "✔ name" line
// (node:test's) is no call.
func TestGeminiTextOneSpaceAfterTheMark(t *testing.T) {
	const oneSpace = "✦ I will look at the project.\n" +
		" ╭──────────────────────────────────────────────╮\n" +
		" │ ✔ ReadFolder Desktop/Vulne_Chatbot           │\n" +
		" │                                              │\n" +
		" │    Listed 12 item(s).                        │\n" +
		" │                                              │\n" +
		" │ ✔ Shell gh repo list me --visibility all     │\n" +
		" │                                              │\n" +
		" │    invalid argument \"all\" for \"--visibility\" │\n" +
		" │                                              │\n" +
		" │ - Shell npm run dev (Start the server)       │\n" +
		" │                                              │\n" +
		" │ x  Edit {\"file_path\":\"a.py\"}                 │\n" +
		" │                                              │\n" +
		" │    Failed to edit, 0 occurrences found       │\n" +
		" ╰──────────────────────────────────────────────╯\n" +
		"╭──────────────────────────────────────────────╮\n│ >   Type your message or @path/to/file       │\n╰──────────────────────────────────────────────╯\n"
	expectEvents(t, "qwen.txt", oneSpace, FormatGeminiText, []string{
		`text[model] "I will look at the project."`,
		`call ReadFolder "Desktop/Vulne_Chatbot" => "Listed 12 item(s)."`,
		`call Shell "{\"command\":\"gh repo list me --vi…" => "invalid argument \"all\" for \"--vi…"`,
		`call Shell "{\"command\":\"npm run dev\"}" => -`,
		`call Edit "{\"file_path\":\"a.py\"}" => "Failed to edit, 0 occurrences fo…" FAILED`,
	})
	const twoSpaces = "✦ I will run the tests.\n" +
		"╭──────────────────────────────────────────╮\n" +
		"│ ✓  Shell node --test [current working di… │\n" +
		"│                                          │\n" +
		"│ ✔ adds numbers (0.5ms)                   │\n" +
		"│ ✔ subtracts numbers (0.3ms)              │\n" +
		"╰──────────────────────────────────────────╯\n"
	tr, err := ReadFrom("gemini.txt", strings.NewReader(twoSpaces))
	if err != nil {
		t.Fatal(err)
	}
	if calls := tr.Agents[0].Calls(); len(calls) != 1 || !strings.Contains(calls[0].Result, "adds numbers") {
		t.Errorf("node:test's lines under a call drawn with two spaces: %q", describe(tr.Agents[0].Events))
	}
}

// A document's checklist in a box ("│ ✓ Todas as telas documentadas") is no call drawn with
// one space: its first word is prose, not a tool's name.
func TestGeminiTextOneSpaceChecklistIsNoCall(t *testing.T) {
	const doc = "# Migração\n\n╭──────────────────────────────╮\n│ ✓ Todas as telas documentadas │\n│ ✓ Referências corretas        │\n" +
		"│ ✓ Queries catalogadas         │\n╰──────────────────────────────╯\n"
	for _, l := range strings.Split(doc, "\n") {
		if _, tool, _, ok := geminiCallLine(l, true); ok {
			t.Errorf("%q read as a call of %s", l, tool)
		}
	}
	for _, l := range []string{" │ ✔ ReadFile README.md  │", " │ ✔ Todo Write Update todos  │", "│ ✔ get_issue {\"n\":1}  │", "│ ✔ search (github MCP Server)  │"} {
		if _, _, _, ok := geminiCallLine(l, true); !ok {
			t.Errorf("%q not read as a call", l)
		}
	}
}

// A failed edit whose arguments the screen cut ("…") is known by the file and the text its
// refusal names in full: the same edit sent again with its keys drawn in another order, and
// its refusal wrapped otherwise, is the same call; another text looked for is another.
func TestGeminiTextCutEditIsKnownByItsRefusal(t *testing.T) {
	box := func(header, refusal string) string {
		var b strings.Builder
		b.WriteString("✦ Trying the edit again.\n╭──────────────────────────────────────────╮\n")
		b.WriteString("│ x  Edit " + header + " │\n│                                          │\n")
		for line := range strings.SplitSeq(refusal, "\n") {
			b.WriteString("│ " + line + " │\n")
		}
		b.WriteString("╰──────────────────────────────────────────╯\n")
		return b.String()
	}
	refusal := "Failed to edit, 0 occurrences found for old_string (        subprocess.Popen(\n            cmd,\n        )). Original old_string was (        subprocess.Popen(\n            cmd,\n        )) in /app/cli/commands.py. No edits made. The exact text in\nold_string was not found."
	rewrapped := "Failed to edit, 0 occurrences found for old_string (        subprocess.Popen(            cmd,\n        )). Original old_string was (        subprocess.Popen(   …   )) in\n/app/cli/commands.py. No edits made."
	other := strings.ReplaceAll(refusal, "cmd,", "args,")
	paste := "> make the server quiet\n\n" +
		box(`{"file_path":"/app/cli/commands.py","old_string":"        s…`, refusal) +
		box(`{"new_string":"        log = open(\"/tmp/x.log\")\n…`, rewrapped) +
		box(`{"old_string":"        subprocess.Popen(\n            cmd, \n…`, other)
	tr, err := ReadFrom("paste.txt", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, c := range tr.Agents[0].Calls() {
		args = append(args, string(c.Args))
	}
	want := `{"file_path":"/app/cli/commands.py","old_string":"subprocess.Popen( cmd, )"}`
	if len(args) != 3 || args[0] != want || args[1] != want || args[2] == want {
		t.Errorf("arguments:\n%s\nwant the first two %s and the third another", strings.Join(args, "\n"), want)
	}
}

// A console copy that lost Gemini CLI's indent leaves a paragraph's wrapped lines flush left:
// they are still the model's words, up to the box of its calls; a flush-left line the console
// draws (a notice, the user's turn) is not.
func TestGeminiTextWrappedWordsFlushLeft(t *testing.T) {
	const paste = "✦ My analysis has found more simulated services, while confirming\n" +
		"real data elsewhere. I will now review\n" +
		"src/services/nlp.js.\n" +
		"╭──────────────────────────────────────╮\n" +
		"│ ✓ ReadFile src/services/nlp.js       │\n" +
		"╰──────────────────────────────────────╯\n" +
		"✦ Done reading.\n" +
		"ℹ A potential loop was detected.\n" +
		"> continue\n"
	tr := expectEvents(t, "gemini.txt", paste, FormatGeminiText, []string{
		`text[model] "My analysis has found more simul…"`,
		`call ReadFile "src/services/nlp.js" => -`,
		`text[model] "Done reading."`,
		`user "continue"`,
	})
	if said := tr.Agents[0].Events[0].Text; !strings.HasSuffix(said, "I will now review\nsrc/services/nlp.js.") {
		t.Errorf("first paragraph read as %q", said)
	}
}

// A Shell line the box cut at its width is numbered: what it asked is not all shown, and two
// such calls are not known to be one (validation round r257b). A line cut in the folder drawn
// after the command shows the command whole, and is not.
func TestGeminiTextCutShellLinesAreNumbered(t *testing.T) {
	call := func(line, result string) string { return geminiShellBox("✔", line, result) }
	paste := "> which books are finished?\n\n✦ I will query each book.\n" +
		call(`sqlite3 lib.sqlite "SELECT ZTITLE, Z…`, "Snow Crash|1") +
		call(`sqlite3 lib.sqlite "SELECT ZTITLE, Z…`, "Tiny Experiments|0") +
		call("pytest -q [current working dir…", "2 passed") +
		call("pytest -q [current working directory /app] (Run the tests)", "2 passed")
	tr, err := ReadFrom("paste.txt", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	args := callArgs(tr.Agents[0])
	want := []string{`{"command":"sqlite3 lib.sqlite \"SELECT ZTITLE, Z… #1"}`, `{"command":"sqlite3 lib.sqlite \"SELECT ZTITLE, Z… #2"}`,
		`{"command":"pytest -q"}`, `{"command":"pytest -q"}`}
	if !slices.Equal(args, want) {
		t.Errorf("arguments:\n%s\nwant:\n%s", strings.Join(args, "\n"), strings.Join(want, "\n"))
	}
}

// geminiShellBox draws a Shell call that ran, with its mark, in a box of its own, and one line
// of output under it.
func geminiShellBox(mark, line, out string) string {
	return "╭────────────╮\n│ " + mark + "  Shell " + line + " │\n│            │\n│ " + out + " │\n╰────────────╯\n"
}

// callArgs lists the arguments of an agent's calls, in order.
func callArgs(a Agent) []string {
	var args []string
	for _, c := range a.Calls() {
		args = append(args, string(c.Args))
	}
	return args
}
