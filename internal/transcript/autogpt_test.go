package transcript

import (
	"bufio"
	"strings"
	"testing"
)

// autogptLog is an activity log in the layout AutoGPT 0.3 and 0.4 wrote, cut down: news, an
// agent created, a step whose command ran, a proposal the user answered with words, a
// failure, a DEBUG record repeating the prompt, and a second run.
const autogptLog = `2023-05-19 22:27:01,100 INFO NEWS: Welcome to Auto-GPT!
2023-05-19 22:27:52,194 INFO RecipeGPT has been created with the following details:
2023-05-19 22:27:52,300 INFO Name: RecipeGPT
2023-05-19 22:28:10,000 INFO  THOUGHTS: I should browse a recipe site.
2023-05-19 22:28:10,100 INFO REASONING: It lists vegan recipes.
2023-05-19 22:28:10,200 INFO PLAN: 
2023-05-19 22:28:10,300 INFO -  Browse the vegan collection
2023-05-19 22:28:10,400 INFO CRITICISM: None
2023-05-19 22:28:10,500 INFO NEXT ACTION:  COMMAND = browse_website  ARGUMENTS = {'url': 'https://example.org/vegan', 'question': 'vegan recipes'}
2023-05-19 22:28:20,000 INFO -=-=-=-=-=-=-= COMMAND AUTHORISED BY USER -=-=-=-=-=-=-= 
2023-05-19 22:28:21,000 INFO SYSTEM:  Command browse_website returned: ("Answer gathered from website: 130 vegan recipes", 
 "Links: []")
2023-05-19 22:28:21,500 DEBUG [
    {
        "role": "system",
        "content": "Command browse_website returned: ..."
    }
]
2023-05-19 22:29:00,000 INFO  THOUGHTS: I will write the recipes down.
2023-05-19 22:29:00,100 INFO NEXT ACTION:  COMMAND = write_to_file  ARGUMENTS = {'file': 'recipes.txt', 'text': 'x', 'append': False, 'tags': ['a', 1]}
2023-05-19 22:29:10,000 INFO SYSTEM:  Human feedback: browse another site first
2023-05-19 22:29:20,000 INFO  THOUGHTS: I will browse another site.
2023-05-19 22:29:20,100 INFO NEXT ACTION:  COMMAND = browse_website  ARGUMENTS = {'url': 'https://example.org/other', 'question': 'vegan'}
2023-05-19 22:29:25,000 INFO -=-=-=-=-=-=-= THOUGHTS, REASONING, PLAN AND CRITICISM WILL NOW BE VERIFIED BY AGENT -=-=-=-=-=-=-=
2023-05-19 22:29:26,000 INFO SYSTEM:  Self feedback: The plan is sound, but the site may not list vegan dishes.
2023-05-19 22:29:30,000 INFO  THOUGHTS: I will improve the code.
2023-05-19 22:29:30,100 INFO NEXT ACTION:  COMMAND = improve_code  ARGUMENTS = {'code': 'print(1)'}
2023-05-19 22:29:31,000 INFO SYSTEM:  Command improve_code returned: Error: The model: ` + "`gpt-4`" + ` does not exist
2023-05-19 22:30:00,000 INFO  You interrupted Auto-GPT
2023-05-19 22:30:00,100 INFO  Quitting...
2023-05-19 23:04:47,823 INFO JobHunterGPT has been created with the following details:
2023-05-19 23:05:00,000 INFO  THOUGHTS: Search first.
2023-05-19 23:05:00,100 INFO NEXT ACTION:  COMMAND = google  ARGUMENTS = {'query': 'jobs'}
2023-05-19 23:05:01,000 INFO SYSTEM:  Failure: command google returned too much output.  Do not execute this command again with the same arguments.
`

// An AutoGPT activity log is read as its runs, each a session of the agent it created: the
// step's thoughts, reasoning, plan and criticism are one text, a command that returned is a
// call (failed by AutoGPT's "Error" or "Failure"), a proposal answered with the user's words
// or with the model's own judgement of it never ran, and DEBUG records are passed over.
func TestAutoGPTReadsStepsCommandsAndFeedback(t *testing.T) {
	tr := expectEvents(t, "activity.log", autogptLog, FormatAutoGPT, []string{
		`text[model] "THOUGHTS: I should browse a reci…"`,
		`call browse_website "{\"question\":\"vegan recipes\",\"url…" => "(\"Answer gathered from website: …"`,
		`text[model] "THOUGHTS: I will write the recip…"`,
		`user "browse another site first"`,
		`text[model] "THOUGHTS: I will browse another …"`,
		`text[model] "The plan is sound, but the site …"`,
		`text[model] "THOUGHTS: I will improve the cod…"`,
		`call improve_code "{\"code\":\"print(1)\"}" => "Error: The model: ` + "`gpt-4`" + ` does n…" FAILED`,
	})
	if len(tr.Agents) != 2 || tr.Agents[0].ID != "RecipeGPT" || tr.Agents[1].ID != "JobHunterGPT" || tr.Agents[1].Session != 1 {
		t.Fatalf("agents %v, want RecipeGPT then JobHunterGPT in a session of its own", tr.Agents)
	}
	if got := describe(tr.Agents[1].Events); len(got) < 2 || !strings.HasSuffix(got[1], "FAILED") {
		t.Errorf("JobHunterGPT's events %q: want its google call failed by AutoGPT's Failure", got)
	}
	if step := tr.Agents[0].Events[0].Text; !strings.Contains(step, "REASONING: It lists vegan recipes.") || !strings.Contains(step, "-  Browse the vegan collection") {
		t.Errorf("the step's words %q: want its reasoning and plan with its thoughts", step)
	}
	first := tr.Agents[0].Calls()[0]
	if !strings.Contains(first.Result, `"Links: []")`) {
		t.Errorf("the result %q lost its second line", first.Result)
	}
}

// A Python dict of arguments is read as JSON: strings of either quote, numbers, constants,
// lists, tuples and nested dicts; what is no dict stays whole under "input".
func TestPyDictArgs(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{'url': 'https://x', "q": "it's"}`, `{"q":"it's","url":"https://x"}`},
		{`{'n': 3, 'ok': True, 'no': None, 'tags': ['a', (1, 2.5)], 'sub': {'k': False}}`, `{"n":3,"no":null,"ok":true,"sub":{"k":false},"tags":["a",[1,2.5]]}`},
		{`{}`, `{}`},
		{`['a']`, `{"input":"['a']"}`},
		{`{'a': undefined}`, `{"input":"{'a': undefined}"}`},
		{`{'a': 'b'} trailing`, `{"input":"{'a': 'b'} trailing"}`},
	} {
		if got := string(pyDictArgs(tt.in)); got != tt.want {
			t.Errorf("pyDictArgs(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// A Python log that never names AutoGPT, or names it but holds no run, is not AutoGPT's.
func TestAutoGPTHeadNeedsARun(t *testing.T) {
	for _, tt := range []struct {
		head string
		want bool
	}{
		{autogptLog, true},
		{"2023-05-19 22:27:01,100 INFO server started\n2023-05-19 22:27:02,100 INFO NEXT ACTION:  COMMAND = x  ARGUMENTS = {}\n", false},
		{"2023-05-19 22:27:01,100 INFO NEWS: Welcome to Auto-GPT!\n2023-05-19 22:27:02,100 INFO bye\n", false},
		{"NEWS: Welcome to Auto-GPT!\nRecipeGPT has been created with the following details:\n", false},
	} {
		if got := isAutoGPTHead([]byte(tt.head)); got != tt.want {
			t.Errorf("isAutoGPTHead(%.60q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func FuzzAutoGPT(f *testing.F) {
	f.Add([]byte(autogptLog))
	f.Add([]byte("2023-05-19 22:27:52,194 INFO A has been created with the following details:\n2023-05-19 22:28:10,500 INFO NEXT ACTION:  COMMAND = x  ARGUMENTS = {'a': [[[[('b'\n"))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readAutoGPT(name, br) })
}
