package loopguardlangchaingo_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/loopguard/loopguard"
	loopguardlangchaingo "github.com/loopguard/loopguard/adapters/langchaingo"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/tools"
)

// recording is langchaingo's own fake model, with every prompt it is sent kept.
type recording struct {
	*fake.LLM
	mu      sync.Mutex
	prompts []string
}

func (r *recording) GenerateContent(ctx context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	var b strings.Builder
	for _, m := range msgs {
		for _, p := range m.Parts {
			if t, ok := p.(llms.TextContent); ok {
				b.WriteString(t.Text)
			}
		}
	}
	r.mu.Lock()
	r.prompts = append(r.prompts, b.String())
	r.mu.Unlock()
	return r.LLM.GenerateContent(ctx, msgs, opts...)
}

func (r *recording) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, r, prompt, opts...)
}

// stuck answers every turn with the same action, in the one-shot agent's format.
func stuck() *recording {
	return &recording{LLM: fake.NewFakeLLM([]string{"I should search.\nAction: search\nAction Input: release date"})}
}

type search struct{ ran *int }

func (search) Name() string        { return "search" }
func (search) Description() string { return "Search the web." }
func (s search) Call(ctx context.Context, input string) (string, error) {
	*s.ran++
	return "no results for " + input, nil
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

func TestExecutorLoop(t *testing.T) {
	for _, deny := range []bool{false, true} {
		t.Run(map[bool]string{false: "remind at the third call", true: "deny mode never runs the refused tool"}[deny], func(t *testing.T) {
			llm := stuck()
			ran := 0
			g := loopguardlangchaingo.New(engine(t, deny), "executor-1")
			const iterations = 13
			agent := agents.NewOneShotAgent(llm, g.Tools(search{&ran}), agents.WithMaxIterations(iterations))
			exec := agents.NewExecutor(agent, agents.WithMaxIterations(iterations), agents.WithCallbacksHandler(g.Callbacks()))
			_, err := chains.Run(context.Background(), exec, "When was the release?")
			if err == nil {
				t.Fatal("the stuck agent must run out of iterations")
			}
			if len(llm.prompts) != iterations {
				t.Fatalf("the model was asked %d times, want %d", len(llm.prompts), iterations)
			}
			if !deny {
				// Prompt i carries the observations of i calls.
				if strings.Contains(llm.prompts[2], "[repeat-tool-reminder]") || !strings.Contains(llm.prompts[3], "[repeat-tool-reminder]") {
					t.Fatalf("the model must first read the reminder after the 3rd call:\n#3: %s\n#4: %s", llm.prompts[2], llm.prompts[3])
				}
				return
			}
			if limit := loopguard.DefaultDSHBrake().CallDenyCount; ran != limit {
				t.Fatalf("deny mode ran the tool %d times, want %d", ran, limit)
			}
			if !strings.Contains(llm.prompts[iterations-1], "Error: dsh-brake:") {
				t.Fatal("the model must read the refusal")
			}
		})
	}
}

func TestCancelledContextRunsNothing(t *testing.T) {
	ran := 0
	g := loopguardlangchaingo.New(engine(t, false), "c")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Tools(search{&ran})[0].Call(ctx, "x"); err != context.Canceled || ran != 0 {
		t.Fatalf("err = %v, ran %d; want context.Canceled and no run", err, ran)
	}
}

var _ tools.Tool = search{}
