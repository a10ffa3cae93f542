package transcript

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/loopguard/loopguard"
)

// The CLIs' headless output: what `codex exec --json` and `gemini -p --output-format
// stream-json` print, one JSON event per line, and what benchmark harnesses keep of a run
// (agent/codex.txt, agent/gemini-cli.txt). Claude Code's stream-json is its session format
// with snake_case keys and is read by readClaudeCode.
//
// These lines are small and the formats young, so they are decoded with encoding/json into
// structs that name only the fields read; unknown event and item types are skipped, so a
// newer CLI's additions do not stop a scan.

// Codex `exec --json` (codex-rs/exec): thread.started, turn.started, turn.completed (usage),
// turn.failed, error, and item.started / item.updated / item.completed, each item carrying
// an id and a type. Only completed items are read:
//
//   - command_execution: a call of tool "shell" with {"command": ...}; the result is the
//     aggregated output, failed when the exit code is not 0 or the status is failed/declined;
//   - file_change: a call of "apply_patch" with the changed paths and the item's id (the patch
//     itself is not written), failed when its status is;
//   - mcp_tool_call: a call of "mcp__<server>__<tool>" with its arguments and result or error;
//   - web_search: a call of "web_search" with the query, its answer unknown (the item keeps
//     none);
//   - todo_list: a call of "update_plan" (bookkeeping, transparent to the progress detector),
//     without an answer;
//   - agent_message and reasoning: model text;
//   - error: a text event with source "error".
//
// Older releases wrote the item's kind as item_type and the model's answer as
// assistant_message; both spellings are read. Each turn.started after the first is a user
// turn (a resumed session); the run has one agent, "main".
type codexExecLine struct {
	Type  string          `json:"type"`
	Item  *codexExecItem  `json:"item"`
	Usage *codexExecUsage `json:"usage"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
	Message string `json:"message"`
}

type codexExecItem struct {
	ID               string          `json:"id"`
	Type             string          `json:"type"`
	ItemType         string          `json:"item_type"`
	Text             string          `json:"text"`
	Command          json.RawMessage `json:"command"`
	AggregatedOutput string          `json:"aggregated_output"`
	ExitCode         *int            `json:"exit_code"`
	Status           string          `json:"status"`
	Changes          json.RawMessage `json:"changes"`
	Server           string          `json:"server"`
	Tool             string          `json:"tool"`
	Arguments        json.RawMessage `json:"arguments"`
	Result           json.RawMessage `json:"result"`
	Error            *struct {
		Message string `json:"message"`
	} `json:"error"`
	Query   string          `json:"query"`
	Items   json.RawMessage `json:"items"`
	Message string          `json:"message"`
}

// codexExecUsage is a turn's tokens. Its input counts the cached input read, and the input
// written to the cache where a provider reports it, as OpenAI's input tokens do: the rest is
// input read anew (validation round r114d U1: cached input was counted twice, 4.86M tokens
// read for 2.48M).
type codexExecUsage struct {
	InputTokens           int64 `json:"input_tokens"`
	CachedInputTokens     int64 `json:"cached_input_tokens"`
	CacheWriteInputTokens int64 `json:"cache_write_input_tokens"`
	OutputTokens          int64 `json:"output_tokens"`
}

// codexExecTypes are the event types that start a `codex exec --json` stream.
func isCodexExecType(t string) bool {
	return t == "thread.started" || t == "turn.started" || strings.HasPrefix(t, "item.")
}

func readCodexExec(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatCodexExec)
	a := b.agent(MainAgent)
	turns := 0
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var l codexExecLine
		if ok, err := decodeEventLine(line, &l); !ok {
			return err
		}
		switch l.Type {
		case "turn.started":
			if turns > 0 {
				a.user("", 0)
			}
			turns++
		case "turn.completed":
			if u := l.Usage; u != nil {
				a.usage.InputTokens += max(0, u.InputTokens-u.CachedInputTokens-u.CacheWriteInputTokens)
				a.usage.OutputTokens += u.OutputTokens
				a.usage.CacheReadTokens += u.CachedInputTokens
				a.usage.CacheWriteTokens += u.CacheWriteInputTokens
			}
		case "item.completed":
			if l.Item != nil {
				codexExecItemEvent(a, l.Item)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return withDamaged(b.done(), damaged), nil
}

func codexExecItemEvent(a *agentBuf, it *codexExecItem) {
	kind := it.Type
	if kind == "" {
		kind = it.ItemType
	}
	call := func(tool string, args []byte, result string, failed bool) {
		a.add(loopguard.Event{Type: loopguard.EventCall, Tool: tool, Args: args, Result: result, HasResult: true, Failed: failed})
	}
	// unanswered is a call whose item keeps no answer: what it brought is unknown, not
	// empty (seven different web searches, read as seven empty answers, were one search's
	// churn).
	unanswered := func(tool string, args []byte) {
		a.add(loopguard.Event{Type: loopguard.EventCall, Tool: tool, Args: args})
	}
	switch kind {
	case "agent_message", "assistant_message":
		a.text("model", it.Text, it.ID, 0)
	case "reasoning":
		a.text("reasoning", it.Text, it.ID, 0)
	case "command_execution":
		args, _ := json.Marshal(map[string]json.RawMessage{"command": orNull(it.Command)})
		failed := it.Status == "failed" || it.Status == "declined" || (it.ExitCode != nil && *it.ExitCode != 0)
		call("shell", args, it.AggregatedOutput, failed)
	case "file_change":
		// The item names the files a patch changed and how ("update"), never the patch: two
		// patches of one file are not known to be one patch made again. The item's id, its own
		// for each patch, stands for what the record leaves out, as a Cursor edit's code block
		// id does (validation round r78a F1: patches to different places of one document, read
		// as one patch made six times). The status stays the answer: a patch that applied
		// changed the workspace, so a test run after it is a new look.
		fields := map[string]json.RawMessage{"changes": orNull(it.Changes)}
		if it.ID != "" {
			fields["item"], _ = json.Marshal(it.ID)
		}
		args, _ := json.Marshal(fields)
		call("apply_patch", args, it.Status, it.Status == "failed")
	case "mcp_tool_call":
		result := contentText(anyJSON(it.Result))
		failed := it.Status == "failed"
		if it.Error != nil {
			result, failed = it.Error.Message, true
		}
		call("mcp__"+it.Server+"__"+it.Tool, rawArgs(it.Arguments), result, failed)
	case "web_search":
		args, _ := json.Marshal(map[string]string{"query": it.Query})
		unanswered("web_search", args)
	case "todo_list":
		unanswered("update_plan", rawArgs(it.Items))
	case "error":
		a.text("error", it.Message, it.ID, 0)
	}
}

// Gemini CLI `-p --output-format stream-json` (docs/cli/headless.md upstream): init
// (session_id, model), message (role user or assistant; assistant text arrives in pieces with
// delta: true), tool_use (tool_name, tool_id, parameters), tool_result (tool_id, status
// success or error, output, error.message), error, and result (stats). The user's message is
// a user turn; an assistant message's pieces, up to the next other event, are one model text;
// a tool_use is a call, given its result by the tool_result with its tool_id. Harnesses that
// run the CLI again append its output to the same file: an init after a call, a result or the
// model's words opens a session of its own (a harness's prompt line written before the next
// run's init stays with the run before).
type geminiStreamLine struct {
	Type       string          `json:"type"`
	Role       string          `json:"role"`
	Content    string          `json:"content"`
	Model      string          `json:"model"`
	ToolName   string          `json:"tool_name"`
	ToolID     string          `json:"tool_id"`
	Parameters json.RawMessage `json:"parameters"`
	Status     string          `json:"status"`
	Output     string          `json:"output"`
	Error      json.RawMessage `json:"error"`
	Message    string          `json:"message"`
	Stats      *struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
		Cached       int64 `json:"cached"`
	} `json:"stats"`
}

func isGeminiStreamHead(typ string, has func(string) bool) bool {
	return (typ == "init" && has("session_id") && has("model")) || (typ == "tool_use" && has("tool_name") && has("tool_id"))
}

func readGeminiStream(name string, br *bufio.Reader) (*built, error) {
	b := newBuilder(FormatGeminiStream)
	a := b.agent(MainAgent)
	session, seen := 0, false // seen: the session has a call, a result or the model's words
	calls := map[string]int{} // tool_id -> index of the call in a.events
	var replies replyCounter
	var text strings.Builder
	flush := func() {
		a.text("model", text.String(), "", 0)
		text.Reset()
	}
	var damaged []*Error
	err := eachSessionLine(name, br, &damaged, func(line []byte) error {
		var l geminiStreamLine
		if ok, err := decodeEventLine(line, &l); !ok {
			return err
		}
		if l.Type != "message" || l.Role != "assistant" {
			flush()
		}
		if l.Type == "init" && seen {
			session++ // another run's output, appended
			b.session, seen = session, false
			a, calls, replies = b.agent(MainAgent), map[string]int{}, replyCounter{}
		}
		seen = seen || l.Type == "tool_use" || l.Type == "tool_result" || l.Type == "result" || l.Type == "message" && l.Role == "assistant"
		switch l.Type {
		case "init":
			if l.Model != "" {
				a.usage.Model = l.Model
			}
		case "message":
			if l.Role == "assistant" {
				text.WriteString(l.Content)
			} else if l.Role == "user" {
				a.user(l.Content, 0)
				replies.end()
			}
		case "tool_use":
			calls[l.ToolID] = a.add(loopguard.Event{Type: loopguard.EventCall, Tool: l.ToolName, Args: rawArgs(l.Parameters),
				Turn: replies.call()})
		case "tool_result":
			replies.end()
			i, ok := calls[l.ToolID]
			if !ok {
				return nil // a result without its call: nothing to attach it to
			}
			e := &a.events[i]
			if l.Output == "" && l.Status != "error" && len(l.Error) == 0 && e.Tool != "run_shell_command" {
				// The stream's output is what the CLI displays of a result, not the result:
				// nothing for a read_file, whatever the file held. Taken for an empty answer,
				// three reads of a file rewritten between them read as the same answer.
				// A command that printed nothing did answer with nothing.
				return nil
			}
			e.Result, e.HasResult, e.Failed = l.Output, true, l.Status == "error"
			if e.Result == "" && len(l.Error) > 0 {
				var m struct {
					Message string `json:"message"`
				}
				if json.Unmarshal(l.Error, &m) == nil {
					e.Result = m.Message
				}
			}
		case "result":
			if s := l.Stats; s != nil {
				a.usage.InputTokens += s.InputTokens
				a.usage.OutputTokens += s.OutputTokens
				a.usage.CacheReadTokens += s.Cached
			}
		}
		return nil
	})
	flush()
	if err != nil {
		return nil, err
	}
	t := b.done()
	t.Sessions = session + 1
	return withDamaged(t, damaged), nil
}

// decodeEventLine decodes one line of a CLI's event output into v. It says false with no
// error for a line to pass over: plain text the CLI printed between its events, or a field of
// an unexpected type (the line tells nothing these readers read); false with an error for a
// line that is not valid JSON.
func decodeEventLine(line []byte, v any) (bool, error) {
	if line[0] != '{' {
		return false, nil
	}
	if err := json.Unmarshal(line, v); err != nil {
		if tolerable(err) {
			return false, nil
		}
		return false, fmt.Errorf("invalid JSON line: %w", err)
	}
	return true, nil
}

func orNull(v json.RawMessage) json.RawMessage {
	if len(v) == 0 {
		return json.RawMessage("null")
	}
	return v
}

// anyJSON decodes v for contentText; nil when it is not JSON.
func anyJSON(v json.RawMessage) any {
	var x any
	if len(v) == 0 || json.Unmarshal(v, &x) != nil {
		return nil
	}
	if m, ok := x.(map[string]any); ok {
		if c, ok := m["content"]; ok {
			return c // an MCP result: {"content": [{"type": "text", "text": ...}], ...}
		}
	}
	return x
}
