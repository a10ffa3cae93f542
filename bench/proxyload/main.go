// Command proxyload measures `loopguard proxy` against the scripted model server of
// internal/e2e, on loopback only. It starts the scripted server in-process and the proxy as a
// separate process (the binary given with -bin), so that the proxy's memory and goroutines,
// read from its own /metrics, are the proxy's alone.
//
//	go run ./bench/proxyload -bin .bench/loopguard -mode latency   # BENCHMARKS.md figures
//	go run ./bench/proxyload -bin .bench/loopguard -mode load -d 10m
//
// latency: the same requests sent straight to the scripted server and through the proxy,
// interleaved, in one run: added latency (median, p99) for a 200-message, 500 KB Anthropic
// conversation with a loop in it; requests per second with small bodies; proxy heap per
// in-flight request; time to the first streamed byte.
//
// load: a steady mix (small and large, streaming and not, all four APIs) from a few
// connections for -d, sampling the proxy's goroutines and memory every 30 s.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loopguard/loopguard/internal/e2e"
)

func main() {
	bin := flag.String("bin", ".bench/loopguard", "the loopguard binary")
	mode := flag.String("mode", "latency", "latency or load")
	n := flag.Int("n", 400, "latency: requests per side for the large conversation")
	dur := flag.Duration("d", 10*time.Minute, "load: how long")
	conns := flag.Int("c", 4, "load: concurrent connections")
	flag.Parse()

	srv, err := e2e.StartServer(e2e.Script{Command: "echo bench", ToolTurns: 1 << 30})
	check(err)
	defer srv.Close()
	// The scripted server keeps every request it gets; a long run must not.
	stopReset := make(chan struct{})
	go func() {
		for {
			select {
			case <-stopReset:
				return
			case <-time.After(2 * time.Second):
				srv.Reset()
			}
		}
	}()
	defer close(stopReset)

	// A second upstream for the in-flight measurement: it holds every request until released.
	hold := newHolder()
	holdLn, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	go http.Serve(holdLn, hold)

	addr := freeAddr()
	cmd := exec.Command(*bin, "proxy", "--listen", addr, "--upstream", srv.URL,
		"--upstream", "/hold=http://"+holdLn.Addr().String(), "--preset", "default", "--store", "memory")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+os.TempDir()+"/proxyload-none")
	var logs bytes.Buffer
	cmd.Stderr = &logs
	check(cmd.Start())
	defer cmd.Process.Kill()
	proxy := "http://" + addr
	waitReady(proxy)

	fmt.Printf("machine: %d cores (%s), %s\n", nprocs(), cpuModel(), time.Now().UTC().Format(time.RFC3339))
	switch *mode {
	case "latency":
		latency(srv.URL, proxy, *n, hold)
	case "load":
		load(srv.URL, proxy, *dur, *conns)
	default:
		fmt.Fprintln(os.Stderr, "proxyload: -mode latency or load")
		os.Exit(2)
	}
}

var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}}

// anthropicConversation is a Claude Code-shaped request of msgs messages and about size bytes:
// a prompt, then tool calls and results, the last few calls identical (a loop).
func anthropicConversation(msgs, size int, stream bool) []byte {
	return anthropicVariant(msgs, size, stream, "go", "")
}

// anthropicVariant is anthropicConversation with its own first prompt (a different prompt
// shares no prefix with any other conversation) and, when last is not empty, its last call
// replaced by `cat <last>` with a result of its own (the next turn of a conversation whose
// earlier turns were sent before).
func anthropicVariant(msgs, size int, stream bool, prompt, last string) []byte {
	// Results are lines of text, as tool output is: an escaped newline every 80 bytes.
	pad := strings.Repeat(strings.Repeat("x", 78)+`\n`, max(0, size/(msgs/2)-150)/80)
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"model":"claude-opus-5-5","max_tokens":32000,"stream":%v,"system":[{"type":"text","text":"You are a bench."}],"tools":[{"name":"Bash","input_schema":{"type":"object","properties":{"command":{"type":"string"}}}}],"messages":[{"role":"user","content":%q}`, stream, prompt)
	for i := 1; i < msgs-1; i += 2 {
		cmd, result := fmt.Sprintf("cat file%d", i), pad
		if i > msgs-12 {
			cmd = "cat same" // the loop at the end
		}
		if last != "" && i+2 >= msgs-1 {
			cmd, result = "cat "+last, last+`\n`+pad
		}
		fmt.Fprintf(&b, `,{"role":"assistant","content":[{"type":"text","text":"step %d"},{"type":"tool_use","id":"toolu_%d","name":"Bash","input":{"command":%q}}]}`, i, i, cmd)
		fmt.Fprintf(&b, `,{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"%s"}]}`, i, result)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

func smallChat(i int) []byte {
	return fmt.Appendf(nil, `{"model":"m","stream":false,"tools":[{"type":"function","function":{"name":"bash","parameters":{"type":"object"}}}],"messages":[{"role":"user","content":"hello %d"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"a b c"}]}`, i)
}

// post sends body and reads the whole answer; it returns the time to the first body byte and
// to the end.
func post(url string, body []byte) (ttfb, total time.Duration, err error) {
	start := time.Now()
	resp, err := client.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	one := make([]byte, 1)
	if _, err := io.ReadFull(resp.Body, one); err != nil {
		return 0, 0, err
	}
	ttfb = time.Since(start)
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != 200 {
		return 0, 0, fmt.Errorf("status %d", resp.StatusCode)
	}
	return ttfb, time.Since(start), nil
}

func latency(direct, proxy string, n int, hold *holder) {
	big := anthropicConversation(200, 500_000, false)
	fmt.Printf("large request: 200 messages, %d bytes, Anthropic Messages, not streamed\n", len(big))
	var d, p []time.Duration
	for i := 0; i < n+20; i++ { // the first 20 of each warm up connections and caches
		_, td, err := post(direct+"/v1/messages", big)
		check(err)
		_, tp, err := post(proxy+"/v1/messages", big)
		check(err)
		if i >= 20 {
			d, p = append(d, td), append(p, tp)
		}
	}
	md, mp := pct(d, 50), pct(p, 50)
	fmt.Printf("  straight to the scripted server: median %v, p99 %v\n", md, pct(d, 99))
	fmt.Printf("  through the proxy:               median %v, p99 %v\n", mp, pct(p, 99))
	fmt.Printf("  added: median %v (ratio %.3f), p99 %v\n", mp-md, float64(mp)/float64(md), pct(p, 99)-pct(d, 99))
	// The same size of request when the proxy has seen all but its last call (the next turn
	// of a conversation: the prefix cache resumes from the turn before), and when it has seen
	// none of it (a conversation's first request, or the cache off: the whole history replayed).
	for _, c := range []struct {
		name string
		body func(i int) []byte
	}{
		{"next turn (the conversation up to its last call was sent before)", func(i int) []byte {
			return anthropicVariant(200, 500_000, false, "go", fmt.Sprintf("new%d", i))
		}},
		{"first request (nothing seen before)", func(i int) []byte {
			return anthropicVariant(200, 500_000, false, fmt.Sprintf("go %d", i), "")
		}},
	} {
		// An agent's next request is its previous request plus the new turn: send that
		// previous request (everything before the last call, the same in every variant) first.
		b0 := c.body(-1)
		cut := bytes.LastIndex(b0, []byte(`,{"role":"assistant"`))
		prev := append(append([]byte{}, b0[:cut]...), "]}"...)
		_, _, err := post(proxy+"/v1/messages", prev)
		check(err)
		var dd, pp []time.Duration
		for i := 0; i < n+20; i++ {
			body := c.body(i)
			_, td, err := post(direct+"/v1/messages", body)
			check(err)
			_, tp, err := post(proxy+"/v1/messages", body)
			check(err)
			if i >= 20 {
				dd, pp = append(dd, td), append(pp, tp)
			}
		}
		fmt.Printf("  %s: added median %v (straight %v, proxy %v), p99 %v\n", c.name,
			pct(pp, 50)-pct(dd, 50), pct(dd, 50), pct(pp, 50), pct(pp, 99)-pct(dd, 99))
	}
	m := metrics(proxy)
	fmt.Printf("  proxy's own added-latency histogram (receive to upstream send), anthropic: mean %.3f ms over %v requests\n",
		1000*m["loopguard_proxy_added_latency_seconds_sum{api=\"anthropic\"}"]/m["loopguard_proxy_added_latency_seconds_count{api=\"anthropic\"}"],
		m["loopguard_proxy_added_latency_seconds_count{api=\"anthropic\"}"])

	// Small bodies, 8 connections, 10 s each side.
	for _, side := range []struct{ name, base string }{{"straight", direct}, {"proxy", proxy}} {
		rps, errs := throughput(side.base+"/v1/chat/completions", 8, 10*time.Second)
		fmt.Printf("small Chat Completions bodies (%d bytes), 8 connections, 10 s: %s %.0f req/s, %d errors\n", len(smallChat(0)), side.name, rps, errs)
	}

	// Time to first streamed byte, small and large streaming requests.
	for _, c := range []struct {
		name string
		body []byte
	}{{"small", anthropicConversation(4, 2_000, true)}, {"500 KB", anthropicConversation(200, 500_000, true)}} {
		var dd, pp []time.Duration
		for i := 0; i < 220; i++ {
			td, _, err := post(direct+"/v1/messages", c.body)
			check(err)
			tp, _, err := post(proxy+"/v1/messages", c.body)
			check(err)
			if i >= 20 {
				dd, pp = append(dd, td), append(pp, tp)
			}
		}
		fmt.Printf("time to first streamed byte, %s streaming request: straight median %v, proxy median %v, difference %v\n",
			c.name, pct(dd, 50), pct(pp, 50), pct(pp, 50)-pct(dd, 50))
	}

	// Heap per in-flight request: 100 large requests held upstream at once.
	before := metrics(proxy)
	const k = 100
	var wg sync.WaitGroup
	for i := 0; i < k; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			post(proxy+"/hold/v1/messages", big)
		}()
	}
	hold.waitFor(k)
	during := metrics(proxy)
	hold.release()
	wg.Wait()
	fmt.Printf("in flight: %d large requests held upstream: proxy heap in use %+.1f MB (%.0f KB per request), goroutines %+.0f, RSS %+.1f MB\n", k,
		(during["go_memstats_heap_inuse_bytes"]-before["go_memstats_heap_inuse_bytes"])/1e6,
		(during["go_memstats_heap_inuse_bytes"]-before["go_memstats_heap_inuse_bytes"])/1e3/k,
		during["go_goroutines"]-before["go_goroutines"],
		(during["process_resident_memory_bytes"]-before["process_resident_memory_bytes"])/1e6)
}

func throughput(url string, conns int, d time.Duration) (float64, int64) {
	var ok, failed atomic.Int64
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for c := 0; c < conns; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := c; time.Now().Before(deadline); i += conns {
				if _, _, err := post(url, smallChat(i)); err != nil {
					failed.Add(1)
				} else {
					ok.Add(1)
				}
			}
		}(c)
	}
	wg.Wait()
	return float64(ok.Load()) / d.Seconds(), failed.Load()
}

func load(direct, proxy string, d time.Duration, conns int) {
	// The last entry is a new conversation every time, so that the proxy's prefix cache keeps
	// filling and evicting (its bounds are part of what must not grow).
	fresh := func(i int) []byte { return anthropicVariant(40, 50_000, false, fmt.Sprintf("go %d", i), "") }
	mix := []struct {
		path string
		body []byte
	}{
		{"/v1/chat/completions", smallChat(1)},
		{"/v1/messages", anthropicConversation(40, 50_000, true)},
		{"/v1/messages", anthropicConversation(200, 500_000, false)},
		{"/v1/responses", []byte(`{"model":"m","stream":true,"store":false,"tools":[{"type":"function","name":"exec_command","parameters":{"type":"object"}}],"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]},{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls\"}","call_id":"c1"},{"type":"function_call_output","call_id":"c1","output":"a"}]}`)},
		{"/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", []byte(`{"contents":[{"role":"user","parts":[{"text":"go"}]}],"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`)},
		{"/v1/messages", nil}, // fresh(i)
	}
	fmt.Printf("steady load: %d connections for %v, a mix of %d requests (small and 500 KB, streaming and not, four APIs, and a new 50 KB conversation each round)\n", conns, d, len(mix))
	var ok, failed atomic.Int64
	var lastErr atomic.Value
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var wg sync.WaitGroup
	for c := 0; c < conns; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := c; ctx.Err() == nil; i++ {
				m := mix[i%len(mix)]
				body := m.body
				if body == nil {
					body = fresh(i)
				}
				if _, _, err := post(proxy+m.path, body); err != nil {
					failed.Add(1)
					lastErr.Store(err.Error())
				} else {
					ok.Add(1)
				}
			}
		}(c)
	}
	sample := func(at time.Duration) {
		m := metrics(proxy)
		fmt.Printf("  t=%-6v requests ok %d, errors %d; proxy goroutines %.0f, heap in use %.1f MB, RSS %.1f MB, prefix cache %.0f entries %.1f MB\n", at.Round(time.Second), ok.Load(), failed.Load(),
			m["go_goroutines"], m["go_memstats_heap_inuse_bytes"]/1e6, m["process_resident_memory_bytes"]/1e6,
			m["loopguard_proxy_prefix_cache_entries"], m["loopguard_proxy_prefix_cache_bytes"]/1e6)
	}
	start := time.Now()
	sample(0)
	tick := time.NewTicker(30 * time.Second)
	defer tick.Stop()
loop:
	for {
		select {
		case <-tick.C:
			sample(time.Since(start))
		case <-ctx.Done():
			break loop
		}
	}
	wg.Wait()
	client.CloseIdleConnections()
	time.Sleep(time.Second)
	sample(time.Since(start))
	if e := lastErr.Load(); e != nil {
		fmt.Printf("  last error: %v\n", e)
	}
	fmt.Printf("  total: %d requests, %d errors, %.0f req/s\n", ok.Load(), failed.Load(), float64(ok.Load())/d.Seconds())
}

// metrics reads the proxy's /metrics into series -> value.
func metrics(base string) map[string]float64 {
	resp, err := http.Get(base + "/metrics")
	check(err)
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			out[line[:i]] = v
		}
	}
	return out
}

// holder is an upstream that holds every request until released.
type holder struct {
	arrived chan struct{}
	gate    chan struct{}
}

func newHolder() *holder {
	return &holder{arrived: make(chan struct{}, 1024), gate: make(chan struct{})}
}

func (h *holder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	h.arrived <- struct{}{}
	<-h.gate
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"ok":true}`)
}

func (h *holder) waitFor(k int) {
	for i := 0; i < k; i++ {
		<-h.arrived
	}
}

func (h *holder) release() { close(h.gate) }

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	if i > 0 {
		i--
	}
	return s[i]
}

func waitReady(base string) {
	for i := 0; i < 300; i++ {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	fmt.Fprintln(os.Stderr, "proxyload: the proxy did not start")
	os.Exit(1)
}

func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	defer l.Close()
	return l.Addr().String()
}

func nprocs() int {
	b, _ := os.ReadFile("/proc/cpuinfo")
	return bytes.Count(b, []byte("\nprocessor")) + 1
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			_, v, _ := strings.Cut(l, ":")
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "proxyload:", err)
		os.Exit(1)
	}
}
