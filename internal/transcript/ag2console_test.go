package transcript

import (
	"strings"
	"testing"
)

// ag2Rule ends each message of AG2's printout.
var ag2Rule = "\n" + strings.Repeat("-", 80) + "\n"

// Written for these tests in the layout AG2's ConversableAgent prints: a tool call answered by
// an error, then answered; code written by one agent, run by the user proxy, failing, then a
// new run.
var ag2Conversation = "user_proxy (to assistant):\n\nWhat is the weather in Paris? Plot it.\n" + ag2Rule +
	"assistant (to user_proxy):\n\n***** Suggested tool call (call_1): get_weather *****\nArguments: \n{\"city\": \"Paris\"}\n****************************************************\n" + ag2Rule +
	"\n>>>>>>>> EXECUTING FUNCTION get_weather...\nuser_proxy (to assistant):\n\n***** Response from calling tool (call_1) *****\nError: Function get_weather failed: timeout\n************************************************\n" + ag2Rule +
	"assistant (to user_proxy):\n\n***** Suggested tool call (call_2): get_weather *****\nArguments: \n{\"city\": \"Paris\"}\n****************************************************\n" + ag2Rule +
	"\n>>>>>>>> EXECUTING FUNCTION get_weather...\nuser_proxy (to assistant):\n\n***** Response from calling tool (call_2) *****\n18 degrees, cloudy\n************************************************\n" + ag2Rule +
	"assistant (to user_proxy):\n\nHere is a plot:\n```python\nimport matplotlib\nplot(18)\n```\n" + ag2Rule +
	"\n>>>>>>>> EXECUTING CODE BLOCK 0 (inferred language is python)...\nuser_proxy (to assistant):\n\nexitcode: 1 (execution failed)\nCode output: \nNameError: name 'plot' is not defined\n" + ag2Rule +
	"\n>>>>>>>> TERMINATING RUN (22be24ad): Maximum turns (3) reached\n" +
	"user_proxy (to assistant):\n\nAnd in Rome?\n" + ag2Rule

// An AG2 printout: the user proxy's turns, the assistant's suggested calls answered by id
// (AG2's "Error: ..." a failure), code it wrote run by the executor (exit code 1 a failure),
// and a terminated run's successor another session.
func TestAG2ConsoleConversation(t *testing.T) {
	tr, err := ReadFrom("chat.log", strings.NewReader(ag2Conversation))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatAG2Console || tr.Sessions != 2 {
		t.Fatalf("read as %s, %d sessions", tr.Format, tr.Sessions)
	}
	var got []string
	for _, a := range tr.Agents {
		for _, d := range describe(a.Events) {
			got = append(got, a.ID+" "+d)
		}
	}
	want := []string{
		`user_proxy user "What is the weather in Paris? Pl…"`,
		`assistant call get_weather "{\"city\": \"Paris\"}" => "Error: Function get_weather fail…" FAILED`,
		`assistant call get_weather "{\"city\": \"Paris\"}" => "18 degrees, cloudy"`,
		`assistant text[model] "Here is a plot:\n` + "```" + `python\nimport…"`,
		`assistant call execute_code "{\"code\":\"import matplotlib\\nplot…" => "exitcode: 1 (execution failed)\nC…" FAILED`,
		`user_proxy user "And in Rome?"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A Markdown copy of the printout ("**sender (to recipient):**", rules of "---", the stars and
// the ">>>>>>>>" dropped) is read alike.
func TestAG2ConsoleMarkdownCopy(t *testing.T) {
	doc := "# Day planner\n\n**User proxy (to Clothing assistant):**\n\nWhat should I wear today?\n\n---\n\n" +
		"**Clothing assistant (to User proxy):**\n\nSuggested tool call (call_dgyr): get_state\n\nArguments: {}\n\n---\n\nEXECUTING FUNCTION get_state...\n\n" +
		"**User proxy (to Clothing assistant):**\n\nResponse from calling tool (call_dgyr)\n\n{\"temp_fahrenheit\": \"65\"}\n\n---\n\n" +
		"**Clothing assistant (to User proxy):**\n\nA light jacket.\n\n---\n"
	tr, err := ReadFrom("conversation.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	a := tr.Agent("Clothing assistant")
	if tr.Format != FormatAG2Console || a == nil {
		t.Fatalf("read as %s, agents %+v", tr.Format, tr.Agents)
	}
	want := []string{`call get_state "{}" => "{\"temp_fahrenheit\": \"65\"}"`, `text[model] "A light jacket."`}
	if got := describe(a.Events); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// What a group chat prints between messages (its "Next speaker: x", a wrapper's step banners)
// is no message's: two equal failures of the same code stay equal (validation round r116b U1:
// each result kept the next step's number).
func TestAG2ConsoleBetweenMessages(t *testing.T) {
	step := func(n string) string {
		return "ops_assistant (to chat_manager):\n\n```\nkubectl get pods\n```\n" + ag2Rule +
			"==================== Step " + n + " ====================\n\nNext speaker: executor\n\n" +
			">>>>>>>> EXECUTING CODE BLOCK 0 (inferred language is unknown)...\n" +
			"executor (to chat_manager):\n\nexitcode: 1 (execution failed)\nCode output: \nunknown language unknown\n" + ag2Rule +
			"==================== Step " + n + "1 ====================\n\nNext speaker: ops_assistant\n\n"
	}
	tr, err := ReadFrom("run.md", strings.NewReader(step("2")+step("3")+step("4")))
	if err != nil {
		t.Fatal(err)
	}
	a := tr.Agent("ops_assistant")
	if a == nil {
		t.Fatalf("agents %+v", tr.Agents)
	}
	calls := a.Calls()
	if len(calls) != 3 || calls[0].Result != calls[2].Result || calls[0].Result != "exitcode: 1 (execution failed)\nCode output:\nunknown language unknown" {
		t.Fatalf("calls %+v", calls)
	}
	if _, notices := defaultNotices(t, *a); len(notices) == 0 {
		t.Error("the same code failing alike three times, not told")
	}
}

// Older and newer spellings of AG2's marks: pyautogen 0.1's "Suggested function Call" answered
// by the "Response from calling function "name"", and a message of two code blocks run in one
// go ("EXECUTING 2 CODE BLOCKS").
func TestAG2ConsoleOtherSpellings(t *testing.T) {
	doc := "user_proxy (to assistant):\n\nPlan it, then run it.\n" + ag2Rule +
		"assistant (to user_proxy):\n\n***** Suggested function Call: ask_planner *****\nArguments: \n{\"message\": \"plan\"}\n*******************************************\n" + ag2Rule +
		"\n>>>>>>>> EXECUTING FUNCTION ask_planner...\nuser_proxy (to assistant):\n\n***** Response from calling function \"ask_planner\" *****\n1. fetch 2. plot\n*******************************************\n" + ag2Rule +
		"assistant (to user_proxy):\n\n```python\nprint(today)\n```\n```python\nprint(1)\n```\n" + ag2Rule +
		"\n>>>>>>>> EXECUTING 2 CODE BLOCKS (inferred languages are [python, python])...\nuser_proxy (to assistant):\n\nexitcode: 1 (execution failed)\nCode output: \nNameError: name 'today' is not defined\n" + ag2Rule
	tr, err := ReadFrom("chat.log", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range tr.Agents {
		for _, d := range describe(a.Events) {
			got = append(got, a.ID+" "+d)
		}
	}
	want := []string{
		`user_proxy user "Plan it, then run it."`,
		`assistant call ask_planner "{\"message\": \"plan\"}" => "1. fetch 2. plot"`,
		"assistant text[model] \"```python\\nprint(today)\\n```\\n```py…\"",
		`assistant call execute_code "{\"code\":\"print(today)\\nprint(1)\"…" => "exitcode: 1 (execution failed)\nC…" FAILED`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
