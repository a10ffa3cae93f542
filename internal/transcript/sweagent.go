package transcript

import (
	"encoding/json"
	"strings"

	"github.com/loopguard/loopguard"
)

// SWE-agent .traj files.
//
// trajectory[i] is one step: {action, observation, thought, ...}. Each step is one call: the
// tool is the action's first word, Args the whole action text, Result the observation (Failed
// when it is one of the tools' refusals, e.g. an edit rejected by the linter); the thought
// comes first as model text. No step has a timestamp: Time is 0.
//
// history[] is the chat: system prompt, demonstrations (is_demo), the task, then one assistant
// message per step followed by its observation. Multi-agent runs (CodeR) tag every history
// message with the role that sent it (history[].agent) and keep a single trajectory holding
// every role's steps in order: the k-th assistant message of the history is the k-th step. The
// reader checks that pairing (same count, and the same action where the message records one)
// and gives each step to its role; if the pairing does not hold, every step goes to one agent.

// w is the walker d was read with: the history's contents are decoded from its document
// when needed (historyContent), which most of them are not.
func buildSWEAgent(d *docObject, w *walker) *built {
	b := newBuilder(FormatSWEAgent)
	steps, hist := d.Trajectory, d.History

	if len(steps) == 0 && historyHasToolCalls(hist) {
		// A function-calling run saved without trajectory steps: read the chat itself.
		w.historyContents(hist)
		addMessages(b, hist, func(m *msg) string { return sweAgentID(m.Agent) }, true)
	} else if aligned(steps, hist) {
		k := 0
		for i := range hist {
			m := &hist[i]
			a := b.agent(sweAgentID(m.Agent))
			switch m.Role {
			case "system":
				a.text("system", contentText(w.historyContent(m)), "", 0)
			case "user":
				switch {
				case m.IsDemo:
					a.text("demo", contentText(w.historyContent(m)), "", 0)
				case !a.userSeen:
					a.user(contentText(w.historyContent(m)), 0)
				}
				// Later user messages are the observations of the steps.
			case "assistant":
				for ; unpairedStep(&steps[k], m); k++ {
					addSWEStep(a, &steps[k], "")
				}
				addSWEStep(a, &steps[k], calledTool(m))
				k++
			}
		}
		if k < len(steps) { // replies after the history's last one that ran nothing
			a := b.agent(sweAgentID(lastAssistant(hist).Agent))
			for ; k < len(steps); k++ {
				addSWEStep(a, &steps[k], "")
			}
		}
	} else {
		a := b.agent(singleAgentID(hist))
		seenSystem := false
		for i := range hist {
			m := &hist[i]
			switch {
			case m.Role == "system" && !seenSystem:
				seenSystem = true
				a.text("system", contentText(w.historyContent(m)), "", 0)
			case m.Role == "user" && m.IsDemo:
				a.text("demo", contentText(w.historyContent(m)), "", 0)
			case m.Role == "user" && !a.userSeen:
				a.user(contentText(w.historyContent(m)), 0)
			}
		}
		for i := range steps {
			addSWEStep(a, &steps[i], "")
		}
	}

	out := b.done()
	if d.Info != nil && d.Info.ModelStats != nil {
		ms := d.Info.ModelStats
		u := Usage{
			InputTokens:  int64(ms.TokensSent),
			OutputTokens: int64(ms.TokensReceived),
			CostUSD:      ms.InstanceCost,
			Model:        sweModel(d.ReplayConfig),
		}
		if len(out.Agents) == 1 {
			out.Agents[0].Usage = u
		} else {
			// Recorded for the whole run only.
			out.runUsage, out.hasRunUsage = u, true
		}
	}
	return out
}

// calledTool is the tool a function-calling step's message names for its one call, or "".
func calledTool(m *msg) string {
	if len(m.ToolCalls) != 1 {
		return ""
	}
	return callName(&m.ToolCalls[0])
}

// addSWEStep adds a step: its thought, and its action as a call of the tool it starts with,
// or of named, the tool the model called by name (SWE-agent 1.x with function calling writes
// a bash call's action as the command alone, "cd /testbed && grep ...": every command of such
// a run was read as a call of "cd", validation round r136a U3).
func addSWEStep(a *agentBuf, s *sweStep, named string) {
	a.text("model", s.Thought, "", 0)
	tool := firstToken(s.Action)
	if named != "" {
		tool = named
	}
	var args []byte
	if s.Action != "" && !sweRunEnd(s.Action) {
		args = []byte(s.Action)
	} else {
		// A step without a command (a reply SWE-agent could not parse, or its own last step
		// when it ends a run: "Exit due to context window", which 0.x records as an action of
		// its own, exit_cost): still one step, as the run counts them and the labelled sets
		// index them, named for what it is and known by what the reply said, so that two
		// different replies without a command are not one call repeated. 0.x's exit_cost was
		// read as a call of a tool named so until validation round r191a.
		tool, args = noActionTool, []byte(strings.TrimSpace(s.Thought))
	}
	ev := loopguard.Event{
		Type:      loopguard.EventCall,
		Tool:      tool,
		Args:      args,
		Result:    s.Observation,
		HasResult: true,
		Failed:    sweRefused(s.Observation),
	}
	if tool == noActionTool {
		// SWE-agent answered the reply itself (its format error, or the run's end): it ran
		// nothing.
		ev.Source = loopguard.SourceHarness
	}
	a.add(ev)
}

// sweRunEnd says whether a step's action is SWE-agent 0.x ending the run by itself, not a
// command of the model: exit_cost, exit_context, exit_format, exit_api, answered "Exited".
func sweRunEnd(action string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(action), "exit_")
	return ok && rest != "" && strings.Trim(rest, "abcdefghijklmnopqrstuvwxyz_") == ""
}

// noActionTool names a SWE-agent step whose reply held no command, and a text call that names
// no function (openhands.go, textCalls).
const noActionTool = "(no action)"

// sweRefused recognises the observations with which SWE-agent's tools refuse or fail a
// command.
func sweRefused(obs string) bool {
	for _, p := range sweFailurePrefixes {
		if strings.HasPrefix(obs, p) {
			return true
		}
	}
	// SWE-agent's file commands answer a path that is not there so, and print nothing else:
	// "File src/Foo.java not found" (open), "Directory lib not found" (find_file, search_dir)
	// (validation round r116c U2: 17 such answers of one run read as no failure).
	line := strings.TrimSpace(obs)
	if strings.ContainsRune(line, '\n') {
		return false
	}
	return (strings.HasPrefix(line, "File ") || strings.HasPrefix(line, "Directory ")) && strings.HasSuffix(line, " not found")
}

var sweFailurePrefixes = []string{
	"Your proposed edit has introduced new syntax error(s)", // edit rejected by the linter
	"No replacement was performed",                          // str_replace_editor
	"Invalid `view_range` parameter",                        // str_replace_editor
	"Usage: ",                                               // a command called with wrong arguments
	"No file open. Use the open command first.",             // goto, scroll, edit with no file open
}

// aligned reports whether the k-th assistant message of the history is the k-th step.
func aligned(steps []sweStep, hist []msg) bool {
	if len(steps) == 0 {
		return false
	}
	k := 0
	for i := range hist {
		if hist[i].Role != "assistant" {
			continue
		}
		for k < len(steps) && unpairedStep(&steps[k], &hist[i]) {
			k++
		}
		if k >= len(steps) {
			return false
		}
		if a := hist[i].Action; a != nil && strings.TrimSpace(*a) != strings.TrimSpace(steps[k].Action) {
			return false
		}
		k++
	}
	for k < len(steps) && strings.TrimSpace(steps[k].Action) == "" {
		k++
	}
	return k == len(steps)
}

// unpairedStep says whether step, met where the history's assistant message m comes next, is
// a reply that ran nothing and that the history does not keep: SWE-agent 1.x records a reply
// with no command as a step (its action empty) but keeps in the chat only the replies it could
// run, so each such step put the pairing off by one, and every tool of the run was named by
// its command's first word (`cd` for "cd /testbed && pytest", 16 of 35 calls of a Claude run:
// validation round r189b). m must record an action of its own, or the pairing has nothing to
// go by.
func unpairedStep(step *sweStep, m *msg) bool {
	return strings.TrimSpace(step.Action) == "" && m.Action != nil && strings.TrimSpace(*m.Action) != ""
}

// lastAssistant is the history's last assistant message (a zero message when it has none).
func lastAssistant(hist []msg) *msg {
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role == "assistant" {
			return &hist[i]
		}
	}
	return &msg{}
}

func historyHasToolCalls(hist []msg) bool {
	for i := range hist {
		if len(hist[i].ToolCalls) > 0 {
			return true
		}
	}
	return false
}

// sweAgentID names an agent from history[].agent: SWE-agent's single agent is called "main"
// (1.x) or "primary" (0.x); CodeR roles keep their names.
func sweAgentID(name string) string {
	switch name {
	case "", "main", "primary":
		return MainAgent
	}
	return name
}

// singleAgentID is the agent for unpaired steps: the history's only agent, or "main".
func singleAgentID(hist []msg) string {
	id := ""
	for i := range hist {
		a := sweAgentID(hist[i].Agent)
		if id != "" && a != id {
			return MainAgent
		}
		id = a
	}
	if id == "" {
		return MainAgent
	}
	return id
}

// sweModel finds the model name in SWE-agent's replay_config (a JSON string or an object).
func sweModel(rc any) string {
	if s, ok := rc.(string); ok {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return ""
		}
		rc = v
	}
	m, _ := rc.(map[string]any)
	agent, _ := m["agent"].(map[string]any)
	model, _ := agent["model"].(map[string]any)
	name, _ := model["name"].(string)
	return name
}
