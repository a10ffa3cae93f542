package transcript

import (
	"strings"
	"testing"
)

// vscodeAgentSession is written for this test in the layout of a VS Code chat session in
// agent mode ("Chat: Export Chat..."): two requests; the first's rounds read a file (its
// result a prompt-tsx tree) and run a command that throws, the second's run a command the
// user cancels and an MCP tool that the panel shows failing. The panel's view (response)
// shows the same calls under ids of its own.
const vscodeAgentSession = `{
  "requesterUsername": "dev",
  "responderUsername": "GitHub Copilot",
  "initialLocation": "panel",
  "requests": [
    {
      "requestId": "request_1",
      "message": {"text": "Why does the build fail?", "parts": []},
      "modelId": "copilot/test-model",
      "timestamp": 1700000000000,
      "response": [
        {"value": "Let me look at the config.", "supportThemeIcons": false},
        {"kind": "toolInvocationSerialized", "toolId": "copilot_readFile", "toolCallId": "u1", "isComplete": true},
        {"kind": "toolInvocationSerialized", "toolId": "run_in_terminal", "toolCallId": "u2", "isComplete": true},
        {"value": "The build script is missing."}
      ],
      "result": {"metadata": {
        "toolCallRounds": [
          {"response": "Let me look at the config.", "thinking": {"id": "t1", "text": "Config first, then build."},
           "toolCalls": [
             {"name": "read_file", "arguments": "{\"filePath\": \"/w/build.config\"}", "id": "call_a"},
             {"name": "run_in_terminal", "arguments": "{\"command\": \"make build\"}", "id": "call_b"}]},
          {"response": "The build script is missing.", "toolCalls": []}
        ],
        "toolCallResults": {
          "call_a": {"$mid": 20, "content": [{"$mid": 23, "value": {"node": {"type": 1, "ctor": 2, "children": [
            {"type": 2, "text": "File: build.config", "lineBreakBefore": false},
            {"type": 1, "ctor": 2, "children": [{"type": 2, "text": "target = all", "lineBreakBefore": true}]}]}}}]},
          "call_b": {"$mid": 20, "content": [{"$mid": 21, "value": "ERROR while calling tool: make: not found\nPlease check your input and try again."}]}
        }
      }}
    },
    {
      "requestId": "request_2",
      "message": {"text": "Add it and open the page", "parts": []},
      "response": [
        {"kind": "toolInvocationSerialized", "toolId": "run_in_terminal", "toolCallId": "u3"},
        {"kind": "toolInvocationSerialized", "toolId": "mcp_browser_navigate", "toolCallId": "u4",
         "resultDetails": {"input": "{\"url\": \"http://localhost\"}", "output": [{"value": "net::ERR_CONNECTION_REFUSED"}], "isError": true}},
        {"kind": "toolInvocationSerialized", "toolId": "copilot_findFiles", "toolCallId": "u5", "fromSubAgent": true,
         "resultDetails": [{"uri": {"path": "/w/x"}}]},
        {"kind": "toolInvocationSerialized", "toolId": "copilot_readFile", "toolCallId": "u7", "subAgentInvocationId": "ccef6636"},
        {"kind": "toolInvocationSerialized", "toolId": "copilot_readFile", "toolCallId": "u6"}
      ],
      "result": {"metadata": {
        "toolCallRounds": [
          {"response": "", "toolCalls": [{"name": "run_in_terminal", "arguments": "{\"command\": \"touch build.sh\"}", "id": "call_c"}]},
          {"response": "", "toolCalls": [{"name": "mcp_browser_navigate", "arguments": "{\"url\": \"http://localhost\"}", "id": "call_d"}]},
          {"response": "", "toolCalls": [{"name": "read_file", "arguments": "{\"filePath\": \"/w/b\"}", "id": "call_e"}]}
        ],
        "toolCallResults": {
          "call_c": {"content": [{"value": "The user cancelled the tool call."}]},
          "call_d": {"content": [{"value": "net::ERR_CONNECTION_REFUSED"}, {"mimeType": "image/png", "data": {}}]}
        }
      }}
    }
  ]
}`

func TestVSCodeChatSession(t *testing.T) {
	tests := []struct {
		name, doc string
		events    []string
	}{
		{"each request a user turn, then its rounds in order: words, then calls with their results",
			vscodeAgentSession, []string{
				`user "Why does the build fail?"`,
				`text[reasoning] "Config first, then build."`,
				`text[model] "Let me look at the config."`,
				`call read_file "{\"filePath\": \"/w/build.config\"}" => "File: build.config\ntarget = all"`,
				`call run_in_terminal "{\"command\": \"make build\"}" => "ERROR while calling tool: make: …" FAILED`,
				`text[model] "The build script is missing."`,
				`user "Add it and open the page"`,
				// a call the user cancelled; an MCP error the panel alone shows (its subagent's
				// calls, marked either way, left out, the two views hold as many calls); a call
				// without its result
				`call run_in_terminal "{\"command\": \"touch build.sh\"}" => "The user cancelled the tool call…" FAILED`,
				`call mcp_browser_navigate "{\"url\": \"http://localhost\"}" => "net::ERR_CONNECTION_REFUSED\n[ima…" FAILED`,
				`call read_file "{\"filePath\": \"/w/b\"}" => -`,
			}},
		{"the panel's view fails no call when it does not show the rounds' calls one for one",
			`{"responderUsername": "GitHub Copilot", "requests": [{"message": {"text": "open it"},
			  "response": [{"kind": "toolInvocationSerialized", "toolId": "mcp_browser_navigate", "resultDetails": {"isError": true}}],
			  "result": {"metadata": {"toolCallRounds": [{"response": "", "toolCalls": [
			    {"name": "mcp_browser_navigate", "arguments": "{\"url\": \"http://a\"}", "id": "x"},
			    {"name": "mcp_browser_navigate", "arguments": "{\"url\": \"http://b\"}", "id": "y"}]}],
			  "toolCallResults": {"x": {"content": [{"value": "ok"}]}, "y": {"content": [{"value": "refused"}]}}}}}]}`,
			[]string{
				`user "open it"`,
				`call mcp_browser_navigate "{\"url\": \"http://a\"}" => "ok"`,
				`call mcp_browser_navigate "{\"url\": \"http://b\"}" => "refused"`,
			}},
		{"an input that did not validate is a failed call",
			`{"responderUsername": "GitHub Copilot", "requests": [{"message": {"text": "go"},
			  "result": {"metadata": {"toolCallRounds": [{"response": "", "toolCalls": [{"name": "run_in_terminal", "arguments": "{}", "id": "x"}]}],
			  "toolCallResults": {"x": {"content": [{"value": "ERROR: Your input to the tool was invalid (must have required property 'command')\nPlease check your input and try again."}]}}}}}]}`,
			[]string{
				`user "go"`,
				`call run_in_terminal "{}" => "ERROR: Your input to the tool wa…" FAILED`,
			}},
		{"failures Copilot's tools report only in their words: a patch, a command, a terminal's exit code",
			`{"responderUsername": "GitHub Copilot", "requests": [{"message": {"text": "fix it"},
			  "result": {"metadata": {"toolCallRounds": [{"response": "", "toolCalls": [
			    {"name": "apply_patch", "arguments": "{\"input\": \"*** Begin Patch\"}", "id": "p"},
			    {"name": "run_vscode_command", "arguments": "{\"commandId\": \"x.y\"}", "id": "v"},
			    {"name": "run_in_terminal", "arguments": "{\"command\": \"nope\"}", "id": "t"},
			    {"name": "run_in_terminal", "arguments": "{\"command\": \"make\"}", "id": "n"},
			    {"name": "run_in_terminal", "arguments": "{\"command\": \"cat log\"}", "id": "q"},
			    {"name": "run_in_terminal", "arguments": "{\"command\": \"true\"}", "id": "z"}]}],
			  "toolCallResults": {
			    "p": {"content": [{"value": "Applying patch failed with error: Invalid context at character 0"}]},
			    "v": {"content": [{"value": "Failed to find command ` + "`x.y`" + `."}]},
			    "t": {"content": [{"value": "bash: nope: command not found\n\nCommand exited with code 127"}]},
			    "n": {"content": [{"value": "Note: The tool simplified the command.\r\n\r\nCommand exited with code 2\r\n\r\nMore notes"}]},
			    "q": {"content": [{"value": "build: Command exited with code 1 (retried)"}]},
			    "z": {"content": [{"value": "Command produced no output"}]}}},
			  "errorDetails": {"message": "Sorry, your request was rate-limited.", "responseIsFiltered": false}}}]}`,
			[]string{
				`user "fix it"`,
				`call apply_patch "{\"input\": \"*** Begin Patch\"}" => "Applying patch failed with error…" FAILED`,
				"call run_vscode_command \"{\\\"commandId\\\": \\\"x.y\\\"}\" => \"Failed to find command `x.y`.\" FAILED",
				`call run_in_terminal "{\"command\": \"nope\"}" => "bash: nope: command not found\n\nC…" FAILED`,
				`call run_in_terminal "{\"command\": \"make\"}" => "Note: The tool simplified the co…" FAILED`,
				// a line of the command's own output that only mentions an exit code
				`call run_in_terminal "{\"command\": \"cat log\"}" => "build: Command exited with code …"`,
				`call run_in_terminal "{\"command\": \"true\"}" => "Command produced no output"`,
				`text[error] "Sorry, your request was rate-lim…"`,
			}},
		{"a request without rounds is read from the panel's view",
			`{"requesterUsername": "dev", "responderUsername": "GitHub Copilot", "requests": [{"message": {"text": "what is this?"},
			  "response": [{"value": "It is a "}, {"value": "parser."},
			    {"kind": "toolInvocationSerialized", "toolId": "run_in_terminal", "toolSpecificData": {"kind": "terminal",
			     "commandLine": {"original": "cd /w && ls", "toolEdited": "ls"}, "terminalCommandState": {"exitCode": 2},
			     "terminalCommandOutput": {"text": "ls: cannot access"}}},
			    {"kind": "toolInvocationSerialized", "toolId": "copilot_readFile", "pastTenseMessage": {"value": "Read [](file:///w/a.go)"}}],
			  "result": {"timings": {}}}]}`,
			[]string{
				`user "what is this?"`,
				`text[model] "It is a parser."`,
				`call run_in_terminal "{\"command\":\"cd /w && ls\"}" => "ls: cannot access" FAILED`,
				`call copilot_readFile "{\"message\":\"Read [](file:///w/a.…" => -`,
			}},
		{"an empty session has no events",
			`{"requesterUsername": "dev", "responderUsername": "GitHub Copilot", "initialLocation": "panel", "requests": []}`,
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := expectEvents(t, "chat.json", tt.doc, FormatVSCodeChat, tt.events)
			if tr.Sessions != 1 || len(tr.Agents) != 1 || tr.Agents[0].ID != MainAgent {
				t.Errorf("%d sessions, %d agents, want one session of %q", tr.Sessions, len(tr.Agents), MainAgent)
			}
		})
	}
}

// The calls of one round are one reply, and a round's calls another's.
func TestVSCodeChatRoundIsOneReply(t *testing.T) {
	tr, err := ReadFrom("chat.json", strings.NewReader(vscodeAgentSession))
	if err != nil {
		t.Fatal(err)
	}
	c := tr.Agents[0].Calls()
	if c[0].Turn == "" || c[0].Turn != c[1].Turn || c[2].Turn == c[3].Turn {
		t.Errorf("turns %q %q %q %q", c[0].Turn, c[1].Turn, c[2].Turn, c[3].Turn)
	}
	if tr.Usage.Model != "copilot/test-model" {
		t.Errorf("model %q", tr.Usage.Model)
	}
}

// vscodeReplay is written for this test in the layout of the Copilot extension's chat
// replay export: the agent loop's three captures of one prompt (each a request, its calls
// after it), a side request for the chat's title, a failed request, and a second prompt.
const vscodeReplayExport = `{
  "exportedAt": "2025-01-01T10:00:00.000Z",
  "totalPrompts": 4,
  "totalLogEntries": 9,
  "prompts": [
    {"prompt": "Remove the old tests", "hasSeen": false, "logCount": 4, "logs": [
      {"id": "e1", "kind": "element", "name": "AgentPrompt", "tokens": 10, "maxTokens": 100},
      {"id": "r1", "kind": "request", "type": "ChatMLSuccess", "name": "panel/editAgent",
       "metadata": {"model": "test-model", "tools": [{"function": {"name": "grep_search"}}]},
       "requestMessages": {"messages": []}, "response": {"type": "success", "message": [""]}},
      {"id": "call_1__vscode-1", "kind": "toolCall", "tool": "grep_search", "args": "{\"query\":\"old\"}",
       "time": "2025-01-01T10:00:01.000Z", "response": ["2 matches"]},
      {"id": "r0", "kind": "request", "type": "ChatMLSuccess", "name": "title", "metadata": {},
       "response": {"type": "success", "message": "Removing tests"}}
    ]},
    {"prompt": "Remove the old tests", "hasSeen": false, "logCount": 3, "logs": [
      {"id": "r2", "kind": "request", "type": "ChatMLSuccess", "name": "panel/editAgent",
       "thinking": {"text": "Delete both."}, "response": {"type": "success", "message": ["I'll delete them."]}},
      {"id": "call_2__vscode-2", "kind": "toolCall", "tool": "apply_patch", "args": {"input": "*** Delete File: a_test.go"},
       "response": ["ERROR while calling tool: file not found\nPlease check your input and try again."]},
      {"id": "call_3__vscode-3", "kind": "toolCall", "tool": "apply_patch", "args": {"input": "*** Delete File: b_test.go"},
       "response": [{"node": {"type": 1, "ctor": 2, "children": [{"type": 2, "text": "Deleted b_test.go"}]}}]}
    ]},
    {"prompt": "Remove the old tests", "hasSeen": false, "logCount": 1, "logs": [
      {"id": "r3", "kind": "request", "type": "ChatMLFailure", "name": "panel/editAgent", "response": {"type": "failure", "reason": "rate limited"}}
    ]},
    {"prompt": "Thanks, now commit", "hasSeen": false, "logCount": 1, "logs": [
      {"id": "r4", "kind": "request", "type": "ChatMLSuccess", "name": "panel/editAgent", "response": {"type": "success", "message": "Committed."}},
      {"id": "x", "kind": "error", "error": "could not write the entry"}
    ]}
  ]
}`

func TestVSCodeChatReplay(t *testing.T) {
	tests := []struct {
		name, doc string
		events    []string
	}{
		{"a prompt repeated once per round is one user turn; calls with their results in order",
			vscodeReplayExport, []string{
				`user "Remove the old tests"`,
				`call grep_search "{\"query\":\"old\"}" => "2 matches"`,
				// the title request is not the agent's
				`text[reasoning] "Delete both."`,
				`text[model] "I'll delete them."`,
				`call apply_patch "{\"input\":\"*** Delete File: a_tes…" => "ERROR while calling tool: file n…" FAILED`,
				`call apply_patch "{\"input\":\"*** Delete File: b_tes…" => "Deleted b_test.go"`,
				`text[error] "ChatMLFailure: rate limited"`,
				`user "Thanks, now commit"`,
				`text[model] "Committed."`,
			}},
		{"one prompt exported alone",
			`{"prompt": "list files", "hasSeen": false, "logCount": 1, "logs": [
			  {"id": "c", "kind": "toolCall", "tool": "list_dir", "args": "{\"path\":\"/w\"}", "response": ["a\nb"]}]}`,
			[]string{
				`user "list files"`,
				`call list_dir "{\"path\":\"/w\"}" => "a\nb"`,
			}},
		{"an empty export has no events",
			`{"exportedAt": "2025-01-01T10:00:00.000Z", "totalPrompts": 0, "totalLogEntries": 0, "prompts": []}`,
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expectEvents(t, "x.chatreplay.json", tt.doc, FormatVSCodeChat, tt.events)
		})
	}
	tr, _ := ReadFrom("x.chatreplay.json", strings.NewReader(vscodeReplayExport))
	if c := tr.Agents[0].Calls(); c[0].Turn == c[1].Turn || c[1].Turn != c[2].Turn {
		t.Errorf("turns %q %q %q: the calls after a request are its reply", c[0].Turn, c[1].Turn, c[2].Turn)
	}
}

// A damaged document is an error naming the file and the line.
func TestVSCodeChatDamagedNamesItsLine(t *testing.T) {
	for _, tt := range []struct{ name, doc, want string }{
		{"session", "{\"requesterUsername\": \"dev\", \"responderUsername\": \"GitHub Copilot\",\n\"requests\": [\n{\"message\": {oops}}]}", "chat.json:3:"},
		{"replay", "{\"exportedAt\": \"t\", \"totalPrompts\": 1,\n\"prompts\": [{\"prompt\": \"x\", \"logs\": [\n{\"kind\": \"toolCall\", \"tool\": ]}]}", "chat.json:3:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadFrom("chat.json", strings.NewReader(tt.doc))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want one at %s", err, tt.want)
			}
		})
	}
}

// Current VS Code releases keep a session as an operation log (chatSessions/<id>.jsonl): the
// session as it was first written, then its changes. The log is replayed: a request pushed
// later, its result set when the reply ended, a member deleted, a list cut back and appended.
func TestVSCodeChatJournal(t *testing.T) {
	snapshot := `{"kind":0,"v":{"version":3,"requesterUsername":"dev","responderUsername":"GitHub Copilot","initialLocation":"panel",` +
		`"requests":[{"message":{"text":"list the files"},"response":[],` +
		`"result":{"metadata":{"toolCallRounds":[{"response":"Listing.","toolCalls":[{"name":"list_dir","arguments":"{\"path\":\".\"}","id":"c1"}]}],` +
		`"toolCallResults":{"c1":{"content":[{"value":"a.txt"}]}}}}}]}}`
	pushed := `{"kind":2,"k":["requests"],"v":[{"message":{"text":"read a.txt"},"response":[]}]}`
	answered := `{"kind":1,"k":["requests",1,"result"],"v":{"metadata":{"toolCallRounds":[` +
		`{"response":"","toolCalls":[{"name":"read_file","arguments":"{\"filePath\":\"a.txt\"}","id":"c2"}]},` +
		`{"response":"","toolCalls":[{"name":"read_file","arguments":"{\"filePath\":\"b.txt\"}","id":"c3"}]}],` +
		`"toolCallResults":{"c2":{"content":[{"value":"hello"}]},"c3":{"content":[{"value":"ERROR while calling tool: no b.txt. Please check your input and try again."}]}}}}}`
	cutBack := `{"kind":2,"k":["requests",1,"result","metadata","toolCallRounds"],"i":1,"v":[{"response":"Done.","toolCalls":[]}]}`
	titled := `{"kind":1,"k":["customTitle"],"v":"Files"}`
	deleted := `{"kind":3,"k":["customTitle"]}`
	tests := []struct {
		name   string
		lines  []string
		events []string
	}{
		{"the snapshot alone", []string{snapshot},
			[]string{`user "list the files"`, `text[model] "Listing."`, `call list_dir "{\"path\":\".\"}" => "a.txt"`}},
		{"a request pushed, then its result set", []string{snapshot, pushed, answered, titled, deleted},
			[]string{`user "list the files"`, `text[model] "Listing."`, `call list_dir "{\"path\":\".\"}" => "a.txt"`,
				`user "read a.txt"`, `call read_file "{\"filePath\":\"a.txt\"}" => "hello"`,
				`call read_file "{\"filePath\":\"b.txt\"}" => "ERROR while calling tool: no b.t…" FAILED`}},
		{"a list cut back to i items, then appended", []string{snapshot, pushed, answered, cutBack},
			[]string{`user "list the files"`, `text[model] "Listing."`, `call list_dir "{\"path\":\".\"}" => "a.txt"`,
				`user "read a.txt"`, `call read_file "{\"filePath\":\"a.txt\"}" => "hello"`, `text[model] "Done."`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expectEvents(t, "0f3c.jsonl", strings.Join(tt.lines, "\n")+"\n", FormatVSCodeChat, tt.events)
		})
	}
}

// A change that leads nowhere names its line; a damaged line among good ones is passed over
// and named.
func TestVSCodeChatJournalErrorsNameTheLine(t *testing.T) {
	snapshot := `{"kind":0,"v":{"requesterUsername":"dev","responderUsername":"GitHub Copilot","requests":[]}}`
	_, err := ReadFrom("s.jsonl", strings.NewReader(snapshot+"\n"+`{"kind":1,"k":["requests",5,"result"],"v":{}}`+"\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "s.jsonl:2: change of kind 1 at [requests 5 result]") {
		t.Errorf("error %v, want one naming line 2 and the path", err)
	}
	tr, err := ReadFrom("s.jsonl", strings.NewReader(snapshot+"\n"+`{"kind":1,"k":["customTitle"],"v":`+"\n"+
		`{"kind":2,"k":["requests"],"v":[{"message":{"text":"hi"}}]}`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Damaged) != 1 || tr.Damaged[0].Line != 2 || len(tr.Agents) != 1 || tr.Agents[0].Events[0].Text != "hi" {
		t.Errorf("damaged %v, agents %d: want line 2 passed over and the request read", tr.Damaged, len(tr.Agents))
	}
}

// prompt-tsx sets a text on a line of its own only where the text before it does not already
// end one, and never at the start: Copilot sends a file read one line a text, each with its
// own line break.
func TestVSCodePromptTreeRendersLineBreaksAsPromptTSXDoes(t *testing.T) {
	tests := []struct {
		name, value, want string
	}{
		{"lines that end their own breaks", `{"node": {"type": 1, "children": [
			{"type": 2, "text": "{\n", "lineBreakBefore": true},
			{"type": 2, "text": "  \"name\": \"app\"\n", "lineBreakBefore": true},
			{"type": 2, "text": "}\n", "lineBreakBefore": true}]}}`, "{\n  \"name\": \"app\"\n}\n"},
		{"a break between texts that end none", `{"node": {"type": 1, "children": [
			{"type": 2, "text": "File: build.config", "lineBreakBefore": false},
			{"type": 2, "text": "target = all", "lineBreakBefore": true}]}}`, "File: build.config\ntarget = all"},
		{"no break before the first text", `{"node": {"type": 2, "text": "only", "lineBreakBefore": true}}`, "only"},
		{"texts without breaks run on", `{"node": {"type": 1, "children": [
			{"type": 2, "text": "a"}, {"type": 2, "text": "b"}]}}`, "ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := vscodeValueText([]byte(tt.value))
			if !ok || got != tt.want {
				t.Errorf("vscodeValueText = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
}
