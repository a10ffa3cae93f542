package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// Exports that write a line per content block, with their own spelling of the block's fields
// (tool_name, tool_id, output), read as the message list they flatten.
func TestMessagesFlattenedToOneBlockALine(t *testing.T) {
	file := `{"timestamp":"2026-02-25T04:48:20Z","role":"user","content":{"type":"text","text":"clone the repo"}}
{"timestamp":"2026-02-25T04:48:22Z","role":"assistant","content":{"type":"thinking","text":"Run git clone."}}
{"timestamp":"2026-02-25T04:48:23Z","role":"assistant","content":{"type":"tool_use","tool_name":"Bash","tool_id":"toolu_1","input":{"command":"git clone git@github.com:o/r.git"}}}
{"timestamp":"2026-02-25T04:48:26Z","role":"tool","content":{"type":"tool_result","tool_id":"toolu_1","output":"Permission denied (publickey).","is_error":true}}
{"timestamp":"2026-02-25T04:48:32Z","role":"assistant","content":{"type":"text","text":"The clone failed."}}
`
	tr, err := ReadFrom("transcript.jsonl", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	got := describe(tr.Agents[0].Events)
	want := []string{
		`user "clone the repo"`,
		`text[model] "Run git clone."`,
		`call Bash "{\"command\":\"git clone git@github…" => "Permission denied (publickey)." FAILED`,
		`text[model] "The clone failed."`,
	}
	if tr.Format != FormatMessages || !reflect.DeepEqual(got, want) {
		t.Errorf("read as %q:\n%s\nwant:\n%s", tr.Format, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
