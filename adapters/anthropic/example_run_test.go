package loopguardanthropic_test

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
	if strings.Count(string(out), "model calls search") != 4 || strings.Count(string(out), "[repeat-tool-reminder]") != 1 {
		t.Fatalf("want 4 calls and one reminder (after the 3rd):\n%s", out)
	}
}
