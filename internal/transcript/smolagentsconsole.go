package transcript

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/loopguard/loopguard"
)

// Hugging Face's smolagents prints an agent's run to the console with rich, and that output is
// what course and demo repositories keep of a run (pasted into a README or saved as a log):
//
//	╭──────────────── New run ────────────────╮
//	│ Search for the best music for a party   │
//	╰─ LiteLLMModel - gpt-4o ─────────────────╯
//	━━━━━━━━━━━━━━━━━━ Step 1 ━━━━━━━━━━━━━━━━━━
//	 ─ Executing parsed code: ───────────────────
//	  results = web_search(query="party music")
//	  print(results)
//	 ────────────────────────────────────────────
//	Execution logs:
//	...
//	Out: None
//	[Step 1: Duration 4.54 seconds| Input tokens: 2,063 | Output tokens: 93]
//
// A CodeAgent's step runs the code it wrote (the call: tool python_interpreter, its code the
// argument, as smolagents' own memory names it); what it printed ("Execution logs:"), its
// value ("Out: ...") or the error it raised ("Code execution failed at line ... due to: ...")
// is the result, up to the step's closing line. Code whose value is not printed by then
// raised: releases of early 2025 ("─ Executing this code:", steps from 0) print the error
// bare. A ToolCallingAgent's step calls tools in
// panels ("│ Calling tool: 'web_search' with arguments: {...} │"), each answered by an
// "Observations: ..." line and what follows it, or by the error smolagents prints in its
// place ("Error executing tool 'x' with arguments ...: ..."), in the order they were called.
// "Final answer: ..." (earlier releases: "Out - Final answer: ...") ends the agent's run.
//
// Each "New run" panel is a run: a session of its own, unless it is a managed agent's run
// ("New run - <name>") started by a call of the agent whose step is under way, whose output it
// then interrupts: the managed agent is an agent of its own, and the caller's call is answered
// after the managed agent's final answer. The model's words are printed only at debug
// verbosity ("Output message of the LLM:"), and read where they are. Lines of other loggers
// (httpx, LiteLLM) and the spinner's "⠋ Thinking..." are no part of what a call printed.
//
// Written from smolagents' logger (monitoring.py, agents.py) and three real consoles of
// CodeAgent and ToolCallingAgent runs (validation round r114b U4).

// smolStepEnd reads a step's closing line ("[Step 3: Duration 2.65 seconds| Input tokens: ...").
var smolStepEnd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[Step \d+: Duration `) })

// smolNoise reads the lines other loggers interleave with an agent's output.
var smolNoise = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(?:INFO|DEBUG|WARNING|ERROR):(?:httpx|httpcore|LiteLLM|openai)\b|\d\d:\d\d:\d\d - LiteLLM:|LiteLLM completion\(\) model=)`)
})

// smolFailures open what smolagents prints in place of a call's result when the call failed.
var smolFailures = []string{"Code execution failed", "Error executing tool", "Error when executing tool", "Error in tool call execution", "Error: "}

// smolCodePanels are the titles of the panel of code a CodeAgent runs: "Executing parsed
// code:" today, "Executing this code:" in releases of early 2025, "Executing code:" in a
// fork's runs (validation round r118c U1: three consoles whose main agent read no call).
var smolCodePanels = [...]string{"─ Executing parsed code:", "─ Executing this code:", "─ Executing code:"}

// isSmolagentsHead says whether a text's head is smolagents' console output: a step's rule
// ("━━━ Step 1 ━━━") and, after it, code executed, a tool called, or the model's words
// (printed at debug verbosity; a run whose only step failed to parse shows nothing else).
func isSmolagentsHead(head []byte) bool {
	i := bytes.Index(head, []byte("━ Step "))
	if i < 0 {
		return false
	}
	rest := head[i:]
	for _, title := range smolCodePanels {
		if bytes.Contains(rest, []byte(title)) {
			return true
		}
	}
	return bytes.Contains(rest, []byte("│ Calling tool: '")) || bytes.Contains(rest, []byte("Output message of the LLM:"))
}

// smolRun follows one agent's run: the calls it made whose results are still to come.
type smolRun struct {
	a       *agentBuf
	waiting []int    // the tool calls made and not answered yet, in order
	open    int      // the call whose result is being read, or -1
	lines   []string // that result's lines so far
	failed  bool
	code    bool // the result is that of code executed
	out     bool // the code's value was printed ("Out: ...", or its final answer)
	done    bool // the run gave its final answer
}

// answer closes the result being read, if any.
func (r *smolRun) answer() {
	if r.open < 0 {
		return
	}
	e := &r.a.events[r.open]
	*e = e.WithResult(strings.TrimSpace(strings.Join(r.lines, "\n")), r.failed)
	r.open, r.lines, r.failed, r.code, r.out = -1, nil, false, false, false
}

// stepEnd closes the step's result. Code that ran through has its value printed ("Out: ...",
// or its final answer); code that raised has not, and its error may be printed bare, as
// releases of early 2025 do ("name 'engine' is not defined"): a code result with no value
// printed by the step's end is a failure.
func (r *smolRun) stepEnd() {
	if r.open >= 0 && r.code && !r.out {
		r.failed = true
	}
	r.answer()
}

// result starts the result of call idx with its first line.
func (r *smolRun) result(idx int, first string) {
	r.answer()
	r.open, r.lines, r.failed = idx, []string{first}, smolFailed(first)
}

// nextResult starts the result of the oldest tool call waiting for one.
func (r *smolRun) nextResult(first string) {
	if len(r.waiting) == 0 {
		r.answer()
		return
	}
	idx := r.waiting[0]
	r.waiting = r.waiting[1:]
	r.result(idx, first)
}

func smolFailed(line string) bool {
	for _, f := range smolFailures {
		if strings.HasPrefix(line, f) {
			return true
		}
	}
	return false
}

func readSmolagentsConsole(name string, br *bufio.Reader) (*built, error) {
	lines, err := terminalLines(name, br)
	if err != nil {
		return nil, err
	}
	b := newBuilder(FormatSmolagentsConsole)
	var runs []*smolRun // the run under way, and the runs whose call started it
	top := func() *smolRun {
		if len(runs) == 0 {
			return nil
		}
		return runs[len(runs)-1]
	}
	sessions := 0
	const (
		reading   = iota // results, or nothing
		task             // a run's task, in its panel
		code             // the code being executed
		toolPanel        // a tool's call, in its panel
		words            // the model's output message
		refusal          // smolagents' answer to a reply it found no code in
	)
	mode := reading
	var buf []string
	var runName string
	codeBoxed := false // the code being executed is in a box ("╭─ Executing this code: ─╮"), rows "│ ... │"
	for _, line := range lines {
		line = smolLine(line)
		t := strings.TrimSpace(line)
		if smolNoise().MatchString(t) {
			continue
		}
		r := top()
		switch mode {
		case task:
			if strings.HasPrefix(t, "╰") {
				mode = reading
				r = smolStart(b, &runs, runName, &sessions)
				r.a.user(strings.TrimSpace(strings.Join(buf, "\n")), 0)
				continue
			}
			buf = append(buf, smolPanelText(t))
			continue
		case code:
			if codeBoxed && strings.HasPrefix(t, "╰") || !codeBoxed && t != "" && strings.Trim(t, "─") == "" {
				mode = reading
				if r == nil {
					r = smolStart(b, &runs, "", &sessions)
				}
				source := smolCode(buf)
				if codeBoxed {
					source = smolBoxedCode(buf)
				}
				idx := r.a.add(loopguard.Call("", "python_interpreter", marshalArgs(map[string]string{"code": source})))
				r.result(idx, "")
				r.code = true
				continue
			}
			if codeBoxed {
				line = strings.TrimSuffix(strings.TrimPrefix(t, "│"), "│")
			}
			buf = append(buf, line)
			continue
		case toolPanel:
			if strings.HasPrefix(t, "╰") {
				mode = reading
				smolToolCall(r, strings.Join(buf, " "))
				continue
			}
			buf = append(buf, smolPanelText(t))
			continue
		}
		if mode == words || mode == refusal {
			if !smolMarker(t) && !(mode == words && smolParseError(t)) {
				buf = append(buf, line)
				continue
			}
			if r != nil {
				source := "model"
				if mode == refusal {
					source = loopguard.SourceHarness
				}
				r.a.text(source, strings.TrimSpace(strings.Join(buf, "\n")), "", 0)
			}
			mode, buf = reading, nil
		}
		switch {
		case strings.HasPrefix(t, "╭") && strings.Contains(t, " New run"):
			// (the result under way stays open: the run may be a managed agent's, started by
			// the call whose result it is; smolStart closes it if not)
			runName = ""
			if k := strings.Index(t, " New run - "); k >= 0 {
				runName = strings.TrimSpace(strings.TrimRight(t[k+len(" New run - "):], "─╮ "))
			}
			mode, buf = task, nil
		case strings.HasPrefix(t, "━") && strings.Contains(t, " Step "):
			if r != nil {
				r.answer()
			}
		case smolStepEnd().MatchString(t):
			if r == nil {
				continue
			}
			r.stepEnd()
			if r.done && len(runs) > 1 {
				runs = runs[:len(runs)-1] // a managed agent's run ended: its caller's output goes on
			}
		case smolExecuting(t):
			if r != nil {
				r.answer()
			}
			// Releases before "Executing parsed code" drew the code in a rounded box, its rows
			// numbered (validation round r187b G4: a run pasted into smolagents' guided tour read
			// no call, its box never closed by a rule).
			mode, buf, codeBoxed = code, nil, strings.HasPrefix(t, "╭")
		case strings.HasPrefix(t, "│ Calling tool: '") && r != nil:
			r.answer()
			mode, buf = toolPanel, []string{smolPanelText(t)}
		case strings.Contains(t, "Output message of the LLM:") && r != nil:
			r.answer()
			mode, buf = words, nil
		case smolParseError(t) && r != nil && r.open < 0:
			// The reply held no code to run (a small model writing on to its token limit): the
			// harness's refusal ends the model's turn, and its next reply is a turn of its own.
			mode, buf = refusal, []string{t}
		case strings.HasPrefix(t, "╭") || strings.HasPrefix(t, "╰"):
			// a panel's border (a tool call's, which its next line opens)
		case r == nil:
		case strings.HasPrefix(t, "Observations:") || len(r.waiting) > 0 && smolFailed(t):
			// (a tool call waiting is answered by an error in its place: a CodeAgent's calls
			// never wait, so its errors are its code's result)
			r.nextResult(t)
		case strings.HasPrefix(t, "Final answer:") || strings.HasPrefix(t, "Out - Final answer:"):
			if r.open < 0 {
				r.nextResult(t)
			} else {
				r.lines = append(r.lines, t)
			}
			r.done, r.out = true, true
		case r.open >= 0:
			r.lines = append(r.lines, line)
			if smolFailed(t) {
				r.failed = true
			}
			if strings.HasPrefix(t, "Out:") {
				r.out = true
			}
		}
	}
	for _, r := range runs {
		r.answer()
	}
	if sessions == 0 && len(runs) == 0 {
		return nil, &Error{Path: name, Line: 1, Err: fmt.Errorf("%w: no smolagents step", ErrUnknownFormat)}
	}
	t := b.done()
	t.Sessions = max(sessions, 1)
	return t, nil
}

// smolMarker says whether a trimmed line opens something of its own: a run, a step, a step's
// end, code executed, a panel, the model's output message.
func smolMarker(t string) bool {
	return strings.HasPrefix(t, "╭") || strings.HasPrefix(t, "━") && strings.Contains(t, " Step ") || smolStepEnd().MatchString(t) ||
		smolExecuting(t) || strings.Contains(t, "Output message of the LLM:")
}

// smolExecuting says whether a trimmed line opens the panel of code a CodeAgent runs
// ("─ Executing parsed code: ───", see smolCodePanels).
func smolExecuting(t string) bool {
	for _, title := range smolCodePanels {
		if strings.Contains(t, title) {
			return true
		}
	}
	return false
}

// smolParseError says whether a trimmed line opens smolagents' answer to a reply it found no
// code in ("Error in code parsing:"; "Code parsing failed on line 3 due to: SyntaxError"):
// the harness refusing the reply, nothing run.
func smolParseError(t string) bool {
	return strings.HasPrefix(t, "Error in code parsing:") || strings.HasPrefix(t, "Code parsing failed")
}

// smolStart begins a run (see readSmolagentsConsole): a managed agent's, when the run under
// way has a call not answered yet, else a session of its own.
func smolStart(b *builder, runs *[]*smolRun, name string, sessions *int) *smolRun {
	if n := len(*runs); n > 0 && name != "" {
		if caller := (*runs)[n-1]; caller.open >= 0 || len(caller.waiting) > 0 {
			r := &smolRun{a: b.agent(name), open: -1}
			*runs = append(*runs, r)
			return r
		}
	}
	if name == "" {
		name = MainAgent
	}
	for _, r := range *runs {
		r.answer()
	}
	b.session, *sessions = *sessions, *sessions+1
	r := &smolRun{a: b.agent(name), open: -1}
	*runs = []*smolRun{r}
	return r
}

// smolToolCall adds the call a tool panel shows ("Calling tool: 'name' with arguments: {...}").
func smolToolCall(r *smolRun, text string) {
	rest, ok := strings.CutPrefix(text, "Calling tool: '")
	if !ok || r == nil {
		return
	}
	k := strings.Index(rest, "' with arguments:")
	if k <= 0 {
		return
	}
	args := strings.TrimSpace(rest[k+len("' with arguments:"):])
	idx := r.a.add(loopguard.Call("", rest[:k], marshalArgs(map[string]string{"arguments": args})))
	r.waiting = append(r.waiting, idx)
}

// smolLine is a console line without the spinner rich draws over it ("⠋ Thinking...").
func smolLine(line string) string {
	for {
		r, size := utf8.DecodeRuneInString(line)
		if r < 0x2800 || r > 0x28ff {
			return line
		}
		rest, ok := strings.CutPrefix(line[size:], " Thinking...")
		if !ok {
			return line
		}
		line = rest
	}
}

// smolPanelText is a line of a panel's box without its borders ("│ text │").
func smolPanelText(t string) string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, "│"), "│"))
}

// smolCode is the code of an "Executing parsed code" panel: its lines, as written but for the
// indent the panel gives them all (two spaces) and the spaces that pad them to its width.
func smolCode(lines []string) string {
	indent := "  "
	for _, l := range lines {
		for strings.TrimSpace(l) != "" && !strings.HasPrefix(l, indent) {
			indent = indent[1:]
		}
	}
	out := make([]string, len(lines))
	for k, l := range lines {
		out[k] = strings.TrimRight(strings.TrimPrefix(l, indent), " ")
	}
	return strings.Trim(strings.Join(out, "\n"), "\n")
}

// smolBoxedCode is the code of a boxed "Executing this code" panel (validation round r187b G4),
// given its rows between the box's borders: each row is the panel's padding, rich's line-number
// gutter ("  1 ", the numbers right-aligned, so the gutter is as wide on every row) and a line
// of code as written. A row whose gutter is blank goes on with the line above (rich wraps a
// line longer than the panel). A panel whose first row is not numbered 1 has no gutter: its
// rows are read as those of the unboxed panel.
func smolBoxedCode(rows []string) string {
	gutter := 0
	for _, row := range rows {
		if strings.TrimSpace(row) != "" {
			gutter = smolGutterWidth(row)
			break
		}
	}
	if gutter == 0 {
		return smolCode(rows)
	}
	var out []string
	for _, row := range rows {
		head, code := row, ""
		if len(row) > gutter {
			head, code = row[:gutter], row[gutter:]
		}
		code = strings.TrimRight(code, " ")
		number := strings.TrimSpace(head)
		numbered := number != "" && strings.Trim(number, "0123456789") == "" && (strings.HasSuffix(head, " ") || len(row) <= gutter)
		switch {
		case numbered:
			out = append(out, code)
		case number == "" && len(out) > 0:
			if code != "" {
				out[len(out)-1] += " " + strings.TrimLeft(code, " ")
			}
		case strings.TrimSpace(row) != "":
			out = append(out, strings.TrimSpace(row)) // not a row of the gutter's width: kept whole
		}
	}
	return strings.Trim(strings.Join(out, "\n"), "\n")
}

// smolGutterWidth is the width of the line-number gutter a boxed code panel's first row opens
// with (" " padding, the number right-aligned, one space: "   1 "), or 0 if the row is not
// numbered 1, as rich numbers code from 1.
func smolGutterWidth(row string) int {
	rest := strings.TrimLeft(row, " ")
	number, ok := strings.CutPrefix(rest, "1")
	if !ok || number != "" && !strings.HasPrefix(number, " ") {
		return 0
	}
	return len(row) - len(number) + 1
}
