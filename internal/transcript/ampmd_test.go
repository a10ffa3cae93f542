package transcript

import (
	"strings"
	"testing"
)

const ampMDHead = "---\ntitle: Fix the test\nthreadId: T-019b0000-0000-7000-8000-000000000001\ncreated: 2025-12-31T05:27:00.405Z\nagentMode: smart\n---\n\n# Fix the test\n\n## User\n\nfix the test\n\n## Assistant\n\nChecking first.\n\n"

// ampCall writes a call as the exporter does: its mark, then its arguments in a json fence.
func ampCall(tool, args string) string {
	return "**Tool Use:** `" + tool + "`\n\n```json\n" + args + "\n```\n\n"
}

// ampResult writes a result: its mark naming the call's id, then its text in a bare fence.
func ampResult(id, text string) string {
	return "**Tool Result:** `" + id + "`\n\n```\n" + text + "\n```\n\n"
}

func TestAmpMarkdownReadsCallsResultsAndFailures(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      []string
	}{
		{"a command's output is its result",
			ampCall("Bash", "{\n  \"cmd\": \"npm test\",\n  \"cwd\": \"/r\"\n}") + "## User\n\n" + ampResult("toolu_1", "{\n  \"output\": \"ok\\n\",\n  \"exitCode\": 0\n}"),
			[]string{`call Bash "{\"cmd\":\"npm test\",\"cwd\":\"/r\"}" => "ok\n"`}},
		{"a nonzero exit code fails the command",
			ampCall("Bash", `{"cmd": "npm test"}`) + "## User\n\n" + ampResult("toolu_1", "{\n  \"output\": \"FAIL a.test.ts\\n\",\n  \"exitCode\": 1\n}"),
			[]string{`call Bash "{\"cmd\":\"npm test\"}" => "FAIL a.test.ts\n" FAILED`}},
		{"a command stopped for inactivity keeps the reason",
			ampCall("Bash", `{"cmd": "npm start"}`) + "## User\n\n" + ampResult("toolu_1", "{\n  \"output\": \"\",\n  \"exitCode\": -1,\n  \"stopReason\": \"Command timed out\",\n  \"stopCode\": \"inactivity-timeout\"\n}"),
			[]string{`call Bash "{\"cmd\":\"npm start\"}" => "Command timed out" FAILED`}},
		{"a read's content is its result",
			ampCall("Read", `{"path": "/r/a.ts"}`) + "## User\n\n" + ampResult("toolu_1", "{\n  \"absolutePath\": \"/r/a.ts\",\n  \"content\": \"1: let a = 1\"\n}"),
			[]string{`call Read "{\"path\":\"/r/a.ts\"}" => "1: let a = 1"`}},
		{"an MCP tool's content list is its text",
			ampCall("mcp__browser__click", `{"ref": "e5"}`) + "## User\n\n" + ampResult("toolu_1", "[\n  {\n    \"type\": \"text\",\n    \"text\": \"### Result\\nclicked\"\n  }\n]"),
			[]string{`call mcp__browser__click "{\"ref\":\"e5\"}" => "### Result\nclicked"`}},
		{"other answers are kept as written",
			ampCall("Grep", `{"pattern": "x"}`) + "## User\n\n" + ampResult("toolu_1", "[\n  \"/r/a.ts:1:x\"\n]"),
			[]string{`call Grep "{\"pattern\":\"x\"}" => "[\n  \"/r/a.ts:1:x\"\n]"`}},
		{"a tool error fails the call with its message",
			ampCall("Read", `{"path": "/r/b.ts"}`) + "## User\n\n**Tool Error:** `toolu_1`\n\n**Error:** {\"message\":\"File not found\"}\n\n",
			[]string{`call Read "{\"path\":\"/r/b.ts\"}" => "{\"message\":\"File not found\"}" FAILED`}},
		{"a cancelled call fails and the words after it are the user's",
			ampCall("Bash", `{"cmd": "rm -rf build"}`) + "## User\n\n**Tool Cancelled:** `toolu_1`\n\nwait, keep the build\n\n",
			[]string{`call Bash "{\"cmd\":\"rm -rf build\"}" => "cancelled by the user" FAILED`, `user "wait, keep the build"`}},
		{"a call the user rejected fails",
			ampCall("Bash", `{"cmd": "git push"}`) + "## User\n\n**Tool:** `toolu_1` (rejected-by-user)\n\n## User\n\nnot yet\n",
			[]string{`call Bash "{\"cmd\":\"git push\"}" => "rejected-by-user" FAILED`, `user "not yet"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := append([]string{`user "fix the test"`, `text[model] "Checking first."`}, c.want...)
			tr := expectEvents(t, "T-1.md", ampMDHead+c.doc, FormatAmpMarkdown, want)
			if tr.Sessions != 1 || len(tr.Agents) != 1 || tr.Agents[0].ID != MainAgent {
				t.Errorf("%d sessions, agents %+v", tr.Sessions, tr.Agents)
			}
		})
	}
}

func TestAmpMarkdownEditsWithoutTheirChangeAreNumbered(t *testing.T) {
	edit := ampCall("edit_file", "{\n  \"path\": \"/r/a.ts\",\n  \"old_str\": \"[... old_str omitted in markdown version ...]\",\n  \"new_str\": \"[... new_str omitted in markdown version ...]\"\n}")
	diff := func(line string) string {
		return ampResult("toolu_x", "{\n  \"diff\": \"```diff\\n@@ -1 +1 @@\\n-a\\n+"+line+"\\n```\",\n  \"lineRange\": [\n    1,\n    1\n  ]\n}")
	}
	doc := ampMDHead + edit + "## User\n\n" + diff("b") + "## Assistant\n\n" + edit + "## User\n\n" + diff("c")
	tr := expectEvents(t, "T-1.md", doc, FormatAmpMarkdown, []string{`user "fix the test"`, `text[model] "Checking first."`,
		`call edit_file "{\"path\":\"/r/a.ts\",\"old_str\":\"[..…" => "` + "```" + `diff\n@@ -1 +1 @@\n-a\n+b\n` + "```" + `"`,
		`call edit_file "{\"path\":\"/r/a.ts\",\"old_str\":\"[..…" => "` + "```" + `diff\n@@ -1 +1 @@\n-a\n+c\n` + "```" + `"`})
	calls := tr.Agents[0].Calls()
	for i, want := range []string{`,"edit":1}`, `,"edit":2}`} {
		if !strings.HasSuffix(string(calls[i].Args), want) {
			t.Errorf("edit %d: args %s, want them to end %s", i+1, calls[i].Args, want)
		}
	}
}

func TestAmpMarkdownPairsResultsWithTheCallsOfTheirMessage(t *testing.T) {
	doc := ampMDHead + ampCall("Read", `{"path": "/a"}`) + ampCall("Read", `{"path": "/b"}`) +
		"## User\n\n" + ampResult("toolu_1", `{"absolutePath": "/a", "content": "A"}`) + ampResult("toolu_2", `{"absolutePath": "/b", "content": "B"}`) +
		"## Assistant\n\n" + ampCall("Bash", `{"cmd": "ls"}`) +
		"## User\n\nstop there\n\n" +
		"## Assistant\n\nStopping.\n\n" + ampCall("Bash", `{"cmd": "pwd"}`) +
		"## User\n\n" + ampResult("toolu_4", `{"output": "/r", "exitCode": 0}`) + ampResult("toolu_5", `{"output": "extra", "exitCode": 0}`)
	tr := expectEvents(t, "T-1.md", doc, FormatAmpMarkdown, []string{`user "fix the test"`, `text[model] "Checking first."`,
		`call Read "{\"path\":\"/a\"}" => "A"`, `call Read "{\"path\":\"/b\"}" => "B"`,
		`call Bash "{\"cmd\":\"ls\"}" => -`, `user "stop there"`,
		`text[model] "Stopping."`, `call Bash "{\"cmd\":\"pwd\"}" => "/r"`})
	calls := tr.Agents[0].Calls()
	if calls[0].Turn == "" || calls[0].Turn != calls[1].Turn || calls[2].Turn == calls[1].Turn || calls[3].Turn == calls[2].Turn {
		t.Errorf("turns %q %q %q %q: the calls of one message are one reply, and only they", calls[0].Turn, calls[1].Turn, calls[2].Turn, calls[3].Turn)
	}
}

func TestAmpMarkdownMarksAreWholeLinesAtColumnZero(t *testing.T) {
	// undo_edit's result holds a diff fence of its own inside the result's fence, and a
	// read_thread result quotes another thread's marks, indented: neither ends the message,
	// and the next message is read as one.
	undo := ampCall("undo_edit", `{"path": "/r/a.ts"}`) + "## User\n\n**Tool Result:** `toolu_1`\n\n```\n```diff\n-a\n+b\n```\n```\n\n"
	quoted := "## Assistant\n\n" + ampCall("read_thread", `{"threadID": "T-2"}`) + "## User\n\n" +
		ampResult("toolu_2", "The thread ran:\n\n    ```\n    **Tool Result:** `toolu_9`\n    ```\n    ## User\n\ndone.")
	doc := ampMDHead + undo + quoted + "## Assistant\n\nAll done.\n"
	tr := expectEvents(t, "T-1.md", doc, FormatAmpMarkdown, []string{`user "fix the test"`, `text[model] "Checking first."`,
		`call undo_edit "{\"path\":\"/r/a.ts\"}" => "` + "```" + `diff\n-a\n+b\n` + "```" + `"`,
		`call read_thread "{\"threadID\":\"T-2\"}" => "The thread ran:\n\n    ` + "```" + `\n    **T…"`,
		`text[model] "All done."`})
	if r := tr.Agents[0].Calls()[1].Result; !strings.HasSuffix(r, "    ## User\n\ndone.") {
		t.Errorf("read_thread's result %q lost its end", r)
	}
}

func TestAmpMarkdownUnclosedArgumentsDoNotHideTheNextCall(t *testing.T) {
	doc := ampMDHead + "**Tool Use:** `Read`\n\n```json\n{\"path\": \"/a\"}\n\n" + ampCall("Read", `{"path": "/b"}`)
	expectEvents(t, "T-1.md", doc, FormatAmpMarkdown, []string{`user "fix the test"`, `text[model] "Checking first."`,
		`call Read "{\"path\":\"/a\"}" => -`, `call Read "{\"path\":\"/b\"}" => -`})
}

func TestAmpMarkdownContextInAUserMessage(t *testing.T) {
	head := strings.TrimSuffix(ampMDHead, "## User\n\nfix the test\n\n## Assistant\n\nChecking first.\n\n")
	for _, c := range []struct {
		name, user string
		want       []string
	}{
		{"attached files, then the words", "<attached_files>\n```file:///r/a.md\n1: # A\n```\n</attached_files>\n\nreview a.md",
			[]string{`text[attached-files] "<attached_files>\n` + "```" + `file:///r/a.…"`, `user "review a.md"`}},
		{"a hand-off from another thread", "Continuing work from thread T-019b0000. When you lack specific information you can use read_thread to get it.\n\n- did x\n\ngo on",
			[]string{`text[handoff] "Continuing work from thread T-01…"`}},
		{"an interruption before the words", "*(interrupted)*\n\nno, the other file",
			[]string{`text[interrupt] "*(interrupted)*"`, `user "no, the other file"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			expectEvents(t, "T-1.md", head+"## User\n\n"+c.user+"\n\n## Assistant\n\nOK.\n", FormatAmpMarkdown, append(c.want, `text[model] "OK."`))
		})
	}
}

func TestAmpMarkdownClosingTodoListIsNoEvent(t *testing.T) {
	expectEvents(t, "T-1.md", ampMDHead+"## Todos\n- [x] fix the test\n- [ ] ship\n", FormatAmpMarkdown,
		[]string{`user "fix the test"`, `text[model] "Checking first."`})
	// A heading of the model's that only looks like it, with words after the list, stays.
	expectEvents(t, "T-1.md", ampMDHead+"## Todos\n- [x] fix the test\n\nNext: ship.\n", FormatAmpMarkdown,
		[]string{`user "fix the test"`, `text[model] "Checking first.\n\n## Todos\n- [x] …"`})
}

func TestAmpMarkdownIsRecognisedByItsFrontMatter(t *testing.T) {
	calls := "# T\n\n## User\n\nhi\n\n## Assistant\n\n" + ampCall("Bash", `{"cmd": "ls"}`)
	for _, c := range []struct {
		name, head string
		want       bool
	}{
		{"threadId and agentMode", ampMDHead, true},
		{"Windows line ends", strings.ReplaceAll(ampMDHead, "\n", "\r\n"), true},
		{"threadId and a call under the headings", "---\ntitle: T\nthreadId: T-1\n---\n\n" + calls, true},
		{"no threadId", "---\ntitle: T\nagentMode: smart\n---\n\n" + calls, false},
		{"a threadId not Amp's", "---\nthreadId: 1234\nagentMode: smart\n---\n\n" + calls, false},
		{"a note with Amp's threadId and no message", "---\nthreadId: T-1\n---\n\n# Notes on T-1\n\nnothing here\n", false},
		{"front matter never closed", "---\nthreadId: T-1\nagentMode: smart\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := sniff([]byte(c.head), true).kind == kindAmpMarkdown; got != c.want {
				t.Errorf("read as Amp: %v, want %v", got, c.want)
			}
		})
	}
}
