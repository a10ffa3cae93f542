package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// The fixture was written for this test from Qwen Code's ChatRecord type
// (packages/core/src/services/chatRecordingService.ts): user, assistant, tool_result and
// system lines whose message is Gemini API content.
func TestQwenCodeFixture(t *testing.T) {
	tr, err := Read("testdata/qwen-code/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatQwenCode || len(tr.Agents) != 1 {
		t.Fatalf("read as %s with %d agents, want qwen-code with one", tr.Format, len(tr.Agents))
	}
	want := []string{
		`user "The parser test fails, please fi…"`,
		`text[model] "Looking at the failing test firs…"`,
		`text[model] "I'll run the tests."`,
		`call run_shell_command "{\"command\":\"go test ./parser\"}" => "Command: go test ./parser\nStdout…" FAILED`,
		// failed by Qwen Code's own status, though the response reads as output
		`call read_file "{\"absolute_path\":\"/work/proj/par…" => "File not found: /work/proj/parse…" FAILED`,
		`call glob "{\"pattern\":\"**/parse*.go\"}" => "No files matched **/parse*.go" FAILED`,
		`user "It is in pkg/parser."`,
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	if tr.Agents[0].Usage.Model != "qwen3-coder-plus" {
		t.Errorf("model %q, want qwen3-coder-plus", tr.Agents[0].Usage.Model)
	}
}

func TestQwenHeadIsToldFromClaudeCode(t *testing.T) {
	tests := []struct {
		name, head string
		qwen       bool
	}{
		{"Gemini content with a role", `{"type":"user","message":{"role":"user","parts":[{"text":"hi"}]}}`, true},
		{"Gemini content without one", `{"type":"user","message":{"parts":[{"text":"hi"}]}}`, true},
		{"a system line, then Gemini content", "{\"type\":\"system\",\"subtype\":\"x\"}\n{\"type\":\"assistant\",\"message\":{\"role\":\"model\",\"parts\":[]}}", true},
		{"Claude content blocks", `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}`, false},
		{"parts inside a tool input are not the message's", `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","input":{"parts":[1]}}]}}`, false},
		{"Gemini content quoted in a string", `{"type":"user","message":{"role":"user","content":"see {\"message\":{\"parts\":[]}}"}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isQwenHead([]byte(tt.head)); got != tt.qwen {
				t.Errorf("isQwenHead = %v, want %v", got, tt.qwen)
			}
		})
	}
}
