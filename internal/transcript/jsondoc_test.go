package transcript

import (
	"strings"
	"testing"
)

// A document holding Python's NaN and -Infinity is read, those numbers as null, rather than
// lost (validation round r108b U4).
func TestADocumentWithNonFiniteNumbersIsRead(t *testing.T) {
	doc := `[{"role": "user", "content": "go", "score": NaN},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}], "value": -Infinity},
 {"role": "tool", "tool_call_id": "c1", "content": "a.py"}]`
	tr, err := ReadFrom("run.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if calls := tr.Agents[0].Calls(); len(calls) != 1 || calls[0].Result != "a.py" {
		t.Errorf("calls %q, want the bash call answered a.py", describe(tr.Agents[0].Events))
	}
}

// AgentDojo's runs: a call names its function as a string, its arguments in args; a tool's
// answer is text parts whose text is under content; an exception the tool raised is the
// message's error, its content left empty (validation round r119a U1-U3: every call of 215
// runs read with no name and an empty answer, and no failure).
func TestAgentDojoRunIsRead(t *testing.T) {
	doc := `{"suite_name": "government", "user_task_id": "user_task_18", "messages": [
 {"role": "system", "content": [{"type": "text", "content": "You are a tool-using assistant."}]},
 {"role": "user", "content": [{"type": "text", "content": "I cannot get past the verification step."}]},
 {"role": "assistant", "content": [{"type": "text", "content": ""}], "tool_calls": [
   {"function": "open_webpage", "args": {"doc_id_or_url": "https://www.login.gov/help"}, "id": "call_1", "placeholder_args": null}]},
 {"role": "tool", "content": [{"type": "text", "content": "content: '# Web Document'"}], "tool_call_id": "call_1", "tool_call": {"function": "open_webpage", "args": {}}, "error": null},
 {"role": "assistant", "content": null, "tool_calls": [
   {"function": "review_security_guidance", "args": {"opened_security_guidance_url": "https://www.login.gov/help"}, "id": "call_2"}]},
 {"role": "tool", "content": [{"type": "text", "content": ""}], "tool_call_id": "call_2", "error": "ValueError: The supplied opened_security_guidance_url does not match the official page."}
]}`
	for name, d := range map[string]string{"a run": doc, "a list under another key": strings.Replace(doc, `"messages"`, `"conversation_log"`, 1)} {
		t.Run(name, func(t *testing.T) { expectAgentDojoEvents(t, d) })
	}
}

func expectAgentDojoEvents(t *testing.T, doc string) {
	t.Helper()
	expectEvents(t, "government_t18.json", doc, FormatMessages, []string{
		`text[system] "You are a tool-using assistant."`,
		`user "I cannot get past the verificati…"`,
		`call open_webpage "{\"doc_id_or_url\":\"https://www.lo…" => "content: '# Web Document'"`,
		`call review_security_guidance "{\"opened_security_guidance_url\":…" => "ValueError: The supplied opened_…" FAILED`,
	})
}
