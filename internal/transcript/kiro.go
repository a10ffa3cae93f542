package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/loopguard/loopguard"
)

// Kiro CLI (Amazon Q Developer CLI's successor) logs a session as v1 records, kept one a line
// and written whole by its session export ({"format": "kiro-session-export-v1", "metadata":
// {...}, "log_entries": [records]}):
//
//	{"version": "v1", "kind": "Prompt", "data": {"content": [{"kind": "text", "data": "commit it"}]}}
//	{"version": "v1", "kind": "AssistantMessage", "data": {"content": [{"kind": "text", ...},
//	    {"kind": "toolUse", "data": {"toolUseId": "tooluse_…", "name": "shell", "input": {...}}}]}}
//	{"version": "v1", "kind": "ToolResults", "data": {"content": [{"kind": "toolResult", "data":
//	    {"toolUseId": "tooluse_…", "content": [{"kind": "json", "data": {"exit_status": "exit status: 128",
//	    "stdout": "", "stderr": "fatal: not a git repository"}}], "status": "success"}}]}}
//
// A Prompt is a user turn; an AssistantMessage's text is the model's, its toolUse items calls
// (the input's __tool_use_purpose, Kiro's caption, is left out of the arguments); a toolResult
// answers the call with its id: its text items, and for a json item a command's output (stdout,
// then stderr) or the JSON as written. It failed when its status is "error", or when a
// command's exit_status is not 0 (Kiro marks such a result a success). Validation round r83b
// U1: a session export of 59 calls was "not a transcript".

// kiroExportFormat names Kiro CLI's session export.
const kiroExportFormat = "kiro-session-export-v1"

type kiroRecord struct {
	Version string `json:"version"`
	Kind    string `json:"kind"`
	Data    struct {
		Content []kiroItem `json:"content"`
	} `json:"data"`
}

type kiroItem struct {
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data"`
}

// isKiroRecordHead says whether a JSON line is one of Kiro's v1 records.
func isKiroRecordHead(keys map[string]string) bool {
	_, data := keys["data"]
	switch keys["kind"] {
	case "Prompt", "AssistantMessage", "ToolResults":
		return keys["version"] == "v1" && data
	}
	return false
}

func readKiro(name string, br *bufio.Reader) (*built, error) {
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &Error{Path: name, Err: readErr(err)}
	}
	var records []kiroRecord
	var damaged []*Error
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '{' && bytes.Contains(data[:min(len(data), 4096)], []byte(kiroExportFormat)) {
		var doc struct {
			Entries []kiroRecord `json:"log_entries"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, &Error{Path: name, Line: max(jsonErrorLine(data, err), 1), Err: fmt.Errorf("session export of Kiro CLI: %w", err)}
		}
		records = doc.Entries
	} else {
		err := eachSessionLine(name, bufio.NewReader(bytes.NewReader(data)), &damaged, func(line []byte) error {
			var r kiroRecord
			if ok, err := decodeEventLine(line, &r); ok && err == nil {
				records = append(records, r)
			} else if err != nil {
				return err
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return withDamaged(buildKiro(records), damaged), nil
}

func buildKiro(records []kiroRecord) *built {
	b := newBuilder(FormatKiro)
	a := b.agent(MainAgent)
	calls := map[string]int{}
	for _, r := range records {
		switch r.Kind {
		case "Prompt":
			var said []string
			for _, it := range r.Data.Content {
				if t := kiroText(it); t != "" {
					said = append(said, t)
				}
			}
			a.user(strings.Join(said, "\n"), 0)
		case "AssistantMessage":
			for _, it := range r.Data.Content {
				switch it.Kind {
				case "text":
					a.text("model", kiroText(it), "", 0)
				case "toolUse":
					var u struct {
						ID    string         `json:"toolUseId"`
						Name  string         `json:"name"`
						Input map[string]any `json:"input"`
					}
					if json.Unmarshal(it.Data, &u) != nil {
						continue
					}
					delete(u.Input, "__tool_use_purpose")
					calls[u.ID] = a.add(loopguard.Call("", u.Name, marshalArgs(u.Input)))
				}
			}
		case "ToolResults":
			for _, it := range r.Data.Content {
				if it.Kind != "toolResult" {
					continue
				}
				var res struct {
					ID      string     `json:"toolUseId"`
					Content []kiroItem `json:"content"`
					Status  string     `json:"status"`
				}
				if json.Unmarshal(it.Data, &res) != nil {
					continue
				}
				idx, ok := calls[res.ID]
				if !ok {
					continue
				}
				delete(calls, res.ID)
				var parts []string
				failed := res.Status == "error"
				for _, c := range res.Content {
					t, exitFailed := kiroResultText(c)
					failed = failed || exitFailed
					if t != "" {
						parts = append(parts, t)
					}
				}
				e := &a.events[idx]
				e.Result, e.HasResult, e.Failed = strings.Join(parts, "\n"), true, failed
			}
		}
	}
	return b.done()
}

// kiroText is a text item's text.
func kiroText(it kiroItem) string {
	var s string
	if it.Kind == "text" && json.Unmarshal(it.Data, &s) == nil {
		return s
	}
	return ""
}

// kiroExitStatus reads Kiro's "exit status: N".
var kiroExitStatus = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+)\s*$`) })

// kiroResultText is what a result item says: a text item's text; a json item's command output
// (stdout, then stderr), with whether its exit status says it failed, or else the JSON.
func kiroResultText(it kiroItem) (text string, failed bool) {
	if it.Kind == "text" {
		return kiroText(it), false
	}
	var out struct {
		ExitStatus *string `json:"exit_status"`
		Stdout     string  `json:"stdout"`
		Stderr     string  `json:"stderr"`
	}
	if it.Kind == "json" && json.Unmarshal(it.Data, &out) == nil && out.ExitStatus != nil {
		if m := kiroExitStatus().FindStringSubmatch(*out.ExitStatus); m != nil && m[1] != "0" {
			failed = true
		}
		var parts []string
		for _, p := range []string{out.Stdout, out.Stderr} {
			if p = strings.TrimRight(p, "\n"); p != "" {
				parts = append(parts, p)
			}
		}
		return strings.Join(parts, "\n"), failed
	}
	return string(bytesTrimSpace(it.Data)), false
}
