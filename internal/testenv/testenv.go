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
	"path/filepath"
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
	return StartRedis(tb).URL
}

// RedisServer is a private redis-server that a test can stop and start again on the same
// port, to see what a client does while the server is away.
type RedisServer struct {
	URL  string // redis://127.0.0.1:PORT/0
	Addr string // 127.0.0.1:PORT

	tb     testing.TB
	bin    string
	dir    string
	cmd    *exec.Cmd
	exited chan error
}

// StartRedis starts a private redis-server (see Redis) and stops it when the test ends.
func StartRedis(tb testing.TB) *RedisServer {
	tb.Helper()
	s := &RedisServer{tb: tb, bin: LookPath(tb, "redis-server", "apt-get install -y redis-server"), dir: tb.TempDir()}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ { // a free port can be taken before we bind it
		port, err := freePort()
		if err != nil {
			tb.Fatal(err)
		}
		s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		if lastErr = s.run(); lastErr == nil {
			s.URL = "redis://" + s.Addr + "/0"
			tb.Cleanup(s.Stop)
			return s
		}
	}
	tb.Fatalf("redis-server did not start: %v", lastErr)
	return nil
}

// run starts the server process on s.Addr and waits until it answers.
func (s *RedisServer) run() error {
	_, port, _ := net.SplitHostPort(s.Addr)
	var out bytes.Buffer
	cmd := exec.Command(s.bin, "--port", port, "--bind", "127.0.0.1", "--save", "",
		"--appendonly", "no", "--dir", s.dir, "--daemonize", "no", "--logfile", "")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		s.tb.Fatalf("start redis-server: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if err := waitForPong(s.Addr, exited); err != nil {
		cmd.Process.Kill()
		<-exited
		return fmt.Errorf("%w\n%s", err, out.String())
	}
	s.cmd, s.exited = cmd, exited
	return nil
}

// Stop kills the server; its data is gone. Stopping a stopped server does nothing.
func (s *RedisServer) Stop() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
}

// Restart starts a stopped server again on the same port, empty.
func (s *RedisServer) Restart() {
	s.tb.Helper()
	if s.cmd != nil {
		s.tb.Fatal("Restart of a running redis-server")
	}
	if err := s.run(); err != nil {
		s.tb.Fatalf("redis-server did not start again on %s: %v", s.Addr, err)
	}
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

// SharedTrajectories returns the folder of the shared development set, which tests read in
// place and never copy into the repository: shared/data/trajectories beside the checkout, or,
// for a clone made elsewhere (a scratch clone of a local checkout), beside the checkout it was
// cloned from, found by its origin. file is one the tests need in it. When neither holds it,
// the test is skipped, or failed under CI=true, where the set must be there.
func SharedTrajectories(tb testing.TB, file string) string {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			root = filepath.Join(wd, "..", "..") // no checkout: the packages' own depth
			break
		}
		root = parent
	}
	beside := func(checkout string) string {
		return filepath.Join(filepath.Dir(checkout), "shared", "data", "trajectories")
	}
	candidates := []string{beside(root)}
	if out, err := exec.Command("git", "-C", root, "config", "--get", "remote.origin.url").Output(); err == nil {
		if origin := string(bytes.TrimSpace(out)); filepath.IsAbs(origin) {
			candidates = append(candidates, beside(filepath.Clean(origin)))
		}
	}
	for _, dir := range candidates {
		if _, err := os.Stat(filepath.Join(dir, file)); err == nil {
			return dir
		}
	}
	msg := fmt.Sprintf("shared trajectories not found at %s", candidates[0])
	if InCI() {
		tb.Fatal(msg + " (required when CI=true)")
	}
	tb.Skip(msg + ": skipping the tests on the real transcripts")
	return ""
}
