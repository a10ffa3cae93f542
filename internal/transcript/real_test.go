package transcript

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
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
