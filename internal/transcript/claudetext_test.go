package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// Claude Code's text export, written from the layout its /export and its terminal show: the
// banner, user lines, the model's words, calls whose arguments go on over two lines, a tool
// shown under another name, an MCP tool, a shortened result, a failure.
func TestClaudeCodeTextExport(t *testing.T) {
	const export = `╭───────────────────────────────────────────────────╮
│ ✻ Welcome to Claude Code!                         │
╰───────────────────────────────────────────────────╯

> fix the failing test
  in src/app.test.ts

⏺ I'll run the tests first (quietly).

⏺ Bash(npm test -- --silent)
  ⎿  Error: 1 failed
     FAIL src/app.test.ts

⏺ Bash(find . -name "*.test.ts" |
      sort)
  ⎿  ./src/app.test.ts
     ./src/util.test.ts
     … +12 lines (ctrl+o to expand)

⏺ Update(src/app.ts)
  ⎿  Updated src/app.ts with 1 addition and 1 removal

⏺ Web Search("vitest silent flag")
  ⎿  Did 1 search in 2s

⏺ context7 - resolve-library-id (MCP)(libraryName: "vitest")
  ⎿  Available Libraries: /vitest-dev/vitest

✻ Thinking…

⏺ Let me check (again) the config.
`
	tr, err := ReadFrom("session.txt", strings.NewReader(export))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatClaudeText || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want claude-code-text with one", tr.Format, len(tr.Agents))
	}
	want := []string{
		`user "fix the failing test\nin src/app.…"`,
		`text[model] "I'll run the tests first (quietl…"`,
		`call Bash "npm test -- --silent" => "Error: 1 failed\nFAIL src/app.tes…" FAILED`,
		`call Bash "find . -name \"*.test.ts\" |\nsort" => -`,
		`call Edit "src/app.ts" => "Updated src/app.ts with 1 additi…"`,
		`call WebSearch "\"vitest silent flag\"" => "Did 1 search in 2s"`,
		`call context7 - resolve-library-id "libraryName: \"vitest\"" => "Available Libraries: /vitest-dev…"`,
		`text[model] "Let me check (again) the config."`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("got %s\nwant %s", strings.Join(got, "\n    "), strings.Join(want, "\n     "))
	}
}

// The same failing command four times is told, as it would be from the session's JSONL.
func TestClaudeCodeTextExportRepeatedFailure(t *testing.T) {
	export := "> fix the tests\n\n" + strings.Repeat("⏺ Bash(npm test)\n  ⎿  Error: 1 failed\n\n", 4)
	tr, err := ReadFrom("session.txt", strings.NewReader(export))
	if err != nil {
		t.Fatal(err)
	}
	if _, got := defaultNotices(t, tr.Agents[0]); len(got) == 0 {
		t.Error("four identical failing runs: no notice")
	}
}
