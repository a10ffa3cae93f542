package transcript

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// miniRun is a mini-swe-agent trajectory of replies, each answered by the harness: a reply
// without a ```bash block gets the format error.
func miniRun(replies ...string) string {
	const formatError = "Please always provide EXACTLY ONE action in triple backticks, found 0 actions."
	msgs := []map[string]string{
		{"role": "system", "content": "You are a helpful assistant."},
		{"role": "user", "content": "Fix the session cookies."},
	}
	for _, r := range replies {
		msgs = append(msgs, map[string]string{"role": "assistant", "content": r})
		out := "<returncode>1</returncode>\n<output>\nFFF\n</output>"
		if !strings.Contains(r, "```bash") {
			out = formatError
		}
		msgs = append(msgs, map[string]string{"role": "user", "content": out})
	}
	b, _ := json.Marshal(map[string]any{"info": map[string]any{"mini_version": "1.15.0"}, "messages": msgs, "trajectory_format": "mini-swe-agent-1"})
	return string(b)
}

// A reply with no action is the call it is: the same reply twice is the same call, different
// ones are different attempts, and a run of alike format errors is an error loop.
func TestMiniSWEAgentRepliesWithoutAnAction(t *testing.T) {
	tests := []struct {
		name    string
		replies []string
		want    []string
	}{
		{"different replies without an action, between commands, are not one call repeated",
			[]string{"THOUGHT: patch the cookie domain.", "```bash\npytest -q tests\n```", "THOUGHT: first suppress the warning.",
				"THOUGHT: then normalise Set-Cookie.", "```bash\nnl -ba src/flask/testing.py\n```"},
			nil},
		{"four format errors in a row are an error loop",
			[]string{"THOUGHT: robustly replace get_backend. A", "THOUGHT: robustly replace get_backend. B",
				"THOUGHT: robustly replace get_backend. C", "THOUGHT: robustly replace get_backend. D"},
			[]string{"call 4: errors bash failed × 4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ReadFrom("run.traj.json", strings.NewReader(miniRun(tt.replies...)))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatMiniSWEAgent {
				t.Fatalf("read as %q", tr.Format)
			}
			for i, c := range tr.Agents[0].Calls() {
				if !strings.Contains(tt.replies[i], "```bash") && string(c.Args) != tt.replies[i] {
					t.Errorf("call %d: args %q, want the reply", i+1, c.Args)
				}
			}
			_, got := defaultNotices(t, tr.Agents[0])
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("notices %q, want %q", got, tt.want)
			}
		})
	}
}

// A SWE-agent step without an action (a reply it could not parse, or its own "Exit due to
// context window" step) stays one step, as the run counts them, named "(no action)" and
// known by what the reply said.
func TestSWEAgentStepsWithoutAnAction(t *testing.T) {
	steps := []map[string]string{
		{"action": "ls -la", "thought": "Look around.", "observation": "README.md"},
		{"action": "", "thought": "Now I understand the issue.", "observation": ""},
		{"action": "", "thought": "Exit due to context window", "observation": "Exited (autosubmitted)"},
	}
	b, _ := json.Marshal(map[string]any{"trajectory": steps, "history": []any{}, "info": map[string]any{"exit_status": "submitted (exit_context)"}})
	tr, err := ReadFrom("run.traj", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range tr.Agents[0].Calls() {
		got = append(got, c.Tool+" "+string(c.Args))
	}
	want := []string{"ls ls -la", "(no action) Now I understand the issue.", "(no action) Exit due to context window"}
	if tr.Format != FormatSWEAgent || !reflect.DeepEqual(got, want) {
		t.Errorf("read as %s: %q, want %q", tr.Format, got, want)
	}
}
