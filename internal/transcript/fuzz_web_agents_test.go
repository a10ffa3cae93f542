package transcript

import (
	"bufio"
	"testing"
)

// The readers of the web and computer-use agents' runs, fuzzed as fuzz_formats_test.go does
// the others: a transcript or an *Error naming the input, never a panic.

func FuzzOSWorld(f *testing.F) {
	f.Add([]byte(`{"step_num": 1, "action_timestamp": "t", "action": "WAIT", "response": "click(failed):File menu", "reward": 0, "done": false, "info": {}, "screenshot_file": "s.png"}` + "\n" + `{"Error": "Time limit exceeded"}`))
	f.Add([]byte(`{"step_num": "x", "action": {"action_type": 3, "raw_response": ["r"]}, "response": {"a": 1}, "reward": "no", "done": null, "info": [1], "error": {"e": 1}}` + "\n" + `{"action": "(failed)", "response": "(failed):"}` + "\n[]\n"))
	fuzzReader(f, readOSWorld)
}

func FuzzMind2Web(f *testing.F) {
	f.Add([]byte(`{"task": "t", "final_result_response": "done", "action_history": ["Click at (1, 2)", "Type \"x\"", "<a> Go -> CLICK", " -> TYPE: v"], "thoughts": ["a", "a", "", "b"]}`))
	f.Add([]byte(`{"task": 1, "final_result_response": null, "action_history": [{"a": 1}, 2, null, "", " -> ", "X -> Y"], "thoughts": "one text"}`))
	f.Add([]byte(`{"action_history": [], "thoughts": [1, null]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readMind2Web(name, br, 0) })
}

func FuzzAndroidWorld(f *testing.F) {
	f.Add([]byte(`{"task_name": "T", "goal": "g", "prompts": [], "step_records": [{"agent_data": {"action_output": "Reason: r\nAction: {\"action_type\": \"click\", \"index\": 1}", "after_element_list": [{"text": "a", "class_name": "x.y.Z", "resource_name": "com.android.systemui:id/clock", "bbox_pixels": {"x_min": 0, "x_max": 1, "y_min": 2, "y_max": 3}}], "summary": "s"}}]}`))
	f.Add([]byte(`{"task_name": 1, "goal": null, "step_records": [{"agent_data": {"action_output": "Action: {\"action_type\": 3}", "after_element_list": {"a": 1}}}, {"agent_data": {"action_output": "Action:", "after_element_list": null, "summary": ""}}, {}, null]}`))
	f.Add([]byte(`{"task_name": "T", "goal": "g", "step_records": [{"agent_data": {"action_output": "no action", "after_element_list": [{"bbox_pixels": {"x_min": "a"}}, 1]}}]}`))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) { return readAndroidWorld(name, br, 0) })
}
