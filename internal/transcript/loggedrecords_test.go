package transcript

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// An issue solver's log: its own lines behind a time and a level, and the stream-json records
// of the `claude -p` runs it started, pretty-printed or on one line, among them.
const solverLog = `Solution draft log for https://github.com/o/r/pull/52

# Solve.mjs Log - 2025-11-05T05:27:16.131Z

[2025-11-05T05:27:16.143Z] [INFO] 📁 Log file: /home/hive/solve.log
[2025-11-05T05:27:18.257Z] [WARNING] ⚠️  config {dry-run: false}
[2025-11-05T05:28:05.809Z] [INFO] {
  "type": "system",
  "subtype": "init",
  "cwd": "/tmp/gh-issue-solver",
  "session_id": "edfac8ca",
  "tools": ["Bash", "Read"],
  "model": "claude-sonnet-4-5-20250929"
}
[2025-11-05T05:28:09.239Z] [INFO] {"type":"assistant","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"gh pr view 52"}}]},"parent_tool_use_id":null,"session_id":"edfac8ca"}
[2025-11-05T05:28:10.848Z] [INFO] {
  "type": "user",
  "message": {
    "role": "user",
    "content": [
      {
        "tool_use_id": "toolu_1",
        "type": "tool_result",
        "content": "title:\tfix the parser\nstate:\tDRAFT",
        "is_error": false
      }
    ]
  },
  "parent_tool_use_id": null,
  "session_id": "edfac8ca"
}
[2025-11-05T05:28:11.000Z] [INFO] 💬 Claude is working...
[2025-11-05T05:29:11.000Z] [INFO] {"type":"result","subtype":"success","is_error":false,"session_id":"edfac8ca","total_cost_usd":0.12}
`

func TestLogCarryingStreamRecordsIsReadByThem(t *testing.T) {
	for name, log := range map[string]string{
		"after a title": solverLog,
		"from its first line, a time in brackets": solverLog[strings.Index(solverLog, "[2025-"):],
	} {
		t.Run(name, func(t *testing.T) {
			tr, err := ReadFrom("pr-52-log.txt", strings.NewReader(log))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != FormatClaudeCode || len(tr.Agents) != 1 {
				t.Fatalf("read as %s with %d agents, want claude-code with 1", tr.Format, len(tr.Agents))
			}
			calls := tr.Agents[0].Calls()
			if len(calls) != 1 || calls[0].Tool != "Bash" || !strings.Contains(calls[0].Result, "fix the parser") {
				t.Errorf("calls %+v, want the Bash call with its result", calls)
			}
		})
	}
}

func TestLogWithoutStreamRecordsIsNoTranscript(t *testing.T) {
	for name, log := range map[string]string{
		"JSON of no stream format":                  "[12:00:01] [INFO] starting\n[12:00:02] [INFO] {\"port\": 8080, \"debug\": true}\n[12:00:03] [INFO] {\n  \"ready\": true\n}\n",
		"braces in words":                           "[12:00:01] [INFO] config {dry-run: false}\n[12:00:02] [INFO] {\n",
		"a tool's output quoting a session's lines": "479:{\"parentUuid\":\"d\",\"isSidechain\":false,\"sessionId\":\"c\",\"type\":\"assistant\",\"uuid\":\"u\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"Bash\",\"input\":{}}]}}\n588:{\"x\":1}\n",
		"a record behind a quote":                   "[12:00:02] [INFO] \"{\\\"type\\\":\\\"system\\\",\\\"subtype\\\":\\\"init\\\",\\\"session_id\\\":\\\"s\\\",\\\"tools\\\":[]}\"\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ReadFrom("run.log", strings.NewReader(log))
			if !errors.Is(err, ErrUnknownFormat) {
				t.Errorf("error %v, want an unknown format", err)
			}
		})
	}
}

func FuzzLoggedRecords(f *testing.F) {
	f.Add([]byte(solverLog))
	f.Add([]byte("[1] {\n\"type\": \"system\", \"subtype\": \"init\", \"session_id\": \"s\", \"tools\": []\n}\n[2] {\"type\":\"assistant\"\n}\n"))
	f.Add([]byte("x {\n"))
	f.Add([]byte("{\"a\": 1}\n{\"log_type\": \"x\", \"data\": {\"type\": \"thread.started\", \"thread_id\": \"t\"}}\n{\"data\": {\"type\": \"item.completed\", \"item\": 3}}\n{\"data\": 7}\n"))
	fuzzReader(f, func(name string, br *bufio.Reader) (*built, error) {
		t, err := readLoggedRecords(name, br, 0)
		if err != nil {
			return nil, err
		}
		return &built{Transcript: t}, nil
	})
}

// A line of the harness's own that ends in a brace opens no record, and costs none of the
// records after it.
func TestLoggedRecordsAfterABraceOfWords(t *testing.T) {
	log := "[2025-11-05T05:28:00.000Z] [INFO] settings {\n[2025-11-05T05:28:01.000Z] [INFO]   retries: 3\n" + solverLog[strings.Index(solverLog, "[2025-"):]
	tr, err := ReadFrom("solve.log", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if calls := tr.Agents[0].Calls(); len(calls) != 1 || !strings.Contains(calls[0].Result, "fix the parser") {
		t.Errorf("calls %+v, want the Bash call with its result", calls)
	}
}

// A harness that writes the CLI's output in chunks, each behind a prefix of its own, splits a
// long record over several lines; a chunk may itself open with a brace. The record is read
// whole (validation round r82b U1).
func TestLoggedRecordWrittenInChunks(t *testing.T) {
	call := `{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"TodoWrite","input":{"todos":[{"content":"Implement help display","status":"pending"}]}}]},"parent_tool_use_id":null,"session_id":"s1"}`
	result := `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"Todos have been modified successfully. Ensure that you continue to use the todo list"}]},"parent_tool_use_id":null,"session_id":"s1"}`
	chunk := func(rec string, at ...int) string {
		var b strings.Builder
		last := 0
		for i, cut := range append(at, len(rec)) {
			fmt.Fprintf(&b, "[2025-12-20T09:36:49.9%02dZ] [INFO] %s\n", 40+i, rec[last:cut])
			last = cut
		}
		return b.String()
	}
	log := "[2025-12-20T09:36:40.000Z] [INFO] {\n  \"type\": \"system\",\n  \"subtype\": \"init\",\n  \"session_id\": \"s1\",\n  \"tools\": [\"TodoWrite\"]\n}\n" +
		chunk(call, strings.Index(call, `{"content"`)) + chunk(result, 60, 140)
	tr, err := ReadFrom("solution-draft-log.txt", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if len(calls) != 1 || calls[0].Tool != "TodoWrite" || !strings.HasPrefix(calls[0].Result, "Todos have been modified") {
		t.Errorf("calls %+v, want the TodoWrite with its whole result", calls)
	}
}

// A harness may log each record a CLI printed inside an envelope of its own, a JSON line with
// no type whose "data" is the record, after a header line of its run: the records are read
// by their format (validation round r94b U1: six logs of `codex exec --json` were not a
// transcript).
func TestEnvelopedStreamRecordsAreReadByThem(t *testing.T) {
	envelope := func(rec string) string {
		return `{"log_type": "stream_output", "timestamp_iso": "2025-12-29T14:26:07.131135", "timestamp_unix": 1767039967.13, "data": ` + rec + "}\n"
	}
	log := `{"vuln": 40096184, "workspace": "/w/src", "command": ["codex", "exec", "--json", "Find and fix the bug"]}` + "\n" +
		envelope(`{"type": "thread.started", "thread_id": "019b6bca"}`) +
		envelope(`{"type": "turn.started"}`) +
		envelope(`{"type": "item.completed", "item": {"id": "item_0", "type": "reasoning", "text": "**Look at the crash**"}}`) +
		envelope(`{"type": "item.completed", "item": {"id": "item_1", "type": "command_execution", "command": "bash -lc 'make test'", "aggregated_output": "FAIL\n", "exit_code": 1, "status": "failed"}}`) +
		`{"log_type": "stderr", "timestamp_iso": "2025-12-29T14:26:09", "text": "a line of the harness's own"}` + "\n" +
		envelope(`{"type": "turn.completed", "usage": {"input_tokens": 10, "output_tokens": 2}}`)
	tr, err := ReadFrom("arvo-40096184.log", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	calls := tr.Agents[0].Calls()
	if tr.Format != FormatCodexExec || len(calls) != 1 || !calls[0].Failed || !strings.Contains(string(calls[0].Args), "make test") {
		t.Errorf("read as %s, calls %+v; want codex-exec with the failed make test", tr.Format, calls)
	}
}

// A CI log that cuts every line at 1,024 characters leaves a pretty-printed record whose
// string never closes: it is named by the line it starts on, not passed over in silence; a
// block of code between braces alone, or a template of JSON in a Markdown fence, is no damaged
// record (validation round r118a U1).
func TestLoggedRecordCutShortNamesItsLine(t *testing.T) {
	cut := strings.Replace(solverLog, `"content": "title:\tfix the parser\nstate:\tDRAFT",`, `"content": "title:\tfix the parser\nstate:\tDRA`, 1)
	code := "func main() {\n\tfmt.Println(\"hi\")\n}\n```json\n{\n  \"status\": \"completed|failed\",\n  \"commits\": [\"abc1234\", ...]\n}\n```\n"
	tr, err := ReadFrom("run-37.md", strings.NewReader(code+cut))
	if err != nil {
		t.Fatal(err)
	}
	if calls := tr.Agents[0].Calls(); len(calls) != 1 || calls[0].HasResult {
		t.Errorf("calls %+v, want the Bash call, its result lost", calls)
	}
	start := strings.Count((code + cut)[:strings.Index(code+cut, "[2025-11-05T05:28:10.848Z]")], "\n") + 1
	if len(tr.Damaged) != 1 || tr.Damaged[0].Line != start || !strings.Contains(tr.Damaged[0].Error(), "not JSON") {
		t.Errorf("damaged %v, want the cut record at line %d alone", tr.Damaged, start)
	}
}
