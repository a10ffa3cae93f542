package transcript

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/loopguard/loopguard"
)

// Tests on real public files (testdata/real, sources and trimming in testdata/real/SOURCES).
// Each file's calls are counted twice: by the reader, and by an independent walk of the raw
// file written for the test (encoding/json into maps, or a plain text count), which must
// agree agent by agent, session by session.

// agentCalls maps "session/agent" to the agent's number of calls.
type agentCalls map[string]int

func readerCalls(tr *Transcript) agentCalls {
	got := agentCalls{}
	for _, a := range tr.Agents {
		got[fmt.Sprintf("%d/%s", a.Session, a.ID)] = len(a.Calls())
	}
	return got
}

// walkTauBench counts tool_calls of the assistant messages of each entry's traj.
func walkTauBench(t *testing.T, raw []byte) (agentCalls, int) {
	var list []map[string]any
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	want := agentCalls{}
	for i, e := range list {
		traj, _ := e["traj"].([]any)
		n := 0
		for _, m := range traj {
			mm, _ := m.(map[string]any)
			if mm["role"] == "assistant" {
				tc, _ := mm["tool_calls"].([]any)
				n += len(tc)
			}
		}
		if len(traj) > 0 {
			want[fmt.Sprintf("%d/main", i)] = n
		}
	}
	return want, len(list)
}

// walkClaudeMarkdown counts the tool_use blocks of the export as text: the exporter writes
// blocks as indented JSON, each "type" on a line of its own; a tool_use inside a string would
// have its quotes escaped and is not counted.
func walkClaudeMarkdown(t *testing.T, raw []byte, name string) (agentCalls, int) {
	n := len(regexp.MustCompile(`(?m)^    "type": "tool_use",?\r?$`).FindAll(raw, -1))
	agent := MainAgent
	if m := regexp.MustCompile("(?m)^- \\*\\*Session ID\\*\\*: `(agent-[^`]+)`").FindSubmatch(raw); m != nil {
		agent = string(m[1])
	}
	if strings.HasPrefix(filepath.Base(name), "agent-") != (agent != MainAgent) {
		t.Fatalf("%s: the Session ID line does not match the file name", name)
	}
	return agentCalls{"0/" + agent: n}, 1
}

// walkOpenHandsEvents counts the agent actions that record the tool call they came from.
func walkOpenHandsEvents(events []any) int {
	n := 0
	for _, e := range events {
		m, _ := e.(map[string]any)
		if _, isAction := m["action"].(string); isAction && m["source"] == "agent" && m["tool_call_metadata"] != nil {
			n++
		}
	}
	return n
}

func walkOpenHandsList(t *testing.T, raw []byte, _ string) (agentCalls, int) {
	var events []any
	if err := json.Unmarshal(raw, &events); err != nil {
		t.Fatal(err)
	}
	return agentCalls{"0/main": walkOpenHandsEvents(events)}, 1
}

func walkOpenHandsOutput(t *testing.T, raw []byte, _ string) (agentCalls, int) {
	want := agentCalls{}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	for i, l := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		h, _ := rec["history"].([]any)
		want[fmt.Sprintf("%d/main", i)] = walkOpenHandsEvents(h)
	}
	return want, len(lines)
}

// walkToolUseBlocks counts the tool_use blocks of the assistant messages of a message list.
func walkToolUseBlocks(t *testing.T, raw []byte, _ string) (agentCalls, int) {
	var list []map[string]any
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range list {
		blocks, _ := m["content"].([]any)
		for _, b := range blocks {
			if bm, _ := b.(map[string]any); m["role"] == "assistant" && bm["type"] == "tool_use" {
				n++
			}
		}
	}
	return agentCalls{"0/main": n}, 1
}

// toolCallsOf counts the tool_calls of the assistant messages of a list of OpenAI messages.
func toolCallsOf(list any) int {
	n := 0
	msgs, _ := list.([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "assistant" {
			tc, _ := mm["tool_calls"].([]any)
			n += len(tc)
		}
	}
	return n
}

// textCallsOf counts the <function=...> blocks of the assistant messages of a list of
// OpenAI messages (content a string or a list of text parts).
func textCallsOf(list []any) int {
	n := 0
	for _, m := range list {
		mm, _ := m.(map[string]any)
		if mm["role"] != "assistant" {
			continue
		}
		switch c := mm["content"].(type) {
		case string:
			n += strings.Count(c, "<function=")
		case []any:
			for _, p := range c {
				pm, _ := p.(map[string]any)
				text, _ := pm["text"].(string)
				n += strings.Count(text, "<function=")
			}
		}
	}
	return n
}

// responseMessage is a completion response's first choice's message.
func responseMessage(r any) any {
	rm, _ := r.(map[string]any)
	choices, _ := rm["choices"].([]any)
	if len(choices) == 0 {
		return nil
	}
	c, _ := choices[0].(map[string]any)
	return c["message"]
}

// walkCompletionDump counts the calls of one OpenHands completion dump: the tool_calls of its
// history and of its response, taking the structured form (fncall_messages and
// fncall_response in OpenHands 0.x, raw_messages and response in the SDK) when the dump has
// one. When it also has the text form (messages and response, or messages and raw_response),
// its <function=...> blocks (and any native call of the raw response) must count the same.
func walkCompletionDump(t *testing.T, raw []byte, name string) (agentCalls, int) {
	var d map[string]any
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	history, resp, textResp := d["messages"], d["response"], any(nil)
	switch {
	case d["fncall_messages"] != nil:
		history, resp, textResp = d["fncall_messages"], d["fncall_response"], d["response"]
	case d["raw_messages"] != nil:
		history, textResp = d["raw_messages"], d["raw_response"]
	}
	n := toolCallsOf(history) + toolCallsOf([]any{responseMessage(resp)})
	if textResp != nil {
		msgs, _ := d["messages"].([]any)
		// The model may still answer with a native call (the first dump of sdk-nonfncall).
		r := []any{responseMessage(textResp)}
		if text := textCallsOf(msgs) + textCallsOf(r) + toolCallsOf(r); text != n {
			t.Errorf("%s: %d structured calls, %d written as text", name, n, text)
		}
	}
	return agentCalls{"0/main": n}, 1
}

// walkOpencodeExport counts the tool parts of the messages of an `opencode export` document.
func walkOpencodeExport(t *testing.T, raw []byte, _ string) (agentCalls, int) {
	var d struct {
		Messages []struct {
			Parts []map[string]any `json:"parts"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range d.Messages {
		for _, p := range m.Parts {
			if p["type"] == "tool" {
				n++
			}
		}
	}
	return agentCalls{"0/main": n}, 1
}

// walkOTLP counts the GenAI execute_tool spans of an OTLP JSON document (resourceSpans, or
// Tempo's batches; scopeSpans or instrumentationLibrarySpans), per conversation (numbered by
// its first tool span's start) and agent (the gen_ai.agent.name of the span or its nearest
// ancestor).
func walkOTLP(t *testing.T, raw []byte, _ string) (agentCalls, int) {
	var d map[string][]struct {
		ScopeSpans   []struct{ Spans []map[string]any } `json:"scopeSpans"`
		LibrarySpans []struct{ Spans []map[string]any } `json:"instrumentationLibrarySpans"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	attrs := func(s map[string]any) map[string]string {
		out := map[string]string{}
		list, _ := s["attributes"].([]any)
		for _, a := range list {
			am, _ := a.(map[string]any)
			v, _ := am["value"].(map[string]any)
			if sv, ok := v["stringValue"].(string); ok {
				out[am["key"].(string)] = sv
			}
		}
		return out
	}
	byID := map[string]map[string]any{}
	var tools []map[string]any
	for _, rs := range append(d["resourceSpans"], d["batches"]...) {
		for _, ss := range append(rs.ScopeSpans, rs.LibrarySpans...) {
			for _, s := range ss.Spans {
				byID[fmt.Sprint(s["traceId"], "/", s["spanId"])] = s
				if attrs(s)["gen_ai.operation.name"] == "execute_tool" {
					tools = append(tools, s)
				}
			}
		}
	}
	start := func(s map[string]any) float64 {
		switch v := s["startTimeUnixNano"].(type) {
		case float64:
			return v
		case string:
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
		return 0
	}
	sort.SliceStable(tools, func(i, j int) bool { return start(tools[i]) < start(tools[j]) })
	want, sessions := agentCalls{}, map[string]int{}
	for _, s := range tools {
		conv := attrs(s)["gen_ai.conversation.id"]
		if _, ok := sessions[conv]; !ok {
			sessions[conv] = len(sessions)
		}
		agent := MainAgent
		for a := s; a != nil; a = byID[fmt.Sprint(a["traceId"], "/", a["parentSpanId"])] {
			if n := attrs(a)["gen_ai.agent.name"]; n != "" {
				agent = n
				break
			}
		}
		want[fmt.Sprintf("%d/%s", sessions[conv], agent)]++
	}
	return want, len(sessions)
}

func TestRealFilesMatchAnIndependentWalk(t *testing.T) {
	tests := []struct {
		file   string
		format string
		walk   func(t *testing.T, raw []byte, name string) (agentCalls, int)
	}{
		{"tau-bench/gpt-4o-airline-3.json", FormatTauBench, func(t *testing.T, raw []byte, _ string) (agentCalls, int) { return walkTauBench(t, raw) }},
		{"claude-code-markdown/e840880f-b320-46ae-9bc2-2108074584ba-untitled-full.md", FormatClaudeCodeMarkdown, walkClaudeMarkdown},
		{"claude-code-markdown/agent-30e7d465-untitled-full.md", FormatClaudeCodeMarkdown, walkClaudeMarkdown},
		{"openhands/basic.json", FormatOpenHands, walkOpenHandsList},
		{"cline/api_conversation_history.json.gz", FormatCline, walkToolUseBlocks},
		{"openhands/output-2-records.jsonl.gz", FormatOpenHands, walkOpenHandsOutput},
		{"atif/terminus-2-hello-world-context-summarization.trajectory.json.gz", FormatATIF, walkATIF},
		{"openhands-completion/sdk-fncall/litellm_proxy__anthropic__claude-sonnet-4-20250514-1757015046.707.json.gz", FormatOpenHandsCompletion, walkCompletionDump},
		{"openhands-completion/sdk-nonfncall/litellm_proxy__deepseek__deepseek-chat-1757015076.651.json.gz", FormatOpenHandsCompletion, walkCompletionDump},
		{"opencode/session__neon-river__ses_39b623ce7ffeILPe9UgDcyGicH.json.gz", FormatOpencode, walkOpencodeExport},
		{"otlp/tempo_export_with_batches.json.gz", FormatOTLP, walkOTLP},
		{"zed/2025-07-20-wasm-bindgen.md.gz", FormatZed, walkZed},
		{"cline-ui/ui_messages.json.gz", FormatClineUI, walkClineUI},
		{"mini-swe-agent-console/create-bucket-agent.log.gz", FormatMiniConsole, walkMiniConsole},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", "real", tc.file)
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(path, ".gz") {
				raw = gunzip(t, path)
			}
			tr, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != tc.format {
				t.Fatalf("format %q, want %q", tr.Format, tc.format)
			}
			want, sessions := tc.walk(t, raw, path)
			total := 0
			for _, n := range want {
				total += n
			}
			if total == 0 {
				t.Fatal("the independent walk found no call: not a useful test file")
			}
			if got := readerCalls(tr); !reflect.DeepEqual(got, want) {
				t.Errorf("calls per session/agent: reader %v, independent walk %v", got, want)
			}
			if tr.Sessions != sessions {
				t.Errorf("sessions: reader %d, independent walk %d", tr.Sessions, sessions)
			}
		})
	}
}

// walkZed counts the "**Use Tool: name (id)**" lines of a Zed thread, each followed by its
// fenced arguments; one whose id no "**Tool Results: id**" line names is still a call.
func walkZed(t *testing.T, raw []byte, _ string) (agentCalls, int) {
	re := regexp.MustCompile("(?m)^\\*\\*Use Tool: [^\n]+ \\(([^)\n]+)\\)\\*\\*\r?\n```json")
	return agentCalls{"0/main": len(re.FindAll(raw, -1))}, 1
}

// walkClineUI counts the UI messages that show a call: a tool, a command or an MCP tool, said
// or asked, that is not a partial (still streaming) message.
func walkClineUI(t *testing.T, raw []byte, _ string) (agentCalls, int) {
	var entries []map[string]any
	if err := json.Unmarshal(raw, &entries); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		kind := e["say"]
		if e["type"] == "ask" {
			kind = e["ask"]
		}
		partial, _ := e["partial"].(bool)
		if partial {
			continue
		}
		switch {
		case kind == "tool" || kind == "command" || kind == "use_mcp_server":
			n++
		case e["type"] == "say" && kind == "completion_result":
			n++ // attempt_completion
		case e["type"] == "ask" && kind == "followup":
			var q struct{ Question string }
			if text, _ := e["text"].(string); json.Unmarshal([]byte(text), &q) == nil && q.Question != "" {
				n++ // ask_followup_question
			}
		}
	}
	return agentCalls{"0/main": n}, 1
}

// walkATIF counts the tool calls of the agent steps of an ATIF trajectory. A step that made
// several calls of one tool answered by a single result naming none of them (Terminus's
// keystrokes of one turn, then the screen) counts once, as ATIF's reader documents.
func walkATIF(t *testing.T, raw []byte, _ string) (agentCalls, int) {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	steps, _ := doc["steps"].([]any)
	n := 0
	for _, s := range steps {
		sm, _ := s.(map[string]any)
		if sm["source"] != "agent" {
			continue
		}
		calls, _ := sm["tool_calls"].([]any)
		obs, _ := sm["observation"].(map[string]any)
		results, _ := obs["results"].([]any)
		batch := len(calls) >= 2 && len(results) == 1
		if batch {
			r, _ := results[0].(map[string]any)
			_, named := r["source_call_id"].(string)
			batch = !named
			for _, c := range calls {
				cm, _ := c.(map[string]any)
				first, _ := calls[0].(map[string]any)
				batch = batch && cm["function_name"] == first["function_name"]
			}
		}
		if batch {
			n++
		} else {
			n += len(calls)
		}
	}
	return agentCalls{"0/main": n}, 1
}

// The dumps of one conversation, joined as scan joins a folder of them, hold the calls of the
// last dump (which repeats the conversation so far), counted by walkCompletionDump; each
// earlier dump holds no more.
func TestRealCompletionFoldersMatchTheirLastDump(t *testing.T) {
	for _, dir := range []string{"openhands-completion/sdk-fncall", "openhands-completion/sdk-nonfncall"} {
		t.Run(dir, func(t *testing.T) {
			files, err := filepath.Glob(filepath.Join("testdata", "real", dir, "*.json.gz"))
			if err != nil || len(files) < 2 {
				t.Fatalf("dumps: %v %v", files, err)
			}
			sort.Strings(files) // the names end in the dump's time
			var parts []*CompletionPart
			var want agentCalls
			prev := 0
			for _, f := range files {
				tr, err := Read(f)
				if err != nil {
					t.Fatal(err)
				}
				if tr.Completion == nil {
					t.Fatalf("%s: not read as a completion dump", f)
				}
				parts = append(parts, tr.Completion)
				want, _ = walkCompletionDump(t, gunzip(t, f), f)
				if want["0/main"] < prev {
					t.Errorf("%s: %d calls, fewer than the dump before it (%d)", f, want["0/main"], prev)
				}
				prev = want["0/main"]
			}
			merged := MergeCompletions(dir, parts)
			if got := readerCalls(merged); !reflect.DeepEqual(got, want) {
				t.Errorf("calls of the joined dumps: reader %v, the last dump's walk %v", got, want)
			}
		})
	}
}

// Codex writes its own verdict in place of a command's output when the command did not run
// through ("failed in sandbox LinuxSeccomp with execution error: ..."); the rollout keeps only
// that text. A real session's patches refused by the sandbox are failed calls, the one that
// went through between them and the write after them are not.
func TestRealCodexSandboxRefusalsAreFailedCalls(t *testing.T) {
	tr := mustRead(t, "testdata/real/codex/openprintkit-patches-refused.jsonl.gz")
	var failed []bool
	for _, e := range tr.Agents[0].Events {
		if e.Type == loopguard.EventCall {
			failed = append(failed, e.Failed)
		}
	}
	want := []bool{true, true, false, true, true, true, true, false}
	if !slices.Equal(failed, want) {
		t.Errorf("failed flags of the calls %v, want %v", failed, want)
	}
}

func TestCodexVerdictsMarkTheCallFailed(t *testing.T) {
	tests := []struct {
		name, output string
		failed       bool
	}{
		{"refused by the sandbox", "failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 1, stdout: , stderr: x", true},
		{"timed out", "command timed out after 10000 milliseconds", true},
		{"not started", "execution error: Io(Os { code: 2, kind: NotFound })", true},
		{"refused by the user", "exec command rejected by user", true},
		{"refused by the policy", "exec command rejected: dangerous command", true},
		{"the retry outside the sandbox failed", "retry failed: timeout", true},
		{"a patch the user declined", "patch rejected by user", true},
		{"a patch the safety check refused", "patch rejected: writing outside of the project; rejected by user approval settings", true},
		{"a program's own words about a patch", "the patch rejected earlier is fine now\n", false},
		{"a program's own words", "error: failed in sandbox test\n", false},
		{"a wrapped output of exit code 0", `{"output":"failed in sandbox? no\n","metadata":{"exit_code":0}}`, false},
		{"a plain output", "README.md\nmain.go\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, failed := cxShellOutput(tt.output); failed != tt.failed {
				t.Errorf("cxShellOutput(%q) failed = %v, want %v", tt.output, failed, tt.failed)
			}
		})
	}
}

// walkMiniConsole counts the step headers of a mini-swe-agent console recording, its escape
// sequences taken out by a regular expression: each step is one reply, one call.
func walkMiniConsole(t *testing.T, raw []byte, _ string) (agentCalls, int) {
	plain := regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`).ReplaceAll(raw, nil)
	n := len(regexp.MustCompile(`(?m)^mini-swe-agent \(step [0-9]+, \$[0-9.]+\):\r?$`).FindAll(plain, -1))
	return agentCalls{"0/main": n}, 1
}

// The failed calls of a real mini-swe-agent console recording are those whose answer printed
// a return code other than 0, counted apart from the reader.
func TestRealMiniConsoleFailuresAreItsReturnCodes(t *testing.T) {
	path := "testdata/real/mini-swe-agent-console/create-bucket-agent.log.gz"
	plain := regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`).ReplaceAll(gunzip(t, path), nil)
	var want []bool
	for _, m := range regexp.MustCompile(`<returncode>([0-9]+)</returncode>`).FindAllSubmatch(plain, -1) {
		want = append(want, string(m[1]) != "0")
	}
	var got []bool
	for _, e := range mustRead(t, path).Agents[0].Events {
		if e.Type == loopguard.EventCall && e.HasResult && e.Result != "" {
			got = append(got, e.Failed)
		}
	}
	if len(want) == 0 || !slices.Contains(want, true) || !slices.Equal(got, want) {
		t.Errorf("failed flags of the calls answered %v, return codes say %v", got, want)
	}
}
