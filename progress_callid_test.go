package loopguard

import (
	"testing"

	"github.com/loopguard/loopguard/internal/canon"
)

func TestArgumentsKeyLeavesCaptionsOut(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{"one command under two captions", `{"command":"ls -la","description":"List the files"}`, `{"description":"Look again","command":"ls -la"}`, true},
		{"a caption and none", `{"command":"ls -la","description":"List"}`, `{"command":"ls -la"}`, true},
		{"Cline's checklist and Cursor's explanation", `{"path":"a.go","task_progress":"- [x] read"}`, `{"path":"a.go","explanation":"Read it"}`, true},
		{"the OpenHands agent SDK's summary", `{"command":"pwd && ls -la","summary":"List the workspace","security_risk":"LOW"}`, `{"command":"pwd && ls -la","summary":"Look at the files again","security_risk":"LOW"}`, true},
		{"a caption alone is what the call is about", `{"summary":"Fixed the parser"}`, `{"summary":"Fixed the lexer"}`, false},
		{"captions alone are what the call is about", `{"summary":"Done","description":"a"}`, `{"summary":"Done","description":"b"}`, false},
		{"two commands under one caption", `{"command":"ls -la","description":"List"}`, `{"command":"ls","description":"List"}`, false},
		{"a caption nested in a value is content", `{"ticket":{"description":"crash on start"}}`, `{"ticket":{"description":"slow start"}}`, false},
		{"key order and spacing do not count", `{"a":1,"b":2}`, `{ "b": 2, "a": 1 }`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ArgumentsKey([]byte(tt.a)) == ArgumentsKey([]byte(tt.b)); got != tt.same {
				t.Errorf("ArgumentsKey(%s) == ArgumentsKey(%s): %v, want %v", tt.a, tt.b, got, tt.same)
			}
		})
	}
	// Arguments with no caption keep the engine's fingerprint.
	if args := []byte(`{"command":"make test"}`); ArgumentsKey(args) != canon.Fingerprint(args) {
		t.Error("arguments without a caption are keyed other than by their fingerprint")
	}
	// Arguments that are no JSON object are keyed as they are.
	if args := []byte("edit 90:90\nend_of_edit"); ArgumentsKey(args) != canon.Fingerprint(args) {
		t.Error("a command line is keyed other than by its fingerprint")
	}
}
