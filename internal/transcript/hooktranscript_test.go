package transcript

import (
	"strings"
	"testing"
)

// The transcript oh-my-opencode keeps for Claude Code's hooks, written for these tests in its
// layout: the user's prompt, calls as tool_use records, answers as tool_result records that
// repeat the call's tool and input.
func TestHookTranscriptCallsAreAnsweredByTheirResultRecords(t *testing.T) {
	doc := `{"type":"user","timestamp":"2026-04-18T09:09:17.678Z","content":"Can the review skills do a full review?"}
{"type":"tool_use","timestamp":"2026-04-18T09:09:31.769Z","tool_name":"read","tool_input":{"filePath":"/repo/SKILL.md"}}
{"type":"tool_result","timestamp":"2026-04-18T09:09:31.901Z","tool_name":"read","tool_input":{"filePath":"/repo/SKILL.md"},"tool_output":{"output":"<path>/repo/SKILL.md</path>\n1: ---"}}
{"type":"tool_use","timestamp":"2026-04-18T09:09:40.100Z","tool_name":"glob","tool_input":{"pattern":"**/*.md"}}
{"type":"tool_use","timestamp":"2026-04-18T09:09:40.120Z","tool_name":"bash","tool_input":{"command":"ls skills"}}
{"type":"tool_use","timestamp":"2026-04-18T09:09:40.140Z","tool_name":"glob","tool_input":{"pattern":"**/*.py"}}
{"type":"tool_result","timestamp":"2026-04-18T09:09:40.300Z","tool_name":"glob","tool_input":{"pattern":"**/*.py"},"tool_output":{"output":"tools/check.py"}}
{"type":"tool_result","timestamp":"2026-04-18T09:09:40.310Z","tool_name":"bash","tool_input":{"command":"ls skills","description":"List skills"},"tool_output":{"output":"review\npeer-review"}}
{"type":"tool_result","timestamp":"2026-04-18T09:09:40.320Z","tool_name":"glob","tool_input":{"pattern":"**/*.md"},"tool_output":{"output":"SKILL.md"}}
{"type":"tool_result","timestamp":"2026-04-18T09:09:41.000Z","tool_name":"edit","tool_input":{"filePath":"/repo/SKILL.md"},"tool_output":{"output":"Edit applied successfully.","filediff":{"additions":8,"deletions":0}}}
{"type":"tool_use","timestamp":"2026-04-18T09:09:42.000Z","tool_name":"task","tool_input":{"description":"explore"}}
`
	tr := expectEvents(t, "ses_26025ff47ffe0Yt40nEN6vxKkr.jsonl", doc, FormatHookTranscript, []string{
		`user "Can the review skills do a full …"`,
		`call read "{\"filePath\":\"/repo/SKILL.md\"}" => "<path>/repo/SKILL.md</path>\n1: -…"`,
		// the results of a reply's three calls come in another order, and the bash input
		// grew a field: each answers the call of its tool with its input, else the oldest
		`call glob "{\"pattern\":\"**/*.md\"}" => "SKILL.md"`,
		`call bash "{\"command\":\"ls skills\"}" => "review\npeer-review"`,
		`call glob "{\"pattern\":\"**/*.py\"}" => "tools/check.py"`,
		// a result with no call before it is a call of its own
		`call edit "{\"filePath\":\"/repo/SKILL.md\"}" => "Edit applied successfully."`,
		// a call still running when the file ends has no answer
		`call task "{\"description\":\"explore\"}" => -`,
	})
	calls := tr.Agents[0].Calls()
	if calls[1].Turn == "" || calls[1].Turn != calls[2].Turn || calls[2].Turn != calls[3].Turn || calls[0].Turn == calls[1].Turn {
		t.Errorf("turns %q: want the three calls made together in one reply", []string{calls[0].Turn, calls[1].Turn, calls[2].Turn, calls[3].Turn})
	}
}

// The format is told by its tool records, whatever the file's name; Grok CLI's chat history,
// whose records are typed by role too, stays a message list.
func TestHookTranscriptRecognisedByItsToolRecords(t *testing.T) {
	for _, tt := range []struct {
		name, doc, want string
	}{
		{"a prompt, then a call", `{"type":"user","timestamp":"t","content":"go"}` + "\n" +
			`{"type":"tool_use","timestamp":"t","tool_name":"bash","tool_input":{"command":"ls"}}` + "\n", FormatHookTranscript},
		{"a result first", `{"type":"tool_result","timestamp":"t","tool_name":"bash","tool_input":{"command":"ls"},"tool_output":{"output":"a"}}` + "\n" +
			`{"type":"user","timestamp":"t","content":"go"}` + "\n", FormatHookTranscript},
		{"Grok CLI's chat history", `{"type":"user","content":"run the tests"}` + "\n" +
			`{"type":"tool_result","tool_call_id":"call-1","content":"ok"}` + "\n", FormatMessages},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("session.jsonl", strings.NewReader(tt.doc))
			if err != nil || tr.Format != tt.want {
				t.Errorf("read as %v (err %v), want %q", tr, err, tt.want)
			}
		})
	}
}
