package transcript

import (
	"bufio"
	"encoding/json"
	"hash/maphash"
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
//     could not parse): that call's failed result.
//
// There are no call ids: calls and results pair by order, as the steps are written.

type antigravityStep struct {
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
	var waiting []int // calls of the latest reply still without their result, in order
	step := 0
	var damaged []*Error
	seed, seen := maphash.MakeSeed(), map[uint64]bool{} // the steps read, by a hash of their line
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		h := maphash.Bytes(seed, line)
		if seen[h] {
			// A step the export wrote again, byte for byte (validation round r101a U2: 17
			// steps of one log twice, five calls and a user turn read twice).
			return nil
		}
		seen[h] = true
		step++
		var s antigravityStep
		if err := json.Unmarshal(line, &s); err != nil && !tolerable(err) {
			return err
		}
		ms := parseTime(s.CreatedAt)
		switch {
		case s.Type == "USER_INPUT":
			waiting = waiting[:0]
			a.user(s.Content, ms)
		case s.Type == "PLANNER_RESPONSE":
			waiting = waiting[:0]
			a.text("model", s.Thinking, "", ms)
			a.text("model", s.Content, "", ms)
			turn := "step " + strconv.Itoa(step)
			for _, c := range s.ToolCalls {
				call := loopguard.Call("", c.Name, antigravityArgs(c.Args))
				call.Time, call.Turn = ms, turn
				waiting = append(waiting, a.add(call))
			}
		case s.Source == "MODEL" && len(waiting) > 0:
			e := &a.events[waiting[0]]
			waiting = waiting[1:]
			e.Result, e.HasResult = antigravityResult(s.Content), true
			e.Failed = s.Status == "ERROR" || antigravityCommandFailed(e.Result)
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
			a.text("harness", text, "", ms)
		}
		return nil
	})
	if err != nil {
		return nil, err
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
