// Package openaimodel is an agent.Model for OpenAI-compatible Chat Completions APIs: OpenAI
// itself, and the many servers that speak the same protocol (vLLM, llama.cpp, Ollama,
// DeepSeek, OpenRouter…), chosen by base URL.
//
//	m, err := openaimodel.New(openaimodel.Config{BaseURL: "http://127.0.0.1:8000/v1", Model: "qwen3"})
//	loop := &agent.Loop{Model: m, Tools: reg}
//
// How messages are sent: the user's messages and plugin messages go in the user role (a
// plugin's instructions in the system role), the model's in the assistant role with its tool
// calls, tool results in the tool role with the id of the call they answer. The sources stay
// in the session log; the wire has no place for them.
package openaimodel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/loopguard/loopguard/agent"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// Config says which server and model to use.
type Config struct {
	// Model is the model name the server knows, e.g. "gpt-4.1-mini". Required.
	Model string
	// BaseURL is the API root, e.g. "https://api.openai.com/v1/". Empty means
	// $OPENAI_BASE_URL, else OpenAI's.
	BaseURL string
	// APIKey is sent as a bearer token. Empty means $OPENAI_API_KEY.
	APIKey string
	// Options are passed to the openai-go client after the above (retries, timeouts, headers).
	Options []option.RequestOption
}

// Model calls a Chat Completions endpoint, one non-streaming request per step.
type Model struct {
	client openai.Client
	model  string
}

// New returns a model for cfg.
func New(cfg Config) (*Model, error) {
	if cfg.Model == "" {
		return nil, errors.New("openaimodel: Config.Model is required")
	}
	var opts []option.RequestOption
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	opts = append(opts, cfg.Options...)
	return &Model{client: openai.NewClient(opts...), model: cfg.Model}, nil
}

// Generate sends the conversation and the tools, and returns the model's message.
func (m *Model) Generate(ctx context.Context, conv []agent.Message, tools []agent.ToolSpec) (agent.Message, error) {
	params := openai.ChatCompletionNewParams{Model: shared.ChatModel(m.model)}
	for _, msg := range conv {
		p, err := messageParam(msg)
		if err != nil {
			return agent.Message{}, err
		}
		params.Messages = append(params.Messages, p)
	}
	for _, t := range tools {
		p, err := toolParam(t)
		if err != nil {
			return agent.Message{}, err
		}
		params.Tools = append(params.Tools, p)
	}
	resp, err := m.client.Chat.Completions.New(ctx, params)
	if err != nil {
		return agent.Message{}, fmt.Errorf("openaimodel: %w", err)
	}
	if len(resp.Choices) == 0 {
		return agent.Message{}, errors.New("openaimodel: the response has no choices")
	}
	out := resp.Choices[0].Message
	text := out.Content
	if text == "" {
		text = out.Refusal // a refusal is the model's answer too
	}
	reply := agent.Reply(text)
	for _, c := range out.ToolCalls {
		if c.Type != "function" {
			return agent.Message{}, fmt.Errorf("openaimodel: unsupported tool call type %q", c.Type)
		}
		reply.ToolCalls = append(reply.ToolCalls, agent.ToolCall{ID: c.ID, Name: c.Function.Name, Args: c.Function.Arguments})
	}
	return reply, nil
}

func messageParam(m agent.Message) (openai.ChatCompletionMessageParamUnion, error) {
	switch m.Role() {
	case agent.RoleSystem:
		return openai.SystemMessage(m.Text), nil
	case agent.RoleUser:
		return openai.UserMessage(m.Text), nil
	case agent.RoleTool:
		return openai.ToolMessage(m.Text, m.ToolCallID), nil
	case agent.RoleAssistant:
		a := openai.ChatCompletionAssistantMessageParam{}
		if m.Text != "" || len(m.ToolCalls) == 0 {
			a.Content.OfString = openai.String(m.Text)
		}
		for _, c := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       c.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: c.Args},
				},
			})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	}
	return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("openaimodel: message %s has no chat role", m.ID)
}

func toolParam(t agent.ToolSpec) (openai.ChatCompletionToolUnionParam, error) {
	params := shared.FunctionParameters{"type": "object"}
	if len(t.Parameters) > 0 {
		params = nil
		if err := json.Unmarshal(t.Parameters, &params); err != nil {
			return openai.ChatCompletionToolUnionParam{}, fmt.Errorf("openaimodel: tool %s: parameters: %w", t.Name, err)
		}
	}
	def := shared.FunctionDefinitionParam{Name: t.Name, Parameters: params}
	if t.Description != "" {
		def.Description = openai.String(t.Description)
	}
	return openai.ChatCompletionFunctionTool(def), nil
}
