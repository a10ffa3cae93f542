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
		Result []struct {
			Error            *string `json:"error"`
			ExtractedContent *string `json:"extracted_content"`
		} `json:"result"`
		State struct {
			URL   string `json:"url"`
			Title string `json:"title"`
		} `json:"state"`
	} `json:"history"`
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
		for k, c := range calls {
			call := loopguard.Call("", c.tool, c.args)
			call.Turn = turn
			if k < len(st.Result) {
				r := st.Result[k]
				text, failed := "", false
				switch {
				case r.Error != nil && *r.Error != "":
					text, failed = *r.Error, true
				case r.ExtractedContent != nil:
					text = *r.ExtractedContent
				}
				if k == len(calls)-1 {
					text = strings.TrimSpace(text + landed)
				}
				call = call.WithResult(text, failed)
			}
			a.add(call)
		}
	}
	return b.done(), nil
}
