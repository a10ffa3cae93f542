package transcript

import (
	"bufio"
	"cmp"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// Online-Mind2Web (the live web-agent benchmark) has each agent write a task's run as
// <task id>/result.json beside its trajectory/ of screenshots, the document its evaluation
// scripts read:
//
//	{"task_id", "task", "final_result_response", "action_history": ["Click at (600, 475)",
//	 "Type \"support services\"", "Press ENTER", ...], "thoughts": ["I can see ...", ...]}
//
//   - the task is the user's turn, and the final answer (final_result_response) the model's
//     last words;
//   - each action is a call, read from its text as the harness wrote it: "<Verb> <rest>"
//     (the Agent Browser Protocol harness's "Click at (600, 475)", "Scroll (delta_x=0,
//     delta_y=400)", "Navigate to <url>") is the call <verb>, its arguments the rest as
//     written; SeeAct's "<element> -> CLICK" and "<element> -> TYPE: <value>" the call
//     click or type on {"element", "value"};
//   - no action has a result: what it did is in its screenshot, which the file does not hold
//     (HasResult false, so that no two alike actions are taken to have had the same answer);
//   - thoughts[i], when the list runs beside the actions, is the model's words before action
//     i. A harness that runs several actions of one reply gives each of them a copy of that
//     reply's thought (a triple-click is three actions with one thought): consecutive actions
//     with the same words are one reply (one Turn), and the words are given once, or the
//     model would seem to say the same thing three times. Thoughts that do not run beside
//     the actions (a shorter list, one joined text) are the model's words before them.
//
// result_status and the screenshots' paths are the harness's and are not read.

type mind2webResult struct {
	Task          string            `json:"task"`
	ConfirmedTask string            `json:"confirmed_task"` // SeeAct's name for the task
	FinalResponse json.RawMessage   `json:"final_result_response"`
	Actions       []json.RawMessage `json:"action_history"`
	Thoughts      json.RawMessage   `json:"thoughts"`
}

// isMind2WebHead says whether a document's top-level keys are an Online-Mind2Web result's: the
// action history, with the task or the thoughts beside it.
func isMind2WebHead(has func(string) bool) bool {
	return has("action_history") && (has("task") || has("confirmed_task") || has("thoughts") || has("final_result_response"))
}

func readMind2Web(name string, br *bufio.Reader, hint int64) (*built, error) {
	r, err := decodeDocument[mind2webResult](name, br, hint, "Online-Mind2Web result")
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatMind2Web)
	a := b.agent(MainAgent)
	if task := cmp.Or(strings.TrimSpace(r.Task), strings.TrimSpace(r.ConfirmedTask)); task != "" {
		a.user(task, 0)
	}
	thoughts, beside := mind2webThoughts(r.Thoughts, len(r.Actions))
	if !beside {
		for _, t := range thoughts {
			a.text("model", t, "", 0)
		}
	}
	reply, prev := 0, ""
	for i, raw := range r.Actions {
		thought := ""
		if beside {
			thought = strings.TrimSpace(thoughts[i])
		}
		if thought == "" || thought != prev {
			// A new reply; an action without words is one of its own, as nothing ties it to
			// the one before.
			reply++
			a.text("model", thought, "", 0)
		}
		prev = thought
		tool, args, failure := mind2webAction(raw)
		if tool == "" {
			continue // an empty entry: no action
		}
		call := loopguard.Call("", tool, args)
		if failure != "" {
			call = call.WithResult(failure, true)
		}
		call.Turn = "reply " + strconv.Itoa(reply)
		a.add(call)
	}
	a.text("model", rawString(r.FinalResponse), "", 0)
	return b.done(), nil
}

// mind2webThoughts returns the thoughts, and whether they run beside the actions (one each).
func mind2webThoughts(raw json.RawMessage, actions int) ([]string, bool) {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		if t := rawString(raw); t != "" {
			return []string{t}, false
		}
		return nil, false
	}
	out := make([]string, len(list))
	for i, t := range list {
		out[i] = rawString(t)
	}
	return out, len(out) == actions
}

// mind2webAction reads one action_history entry as a call: its tool and arguments as the text
// gives them; an entry that is not a string is the call "action" on that value. failure is
// what SeeAct wrote of an action that failed ("<element> -> Failed to CLICK because
// Locator.click: Timeout 10000ms exceeded."): the call's answer, failed; "" for the others,
// whose outcome the file does not hold.
func mind2webAction(raw json.RawMessage) (tool string, args []byte, failure string) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		if args = rawArgs(raw); len(args) == 0 {
			return "", nil, ""
		}
		return "action", args, ""
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil, ""
	}
	if element, op, ok := seeActAction(s); ok {
		verb, value, _ := strings.Cut(op, ":")
		fields := map[string]string{"element": element}
		if v := strings.TrimSpace(value); v != "" {
			fields["value"] = v
		}
		return strings.ToLower(verb), marshalArgs(fields), ""
	}
	if element, verb, why, ok := seeActFailure(s); ok {
		return strings.ToLower(verb), marshalArgs(map[string]string{"element": element}), why
	}
	verb, rest, _ := strings.Cut(s, " ")
	if rest = strings.TrimSpace(rest); rest == "" {
		return strings.ToLower(verb), nil, ""
	}
	return strings.ToLower(verb), []byte(rest), ""
}

// seeActFailure splits SeeAct's entry for an action that failed, "<element> -> Failed to
// <OPERATION> because <why>", into the element, the operation and the failure as written
// (validation round r137b M1: nine clicks timing out alike were read as nine calls of "[a]"
// with the failure in their arguments).
func seeActFailure(s string) (element, verb, failure string, ok bool) {
	i := strings.Index(s, " -> Failed to ")
	if i < 0 {
		return "", "", "", false
	}
	element, failure = strings.TrimSpace(s[:i]), s[i+len(" -> "):]
	verb, _, _ = strings.Cut(failure[len("Failed to "):], " ")
	if verb == "" || !seeActOperation(verb) {
		return "", "", "", false
	}
	return element, verb, failure, true
}

// seeActAction splits SeeAct's "<element> -> CLICK" or "<element> -> TYPE: <value>" into the
// element and the operation; ok is false for any other text (the ABP harness's "Select picker
// sp_1 -> Select option(s) [3]" has an arrow too, but no operation in capitals after it).
func seeActAction(s string) (element, op string, ok bool) {
	i := strings.LastIndex(s, " -> ")
	if i < 0 {
		return "", "", false
	}
	element, op = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+4:])
	verb, _, _ := strings.Cut(op, ":")
	if len(verb) < 2 || !seeActOperation(verb) {
		return "", "", false
	}
	return element, op, true
}

// seeActOperation says whether a word is an operation as SeeAct writes one: capitals and '_'
// ("CLICK", "PRESS_ENTER").
func seeActOperation(verb string) bool {
	for _, c := range verb {
		if !('A' <= c && c <= 'Z' || c == '_') {
			return false
		}
	}
	return true
}
