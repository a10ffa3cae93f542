package transcript

import (
	"bufio"
	"cmp"
	"encoding/json"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// Google Antigravity's trajectories, as exported one step a line: {"step_index", "source"
// (USER_EXPLICIT, MODEL, SYSTEM), "type", "status" (DONE, RUNNING, ERROR), "created_at",
// "content", "thinking", "tool_calls", "error", "truncated_fields"}.
//
//   - USER_INPUT steps are the user's turns; SYSTEM_MESSAGE steps are the harness speaking;
//     CONVERSATION_HISTORY and CHECKPOINT steps (a compaction) say nothing to compare;
//   - a PLANNER_RESPONSE is one reply of the model: its content and thinking are its words,
//     its tool_calls ({"name", "args"}) its calls, made together; each argument's value is
//     JSON-encoded once more ("\"git status\""), and toolAction and toolSummary are the
//     call's caption for the user, not its arguments;
//   - the MODEL steps after it, in order, are those calls' results (RUN_COMMAND, VIEW_FILE,
//     CODE_ACTION, GENERIC, ...), failed when their status is ERROR; their content opens with
//     "Created At:" and "Completed At:" lines, which are when, not what;
//   - an ERROR_MESSAGE step while calls wait is the harness refusing the next one (a call it
//     could not parse): that call's failed result;
//   - a call whose result says it runs as a background task ("... with task id: <id>") is
//     answered by the SYSTEM message that the task finished ("Task id \"<id>\" finished with
//     result: ..."), when one comes.
//
// There are no call ids: calls and results pair by order, the order of the steps' indexes.
// The export may write a result before the reply that asked for it (a reply of two views, the
// first view's step written first: validation round r255a, ten reads of one session answered
// with another file and twenty calls with nothing), so the steps are read by step_index.

type antigravityStep struct {
	StepIndex *int   `json:"step_index"`
	Source    string `json:"source"`
	Type      string `json:"type"`
	Status    string `json:"status"`
	CreatedAt string `json:"created_at"`
	Content   string `json:"content"`
	Thinking  string `json:"thinking"`
	Error     string `json:"error"`
	ToolCalls []struct {
		Name string                     `json:"name"`
		Args map[string]json.RawMessage `json:"args"`
	} `json:"tool_calls"`
}

// isAntigravityHead says whether a JSONL line's top-level keys are an Antigravity step's.
func isAntigravityHead(has func(string) bool) bool {
	return has("step_index") && has("source") && has("type") && has("status")
}

func readAntigravity(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatAntigravity)
	a := b.agent(MainAgent)
	var waiting []int         // calls of the latest reply still without their result, in order
	tasks := map[string]int{} // the calls answered that they run as a background task, by its id
	var damaged []*Error
	var steps []antigravityStep
	seed, seen := maphash.MakeSeed(), map[uint64]bool{} // the steps read, by a hash of their line
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		h := maphash.Bytes(seed, line)
		if seen[h] {
			// A step the export wrote again, byte for byte (validation round r101a U2: 17
			// steps of one log twice, five calls and a user turn read twice).
			return nil
		}
		seen[h] = true
		var s antigravityStep
		if err := json.Unmarshal(line, &s); err != nil && !tolerable(err) {
			return err
		}
		if s.StepIndex == nil && len(steps) > 0 {
			s.StepIndex = steps[len(steps)-1].StepIndex // no index: where it was written
		}
		steps = append(steps, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Steps before the first with an index keep their place at the head.
	index := func(s antigravityStep) int {
		if s.StepIndex == nil {
			return -1
		}
		return *s.StepIndex
	}
	slices.SortStableFunc(steps, func(x, y antigravityStep) int { return cmp.Compare(index(x), index(y)) })
	for step, s := range steps {
		ms := parseTime(s.CreatedAt)
		switch {
		case s.Type == "USER_INPUT":
			waiting = waiting[:0]
			a.user(s.Content, ms)
		case s.Type == "PLANNER_RESPONSE":
			waiting = waiting[:0]
			a.text("model", s.Thinking, "", ms)
			a.text("model", s.Content, "", ms)
			turn := "step " + strconv.Itoa(step+1)
			for _, c := range s.ToolCalls {
				call := loopguard.Call("", c.Name, antigravityArgs(c.Args))
				call.Time, call.Turn = ms, turn
				waiting = append(waiting, a.add(call))
			}
		case s.Source == "MODEL" && len(waiting) > 0:
			waiting0 := waiting[0]
			e := &a.events[waiting0]
			waiting = waiting[1:]
			e.Result, e.HasResult = antigravityResult(s.Content), true
			e.Failed = s.Status == "ERROR" || antigravityCommandFailed(e.Result)
			if id := backgroundTaskID(e.Result); id != "" {
				tasks[id] = waiting0
			}
		case s.Type == "ERROR_MESSAGE" && len(waiting) > 0:
			e := &a.events[waiting[0]]
			waiting = waiting[1:]
			text := s.Error
			if text == "" {
				text = s.Content
			}
			e.Result, e.HasResult, e.Failed = text, true, true
		case s.Source == "SYSTEM" && (s.Type == "SYSTEM_MESSAGE" || s.Type == "ERROR_MESSAGE"):
			text := s.Content
			if text == "" {
				text = s.Error
			}
			if id, result, ok := finishedTask(text); ok {
				if i, found := tasks[id]; found {
					// The outcome of a command that ran in the background: the answer of
					// the call that started it, which only said it was running. Only the
					// harness's messages are read so: the model's own text imitates them
					// (validation round r174a R2: five failing builds read as running).
					e := &a.events[i]
					e.Result, e.Failed = result, e.Failed || antigravityCommandFailed(result)
					delete(tasks, id)
				}
			}
			a.text("harness", text, "", ms)
		}
	}
	return withDamaged(b.done(), damaged), nil
}

// antigravityArgs are a call's arguments with each value decoded once more and the caption
// for the user (toolAction, toolSummary) left out.
func antigravityArgs(args map[string]json.RawMessage) []byte {
	out := make(map[string]json.RawMessage, len(args))
	for k, v := range args {
		if k == "toolAction" || k == "toolSummary" {
			continue
		}
		var inner string
		if json.Unmarshal(v, &inner) == nil && json.Valid([]byte(inner)) {
			v = json.RawMessage(inner)
		}
		out[k] = v
	}
	return marshalArgs(out)
}

// antigravityResult is a result's content without its "Created At:" and "Completed At:" lines.
// antigravityCommandFailed says whether a command step's text opens by saying the command
// failed: such a step is DONE (the tool ran), and only its text says the command exited
// with a status other than 0 ("The command failed with exit code: 1", "The command exited
// with code 1.").
func antigravityCommandFailed(result string) bool {
	text := strings.TrimLeft(result, " \t\r\n")
	rest, ok := strings.CutPrefix(text, "The command failed with exit code")
	if !ok {
		// the wording of 2026's releases (validation round r101a U4)
		if rest, ok = strings.CutPrefix(text, "The command exited with code"); !ok {
			return false
		}
	}
	rest = strings.TrimLeft(rest, ": ")
	return rest != "" && rest[0] >= '1' && rest[0] <= '9'
}

func antigravityResult(content string) string {
	for _, p := range []string{"Created At: ", "Completed At: "} {
		if strings.HasPrefix(content, p) {
			if nl := strings.IndexByte(content, '\n'); nl >= 0 {
				content = content[nl+1:]
			} else {
				content = ""
			}
		}
	}
	return content
}

// backgroundTaskID is the id of the background task a call's answer says it runs as ("Tool is
// running as a background task with task id: <id>"), "" for another answer.
func backgroundTaskID(result string) string {
	const mark = "running as a background task with task id: "
	i := strings.Index(result[:min(len(result), 512)], mark)
	if i < 0 {
		return ""
	}
	id, _, _ := strings.Cut(result[i+len(mark):], "\n")
	return strings.TrimSpace(id)
}

// finishedTask reads the harness's message that a background task ended ("Task id \"<id>\"
// finished with result:" and the result, indented, then its log's place): the task's id and its
// result without the indent and the log line.
func finishedTask(text string) (id, result string, ok bool) {
	const head = `Task id "`
	i := strings.Index(text, head)
	if i < 0 {
		return "", "", false
	}
	rest := text[i+len(head):]
	id, rest, ok = strings.Cut(rest, `" finished with result:`)
	if !ok || id == "" || strings.ContainsAny(id, "\n\"") {
		return "", "", false
	}
	if j := strings.Index(rest, "\n\nLog: file://"); j >= 0 {
		rest = rest[:j]
	} else if j := strings.Index(rest, "</SYSTEM_MESSAGE>"); j >= 0 {
		rest = rest[:j]
	}
	lines := strings.Split(strings.Trim(rest, "\n"), "\n")
	for k, l := range lines {
		lines[k] = strings.TrimLeft(l, "\t")
	}
	return id, strings.TrimSpace(strings.Join(lines, "\n")), true
}
