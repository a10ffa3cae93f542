package transcript

import (
	"bufio"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// Trae Agent (ByteDance's open-source coding agent, trae-cli) records each run as one JSON
// document, trajectories/trajectory_<time>.json: {"task", "start_time", "provider",
// "model", "max_steps", "llm_interactions", "agent_steps", "success", "final_result"}.
//
//   - llm_interactions repeat every message sent to the model at each step; they are not
//     read, agent_steps say the same once;
//   - a step is {"step_number", "state", "llm_response": {"content", "tool_calls"},
//     "tool_calls": [{"call_id", "name", "arguments"}], "tool_results": [{"call_id",
//     "success", "result", "error"}], "reflection", "error"};
//   - the response's content is the model's words; each tool call is a call, and its result
//     the one with its call_id: what it printed and its error output, failed when success
//     is false;
//   - a reflection is the agent's own note on failed calls, not the model's words: it is not
//     read as text;
//   - a step's llm_messages are what it adds to the conversation: its calls' results, then
//     what the harness says after them, as a user message of its own ("ERROR! Your Patch is
//     empty. Please provide a patch that fixes the problem." after a task_done its check
//     rejected). That is the harness answering the step's last call, and is read as part of
//     that call's result, not as a person's turn (a run whose 27 task_done calls were each
//     rejected so read as 27 successes). In a step that made no call, it is the harness's
//     message of its own (a reprompt).
//
// The task is the run's user turn.

type traeTrajectory struct {
	Task       string `json:"task"`
	AgentSteps []struct {
		LLMResponse *struct {
			Content   string         `json:"content"`
			ToolCalls []traeToolCall `json:"tool_calls"`
		} `json:"llm_response"`
		ToolCalls   []traeToolCall `json:"tool_calls"`
		ToolResults []struct {
			CallID  string `json:"call_id"`
			Success *bool  `json:"success"`
			Result  string `json:"result"`
			Error   string `json:"error"`
		} `json:"tool_results"`
		LLMMessages []struct {
			Role       string `json:"role"`
			Content    any    `json:"content"`
			ToolResult *struct {
				CallID string `json:"call_id"`
			} `json:"tool_result"`
		} `json:"llm_messages"`
	} `json:"agent_steps"`
}

type traeToolCall struct {
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// isTraeHead says whether a document's top-level keys are a Trae Agent trajectory's: the run
// (provider, model, max_steps) comes first, then llm_interactions, which can be long enough
// that agent_steps is past the head.
func isTraeHead(has func(string) bool) bool {
	return has("llm_interactions") && (has("agent_steps") || has("max_steps") && has("provider"))
}

func readTrae(name string, br *bufio.Reader, hint int64) (*built, error) {
	tr, err := decodeDocument[traeTrajectory](name, br, hint, "Trae Agent trajectory")
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatTrae)
	a := b.agent(MainAgent)
	if tr.Task != "" {
		a.user(tr.Task, 0)
	}
	for i, st := range tr.AgentSteps {
		calls := st.ToolCalls
		if r := st.LLMResponse; r != nil {
			a.text("model", r.Content, "", 0)
			if len(calls) == 0 {
				calls = r.ToolCalls
			}
		}
		byID := map[string]int{}
		for _, c := range calls {
			call := loopguard.Call("", c.Name, rawArgs(c.Arguments))
			call.Turn = "step " + strconv.Itoa(i) // the calls of one step are one reply
			byID[c.CallID] = a.add(call)
		}
		for _, r := range st.ToolResults {
			idx, ok := byID[r.CallID]
			if !ok {
				continue
			}
			e := &a.events[idx]
			parts := make([]string, 0, 2)
			for _, p := range []string{r.Result, r.Error} {
				if strings.TrimSpace(p) != "" {
					parts = append(parts, p)
				}
			}
			e.Result, e.HasResult = strings.Join(parts, "\n"), true
			e.Failed = r.Success != nil && !*r.Success
		}
		// The harness's words after the step's results answer its last call (also when the
		// call has no result of its own: Trae records a task_done its check rejected so).
		last := ""
		if len(calls) > 0 {
			last = calls[len(calls)-1].CallID
		}
		for _, m := range st.LLMMessages {
			if m.ToolResult != nil {
				last = m.ToolResult.CallID
				continue
			}
			text, _ := m.Content.(string)
			if m.Role != "user" || strings.TrimSpace(text) == "" {
				continue
			}
			idx, ok := byID[last]
			if !ok {
				// A step that made no call: Trae reprompts the model by itself ("The LLM
				// provided a response without any tool calls..."), the harness speaking, not
				// the person (validation round r95b U1: 198 reprompts were dropped, and the
				// model's answers to them read as one run of words).
				a.harnessUser(text)
				continue
			}
			e := &a.events[idx]
			if e.Result != "" {
				e.Result += "\n"
			}
			e.Result, e.HasResult = e.Result+text, true
		}
	}
	return b.done(), nil
}
