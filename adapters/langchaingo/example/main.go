// Command example runs langchaingo's one-shot agent executor with its tool guarded by
// loopguard, against langchaingo's own fake model scripted to ask for the same search on every
// turn, and prints what the tool's observations told the model.
//
//	go run ./example
package main

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/loopguard/loopguard"
	loopguardlangchaingo "github.com/loopguard/loopguard/adapters/langchaingo"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/schema"
)

type search struct{}

func (search) Name() string                                       { return "search" }
func (search) Description() string                                { return "Search the web." }
func (search) Call(ctx context.Context, q string) (string, error) { return "no results for " + q, nil }

func main() {
	llm := fake.NewFakeLLM([]string{"I should search.\nAction: search\nAction Input: loopguard 1.0 release"})

	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	eng, err := loopguard.New(cfg)
	if err != nil {
		log.Fatal(err)
	}
	guard := loopguardlangchaingo.New(eng, "example-run")
	agent := agents.NewOneShotAgent(llm, guard.Tools(search{}))
	exec := agents.NewExecutor(agent, agents.WithMaxIterations(4), agents.WithReturnIntermediateSteps(),
		agents.WithCallbacksHandler(guard.Callbacks()))

	out, err := exec.Call(context.Background(), map[string]any{"input": "When was loopguard 1.0 released?"})
	fmt.Println("the run ended:", err) // the stuck model never finishes
	steps, _ := out["intermediateSteps"].([]schema.AgentStep)
	for i, s := range steps {
		fmt.Printf("call %d: %s(%s)\n  observation: %s\n", i+1, s.Action.Tool, s.Action.ToolInput, strings.ReplaceAll(s.Observation, "\n", " "))
	}
}
