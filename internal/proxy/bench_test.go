package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
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
func BenchmarkRewrite500KB(b *testing.B) {
	body := benchConversation(200, 500_000)
	g := newTestGuard(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := g.Rewrite(Anthropic, body, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(r.Notices) == 0 {
			b.Fatal("no notice")
		}
		r.Done()
	}
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
