package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// The `proxy:` section configures `loopguard proxy`. It is read apart from the engine's
// Config (which stays the same for every host) by ParseProxy:
//
//	proxy:
//	  listen: 127.0.0.1:8787
//	  upstream: https://api.anthropic.com        # the default upstream
//	  upstreams:                                 # more, by path prefix (removed) or by API
//	    - {prefix: /openai, url: https://api.openai.com}
//	    - {api: gemini, url: https://generativelanguage.googleapis.com}
//	  store: redis://redis:6379/0                # previous_response_id state; a fleet shares Redis
//	  maxBodyBytes: 33554432                     # larger requests get 413 (default 32 MiB)
//	  shutdownTimeout: 2m                        # how long SIGTERM waits for streams in flight
const proxyKey = "proxy"

// Proxy is the `proxy:` section. Zero fields were not set.
type Proxy struct {
	Listen          string
	Upstream        string
	Upstreams       []ProxyUpstream
	Store           string
	MaxBodyBytes    int64
	ShutdownTimeout time.Duration
	// PrefixCacheEntries bounds the in-process cache of conversation prefixes (nil: not set,
	// the proxy's default; 0: no cache). PrefixCacheBytes bounds its memory (0: not set).
	PrefixCacheEntries *int
	PrefixCacheBytes   int64
}

// ProxyUpstream is one upstream: requests whose path starts with Prefix, or that speak API
// (anthropic, chat, responses, gemini), go to URL.
type ProxyUpstream struct {
	Prefix string
	API    string
	URL    string
}

// ProxyAPIs are the API names an upstream may be chosen by.
var ProxyAPIs = []string{"anthropic", "chat", "responses", "gemini"}

var proxyKeys = []string{"listen", "upstream", "upstreams", "store", "maxBodyBytes", "shutdownTimeout", "prefixCacheEntries", "prefixCacheBytes"}

// ParseProxy reads the `proxy:` section of a configuration document; name is used in errors.
// A document without the section gives the zero Proxy.
func ParseProxy(name string, data []byte) (Proxy, error) {
	p := &parser{file: name}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return Proxy{}, nil
		}
		return Proxy{}, p.yamlError(err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return Proxy{}, nil // Parse reports what is wrong with the document
	}
	var sec *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == proxyKey {
			sec = root.Content[i+1]
		}
	}
	if sec == nil || isNull(sec) {
		return Proxy{}, nil
	}
	return p.proxy(sec)
}

// LoadProxy reads the `proxy:` section of the file at path.
func LoadProxy(path string) (Proxy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Proxy{}, err
	}
	return ParseProxy(path, data)
}

// ResolveProxy finds the `proxy:` section in the file Resolve would read (none with --preset
// or the built-in default).
func ResolveProxy(c Choice, getenv func(string) string) (Proxy, error) {
	switch {
	case c.Preset != "":
		return Proxy{}, nil
	case c.File != "":
		return LoadProxy(c.File)
	case getenv(EnvVar) != "":
		return LoadProxy(getenv(EnvVar))
	}
	if f := userFile(getenv); f != "" {
		if _, err := os.Stat(f); err == nil {
			return LoadProxy(f)
		}
	}
	return Proxy{}, nil
}

func (p *parser) proxy(v *yaml.Node) (Proxy, error) {
	const where = "proxy: "
	var out Proxy
	if v.Kind != yaml.MappingNode {
		return out, p.at(v, "%sthe section must be a mapping, got %s", where, describe(v))
	}
	pairs, err := p.entries(v, proxyKeys, where)
	if err != nil {
		return out, err
	}
	for _, kv := range pairs {
		k, val := kv[0], kv[1]
		switch k.Value {
		case "listen":
			if out.Listen, err = p.str(val, where+"listen"); err != nil {
				return out, err
			}
		case "upstream":
			if out.Upstream, err = p.url(val, where+"upstream"); err != nil {
				return out, err
			}
		case "store":
			if out.Store, err = p.str(val, where+"store"); err != nil {
				return out, err
			}
		case "maxBodyBytes":
			n, ok := integer(val)
			if !ok || n < 1 {
				return out, p.at(val, "%smaxBodyBytes must be a positive whole number of bytes, got %s", where, describe(val))
			}
			out.MaxBodyBytes = int64(n)
		case "prefixCacheEntries":
			n, ok := integer(val)
			if !ok || n < 0 {
				return out, p.at(val, "%sprefixCacheEntries must be a whole number of entries (0 turns the cache off), got %s", where, describe(val))
			}
			out.PrefixCacheEntries = &n
		case "prefixCacheBytes":
			n, ok := integer(val)
			if !ok || n < 1 {
				return out, p.at(val, "%sprefixCacheBytes must be a positive whole number of bytes, got %s", where, describe(val))
			}
			out.PrefixCacheBytes = int64(n)
		case "shutdownTimeout":
			s, err := p.str(val, where+"shutdownTimeout")
			if err != nil {
				return out, err
			}
			d, err := time.ParseDuration(s)
			if err != nil || d < 0 {
				return out, p.at(val, "%sshutdownTimeout must be a duration such as 30s or 2m, got %q", where, s)
			}
			out.ShutdownTimeout = d
		case "upstreams":
			if val.Kind != yaml.SequenceNode {
				return out, p.at(val, "%supstreams must be a list, got %s", where, describe(val))
			}
			for i, item := range val.Content {
				u, err := p.upstream(item, fmt.Sprintf("%supstreams[%d]: ", where, i))
				if err != nil {
					return out, err
				}
				out.Upstreams = append(out.Upstreams, u)
			}
		}
	}
	return out, nil
}

func (p *parser) upstream(v *yaml.Node, where string) (ProxyUpstream, error) {
	var u ProxyUpstream
	if v.Kind != yaml.MappingNode {
		return u, p.at(v, "%san upstream must be a mapping with url and prefix or api, got %s", where, describe(v))
	}
	pairs, err := p.entries(v, []string{"prefix", "api", "url"}, where)
	if err != nil {
		return u, err
	}
	for _, kv := range pairs {
		k, val := kv[0], kv[1]
		switch k.Value {
		case "prefix":
			if u.Prefix, err = p.str(val, where+"prefix"); err != nil {
				return u, err
			}
			if !strings.HasPrefix(u.Prefix, "/") || len(u.Prefix) < 2 {
				return u, p.at(val, "%sprefix must be a path such as /openai, got %q", where, u.Prefix)
			}
		case "api":
			if u.API, err = p.str(val, where+"api"); err != nil {
				return u, err
			}
			if !slices.Contains(ProxyAPIs, u.API) {
				return u, p.at(val, "%sapi must be one of %s, got %q", where, strings.Join(ProxyAPIs, ", "), u.API)
			}
		case "url":
			if u.URL, err = p.url(val, where+"url"); err != nil {
				return u, err
			}
		}
	}
	switch {
	case u.URL == "":
		return u, p.at(v, "%san upstream needs a url", where)
	case (u.Prefix == "") == (u.API == ""):
		return u, p.at(v, "%san upstream needs exactly one of prefix and api", where)
	}
	return u, nil
}

// url reads an absolute http(s) URL.
func (p *parser) url(v *yaml.Node, field string) (string, error) {
	s, err := p.str(v, field)
	if err != nil {
		return "", err
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", p.at(v, "%s must be an http:// or https:// URL, got %q", field, s)
	}
	return s, nil
}
