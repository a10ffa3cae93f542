package loopguard

import (
	"fmt"
	"runtime"
	"testing"
)

// benchArgs is the 294-byte argument object the engine issue names.
const benchArgs = `{"command":"grep -rn \"get_legend_data\" /testbed/seaborn --include=*.py","description":"Search for legend data usage in seaborn sources","timeout":120000,"run_in_background":false,"options":{"ignore_case":true,"context":[2,3],"paths":["/testbed/seaborn/_core","/testbed/seaborn/axisgrid.py"]}}`

// BenchmarkObserveSteadyState measures one call through both default plugins for an agent
// that has been running a while: every bounded map is full and churning, and no notice is due
// (each identity comes back only after the LRU has forgotten it). Target: <= 1 µs, 0 allocs.
func BenchmarkObserveSteadyState(b *testing.B) {
	e, _ := Preset(PresetSeeds)
	eng, _ := New(e)
	const distinct = 8192
	events := make([]Event, distinct)
	for i := range events {
		events[i] = Call("agent-1", "Bash", fmt.Appendf(nil, `{"command":"sed -n '%d,%dp' /testbed/seaborn/axisgrid.py","timeout":120000}`, i, i+40)).
			WithResult("ok", false)
	}
	for i := 0; i < 3*distinct; i++ { // warm up: fill every bounded map
		eng.Observe(events[i%distinct])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n := eng.Observe(events[i%distinct]); n != nil {
			b.Fatalf("unexpected notice %+v", n)
		}
	}
}

// BenchmarkObserveRepeatedCall is the loop case: the same 294-byte call again and again, so
// notices come at thresholds and re-warns.
func BenchmarkObserveRepeatedCall(b *testing.B) {
	cfg, _ := Preset(PresetSeeds)
	eng, _ := New(cfg)
	ev := Call("agent-1", "Bash", []byte(benchArgs)).WithResult("No matches found.", true)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		eng.Observe(ev)
	}
}

// BenchmarkObserveWithTextResult adds a 2 KB tool result, which dsh-brake fingerprints for
// duplicate text.
func BenchmarkObserveWithTextResult(b *testing.B) {
	cfg, _ := Preset(PresetSeeds)
	eng, _ := New(cfg)
	const distinct = 8192
	events := make([]Event, distinct)
	body := make([]byte, 2048)
	for i := range body {
		body[i] = "abcdefghij klmnop\n"[i%18]
	}
	for i := range events {
		events[i] = Call("agent-1", "Read", fmt.Appendf(nil, `{"file_path":"/src/f%d.go"}`, i)).
			WithResult(fmt.Sprintf("%d %s", i, body), false)
	}
	for i := 0; i < 2*distinct; i++ {
		eng.Observe(events[i%distinct])
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		eng.Observe(events[i%distinct])
	}
}

// BenchmarkMemoryPerIdleAgent reports the heap held per agent after each of 100,000 agents
// made three different calls (with short results) and went idle, with the default preset.
func BenchmarkMemoryPerIdleAgent(b *testing.B) {
	const agents = 100000
	cfg, _ := Preset(PresetSeeds)
	ids := make([]string, agents)
	for i := range ids {
		ids[i] = fmt.Sprintf("session-%06d", i)
	}
	calls := [][]byte{[]byte(`{"command":"ls"}`), []byte(`{"file_path":"/src/main.go"}`), []byte(benchArgs)}
	var perAgent float64
	for n := 0; n < b.N; n++ {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		eng, _ := New(cfg)
		for _, id := range ids {
			for j, args := range calls {
				eng.Observe(Call(id, []string{"Bash", "Read", "Grep"}[j], args).WithResult("ok", false))
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perAgent = float64(after.HeapAlloc-before.HeapAlloc) / agents
		runtime.KeepAlive(eng)
	}
	b.ReportMetric(perAgent, "B/agent")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkSnapshotCycle is what a hook process does per call: restore, observe, snapshot.
func BenchmarkSnapshotCycle(b *testing.B) {
	cfg, _ := Preset(PresetSeeds)
	eng, _ := New(cfg)
	for i := 0; i < 50; i++ {
		eng.Observe(Call("s", "Bash", fmt.Appendf(nil, `{"command":"step %d"}`, i%7)).WithResult("ok", false))
	}
	snap := eng.Snapshot("s")
	ev := Call("s", "Bash", []byte(benchArgs)).WithResult("ok", false)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fresh, _ := New(cfg)
		if err := fresh.Restore("s", snap); err != nil {
			b.Fatal(err)
		}
		fresh.Observe(ev)
		_ = fresh.Snapshot("s")
	}
}
