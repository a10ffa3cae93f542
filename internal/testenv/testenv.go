// Package testenv gives tests the real tools they need: it finds them, starts them, and
// stops them. A missing tool skips the test with a plain message on a developer machine and
// fails it under CI=true, where scripts/install-test-deps.sh should have installed it.
package testenv

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// InCI reports whether the tests run in CI (CI=true), where nothing may be skipped for want
// of a tool.
func InCI() bool { return os.Getenv("CI") == "true" }

// Missing skips the test, or fails it in CI, because what is named is not available.
func Missing(tb testing.TB, what, install string) {
	tb.Helper()
	msg := fmt.Sprintf("%s not available; install it with: %s (or run bash scripts/test.sh)", what, install)
	if InCI() {
		tb.Fatal(msg)
	}
	tb.Skip(msg)
}

// LookPath finds a tool on PATH, or skips/fails the test as Missing does.
func LookPath(tb testing.TB, name, install string) string {
	tb.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(tb, name, install)
	}
	return p
}

// Redis starts a private redis-server on a free loopback port for the duration of the test
// and returns its URL (redis://127.0.0.1:PORT/0). Nothing is persisted.
func Redis(tb testing.TB) string {
	tb.Helper()
	bin := LookPath(tb, "redis-server", "apt-get install -y redis-server")
	dir := tb.TempDir()
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ { // a free port can be taken before we bind it
		port, err := freePort()
		if err != nil {
			tb.Fatal(err)
		}
		var out bytes.Buffer
		cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "",
			"--appendonly", "no", "--dir", dir, "--daemonize", "no", "--logfile", "")
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			tb.Fatalf("start redis-server: %v", err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		if lastErr = waitForPong(addr, exited); lastErr == nil {
			tb.Cleanup(func() {
				cmd.Process.Kill()
				<-exited
			})
			return "redis://" + addr + "/0"
		}
		cmd.Process.Kill()
		<-exited
		lastErr = fmt.Errorf("%w\n%s", lastErr, out.String())
	}
	tb.Fatalf("redis-server did not start: %v", lastErr)
	return ""
}

func waitForPong(addr string, exited <-chan error) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("redis-server exited: %v", err)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.SetDeadline(time.Now().Add(time.Second))
			c.Write([]byte("PING\r\n"))
			buf := make([]byte, 7)
			n, _ := c.Read(buf)
			c.Close()
			if string(buf[:n]) == "+PONG\r\n" {
				return nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("redis-server at %s did not answer within 10 s", addr)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
