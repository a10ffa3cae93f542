// Package transcript reads the transcripts that coding agents leave behind and turns them into
// loopguard engine events, one list per agent, for `loopguard scan`.
//
// Supported formats (detected from the content, never from the file name; gzip is transparent):
//
//   - "claude-code": Claude Code session JSONL (~/.claude/projects/**), including subagent files
//   - "codex": Codex CLI rollout JSONL (~/.codex/sessions/**), current and legacy layouts
//   - "gemini-cli": Gemini CLI chat recordings (JSON and JSONL), /chat checkpoints, logs.json
//   - "swe-agent": SWE-agent .traj JSON, including multi-agent CodeR runs
//   - "da-agent": DA-Agent's result.json (DA-Code)
//   - "mini-swe-agent": mini-swe-agent .traj.json
//   - "claude-code-markdown": Claude Code sessions exported as Markdown ("# Claude Session Export")
//   - "openhands": OpenHands event streams: evaluation output.jsonl, trajectories, event folders
//   - "openhands-completion": OpenHands llm_completions dumps (MergeCompletions joins a folder)
//   - "opencode": opencode sessions (its storage folder, MergeOpencode; `opencode export`)
//   - "otlp": OpenTelemetry traces (OTLP JSON) of agents: GenAI semantic conventions, OpenInference
//   - "cline": Cline and Roo Code task histories (api_conversation_history.json)
//   - "tau-bench": tau-bench results lists, one session per entry (Agent.Session)
//   - "messages": OpenAI- or Anthropic-style message lists (Kimi CLI's context.jsonl and Cline
//     CLI 3's session messages among them)
//   - "codex-exec", "gemini-stream", "atif": the CLIs' headless output, ATIF trajectories
//   - "qwen-code": Qwen Code chat recordings (Claude Code-like lines of Gemini content)
//   - "pi": pi and OpenClaw sessions, and pi's JSON mode output
//   - "copilot": GitHub Copilot CLI session events, and its JSON output
//   - "continue": Continue sessions (IDE extension and CLI)
//   - "cursor": Cursor CLI's stream-json output
//   - "goose": Goose session files, JSON exports and stream-json output
//   - "browser-use": a browser-use agent's history document
//   - "osworld": an OSWorld run's traj.jsonl (a computer-use agent's executed actions)
//   - "online-mind2web": an Online-Mind2Web result.json (a web agent's actions and thoughts)
//   - "gemini-markdown": a Gemini CLI chat shared as Markdown (/chat share)
//   - "hook-transcript": the transcript oh-my-opencode keeps for Claude Code's hooks
//     (~/.claude/transcripts/*.jsonl: the user's prompts, the calls and their answers)
//   - "android-world": an AndroidWorld episode's steps (a phone agent's actions and the
//     screens they left)
//   - "kimi": a Kimi Code CLI session's records
//   - "craft-agents": a Craft Agents session (a header line, then its messages)
//   - "react-log": what ReAct's runner prints of its steps (Act N / Obs N lines)
//   - "cascade-markdown": a Windsurf Cascade or Antigravity conversation exported as Markdown
//   - "crewai-log": CrewAI's verbose console output of a crew's run
//   - "smolagents-console": what smolagents prints of an agent's run
//   - "langchain-text": LangChain messages printed with pretty_print(), as LangGraph runs are shown
//   - "autogen-console": what AutoGen AgentChat's Console prints of a team's run
//   - "ag2-console": what AG2 (AutoGen 0.2) prints of a conversation
//   - "llamaindex-console": what LlamaIndex's agents print of their steps
//   - "ai-inventor": AI Inventor's Markdown transcripts of its agents' tasks
//   - "appworld-io": AppWorld's log of the cells an agent ran and their outputs
//   - "acp": an agent's Agent Client Protocol session updates as BenchFlow writes them
//   - "cline-ui": a Cline or Roo Code task's ui_messages.json
//   - "zed": a thread of Zed's agent panel saved as Markdown
//   - "vscode-chat": a VS Code chat session (Copilot agent mode; "Chat: Export Chat...",
//     chatSessions/*.json and the operation logs of chatSessions/*.jsonl), or a Copilot chat
//     replay (*.chatreplay.json)
//   - "amazon-q": a conversation saved by Amazon Q Developer CLI or Kiro CLI (`/save`)
//   - "codex-markdown": a Codex thread exported as Markdown ("# Codex Conversation Export")
//   - "codex-text": Codex CLI's conversation as its terminal shows it ("• Ran npm test")
//   - "gemini-text": Gemini CLI's conversation as its terminal shows it ("│ ✓  Shell npm test")
//   - "copilot-markdown": a Copilot CLI session shared as Markdown ("# 🤖 Copilot CLI Session")
//   - "amp-markdown": an Amp thread exported as Markdown (front matter with "threadId: T-…")
//   - "opencode-markdown": an opencode session exported as Markdown ("**Session ID:** ses_…")
//   - "events": loopguard's own events JSONL
//
// Call index convention: within an agent, the n-th EventCall (0-based, in file order) is the
// n-th tool call of the transcript: one per SWE-agent trajectory step, per mini-swe-agent
// assistant message, per Claude Code tool_use block, per tool call in message lists. Scan
// results can therefore be mapped back to the source with the call's position alone.
package transcript

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/loopguard/loopguard"
)

// Format names, as found in Transcript.Format.
const (
	FormatClaudeCode   = "claude-code"
	FormatCodex        = "codex"
	FormatGeminiCLI    = "gemini-cli"
	FormatSWEAgent     = "swe-agent"
	FormatMiniSWEAgent = "mini-swe-agent"
	FormatMessages     = "messages"
	FormatEvents       = "events"
	// FormatOpenHandsCompletion is one OpenHands llm_completions dump: one model call, with
	// the history sent and the response. A folder of dumps of one conversation is one session
	// (MergeCompletions).
	FormatOpenHandsCompletion = "openhands-completion"
	// FormatOpenHands is an OpenHands event stream: an evaluation output.jsonl (one session
	// per line), a saved trajectory (an event list), or a conversation's event folder (one
	// file per event; MergeEvents joins them).
	FormatOpenHands = "openhands"
	// FormatOpencode is an opencode session: the files of its storage folder (MergeOpencode
	// joins them) or an `opencode export` document.
	FormatOpencode = "opencode"
	// FormatOTLP is OpenTelemetry traces of agents in OTLP JSON (GenAI semantic conventions
	// and OpenInference), one session per conversation or session id.
	FormatOTLP = "otlp"
	// FormatCline is a Cline or Roo Code task's api_conversation_history.json.
	FormatCline = "cline"
	// FormatTauBench is a tau-bench results list: one session per entry.
	FormatTauBench = "tau-bench"
	// FormatClaudeCodeMarkdown is a Claude Code session exported as Markdown ("# Claude
	// Session Export").
	FormatClaudeCodeMarkdown = "claude-code-markdown"
	// FormatCodexExec is what `codex exec --json` prints: thread, turn and item events.
	FormatCodexExec = "codex-exec"
	// FormatGeminiStream is what `gemini -p --output-format stream-json` prints.
	FormatGeminiStream = "gemini-stream"
	// FormatATIF is an Agent Trajectory Interchange Format document (Harbor's trajectory.json).
	FormatATIF = "atif"
	// FormatGoose is a Goose session: a session file of its releases before the SQLite
	// store, what `goose run --output-format stream-json` prints, or an exported session.
	FormatGoose = "goose"
	// FormatQwenCode is a Qwen Code chat recording: Claude Code-like lines holding Gemini API
	// content.
	FormatQwenCode = "qwen-code"
	// FormatPi is a session of the pi coding agent (the agent inside OpenClaw too), or what
	// `pi --mode json` prints.
	FormatPi = "pi"
	// FormatCursor is what Cursor's CLI prints with `-p --output-format stream-json`.
	FormatCursor = "cursor"
	// FormatCopilot is a GitHub Copilot CLI session's events.jsonl.
	FormatCopilot = "copilot"
	// FormatContinue is a session of Continue (its IDE extension or its CLI, cn).
	FormatContinue = "continue"
	// FormatInspect is an Inspect (inspect_ai) evaluation log, a JSON document or a .eval
	// archive: one session per sample.
	FormatInspect = "inspect"
	// FormatTrae is a Trae Agent trajectory (trajectories/trajectory_<time>.json).
	FormatTrae = "trae"
	// FormatLangSmith is a LangSmith run tree or run list saved as JSON (LangChain and
	// LangGraph agents' traces).
	FormatLangSmith = "langsmith"
	// FormatMoatless is a Moatless Tools run (one JSON document of states and their actions).
	FormatMoatless = "moatless"
	// FormatAntigravity is a Google Antigravity trajectory exported one step a line.
	FormatAntigravity = "antigravity"
	// FormatSessionEvents is a managed agent session's event log (Anthropic's sevt_ events).
	FormatSessionEvents = "session-events"
	// FormatAider is Aider's chat history (.aider.chat.history.md): one session per run.
	FormatAider = "aider"
	// FormatMiniConsole is mini-swe-agent's console output, as a terminal recording keeps it
	// (Terminal-Bench's sessions/agent.log) or as it is pasted.
	FormatMiniConsole = "mini-swe-agent-console"
	// FormatClineMarkdown is a Cline or Roo Code task exported as Markdown.
	FormatClineMarkdown = "cline-markdown"
	// FormatSpecStory is a chat saved by SpecStory (.specstory/history/*.md), of Cursor, Claude
	// Code or another agent.
	FormatSpecStory = "specstory"
	// FormatBrowserUse is a browser-use agent's history (agent.save_history): one JSON
	// document of steps, each the model's actions and their results.
	FormatBrowserUse = "browser-use"
	// FormatOSWorld is an OSWorld run's traj.jsonl: the actions a computer-use agent's steps
	// executed, one a line.
	FormatOSWorld = "osworld"
	// FormatMind2Web is an Online-Mind2Web result.json: a web agent's task, its actions as
	// text and the thoughts beside them.
	FormatMind2Web = "online-mind2web"
	// FormatGeminiMarkdown is a Gemini CLI chat shared as Markdown (`/chat share file.md`):
	// turns under "## USER" and "## MODEL" headings, calls as "**Tool Command**:" JSON
	// blocks, their answers as "**Tool Response**:" blocks.
	FormatGeminiMarkdown = "gemini-markdown"
	// FormatHookTranscript is the transcript oh-my-opencode (an opencode plugin) keeps for
	// Claude Code's hooks: one flat record a line, the user's prompts, the calls (tool_use)
	// and their answers (tool_result).
	FormatHookTranscript = "hook-transcript"
	// FormatAndroidWorld is an AndroidWorld episode saved as JSON: the goal, and each step's
	// agent data (the model's reply, the UI element list after its action).
	FormatAndroidWorld = "android-world"
	// FormatKimi is a Kimi Code CLI session's records, one a line (the agent loop's events).
	FormatKimi = "kimi"
	// FormatCraft is a Craft Agents session: a header line, then one message a line (a
	// call and its answer on one).
	FormatCraft = "craft-agents"
	// FormatReactLog is what ReAct's runner for text games prints of an episode's steps
	// ("Act N: ...", "Obs N: ..."), among the rest of a job's output.
	FormatReactLog = "react-log"
	// FormatCascadeMarkdown is a conversation of Windsurf's Cascade, or of Google Antigravity,
	// exported as Markdown ("# Cascade Chat Conversation"): calls without their answers.
	FormatCascadeMarkdown = "cascade-markdown"
	// FormatCrewAILog is CrewAI's verbose console output of a crew's run.
	FormatCrewAILog = "crewai-log"
	// FormatMCPTraffic is the JSON-RPC messages an MCP host logged (Claude Desktop, gh-aw).
	FormatMCPTraffic = "mcp-traffic"
	// FormatStepsTable is an episode logged as a table of steps (BALROG's CSV).
	FormatStepsTable = "steps-table"
	// FormatCrewAIConsole is CrewAI 1.x's console panels of a crew's run.
	FormatCrewAIConsole = "crewai-console"
	// FormatSmolagentsConsole is what Hugging Face's smolagents prints of an agent's run.
	FormatSmolagentsConsole = "smolagents-console"
	// FormatLangChainText is LangChain messages printed with pretty_print(), a run's messages
	// one under another as LangGraph's tutorials and notebooks show them.
	FormatLangChainText = "langchain-text"
	// FormatAutoGenConsole is what AutoGen AgentChat's Console prints of a team's run.
	FormatAutoGenConsole = "autogen-console"
	// FormatAG2Console is what AG2 (AutoGen 0.2 and its successor) prints of a conversation.
	FormatAG2Console = "ag2-console"
	// FormatAG2Chat is an AG2 chat kept as its message list ({"content", "name", "role"}: a
	// saved chat_history, the Who&When benchmark's CaptainAgent runs): its senders' words and
	// the code they had run.
	FormatAG2Chat = "ag2-chat"
	// FormatMagenticOne is Magentic-One's run log as the Who&When benchmark keeps it: the
	// orchestrator's plans and ledgers, its instructions to its workers and their answers.
	FormatMagenticOne = "magentic-one"
	// FormatLlamaIndexConsole is what LlamaIndex's agents print of their steps (verbose=True).
	FormatLlamaIndexConsole = "llamaindex-console"
	// FormatDSPy is a DSPy ReAct run: its printed Prediction's trajectory, or dspy.inspect_history()'s dump.
	FormatDSPy = "dspy"
	// FormatCAMELConsole is what CAMEL's role-playing prints of a run (AI User: / AI Assistant: turns, Function Execution: blocks).
	FormatCAMELConsole = "camel-console"
	// FormatHaystackConsole is what a Haystack agent streams to the console ([TOOL CALL] / [TOOL RESULT] blocks).
	FormatHaystackConsole = "haystack-console"
	// FormatAIInventor is AI Inventor's Markdown transcript of an agent task (Claude Code or
	// OpenHands' agent SDK), as its runs commit them.
	FormatAIInventor = "ai-inventor"
	// FormatAppWorldIO is AppWorld's log of the cells an agent ran (logs/environment_io.md).
	FormatAppWorldIO = "appworld-io"
	// FormatACP is what BenchFlow writes of an agent it drives over the Agent Client Protocol
	// (acp_trajectory.jsonl): the session's updates, one a line.
	FormatACP = "acp"
	// FormatClineUI is a Cline or Roo Code task's ui_messages.json, read when its
	// api_conversation_history.json is not there.
	FormatClineUI = "cline-ui"
	// FormatZed is a thread of Zed's agent panel saved as Markdown.
	FormatZed = "zed"
	// FormatVSCodeChat is a session of VS Code's chat panel (GitHub Copilot, agent mode
	// included) as "Chat: Export Chat..." writes it and VS Code keeps it
	// (chatSessions/<id>.json), or the Copilot extension's chat replay export
	// (*.chatreplay.json).
	FormatVSCodeChat = "vscode-chat"
	// FormatClaudeText is Claude Code's conversation as its terminal shows it: what `/export`
	// writes, and what people paste of the screen ("⏺ Bash(npm test)", "  ⎿  ...").
	FormatClaudeText = "claude-code-text"
	// FormatCodexText is Codex CLI's conversation as its terminal shows it, as people paste
	// it ("• Ran npm test", "  └ ...").
	FormatCodexText = "codex-text"
	// FormatGeminiText is Gemini CLI's conversation as its terminal shows it, as people paste
	// it (its boxes of calls, "│ ✓  Shell npm test", and the model's "✦ ").
	FormatGeminiText = "gemini-text"
	// FormatCodexExecText is what `codex exec` prints when it runs without --json, as CI jobs
	// and harnesses keep it ("exec", "/bin/zsh -lc 'npm test' in /repo exited 1 in 2.1s:").
	FormatCodexExecText = "codex-exec-text"
	// FormatADK is a session of Google's Agent Development Kit, as `adk web` exports it
	// ({"appName", "userId", "events"}), or its events one a line.
	FormatADK = "adk"
	// FormatAmazonQ is a conversation saved with `/save` by Amazon Q Developer CLI (`q chat`)
	// or Kiro CLI, its successor.
	FormatAmazonQ = "amazon-q"
	// FormatCodexMarkdown is a Codex thread exported as Markdown ("# Codex Conversation
	// Export").
	FormatCodexMarkdown = "codex-markdown"
	// FormatCopilotMarkdown is a GitHub Copilot CLI session shared as Markdown ("# 🤖 Copilot
	// CLI Session").
	FormatCopilotMarkdown = "copilot-markdown"
	// FormatAmpMarkdown is a thread of Amp (Sourcegraph's coding agent) exported as Markdown
	// (a front matter with its threadId, then "## User" and "## Assistant" messages).
	FormatAmpMarkdown = "amp-markdown"
	// FormatCursorText is a chat of Cursor's agent as Cursor keeps it in text
	// (~/.cursor/projects/<project>/agent-transcripts/<id>.txt): "user:" and "assistant:"
	// turns, "[Tool call] <name>" with its parameters, "[Tool result] <name>".
	FormatCursorText = "cursor-transcript"
	// FormatOpencodeMarkdown is an opencode session exported as Markdown (its /export): "## User"
	// and "## Assistant (…)" messages, "**Tool: name**" calls with their Input and Output blocks.
	FormatOpencodeMarkdown = "opencode-markdown"
	// FormatDevAI is a developer agent's run on a task of Agent-as-a-Judge's DevAI benchmark:
	// a JSON list of steps, each a user message or the agent's thought and action, answered by
	// its environment.
	FormatDevAI = "devai"
	// FormatChatDev is ChatDev's log of a run of its software company: the roles' messages, the
	// code it writes and the reports of running it.
	FormatChatDev = "chatdev"
	// FormatAutoGPT is AutoGPT's activity log of 2023 (logs/activity.log): its thoughts, the
	// commands it proposed and what they returned.
	FormatAutoGPT = "autogpt"
	// FormatAgentZero is an Agent Zero chat (tmp/chats/<id>/chat.json, usr/chats/<id>/chat.json):
	// its agents' histories, the model's JSON replies and the framework's answers.
	FormatAgentZero = "agent-zero"
	// FormatDAAgent is DA-Agent's result.json (DA-Code): its steps, each observation what the
	// agent saw before the step's action.
	FormatDAAgent = "da-agent"
	// FormatOpenManus is OpenManus's loguru log of a run: its steps, thoughts, tools and their
	// results.
	FormatOpenManus = "openmanus"
	// FormatBrowserUseLog is browser-use's console output of a run: its steps, their words and
	// actions, and what the controller answered.
	FormatBrowserUseLog = "browser-use-log"
	// FormatAgentExecutor is what LangChain's AgentExecutor prints of a tool-calling agent's run
	// with verbose=True: its chains and the tools it invokes.
	FormatAgentExecutor = "langchain-agentexecutor"
	// FormatPydanticAI is a Pydantic AI run's message history (ModelMessagesTypeAdapter's JSON:
	// requests and responses of parts).
	FormatPydanticAI = "pydantic-ai"
	// FormatSpanTrajectory is a harness's tracing spans exported as one list, the model's
	// turns (llm_call) and the tools' runs (tool_call): Vorflux's SWE-bench submissions.
	FormatSpanTrajectory = "span-trajectory"
	// FormatKiro is a Kiro CLI session: its v1 log records, one a line, or its session
	// export ("kiro-session-export-v1").
	FormatKiro = "kiro"
)

// MainAgent is the id of an agent that is not a subagent or a named role.
const MainAgent = "main"

// Transcript is one file read.
type Transcript struct {
	Path   string
	Format string
	// Agents are in order of first appearance.
	Agents []Agent
	// Usage is the whole file's usage: the sum over the agents, or, when the transcript only
	// records totals for the run (e.g. a multi-agent CodeR run), those totals.
	Usage Usage
	// Sessions is how many sessions the file holds: 1, except for formats that put many runs
	// in one file (a tau-bench results list: one per entry). Agent.Session numbers them.
	Sessions int
	// Note says how the file was read when it could have been read another way (an OpenHands
	// dump holding its calls both as text and as structured tool calls), for --verbose.
	Note string
	// Completion is set for an OpenHands llm_completions dump: what MergeCompletions needs to
	// join it with the other dumps of its conversation.
	Completion *CompletionPart
	// Event is set for a file holding one OpenHands event: what MergeEvents needs to join it
	// with the other events of its conversation folder.
	Event *EventPart
	// Opencode is set for a message or part file of opencode's storage: what MergeOpencode
	// needs to join it with the other files of its session (OpencodePart.Session).
	Opencode *OpencodePart
	// Damaged lists the lines of a session log that are not JSON (cut short, split in two)
	// and were passed over, each naming its place; the rest of the file was read.
	Damaged []*Error
}

// Agent is one agent's part of a transcript.
type Agent struct {
	// ID is "main" for the main agent, the role name for multi-agent SWE-agent runs (CodeR
	// `history[].agent`), "agent-<id>" for a Claude Code subagent. Every event's Agent field
	// holds this id.
	ID string
	// Session is the 0-based index of the session the agent belongs to (the position of the
	// entry in a tau-bench list); 0 in single-session files. Agent ids are unique per session.
	Session int
	// Events are in order: calls (with their results), user turns, text blocks.
	Events []loopguard.Event
	// Usage holds tokens and cost where the transcript records them per agent.
	Usage Usage
}

// Usage is token and cost accounting. InputTokens excludes cached input (CacheReadTokens) and
// cache writes (CacheWriteTokens), whatever the provider's own convention.
type Usage struct {
	InputTokens      int64
	OutputTokens     int64
	CacheReadTokens  int64
	CacheWriteTokens int64
	CostUSD          float64
	Model            string
}

func (u *Usage) add(v Usage) {
	u.InputTokens += v.InputTokens
	u.OutputTokens += v.OutputTokens
	u.CacheReadTokens += v.CacheReadTokens
	u.CacheWriteTokens += v.CacheWriteTokens
	u.CostUSD += v.CostUSD
	if v.Model != "" {
		u.Model = v.Model
	}
}

// Calls returns the agent's call events, in order: the list that call indices refer to.
func (a *Agent) Calls() []loopguard.Event {
	var calls []loopguard.Event
	for _, e := range a.Events {
		if e.Type == loopguard.EventCall {
			calls = append(calls, e)
		}
	}
	return calls
}

// Agent returns the agent with the given id, or nil.
func (t *Transcript) Agent(id string) *Agent {
	for i := range t.Agents {
		if t.Agents[i].ID == id {
			return &t.Agents[i]
		}
	}
	return nil
}

// Error is a problem with one file: Path, and Line (1-based) when the problem has a line.
type Error struct {
	Path string
	Line int
	Err  error
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return e.Path + ":" + strconv.Itoa(e.Line) + ": " + e.Err.Error()
	}
	return e.Path + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Problems reported in errors, for errors.Is.
var (
	ErrEmpty         = errors.New("empty file")
	ErrBinary        = errors.New("binary content, not a transcript")
	ErrUnknownFormat = errors.New("unknown transcript format")
)

const (
	sniffSize   = 256 << 10 // buffer on the content; also the window the format is sniffed from
	maxLineSize = 1 << 30   // a JSONL line longer than this is refused
)

// Read reads one transcript file. The format is detected from the content; a gzip-compressed
// file (recognised by its magic bytes) is decompressed on the fly.
//
// Errors are *Error values naming the file and, where there is one, the line ("path:LINE:
// problem"): an empty, binary or unrecognised file, a truncated or damaged gzip stream, a
// malformed JSON document, a line of our event format that is malformed, or a line of an
// agent's session log that is JSON but not what its format expects. A line of a session log
// that is not JSON at all (cut short, a record split in two) is passed over and
// named in Transcript.Damaged, and the rest is read; a log whose lines are mostly not JSON
// fails as a whole. Read never panics: a panic in a reader would be turned into an error for
// that file.
func Read(path string) (*Transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{Path: path, Err: unwrapPathError(err)}
	}
	defer f.Close()
	return readFrom(path, f, sizeHint(f))
}

// sizeHint guesses the content's size, to read whole documents without regrowing buffers:
// the file's size, or for a gzip file the size its trailer records (modulo 4 GiB).
func sizeHint(f *os.File) int64 {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return 0
	}
	size := st.Size()
	var b [4]byte
	if size < 18 {
		return size
	}
	if _, err := f.ReadAt(b[:2], 0); err != nil || b[0] != 0x1f || b[1] != 0x8b {
		return size
	}
	if _, err := f.ReadAt(b[:], size-4); err != nil {
		return 0
	}
	n := int64(b[0]) | int64(b[1])<<8 | int64(b[2])<<16 | int64(b[3])<<24
	if n < size || n > 64*size { // a multi-member or very large file: no good guess
		return 0
	}
	return n
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// ReadFrom reads one transcript from r; name is used in errors and as Transcript.Path, and to
// name a Claude Code subagent whose lines lack an agent id.
func ReadFrom(name string, r io.Reader) (*Transcript, error) {
	return readFrom(name, r, 0)
}

// ReadFromSized is ReadFrom with a guess of the content's size (see SizeHint), so that whole
// documents are read into one buffer instead of a regrowing one.
func ReadFromSized(name string, r io.Reader, sizeHint int64) (*Transcript, error) {
	return readFrom(name, r, sizeHint)
}

// SizeHint guesses the size of a file's content: its size, or for a gzip file the size its
// trailer records (modulo 4 GiB). It returns 0 when it cannot tell.
func SizeHint(f *os.File) int64 { return sizeHint(f) }

// recoverPanics turns a panic while reading into an error for that file. The readers are
// written not to panic; this is a last guard so that one bad file never takes a whole scan
// down. The fuzz test turns it off to see panics.
var recoverPanics = true

func readFrom(name string, r io.Reader, hint int64) (t *Transcript, err error) {
	if recoverPanics {
		defer func() {
			if p := recover(); p != nil {
				t, err = nil, &Error{Path: name, Err: fmt.Errorf("internal error reading transcript: %v", p)}
			}
		}()
	}
	// Content that is not gzip is read through one buffer, the one the format is sniffed
	// from; gzip content gets a second one on the decompressor. Both come from
	// contentReaders: a scan reads hundreds of files, and fresh buffers for each cost more
	// (clearing, page faults) than the reading of a small file.
	br := getContentReader(&stickyReader{r: r})
	defer putContentReader(br)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, zerr := gzip.NewReader(br)
		if zerr != nil {
			return nil, &Error{Path: name, Err: fmt.Errorf("gzip: %w", readErr(zerr))}
		}
		defer zr.Close()
		zbr := getContentReader(&stickyReader{r: zr})
		defer putContentReader(zbr)
		return readText(name, zbr, hint)
	}
	return readText(name, br, hint)
}

// readText reads content that may open with a byte-order mark. UTF-8's is dropped. UTF-16
// with its mark, what Windows PowerShell writes when it redirects to a file (`opencode export
// … > session.json`), is decoded to UTF-8 whole first (such files are rare and small). Any
// other content is read as it is.
func readText(name string, br *bufio.Reader, hint int64) (*Transcript, error) {
	bom, _ := br.Peek(3)
	if len(bom) == 3 && bom[0] == 0xef && bom[1] == 0xbb && bom[2] == 0xbf {
		// UTF-8's mark, which Windows tools (PowerShell's Out-File -Encoding utf8, Notepad)
		// put first: no format opens with it, and a real chat so saved read as no transcript.
		br.Discard(3)
		return readPlain(name, br, max(hint-3, 0))
	}
	if len(bom) < 2 || !(bom[0] == 0xff && bom[1] == 0xfe || bom[0] == 0xfe && bom[1] == 0xff) {
		return readPlain(name, br, hint)
	}
	raw, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	if !looksUTF16(raw[2:]) {
		// A UTF-16 mark over UTF-8 text (an editor's save gone wrong, with a few stray NULs):
		// the content decides, and the NULs are no text.
		text := strings.ReplaceAll(string(raw[2:]), "\x00", "")
		tbr := getContentReader(strings.NewReader(text))
		defer putContentReader(tbr)
		return readPlain(name, tbr, int64(len(text)))
	}
	text := decodeUTF16(raw)
	tbr := getContentReader(strings.NewReader(text))
	defer putContentReader(tbr)
	return readPlain(name, tbr, int64(len(text)))
}

// readMarkdownLines reads a whole Markdown export and returns its lines, Windows line ends
// turned into "\n" (lfLines): the start of every reader that walks an export line by line.
func readMarkdownLines(name string, br *bufio.Reader) ([]string, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	return strings.Split(string(lfLines(data)), "\n"), nil
}

// lfLines returns Markdown with Windows line ends ("\r\n", as a history written on Windows
// keeps them) turned into "\n": the Markdown readers match whole lines ("```", "#### ", "---"),
// and a line ending in "\r" matches none of them (an Aider history read 0 calls).
func lfLines(data []byte) []byte {
	if !bytes.Contains(data, []byte("\r\n")) {
		return data
	}
	return bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
}

// looksUTF16 says whether b reads as UTF-16: text in it, mostly ASCII in the transcripts
// agents write, has a NUL in about every other byte; UTF-8 text has none, or a few strays.
func looksUTF16(b []byte) bool {
	n := min(len(b), 4096)
	return n < 2 || bytes.Count(b[:n], []byte{0})*4 >= n
}

// decodeUTF16 decodes UTF-16 that opens with its byte-order mark (dropped) to UTF-8; a
// trailing odd byte is dropped and unpaired surrogates become U+FFFD.
func decodeUTF16(b []byte) string {
	if len(b) < 2 {
		return ""
	}
	order := binary.ByteOrder(binary.LittleEndian)
	if b[0] == 0xfe {
		order = binary.BigEndian
	}
	units := make([]uint16, 0, len(b)/2)
	for i := 2; i+1 < len(b); i += 2 {
		units = append(units, order.Uint16(b[i:]))
	}
	return string(utf16.Decode(units))
}

// contentReaders keeps the sniffSize buffered readers of files read before. Readers copy
// what they keep out of the buffer (lines are only valid until the next one), so a reader
// is free again once its file is read.
var contentReaders sync.Pool

func getContentReader(r io.Reader) *bufio.Reader {
	if br, ok := contentReaders.Get().(*bufio.Reader); ok {
		br.Reset(r)
		return br
	}
	return bufio.NewReaderSize(r, sniffSize)
}

func putContentReader(br *bufio.Reader) {
	if poolDisabled {
		return
	}
	br.Reset(nil) // let go of the file
	contentReaders.Put(br)
}

// stickyReader keeps returning the first error of r. The format is sniffed from a peek at
// the content; when that peek meets a read error (a truncated gzip file), the readers still
// read what came before and then meet the error where it is, with its line.
type stickyReader struct {
	r   io.Reader
	err error
}

func (s *stickyReader) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.r.Read(p)
	s.err = err
	return n, err
}

// opensQuotedDocument says whether a text opens as a JSON document written into a JSON string,
// `"{\n  \"agents\": ...`: the file is the document encoded twice, as a program that passes
// an already encoded document to json.dump writes it. One of Letta's published agent files is
// so (validation round r197a G5: "not JSON").
func opensQuotedDocument(head []byte) bool {
	head = bytes.TrimLeft(head, " \t\r\n")
	return len(head) > 1 && head[0] == '"' && (head[1] == '{' || head[1] == '[')
}

// quotedDocument returns the document a text that opensQuotedDocument holds: the string
// decoded, when it is one JSON string whose text opens as a document.
func quotedDocument(raw []byte) (string, bool) {
	var inner string
	if json.Unmarshal(raw, &inner) != nil {
		return "", false
	}
	trimmed := strings.TrimLeft(inner, " \t\r\n")
	return inner, trimmed != "" && (trimmed[0] == '{' || trimmed[0] == '[')
}

func readPlain(name string, br *bufio.Reader, hint int64) (*Transcript, error) {
	return readPlainText(name, br, hint, true)
}

// readPlainText is readPlain; unquote says whether a document written into a JSON string is
// still to be looked for (it is looked for once).
func readPlainText(name string, br *bufio.Reader, hint int64, unquote bool) (*Transcript, error) {
	head, perr := br.Peek(sniffSize)
	if perr != nil && perr != io.EOF && perr != bufio.ErrBufferFull && len(head) == 0 {
		return nil, &Error{Path: name, Err: readErr(perr)}
	}
	if n := opencodeExportNote(head); n > 0 {
		// opencode 1.15 writes "Exporting session: ses_…" into an export sent to a file, on
		// the line before the document (validation round r83a U1: 489 calls "not JSON").
		if _, err := br.Discard(n); err == nil {
			return readPlainText(name, br, hint, unquote)
		}
	}
	if unquote && opensQuotedDocument(head) {
		// Read whole to find out; a text that only opens so (a log whose first line is a
		// quoted JSON value, then a crew's console) is read from its bytes as it would have been.
		raw, err := io.ReadAll(br)
		if err != nil {
			return nil, &Error{Path: name, Err: readErr(err)}
		}
		text := string(raw)
		if inner, ok := quotedDocument(raw); ok {
			text = inner
		}
		return readPlainText(name, bufio.NewReaderSize(strings.NewReader(text), sniffSize), int64(len(text)), false)
	}
	s := sniff(head, perr == io.EOF)
	if s.err != nil {
		return nil, &Error{Path: name, Line: s.errLine, Err: s.err}
	}
	if s.kind == kindLoggedRecords {
		return readLoggedRecords(name, br, hint)
	}
	if s.kind == kindNotebook {
		return readNotebook(name, br, hint)
	}
	var t *built
	var err error
	switch s.kind {
	case kindClaudeCode:
		t, err = readClaudeCode(name, br)
	case kindCodex:
		t, err = readCodex(name, br)
	case kindGeminiJSONL:
		t, err = readGeminiJSONL(name, br)
	case kindEvents:
		t, err = readEvents(name, br)
	case kindArray:
		t, err = readJSONArray(name, br, hint)
	case kindObject:
		t, err = readJSONObject(name, br, hint)
	case kindClaudeMarkdown:
		t, err = readClaudeMarkdown(name, br)
	case kindOpenHandsOutput:
		t, err = readOpenHandsOutput(name, br)
	case kindOTLP:
		t, err = readOTLP(name, br)
	case kindOpencodeFile:
		t, err = readOpencodeFile(name, br, hint)
	case kindOpenHandsEvent:
		t, err = readOpenHandsEventFile(name, br, hint)
	case kindOpenHandsEvents:
		t, err = readOpenHandsEventLines(name, br)
	case kindCodexExec:
		t, err = readCodexExec(name, br)
	case kindGeminiStream:
		t, err = readGeminiStream(name, br)
	case kindATIF:
		t, err = readATIF(name, br, hint)
	case kindMessagesJSONL:
		t, err = readMessagesJSONL(name, br)
	case kindGoose:
		t, err = readGoose(name, br)
	case kindQwen:
		t, err = readQwen(name, br)
	case kindPi:
		t, err = readPi(name, br)
	case kindCursor:
		t, err = readCursor(name, br)
	case kindCopilot:
		t, err = readCopilot(name, br)
	case kindContinue:
		t, err = readContinue(name, br, hint)
	case kindInspect:
		t, err = readInspectJSON(name, br, hint)
	case kindInspectEval:
		t, err = readInspectEval(name, br)
	case kindTrae:
		t, err = readTrae(name, br, hint)
	case kindLangSmith:
		t, err = readLangSmith(name, br)
	case kindMoatless:
		t, err = readMoatless(name, br, hint)
	case kindAntigravity:
		t, err = readAntigravity(name, br)
	case kindSessionEvents:
		t, err = readSessionEvents(name, br)
	case kindAider:
		t, err = readAider(name, br)
	case kindMiniConsole:
		t, err = readMiniConsole(name, br)
	case kindClineMarkdown:
		t, err = readClineMarkdown(name, br)
	case kindSpecStory:
		t, err = readSpecStory(name, br)
	case kindClaudeText:
		t, err = readClaudeText(name, br)
	case kindCodexText:
		t, err = readCodexText(name, br)
	case kindGeminiText:
		t, err = readGeminiText(name, br)
	case kindCodexExecText:
		t, err = readCodexExecText(name, br)
	case kindADK:
		t, err = readADK(name, br)
	case kindBrowserUse:
		t, err = readBrowserUse(name, br, hint)
	case kindOSWorld:
		t, err = readOSWorld(name, br)
	case kindMind2Web:
		t, err = readMind2Web(name, br, hint)
	case kindAndroidWorld:
		t, err = readAndroidWorld(name, br, hint)
	case kindHookTranscript:
		t, err = readHookTranscript(name, br)
	case kindGeminiMarkdown:
		t, err = readGeminiMarkdown(name, br)
	case kindCCTrace:
		t, err = readCCTrace(name, br)
	case kindKimiWire:
		t, err = readKimiWire(name, br)
	case kindCraft:
		t, err = readCraft(name, br)
	case kindReactLog:
		t, err = readReactLog(name, br)
	case kindCascadeMarkdown:
		t, err = readCascadeMarkdown(name, br)
	case kindCrewAILog:
		t, err = readCrewAILog(name, br)
	case kindCrewAIConsole:
		t, err = readCrewAIConsole(name, br)
	case kindStepsTable:
		t, err = readStepsTable(name, br)
	case kindMCPLog:
		t, err = readMCPLog(name, br)
	case kindMCPGateway:
		t, err = readMCPGateway(name, br)
	case kindAISDKStream:
		t, err = readAISDKStream(name, br)
	case kindSmolagents:
		t, err = readSmolagentsConsole(name, br)
	case kindLangChainText:
		t, err = readLangChainText(name, br)
	case kindAutoGenConsole:
		t, err = readAutoGenConsole(name, br)
	case kindAG2Console:
		t, err = readAG2Console(name, br)
	case kindChatDev:
		t, err = readChatDev(name, br)
	case kindAutoGPT:
		t, err = readAutoGPT(name, br)
	case kindAgentZero:
		t, err = readAgentZero(name, br, hint)
	case kindOpenManus:
		t, err = readOpenManus(name, br)
	case kindBrowserUseLog:
		t, err = readBrowserUseLog(name, br)
	case kindAgentExecutor:
		t, err = readAgentExecutor(name, br)
	case kindLlamaIndex:
		t, err = readLlamaIndexConsole(name, br)
	case kindDSPy:
		t, err = readDSPy(name, br)
	case kindCAMELConsole:
		t, err = readCAMELConsole(name, br)
	case kindHaystackConsole:
		t, err = readHaystackConsole(name, br)
	case kindAIInventor:
		t, err = readAIInventor(name, br)
	case kindAppWorldIO:
		t, err = readAppWorldIO(name, br)
	case kindACP:
		t, err = readACP(name, br)
	case kindZed:
		t, err = readZed(name, br)
	case kindCodexMarkdown:
		t, err = readCodexMarkdown(name, br)
	case kindCopilotMarkdown:
		t, err = readCopilotMarkdown(name, br)
	case kindAmpMarkdown:
		t, err = readAmpMarkdown(name, br)
	case kindVSCodeChat:
		t, err = readVSCodeChat(name, br, hint)
	case kindVSCodeJournal:
		t, err = readVSCodeJournal(name, br)
	case kindVSCodeReplay:
		t, err = readVSCodeReplay(name, br, hint)
	case kindAmazonQ:
		t, err = readAmazonQ(name, br, hint)
	case kindLoglines:
		t, err = readLoglines(name, br)
	case kindResponsesRollouts:
		t, err = readResponsesRollouts(name, br)
	case kindCursorText:
		t, err = readCursorText(name, br)
	case kindOpencodeRun:
		t, err = readOpencodeRun(name, br)
	case kindKiro:
		t, err = readKiro(name, br)
	case kindSpanTrajectory:
		t, err = readSpanTrajectory(name, br, hint)
	case kindOpencodeMarkdown:
		t, err = readOpencodeMarkdown(name, br)
	default:
		return nil, &Error{Path: name, Line: 1, Err: ErrUnknownFormat}
	}
	if err != nil {
		return nil, err
	}
	return finish(name, t), nil
}

// finish completes a transcript a reader built: its path, at least one session, and its usage,
// the run's when the reader recorded one, else its agents' summed.
func finish(name string, t *built) *Transcript {
	t.Path = name
	if t.Sessions == 0 {
		t.Sessions = 1
	}
	t.Usage = Usage{}
	if !t.hasRunUsage {
		for _, a := range t.Agents {
			t.Usage.add(a.Usage)
		}
	} else {
		t.Usage = t.runUsage
	}
	return t.Transcript
}

// readErr turns an I/O error met while reading into a clearer problem.
func readErr(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("unexpected end of data (truncated file?): %w", err)
	}
	if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) {
		return fmt.Errorf("gzip: %w", err)
	}
	return err
}

// withDamaged records the damaged lines passed over while reading out (see eachSessionLine).
func withDamaged(out *built, damaged []*Error) *built {
	if out != nil {
		out.Damaged = damaged
	}
	return out
}

// built is a transcript under construction.
type built struct {
	*Transcript
	// runUsage, when hasRunUsage, is the run's total usage, recorded for the whole run only.
	runUsage    Usage
	hasRunUsage bool
}

// builder collects events per agent, keeping agents in first-appearance order.
type builder struct {
	format string
	// session is the session that agent() creates agents in.
	session int
	agents  []*agentBuf
	byID    map[string]*agentBuf
	// peopleAnswer: the agents' user messages after the first are a person's (a simulated
	// user's), not the harness's (taskOrHarness).
	peopleAnswer bool
}

type agentBuf struct {
	id      string
	session int
	events  []loopguard.Event
	usage   Usage
	// userSeen says whether the agent's task (first user message) was emitted.
	userSeen bool
	// peopleAnswer is the builder's: a user message after the task is a person's turn.
	peopleAnswer bool
	// turn, when not empty, is the reply the calls and texts added now belong to
	// (Event.Turn): a reader sets it around one model message.
	turn string
	// numbered counts the calls of each tool a reader numbered because their export keeps
	// nothing of what they asked (nextNumber).
	numbered map[string]int
}

// nextNumber returns the number of the next such call of tool, from 1: calls an export keeps
// nothing of (a cancelled call, a refused edit) are numbered, so that two of them are not read
// as one call made twice.
func (a *agentBuf) nextNumber(tool string) int {
	if a.numbered == nil {
		a.numbered = map[string]int{}
	}
	a.numbered[tool]++
	return a.numbered[tool]
}

func newBuilder(format string) *builder {
	return &builder{format: format, byID: map[string]*agentBuf{}}
}

func (b *builder) agent(id string) *agentBuf { return b.sessionAgent(b.session, id) }

// sessionAgent returns the agent id of the given session, creating it on first use.
func (b *builder) sessionAgent(session int, id string) *agentBuf {
	key := id
	if session != 0 {
		key = strconv.Itoa(session) + "\x00" + id
	}
	if a, ok := b.byID[key]; ok {
		return a
	}
	a := &agentBuf{id: id, session: session, peopleAnswer: b.peopleAnswer}
	b.agents = append(b.agents, a)
	b.byID[key] = a
	return a
}

// add appends an event for the agent and returns its index in the agent's events.
func (a *agentBuf) add(e loopguard.Event) int {
	e.Agent = a.id
	if e.Type == loopguard.EventCall {
		if tool, args, ok := routedCall(e.Args); ok {
			e.Tool, e.Args = tool, args
		}
	}
	if (e.Type == loopguard.EventCall || e.Type == loopguard.EventText) && e.Turn == "" {
		e.Turn = a.turn // a text of the open reply is that reply's, as its calls are
	}
	a.events = append(a.events, e)
	return len(a.events) - 1
}

// replyCounter numbers the model's replies in a stream that marks no reply of its own (Codex
// rollouts, Gemini CLI's stream-json): the calls up to the next result or user message are one
// reply, made together.
type replyCounter struct {
	n    int
	open bool
}

// call returns the Turn of a call: the open reply's, or a new one's.
func (r *replyCounter) call() string {
	if !r.open {
		r.n, r.open = r.n+1, true
	}
	return "r" + strconv.Itoa(r.n)
}

// end says a result or a user message came: the next call starts a new reply.
func (r *replyCounter) end() { r.open = false }

// lastTurn is the Turn of the agent's last call, or "".
func (a *agentBuf) lastTurn() string {
	for i := len(a.events) - 1; i >= 0; i-- {
		if a.events[i].Type == loopguard.EventCall {
			return a.events[i].Turn
		}
	}
	return ""
}

func (a *agentBuf) text(source, text, id string, ms int64) {
	if isBlank(text) {
		return
	}
	a.add(loopguard.Event{Type: loopguard.EventText, Source: source, Text: text, ID: id, Time: ms})
}

// said appends the model's text, or, for the reply Claude Code writes itself after a local
// command ("No response requested."), the harness's: exports that drop Claude Code's
// "<synthetic>" model name keep the words alone. Three /exit commands in a row gave three
// such replies, read as the model saying the same thing three times.
func (a *agentBuf) said(text string) { a.saidAt(text, 0) }

// saidAt is said, at a time (Unix milliseconds, 0 when not known).
func (a *agentBuf) saidAt(text string, ms int64) {
	if strings.TrimSpace(text) == "No response requested." {
		a.text("synthetic", text, "", ms)
		return
	}
	a.text("model", text, "", ms)
}

// user appends a user message, its text in Event.Text. A harness's known reprompt
// (loopguard.IsKnownReprompt: OpenHands' "Please continue working on the task…", Gemini CLI's
// "System: Please continue.", which read as the person's turn reset every count: validation
// round r72a U3) is marked as the harness's (Source "harness"), so that the events say who
// sent it: it is not a person's turn.
func (a *agentBuf) user(text string, ms int64) {
	a.userSeen = true
	ev := loopguard.Event{Type: loopguard.EventUser, Text: text, Time: ms}
	if loopguard.IsKnownReprompt(text) {
		ev.Source = loopguard.SourceHarness
	}
	a.add(ev)
}

// harnessUser adds a user message the harness wrote (Source "harness"): the progress detector
// takes it as a reprompt, not as a person's new turn that would reset every count. A blank
// one says nothing and is left out, as a person's is.
func (a *agentBuf) harnessUser(text string) {
	if isBlank(text) {
		return
	}
	a.userSeen = true
	a.add(loopguard.Event{Type: loopguard.EventUser, Text: text, Source: loopguard.SourceHarness})
}

// taskOrHarness adds a user message of a run whose harness speaks as the user: the first is
// the agent's task (a user turn), the later ones the harness answering (an action's output,
// a format reminder), unless people answer in that run (peopleAnswer: tau-bench's simulated
// user), whose later messages are their turns too.
func (a *agentBuf) taskOrHarness(text string) {
	if !a.userSeen || a.peopleAnswer || loopguard.IsKnownReprompt(text) {
		// The task, or a known reprompt: a user message (the reprompt marked as the
		// harness's), so that the model's replies on either side of it are two turns.
		a.user(text, 0)
		return
	}
	a.text("harness", text, "", 0)
}

func (b *builder) done() *built {
	t := &Transcript{Format: b.format}
	for _, a := range b.agents {
		t.Agents = append(t.Agents, Agent{ID: a.id, Session: a.session, Events: a.events, Usage: a.usage})
	}
	return &built{Transcript: t}
}

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

// bytesTrimSpace trims JSON white space.
func bytesTrimSpace(b []byte) []byte { return bytes.Trim(b, " \t\r\n") }

// opencodeExportNote is the length of the line opencode writes before an export it sends to a
// file ("Exporting session: ses_…"), when head opens with it and a JSON document follows; else 0.
func opencodeExportNote(head []byte) int {
	const note = "Exporting session: "
	if !bytes.HasPrefix(head, []byte(note)) {
		return 0
	}
	nl := bytes.IndexByte(head, '\n')
	if nl < 0 || nl+1 >= len(head) || bytes.ContainsAny(head[len(note):nl], " {") || head[nl+1] != '{' {
		return 0
	}
	return nl + 1
}
