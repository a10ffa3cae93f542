package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A transcript line whose strings are not valid JSON (a Windows path written with single
// backslashes, a raw tab, a byte of invalid UTF-8) is read, its text kept as written:
// jsonscan's AsWritten policy, which the walker uses.
func TestDamagedStringsAreKeptAsWritten(t *testing.T) {
	line := `{"type":"user","uuid":"u1","sessionId":"s","timestamp":"2025-10-02T09:00:01.000Z",` +
		`"message":{"role":"user","content":"open C:\Users\x\notes.txt` + "\t\xff" + ` please"}}` + "\n"
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := Read(path)
	if err != nil {
		t.Fatalf("damaged strings refused: %v", err)
	}
	want := "open C:\\Users\\x\notes.txt\t\xff please" // \n is a valid escape; \U and \x are kept
	for _, a := range tr.Agents {
		for _, ev := range a.Events {
			if strings.Contains(ev.Text, "open C:") {
				if ev.Text != want {
					t.Fatalf("text %q, want %q", ev.Text, want)
				}
				return
			}
		}
	}
	t.Fatalf("the user's text was not read: %+v", tr.Agents)
}
