package loopguardgenkit_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/firebase/genkit/go/ai"
	"github.com/loopguard/loopguard"
	loopguardgenkit "github.com/loopguard/loopguard/adapters/genkit"
)

// The middleware reads the tool requests and responses in the history the model is sent; at
// the third identical call it adds the reminder as a user message.
func ExampleGuard_Middleware() {
	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	eng, _ := loopguard.New(cfg)
	g := loopguardgenkit.New(eng, "conversation-42")
	model := g.Middleware()(func(ctx context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		last := req.Messages[len(req.Messages)-1]
		fmt.Println(len(req.Messages), strings.HasPrefix(last.Text(), "[repeat-tool-reminder]"))
		return &ai.ModelResponse{}, nil
	})
	history := []*ai.Message{ai.NewUserTextMessage("When was the release?")}
	for i := 1; i <= 3; i++ {
		history = append(history,
			ai.NewModelMessage(ai.NewToolRequestPart(&ai.ToolRequest{Name: "search", Ref: fmt.Sprint(i), Input: map[string]any{"q": "x"}})),
			ai.NewMessage(ai.RoleTool, nil, ai.NewToolResponsePart(&ai.ToolResponse{Name: "search", Ref: fmt.Sprint(i), Output: "no results"})))
		model(context.Background(), &ai.ModelRequest{Messages: history}, nil)
	}
	// Output:
	// 3 false
	// 5 false
	// 8 true
}
