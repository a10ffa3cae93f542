package loopguardopenai_test

import (
	"context"
	"fmt"

	"github.com/loopguard/loopguard"
	loopguardopenai "github.com/loopguard/loopguard/adapters/openai"
)

// One agent's tool calls go through Guard.Call; the third identical call brings a reminder.
// ChatTools and ResponsesTools do the same for a whole model answer.
func ExampleGuard_Call() {
	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	eng, _ := loopguard.New(cfg)
	g := loopguardopenai.New(eng, "conversation-42")
	search := func(ctx context.Context, name, args string) (string, error) { return "no results", nil }
	for i := 1; i <= 3; i++ {
		result, notices, _ := g.Call(context.Background(), "search", `{"q":"x"}`, search)
		fmt.Println(i, result, len(notices))
	}
	// Output:
	// 1 no results 0
	// 2 no results 0
	// 3 no results 1
}
