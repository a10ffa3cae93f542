package transcript

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/loopguard/loopguard/internal/jsonscan"
)

type kind int

const (
	kindUnknown kind = iota
	kindClaudeCode
	kindCodex
	kindGeminiJSONL
	kindEvents
	kindArray  // a JSON array document: message list, Gemini checkpoint or logs.json
	kindObject // a JSON object document: SWE-agent, mini-swe-agent, messages, Gemini session
	kindClaudeMarkdown
	kindOpenHandsOutput   // OpenHands evaluation output.jsonl
	kindOpenHandsEvent    // one OpenHands event (a file of an event folder)
	kindOpenHandsEvents   // OpenHands events, one a line (the agent SDK's event log)
	kindOpencodeFile      // a message or part file of opencode's storage
	kindOTLP              // OTLP JSON traces
	kindCodexExec         // `codex exec --json` output
	kindGeminiStream      // `gemini -p --output-format stream-json` output
	kindATIF              // an ATIF trajectory document
	kindMessagesJSONL     // one chat message a line (OpenAI or Anthropic style)
	kindGoose             // a Goose session file or its stream-json output
	kindQwen              // a Qwen Code chat recording
	kindPi                // a pi (or OpenClaw) session, or pi's JSON mode output
	kindCursor            // what `cursor-agent -p --output-format stream-json` prints
	kindCopilot           // a GitHub Copilot CLI session's events.jsonl
	kindContinue          // a Continue session document
	kindInspect           // an Inspect log as one JSON document
	kindInspectEval       // an Inspect .eval log (a zip archive)
	kindTrae              // a Trae Agent trajectory document
	kindLangSmith         // LangSmith runs: a run tree, or runs one a line or in a list
	kindMoatless          // a Moatless Tools run document
	kindAntigravity       // a Google Antigravity trajectory, one step a line
	kindSessionEvents     // a managed agent session's events (Anthropic), one a line
	kindAider             // Aider's chat history (Markdown)
	kindMiniConsole       // mini-swe-agent's console output (a terminal recording, or pasted)
	kindClineMarkdown     // a Cline or Roo Code task exported as Markdown
	kindSpecStory         // a chat saved by SpecStory (Markdown)
	kindClaudeText        // Claude Code's conversation as its terminal shows it (/export)
	kindCodexText         // Codex CLI's conversation as its terminal shows it
	kindGeminiText        // Gemini CLI's conversation as its terminal shows it
	kindCodexExecText     // what codex exec prints without --json
	kindADK               // a Google ADK session ({"appName", "events"}) or its events one a line
	kindBrowserUse        // a browser-use agent history document
	kindCCTrace           // a Claude Code session exported by cctrace (Markdown)
	kindKimiWire          // a Kimi Code CLI session's records, one a line
	kindCraft             // a Craft Agents session: a header line, then its messages
	kindReactLog          // what ReAct's runner prints of its steps ("Act 1: ...", "Obs 1: ...")
	kindCascadeMarkdown   // Windsurf Cascade's (and Antigravity's) Markdown export of a conversation
	kindCrewAILog         // CrewAI's verbose console output (# Agent: / ## Using tool: sections)
	kindCrewAIConsole     // CrewAI 1.x's console panels (🤖 Agent Started, 🔧 Tool Execution Started)
	kindStepsTable        // an episode as a CSV table of steps (BALROG: Step,Action,Reasoning,Observation,...)
	kindMCPLog            // an MCP host's log of its messages (Claude Desktop's mcp.log)
	kindMCPGateway        // gh-aw's MCP gateway log (rpc-messages.jsonl)
	kindAISDKStream       // an AI SDK chat streamed as message parts, one a line (pochi)
	kindSmolagents        // smolagents' console output of a run (━ Step N ━, Executing parsed code)
	kindLangChainText     // LangChain messages printed with pretty_print() (LangGraph runs)
	kindAutoGenConsole    // AutoGen AgentChat's Console printout of a run
	kindAG2Console        // AG2's (AutoGen 0.2's) printout of a conversation
	kindChatDev           // ChatDev's log of a run of its software company
	kindAutoGPT           // AutoGPT's activity log
	kindAgentZero         // an Agent Zero chat (chat.json)
	kindOpenManus         // OpenManus's loguru log of a run
	kindNotebook          // a Jupyter notebook, whose cells' output may hold a printed transcript
	kindBrowserUseLog     // browser-use's console output of a run
	kindAgentExecutor     // LangChain AgentExecutor's verbose printout of a tool-calling agent
	kindLlamaIndex        // LlamaIndex agents' verbose printout (Calling function:, ReAct steps)
	kindDSPy              // a DSPy ReAct run: a printed trajectory, or dspy.inspect_history()'s dump
	kindCAMELConsole      // CAMEL's role-playing printout (AI User: / AI Assistant:, Function Execution:)
	kindHaystackConsole   // a Haystack agent's streamed console ([TOOL CALL] / [TOOL RESULT])
	kindAIInventor        // AI Inventor's Markdown transcript of an agent task
	kindAppWorldIO        // AppWorld's environment_io.md: the cells an agent ran and their outputs
	kindACP               // an agent's ACP session updates as BenchFlow writes them, one a line
	kindLoglines          // a Claude Code session as claude-code-transcripts keeps it
	kindResponsesRollouts // Responses API requests and responses, one run a line (NeMo Gym)
	kindZed               // a thread of Zed's agent panel saved as Markdown
	kindVSCodeChat        // a VS Code chat session document
	kindVSCodeReplay      // a Copilot chat replay export
	kindAmazonQ           // a conversation saved by Amazon Q Developer CLI or Kiro CLI
	kindVSCodeJournal     // a VS Code chat session kept as an operation log (chatSessions/<id>.jsonl)
	kindOSWorld           // an OSWorld run's traj.jsonl, one executed action a line
	kindMind2Web          // an Online-Mind2Web result.json document
	kindAndroidWorld      // an AndroidWorld episode (its steps' agent data) as one JSON document
	kindHookTranscript    // the transcript oh-my-opencode keeps for Claude Code's hooks
	kindGeminiMarkdown    // a Gemini CLI chat shared as Markdown (/chat share)
	kindCodexMarkdown     // a Codex thread exported as Markdown
	kindCopilotMarkdown   // a Copilot CLI session shared as Markdown
	kindAmpMarkdown       // an Amp thread exported as Markdown
	kindLoggedRecords     // a harness's log whose lines carry a stream format's records
	kindCursorText        // a Cursor agent transcript kept as text (agent-transcripts/*.txt)
	kindOpencodeRun       // what `opencode run --format json` prints
	kindKiro              // a Kiro CLI session: v1 log records, or its session export
	kindSpanTrajectory    // a harness's spans as one list: llm_call turns, tool_call runs
	kindOpencodeMarkdown  // an opencode session exported as Markdown
)

// claudeMarkdownTitle opens a Claude Code session exported as Markdown.
const claudeMarkdownTitle = "# Claude Session Export"

type sniffed struct {
	kind    kind
	err     error
	errLine int
}

// Line types of the JSONL formats, used to recognise a file from its first line.
var (
	codexWrapperTypes = map[string]bool{
		"session_meta": true, "response_item": true, "event_msg": true, "turn_context": true, "compacted": true,
	}
	codexItemTypes = map[string]bool{
		"message": true, "reasoning": true, "function_call": true, "function_call_output": true,
		"custom_tool_call": true, "custom_tool_call_output": true, "local_shell_call": true,
		"web_search_call": true, "tool_search_call": true, "tool_search_output": true,
	}
	eventTypes = map[string]bool{"call": true, "user": true, "text": true, "end": true}
)

// sniff decides the format from the head of the (decompressed) content. eof says the head is
// the whole content.
func sniff(head []byte, eof bool) sniffed {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	i := 0
	for i < len(head) && jsonscan.IsSpace(head[i]) {
		i++
	}
	if i == len(head) {
		if eof {
			return sniffed{err: ErrEmpty}
		}
		// A megabyte of white space: not a transcript.
		return sniffed{err: ErrUnknownFormat, errLine: 1}
	}
	if bytes.HasPrefix(head, []byte("SQLite format 3\x00")) {
		// opencode keeps its sessions in one (opencode.db) since it left its JSON storage, and
		// Goose in sessions.db since it left its JSONL files; both export a session as JSON.
		// Crush keeps its own in .crush/crush.db, with no export (validation rounds r71d U3,
		// r73c U1: a folder walk passed over it without a word).
		return sniffed{err: fmt.Errorf("%w: a SQLite database; if it is opencode's, scan the output of `opencode export <session id>`; if Goose's, of `goose session export --format json`; Crush's sessions (.crush/crush.db) are kept only there, and scan does not read databases", ErrUnknownFormat)}
	}
	if bytes.HasPrefix(head, zipMagic) {
		return sniffed{kind: kindInspectEval} // the only zip archive read; its reader checks
	}
	if looksBinary(head) {
		return sniffed{err: ErrBinary}
	}
	if isCodexExecHead(head[i:]) {
		// before the JSON formats: a command's output may print JSONL records of another agent
		// (validation round r110b U1: read as Claude Code with 4 agents and 31 calls)
		return sniffed{kind: kindCodexExecText}
	}
	if bytes.HasPrefix(head[i:], []byte(claudeMarkdownTitle)) {
		return sniffed{kind: kindClaudeMarkdown}
	}
	if bytes.HasPrefix(head[i:], []byte(ccTraceTitle)) {
		return sniffed{kind: kindCCTrace}
	}
	if isAiderHead(head[i:]) {
		return sniffed{kind: kindAider}
	}
	if bytes.HasPrefix(head[i:], []byte(clineMarkdownUser)) {
		return sniffed{kind: kindClineMarkdown}
	}
	if isExportHead(head[i:], codexMarkdownTitle, "\n#### ") {
		return sniffed{kind: kindCodexMarkdown}
	}
	if isExportHead(head[i:], copilotMarkdownTitle, "\n### ") {
		return sniffed{kind: kindCopilotMarkdown}
	}
	if isOpencodeMarkdownHead(head[i:]) {
		return sniffed{kind: kindOpencodeMarkdown}
	}
	if isAmpHead(head[i:]) {
		return sniffed{kind: kindAmpMarkdown}
	}
	if isCascadeHead(head[i:]) {
		return sniffed{kind: kindCascadeMarkdown}
	}
	if isAppWorldIOHead(head[i:]) {
		return sniffed{kind: kindAppWorldIO}
	}
	if head[i] != '{' && head[i] != '[' && isBrowserUseLogHead(head[i:]) {
		return sniffed{kind: kindBrowserUseLog}
	}
	if bytes.HasPrefix(head[i:], []byte(specStoryMark)) || isEarlySpecStoryHead(head[i:]) {
		return sniffed{kind: kindSpecStory}
	}
	if isGeminiMarkdownHead(head[i:]) {
		return sniffed{kind: kindGeminiMarkdown}
	}
	if isZedThread(head[i:], eof) {
		return sniffed{kind: kindZed}
	}
	if isCursorTextHead(head[i:]) {
		return sniffed{kind: kindCursorText}
	}
	if isAIInventorHead(head[i:]) {
		return sniffed{kind: kindAIInventor}
	}
	// A terminal's copy is text, and may open with a bracketed note of the one who pasted it
	// ("[everything working fine up until this point]"), which no JSON value is (validation
	// round r145b U1: such a paste of a Claude Code session was "not JSON").
	text := head[i] != '{' && head[i] != '[' || !opensAValue(head[i:])
	if text && isClaudeTextHead(head) {
		return sniffed{kind: kindClaudeText}
	}
	if text && isCodexTextHead(head) {
		return sniffed{kind: kindCodexText}
	}
	if text && isGeminiTextHead(head) {
		return sniffed{kind: kindGeminiText}
	}
	if (head[i] == '[' || head[i] == '{') && !opensAValue(head[i:]) {
		// '[' or '{' and then what no JSON has there (a harness's commands.txt of Python
		// lists, ['ls', 'Enter']): text, not a JSON document damaged further on, which is
		// read and reported where it is damaged. A log whose lines open with a bracketed time
		// may carry a stream format's records, or be ChatDev's.
		if isChatDevHead(head[i:]) {
			return sniffed{kind: kindChatDev}
		}
		if loggedRecordsHead(head[i:]) {
			return sniffed{kind: kindLoggedRecords}
		}
		// Or a framework's printout whose first line is bracketed: dspy.inspect_history()
		// opens each call with its time ("[2025-01-02T10:00:00]"), Haystack's console with
		// "[ASSISTANT]" or "[TOOL CALL]" (validation round r190a G2, G5).
		if k := frameworkPrintout(head[i:]); k != kindUnknown {
			return sniffed{kind: k}
		}
		return sniffed{err: fmt.Errorf("%w: not JSON", ErrUnknownFormat), errLine: lineOf(head, i)}
	}
	switch head[i] {
	case '[':
		if isSpanListHead(head[i:]) {
			return sniffed{kind: kindOTLP} // a bare list of spans
		}
		if j := jsonscan.SkipSpace(head, i+1); j < len(head) && head[j] == '{' {
			first := scanTopObject(head[j:]).keys
			if isADKEventHead(func(k string) bool { _, ok := first[k]; return ok }) {
				return sniffed{kind: kindADK} // an ADK session's events, as a list
			}
			if isLangSmithHead(func(k string) bool { _, ok := first[k]; return ok }) {
				return sniffed{kind: kindLangSmith} // LangSmith runs, as a list
			}
		}
		return sniffed{kind: kindArray}
	case '{':
	default:
		// A CLI's captured output may open with a line of plain text ("Loaded cached
		// credentials.") before its JSON events: a stream format on a later line of the head
		// is still that format, and its reader skips such lines.
		if nl := bytes.Index(head[i:], []byte("\n{")); nl >= 0 {
			if s := sniff(head[i+nl+1:], eof); s.err == nil && isStreamKind(s.kind) {
				return s
			}
		}
		if isMCPLogHead(head[i:]) {
			// before the logged records: each line opens with a time and bracketed tags
			return sniffed{kind: kindMCPLog}
		}
		if loggedRecordsHead(head[i:]) {
			return sniffed{kind: kindLoggedRecords}
		}
		if isAutoGPTHead(head[i:]) {
			return sniffed{kind: kindAutoGPT}
		}
		if isOpenManusHead(head[i:]) {
			return sniffed{kind: kindOpenManus}
		}
		if isAgentExecutorHead(head[i:]) {
			return sniffed{kind: kindAgentExecutor}
		}
		if isReactLogHead(head[i:]) {
			return sniffed{kind: kindReactLog}
		}
		if isCrewAIHead(head[i:]) {
			return sniffed{kind: kindCrewAILog}
		}
		if isCrewAIConsoleHead(head[i:]) {
			return sniffed{kind: kindCrewAIConsole}
		}
		if isStepsTableHead(head[i:]) {
			return sniffed{kind: kindStepsTable}
		}
		// Agent frameworks' console printouts, after the formats above, whose marks are
		// more particular (a crew's log may quote a ReAct prompt's "Action:" lines).
		if k := frameworkPrintout(head[i:]); k != kindUnknown {
			return sniffed{kind: k}
		}
		if bytes.Contains(head, []byte("mini-swe-agent")) {
			// Perhaps mini-swe-agent's console, whose first message may come after more than
			// the head of a harness installing it: its reader looks at the whole text.
			return sniffed{kind: kindMiniConsole}
		}
		return sniffed{err: fmt.Errorf("%w: not JSON", ErrUnknownFormat), errLine: lineOf(head, i)}
	}
	top := scanTopObject(head[i:])
	multi := false
	if top.complete {
		j := i + top.end
		for j < len(head) && jsonscan.IsSpace(head[j]) {
			j++
		}
		multi = j < len(head)
	}
	has := func(k string) bool { _, ok := top.keys[k]; return ok }
	typ := top.keys["type"]
	switch {
	case has("cells") && (has("nbformat") || bytes.Contains(head[i:], []byte(`"cell_type"`))):
		// a notebook (nbformat writes its version after the cells, past a large one's head)
		return sniffed{kind: kindNotebook}
	case has("resourceSpans"), has("batches") && isTempoHead(head[i:]),
		has("context") && isSpanHead(head[i:]),                                           // a console exporter's spans, or any-agent's
		has("spans") && isSpanListHead(head[i:]),                                         // any-agent's trace, {"spans": [...]}
		has("body") && has("severity_number") && has("span_id"), has("resource_metrics"): // its logs and metrics, spans after them
		return sniffed{kind: kindOTLP}
	case isATIFHead(top.keys) && !multi:
		return sniffed{kind: kindATIF}
	case isSpanTrajectoryHead(has, head[i:]) && !multi:
		return sniffed{kind: kindSpanTrajectory}
	case has("payload") && codexWrapperTypes[typ]:
		return sniffed{kind: kindCodex}
	case isMCPGatewayHead(has):
		return sniffed{kind: kindMCPGateway}
	case isAISDKStreamHead(has, typ):
		return sniffed{kind: kindAISDKStream}
	case has("record_type"):
		return sniffed{kind: kindCodex}
	case !has("type") && has("id") && has("timestamp") && (has("instructions") || has("git")) && multi:
		// Legacy Codex rollout: a session header line, then bare response items.
		return sniffed{kind: kindCodex}
	case codexItemTypes[typ] && multi && (has("role") || has("call_id")) && !has("uuid"):
		// A harness may log its prompt as a message line before a Gemini CLI stream
		// (`--output-format stream-json`), whose own lines come next.
		if next := sniff(head[i+top.end:], eof); next.err == nil && next.kind == kindGeminiStream {
			return next
		}
		return sniffed{kind: kindCodex}
	case isADKSessionHead(has) && !multi, isADKEventHead(has):
		return sniffed{kind: kindADK}
	case isVSCodeJournalHead(head[i:]):
		return sniffed{kind: kindVSCodeJournal}
	case isAmazonQHead(has, head[i:]) && !multi:
		// Before the documents with a "history" (SWE-agent's, browser-use's), which it has.
		return sniffed{kind: kindAmazonQ}
	case isVSCodeChatHead(has) && !multi:
		return sniffed{kind: kindVSCodeChat}
	case isVSCodeReplayHead(has) && !multi:
		return sniffed{kind: kindVSCodeReplay}
	case isBrowserUseHead(has, head[i:]) && !multi:
		return sniffed{kind: kindBrowserUse}
	case isMind2WebHead(has) && !multi:
		return sniffed{kind: kindMind2Web}
	case isOSWorldHead(has):
		return sniffed{kind: kindOSWorld}
	case isAndroidWorldHead(has) && !multi:
		return sniffed{kind: kindAndroidWorld}
	case has("instance_id") && has("history") && !has("trajectory"),
		has("issue") && has("instruction") && has("history") && !has("trajectory"):
		// An evaluation's output, or the resolver's (OpenHands' GitHub issue resolver), whose
		// records name the issue instead of an instance.
		return sniffed{kind: kindOpenHandsOutput}
	case isOpencodeFile(top.keys) && !multi:
		return sniffed{kind: kindOpencodeFile}
	case isOHEvent(top.keys) && !multi:
		return sniffed{kind: kindOpenHandsEvent}
	case isOHEvent(top.keys) && isOHEventKind(top.keys):
		return sniffed{kind: kindOpenHandsEvents}
	case isInspectHead(has) && !multi:
		return sniffed{kind: kindInspect}
	case isResponsesRolloutHead(has):
		return sniffed{kind: kindResponsesRollouts}
	case isLoglinesHead(has) && !multi:
		return sniffed{kind: kindLoglines}
	case isAgentZeroHead(has, head[i:]) && !multi:
		return sniffed{kind: kindAgentZero}
	case isTraeHead(has) && !multi:
		return sniffed{kind: kindTrae}
	case isLangSmithHead(has), isLangSmithRunsHead(has, head[i:]) && !multi:
		return sniffed{kind: kindLangSmith}
	case isMoatlessHead(has) && !multi:
		return sniffed{kind: kindMoatless}
	case isContinueHead(has) && !multi:
		return sniffed{kind: kindContinue}
	case has("sessionId") && has("projectHash"):
		if has("messages") && !multi {
			return sniffed{kind: kindObject} // Gemini CLI session, single JSON document
		}
		return sniffed{kind: kindGeminiJSONL}
	case isGeminiRecordHead(has, typ, head[i:]):
		// A Gemini CLI chat recording whose metadata line is missing (the CLI went on
		// appending to a new file after its folder was moved): its message records.
		return sniffed{kind: kindGeminiJSONL}
	case typ != "" && (has("uuid") || has("sessionId") || has("leafUuid") || has("messageId") || has("parentUuid")):
		if has("sessionId") && isQwenHead(head[i:]) {
			return sniffed{kind: kindQwen}
		}
		return sniffed{kind: kindClaudeCode}
	case has("session_id") && (typ == "system" || typ == "user" || typ == "tool_call") && isCursorHead(head[i:]):
		return sniffed{kind: kindCursor}
	case typ == "system" && has("session_id") && (has("subtype") || has("tools")):
		// `claude -p --output-format stream-json` opens with its init line; releases before
		// 2.x wrote it without a uuid.
		return sniffed{kind: kindClaudeCode}
	case top.keys["format"] == kiroExportFormat, isKiroRecordHead(top.keys):
		return sniffed{kind: kindKiro}
	case isOpencodeRunHead(typ, has):
		return sniffed{kind: kindOpencodeRun}
	case isCodexExecType(typ) && !has("payload"):
		return sniffed{kind: kindCodexExec}
	case isGeminiStreamHead(typ, has):
		return sniffed{kind: kindGeminiStream}
	case isGooseHead(typ, has, multi):
		return sniffed{kind: kindGoose}
	case isPiHead(typ, has):
		return sniffed{kind: kindPi}
	case isCopilotHead(typ, has):
		return sniffed{kind: kindCopilot}
	case isKimiWireHead(typ, top.keys["method"], has):
		return sniffed{kind: kindKimiWire}
	case multi && isCraftHead(typ, has):
		return sniffed{kind: kindCraft}
	case isACPHead(typ, has):
		return sniffed{kind: kindACP}
	case isAntigravityHead(has):
		return sniffed{kind: kindAntigravity}
	case isSessionEventHead(typ, has, head[i:]):
		return sniffed{kind: kindSessionEvents}
	case multi && typ == "session_start" && has("cwd") && !has("role"):
		// Factory's Droid session store: a header, then {"type": "message", "message": {...}}.
		return sniffed{kind: kindMessagesJSONL}
	case multi && (typ == "user" || typ == "tool_use" || typ == "tool_result") && !has("role") &&
		!has("message") && isHookTranscriptHead(head[i:]):
		return sniffed{kind: kindHookTranscript}
	case multi && top.keys["role"] == "meta" && strings.HasPrefix(typ, "system."):
		// Kimi CLI's print mode (`--output-format stream-json`) opens with its version,
		// {"role": "meta", "type": "system.version"}, then the chat one message a line
		// (validation round r72c U1: the file was no transcript).
		if next := sniff(head[i+top.end:], eof); next.err == nil && next.kind == kindMessagesJSONL {
			return next
		}
		return sniffed{err: ErrUnknownFormat, errLine: 1}
	case multi && top.keys["_type"] == "metadata" && !has("role"):
		// nanobot's session file opens with its metadata record ({"_type": "metadata", "key":
		// "session", "last_consolidated": 0}), then the chat one message a line (validation
		// round r88a U1: such files were no transcript).
		if next := sniff(head[i+top.end:], eof); next.err == nil && next.kind == kindMessagesJSONL {
			return next
		}
		return sniffed{err: ErrUnknownFormat, errLine: 1}
	case (multi || !top.complete) && typedRoles[typ] != "" && has("content") && !has("role") && !has("uuid") &&
		!has("session_id") && !has("sessionId") && !has("payload"):
		// A chat logged one message a line with its role as the type (Grok CLI; Entire's
		// compact transcripts, {"v": 1, "agent": "claude-code", "type": "user", "ts": ...}).
		// The first line may not end within the head: a screenshot pasted into the first
		// message made it 641 KB (validation round r96b U1: read as loopguard's own events,
		// and refused for a "ts" that is no number).
		return sniffed{kind: kindMessagesJSONL}
	case multi && autogenTypes[typ] != "" && has("source") && has("content") && !has("role"):
		// AutoGen AgentChat's messages and events one a line ({"source", "type", "content"}),
		// as a run's TaskResult is saved (autogenMessages; validation round r114b U1).
		return sniffed{kind: kindMessagesJSONL}
	case eventTypes[typ] && !has("message") && !has("payload") && !has("role"):
		return sniffed{kind: kindEvents}
	case typ == "" && has("message") && !has("content") && (top.keys["role"] == "user" || top.keys["role"] == "assistant"):
		// Cursor's agent transcripts (~/.cursor/projects/<p>/agent-transcripts/*.jsonl): the
		// role outside, the message's content inside, {"role": "user", "message": {...}}.
		return sniffed{kind: kindMessagesJSONL}
	case typ == "" && has("role") && (has("content") || has("tool_calls") || has("function_call")),
		typ == "" && multi && strings.HasPrefix(top.keys["role"], "_"),
		typ == "" && multi && has("role") && has("parts") && has("id") && partsIsList(head[i:]):
		// A chat logged one message a line. The formats whose lines also carry a role (Codex
		// items, opencode and OpenHands files) are told apart above by their type or keys.
		// Kimi CLI's context.jsonl opens with a marker line ({"role": "_checkpoint", "id": 0}).
		// The Vercel AI SDK's UI messages, {"id", "role", "parts"}, one a line, as pochi wrote
		// its runs before it wrote their parts (validation round r151a U1).
		return sniffed{kind: kindMessagesJSONL}
	case multi && !(has("trajectory") || has("history") || has("messages") || has("traj") ||
		has("fncall_messages") || has("clientHistory")) && !mayHoldRuns(head[i:]):
		// Lines of something else (metrics, records): not searched, which would read them
		// all; unless they wrap a stream format's records (envelopedRecord).
		if loggedRecordsHead(head[i:]) {
			return sniffed{kind: kindLoggedRecords}
		}
		return sniffed{err: ErrUnknownFormat, errLine: 1}
	}
	// A document of the object formats, or of none (searched for chats), or several of them
	// one after another (a JSONL file of runs).
	return sniffed{kind: kindObject}
}

// isStreamKind says whether a format is a CLI's line-by-line output, whose readers skip the
// lines of plain text a captured terminal puts before it ("bash: no job control in this
// shell"); the codex-exec and gemini-stream readers skip such lines anywhere.
func isStreamKind(k kind) bool {
	return k == kindCodexExec || k == kindGeminiStream || k == kindClaudeCode || k == kindGoose || k == kindPi || k == kindCursor || k == kindOpencodeRun
}

// looksBinary reports NUL bytes at the very start, or more than a few invalid UTF-8 bytes
// near it. (A stray Latin-1 byte in a JSON file is tolerated, as encoding/json tolerates it.)
// A binary format says so in its first bytes (its magic number and header hold NULs); a text
// transcript may quote binary bytes further on: a PDF an agent read as text, its stream in a
// tool's result two pages into a Markdown export (validation round r111c U1).
func looksBinary(b []byte) bool {
	if len(b) > 8192 {
		b = b[:8192]
	}
	if bytes.IndexByte(b[:min(len(b), binaryMarkWindow)], 0) >= 0 {
		return true
	}
	bad := 0
	for len(b) >= utf8.UTFMax { // a rune cut at the end of the window is not counted
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			bad++
		}
		b = b[size:]
	}
	return bad > 16
}

// binaryMarkWindow is how far into a file a NUL byte says it is binary.
const binaryMarkWindow = 512

func lineOf(b []byte, off int) int {
	return bytes.Count(b[:off], []byte{'\n'}) + 1
}

// partsIsList says whether the first "parts" member of a head holds a list (a UI message's
// parts), not a string (a database dump's column holding them as text).
func partsIsList(head []byte) bool {
	k := bytes.Index(head, []byte(`"parts":`))
	if k < 0 {
		return false
	}
	j := jsonscan.SkipSpace(head, k+len(`"parts":`))
	return j < len(head) && head[j] == '['
}

// topObject is what scanTopObject saw of a JSON object: its keys, with the values of short
// strings and scalars (nested values map to ""), and where it ends.
type topObject struct {
	keys     map[string]string
	end      int // offset just past the closing brace, when complete
	complete bool
}

// scanTopObject reads the top-level keys of the JSON object at the start of b without
// decoding nested values. It stops quietly where b ends or the JSON is malformed: the real
// decoder reports errors later.
func scanTopObject(b []byte) topObject {
	t := topObject{keys: map[string]string{}}
	if len(b) == 0 || b[0] != '{' {
		return t
	}
	i := 1
	for {
		i = jsonscan.SkipSpace(b, i)
		if i >= len(b) {
			return t
		}
		switch b[i] {
		case '}':
			t.end, t.complete = i+1, true
			return t
		case ',':
			i++
			continue
		case '"':
		default:
			return t
		}
		kEnd, _, err := jsonscan.String(b, i, jsonscan.AsWritten)
		if err != nil {
			return t
		}
		key := string(b[i+1 : kEnd-1])
		i = jsonscan.SkipSpace(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return t
		}
		i = jsonscan.SkipSpace(b, i+1)
		if i >= len(b) {
			return t
		}
		var vEnd int
		switch b[i] {
		case '"':
			end, _, err := jsonscan.String(b, i, jsonscan.AsWritten)
			if err != nil {
				t.keys[key] = ""
				return t
			}
			vEnd = end
			if vEnd-i <= 256 {
				t.keys[key] = string(b[i+1 : vEnd-1])
			} else {
				t.keys[key] = ""
			}
		case '{', '[':
			end, err := jsonscan.Skip(b, i, jsonscan.AsWritten, 0)
			t.keys[key] = ""
			if err != nil {
				return t
			}
			vEnd = end
		default:
			vEnd = i
			for vEnd < len(b) && b[vEnd] != ',' && b[vEnd] != '}' && !jsonscan.IsSpace(b[vEnd]) {
				vEnd++
			}
			t.keys[key] = string(b[i:vEnd])
		}
		i = vEnd
	}
}

// isTempoHead reports a Grafana Tempo trace (its API's {"batches": [...]}): OTLP resource
// spans, whose span lists are scopeSpans or, before OTLP 1.0, instrumentationLibrarySpans.
func isTempoHead(head []byte) bool {
	return bytes.Contains(head, []byte(`"scopeSpans"`)) || bytes.Contains(head, []byte(`"instrumentationLibrarySpans"`))
}

// mayHoldRuns says whether the head of a file of JSON documents names a key that chats or
// steps have (see chatsIn), or the kind of a call's record: only then are its documents
// searched for them.
func mayHoldRuns(head []byte) bool {
	for _, k := range runKeys {
		if bytes.Contains(head, k) {
			return true
		}
	}
	return false
}

var runKeys = [][]byte{[]byte(`"role"`), []byte(`"tool_calls"`), []byte(`"tool"`), []byte(`"tool_name"`),
	[]byte(`"action"`), []byte(`"observation"`), []byte(`"observations"`),
	// the kind of a call's record, or a result's, in a log that keeps them apart (eventpairs.go)
	[]byte(`"tool_call"`), []byte(`"tool_result"`)}

// opensAValue says whether b, which opens with '[' or '{', goes on as JSON does: an array's
// first element or its end, an object's first key or its end.
func opensAValue(b []byte) bool {
	j := 1
	for j < len(b) && jsonscan.IsSpace(b[j]) {
		j++
	}
	if j == len(b) {
		return true // nothing more in the head: nothing against it
	}
	c := b[j]
	if b[0] == '{' {
		return c == '"' || c == '}'
	}
	if c == '-' || '0' <= c && c <= '9' {
		// A number, then what follows a list's item: "[12:00:01] [INFO]" and "[2025-11-05T05:28:05Z]"
		// open a log's lines, not a list of numbers.
		k := jsonNumberEnd(b, j)
		for k < len(b) && jsonscan.IsSpace(b[k]) {
			k++
		}
		return k > j && (k == len(b) || b[k] == ',' || b[k] == ']')
	}
	return c == ']' || c == '{' || c == '[' || c == '"' || c == 't' || c == 'f' || c == 'n'
}

// jsonNumberEnd is where the JSON number that starts at b[i] ends: i when none starts there.
func jsonNumberEnd(b []byte, i int) int {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	digits := func() int {
		k := j
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		return j - k
	}
	if digits() == 0 {
		return i
	}
	if j < len(b) && b[j] == '.' {
		j++
		if digits() == 0 {
			return i
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if digits() == 0 {
			return i
		}
	}
	return j
}

// isGeminiRecordHead says whether a JSONL head opens with a Gemini CLI chat recording's message
// record, {id, timestamp, type, content}, with no session of its own: type "gemini" (the
// model's message), or a user message with a "gemini" record after it in the head.
func isGeminiRecordHead(has func(string) bool, typ string, head []byte) bool {
	if !has("id") || !has("timestamp") || !has("content") || has("uuid") || has("sessionId") || has("role") {
		return false
	}
	return typ == "gemini" || typ == "user" && bytes.Contains(head, []byte(`"type":"gemini"`))
}

// isExportHead says whether head opens with an exporter's title line and, when more of the
// file than the title is in head, holds its entries' headings (mark): a note that merely
// starts with the same words is not taken for an export.
func isExportHead(head []byte, title, mark string) bool {
	rest, ok := bytes.CutPrefix(head, []byte(title))
	if !ok || (len(rest) > 0 && rest[0] != '\n' && rest[0] != '\r') {
		return false
	}
	return len(rest) < 2048 || bytes.Contains(rest, []byte(mark))
}

// frameworkPrintout says which agent framework printed the run head opens, by its marks:
// smolagents', LangChain's, AutoGen's, AG2's, LlamaIndex's, DSPy's, CAMEL's and Haystack's
// console printouts; kindUnknown for none.
func frameworkPrintout(head []byte) kind {
	switch {
	case isSmolagentsHead(head):
		return kindSmolagents
	case isLangChainTextHead(head):
		return kindLangChainText
	case isAutoGenConsoleHead(head):
		return kindAutoGenConsole
	case isAG2Head(head):
		return kindAG2Console
	case isLlamaIndexHead(head):
		return kindLlamaIndex
	case isDSPyHead(head):
		return kindDSPy
	case isCAMELConsoleHead(head):
		return kindCAMELConsole
	case isHaystackConsoleHead(head):
		return kindHaystackConsole
	}
	return kindUnknown
}
