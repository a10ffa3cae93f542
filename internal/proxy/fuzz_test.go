package proxy

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzRewrite checks one request parser on arbitrary bytes: it never panics; a body that
// encoding/json accepts is accepted (unless nested past maxDepth); and the upstream body of a
// valid JSON request is valid JSON again.
func fuzzRewrite(f *testing.F, api API) {
	for _, c := range goldenCases {
		if in, err := os.ReadFile(filepath.Join("testdata", "golden", c.name+".in.json")); err == nil && c.api == api {
			f.Add(in)
		}
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":"\u00e9\ud800"}]}`))
	f.Add([]byte(`{"input":"hi","previous_response_id":"resp_1","store":false}`))
	f.Add([]byte(`[[[[[[[[[[`))
	g := newTestGuard(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := g.Rewrite(api, body, nil)
		valid := json.Valid(body)
		if err != nil {
			if valid && !errors.Is(err, errDepth) && !errors.Is(err, errNotObject) {
				t.Fatalf("valid JSON refused: %v", err)
			}
			return
		}
		defer r.Done()
		if valid && !json.Valid(r.Body()) {
			t.Fatalf("valid request, invalid upstream body:\n%s", r.Body())
		}
		if len(r.Body()) < len(body) {
			t.Fatalf("the upstream body lost bytes")
		}
	})
}

func FuzzAnthropicRequest(f *testing.F) { fuzzRewrite(f, Anthropic) }
func FuzzChatRequest(f *testing.F)      { fuzzRewrite(f, Chat) }
func FuzzResponsesRequest(f *testing.F) { fuzzRewrite(f, Responses) }
func FuzzGeminiRequest(f *testing.F)    { fuzzRewrite(f, Gemini) }

// The Responses output reader sees the provider's bytes (JSON or SSE); it must not panic.
func FuzzResponsesOutput(f *testing.F) {
	f.Add([]byte(`{"id":"resp_1","output":[{"type":"function_call","call_id":"c","name":"n","arguments":"{}"}]}`))
	f.Add([]byte("event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_2\",\"output\":[]}}\n\n"))
	g := newTestGuard(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := g.Rewrite(Responses, []byte(`{"input":"hi"}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Done()
		if id, st, ok := r.After(body); ok && (id == "" || st == nil) {
			t.Fatalf("ok with id %q, state %v", id, st)
		}
	})
}

// unescape decodes every valid JSON string body as encoding/json does.
func FuzzUnescapeMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\nb\t\"q\" \\ \/"`, `"\u00e9\ud83d\ude00"`, `"\ud800 lone"`, `"\udc00\ud800"`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, quoted []byte) {
		var want string
		if json.Unmarshal(quoted, &want) != nil {
			return
		}
		n, err := parseJSON(quoted)
		if err != nil {
			t.Fatalf("encoding/json reads %q, parseJSON refuses it: %v", quoted, err)
		}
		if got := stringValue(quoted, n); got != want && utf8.ValidString(want) && !strings.ContainsRune(want, utf8.RuneError) {
			t.Fatalf("stringValue(%q) = %q, want %q", quoted, got, want)
		}
	})
}
