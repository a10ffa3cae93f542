package transcript

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// Some harnesses run the calls a model asks for in its own words and answer with their results
// as a user message, each opening with the call it answers. AutoCodeRover does (its
// conversation_round_<n>.json, a plain message list): the model writes which search APIs it
// wants, the harness runs them and replies
//
//	Result of search_method_in_class("setUpTestData", "MultiDatabaseTests"):
//	Found 2 methods with name setUpTestData in class MultiDatabaseTests.
//	...
//
//	Result of search_code("SQLite and the --keepdb option"):
//	Could not find code SQLite and the --keepdb option in the codebase.
//
// Each "Result of NAME(ARGS):" line opens a call: NAME is the tool, ARGS its arguments (kept
// as the list "[ARGS]"), what follows up to the next such line its result. The calls of one message
// answer one reply of the model. The other user messages after the task are the harness
// speaking ("Let's analyze collected context first"), not the user.

// When the harness cannot make calls of the model's reply, it says so instead ("The search
// API calls seem not valid. Please check the arguments you give carefully and try again."):
// that reply was a call that failed: the call "(invalid call)", with no arguments since
// the harness found none in it. A model that answers the rejection nine times with a
// restated apology is making the same failing call nine times.
var rejectedCallsLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^The [a-zA-Z ]{0,40}calls? seems? (not valid|invalid)`)
})

// rejectedAnswerLine is the harness rejecting the model's answer rather than its calls
// ("The buggy locations is not precise. You may need to check whether the arguments are
// correct and search more information."): the reply failed all the same, as the call
// "(rejected answer)".
var rejectedAnswerLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^The buggy locations? (is|are) not precise`) })

// resultOfLine matches the line that opens one call's result.
var resultOfLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^Result of ([A-Za-z_][A-Za-z0-9_.]*)\((.*)\):[ \t]*$`)
})

// searchAPIsOffer is how AutoCodeRover's harness lists the search calls the model may ask for.
const searchAPIsOffer = "you can use below search APIs"

// isRejection says whether a harness message rejects the model's reply (its calls or its
// answer).
func isRejection(text string) bool {
	return rejectedCallsLine().MatchString(text) || rejectedAnswerLine().MatchString(text)
}

// opensWithResultOf says whether a user message's text opens with a call's result.
func opensWithResultOf(text string) bool {
	text = strings.TrimLeft(text, " \t\r\n")
	if !strings.HasPrefix(text, "Result of ") {
		return false
	}
	loc := resultOfLine().FindStringIndex(text)
	return loc != nil && loc[0] == 0
}

// addResultOfCalls reads a chat whose calls are answered by "Result of NAME(ARGS):" user
// messages, if at least two messages answer so; otherwise it reads nothing and returns false.
func addResultOfCalls(b *builder, list []msg) bool {
	answers, harness := 0, 0
	for i := range list {
		if list[i].Role != "user" {
			continue
		}
		switch text := contentText(list[i].Content); {
		case opensWithResultOf(text):
			answers++
		case isRejection(strings.TrimSpace(text)) || strings.Contains(text, searchAPIsOffer):
			harness++
		}
	}
	// Two answers make the layout; so does one with the harness offering its search APIs or
	// rejecting a reply (a run that searched once, then had ten replies rejected). A single
	// "Result of" message in any other chat makes neither.
	if answers == 0 || answers+harness < 2 {
		return false
	}
	a := b.agent(MainAgent)
	replies, replied := 0, false
	for i := range list {
		m := &list[i]
		text := contentText(m.Content)
		switch {
		case m.Role == "system":
			a.text("system", text, "", 0)
		case m.Role == "user" && opensWithResultOf(text):
			replies++
			turn := "reply " + strconv.Itoa(replies)
			text = strings.TrimLeft(text, " \t\r\n")
			opens := resultOfLine().FindAllStringSubmatchIndex(text, -1)
			for k, o := range opens {
				end := len(text)
				if k+1 < len(opens) {
					end = opens[k+1][0]
				}
				// The arguments as a list, as they were passed: ["setUpTestData", "Tests"]. Left
				// bare, they would read as a command line (a '>' in "get_<field>_display" as a
				// redirection that writes a file).
				args := "[" + strings.TrimSpace(text[o[4]:o[5]]) + "]"
				call := loopguard.Call("", text[o[2]:o[3]], []byte(args))
				call.Turn = turn
				a.add(call.WithResult(strings.TrimSpace(text[o[1]:end]), false))
			}
		case m.Role == "user" && replied && isRejection(strings.TrimSpace(text)):
			replies++
			said := strings.TrimSpace(text)
			tool := "(invalid call)"
			if rejectedAnswerLine().MatchString(said) {
				tool = "(rejected answer)"
			}
			call := loopguard.Call("", tool, nil)
			call.Turn = "reply " + strconv.Itoa(replies)
			a.add(call.WithResult(said, true))
		case m.Role == "user":
			a.taskOrHarness(text)
		case m.Role == "assistant":
			a.text("model", text, "", 0)
			replied = true
		default:
			a.text(m.Role, text, "", 0)
		}
	}
	return true
}
