package transcript

import (
	"strings"
	"testing"
)

// The fixture is written for this test in AutoCodeRover's layout: a message list whose user
// messages after the task answer the model's search requests, one "Result of NAME(ARGS):"
// block a call, or say the requests were not valid.
const resultOfChat = `[
{"role": "system", "content": "You maintain a large project."},
{"role": "user", "content": "<issue>the tests lock the database</issue>"},
{"role": "assistant", "content": "I will search for the fixtures and the cursor."},
{"role": "user", "content": "Result of search_method_in_class(\"setUpTestData\", \"MultiDbTests\"):\nFound 2 methods with name setUpTestData.\n\nResult of search_code(\"get_<field>_display\"):\nCould not find code get_<field>_display in the codebase.\n"},
{"role": "user", "content": "Let's analyze collected context first"},
{"role": "assistant", "content": "The fixtures open a second connection."},
{"role": "user", "content": "Result of search_class(\"Cursor\"):\nCould not find class Cursor in the codebase."},
{"role": "user", "content": "The search API calls seem not valid. Please check the arguments you give carefully and try again."},
{"role": "assistant", "content": "I cannot run searches myself."}
]`

func TestResultOfMessagesAreTheCallsTheyAnswer(t *testing.T) {
	tr := expectEvents(t, "conversation_round_3.json", resultOfChat, FormatMessages, []string{
		`text[system] "You maintain a large project."`,
		`user "<issue>the tests lock the databa…"`,
		`text[model] "I will search for the fixtures a…"`,
		`call search_method_in_class "[\"setUpTestData\", \"MultiDbTests\"…" => "Found 2 methods with name setUpT…"`,
		`call search_code "[\"get_<field>_display\"]" => "Could not find code get_<field>_…"`,
		`text[harness] "Let's analyze collected context …"`,
		`text[model] "The fixtures open a second conne…"`,
		`call search_class "[\"Cursor\"]" => "Could not find class Cursor in t…"`,
		`call (invalid call) "" => "The search API calls seem not va…" FAILED`,
		`text[model] "I cannot run searches myself."`,
	})
	calls := tr.Agents[0].Calls()
	if calls[0].Turn == "" || calls[0].Turn != calls[1].Turn || calls[3].Turn == calls[2].Turn {
		t.Errorf("replies %q %q %q %q: the two results of one message answer one reply, the rejection another",
			calls[0].Turn, calls[1].Turn, calls[2].Turn, calls[3].Turn)
	}
}

// One message that happens to open with "Result of" is not a protocol: the chat is read as
// plain messages.
func TestOneResultOfMessageIsNotAProtocol(t *testing.T) {
	const chat = `[{"role": "user", "content": "fix the parser"},
{"role": "assistant", "content": "What did the last run print?"},
{"role": "user", "content": "Result of pytest(\"-q\"):\n1 failed"}]`
	tr, err := ReadFrom("chat.json", strings.NewReader(chat))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tr.Agents[0].Calls()); n != 0 {
		t.Errorf("%d calls read from a chat with one result-like message, want 0", n)
	}
}

// A run that searched once and then had its replies rejected is the layout too: the harness
// offered its search APIs, and its rejections of the model's answer are failed calls.
func TestResultOfOneSearchThenRejections(t *testing.T) {
	const chat = `[{"role": "user", "content": "<issue>the parser drops a token</issue>"},
{"role": "user", "content": "Based on the files, classes, methods, code statements from the issue that related to the bug, you can use below search APIs to get more context of the project.\n    search_class(class_name: str)"},
{"role": "assistant", "content": "I will search the parser."},
{"role": "user", "content": "Result of search_class(\"Parser\"):\nFound 1 classes with name Parser."},
{"role": "assistant", "content": "The bug is in Parser.next."},
{"role": "user", "content": "The buggy locations is not precise. You may need to check whether the arguments are correct and search more information."},
{"role": "assistant", "content": "I cannot run more searches."}]`
	expectEvents(t, "conversation_round_2.json", chat, FormatMessages, []string{
		`user "<issue>the parser drops a token<…"`,
		`text[harness] "Based on the files, classes, met…"`,
		`text[model] "I will search the parser."`,
		`call search_class "[\"Parser\"]" => "Found 1 classes with name Parser…"`,
		`text[model] "The bug is in Parser.next."`,
		`call (rejected answer) "" => "The buggy locations is not preci…" FAILED`,
		`text[model] "I cannot run more searches."`,
	})
}
