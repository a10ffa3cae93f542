package transcript

import (
	"strings"
	"testing"
)

// amazonQPairs is written for this test in the layout of a conversation Amazon Q Developer
// CLI saves with /save: history entries as [user, assistant] pairs, a greeting answered with
// words, then a reply of two calls whose results come in the next entry's user message (one
// an error), then a command that exits with status 1.
const amazonQPairs = `{
  "conversation_id": "c0ffee00-0000-4000-8000-000000000001",
  "next_message": null,
  "history": [
    [{"additional_context": "", "env_context": {"env_state": {"operating_system": "linux", "current_working_directory": "/w"}},
      "content": {"Prompt": {"prompt": "hello"}}, "images": null},
     {"Response": {"message_id": "m1", "content": "Hello! What shall we work on?"}}],
    [{"additional_context": "", "content": {"Prompt": {"prompt": "Why is the lint failing?"}}, "images": null},
     {"ToolUse": {"message_id": "m2", "content": "Let me look at the config and run the linter.",
       "tool_uses": [
         {"id": "tooluse_a", "name": "fs_read", "orig_name": "fs_read", "args": {"mode": "Line", "path": "/w/lint"}, "orig_args": {"mode": "Line", "path": "/w/lint"}},
         {"id": "tooluse_b", "name": "execute_bash", "orig_name": "execute_bash", "args": {"command": "make lint", "summary": "run the linter"}}]}}],
    [{"content": {"ToolUseResults": {"tool_use_results": [
        {"tool_use_id": "tooluse_b", "content": [{"Json": {"exit_status": "0", "stdout": "ok", "stderr": ""}}], "status": "Success"},
        {"tool_use_id": "tooluse_a", "content": [{"Text": "Failed to validate tool parameters: '/w/lint' is a directory"}], "status": "Error"}]}}, "images": null},
     {"ToolUse": {"message_id": "m3", "content": "",
       "tool_uses": [{"id": "tooluse_c", "name": "execute_bash", "args": {"command": "make test"}}]}}],
    [{"content": {"ToolUseResults": {"tool_use_results": [
        {"tool_use_id": "tooluse_c", "content": [{"Json": {"exit_status": "1", "stdout": "", "stderr": "FAIL"}}], "status": "Success"}]}}, "images": null},
     {"Response": {"message_id": "m4", "content": "The tests fail."}}]
  ],
  "valid_history_range": [0, 4],
  "transcript": ["> hello", "Hello! What shall we work on?"],
  "tools": {},
  "model": "CLAUDE_TEST_MODEL"
}`

// amazonQObjects is written for this test in the later layout (Kiro CLI): history entries as
// {"user", "assistant", "request_metadata"}, a user message's timestamp, calls the user
// cancelled before saying something else, and the last call's result still in next_message.
const amazonQObjects = `{
  "conversation_id": "c0ffee00-0000-4000-8000-000000000002",
  "next_message": {"additional_context": "", "content": {"ToolUseResults": {"tool_use_results": [
    {"tool_use_id": "tooluse_z", "content": [{"Text": "port 3000: node"}], "status": "Success"}]}}, "timestamp": null, "images": null},
  "history": [
    {"user": {"content": {"Prompt": {"prompt": "Check port 3000"}}, "timestamp": "2025-09-17T00:10:30.176234351+05:30", "images": null},
     "assistant": {"ToolUse": {"message_id": "m1", "content": "I'll check it.",
       "tool_uses": [{"id": "tooluse_x", "name": "execute_bash", "args": {"command": "netstat -tlnp"}}]}},
     "request_metadata": {"request_id": "r1", "model_id": "claude-test"}},
    {"user": {"content": {"CancelledToolUses": {"prompt": "use ss instead", "tool_use_results": [
       {"tool_use_id": "tooluse_x", "content": [{"Text": "Tool use was cancelled by the user"}], "status": "Error"}]}}, "timestamp": null},
     "assistant": {"ToolUse": {"message_id": "m2", "content": "",
       "tool_uses": [{"id": "tooluse_z", "name": "execute_bash", "args": {"command": "ss -tlnp"}}]}},
     "request_metadata": {"request_id": "r2", "model_id": "claude-test"}}
  ],
  "valid_history_range": [0, 2],
  "transcript": []
}`

func TestAmazonQConversation(t *testing.T) {
	tests := []struct {
		name, doc string
		events    []string
		note      string
	}{
		{"pairs: prompts, words, calls answered by id in the next entry, failures", amazonQPairs, []string{
			`user "hello"`,
			`text[model] "Hello! What shall we work on?"`,
			`user "Why is the lint failing?"`,
			`text[model] "Let me look at the config and ru…"`,
			`call fs_read "{\"mode\":\"Line\",\"path\":\"/w/lint\"}" => "Failed to validate tool paramete…" FAILED`,
			`call execute_bash "{\"command\":\"make lint\",\"summary\"…" => "{\"exit_status\":\"0\",\"stdout\":\"ok\"…"`,
			`call execute_bash "{\"command\":\"make test\"}" => "{\"exit_status\":\"1\",\"stdout\":\"\",\"…" FAILED`,
			`text[model] "The tests fail."`,
		}, ""},
		{"objects: cancelled calls then the user's words, the last result in next_message", amazonQObjects, []string{
			`user "Check port 3000"`,
			`text[model] "I'll check it."`,
			`call execute_bash "{\"command\":\"netstat -tlnp\"}" => "Tool use was cancelled by the us…" FAILED`,
			`user "use ss instead"`,
			`call execute_bash "{\"command\":\"ss -tlnp\"}" => "port 3000: node"`,
		}, ""},
		{"an empty conversation has no events",
			`{"conversation_id": "c", "next_message": null, "history": [], "valid_history_range": [0, 0], "transcript": []}`,
			nil, ""},
		{"a cleared history is said, its transcript not read as calls",
			`{"conversation_id": "c", "next_message": null, "history": [], "valid_history_range": [0, 0],
			  "transcript": ["> fix it", "Reading the file. [Tool uses: fs_read]"]}`,
			nil, "history empty (cleared or compacted): its transcript names calls without their arguments, not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := expectEvents(t, "q-chat.json", tt.doc, FormatAmazonQ, tt.events)
			if tr.Note != tt.note {
				t.Errorf("note %q, want %q", tr.Note, tt.note)
			}
		})
	}
	tr, _ := ReadFrom("q-chat.json", strings.NewReader(amazonQPairs))
	if c := tr.Agents[0].Calls(); c[0].Turn == "" || c[0].Turn != c[1].Turn || c[1].Turn == c[2].Turn {
		t.Errorf("turns %q %q %q: the calls of one reply are made together", c[0].Turn, c[1].Turn, c[2].Turn)
	}
	if tr.Usage.Model != "CLAUDE_TEST_MODEL" {
		t.Errorf("model %q", tr.Usage.Model)
	}
	tr, _ = ReadFrom("q-chat.json", strings.NewReader(amazonQObjects))
	if u := tr.Agents[0].Events[0]; u.Time == 0 {
		t.Error("the user message's timestamp is not read")
	}
}

// A saved conversation has a top-level "history", as SWE-agent's trajectories do: it is told
// apart by its own keys, also when its history is longer than the head the format is sniffed
// from, and a SWE-agent trajectory is still one.
// openAIToolChat is a short OpenAI-style chat with one call and its result.
const openAIToolChat = `[{"role": "user", "content": "fix the test"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "t1", "type": "function",
  "function": {"name": "bash", "arguments": "{\"command\": \"pytest\"}"}}]}, {"role": "tool", "tool_call_id": "t1", "content": "1 failed"}]`

func TestAmazonQIsNotSWEAgent(t *testing.T) {
	long := strings.Replace(amazonQPairs, `"Let me look at the config and run the linter."`,
		`"`+strings.Repeat("x", sniffSize)+`"`, 1)
	for _, tt := range []struct{ name, doc, format string }{
		{"a conversation", amazonQPairs, FormatAmazonQ},
		{"a conversation whose history is past the head", long, FormatAmazonQ},
		{"a SWE-agent trajectory", `{"trajectory": [{"action": "ls", "observation": "a", "thought": "look"}],
		  "history": [{"role": "system", "content": "x"}], "info": {}}`, FormatSWEAgent},
		{"a saved conversation with no exchange yet", `{"conversation_id": "c1", "next_message": null, "history": [], "valid_history_range": [0, 0]}`, FormatAmazonQ},
		// a conversation id beside another format's messages is that format's
		{"OpenAI messages as a history, with a transcript", `{"conversation_id": "c1", "history": ` + openAIToolChat + `, "transcript": "user: fix it"}`, FormatSWEAgent},
		{"OpenAI messages beside a next_message", `{"conversation_id": "c1", "next_message": null, "messages": ` + openAIToolChat + `}`, FormatMessages},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("run.json", strings.NewReader(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != tt.format {
				t.Errorf("read as %s, want %s", tr.Format, tt.format)
			}
		})
	}
}

func TestAmazonQDamagedNamesItsLine(t *testing.T) {
	doc := "{\"conversation_id\": \"c\", \"next_message\": null,\n\"history\": [\n[{\"content\": {\"Prompt\": oops}}]]}"
	_, err := ReadFrom("q-chat.json", strings.NewReader(doc))
	if err == nil || !strings.HasPrefix(err.Error(), "q-chat.json:3:") {
		t.Errorf("error %v, want one at q-chat.json:3", err)
	}
}
