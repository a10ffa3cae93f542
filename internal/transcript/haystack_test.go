package transcript

import (
	"bufio"
	"strings"
	"testing"
)

// haystackRun is a console of a Haystack agent streamed through print_streaming_chunk,
// written for these tests in its layout: a reply that speaks, then calls two tools at once,
// their results in the same order, a second reply calling one tool, and the final answer.
const haystackRun = `[ASSISTANT]
Let me look at the page first.

[TOOL CALL]
Tool: fetch_page 
Arguments: {"url": "https://shop.example"}

[TOOL CALL]
Tool: word_count 
Arguments: {"url": "https://shop.example", "lang": "en"}

[TOOL RESULT]
<html><body>Cheap lamps</body></html>

[TOOL RESULT]
Words: 2
(short page)

[REASONING]
The page is tiny; check its speed.

[TOOL CALL]
Tool: page_speed 
Arguments: {"url": "https://shop.example"}

[TOOL RESULT]
{"ms": 120}

[ASSISTANT]
# Review
The page loads fast but says little.

`

// haystackGlued is the same layout where the first block of a message follows the text
// before it with no line break, as print_streaming_chunk prints it.
const haystackGlued = `Running the agent...[TOOL CALL]
Tool: lookup 
Arguments: {"q": "lamps"}[TOOL CALL]
Tool: lookup 
Arguments: {"q": "desks"}

[TOOL RESULT]
3 lamps[TOOL RESULT]
0 desks[ASSISTANT]
Found lamps, no desks.
`

func readHaystackText(t *testing.T, text string) *built {
	t.Helper()
	b, err := readHaystackConsole("run.txt", bufio.NewReader(strings.NewReader(text)))
	if err != nil {
		t.Fatalf("readHaystackConsole: %v", err)
	}
	return b
}

// haystackCall is what a test checks of a call.
type haystackCall struct {
	tool, args, result string
	answered           bool
}

func haystackCalls(b *built) []haystackCall {
	var out []haystackCall
	for _, a := range b.Agents {
		for _, e := range a.Calls() {
			out = append(out, haystackCall{e.Tool, string(e.Args), e.Result, e.HasResult})
		}
	}
	return out
}

// The results after a group of calls answer its calls in order; the model's words, spoken
// and reasoned, come before the calls they lead to; nothing is flagged failed, as the
// console shows no error flag.
func TestHaystackConsolePairsResultsWithCallsInOrder(t *testing.T) {
	for _, tt := range []struct {
		name string
		text string
		want []haystackCall
	}{
		{"separated blocks", haystackRun, []haystackCall{
			{"fetch_page", `{"url": "https://shop.example"}`, "<html><body>Cheap lamps</body></html>", true},
			{"word_count", `{"url": "https://shop.example", "lang": "en"}`, "Words: 2\n(short page)", true},
			{"page_speed", `{"url": "https://shop.example"}`, `{"ms": 120}`, true},
		}},
		{"markers glued to the text before them", haystackGlued, []haystackCall{
			{"lookup", `{"q": "lamps"}`, "3 lamps", true},
			{"lookup", `{"q": "desks"}`, "0 desks", true},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := readHaystackText(t, tt.text)
			if b.Format != FormatHaystackConsole || b.Sessions != 1 || len(b.Agents) != 1 || b.Agents[0].ID != MainAgent {
				t.Fatalf("format %q, %d sessions, %d agents: want one session of agent main", b.Format, b.Sessions, len(b.Agents))
			}
			got := haystackCalls(b)
			if len(got) != len(tt.want) {
				t.Fatalf("calls %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("call %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
			for _, e := range b.Agents[0].Calls() {
				if e.Failed {
					t.Errorf("call %s flagged failed: the console shows no error flag", e.Tool)
				}
			}
		})
	}
}

// The model's words are read as its text, before the calls of the same reply, and the calls
// of one reply share its Turn: they were made together.
func TestHaystackConsoleReadsModelWordsAndReplies(t *testing.T) {
	b := readHaystackText(t, haystackRun)
	var order []string
	turns := map[string]string{}
	for _, e := range b.Agents[0].Events {
		switch {
		case e.Tool != "":
			order = append(order, "call "+e.Tool)
			turns[e.Tool] = e.Turn
		case e.Source == "model":
			order = append(order, "said "+strings.SplitN(e.Text, "\n", 2)[0])
		}
	}
	want := []string{"said Let me look at the page first.", "call fetch_page", "call word_count",
		"said The page is tiny; check its speed.", "call page_speed", "said # Review"}
	if strings.Join(order, " | ") != strings.Join(want, " | ") {
		t.Errorf("events %q, want %q", order, want)
	}
	if turns["fetch_page"] == "" || turns["fetch_page"] != turns["word_count"] || turns["page_speed"] == turns["fetch_page"] {
		t.Errorf("turns %v: want the first two calls one reply, the third another", turns)
	}
}

// A group whose results the console shows fewer of than its calls (Haystack streams no
// answer to a call of a tool it lacks) leaves its last calls unanswered, and a result after
// the model spoke again answers nothing of the old group.
func TestHaystackConsoleLeavesUnansweredCallsOpen(t *testing.T) {
	text := "[TOOL CALL]\nTool: a \nArguments: {\"x\": 1}\n\n[TOOL CALL]\nTool: b \nArguments: \n\n" +
		"[TOOL RESULT]\nfrom a\n\n[ASSISTANT]\nHmm.\n\n[TOOL RESULT]\nstray\n"
	got := haystackCalls(readHaystackText(t, text))
	want := []haystackCall{{"a", `{"x": 1}`, "from a", true}, {"b", "", "", false}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("calls %+v, want %+v", got, want)
	}
}

// Arguments that are not JSON are kept: a Python dict as JSON, anything else as text.
func TestHaystackConsoleArgumentsNotJSON(t *testing.T) {
	text := "[TOOL CALL]\nTool: a \nArguments: {'x': 1}\n\n[TOOL CALL]\nTool: b \nArguments: {\"cut\": \n\n[TOOL RESULT]\nok\n"
	got := haystackCalls(readHaystackText(t, text))
	if len(got) != 2 || got[0].args != `{"x":1}` || got[1].args != `{"input":"{\"cut\":"}` {
		t.Errorf("calls %+v", got)
	}
}

// A text with no tool call is not read as Haystack's console.
func TestHaystackConsoleWithoutCallsIsNotRead(t *testing.T) {
	_, err := readHaystackConsole("run.txt", bufio.NewReader(strings.NewReader("[ASSISTANT]\nHello.\n")))
	if err == nil {
		t.Fatal("a console with no tool call read as Haystack's")
	}
}

// The head test wants a "[TOOL CALL]" heading with its "Tool:" and "Arguments:" lines, and
// nothing less.
func TestHaystackConsoleHead(t *testing.T) {
	for _, tt := range []struct {
		name, head string
		want       bool
	}{
		{"console", haystackRun, true},
		{"glued markers", haystackGlued, true},
		{"CRLF", "[TOOL CALL]\r\nTool: x \r\nArguments: {}\r\n", true},
		{"markdown", "# Notes\n\n## [TOOL CALL]\n\nThe agent prints a `[TOOL CALL]` heading, then the tool.\n- Tool: a search\n", false},
		{"heading alone", "[TOOL CALL]\nsearch(\"x\")\n[TOOL RESULT]\nok\n", false},
		{"tool line without arguments", "[TOOL CALL]\nTool: search\nResult: ok\n", false},
		{"python traceback", "Traceback (most recent call last):\n  File \"agent.py\", line 3, in <module>\n    print(\"[TOOL CALL]\")\nValueError: Tool: bad\n", false},
		{"langchain", "> Entering new AgentExecutor chain...\n\nInvoking: `search` with `{'q': 'x'}`\n\nok\n> Finished chain.\n", false},
		{"json", `{"log": "[TOOL CALL]\nTool: search \nArguments: {}"}`, false},
		{"head ends in the call", "[TOOL CALL]\nTool: search ", false},
	} {
		if got := isHaystackConsoleHead([]byte(tt.head)); got != tt.want {
			t.Errorf("%s: isHaystackConsoleHead = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func FuzzHaystackConsole(f *testing.F) {
	f.Add([]byte(haystackRun))
	f.Add([]byte(haystackGlued))
	f.Add([]byte("[TOOL CALL]\nTool: a \nArguments: \n[TOOL RESULT]\n[TOOL RESULT]\nx[ASSISTANT]\n"))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readHaystackConsole(name, br) })
}
