package store_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/loopguard/loopguard/internal/store"
	"github.com/loopguard/loopguard/internal/store/storetest"
)

// The cross-process tests re-run this test binary as a child process (see storetest.RunHelper).
func TestMain(m *testing.M) {
	storetest.RunHelper(map[string]func(url, key string) error{"loop": helperLoop})
	os.Exit(m.Run())
}

// TestUpdateAcrossProcesses starts 64 processes at once that each add one to the same key of
// the embedded store (storetest.UpdateAcrossProcesses).
func TestUpdateAcrossProcesses(t *testing.T) {
	storetest.UpdateAcrossProcesses(t, "bolt://"+filepath.ToSlash(filepath.Join(t.TempDir(), "state.db")))
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
		s, err := store.Open(ctx, url, store.Options{})
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
		cmd.Env = append(os.Environ(), storetest.HelperEnv+"=loop", storetest.HelperURLEnv+"="+url, storetest.HelperKeyEnv+"=agent")
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
		s, err := store.Open(ctx, url, store.Options{})
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
		cmd.Env = append(os.Environ(), storetest.HelperEnv+"=loop", storetest.HelperURLEnv+"="+url, storetest.HelperKeyEnv+"=agent")
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
		s, err := store.Open(ctx, url, store.Options{})
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
