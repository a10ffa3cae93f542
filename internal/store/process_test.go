package store

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The cross-process tests re-run this test binary as a child process: with
// helperEnv set, TestMain runs the named helper instead of the tests.
const (
	helperEnv    = "LOOPGUARD_STORE_HELPER"
	helperURLEnv = "LOOPGUARD_STORE_URL"
	helperKeyEnv = "LOOPGUARD_STORE_KEY"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode))
	}
	os.Exit(m.Run())
}

func runHelper(mode string) int {
	url, key := os.Getenv(helperURLEnv), os.Getenv(helperKeyEnv)
	var err error
	switch mode {
	case "incr":
		err = helperIncr(url, key)
	case "loop":
		err = helperLoop(url, key)
	default:
		err = fmt.Errorf("unknown helper %q", mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	return 0
}

// tally is the value the "incr" helpers share: a counter and the pid of
// every process that incremented it.
type tally struct {
	N    int   `json:"n"`
	Pids []int `json:"pids"`
}

// helperIncr says "ready", waits until its stdin is closed (the start gun
// for all children at once), then runs one hook-like cycle: Open, one
// Update adding itself to the tally, Close.
func helperIncr(url, key string) error {
	fmt.Println("ready")
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		return err
	}
	ctx := context.Background()
	s, err := Open(ctx, url, Options{LockTimeout: 30 * time.Second})
	if err != nil {
		return err
	}
	err = s.Update(ctx, key, func(old []byte) ([]byte, error) {
		var t tally
		if old != nil {
			if err := json.Unmarshal(old, &t); err != nil {
				return nil, err
			}
		}
		t.N++
		t.Pids = append(t.Pids, os.Getpid())
		return json.Marshal(t)
	})
	return errors.Join(err, s.Close())
}

// TestUpdateAcrossProcesses starts 64 processes at once that each add one to
// the same key. Any lost update shows as a count below 64 or a missing pid.
func TestUpdateAcrossProcesses(t *testing.T) {
	for _, name := range []string{"bolt", "redis"} {
		t.Run(name, func(t *testing.T) {
			url := "bolt://" + filepath.ToSlash(filepath.Join(t.TempDir(), "state.db"))
			if name == "redis" {
				url = startRedis(t).url
			}
			const procs = 64
			start := time.Now()
			children := make([]*exec.Cmd, procs)
			stdins := make([]io.WriteCloser, procs)
			stderrs := make([]*bytes.Buffer, procs)
			for i := range children {
				cmd := exec.Command(os.Args[0])
				cmd.Env = append(os.Environ(), helperEnv+"=incr", helperURLEnv+"="+url, helperKeyEnv+"=agent-1")
				stdin, err := cmd.StdinPipe()
				if err != nil {
					t.Fatal(err)
				}
				stdout, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				stderrs[i] = new(bytes.Buffer)
				cmd.Stderr = stderrs[i]
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
				children[i], stdins[i] = cmd, stdin
				line, err := bufio.NewReader(stdout).ReadString('\n')
				if line != "ready\n" {
					t.Fatalf("child %d said %q (%v): %s", i, line, err, stderrs[i])
				}
			}
			spawned := time.Since(start)
			start = time.Now()
			for _, in := range stdins { // go
				_ = in.Close()
			}
			var pids []int
			for i, cmd := range children {
				if err := cmd.Wait(); err != nil {
					t.Errorf("child %d: %v: %s", i, err, stderrs[i])
				}
				pids = append(pids, cmd.Process.Pid)
			}
			t.Logf("%d processes: spawned in %v, all updates done %v after the start signal", procs, spawned, time.Since(start))
			if t.Failed() {
				t.FailNow()
			}

			s := mustOpen(t, url, Options{})
			var got tally
			if err := json.Unmarshal(mustGet(t, s, "agent-1"), &got); err != nil {
				t.Fatal(err)
			}
			slices.Sort(pids)
			slices.Sort(got.Pids)
			if got.N != procs || !slices.Equal(got.Pids, pids) {
				t.Fatalf("after %d concurrent increments: n=%d with %d pids recorded (want %d, one per child)",
					procs, got.N, len(got.Pids), procs)
			}
		})
	}
}

// crashValue builds the value the crash test stores for counter n: the
// counter, a SHA-256 over the counter and a filler whose length and bytes
// depend on n, the filler, and the counter again. Its size varies between
// about 0.1 and 6 KB, so successive values land on different numbers of
// pages.
func crashValue(n uint64) []byte {
	fill := make([]byte, 100+(n*977)%6000)
	for i := range fill {
		fill[i] = byte(n + uint64(i)*31)
	}
	var head [8]byte
	binary.BigEndian.PutUint64(head[:], n)
	sum := sha256.Sum256(append(head[:], fill...))
	v := append(head[:], sum[:]...)
	v = append(v, fill...)
	return binary.BigEndian.AppendUint64(v, n)
}

// parseCrashValue checks a crash-test value and returns its counter.
func parseCrashValue(v []byte) (uint64, error) {
	if len(v) < 8+32+8 {
		return 0, fmt.Errorf("value of %d bytes is too short", len(v))
	}
	n := binary.BigEndian.Uint64(v)
	if tail := binary.BigEndian.Uint64(v[len(v)-8:]); tail != n {
		return 0, fmt.Errorf("head counter %d != tail counter %d", n, tail)
	}
	if !bytes.Equal(v, crashValue(n)) {
		return 0, fmt.Errorf("value for counter %d does not match its checksum and filler", n)
	}
	return n, nil
}

// helperLoop runs hook-like cycles until killed: Open, Update the counter,
// print "ack N" once committed, churn an unrelated key (write or delete),
// Close.
func helperLoop(url, key string) error {
	ctx := context.Background()
	fmt.Println("ready")
	for i := 0; ; i++ {
		s, err := Open(ctx, url, Options{})
		if err != nil {
			return err
		}
		var n uint64
		err = s.Update(ctx, key, func(old []byte) ([]byte, error) {
			if old != nil {
				var err error
				if n, err = parseCrashValue(old); err != nil {
					return nil, err
				}
			}
			n++
			return crashValue(n), nil
		})
		if err != nil {
			return err
		}
		fmt.Printf("ack %d\n", n)
		junk := "junk-" + strconv.Itoa(int(n%16))
		if i%3 == 2 {
			err = s.Delete(ctx, junk)
		} else {
			err = s.Update(ctx, junk, func([]byte) ([]byte, error) { return crashValue(n * 7), nil })
		}
		if err != nil {
			return err
		}
		if err := s.Close(); err != nil {
			return err
		}
	}
}

// TestBoltSurvivesSIGKILL kills a writer at random moments, 200 times, on
// one database file. After every kill the file must open, pass bbolt's
// structural check, hold a self-consistent value whose counter never goes
// back, and include every update the child acknowledged (at most one more:
// the update that committed just before the kill but was not acknowledged).
func TestBoltSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test kills 200 processes; skipped with -short")
	}
	const kills = 200
	path := filepath.Join(t.TempDir(), "state.db")
	url := "bolt://" + filepath.ToSlash(path)
	ctx := context.Background()
	begin := time.Now()
	var prev uint64
	var unacked int
	for round := range kills {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), helperEnv+"=loop", helperURLEnv+"="+url, helperKeyEnv+"=agent")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait for the first acknowledged update, so the child is past its
		// start-up and inside its write loop, then kill it at a random
		// moment of the next few cycles.
		r := bufio.NewReader(stdout)
		var acked uint64
		for _, want := range []string{"ready", "ack"} {
			line, err := r.ReadString('\n')
			if !strings.HasPrefix(line, want) {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("round %d: child said %q, want %q (%v): %s", round, line, want, err, stderr.String())
			}
			acked = max(acked, ackNumber(line))
		}
		time.Sleep(time.Duration(rand.N(int64(10 * time.Millisecond))))
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		// Everything the child printed before it died is still in the pipe.
		rest, _ := io.ReadAll(r)
		werr := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: child ended on its own (%v) instead of by SIGKILL: %s", round, werr, stderr.String())
		}
		for _, line := range strings.SplitAfter(string(rest), "\n") {
			acked = max(acked, ackNumber(line))
		}

		if err := checkBoltFile(path); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		s, err := Open(ctx, url, Options{})
		if err != nil {
			t.Fatalf("round %d: reopen: %v", round, err)
		}
		v, err := s.Get(ctx, "agent")
		if err != nil {
			t.Fatalf("round %d: Get after kill: %v", round, err)
		}
		var got uint64
		if v != nil {
			if got, err = parseCrashValue(v); err != nil {
				t.Fatalf("round %d: value damaged: %v", round, err)
			}
		}
		for j := range 16 {
			if jv, err := s.Get(ctx, "junk-"+strconv.Itoa(j)); err != nil {
				t.Fatalf("round %d: Get junk-%d: %v", round, j, err)
			} else if jv != nil {
				if _, err := parseCrashValue(jv); err != nil {
					t.Fatalf("round %d: junk-%d damaged: %v", round, j, err)
				}
			}
		}
		_ = s.Close()
		switch {
		case got < prev:
			t.Fatalf("round %d: counter went back from %d to %d", round, prev, got)
		case got < acked:
			t.Fatalf("round %d: counter %d lost acknowledged update %d", round, got, acked)
		case got > acked+1:
			t.Fatalf("round %d: counter %d is ahead of anything written (last ack %d)", round, got, acked)
		case got == acked+1:
			unacked++
		}
		prev = got
	}
	t.Logf("%d kills in %v; %d updates committed in total; %d kills fell between a commit and its acknowledgement",
		kills, time.Since(begin).Round(time.Millisecond), prev, unacked)
}

// ackNumber returns N from a line "ack N", or 0.
func ackNumber(line string) uint64 {
	n, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(line, "ack ")), 10, 64)
	return n
}

// TestBoltCreationSurvivesSIGKILL kills writers while they create a new
// database file. Afterwards the file is either absent or a valid database,
// and the next Open and Update work.
func TestBoltCreationSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test; skipped with -short")
	}
	ctx := context.Background()
	var absent int
	for round := range 30 {
		path := filepath.Join(t.TempDir(), "state.db")
		url := "bolt://" + filepath.ToSlash(path)
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), helperEnv+"=loop", helperURLEnv+"="+url, helperKeyEnv+"=agent")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(stdout)
		if line, _ := r.ReadString('\n'); line != "ready\n" {
			t.Fatalf("round %d: child said %q", round, line)
		}
		// The child now opens, creates and writes: a few milliseconds.
		time.Sleep(time.Duration(rand.N(int64(20 * time.Millisecond))))
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_, _ = io.ReadAll(r)
		_ = cmd.Wait()

		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			absent++
		} else if err := checkBoltFile(path); err != nil {
			t.Fatalf("round %d: file left by a killed creator: %v", round, err)
		}
		s, err := Open(ctx, url, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if v, err := s.Get(ctx, "agent"); err != nil {
			t.Fatalf("round %d: Get: %v", round, err)
		} else if v != nil {
			if _, err := parseCrashValue(v); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if err := s.Update(ctx, "agent", func([]byte) ([]byte, error) { return crashValue(1), nil }); err != nil {
			t.Fatalf("round %d: Update after the kill: %v", round, err)
		}
		_ = s.Close()
	}
	t.Logf("30 creators killed; %d before the file appeared", absent)
}

// checkBoltFile opens the database with bbolt itself and runs its structural
// consistency check (page reachability, freelist, ordering).
func checkBoltFile(path string) error {
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return fmt.Errorf("bbolt cannot open the file: %w", err)
	}
	defer db.Close()
	return db.View(func(tx *bolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		return errors.Join(errs...)
	})
}
