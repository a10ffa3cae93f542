package transcript

import (
	"encoding/json"
	"strings"
	"testing"
)

// notebookCells writes a notebook of code cells, each with the outputs given, an output being
// "stdout:" or "value:" and its text: what the cell printed, or showed as its value
// (execute_result).
func notebookCells(cells ...[]string) string {
	var out []string
	for _, outputs := range cells {
		var shown []string
		for _, o := range outputs {
			kind, text, _ := strings.Cut(o, ":")
			lines, _ := json.Marshal(strings.SplitAfter(text, "\n"))
			if kind == "stdout" {
				shown = append(shown, `{"output_type": "stream", "name": "stdout", "text": `+string(lines)+`}`)
			} else {
				shown = append(shown, `{"output_type": "execute_result", "execution_count": 3, "metadata": {}, "data": {"text/plain": `+string(lines)+`}}`)
			}
		}
		out = append(out, `{"cell_type": "code", "metadata": {}, "source": ["await team.run(task=task)"], "outputs": [`+strings.Join(shown, ", ")+`]}`)
	}
	return `{"cells": [` + strings.Join(out, ",\n") + `], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
}

// Written for this test in the layout of AgentChat's TaskResult repr as a notebook shows it
// (a Swarm handing the task on, newer releases' created_at and id), on one line as Python
// writes it.
const autogenTaskResultRepr = `TaskResult(messages=[` +
	`TextMessage(id='m0', source='user', models_usage=None, metadata={}, created_at=datetime.datetime(2026, 3, 2, 9, 15, 4, 120033, tzinfo=datetime.timezone.utc), content='Research the ACME share', type='TextMessage'), ` +
	`ToolCallRequestEvent(id='m1', source='planner', models_usage=RequestUsage(prompt_tokens=120, completion_tokens=14), metadata={}, created_at=datetime.datetime(2026, 3, 2, 9, 15, 5, 1, tzinfo=datetime.timezone.utc), content=[FunctionCall(id='call_a', arguments='{}', name='transfer_to_analyst')], type='ToolCallRequestEvent'), ` +
	`ToolCallExecutionEvent(id='m2', source='planner', models_usage=None, metadata={}, content=[FunctionExecutionResult(content='Transferred to analyst, adopting the role of analyst immediately.', name='transfer_to_analyst', call_id='call_a', is_error=False)], type='ToolCallExecutionEvent'), ` +
	`HandoffMessage(id='m3', source='planner', models_usage=None, target='analyst', content='Transferred to analyst, adopting the role of analyst immediately.', context=[], type='HandoffMessage'), ` +
	`ToolCallRequestEvent(id='m4', source='analyst', models_usage=RequestUsage(prompt_tokens=300, completion_tokens=20), content=[FunctionCall(id='call_b', arguments='{"symbol":"ACME"}', name='get_stock_data')], type='ToolCallRequestEvent'), ` +
	`ToolCallExecutionEvent(id='m5', source='analyst', models_usage=None, content=[FunctionExecutionResult(content="{'price': 12.5, 'note': \"it's up\"}", name='get_stock_data', call_id='call_b', is_error=True)], type='ToolCallExecutionEvent'), ` +
	`TextMessage(id='m6', source='analyst', models_usage=RequestUsage(prompt_tokens=340, completion_tokens=9), content='ACME trades at 12.5.\nTERMINATE', type='TextMessage')` +
	`], stop_reason="Text 'TERMINATE' mentioned")`

// A notebook whose run shows only as the TaskResult repr of the cell's value is read as that
// run: the calls with their results, matched by id, a failed one failed, the user's task and
// the agents' words (validation round r187b G3: the AutoGen notebooks were "no transcript").
// When the cell streamed the run through AgentChat's Console too, the printout alone is read,
// as before: the value repeats the run.
func TestNotebookReadsAutoGenTaskResultShownAsTheCellsValue(t *testing.T) {
	expectEvents(t, "swarm.ipynb", notebookCells([]string{"value:" + autogenTaskResultRepr}), FormatMessages, []string{
		`user "Research the ACME share"`,
		`call transfer_to_analyst "{}" => "Transferred to analyst, adopting…"`,
		`text[model] "Transferred to analyst, adopting…"`,
		`call get_stock_data "{\"symbol\":\"ACME\"}" => "{'price': 12.5, 'note': \"it's up…" FAILED`,
		`text[model] "ACME trades at 12.5.\nTERMINATE"`,
	})

	console := "---------- TextMessage (user) ----------\nResearch the ACME share\n" +
		"---------- ToolCallRequestEvent (planner) ----------\n[FunctionCall(id='call_a', arguments='{}', name='transfer_to_analyst')]\n" +
		"---------- ToolCallExecutionEvent (planner) ----------\n[FunctionExecutionResult(content='Transferred to analyst', name='transfer_to_analyst', call_id='call_a', is_error=False)]\n"
	tr, err := ReadFrom("swarm.ipynb", strings.NewReader(notebookCells([]string{"stdout:" + console, "value:" + autogenTaskResultRepr})))
	if err != nil {
		t.Fatal(err)
	}
	if calls := len(tr.Agents[0].Calls()); tr.Format != FormatAutoGenConsole || len(tr.Agents) != 1 || calls != 1 {
		t.Errorf("read as %q, %d agents, %d calls: want the Console's printout alone, 1 call", tr.Format, len(tr.Agents), calls)
	}
}

// Each TaskResult a notebook shows is a run of its own, a session: a tutorial runs the same
// task in cell after cell, and its calls read as one run would be the same calls repeated. A
// print(result) and a print(result.messages) of AgentChat 0.4.0, whose reprs have no type
// field, are read as well.
func TestNotebookReadsEachAutoGenTaskResultAsASession(t *testing.T) {
	oldRepr := "[TextMessage(source='user', models_usage=None, content='Add 2 and 3')," +
		"\n ToolCallRequestEvent(source='adder', models_usage=None, content=[FunctionCall(id='c1', arguments='{\"a\": 2, \"b\": 3}', name='add')])," +
		"\n ToolCallExecutionEvent(source='adder', models_usage=None, content=[FunctionExecutionResult(content='5', call_id='c1')])]"
	tr, err := ReadFrom("teams.ipynb", strings.NewReader(notebookCells(
		[]string{"stdout:" + autogenTaskResultRepr + "\n"},
		[]string{"value:" + autogenTaskResultRepr},
		[]string{"stdout:" + oldRepr + "\n"},
	)))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Sessions != 3 || len(tr.Agents) != 3 {
		t.Fatalf("%d sessions, %d agents: want a run each", tr.Sessions, len(tr.Agents))
	}
	for i, want := range []int{2, 2, 1} {
		if got := len(tr.Agents[i].Calls()); got != want || tr.Agents[i].Session != i {
			t.Errorf("run %d: %d calls in session %d, want %d in session %d", i, got, tr.Agents[i].Session, want, i)
		}
	}
	if c := tr.Agents[2].Calls()[0]; c.Tool != "add" || c.Result != "5" {
		t.Errorf("AgentChat 0.4.0's call read as %+v", c)
	}
}

// A notebook that shows other reprs, lists or values, and no AgentChat run, is still no
// transcript: autogen_core's model messages (a SystemMessage names no source), a dict, an
// object without a repr, a TaskResult cut short.
func TestNotebookWithoutAutoGenRunReprIsNoTranscript(t *testing.T) {
	for _, shown := range []string{
		"[UserMessage(content='hi', source='user', type='UserMessage'),\n SystemMessage(content='Relevant memory', type='SystemMessage')]",
		"{'name': 'web_search', 'parameters': {'type': 'object'}}",
		"<autogen_core._image.Image at 0x7f7089c83710>",
		autogenTaskResultRepr[:len(autogenTaskResultRepr)/2],
		"TaskResult(messages=[], stop_reason=None)",
	} {
		if tr, err := ReadFrom("demo.ipynb", strings.NewReader(notebookCells([]string{"value:" + shown}))); err == nil {
			t.Errorf("%.40q read as %q", shown, tr.Format)
		}
	}
}

func FuzzAutoGenRepr(f *testing.F) {
	f.Add(autogenTaskResultRepr)
	f.Add("[TextMessage(source='user', content='x'), ToolCallRequestEvent(source='a', content=[FunctionCall(id='', arguments='{}', name='f')])]")
	f.Add("TaskResult(messages=[X(a={1: (2, [<o>])}, b=datetime.datetime(1, c=None))])")
	f.Fuzz(func(t *testing.T, text string) {
		tr, err := readAutoGenReprs("fuzz.ipynb", []string{text})
		if err == nil && (tr == nil || len(tr.Agents) == 0) {
			t.Fatal("read with no agent")
		}
	})
}
