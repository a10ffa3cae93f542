package agent_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loopguard/loopguard/agent"
)

func TestMessageValidate(t *testing.T) {
	tool := agent.Message{Source: agent.Source{Kind: agent.FromTool}, ToolCallID: "c1", Text: "ok"}
	tests := []struct {
		name string
		msg  agent.Message
		ok   bool
	}{
		{"a user message", agent.User("hi"), true},
		{"a plugin notice", agent.Notice("p", "probe × 3", "stop"), true},
		{"a plugin recall", agent.PluginMessage("memory", agent.FormRecall, "earlier"), true},
		{"a model reply with a call", agent.Reply("", agent.ToolCall{ID: "c1", Name: "probe"}), true},
		{"a tool result", tool, true},
		{"a notice without a summary", agent.PluginMessage("p", agent.FormNotice, "x"), false},
		{"a summary on a non-notice", agent.Message{Source: agent.Source{Kind: agent.FromPlugin, Plugin: "p", Form: agent.FormRelay, Summary: "s"}}, false},
		{"a plugin message without the plugin's name", agent.PluginMessage("", agent.FormRelay, "x"), false},
		{"an unknown form", agent.PluginMessage("p", "shout", "x"), false},
		{"a summary over 120 characters", agent.Message{Source: agent.Source{Kind: agent.FromPlugin, Plugin: "p", Form: agent.FormNotice, Summary: strings.Repeat("é", 121)}}, false},
		{"a user message claiming a plugin", agent.Message{Source: agent.Source{Kind: agent.FromUser, Plugin: "p"}}, false},
		{"tool calls on a user message", agent.Message{Source: agent.Source{Kind: agent.FromUser}, ToolCalls: []agent.ToolCall{{Name: "x"}}}, false},
		{"a tool result with no call id", agent.Message{Source: agent.Source{Kind: agent.FromTool}, Text: "ok"}, false},
		{"a user message marked as an error", agent.Message{Source: agent.Source{Kind: agent.FromUser}, IsError: true}, false},
		{"an unknown kind", agent.Message{Source: agent.Source{Kind: "system"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.msg.Validate()
			if (err == nil) != tt.ok {
				t.Fatalf("Validate() = %v, want ok=%v", err, tt.ok)
			}
			if err != nil && !errors.Is(err, agent.ErrInvalidMessage) {
				t.Errorf("%v does not wrap ErrInvalidMessage", err)
			}
		})
	}
}

func TestNoticeCutsItsSummaryTo120Characters(t *testing.T) {
	m := agent.Notice("p", strings.Repeat("ж", 200), "text")
	if n := utf8.RuneCountInString(m.Source.Summary); n != agent.MaxSummary || !strings.HasSuffix(m.Source.Summary, "…") {
		t.Errorf("summary has %d characters (%q), want %d ending in …", n, m.Source.Summary, agent.MaxSummary)
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
}

func TestRoles(t *testing.T) {
	tests := []struct {
		msg  agent.Message
		want agent.Role
	}{
		{agent.User("x"), agent.RoleUser},
		{agent.Notice("p", "s", "x"), agent.RoleUser},
		{agent.PluginMessage("p", agent.FormInstructions, "x"), agent.RoleSystem},
		{agent.Reply("x"), agent.RoleAssistant},
		{agent.Message{Source: agent.Source{Kind: agent.FromTool}, ToolCallID: "c"}, agent.RoleTool},
	}
	for _, tt := range tests {
		if got := tt.msg.Role(); got != tt.want {
			t.Errorf("%s: role %s, want %s", tt.msg.Source, got, tt.want)
		}
	}
}

func TestSourceString(t *testing.T) {
	if got := agent.Notice("repeat-tool-reminder", "probe × 3", "x").Source.String(); got != "plugin repeat-tool-reminder notice (probe × 3)" {
		t.Errorf("got %q", got)
	}
	if got := agent.User("x").Source.String(); got != "user" {
		t.Errorf("got %q", got)
	}
}

func TestToolCallDecode(t *testing.T) {
	var v struct{ Q string }
	if err := (agent.ToolCall{Args: `{"Q":"x"}`}).Decode(&v); err != nil || v.Q != "x" {
		t.Errorf("Decode: %v %+v", err, v)
	}
	var empty map[string]any
	if err := (agent.ToolCall{}).Decode(&empty); err != nil || empty == nil {
		t.Errorf("empty arguments decode as {}: %v %v", err, empty)
	}
}
