// Command hookbench times hook commands the way an agent CLI runs them: a new process per
// event, the event JSON on stdin, until the process exits. Commands are split on spaces and
// executed directly (no shell), so arguments must not need quoting. It runs each command alternately,
// so both see the same machine load, and prints the median and 90th percentile.
//
//	go run ./bench/hookbench -n 200 -stdin event.json -- 'loopguard hook claude-code' 'node minimal-hook.js'
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 200, "runs per command")
	stdinPath := flag.String("stdin", "", "file given to each run on stdin")
	flag.Parse()
	cmds := flag.Args()
	if len(cmds) == 0 || *stdinPath == "" {
		fmt.Fprintln(os.Stderr, "usage: hookbench -n N -stdin FILE -- 'CMD' ['CMD'...]")
		os.Exit(2)
	}
	input, err := os.ReadFile(*stdinPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	times := make([][]time.Duration, len(cmds))
	for i := 0; i < *n; i++ {
		for c, line := range cmds {
			// Exec the command directly, as a host does once its shell has parsed the line:
			// the time is the hook process's own, start to exit.
			args := strings.Fields(line)
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Stdin = bytes.NewReader(input)
			var out bytes.Buffer
			cmd.Stdout = &out
			cmd.Stderr = os.Stderr
			start := time.Now()
			if err := cmd.Run(); err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", line, err)
				os.Exit(1)
			}
			times[c] = append(times[c], time.Since(start))
		}
	}
	var medians []time.Duration
	for c, line := range cmds {
		ts := times[c]
		slices.Sort(ts)
		med, p90 := ts[len(ts)/2], ts[len(ts)*9/10]
		medians = append(medians, med)
		fmt.Printf("%-60s median %6.2f ms   p90 %6.2f ms\n", line, ms(med), ms(p90))
	}
	for c := 1; c < len(cmds); c++ {
		fmt.Printf("ratio: %s / %s = %.2f\n", cmds[0], cmds[c], float64(medians[0])/float64(medians[c]))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
