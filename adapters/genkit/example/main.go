// Command example runs Genkit's generate loop with loopguard's model middleware, against a
// scripted model that asks for the same search on every turn, and prints the reminder the model
// reads.
//
//	go run ./example
package main

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/loopguard/loopguard"
	loopguardgenkit "github.com/loopguard/loopguard/adapters/genkit"
)

type query struct {
	Q string `json:"q"`
}

func main() {
	ctx := context.Background()
	g := genkit.Init(ctx)
	turn := 0
	model := genkit.DefineModel(g, "example/stuck", &ai.ModelOptions{Supports: &ai.ModelSupports{Tools: true, Multiturn: true}},
		func(ctx context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			if last := req.Messages[len(req.Messages)-1]; last.Role == ai.RoleUser && turn > 0 {
				fmt.Printf("  the model reads: %s\n", strings.ReplaceAll(last.Text(), "\n", " "))
			}
			turn++
			fmt.Printf("turn %d: search({\"q\":\"loopguard 1.0 release\"})\n", turn)
			return &ai.ModelResponse{Request: req, FinishReason: ai.FinishReasonStop, Message: ai.NewModelMessage(
				ai.NewToolRequestPart(&ai.ToolRequest{Name: "search", Ref: fmt.Sprint(turn), Input: map[string]any{"q": "loopguard 1.0 release"}}))}, nil
		})

	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	eng, err := loopguard.New(cfg)
	if err != nil {
		log.Fatal(err)
	}
	guard := loopguardgenkit.New(eng, "example-conversation")
	search := genkit.DefineTool(g, "search", "Search the web.", loopguardgenkit.Tool(guard, "search",
		func(tc *ai.ToolContext, in query) (string, error) { return "no results", nil }))

	_, err = genkit.Generate(ctx, g, ai.WithModel(model), ai.WithPrompt("When was loopguard 1.0 released?"),
		ai.WithTools(search), ai.WithMaxTurns(3), ai.WithMiddleware(guard.Middleware()))
	fmt.Println("the run ended:", err) // the stuck model never finishes
}
