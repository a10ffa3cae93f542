package loopguardopenai_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The README's example runs with go run against its scripted model.
func TestExampleRunsWithGoRun(t *testing.T) {
	out, err := exec.Command("go", "run", "./example").CombinedOutput()
	if err != nil {
		t.Fatalf("go run ./example: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "turn 3: search") || !strings.Contains(string(out), "[repeat-tool-reminder]") ||
		strings.Count(string(out), "the model is told") == 0 {
		t.Fatalf("the example's model was not reminded at the third turn:\n%s", out)
	}
}
