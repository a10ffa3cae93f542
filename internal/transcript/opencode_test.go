package transcript

import (
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var opencodeWant = []string{
	`user "Run the tests and fix what fails…"`,
	`text[model] "Run them first."`,
	`call bash "{\"command\":\"npm test\",\"descripti…" => "1 failing"`,
	`call read "{\"filePath\":\"/home/u/proj/nope.t…" => "File not found: /home/u/proj/nop…" FAILED`,
	`text[harness] "Called the Read tool"`,
	`user "Use the file in lib/ instead."`,
	`call read "{\"filePath\":\"/home/u/proj/lib/a.…" => "export const a = 1"`,
	`text[model] "Found it."`,
}

func TestOpencodeExport(t *testing.T) {
	tr := mustRead(t, "testdata/opencode/export.json")
	if tr.Format != FormatOpencode {
		t.Fatalf("format %q", tr.Format)
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, opencodeWant) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(opencodeWant, "\n"))
	}
	if u := tr.Usage; u.CostUSD != 0.02 || u.InputTokens != 200 || u.CacheReadTokens != 100 || u.Model != "claude-sonnet-4" {
		t.Errorf("usage %+v", u)
	}
}

func TestOpencodeStorageFilesMergeIntoTheirSession(t *testing.T) {
	var parts []*OpencodePart
	err := filepath.WalkDir("testdata/opencode/storage", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		tr := mustRead(t, p)
		if tr.Format != FormatOpencode || tr.Opencode == nil || tr.Opencode.Session != "ses_6a1b2c3d4e5fAbCdEfGhIjKl" {
			t.Fatalf("%s read as %q, %+v", p, tr.Format, tr.Opencode)
		}
		parts = append([]*OpencodePart{tr.Opencode}, parts...) // any order
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m := MergeOpencode("s", parts)
	if got := describe(m.Agents[0].Events); !reflect.DeepEqual(got, opencodeWant) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(opencodeWant, "\n"))
	}
}

// The export's "invalid" tool, which opencode runs in place of a call whose arguments did not
// parse, is the tool the model meant, refused (validation round r94c U1).
func TestOpencodeExportInvalidToolIsTheMeantToolRefused(t *testing.T) {
	doc := `{"info": {"id": "ses_1"}, "messages": [
 {"info": {"id": "m1", "role": "user"}, "parts": [{"type": "text", "text": "append the notes"}]},
 {"info": {"id": "m2", "role": "assistant"}, "parts": [
  {"type": "tool", "tool": "invalid", "callID": "c1", "state": {"status": "completed",
   "input": {"tool": "bash", "error": "Invalid input for tool bash: JSON parsing failed"},
   "output": "The arguments provided to the tool are invalid: Invalid input for tool bash: JSON parsing failed"}}]}]}`
	tr, err := ReadFrom("export.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := tr.Agents[0].Calls()
	if tr.Format != FormatOpencode || len(c) != 1 || c[0].Tool != "bash" || !c[0].Failed {
		t.Errorf("read as %s, calls %+v; want one failed bash call", tr.Format, c)
	}
}

// The reply a compaction asked for (mode "compaction", summary true) is the session's summary,
// not the model thinking about the work (validation round r259a).
func TestOpencodeCompactionReplyIsASummary(t *testing.T) {
	doc := `{"info": {"id": "ses_1"}, "messages": [
 {"info": {"id": "m1", "role": "user"}, "parts": [{"type": "text", "text": "fix the build"}]},
 {"info": {"id": "m2", "role": "assistant", "mode": "build"}, "parts": [{"type": "text", "text": "Fixed."}]},
 {"info": {"id": "m3", "role": "user", "summary": {"diffs": []}}, "parts": [{"type": "compaction", "auto": true}]},
 {"info": {"id": "m4", "role": "assistant", "mode": "compaction", "summary": true}, "parts": [
  {"type": "reasoning", "text": "Let me analyze the conversation history."},
  {"type": "text", "text": "## Goal\nFix the build."}]},
 {"info": {"id": "m5", "role": "assistant", "mode": "build"}, "parts": [{"type": "text", "text": "Going on."}]}]}`
	tr, err := ReadFrom("export.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`user "fix the build"`,
		`text[model] "Fixed."`,
		`text[compact-summary] "Let me analyze the conversation …"`,
		`text[compact-summary] "## Goal\nFix the build."`,
		`text[model] "Going on."`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
