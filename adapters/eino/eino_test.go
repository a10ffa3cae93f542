package loopguardeino_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"
	"github.com/loopguard/loopguard"
	loopguardeino "github.com/loopguard/loopguard/adapters/eino"
)

// stuckModel is a scripted tool-calling chat model: every answer calls "search" with the same
// arguments; it records every conversation it is sent, as the model reads it.
type stuckModel struct {
	mu    sync.Mutex
	calls int
	seen  []string
}

func (m *stuckModel) Generate(ctx context.Context, input []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	var b strings.Builder
	for _, msg := range input {
		fmt.Fprintf(&b, "%s: %s\n", msg.Role, msg.Content)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seen = append(m.seen, b.String())
	m.calls++
	return schema.AssistantMessage("", []schema.ToolCall{{
		ID: fmt.Sprint("call_", m.calls), Type: "function",
		Function: schema.FunctionCall{Name: "search", Arguments: `{"q":"release date"}`},
	}}), nil
}

func (m *stuckModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, input, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

func (m *stuckModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) { return m, nil }

func (m *stuckModel) request(i int) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seen[i]
}

type search struct{ ran *atomic.Int32 }

func (search) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "search", Desc: "Search the web."}, nil
}
func (s search) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	s.ran.Add(1)
	return "no results", nil
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

// run drives eino's ReAct agent into a loop of 12 identical calls.
func run(t *testing.T, deny bool, d loopguardeino.Delivery) (*stuckModel, int32) {
	m := &stuckModel{}
	var ran atomic.Int32
	g := loopguardeino.New(engine(t, deny), "react-1", d)
	cfg := &react.AgentConfig{
		ToolCallingModel: m,
		ToolsConfig: compose.ToolsNodeConfig{
			Tools:               []tool.BaseTool{search{&ran}},
			ToolCallMiddlewares: []compose.ToolMiddleware{g.ToolMiddleware()},
		},
		MaxStep: 2*12 + 1, // a model step and a tools step per call, and the 13th model call
	}
	if d == loopguardeino.AsMessages {
		cfg.MessageRewriter = g.MessageModifier()
	}
	agent, err := react.NewAgent(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = agent.Generate(context.Background(), []*schema.Message{schema.UserMessage("When was the release?")})
	if err == nil {
		t.Fatal("the stuck agent must run out of steps")
	}
	if len(m.seen) != 13 {
		t.Fatalf("the model was called %d times, want 13 (%v)", len(m.seen), err)
	}
	return m, ran.Load()
}

func TestReActAgent(t *testing.T) {
	for _, d := range []loopguardeino.Delivery{loopguardeino.InToolResults, loopguardeino.AsMessages} {
		name := map[loopguardeino.Delivery]string{loopguardeino.InToolResults: "in tool results", loopguardeino.AsMessages: "as messages"}[d]
		t.Run("remind at the third call, "+name, func(t *testing.T) {
			m, ran := run(t, false, d)
			// Request i carries the results of i calls.
			if strings.Contains(m.request(2), "[repeat-tool-reminder]") || !strings.Contains(m.request(3), "[repeat-tool-reminder]") {
				t.Fatalf("the model must first read the reminder after the 3rd call:\n#3: %s\n#4: %s", m.request(2), m.request(3))
			}
			where := "tool: no results\n\n[repeat-tool-reminder]"
			if d == loopguardeino.AsMessages {
				where = "tool: no results\nuser: [repeat-tool-reminder]"
			}
			if !strings.Contains(m.request(3), where) {
				t.Fatalf("the reminder must come %s:\n%s", name, m.request(3))
			}
			if ran != 12 {
				t.Fatalf("remind mode ran the tool %d times, want 12", ran)
			}
		})
		t.Run("deny mode never runs the refused tool, "+name, func(t *testing.T) {
			m, ran := run(t, true, d)
			if limit := int32(loopguard.DefaultDSHBrake().CallDenyCount); ran != limit {
				t.Fatalf("deny mode ran the tool %d times, want %d", ran, limit)
			}
			if !strings.Contains(m.request(12), "tool: Error: dsh-brake:") {
				t.Fatal("the model must read the refusal as the tool's result")
			}
		})
	}
}

// eino runs a turn's tool calls in parallel: every one of them is counted.
func TestParallelCallsOfOneTurnAreAllCounted(t *testing.T) {
	eng := engine(t, false)
	g := loopguardeino.New(eng, "parallel", loopguardeino.InToolResults)
	mw := g.ToolMiddleware().Invokable(func(ctx context.Context, in *compose.ToolInput) (*compose.ToolOutput, error) {
		return &compose.ToolOutput{Result: "ok"}, nil
	})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mw(context.Background(), &compose.ToolInput{Name: "t", Arguments: "{}"})
		}()
	}
	wg.Wait()
	if s, _ := eng.Stats("parallel"); s.ConsecutiveRepeats != 8 {
		t.Fatalf("8 parallel calls counted %d times", s.ConsecutiveRepeats)
	}
}
