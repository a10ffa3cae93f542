package transcript

import (
	"strings"
	"testing"
	"time"
)

// An export that writes a run of messages twice (the copy with the same timestamps and
// tool_use ids) is read once; a message said again at another time is read again.
func TestClaudeMarkdownExportCopiesAreReadOnce(t *testing.T) {
	section := func(role, stamp, body string) string {
		return "### " + role + "\n> " + stamp + "\n\n" + body + "\n\n---\n\n"
	}
	call := `[
  {"type": "tool_use", "id": "toolu_01", "name": "Read", "input": {"file_path": "a.md"}}
]`
	result := `[
  {"type": "tool_result", "tool_use_id": "toolu_01", "content": "# A"}
]`
	run := section("Assistant", "12/1/2025, 1:07:19 PM", "Reading it.") +
		section("Assistant", "12/1/2025, 1:07:19 PM", call) +
		section("User", "12/1/2025, 1:07:20 PM", result)
	doc := "# Claude Session Export\n\n## Conversation\n\n" +
		section("User", "12/1/2025, 1:07:00 PM", "read a.md") + run + run +
		section("Assistant", "12/1/2025, 1:08:00 PM", "Reading it.") +
		// The same call copied without its timestamps is still known by its id.
		strings.ReplaceAll(section("Assistant", "", call), "> \n", "")
	expectEvents(t, "s.md", doc, FormatClaudeCodeMarkdown, []string{
		`user "read a.md"`,
		`text[model] "Reading it."`,
		`call Read "{\"file_path\":\"a.md\"}" => "# A"`,
		`text[model] "Reading it."`,
	})
}

// The reply Claude Code writes itself after a local command is not the model's, in an export
// that has dropped its "<synthetic>" model name.
func TestClaudeMarkdownSyntheticReplyIsNotTheModels(t *testing.T) {
	doc := "# Claude Session Export\n\n## Conversation\n\n" +
		"### User\n> 1:00 PM\n\n<command-name>/exit</command-name>\n\n---\n\n" +
		"### Assistant\n> 1:00 PM\n\nNo response requested.\n\n---\n\n" +
		"### Assistant\n> 1:01 PM\n\nDone.\n"
	expectEvents(t, "s.md", doc, FormatClaudeCodeMarkdown, []string{
		`user "<command-name>/exit</command-nam…"`,
		`text[synthetic] "No response requested."`,
		`text[model] "Done."`,
	})
}

// A copy that splits a message a block a message (the reply's text, then each of its calls)
// is read once too: the text equal to one read before with its role and time is the copy's.
func TestClaudeMarkdownSplitCopyIsReadOnce(t *testing.T) {
	section := func(role, stamp, body string) string {
		return "### " + role + "\n> " + stamp + "\n\n" + body + "\n\n---\n\n"
	}
	text := `{"type": "text", "text": "Let me download them."}`
	use := `{"type": "tool_use", "id": "toolu_07", "name": "Bash", "input": {"command": "curl -O x"}}`
	result := "[\n" + `{"type": "tool_result", "tool_use_id": "toolu_07", "content": "saved"}` + "\n]"
	doc := "# Claude Session Export\n\n## Conversation\n\n" +
		section("Assistant", "11/30/2025, 3:50:15 PM", "[\n"+text+",\n"+use+"\n]") +
		section("User", "11/30/2025, 3:50:16 PM", result) +
		section("Assistant", "11/30/2025, 3:50:15 PM", "[\n"+text+"\n]") +
		section("Assistant", "11/30/2025, 3:50:15 PM", "[\n"+use+"\n]") +
		section("User", "11/30/2025, 3:50:16 PM", result) +
		section("Assistant", "11/30/2025, 3:51:00 PM", "[\n"+text+"\n]") +
		// the user's words, then their copy as a content block
		section("User", "11/30/2025, 3:52:00 PM", "and the narrow window?") +
		section("User", "11/30/2025, 3:52:00 PM", "[\n"+`{"type": "text", "text": "and the narrow window?"}`+"\n]")
	expectEvents(t, "s.md", doc, FormatClaudeCodeMarkdown, []string{
		`text[model] "Let me download them."`,
		`call Bash "{\"command\":\"curl -O x\"}" => "saved"`,
		`text[model] "Let me download them."`, // said again a minute later: not a copy
		`user "and the narrow window?"`,
	})
}

// A message's time line is its events' time: the exporter's local time, read as UTC, in the
// forms toLocaleString writes.
func TestClaudeMarkdownReadsTheTimeLines(t *testing.T) {
	tests := []struct {
		stamp string
		want  int64
	}{
		{"11/30/2025, 3:50:15 PM", time.Date(2025, 11, 30, 15, 50, 15, 0, time.UTC).UnixMilli()},
		{"12/1/2025, 12:02:03 AM", time.Date(2025, 12, 1, 0, 2, 3, 0, time.UTC).UnixMilli()},
		{"30/11/2025, 15:50:15", time.Date(2025, 11, 30, 15, 50, 15, 0, time.UTC).UnixMilli()},
		{"30.11.2025, 15:50:15", time.Date(2025, 11, 30, 15, 50, 15, 0, time.UTC).UnixMilli()},
		{"2025-11-30T15:50:15Z", time.Date(2025, 11, 30, 15, 50, 15, 0, time.UTC).UnixMilli()},
		{"1:00 PM", 0},
	}
	for _, tt := range tests {
		t.Run(tt.stamp, func(t *testing.T) {
			doc := "# Claude Session Export\n\n## Conversation\n\n### Assistant\n> " + tt.stamp + "\n\n" +
				"[\n" + `{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}` + "\n]\n"
			tr, err := ReadFrom("s.md", strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Agents) != 1 || len(tr.Agents[0].Events) != 1 {
				t.Fatalf("read %d agents", len(tr.Agents))
			}
			if got := tr.Agents[0].Events[0].Time; got != tt.want {
				t.Errorf("time %d, want %d", got, tt.want)
			}
		})
	}
}
