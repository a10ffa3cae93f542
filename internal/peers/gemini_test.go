package peers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

func TestGeminiCLIToolCalls(t *testing.T) {
	a, b := call("read_file", `{"path":"a"}`), call("read_file", `{"path":"b"}`)
	c, d, e := call("grep", `{"q":"c"}`), call("grep", `{"q":"d"}`), call("grep", `{"q":"e"}`)
	var varying []any
	for i := range 6 {
		varying = append(varying, a, call("ls", fmt.Sprintf(`{"dir":"d%d"}`, i)))
	}
	runCases(t, GeminiCLI, []ruleCase{
		{"four identical calls stay below the threshold", times(4, a), nil},
		{"the fifth identical call is a loop and so is every later one", times(7, a), []int{4, 5, 6}},
		{"different calls never loop", numbered(12, "read_file", true, false), nil},
		{"model text between identical calls does not reset the count", times(5, text("again"), a), []int{4}},
		{"a new user prompt resets the count", seq(times(4, a), user(), times(4, a)), nil},
		{"whitespace in the arguments does not matter", seq(times(4, call("x", `{"a": 1}`)), call("x", `{"a":1}`)), []int{4}},
		{"member order of the arguments matters", seq(times(4, call("x", `{"a":1,"b":2}`)), call("x", `{"b":2,"a":1}`)), nil},
		{"an alternating cycle of two repeated five times is a loop", times(5, a, b), []int{9}},
		{"a cycle of three repeated five times is a loop", times(5, c, d, e), []int{14}},
		{"a cycle of five repeated five times is a loop", times(5, a, b, c, d, e), []int{24}},
		{"a cycle of six is longer than the rule follows", times(5, a, b, c, d, e, call("ls", "{}")), nil},
		{"an alternation whose other call varies is not a loop", seq(varying...), nil},
	})
}

func TestGeminiCLIContent(t *testing.T) {
	sentence := "I need to look at the function again to see what it does. "
	var shared strings.Builder
	for i := range 12 {
		fmt.Fprintf(&shared, "Now I will carefully process and then verify the contents of file number %d. ", i)
	}
	var farApart strings.Builder
	for i := range 12 {
		farApart.WriteString(sentence + words(40) + fmt.Sprint(i))
	}
	first := call("ls", "{}")
	runCases(t, GeminiCLI, []ruleCase{
		{"a sentence repeated in a stream of text is a loop", seq(first, text(strings.Repeat(sentence, 12))), []int{0}},
		{"a loop before any call is placed before the first call", seq(text(strings.Repeat(sentence, 12))), []int{-1}},
		{"text that does not repeat is not a loop", seq(first, text(words(400))), nil},
		{"items sharing a long prefix are not a loop", seq(first, text(shared.String())), nil},
		{"the same item over and over is", seq(first, text(strings.Repeat("Now I will carefully process and then verify the contents of file number 7. ", 12))), []int{0}},
		{"repetitions far apart are not a loop", seq(first, text(farApart.String())), nil},
		{"repetition inside a code fence is skipped", seq(first, text("```\n"+strings.Repeat(sentence+"\n", 12)+"```\n")), nil},
		{"list items reset the tracking", seq(first, text(strings.Repeat("* "+sentence+"\n", 12))), nil},
		{"table rows reset the tracking", seq(first, text(strings.Repeat("| "+sentence+" |\n", 12))), nil},
		{"headings reset the tracking", seq(first, text(strings.Repeat("## "+sentence+"\n", 12))), nil},
		{"the same sentence on plain lines is a loop", seq(first, text(strings.Repeat(sentence+"\n", 12))), []int{0}},
		{"a tool call resets the text tracking", seq(first, text(strings.Repeat(sentence, 6)), first, text(strings.Repeat(sentence, 6))), nil},
		{"only the model's own text counts", seq(first, func() []loopguard.Event {
			ev := text(strings.Repeat(sentence, 12))
			ev.Source = "harness"
			return []loopguard.Event{ev}
		}()), nil},
		{"text across several blocks of one turn is one stream", seq(first, times(12, text(sentence))), []int{0}},
	})
}
