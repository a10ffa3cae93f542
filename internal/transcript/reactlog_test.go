package transcript

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// What ReAct's runner prints of two episodes among the rest of a cluster job's output,
// written for this test in the layout of real jobs' output: the few-shot prompt's examples
// ("> go to drawer 1") are no steps, "think:" acts are the model's words, an episode starts
// again at Act 1, and only the observation's line is its answer.
func TestReactLogStepsAreCallsOneSessionAnEpisode(t *testing.T) {
	const out = `Loading checkpoint shards: 100%|██████████| 2/2 [00:03<00:00,  1.52s/it]
Interact with a household to solve a task. Here are two examples.
> go to drawer 1
The drawer 1 is closed.
> open drawer 1
You open the drawer 1. In it, you see nothing.

-----1st LLM output end-----
Act 1: think: To solve the task, I need to find a cd.
Obs 1: OK.
Act 2: go to drawer 1
Obs 2: The drawer 1 is closed.
Act 3: take cd 1 from drawer 1
Obs 3: Nothing happens.
Act 4: take cd 1 from drawer 1
Obs 4: Nothing happens.
reward: 0
Act 1: go to fridge 1
Obs 1: The fridge 1 is closed.
Obs 7: an answer to no step printed
Act 2: open fridge 1
`
	tr, err := ReadFrom("slurm-8522213.out", strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatReactLog || tr.Sessions != 2 || len(tr.Agents) != 2 {
		t.Fatalf("read as %s, %d sessions, %d agents; want %s, 2, 2", tr.Format, tr.Sessions, len(tr.Agents), FormatReactLog)
	}
	want := [][]string{
		{`text[model] "To solve the task, I need to fin…"`, `call go "go to drawer 1" => "The drawer 1 is closed."`,
			`call take "take cd 1 from drawer 1" => "Nothing happens."`, `call take "take cd 1 from drawer 1" => "Nothing happens."`},
		{`call go "go to fridge 1" => "The fridge 1 is closed."`, `call open "open fridge 1" => -`},
	}
	for i, a := range tr.Agents {
		if got := describe(a.Events); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("episode %d:\n%s\nwant:\n%s", i, strings.Join(got, "\n"), strings.Join(want[i], "\n"))
		}
	}
	if _, err := ReadFrom("notes.out", strings.NewReader("Act 1 of the play: the garden\nObs: none\n")); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("a text that only looks like steps: err %v, want ErrUnknownFormat", err)
	}
}

// ReAct's question-answering runs, as Reflexion logs them (validation round r98b U1): the
// model's thought before each action, an action a tool with its argument in brackets, a new
// question starting again at 1.
func TestReactLogReadsQuestionAnsweringSteps(t *testing.T) {
	const log = `------------- BEGIN INCORRECT AGENTS -------------

Question: Kam Heskin plays Paige Morgan in a 2004 film directed by who?
Thought 1: I need to search Kam Heskin.
Action 1: Search[Kam Heskin]
Observation 1: Kam Erika Heskin (born May 8, 1973) is an American actress.
Thought 2: I need to search The Prince & Me (2004 film).
Action 2: Search[The Prince & Me (2004 film)]
Observation 2: Could not find [The Prince & Me (2004 film)]. Similar: ['The Prince & Me'].

Question: Which magazine was started first?
Thought 1: I need to search both magazines.
Action 1: Lookup[founded]
Observation 1: (Result 1 / 1) It was founded in 1844.
Thought 2: Arthur's Magazine was started first.
Action 2: Finish[Arthur's Magazine]
Observation 2: Answer is INCORRECT
`
	tr, err := ReadFrom("base_react_thought_log.txt", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatReactLog || tr.Sessions != 2 || len(tr.Agents) != 2 {
		t.Fatalf("read as %s, %d sessions, %d agents; want %s, 2, 2", tr.Format, tr.Sessions, len(tr.Agents), FormatReactLog)
	}
	want := [][]string{
		{`text[model] "I need to search Kam Heskin."`, `call Search "Kam Heskin" => "Kam Erika Heskin (born May 8, 19…"`,
			`text[model] "I need to search The Prince & Me…"`, `call Search "The Prince & Me (2004 film)" => "Could not find [The Prince & Me …"`},
		{`text[model] "I need to search both magazines."`, `call Lookup "founded" => "(Result 1 / 1) It was founded in…"`,
			`text[model] "Arthur's Magazine was started fi…"`, `call Finish "Arthur's Magazine" => "Answer is INCORRECT"`},
	}
	for i, a := range tr.Agents {
		if got := describe(a.Events); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("question %d:\n%s\nwant:\n%s", i, strings.Join(got, "\n"), strings.Join(want[i], "\n"))
		}
	}
}
