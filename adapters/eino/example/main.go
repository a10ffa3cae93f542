// Command example runs eino's ReAct agent with its tools guarded by loopguard, against a
// scripted chat model that asks for the same search on every turn, and prints what the model
// read after each call.
//
//	go run ./example
package main

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"
	"github.com/loopguard/loopguard"
	loopguardeino "github.com/loopguard/loopguard/adapters/eino"
)

// stuck is a scripted model: it calls search with the same arguments every turn, and prints
// the newest message it is given.
type stuck struct{ turn int }

func (m *stuck) Generate(_ context.Context, in []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	if last := in[len(in)-1]; last.Role == schema.Tool {
		fmt.Printf("  the model reads: %s\n", strings.ReplaceAll(last.Content, "\n", " "))
	}
	m.turn++
	fmt.Printf("turn %d: search({\"q\":\"loopguard 1.0 release\"})\n", m.turn)
	return schema.AssistantMessage("", []schema.ToolCall{{ID: fmt.Sprint("call_", m.turn), Type: "function",
		Function: schema.FunctionCall{Name: "search", Arguments: `{"q":"loopguard 1.0 release"}`}}}), nil
}
func (m *stuck) Stream(ctx context.Context, in []*schema.Message, o ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, in, o...)
	return schema.StreamReaderFromArray([]*schema.Message{msg}), err
}
func (m *stuck) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) { return m, nil }

type search struct{}

func (search) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "search", Desc: "Search the web."}, nil
}
func (search) InvokableRun(context.Context, string, ...tool.Option) (string, error) {
	return "no results", nil
}

func main() {
	ctx := context.Background()
	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	eng, err := loopguard.New(cfg)
	if err != nil {
		log.Fatal(err)
	}
	guard := loopguardeino.New(eng, "example-run", loopguardeino.InToolResults)
	agent, err := react.NewAgent(ctx, &react.AgentConfig{
		ToolCallingModel: &stuck{},
		ToolsConfig: compose.ToolsNodeConfig{
			Tools:               []tool.BaseTool{search{}},
			ToolCallMiddlewares: []compose.ToolMiddleware{guard.ToolMiddleware()},
		},
		MessageRewriter: guard.MessageModifier(), // feeds the model's text; notices of it as messages
		MaxStep:         8,
	})
	if err != nil {
		log.Fatal(err)
	}
	_, err = agent.Generate(ctx, []*schema.Message{schema.UserMessage("When was loopguard 1.0 released?")})
	fmt.Println("the run ended:", err) // the stuck model never finishes
}
