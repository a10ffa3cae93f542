package transcript

import (
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// A Gemini CLI chat shared as Markdown (`/chat share`), written for these tests in the layout
// the CLI writes: turns under role headings joined by rules, a reply's text and calls written
// one after another, the answers in the next USER turn.
const geminiShared = "## USER 🧑‍💻\n\nThis is the Gemini CLI. We are setting up the context for our chat.\nToday's date is Saturday, January 10, 2026.\n\n---\n\n" +
	"## USER 🧑‍💻\n\nfind the flag\n\n---\n\n" +
	"## MODEL ✨\n\nI will list the files first.**Tool Command**:\n```json\n{\n  \"name\": \"list_files\",\n  \"args\": {\n    \"directory\": \"/home/u/ctf\"\n  }\n}\n```" +
	"**Tool Command**:\n```json\n{\n  \"id\": \"read_file-1768093682440-e91f688c3263c\",\n  \"name\": \"read_file\",\n  \"args\": {\n    \"file_path\": \"/home/u/ctf/notes ```md```\"\n  }\n}\n```\n\n---\n\n" +
	"## USER 🧑‍💻\n\n**Tool Response**:\n```json\n{\n  \"id\": \"read_file-1768093682440-e91f688c3263c\",\n  \"name\": \"read_file\",\n  \"response\": {\n    \"output\": \"{\\n  \\\"name\\\": \\\"The Big Bang\\\"\\n}\\n\"\n  }\n}\n```" +
	"**Tool Response**:\n```json\n{\n  \"id\": \"list_files-1768093682341-becfbf8e684b2\",\n  \"name\": \"list_files\",\n  \"response\": {\n    \"error\": \"MCP tool 'list_files' reported tool error\"\n  }\n}\n```\n\n---\n\n" +
	"## MODEL ✨\n\nThe challenge is a crypto puzzle.\n\n---\n\nA rule of my own, and then more words.\n\n---\n\n" +
	"## USER 🧑‍💻\n\nthanks"

func TestGeminiMarkdownCallsAndTheirAnswers(t *testing.T) {
	tr := expectEvents(t, "gemini-chat.md", geminiShared, FormatGeminiMarkdown, []string{
		`text[system] "This is the Gemini CLI. We are s…"`,
		`user "find the flag"`,
		`text[model] "I will list the files first."`,
		// an error answers its call as a failure; the answers come in another order and
		// find their calls by id, else by name
		`call list_files "{\"directory\":\"/home/u/ctf\"}" => "MCP tool 'list_files' reported t…" FAILED`,
		`call read_file "{\"file_path\":\"/home/u/ctf/notes …" => "{\n  \"name\": \"The Big Bang\"\n}\n"`,
		// a rule inside a reply, not before a heading, is the reply's
		`text[model] "The challenge is a crypto puzzle…"`,
		`user "thanks"`,
	})
	calls := tr.Agents[0].Calls()
	if calls[0].Turn == "" || calls[0].Turn != calls[1].Turn {
		t.Errorf("turns %q %q: want the two calls of one reply in one turn", calls[0].Turn, calls[1].Turn)
	}
	if got := tr.Agents[0].Events[5].Text; !strings.HasSuffix(got, "A rule of my own, and then more words.") {
		t.Errorf("the reply's text %q: want it to run past its own rule", got)
	}
}

// A file a user message includes with @ is written into the message between Gemini CLI's
// own lines; an earlier chat's export included so is text, its headings and blocks none of
// this chat's (validation round r73a U1: 41 calls of another chat read as this agent's).
func TestGeminiMarkdownIncludedFilesAreTheUsersText(t *testing.T) {
	doc := "## USER 🧑‍💻\n\nread @Ping_Pong.md and go on from there\n--- Content from referenced files ---\nContent from @Ping_Pong.md:\n" +
		"## USER 🧑‍💻\n\nbuild the firmware\n\n---\n\n## MODEL ✨\n\n**Tool Command**:\n```json\n{\n  \"name\": \"run_shell_command\",\n  \"args\": {\n    \"command\": \"make\"\n  }\n}\n```\n\n---\n\n" +
		"## USER 🧑‍💻\n\n**Tool Response**:\n```json\n{\n  \"name\": \"run_shell_command\",\n  \"response\": {\n    \"output\": \"ok\"\n  }\n}\n```\n--- End of content ---\n\n---\n\n" +
		"## MODEL ✨\n\n**Tool Command**:\n```json\n{\n  \"name\": \"read_file\",\n  \"args\": {\n    \"file_path\": \"main.c\"\n  }\n}\n```\n\n---\n\n" +
		"## USER 🧑‍💻\n\n**Tool Response**:\n```json\n{\n  \"name\": \"read_file\",\n  \"response\": {\n    \"output\": \"int main() {}\"\n  }\n}\n```"
	tr, err := ReadFrom("History.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if tr.Format != FormatGeminiMarkdown || len(calls) != 1 || calls[0].Tool != "read_file" || calls[0].Result != "int main() {}" {
		t.Errorf("read as %q, calls %+v: want the one read_file, answered", tr.Format, calls)
	}
	var users int
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventUser {
			users++
			if !strings.Contains(e.Text, "build the firmware") || !strings.Contains(e.Text, "--- End of content ---") {
				t.Errorf("the user's message %q: want the included file in it", e.Text)
			}
		}
	}
	if users != 1 {
		t.Errorf("%d user turns, want 1", users)
	}
}

// Earlier releases put the emoji before the heading; the same call failing the same way is
// told.
func TestGeminiMarkdownEarlierHeadingsAndAFailingLoop(t *testing.T) {
	var b strings.Builder
	b.WriteString("🧑‍💻 ## USER\n\nfix the build\n")
	for i := 0; i < 5; i++ {
		b.WriteString("\n---\n\n✨ ## MODEL\n\nLet me try the edit again.**Tool Command**:\n```json\n{\n  \"name\": \"replace\",\n  \"args\": {\n    \"file_path\": \"main.go\",\n    \"old_string\": \"x := 1\",\n    \"new_string\": \"x := 2\"\n  }\n}\n```\n\n---\n\n")
		b.WriteString("🧑‍💻 ## USER\n\n**Tool Response**:\n```json\n{\n  \"id\": \"replace-17680936\",\n  \"name\": \"replace\",\n  \"response\": {\n    \"error\": \"Failed to edit, 0 occurrences found for old_string in main.go.\"\n  }\n}\n```\n")
	}
	tr, err := ReadFrom("chat.md", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatGeminiMarkdown {
		t.Fatalf("read as %q, want %q", tr.Format, FormatGeminiMarkdown)
	}
	calls, notices := defaultNotices(t, tr.Agents[0])
	if calls != 5 || len(notices) == 0 {
		t.Errorf("%d calls, notices %q: want 5 calls and a notice", calls, notices)
	}
}

// The format is told by its headings: Zed's and Amp's Markdown threads, whose headings are
// "## User", stay theirs, and a document that merely mentions a heading is no chat.
func TestGeminiMarkdownRecognisedByItsHeadings(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		want      bool
	}{
		{"shared chat", geminiShared, true},
		{"Zed thread", "## User\n\nhello\n\n## Agent\n\nhi\n", false},
		{"a heading named USERS", "## USERS\n\na list of users\n\n## MODEL ✨\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("chat.md", strings.NewReader(tt.doc))
			if got := err == nil && tr.Format == FormatGeminiMarkdown; got != tt.want {
				t.Errorf("read as gemini-markdown: %v (err %v), want %v", got, err, tt.want)
			}
		})
	}
}

// The shell tool's exit code fails its call in a shared chat too, as in a chat recording
// (validation round r136b U1: failing builds of an export read as successes).
func TestGeminiMarkdownShellExitCodeFails(t *testing.T) {
	chat := "## USER 🧑‍💻\n\nbuild it\n\n---\n\n" +
		"## MODEL ✨\n\nBuilding.**Tool Command**:\n```json\n{\n  \"id\": \"run_shell_command-1763394564200-e6d13\",\n  \"name\": \"run_shell_command\",\n  \"args\": {\n    \"command\": \"dotnet build\"\n  }\n}\n```\n\n---\n\n" +
		"## USER 🧑‍💻\n\n**Tool Response**:\n```json\n{\n  \"id\": \"run_shell_command-1763394564200-e6d13\",\n  \"name\": \"run_shell_command\",\n  \"response\": {\n    \"output\": \"Command: dotnet build\\nOutput: Build failed with 2 error(s) in 7.6s\\nError: (none)\\nExit Code: 1\\nSignal: (none)\"\n  }\n}\n```\n\n---\n\n" +
		"## MODEL ✨\n\nIt failed."
	tr, err := ReadFrom("gemini-chat.md", strings.NewReader(chat))
	if err != nil {
		t.Fatal(err)
	}
	if calls := tr.Agents[0].Calls(); len(calls) != 1 || !calls[0].Failed {
		t.Errorf("calls %q: want the build, failed by its exit code", describe(calls))
	}
}
