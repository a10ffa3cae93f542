package transcript

import (
	"slices"
	"testing"

	"github.com/loopguard/loopguard"
)

// clineUIMessages is written for this test from the layout of Cline's ui_messages.json: the
// task said before the first request, each request's text as the model got it, the file tools'
// JSON, a command, an MCP tool, a message still streaming (partial).
const clineUIMessages = `[
{"ts": 1, "type": "say", "say": "text", "text": "fix the build"},
{"ts": 2, "type": "say", "say": "api_req_started", "text": "{\"request\":\"<task>\\nfix the build\\n</task>\\n\\n<environment_details>\\n# Current Time\\n</environment_details>\",\"tokensIn\":10}"},
{"ts": 3, "type": "say", "say": "reasoning", "text": "Read the makefile first."},
{"ts": 4, "type": "say", "say": "text", "text": "Let me look.", "partial": true},
{"ts": 5, "type": "say", "say": "text", "text": "Let me look at the makefile."},
{"ts": 6, "type": "say", "say": "tool", "text": "{\"tool\":\"readFile\",\"path\":\"Makefile\",\"content\":\"/home/u/p/Makefile\",\"operationIsLocatedInWorkspace\":true}"},
{"ts": 7, "type": "say", "say": "api_req_started", "text": "{\"request\":\"[read_file for 'Makefile'] Result:\\nall:\\n\\tgo build ./...\"}"},
{"ts": 8, "type": "ask", "ask": "command", "text": "make"},
{"ts": 9, "type": "ask", "ask": "command_output", "text": "make: *** No rule"},
{"ts": 10, "type": "say", "say": "api_req_started", "text": "{\"request\":\"[execute_command for 'make'] Result:\\nCommand executed.\\nOutput:\\nmake: *** No rule to make target.\"}"},
{"ts": 11, "type": "ask", "ask": "use_mcp_server", "text": "{\"type\":\"use_mcp_tool\",\"serverName\":\"vscode\",\"toolName\":\"open_panel\",\"arguments\":\"{\\\"panel\\\":\\\"explorer\\\"}\"}"},
{"ts": 12, "type": "say", "say": "mcp_server_response", "text": "opened"},
{"ts": 13, "type": "say", "say": "api_req_started", "text": "{\"request\":\"[use_mcp_tool for 'vscode'] Result:\\nopened\"}"},
{"ts": 14, "type": "say", "say": "completion_result", "text": "The makefile has no target."}
]`

// A task's UI messages read as the history they mirror: the task once, the model's words and
// thinking, each call with the result the next request gave the model.
func TestClineUIMessages(t *testing.T) {
	expectEvents(t, "ui_messages.json", clineUIMessages, FormatClineUI, []string{
		`user "fix the build"`,
		`text[context] "<environment_details>\n# Current …"`,
		`text[model] "Read the makefile first."`,
		`text[model] "Let me look at the makefile."`,
		`call read_file "{\"path\":\"Makefile\"}" => "all:\n\tgo build ./..."`,
		`call execute_command "{\"command\":\"make\"}" => "Command executed.\nOutput:\nmake: …"`,
		`call mcp__vscode__open_panel "{\"panel\":\"explorer\"}" => "opened"`, // the tool behind use_mcp_tool
		// its completion is the call attempt_completion, as the history keeps it (r138b U2)
		`call attempt_completion "{\"result\":\"The makefile has no t…" => -`,
	})
}

// A request whose text holds no request still ends the model's turn (Kilo Code writes only its
// protocol there), so that results go to their own calls; with no request to repeat it, the
// task said before it is the user's turn. An MCP entry names what it does.
func TestClineUIRequestsWithoutText(t *testing.T) {
	doc := `[
{"ts": 1, "type": "say", "say": "text", "text": "read both files"},
{"ts": 2, "type": "say", "say": "api_req_started", "text": "{\"apiProtocol\":\"anthropic\"}"},
{"ts": 3, "type": "say", "say": "tool", "text": "{\"tool\":\"readFile\",\"path\":\"A\"}"},
{"ts": 4, "type": "say", "say": "api_req_started", "text": "not json"},
{"ts": 5, "type": "say", "say": "text", "text": "Now B."},
{"ts": 6, "type": "say", "say": "tool", "text": "{\"tool\":\"readFile\",\"path\":\"B\"}"},
{"ts": 7, "type": "say", "say": "api_req_started", "text": "{\"request\":\"[read_file for 'B'] Result:\\nbody of B\"}"},
{"ts": 8, "type": "ask", "ask": "use_mcp_server", "text": "{\"type\":\"access_mcp_resource\",\"serverName\":\"docs\",\"uri\":\"docs://x\"}"}
]`
	expectEvents(t, "ui_messages.json", doc, FormatClineUI, []string{
		`user "read both files"`,
		`call read_file "{\"path\":\"A\"}" => -`,
		`text[model] "Now B."`,
		`call read_file "{\"path\":\"B\"}" => "body of B"`,
		`call access_mcp_resource "{\"serverName\":\"docs\",\"uri\":\"docs…" => -`,
	})
}

// A call shown only in its partial form was still made: Cline left writes of empty files
// partial and never answered them (validation round r96c U2). A partial form followed by its
// final form is one call. Words whose partial form is all there is are what the model had said
// (r146b U2).
func TestClineUIReadsACallLeftPartial(t *testing.T) {
	doc := `[
{"ts": 1, "type": "say", "say": "text", "text": "create the files, empty"},
{"ts": 2, "type": "say", "say": "api_req_started", "text": "{\"request\":\"<task>create the files, empty</task>\"}"},
{"ts": 3, "type": "ask", "ask": "tool", "partial": true, "text": "{\"tool\":\"newFileCreated\",\"path\":\"src/a.ts\"}"},
{"ts": 4, "type": "say", "say": "api_req_started", "text": "{\"request\":\"<environment_details>\\n# VSCode Visible Files\\n</environment_details>\"}"},
{"ts": 5, "type": "say", "say": "text", "text": "Now b", "partial": true},
{"ts": 6, "type": "ask", "ask": "tool", "partial": true, "text": "{\"tool\":\"newFileCreated\",\"path\":\"src/b.ts\"}"},
{"ts": 7, "type": "ask", "ask": "tool", "text": "{\"tool\":\"newFileCreated\",\"path\":\"src/b.ts\",\"content\":\"\"}"},
{"ts": 8, "type": "say", "say": "api_req_started", "text": "{\"request\":\"[write_to_file for 'src/b.ts'] Result:\\nThe content was successfully saved to src/b.ts.\"}"}
]`
	expectEvents(t, "ui_messages.json", doc, FormatClineUI, []string{
		`user "create the files, empty"`,
		`call write_to_file "{\"path\":\"src/a.ts\"}" => -`,
		`text[context] "<environment_details>\n# VSCode V…"`,
		`text[model] "Now b"`,
		`call write_to_file "{\"content\":\"\",\"path\":\"src/b.ts\"}" => "The content was successfully sav…"`,
	})
}

// What Cline adds to what it shows is not the model's: the flag on a command waiting for
// approval, the flag on a completion that changed files, the command attempt_completion was
// given (asked right after it, a field of that call), one message saved twice in one breath
// (validation round r146b U1, U3, U4). A completion declined twice is two completions, not two
// runs of a command that never ran.
func TestClineUILeavesOutWhatClineAdds(t *testing.T) {
	doc := `[
{"ts": 1, "type": "say", "say": "text", "text": "restart the app"},
{"ts": 2, "type": "say", "say": "api_req_started", "text": "{\"request\":\"<task>restart the app</task>\"}"},
{"ts": 3, "type": "say", "say": "text", "text": "Stopping it first:"},
{"ts": 4, "type": "say", "say": "text", "text": "Stopping it first:"},
{"ts": 5, "type": "ask", "ask": "command", "text": "taskkill /IM app.exe /F 2>&1REQ_APP"},
{"ts": 6, "type": "say", "say": "api_req_started", "text": "{\"request\":\"[execute_command for 'taskkill /IM app.exe /F 2>&1'] Result:\\nCommand executed.\"}"},
{"ts": 7, "type": "say", "say": "reasoning", "text": "Done; show how to start it.", "partial": true},
{"ts": 8, "type": "say", "say": "completion_result", "text": "Stopped. Run npm run dev to start it.HAS_CHANGES"},
{"ts": 9, "type": "ask", "ask": "command", "text": "npm run dev"},
{"ts": 10, "type": "say", "say": "api_req_started", "text": "{\"request\":\"[attempt_completion] Result:\\nThe user denied this operation.\"}"}
]`
	tr := expectEvents(t, "ui_messages.json", doc, FormatClineUI, []string{
		`user "restart the app"`,
		`text[model] "Stopping it first:"`,
		`call execute_command "{\"command\":\"taskkill /IM app.exe…" => "Command executed."`,
		`text[model] "Done; show how to start it."`,
		`call attempt_completion "{\"command\":\"npm run dev\",\"result…" => "The user denied this operation." FAILED`,
	})
	var args []string
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventCall {
			args = append(args, string(e.Args))
		}
	}
	want := []string{`{"command":"taskkill /IM app.exe /F 2>&1"}`, `{"command":"npm run dev","result":"Stopped. Run npm run dev to start it."}`}
	if !slices.Equal(args, want) {
		t.Errorf("arguments %q, want %q", args, want)
	}
}

// A follow-up question is the model's ask_followup_question call, answered by the next request,
// and what the user answered in it is the user's turn (validation round r138b U1, U2).
func TestClineUIFollowupQuestionAndAnswer(t *testing.T) {
	const ui = `[
{"ts": 1, "type": "say", "say": "text", "text": "set up firebase"},
{"ts": 2, "type": "say", "say": "api_req_started", "text": "{\"request\":\"<task>\\nset up firebase\\n</task>\"}"},
{"ts": 3, "type": "ask", "ask": "followup", "text": "{\"question\":\"Which account owns the project?\",\"options\":[]}"},
{"ts": 4, "type": "say", "say": "api_req_started", "text": "{\"request\":\"[ask_followup_question for 'Which account owns the project?'] Result:\\n<answer>\\nthe work one\\n</answer>\"}"},
{"ts": 5, "type": "say", "say": "text", "text": "Using the work account."}
]`
	expectEvents(t, "ui_messages.json", ui, FormatClineUI, []string{
		`user "set up firebase"`,
		`call ask_followup_question "{\"question\":\"Which account owns …" => "<answer>\nthe work one\n</answer>"`,
		`user "the work one"`,
		`text[model] "Using the work account."`,
	})
}
