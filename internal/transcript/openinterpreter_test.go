package transcript

import (
	"slices"
	"strings"
	"testing"
)

// Open Interpreter's saved conversations: each run of code is a call of "execute", answered by
// what the computer printed after it (one message, several, or an empty one); a computer
// message with no code before it since anyone spoke is the host's; code declined has no
// answer; the loop mode's message is the host's; 0.1.x keeps a run's words, code and output
// in one entry. Whether code failed is not kept: the engine reads it in the output's text.
func TestOpenInterpreterRunsOfCodeAreCalls(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"LMC messages", `[{"role": "user", "type": "message", "content": "what is in this folder?"},
{"role": "assistant", "type": "message", "content": "Let me list it."},
{"role": "assistant", "type": "code", "format": "shell", "content": "\nls -la > /tmp/list && cat /tmp/list"},
{"role": "computer", "type": "console", "format": "output", "content": "total 0\nnotes.txt"},
{"role": "assistant", "type": "code", "format": "python", "content": "print(open('notes.txt').read())"},
{"role": "computer", "type": "console", "format": "output", "content": "Traceback (most recent call last):\nFileNotFoundError: notes.txt"},
{"role": "computer", "type": "image", "format": "base64.png", "content": "iVBORw0KGgo="},
{"role": "assistant", "type": "code", "format": "python", "content": "x = 1"},
{"role": "computer", "type": "console", "format": "output", "content": ""},
{"role": "assistant", "type": "message", "content": "Reminder set."},
{"role": "computer", "type": "console", "format": "output", "content": "Have you read the notes?"},
{"role": "user", "type": "message", "content": "Proceed. You CAN run code on my machine. If the entire task I asked for is done, say exactly 'The task is done.'"},
{"role": "assistant", "type": "code", "format": "shell", "content": "rm -rf /tmp/list"},
{"role": "user", "type": "message", "content": "I have declined to run this code."}]`, []string{
			`user "what is in this folder?"`,
			`text[model] "Let me list it."`,
			`call execute "{\"language\":\"shell\",\"command\":\"l…" => "total 0\nnotes.txt"`,
			`call execute "{\"language\":\"python\",\"code\":\"pri…" => "Traceback (most recent call last…"`, // failed by its text: no flag is kept
			`call execute "{\"language\":\"python\",\"code\":\"x =…" => ""`,
			`text[model] "Reminder set."`,
			`user[harness] "Have you read the notes?"`,
			`user[harness] "Proceed. You CAN run code on my …"`,
			`call execute "{\"language\":\"shell\",\"command\":\"r…" => -`,
			`user "I have declined to run this code…"`,
		}},
		{"0.1.x entries", `[{"role": "user", "message": "count the lines"},
{"role": "assistant", "message": "I will use wc.", "language": "shell", "code": "wc -l *.py", "output": "12 a.py"},
{"role": "assistant", "message": "Done: 12 lines."}]`, []string{
			`user "count the lines"`,
			`text[model] "I will use wc."`,
			`call execute "{\"language\":\"shell\",\"command\":\"w…" => "12 a.py"`,
			`text[model] "Done: 12 lines."`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := mustRead(t, writeTemp(t, "what_is_in__April_08_2024_14-39-40.json", tt.doc))
			got := describe(tr.Agents[0].Events)
			if !slices.Equal(got, tt.want) {
				t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
