package loopguardopenai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/loopguard/loopguard"
	loopguardopenai "github.com/loopguard/loopguard/adapters/openai"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

// stuckModel is a scripted OpenAI server on 127.0.0.1: it answers every request with the same
// call of the tool "search" (Chat Completions and Responses), and records the bodies it gets.
type stuckModel struct {
	mu     sync.Mutex
	bodies []string
	n      int
}

func (m *stuckModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	m.mu.Lock()
	m.bodies = append(m.bodies, string(body))
	m.n++
	n := m.n
	m.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/v1/chat/completions":
		fmt.Fprintf(w, `{"id":"c%d","object":"chat.completion","created":1,"model":"stuck","choices":[{"index":0,"finish_reason":"tool_calls",
			"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_%d","type":"function","function":{"name":"search","arguments":"{\"q\":\"release date\"}"}}]}}]}`, n, n)
	case "/v1/responses":
		fmt.Fprintf(w, `{"id":"r%d","object":"response","created_at":1,"model":"stuck","status":"completed","output":[
			{"type":"function_call","id":"fc%d","call_id":"call_%d","name":"search","arguments":"{\"q\":\"release date\"}","status":"completed"}]}`, n, n, n)
	default:
		http.NotFound(w, r)
	}
}

// sent returns the body of request i (0-based).
func (m *stuckModel) sent(i int) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bodies[i]
}

func client(t *testing.T, m *stuckModel) openai.Client {
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	return openai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("test"), option.WithMaxRetries(0))
}

func engine(t *testing.T, deny bool) *loopguard.Engine {
	name := loopguard.PresetRepeatToolReminder
	if deny {
		name = loopguard.PresetDSHBrake
	}
	cfg, err := loopguard.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	if deny {
		cfg.DSHBrake.Mode = loopguard.ModeDeny
	}
	eng, err := loopguard.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// The reminder the model must read at the third identical call.
const reminderMark = "[repeat-tool-reminder]"

func TestChatCompletionsLoop(t *testing.T) {
	for _, deny := range []bool{false, true} {
		t.Run(map[bool]string{false: "remind at the third call", true: "deny mode never runs the refused tool"}[deny], func(t *testing.T) {
			m := &stuckModel{}
			c := client(t, m)
			g := loopguardopenai.New(engine(t, deny), "chat-1")
			ran := 0
			search := func(ctx context.Context, name, args string) (string, error) { ran++; return "no results", nil }
			params := openai.ChatCompletionNewParams{
				Model:    "stuck",
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("When was the release?")},
			}
			const turns = 12
			for turn := 1; turn <= turns; turn++ {
				resp, err := c.Chat.Completions.New(context.Background(), params)
				if err != nil {
					t.Fatal(err)
				}
				msg := resp.Choices[0].Message
				add, err := g.ChatTools(context.Background(), msg, search)
				if err != nil {
					t.Fatal(err)
				}
				params.Messages = append(append(params.Messages, msg.ToParam()), add...)
			}
			c.Chat.Completions.New(context.Background(), params) // the model reads the last turn
			if !deny {
				// Request i carries the results of i calls: the 3rd carries the reminder, the 2nd not.
				if strings.Contains(m.sent(2), reminderMark) || !strings.Contains(m.sent(3), reminderMark) {
					t.Fatalf("the model must first read the reminder after the 3rd call:\n#3: %s\n#4: %s", m.sent(2), m.sent(3))
				}
				if ran != turns {
					t.Fatalf("remind mode ran the tool %d times, want %d", ran, turns)
				}
				return
			}
			limit := loopguard.DefaultDSHBrake().CallDenyCount
			if ran != limit {
				t.Fatalf("deny mode ran the tool %d times, want %d (refused from then on)", ran, limit)
			}
			if last := m.sent(turns); !strings.Contains(last, `Error: dsh-brake:`) {
				t.Fatalf("the model must read the refusal:\n%s", last)
			}
		})
	}
}

func TestResponsesLoop(t *testing.T) {
	for _, deny := range []bool{false, true} {
		t.Run(map[bool]string{false: "remind at the third call", true: "deny mode never runs the refused tool"}[deny], func(t *testing.T) {
			m := &stuckModel{}
			c := client(t, m)
			g := loopguardopenai.New(engine(t, deny), "resp-1")
			ran := 0
			search := func(ctx context.Context, name, args string) (string, error) { ran++; return "no results", nil }
			input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage("When was the release?", responses.EasyInputMessageRoleUser)}
			const turns = 12
			for turn := 0; turn <= turns; turn++ {
				resp, err := c.Responses.New(context.Background(), responses.ResponseNewParams{
					Model: "stuck", Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input},
				})
				if err != nil {
					t.Fatal(err)
				}
				if turn == turns {
					break
				}
				for _, o := range resp.Output {
					if o.Type == "function_call" {
						input = append(input, responses.ResponseInputItemParamOfFunctionCall(o.Arguments.OfString, o.CallID, o.Name))
					}
				}
				add, err := g.ResponsesTools(context.Background(), resp, search)
				if err != nil {
					t.Fatal(err)
				}
				input = append(input, add...)
			}
			if !deny {
				if strings.Contains(m.sent(2), reminderMark) || !strings.Contains(m.sent(3), reminderMark) {
					t.Fatalf("the model must first read the reminder after the 3rd call:\n#3: %s\n#4: %s", m.sent(2), m.sent(3))
				}
				var req struct{ Input []map[string]any }
				json.Unmarshal([]byte(m.sent(3)), &req)
				if last := req.Input[len(req.Input)-1]; last["role"] != "developer" {
					t.Fatalf("the notices must come as a developer message after the outputs, got %v", last)
				}
				return
			}
			if limit := loopguard.DefaultDSHBrake().CallDenyCount; ran != limit {
				t.Fatalf("deny mode ran the tool %d times, want %d", ran, limit)
			}
			if !strings.Contains(m.sent(turns), `Error: dsh-brake:`) {
				t.Fatal("the model must read the refusal")
			}
		})
	}
}

func TestCancelledContextRunsNothing(t *testing.T) {
	g := loopguardopenai.New(engine(t, false), "c")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := g.Call(ctx, "search", "{}", func(context.Context, string, string) (string, error) {
		t.Fatal("the tool ran under a cancelled context")
		return "", nil
	})
	if err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestAgentsAreCountedApartConcurrently(t *testing.T) {
	eng := engine(t, false)
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(g *loopguardopenai.Guard) {
			defer wg.Done()
			for call := 1; call <= 3; call++ {
				_, ns, _ := g.Call(context.Background(), "t", "{}", func(context.Context, string, string) (string, error) { return "ok", nil })
				if (len(ns) > 0) != (call == 3) {
					t.Errorf("%s call %d: notices %v", g.Agent(), call, ns)
				}
			}
		}(loopguardopenai.New(eng, fmt.Sprint("agent-", i)))
	}
	wg.Wait()
}
