package redisstore

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/testenv"
)

// startSentinel runs a Sentinel (redis-server --sentinel, from the same package) that monitors
// the master at masterAddr under the name lgmaster, and returns its address.
func startSentinel(tb testing.TB, masterAddr string) string {
	tb.Helper()
	bin := testenv.LookPath(tb, "redis-server", "apt-get install -y redis-server")
	host, port, _ := net.SplitHostPort(masterAddr)
	sp := freePort(tb)
	conf := filepath.Join(tb.TempDir(), "sentinel.conf") // Sentinel rewrites its file: it must be writable
	text := fmt.Sprintf("port %d\nbind 127.0.0.1\ndaemonize no\nlogfile \"\"\nsentinel monitor lgmaster %s %s 1\n", sp, host, port)
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, conf, "--sentinel")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(sp))
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.SetDeadline(time.Now().Add(time.Second))
			c.Write([]byte("SENTINEL get-master-addr-by-name lgmaster\r\n"))
			buf := make([]byte, 128)
			n, _ := c.Read(buf)
			c.Close()
			if strings.Contains(string(buf[:n]), port) {
				return addr
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	tb.Fatalf("sentinel did not come up:\n%s", out.String())
	return ""
}
