package transcript

import (
	"reflect"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// opencodeMDHead opens an opencode export as opencode writes it.
const opencodeMDHead = "# Fix the build\n\n**Session ID:** ses_3000fae98ffeTjW15WKtIa6Dx3\n**Created:** 3/18/2026, 9:54:25 AM\n**Updated:** 3/18/2026, 10:27:35 AM\n\n---\n\n"

// opencodeMDCall is a call as the export writes it; block is "Output" or "Error".
func opencodeMDCall(tool, input, block, result string) string {
	return "**Tool: " + tool + "**\n\n**Input:**\n```json\n" + input + "\n```\n\n**" + block + ":**\n```\n" + result + "\n```\n\n"
}

// An opencode export's messages and calls: a user's words, the model's (its own headings
// among them), each call with its input and its output, or its error (a failed call); an
// output that holds a fence of its own ends at its own close, and the call after it is read.
func TestOpencodeMarkdownMessagesAndCalls(t *testing.T) {
	doc := opencodeMDHead + "## User\n\nthe build fails\n\n---\n\n" +
		"## Assistant (Build · claude-opus-4-6 · 14.2s)\n\n_Thinking:_\n\nLook at the error first.\n\n## Plan\n\nRun it.\n\n" +
		opencodeMDCall("bash", `{"command": "npm run build", "description": "Build"}`, "Output", "error TS2304: Cannot find name 'x'.") +
		"---\n\n## Assistant (Build · claude-opus-4-6 · 7.4s)\n\n" +
		opencodeMDCall("edit", `{"filePath": "/w/a.ts", "oldString": "x", "newString": "y"}`, "Error", "You must read file /w/a.ts before overwriting it. Use the Read tool first") +
		opencodeMDCall("task", `{"description": "map the audio path"}`, "Output", "<task_result>\n```\nAudioPlayer\n  └─ track.write\n```\n</task_result>") +
		opencodeMDCall("read", `{"filePath": "/w/a.ts"}`, "Output", "<file>\n00001| const x = 1\n</file>") +
		"Done.\n\n---\n\n## User\n\nthanks\n"
	tr, err := ReadFrom("session-ses_3000.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatOpencodeMarkdown || len(tr.Agents) != 1 || tr.Usage.Model != "claude-opus-4-6" {
		t.Fatalf("read as %s, %d agents, model %q", tr.Format, len(tr.Agents), tr.Usage.Model)
	}
	want := []string{
		`user "the build fails"`,
		`text[model] "_Thinking:_\n\nLook at the error f…"`,
		`call bash "{\"command\":\"npm run build\",\"desc…" => "error TS2304: Cannot find name '…"`,
		`call edit "{\"filePath\":\"/w/a.ts\",\"oldString…" => "You must read file /w/a.ts befor…" FAILED`,
		`call task "{\"description\":\"map the audio pa…" => "<task_result>\n` + "```" + `\nAudioPlayer\n  …"`,
		`call read "{\"filePath\":\"/w/a.ts\"}" => "<file>\n00001| const x = 1\n</file…"`,
		`text[model] "Done."`,
		`user "thanks"`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var words string
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventText && strings.Contains(e.Text, "Look at") {
			words = e.Text
		}
	}
	if !strings.Contains(words, "## Plan") {
		t.Errorf("the model's own heading left its words: %q", words)
	}
}

// A document that only looks like one (a title and a message heading, no session line) is not
// an opencode export.
func TestOpencodeMarkdownIsKnownByItsSessionLine(t *testing.T) {
	for _, doc := range []string{
		"# Notes\n\n## User\n\nhello\n",
		"# Notes\n\n**Session ID:** 42\n\n## User\n\nhello\n",
	} {
		if isOpencodeMarkdownHead([]byte(doc)) {
			t.Errorf("isOpencodeMarkdownHead(%q) = true", doc)
		}
	}
	if !isOpencodeMarkdownHead([]byte(opencodeMDHead + "## User\n\nhi\n")) {
		t.Error("an export's head not known")
	}
}

// A call whose arguments did not parse is run by opencode as its "invalid" tool, its refusal
// an output: it is the tool the model meant, refused (validation round r94c U1: read as a
// success of a tool named invalid).
func TestOpencodeInvalidToolIsTheMeantToolRefused(t *testing.T) {
	doc := opencodeMDHead + "## User\n\nappend the notes\n\n---\n\n## Assistant (Build · qwen3.6-35b · 3.1s)\n\n" +
		opencodeMDCall("invalid", `{"tool": "bash", "error": "Invalid input for tool bash: JSON parsing failed: Text: {\"command\":\"cat >> notes.md"}`,
			"Output", "The arguments provided to the tool are invalid: Invalid input for tool bash: JSON parsing failed\nError message: JSON Parse error: Unterminated string")
	tr, err := ReadFrom("session-ses_1036.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := tr.Agents[0].Calls()
	if len(c) != 1 || c[0].Tool != "bash" || !c[0].Failed {
		t.Errorf("calls %+v, want one failed bash call", c)
	}
}

// Earlier exports put each call in a fenced block of its own, opened by "Tool: NAME", its
// labelled blocks inside (an output holding fences of its own too); some write an assistant
// message's heading bare, "## Assistant", and list calls without their input or output
// (validation round r114c U1 and U2: such calls were read as none).
func TestOpencodeMarkdownEarlierLayouts(t *testing.T) {
	wrapped := func(tool, input, result string) string {
		return "```\nTool: " + tool + "\n\n**Input:**\n```json\n" + input + "\n```\n**Output:**\n```\n" + result + "\n```\n```\n\n"
	}
	doc := opencodeMDHead + "## User\n\nhow big is the table?\n\n---\n\n" +
		"## Assistant (Ask · claude-opus-4.5 · 5.0s)\n\n" +
		wrapped("supabase_execute_sql", `{"query": "select count(*) from products"}`, `[{"count": 7255}]`) +
		"---\n\n## Assistant (Ask · claude-opus-4.5 · 4.7s)\n\n" +
		wrapped("webfetch", `{"url": "https://example.com"}`, "# Proxies\n\n```\ncurl -x host:port\n```\n\n---\n\nRequest Quote") +
		wrapped("read", `{"filePath": "/w/a.ts"}`, "const x = 1") +
		"---\n\n## Assistant\n\n**Tool: supabase_list_projects**\n\n---\n\n## Assistant\n\n**Tool: bash**\n\n---\n\n## User\n\nthanks\n"
	tr := expectEvents(t, "session-ses_3000.md", doc, FormatOpencodeMarkdown, []string{
		`user "how big is the table?"`,
		`call supabase_execute_sql "{\"query\":\"select count(*) from p…" => "[{\"count\": 7255}]"`,
		`call webfetch "{\"url\":\"https://example.com\"}" => "# Proxies\n\n` + "```" + `\ncurl -x host:port…"`,
		`call read "{\"filePath\":\"/w/a.ts\"}" => "const x = 1"`,
		`call supabase_list_projects "" => -`,
		`call bash "" => -`,
		`user "thanks"`,
	})
	if fetched := tr.Agents[0].Calls()[1].Result; !strings.HasSuffix(fetched, "---\n\nRequest Quote") {
		t.Errorf("the page fetched was cut short: %q", fetched)
	}
}

// opencode writes no Output block for a completed call whose output is empty: a call with its
// input and no block after it was answered with nothing, unless nothing follows it in the
// export (it may have been running). An export without tool details says nothing of answers.
func TestOpencodeMarkdownCallWithNoOutputBlock(t *testing.T) {
	input := func(tool, args string) string {
		return "**Tool: " + tool + "**\n\n**Input:**\n```json\n" + args + "\n```\n\n"
	}
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"a grep that found nothing, then the model's words",
			input("bash", `{"command": "grep -r 77a3d8a1 ."}`) + "No hardcoded IDs found.\n\n",
			[]string{`call bash "{\"command\":\"grep -r 77a3d8a1 .\"}" => ""`, `text[model] "No hardcoded IDs found."`}},
		{"two calls with nothing to print, then one with output",
			input("bash", `{"command": "mkdir -p out"}`) + input("bash", `{"command": "python -m py_compile a.py"}`) +
				opencodeMDCall("bash", `{"command": "ls out"}`, "Output", "a.txt"),
			[]string{`call bash "{\"command\":\"mkdir -p out\"}" => ""`, `call bash "{\"command\":\"python -m py_compile…" => ""`,
				`call bash "{\"command\":\"ls out\"}" => "a.txt"`}},
		{"the export's last call may have been running",
			opencodeMDCall("bash", `{"command": "ls"}`, "Output", "a.txt") + input("bash", `{"command": "ansible-playbook site.yml"}`),
			[]string{`call bash "{\"command\":\"ls\"}" => "a.txt"`, `call bash "{\"command\":\"ansible-playbook sit…" => -`}},
		{"a call without tool details",
			"**Tool: bash**\n\nThe build works now.\n\n",
			[]string{`call bash "" => -`, `text[model] "The build works now."`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := opencodeMDHead + "## Assistant (Build · glm-4.6 · 3.0s)\n\n" + tt.body + "---\n\n"
			tr, err := ReadFrom("session-ses_1.md", strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// An assistant message of opencode 1.x is one reply: its calls were made together. The earlier
// layouts' calls, each in a fenced block or under a bare "## Assistant", are not grouped.
func TestOpencodeMarkdownCallsOfOneMessageAreOneReply(t *testing.T) {
	wrapped := func(tool, input, result string) string {
		return "```\nTool: " + tool + "\n\n**Input:**\n```json\n" + input + "\n```\n**Output:**\n```\n" + result + "\n```\n```\n\n"
	}
	doc := opencodeMDHead + "## User\n\nscan the lessons\n\n---\n\n" +
		"## Assistant (Build · Claude Sonnet 4.6 · 69.1s)\n\n" +
		opencodeMDCall("oracle_scan", `{"lesson_number": 18}`, "Error", "MCP error -32001: Request timed out") +
		opencodeMDCall("oracle_scan", `{"lesson_number": 19}`, "Error", "MCP error -32001: Request timed out") +
		"---\n\n## Assistant (Build · Claude Sonnet 4.6 · 3.5s)\n\n" +
		opencodeMDCall("bash", `{"command": "sleep 3"}`, "Output", "") +
		"---\n\n## Assistant (Ask · claude-opus-4.5 · 4.7s)\n\n" +
		wrapped("read", `{"filePath": "/w/a.ts"}`, "const x = 1") +
		wrapped("read", `{"filePath": "/w/b.ts"}`, "const y = 2") +
		"---\n\n## Assistant\n\n**Tool: bash**\n\n**Tool: bash**\n\n"
	tr, err := ReadFrom("session-ses_3000.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var turns []string
	for _, c := range tr.Agents[0].Calls() {
		turns = append(turns, c.Turn)
	}
	if len(turns) != 7 || turns[0] == "" || turns[0] != turns[1] || turns[2] == "" || turns[2] == turns[1] || turns[3] != "" || turns[4] != "" || turns[5] != "" || turns[6] != "" {
		t.Errorf("replies %q: want the two scans one reply, the sleep another, the fenced reads and the calls under a bare heading none", turns)
	}
}
