package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/loopguard/loopguard"
)

// ATIF, the Agent Trajectory Interchange Format (Harbor's RFC 0001, v1.0 to v1.x): one JSON
// document per run, the trajectory.json that Harbor writes beside each agent's own logs
// (Claude Code, Codex, Gemini CLI, OpenHands, Terminus, mini-swe-agent, ...) and that other
// harnesses have adopted.
//
//   - root: schema_version ("ATIF-v1.4"; some writers put "1.4"), session_id, agent (name,
//     version, model_name), steps, final_metrics (total_*_tokens, total_cost_usd);
//   - a step with source "user" is a user turn; "system" steps are skipped;
//   - a step with source "agent": its message is model text, its reasoning_content model
//     text with source "reasoning", each of its tool_calls (tool_call_id, function_name,
//     arguments) a call, given the observation result whose source_call_id names it. A step's
//     only result with no source_call_id goes to its only call; when the step made several
//     calls of one tool (Terminus's keystrokes of one turn) and that single result is the
//     screen after all of them, the step is one call whose arguments are the list of the
//     calls' arguments. Other results with no call of their own are dropped. A result counts as failed when it says
//     is_error (or extra.is_error) is true.
//   - message and result content are strings, or lists of content parts (text parts are
//     read, images skipped).
//
// The run is one agent, "main", but for the steps that Harbor's conversion of a Claude Code
// session marks as a subagent's (extra.is_sidechain), which are the agent "sidechain"; its
// extra.tool_result_is_error (or tool_result_metadata.is_error) fails a step's call, and a
// step with no observation but Claude Code's raw_tool_result in its extra was answered, empty. A
// result that points at a subagent's trajectory (subagent_trajectory_ref) leaves that
// trajectory to its own file.

// atifSidechainAgent is the agent of the subagent steps of a converted Claude Code session:
// the conversion does not say which subagent made them.
const atifSidechainAgent = "sidechain"

type atifDoc struct {
	SchemaVersion string `json:"schema_version"`
	Agent         struct {
		Name      string `json:"name"`
		ModelName string `json:"model_name"`
	} `json:"agent"`
	Steps        []atifStep `json:"steps"`
	FinalMetrics *struct {
		PromptTokens     int64   `json:"total_prompt_tokens"`
		CompletionTokens int64   `json:"total_completion_tokens"`
		CachedTokens     int64   `json:"total_cached_tokens"`
		CostUSD          float64 `json:"total_cost_usd"`
	} `json:"final_metrics"`
}

type atifStep struct {
	Source           string          `json:"source"`
	Timestamp        string          `json:"timestamp"`
	ModelName        string          `json:"model_name"`
	Message          json.RawMessage `json:"message"`
	ReasoningContent json.RawMessage `json:"reasoning_content"`
	ToolCalls        []struct {
		ID        string          `json:"tool_call_id"`
		Name      string          `json:"function_name"`
		Arguments json.RawMessage `json:"arguments"`
		// Some writers name a call as a chat API does ({"id", "name", "arguments"}).
		ChatID   string `json:"id"`
		ChatName string `json:"name"`
	} `json:"tool_calls"`
	Observation *struct {
		Results []struct {
			SourceCallID string          `json:"source_call_id"`
			Content      json.RawMessage `json:"content"`
			IsError      bool            `json:"is_error"`
			Extra        struct {
				IsError bool `json:"is_error"`
			} `json:"extra"`
		} `json:"results"`
	} `json:"observation"`
	// Harbor's conversion of Claude Code sessions keeps Claude Code's own fields in the
	// step's extra: whether the step is a subagent's (is_sidechain), and whether its tool
	// result was an error.
	Extra struct {
		IsSidechain       bool `json:"is_sidechain"`
		ToolResultIsError bool `json:"tool_result_is_error"`
		ToolResultMeta    struct {
			IsError bool `json:"is_error"`
			// RawToolResult is Claude Code's own tool_result block. The conversion leaves
			// out a step's observation when the tool printed nothing, and keeps this: the
			// call was answered, with nothing.
			RawToolResult *struct {
				Content json.RawMessage `json:"content"`
			} `json:"raw_tool_result"`
		} `json:"tool_result_metadata"`
		// Harbor's conversion of OpenClaw sessions writes each tool result as a step of its
		// own: the call it answers, and the command's exit code and status.
		ToolCallID   string `json:"tool_call_id"`
		ExecExitCode *int   `json:"exec_exit_code"`
		ExecStatus   string `json:"exec_status"`
		IsError      bool   `json:"is_error"` // a tool's own refusal (OpenClaw's argument checks)
	} `json:"extra"`
}

// answers returns the call a step of its own answers (Harbor's OpenClaw conversion: no calls,
// extra.tool_call_id naming one), or "".
func (s *atifStep) answers() string {
	if len(s.ToolCalls) > 0 {
		return ""
	}
	return s.Extra.ToolCallID
}

// answerText is what such a step's call brought back: its observation's text, else its message.
func (s *atifStep) answerText() string {
	if s.Observation != nil {
		var parts []string
		for _, r := range s.Observation.Results {
			if t := contentText(anyJSON(r.Content)); t != "" {
				parts = append(parts, t)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n")
		}
	}
	return contentText(anyJSON(s.Message))
}

// placeholder says whether msg is the message Harbor's conversion of a Claude Code session
// writes for a step that only made a call ("Executed Bash toolu_01…"): the converter's, not
// the model's words, and different at every step.
func (s *atifStep) placeholder(msg string) bool {
	return len(s.ToolCalls) == 1 && msg == "Executed "+s.ToolCalls[0].Name+" "+s.ToolCalls[0].ID
}

// failed says whether the step's extra marks its tool result as an error (a step of one call).
func (s *atifStep) failed() bool {
	x := &s.Extra
	return x.ToolResultIsError || x.ToolResultMeta.IsError || x.IsError || x.ExecExitCode != nil && *x.ExecExitCode != 0 ||
		x.ExecStatus == "error" || x.ExecStatus == "failed"
}

// isATIFHead says whether a document's top-level keys (as far as the sniffed head reaches)
// are an ATIF trajectory's.
func isATIFHead(keys map[string]string) bool {
	v, ok := keys["schema_version"]
	if !ok {
		return false
	}
	_, steps := keys["steps"]
	// ATIF's "agent" is an object (name, version, model). A document whose "agent" is a name
	// and which holds "messages" is a conversation of another schema (mini-swe-agent's
	// canonical_conversation_v1 exports: six were read as ATIF with no calls, validation round
	// r104b U1).
	agent, hasAgent := keys["agent"]
	_, messages := keys["messages"]
	return strings.HasPrefix(strings.ToUpper(v), "ATIF") || steps || hasAgent && agent == "" && !messages
}

func readATIF(name string, br *bufio.Reader, hint int64) (*built, error) {
	w, err := readDocument(name, br, hint) // one buffer of the content's size, not a regrowing one
	if err != nil {
		return nil, err
	}
	defer w.release()
	data := w.data
	var d atifDoc
	if err := json.Unmarshal(data, &d); err != nil && !tolerable(err) {
		return nil, &Error{Path: name, Line: jsonErrorLine(data, err), Err: fmt.Errorf("invalid ATIF trajectory: %w", err)}
	}
	return buildATIF(&d), nil
}

// readATIFList reads a JSON list of ATIF trajectories (rows of a dataset dumped together):
// each is a session.
func readATIFList(name string, data []byte) (*built, error) {
	var docs []atifDoc
	if err := json.Unmarshal(data, &docs); err != nil && !tolerable(err) {
		return nil, &Error{Path: name, Line: jsonErrorLine(data, err), Err: fmt.Errorf("invalid list of ATIF trajectories: %w", err)}
	}
	if len(docs) == 0 {
		return nil, &Error{Path: name, Err: ErrUnknownFormat}
	}
	all := make([]*built, len(docs))
	for i := range docs {
		all[i] = buildATIF(&docs[i])
	}
	return joinSessions(all), nil
}

// buildATIF reads one trajectory's steps.
func buildATIF(d *atifDoc) *built {
	for i := range d.Steps {
		for j := range d.Steps[i].ToolCalls {
			if c := &d.Steps[i].ToolCalls[j]; c.ID == "" && c.Name == "" {
				c.ID, c.Name = c.ChatID, c.ChatName
			}
		}
	}
	b := newBuilder(FormatATIF)
	mainAgent := b.agent(MainAgent)
	mainAgent.usage.Model = d.Agent.ModelName
	calls := map[string]int{} // the calls by id, for the steps that answer one later
	// A trajectory joined from a checkpoint and its session holds steps twice (the same call
	// ids, the same prompts at the same times, the answers cut short the second time): a
	// step whose calls were all made already is that copy, not the calls made again, and so
	// is a user message already seen at the same time. A real run of 79 calls was read as 140.
	type userAt struct {
		text string
		ms   int64
	}
	usersSeen := map[userAt]bool{}
	screen := -1 // the Terminus turn read from the model's text that the next user step answers
	for i := range d.Steps {
		s := &d.Steps[i]
		ms := parseTime(s.Timestamp)
		a := mainAgent
		if s.Extra.IsSidechain {
			// A Claude Code subagent's step: its calls are not the main agent's.
			a = b.agent(atifSidechainAgent)
		}
		if id := s.answers(); id != "" {
			// calls holds the main agent's calls: the answer goes to the call it names there,
			// whatever agent its own step is marked as; the first answer stands (a copy's is
			// cut short).
			if idx, ok := calls[id]; ok && idx < len(mainAgent.events) && mainAgent.events[idx].Type == loopguard.EventCall && !mainAgent.events[idx].HasResult {
				e := &mainAgent.events[idx]
				e.Result, e.HasResult, e.Failed = s.answerText(), true, s.failed()
			}
			continue // a tool's answer, not the model's words
		}
		if s.copied(calls) {
			continue
		}
		switch s.Source {
		case "user":
			text := contentText(anyJSON(s.Message))
			if screen >= 0 && screen < len(a.events) && a.events[screen].Type == loopguard.EventCall {
				// The terminal after a Terminus turn that the trajectory kept as text: the
				// screen its commands left, their result, not the user speaking.
				e := &a.events[screen]
				e.Result, e.HasResult = text, true
				screen = -1
				continue
			}
			if ms != 0 {
				if usersSeen[userAt{text, ms}] {
					continue
				}
				usersSeen[userAt{text, ms}] = true
			}
			a.user(text, ms)
			continue
		case "agent":
		default:
			continue
		}
		if s.ModelName != "" {
			a.usage.Model = s.ModelName
		}
		a.text("reasoning", contentText(anyJSON(s.ReasoningContent)), "", ms)
		msg := contentText(anyJSON(s.Message))
		if !s.placeholder(msg) {
			a.text("model", msg, "", ms)
		}
		screen = -1
		if len(s.ToolCalls) == 0 && s.Observation == nil {
			// A Terminus turn that the trajectory kept only as the model's text (its JSON
			// answer, commands and all), the next screen as the user's step (OpenThoughts'
			// exports of Terminus-2 runs): the turn is the one call its answer makes, as in a
			// chat transcript (terminusCall), and the screen after it its result.
			if c, ok := terminusCall(msg); ok {
				screen = a.add(loopguard.Event{Type: loopguard.EventCall, Tool: c.name, Args: c.args, Time: ms, Turn: "s" + strconv.Itoa(i)})
			}
			continue
		}
		if n := atifStepBatch(s); n > 0 {
			// One screen for several commands (Terminus: the keystrokes of one turn, then the
			// terminal as it stands): the turn is one call, its commands the arguments, so
			// that its result is compared with the result of the same batch. A call with no
			// arguments after them (Terminus' mark_task_complete) is a call of its own, its
			// answer not in that screen.
			args := rawArgs(s.ToolCalls[0].Arguments)
			if n > 1 {
				args = []byte{'['}
				for i, c := range s.ToolCalls[:n] {
					if i > 0 {
						args = append(args, ',')
					}
					args = append(args, orNull(c.Arguments)...)
				}
				args = append(args, ']')
			}
			r := &s.Observation.Results[0]
			a.add(loopguard.Event{Type: loopguard.EventCall, Tool: s.ToolCalls[0].Name, Args: args, Time: ms,
				Result: contentText(anyJSON(r.Content)), HasResult: true, Failed: r.IsError || r.Extra.IsError || s.failed()})
			for _, c := range s.ToolCalls[n:] {
				a.add(loopguard.Event{Type: loopguard.EventCall, Tool: c.Name, Args: rawArgs(c.Arguments), Time: ms})
			}
			continue
		}
		first := len(a.events)
		byID := map[string]int{}
		turn := "s" + strconv.Itoa(i) // the calls of one step were made together, in one reply
		for _, c := range s.ToolCalls {
			if _, dup := byID[c.ID]; dup && c.ID != "" {
				// A step that lists one call twice under its id (metacode's trajectories list
				// every call so): one call, answered once. Read as two, every call of a run
				// was made twice, the first never answered (validation round r183a R1).
				continue
			}
			byID[c.ID] = a.add(loopguard.Event{Type: loopguard.EventCall, Tool: c.Name, Args: rawArgs(c.Arguments), Time: ms, Turn: turn})
			if c.ID != "" && a == mainAgent {
				calls[c.ID] = byID[c.ID]
			}
		}
		if s.Observation == nil {
			if raw := s.Extra.ToolResultMeta.RawToolResult; raw != nil && len(s.ToolCalls) == 1 {
				e := &a.events[first]
				e.Result, e.HasResult, e.Failed = contentText(anyJSON(raw.Content)), true, s.failed()
			}
			continue
		}
		for _, r := range s.Observation.Results {
			idx, ok := byID[r.SourceCallID]
			if !ok && r.SourceCallID == "" && len(s.ToolCalls) == 1 && len(s.Observation.Results) == 1 {
				idx, ok = first, true
			}
			if !ok || a.events[idx].Type != loopguard.EventCall {
				continue
			}
			e := &a.events[idx]
			e.Result, e.HasResult, e.Failed = contentText(anyJSON(r.Content)), true, r.IsError || r.Extra.IsError || len(s.ToolCalls) == 1 && s.failed()
		}
	}
	t := b.done()
	if m := d.FinalMetrics; m != nil {
		t.hasRunUsage = true
		t.runUsage = Usage{Model: d.Agent.ModelName, InputTokens: m.PromptTokens - m.CachedTokens,
			OutputTokens: m.CompletionTokens, CacheReadTokens: m.CachedTokens, CostUSD: m.CostUSD}
		if t.runUsage.InputTokens < 0 {
			t.runUsage.InputTokens = m.PromptTokens
		}
	}
	return t
}

// copied says whether every call of the step was made already (calls holds them by id): the
// step is a copy of one read before.
func (s *atifStep) copied(calls map[string]int) bool {
	for _, c := range s.ToolCalls {
		if _, ok := calls[c.ID]; c.ID == "" || !ok {
			return false
		}
	}
	return len(s.ToolCalls) > 0
}

// atifStepBatch says how many of a step's calls, from its first, are one batch answered by a
// single result that names none of them: calls of one tool, after which only calls with no
// arguments may come (Terminus ends a turn's keystrokes with mark_task_complete; read as calls
// of their own, 22 calls of two turns had no screen; validation round r108a U1). 0 when the
// step is no such batch.
func atifStepBatch(s *atifStep) int {
	if len(s.ToolCalls) < 2 || s.Observation == nil || len(s.Observation.Results) != 1 || s.Observation.Results[0].SourceCallID != "" {
		return 0
	}
	n := 1
	for n < len(s.ToolCalls) && s.ToolCalls[n].Name == s.ToolCalls[0].Name {
		n++
	}
	for _, c := range s.ToolCalls[n:] {
		if a := bytes.TrimSpace(c.Arguments); len(a) > 0 && string(a) != "null" && string(a) != "{}" {
			return 0
		}
	}
	return n
}

// jsonErrorLine is the 1-based line of a decoding error's offset, or 0 when it has none.
func jsonErrorLine(data []byte, err error) int {
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset > 0 && int(se.Offset) <= len(data) {
		return bytes.Count(data[:se.Offset], []byte{'\n'}) + 1
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return bytes.Count(data, []byte{'\n'}) + 1
	}
	return 0
}
