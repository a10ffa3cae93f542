package loopguard

import (
	"slices"
	"testing"
)

// unexpectedEOF is what bash says when it is given a model's prose as a command line: the
// apostrophe in "it's" opens a quote that never closes.
const unexpectedEOF = "/bin/bash: line 2: unexpected EOF while looking for matching `''\n/bin/bash: line 3: syntax error: unexpected end of file"

// proseAbout is a reply run as the command, talking about the error in words of its own.
var proseAbout = []string{
	"DISCUSSION It's still the same unexpected EOF, so let me look at the file again.",
	"DISCUSSION It's a syntax error at the end of file; the quote is not matching anything.",
	"DISCUSSION It's the shell looking for a matching quote, let me retry the edit.",
	"DISCUSSION It's odd: line 3 says unexpected end, I will open the test.",
	"DISCUSSION It's bash again, the same error while looking at line 2.",
}

// formRefusal is mini-swe-agent's answer to a reply with several actions: one template,
// whatever the reply held.
const formRefusal = "Please always provide EXACTLY ONE action in triple backticks, found 2 actions.\n\n" +
	"Please format your action in triple backticks as shown in <response_example>.\n\n" +
	"<response_example>\nHere are some thoughts about why you want to perform the action.\n\n```bash\n<action>\n```\n</response_example>\n\n" +
	"If you have completed your assignment, please consult the first message about how to\nsubmit your solution (you will not be able to continue working on this task after that)."

// refusedForm is a reply the harness refused for its form: args is its first action.
func refusedForm(args string) step {
	return step{tool: "bash", args: args, result: formRefusal, failed: true, source: SourceHarness}
}

// attempts are four different first actions of replies that held several, each sharing
// other words with the formRefusal.
var attempts = []string{
	"cat <<'EOF' > fix.py\nprint('the action')\nEOF",
	"printf 'format your solution\\n' > fix.py",
	"python3 -c \"open('fix.py','w').write('thoughts about why')\"",
	"sed -i 's/please/consult/' first.py",
}

func TestIdenticalAnswersAreTheSameWhateverTheirMasks(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"identical failures of prose run as commands are one failure, whatever words each prose shares with it",
			times(5, func(i int) step { return fail("DISCUSSION", proseAbout[i], unexpectedEOF) }),
			[]string{"3:errors:DISCUSSION failed × 4"}},
		{"replies refused for their form, each a different attempt, are compared by what they tried, not by the harness's one template",
			times(4, func(i int) step { return refusedForm(attempts[i]) }),
			nil},
		{"the same attempts answered by the tool itself in one template are one failure",
			times(4, func(i int) step { return fail("bash", attempts[i], formRefusal) }),
			[]string{"3:errors:bash failed × 4"}},
		{"a refused reply sent again unchanged is still the same call answered the same",
			slices.Concat(times(3, func(int) step { return refusedForm(attempts[0]) })),
			[]string{"2:stuck:bash × 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := progressRun(t, defaultProgress(nil), tt.steps)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
