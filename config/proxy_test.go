package config

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

func ptr[T any](v T) *T { return &v }

func TestParseProxySection(t *testing.T) {
	cases := []struct {
		name, doc string
		want      Proxy
		wantErr   string
	}{
		{"no section", "preset: default\n", Proxy{}, ""},
		{"every field", `preset: default
proxy:
  listen: 0.0.0.0:8787
  upstream: https://api.anthropic.com
  upstreams:
    - {prefix: /openai, url: "https://api.openai.com"}
    - {api: gemini, url: "https://generativelanguage.googleapis.com"}
  store: redis://redis:6379/0
  maxBodyBytes: 1048576
  shutdownTimeout: 90s
  prefixCacheEntries: 64
  prefixCacheBytes: 4194304
`, Proxy{Listen: "0.0.0.0:8787", Upstream: "https://api.anthropic.com", Upstreams: []ProxyUpstream{
			{Prefix: "/openai", URL: "https://api.openai.com"}, {API: "gemini", URL: "https://generativelanguage.googleapis.com"}},
			Store: "redis://redis:6379/0", MaxBodyBytes: 1 << 20, ShutdownTimeout: 90 * time.Second,
			PrefixCacheEntries: ptr(64), PrefixCacheBytes: 4 << 20}, ""},
		{"prefix cache off", "proxy:\n  prefixCacheEntries: 0\n", Proxy{PrefixCacheEntries: ptr(0)}, ""},
		{"unknown key", "proxy:\n  listn: x\n", Proxy{}, `p.yaml:2:3: proxy: unknown key "listn" (known keys: listen, upstream, upstreams, store, maxBodyBytes, shutdownTimeout, prefixCacheEntries, prefixCacheBytes)`},
		{"bad upstream URL", "proxy:\n  upstream: api.openai.com\n", Proxy{}, `p.yaml:2:13: proxy: upstream must be an http:// or https:// URL, got "api.openai.com"`},
		{"unknown API", "proxy:\n  upstreams:\n    - {api: bard, url: 'http://x'}\n", Proxy{}, `p.yaml:3:13: proxy: upstreams[0]: api must be one of anthropic, chat, responses, gemini, got "bard"`},
		{"both prefix and api", "proxy:\n  upstreams:\n    - {api: chat, prefix: /x, url: 'http://x'}\n", Proxy{}, `p.yaml:3:7: proxy: upstreams[0]: an upstream needs exactly one of prefix and api`},
		{"no url", "proxy:\n  upstreams:\n    - {api: chat}\n", Proxy{}, `p.yaml:3:7: proxy: upstreams[0]: an upstream needs a url`},
		{"zero body limit", "proxy:\n  maxBodyBytes: 0\n", Proxy{}, `p.yaml:2:17: proxy: maxBodyBytes must be a positive whole number of bytes, got "0"`},
		{"negative cache entries", "proxy:\n  prefixCacheEntries: -1\n", Proxy{}, `p.yaml:2:23: proxy: prefixCacheEntries must be a whole number of entries (0 turns the cache off), got "-1"`},
		{"zero cache bytes", "proxy:\n  prefixCacheBytes: 0\n", Proxy{}, `p.yaml:2:21: proxy: prefixCacheBytes must be a positive whole number of bytes, got "0"`},
		{"bad duration", "proxy:\n  shutdownTimeout: soon\n", Proxy{}, `p.yaml:2:20: proxy: shutdownTimeout must be a duration such as 30s or 2m, got "soon"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseProxy("p.yaml", []byte(c.doc))
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr {
					t.Fatalf("err = %v, want %s", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
			// The engine's configuration reads the same document without complaint.
			if _, _, err := Parse("p.yaml", []byte(c.doc)); err != nil {
				t.Errorf("Parse: %v", err)
			}
		})
	}
}

func ExampleParseProxy() {
	doc := []byte(`preset: default
proxy:
  listen: 127.0.0.1:8787
  upstream: https://api.anthropic.com
  upstreams:
    - {api: gemini, url: "https://generativelanguage.googleapis.com"}
`)
	p, err := ParseProxy("loopguard.yaml", doc)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Listen, p.Upstream)
	for _, u := range p.Upstreams {
		fmt.Println(u.API, "->", u.URL)
	}
	// Output:
	// 127.0.0.1:8787 https://api.anthropic.com
	// gemini -> https://generativelanguage.googleapis.com
}
