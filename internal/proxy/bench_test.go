package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// benchConversation is a Claude Code-shaped request of msgs messages and about size bytes,
// ending in a loop of identical calls (the same generator as bench/proxyload).
func benchConversation(msgs, size int) []byte {
	// Results are lines of text, as tool output is: escaped newlines every 80 bytes.
	pad := strings.Repeat(strings.Repeat("x", 78)+`\n`, max(0, size/(msgs/2)-150)/80)
	var b bytes.Buffer
	b.WriteString(`{"model":"claude-opus-5-5","max_tokens":32000,"stream":true,"system":[{"type":"text","text":"You are a bench."}],"messages":[{"role":"user","content":"go"}`)
	for i := 1; i < msgs-1; i += 2 {
		cmd := fmt.Sprintf("cat file%d", i)
		if i > msgs-12 {
			cmd = "cat same"
		}
		fmt.Fprintf(&b, `,{"role":"assistant","content":[{"type":"text","text":"step %d"},{"type":"tool_use","id":"toolu_%d","name":"Bash","input":{"command":%q}}]}`, i, i, cmd)
		fmt.Fprintf(&b, `,{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"%s"}]}`, i, pad)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BenchmarkRewrite500KB is the proxy's work on a 200-message, 500 KB request: parse, rebuild,
// run the engine, splice. The anchor, BenchmarkJSONValid500KB, is encoding/json's validity
// scan of the same bytes: the least any JSON-reading proxy does.
//
// It is the cold path: the prefix cache is off, so every request replays its whole history.
func BenchmarkRewrite500KB(b *testing.B) { benchRewriteCold(b, loopguard.PresetSeeds) }

// BenchmarkRewrite500KBDefault is BenchmarkRewrite500KB with the default (progress-aware)
// preset, which `loopguard proxy` runs unless told otherwise: every result is normalised and
// compared, where the seeds only hash it.
func BenchmarkRewrite500KBDefault(b *testing.B) { benchRewriteCold(b, loopguard.PresetDefault) }

func benchRewriteCold(b *testing.B, preset string) {
	body := benchConversation(200, 500_000)
	g := guardWith(b, preset, CacheLimits{})
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		rewriteNoticed(b, g, body)
	}
}

// rewriteNoticed rewrites body, an Anthropic request that must draw a notice, and releases
// the result.
func rewriteNoticed(b *testing.B, g *Guard, body []byte) {
	r, err := g.Rewrite(Anthropic, body, nil)
	if err != nil {
		b.Fatal(err)
	}
	if len(r.Notices) == 0 {
		b.Fatal("no notice")
	}
	r.Done()
}

// BenchmarkRewrite500KBNextTurn is the warm path: the 200-message request after the same
// conversation's previous turn (198 messages) was served, so the prefix cache holds all but
// its last call. Each iteration uses a fresh cache warmed outside the timer, so the request
// resumes from the previous turn, never from itself.
func BenchmarkRewrite500KBNextTurn(b *testing.B) {
	body := benchConversation(200, 500_000)
	prev, _ := cutHistory(b, Anthropic, body, 198-1)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		g := guardWith(b, loopguard.PresetSeeds, DefaultCacheLimits)
		rewrite(b, g, Anthropic, prev)
		b.StartTimer()
		rewriteNoticed(b, g, body)
	}
	b.StopTimer()
}

func BenchmarkJSONValid500KB(b *testing.B) {
	body := benchConversation(200, 500_000)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if !json.Valid(body) {
			b.Fatal("invalid")
		}
	}
}
