package openaimodel_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/agent"
	"github.com/loopguard/loopguard/agent/loopguardplugin"
	"github.com/loopguard/loopguard/agent/openaimodel"
	"github.com/openai/openai-go/v3/option"
)

// wireMessage is a Chat Completions request message, as the server reads it.
type wireMessage struct {
	Role       string `json:"role"`
	Content    any    `json:"content"`
	ToolCallID string `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

type wireRequest struct {
	Model    string        `json:"model"`
	Messages []wireMessage `json:"messages"`
	Tools    []struct {
		Type     string `json:"type"`
		Function struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			Parameters  map[string]any `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

// server is a scripted Chat Completions server: it answers each request with the next
// response body and keeps the requests.
type server struct {
	t         *testing.T
	mu        sync.Mutex
	responses []string
	requests  []wireRequest
	auth      []string
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	var req wireRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	if len(s.requests) > len(s.responses) {
		http.Error(w, `{"error":{"message":"script ended","type":"server_error"}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(s.responses[len(s.requests)-1]))
}

func completion(message string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"test-model",` +
		`"choices":[{"index":0,"finish_reason":"stop","logprobs":null,"message":` + message + `}]}`
}

func toolCallResponse(id, name, args string) string {
	a, _ := json.Marshal(args)
	return completion(`{"role":"assistant","content":null,"tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"` + name + `","arguments":` + string(a) + `}}]}`)
}

func textResponse(text string) string {
	t, _ := json.Marshal(text)
	return completion(`{"role":"assistant","content":` + string(t) + `}`)
}

func newModel(t *testing.T, s *server) *openaimodel.Model {
	t.Helper()
	srv := httptest.NewServer(s) // listens on 127.0.0.1
	t.Cleanup(srv.Close)
	m, err := openaimodel.New(openaimodel.Config{
		BaseURL: srv.URL + "/v1/",
		APIKey:  "test-key",
		Model:   "test-model",
		Options: []option.RequestOption{option.WithMaxRetries(0)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A real loop, with loopguard installed, against the scripted server: three identical calls,
// then an answer. The fourth request must carry the tool results and the reminder, in the
// right roles.
func TestLoopAgainstAChatCompletionsServer(t *testing.T) {
	args := `{"pattern":"TODO"}`
	s := &server{t: t, responses: []string{
		toolCallResponse("call_a", "grep", args),
		toolCallResponse("call_b", "grep", args),
		toolCallResponse("call_c", "grep", args),
		textResponse("No TODOs left."),
	}}
	reg := agent.NewRegistry()
	err := reg.Register(agent.Tool{
		Name:        "grep",
		Description: "search the code",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"pattern":{"type":"string"}},"required":["pattern"]}`),
		Run: func(context.Context, *agent.Execution) (agent.Result, error) {
			return agent.Result{Content: "no matches"}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	loop := &agent.Loop{Model: newModel(t, s), Tools: reg}
	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	p, err := loopguardplugin.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	loop.Use(p)

	a := loop.NewAgent("s1")
	reply, err := a.Send(context.Background(),
		agent.PluginMessage("setup", agent.FormInstructions, "You are terse."),
		agent.User("Any TODOs?"))
	if err != nil {
		t.Fatal(err)
	}
	if reply.Text != "No TODOs left." {
		t.Errorf("reply %q", reply.Text)
	}

	if len(s.requests) != 4 {
		t.Fatalf("%d requests, want 4", len(s.requests))
	}
	first := s.requests[0]
	if first.Model != "test-model" || s.auth[0] != "Bearer test-key" {
		t.Errorf("model %q, authorization %q", first.Model, s.auth[0])
	}
	if len(first.Tools) != 1 || first.Tools[0].Type != "function" || first.Tools[0].Function.Name != "grep" ||
		first.Tools[0].Function.Description != "search the code" || first.Tools[0].Function.Parameters["required"] == nil {
		t.Errorf("tools sent: %+v", first.Tools)
	}
	var roles []string
	last := s.requests[3]
	for _, m := range last.Messages {
		roles = append(roles, m.Role)
	}
	want := "system user assistant tool assistant tool assistant tool user"
	if got := strings.Join(roles, " "); got != want {
		t.Fatalf("roles of the 4th request:\n got %s\nwant %s", got, want)
	}
	call := last.Messages[6]
	if len(call.ToolCalls) != 1 || call.ToolCalls[0].ID != "call_c" || call.ToolCalls[0].Type != "function" ||
		call.ToolCalls[0].Function.Name != "grep" || call.ToolCalls[0].Function.Arguments != args {
		t.Errorf("the assistant's tool call went back as %+v", call.ToolCalls)
	}
	if res := last.Messages[7]; res.ToolCallID != "call_c" || res.Content != "no matches" {
		t.Errorf("tool result sent as %+v", res)
	}
	if notice, _ := last.Messages[8].Content.(string); !strings.HasPrefix(notice, "You are repeating the exact same tool call") {
		t.Errorf("the reminder was sent as %+v", last.Messages[8])
	}
	// The session history keeps what the wire cannot: the reminder is the plugin's.
	h := a.History()
	if src := h[len(h)-2].Source; src.Kind != agent.FromPlugin || src.Summary != "grep × 3" {
		t.Errorf("history keeps the source %+v", src)
	}
}

func TestServerErrorsAreReturned(t *testing.T) {
	m := newModel(t, &server{t: t})
	_, err := m.Generate(context.Background(), []agent.Message{agent.User("hi")}, nil)
	if err == nil || !strings.Contains(err.Error(), "500") {
		t.Errorf("Generate: %v, want the server's 500", err)
	}
}

func TestNoChoicesIsAnError(t *testing.T) {
	m := newModel(t, &server{t: t, responses: []string{`{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[]}`}})
	if _, err := m.Generate(context.Background(), []agent.Message{agent.User("hi")}, nil); err == nil {
		t.Error("Generate accepted a response with no choices")
	}
}

func TestNewNeedsAModel(t *testing.T) {
	if _, err := openaimodel.New(openaimodel.Config{}); err == nil {
		t.Error("New accepted a config with no model")
	}
}
