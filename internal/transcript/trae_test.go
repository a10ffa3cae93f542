package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// The fixture was written for this test from Trae Agent's trajectory recorder
// (trae_agent/utils/trajectory_recorder.py): the task, then agent steps whose calls are
// answered by results with the same call_id; llm_interactions repeat the steps' messages
// and are not read, nor is the agent's reflection on a failed call.
func TestTraeTrajectoryFixture(t *testing.T) {
	tr, err := Read("testdata/trae/trajectory.json")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatTrae || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want trae with one", tr.Format, len(tr.Agents))
	}
	want := []string{
		`user "Fix the failing test in tests/te…"`,
		`text[model] "I'll run the test first."`,
		`call bash "{\"command\":\"cd /repo && python -…" => "F\n1 failed in 0.12s" FAILED`,
		`text[model] "Let me think, then look at the p…"`,
		`call sequentialthinking "{\"thought\":\"The tokenizer drops …" => "Sequential thinking step complet…"`,
		`call str_replace_based_edit_tool "{\"command\":\"view\",\"path\":\"/repo/…" => "Here's the result of running ` + "`" + `ca…"`,
		`call bash "{\"command\":\"cd /repo && python -…" => "DeprecationWarning: the imp modu…"`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// Without agent steps in the head (long llm_interactions come first), the run's keys still
// say it is a Trae trajectory; a damaged one is an error that names its line.
func TestTraeDamagedTrajectoryNamesItsLine(t *testing.T) {
	doc := "{\"task\": \"t\", \"provider\": \"openai\", \"model\": \"gpt-4.1\", \"max_steps\": 20,\n\"llm_interactions\": [],\n\"agent_steps\": [{oops}]}"
	_, err := ReadFrom("trajectory.json", strings.NewReader(doc))
	if err == nil || !strings.HasPrefix(err.Error(), "trajectory.json:3:") {
		t.Errorf("error %v, want one at trajectory.json:3", err)
	}
}

// What the harness says after a step's results (a task_done its patch check rejected) is its
// answer to the step's last call, read into that call's result; the results themselves are
// in the step's llm_messages too, and are not read twice. Trae Agent (bytedance/trae-agent,
// trae_agent/agent/base_agent.py, _run_llm_step) may also record the rejection without
// running the tool: the step has no tool results, only that message, and it answers the
// step's last call all the same.
func TestTraeHarnessReplyAfterAStepAnswersItsLastCall(t *testing.T) {
	const head = `{"task": "Make the kernel faster.", "provider": "anthropic", "model": "claude", "max_steps": 9,
"llm_interactions": [],
"agent_steps": [`
	tests := []struct {
		name, steps string
		want        []string
	}{
		{"after the call's result", `
 {"step_number": 1, "llm_response": {"content": "Done.", "tool_calls": [{"call_id": "c1", "name": "task_done", "arguments": {"message": "Patch ready"}}]},
  "tool_calls": [{"call_id": "c1", "name": "task_done", "arguments": {"message": "Patch ready"}}],
  "tool_results": [{"call_id": "c1", "success": true, "result": "Patch ready", "error": ""}],
  "llm_messages": [{"role": "user", "content": null, "tool_result": {"call_id": "c1", "success": true, "result": "Patch ready"}},
                   {"role": "user", "content": "ERROR! Your Patch is empty. Please provide a patch that fixes the problem."}]},
 {"step_number": 2, "llm_response": {"content": "Check.", "tool_calls": [{"call_id": "c2", "name": "bash", "arguments": {"command": "git diff | wc -l"}}]},
  "tool_calls": [{"call_id": "c2", "name": "bash", "arguments": {"command": "git diff | wc -l"}}],
  "tool_results": [{"call_id": "c2", "success": true, "result": "0", "error": ""}],
  "llm_messages": [{"role": "user", "content": null, "tool_result": {"call_id": "c2", "success": true, "result": "0"}}]}]}`,
			[]string{
				`user "Make the kernel faster."`,
				`text[model] "Done."`,
				`call task_done "{\"message\":\"Patch ready\"}" => "Patch ready\nERROR! Your Patch is…"`,
				`text[model] "Check."`,
				`call bash "{\"command\":\"git diff | wc -l\"}" => "0"`,
			}},
		{"with no result of the call's own", `
 {"step_number": 1, "state": "completed",
  "llm_response": {"content": "Done.", "tool_calls": [{"call_id": "c1", "name": "task_done", "arguments": {}}]},
  "tool_calls": null, "tool_results": null,
  "llm_messages": [{"role": "user", "content": "ERROR! Your Patch is empty. Please provide a patch that fixes the problem."}]}]}`,
			[]string{
				`user "Make the kernel faster."`,
				`text[model] "Done."`,
				`call task_done "{}" => "ERROR! Your Patch is empty. Plea…"`,
			}},
		{"after a step that made no call: the harness's reprompt (r95b U1)", `
 {"step_number": 1, "llm_response": {"content": "finish", "tool_calls": null}, "tool_calls": null, "tool_results": null,
  "llm_messages": [{"role": "user", "content": "<system-reminder>The LLM provided a response without any tool calls.</system-reminder>"}]},
 {"step_number": 2, "llm_response": {"content": "I am finished.", "tool_calls": null}, "tool_calls": null, "tool_results": null,
  "llm_messages": [{"role": "user", "content": "<system-reminder>The LLM provided a response without any tool calls.</system-reminder>"}]}]}`,
			[]string{
				`user "Make the kernel faster."`,
				`text[model] "finish"`,
				`user[harness] "<system-reminder>The LLM provide…"`,
				`text[model] "I am finished."`,
				`user[harness] "<system-reminder>The LLM provide…"`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("trajectory.json", strings.NewReader(head+tt.steps))
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
			}
		})
	}
}
