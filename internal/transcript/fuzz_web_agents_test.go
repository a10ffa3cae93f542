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
