package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/loopguard/loopguard"
)

// LangSmith, LangChain's tracing service, keeps an agent's run as a tree of runs, and people
// save it as JSON to study or convert it: one run a line as the SDK's list_runs gives them
// (flat, each naming its trace_id and parent_run_id, ordered by dotted_order), or a root run
// with its child_runs nested, or a list of either, bare or as the API answers a query of runs
// ({"runs": [...]}). A run is {"id", "trace_id",
// "parent_run_id", "dotted_order", "name", "run_type", "inputs", "outputs", "error",
// "start_time", "child_runs"}.
//
//   - a run of run_type "tool" is a call of the tool it names: its arguments its inputs (a
//     tool given one string, {"input": "ls"}, that string), its result its outputs (the
//     "output" a tool returned, a ToolMessage's content), failed when the run has an error,
//     which is its result when it has no output;
//   - a run of run_type "llm" is the model speaking: its generation's text, or its message's
//     content;
//   - the first root run's input ("input", "question", "query", "task", or the last message
//     of "messages") is the person's turn;
//   - runs are read in the order they ran: by dotted_order where every run has one (it sorts
//     as the runs started, a parent before its children), else by start_time, else as the
//     file lists them (a tree depth first). A trace is a session.
//
// A run says nothing of which model reply asked for a tool: the calls carry no reply of
// their own (a LangGraph tools node and an AgentExecutor hold their tools' runs alike).

type lsRun struct {
	ID          string          `json:"id"`
	TraceID     string          `json:"trace_id"`
	ParentRunID string          `json:"parent_run_id"`
	DottedOrder string          `json:"dotted_order"`
	Name        string          `json:"name"`
	RunType     string          `json:"run_type"`
	Inputs      json.RawMessage `json:"inputs"`
	Outputs     json.RawMessage `json:"outputs"`
	Error       any             `json:"error"`
	StartTime   any             `json:"start_time"`
	ChildRuns   []lsRun         `json:"child_runs"`
}

// isLangSmithHead says whether an object's keys are a LangSmith run's.
func isLangSmithHead(has func(string) bool) bool {
	return has("run_type") && (has("inputs") || has("outputs") || has("child_runs"))
}

// isLangSmithRunsHead says whether a document is the API's answer to a query of runs: an
// object with "runs", whose first run the head shows with its run_type and its place in a
// trace.
func isLangSmithRunsHead(has func(string) bool, head []byte) bool {
	if !has("runs") {
		return false
	}
	at := bytes.Index(head, []byte(`"runs"`))
	rest := head[at:]
	return bytes.Contains(rest, []byte(`"run_type"`)) && (bytes.Contains(rest, []byte(`"dotted_order"`)) || bytes.Contains(rest, []byte(`"trace_id"`)))
}

func readLangSmith(name string, br *bufio.Reader) (*built, error) {
	var roots []lsRun
	if err := eachJSONValue(name, br, func(v []byte) error {
		if v[0] == '[' {
			var list []lsRun
			if err := json.Unmarshal(v, &list); err != nil && !tolerable(err) {
				return err
			}
			roots = append(roots, list...)
			return nil
		}
		var r struct {
			lsRun
			Runs []lsRun `json:"runs"` // the API's answer to a query of runs
		}
		if err := json.Unmarshal(v, &r); err != nil && !tolerable(err) {
			return err
		}
		if r.RunType == "" && len(r.Runs) > 0 {
			roots = append(roots, r.Runs...)
		} else {
			roots = append(roots, r.lsRun)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	// Every run, depth first, each with its start read once.
	type timedRun struct {
		*lsRun
		ms int64
	}
	var runs []timedRun
	var walk func(r *lsRun)
	walk = func(r *lsRun) {
		runs = append(runs, timedRun{r, lsTime(r.StartTime)})
		for i := range r.ChildRuns {
			if c := &r.ChildRuns[i]; c.TraceID == "" {
				c.TraceID = r.TraceID // a nested run is of its parent's trace
			}
			walk(&r.ChildRuns[i])
		}
	}
	for i := range roots {
		walk(&roots[i])
	}
	ordered, timed := true, true
	for _, r := range runs {
		ordered = ordered && r.DottedOrder != ""
		timed = timed && r.ms != 0
	}
	switch {
	case ordered:
		sort.SliceStable(runs, func(i, j int) bool { return runs[i].DottedOrder < runs[j].DottedOrder })
	case timed:
		sort.SliceStable(runs, func(i, j int) bool { return runs[i].ms < runs[j].ms })
	}
	b := newBuilder(FormatLangSmith)
	sessions := map[string]int{} // trace id -> session
	asked := map[int]bool{}      // sessions whose person's turn is read
	for _, r := range runs {
		trace := r.TraceID
		if trace == "" {
			trace = "\x00" // one file, one trace, when the runs name none
		}
		s, ok := sessions[trace]
		if !ok {
			s = len(sessions)
			sessions[trace] = s
		}
		b.session = s
		a := b.agent(MainAgent)
		ms := r.ms
		switch strings.ToLower(r.RunType) {
		case "tool":
			call := loopguard.Call("", r.Name, lsToolArgs(r.Inputs))
			call.Time = ms
			failed := lsFailed(r.Error)
			result, answered := lsToolOutput(r.Outputs)
			if !answered && failed {
				result, answered = lsErrorText(r.Error), true
			}
			if answered {
				call = call.WithResult(result, failed)
			}
			a.add(call)
		case "llm", "chat_model":
			a.text("model", lsGeneration(r.Outputs), "", ms)
		default:
			if !asked[s] && r.ParentRunID == "" {
				asked[s] = true
				if q := lsQuestion(r.Inputs); q != "" {
					a.user(q, ms)
				}
			}
		}
	}
	t := b.done()
	t.Sessions = max(1, len(sessions))
	return t, nil
}

// lsTime reads a run's start_time: an ISO time, or Unix seconds or milliseconds as a number.
func lsTime(v any) int64 {
	switch t := v.(type) {
	case string:
		return parseTime(t)
	case float64:
		if t < 1e11 {
			return int64(t * 1000)
		}
		return int64(t)
	}
	return 0
}

// lsToolArgs is a tool run's arguments: the string a tool was given as its one input, else
// the inputs as written.
func lsToolArgs(in json.RawMessage) []byte {
	var one map[string]json.RawMessage
	if json.Unmarshal(in, &one) == nil && len(one) == 1 {
		if v, ok := one["input"]; ok {
			return rawArgs(v)
		}
	}
	return rawArgs(in)
}

// lsToolOutput is a tool run's result: the output it returned (a ToolMessage's content, a
// string, or any other value as JSON), or its outputs as written; answered is false when the
// run has no outputs.
func lsToolOutput(out json.RawMessage) (string, bool) {
	out = bytesTrimSpace(out)
	if len(out) == 0 || string(out) == "null" {
		return "", false
	}
	var o map[string]json.RawMessage
	if json.Unmarshal(out, &o) != nil {
		return string(rawArgs(out)), true
	}
	v, ok := o["output"]
	if !ok {
		return string(rawArgs(out)), true
	}
	var msg any
	if json.Unmarshal(v, &msg) == nil {
		if text, ok := lcContent(msg); ok {
			return text, true
		}
	}
	return string(rawArgs(v)), true
}

// lsFailed says whether a run's error field reports one.
func lsFailed(e any) bool {
	switch v := e.(type) {
	case nil:
		return false
	case string:
		return strings.TrimSpace(v) != ""
	case bool:
		return v
	}
	return true
}

// lsErrorText is a run's error as text.
func lsErrorText(e any) string {
	if s, ok := e.(string); ok {
		return s
	}
	b, _ := json.Marshal(e)
	return string(b)
}

// lsGeneration is what a model run said: its first generation's text, or its message's
// content.
func lsGeneration(out json.RawMessage) string {
	var o struct {
		Generations [][]struct {
			Text    string `json:"text"`
			Message any    `json:"message"`
		} `json:"generations"`
	}
	if json.Unmarshal(out, &o) != nil || len(o.Generations) == 0 || len(o.Generations[0]) == 0 {
		return ""
	}
	g := o.Generations[0][0]
	if strings.TrimSpace(g.Text) != "" {
		return g.Text
	}
	text, _ := lcContent(g.Message)
	return text
}

// lcContent is the content of a LangChain message, kept as its dict ({"content"}) or
// serialised ({"lc": 1, "kwargs": {"content"}}); ok is false for anything else.
func lcContent(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	if kw, ok := m["kwargs"].(map[string]any); ok && kw["content"] != nil {
		return contentText(kw["content"]), true
	}
	if c := m["content"]; c != nil {
		return contentText(c), true
	}
	return "", false
}

// lsQuestion is a root run's input: the person's words.
func lsQuestion(in json.RawMessage) string {
	var o map[string]any
	if json.Unmarshal(in, &o) != nil {
		return ""
	}
	for _, k := range []string{"input", "question", "query", "task"} {
		if s, ok := o[k].(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	if msgs, ok := o["messages"].([]any); ok && len(msgs) > 0 {
		last := msgs[len(msgs)-1]
		if text, ok := lcContent(last); ok {
			return text
		}
		if pair, ok := last.([]any); ok && len(pair) == 2 {
			if s, ok := pair[1].(string); ok {
				return s // ["human", "..."]
			}
		}
	}
	return ""
}
