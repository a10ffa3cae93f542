package transcript

import (
	"bufio"
	"slices"
	"strings"
	"testing"
)

// ag2Team is a short CaptainAgent expert chat in the layout of the Who&When benchmark
// (validation round r197a G2), written for these tests: the task opens with code the
// executor runs, an expert's code fails, the executor answers a message with no code.
const ag2Team = `[
  {"content": "You are given a task.\n# Task\nCount the rows.\n` + "```python\\nprint(len(rows))\\n```" + `", "name": "Data_Expert", "role": "assistant"},
  {"content": "exitcode: 0 (execution succeeded)\nCode output: 4\n", "name": "Computer_terminal", "role": "user"},
  {"content": "Let me check the even ones.\n` + "```python\\nprint(evens(rows))\\n```" + `", "name": "Logic_Expert", "role": "user"},
  {"content": "exitcode: 1 (execution failed)\nCode output: NameError: name 'evens' is not defined\n", "name": "Computer_terminal", "role": "user"},
  {"content": "The count is 4.", "name": "Verification_Expert", "role": "user"},
  {"content": "There is no code from the last 1 message for me to execute. Group chat manager should let other participants to continue the conversation.", "name": "Computer_terminal", "role": "user"},
  {"content": "TERMINATE", "name": "Verification_Expert", "role": "user"}
]`

func TestAG2ChatReadsCodeAnsweredByTheExecutorAsItsSendersCall(t *testing.T) {
	// The same list in each of the places AG2's chats are kept.
	cases := []struct{ name, file, doc string }{
		{"Who&When history", "algo_1.json", `{"question": "Count the rows.", "mistake_agent": "Logic_Expert", "history": ` + ag2Team + `}`},
		{"ChatResult chat_history", "chat.json", `{"chat_id": 1, "summary": "4", "chat_history": ` + ag2Team + `}`},
		{"messages", "chat.json", `{"messages": ` + ag2Team + `}`},
		{"the list alone", "chat.json", ag2Team},
	}
	want := map[string][]string{
		"Data_Expert": {
			`user "You are given a task.\n# Task\nCou…"`,
			`call execute_code "{\"code\":\"print(len(rows))\"}" => "exitcode: 0 (execution succeeded…"`,
		},
		"Logic_Expert": {
			`text[model] "Let me check the even ones.\n` + "```p…" + `"`,
			`call execute_code "{\"code\":\"print(evens(rows))\"}" => "exitcode: 1 (execution failed)\nC…" FAILED`,
		},
		"Verification_Expert": {`text[model] "The count is 4."`, `text[model] "TERMINATE"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := ReadFrom(c.file, strings.NewReader(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatAG2Chat {
				t.Fatalf("read as %s, want ag2-chat", tr.Format)
			}
			var ids []string
			for _, a := range tr.Agents {
				ids = append(ids, a.ID)
				if got := describe(a.Events); !slices.Equal(got, want[a.ID]) {
					t.Errorf("%s's events:\n%s\nwant:\n%s", a.ID, strings.Join(got, "\n"), strings.Join(want[a.ID], "\n"))
				}
			}
			// The executor's answer to no code is passed over: it is no agent of the run.
			if !slices.Equal(ids, []string{"Data_Expert", "Logic_Expert", "Verification_Expert"}) {
				t.Errorf("agents %q, want the three experts", ids)
			}
		})
	}
}

func TestAG2ChatDetection(t *testing.T) {
	cases := []struct{ name, doc, want string }{
		// Experts who ran no code are still a chat of named agents, not a SWE-agent history.
		{"history of named experts, no code run", `{"history": [{"content": "Task: name the film.", "name": "Film_Expert", "role": "assistant"},
			{"content": "It is Goldfinger.", "name": "Critic_Expert", "role": "user"}]}`, FormatAG2Chat},
		// OpenAI messages naming their senders, with no executor's answer, stay a message list.
		{"named messages with no execution", `{"messages": [{"role": "user", "name": "alice", "content": "hi"},
			{"role": "assistant", "name": "bot", "content": "hello"}]}`, FormatMessages},
		// A user proxy's words are the user's, as the ag2-console reader reads them.
		{"user proxy", `[{"content": "Plot it.", "name": "user_proxy", "role": "user"},
			{"content": "` + "```sh\\nls\\n```" + `", "name": "assistant", "role": "assistant"},
			{"content": "exitcode: 0 (execution succeeded)\nCode output: a.csv", "name": "user_proxy", "role": "user"}]`, FormatAG2Chat},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := ReadFrom("chat.json", strings.NewReader(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != c.want {
				t.Errorf("read as %s, want %s", tr.Format, c.want)
			}
		})
	}
}

// FuzzAG2Chat reads arbitrary JSON objects the way an AG2 chat is read.
func FuzzAG2Chat(f *testing.F) {
	f.Add([]byte(`{"history": ` + ag2Team + `}`))
	f.Add([]byte(`{"chat_history": [{"content": "exitcode: x", "name": "a"}, {"content": "` + "```" + `", "name": "b"}]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readJSONObject(name, br, 0) })
}
