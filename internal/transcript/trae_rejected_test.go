package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// Trae Agent (bytedance/trae-agent, trae_agent/agent/base_agent.py, _run_llm_step) answers
// a task_done whose patch check fails with a user message and without running the tool: the
// step has no tool results, only that message in its llm_messages. It answers the step's
// last call.
func TestTraeRejectedTaskDoneWithoutToolResult(t *testing.T) {
	doc := `{"task": "Make the kernel faster.", "provider": "anthropic", "model": "claude", "max_steps": 9,
"llm_interactions": [],
"agent_steps": [
 {"step_number": 1, "state": "completed",
  "llm_response": {"content": "Done.", "tool_calls": [{"call_id": "c1", "name": "task_done", "arguments": {}}]},
  "tool_calls": null, "tool_results": null,
  "llm_messages": [{"role": "user", "content": "ERROR! Your Patch is empty. Please provide a patch that fixes the problem."}]}]}`
	tr, err := ReadFrom("trajectory.json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`user "Make the kernel faster."`,
		`text[model] "Done."`,
		`call task_done "{}" => "ERROR! Your Patch is empty. Plea…"`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}
