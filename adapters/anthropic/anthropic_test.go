package loopguardanthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/loopguard/loopguard"
	loopguardanthropic "github.com/loopguard/loopguard/adapters/anthropic"
)

// stuckModel is a scripted Anthropic Messages server on 127.0.0.1 that answers every request
// with the same tool_use of "search", and records the bodies it gets.
type stuckModel struct {
	mu     sync.Mutex
	bodies []string
}

func (m *stuckModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	m.mu.Lock()
	m.bodies = append(m.bodies, string(body))
	n := len(m.bodies)
	m.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"msg_%d","type":"message","role":"assistant","model":"stuck","stop_reason":"tool_use","stop_sequence":null,
		"content":[{"type":"text","text":"Let me search."},{"type":"tool_use","id":"toolu_%d","name":"search","input":{"q":"release date"}}],
		"usage":{"input_tokens":10,"output_tokens":5}}`, n, n)
}

func (m *stuckModel) sent(i int) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bodies[i]
}

func (m *stuckModel) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.bodies)
}

func client(t *testing.T, m *stuckModel) anthropic.Client {
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	return anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
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

// searchTool is a beta tool whose body counts its runs.
type searchTool struct{ ran *atomic.Int32 }

func (searchTool) Name() string        { return "search" }
func (searchTool) Description() string { return "Search the web." }
func (searchTool) InputSchema() anthropic.BetaToolInputSchemaParam {
	return anthropic.BetaToolInputSchemaParam{Properties: map[string]any{"q": map[string]any{"type": "string"}}}
}
func (s searchTool) Execute(ctx context.Context, input json.RawMessage) ([]anthropic.BetaToolResultBlockParamContentUnion, error) {
	s.ran.Add(1)
	return []anthropic.BetaToolResultBlockParamContentUnion{{OfText: &anthropic.BetaTextBlockParam{Text: "no results"}}}, nil
}

const reminderMark = "[repeat-tool-reminder]"

func TestToolRunner(t *testing.T) {
	for _, deny := range []bool{false, true} {
		t.Run(map[bool]string{false: "remind at the third call", true: "deny mode never runs the refused tool"}[deny], func(t *testing.T) {
			m := &stuckModel{}
			c := client(t, m)
			var ran atomic.Int32
			g := loopguardanthropic.New(engine(t, deny), "runner-1")
			const iterations = 13
			runner := c.Beta.Messages.NewToolRunner(g.Tools(searchTool{&ran}), anthropic.BetaToolRunnerParams{
				BetaMessageNewParams: anthropic.BetaMessageNewParams{
					Model: "stuck", MaxTokens: 100,
					Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("When was the release?"))},
				},
				MaxIterations: iterations,
				DisableThread: true, // the scripted server speaks plain Messages
			})
			runner.RunToCompletion(context.Background()) // ends with the iteration limit
			if m.count() < iterations {
				t.Fatalf("the runner sent %d requests, want %d", m.count(), iterations)
			}
			if !deny {
				if strings.Contains(m.sent(2), reminderMark) || !strings.Contains(m.sent(3), reminderMark) {
					t.Fatalf("the model must first read the reminder after the 3rd call:\n#3: %s\n#4: %s", m.sent(2), m.sent(3))
				}
				return
			}
			if limit := int32(loopguard.DefaultDSHBrake().CallDenyCount); ran.Load() != limit {
				t.Fatalf("deny mode ran the tool %d times, want %d", ran.Load(), limit)
			}
			if !strings.Contains(m.sent(iterations-1), "Error: dsh-brake:") {
				t.Fatal("the model must read the refusal")
			}
		})
	}
}

func TestHandWrittenMessagesLoop(t *testing.T) {
	for _, deny := range []bool{false, true} {
		t.Run(map[bool]string{false: "remind at the third call", true: "deny mode never runs the refused tool"}[deny], func(t *testing.T) {
			m := &stuckModel{}
			c := client(t, m)
			g := loopguardanthropic.New(engine(t, deny), "loop-1")
			ran := 0
			search := func(ctx context.Context, name string, input json.RawMessage) (string, error) {
				ran++
				return "no results", nil
			}
			params := anthropic.MessageNewParams{Model: "stuck", MaxTokens: 100,
				Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("When was the release?"))}}
			const turns = 12
			for turn := 0; turn <= turns; turn++ {
				msg, err := c.Messages.New(context.Background(), params)
				if err != nil {
					t.Fatal(err)
				}
				if turn == turns {
					break
				}
				next, err := g.ToolResults(context.Background(), msg, search)
				if err != nil {
					t.Fatal(err)
				}
				params.Messages = append(params.Messages, msg.ToParam(), next)
			}
			if !deny {
				if strings.Contains(m.sent(2), reminderMark) || !strings.Contains(m.sent(3), reminderMark) {
					t.Fatalf("the model must first read the reminder after the 3rd call:\n#3: %s\n#4: %s", m.sent(2), m.sent(3))
				}
				return
			}
			if limit := loopguard.DefaultDSHBrake().CallDenyCount; ran != limit {
				t.Fatalf("deny mode ran the tool %d times, want %d", ran, limit)
			}
			if !strings.Contains(m.sent(turns), `Error: dsh-brake:`) || !strings.Contains(m.sent(turns), `"is_error":true`) {
				t.Fatal("the model must read the refusal as an error result")
			}
		})
	}
}

func TestCancelledContextRunsNothing(t *testing.T) {
	g := loopguardanthropic.New(engine(t, false), "c")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var ran atomic.Int32
	_, err := g.Tools(searchTool{&ran})[0].Execute(ctx, json.RawMessage(`{}`))
	if err != context.Canceled || ran.Load() != 0 {
		t.Fatalf("err = %v, ran %d; want context.Canceled and no run", err, ran.Load())
	}
}
