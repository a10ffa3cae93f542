package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// browser-use (the Python browser agent) saves a run's history as one JSON document,
// {"history": [step, ...]}, each step
//
//	{"model_output": {"thinking", "evaluation_previous_goal", "memory", "next_goal",
//	                  "action": [{"click_element_by_index": {"index": 12}}, ...]},
//	 "result": [{"is_done", "success", "error", "extracted_content", ...}, ...],
//	 "state": {"url", "title", "tabs", ...}, "metadata": {"step_number", ...}}
//
// (releases before 0.5 put the three goal fields under "current_state"). Each action is a
// call, its one key the tool and its value the arguments; result[i] is action i's outcome:
// its error (failed) or what it reports (extracted_content). A step's actions are one reply.
// The page an action leaves the browser on is the next step's state: its URL and title are
// part of the step's last result, so that clicking "Next" through the pages of a list is a
// changed answer each time, and clicking a button that does nothing is the same answer.
// The model's words: the next goal it states (else its thinking), one text a step.
// model_output is null for a step whose reply could not be parsed: its results (the
// harness's error) are the failed call "(no action)".
//
// browser-use runs a reply's actions in order and stops early: when the page changes under
// them, its result for the first action left says so ("Page changed after action: actions
// click_element_by_index are not yet executed"; "Something new appeared after action 2 / 3"
// in early releases), and when an action fails, the actions after it get no result at all.
// Neither ran. The first are the harness refusing them, and the model reads the note: each is
// a failed call answered by the note (Source "harness"), so that a reply cut short the same
// way step after step is not replayed as the same action succeeding again and again. The
// second are left out: nothing ran and nothing was said of them, and a call without a result
// would be one whose answer is merely unknown; the model sends such an action again in its
// next reply, where it is a call of its own. So are the actions past the results of a step
// that stopped with no word of why (browser-use 0.11, when the page changed: an agent seemed
// to call "done" three times; validation round r127b U2). The page the step leaves the
// browser on ends the result of its last action that ran. A click on an element the page no
// longer has is answered, not as an error, "Element index 63735 not available - page may have
// changed": the click did not happen, and the call failed (r127b U1).

type browserUseHistory struct {
	History []struct {
		ModelOutput *struct {
			Thinking     string `json:"thinking"`
			NextGoal     string `json:"next_goal"`
			CurrentState *struct {
				NextGoal string `json:"next_goal"`
			} `json:"current_state"`
			Action []map[string]json.RawMessage `json:"action"`
		} `json:"model_output"`
		Result []browserUseResult `json:"result"`
		State  struct {
			URL   string `json:"url"`
			Title string `json:"title"`
		} `json:"state"`
	} `json:"history"`
}

type browserUseResult struct {
	Error            *string `json:"error"`
	ExtractedContent *string `json:"extracted_content"`
}

// isBrowserUseHead says whether a document opens as a browser-use history: a "history" list
// whose steps hold a "model_output".
func isBrowserUseHead(has func(string) bool, head []byte) bool {
	return has("history") && bytes.Contains(head, []byte(`"model_output"`))
}

func readBrowserUse(name string, br *bufio.Reader, hint int64) (*built, error) {
	h, err := decodeDocument[browserUseHistory](name, br, hint, "browser-use history")
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatBrowserUse)
	a := b.agent(MainAgent)
	for i, st := range h.History {
		turn := "step " + strconv.Itoa(i)
		type named struct {
			tool string
			args []byte
		}
		var calls []named
		if mo := st.ModelOutput; mo != nil {
			said := mo.NextGoal
			if said == "" && mo.CurrentState != nil {
				said = mo.CurrentState.NextGoal
			}
			if said == "" {
				said = mo.Thinking
			}
			a.text("model", said, "", 0)
			for _, act := range mo.Action {
				// One key an action; should one hold more, they are taken in order.
				for _, tool := range slices.Sorted(maps.Keys(act)) {
					calls = append(calls, named{tool, rawArgs(act[tool])})
				}
			}
		} else if len(st.Result) > 0 {
			calls = append(calls, named{"(no action)", nil})
		}
		landed := ""
		if i+1 < len(h.History) {
			if next := h.History[i+1].State; next.URL != "" || next.Title != "" {
				landed = "\n[page: " + next.URL + " " + next.Title + "]"
			}
		}
		ran := min(len(calls), len(st.Result)) // the actions browser-use ran or refused
		notRun := ran
		for k := 0; k < ran; k++ {
			if r := st.Result[k]; r.ExtractedContent != nil && browserUseNotRun(*r.ExtractedContent) {
				notRun = k
				break
			}
		}
		for k, c := range calls {
			call := loopguard.Call("", c.tool, c.args)
			call.Turn = turn
			switch {
			case k < notRun:
				r := st.Result[k]
				text, failed := "", false
				switch {
				case r.Error != nil && *r.Error != "":
					text, failed = *r.Error, true
				case r.ExtractedContent != nil:
					text = *r.ExtractedContent
					failed = browserUseElementGone(text)
				}
				if k == notRun-1 {
					text = strings.TrimSpace(text + landed)
				}
				call = call.WithResult(text, failed)
			case notRun < ran:
				// Not run: the page changed before it (see above).
				call = call.WithResult(*st.Result[notRun].ExtractedContent, true)
				call.Source = loopguard.SourceHarness
			case browserUseFailed(st.Result), ran > 0:
				continue // not run after a failed action or a silent stop, nothing said of it (see above)
			}
			a.add(call)
		}
	}
	return b.done(), nil
}

// browserUseNotRun says whether an action's result is browser-use's note that the action was
// not run because the page changed after the one before it: the note opens so ("Page changed
// after action: actions click_element_by_index are not yet executed"; early releases:
// "Something new appeared after action 2 / 3"). Only its opening is taken: an action's
// extracted page text may say anything, "not yet executed" included (review r21 L2).
func browserUseNotRun(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "Page changed after action") || strings.HasPrefix(t, "Something new appeared after action")
}

// browserUseElementGone says whether an action's report is browser-use's word that the
// element it names is no longer on the page (see above).
func browserUseElementGone(text string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), "Element index ")
	if !ok {
		return false
	}
	_, after, ok := strings.Cut(rest, " ")
	return ok && strings.HasPrefix(after, "not available")
}

// browserUseFailed says whether one of a step's results is an error: the actions after the
// last result were not run because of it.
func browserUseFailed(results []browserUseResult) bool {
	for _, r := range results {
		if r.Error != nil && *r.Error != "" {
			return true
		}
	}
	return false
}
