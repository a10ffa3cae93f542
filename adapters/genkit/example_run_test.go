package loopguardgenkit_test

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
	_, after3, _ := strings.Cut(string(out), "turn 3:")
	after3, _, _ = strings.Cut(after3, "turn 4:")
	if !strings.Contains(after3, "[repeat-tool-reminder]") || strings.Count(string(out), "[repeat-tool-reminder]") != 1 {
		t.Fatalf("want the reminder before the 4th model call only:\n%s", out)
	}
}
