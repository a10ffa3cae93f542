package transcript

import (
	"bufio"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// camelOlderRun is a role-play printed as CAMEL releases of 2024 print it: each part of a turn
// on lines of its own, behind colour codes, the roles named by their sys messages.
const camelOlderRun = "\x1b[32mAI Assistant sys message:\n" +
	"BaseMessage(role_name='Librarian', role_type=<RoleType.ASSISTANT: 'assistant'>, meta_dict={'task': 'x'}, content='...')\n\n" +
	"\x1b[34mAI User sys message:\n" +
	"BaseMessage(role_name='Student', role_type=<RoleType.USER: 'user'>, meta_dict={'task': 'x'}, content='...')\n\n" +
	"\x1b[33mOriginal task prompt:\nFind when the town library opened.\n\n" +
	"\x1b[36mSpecified task prompt:\nNone\n\n" +
	"\x1b[31mFinal task prompt:\nFind when the town library opened, then count its years.\n\n" +
	"\x1b[34mAI User:\n\nInstruction: Look up the library's opening year.\nInput: None\n\n\n" +
	"\x1b[32mAI Assistant:\n\n" +
	"Function Execution: web_lookup\n" +
	"\tArgs: {'query': 'town library opening year'}\n" +
	"\tResult: [{'error': 'lookup service down.'}]\n\n" +
	"Solution: The lookup failed.\n\nNext request.\n\n\n" +
	"\x1b[34mAI User:\n\nInstruction: Try the archive instead.\nInput: None\n\n\n" +
	"\x1b[32mAI Assistant:\n\n" +
	"Function Execution: archive_search\n" +
	"\tArgs: {'term': 'library', 'limit': 2, 'exact': True}\n" +
	"\tResult: The library opened in 1911.\n\nIt was rebuilt in 1960.\n\n" +
	"Solution: It opened in 1911.\n\nNext request.\n\n\n" +
	"\x1b[34mAI User:\n\n<CAMEL_TASK_DONE>\n\n\n" +
	"\x1b[32mAI Assistant:\n\nSolution: Done.\n\n"

// camelGluedRun is a role-play printed as releases since late 2024 print it: no line break
// between the label, the calls and the words.
const camelGluedRun = "\x1b[34mAI User:\n\nInstruction: Check the date.\nInput: None\n" +
	"\x1b[32mAI Assistant:Function Execution: date_now\n" +
	"\tArgs: {}\n" +
	"\tResult: It is Monday, May 5! 🎉Function Execution: weather\n" +
	"\tArgs: {'city': 'Lyon'}\n" +
	"\tResult: Sunny today.\n\nRain tomorrow. ☔Solution: It is Monday and sunny in Lyon.\n\nNext request.\n" +
	"\x1b[34mAI User:\n\nInstruction: Plan the day.\nInput: None\n" +
	"\x1b[32mAI Assistant:Solution: A walk by the river.\n\nNext request.\n"

// readCAMELText reads text with readCAMELConsole, failing the test on an error.
func readCAMELText(t *testing.T, text string) *built {
	t.Helper()
	b, err := readCAMELConsole("run.txt", bufio.NewReader(strings.NewReader(text)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// camelEvents describes each agent's events, keyed "session/agent".
func camelEvents(b *built) map[string][]string {
	out := map[string][]string{}
	for _, a := range b.Agents {
		key := fmt.Sprintf("%d/%s", a.Session, a.ID)
		out[key] = append(out[key], describe(a.Events)...)
	}
	return out
}

func TestCAMELConsoleReadsTheAssistantsCallsAndTheUsersInstructions(t *testing.T) {
	b := readCAMELText(t, camelOlderRun)
	want := map[string][]string{
		"0/Librarian": {
			`user "Find when the town library opene…"`,
			`call web_lookup "{\"query\":\"town library opening y…" => "[{'error': 'lookup service down.…" FAILED`,
			`text[model] "Solution: The lookup failed.\n\nNe…"`,
			`call archive_search "{\"exact\":true,\"limit\":2,\"term\":\"…" => "The library opened in 1911.\n\nIt …"`,
			`text[model] "Solution: It opened in 1911.\n\nNe…"`,
			`text[model] "Solution: Done."`,
		},
		"0/Student": {
			`text[model] "Instruction: Look up the library…"`,
			`text[model] "Instruction: Try the archive ins…"`,
			`text[model] "<CAMEL_TASK_DONE>"`,
		},
	}
	if got := camelEvents(b); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%v\nwant:\n%v", got, want)
	}
	if b.Sessions != 1 {
		t.Errorf("sessions = %d, want 1: the assistant's answer to CAMEL_TASK_DONE is its run's", b.Sessions)
	}
	librarian := b.Agents[0].Events
	if got := librarian[0].Text; got != "Find when the town library opened, then count its years." {
		t.Errorf("task = %q, want the final task prompt", got)
	}
	if got := librarian[3].Result; got != "The library opened in 1911.\n\nIt was rebuilt in 1960." {
		t.Errorf("a result over lines, blank ones too = %q", got)
	}
}

func TestCAMELConsoleSplitsPartsPrintedWithoutLineBreaks(t *testing.T) {
	b := readCAMELText(t, camelGluedRun)
	want := map[string][]string{
		"0/AI Assistant": {
			`user "Instruction: Check the date.\nInp…"`,
			`call date_now "{}" => "It is Monday, May 5! 🎉"`,
			`call weather "{\"city\":\"Lyon\"}" => "Sunny today.\n\nRain tomorrow. ☔"`,
			`text[model] "Solution: It is Monday and sunny…"`,
			`text[model] "Solution: A walk by the river.\n\n…"`,
		},
		"0/AI User": {
			`text[model] "Instruction: Check the date.\nInp…"`,
			`text[model] "Instruction: Plan the day.\nInput…"`,
		},
	}
	if got := camelEvents(b); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%v\nwant:\n%v", got, want)
	}
}

// CAMEL 0.1 printed "Args:" and "Result:" without their tab.
func TestCAMELConsoleReadsUnindentedArgsAndResult(t *testing.T) {
	const out = "AI User:\n\nInstruction: Add the numbers.\nInput: 2 and 3\n\n" +
		"AI Assistant:\n\nFunction Execution: add\nArgs: {'a': 2, 'b': 3}\nResult: 5\n\nSolution: 5.\n\nNext request.\n"
	b := readCAMELText(t, out)
	got := describe(b.Agents[0].Events)
	want := []string{
		`user "Instruction: Add the numbers.\nIn…"`,
		`call add "{\"a\":2,\"b\":3}" => "5"`,
		`text[model] "Solution: 5.\n\nNext request."`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%v\nwant:\n%v", got, want)
	}
}

// Arguments that are no dict literal are kept as the text printed.
func TestCAMELConsoleKeepsArgumentsThatAreNoDictAsText(t *testing.T) {
	const out = "AI User:\n\nInstruction: Go.\n\nAI Assistant:\n\nFunction Execution: fetch\n" +
		"\tArgs: {'url': Url('https://example.org')}\n\tResult: ok\n\nSolution: ok\n"
	e := readCAMELText(t, out).Agents[0].Events[1]
	if got := string(e.Args); got != `{"input":"{'url': Url('https://example.org')}"}` {
		t.Errorf("args = %s", got)
	}
	if e.Result != "ok" {
		t.Errorf("result = %q", e.Result)
	}
}

func TestCAMELConsoleFailureIsAnErrorObjectOrCAMELsSentence(t *testing.T) {
	for _, c := range []struct {
		result string
		failed bool
	}{
		{"[{'error': 'google search failed.'}]", true},
		{"{'error': 'rate limited'}", true},
		{"[{'error': 'a'}, {'error': 'b'}]", true},
		{"Tool execution failed: Error executing tool 'x': boom", true},
		{"Error executing tool 'search': timeout", true},
		{"[{'result_id': 1, 'title': 'Error handling in Go'}]", false},
		{"{'error': None, 'data': [1, 2]}", false},
		{"[]", false},
		{"The error was fixed in 2020.", false},
		{"928", false},
		{"", false},
	} {
		if got := camelFailed(c.result); got != c.failed {
			t.Errorf("camelFailed(%q) = %v, want %v", c.result, got, c.failed)
		}
	}
}

// With no task prompt printed, the AI User's first instruction is what the assistant was asked.
func TestCAMELConsoleTaskIsTheFirstInstructionWhenNoPromptIsPrinted(t *testing.T) {
	b := readCAMELText(t, camelGluedRun)
	first := b.Agents[0].Events[0]
	if first.Text != "Instruction: Check the date.\nInput: None" {
		t.Errorf("task = %q", first.Text)
	}
}

// Each run is a session: a run ends at CAMEL_TASK_DONE (the AI User's next turn starts
// another), at a role terminated, or when sys messages follow turns.
func TestCAMELConsoleEachRunIsASession(t *testing.T) {
	second := "AI User:\n\nInstruction: Again.\n\nAI Assistant:\n\nFunction Execution: ping\n\tArgs: {}\n\tResult: pong\n\nSolution: pong\n\n" +
		"\x1b[32mAI Assistant terminated. Reason: ['max_tokens_exceeded'].\n"
	third := "\x1b[32mAI Assistant sys message:\nBaseMessage(role_name='Clerk', role_type=<RoleType.ASSISTANT: 'assistant'>)\n\n" +
		"Final task prompt:\nFile the form.\n\n" +
		"AI User:\n\nInstruction: File it.\n\nAI Assistant:\n\nSolution: Filed.\n"
	b := readCAMELText(t, camelOlderRun+second+camelGluedRun+third)
	if b.Sessions != 4 {
		t.Fatalf("sessions = %d, want 4", b.Sessions)
	}
	got := camelEvents(b)
	if want := []string{`user "Instruction: Again."`, `call ping "{}" => "pong"`, `text[model] "Solution: pong"`}; !reflect.DeepEqual(got["1/Librarian"], want) {
		t.Errorf("second run: %v, want %v", got["1/Librarian"], want)
	}
	// (no sys message printed again: the roles keep their names)
	if n := len(got["2/Librarian"]); n != 5 {
		t.Errorf("third run: %d events, want 5: %v", n, got["2/Librarian"])
	}
	if want := []string{`user "File the form."`, `text[model] "Solution: Filed."`}; !reflect.DeepEqual(got["3/Clerk"], want) {
		t.Errorf("fourth run: %v, want %v", got["3/Clerk"], want)
	}
}

func TestCAMELConsoleWithoutATurnIsNotRead(t *testing.T) {
	_, err := readCAMELConsole("notes.txt", bufio.NewReader(strings.NewReader("Function Execution: x\n\tArgs: {}\n")))
	if err == nil {
		t.Fatal("read a text without a role-play turn")
	}
}

func TestIsCAMELConsoleHead(t *testing.T) {
	for _, c := range []struct {
		name string
		head string
		want bool
	}{
		{"older run", camelOlderRun, true},
		{"glued run", camelGluedRun, true},
		{"run without calls", "AI User:\n\nInstruction: Say hi.\nInput: None\n\nAI Assistant:\n\nSolution: Hi.\n", true},
		{"Markdown", "# Chat UIs\n\nThe AI User: someone who talks to an AI Assistant: a bot.\n\n- Instruction: none\n", false},
		{"Markdown quoting one turn", "## Roles\n\nAI User:\nasks.\n\nAI Assistant:\nanswers.\n", false},
		{"Python traceback", "Traceback (most recent call last):\n  File \"run.py\", line 3, in <module>\n    print(\"AI User:\")\nNameError: name 'AI Assistant:' is not defined\n", false},
		{"LangChain printout", "> Entering new AgentExecutor chain...\n\nInvoking: `search` with `{'q': 'x'}`\n\nAI User: hi\nAI Assistant: hello\n> Finished chain.\n", false},
		{"JSON", `{"messages": [{"role": "user", "content": "AI User:\nInstruction: x"}, {"role": "assistant", "content": "AI Assistant:\nSolution: y"}]}`, false},
		{"assistant before user", "AI Assistant:\n\nFunction Execution: x\n\nAI User:\n\nok\n", false},
	} {
		if got := isCAMELConsoleHead([]byte(c.head)); got != c.want {
			t.Errorf("%s: isCAMELConsoleHead = %v, want %v", c.name, got, c.want)
		}
	}
}

func FuzzCAMELConsole(f *testing.F) {
	f.Add([]byte(camelOlderRun))
	f.Add([]byte(camelGluedRun))
	f.Add([]byte("AI User:\nAI Assistant:Function Execution: \n\tArgs: {'a': [\n\tResult: Function Execution: Solution:\nAI User terminated. Reason: x\nAI User:\n<CAMEL_TASK_DONE>\n"))
	f.Add([]byte("Final task prompt:\nAI Assistant sys message:\nBaseMessage(role_name='\nAI Assistant:\tArgs: x\n\tResult: [{'error': 1}]"))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readCAMELConsole(name, br) })
}
