package loopguardanthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/loopguard/loopguard"
	loopguardanthropic "github.com/loopguard/loopguard/adapters/anthropic"
)

// A hand-written Messages loop hands each assistant message to ToolResults and sends back the
// user message it returns; the third identical call brings a reminder block.
func ExampleGuard_ToolResults() {
	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	eng, _ := loopguard.New(cfg)
	g := loopguardanthropic.New(eng, "conversation-42")
	var msg anthropic.Message
	json.Unmarshal([]byte(`{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"search","input":{"q":"x"}}]}`), &msg)
	run := func(ctx context.Context, name string, input json.RawMessage) (string, error) {
		return "no results", nil
	}
	for i := 1; i <= 3; i++ {
		next, _ := g.ToolResults(context.Background(), &msg, run)
		b, _ := json.Marshal(next)
		fmt.Println(i, strings.Contains(string(b), "tool_result"), strings.Contains(string(b), "system-reminder"))
	}
	// Output:
	// 1 true false
	// 2 true false
	// 3 true true
}
