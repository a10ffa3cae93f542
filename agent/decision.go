package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Result is what a tool call gave.
type Result struct {
	// Content is the text the model is shown. When empty, the model is shown Value rendered:
	// a string as it is, anything else as JSON.
	Content string
	// Value is the call's structured outcome, for the program rather than the model.
	Value any
	// IsError says the call failed or was refused; Content then says why.
	IsError bool
}

// Text returns what the model is shown for this result.
func (r Result) Text() string {
	if r.Content != "" || r.Value == nil {
		return r.Content
	}
	switch v := r.Value.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	case fmt.Stringer:
		return v.String()
	}
	b, err := json.Marshal(r.Value)
	if err != nil {
		return fmt.Sprint(r.Value)
	}
	return string(b)
}

// errorResult is the result of a call that failed or was refused before it produced one: the
// model reads "Error: " and the reason, as the upstream harness writes it.
func errorResult(reason string) Result {
	return Result{Content: "Error: " + reason, IsError: true}
}

// ErrMisuse is returned, wrapped, when a hook asks for something that cannot be done, such as
// replacing both the content and the value of a result. It is a programming error: the loop
// stops and says which hook's decision was at fault.
var ErrMisuse = errors.New("agent: misuse")

// Decision is what a post-execute hook decides about a result: accept it, possibly replacing
// its content or its value, or block it with feedback. Any decision may carry additional
// contexts: messages for the model that are kept apart from the result.
//
// The zero Decision accepts the result unchanged. Decisions are values: every method returns
// a new one and leaves its receiver as it was.
type Decision struct {
	block      bool
	feedback   string
	content    string
	hasContent bool
	value      any
	hasValue   bool
	contexts   []Message
}

// Accept accepts the result, with optional additional contexts.
func Accept(contexts ...Message) Decision {
	return Decision{contexts: slices.Clone(contexts)}
}

// Block turns the result into an error whose content is feedback, so the model reads the
// feedback instead of what the tool returned.
func Block(feedback string, contexts ...Message) Decision {
	return Decision{block: true, feedback: feedback, contexts: slices.Clone(contexts)}
}

// WithContent returns the decision replacing the content the model is shown; the value is
// kept.
func (d Decision) WithContent(content string) Decision {
	d.content, d.hasContent = content, true
	return d
}

// WithValue returns the decision replacing the result's value; the model is then shown the new
// value rendered (see Result.Text), not the tool's content.
func (d Decision) WithValue(v any) Decision {
	d.value, d.hasValue = v, true
	return d
}

// WithContexts returns the decision with msgs added after its contexts.
func (d Decision) WithContexts(msgs ...Message) Decision {
	d.contexts = slices.Concat(d.contexts, msgs)
	return d
}

// PrependContexts returns the decision with msgs added before its contexts: how a hook that
// called next folds its own messages onto the downstream decision and still comes first.
func (d Decision) PrependContexts(msgs ...Message) Decision {
	d.contexts = slices.Concat(msgs, d.contexts)
	return d
}

// Blocked reports whether the decision blocks the result, and with what feedback.
func (d Decision) Blocked() (feedback string, ok bool) { return d.feedback, d.block }

// Content reports the replacement content, if the decision replaces it.
func (d Decision) Content() (string, bool) { return d.content, d.hasContent }

// Value reports the replacement value, if the decision replaces it.
func (d Decision) Value() (any, bool) { return d.value, d.hasValue }

// Contexts returns the decision's additional contexts, in order.
func (d Decision) Contexts() []Message { return slices.Clone(d.contexts) }

// Apply returns the result as the decision leaves it. It fails, with ErrMisuse, for a
// decision that replaces both the content and the value, that blocks and replaces at once, or
// that replaces the value of a failed result (a failure has no value to replace; block it or
// replace its content instead).
func (d Decision) Apply(r Result) (Result, error) {
	switch {
	case d.hasContent && d.hasValue:
		return r, fmt.Errorf("%w: a decision replaces the content or the value of a result, not both", ErrMisuse)
	case d.block && (d.hasContent || d.hasValue):
		return r, fmt.Errorf("%w: a blocking decision cannot also replace the result", ErrMisuse)
	case d.hasValue && r.IsError:
		return r, fmt.Errorf("%w: cannot replace the value of a failed result", ErrMisuse)
	case d.block:
		return Result{Content: d.feedback, IsError: true}, nil
	case d.hasContent:
		r.Content = d.content
	case d.hasValue:
		r.Value, r.Content = d.value, ""
	}
	return r, nil
}
