package transcript

import (
	"encoding/json"
	"strings"
	"testing"
)

// A document encoded twice, a JSON string holding it, is read as the document it holds
// (validation round r197a G5: one of Letta's published agent files was "not JSON").
func TestADocumentWrittenIntoAJSONStringIsReadAsTheDocument(t *testing.T) {
	doc := `{"messages": [{"role": "user", "content": "list the files"},
 {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "bash", "arguments": "{\"cmd\": \"ls\"}"}}]},
 {"role": "tool", "tool_call_id": "c1", "content": "a.txt"}]}`
	quoted, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ReadFrom("agent.af", strings.NewReader(" "+string(quoted)+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatMessages || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want messages with 1", tr.Format, len(tr.Agents))
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || calls[0].Tool != "bash" || calls[0].Result != "a.txt" {
		t.Errorf("calls %+v, want one bash call answered a.txt", calls)
	}
}

func TestAJSONStringHoldingNoDocumentIsAnUnknownFormat(t *testing.T) {
	for _, text := range []string{`"{not json at all"`, `"{\"a\": 1}" trailing`} {
		_, err := ReadFrom("x.json", strings.NewReader(text))
		if err == nil || !strings.Contains(err.Error(), "unknown transcript format") {
			t.Errorf("%s: error %v, want unknown transcript format", text, err)
		}
	}
}

// A text that only opens as a quoted document, a copy of a crew's log that begins with a tool's
// quoted JSON input, is read from its bytes as it was before quoted documents were read.
func TestATextOpeningWithAQuotedValueIsReadAsItsFormat(t *testing.T) {
	out := `"{\"sql\": \"SELECT 1\"}"` + "\n" +
		"## Tool Output: \n" +
		"1\n\n" +
		"# Agent: Analyst\n" +
		"## Using tool: Run query\n" +
		"## Tool Input: \n" +
		`"{\"sql\": \"SELECT 2\"}"` + "\n" +
		"## Tool Output: \n" +
		"2\n"
	tr, err := ReadFrom("crew_error.txt", strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatCrewAILog {
		t.Fatalf("read as %s, want %s", tr.Format, FormatCrewAILog)
	}
	if n := len(tr.Agents[len(tr.Agents)-1].Calls()); n != 1 {
		t.Errorf("%d calls of the analyst, want 1", n)
	}
}
