package api_test

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/store"
	"github.com/loopguard/loopguard/internal/testenv"

	_ "github.com/loopguard/loopguard/internal/store/redisstore" // the Redis backend, for the shared-store tests
)

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.Cleanup()
	os.Exit(code)
}

// startServe runs a real `loopguard serve` process and returns its base URL once it listens.
func startServe(t *testing.T, env []string, args ...string) string {
	t.Helper()
	url, code, stderr := runServe(t, env, args...)
	if url == "" {
		t.Fatalf("loopguard serve %s exited %d before listening:\n%s", strings.Join(args, " "), code, stderr)
	}
	return url
}

// runServe starts `loopguard serve` and waits until it listens (url) or exits (code, stderr).
func runServe(t *testing.T, env []string, args ...string) (url string, code int, stderr string) {
	t.Helper()
	bin := testenv.LoopguardBinary(t)
	home := t.TempDir() // no user configuration leaks in
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env = append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "PATH=" + os.Getenv("PATH")}, env...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	found := make(chan string, 1)
	var log strings.Builder
	var logMu sync.Mutex
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			if _, rest, ok := strings.Cut(sc.Text(), "listening on "); ok {
				found <- strings.Fields(rest)[0]
			}
		}
	}()
	exited := make(chan int, 1)
	go func() {
		<-done
		cmd.Wait()
		exited <- cmd.ProcessState.ExitCode()
	}()
	select {
	case url := <-found:
		t.Cleanup(func() {
			cmd.Process.Signal(os.Interrupt)
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-exited
			}
		})
		return url, 0, ""
	case code := <-exited:
		logMu.Lock()
		defer logMu.Unlock()
		return "", code, log.String()
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("loopguard serve did not start within 60 s")
	}
	return "", 0, ""
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Two serve processes on one redis-server agree: calls of one agent, spread over both, count
// as one history.
func TestTwoServeProcessesOnOneRedisAgree(t *testing.T) {
	redis := testenv.Redis(t)
	a := startServe(t, nil, "--addr", "127.0.0.1:0", "--preset", "repeat-tool-reminder", "--store", redis)
	b := startServe(t, nil, "--addr", "127.0.0.1:0", "--preset", "repeat-tool-reminder", "--store", redis)
	for i, url := range []string{a, b, a, b, a} {
		got := lines(t, post(t, url, "/v1/events", "", call("shared", "grep", `{"p":"x"}`)).body)
		if want := i == 2 || i == 4; (len(got) == 1) != want {
			t.Fatalf("call %d (on %s): want a notice %v, got %+v", i+1, url, want, got)
		}
	}
	// 64 calls of one agent at once, half to each process: Redis's optimistic transactions
	// lose none.
	var wg sync.WaitGroup
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func(url string) {
			defer wg.Done()
			if a := post(t, url, "/v1/events", "", call("hammer", "t", "{}")); a.code != 200 {
				t.Errorf("%d %s", a.code, a.body)
			}
		}([]string{a, b}[i%2])
	}
	wg.Wait()
	st, err := store.Open(context.Background(), redis, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := preset(t, loopguard.PresetRepeatToolReminder)
	if s := storedStats(t, st, cfg, "hammer"); s.ConsecutiveRepeats != 64 {
		t.Fatalf("64 concurrent calls over two processes counted %d", s.ConsecutiveRepeats)
	}
}

func TestServeBeyondLoopbackNeedsAToken(t *testing.T) {
	t.Run("refused at start without one", func(t *testing.T) {
		url, code, stderr := runServe(t, nil, "--addr", "0.0.0.0:0")
		if url != "" || code != 2 || !strings.Contains(stderr, "--token-file") || !strings.Contains(stderr, "LOOPGUARD_TOKEN") {
			t.Fatalf("want exit 2 naming --token-file and LOOPGUARD_TOKEN, got url %q, exit %d:\n%s", url, code, stderr)
		}
	})
	t.Run("an empty token file is refused", func(t *testing.T) {
		_, code, stderr := runServe(t, nil, "--addr", "127.0.0.1:0", "--token-file", writeFile(t, "token", "\n"))
		if code != 2 || !strings.Contains(stderr, "empty") {
			t.Fatalf("want exit 2 saying the file is empty, got %d:\n%s", code, stderr)
		}
	})
	for _, how := range []string{"env", "file"} {
		t.Run("with the token from "+how, func(t *testing.T) {
			const token = "tok-7f3a"
			var env, args []string
			if how == "env" {
				env = []string{"LOOPGUARD_TOKEN=" + token}
			} else {
				args = []string{"--token-file", writeFile(t, "token", token+"\n")}
			}
			url := startServe(t, env, append([]string{"--addr", "0.0.0.0:0", "--preset", "repeat-tool-reminder"}, args...)...)
			url = strings.Replace(url, "0.0.0.0", "127.0.0.1", 1)
			url = strings.Replace(url, "[::]", "127.0.0.1", 1)
			if a := post(t, url, "/v1/events", "", call("t", "x", "{}")); a.code != 401 {
				t.Fatalf("without the token: want 401, got %d %s", a.code, a.body)
			}
			if a := post(t, url, "/hook/claude-code", "", "{}"); a.code != 401 {
				t.Fatalf("the hook routes need the token too: got %d %s", a.code, a.body)
			}
			if resp, err := http.Get(url + "/healthz"); err != nil || resp.StatusCode != 200 {
				t.Fatalf("GET /healthz must stay open: %v %v", resp, err)
			} else {
				resp.Body.Close()
			}
			if a := post(t, url, "/v1/events", "wrong", call("t", "x", "{}")); a.code != 401 {
				t.Fatalf("with a wrong token: want 401, got %d %s", a.code, a.body)
			}
			for i := 1; i <= 3; i++ {
				a := post(t, url, "/v1/events", token, call("t", "x", "{}"))
				if a.code != 200 || (i == 3) != strings.Contains(a.body, `"type":"notice"`) {
					t.Fatalf("call %d with the token: %d %s", i, a.code, a.body)
				}
			}
		})
	}
}

// The Python example of docs/api.md, run by python3 against a real serve.
func TestPythonExample(t *testing.T) {
	python := testenv.LookPath(t, "python3", "apt-get install -y python3")
	script, err := filepath.Abs("../../examples/python/guarded_loop.py")
	if err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, env ...string) string {
		cmd := exec.Command(python, script)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("python3 guarded_loop.py: %v\n%s", err, out)
		}
		return string(out)
	}
	t.Run("remind", func(t *testing.T) {
		url := startServe(t, nil, "--addr", "127.0.0.1:0", "--preset", "repeat-tool-reminder")
		out := run(t, "LOOPGUARD_URL="+url)
		for _, want := range []string{"turn 3: notice search × 3", "turn 5: notice search × 5", "turn 8: notice search × 8"} {
			if !strings.Contains(out, want) {
				t.Errorf("missing %q in:\n%s", want, out)
			}
		}
		if n := strings.Count(out, "tool ran:"); n != 12 {
			t.Errorf("the tool ran %d times, want 12 (remind mode refuses nothing):\n%s", n, out)
		}
	})
	t.Run("deny, with a token", func(t *testing.T) {
		cfg := writeFile(t, "loopguard.yaml", "preset: dsh-brake\ndsh-brake: {mode: deny, callWarnCount: 2, callDenyCount: 3}\n")
		url := startServe(t, []string{"LOOPGUARD_TOKEN=py-token"}, "--addr", "127.0.0.1:0", "--config", cfg)
		out := run(t, "LOOPGUARD_URL="+url, "LOOPGUARD_TOKEN=py-token")
		if n := strings.Count(out, "tool ran:"); n != 3 {
			t.Errorf("the tool ran %d times, want 3 (refused from the 4th call):\n%s", n, out)
		}
		if !strings.Contains(out, "turn 4: deny") || strings.Contains(out, "unavailable") {
			t.Errorf("want a denial at turn 4 and no failure:\n%s", out)
		}
	})
	t.Run("fails open without a server", func(t *testing.T) {
		out := run(t, "LOOPGUARD_URL=http://127.0.0.1:1")
		if n := strings.Count(out, "tool ran:"); n != 12 || !strings.Contains(out, "going on unguarded") {
			t.Errorf("want 12 unguarded runs:\n%s", out)
		}
	})
}

// docs/api.md shows the example whole, as it is run.
func TestDocsShowThePythonExample(t *testing.T) {
	script, err := os.ReadFile("../../examples/python/guarded_loop.py")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```python\n"+string(script)+"```") {
		t.Fatal("docs/api.md does not show examples/python/guarded_loop.py as it is: copy it over")
	}
}
