package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"
)

// Kind says who a message comes from.
type Kind string

// Message kinds.
const (
	FromUser   Kind = "user"   // the person using the agent
	FromPlugin Kind = "plugin" // a plugin speaking to the model (Source.Plugin says which)
	FromModel  Kind = "model"  // the model's own reply
	FromTool   Kind = "tool"   // a tool's result
)

// Form says what a plugin message is for. The model sees every form as a user-role message
// except FormInstructions, which adapters send as a system message.
type Form string

// Plugin message forms.
const (
	FormInstructions Form = "instructions" // standing instructions (a system prompt)
	FormCatalog      Form = "catalog"      // what is available: skills, tools, files
	FormSnapshot     Form = "snapshot"     // the state of something, as of now
	FormNotice       Form = "notice"       // advice about what just happened; has a Summary
	FormRelay        Form = "relay"        // words passed on from elsewhere (another agent)
	FormRecall       Form = "recall"       // something remembered from earlier
)

// MaxSummary is the most code points a notice's summary may have: enough for a transcript to
// say what the notice is about on one line.
const MaxSummary = 120

// Source is where a message comes from. A plugin notice is a user-role message for the model,
// but its source keeps it apart from the user's own words in every transcript.
type Source struct {
	Kind    Kind   `json:"kind"`
	Plugin  string `json:"plugin,omitempty"`  // FromPlugin only: the plugin's name
	Form    Form   `json:"form,omitempty"`    // FromPlugin only
	Summary string `json:"summary,omitempty"` // FormNotice only: at most MaxSummary code points
}

// String renders the source the way transcripts label a message: "user", "model", "tool",
// "plugin repeat-tool-reminder notice (probe × 3)".
func (s Source) String() string {
	if s.Kind != FromPlugin {
		return string(s.Kind)
	}
	out := "plugin " + s.Plugin + " " + string(s.Form)
	if s.Summary != "" {
		out += " (" + s.Summary + ")"
	}
	return out
}

// Role is the chat role a message is sent to the model in.
type Role string

// Chat roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// ToolCall is one call the model asked for.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Args are the arguments exactly as the model wrote them: usually JSON, but not always.
	Args string `json:"arguments"`
}

// Decode unmarshals the call's arguments into v; empty arguments decode as {}.
func (c ToolCall) Decode(v any) error {
	if c.Args == "" {
		return json.Unmarshal([]byte("{}"), v)
	}
	return json.Unmarshal([]byte(c.Args), v)
}

// Message is one entry of a conversation. The loop gives every message an ID and a Time when
// it first handles it (see Loop.Clock); the session log records it with both.
type Message struct {
	ID     string    `json:"id,omitempty"`
	Time   time.Time `json:"time,omitzero"`
	Source Source    `json:"source"`
	Text   string    `json:"text,omitempty"`

	// ToolCalls are the calls a model message asks for.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`

	// ToolCallID, Tool and IsError describe a tool message: which call it answers, the tool's
	// name (for transcripts; models are given the call id) and whether the call failed or was
	// refused.
	ToolCallID string `json:"toolCallId,omitempty"`
	Tool       string `json:"tool,omitempty"`
	IsError    bool   `json:"isError,omitempty"`
}

// Role returns the chat role the message is sent in: a plugin's instructions are a system
// message, every other plugin message is a user message, like the user's own.
func (m Message) Role() Role {
	switch m.Source.Kind {
	case FromModel:
		return RoleAssistant
	case FromTool:
		return RoleTool
	case FromPlugin:
		if m.Source.Form == FormInstructions {
			return RoleSystem
		}
	}
	return RoleUser
}

// User returns a message from the user.
func User(text string) Message {
	return Message{Source: Source{Kind: FromUser}, Text: text}
}

// PluginMessage returns a message from a plugin in the given form. For notices use Notice,
// which also carries a summary.
func PluginMessage(plugin string, form Form, text string) Message {
	return Message{Source: Source{Kind: FromPlugin, Plugin: plugin, Form: form}, Text: text}
}

// Notice returns a plugin notice: a user-role message that transcripts show as the plugin's,
// with a one-line summary. A summary longer than MaxSummary code points is cut, ending in "…".
func Notice(plugin, summary, text string) Message {
	if utf8.RuneCountInString(summary) > MaxSummary {
		r := []rune(summary)[:MaxSummary-1]
		summary = string(r) + "…"
	}
	return Message{Source: Source{Kind: FromPlugin, Plugin: plugin, Form: FormNotice, Summary: summary}, Text: text}
}

// Reply returns a model message: what a Model returns.
func Reply(text string, calls ...ToolCall) Message {
	return Message{Source: Source{Kind: FromModel}, Text: text, ToolCalls: calls}
}

// ErrInvalidMessage is returned, wrapped, for a message whose fields contradict its source.
var ErrInvalidMessage = errors.New("agent: invalid message")

var knownForms = map[Form]bool{
	FormInstructions: true, FormCatalog: true, FormSnapshot: true,
	FormNotice: true, FormRelay: true, FormRecall: true,
}

// Validate reports the first way the message contradicts its source: a plugin message needs a
// plugin name and a known form, only notices have a summary (and must), only model messages
// carry tool calls, only tool messages answer one.
func (m Message) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidMessage, fmt.Sprintf(format, args...))
	}
	s := m.Source
	switch s.Kind {
	case FromUser, FromModel, FromTool:
		if s.Plugin != "" || s.Form != "" || s.Summary != "" {
			return bad("a %s message has no plugin, form or summary", s.Kind)
		}
	case FromPlugin:
		if s.Plugin == "" {
			return bad("a plugin message needs the plugin's name")
		}
		if !knownForms[s.Form] {
			return bad("plugin %s: unknown form %q", s.Plugin, s.Form)
		}
		if s.Form == FormNotice && s.Summary == "" {
			return bad("plugin %s: a notice needs a summary", s.Plugin)
		}
		if s.Form != FormNotice && s.Summary != "" {
			return bad("plugin %s: only a notice has a summary", s.Plugin)
		}
		if n := utf8.RuneCountInString(s.Summary); n > MaxSummary {
			return bad("plugin %s: summary has %d characters, at most %d", s.Plugin, n, MaxSummary)
		}
	default:
		return bad("unknown source kind %q", s.Kind)
	}
	if len(m.ToolCalls) > 0 && s.Kind != FromModel {
		return bad("only a model message carries tool calls")
	}
	if s.Kind == FromTool && m.ToolCallID == "" {
		return bad("a tool message needs the id of the call it answers")
	}
	if s.Kind != FromTool && (m.ToolCallID != "" || m.Tool != "" || m.IsError) {
		return bad("only a tool message answers a tool call")
	}
	return nil
}
