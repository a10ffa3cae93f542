package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestRecordProxyGolden records the golden inputs of internal/proxy from the real clients:
// each CLI runs straight against the scripted model (no proxy) until it has made the same
// shell call five times, and the request that carries the fifth result is saved byte for byte
// as internal/proxy/testdata/golden/recorded-<client>.in.json. It runs only when asked:
//
//	E2E_RECORD_PROXY_GOLDEN=1 go test ./internal/e2e -run TestRecordProxyGolden
//	go test ./internal/proxy -run Golden -update
func TestRecordProxyGolden(t *testing.T) {
	if os.Getenv("E2E_RECORD_PROXY_GOLDEN") == "" {
		t.Skip("records golden inputs; set E2E_RECORD_PROXY_GOLDEN=1 to run")
	}
	dir := filepath.Join(RepoRoot(t), "internal", "proxy", "testdata", "golden")
	save := func(t *testing.T, name string, srv *Server) {
		r := srv.RequestAfterToolResults(5)
		if r == nil {
			t.Fatalf("no request carried 5 results:\n%s", srv.Summary())
		}
		if err := os.WriteFile(filepath.Join(dir, "recorded-"+name+".in.json"), withoutVendorProse(t, r.Body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, host := range []Host{HostClaudeCode, HostCodex, HostGeminiCLI} {
		t.Run(string(host), func(t *testing.T) {
			srv := NewServer(t, Script{Command: loopCommand, ToolTurns: 5})
			a := NewAgent(t, host, srv)
			if host == HostGeminiCLI {
				throughProxy(t, a, srv.URL) // only for Gemini CLI's settings: its own loop detection off
			}
			a.Run(t, "Run the e2e command until told otherwise.").Check(t, string(host))
			save(t, string(host), srv)
		})
	}
	t.Run("opencode", func(t *testing.T) {
		srv := NewServer(t, Script{Command: loopCommand, ToolTurns: 5})
		runOpencode(t, srv.URL)
		save(t, "opencode", srv)
	})
}

// leftOut replaces the clients' own prose in a recording.
const leftOut = "(left out of the recording: the client's own system prompt or tool list)"

// withoutVendorProse keeps a recorded request's conversation byte for byte but replaces the
// client's system prompt and tool definitions (tens of KB of its vendor's prose, which the
// proxy never reads) with a short placeholder: the top-level system, instructions,
// systemInstruction and tools, and the content of system and developer messages.
func withoutVendorProse(t *testing.T, body []byte) []byte {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		t.Fatal(err)
	}
	placeholder := marshal(t, leftOut)
	for _, k := range []string{"system", "instructions", "systemInstruction", "tools"} {
		if _, ok := top[k]; ok {
			top[k] = placeholder
		}
	}
	for _, k := range []string{"messages", "input"} {
		var hist []json.RawMessage
		if json.Unmarshal(top[k], &hist) != nil {
			continue
		}
		for i, el := range hist {
			var m map[string]json.RawMessage
			if json.Unmarshal(el, &m) != nil {
				continue
			}
			var role string
			json.Unmarshal(m["role"], &role)
			if role == "system" || role == "developer" {
				m["content"] = placeholder
				hist[i] = marshal(t, m)
			}
		}
		if top[k] != nil && hist != nil {
			top[k] = marshal(t, hist)
		}
	}
	return bytes.TrimSuffix(marshal(t, top), []byte("\n"))
}

// marshal encodes without HTML escaping, so that recorded text keeps its < and >.
func marshal(t *testing.T, v any) json.RawMessage {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
