package agent

import (
	"context"
	"errors"
	"slices"
	"sync"
)

// ErrScriptEnded is returned by a Script asked for more replies than it holds.
var ErrScriptEnded = errors.New("agent: script ended")

// Script is a Model that gives a fixed list of replies, one per call, and remembers what it
// was shown. It is for tests, examples and demos: the loop, the tools and the plugins are
// real; only the model is not.
type Script struct {
	mu      sync.Mutex
	replies []Message
	inputs  [][]Message
}

// NewScript returns a model that answers with replies, in order (see Reply).
func NewScript(replies ...Message) *Script {
	return &Script{replies: slices.Clone(replies)}
}

// Generate returns the next reply, or ErrScriptEnded.
func (s *Script) Generate(ctx context.Context, conv []Message, _ []ToolSpec) (Message, error) {
	if err := ctx.Err(); err != nil {
		return Message{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inputs = append(s.inputs, slices.Clone(conv))
	if len(s.inputs) > len(s.replies) {
		return Message{}, ErrScriptEnded
	}
	return s.replies[len(s.inputs)-1], nil
}

// Inputs returns the conversation the model was given at each call, in order.
func (s *Script) Inputs() [][]Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.inputs)
}

// Last returns the conversation of the most recent call, or nil before the first.
func (s *Script) Last() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.inputs) == 0 {
		return nil
	}
	return s.inputs[len(s.inputs)-1]
}
