package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestModelTextFromTheTranscriptTail(t *testing.T) {
	claude := filepath.Join("..", "transcript", "testdata", "claude-code", "s1.jsonl")
	codex := filepath.Join("..", "transcript", "testdata", "codex", "rollout-2025-10-03T12-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl")
	gemini := filepath.Join("..", "transcript", "testdata", "gemini", "session-2025-09-18T11-00-7c9e6679.jsonl")
	geminiDoc := filepath.Join("..", "transcript", "testdata", "gemini", "session-2025-09-18T10-00-7c9e6679.json")
	tests := []struct {
		name       string
		host       Host
		path, call string
		want       []string // parts the text holds; nil: no text
	}{
		{"Claude Code: the thinking and text blocks of the call's message", ClaudeCode, claude, "toolu_01", []string{"\n\n"}},
		{"Claude Code: a second call of the same message gets the same text", ClaudeCode, claude, "toolu_02", []string{"\n\n"}},
		{"Codex: the reasoning summary written before the call", Codex, codex, "call_1", []string{"Running the tests"}},
		{"an unknown call has no text", ClaudeCode, claude, "toolu_nope", nil},
		{"a missing transcript has no text", ClaudeCode, "/nonexistent/t.jsonl", "toolu_01", nil},
		{"Gemini CLI: the latest model message, whatever the call", GeminiCLI, gemini, "", []string{"There are 2 Go files."}},
		{"Gemini CLI: a whole-document recording (.json) is not read", GeminiCLI, geminiDoc, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, id := modelText(tt.host, tt.path, tt.call)
			if tt.want == nil {
				if text != "" || id != "" {
					t.Errorf("got %q (%s), want nothing", text, id)
				}
				return
			}
			if text == "" || id == "" {
				t.Fatalf("no text for %s", tt.call)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("text %q lacks %q", text, w)
				}
			}
		})
	}
	a, ida := modelText(ClaudeCode, claude, "toolu_01")
	b, idb := modelText(ClaudeCode, claude, "toolu_02")
	if a != b || ida != idb {
		t.Errorf("two calls of one message read differently: %q/%s and %q/%s", a, ida, b, idb)
	}
}

// Only the tail is read: a call far from the end of a long transcript has no text, and the
// line cut in two at the start of the tail is not mistaken for a whole one.
func TestModelTextReadsOnlyTheTail(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "transcript", "testdata", "claude-code", "s1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	filler := strings.Repeat(`{"type":"user","message":{"role":"user","content":"`+strings.Repeat("x", 500)+`"}}`+"\n", 2*tailBytes/500)
	path := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(path, append(src, filler...), 0o644)
	if text, _ := modelText(ClaudeCode, path, "toolu_01"); text != "" {
		t.Errorf("read %q from beyond the tail", text)
	}
	os.WriteFile(path, append([]byte(filler), src...), 0o644)
	if text, _ := modelText(ClaudeCode, path, "toolu_01"); text == "" {
		t.Error("no text for a call in the tail")
	}
}

// BenchmarkModelText is what reading the model's words costs a hook: the tail of a 1 MB
// transcript whose last lines hold the call's message, for each host that hands one over.
func BenchmarkModelText(b *testing.B) {
	hosts := []struct {
		host          Host
		fixture, call string
		filler        string
	}{
		{ClaudeCode, filepath.Join("..", "transcript", "testdata", "claude-code", "s1.jsonl"), "toolu_01",
			`{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", 480) + `"}}`},
		{GeminiCLI, filepath.Join("..", "transcript", "testdata", "gemini", "session-2025-09-18T11-00-7c9e6679.jsonl"), "",
			`{"id":"f","timestamp":"2025-09-18T10:59:00.000Z","type":"info","content":"` + strings.Repeat("x", 440) + `"}`},
	}
	for _, h := range hosts {
		b.Run(string(h.host), func(b *testing.B) {
			src, err := os.ReadFile(h.fixture)
			if err != nil {
				b.Fatal(err)
			}
			path := filepath.Join(b.TempDir(), "t.jsonl")
			os.WriteFile(path, append([]byte(strings.Repeat(h.filler+"\n", 2000)), src...), 0o644)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if text, _ := modelText(h.host, path, h.call); text == "" {
					b.Fatal("no text")
				}
			}
		})
	}
}

// A call not in the transcript yet (the CLI writes it a moment late) is looked for again
// after a pause; one never written is given up after the last pause.
func TestModelTextWaitsForALateTranscript(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "transcript", "testdata", "claude-code", "s1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(path, []byte(`{"type":"user","message":{"role":"user","content":"hi"}}`+"\n"), 0o644)
	defer func(w func(time.Duration)) { tailWait = w }(tailWait)
	var waits []time.Duration
	tailWait = func(d time.Duration) {
		waits = append(waits, d)
		if len(waits) == 1 { // the CLI writes the call's message during the first pause
			f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			f.Write(src)
			f.Close()
		}
	}
	if text, _ := modelText(ClaudeCode, path, "toolu_01"); text == "" || len(waits) != 1 {
		t.Errorf("a call written during the first pause: text %q after %d pauses, want the text after 1", text, len(waits))
	}
	waits = nil
	if text, _ := modelText(ClaudeCode, path, "toolu_never"); text != "" || len(waits) != len(tailRetryWaits) {
		t.Errorf("a call never written: text %q after %d pauses, want none after %d", text, len(waits), len(tailRetryWaits))
	}
	waits = nil
	if modelText(ClaudeCode, path, "toolu_01"); len(waits) != 0 {
		t.Errorf("a call already in the file waited %d times", len(waits))
	}
}
