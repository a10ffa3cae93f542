package loopguardlangchaingo_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The README's example runs with go run against langchaingo's fake model.
func TestExampleRunsWithGoRun(t *testing.T) {
	out, err := exec.Command("go", "run", "./example").CombinedOutput()
	if err != nil {
		t.Fatalf("go run ./example: %v\n%s", err, out)
	}
	_, third, _ := strings.Cut(string(out), "call 3:")
	third, _, _ = strings.Cut(third, "call 4:")
	if !strings.Contains(third, "[repeat-tool-reminder]") || strings.Count(string(out), "[repeat-tool-reminder]") != 1 {
		t.Fatalf("want the reminder in the third observation only:\n%s", out)
	}
}
