package loopguardeino_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/compose"
	"github.com/loopguard/loopguard"
	loopguardeino "github.com/loopguard/loopguard/adapters/eino"
)

// The middleware wraps a tool endpoint; the third identical call's result carries the reminder.
func ExampleGuard_ToolMiddleware() {
	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	eng, _ := loopguard.New(cfg)
	g := loopguardeino.New(eng, "run-42", loopguardeino.InToolResults)
	endpoint := g.ToolMiddleware().Invokable(func(ctx context.Context, in *compose.ToolInput) (*compose.ToolOutput, error) {
		return &compose.ToolOutput{Result: "no results"}, nil
	})
	for i := 1; i <= 3; i++ {
		out, _ := endpoint(context.Background(), &compose.ToolInput{Name: "search", Arguments: `{"q":"x"}`})
		fmt.Println(i, strings.Contains(out.Result, "[repeat-tool-reminder]"))
	}
	// Output:
	// 1 false
	// 2 false
	// 3 true
}
