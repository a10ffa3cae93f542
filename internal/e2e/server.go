// Package e2e drives the real agent CLIs (Claude Code, Codex CLI, Gemini CLI,
// installed by scripts/install-agent-clis.sh) against a scripted model server
// that listens on 127.0.0.1, so that hooks can be tested end to end.
//
// The server speaks just enough of three model APIs:
//
//   - Anthropic Messages (POST /v1/messages, SSE; HEAD /; count_tokens),
//   - OpenAI Responses as Codex uses it (POST /v1/responses, SSE),
//   - Gemini (POST /v1beta/models/M:streamGenerateContent?alt=sse,
//     :generateContent, :countTokens).
//
// Its default script is "keep asking for the same shell command": while the
// conversation it is sent holds fewer than Script.ToolTurns tool results, it
// answers with one call of the client's shell tool running Script.Command;
// then it answers with Script.FinalText. Every request is recorded, parsed into
// a provider-neutral list of Items, so tests can assert what the model saw.
package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// API names a model API the server speaks.
type API string

const (
	APIAnthropic API = "anthropic"        // Anthropic Messages
	APIResponses API = "openai-responses" // OpenAI Responses
	APIGemini    API = "gemini"           // Gemini generateContent
)

// Kind classifies a recorded request.
type Kind string

const (
	// KindAgent is a model request of the agent loop: it offers tools.
	KindAgent Kind = "agent"
	// KindSide is a model request without tools (title generation, a
	// next-speaker check, a JSON-schema classification, ...).
	KindSide Kind = "side"
	// KindCountTokens is a token-count request.
	KindCountTokens Kind = "count_tokens"
	// KindOther is anything else (HEAD /, GET /v1/models, unknown paths).
	KindOther Kind = "other"
)

// Item is one element of the conversation a model request carries, in a
// provider-neutral form.
type Item struct {
	// Role is "system", "developer", "user", "assistant" or "tool".
	Role string
	// Type is "instructions" (the request's top-level system prompt:
	// Anthropic "system", Responses "instructions", Gemini
	// "systemInstruction"), "text", "tool_call" or "tool_result". A text
	// item may have Role "system": Claude Code sends hook context as a
	// role "system" message between the turns.
	Type string
	// Text is the text; for a tool call its arguments (JSON); for a tool
	// result its output as the model sees it (text parts joined by "\n").
	Text string
	// ToolName is the tool's name for tool calls (and for Gemini tool results).
	ToolName string
	// CallID links a tool call and its result (empty where the API has none).
	CallID string
	// IsError is set on tool results that the client marked as errors.
	IsError bool
}

// Reply is what the scripted model answers to an agent request: either one
// tool call (ToolName set) or plain text.
type Reply struct {
	Text      string
	ToolName  string
	ToolInput map[string]any
	// Namespace is the Responses API tool namespace of ToolName (Codex's
	// multi_agent_v1 tools spawn_agent, wait_agent, ...); other APIs ignore it.
	Namespace string
	// CallID is filled in by the server (unique per reply).
	CallID string
}

// Request is one recorded HTTP request.
type Request struct {
	Seq      int // 1-based order of arrival
	Time     time.Time
	Method   string
	Path     string
	RawQuery string
	Header   http.Header
	Body     []byte

	API    API  // empty for KindOther
	Kind   Kind // see Kind
	Model  string
	Stream bool
	// Tools lists the names of the tools the request offers.
	Tools []string
	// Items is the parsed conversation (instructions first, if any).
	Items []Item
	// Reply is what the server answered (agent and side requests).
	Reply *Reply
	// JSON is the decoded body (nil if it was not JSON).
	JSON map[string]any

	committed bool // published in Server.reqs (guarded by Server.mu)
}

// ToolResults returns the tool results in the request's conversation, oldest first.
func (r *Request) ToolResults() []Item { return r.itemsOfType("tool_result") }

// ToolCalls returns the tool calls in the request's conversation, oldest first.
func (r *Request) ToolCalls() []Item { return r.itemsOfType("tool_call") }

func (r *Request) itemsOfType(t string) []Item {
	var out []Item
	for _, it := range r.Items {
		if it.Type == t {
			out = append(out, it)
		}
	}
	return out
}

// TurnToolResults returns the tool results of the current user turn: those
// after the last assistant text (the scripted model answers a turn with
// tool calls only, then one text, so an assistant text ends a turn).
func (r *Request) TurnToolResults() []Item {
	start := 0
	for i, it := range r.Items {
		if it.Role == "assistant" && it.Type == "text" && strings.TrimSpace(it.Text) != "" {
			start = i + 1
		}
	}
	var out []Item
	for _, it := range r.Items[start:] {
		if it.Type == "tool_result" {
			out = append(out, it)
		}
	}
	return out
}

// HasTool reports whether the request offers a tool of that name.
func (r *Request) HasTool(name string) bool {
	for _, t := range r.Tools {
		if t == name {
			return true
		}
	}
	return false
}

// Count returns how many times s occurs in the texts of the request's
// conversation (text items of any role and tool results; tool-call
// arguments and the top-level instructions excluded). Unlike a search of the raw body it sees decoded
// text, so JSON escaping does not matter.
func (r *Request) Count(s string) int {
	n := 0
	for _, it := range r.Items {
		if it.Type == "instructions" || it.Type == "tool_call" {
			continue
		}
		n += strings.Count(it.Text, s)
	}
	return n
}

// CountAll is like Count but also searches the instructions and tool-call
// arguments.
func (r *Request) CountAll(s string) int {
	n := 0
	for _, it := range r.Items {
		n += strings.Count(it.Text, s)
	}
	return n
}

// ItemsAfterToolResult returns the items that follow the n-th (1-based) tool
// result in the conversation, up to the next assistant item. That is where a
// client puts what it adds to a tool result (Claude Code's system-reminder
// text block, Codex's developer message; Gemini puts it inside the result).
func (r *Request) ItemsAfterToolResult(n int) []Item {
	seen := 0
	for i, it := range r.Items {
		if it.Type != "tool_result" {
			continue
		}
		seen++
		if seen != n {
			continue
		}
		var out []Item
		for _, next := range r.Items[i+1:] {
			if next.Role == "assistant" || next.Type == "tool_result" {
				break
			}
			out = append(out, next)
		}
		return out
	}
	return nil
}

// FirstUserText returns the text of the first user text item.
func (r *Request) FirstUserText() string {
	for _, it := range r.Items {
		if it.Role == "user" && it.Type == "text" {
			return it.Text
		}
	}
	return ""
}

// Script says what the scripted model does.
type Script struct {
	// Command is the shell command the model asks to run on each tool turn.
	Command string
	// ToolTurns is how many tool calls the model makes in each user turn
	// before its final answer: it counts the tool results after the last
	// assistant text in the conversation it is sent (TurnToolResults).
	ToolTurns int
	// FinalText is the final answer (default "E2E-DONE").
	FinalText string
	// SideText answers model requests that offer no tools (default "E2E side reply").
	SideText string
	// Decide, if set, is asked first for every agent request; a non-nil
	// Reply overrides the default script. The request is fully parsed.
	Decide func(r *Request) *Reply
}

// Server is a scripted model server on 127.0.0.1.
type Server struct {
	// URL is the base URL, http://127.0.0.1:PORT (no trailing slash).
	URL string

	script Script
	srv    *http.Server
	ln     net.Listener
	ids    atomic.Int64
	seq    atomic.Int64

	mu   sync.Mutex
	reqs []*Request
	errs []string
}

// NewServer starts a scripted model server and stops it when the test ends.
// If the environment variable E2E_DUMP_DIR is set, every recorded request is
// also written there (one JSON file each) when the test ends.
func NewServer(t testing.TB, script Script) *Server {
	t.Helper()
	s, err := StartServer(script)
	if err != nil {
		t.Fatalf("start model server: %v", err)
	}
	t.Cleanup(func() {
		s.Close()
		if dir := os.Getenv("E2E_DUMP_DIR"); dir != "" {
			if err := s.Dump(filepath.Join(dir, sanitizeName(t.Name()))); err != nil {
				t.Logf("dump requests: %v", err)
			}
		}
		for _, e := range s.Errors() {
			t.Errorf("model server: %s", e)
		}
	})
	return s
}

// StartServer starts a scripted model server; the caller must Close it.
func StartServer(script Script) (*Server, error) {
	if script.FinalText == "" {
		script.FinalText = "E2E-DONE"
	}
	if script.SideText == "" {
		script.SideText = "E2E side reply"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{script: script, ln: ln, URL: "http://" + ln.Addr().String()}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns every request received so far, in order of arrival
// (a request shows up once the server has decided its answer).
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.reqs...)
}

// AgentRequests returns the agent-loop model requests (those offering tools).
func (s *Server) AgentRequests() []*Request {
	var out []*Request
	for _, r := range s.Requests() {
		if r.Kind == KindAgent {
			out = append(out, r)
		}
	}
	return out
}

// RequestAfterToolResults returns the first agent request whose conversation
// holds exactly n tool results (for n >= 1: the request that carried the
// n-th tool result back to the model), or nil.
func (s *Server) RequestAfterToolResults(n int) *Request {
	for _, r := range s.AgentRequests() {
		if len(r.ToolResults()) == n {
			return r
		}
	}
	return nil
}

// LastAgentRequest returns the last agent request, or nil.
func (s *Server) LastAgentRequest() *Request {
	a := s.AgentRequests()
	if len(a) == 0 {
		return nil
	}
	return a[len(a)-1]
}

// Errors returns protocol problems the server noticed (bad JSON, unknown
// model endpoints, ...). NewServer reports them as test errors.
func (s *Server) Errors() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.errs...)
}

// Summary returns one line per request, for test logs.
func (s *Server) Summary() string {
	var b strings.Builder
	reqs := s.Requests()
	for _, r := range reqs {
		fmt.Fprintf(&b, "#%d +%.2fs %s %s", r.Seq, r.Time.Sub(reqs[0].Time).Seconds(), r.Method, r.Path)
		if r.RawQuery != "" {
			fmt.Fprintf(&b, "?%s", r.RawQuery)
		}
		fmt.Fprintf(&b, " kind=%s", r.Kind)
		if r.Model != "" {
			fmt.Fprintf(&b, " model=%s", r.Model)
		}
		if r.Kind == KindAgent {
			fmt.Fprintf(&b, " tools=%d results=%d", len(r.Tools), len(r.ToolResults()))
		}
		if r.Reply != nil {
			if r.Reply.ToolName != "" {
				fmt.Fprintf(&b, " -> %s(%s)", r.Reply.ToolName, r.Reply.CallID)
			} else {
				fmt.Fprintf(&b, " -> text %q", truncate(r.Reply.Text, 40))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Dump writes every recorded request to dir as NNN-<path>.json.
func (s *Server) Dump(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, r := range s.Requests() {
		rec := map[string]any{
			"method": r.Method, "path": r.Path, "query": r.RawQuery,
			"header": r.Header, "kind": r.Kind, "api": r.API, "reply": r.Reply,
		}
		if r.JSON != nil {
			rec["body"] = r.JSON
		} else {
			rec["body_raw"] = string(r.Body)
		}
		data, err := json.MarshalIndent(rec, "", "  ")
		if err != nil {
			return err
		}
		name := fmt.Sprintf("%03d-%s.json", r.Seq, sanitizeName(r.Method+r.Path))
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) errorf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errs = append(s.errs, fmt.Sprintf(format, args...))
}

// nextID returns a new id, unique within this server.
func (s *Server) nextID() int64 { return s.ids.Add(1) }

// ServeHTTP records the request and routes it by path.
func (s *Server) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	body, err := io.ReadAll(hr.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r := &Request{
		Time:     time.Now(),
		Method:   hr.Method,
		Path:     hr.URL.Path,
		RawQuery: hr.URL.RawQuery,
		Header:   hr.Header.Clone(),
		Body:     body,
		Kind:     KindOther,
	}
	if len(bytes.TrimSpace(body)) > 0 {
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			r.JSON = m
		}
	}
	// Numbered on arrival; published (visible to Requests) once the handler
	// has parsed it and decided the reply, so that a published Request is
	// never written again.
	r.Seq = int(s.seq.Add(1))
	defer s.commit(r)

	p := hr.URL.Path
	switch {
	case hr.Method == http.MethodHead || (hr.Method == http.MethodGet && (p == "/" || p == "")):
		w.WriteHeader(http.StatusOK)
	case hr.Method == http.MethodPost && strings.HasSuffix(p, "/messages/count_tokens"):
		s.anthropicCountTokens(w, r)
	case hr.Method == http.MethodPost && strings.HasSuffix(p, "/messages"):
		s.anthropicMessages(w, r)
	case hr.Method == http.MethodPost && strings.HasSuffix(p, "/chat/completions"):
		s.chatCompletions(w, r)
	case hr.Method == http.MethodPost && strings.HasSuffix(p, "/responses"):
		s.responses(w, r)
	case hr.Method == http.MethodPost && strings.Contains(p, "/models/") && strings.Contains(p, ":"):
		s.gemini(w, r)
	case hr.Method == http.MethodGet && strings.HasSuffix(p, "/models"):
		// Model listing (Codex refreshes it for some providers): an empty
		// list makes clients fall back to their built-in model metadata.
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{}, "models": []any{}})
	default:
		http.NotFound(w, hr)
	}
}

// decide runs the script for a parsed agent request.
func (s *Server) decide(r *Request, shell func(r *Request, cmd string) *Reply) *Reply {
	if s.script.Decide != nil {
		if rep := s.script.Decide(r); rep != nil {
			return rep
		}
	}
	if len(r.TurnToolResults()) < s.script.ToolTurns {
		if rep := shell(r, s.script.Command); rep != nil {
			return rep
		}
		s.errorf("request #%d offers no known shell tool (tools: %v)", r.Seq, r.Tools)
	}
	return &Reply{Text: s.script.FinalText}
}

// answer numbers rep, gives a tool call its id (callIDFormat with the number, in the API's
// style), records rep as r's reply and publishes r, before the reply is written, so that a
// test that saw the answer also sees the request. It returns the number, for the response's
// other ids.
func (s *Server) answer(r *Request, rep *Reply, callIDFormat string) int64 {
	id := s.nextID()
	if rep.ToolName != "" {
		rep.CallID = fmt.Sprintf(callIDFormat, id)
	}
	r.Reply = rep
	s.commit(r)
	return id
}

// commit publishes r (once), keeping the list in order of arrival.
func (s *Server) commit(r *Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.committed {
		return
	}
	r.committed = true
	i := sort.Search(len(s.reqs), func(i int) bool { return s.reqs[i].Seq > r.Seq })
	s.reqs = slices.Insert(s.reqs, i, r)
}

// --- small helpers ---

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// sse writes server-sent events and flushes after each.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Connection", "keep-alive")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return &sse{w: w, f: f}
}

// event writes one event; name may be empty (data-only events).
func (e *sse) event(name string, data any) {
	if name != "" {
		fmt.Fprintf(e.w, "event: %s\n", name)
	}
	fmt.Fprintf(e.w, "data: %s\n\n", mustJSON(data))
	if e.f != nil {
		e.f.Flush()
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func sanitizeName(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
			b.WriteRune(c)
		default:
			b.WriteByte('_')
		}
	}
	return strings.Trim(b.String(), "_")
}

// estimateTokens is a rough token count (4 bytes a token) for usage fields.
func estimateTokens(n int) int {
	if n < 4 {
		return 1
	}
	return n / 4
}

// str returns m[k] as a string ("" if absent or not a string).
func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// list returns m[k] as a slice.
func list(m map[string]any, k string) []any {
	l, _ := m[k].([]any)
	return l
}

// obj returns m[k] as an object.
func obj(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}

// mustJSON marshals v (which cannot fail for the values used here),
// without Go's HTML escaping of <, > and &, as the real APIs send them.
func mustJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
