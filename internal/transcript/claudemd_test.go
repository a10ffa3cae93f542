package transcript

import (
	"strings"
	"testing"
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
