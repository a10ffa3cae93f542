// Command servebench measures `loopguard serve`: it posts Claude Code hook events to it from
// several connections for a fixed time, on loopback only, and prints requests per second.
// The events alternate between PreToolUse and PostToolUse of many sessions, as a busy
// machine's Claude Code sessions would send them.
//
//	go run ./bench/servebench -url http://127.0.0.1:8417/hook/claude-code -c 8 -d 5s
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	target := flag.String("url", "http://127.0.0.1:8417/hook/claude-code", "hook endpoint (loopback only)")
	conns := flag.Int("c", 8, "concurrent connections")
	dur := flag.Duration("d", 5*time.Second, "how long to send (at most 60s)")
	sessions := flag.Int("sessions", 64, "distinct sessions")
	flag.Parse()
	u, err := url.Parse(*target)
	if err != nil || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost" && u.Hostname() != "::1") {
		fmt.Fprintln(os.Stderr, "servebench: the target must be on loopback")
		os.Exit(2)
	}
	if *dur > time.Minute {
		*dur = time.Minute
	}
	bodies := make([][]byte, 0, 2**sessions)
	for s := 0; s < *sessions; s++ {
		for _, ev := range []string{"PreToolUse", "PostToolUse"} {
			bodies = append(bodies, fmt.Appendf(nil, `{"session_id":"bench-%d","hook_event_name":%q,"tool_name":"Bash","tool_input":{"command":"grep -rn needle /src","description":"search"},"tool_response":{"stdout":"","stderr":""},"tool_use_id":"toolu_%d"}`, s, ev, s))
		}
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *conns}, Timeout: 5 * time.Second}
	var ok, failed atomic.Int64
	deadline := time.Now().Add(*dur)
	var wg sync.WaitGroup
	for c := 0; c < *conns; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := c; time.Now().Before(deadline); i += *conns {
				resp, err := client.Post(*target, "application/json", bytes.NewReader(bodies[i%len(bodies)]))
				if err != nil {
					failed.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					ok.Add(1)
				} else {
					failed.Add(1)
				}
			}
		}(c)
	}
	start := time.Now()
	wg.Wait()
	elapsed := time.Since(start)
	fmt.Printf("%d requests in %.2f s over %d connections: %.0f requests/s (%d failed)\n",
		ok.Load(), elapsed.Seconds(), *conns, float64(ok.Load())/elapsed.Seconds(), failed.Load())
}
