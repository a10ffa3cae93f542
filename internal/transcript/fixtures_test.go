package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
	"github.com/loopguard/loopguard/internal/testenv"
)

// The fixtures in testdata/ were written for these tests from the formats' public
// documentation and source code (Claude Code, Codex CLI, Gemini CLI, SWE-agent,
// mini-swe-agent, OpenAI/Anthropic message lists, loopguard events); the real transcripts
// are tested in shared_test.go.

type agentWant struct {
	id     string
	events []string // as rendered by describe
}

var fixtureWant = []struct {
	file   string
	format string
	agents []agentWant
}{
	{
		file:   "claude-code/s1.jsonl",
		format: "claude-code",
		agents: []agentWant{
			{"main", []string{
				`text[meta] "<local-command-caveat>Caveat: Th…"`,
				`user "The parser test fails, please fi…"`,
				`text[model] "Let me look at the test first."`,
				`text[model] "I'll run the tests and read the …"`,
				`call Bash "{\"command\":\"go test ./parser\",\"d…" => "--- FAIL: TestParse (0.00s)\nexit…" FAILED`,
				`call Read "{\"file_path\":\"/home/dev/proj/par…" => "     1\tpackage parser\n     2\t\n  …"`,
				`text[harness] "<system-reminder>The TodoWrite t…"`,
				`call Task "{\"description\":\"Find callers\",\"p…" => "Parse is called from main.go:12."`,
				`text[interrupt] "[Request interrupted by user]"`,
				`user "<command-name>/clear</command-na…"`,
				`text[local-command] "<local-command-stdout></local-co…"`,
				`text[compact-summary] "This session is being continued …"`,
				`user "Try again, run the test"`,
				`call Bash "{\"command\":\"go test ./parser\",\"d…" => "The user doesn't want to proceed…" FAILED`,
				`text[task-notification] "<task-notification>\n<task-id>b1<…"`,
				`call Edit "{\"file_path\":\"/home/dev/proj/par…" => -`,
			}},
			{"sidechain-1", []string{
				`user "Find every caller of Parse"`,
				`call Grep "{\"pattern\":\"Parse\\\\(\",\"path\":\".\"…" => "main.go:12: parser.Parse()"`,
				`text[model] "Parse is called from main.go:12."`,
			}},
		},
	},
	{
		file:   "claude-code/s1/subagents/agent-ab12cd3.jsonl",
		format: "claude-code",
		agents: []agentWant{
			{"agent-ab12cd3", []string{
				`user "Summarise parse.go"`,
				`call Read "{\"file_path\":\"/home/dev/proj/par…" => "     1\tpackage parser\n"`,
				`text[model] "parse.go declares an empty Parse…"`,
			}},
		},
	},
	{
		file:   "codex/rollout-2025-10-03T12-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl",
		format: "codex",
		agents: []agentWant{
			{"main", []string{
				`text[context] "<environment_context>\n  <cwd>/ho…"`,
				`user "Make the parser test pass"`,
				`text[model] "**Running the tests**"`,
				`call shell "{\"command\":[\"bash\",\"-lc\",\"go tes…" => "--- FAIL: TestParse (0.00s)\nFAIL…" FAILED`,
				`call apply_patch "*** Begin Patch\n*** Update File:…" => "Success. Updated the following f…"`,
				`call exec_command "{\"cmd\":\"go test ./parser\",\"yield…" => "Chunk ID: 4f2a\nWall time: 0.5012…"`,
				`call shell_command "{\"command\":\"cat missing.txt\"}" => "Exit code: 1\nWall time: 0.1 seco…" FAILED`,
				`call web_search "{\"type\":\"search\",\"query\":\"go tes…" => -`,
				`call update_plan "{\"plan\":[{\"step\":\"fix parser\",\"s…" => "Plan updated"`,
				`text[model] "The parser test passes now."`,
				`user "thanks, also run vet"`,
				`text[compaction] "Summary of the conversation so f…"`,
				`call local_shell "{\"type\":\"exec\",\"command\":[\"go\",\"…" => "vet: parse.go:3: unreachable cod…" FAILED`,
				`call shell "{\"command\":[\"bash\",\"-lc\",\"go vet…" => -`,
			}},
		},
	},
	{
		file:   "codex/rollout-legacy-2025-07-10.jsonl",
		format: "codex",
		agents: []agentWant{
			{"main", []string{
				`text[context] "<user_instructions>\n\nAlways run …"`,
				`text[context] "<environment_context>\n  <cwd>/ho…"`,
				`user "list the files"`,
				`call shell "{\"command\":[\"ls\"]}" => "README.md\nmain.go\n"`,
				`text[model] "There are two files."`,
			}},
		},
	},
	{
		file:   "events/events.jsonl",
		format: "events",
		agents: []agentWant{
			{"a1", []string{
				`user ""`,
				`call probe "{\"path\":\"/x\",\"n\":1}" => "ok"`,
				`call probe "raw \"text\" args" => "boom" FAILED`,
				`text[s] "hello"`,
				`end`,
				`user ""`,
			}},
			{"a2", []string{
				`call noargs "" => -`,
			}},
			{"", []string{
				`call anon "null" => -`,
			}},
		},
	},
	{
		file:   "gemini/checkpoint-mytag.json",
		format: "gemini-cli",
		agents: []agentWant{
			{"main", []string{
				`user "This is the Gemini CLI. We are s…"`,
				`text[model] "Got it. Thanks for the context!"`,
				`user "List the Go files"`,
				`text[model] "**Listing files**\nI should use g…"`,
				`text[model] "I'll list them."`,
				`call glob "{\"pattern\":\"**/*.go\"}" => "Found 2 file(s)\nmain.go\nparser/p…"`,
				`call read_file "{\"absolute_path\":\"/home/dev/proj…" => "File not found: /home/dev/proj/m…" FAILED`,
				`text[model] "There are two Go files."`,
			}},
		},
	},
	{
		file:   "gemini/checkpoint-wrapped.json",
		format: "gemini-cli",
		agents: []agentWant{
			{"main", []string{
				`user "This is the Gemini CLI. We are s…"`,
				`text[model] "Got it. Thanks for the context!"`,
				`user "List the Go files"`,
				`text[model] "**Listing files**\nI should use g…"`,
				`text[model] "I'll list them."`,
				`call glob "{\"pattern\":\"**/*.go\"}" => "Found 2 file(s)\nmain.go\nparser/p…"`,
				`call read_file "{\"absolute_path\":\"/home/dev/proj…" => "File not found: /home/dev/proj/m…" FAILED`,
				`text[model] "There are two Go files."`,
			}},
		},
	},
	{
		file:   "gemini/logs.json",
		format: "gemini-cli",
		agents: []agentWant{
			{"s-1", []string{
				`user "hello"`,
				`user "/stats"`,
			}},
			{"s-2", []string{
				`user "fix the parser"`,
			}},
		},
	},
	{
		file:   "gemini/restore-checkpoint.json",
		format: "gemini-cli",
		agents: []agentWant{
			{"main", []string{
				`user "This is the Gemini CLI. We are s…"`,
				`text[model] "Got it. Thanks for the context!"`,
				`user "List the Go files"`,
				`text[model] "**Listing files**\nI should use g…"`,
				`text[model] "I'll list them."`,
				`call glob "{\"pattern\":\"**/*.go\"}" => "Found 2 file(s)\nmain.go\nparser/p…"`,
				`call read_file "{\"absolute_path\":\"/home/dev/proj…" => "File not found: /home/dev/proj/m…" FAILED`,
				`text[model] "There are two Go files."`,
			}},
		},
	},
	{
		file:   "gemini/session-2025-09-18T10-00-7c9e6679.json",
		format: "gemini-cli",
		agents: []agentWant{
			{"main", []string{
				`user "Why does the parser test fail?"`,
				`text[model] "Locating the test\nI will read th…"`,
				`call read_file "{\"absolute_path\":\"/home/dev/proj…" => "package parser\n\nfunc TestParse(t…"`,
				`text[model] "Running the tests."`,
				`call run_shell_command "{\"command\":\"go test ./parser\",\"d…" => "Command: go test ./parser\nDirect…" FAILED`,
				`call replace "{\"file_path\":\"/home/dev/proj/par…" => "Failed to edit, 0 occurrences fo…" FAILED`,
				`user "Stop and explain."`,
				`text[model] "The test expects Parse to return…"`,
			}},
		},
	},
	{
		file:   "gemini/session-2025-09-18T11-00-7c9e6679.jsonl",
		format: "gemini-cli",
		agents: []agentWant{
			{"main", []string{
				`user "Count the Go files"`,
				`call glob "{\"pattern\":\"**/*.go\"}" => "Found 2 file(s)\n/home/dev/proj/m…"`,
				`text[model] "There are 2 Go files."`,
			}},
		},
	},
	{
		file:   "messages/anthropic-messages.json",
		format: "messages",
		agents: []agentWant{
			{"main", []string{
				`user "Count the lines in a.txt"`,
				`text[model] "Use wc."`,
				`text[model] "Counting."`,
				`call bash "{\"command\":\"wc -l a.txt\"}" => "3 a.txt"`,
				`call bash "{\"command\":\"cat b.txt\"}" => "cat: b.txt: No such file" FAILED`,
				`text[model] "a.txt has 3 lines."`,
			}},
		},
	},
	{
		file:   "messages/openai-chat.json",
		format: "messages",
		agents: []agentWant{
			{"main", []string{
				`text[system] "You are a helpful agent."`,
				`user "What's the weather in Paris and …"`,
				`call get_weather "{\"city\": \"Paris\"}" => "Paris: 18C"`,
				`call get_weather "{\"city\": \"Rome\"}" => "Rome: 25C"`,
				`text[model] "Both calls returned."`,
				`text[model] "Paris is 18C, Rome 25C."`,
				`user "And London?"`,
				`call get_weather "{\"city\": \"London\"}" => "London: 12C"`,
				`call get_weather "{\"city\":\"Oslo\"}" => -`,
			}},
		},
	},
	{
		file:   "messages/openhands-fncall.json",
		format: "messages",
		agents: []agentWant{
			{"main", []string{
				`text[system] "You are OpenHands agent, a helpf…"`,
				`user "<uploaded_files>/workspace/djang…"`,
				`text[model] "Let me look."`,
				`call str_replace_editor "{\"command\": \"view\", \"path\": \"/wo…" => "Here's the files and directories…"`,
				`text[model] "Done."`,
				`call finish "{}" => -`,
			}},
		},
	},
	{
		// one message a line, OpenAI style: results by tool_call_id, in any order
		file:   "messages/openai-chat.jsonl",
		format: "messages",
		agents: []agentWant{
			{"main", []string{
				`text[system] "You are a coding agent."`,
				`user "Why does test_parse fail?"`,
				`text[model] "Run the test first."`,
				`call run "{\"cmd\": \"pytest -q tests/test_pa…" => "F\nE   ValueError: bad header\n1 f…"`,
				`call read "{\"path\": \"parse.py\"}" => "def parse(): ..."`,
				`call read "{\"path\": \"header.py\"}" => "def header(): ..."`,
				`text[model] "The header check is wrong."`,
			}},
		},
	},
	{
		// Kimi CLI's context.jsonl: OpenAI-style messages between marker lines (_checkpoint,
		// _usage), its system prompt as _system_prompt, its thinking as "think" blocks
		file:   "messages/kimi-context.jsonl",
		format: "messages",
		agents: []agentWant{
			{"main", []string{
				`text[system] "You are Kimi CLI, an interactive…"`,
				`user "The parser test fails, please fi…"`,
				`text[model] "Run the failing test first."`,
				`text[model] "I'll run the tests."`,
				`call Shell "{\"command\": \"go test ./parser\"}" => "<system>ERROR: Command failed wi…"`,
				`text[model] "Reading the parser."`,
				`call ReadFile "{\"path\": \"parser/parse.go\"}" => "package parser"`,
			}},
		},
	},
	{
		// one message a line, Anthropic style: tool_use and tool_result blocks
		file:   "messages/anthropic-messages.jsonl",
		format: "messages",
		agents: []agentWant{
			{"main", []string{
				`user "List the Go files"`,
				`text[model] "Use find."`,
				`call bash "{\"command\":\"find . -name '*.go'\"…" => "./main.go\n./x.go"`,
				`call bash "{\"command\":\"cat missing.go\"}" => "cat: missing.go: No such file or…" FAILED`,
				`text[model] "Two Go files."`,
			}},
		},
	},
	{
		file:   "messages/conversation.json",
		format: "messages",
		agents: []agentWant{
			{"main", []string{
				`text[system] "You are a coding agent."`,
				`user "Why does test_parse fail?"`,
				`text[model] "Run the test first."`,
				`call run "{\"cmd\": \"pytest -q tests/test_pa…" => "F\nE   ValueError: bad header\n1 f…"`,
			}},
		},
	},
	{
		// LangChain's messages_to_dict: {"type", "data"}; tool calls with "args"; a ToolMessage
		// with status "error" is a failed call
		file:   "messages/langchain-messages-to-dict.json",
		format: "messages",
		agents: []agentWant{
			{"main", []string{
				`user "What is the population of Lyon?"`,
				`call search "{\"query\":\"Lyon population\"}" => "Lyon: 522,250 inhabitants (2021)"`,
				`call calculator "{\"expression\":\"522250/1000\"}" => "Error: calculator is not availab…" FAILED`,
				`text[model] "Lyon has about 522 thousand inha…"`,
			}},
		},
	},
	{
		// a LangGraph state's messages, dumped flat: the role is the type
		file:   "messages/langgraph-state.json",
		format: "messages",
		agents: []agentWant{
			{"main", []string{
				`user "List the files"`,
				`call ls "{\"path\":\".\"}" => "a.py\nb.py"`,
				`text[model] "Two files: a.py and b.py."`,
			}},
		},
	},
	{
		// OpenAI Responses API items: function_call and function_call_output by call_id
		file:   "messages/responses-items.json",
		format: "messages",
		agents: []agentWant{
			{"main", []string{
				`user "Run the tests"`,
				`call shell "{\"cmd\":\"pytest -q\"}" => "2 passed in 0.31s"`,
				`text[model] "All tests pass."`,
			}},
		},
	},
	{
		file:   "messages/tau-bench-traj.json",
		format: "messages",
		agents: []agentWant{
			{"main", []string{
				`text[system] "# Airline agent policy\nYou can h…"`,
				`user "Hi, I want to cancel reservation…"`,
				`call get_reservation_details "{\"reservation_id\": \"ABC123\"}" => "{\"reservation_id\": \"ABC123\", \"st…"`,
				`call get_reservation_details "{\"reservation_id\": \"ABC123\"}" => "{\"reservation_id\": \"ABC123\", \"st…"`,
				`text[model] "Your reservation is active. Shal…"`,
				`user "Yes please."`,
			}},
		},
	},
	{
		file:   "mini-swe-agent/demo.traj.json",
		format: "mini-swe-agent",
		agents: []agentWant{
			{"main", []string{
				`text[system] "You are a helpful assistant that…"`,
				`user "<pr_description>\nConsider the fo…"`,
				`text[model] "THOUGHT: Look around."`,
				`call bash "ls -la" => "<returncode>0</returncode>\n<outp…"`,
				`text[model] "THOUGHT: Edit then run.\n\n\n\nThen:…"`,
				`call[harness] bash "sed -i 's/a/b/' a.py" => "Please always provide EXACTLY ON…" FAILED`,
				`text[model] "THOUGHT: I will just think this …"`,
				`call[harness] (no action) "" => "Please always provide EXACTLY ON…" FAILED`,
				`text[model] "THOUGHT: One command."`,
				`call bash "sed -i 's/a/b/' a.py" => "<returncode>1</returncode>\n<outp…" FAILED`,
				`text[model] "THOUGHT: Wait for it."`,
				`call bash "sleep 1000" => "The last command <command>sleep …" FAILED`,
				`text[model] "THOUGHT: Done."`,
				`call bash "echo COMPLETE_TASK_AND_SUBMIT_FI…" => "diff --git a/a.py b/a.py\n"`,
			}},
		},
	},
	{
		file:   "swe-agent/coder-multi.traj",
		format: "swe-agent",
		agents: []agentWant{
			{"Manager", []string{
				`text[system] "SETTING: You are the Manager."`,
				`user "We're currently solving the foll…"`,
				`text[model] "DISCUSSION\nPlan first."`,
				`call plan "plan\n{\"entry\": \"Reproducer\"}\nend…" => "\nIn order to solve this issue, t…"`,
				`text[model] "DISCUSSION\nSubmit."`,
				`call submit "submit\n" => ""`,
			}},
			{"Reproducer", []string{
				`text[system] "SETTING: You are the Reproducer."`,
				`user "We're currently solving the foll…"`,
				`text[model] "Create the script."`,
				`call create "create reproduce.py\n" => "[File: /repo/reproduce.py (1 lin…"`,
				`text[model] "Run it."`,
				`call python "python reproduce.py\n" => "Traceback ... ValueError"`,
				`text[model] "Reproduced."`,
				`call succeed "succeed\n" => ""`,
			}},
			{"Programmer", []string{
				`text[system] "SETTING: You are the Programmer."`,
				`text[demo] "Here is a demonstration of how t…"`,
				`user "We're currently solving the foll…"`,
				`text[model] "Fix line 3."`,
				`call edit "edit 3:3\n    return 1\nend_of_edi…" => "Your proposed edit has introduce…" FAILED`,
				`text[model] "Fix line 3."`,
				`call edit "edit 3:3\n    return 1\nend_of_edi…" => "Your proposed edit has introduce…" FAILED`,
				`text[model] "Give up."`,
				`call fail "fail\n" => ""`,
			}},
		},
	},
	{
		file:   "swe-agent/fncall-history.traj",
		format: "swe-agent",
		agents: []agentWant{
			{"main", []string{
				`text[system] "SYSTEM"`,
				`user "Fix the bug"`,
				`text[model] "Look."`,
				`call bash "{\"command\": \"ls\"}" => "OBSERVATION:\na.py"`,
				`text[harness] "Your last output did not use any…"`,
				`text[model] "Submit."`,
				`call submit "{}" => -`,
			}},
		},
	},
	{
		file:   "swe-agent/single.traj",
		format: "swe-agent",
		agents: []agentWant{
			{"main", []string{
				`text[system] "You are a helpful assistant that…"`,
				`user "<uploaded_files>\n/testbed\n</uplo…"`,
				`text[model] "Look around."`,
				`call ls "ls -la" => "total 0\r\n"`,
				`text[model] "View it."`,
				"call str_replace_editor \"str_replace_editor view /testbed…\" => \"Invalid `view_range` parameter: …\" FAILED",
				`text[model] "View it."`,
				"call str_replace_editor \"str_replace_editor view /testbed…\" => \"Here's the result of running `ca…\"",
				`call submit "submit" => "diff --git a/a.py b/a.py\n"`,
			}},
		},
	},
}

func TestFixtures(t *testing.T) {
	for _, tc := range fixtureWant {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			tr, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Path != path {
				t.Errorf("Path = %q, want %q", tr.Path, path)
			}
			if tr.Format != tc.format {
				t.Errorf("Format = %q, want %q", tr.Format, tc.format)
			}
			var ids, wantIDs []string
			for _, a := range tr.Agents {
				ids = append(ids, a.ID)
			}
			for _, a := range tc.agents {
				wantIDs = append(wantIDs, a.id)
			}
			if !reflect.DeepEqual(ids, wantIDs) {
				t.Fatalf("agents = %q, want %q", ids, wantIDs)
			}
			for i, a := range tr.Agents {
				got := describe(a.Events)
				if !reflect.DeepEqual(got, tc.agents[i].events) {
					t.Errorf("agent %q events:\n got %s\nwant %s", a.ID,
						strings.Join(got, "\n     "), strings.Join(tc.agents[i].events, "\n     "))
				}
				for _, e := range a.Events {
					if e.Agent != a.ID {
						t.Errorf("agent %q has an event for agent %q", a.ID, e.Agent)
					}
				}
			}
		})
	}
}

func TestFixtureUsage(t *testing.T) {
	cases := []struct {
		file  string
		agent string
		want  Usage
	}{
		// Claude Code: lines of one API message repeat its usage; it counts once, from the
		// message's last line.
		{"claude-code/s1.jsonl", "main", Usage{InputTokens: 19, OutputTokens: 280, CacheReadTokens: 4900, CacheWriteTokens: 210, Model: "claude-sonnet-4-5-20250929"}},
		{"claude-code/s1.jsonl", "sidechain-1", Usage{InputTokens: 6, OutputTokens: 30, CacheReadTokens: 1020, Model: "claude-haiku-4-5-20251001"}},
		{"claude-code/s1/subagents/agent-ab12cd3.jsonl", "agent-ab12cd3", Usage{InputTokens: 8, OutputTokens: 34, CacheReadTokens: 900, CacheWriteTokens: 900, Model: "claude-haiku-4-5-20251001"}},
		// Codex: the last cumulative token_count; cached input is not counted as input.
		{"codex/rollout-2025-10-03T12-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl", "main", Usage{InputTokens: 3000, OutputTokens: 700, CacheReadTokens: 9000, Model: "gpt-5-codex"}},
		// codex exec --json: each turn's tokens summed; its input counts the cached input, which
		// is not counted twice (validation round r114d U1).
		{"codex-exec/exec.jsonl", "main", Usage{InputTokens: 700, OutputTokens: 100, CacheReadTokens: 800}},
		// Gemini: per-message tokens summed; thought tokens are output.
		{"gemini/session-2025-09-18T10-00-7c9e6679.json", "main", Usage{InputTokens: 3500, OutputTokens: 240, CacheReadTokens: 23000, Model: "gemini-2.5-flash"}},
		{"gemini/session-2025-09-18T11-00-7c9e6679.jsonl", "main", Usage{InputTokens: 3200, OutputTokens: 28, CacheReadTokens: 2900, Model: "gemini-2.5-pro"}},
		{"mini-swe-agent/demo.traj.json", "main", Usage{InputTokens: 600, OutputTokens: 210, CacheReadTokens: 1500, CostUSD: 0.42, Model: "@google/gemini-3-pro-preview"}},
		{"swe-agent/single.traj", "main", Usage{InputTokens: 1000, OutputTokens: 100, CostUSD: 0.5, Model: "claude-3-7-sonnet-20250219"}},
		// CodeR records cost for the whole run only: on the transcript, not on a role.
		{"swe-agent/coder-multi.traj", "Programmer", Usage{}},
	}
	for _, c := range cases {
		tr, err := Read(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		a := tr.Agent(c.agent)
		if a == nil {
			t.Fatalf("%s: no agent %q", c.file, c.agent)
		}
		if a.Usage != c.want {
			t.Errorf("%s %s: usage %+v, want %+v", c.file, c.agent, a.Usage, c.want)
		}
	}
	tr, err := Read("testdata/swe-agent/coder-multi.traj")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Usage{InputTokens: 40000, OutputTokens: 900, CostUSD: 1.25}); tr.Usage != want {
		t.Errorf("coder-multi run usage %+v, want %+v", tr.Usage, want)
	}
	tr, err = Read("testdata/claude-code/s1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Usage.InputTokens != 25 || tr.Usage.OutputTokens != 310 {
		t.Errorf("s1 transcript usage %+v, want the sum of its agents", tr.Usage)
	}
}

func TestFixtureDetails(t *testing.T) {
	tr, err := Read("testdata/claude-code/s1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agent("main").Calls()
	// Args are the tool_use input bytes as written.
	if got, want := string(calls[0].Args), `{"command":"go test ./parser","description":"Run parser tests"}`; got != want {
		t.Errorf("Args = %s, want %s", got, want)
	}
	if calls[0].Time != 1759395604000 {
		t.Errorf("Time = %d, want the line's timestamp in ms", calls[0].Time)
	}
	var ids []string
	for _, e := range tr.Agent("main").Events {
		if e.Type == loopguard.EventText && e.Source == "model" {
			ids = append(ids, e.ID)
		}
	}
	if want := []string{"a01", "a02"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("model text ids %q, want the lines' uuids %q", ids, want)
	}

	// The events format: a JSON string stands for raw arguments.
	tr, err = Read("testdata/events/events.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	a1 := tr.Agent("a1")
	if got := string(a1.Events[2].Args); got != `raw "text" args` {
		t.Errorf("string args = %q", got)
	}
	if got := string(a1.Events[1].Args); got != `{"path":"/x","n":1}` {
		t.Errorf("object args = %q", got)
	}
	if a1.Events[1].Time != 1700000000000 || a1.Events[3].ID != "m1" || a1.Events[3].Source != "s" {
		t.Errorf("text/time fields lost: %+v %+v", a1.Events[1], a1.Events[3])
	}
	// An event without ts takes the previous event's, as in replay.
	if a1.Events[2].Time != 1700000000000 || a1.Events[4].Time != 1700000000001 {
		t.Errorf("times %d %d, want the previous event's", a1.Events[2].Time, a1.Events[4].Time)
	}
	// user/text/end events without an agent are ignored; a call without one is kept.
	tr, err = ReadFrom("ev", strings.NewReader(`{"type":"user"}`+"\n"+`{"type":"text","text":"x"}`+"\n"+
		`{"type":"call","tool":"t","args":{ "a" : 1 },"result":"not an object"}`+"\n"+`{"type":"end"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Agents) != 1 || len(tr.Agents[0].Events) != 1 {
		t.Fatalf("agents %+v, want one call", tr.Agents)
	}
	if c := tr.Agents[0].Events[0]; string(c.Args) != `{ "a" : 1 }` || c.HasResult {
		t.Errorf("call %+v: want the args as written and no result", c)
	}
	for _, bad := range []string{
		`{"agent":"a"}`, `{"type":"call","agent":"a"}`, `{"type":"call","tool":5}`,
		`{"type":"user","agent":5}`, `{"type":"text","agent":"a","text":1}`, `{"type":"user","agent":"a","ts":"1"}`,
		`{"type":"call","tool":"t","result":{"text":1}}`, `["type","call"]`,
	} {
		if _, err := ReadFrom("ev", strings.NewReader(`{"type":"user","agent":"a"}`+"\n"+bad+"\n")); err == nil || !strings.HasPrefix(err.Error(), "ev:2: ") {
			t.Errorf("%s: %v, want an error on line 2", bad, err)
		}
	}

	// mini-swe-agent: every assistant reply is a call; format errors are refused calls.
	tr, err = Read("testdata/mini-swe-agent/demo.traj.json")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tr.Agent("main").Calls()); n != 6 {
		t.Errorf("mini calls = %d, want 6 (one per assistant message)", n)
	}
}

// A Claude Code subagent file whose lines have no agentId is named after the file.
func TestClaudeSubagentNamedFromFile(t *testing.T) {
	data, err := os.ReadFile("testdata/claude-code/s1/subagents/agent-ab12cd3.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.ReplaceAll(data, []byte(`,"agentId":"ab12cd3"`), nil)
	if bytes.Contains(data, []byte("agentId")) {
		t.Fatal("fixture edit failed")
	}
	tr, err := ReadFrom("/x/s1/subagents/agent-ff00ee1.jsonl.gz", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Agents) != 1 || tr.Agents[0].ID != "agent-ff00ee1" {
		t.Errorf("agents %+v, want agent-ff00ee1", tr.Agents)
	}
}

// A user message that is only a pasted image is a user turn.
func TestClaudeImageTurn(t *testing.T) {
	line := `{"type":"user","uuid":"u1","sessionId":"s","isSidechain":false,"message":{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]}}`
	tr, err := ReadFrom("img.jsonl", strings.NewReader(line+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := describe(tr.Agents[0].Events); !reflect.DeepEqual(got, []string{`user "[image]"`}) {
		t.Errorf("got %q", got)
	}
}

func TestReadSession(t *testing.T) {
	tr, err := ReadSession("testdata/claude-code/s1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range tr.Agents {
		ids = append(ids, a.ID)
	}
	if want := []string{"main", "sidechain-1", "agent-ab12cd3"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("agents %q, want %q", ids, want)
	}
	if tr.Usage.InputTokens != 25+8 {
		t.Errorf("usage %+v does not include the subagent file", tr.Usage)
	}
}

// Every fixture reads the same through gzip, from a file or a stream.
func TestGzipTransparent(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range fixtureWant {
		data, err := os.ReadFile(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		plain, err := ReadFrom("x", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		zipped, err := ReadFrom("x", bytes.NewReader(testenv.Gzip(t, data)))
		if err != nil {
			t.Fatalf("%s gzipped: %v", tc.file, err)
		}
		// The name does not need a .gz suffix: gzip is recognised by its magic bytes.
		p := filepath.Join(dir, strings.ReplaceAll(tc.file, "/", "_")+".data")
		if err := os.WriteFile(p, testenv.Gzip(t, data), 0o644); err != nil {
			t.Fatal(err)
		}
		fromFile, err := Read(p)
		if err != nil {
			t.Fatalf("%s gzipped file: %v", tc.file, err)
		}
		fromFile.Path = "x"
		if strings.Contains(tc.file, "subagents") {
			continue // named after the file when lines lack an id; these have one
		}
		if !reflect.DeepEqual(plain, zipped) || !reflect.DeepEqual(plain, fromFile) {
			t.Errorf("%s: gzip changes the result", tc.file)
		}
	}
}
