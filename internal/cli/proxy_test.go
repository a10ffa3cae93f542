package cli

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestProxyCommandRefusesBadSetups(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no upstream", []string{"proxy", "--preset", "default"}, "no upstream: give --upstream URL"},
		{"not a URL", []string{"proxy", "--upstream", "api.openai.com"}, `upstream "api.openai.com" is not an http:// or https:// URL`},
		{"unknown API", []string{"proxy", "--upstream", "bard=https://x"}, "want URL, /prefix=URL or API=URL"},
		{"bad log format", []string{"proxy", "--upstream", "https://x", "--log-format", "xml"}, "--log-format must be text or json"},
		{"stray argument", []string{"proxy", "https://x"}, `unexpected argument "https://x"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, "", c.args...)
			if code != exitUsage || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, c.want)
			}
		})
	}
}

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// The real process: it proxies, and on SIGTERM it stops taking new work (/readyz 503) while
// the stream in flight runs to its end, then exits 0.
func TestProxyProcessLetsStreamsFinishOnSIGTERM(t *testing.T) {
	bin := loopguardBinary(t)
	release := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: first\n\n")
		w.(http.Flusher).Flush()
		<-release
		io.WriteString(w, "data: last\n\n")
	}))
	defer up.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	addr := freeAddr(t)
	cmd := exec.Command(bin, "proxy", "--listen", addr, "--upstream", up.URL, "--preset", "default",
		"--store", filepath.Join(t.TempDir(), "state.db"), "--log-format", "json")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	logs := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs <- sc.Text()
		}
		close(logs)
	}()
	waitLog := func(want string) string {
		t.Helper()
		timeout := time.After(20 * time.Second)
		for {
			select {
			case l, ok := <-logs:
				if !ok {
					t.Fatalf("the process ended before logging %q", want)
				}
				if strings.Contains(l, want) {
					return l
				}
			case <-timeout:
				t.Fatalf("no log line with %q", want)
			}
		}
	}
	if l := waitLog(`"msg":"listening"`); !strings.Contains(l, `"addr":"http://`+addr) {
		t.Fatalf("listening line: %s", l)
	}
	resp, err := http.Post("http://"+addr+"/v1/messages", "application/json", strings.NewReader(`{"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	if line, _ := br.ReadString('\n'); line != "data: first\n" {
		t.Fatalf("first line %q", line)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	waitLog("shutting down")
	// Shutdown closes the listener (just after that log line): new connections are refused
	// while the stream goes on.
	refused := false
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			refused = true
			break
		}
		c.Close()
	}
	if !refused {
		t.Error("new connections are still accepted 5 s after SIGTERM")
	}
	close(release)
	rest, err := io.ReadAll(br)
	if err != nil || string(rest) != "\ndata: last\n\n" {
		t.Fatalf("the stream in flight did not finish: %q %v", rest, err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
}
