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

// progressResult is a realistic 4 KB tool result: numbered source lines as a file viewer
// prints them, with a timestamp and a duration that normalising removes.
func progressResult(i int) string {
	var b []byte
	b = fmt.Appendf(b, "[%s] viewed /testbed/pkg/module_%d.py in 12.5ms\n", "2026-12-01T10:00:00Z", i)
	for line := 1; len(b) < 4096-80; line++ {
		b = fmt.Appendf(b, "%6d\t    result_%d = transform(items[%d], key=lambda x: x.value * %d)\n", line+i, line, line, line%7)
	}
	return string(b[:4096])
}

// BenchmarkObserveProgress4KB is one call with a 4 KB result through the default (progress)
// preset, for an agent that has been running a while: no notice is due. Target: <= 4 µs
// (1 GB/s of result), 0 allocs. The anchor is the seed's duplicate-text hash of the same
// bytes, BenchmarkSeedTextHash4KB.
func BenchmarkObserveProgress4KB(b *testing.B) { benchmarkObserveProgress4KB(b, false) }

// BenchmarkObserveProgress4KBAfterText is BenchmarkObserveProgress4KB for a host that feeds
// the model's text too: the agent has spoken once, so every result's lines are also gathered
// for the thought rule (progressState.spoke).
func BenchmarkObserveProgress4KBAfterText(b *testing.B) { benchmarkObserveProgress4KB(b, true) }

func benchmarkObserveProgress4KB(b *testing.B, spoke bool) {
	cfg, _ := Preset(PresetDefault)
	eng, _ := New(cfg)
	if spoke {
		eng.Observe(Event{Type: EventText, Agent: "agent-1", Source: "model", Text: "Let me read the package's modules one by one."})
	}
	const distinct = 256
	events := make([]Event, distinct)
	for i := range events {
		events[i] = Call("agent-1", "str_replace_editor", fmt.Appendf(nil, `{"command":"view","path":"/testbed/pkg/module_%d.py"}`, i)).
			WithResult(progressResult(i), false)
	}
	for i := 0; i < 2*distinct; i++ {
		eng.Observe(events[i%distinct])
	}
	b.SetBytes(4096)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n := eng.Observe(events[i%distinct]); n != nil {
			b.Fatalf("unexpected notice %+v", n)
		}
	}
}

// BenchmarkSeedTextHash4KB is the anchor for BenchmarkObserveProgress4KB: dsh-brake's text
// fingerprint over the same 4 KB results.
func BenchmarkSeedTextHash4KB(b *testing.B) {
	results := make([]string, 256)
	for i := range results {
		results[i] = progressResult(i)
	}
	b.SetBytes(4096)
	b.ReportAllocs()
	b.ResetTimer()
	var sink uint64
	for i := 0; i < b.N; i++ {
		sink += textFingerprint(results[i%len(results)])
	}
	_ = sink
}

// BenchmarkDigest4KB is the progress detector's normalise-and-hash pass alone.
func BenchmarkDigest4KB(b *testing.B) {
	var d digester
	d.setEcho([]byte(`{"command":"view","path":"/testbed/pkg/module_1.py"}`))
	r := progressResult(1)
	b.SetBytes(4096)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d.digest(r, true, true)
	}
}

// BenchmarkObserveSteadyStateProgress is BenchmarkObserveSteadyState through the default
// (progress) preset: short results, many distinct calls, no notice due.
func BenchmarkObserveSteadyStateProgress(b *testing.B) {
	e, _ := Preset(PresetDefault)
	eng, _ := New(e)
	const distinct = 8192
	events := make([]Event, distinct)
	for i := range events {
		events[i] = Call("agent-1", "Bash", fmt.Appendf(nil, `{"command":"sed -n '%d,%dp' /testbed/seaborn/axisgrid.py","timeout":120000}`, i, i+40)).
			WithResult(fmt.Sprintf("%d: ok", i), false)
	}
	for i := 0; i < 3*distinct; i++ {
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
