// Command example runs a hand-written Chat Completions tool loop, guarded by loopguard, against
// a scripted model on 127.0.0.1 that keeps asking for the same search (or against the server
// at OPENAI_BASE_URL, with OPENAI_API_KEY and MODEL).
//
//	go run ./example
package main

import (
	"context"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/loopguard/loopguard"
	loopguardopenai "github.com/loopguard/loopguard/adapters/openai"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

func main() {
	base, model := os.Getenv("OPENAI_BASE_URL"), os.Getenv("MODEL")
	if base == "" {
		base, model = scriptedModel(), "stuck"
	}
	client := openai.NewClient(option.WithBaseURL(base))

	cfg, _ := loopguard.Preset(loopguard.PresetRepeatToolReminder)
	eng, err := loopguard.New(cfg)
	if err != nil {
		log.Fatal(err)
	}
	guard := loopguardopenai.New(eng, "example-conversation")
	search := func(ctx context.Context, name, args string) (string, error) { return "no results", nil }

	params := openai.ChatCompletionNewParams{Model: model, Messages: []openai.ChatCompletionMessageParamUnion{
		openai.UserMessage("When was loopguard 1.0 released?")}}
	for turn := 1; turn <= 6; turn++ {
		resp, err := client.Chat.Completions.New(context.Background(), params)
		if err != nil {
			log.Fatal(err)
		}
		msg := resp.Choices[0].Message
		if len(msg.ToolCalls) == 0 {
			fmt.Println("model:", msg.Content)
			return
		}
		add, err := guard.ChatTools(context.Background(), msg, search)
		if err != nil {
			log.Fatal(err)
		}
		params.Messages = append(append(params.Messages, msg.ToParam()), add...)
		fmt.Printf("turn %d: %s(%s); %d messages added\n", turn, msg.ToolCalls[0].Function.Name, msg.ToolCalls[0].Function.Arguments, len(add))
		if last := add[len(add)-1]; last.OfUser != nil {
			fmt.Println("  the model is told:", last.OfUser.Content.OfString.Value)
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
		fmt.Fprint(w, `{"id":"c","object":"chat.completion","created":1,"model":"stuck","choices":[{"index":0,"finish_reason":"tool_calls",
			"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search","arguments":"{\"q\":\"loopguard 1.0 release\"}"}}]}}]}`)
	}))
	return "http://" + ln.Addr().String() + "/v1"
}
