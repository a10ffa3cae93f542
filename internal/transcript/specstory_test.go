package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// The fixture was written for this test from SpecStory's export layouts (turn lines outside
// fences, <tool-use> envelopes with a summary and a body, <think> blocks, and the earlier
// "Tool use: **name**" sections): a Claude Code session with a subagent, then a Cursor turn.
func TestSpecStoryExportFixture(t *testing.T) {
	tr, err := Read("testdata/specstory/2026-11-30_10-00-00Z-fix-the-parser.md")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatSpecStory || len(tr.Agents) != 2 {
		t.Fatalf("read as %s with %d agents, want specstory with two", tr.Format, len(tr.Agents))
	}
	want := map[string][]string{
		MainAgent: {
			`user "the tokenizer test fails, fix it"`,
			`text[thinking] "Run the test first to see the fa…"`,
			`text[model] "I'll run the test."`,
			"call Bash \"Run the tokenizer test\\n\\n`pytest …\" => \"F\\n1 failed in 0.21s\"",
			"call Edit \"```diff\\n-    return tokens[:-1]\\n…\" => \"Error: String to replace not fou…\" FAILED",
			`call read_file "Read file: src/tokens.py" => ""`,
			"call run_terminal_cmd \"```bash\\ncd /repo && pytest -q\\n``…\" => \"1 passed\"",
			"text[model] \"Done: the test passes.\\n\\n```bash\\n…\"",
		},
		"sidechain": {`call Grep "Grep for \"tokens\\[\" in \"src\" •…" => "src/tokens.py:12:    return toke…"`},
	}
	for _, a := range tr.Agents {
		if got := describe(a.Events); !reflect.DeepEqual(got, want[a.ID]) {
			t.Errorf("agent %s:\n got %s\nwant %s", a.ID, strings.Join(got, "\n     "), strings.Join(want[a.ID], "\n     "))
		}
		if a.ID == "sidechain" && a.Events[0].Result != "src/tokens.py:12:    return tokens[:-1] if n > 0 else tokens" {
			t.Errorf("the exporter's HTML escapes are kept: %q", a.Events[0].Result)
		}
	}
}
