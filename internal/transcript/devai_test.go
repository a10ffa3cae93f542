package transcript

import "testing"

// Written for this test in the layout of Agent-as-a-Judge's DevAI trajectories: the task as
// step 0's user message, then each step's thought and action answered by its environment; a
// step that only speaks; a host's action of another kind.
const devaiRun = `[
 {"step": 0, "user_message": "Train an SVM on the GDSC data.", "agent": null, "environment": null, "step_usage": null},
 {"step": 1, "user_message": null, "agent": {"thought": "Let me run the training.", "action": "Running command: python3 src/train.py"},
  "environment": "Traceback (most recent call last):\n  File \"src/train.py\", line 2\nModuleNotFoundError: No module named 'sklearn'",
  "step_usage": {"input_tokens": 100, "output_tokens": 10, "model": "gpt-4o-2024-05-13", "cost": 0.5}},
 {"step": 2, "user_message": null, "agent": {"thought": "Open the data loader.", "action": "Running Python code interactively: open_file('src/data_loader.py')"},
  "environment": "[File: /workspace/src/data_loader.py (1 lines total)]", "step_usage": {"input_tokens": 200, "output_tokens": 20, "model": "gpt-4o-2024-05-13", "cost": 0.25}},
 {"step": 3, "user_message": null, "agent": {"thought": "Fetch the paper.", "action": "Browsing: https://example.org/gdsc"}, "environment": "GDSC is a dataset."},
 {"step": 4, "user_message": null, "agent": {"thought": "All done.", "action": null}, "environment": null}
]`

// A DevAI trajectory reads as its turns and calls, with its usage (validation round r134b U1:
// such a file was no transcript at all).
func TestDevAITrajectory(t *testing.T) {
	tr := expectEvents(t, "devai-39_Drug_Response.json", devaiRun, FormatDevAI, []string{
		`user "Train an SVM on the GDSC data."`,
		`text[model] "Let me run the training."`,
		`call execute_bash "{\"command\":\"python3 src/train.py…" => "Traceback (most recent call last…"`,
		`text[model] "Open the data loader."`,
		`call execute_ipython_cell "{\"code\":\"open_file('src/data_loa…" => "[File: /workspace/src/data_loade…"`,
		`text[model] "Fetch the paper."`,
		`call Browsing "{\"input\":\"https://example.org/gd…" => "GDSC is a dataset."`,
		`text[model] "All done."`,
	})
	if u := tr.Usage; u.InputTokens != 300 || u.OutputTokens != 30 || u.CostUSD != 0.75 || u.Model != "gpt-4o-2024-05-13" {
		t.Errorf("usage %+v, want the steps' sum", u)
	}
}
