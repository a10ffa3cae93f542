package transcript

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Agent-as-a-Judge's DevAI benchmark keeps each developer agent's run on a task (OpenHands,
// MetaGPT, GPT-Pilot) as one JSON list of steps, as its published trajectory-schema.json
// describes them:
//
//	[{"step": 0, "user_message": "Develop a system to ...", "agent": null, "environment": null},
//	 {"step": 1, "user_message": null,
//	  "agent": {"thought": "Let's run the training.", "action": "Running command: python3 src/train.py"},
//	  "environment": "  File \"/workspace/src/train.py\", line 23 ... SyntaxError: ...",
//	  "step_usage": {"model": "gpt-4o-2024-05-13", "input_tokens": 7952, "output_tokens": 31, "cost": 0.04}}]
//
//   - a step's user_message is the user's turn, its agent's thought the model's words;
//   - its agent's action, when there is one, is a call answered by the step's environment: the
//     action is a sentence the agent's host wrote of what it did, "Running command: <command
//     line>" (a shell call), "Running Python code interactively: <code>" (OpenHands' IPython
//     cell), else "<what>: <on what>" (a call named by what it did), else the sentence alone;
//   - nothing says a call failed: the answer's own words do (a traceback, an exit status);
//   - step_usage is the step's model and tokens.
//
// Until read, such a file was no transcript at all (validation round r134b U1).

type devaiStep struct {
	Step        *int    `json:"step"`
	UserMessage *string `json:"user_message"`
	Agent       *struct {
		Thought string  `json:"thought"`
		Action  *string `json:"action"`
	} `json:"agent"`
	Environment *string `json:"environment"`
	StepUsage   *struct {
		Model        string  `json:"model"`
		InputTokens  int64   `json:"input_tokens"`
		OutputTokens int64   `json:"output_tokens"`
		Cost         float64 `json:"cost"`
	} `json:"step_usage"`
}

// isDevAIHead says whether the first element of a list is a DevAI step: its number, and a user
// message or an agent with what its environment answered.
func isDevAIHead(keys map[string]string) bool {
	_, step := keys["step"]
	_, user := keys["user_message"]
	_, agent := keys["agent"]
	_, env := keys["environment"]
	return step && (user || agent && env)
}

// devaiActions name the calls of the sentences DevAI's hosts write for an action.
var devaiActions = []struct{ prefix, tool, key string }{
	{"Running command: ", "execute_bash", "command"},
	{"Running Python code interactively: ", "execute_ipython_cell", "code"},
}

// devaiCall reads an action's sentence as a call: its tool and its arguments.
func devaiCall(action string) (tool string, args []byte) {
	for _, a := range devaiActions {
		if rest, ok := strings.CutPrefix(action, a.prefix); ok {
			return a.tool, marshalArgs(map[string]string{a.key: rest})
		}
	}
	if what, on, ok := strings.Cut(action, ": "); ok && len(what) <= 40 && !strings.ContainsAny(what, "\n`") {
		return what, marshalArgs(map[string]string{"input": on})
	}
	return "action", marshalArgs(map[string]string{"input": action})
}

func readDevAI(name string, data []byte) (*built, error) {
	var steps []devaiStep
	if err := json.Unmarshal(data, &steps); err != nil && !tolerable(err) {
		return nil, &Error{Path: name, Line: max(jsonErrorLine(data, err), 1), Err: fmt.Errorf("DevAI trajectory: %w", err)}
	}
	var list []msg
	var usage Usage
	for i, s := range steps {
		if s.UserMessage != nil && strings.TrimSpace(*s.UserMessage) != "" {
			list = append(list, msg{Role: "user", Content: *s.UserMessage})
		}
		if u := s.StepUsage; u != nil {
			usage.add(Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, CostUSD: u.Cost, Model: u.Model})
		}
		if s.Agent == nil {
			continue
		}
		reply := msg{Role: "assistant", Content: s.Agent.Thought}
		if act := s.Agent.Action; act != nil && strings.TrimSpace(*act) != "" {
			id := "step-" + strconv.Itoa(i)
			tool, args := devaiCall(*act)
			reply.ToolCalls = []oaToolCall{{ID: id, Function: oaFunction{Name: tool, Arguments: args}}}
			list = append(list, reply)
			if s.Environment != nil {
				list = append(list, msg{Role: "tool", ToolCallID: id, Content: *s.Environment})
			}
			continue
		}
		list = append(list, reply)
	}
	b := newBuilder(FormatDevAI)
	addChat(b, list, true)
	if len(list) > 0 {
		b.agent(MainAgent).usage = usage
	}
	return b.done(), nil
}
