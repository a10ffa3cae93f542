package loopguardgenkit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/loopguard/loopguard"
	loopguardgenkit "github.com/loopguard/loopguard/adapters/genkit"
)

// stuck is a scripted Genkit model: it asks for the same search on every call and records the
// conversation it is sent, as the model reads it.
type stuck struct {
	mu   sync.Mutex
	seen []string
}

func (s *stuck) generate(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
	b, _ := json.Marshal(req.Messages)
	s.mu.Lock()
	s.seen = append(s.seen, string(b))
	n := len(s.seen)
	s.mu.Unlock()
	return &ai.ModelResponse{
		Request:      req,
		FinishReason: ai.FinishReasonStop,
		Message: ai.NewModelMessage(ai.NewToolRequestPart(&ai.ToolRequest{
			Name: "search", Ref: fmt.Sprint("call_", n), Input: map[string]any{"q": "release date"}})),
	}, nil
}

func (s *stuck) request(i int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[i]
}

type query struct {
	Q string `json:"q"`
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

// run drives Genkit's own generate loop (model, tool calls, next turn) into identical calls.
func run(t *testing.T, deny bool, turns int) (*stuck, int, *ai.ModelResponse, error) {
	ctx := context.Background()
	g := genkit.Init(ctx)
	s := &stuck{}
	model := genkit.DefineModel(g, "test/stuck", &ai.ModelOptions{Supports: &ai.ModelSupports{Tools: true, Multiturn: true}}, s.generate)
	guard := loopguardgenkit.New(engine(t, deny), "genkit-1")
	ran := 0
	search := genkit.DefineTool(g, "search", "Search the web.", loopguardgenkit.Tool(guard, "search",
		func(tc *ai.ToolContext, in query) (string, error) { ran++; return "no results", nil }))
	resp, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithPrompt("When was the release?"),
		ai.WithTools(search), ai.WithMaxTurns(turns), ai.WithMiddleware(guard.Middleware()))
	return s, ran, resp, err
}

func TestGenerateLoop(t *testing.T) {
	t.Run("remind at the third call", func(t *testing.T) {
		s, ran, _, _ := run(t, false, 6) // ends with "exceeded maximum tool call iterations"
		if len(s.seen) < 5 {
			t.Fatalf("the model was called %d times", len(s.seen))
		}
		// Request i carries the results of i calls.
		if strings.Contains(s.request(2), "[repeat-tool-reminder]") || !strings.Contains(s.request(3), "[repeat-tool-reminder]") {
			t.Fatalf("the model must first read the reminder after the 3rd call:\n#3: %s\n#4: %s", s.request(2), s.request(3))
		}
		// The reminder stays where it was given: request 5 has it once, after the 3rd result.
		if strings.Count(s.request(4), "You are repeating the exact same tool call") != 1 {
			t.Fatalf("the reminder must be put back, once, on later calls:\n%s", s.request(4))
		}
		if ran != len(s.seen)-1 && ran != len(s.seen) {
			t.Fatalf("remind mode ran the tool %d times for %d model calls", ran, len(s.seen))
		}
	})
	t.Run("deny mode never runs the refused tool", func(t *testing.T) {
		s, ran, resp, err := run(t, true, 20)
		if err != nil {
			t.Fatal(err)
		}
		if limit := loopguard.DefaultDSHBrake().CallDenyCount; ran != limit {
			t.Fatalf("deny mode ran the tool %d times, want %d", ran, limit)
		}
		if resp.FinishReason != ai.FinishReasonInterrupted {
			t.Fatalf("finish reason %q, want interrupted", resp.FinishReason)
		}
		var reason string
		for _, p := range resp.Interrupts() {
			if r, ok := p.Metadata["interrupt"].(map[string]any)["loopguard"].(string); ok {
				reason = r
			}
		}
		if !strings.HasPrefix(reason, "Error: dsh-brake:") {
			t.Fatalf("the interrupt must carry the refusal, got %q (%d model calls)", reason, len(s.seen))
		}
	})
}
