package transcript

import (
	"strings"

	"github.com/loopguard/loopguard"
)

// DA-Agent's result.json (DA-Code, the data-science agent benchmark): {"Task",
// "system_message", "trajectory": [{"observation", "thought", "action", "code"}], "finished",
// "result", "result_files"}.
//
// Its steps look like SWE-agent's but are laid out otherwise: a step's observation is what the
// agent saw before its action, so the answer to step k's action is step k+1's observation, the
// first step's is the environment's opening ("You are in the folder now.") and the last
// action's answer is not kept. Read as SWE-agent's, every call had the answer of the call
// before it: 1,394 runs of nine models, every result one call late (validation round r169c
// U1). An action is written as a call of one of its four tools ("Bash(code=\"ls -l\")",
// "Python(filepath=\"x.py\"):" and the code, "SQL(file_path=..., command=..., output=...)",
// "Terminate(output=...)"), whose name is before the bracket, not the action's first word
// (U2); a shell command's code is its command line.

// isDAAgent says whether a document with trajectory steps is DA-Agent's: it keeps the task and
// the system message beside them, and no chat history.
func isDAAgent(d *docObject) bool {
	return d.History == nil && d.Task != "" && d.SystemMessage != "" && len(d.Trajectory) > 0
}

// buildDAAgent reads a DA-Agent result document.
func buildDAAgent(d *docObject) *built {
	b := newBuilder(FormatDAAgent)
	a := b.agent(MainAgent)
	a.text("system", d.SystemMessage, "", 0)
	a.user(d.Task, 0)
	steps := d.Trajectory
	if len(steps) > 0 {
		a.harnessUser(steps[0].Observation) // the environment's opening
	}
	for k := range steps {
		s := &steps[k]
		a.text("model", s.Thought, "", 0)
		tool, args := daAction(s)
		ev := loopguard.Event{Type: loopguard.EventCall, Tool: tool, Args: args}
		if k+1 < len(steps) {
			ev.Result, ev.HasResult = steps[k+1].Observation, true
			ev.Failed = daRefused(ev.Result)
		}
		if tool == noActionTool {
			ev.Source = loopguard.SourceHarness // a reply DA-Agent could not parse: it ran nothing
		}
		a.add(ev)
	}
	return b.done()
}

// daAction is a step's tool and arguments: the tool named before the action's bracket, a
// shell command's code as its command line, and any other action as written (a Python
// action holds its file and its code). A step whose reply held no action the agent could
// parse ("None") is known by its thought, as SWE-agent's are.
func daAction(s *sweStep) (string, []byte) {
	action := strings.TrimSpace(s.Action)
	name, _, found := strings.Cut(action, "(")
	if !found || name == "" || strings.ContainsAny(name, " \n\t\"'") {
		return noActionTool, []byte(strings.TrimSpace(s.Thought))
	}
	if name == "Bash" && s.Code != "" {
		return name, marshalArgs(map[string]string{"command": s.Code})
	}
	return name, []byte(action)
}

// daRefused says whether DA-Agent's answer is its own refusal or abort of the action: it
// stopped a command that ran too long ("Action execution time exceeded!"), could not read the
// reply's action ("Failed to parse action from your response, ..."), or refused an action the
// same as the one before ("The action is the same as the last one, please provide a different
// action.").
func daRefused(result string) bool {
	t := strings.TrimSpace(result)
	return strings.HasPrefix(t, "Action execution time exceeded!") || strings.HasPrefix(t, "Failed to parse action from your response") ||
		strings.HasPrefix(t, "The action is the same as the last one")
}
