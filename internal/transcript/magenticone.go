package transcript

import (
	"strings"

	"github.com/loopguard/loopguard"
)

// Magentic-One's run log as the Who&When benchmark keeps it (ag2ai/Agents_Failure_Attribution,
// "Hand-Crafted"): {"history": [{"content", "role"}], "question", "ground_truth",
// "mistake_agent", "mistake_step", ...}, one run per file. Read as SWE-agent's because of its
// history, each run was one agent with no call (validation round r197a G1: 58 runs, 689
// delegations read as none).
//
// The roles say who wrote each message: "human" (the task), "Orchestrator (thought)" (the
// orchestrator's plan and its "Updated Ledger:" JSON, and lines its code logs: "Next speaker
// WebSurfer", "Stalled.... Replanning..."), "Orchestrator (-> WebSurfer)" (the orchestrator's
// instruction to a worker), the worker's name (its answer) and "Orchestrator (termination
// condition)" (why the run ended). The orchestrator decides every step, so a run is one agent;
// a worker's answer is a call of that worker, its instruction the delegation before it.

// isMagenticOne says whether a history is Magentic-One's: some role is the orchestrator's,
// "Orchestrator (thought)", "Orchestrator (-> WebSurfer)", ...
func isMagenticOne(history []msg) bool {
	for i := range history {
		if r := history[i].Role; strings.HasPrefix(r, "Orchestrator (") && strings.HasSuffix(r, ")") {
			return true
		}
	}
	return false
}

// magenticLongAction is the length past which a WebSurfer answer's first line is taken to hold
// more than the action it took: the action is then its first sentence.
const magenticLongAction = 300

// buildMagenticOne reads a Magentic-One history whose contents are decoded.
func buildMagenticOne(history []msg) *built {
	b := newBuilder(FormatMagenticOne)
	a := b.agent(MainAgent)
	var worker, instruction string // the delegation waiting for its answer, if worker != ""
	lastCode := ""                 // the code blocks of the last message that held some
	for i := range history {
		role, text := history[i].Role, contentText(history[i].Content)
		switch {
		case role == "human":
			a.user(text, 0)
		case role == "Orchestrator (thought)":
			magenticThought(a, text)
		case strings.HasPrefix(role, "Orchestrator (-> ") && strings.HasSuffix(role, ")"):
			// The instruction is the orchestrator's words; the call is made when the worker
			// answers: a delegation the run ended before is words only, not a call that failed.
			a.said(text)
			worker, instruction = strings.TrimSuffix(strings.TrimPrefix(role, "Orchestrator (-> "), ")"), text
		case strings.HasPrefix(role, "Orchestrator ("):
			a.said(text) // the termination condition, or another of the orchestrator's
		default:
			asked := ""
			if worker == role {
				asked = instruction
			}
			worker, instruction = "", ""
			addMagenticCall(a, role, asked, text, lastCode)
		}
		lastCode = magenticCode(role, text, lastCode)
	}
	return b.done()
}

// magenticTerminal is the worker that runs code: the code blocks of the last message that held
// some, never its own output's.
const magenticTerminal = "ComputerTerminal"

// magenticCode is the code magenticTerminal would run after speaker's message text: the
// message's code blocks, else lastCode (the code of the message before that held some).
func magenticCode(speaker, text, lastCode string) string {
	if speaker == magenticTerminal {
		return lastCode
	}
	if code := fencedCode(text); code != "" {
		return code
	}
	return lastCode
}

// addMagenticCall adds a worker's answer to the instruction it was given as a call of that
// worker (magenticCall).
func addMagenticCall(a *agentBuf, worker, instruction, answer, lastCode string) {
	args, result := magenticCall(worker, instruction, answer, lastCode)
	a.add(loopguard.Event{Type: loopguard.EventCall, Tool: worker, Args: args, Result: result, HasResult: true})
}

// magenticThought reads an "Orchestrator (thought)" message. Its plans and ledgers are the
// model's words. "Next speaker WebSurfer" is a line the orchestrator's code logs before every
// step: no model text, and read as a thought it would be one repeated step after step; the
// delegation already names the worker, so it is passed over. Other lines its code logs
// ("Stalled.... Replanning...", "Request satisfied.") and what the process printed after them
// (Python warnings, tracebacks) are kept as the harness's text.
func magenticThought(a *agentBuf, text string) {
	first, rest, _ := strings.Cut(text, "\n")
	switch first = strings.TrimSpace(first); {
	case strings.HasPrefix(first, "Next speaker "):
		a.text("harness", rest, "", 0)
	case first == "Stalled.... Replanning..." || first == "Request satisfied." || strings.HasPrefix(first, "Replan counter exceeded"):
		a.text("harness", text, "", 0)
	default:
		a.said(text)
	}
}

// magenticOCR heads the part of a WebSurfer answer that is no part of its result: another
// model's transcription of the screenshot, written anew at every call. On one page left
// unchanged (the same title, address and scroll position, and the same link clicked again) it
// was laid out otherwise each time, headings, bullets and wording, sharing 66 to 98 % of its
// words with the one before: kept, it made six clicks of a link that did nothing six new pages,
// and no loop of the 58 runs was told. What the browser reports above it (the page's title and
// address, how far down the viewport is, the page's metadata) says whether the action moved
// anything: a scroll moves the viewport, a link that works changes the address or the title.
// A script that changes the page in place (a "Next" button that loads more without a new
// address) would read as no change; none of the 58 runs has one.
const magenticOCR = "Automatic OCR of the page screenshot has detected the following text:"

// magenticCall is the arguments and result of a worker's answer. WebSurfer opens its answers
// with the browser action it took ("I clicked 'View'.", "I typed 'x' into 'y'."): that is what
// it did, and the page it shows after is the action's result; two answers to the same
// instruction that clicked different links are different calls. ComputerTerminal runs the code
// of the last message that held some. Other workers did what the instruction asked.
func magenticCall(worker, instruction, answer, lastCode string) ([]byte, string) {
	if worker == "WebSurfer" && strings.HasPrefix(answer, "I ") {
		action, rest, _ := strings.Cut(answer, "\n")
		// A link's name may run over lines ("I clicked 'Can Hiccup Supply ... Diet?\n
		// journals.le.ac.uk'."): the action goes on to the line that ends its sentence.
		// A blank line ends it all the same: what follows is the page.
		for n := 0; n < 3 && !strings.HasSuffix(strings.TrimSpace(action), ".") && rest != ""; n++ {
			next, after, _ := strings.Cut(rest, "\n")
			if strings.TrimSpace(next) == "" {
				break
			}
			action, rest = action+"\n"+next, after
		}
		if len(action) > magenticLongAction {
			if k := strings.Index(action, ". "); k >= 0 {
				action, rest = action[:k+1], answer[k+2:]
			}
		}
		if k := strings.Index(rest, magenticOCR); k >= 0 {
			rest = rest[:k]
		}
		return marshalArgs(map[string]string{"action": strings.TrimSpace(action)}), strings.TrimSpace(rest)
	}
	if worker == magenticTerminal {
		return marshalArgs(map[string]string{"code": lastCode, "instruction": instruction}), answer
	}
	return marshalArgs(map[string]string{"instruction": instruction}), answer
}
