// Command genevents writes a deterministic stream of loopguard replay events for benchmarks:
// several agents making realistic tool calls (shell commands, file reads, searches), with
// results, some loops, user turns and injected text.
//
//	go run ./bench/genevents -n 1000000 > events.jsonl
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
)

func main() {
	n := flag.Int("n", 1000000, "number of events")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	r := rand.New(rand.NewPCG(*seed, 7))
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer w.Flush()

	files := []string{"/testbed/seaborn/axisgrid.py", "/testbed/seaborn/_core/plot.py", "/src/main.go", "/src/engine.go", "/README.md"}
	ts := int64(1700000000000)
	loop := 0 // remaining repeats of a stuck call
	var stuck string
	for i := 0; i < *n; i++ {
		ts += int64(r.IntN(3000))
		agent := "agent-" + strconv.Itoa(r.IntN(16))
		if loop > 0 {
			loop--
			fmt.Fprintf(w, `{"type":"call","agent":"agent-0","tool":"Bash","args":%s,"result":{"error":true,"text":"grep: no match"},"ts":%d}`+"\n", stuck, ts)
			continue
		}
		switch k := r.IntN(1000); {
		case k < 400:
			fmt.Fprintf(w, `{"type":"call","agent":"%s","tool":"Bash","args":{"command":"grep -rn \"%s\" /testbed --include=*.py","description":"Search the sources","timeout":120000},"result":{"error":false,"text":"%s:%d: match"},"ts":%d}`+"\n",
				agent, "sym"+strconv.Itoa(r.IntN(20000)), files[r.IntN(len(files))], r.IntN(900), ts)
		case k < 750:
			fmt.Fprintf(w, `{"type":"call","agent":"%s","tool":"Read","args":{"file_path":"%s","offset":%d,"limit":40},"result":{"error":false,"text":"line one of the file\nline two of the file"},"ts":%d}`+"\n",
				agent, files[r.IntN(len(files))], r.IntN(2000)*40, ts)
		case k < 900:
			fmt.Fprintf(w, `{"type":"call","agent":"%s","tool":"Edit","args":{"file_path":"%s","old_string":"x = %d","new_string":"x = %d"},"result":{"error":false,"text":"ok"},"ts":%d}`+"\n",
				agent, files[r.IntN(len(files))], r.IntN(10000), r.IntN(10000), ts)
		case k < 960:
			fmt.Fprintf(w, `{"type":"text","agent":"%s","id":"m%d","source":"memory","text":"Project notes: the build uses Go 1.26, tests run with go test ./..., and the service listens on port 8080 by default.","ts":%d}`+"\n",
				agent, i, ts)
		case k < 995:
			fmt.Fprintf(w, `{"type":"user","agent":"%s","ts":%d}`+"\n", agent, ts)
		default:
			loop = 5 + r.IntN(20)
			stuck = fmt.Sprintf(`{"command":"grep -rn \"missing_%d\" /testbed","timeout":120000}`, r.IntN(1000))
		}
	}
}
