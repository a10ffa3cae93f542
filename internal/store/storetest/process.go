package storetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/loopguard/loopguard/internal/store"
)

// The cross-process tests re-run the test binary as a child process: with HelperEnv set, the
// package's TestMain runs the named helper (RunHelper) instead of the tests.
const (
	HelperEnv    = "LOOPGUARD_STORE_HELPER"
	HelperURLEnv = "LOOPGUARD_STORE_URL"
	HelperKeyEnv = "LOOPGUARD_STORE_KEY"
)

// RunHelper runs the helper named by $LOOPGUARD_STORE_HELPER, looking it up first in extra
// (a package's own helpers), and exits; it returns at once when the variable is unset. Call
// it first thing in TestMain.
func RunHelper(extra map[string]func(url, key string) error) {
	mode := os.Getenv(HelperEnv)
	if mode == "" {
		return
	}
	helper := extra[mode]
	if helper == nil && mode == "incr" {
		helper = helperIncr
	}
	url, key := os.Getenv(HelperURLEnv), os.Getenv(HelperKeyEnv)
	err := fmt.Errorf("unknown helper %q", mode)
	if helper != nil {
		err = helper(url, key)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(1)
	}
	os.Exit(0)
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
	s, err := store.Open(ctx, url, store.Options{LockTimeout: 30 * time.Second})
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

// UpdateAcrossProcesses starts 64 processes at once that each add one to
// the same key. Any lost update shows as a count below 64 or a missing pid.
func UpdateAcrossProcesses(t *testing.T, url string) {
	const procs = 64
	start := time.Now()
	children := make([]*exec.Cmd, procs)
	stdins := make([]io.WriteCloser, procs)
	stderrs := make([]*bytes.Buffer, procs)
	for i := range children {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), HelperEnv+"=incr", HelperURLEnv+"="+url, HelperKeyEnv+"=agent-1")
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

	s := MustOpen(t, url, store.Options{})
	var got tally
	if err := json.Unmarshal(MustGet(t, s, "agent-1"), &got); err != nil {
		t.Fatal(err)
	}
	slices.Sort(pids)
	slices.Sort(got.Pids)
	if got.N != procs || !slices.Equal(got.Pids, pids) {
		t.Fatalf("after %d concurrent increments: n=%d with %d pids recorded (want %d, one per child)",
			procs, got.N, len(got.Pids), procs)
	}
}
