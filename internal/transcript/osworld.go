package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// OSWorld (the computer-use benchmark) keeps each task's run as
// results/<action space>/<observation>/<model>/<domain>/<task id>/traj.jsonl, one executed
// action a line:
//
//	{"step_num": 7, "action_timestamp": "20250828@211742", "action": "WAIT",
//	 "response": "click(failed):1: Image menu", "reward": 0, "done": false, "info": {},
//	 "screenshot_file": "step_7_20250828@211742.png"}
//
//   - action is what ran: pyautogui code (the call "pyautogui", its arguments the code as
//     written), one of the special actions WAIT, FAIL and DONE (the call of that name, with
//     no arguments), or an object (the computer_13 action space's {"action_type", ...}, the
//     Claude agent's {"action_type", "command", "raw_response"}: the call named by its
//     action_type, its arguments the object as written without raw_response, which is the
//     model's reply);
//   - the actions of one prediction share its step_num and its response: they are one reply,
//     and the response is the model's words once for them;
//   - the result is what the step recorded: reward, done and info (DesktopEnv's {"fail":
//     true} after FAIL is the agent's own verdict, not a failure of the call), and the
//     screenshot the agent was shown next, named: what the action did is in that image, which
//     the file does not hold, so two alike steps are not known to have left the screen alike
//     (the answer of a computer-use action is no acknowledgement to compare either);
//   - a step is failed when it says so: an "error" (or "Error") field, or a response that is
//     the agent's note that its action could not be carried out, "<action>(failed):<target>"
//     (an agent that could not find "File menu" on the screen records
//     "click(failed):File menu" and runs WAIT in its place). Such a step is the agent's failed
//     action, the call <action> with the target as its arguments, and the note its result:
//     the WAIT is the harness standing in, and read as a wait it would make ten failing
//     clicks on one menu a poll;
//   - a line with an "Error" and no action ({"Error": "Time limit exceeded in gimp/<id>"},
//     which OSWorld's runner appends when a run raises) is the harness ending the run:
//     harness text, not a call.
//
// The task's instruction is not in the file (it is in the benchmark's task file).

type osworldStep struct {
	StepNum        json.RawMessage `json:"step_num"`
	Action         json.RawMessage `json:"action"`
	Response       json.RawMessage `json:"response"`
	Reward         json.RawMessage `json:"reward"`
	Done           json.RawMessage `json:"done"`
	Info           json.RawMessage `json:"info"`
	ScreenshotFile string          `json:"screenshot_file"`
	Error          json.RawMessage `json:"error"`
	ErrorCap       json.RawMessage `json:"Error"`
}

// isOSWorldHead says whether a JSONL line's top-level keys are an OSWorld step's: its number,
// the action and the timestamp or screenshot OSWorld names each step by.
func isOSWorldHead(has func(string) bool) bool {
	return has("step_num") && has("action") && (has("action_timestamp") || has("screenshot_file"))
}

func readOSWorld(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatOSWorld)
	a := b.agent(MainAgent)
	lastStep, lastSaid := "", ""
	line := 0
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(raw []byte) error {
		line++
		if raw[0] != '{' {
			return errors.New("not an OSWorld step: not a JSON object")
		}
		var s osworldStep
		if err := json.Unmarshal(raw, &s); err != nil && !tolerable(err) {
			return err
		}
		errText := osworldError(s)
		if act := bytesTrimSpace(s.Action); len(act) == 0 || string(act) == "null" {
			// No action: the runner's note that it stopped the run, or a line of another
			// kind (a human run's instruction); only the note says anything.
			a.text(loopguard.SourceHarness, errText, "", 0)
			return nil
		}
		step := string(bytesTrimSpace(s.StepNum))
		if step == "" {
			step = "line " + strconv.Itoa(line)
		}
		said := rawString(s.Response)
		tool, args, rawResponse := osworldAction(s.Action)
		if said == "" {
			said = rawResponse
		}
		failedNote := ""
		if verb, target, ok := osworldFailedAction(said); ok {
			failedNote, tool, args = said, verb, []byte(target)
			if target == "" {
				args = nil
			}
		} else if step != lastStep || said != lastSaid {
			// The prediction's words, once for all its actions.
			a.text("model", said, "", 0)
		}
		if n := len(a.events); failedNote == "" && errText == "" && step == lastStep && tool == "pyautogui" && isBarePointerAction(string(args)) &&
			n > 0 && a.events[n-1].Type == loopguard.EventCall && a.events[n-1].Turn == "step "+step && isPointerMove(string(a.events[n-1].Args)) {
			// A click with no place of its own, right after a move in the same step, clicks
			// where the move went: one action. Claude's computer-use adapter writes every
			// click so, `pyautogui.moveTo(546, 364)` then `pyautogui.click()`; read apart, the
			// clicks of a run were all one call made again, whatever they clicked on
			// (validation round r180b G2).
			prev := &a.events[n-1]
			prev.Args = append(append(prev.Args, '\n'), args...)
			if out := osworldOutcome(s); out != "" {
				*prev = prev.WithResult(out, false)
			}
			return nil
		}
		lastStep, lastSaid = step, said
		call := loopguard.Call("", tool, args)
		call.Turn = "step " + step
		switch {
		case errText != "":
			call = call.WithResult(errText, true)
		case failedNote != "":
			call = call.WithResult(failedNote, true)
		default:
			if out := osworldOutcome(s); out != "" {
				call = call.WithResult(out, false) // else nothing recorded: the answer is unknown
			}
		}
		a.add(call)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return withDamaged(b.done(), damaged), nil
}

// pyautoguiCall returns the pyautogui function code calls and what follows its name, when
// code is one such call, perhaps after `import pyautogui;`: "moveTo", "(546, 364)".
func pyautoguiCall(code string) (name, rest string, ok bool) {
	code = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(code), "import pyautogui;"))
	if code, ok = strings.CutPrefix(code, "pyautogui."); !ok {
		return "", "", false
	}
	name, rest, ok = strings.Cut(code, "(")
	return name, "(" + rest, ok && strings.HasSuffix(rest, ")")
}

// isPointerMove says whether pyautogui code only moves the pointer to a place:
// `pyautogui.moveTo(546, 364)`, perhaps after `import pyautogui;`.
func isPointerMove(code string) bool {
	name, rest, ok := pyautoguiCall(code)
	return ok && name == "moveTo" && strings.Count(rest, "(") == 1
}

// isBarePointerAction says whether pyautogui code is one pointer action that names no place,
// acting where the pointer is: `pyautogui.click()`, `doubleClick()`, `rightClick()`,
// `tripleClick()`, `middleClick()`, `mouseDown()`, `mouseUp()`.
func isBarePointerAction(code string) bool {
	name, rest, ok := pyautoguiCall(code)
	switch name {
	case "click", "doubleClick", "rightClick", "tripleClick", "middleClick", "mouseDown", "mouseUp":
		return ok && rest == "()"
	}
	return false
}

// osworldAction names the call an action line holds: its tool, its arguments as written, and
// the model's reply when the action object carries it (raw_response).
func osworldAction(action json.RawMessage) (tool string, args []byte, response string) {
	action = bytesTrimSpace(action)
	if len(action) > 0 && action[0] == '{' {
		var obj map[string]json.RawMessage
		if json.Unmarshal(action, &obj) != nil {
			return "action", rawArgs(action), ""
		}
		tool = rawString(obj["action_type"])
		if tool == "" {
			tool = "action"
		}
		response = rawString(obj["raw_response"])
		if _, ok := obj["raw_response"]; ok {
			delete(obj, "raw_response")
			return tool, marshalArgs(obj), response
		}
		return tool, rawArgs(action), response
	}
	code := strings.TrimSpace(jsonText(action))
	switch code {
	case "WAIT", "FAIL", "DONE":
		return code, nil, ""
	}
	code, words := withoutBareStrings(code)
	code, comments := withoutCommentsAndPauses(code)
	if comments != "" {
		if words != "" {
			words += "\n"
		}
		words += comments
	}
	return "pyautogui", []byte(code), words
}

// withoutCommentsAndPauses returns pyautogui code without its comments and, when it does
// anything else, its pauses, and the comments' text. A comment does nothing when the code
// runs: the model's words ("# Adjusted coordinates for the OK button"), written afresh at each
// step, made one menu's code sent four times four different calls (validation round r148a
// U1). A pause between GUI actions (time.sleep(1) after a click) lets the screen settle; the
// runner looks at the screen after the step whatever the code does, so the pause makes no
// action a look at something moving by itself, as a sleep before a check does (r148a U2: every
// click followed by a pause read as a wait). Code that only pauses is a wait, and stays.
func withoutCommentsAndPauses(code string) (string, string) {
	if !strings.Contains(code, "#") && !strings.Contains(code, "sleep(") {
		return code, ""
	}
	var kept []string
	var words []string
	acts := false // a statement other than an import or a pause
	for line := range strings.SplitSeq(code, "\n") {
		stmt, comment := pythonComment(line)
		if c := strings.TrimSpace(comment); c != "" {
			words = append(words, c)
		}
		t := strings.TrimSpace(stmt)
		if t == "" {
			continue
		}
		if !strings.HasPrefix(t, "import ") && !strings.HasPrefix(t, "from ") && !isPause(t) {
			acts = true
		}
		kept = append(kept, strings.TrimRight(stmt, " \t"))
	}
	if acts {
		k := kept[:0]
		for _, l := range kept {
			if !isPause(strings.TrimSpace(l)) {
				k = append(k, l)
			}
		}
		kept = k
	}
	return strings.Join(kept, "\n"), strings.Join(words, "\n")
}

// isPause says whether a Python statement is only a pause: time.sleep(n) or sleep(n).
func isPause(stmt string) bool {
	stmt = strings.TrimPrefix(stmt, "time.")
	return strings.HasPrefix(stmt, "sleep(") && strings.HasSuffix(stmt, ")") && !strings.Contains(stmt[len("sleep("):], "(")
}

// pythonComment cuts a line of Python at its comment: a '#' outside a string literal.
func pythonComment(line string) (stmt, comment string) {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == '\\':
			i++ // an escaped character
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		case quote == 0 && c == '#':
			return line[:i], line[i+1:]
		}
	}
	return line, ""
}

// withoutBareStrings returns Python code without the triple-quoted strings that stand as
// statements of their own, and their text: such a string does nothing when the code runs.
// OSWorld's runs of UI-TARS and Doubao put the model's thought in one, before the click
// ("Observation: ... Thought: I picked the wrong colour twice ..."), and each repeat of one
// click, its thought reworded, read as another call (validation round r147c U2: 87 identical
// clicks untold).
func withoutBareStrings(code string) (string, string) {
	if !strings.Contains(code, `'''`) && !strings.Contains(code, `"""`) {
		return code, ""
	}
	var kept, words strings.Builder
	rest := code
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		trimmed := strings.TrimLeft(line, " \t")
		quote := ""
		switch {
		case strings.HasPrefix(trimmed, `'''`):
			quote = `'''`
		case strings.HasPrefix(trimmed, `"""`):
			quote = `"""`
		}
		if quote != "" {
			body := rest[len(line)-len(trimmed)+3:]
			if end := strings.Index(body, quote); end >= 0 {
				tail := strings.TrimLeft(body[end+3:], " \t")
				if next, ok := strings.CutPrefix(tail, "\n"); ok || tail == "" {
					// the string is the statement: nothing but blanks after it on its line
					if words.Len() > 0 {
						words.WriteByte('\n')
					}
					words.WriteString(strings.TrimSpace(body[:end]))
					rest = next
					continue
				}
			}
		}
		kept.WriteString(line)
		kept.WriteByte('\n')
		rest = after
	}
	return strings.TrimSpace(kept.String()), words.String()
}

// osworldFailedAction reads an agent's note that its action could not be carried out,
// "click(failed):File menu": the action and its target as written.
func osworldFailedAction(response string) (verb, target string, ok bool) {
	verb, target, ok = strings.Cut(strings.TrimSpace(response), "(failed)")
	if !ok || verb == "" || strings.ContainsAny(verb, " \t\n(") {
		return "", "", false
	}
	return verb, strings.TrimSpace(strings.TrimPrefix(target, ":")), true
}

// osworldError is what a step's error field says, "" when it has none.
func osworldError(s osworldStep) string {
	for _, v := range []json.RawMessage{s.Error, s.ErrorCap} {
		v = bytesTrimSpace(v)
		if len(v) == 0 || string(v) == "null" || string(v) == "false" {
			continue
		}
		if t := strings.TrimSpace(jsonText(v)); t != "" && t != "{}" {
			return t
		}
	}
	return ""
}

// osworldOutcome is what a step recorded after its action: reward, done, info when it says
// anything, and the screenshot the agent was shown next.
func osworldOutcome(s osworldStep) string {
	var parts []string
	if r := bytesTrimSpace(s.Reward); len(r) > 0 {
		parts = append(parts, "reward: "+string(r))
	}
	if d := bytesTrimSpace(s.Done); len(d) > 0 {
		parts = append(parts, "done: "+string(d))
	}
	if info := rawArgs(s.Info); len(info) > 0 && !bytes.Equal(info, []byte("{}")) {
		parts = append(parts, "info: "+string(info))
	}
	text := strings.Join(parts, ", ")
	if s.ScreenshotFile != "" {
		text = strings.TrimSpace(text + "\n[screenshot: " + s.ScreenshotFile + "]")
	}
	return text
}
