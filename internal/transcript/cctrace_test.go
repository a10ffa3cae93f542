package transcript

import "testing"

// The fixture is written for this test in cctrace's layout: headed messages after their time,
// tool uses with a JSON block, results answering in order, a result quoting a fenced block of
// its own, and a refusal kept as plain text.
const ccTraceExport = "# Claude Code Session Export\n\n**Session ID:** `f33c`\n**Total Messages:** 6\n\n---\n\n" +
	"**[2025-07-02 20:06:59]**\n\n### 👤 User\n\nwrite the README\n\n---\n\n" +
	"**[2025-07-02 20:07:10]**\n\n### 🤖 Assistant (claude-opus-4-20250514)\n\n" +
	"<details>\n<summary>💭 Internal Reasoning (click to expand)</summary>\n\n```\nLook for the layout first.\n```\n</details>\n\n" +
	"I'll search first.\n\n🔧 **Tool Use: WebSearch** (ID: toolu_01)\n```json\n{\n  \"query\": \"session files\"\n}\n```\n\n" +
	"🔧 **Tool Use: Write** (ID: toolu_02)\n```json\n{\n  \"file_path\": \"/repo/README.md\"\n}\n```\n\n---\n\n" +
	"**[2025-07-02 20:07:11]**\n\n### 👤 User\n\n📊 **Tool Result:**\n```\nFiles live in:\n```\n~/.claude/projects/\n```\none per session\n```\n\n" +
	"📊 **Tool Result:**\n```\nFile has not been read yet. Read it first before writing to it.\n```\n\n---\n\n" +
	"**[2025-07-02 20:07:20]**\n\n### 🤖 Assistant (claude-opus-4-20250514)\n\nDone.\n"

func TestCCTraceExportReadAsCallsAnsweredInOrder(t *testing.T) {
	tr := expectEvents(t, "conversation_full.md", ccTraceExport, FormatClaudeCodeMarkdown, []string{
		`user "write the README"`,
		`text[thinking] "Look for the layout first."`,
		`text[model] "I'll search first."`,
		`call WebSearch "{\n  \"query\": \"session files\"\n}" => "Files live in:\n` + "```" + `\n~/.claude/pro…"`,
		`call Write "{\n  \"file_path\": \"/repo/README.m…" => "File has not been read yet. Read…" FAILED`,
		`text[model] "Done."`,
	})
	if r := tr.Agents[0].Calls()[0].Result; r != "Files live in:\n```\n~/.claude/projects/\n```\none per session" {
		t.Errorf("a result quoting a fenced block is cut: %q", r)
	}
}
