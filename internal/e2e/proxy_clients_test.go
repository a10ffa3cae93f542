package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The real agent CLIs pointed at `loopguard proxy` (a real process), which forwards to the
// scripted model, with the seed plugins (their thresholds are fixed: the test is about where
// the reminder goes). The model runs the same shell command five times; the proxy must put the
// reminder into the model's next request: once from the 3rd result on (repeat-tool-reminder's
// first threshold), the detailed one from the 5th, never twice, at the same bytes each time.

const (
	gentleReminder   = "You are repeating the exact same tool call with identical arguments"
	detailedReminder = "Repeated tool call detected"
	loopCommand      = "echo e2e-proxy-loop"
)

// startProxy runs `loopguard proxy` in front of upstream and returns its base URL. extra
// flags come last (so --store URL overrides the in-memory default).
func startProxy(t *testing.T, upstream string, extra ...string) string {
	t.Helper()
	ln := freeLoopbackAddr(t)
	cmd := exec.Command(loopguardBin(t), append([]string{"proxy", "--listen", ln, "--upstream", upstream,
		"--preset", "seeds", "--store", "memory"}, extra...)...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	ready := make(chan bool, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "msg=listening") {
				ready <- true
			}
		}
		ready <- false
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		<-done
		if t.Failed() || os.Getenv("E2E_VERBOSE") != "" {
			t.Logf("proxy log:\n%s", logs.String())
		}
	})
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("loopguard proxy exited before listening")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("loopguard proxy did not start within 30 s")
	}
	return "http://" + ln
}

// throughProxy points an agent set up for srv at the proxy instead.
func throughProxy(t *testing.T, a *Agent, proxyURL string) {
	t.Helper()
	switch a.Host {
	case HostClaudeCode:
		a.Env = append(a.Env, "ANTHROPIC_BASE_URL="+proxyURL) // the last value of a key wins
	case HostGeminiCLI:
		a.Env = append(a.Env, "GOOGLE_GEMINI_BASE_URL="+proxyURL)
		// Gemini CLI stops a run itself at its 5th identical call (its own loop detection):
		// turned off here so that the proxy's 5th-call reminder can be seen.
		writeFile(t, filepath.Join(a.Home, ".gemini", "settings.json"), []byte(`{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
  "model": {"disableLoopDetection": true}
}
`))
	case HostCodex:
		conf := strings.Replace(a.codexConfig(), a.Server.URL, proxyURL, 1)
		writeFile(t, filepath.Join(a.CodexHome, "config.toml"), []byte(conf))
	}
}

// checkProxiedLoop checks what the scripted model received through the proxy.
func checkProxiedLoop(t *testing.T, srv *Server) {
	t.Helper()
	want := map[int][2]int{1: {0, 0}, 2: {0, 0}, 3: {1, 0}, 4: {1, 0}, 5: {1, 1}}
	for n, w := range want {
		r := srv.RequestAfterToolResults(n)
		if r == nil {
			t.Fatalf("no request carried %d tool results:\n%s", n, srv.Summary())
		}
		if g, d := r.Count(gentleReminder), r.Count(detailedReminder); g != w[0] || d != w[1] {
			t.Errorf("request with %d results: %d gentle and %d detailed reminders, want %d and %d", n, g, d, w[0], w[1])
		}
		if !r.Stream {
			t.Errorf("request with %d results was not a streaming request", n)
		}
	}
	// Consecutive requests share their bytes up to the newest turn: everything before the
	// earlier request's last history element (the client itself may change that one: Claude
	// Code moves its cache_control marker to the newest message) is byte for byte the same.
	agent := srv.AgentRequests()
	for i := 0; i+1 < len(agent); i++ {
		a, b := agent[i].Body, agent[i+1].Body
		lcp := 0
		for lcp < len(a) && lcp < len(b) && a[lcp] == b[lcp] {
			lcp++
		}
		if last := lastHistoryElement(t, a); lcp < last {
			t.Errorf("requests #%d and #%d part at byte %d, before the earlier one's newest turn (byte %d):\n%s\n%s",
				agent[i].Seq, agent[i+1].Seq, lcp, last, around(a, lcp), around(b, lcp))
		}
	}
}

// lastHistoryElement returns the offset in body of the last element of its history array
// (messages, input or contents).
func lastHistoryElement(t *testing.T, body []byte) int {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"messages", "input", "contents"} {
		hist, ok := top[key]
		if !ok {
			continue
		}
		var elems []json.RawMessage
		if json.Unmarshal(hist, &elems) != nil || len(elems) == 0 {
			return 0
		}
		last := elems[len(elems)-1]
		return bytes.LastIndex(body, last)
	}
	t.Fatal("no history array in the request")
	return 0
}

func testProxiedLoop(t *testing.T, host Host) {
	srv := NewServer(t, Script{Command: loopCommand, ToolTurns: 5})
	a := NewAgent(t, host, srv)
	throughProxy(t, a, startProxy(t, srv.URL))
	res := a.Run(t, "Run the e2e command until told otherwise.")
	res.Check(t, string(host))
	if !strings.Contains(res.Final, "E2E-DONE") {
		t.Errorf("final answer %q", res.Final)
	}
	checkProxiedLoop(t, srv)
}

func TestProxyClaudeCode(t *testing.T) { testProxiedLoop(t, HostClaudeCode) }
func TestProxyCodex(t *testing.T)      { testProxiedLoop(t, HostCodex) }
func TestProxyGeminiCLI(t *testing.T)  { testProxiedLoop(t, HostGeminiCLI) }

// freeLoopbackAddr returns a 127.0.0.1 address that was free a moment ago.
func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// around shows the bytes around offset i.
func around(b []byte, i int) string {
	lo, hi := max(0, i-150), min(len(b), i+150)
	return string(b[lo:i]) + "|>|" + string(b[i:hi])
}

// testProxiedDefault: the proxy on the default (progress) preset. The same command with the
// same output three times draws the reminder after the third, as the proxy reads each API's
// tool results: Codex's carry a fresh "Chunk ID" and wall time every time, Gemini CLI's a
// process group id, and none of that makes two results differ.
func testProxiedDefault(t *testing.T, host Host) {
	srv := NewServer(t, Script{Command: loopCommand, ToolTurns: 3})
	a := NewAgent(t, host, srv)
	throughProxy(t, a, startProxy(t, srv.URL, "--preset", "default"))
	res := a.Run(t, "Run the e2e command until told otherwise.")
	res.Check(t, string(host))
	for n, want := range map[int]int{1: 0, 2: 0, 3: 1} {
		r := srv.RequestAfterToolResults(n)
		if r == nil {
			t.Fatalf("no request carried %d tool results:\n%s", n, srv.Summary())
		}
		if got := r.Count(Reminder); got != want {
			t.Errorf("request with %d results: the reminder %d times, want %d", n, got, want)
			for i, it := range r.ToolResults() {
				t.Logf("  result %d: %q", i+1, it.Text)
			}
		}
	}
}

func TestProxyDefaultPresetClaudeCode(t *testing.T) { testProxiedDefault(t, HostClaudeCode) }
func TestProxyDefaultPresetCodex(t *testing.T)      { testProxiedDefault(t, HostCodex) }
func TestProxyDefaultPresetGeminiCLI(t *testing.T)  { testProxiedDefault(t, HostGeminiCLI) }
