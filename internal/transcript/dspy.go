package transcript

import (
	"bufio"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// DSPy's ReAct module keeps a run as one dict whose keys are numbered per step, and what the
// tutorials print of a run (print(react(...))) is the Prediction holding it:
//
//	Prediction(
//	    trajectory={'thought_0': 'I need the itinerary first.', 'tool_name_0': 'fetch_itinerary',
//	      'tool_args_0': {'confirmation_number': '7zokt5v5'}, 'observation_0': None, ...,
//	      'thought_3': '...', 'tool_name_3': 'finish', 'tool_args_3': {}, 'observation_3': 'Completed.'},
//	    reasoning="I attempted to ...",
//	    process_result='A ticket has been filed ...'
//	)
//
// The values are Python reprs (single quotes, None, objects such as Flight(flight_id='DA123')).
// The same dict is printed bare (print(pred.trajectory)) or dumped as JSON. Step i is the
// model's thought_i, then the call tool_name_i(tool_args_i) answered by observation_i. DSPy
// writes a tool's exception into the observation ("Execution error in <tool>: ...", "Failed
// to execute: ..." before release 2.6): that call failed. "finish" is the model saying it is
// done: ReAct runs it as a tool that always answers "Completed." and stops, so it is read as
// the end of the run and not as a call (else every run would end with the same call, which is
// no work the agent did). The fields after the trajectory are the model's closing words.
//
// dspy.inspect_history() prints the LM calls of a run instead, each repeating the run so far
// in its user message as "[[ ## thought_N ## ]]" / "[[ ## tool_name_N ## ]]" / ... blocks
// under "[[ ## trajectory ## ]]", the task in the input fields before it, and the model's
// answer under "Response:" (the next step, or the closing reasoning and outputs). A run is
// read from its last LM call: the steps it repeats, and the step its response proposes,
// unanswered. Few-shot demos ("User message:" answered by "Assistant message:") are examples,
// not the run. A call for other inputs, or with fewer steps than the last of the same inputs,
// is another run.
//
// Each run is a session of its own. A notebook that prints a run both ways (its Prediction,
// then its history) shows one run twice: the second printing, same thoughts and tools, is
// left out.
//
// Written from DSPy's react.py and chat adapter and the tutorials' printed runs (validation
// round r190a G1 and G2: customer_service_agent and agents notebooks, the mcp page).

// dspyStepKeys are the prefixes of a trajectory's numbered keys.
var dspyStepKeys = [...]string{"thought", "tool_name", "tool_args", "observation"}

// dspyFailures open the observation DSPy writes when a tool raised.
var dspyFailures = [...]string{"Execution error in ", "Failed to execute: "}

// dspyFinish is the tool with which the model ends a ReAct run.
const dspyFinish = "finish"

// dspyMaxStep bounds a step's number, so that no key can make the reader allocate much.
const dspyMaxStep = 10000

// isDSPyHead says whether a text's head holds a printed DSPy ReAct run: a trajectory dict
// (the Prediction's, or one printed on a line of its own) holding a step's tool, or an
// inspect_history dump whose user message carries a trajectory.
func isDSPyHead(head []byte) bool {
	s := string(head)
	if at, _ := dspyTrajectoryStart(s, 0); at >= 0 {
		return strings.Contains(s[at:], "tool_name_0")
	}
	return isDSPyHistory(s)
}

// isDSPyHistory says whether a text holds an inspect_history dump of a ReAct module.
func isDSPyHistory(s string) bool {
	return strings.Contains(s, "User message:") && strings.Contains(s, "[[ ## trajectory ## ]]") &&
		(strings.Contains(s, "[[ ## tool_name_0 ## ]]") || strings.Contains(s, "[[ ## next_tool_name ## ]]"))
}

func readDSPy(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	text := strings.Join(lines, "\n")
	runs := append(dspyPredictionRuns(text), dspyHistoryRuns(lines)...)
	slices.SortStableFunc(runs, func(x, y dspyRun) int { return x.at - y.at })
	runs = dspyDistinctRuns(runs)
	if len(runs) == 0 {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no DSPy ReAct trajectory", ErrUnknownFormat)}
	}
	b := newBuilder(FormatDSPy)
	for i, run := range runs {
		b.session = i
		run.emit(b.agent(MainAgent))
	}
	t := b.done()
	t.Sessions = len(runs)
	return t, nil
}

// dspyStep is one step of a trajectory.
type dspyStep struct {
	thought, tool string
	args          []byte
	result        string
	answered      bool // the trajectory holds the step's observation
}

// dspyRun is one ReAct run: where in the text it was printed, the task when the printing
// shows it, its steps and the model's closing words.
type dspyRun struct {
	at      int
	task    string
	steps   []dspyStep
	closing []string
	history bool // read from an inspect_history dump
}

// emit adds the run's events to its agent.
func (r *dspyRun) emit(a *agentBuf) {
	if r.task != "" {
		a.user(r.task, 0)
	}
	for _, s := range r.steps {
		a.said(s.thought)
		if s.tool == "" || s.tool == dspyFinish {
			continue
		}
		call := loopguard.Call("", s.tool, s.args)
		if s.answered {
			call = call.WithResult(s.result, dspyFailed(s.result))
		}
		a.add(call)
	}
	for _, words := range r.closing {
		a.said(words)
	}
}

// dspyFailed says whether an observation is DSPy's account of the tool raising.
func dspyFailed(result string) bool {
	for _, prefix := range dspyFailures {
		if strings.HasPrefix(result, prefix) {
			return true
		}
	}
	return false
}

// signature is what two printings of one run share whatever their layout: the thoughts and
// tools in order (observations differ: a repr in the Prediction, a formatted text in the
// history).
func (r *dspyRun) signature() string {
	var sig strings.Builder
	for _, s := range r.steps {
		sig.WriteString(strings.TrimSpace(s.thought))
		sig.WriteByte(0)
		sig.WriteString(s.tool)
		sig.WriteByte(0)
	}
	return sig.String()
}

// dspyDistinctRuns leaves out a run printed again in the other layout (a notebook shows a
// run's Prediction and then its history), giving the one kept the task only the other shows.
func dspyDistinctRuns(runs []dspyRun) []dspyRun {
	var kept []dspyRun
	var keptSigs []string
	for _, r := range runs {
		sig := r.signature()
		same := -1
		for i := range kept {
			if kept[i].history != r.history && keptSigs[i] == sig {
				same = i
				break
			}
		}
		if same < 0 {
			kept, keptSigs = append(kept, r), append(keptSigs, sig)
			continue
		}
		if kept[same].task == "" {
			kept[same].task = r.task
		}
	}
	return kept
}

// dspyTrajectoryStart is where the first trajectory dict whose first key is at or after from
// opens, or -1, and where that key ends: a '{' whose first key is 'thought_0' (or
// "thought_0"), written as a Prediction's trajectory field or first on its line. A dict of
// that key elsewhere (in code, in a table's cell) is not a printed run.
func dspyTrajectoryStart(s string, from int) (open, next int) {
	for from < len(s) {
		k := strings.Index(s[from:], "thought_0")
		if k < 0 {
			return -1, len(s)
		}
		key := from + k
		from = key + len("thought_0")
		if key == 0 || (s[key-1] != '\'' && s[key-1] != '"') || from >= len(s) || s[from] != s[key-1] {
			continue
		}
		open := len(strings.TrimRight(s[:key-1], " \t\r\n")) - 1
		if open < 0 || s[open] != '{' {
			continue
		}
		before := s[:open]
		if isDSPyPredictionField(before) {
			return open, from
		}
		// First on its line: only blanks back to the line's start (looked at without
		// scanning the whole line, so that many dicts on one line cost no more than one).
		if indent := strings.TrimRight(before, " \t\r"); indent == "" || indent[len(indent)-1] == '\n' {
			return open, from
		}
	}
	return -1, len(s)
}

// isDSPyPredictionField says whether the text before a dict ends the way a Prediction's repr
// opens its trajectory field ("Prediction(\n    trajectory="): code constructing one
// (dspy.Prediction(trajectory={...}) in a test) is no printed run.
func isDSPyPredictionField(before string) bool {
	call, ok := strings.CutSuffix(before, "trajectory=")
	if !ok {
		return false
	}
	call, ok = strings.CutSuffix(strings.TrimRight(call, " \t\r\n"), "Prediction(")
	return ok && (call == "" || !isPyNameByte(call[len(call)-1]) && call[len(call)-1] != '.')
}

// dspyPredictionRuns reads the trajectory dicts printed in a text, each a run, with the
// fields after it when it is a Prediction's.
func dspyPredictionRuns(text string) []dspyRun {
	var runs []dspyRun
	for from := 0; ; {
		at, next := dspyTrajectoryStart(text, from)
		if at < 0 {
			return runs
		}
		from = next
		pairs, rest, complete := dspyDict(text[at:])
		steps := dspySteps(pairs)
		if len(steps) == 0 {
			continue
		}
		run := dspyRun{at: at, steps: steps}
		if complete && isDSPyPredictionField(text[:at]) {
			run.closing = dspyPredictionFields(rest)
		}
		runs = append(runs, run)
	}
}

// dspyPair is a key of a printed dict with its value, decoded and as written.
type dspyPair struct {
	key   string
	value any
	raw   string
}

// dspyDict reads the dict s opens with, keeping each value's text as written, and returns its
// pairs, the text after it, and whether it was read to its end: a dict cut short gives the
// pairs before the cut. An elision ("...", as a page shortening a run writes it) is passed
// over.
func dspyDict(s string) ([]dspyPair, string, bool) {
	var pairs []dspyPair
	s = s[1:]
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if rest, ok := strings.CutPrefix(s, "}"); ok {
			return pairs, rest, true
		}
		if rest, ok := strings.CutPrefix(s, "..."); ok {
			s = pyNextItem(rest)
			continue
		}
		key, rest, ok := pyRepr(s)
		name, isString := key.(string)
		if !ok || !isString {
			return pairs, rest, false
		}
		rest = strings.TrimLeft(rest, " \t\r\n")
		if !strings.HasPrefix(rest, ":") {
			return pairs, rest, false
		}
		valueText := strings.TrimLeft(rest[1:], " \t\r\n")
		v, after, ok := pyRepr(valueText)
		if !ok {
			return pairs, after, false
		}
		pairs = append(pairs, dspyPair{key: name, value: v, raw: strings.TrimSpace(valueText[:len(valueText)-len(after)])})
		s = pyNextItem(after)
	}
}

// dspySteps orders a trajectory's numbered keys into steps; other keys are passed over.
func dspySteps(pairs []dspyPair) []dspyStep {
	byNumber := map[int]*dspyStep{}
	for _, p := range pairs {
		cut := strings.LastIndexByte(p.key, '_')
		if cut < 0 {
			continue
		}
		n, err := strconv.Atoi(p.key[cut+1:])
		if err != nil || n < 0 || n > dspyMaxStep || !slices.Contains(dspyStepKeys[:], p.key[:cut]) {
			continue
		}
		s := byNumber[n]
		if s == nil {
			s = &dspyStep{}
			byNumber[n] = s
		}
		switch p.key[:cut] {
		case "thought":
			s.thought = dspyValueText(p)
		case "tool_name":
			s.tool = strings.TrimSpace(dspyValueText(p))
		case "tool_args":
			s.args = dspyArgs(p)
		case "observation":
			s.result, s.answered = dspyValueText(p), true
		}
	}
	numbers := make([]int, 0, len(byNumber))
	for n := range byNumber {
		numbers = append(numbers, n)
	}
	slices.Sort(numbers)
	var steps []dspyStep
	for _, n := range numbers {
		if s := byNumber[n]; s.tool != "" || s.thought != "" {
			steps = append(steps, *s)
		}
	}
	if !slices.ContainsFunc(steps, func(s dspyStep) bool { return s.tool != "" }) {
		return nil // thoughts alone: no run's trajectory
	}
	return steps
}

// dspyValueText is a value as text: a string's own text, anything else (None, a list, an
// object's repr) as printed.
func dspyValueText(p dspyPair) string {
	if s, ok := p.value.(string); ok {
		return s
	}
	return p.raw
}

// dspyArgs is a step's arguments as JSON: as written when they are JSON (a dumped
// trajectory), else the dict decoded from its repr; anything else whole under "input".
func dspyArgs(p dspyPair) []byte {
	if strings.HasPrefix(p.raw, "{") && json.Valid([]byte(p.raw)) {
		var v any
		if json.Unmarshal([]byte(p.raw), &v) == nil {
			if b := marshalArgs(v); b != nil {
				return b
			}
		}
	}
	if m, ok := p.value.(map[string]any); ok {
		if b := marshalArgs(m); b != nil {
			return b
		}
	}
	if b, ok := pyDictJSON(p.raw); ok {
		return b // a model's next_tool_args written as a Python dict
	}
	return marshalArgs(map[string]string{"input": dspyValueText(p)})
}

// dspyPredictionFields reads the keyword fields after a Prediction's trajectory, s just after
// the dict, up to the Prediction's ')': each the model's words (its reasoning, its outputs).
func dspyPredictionFields(s string) []string {
	var words []string
	for {
		s = strings.TrimLeft(pyNextItem(s), " \t\r\n")
		eq := pyKeyword(s)
		if eq == 0 {
			return words
		}
		valueText := strings.TrimLeft(s[eq+1:], " \t\r\n")
		v, rest, ok := pyRepr(valueText)
		if !ok {
			return words
		}
		if text := dspyValueText(dspyPair{value: v, raw: strings.TrimSpace(valueText[:len(valueText)-len(rest)])}); text != "None" {
			words = append(words, text)
		}
		s = rest
	}
}

// dspyField is one "[[ ## name ## ]]" field of an LM call and its text.
type dspyField struct {
	name, text string
}

// dspyFields reads the fields of a message's lines.
func dspyFields(lines []string) []dspyField {
	var fields []dspyField
	for _, l := range lines {
		if name, ok := dspyMarker(l); ok {
			fields = append(fields, dspyField{name: name})
			continue
		}
		if n := len(fields); n > 0 {
			fields[n-1].text += l + "\n"
		}
	}
	for i := range fields {
		fields[i].text = strings.TrimSpace(fields[i].text)
	}
	return fields
}

// dspyMarker reads a field's marker line ("[[ ## next_tool_name ## ]]").
func dspyMarker(line string) (string, bool) {
	t := strings.TrimSpace(line)
	rest, ok := strings.CutPrefix(t, "[[ ## ")
	if !ok {
		return "", false
	}
	name, ok := strings.CutSuffix(rest, " ## ]]")
	if !ok || name == "" || strings.ContainsAny(name, " #[]") {
		return "", false
	}
	return name, true
}

// dspyLMCall is one LM call of an inspect_history dump: the inputs and trajectory of its
// last user message, and its response.
type dspyLMCall struct {
	at       int
	task     string
	steps    []dspyStep
	response []dspyField
}

// dspyHistoryRuns reads the ReAct runs of the inspect_history dumps in a text's lines.
func dspyHistoryRuns(lines []string) []dspyRun {
	var calls []dspyLMCall
	const (
		elsewhere = iota
		inUser
		inDemoAnswer
		inResponse
	)
	mode, offset, callAt := elsewhere, 0, -1
	var user, response []string
	closeCall := func() {
		if mode == inResponse && user != nil {
			if c, ok := dspyReadLMCall(user, response); ok {
				c.at = callAt
				calls = append(calls, c)
			}
		}
		user, response, callAt = nil, nil, -1
	}
	for _, l := range lines {
		at := offset
		offset += len(l) + 1
		switch t := strings.TrimSpace(l); {
		case t == "System message:" || dspyTimestampLine(t):
			closeCall()
			mode = elsewhere
			if callAt < 0 {
				callAt = at
			}
		case t == "User message:":
			if mode == inResponse {
				closeCall()
			}
			if callAt < 0 {
				callAt = at
			}
			mode, user = inUser, []string{}
		case t == "Assistant message:":
			mode, user = inDemoAnswer, nil // the user message before it was a demo
		case t == "Response:":
			mode, response = inResponse, []string{}
		case mode == inUser:
			if strings.HasPrefix(t, "Respond with the corresponding output fields") {
				mode = elsewhere // the adapter's instruction, not a field's text
				continue
			}
			user = append(user, l)
		case mode == inResponse:
			response = append(response, l)
		}
	}
	closeCall()
	return dspyJoinCalls(calls)
}

// dspyTimestampLine says whether a line is the time inspect_history prints over each LM call
// ("[2024-12-17T15:13:25.420335]").
func dspyTimestampLine(t string) bool {
	return len(t) >= 21 && t[0] == '[' && t[len(t)-1] == ']' && t[5] == '-' && t[8] == '-' && t[11] == 'T' &&
		strings.Count(t, ":") == 2
}

// dspyReadLMCall reads an LM call from its last user message and its response; false when
// the message has no trajectory (a call of another module).
func dspyReadLMCall(user, response []string) (dspyLMCall, bool) {
	var c dspyLMCall
	var inputs []dspyField
	var steps []dspyPair
	seen := false
	for _, f := range dspyFields(user) {
		switch {
		case f.name == "trajectory":
			seen = true // its steps are the blocks that follow it
		case !seen:
			inputs = append(inputs, f)
		default:
			steps = append(steps, dspyHistoryPair(f))
		}
	}
	if !seen {
		return c, false
	}
	c.task = dspyTask(inputs)
	c.steps = dspySteps(steps)
	c.response = dspyFields(response)
	return c, true
}

// dspyHistoryPair is a trajectory field as a dict's pair: its arguments are JSON there.
func dspyHistoryPair(f dspyField) dspyPair {
	var v any = f.text
	if strings.HasPrefix(f.name, "tool_args_") {
		var decoded any
		if json.Unmarshal([]byte(f.text), &decoded) == nil {
			v = decoded
		}
	}
	return dspyPair{key: f.name, value: v, raw: f.text}
}

// dspyTask is the run's task: its one input field's text, or its input fields each named.
func dspyTask(inputs []dspyField) string {
	if len(inputs) == 1 {
		return inputs[0].text
	}
	var parts []string
	for _, f := range inputs {
		parts = append(parts, f.name+": "+f.text)
	}
	return strings.Join(parts, "\n\n")
}

// dspyJoinCalls makes runs of LM calls: a call belongs to the last run of its task whose
// steps it repeats and goes on from (as many steps or more), and the run is read from its
// last call.
func dspyJoinCalls(calls []dspyLMCall) []dspyRun {
	var runs []dspyRun
	var last []dspyLMCall // each run's last call
	for _, c := range calls {
		joined := false
		for i := len(runs) - 1; i >= 0; i-- {
			if last[i].task == c.task && len(c.steps) >= len(last[i].steps) {
				last[i], joined = c, true
				break
			}
		}
		if !joined {
			runs = append(runs, dspyRun{at: c.at, history: true})
			last = append(last, c)
		}
	}
	for i := range runs {
		c := last[i]
		runs[i].task = c.task
		runs[i].steps = c.steps
		runs[i].steps, runs[i].closing = dspyResponse(c.steps, c.response)
	}
	return runs
}

// dspyResponse adds an LM call's response to the steps its message repeats: the next step,
// unanswered (the dump ends before its observation), or the run's closing words.
func dspyResponse(steps []dspyStep, response []dspyField) ([]dspyStep, []string) {
	var next dspyStep
	var closing []string
	proposes := false
	for _, f := range response {
		switch f.name {
		case "completed":
		case "next_thought":
			next.thought, proposes = f.text, true
		case "next_tool_name":
			next.tool, proposes = f.text, true
		case "next_tool_args":
			next.args, proposes = dspyArgs(dspyHistoryPair(dspyField{name: "tool_args_0", text: f.text})), true
		default:
			if f.text != "" {
				closing = append(closing, f.text)
			}
		}
	}
	if proposes {
		steps = append(slices.Clip(steps), next)
	}
	return steps, closing
}
