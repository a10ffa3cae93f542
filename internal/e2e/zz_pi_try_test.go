package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestZZPiTry(t *testing.T) {
	bin := "/tmp/pi/node_modules/.bin/pi"
	cmd, _ := sideEffectCommand(t)
	srv := NewServer(t, Script{Command: cmd, ToolTurns: 3})
	root := t.TempDir()
	home, work := filepath.Join(root, "home"), filepath.Join(root, "work")
	for _, d := range []string{home, work} {
		os.MkdirAll(d, 0o755)
	}
	writeFile(t, filepath.Join(home, ".pi", "agent", "models.json"), []byte(`{"providers":{"e2e":{"baseUrl":"`+srv.URL+`/v1","api":"openai-completions","apiKey":"e2e","models":[{"id":"scripted","name":"scripted","contextWindow":128000,"maxTokens":4096}]}}}`))
	env := append(BaseEnv(home), "PI_OFFLINE=1")
	res := Run(t, Cmd{Path: bin, Args: []string{"--offline", "-p", "--provider", "e2e", "--model", "scripted", "--mode", "json", "Run the e2e command until told otherwise."},
		Dir: work, Env: env, Timeout: 120 * time.Second})
	t.Logf("exit %d\nstdout:\n%.5000s\nstderr:\n%.3000s", res.ExitCode, res.Stdout, res.Stderr)
	filepath.Walk(home, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			t.Logf("file %s %d", p, info.Size())
			if filepath.Ext(p) == ".jsonl" {
				b, _ := os.ReadFile(p)
				os.WriteFile("/tmp/pi-session.jsonl", b, 0o644)
			}
		}
		return nil
	})
	os.WriteFile("/tmp/pi-json.jsonl", []byte(res.Stdout), 0o644)
}
