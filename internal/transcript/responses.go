package transcript

import (
	"bufio"
	"encoding/json"
	"fmt"
)

// An agent run through OpenAI's Responses API may be kept as the request and the response,
// one run a line, as NVIDIA's NeMo Gym keeps its rollouts (of Claude Code, Hermes and
// mini-swe-agent on SWE tasks, among others):
//
//	{"responses_create_params": {"input": [items...] or "a prompt", ...},
//	 "response": {"output": [items...], ...}, "reward": 1.0, ...}
//
// The run is the input's items followed by the output's, read as a message list
// (addMessages): messages by role, function_call items as calls, their function_call_output
// items by call_id as results. Each line is a session.

// isResponsesRolloutHead says whether a document's (or a line's) top-level keys are a
// Responses API request and its response.
func isResponsesRolloutHead(has func(string) bool) bool {
	return has("responses_create_params") && has("response")
}

type responsesRollout struct {
	Params struct {
		Input json.RawMessage `json:"input"`
	} `json:"responses_create_params"`
	Response struct {
		Output []msg `json:"output"`
	} `json:"response"`
}

func readResponsesRollouts(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatMessages)
	sessions := 0
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var r responsesRollout
		// A member of an unexpected type is left empty, as encoding/json leaves it; the rest
		// of the run is read.
		if err := json.Unmarshal(line, &r); err != nil && !tolerable(err) {
			return fmt.Errorf("responses API rollout: %w", err)
		}
		var list []msg
		switch in := bytesTrimSpace(r.Params.Input); {
		case len(in) > 0 && in[0] == '[':
			_ = json.Unmarshal(in, &list) // items of unexpected shapes are left zero
		case len(in) > 0 && in[0] == '"':
			var prompt string
			if json.Unmarshal(in, &prompt) == nil {
				list = append(list, msg{Role: "user", Content: prompt})
			}
		}
		list = append(list, r.Response.Output...)
		b.session = sessions
		sessions++
		addMessages(b, list, func(*msg) string { return MainAgent }, false)
		return nil
	})
	if err != nil {
		return nil, err
	}
	t := b.done()
	t.Sessions = max(sessions, 1)
	return withDamaged(t, damaged), nil
}
