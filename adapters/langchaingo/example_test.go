package loopguardlangchaingo_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/loopguard/loopguard"
	loopguardlangchaingo "github.com/loopguard/loopguard/adapters/langchaingo"
)

// Wrapped tools add the reminder to the third identical call's observation.
func ExampleGuard_Tools() {
	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	eng, _ := loopguard.New(cfg)
	g := loopguardlangchaingo.New(eng, "run-42")
	ran := 0
	tool := g.Tools(search{&ran})[0]
	for i := 1; i <= 3; i++ {
		obs, _ := tool.Call(context.Background(), "x")
		fmt.Println(i, strings.Contains(obs, "[repeat-tool-reminder]"))
	}
	// Output:
	// 1 false
	// 2 false
	// 3 true
}
