// Command example runs the Anthropic SDK's beta tool runner with its tools guarded by loopguard,
// against a scripted model on 127.0.0.1 that keeps asking for the same search (or against
// ANTHROPIC_BASE_URL with ANTHROPIC_API_KEY and MODEL).
//
//	go run ./example
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/loopguard/loopguard"
	loopguardanthropic "github.com/loopguard/loopguard/adapters/anthropic"
)

type search struct{}

func (search) Name() string        { return "search" }
func (search) Description() string { return "Search the web." }
func (search) InputSchema() anthropic.BetaToolInputSchemaParam {
	return anthropic.BetaToolInputSchemaParam{Properties: map[string]any{"q": map[string]any{"type": "string"}}}
}
func (search) Execute(ctx context.Context, input json.RawMessage) ([]anthropic.BetaToolResultBlockParamContentUnion, error) {
	return []anthropic.BetaToolResultBlockParamContentUnion{{OfText: &anthropic.BetaTextBlockParam{Text: "no results"}}}, nil
}

func main() {
	base, model, scripted := os.Getenv("ANTHROPIC_BASE_URL"), os.Getenv("MODEL"), false
	if base == "" {
		base, model, scripted = scriptedModel(), "stuck", true
	}
	opts := []option.RequestOption{option.WithBaseURL(base)}
	if scripted {
		opts = append(opts, option.WithAPIKey("scripted")) // the scripted model needs no key
	}
	client := anthropic.NewClient(opts...)

	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	eng, err := loopguard.New(cfg)
	if err != nil {
		log.Fatal(err)
	}
	guard := loopguardanthropic.New(eng, "example-run")
	runner := client.Beta.Messages.NewToolRunner(guard.Tools(search{}), anthropic.BetaToolRunnerParams{
		BetaMessageNewParams: anthropic.BetaMessageNewParams{
			Model: anthropic.Model(model), MaxTokens: 1024,
			Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("When was loopguard 1.0 released?"))},
		},
		MaxIterations: 4,
		DisableThread: scripted, // the scripted model speaks plain Messages only
	})
	for msg, err := range runner.All(context.Background()) {
		if err != nil {
			log.Fatal(err)
		}
		for _, b := range msg.Content {
			if b.Type == "tool_use" {
				fmt.Printf("model calls %s(%s)\n", b.Name, b.Input)
			}
		}
	}
	// What the model read: each tool result turn, with the reminder block where one was due.
	for _, m := range runner.Params.Messages {
		if m.OfUser != nil {
			out, _ := json.Marshal(m)
			fmt.Printf("the model read: %s\n", out)
		}
	}
}

// scriptedModel serves a model on 127.0.0.1 that asks for the same search on every turn.
func scriptedModel() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"msg_1","type":"message","role":"assistant","model":"stuck","stop_reason":"tool_use","stop_sequence":null,
			"content":[{"type":"tool_use","id":"toolu_1","name":"search","input":{"q":"loopguard 1.0 release"}}],"usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	return "http://" + ln.Addr().String()
}
