package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// Kiro CLI's v1 records, as its log keeps them one a line and as its session export holds them.
const kiroRecords = `{"version":"v1","kind":"Prompt","data":{"message_id":"p1","content":[{"kind":"text","data":"commit and push the changes"}],"meta":{"timestamp":1776635906}}}
{"version":"v1","kind":"AssistantMessage","data":{"message_id":"a1","content":[{"kind":"text","data":"Let me check the status first."},{"kind":"toolUse","data":{"toolUseId":"tooluse_1","name":"shell","input":{"command":"git status","__tool_use_purpose":"Check current git status"}}}]}}
{"version":"v1","kind":"ToolResults","data":{"message_id":"r1","content":[{"kind":"toolResult","data":{"toolUseId":"tooluse_1","content":[{"kind":"json","data":{"exit_status":"exit status: 128","stdout":"","stderr":"fatal: not a git repository\n"}}],"status":"success"}}]}}
{"version":"v1","kind":"AssistantMessage","data":{"message_id":"a2","content":[{"kind":"toolUse","data":{"toolUseId":"tooluse_2","name":"fs_read","input":{"operations":[{"mode":"Line"}]}}}]}}
{"version":"v1","kind":"ToolResults","data":{"message_id":"r2","content":[{"kind":"toolResult","data":{"toolUseId":"tooluse_2","content":[{"kind":"text","data":"Failed to parse the tool use: missing field ` + "`path`" + `"}],"status":"error"}}]}}
{"version":"v1","kind":"AssistantMessage","data":{"message_id":"a3","content":[{"kind":"toolUse","data":{"toolUseId":"tooluse_3","name":"shell","input":{"command":"git log -1 --oneline"}}}]}}
{"version":"v1","kind":"ToolResults","data":{"message_id":"r3","content":[{"kind":"toolResult","data":{"toolUseId":"tooluse_3","content":[{"kind":"json","data":{"exit_status":"exit status: 0","stdout":"4f2a9c1 add notes\n","stderr":""}}],"status":"success"}}]}}
`

func TestKiroSession(t *testing.T) {
	want := []string{
		`user "commit and push the changes"`,
		`text[model] "Let me check the status first."`,
		`call shell "{\"command\":\"git status\"}" => "fatal: not a git repository" FAILED`,
		"call fs_read \"{\\\"operations\\\":[{\\\"mode\\\":\\\"Line\\\"}]}\" => \"Failed to parse the tool use: mi…\" FAILED",
		`call shell "{\"command\":\"git log -1 --oneline…" => "4f2a9c1 add notes"`,
	}
	export := `{"format":"kiro-session-export-v1","metadata":{"session_id":"26217335","cwd":"/w"},"log_entries":[` +
		strings.Join(strings.Split(strings.TrimSpace(kiroRecords), "\n"), ",") + `]}`
	for name, doc := range map[string]string{"the log, one record a line": kiroRecords, "the session export": export} {
		t.Run(name, func(t *testing.T) {
			tr, err := ReadFrom("kiro-session.json", strings.NewReader(doc))
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(tr.Agents[0].Events); tr.Format != FormatKiro || !reflect.DeepEqual(got, want) {
				t.Errorf("read as %s:\n%s\nwant:\n%s", tr.Format, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func FuzzKiro(f *testing.F) {
	f.Add([]byte(kiroRecords))
	f.Add([]byte(`{"format":"kiro-session-export-v1","log_entries":[{"version":"v1","kind":"ToolResults","data":{"content":[{"kind":"toolResult","data":{"content":[{"kind":"json","data":{"exit_status":7}}]}}]}}]}`))
	fuzzReader(f, readKiro)
}
